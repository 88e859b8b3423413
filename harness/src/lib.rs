//! A local judge for competitive programming. The folders follow the data:
//! config -> case (discover, select) -> compile -> sandbox (run under limits) -> check ->
//! verdict -> judge (one case, a suite, a submission) -> event -> report. Authoring cases:
//! author (the author's programs: validate, add, gen, stress with shrink). `session` is the
//! way from a command line through all of these, once for every command; `cli` only parses
//! the command line and calls it.

#![warn(missing_docs)]

mod atomic;
mod author;
pub mod case;
pub mod check;
pub mod cli;
pub mod compile;
pub mod config;
mod event;
mod exit;
mod file_kind;
pub mod judge;
mod package;
mod receive;
mod report;
pub mod sandbox;
mod sanitizer;
pub mod score;
mod session;
mod text;
pub mod verdict;
