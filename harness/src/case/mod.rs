//! Test cases: finding them on disk (`discover`) and choosing which to judge (`select` by
//! name or glob, `partition` for `--partition`, `failures` for `--failed`).

pub mod discover;
pub(crate) mod excerpt;
pub(crate) mod failures;
pub(crate) mod partition;
pub(crate) mod select;
