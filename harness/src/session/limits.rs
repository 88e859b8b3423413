//! The command line's limits (`--time-limit`, `--memory-limit`, `--checker`), laid over a
//! problem's own: one place for every command that takes them.

use std::time::Duration;

use crate::check::Checker;
use crate::config::Problem;

/// What the command line says about a problem's limits; `None` keeps the problem's.
#[derive(Debug, Clone, Default)]
pub struct LimitOverrides {
    pub time_limit: Option<Duration>,
    pub memory_limit: Option<u64>,
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

    /// These limits as the settings of a problem made up from the command line.
    pub fn standalone(&self, cases: std::path::PathBuf) -> crate::config::standalone::Settings {
        crate::config::standalone::Settings {
            cases,
            time_limit: self.time_limit,
            memory_limit: self.memory_limit,
            checker: self.checker.clone(),
        }
    }
}
