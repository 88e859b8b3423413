//! The plain data of outcomes and reports: what judging a case or a submission gave. The
//! judge makes them, events carry them, reporters render them; nothing here runs anything.

pub mod author;
pub mod calibrate;
pub mod case;
pub mod submission;
pub mod verify;
