//! `harness run`: build, then judge every selected problem's solution on its cases.

use anyhow::Result;
use clap::Args;

use super::args::OutputArgs;
use super::GlobalArgs;
use crate::case::partition::Partition;
use crate::session::RunRequest;

#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct RunArgs {
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
    #[command(flatten)]
    pub output: OutputArgs,
    /// Cases to run at once (verdicts use CPU time, which parallel runs barely disturb).
    #[arg(short, long, default_value_t = 1, value_name = "N", value_parser = super::args::parse_jobs)]
    pub jobs: usize,
    /// Judge only the K-th of N stable slices of the cases (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
    /// Rerun only the cases that failed last time.
    #[arg(long)]
    pub failed: bool,
}

impl RunArgs {
    /// The options as parsed from an empty command line: what "no option given" looks like.
    pub fn from_nothing() -> RunArgs {
        use clap::FromArgMatches;
        let command = <RunArgs as Args>::augment_args(clap::Command::new("run"));
        let matches = command.get_matches_from(["run"]);
        RunArgs::from_arg_matches(&matches).expect("empty arguments always parse")
    }
}

pub fn run(global: &GlobalArgs, args: &RunArgs) -> Result<i32> {
    let request = RunRequest {
        problems: args.problems.clone(),
        case: args.case.clone(),
        no_build: args.no_build,
        no_validate: args.no_validate,
        jobs: args.jobs,
        partition: args.partition,
        failed: args.failed,
    };
    global.session().run(&request, &(&args.output).into())
}
