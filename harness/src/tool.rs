//! The problem author's own programs (validators, generators, shrink commands, references),
//! run under generous limits: they are trusted, but one that hangs must not hang the harness.
//! A package's programs are the same roles run the same way, in the sandbox: this is the one
//! runner of both, and the one reading of an input validator's exit.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::sandbox::run::{
    self, Isolation, LimitHit, Limits, RunError, RunRequest, RunResult, Scope, Stdin, Termination,
};
use crate::units::{format_bytes, format_duration};

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
    /// A package's submission writing the answers of generated cases.
    Solution,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Validator => "validator",
            Role::Generator => "generator",
            Role::Reference => "reference",
            Role::Shrinker => "shrink command",
            Role::Solution => "solution",
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

/// A command from judge.toml, with its placeholders (`{seed}`, `{input}`, `{dir}`) filled in,
/// or a package's program laid out in its run folder.
#[derive(Debug, Clone)]
pub struct Command {
    pub role: Role,
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// How the command is shown in messages: as judge.toml wrote it, placeholders filled in.
    pub shown: String,
    pub limits: Limits,
    pub scope: Scope,
    /// judge.toml's programs are the author's and need the project; a package's are
    /// downloaded code, run in the sandbox.
    pub isolation: Isolation,
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
            limits: LIMITS,
            scope: Scope::Process,
            isolation: Isolation::Process,
        }
    }

    /// A package's program `shown` (`generators/gen.py`), as `program` and `args` start it:
    /// in the sandbox, its whole process group under `limits`.
    pub fn sandboxed(
        role: Role,
        shown: &str,
        (program, args): (PathBuf, Vec<OsString>),
        limits: Limits,
    ) -> Command {
        Command {
            role,
            program,
            args,
            shown: shown.to_string(),
            limits,
            scope: Scope::Group,
            isolation: Isolation::Sandbox,
        }
    }

    /// Runs it with `stdin` in `workdir` (or a fresh folder), and hands back whatever it did;
    /// a run that only ended badly is not an error here.
    pub fn start(&self, stdin: Stdin<'_>, workdir: Option<&Path>) -> Result<RunResult, RunError> {
        let request = RunRequest::new(&self.program, self.limits)
            .args(&self.args)
            .stdin(stdin)
            .scope(self.scope)
            .workdir(workdir)
            .isolation(self.isolation);
        run::run(&request)
    }

    /// A run's error, named by the command.
    pub fn error(&self, error: RunError) -> ToolError {
        match error {
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
        }
    }

    /// Runs it and insists on a clean exit: its stdout, or why it failed.
    pub fn output(
        &self,
        stdin: Option<&Path>,
        workdir: Option<&Path>,
    ) -> Result<Vec<u8>, ToolError> {
        let stdin = stdin.map_or(Stdin::Null, Stdin::File);
        let result = self.start(stdin, workdir).map_err(|e| self.error(e))?;
        let failed = |how| ToolError::Failed {
            role: self.role,
            command: self.shown.clone(),
            how,
        };
        self.failure(&result)
            .map(failed)
            .map_or(Ok(result.stdout), Err)
    }

    /// Runs it and insists on a clean exit: the whole run, or how it failed in words that
    /// leave the command to the caller's message (a package's generators and solutions).
    pub fn finish(&self, stdin: Stdin<'_>, workdir: Option<&Path>) -> Result<RunResult, String> {
        let result = self.start(stdin, workdir).map_err(|e| e.to_string())?;
        self.failure(&result).map_or(Ok(result), Err)
    }

    /// Runs it as an input validator on `input`: `None` when it exits with `valid_exit` (its
    /// protocol's), else the run that rejected the input, for its reason.
    pub fn validate(
        &self,
        input: &Path,
        workdir: Option<&Path>,
        valid_exit: i32,
    ) -> Result<Option<RunResult>, RunError> {
        let result = self.start(Stdin::File(input), workdir)?;
        let valid =
            result.limit_hit.is_none() && result.termination == Termination::Exited(valid_exit);
        Ok((!valid).then_some(result))
    }

    /// Why a run of it did not end cleanly (a limit, a signal, a non-zero exit, with the last
    /// line of stderr), or `None` when it did.
    pub fn failure(&self, result: &RunResult) -> Option<String> {
        let limits = &self.limits;
        let printed = || format!("printed more than {}", format_bytes(limits.output_bytes));
        let how = match (result.limit_hit, result.termination) {
            (Some(LimitHit::WallTime), _) => {
                let wall = format_duration(limits.wall_time);
                format!("still running after {wall} (killed)")
            }
            (Some(LimitHit::CpuTime), _) => {
                let cpu = format_duration(limits.cpu_time);
                format!("used more than {cpu} of CPU time (killed)")
            }
            (Some(LimitHit::Memory), _) => {
                let memory = format_bytes(limits.memory_bytes);
                format!("used more than {memory} of memory")
            }
            (Some(LimitHit::Output), _) => printed(),
            (None, Termination::Exited(0)) if result.stdout_truncated => printed(),
            (None, Termination::Exited(0)) => return None,
            (None, ending) => ending.describe(),
        };
        let said = last_line(&result.stderr_tail).map(|line| format!(": {line}"));
        Some(how + &said.unwrap_or_default())
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
            ..Command::new(Role::Generator, &[], Path::new("/"), &[])
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
