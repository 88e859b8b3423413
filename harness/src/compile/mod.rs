//! Turning sources into programs: one build ([`program::build`]) for everything compiled,
//! kept in one cache across runs ([`cache`]); the languages table, and a contestant's
//! submission picked by it ([`submit`]), or a command line judged as one ([`command`]); the
//! sanitizers' runtimes a build links, for its key ([`runtimes`]); the user's file names put
//! back into what a program says ([`shown`]); a precompiled `bits/stdc++.h` ([`pch`]); and judge.toml's `build` command for the
//! problems' own solutions ([`build`]).

pub mod build;
pub mod cache;
pub(crate) mod command;
pub(crate) mod languages;
pub mod pch;
pub mod program;
pub(crate) mod runtimes;
pub(crate) mod sanitizer;
pub(crate) mod shown;
pub(crate) mod submission;
pub(crate) mod submit;

pub use languages::{CompileLimits, Language};
pub use program::Program;
