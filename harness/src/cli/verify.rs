//! `harness verify [PROBLEM…]`: judge every stored submission and check it gets the verdict
//! its folder names.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::args::OutputArgs;
use super::GlobalArgs;
use crate::case::partition::Partition;
use crate::session::VerifyRequest;

#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// Only the submissions of these problems (default: all); or problem package folders
    /// (Kattis/ICPC, Polygon, a CMS or TPS task), or a folder of packages, whose own submissions
    /// are verified.
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problems: Vec<String>,
    /// The folder of stored submissions, `<problem>/<expected>/FILE` below it
    /// [default: solutions/submissions beside judge.toml].
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<PathBuf>,
    /// Cases to run at once, per submission [default: the number of CPUs, at most 4]. The
    /// stored submissions are meant to be far from the limits, and verdicts use CPU time,
    /// which parallel runs barely disturb.
    #[arg(short, long, value_name = "N", value_parser = super::args::parse_jobs)]
    pub jobs: Option<usize>,
    /// Skip judge.toml's build command (only run when a checker is a program).
    #[arg(long)]
    pub no_build: bool,
    /// With `-q`, only the submissions that MISMATCH; with `-v`, every case each one was
    /// judged on under its row; `--junit` writes a test per stored submission.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Verify only the K-th of N stable slices of the stored submissions (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
}

pub fn verify(global: &GlobalArgs, args: &VerifyArgs) -> Result<i32> {
    let request = VerifyRequest {
        problems: args.problems.clone(),
        submissions: args.submissions.clone(),
        jobs: args.jobs,
        no_build: args.no_build,
        partition: args.partition,
    };
    global.session().verify(&request, &(&args.output).into())
}
