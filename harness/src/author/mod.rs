//! Authoring test data: the author's own programs (validators, generators, references,
//! shrinkers) run through `tool`; `validate`, `add`, `gen` and `stress` (with `shrink`) use them.
//! `new_problem` lays out a new problem's files and table.

pub mod add;
pub mod answers;
pub mod gen;
pub mod new_problem;
pub mod program;
pub mod shrink;
pub mod shrink_tokens;
pub mod stress;
pub mod validate;
