//! Authoring test data: the author's own programs (validators, generators, references,
//! shrinkers) run through `tool`; `validate`, `add`, `gen` and `stress` (with `shrink`) use them.

pub mod add;
pub mod answers;
pub mod gen;
pub mod program;
pub mod shrink;
pub mod shrink_tokens;
pub mod stress;
pub mod validate;
