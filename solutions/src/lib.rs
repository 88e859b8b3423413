//! Shared plumbing for the n-queens solutions: input reading, canonical instances, case
//! generation, shrinking and strict validation. No search code lives here: each solution,
//! reference and benchmark binary in `src/bin/` carries its own search, so they stay independent.
//! The interactive problem, find the queens, has its own module: it has an interactor instead
//! of a reference.

pub mod exit;
pub mod find_queens;
pub mod gen;
pub mod input;
pub mod instance;
pub mod problem;
pub mod shrink;
pub mod validate;

pub use instance::Instance;
pub use problem::Problem;
