//! `harness gen`: rebuild the generated cases, or check that they are reproducible.

use anyhow::Result;
use clap::Args;

use super::GlobalArgs;
use crate::session::GenRequest;

#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    /// Only this problem (default: every problem with generators); or a problem package
    /// folder, whose `data/` is written from its `generators/generators.yaml` (BAPCtools'
    /// recipe), as `bt generate` writes it.
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problem: Option<String>,
    /// For a package: overwrite files of `data/` the harness did not write (they are moved to
    /// a trash folder first, which is named; a file the recipe does not make always goes there).
    #[arg(long)]
    pub force: bool,
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
        force: args.force,
    };
    global.session().gen(&request)
}
