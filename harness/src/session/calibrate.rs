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

/// What `harness calibrate` is asked to measure.
#[derive(Debug, Clone, Default)]
pub struct CalibrateRequest {
    /// Problem ids; none means every problem.
    pub problems: Vec<String>,
    /// Runs of each program on each case.
    pub repeat: usize,
    pub jobs: usize,
    /// The folder of stored submissions, instead of `solutions/submissions`.
    pub submissions: Option<PathBuf>,
    pub no_build: bool,
    /// Put each trusted suggestion into judge.toml as the problem's `time-limit`.
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
