//! The harness's exit codes, one per outcome class (documented in the README).

/// Every case judged was accepted (or the command did what it was asked).
pub const OK: i32 = 0;
/// Something was judged and not accepted: a verdict other than AC, an invalid case, a
/// stress test that found a failing input, a regenerated case that differs.
pub const FAILED: i32 = 1;
/// The harness could not do its job: bad judge.toml, unknown problem, missing files, a build
/// that failed, bad command-line arguments.
pub const ERROR: i32 = 2;
/// The judge itself failed on a case (a problem's checker crashed): not the program's fault.
pub const JUDGE_ERROR: i32 = 3;
/// Stopped by Ctrl-C (SIGINT) or a kill: 128 + SIGINT, as shells report it.
pub const INTERRUPTED: i32 = 130;
