//! Reporters: render judged results to any writer. Nothing here runs anything.

pub mod human;
pub mod json;
pub mod junit;
pub mod progress;
