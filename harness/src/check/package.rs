//! The output check of a problem package: the default validator with the flags of the case's
//! test group, or the package's own output validator spoken to as Kattis does
//! (`validator INPUT ANSWER FEEDBACK_DIR/ [flags] < output`; 42 AC, 43 WA, else judge error).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::default_validator::{self, Flags};
use super::{CaseFiles, Judgement};
use crate::sandbox::run::{self, Limits, RunRequest, Scope, Stdin, Termination};
use crate::text::one_line;

/// Kattis' exit code for an accepted output.
pub const EXIT_ACCEPTED: i32 = 42;
/// Kattis' exit code for a wrong answer.
pub const EXIT_WRONG_ANSWER: i32 = 43;

/// Characters of `judgemessage.txt` kept in a reason.
const MESSAGE_CHARS: usize = 300;

/// What a custom validator may use: far more than any submission, since a slow validator is
/// the package's fault, not the contestant's; a hung one is still stopped.
const VALIDATOR_LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(60),
    wall_time: Duration::from_secs(120),
    memory_bytes: 4 << 30,
    output_bytes: 1 << 20,
};

/// How a package's outputs are checked.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageChecker {
    /// The default validator, or the package's own.
    pub validator: OutputValidator,
    /// The flags of each test-data folder (`data/secret/group1`), inherited already; the case's
    /// deepest folder that has an entry gives its flags.
    pub groups: Vec<(PathBuf, Vec<String>)>,
}

/// Which output validator a package uses.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputValidator {
    /// problemtools' default validator, taking the group's flags.
    Default,
    /// The package's own validator, built: the program and the arguments before the case's.
    Custom {
        /// The built program.
        program: PathBuf,
        /// Its arguments before INPUT ANSWER FEEDBACK_DIR (an interpreter's script).
        args: Vec<OsString>,
        /// Shown in reasons: `output_validators/checker`.
        name: String,
    },
}

impl PackageChecker {
    /// The flags for the case whose input is `input`.
    pub fn flags_for(&self, input: &Path) -> &[String] {
        self.groups
            .iter()
            .filter(|(folder, _)| input.starts_with(folder))
            .max_by_key(|(folder, _)| folder.components().count())
            .map_or(&[], |(_, flags)| flags.as_slice())
    }

    /// Checks one output against its answer.
    pub fn check(&self, case: &CaseFiles<'_>, output: &[u8], answer: &[u8]) -> Judgement {
        let flags = self.flags_for(case.input);
        match &self.validator {
            OutputValidator::Default => match Flags::parse(flags) {
                Ok(parsed) => default_validator::check(&parsed, output, answer),
                Err(message) => Judgement::judge_error(format!(
                    "the package's validator flags are wrong: {message}"
                )),
            },
            OutputValidator::Custom {
                program,
                args,
                name,
            } => custom(program, args, name, flags, case, output),
        }
    }
}

