//! `harness gen`: the generated cases of each problem made and written, or (`--check`) only
//! compared with the committed ones.

use anyhow::Result;

use super::prepare::{build_first, compile_sources, warn_if_oversubscribed};
use super::{stream, Output, Session};
use crate::author::gen::{self, Mode};
use crate::author::program::Part;
use crate::author::validate;
use crate::config::Problem;
use crate::event::{Command, Plan, Unit};
use crate::exit;
use crate::report::human::HumanOptions;

/// What `harness gen` is asked to make.
#[derive(Debug, Clone, Default)]
pub struct GenRequest {
    /// Only this problem; by default every problem with generators.
    pub problem: Option<String>,
    /// Compare only; write nothing.
    pub check: bool,
    /// Cases made at once; the cores by default.
    pub jobs: Option<usize>,
    pub no_build: bool,
}

impl Session {
    /// Makes the cases; with `--check`, the exit code fails when one differs.
    pub fn gen(&self, request: &GenRequest) -> Result<i32> {
        let config = self.load_config()?;
        let problems: Vec<&Problem> = match &request.problem {
            Some(name) => vec![config.require_problem(name)?],
            None => config
                .problems
                .iter()
                .filter(|p| !p.generators.is_empty())
                .collect(),
        };
        // Every name is checked before anything is built or run.
        let mut planned = Vec::new();
        for problem in &problems {
            planned.push(gen::plan(problem)?);
        }
        build_first(&config, request.no_build)?;
        let names: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let config = compile_sources(
            config,
            &names,
            &[Part::Generators, Part::Validator, Part::Reference],
        )?;
        let problems: Vec<&Problem> = names
            .iter()
            .map(|name| config.require_problem(name))
            .collect::<Result<_, _>>()?;
        let mode = if request.check {
            Mode::Check
        } else {
            Mode::Write
        };
        let jobs = request.jobs.unwrap_or_else(validate::default_jobs).max(1);
        warn_if_oversubscribed(jobs);
        let units = problems
            .iter()
            .zip(&planned)
            .map(|(problem, cases)| Unit {
                problem: problem.name.clone(),
                label: problem.name.clone(),
                cases: cases.iter().map(|c| c.name.clone()).collect(),
                runs: cases.len(),
                ..Unit::default()
            })
            .collect();
        let command = Command::Gen {
            check: request.check,
        };
        let plan = Plan::new(command, units, jobs, config.sandbox);
        let reports = stream(
            &plan,
            &Output::default(),
            HumanOptions::default(),
            Vec::new(),
            |on_event| {
                let mut reports = Vec::new();
                for (unit, problem) in problems.iter().enumerate() {
                    reports.push(gen::generate(&config, problem, unit, mode, jobs, on_event)?);
                }
                Ok(reports)
            },
        )?;
        let changed: usize = reports.iter().map(|r| r.changed.len()).sum();
        Ok(match mode {
            Mode::Check if changed > 0 => exit::FAILED,
            _ => exit::OK,
        })
    }
}
