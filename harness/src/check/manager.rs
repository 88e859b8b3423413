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
    pub user_io: UserIo,
    /// Its stdout goes to the problem's checker (TPS's `has_checker`) instead of being the
    /// score.
    pub checked: bool,
    /// Its build, when it was compiled: kept for as long as it runs.
    pub prepared: Option<Prepared>,
}

/// How a communication task's user process reaches its pair of FIFOs (CMS's `user_io`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum UserIo {
    /// `std_io`: the pair is its stdin and stdout.
    #[default]
    Std,
    /// `fifo_io`: it gets the paths of its pair as arguments (from the manager, to the
    /// manager), before its index, and opens them itself (a CMS or TPS stub does).
    Fifo,
}
