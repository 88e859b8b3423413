//! `harness calibrate`: the accepted programs of each problem measured, and a time limit
//! suggested from them.

use std::path::PathBuf;

use anyhow::Result;

use super::prepare::{build_first, compile_sources, warn_if_oversubscribed};
use super::{stream, Output, Session};
use crate::author::program::Part;
use crate::config::edit;
use crate::config::Problem;
use crate::event::{Command, Plan, Unit};
use crate::exit;
use crate::judge::calibrate::{self, CalibrateSettings, LimitWrite};
use crate::judge::verify;
use crate::report::calibrate::write_limit_write;
use crate::report::human::HumanOptions;

/// What `harness calibrate` is asked to measure: the command's arguments themselves.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CalibrateRequest {
    /// The problems to calibrate (default: every problem).
    #[arg(value_name = "PROBLEM")]
    pub problems: Vec<String>,
    /// Runs of each program on each case; the median counts.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub repeat: usize,
    /// Cases to run at once (CPU times, which the suggestion uses, barely notice).
    #[arg(short, long, default_value_t = 1, value_name = "N", value_parser = super::parse_jobs)]
    pub jobs: usize,
    /// The folder of stored submissions, `<problem>/<expected>/FILE` below it
    /// [default: solutions/submissions beside judge.toml].
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<PathBuf>,
    /// Skip judge.toml's build command.
    #[arg(long)]
    pub no_build: bool,
    /// Write each suggestion into judge.toml as the problem's `time-limit` (its comments and
    /// the rest of the file kept); not one whose calibration has warnings.
    #[arg(long)]
    pub write: bool,
}

impl Session {
    /// Measures and suggests; the exit code fails when a suggestion cannot be trusted.
    pub fn calibrate(&self, request: &CalibrateRequest, output: &Output) -> Result<i32> {
        let names: Vec<&str> = request.problems.iter().map(String::as_str).collect();
        let config = compile_sources(
            self.load_config_to_judge(&names)?,
            &names,
            &[Part::Reference, Part::Checker],
        )?;
        let problems: Vec<&Problem> = if request.problems.is_empty() {
            config.problems.iter().collect()
        } else {
            request
                .problems
                .iter()
                .map(|name| config.require_problem(name))
                .collect::<Result<_, _>>()?
        };
        build_first(&config, request.no_build)?;
        let folder = request
            .submissions
            .clone()
            .unwrap_or_else(|| config.root.join(verify::DEFAULT_FOLDER));
        warn_if_oversubscribed(request.jobs);
        let settings = CalibrateSettings {
            repeat: request.repeat.max(1),
            jobs: request.jobs.max(1),
            submissions: &folder,
        };
        // Everything is compiled first: the runs to come are known before the first.
        let ready = problems
            .into_iter()
            .map(|problem| calibrate::prepare(&config, problem, &settings))
            .collect::<Result<Vec<_>, _>>()?;
        let units = ready
            .iter()
            .map(|ready| Unit {
                problem: ready.problem().to_string(),
                label: ready.problem().to_string(),
                cases: ready.case_names(),
                runs: ready.runs(settings.repeat),
                ..Unit::default()
            })
            .collect();
        let command = Command::Calibrate {
            repeat: settings.repeat,
        };
        let plan = Plan::new(command, units, settings.jobs, config.sandbox);
        let calibrations = stream(
            &plan,
            output,
            HumanOptions::default(),
            Vec::new(),
            |on_event| {
                let mut calibrations = Vec::new();
                for (unit, ready) in ready.iter().enumerate() {
                    calibrations.push(calibrate::measure(ready, unit, &settings, on_event)?);
                }
                Ok(calibrations)
            },
        )?;
        if request.write {
            // After the report: on stdout below the tables for people, on stderr beside JSON.
            let shown = crate::report::shown_path(&config.path);
            let mut out: Box<dyn std::io::Write> = if output.is_human() {
                Box::new(anstream::stdout().lock())
            } else {
                Box::new(anstream::stderr().lock())
            };
            for calibration in &calibrations {
                let write = LimitWrite::planned(calibration);
                if let LimitWrite::Written(limit) = write {
                    edit::set_time_limit(&config.path, &calibration.problem, limit)?;
                }
                write_limit_write(&mut out, &calibration.problem, write, &shown)?;
            }
            out.flush()?;
        }
        let trouble = calibrations.iter().any(|c| !c.warnings().is_empty());
        Ok(if trouble { exit::FAILED } else { exit::OK })
    }
}
