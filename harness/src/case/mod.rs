//! Test cases: finding them on disk (`discover`) and choosing which to judge (`select` by
//! name or glob, `partition` for `--partition`, `failures` for `--failed`).

pub mod discover;
pub mod failures;
pub mod partition;
pub mod select;
