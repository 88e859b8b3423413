//! The HTML report (`--html FILE`): one self-contained page of a `run`, `judge`, `verify` or
//! `calibrate` — no script, no style sheet, font or image fetched, readable in print and in
//! dark mode. It is one more [`Exporter`]: a function of the finished run's record; it never
//! runs or reads anything.

mod bands;
pub mod board;
pub mod chart;
pub mod file;
pub mod page;
mod render;

use crate::report::record::{Exporter, Record};

/// The HTML report.
pub struct Html;

impl Exporter for Html {
    fn export(&self, record: &Record) -> Option<Vec<u8>> {
        Some(render::page(record).into_bytes())
    }

    fn diffs(&self) -> usize {
        render::FAILURES_SHOWN
    }
}

#[cfg(test)]
mod tests;
