//! Running programs under limits: `run` is the one way a program is started, measured and
//! killed; `pair` runs an interactive submission beside its interactor, recording the
//! `transcript`; `unix` holds the platform code; `interrupt` kills whatever runs on Ctrl-C.

pub(crate) mod collect;
pub(crate) mod interrupt;
#[cfg(unix)]
pub(crate) mod pair;
pub mod run;
pub(crate) mod transcript;
#[cfg(unix)]
mod unix;
