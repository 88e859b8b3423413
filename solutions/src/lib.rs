//! Shared plumbing for the n-queens solutions: input reading, canonical instances, case
//! generation, shrinking and strict validation. No search code lives here: each solution,
//! reference and benchmark binary in `src/bin/` carries its own search, so they stay independent.

pub mod exit;
pub mod gen;
pub mod input;
pub mod instance;
pub mod problem;
pub mod shrink;
pub mod validate;

pub use instance::Instance;
pub use problem::Problem;
