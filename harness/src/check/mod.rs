//! Checkers: decide whether a program's output answers a case, with a one-line reason.
//!
//! Every checker works on bytes (outputs need not be UTF-8) and compares slices in place: a
//! 10 MB output must not turn into a million small `String`s. Reasons are always one line,
//! with long or strange text escaped and cut, because reporters print them in a table.

pub use crate::verdict::Judgement;

mod case_files;
mod checker;
mod command;
pub mod default_validator;
mod exact;
#[cfg(unix)]
pub mod grader;
pub mod hint;
#[cfg(unix)]
pub mod interactor;
mod lines;
#[cfg(unix)]
pub mod manager;
pub mod package;
mod tokens;
mod unordered_blocks;

pub use case_files::CaseFiles;
pub use checker::{check, Checker};
pub use command::COMMAND_TIMEOUT;
pub(crate) use exact::common_prefix;

/// Table tests shared by the checkers' own test modules.
#[cfg(test)]
mod test_table {
    use std::path::Path;

    use super::*;
    use crate::verdict::Verdict;

    /// `checker`'s verdict and reason on `output` against `answer`, with no input.
    pub(super) fn run(
        checker: &Checker,
        output: impl AsRef<[u8]>,
        answer: impl AsRef<[u8]>,
    ) -> (Verdict, String) {
        let case = CaseFiles {
            input: Path::new("/dev/null"),
            answer: Path::new("/dev/null"),
        };
        let result = check(checker, &case, output.as_ref(), answer.as_ref());
        (result.verdict, result.reason)
    }

    /// Runs a table of `(output, answer, expected verdict, expected reason)`; an empty expected
    /// reason means "any reason" (used for accepted rows whose reason is a count).
    pub(super) fn table(checker: &Checker, rows: &[(&str, &str, Verdict, &str)]) {
        for (output, answer, verdict, reason) in rows {
            let (got_verdict, got_reason) = run(checker, output, answer);
            assert_eq!(
                (got_verdict, got_reason.as_str()),
                (
                    *verdict,
                    if reason.is_empty() {
                        got_reason.as_str()
                    } else {
                        reason
                    }
                ),
                "{checker:?} output {output:?} answer {answer:?}"
            );
            assert!(
                !got_reason.contains('\n'),
                "reason must be one line: {got_reason:?}"
            );
        }
    }
}
