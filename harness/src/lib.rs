//! A local judge for competitive programming. The folders follow the data:
//! config -> case (discover, select) -> compile -> sandbox (run under limits) -> check ->
//! verdict -> judge (one case, a suite, a submission) -> event -> report. Authoring cases:
//! author (the author's programs: validate, add, gen, stress with shrink). `session` is the
//! way from a command line through all of these, once for every command; `cli` only parses
//! the command line and calls it.
//!
//! # Layers
//!
//! Bottom to top. A module uses modules of its own layer and of the layers below it, never
//! one above, and no module depends on itself through others (`tests/layers.rs` checks both,
//! reading this table):
//!
//! 1. base: `text`, `atomic`, `file_kind`, `units`, `scan` — plain helpers that know nothing of
//!    judging; the checkers' loops over every byte of an output.
//! 2. sandbox: `sandbox`, `tool` — the only place that starts a process: one child under
//!    limits; the author's trusted programs under generous ones.
//! 3. verdict: `verdict` — a run's measurements and a checker's judgement become a verdict.
//! 4. score: `score` — points: test groups, subtasks, partial credit, their aggregation.
//! 5. compile: `compile` — a language, source to a runnable program (sanitizers
//!    included), the build cache.
//! 6. check: `check` — checkers and validators: an output and an answer become a judgement;
//!    the interactor, the judge's own program a submission talks with.
//! 7. case: `case` — a problem's cases on disk: discover, select, partition.
//! 8. config: `config` — judge.toml and the user's settings.
//! 9. package: `package` — problem packages (Kattis, Polygon, DOMjudge) read into a problem,
//!    and what their stored submissions must get.
//! 10. results: `results` — the plain data of outcomes and reports that events carry.
//! 11. event: `event` — the one event stream every command that judges speaks.
//! 12. judge: `judge`, `contest` — a case, a suite, a submission, verify and calibrate; a
//!     contest day's submissions, rules and scoreboard, and its CLICS outputs.
//! 13. author: `author`, `export` — the author's programs: validate, add, gen, stress with
//!     shrink; a problem of judge.toml written as a package (its time limit measured by judging).
//! 14. report: `report`, `receive` — renders events to a terminal, JSON, JUnit, HTML; receives problems from the browser.
//! 15. session: `session`, `exit` — one way from a command line through all of these; the exit codes.
//! 16. serve: `serve` — the judge as a JSON-RPC server for editors: the session's tasks on
//!     threads, their events as notifications.
//! 17. cli: `cli` — parses the command line and calls the session.

#![warn(missing_docs)]

mod author;
pub mod case;
pub mod check;
pub mod cli;
pub mod compile;
pub mod config;
mod contest;
mod event;
mod exit;
mod export;
pub mod judge;
mod package;
mod receive;
mod report;
mod results;
pub mod score;
mod serve;
mod session;
mod tool;
pub mod verdict;

// Layers 1 and 2 but `tool`: a crate of their own, optimized in an install (see its lib.rs).
pub use harness_sandbox::sandbox;
use harness_sandbox::{atomic, file_kind, scan, text, units};
