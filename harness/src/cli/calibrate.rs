//! `harness calibrate`: measure the accepted programs and suggest a time limit per problem.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::config::Problem;
use crate::exit;
use crate::judge::calibrate::{self, CalibrateEvent, CalibrateSettings};
use crate::judge::verify;
use crate::report::calibrate::{self as render, CalibrateJson};
use crate::report::json;
use crate::report::progress::Progress;

use super::{build_first, compile_sources, load_config_to_judge, Format, GlobalArgs};
use crate::author::program::Part;

#[derive(Args, Debug, Clone)]
pub struct CalibrateArgs {
    /// The problems to calibrate (default: every problem).
    #[arg(value_name = "PROBLEM")]
    pub problems: Vec<String>,
    /// Runs of each program on each case; the median counts.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub repeat: usize,
    /// Cases to run at once (CPU times, which the suggestion uses, barely notice).
    #[arg(short, long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// The folder of stored submissions, `<problem>/<expected>/FILE` below it
    /// [default: solutions/submissions beside judge.toml].
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<PathBuf>,
    /// Skip judge.toml's build command.
    #[arg(long)]
    pub no_build: bool,
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

pub fn run(global: &GlobalArgs, args: &CalibrateArgs) -> Result<i32> {
    let names: Vec<&str> = args.problems.iter().map(String::as_str).collect();
    let config = compile_sources(
        load_config_to_judge(global)?,
        &names,
        &[Part::Reference, Part::Checker],
    )?;
    let problems: Vec<&Problem> = if args.problems.is_empty() {
        config.problems.iter().collect()
    } else {
        args.problems
            .iter()
            .map(|name| config.require_problem(name))
            .collect::<Result<_, _>>()?
    };
    build_first(&config, args.no_build)?;
    let folder = args
        .submissions
        .clone()
        .unwrap_or_else(|| config.root.join(verify::DEFAULT_FOLDER));
    super::warn_if_oversubscribed(args.jobs);
    let settings = CalibrateSettings {
        repeat: args.repeat.max(1),
        jobs: args.jobs.max(1),
        submissions: &folder,
    };
    let mut calibrations = Vec::new();
    let mut progress = Progress::stderr(0);
    for problem in problems {
        let calibration =
            calibrate::calibrate(&config, problem, &settings, &mut |event| match event {
                CalibrateEvent::Planned { runs } => progress.add_total(runs),
                CalibrateEvent::ProgramStarted { problem, label } => {
                    progress.set_label(&format!("{problem}: {label}"));
                }
                CalibrateEvent::CaseFinished { outcome } => progress.on_case(outcome),
                CalibrateEvent::Skipped { runs } => progress.skip(runs),
            })?;
        calibrations.push(calibration);
    }
    progress.finish();

    let mut stdout = anstream::stdout().lock();
    match args.format {
        Format::Json => json::write(
            &mut stdout,
            &CalibrateJson::new(&calibrations, settings.repeat, settings.jobs),
        )?,
        Format::Human => render::write_human(&mut stdout, &calibrations, settings.repeat)?,
    }
    stdout.flush()?;
    let trouble = calibrations.iter().any(|c| !c.warnings().is_empty());
    Ok(if trouble { exit::FAILED } else { exit::OK })
}
