//! The way from a command line to a verdict, written once for every command that judges: where
//! the problem comes from (a judge.toml id, a package folder, an oj-style folder of cases), the
//! command line's limits laid over it, its programs prepared, the `--failed` store, the plan
//! handed to the judge, and the judge's events handed to the reporters the output options ask
//! for. Each command of `cli` is one call here, as nextest's `TestRunnerBuilder` and just's
//! `run` are; the judge below never prints, and the reporters never run anything.

mod calibrate;
mod contest;
mod failed;
mod failures;
mod gen;
mod judge;
mod output;
mod packages;
mod prepare;
mod project;
mod run;
mod sanitize;
mod stress;
mod validate;
mod verify;
mod watch;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use anyhow::{Context, Result};

pub use crate::config::LimitOverrides;
pub use calibrate::CalibrateRequest;
pub use contest::ContestRequest;
pub use gen::GenRequest;
pub use judge::JudgeRequest;
pub use output::{Format, Output, Sink};
pub use prepare::{build_first, compile_sources};
pub use run::RunRequest;
pub use stress::StressRequest;
pub use validate::ValidateRequest;
pub use verify::VerifyRequest;

use crate::compile::Language;
use crate::config::{self, Config, FILE_NAME};
use crate::event::{Event, Plan, Summary, Unit};
use crate::judge::verify::Skipped;
use crate::report::human::HumanOptions;

/// Where judge.toml is (named by `--config`, found by walking up from the current folder, or
/// the user's default project's), and the file itself, read once for the whole command: every
/// step of a command asks the session, never the disk again. Its packages are read only for
/// the problems a command names (`harness judge a.cpp --cases test/` never opens one).
#[derive(Debug, Clone, Default)]
pub struct Session {
    config: Option<PathBuf>,
    /// judge.toml as the file says, its packages not yet read.
    read: OnceLock<Config>,
}

impl Session {
    /// `config`: the judge.toml `--config` names, if it does.
    pub fn new(config: Option<PathBuf>) -> Session {
        Session {
            config,
            read: OnceLock::new(),
        }
    }

    /// A session that reads judge.toml anew: a watch's next run sees the file as it is then.
    fn fresh(&self) -> Session {
        Session::new(self.config.clone())
    }

    /// The path of judge.toml: `--config`, the one found walking up from here, or the user's
    /// default project's.
    fn config_path(&self) -> Result<PathBuf> {
        Ok(self.locate()?.0)
    }

    /// judge.toml's path and where it came from (`None`: named by `--config`).
    pub fn locate(&self) -> Result<(PathBuf, Option<config::Origin>)> {
        match &self.config {
            Some(path) => Ok((path.clone(), None)),
            None => {
                let here = std::env::current_dir().context("cannot read the current folder")?;
                let (path, origin) = config::locate(&here)?;
                Ok((path, Some(origin)))
            }
        }
    }

    /// Whether there is a judge.toml to read (given, found above, or the default project's).
    fn has_config(&self) -> bool {
        self.config.is_some()
            || std::env::current_dir().is_ok_and(|here| config::locate(&here).is_ok())
    }

    /// judge.toml as the file says (the problems that name a package not yet read from it),
    /// read the first time a step asks.
    pub fn read_config(&self) -> Result<&Config> {
        if let Some(config) = self.read.get() {
            return Ok(config);
        }
        let config = config::load(&self.config_path()?)?;
        Ok(self.read.get_or_init(|| config))
    }

    /// judge.toml when there is one that reads; `None` outside a project, or when it does not
    /// parse (a command that only borrows its languages goes on with the defaults).
    fn found_config(&self) -> Option<&Config> {
        self.has_config().then(|| self.read_config().ok()).flatten()
    }

    /// judge.toml, its `sandbox` in force, with the problems of `names` that name a package
    /// read from it (every such problem when `names` is empty).
    pub fn load_config(&self, names: &[&str]) -> Result<Config> {
        let mut config = self.read_config()?.clone();
        // Before the packages are read: building one may run its code.
        #[cfg(target_os = "linux")]
        crate::sandbox::set_mode(config.sandbox);
        packages::resolve_packages(&mut config, names)?;
        Ok(config)
    }

    /// judge.toml, its `sandbox` in force, with no package read: for a command about its own
    /// problems' tables only (`gen` of its generators).
    pub fn load_config_without_packages(&self) -> Result<Config> {
        let config = self.read_config()?.clone();
        #[cfg(target_os = "linux")]
        crate::sandbox::set_mode(config.sandbox);
        Ok(config)
    }

