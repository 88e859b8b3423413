//! One run on an input the user gives (`harness judge … --input FILE`): the submission's
//! output, time and memory under the problem's limits; with a reference, its answer and the
//! checker's verdict. It never prints.

use std::path::Path;
use std::time::Duration;

use crate::author::tool::{self, Role, ToolError};
use crate::check::{self, CaseFiles, Checker};
use crate::compile::Program;
use crate::sandbox::run::{self, Isolation, Limits, RunError, RunRequest, Stdin};
use crate::verdict::{self, Judgement, Verdict};

#[derive(Debug, thiserror::Error)]
pub enum CustomError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("{0} (hint: the reference must answer the input)")]
    Reference(ToolError),
}

/// What the submission did on the input.
#[derive(Debug, Clone)]
pub struct CustomRun {
    /// A verdict the run alone decides (TLE, RE, …), or the checker's against the reference's
    /// answer; AC with "no reference" when there is nothing to compare with.
    pub verdict: Verdict,
    pub reason: String,
    /// All the submission printed (up to the output limit).
    pub output: Vec<u8>,
    pub stderr_tail: String,
    pub cpu_time: Duration,
    pub peak_memory_bytes: u64,
    /// The reference's answer, when the problem has a reference.
    pub expected: Option<Vec<u8>>,
}

/// Runs `program` on `input` under `limits`; with `reference` (a command from `root`), also
/// runs it and checks the output against its answer.
pub fn run_on_input(
    program: &Program,
    input: &Path,
    limits: Limits,
    checker: &Checker,
    reference: Option<(&[String], &Path)>,
) -> Result<CustomRun, CustomError> {
    let expected = match reference {
        Some((command, root)) => Some(
            tool::Command::new(Role::Reference, command, root, &[])
                .output(Some(input), None)
                .map_err(CustomError::Reference)?,
        ),
        None => None,
    };
    let request = RunRequest::new(&program.executable, limits)
        .args(&program.args)
        .stdin(Stdin::File(input))
        .syscall_filter(program.syscall_filter)
        .isolation(Isolation::Sandbox);
    let result = run::run(&request)?;
    let judgement = verdict::decide(&result, &limits, || match &expected {
        None => Judgement::accepted("no reference to compare with"),
        Some(answer) => {
            // An external checker reads the answer from a file.
            let dir = match tempfile::tempdir() {
                Ok(dir) => dir,
                Err(error) => return Judgement::judge_error(format!("no scratch folder: {error}")),
            };
            let answer_path = dir.path().join("input.ans");
            if let Err(error) = std::fs::write(&answer_path, answer) {
                return Judgement::judge_error(format!("cannot write the answer: {error}"));
            }
            let files = CaseFiles {
                input,
                answer: &answer_path,
            };
            check::check(checker, &files, &result.stdout, answer)
        }
    });
    Ok(CustomRun {
        verdict: judgement.verdict,
        reason: judgement.reason,
        output: result.stdout,
        stderr_tail: String::from_utf8_lossy(&result.stderr_tail).into_owned(),
        cpu_time: result.cpu_time,
        peak_memory_bytes: result.resident_peak_bytes,
        expected,
    })
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
        let alone = run_on_input(&cat, &input, limits(), &Checker::Tokens, None).unwrap();
        assert_eq!(alone.output, b"yes\n");
        assert_eq!(alone.verdict, Verdict::Accepted);
        assert!(alone.expected.is_none());

        let shout = ["sh".to_string(), "-c".to_string(), "tr a-z A-Z".to_string()];
        let root = dir.path();
        let checked = run_on_input(
            &cat,
            &input,
            limits(),
            &Checker::Tokens,
            Some((&shout, root)),
        )
        .unwrap();
        assert_eq!(checked.expected.as_deref(), Some(&b"YES\n"[..]));
        assert_eq!(checked.verdict, Verdict::WrongAnswer);
        let ignoring_case = run_on_input(
            &cat,
            &input,
            limits(),
            &Checker::TokensIgnoreCase,
            Some((&shout, root)),
        )
        .unwrap();
        assert_eq!(ignoring_case.verdict, Verdict::Accepted);
    }
}
