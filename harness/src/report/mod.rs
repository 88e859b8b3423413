//! Reporters: render judged results to any writer. Nothing here runs anything.

pub mod calibrate;
pub mod diff;
pub mod doctor;
pub mod human;
pub mod json;
pub mod junit;
pub mod progress;
