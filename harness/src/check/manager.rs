//! A communication task's manager (CMS `Communication`), ready to run: the judge's own program
//! that reads a case and talks with the contestant's processes; how a case runs with it is
//! `judge::communication`.

use crate::compile::submission::Prepared;
use crate::compile::Program;

/// The manager, and how many user processes it talks with.
#[derive(Debug)]
pub struct Manager {
    /// What runs; the FIFOs' paths are appended to its arguments.
    pub program: Program,
    /// User processes per case.
    pub processes: usize,
    /// How each reaches its FIFOs.
    pub user_io: crate::config::UserIo,
    /// Its stdout goes to the problem's checker (TPS's `has_checker`) instead of being the
    /// score.
    pub checked: bool,
    /// Its build, when it was compiled: kept for as long as it runs.
    pub prepared: Option<Prepared>,
}
