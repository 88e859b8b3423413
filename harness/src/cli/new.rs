//! `harness new ID`: lay out a whole problem (statement, sample, generator, validator,
//! reference solution, submission folders) and add its table to judge.toml (made if there is
//! none), keeping the rest of the file as the user wrote it; `--bare`: the table and the case
//! folder only.

use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use crate::author::new_problem;
use crate::config;
use crate::config::edit::{self, IfExists, NewProblem};
use crate::exit;
use crate::units;

use super::GlobalArgs;
use crate::report::{shown_path, workspace};
use std::io::Write;

#[derive(Args, Debug, Clone)]
pub struct NewArgs {
    /// The problem's id: letters, digits, `-` and `_` (`cf1900a`, `two-sum`).
    #[arg(value_name = "ID")]
    pub id: String,
    /// A human name for it.
    #[arg(long)]
    pub title: Option<String>,
    /// CPU time allowed on one case, like `2s` or `500ms` (default: judge.toml's default).
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    pub time_limit: Option<Duration>,
    /// Peak memory allowed, like `256MiB` (default: judge.toml's default).
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    pub memory_limit: Option<u64>,
    /// How output is compared: `tokens`, `lines`, `exact`, `float`, `unordered-blocks`.
    #[arg(long, value_name = "NAME")]
    pub checker: Option<String>,
    /// Replace the problem's table if judge.toml already has one, and write the files of the
    /// layout that are missing (a file that is there is never replaced).
    #[arg(long)]
    pub force: bool,
    /// Only the judge.toml table and the case folder, no stubs: for a problem set elsewhere,
    /// whose cases you bring.
    #[arg(long)]
    pub bare: bool,
    /// A function-signature problem (IOI's default): a C++ grader with `main` and the header
    /// the contestant includes, wired as judge.toml's `grader` and `grader-files`, and a
    /// reference solution that implements the function, stored as accepted.
    #[arg(long, conflicts_with = "bare")]
    pub grader: bool,
}

pub fn new(global: &GlobalArgs, args: &NewArgs) -> Result<i32> {
    config::check_name(&args.id).map_err(anyhow::Error::msg)?;
    let path = global.session().workspace_file(None)?;
    let problem = NewProblem {
        id: args.id.clone(),
        title: args.title.clone(),
        time_limit: args.time_limit,
        memory_limit: args.memory_limit,
        checker: args.checker.clone(),
        ..NewProblem::default()
    };
    if !args.bare {
        let laid = new_problem::lay_out(&path, &problem, args.force, args.grader)?;
        let mut stdout = anstream::stdout().lock();
        workspace::write_laid_out(&mut stdout, &args.id, &laid, &shown_path(&path), |file| {
            shown_path(
                &path
                    .parent()
                    .unwrap_or(std::path::Path::new("."))
                    .join(file),
            )
        })?;
        stdout.flush()?;
        return Ok(exit::OK);
    }
    let if_exists = if args.force {
        IfExists::Replace
    } else {
        IfExists::Refuse
    };
    let added = edit::add_problem(&path, &problem, if_exists)?;
    let config = config::load(&path)?;
    let cases = &config
        .require_problem(&args.id)
        .context("the problem just added")?
        .cases;
    let made = !cases.is_dir();
    std::fs::create_dir_all(cases)
        .with_context(|| format!("cannot make the case folder `{}`", cases.display()))?;

    let mut stdout = anstream::stdout().lock();
    workspace::write_new_problem(
        &mut stdout,
        &args.id,
        added,
        &shown_path(&path),
        &shown_path(cases),
        made,
    )?;
    stdout.flush()?;
    Ok(exit::OK)
}
