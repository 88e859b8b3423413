//! A local judge for competitive programming. The modules follow the data:
//! config -> discover -> build -> run -> check -> verdict -> report. Authoring cases: tool
//! (the author's programs) -> validate, add, gen, stress (with shrink).

pub mod add;
pub mod build;
pub mod calibrate;
pub mod check;
pub mod config;
pub mod diff;
pub mod discover;
pub mod exit;
pub mod failures;
pub mod gen;
pub mod interrupt;
pub mod judge;
pub mod package;
pub mod partition;
pub mod report;
pub mod run;
pub mod shrink;
pub mod stress;
pub mod submission;
pub mod submit;
pub mod suite;
pub mod tool;
pub mod units;
#[cfg(unix)]
mod unix;
pub mod validate;
pub mod verdict;
pub mod verify;
