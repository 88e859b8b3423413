//! The command line's limits (`--time-limit`, `--memory-limit`, `--checker`), laid over a
//! problem's own, or over the user's defaults for a problem made up with no judge.toml
//! (`standalone`): one place for every command that takes them.

use std::time::Duration;

use super::settings::Problem;
use crate::check::Checker;

/// What the command line says about a problem's limits; `None` keeps the problem's.
#[derive(Debug, Clone, Default)]
pub struct LimitOverrides {
    /// `--time-limit`: CPU time per case.
    pub time_limit: Option<Duration>,
    /// `--memory-limit`: peak memory per case, in bytes.
    pub memory_limit: Option<u64>,
    /// `--checker`: how outputs are compared with answers.
    pub checker: Option<Checker>,
}

impl LimitOverrides {
    /// `problem` with these laid over it; a new time limit brings its wall-clock limit along.
    pub fn apply(&self, problem: &mut Problem) {
        if let Some(time_limit) = self.time_limit {
            problem.time_limit = time_limit;
            problem.wall_limit = crate::sandbox::run::wall_limit(time_limit);
        }
        if let Some(memory_limit) = self.memory_limit {
            problem.memory_limit = memory_limit;
        }
        if let Some(checker) = &self.checker {
            problem.checker = checker.clone();
        }
    }
}
