//! `harness add`: add one case by hand, answered by the reference.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use crate::author::add::{self, AddError, NewCase};
use crate::config::{Config, Problem};
use crate::exit;
use crate::report::author as author_report;

use super::GlobalArgs;
use crate::author::program::Part;
use crate::session::{build_first, compile_sources};

#[derive(Args, Debug, Clone)]
pub struct AddArgs {
    /// The problem to add a case to.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// The case name, without `.in` (default: the first free `added-N`).
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
    /// The input: a file, or `-` for stdin.
    #[arg(long, value_name = "FILE|-")]
    pub input: PathBuf,
    /// The answer, instead of the reference's (it is still compared with the reference's).
    #[arg(long, value_name = "FILE")]
    pub answer: Option<PathBuf>,
    /// Replace a case of the same name.
    #[arg(long)]
    pub force: bool,
    /// Add the input even if the problem's validator rejects it.
    #[arg(long)]
    pub no_validate: bool,
    /// Skip judge.toml's build command (the validator and reference are already built).
    #[arg(long)]
    pub no_build: bool,
}

pub fn add(global: &GlobalArgs, args: &AddArgs) -> Result<i32> {
    let config = global.session().load_config(&[&args.problem])?;
    config.require_problem(&args.problem)?;
    let input = read_input(&args.input)?;
    let answer = args
        .answer
        .as_deref()
        .map(|path| {
            refuse_special(path, "answer")?;
            std::fs::read(path).with_context(|| format!("cannot read answer `{}`", path.display()))
        })
        .transpose()?;
    build_first(&config, args.no_build)?;
    let config = compile_sources(
        config,
        &[&args.problem],
        &[Part::Validator, Part::Reference, Part::Checker],
    )?;
    let problem = config.require_problem(&args.problem)?;
    let new = NewCase {
        name: args.name.as_deref(),
        input: &input,
        answer: answer.as_deref(),
        force: args.force,
        no_validate: args.no_validate,
    };
    add_and_report(&config, problem, &new)
}

/// Adds the case and says what was written (stdout) or why not (stderr); shared with
/// `harness stress --save`. An invalid input is a failed check (exit 1), not a broken run.
pub fn add_and_report(config: &Config, problem: &Problem, new: &NewCase<'_>) -> Result<i32> {
    match add::add(config, problem, new) {
        Ok(added) => {
            let mut stdout = anstream::stdout().lock();
            author_report::write_added(&mut stdout, &added)?;
            if let Some(warning) = &added.warning {
                author_report::write_add_warning(&mut anstream::stderr().lock(), warning)?;
            }
            Ok(exit::OK)
        }
        Err(error @ AddError::Invalid { .. }) => {
            author_report::write_refused(&mut anstream::stderr().lock(), &error)?;
            Ok(exit::FAILED)
        }
        Err(error) => Err(error.into()),
    }
}

fn read_input(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read the input from stdin")?;
        return Ok(bytes);
    }
    refuse_special(path, "input")?;
    std::fs::read(path).with_context(|| format!("cannot read input `{}`", path.display()))
}

/// A folder or a device (`/dev/zero` never ends) is refused, saying what it is; a pipe is
/// not, since `harness add p <(./gen 7)` hands the input over as one.
fn refuse_special(path: &Path, what: &str) -> Result<()> {
    match crate::file_kind::not_regular(path) {
        Some(kind) if !kind.starts_with("a FIFO") => anyhow::bail!(
            "{what} `{}` is {kind}, not a regular file (hint: give a file, or `-` for stdin)",
            path.display()
        ),
        _ => Ok(()),
    }
}
