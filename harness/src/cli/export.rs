//! `harness export PROBLEM [--out DIR | FILE.zip]`: write a problem as an ICPC/Kattis package.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::exit;
use crate::judge::verify;
use crate::package::export;

use super::GlobalArgs;

#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// The problem, by its id in judge.toml.
    pub problem: String,
    /// Where to write it: a folder, or a zip when the name ends in `.zip` (problem.yaml at
    /// its root, as DOMjudge wants) [default: the problem's short name, its letters and
    /// digits, as a zip in the current folder: `queensboards.zip` for `queens-boards`].
    #[arg(long, value_name = "DIR|FILE.zip")]
    pub out: Option<PathBuf>,
    /// The folder of stored submissions [default: solutions/submissions beside judge.toml].
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<PathBuf>,
}

pub fn export(global: &GlobalArgs, args: &ExportArgs) -> Result<i32> {
    let config = global.session().load_config()?;
    let problem = config.require_problem(&args.problem)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.zip", export::short_name(&problem.name))));
    let submissions = args
        .submissions
        .clone()
        .unwrap_or_else(|| config.root.join(verify::DEFAULT_FOLDER));
    let exported = export::export(&config, problem, &submissions, &out)?;
    let mut stdout = anstream::stdout().lock();
    crate::report::package::write_exported(&mut stdout, &problem.name, &out, &exported)?;
    stdout.flush()?;
    Ok(exit::OK)
}
