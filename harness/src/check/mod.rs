//! Checkers: decide whether a program's output answers a case, with a one-line reason.
//!
//! Every checker works on bytes (outputs need not be UTF-8) and compares slices in place: a
//! 10 MB output must not turn into a million small `String`s. Reasons are always one line,
//! with long or strange text escaped and cut, because reporters print them in a table.

use std::path::{Path, PathBuf};

pub use crate::verdict::Judgement;

mod command;
pub mod default_validator;
mod exact;
pub mod hint;
#[cfg(unix)]
pub mod interactor;
mod lines;
pub mod package;
mod tokens;
mod unordered_blocks;

pub use command::COMMAND_TIMEOUT;
pub(crate) use exact::common_prefix;

/// How a problem's outputs are compared with its answers.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Checker {
    /// Whitespace-separated tokens; spacing, CRLF and the final newline do not matter.
    #[default]
    Tokens,
    /// Tokens, letters compared without case (`YES`, `yes`, `Yes`): "print the answer in any
    /// case", as Codeforces problems say.
    TokensIgnoreCase,
    /// Line by line, trailing whitespace ignored (and a final newline).
    Lines,
    /// Byte for byte.
    Exact,
    /// Tokens; numbers equal within `absolute` or `relative` tolerance, others exactly.
    Float {
        /// Largest accepted `|found - expected|`.
        absolute: f64,
        /// Largest accepted `|found - expected| / |expected|`.
        relative: f64,
    },
    /// Blank-line-separated blocks compared as a multiset (queens-boards).
    UnorderedBlocks,
    /// An external checker: `program [args…] INPUT OUTPUT ANSWER`, testlib exit codes.
    Command {
        /// The checker executable.
        program: PathBuf,
        /// Arguments before the three paths.
        args: Vec<String>,
    },
    /// A problem package's check: the Kattis default validator with its flags, or the
    /// package's own output validator (see [`package`]).
    Package(std::sync::Arc<package::PackageChecker>),
}

/// The files of the case being checked (external checkers need paths).
pub struct CaseFiles<'a> {
    /// The case's input.
    pub input: &'a Path,
    /// The case's answer.
    pub answer: &'a Path,
}

/// Compares `output` with `answer` as `checker` says. `case` is only read by `Command`, which
/// passes the input and answer paths on to the external program.
pub fn check(checker: &Checker, case: &CaseFiles<'_>, output: &[u8], answer: &[u8]) -> Judgement {
    match checker {
        Checker::Tokens => tokens::tokens(output, answer, None, tokens::Case::Sensitive),
        Checker::TokensIgnoreCase => tokens::tokens(output, answer, None, tokens::Case::Ignored),
        Checker::Float { absolute, relative } => tokens::tokens(
            output,
            answer,
            Some(tokens::Tolerance {
                absolute: *absolute,
                relative: *relative,
            }),
            tokens::Case::Sensitive,
        ),
        Checker::Lines => lines::lines(output, answer),
        Checker::Exact => exact::exact(output, answer),
        Checker::UnorderedBlocks => unordered_blocks::unordered_blocks(output, answer),
        Checker::Command { program, args } => {
            command::command(program, args, case, output, COMMAND_TIMEOUT)
        }
        Checker::Package(checker) => checker.check(case, output, answer),
    }
}

/// Whitespace as testlib skips it between tokens (and vertical tab, which nobody means as text).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Table tests shared by the checkers' own test modules.
#[cfg(test)]
mod test_table {
    use super::*;
    use crate::verdict::Verdict;

    pub(super) fn run(checker: &Checker, output: &str, answer: &str) -> (Verdict, String) {
        let case = CaseFiles {
            input: Path::new("/dev/null"),
            answer: Path::new("/dev/null"),
        };
        let result = check(checker, &case, output.as_bytes(), answer.as_bytes());
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
