//! Running programs under limits: `run` is the one way a program is started, measured and
//! killed; `unix` holds the platform code; `interrupt` kills whatever runs on Ctrl-C.

pub(crate) mod collect;
pub(crate) mod interrupt;
pub mod run;
#[cfg(unix)]
mod unix;
