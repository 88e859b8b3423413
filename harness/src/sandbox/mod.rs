//! Running programs under limits: `run` is the one way a program is started, measured and
//! killed; `pair` runs an interactive submission beside its interactor, recording the
//! `transcript`; `unix` holds the platform code; `interrupt` kills whatever runs on Ctrl-C.

pub mod interrupt;
#[cfg(unix)]
pub mod pair;
pub mod run;
pub mod transcript;
#[cfg(unix)]
mod unix;
