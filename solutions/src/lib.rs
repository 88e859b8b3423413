//! Shared plumbing for the n-queens solutions: input reading, canonical instances, case
//! generation and shrinking. Strict validation is `src/bin/validate.rs`, a file of its own that
//! problem packages carry. No search code lives here: each solution, reference and benchmark
//! binary in `src/bin/` carries its own search, so they stay independent.
//! The interactive problem, find the queens, has its own module: it has an interactor instead
//! of a reference.

pub mod exit;
pub mod find_queens;
pub mod gen;
pub mod input;
pub mod instance;
pub mod problem;
pub mod shrink;

pub use instance::Instance;
pub use problem::Problem;
