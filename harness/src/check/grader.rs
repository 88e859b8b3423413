//! A Kattis package's custom grader (`graders/`), run as problemtools runs it: built like its
//! validators, started in the sandbox with the group's `grader_flags` as its arguments and the
//! group's results on stdin, one `VERDICT SCORE` line each; it answers the group's. Whatever
//! goes wrong on its side (it cannot start, crashes, exits non-zero, answers something else)
//! is the group's judge error, with why.

use std::ffi::OsString;

use super::package::{PackageProgram, RunFolder, VALIDATOR_LIMITS};
use crate::sandbox::run::{self, Isolation, RunRequest, Scope, Stdin, Termination};
use crate::score::{grader_input, read_grader_answer, GroupGrader};
use crate::text::one_line;
use crate::verdict::Verdict;

/// Characters of the grader's stderr kept in a reason.
const STDERR_CHARS: usize = 200;

/// A package's grader, built.
#[derive(Debug, Clone)]
pub struct PackageGrader {
    /// The program.
    pub program: PackageProgram,
}

impl GroupGrader for PackageGrader {
    fn grade(
        &self,
        flags: &[String],
        results: &[(Verdict, f64)],
    ) -> Result<(Verdict, f64), String> {
        let name = &self.program.name;
        let folder = RunFolder::new().map_err(|e| format!("no run folder for `{name}`: {e}"))?;
        let (program, mut args) = self
            .program
            .laid_out(folder.path())
            .map_err(|e| format!("cannot lay out `{name}`: {e}"))?;
        args.extend(flags.iter().map(OsString::from));
        let input = grader_input(results);
        let request = RunRequest::new(&program, VALIDATOR_LIMITS)
            .args(&args)
            .stdin(Stdin::Bytes(input.as_bytes()))
            .scope(Scope::Group)
            .workdir(Some(folder.path()))
            .isolation(Isolation::Sandbox);
        let result = run::run(&request).map_err(|e| format!("`{name}` could not run: {e}"))?;
        let stderr = String::from_utf8_lossy(&result.stderr_tail);
        let said = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| format!(" ({})", one_line(l.trim(), STDERR_CHARS)))
            .unwrap_or_default();
        match (result.limit_hit, result.termination) {
            (None, Termination::Exited(0)) => {
                read_grader_answer(&result.stdout).map_err(|why| format!("`{name}`: {why}"))
            }
            (Some(hit), _) => Err(format!(
                "`{name}` was stopped: {}{said}",
                super::package::limit_hit(hit)
            )),
            (None, Termination::Exited(code)) => {
                Err(format!("`{name}` exited with {code}, not 0{said}"))
            }
            (None, Termination::Signaled(signal)) => Err(format!(
                "`{name}` was killed by {}{said}",
                run::signal_name(signal)
            )),
        }
    }
}
