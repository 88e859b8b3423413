//! A local judge for competitive programming. The folders follow the data:
//! config -> case (discover, select) -> compile -> sandbox (run under limits) -> check ->
//! verdict -> judge (one case, a suite, a submission) -> report. Authoring cases: author
//! (the author's programs: validate, add, gen, stress with shrink).

pub mod author;
pub mod case;
pub mod check;
pub mod compile;
pub mod config;
pub mod exit;
pub mod judge;
pub mod package;
pub mod report;
pub mod sandbox;
pub mod text;
pub mod verdict;
