//! `harness run`: every selected problem's solution on its cases, after the build and the
//! validator's check; `--failed` reruns what failed last time.

use std::path::Path;

use anyhow::Result;

use super::failed::FailedStore;
use super::prepare::{build_first, compile_sources, warn_if_oversubscribed};
use super::{stream, Output, Session};
use crate::author::program::Part;
use crate::author::validate::{self, Validator};
use crate::case::partition::Partition;
use crate::config::Config;
use crate::event::{Command, Plan, Unit};
use crate::exit;
use crate::judge::suite::{self, Planned, Selection};
use crate::package;
use crate::report::author as author_report;
use crate::report::human::HumanOptions;
use crate::report::notice;

/// What `harness run` is asked to judge: the command's arguments themselves.
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct RunRequest {
    /// Judge only this problem (repeat for several).
    #[arg(short, long = "problem", value_name = "PROBLEM")]
    pub problems: Vec<String>,
    /// Judge only the cases whose name matches (a name or a glob such as `all-0*`).
    #[arg(short, long, value_name = "NAME|GLOB")]
    pub case: Option<String>,
    /// Skip judge.toml's build command (the binaries are already built).
    #[arg(long)]
    pub no_build: bool,
    /// Judge even cases whose input the problem's validator rejects.
    #[arg(long)]
    pub no_validate: bool,
    /// Cases to run at once (verdicts use CPU time, which parallel runs barely disturb).
    #[arg(short, long, default_value_t = 1, value_name = "N", value_parser = super::parse_jobs)]
    pub jobs: usize,
    /// Judge only the K-th of N stable slices of the cases (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
    /// Rerun only the cases that failed last time.
    #[arg(long)]
    pub failed: bool,
}

impl Session {
    /// Judges the solutions; the exit code follows the verdicts.
    pub fn run(&self, request: &RunRequest, output: &Output) -> Result<i32> {
        refuse_packages(&request.problems)?;
        // Sources compile on their own, before judge.toml's build, which they do not need.
        let names: Vec<&str> = request.problems.iter().map(String::as_str).collect();
        let mut config = compile_sources(
            self.load_config_to_judge(&names)?,
            &names,
            &[Part::Validator, Part::Checker],
        )?;
        for (problem, source) in adopt_sources(&mut config) {
            let _ = notice::write_adopted(&mut anstream::stderr(), &problem, &source);
        }
        let selection = Selection {
            problems: request.problems.clone(),
            case_pattern: request.case.clone(),
            partition: request.partition,
        };
        let mut planned = suite::plan(&config, &selection)?;
        warn_if_oversubscribed(request.jobs);
        let skipped = suite::take_skipped(&mut planned);
        for (problem, skip) in &skipped {
            let _ = notice::write_skipped(&mut anstream::stderr(), &problem.name, *skip);
        }
        if planned.is_empty() && !skipped.is_empty() {
            // Nothing to judge is not a failure: a workspace of received problems has no
            // solutions until the user writes them, and `harness judge` is how they are judged.
            return Ok(exit::OK);
        }
        let store = FailedStore::of_project(&config.root);
        let mut failed = store.load(request.failed)?;
        if request.failed {
            failed.retain_failed(&mut planned);
        }
        // With nothing to rerun there is nothing to build or check: the report says so.
        let nothing_to_rerun = request.failed && planned.is_empty();
        if !nothing_to_rerun {
            build_first(&config, request.no_build)?;
            if !request.no_validate {
                if let Some(code) = refuse_invalid(&config, &planned)? {
                    return Ok(code);
                }
            }
        }
        let jobs = request.jobs.max(1);
        let mut plan = Plan::new(Command::Run, units(&config, &planned), jobs, config.sandbox);
        plan.partition = request.partition;
        plan.failed_only = request.failed;
        plan.memory_note = super::memory_note();
        let options = HumanOptions {
            detail: output.detail,
            ..HumanOptions::default()
        };
        let reports = stream(&plan, output, options, Vec::new(), |on_event| {
            Ok(suite::run(&config, &planned, jobs, on_event)?)
        })?;
        if !nothing_to_rerun {
            for report in &reports {
                failed.record(&report.problem, &report.outcomes);
            }
            store.save(&failed);
        }
        Ok(exit::for_verdicts(
            reports
                .iter()
                .flat_map(|r| r.outcomes.iter().map(|o| o.verdict)),
        ))
    }
}

