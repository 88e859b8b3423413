//! `harness validate`: check every case's input against its problem's statement.

use anyhow::Result;
use clap::Args;

use super::GlobalArgs;
use crate::session::ValidateRequest;

#[derive(Args, Debug, Clone)]
pub struct ValidateArgs {
    /// Validate only this problem's cases (default: every problem's); or a problem package
    /// folder, whose input validators check its cases.
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problem: Option<String>,
    /// Skip judge.toml's build command (the validators are already built).
    #[arg(long)]
    pub no_build: bool,
    /// Validators to run at once (default: the number of cores).
    #[arg(short, long, value_name = "N", value_parser = super::args::parse_jobs)]
    pub jobs: Option<usize>,
}

pub fn validate(global: &GlobalArgs, args: &ValidateArgs) -> Result<i32> {
    let request = ValidateRequest {
        problem: args.problem.clone(),
        no_build: args.no_build,
        jobs: args.jobs,
    };
    global.session().validate(&request)
}
