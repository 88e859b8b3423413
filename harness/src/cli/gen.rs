//! `harness gen`: rebuild the generated cases, or check that they are reproducible.

use anyhow::Result;
use clap::Args;

use super::GlobalArgs;
use crate::session::GenRequest;

#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    /// Only this problem (default: every problem with generators).
    #[arg(value_name = "PROBLEM")]
    pub problem: Option<String>,
    /// Regenerate in a temporary folder and report every case that differs from the committed
    /// one (exit 1 if any); writes nothing.
    #[arg(long)]
    pub check: bool,
    /// Cases to generate at once (default: the number of cores).
    #[arg(short, long, value_name = "N", value_parser = super::args::parse_jobs)]
    pub jobs: Option<usize>,
    /// Skip judge.toml's build command (generators, validators and references are built).
    #[arg(long)]
    pub no_build: bool,
}

pub fn gen(global: &GlobalArgs, args: &GenArgs) -> Result<i32> {
    let request = GenRequest {
        problem: args.problem.clone(),
        check: args.check,
        jobs: args.jobs,
        no_build: args.no_build,
    };
    global.session().gen(&request)
}
