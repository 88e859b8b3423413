//! One run on an input the user gives (`harness judge … --input FILE`): the submission's
//! output, time and memory under the problem's limits; with a reference, its answer and the
//! checker's verdict. It never prints.

use std::path::Path;
use std::time::Duration;

use crate::check::{self, CaseFiles, Checker};
use crate::compile::Program;
use crate::sandbox::run::{self, Isolation, Limits, RunError, RunRequest, Stdin};
use crate::tool::{self, Role, ToolError};
use crate::verdict::{self, Judgement, Verdict};

#[derive(Debug, thiserror::Error)]
pub enum CustomError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("{0} (hint: the reference must answer the input)")]
    Reference(ToolError),
    #[error("cannot read the answer `{}`: {source}", path.display())]
    Answer {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// What the submission did on the input.
#[derive(Debug, Clone)]
pub struct CustomRun {
    /// A verdict the run alone decides (TLE, RE, …), or the checker's against the reference's
    /// answer; AC when there is nothing to compare with, which reports show as `ran`
    /// ([`CustomRun::checked`]).
    pub verdict: Verdict,
    pub reason: String,
    /// All the submission printed (up to the output limit).
    pub output: Vec<u8>,
    pub stderr_tail: String,
    pub cpu_time: Duration,
    pub peak_memory_bytes: u64,
    /// The answer compared with: the answer file's, or the reference's.
    pub expected: Option<Vec<u8>>,
    /// Where the answer came from, when it is a file beside the input.
    pub answer_file: Option<std::path::PathBuf>,
}

impl CustomRun {
    /// Whether its output was compared with an answer; a run with none is `ran`, never AC.
    pub fn checked(&self) -> bool {
        self.expected.is_some()
    }
}

/// What the output on a custom input is compared with.
#[derive(Debug, Clone, Copy)]
pub enum Expected<'a> {
    /// Nothing: the run alone decides, and `why` (where an answer would have been) is the
    /// reason of a run within the limits.
    Nothing { why: &'a str },
    /// The answer file beside the input (`random-1.out` beside `random-1.in`).
    Answer(&'a Path),
    /// The problem's reference, a command run from `root`, answers it.
    Reference {
        command: &'a [String],
        root: &'a Path,
    },
}

/// Runs `program` on `input` under `limits`; with an answer file or a reference, checks the
/// output against that answer.
pub fn run_on_input(
    program: &Program,
    input: &Path,
    limits: Limits,
    checker: &Checker,
    reference: Expected<'_>,
) -> Result<CustomRun, CustomError> {
    let (expected, answer_file, why_unchecked) = match reference {
        Expected::Reference { command, root } => {
            let answer = tool::Command::new(Role::Reference, command, root, &[])
                .output(Some(input), None)
                .map_err(CustomError::Reference)?;
            (Some(answer), None, "")
        }
        Expected::Answer(path) => {
            let answer = std::fs::read(path).map_err(|source| CustomError::Answer {
                path: path.to_path_buf(),
                source,
            })?;
            (Some(answer), Some(path.to_path_buf()), "")
        }
        Expected::Nothing { why } => (None, None, why),
    };
    let env = program.env();
    let request = RunRequest::new(&program.executable, limits)
        .args(&program.args)
        .env(&env)
        .address_space_cap(program.address_space_cap())
        .stdin(Stdin::File(input))
        .syscall_filter(program.syscall_filter)
        .isolation(Isolation::Sandbox);
    let mut result = run::run(&request)?;
    // A traceback or an `assert` names the user's file, in the reason as in the excerpt.
    if let std::borrow::Cow::Owned(said) = program.shown.show_bytes(&result.stderr_tail) {
        result.stderr_tail = said;
    }
    let judgement = verdict::decide(&result, &limits, || match &expected {
        None => Judgement::accepted(why_unchecked),
        Some(answer) => check_against(
            checker,
            input,
            answer,
            answer_file.as_deref(),
            &result.stdout,
        ),
    });
    let mut stderr_tail = String::from_utf8_lossy(&result.stderr_tail).into_owned();
    let mut reason = judgement.reason;
    if let Some(sanitized) = program
        .sanitized
        .as_ref()
        .filter(|_| judgement.verdict == Verdict::RuntimeError)
    {
        if let Some(report) = sanitized.reason(&stderr_tail) {
            reason = report;
            stderr_tail = sanitized.tidy(&stderr_tail);
        }
    }
    Ok(CustomRun {
        verdict: judgement.verdict,
        reason,
        output: result.stdout,
        stderr_tail,
        cpu_time: result.cpu_time,
        peak_memory_bytes: result.resident_peak_bytes,
        expected,
        answer_file,
    })
}

/// The program's output judged against `answer`, which an external checker reads from
/// `answer_file` (or a scratch copy when the answer came from a reference).
fn check_against(
    checker: &Checker,
    input: &Path,
    answer: &[u8],
    answer_file: Option<&Path>,
    output: &[u8],
) -> Judgement {
    // An external checker reads the answer from a file.
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(error) => return Judgement::judge_error(format!("no scratch folder: {error}")),
    };
    let answer_path = match answer_file {
        Some(path) => path.to_path_buf(),
        None => {
            let path = dir.path().join("input.ans");
            if let Err(error) = std::fs::write(&path, answer) {
                return Judgement::judge_error(format!("cannot write the answer: {error}"));
            }
            path
        }
    };
    let files = CaseFiles {
        input,
        answer: &answer_path,
    };
    let mut judgement = check::check(checker, &files, output, answer);
    if judgement.verdict == Verdict::WrongAnswer {
        if let Some(hint) = check::hint::near_miss(checker, output, answer) {
            judgement.reason = format!("{} (hint: {hint})", judgement.reason);
        }
    }
    judgement
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(5),
            wall_time: Duration::from_secs(30),
            memory_bytes: 256 << 20,
            output_bytes: 1 << 20,
        }
    }

    #[test]
    fn output_with_and_without_a_reference() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        std::fs::write(&input, "yes\n").unwrap();
        let cat = Program::new("cat");
        let alone = run_on_input(
            &cat,
            &input,
            limits(),
            &Checker::Tokens,
            Expected::Nothing { why: "not checked" },
        )
        .unwrap();
        assert_eq!(alone.output, b"yes\n");
        assert_eq!(alone.verdict, Verdict::Accepted);
        assert!(alone.expected.is_none() && !alone.checked());
        assert_eq!(alone.reason, "not checked");

        let shout = ["sh".to_string(), "-c".to_string(), "tr a-z A-Z".to_string()];
        let root = dir.path();
        let checked = run_on_input(
            &cat,
            &input,
            limits(),
            &Checker::Tokens,
            Expected::Reference {
                command: &shout,
                root,
            },
        )
        .unwrap();
        assert_eq!(checked.expected.as_deref(), Some(&b"YES\n"[..]));
        assert_eq!(checked.verdict, Verdict::WrongAnswer);
        let ignoring_case = run_on_input(
            &cat,
            &input,
            limits(),
            &Checker::TokensIgnoreCase,
            Expected::Reference {
                command: &shout,
                root,
            },
        )
        .unwrap();
        assert_eq!(ignoring_case.verdict, Verdict::Accepted);
    }
}
