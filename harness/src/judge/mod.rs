//! Judges one program on a list of cases: run each under the limits, classify, check
//! (`plain`, `interactive`, `multipass`, `run_twice`, `communication`, `two_steps`; the pool
//! of workers in `cases`); a suite, a submission, verify and calibrate on top. It reports
//! through events and returns outcomes; it never prints.

pub(crate) mod answers;
pub(crate) mod calibrate;
pub(crate) mod cases;
#[cfg(unix)]
pub(crate) mod communication;
pub(crate) mod custom;
#[cfg(unix)]
pub(crate) mod interactive;
pub(crate) mod multipass;
pub(crate) mod plain;
pub(crate) mod run_twice;
pub(crate) mod scoring;
pub(crate) mod stored;
pub(crate) mod submission;
pub(crate) mod suite;
#[cfg(unix)]
pub(crate) mod two_steps;
pub(crate) mod verify;

pub use crate::results::case::{
    max_cpu_time, max_memory, overall_verdict, CaseOutcome, Interaction, Mismatch,
};
pub use cases::{judge_case, judge_cases, judge_cases_with, Stop};
pub(crate) use plain::{check_run, run_case, with_input};
pub use plain::{JudgeSettings, NO_ANSWER, STANDARD_IO};
