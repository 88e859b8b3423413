//! `harness calibrate`: measure the accepted programs and suggest a time limit per problem.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::args::{Format, HtmlArgs};
use super::GlobalArgs;
use crate::session::{CalibrateRequest, Output};

#[derive(Args, Debug, Clone)]
pub struct CalibrateArgs {
    /// The problems to calibrate (default: every problem).
    #[arg(value_name = "PROBLEM")]
    pub problems: Vec<String>,
    /// Runs of each program on each case; the median counts.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub repeat: usize,
    /// Cases to run at once (CPU times, which the suggestion uses, barely notice).
    #[arg(short, long, default_value_t = 1, value_name = "N", value_parser = super::args::parse_jobs)]
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
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    #[command(flatten)]
    pub html: HtmlArgs,
}

pub fn calibrate(global: &GlobalArgs, args: &CalibrateArgs) -> Result<i32> {
    let request = CalibrateRequest {
        problems: args.problems.clone(),
        repeat: args.repeat,
        jobs: args.jobs,
        submissions: args.submissions.clone(),
        no_build: args.no_build,
        write: args.write,
    };
    let output = Output {
        html: args.html.html.clone(),
        force: args.html.force,
        ..Output::format(args.format.into())
    };
    global.session().calibrate(&request, &output)
}
