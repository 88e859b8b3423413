//! The checkers a problem can name, and the one function that compares an output with its
//! answer by dispatching to the checker's own module.

use std::path::{Path, PathBuf};

use super::case_files::CaseFiles;
use super::command::{self, COMMAND_TIMEOUT};
use super::{exact, lines, package, tokens, unordered_blocks};
use crate::verdict::Judgement;

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
        /// What judge.toml names, when `program` is a build of it (`checkers/boards.py`): the
        /// name its messages give, rather than the build cache's.
        shown: Option<String>,
    },
    /// A problem package's check: the Kattis default validator with its flags, or the
    /// package's own output validator (see [`package`](super::package)).
    Package(std::sync::Arc<package::PackageChecker>),
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
        Checker::Command {
            program,
            args,
            shown,
        } => command::command(
            program,
            shown.as_deref().map(Path::new),
            args,
            case,
            output,
            COMMAND_TIMEOUT,
        ),
        Checker::Package(checker) => checker.check(case, output, answer),
    }
}
