//! The files of the case being checked, which external checkers are given as paths.

use std::path::Path;

/// The files of the case being checked (external checkers need paths).
pub struct CaseFiles<'a> {
    /// The case's input.
    pub input: &'a Path,
    /// The case's answer.
    pub answer: &'a Path,
}