/// Runs a Kattis output validator on one output.
fn custom(
    program: &Path,
    args: &[OsString],
    name: &str,
    flags: &[String],
    case: &CaseFiles<'_>,
    output: &[u8],
) -> Judgement {
    let scratch = match tempfile::Builder::new()
        .prefix("harness-feedback-")
        .tempdir()
    {
        Ok(dir) => dir,
        Err(error) => {
            return Judgement::judge_error(format!(
                "cannot make a feedback folder for `{name}`: {error}"
            ))
        }
    };
    let feedback = scratch.path().join("feedback");
    let output_file = scratch.path().join("team_output");
    if let Err(error) =
        std::fs::create_dir(&feedback).and_then(|()| std::fs::write(&output_file, output))
    {
        return Judgement::judge_error(format!("cannot write the output for `{name}`: {error}"));
    }
    let mut all_args: Vec<OsString> = args.to_vec();
    all_args.push(case.input.as_os_str().to_owned());
    all_args.push(case.answer.as_os_str().to_owned());
    // The trailing slash is part of the protocol: validators concatenate file names to it.
    let mut feedback_arg = feedback.as_os_str().to_owned();
    feedback_arg.push("/");
    all_args.push(feedback_arg);
    all_args.extend(flags.iter().map(OsString::from));
    // Its memory counted over its group, with no address-space backstop: validators may be
    // JVMs or start helpers.
    let request = RunRequest::new(program, VALIDATOR_LIMITS)
        .args(&all_args)
        .stdin(Stdin::File(&output_file))
        .scope(Scope::Group);
    let result = match run::run(&request) {
        Ok(result) => result,
        Err(error) => {
            return Judgement::judge_error(format!(
                "output validator `{name}` could not run: {error}"
            ))
        }
    };
    let read = |file: &str| {
        std::fs::read(feedback.join(file))
            .ok()
            .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
            .filter(|text| !text.is_empty())
    };
    let message = read("judgemessage.txt")
        .or_else(|| read("teammessage.txt"))
        .map(|m| one_line(&m, MESSAGE_CHARS));
    let stderr = String::from_utf8_lossy(&result.stderr_tail);
    let last_stderr_line = || {
        stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| one_line(l.trim(), MESSAGE_CHARS))
    };
    match result.termination {
        Termination::Exited(EXIT_ACCEPTED) => {
            Judgement::accepted(message.unwrap_or_else(|| format!("`{name}` accepted")))
        }
        // BAPCtools' validation.h, and many validators, say why on stderr instead.
        Termination::Exited(EXIT_WRONG_ANSWER) => Judgement::wrong_answer(
            message
                .or_else(last_stderr_line)
                .unwrap_or_else(|| format!("`{name}` says wrong answer (no judgemessage.txt)")),
        ),
        ending => {
            let how = match ending {
                Termination::Exited(code) => format!("exited with {code}, not 42 or 43"),
                Termination::Signaled(signal) => {
                    format!("was killed by {}", run::signal_name(signal))
                }
            };
            let detail = message
                .or_else(last_stderr_line)
                .map(|m| format!(": {m}"))
                .unwrap_or_default();
            Judgement::judge_error(format!("output validator `{name}` {how}{detail}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    fn script(dir: &Path, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("validator.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn run_custom(body: &str, output: &str, flags: &[&str]) -> Judgement {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("1.in");
        let answer = dir.path().join("1.ans");
        std::fs::write(&input, "in\n").unwrap();
        std::fs::write(&answer, "42\n").unwrap();
        let checker = PackageChecker {
            validator: OutputValidator::Custom {
                program: script(dir.path(), body),
                args: Vec::new(),
                name: "output_validators/v".to_string(),
            },
            groups: vec![(
                dir.path().to_path_buf(),
                flags.iter().map(ToString::to_string).collect(),
            )],
        };
        let case = CaseFiles {
            input: &input,
            answer: &answer,
        };
        checker.check(&case, output.as_bytes(), b"42\n")
    }

    #[test]
    fn kattis_exit_codes_and_judgemessage() {
        // Reads the team output on stdin and the answer from $2, writes its reason into $3.
        let body = r#"read team; read judge < "$2"; if [ "$team" = "$judge" ]; then exit 42; fi
echo "got $team, wanted $judge" > "$3/judgemessage.txt"; exit 43"#;
        let ok = run_custom(body, "42\n", &[]);
        assert_eq!(ok.verdict, Verdict::Accepted, "{}", ok.reason);
        let wrong = run_custom(body, "7\n", &[]);
        assert_eq!(wrong.verdict, Verdict::WrongAnswer);
        assert_eq!(wrong.reason, "got 7, wanted 42");
        // Without judgemessage.txt, the last line on stderr is the reason.
        let on_stderr = run_custom("echo '1:3: expected 42, got 7' >&2; exit 43", "7\n", &[]);
        assert_eq!(on_stderr.verdict, Verdict::WrongAnswer);
        assert_eq!(on_stderr.reason, "1:3: expected 42, got 7");
        let silent = run_custom("exit 43", "7\n", &[]);
        assert!(
            silent.reason.ends_with("(no judgemessage.txt)"),
            "{}",
            silent.reason
        );
    }

    #[test]
    fn flags_follow_the_feedback_folder_and_other_codes_are_judge_errors() {
        let echo_args = r#"case "$3" in */) ;; *) exit 1;; esac; echo "$4 $5" > "$3/judgemessage.txt"; exit 43"#;
        let result = run_custom(echo_args, "", &["case_sensitive", "x"]);
        assert_eq!(result.verdict, Verdict::WrongAnswer, "{}", result.reason);
        assert_eq!(result.reason, "case_sensitive x");

        let result = run_custom("echo broken >&2; exit 0", "", &[]);
        assert_eq!(result.verdict, Verdict::JudgeError);
        assert!(
            result
                .reason
                .contains("exited with 0, not 42 or 43: broken"),
            "{}",
            result.reason
        );
        let result = run_custom("kill -SEGV $$", "", &[]);
        assert_eq!(result.verdict, Verdict::JudgeError);
        assert!(result.reason.contains("SIGSEGV"), "{}", result.reason);
    }

    #[test]
    fn the_deepest_group_gives_the_flags() {
        let checker = PackageChecker {
            validator: OutputValidator::Default,
            groups: vec![
                (PathBuf::from("/p/data"), vec!["a".into()]),
                (PathBuf::from("/p/data/secret/g1"), vec!["b".into()]),
            ],
        };
        assert_eq!(
            checker.flags_for(Path::new("/p/data/secret/g1/1.in")),
            ["b"]
        );
        assert_eq!(
            checker.flags_for(Path::new("/p/data/secret/g10/1.in")),
            ["a"]
        );
        assert!(checker.flags_for(Path::new("/q/1.in")).is_empty());
    }
}
