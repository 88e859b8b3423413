//! The problem author's own programs (validators, generators, shrink commands, references),
//! run under generous limits: they are trusted, but one that hangs must not hang the harness.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::sandbox::run::{self, Limits, RunError, RunRequest, RunResult, Stdin, Termination};

/// Far above any contest limit: a reference brute force may take seconds where the solution
/// takes milliseconds, and a generator may print a 100 MB input.
pub const LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(60),
    wall_time: Duration::from_secs(120),
    memory_bytes: 4 << 30,
    output_bytes: 1 << 30,
};

/// Which of the author's programs ran, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Validator,
    Generator,
    Reference,
    Shrinker,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Validator => "validator",
            Role::Generator => "generator",
            Role::Reference => "reference",
            Role::Shrinker => "shrink command",
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("cannot start the {role} `{command}`: {source} (hint: build it — drop --no-build — or fix judge.toml)")]
    Start {
        role: Role,
        command: String,
        source: std::io::Error,
    },
    #[error("the {role} `{command}` failed: {how}")]
    Failed {
        role: Role,
        command: String,
        how: String,
    },
    #[error("the {role} `{command}` could not run: {source}")]
    Run {
        role: Role,
        command: String,
        source: RunError,
    },
}

/// A command from judge.toml, with its placeholders (`{seed}`, `{input}`, `{dir}`) filled in.
#[derive(Debug, Clone)]
pub struct Command {
    pub role: Role,
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// How the command is shown in messages: as judge.toml wrote it, placeholders filled in.
    pub shown: String,
}

impl Command {
    /// `template` as judge.toml wrote it; a program path with a `/` is taken from `root`.
    /// Every `{name}` of `vars` is replaced, whether it is a whole argument or inside one.
    pub fn new(role: Role, template: &[String], root: &Path, vars: &[(&str, &str)]) -> Command {
        let fill = |part: &String| {
            vars.iter().fold(part.clone(), |part, (name, value)| {
                part.replace(&format!("{{{name}}}"), value)
            })
        };
        let filled: Vec<String> = template.iter().map(fill).collect();
        let program = filled
            .first()
            .map(|program| resolve_program(program, root))
            .unwrap_or_default();
        Command {
            role,
            program,
            args: filled.iter().skip(1).map(OsString::from).collect(),
            shown: filled.join(" "),
        }
    }

    /// Runs it with `stdin` (or /dev/null) in `workdir` (or a fresh folder), and hands back
    /// whatever it did; a run that only ended badly is not an error here.
    pub fn run(
        &self,
        stdin: Option<&Path>,
        workdir: Option<&Path>,
    ) -> Result<RunResult, ToolError> {
        let request = RunRequest::new(&self.program, LIMITS)
            .args(&self.args)
            .stdin(stdin.map_or(Stdin::Null, Stdin::File))
            .workdir(workdir);
        run::run(&request).map_err(|error| match error {
            RunError::Spawn { source, .. } => ToolError::Start {
                role: self.role,
                command: self.shown.clone(),
                source,
            },
            other => ToolError::Run {
                role: self.role,
                command: self.shown.clone(),
                source: other,
            },
        })
    }

    /// Runs it and insists on a clean exit: its stdout, or why it failed.
    pub fn output(
        &self,
        stdin: Option<&Path>,
        workdir: Option<&Path>,
    ) -> Result<Vec<u8>, ToolError> {
        let result = self.run(stdin, workdir)?;
        match failure(&result) {
            None => Ok(result.stdout),
            Some(how) => Err(ToolError::Failed {
                role: self.role,
                command: self.shown.clone(),
                how,
            }),
        }
    }
}

/// A program named with a slash, or naming a file in judge.toml's folder, is that file; any
/// other bare name is looked up on PATH when it runs, as a shell would (see `config::commands`).
pub fn resolve_program(program: &str, root: &Path) -> PathBuf {
    if program.contains('/') || (!program.is_empty() && root.join(program).is_file()) {
        root.join(program)
    } else {
        PathBuf::from(program)
    }
}

/// Why a run did not end cleanly (a limit, a signal, a non-zero exit, with the last line of
/// stderr), or `None` when it did.
pub fn failure(result: &RunResult) -> Option<String> {
    let how = match (result.limit_hit, result.termination) {
        (Some(run::LimitHit::WallTime), _) => format!(
            "still running after {} (killed)",
            crate::units::format_duration(LIMITS.wall_time)
        ),
        (Some(run::LimitHit::CpuTime), _) => format!(
            "used more than {} of CPU time (killed)",
            crate::units::format_duration(LIMITS.cpu_time)
        ),
        (Some(run::LimitHit::Memory), _) => format!(
            "used more than {} of memory",
            crate::units::format_bytes(LIMITS.memory_bytes)
        ),
        (Some(run::LimitHit::Output), _) => format!(
            "printed more than {}",
            crate::units::format_bytes(LIMITS.output_bytes)
        ),
        (None, Termination::Exited(0)) if result.stdout_truncated => format!(
            "printed more than {}",
            crate::units::format_bytes(LIMITS.output_bytes)
        ),
        (None, Termination::Exited(0)) => return None,
        (None, ending) => ending.describe(),
    };
    Some(match last_line(&result.stderr_tail) {
        Some(line) => format!("{how}: {line}"),
        None => how,
    })
}

/// The last non-blank line of a program's stderr: where validators and panics say why.
pub fn last_line(stderr: &[u8]) -> Option<String> {
    crate::text::last_line(&String::from_utf8_lossy(stderr)).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(parts: &[&str]) -> Vec<String> {
        parts.iter().map(std::string::ToString::to_string).collect()
    }

    #[test]
    fn placeholders_are_filled_whole_and_inside_arguments() {
        let command = Command::new(
            Role::Generator,
            &strings(&["gen/random", "{seed}", "--out={dir}/x", "plain"]),
            Path::new("/project"),
            &[("seed", "42"), ("dir", "/tmp/d")],
        );
        assert_eq!(command.program, Path::new("/project/gen/random"));
        assert_eq!(command.args, ["42", "--out=/tmp/d/x", "plain"]);
        assert_eq!(command.shown, "gen/random 42 --out=/tmp/d/x plain");
    }

    #[test]
    fn bare_programs_stay_bare_for_path_lookup() {
        let command = Command::new(
            Role::Validator,
            &strings(&["python3", "validate.py"]),
            Path::new("/project"),
            &[],
        );
        assert_eq!(command.program, Path::new("python3"));
    }

    #[test]
    fn last_line_skips_blank_lines() {
        assert_eq!(
            last_line(b"warning\nline 1: n = 14 is out of [6, 13]\n\n"),
            Some("line 1: n = 14 is out of [6, 13]".to_string())
        );
        assert_eq!(last_line(b" \n"), None);
    }

    #[test]
    fn failures_are_described() {
        let args = ["-c".into(), "echo bad >&2; exit 3".into()];
        let command = Command {
            role: Role::Generator,
            program: PathBuf::from("/bin/sh"),
            args: args.to_vec(),
            shown: "gen".to_string(),
        };
        let error = command.output(None, None).unwrap_err().to_string();
        assert_eq!(error, "the generator `gen` failed: exit 3: bad");

        let missing = Command::new(
            Role::Reference,
            &strings(&["/nonexistent/ref"]),
            Path::new("/"),
            &[],
        );
        let error = missing.output(None, None).unwrap_err().to_string();
        assert!(
            error.starts_with("cannot start the reference `/nonexistent/ref`"),
            "{error}"
        );
    }
}
