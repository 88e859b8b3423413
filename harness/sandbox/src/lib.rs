//! The harness's per-case path as a crate of its own, so that `cargo install` can build it
//! optimized and the rest of the harness quickly (the workspace Cargo.toml says why): the
//! `sandbox`, the only place that starts a process, and the plain helpers it stands on
//! (`text`, `units`, `file_kind`, `atomic`). The harness re-exports each module at its own
//! root, where its layer table (`harness/src/lib.rs`) places them: these are its layers 1
//! and 2, and they know nothing of the layers above.

pub mod atomic;
pub mod file_kind;
pub mod sandbox;
pub mod text;
pub mod units;
