//! Test cases: finding them on disk (`discover`) and choosing which to judge (`select` by
//! name or glob, `partition` for `--partition`, `--failed` reads `session::failures`).

pub mod discover;
pub(crate) mod excerpt;
pub(crate) mod partition;
pub(crate) mod select;
