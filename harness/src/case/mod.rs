//! Test cases: finding them on disk (`discover`) and choosing which to judge (`partition`,
//! `failures` for `--failed`).

pub mod discover;
pub mod failures;
pub mod partition;
