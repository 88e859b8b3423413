//! Turning sources into programs: judge.toml's `build` command for the problems' own
//! solutions, and the languages table for a contestant's submission.

pub mod build;
pub(crate) mod cache;
pub(crate) mod languages;
pub(crate) mod submit;
