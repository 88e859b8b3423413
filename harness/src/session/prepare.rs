//! A problem's programs made ready before a run: judge.toml's build command, the author's
//! programs compiled from source (or taken from the build cache); and the one warning a run
//! gives about its own set-up, too many jobs for the cores.

use std::time::{Duration, Instant};

use anyhow::Result;

use crate::author::program::Part;
use crate::check::Checker;
use crate::config::{Config, Problem};
use crate::report::notice;

/// A build that took this long says so when it ends; a quicker one (nothing to rebuild) does
/// not add a line to every run.
const BUILD_TIME_SHOWN: Duration = Duration::from_secs(1);

/// Runs judge.toml's build command unless told not to. What it prints (cargo's progress) goes
/// to our stderr as it comes; its start and, past a second, its end are said around it.
pub fn build_first(config: &Config, skip: bool) -> Result<()> {
    if skip {
        return Ok(());
    }
    if let Some(command) = &config.build {
        let _ = notice::write_building(&mut anstream::stderr(), command);
        let started = Instant::now();
        crate::compile::build::build(command, &config.root)?;
        let took = started.elapsed();
        if took >= BUILD_TIME_SHOWN {
            let _ = notice::write_built(&mut anstream::stderr(), took);
        }
    }
    Ok(())
}

/// Runs judge.toml's build command when one of these problems is checked by a program, which
/// the build makes; submissions are compiled on their own, so nothing else needs it.
pub(super) fn build_checkers<'a>(
    config: &Config,
    problems: impl IntoIterator<Item = &'a Problem>,
    skip: bool,
) -> Result<()> {
    let needed = problems
        .into_iter()
        .any(|p| matches!(p.checker, Checker::Command { .. }));
    build_first(config, skip || !needed)
}

/// `config` with the author programs (`parts`) of these problems (all when `names` is empty)
/// that are source files compiled, or taken from the build cache.
pub fn compile_sources(mut config: Config, names: &[&str], parts: &[Part]) -> Result<Config> {
    let problems = config
        .problems
        .iter()
        .map(|problem| {
            if names.is_empty() || names.contains(&problem.name.as_str()) {
                crate::author::program::prepare(&config, problem, parts)
            } else {
                Ok(problem.clone())
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    config.problems = problems;
    Ok(config)
}

/// One line when more programs would run at once than there are cores: each then waits for a
/// CPU, and its wall-clock time (not its CPU time) grows.
pub(super) fn warn_if_oversubscribed(jobs: usize) {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    if jobs > cores {
        let _ = notice::write_warning(
            &mut anstream::stderr(),
            format_args!(
                "-j {jobs} runs more programs at once than this machine has cores ({cores}): \
                 each waits for a CPU, so wall-clock times grow (CPU times do not)"
            ),
        );
    }
}