/// `run` judges judge.toml's own solutions; a package folder named with `-p` has none of
/// those but stored submissions, so the user is pointed to the commands that judge them
/// rather than told the folder is an unknown problem.
fn refuse_packages(names: &[String]) -> Result<()> {
    for name in names {
        let folder = Path::new(name);
        if folder.is_dir() {
            if let Some(format) = package::detect(folder) {
                anyhow::bail!(
                    "`{name}` is a {}, not a problem of judge.toml: `harness run` judges judge.toml's solutions (hint: `harness verify {name}` judges the package's stored submissions, `harness judge {name} SOURCE` judges yours)",
                    format.describe()
                );
            }
        }
    }
    Ok(())
}

/// A workspace of received problems has no `solution`s: the user writes `<id>.cpp` (or
/// `.py`, …) beside judge.toml, as `listen --template` names them. A problem without a
/// solution is judged with the newest such file of a known language, when there is one; the
/// problems and files so chosen.
fn adopt_sources(config: &mut Config) -> Vec<(String, std::path::PathBuf)> {
    let Ok(entries) = std::fs::read_dir(&config.root) else {
        return Vec::new();
    };
    let files: Vec<(std::path::PathBuf, std::time::SystemTime)> = entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|entry| Some((entry.path(), entry.metadata().ok()?.modified().ok()?)))
        .collect();
    let mut adopted = Vec::new();
    for index in 0..config.problems.len() {
        let problem = &config.problems[index];
        if problem.solution.is_some() || problem.package.is_some() {
            continue;
        }
        let newest = files
            .iter()
            .filter(|(path, _)| {
                path.file_stem().and_then(|s| s.to_str()) == Some(problem.name.as_str())
                    && suite::solution_language(config, path).is_some()
            })
            .max_by_key(|(_, modified)| *modified)
            .map(|(path, _)| path.clone());
        if let Some(source) = newest {
            adopted.push((problem.name.clone(), source.clone()));
            config.problems[index].solution = Some(source);
        }
    }
    adopted
}

/// The plan's view of each planned problem: its solution, limits and cases.
fn units(config: &Config, planned: &[Planned<'_>]) -> Vec<Unit> {
    planned
        .iter()
        .map(|plan| {
            let problem = plan.problem;
            let language = problem
                .solution
                .as_deref()
                .and_then(|path| suite::solution_language(config, path));
            Unit {
                problem: problem.name.clone(),
                label: problem.name.clone(),
                source: problem.solution.clone(),
                language: language.cloned(),
                limits: Some(problem.limits(language.map_or(1.0, |l| l.time_multiplier))),
                cases: plan.cases.iter().map(|c| c.name.clone()).collect(),
                runs: plan.cases.len(),
                expected: None,
                scoring: plan.scoring.clone(),
            }
        })
        .collect()
}

/// The check before judging: `Some(exit code)` when a planned case is invalid, after listing
/// every invalid one on stderr.
fn refuse_invalid(config: &Config, planned: &[Planned<'_>]) -> Result<Option<i32>> {
    let mut invalid = Vec::new();
    for plan in planned {
        if let Some(validator) = Validator::for_problem(config, plan.problem) {
            invalid.extend(validator.check_cases(&plan.cases, validate::default_jobs())?);
        }
    }
    if invalid.is_empty() {
        return Ok(None);
    }
    let mut stderr = anstream::stderr().lock();
    author_report::write_invalid(&mut stderr, &invalid)?;
    author_report::write_nothing_judged(&mut stderr, invalid.len())?;
    Ok(Some(exit::FAILED))
}
