//! The harness's per-case path as a crate of its own, so that `cargo install` can build it
//! optimized and the rest of the harness quickly (the workspace Cargo.toml says why): the
//! `sandbox`, the only place that starts a process, the plain helpers it stands on (`text`,
//! `units`, `file_kind`, `atomic`), and the checkers' loops over every byte of an output
//! (`scan`). The harness re-exports each module at its own root, where its layer table
//! (`harness/src/lib.rs`) places them: these are its layers 1 and 2, and they know nothing of
//! the layers above.

pub mod atomic;
pub mod file_kind;
pub mod sandbox;
pub mod scan;
pub mod text;
pub mod units;
