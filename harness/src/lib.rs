//! A local judge for competitive programming. The modules follow the data:
//! config -> discover -> build -> run -> check -> verdict -> report.

pub mod build;
pub mod check;
pub mod config;
pub mod diff;
pub mod discover;
pub mod exit;
pub mod judge;
pub mod report;
pub mod run;
pub mod submission;
pub mod submit;
pub mod suite;
pub mod units;
#[cfg(unix)]
mod unix;
pub mod verdict;
pub mod verify;