    /// [`Self::load_config`] for a command that runs programs under test: a required sandbox
    /// this machine cannot make stops it here, once, before anything is built or run.
    pub fn load_config_to_judge(&self, names: &[&str]) -> Result<Config> {
        let config = self.load_config(names)?;
        #[cfg(target_os = "linux")]
        crate::sandbox::check_required(&config.path)?;
        Ok(config)
    }

    /// The package table (see [`crate::package::languages`]), with judge.toml's languages,
    /// when one is found, for what it does not know.
    fn languages(&self) -> Vec<Language> {
        crate::package::languages(self.found_config())
    }

    /// The package folders of the named problems, when every one of them is read from a
    /// package (`package = "path"` in judge.toml): their own submissions and validators are
    /// then used.
    fn named_packages(&self, names: &[String]) -> Result<Option<Vec<PathBuf>>> {
        if names.is_empty() || !self.has_config() {
            return Ok(None);
        }
        let config = self.read_config()?;
        let mut dirs = Vec::new();
        // Its packages are judged under its `sandbox` mode.
        #[cfg(target_os = "linux")]
        crate::sandbox::set_mode(config.sandbox);
        for name in names {
            match config.problem(name).and_then(|p| p.package.as_ref()) {
                Some(reference) => dirs.push(reference.path.clone()),
                None => return Ok(None),
            }
        }
        Ok(Some(dirs))
    }

    /// The judge.toml a command that adds problems writes to: `--config`, else judge.toml in
    /// `dir` when given (the folder made if missing), else the one found walking up from here,
    /// else a new one here.
    pub fn workspace_file(&self, dir: Option<&Path>) -> Result<PathBuf> {
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)
                .map_err(|error| anyhow::anyhow!("cannot make `{}`: {error}", dir.display()))?;
        }
        if let Some(path) = &self.config {
            return Ok(path.clone());
        }
        if let Some(dir) = dir {
            return Ok(dir.join(FILE_NAME));
        }
        let here = std::env::current_dir().context("cannot read the current folder")?;
        Ok(config::find(&here).unwrap_or_else(|_| here.join(FILE_NAME)))
    }
}

/// The plan's view of a planned submission, called `label` in reports.
fn unit_of(plan: &crate::judge::submission::Plan<'_>, label: &str) -> Unit {
    Unit {
        problem: plan.problem.name.clone(),
        label: label.to_string(),
        source: Some(plan.source.clone()),
        language: Some(plan.language.clone()),
        limits: Some(plan.problem.limits(plan.language.time_multiplier)),
        cases: plan.cases.iter().map(|c| c.name.clone()).collect(),
        runs: plan.cases.len(),
        expected: None,
        scoring: plan.scoring.clone(),
    }
}

/// What the header says of the kernel's memory where programs are sandboxed without a memory
/// cgroup.
fn memory_note() -> Option<String> {
    #[cfg(target_os = "linux")]
    return crate::sandbox::memory_note();
    #[cfg(not(target_os = "linux"))]
    None
}

/// Feeds the reporters `output` asks for with one run: `plan` first, then what `judge` emits,
/// then the summary (with the units `skipped`). An error of the judge comes back as it is (the
/// progress bar cleared); a report that could not be written is an error once the run is done.
fn stream<T>(
    plan: &Plan,
    output: &Output,
    options: HumanOptions,
    skipped: Vec<Skipped>,
    judge: impl FnOnce(&mut dyn FnMut(Event<'_>)) -> Result<T>,
) -> Result<T> {
    let mut reporters = output.reporters(plan, options)?;
    let started = Instant::now();
    reporters.report(&Event::RunStarted(plan));
    let value = judge(&mut |event| reporters.report(&event))?;
    let summary = Summary {
        elapsed: started.elapsed(),
        skipped,
        #[cfg(target_os = "linux")]
        unsandboxed: crate::sandbox::plain_because(),
        #[cfg(not(target_os = "linux"))]
        unsandboxed: Some("the sandbox is Linux's".to_string()),
    };
    reporters.report(&Event::RunFinished(&summary));
    reporters.finish()?;
    Ok(value)
}

/// `-j N`: at least one; `-j 0` would judge nothing, silently.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err(
            "must be at least 1 (hint: -j 1 runs one at a time; leave -j out for the default)"
                .to_string(),
        ),
        Ok(jobs) => Ok(jobs),
        Err(_) => Err(format!(
            "`{text}` is not a number of jobs (hint: a whole number such as 4)"
        )),
    }
}
