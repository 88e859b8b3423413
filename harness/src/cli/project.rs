//! `harness project`: which judge.toml a command run here uses, and why; `--default DIR` makes
//! DIR's problems reachable from any folder, `--no-default` stops that.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::GlobalArgs;
use crate::exit;
use crate::report::project::{write_default, write_located};

#[derive(Args, Debug)]
pub(crate) struct ProjectArgs {
    /// Use the project in DIR (the folder of its judge.toml) in every folder with no judge.toml
    /// above: written as `project` in your config file (~/.config/harness/config.toml).
    #[arg(long, value_name = "DIR", conflicts_with = "no_default")]
    default: Option<PathBuf>,
    /// Use no default project any more (takes `project` out of your config file).
    #[arg(long)]
    no_default: bool,
}

pub fn project(global: &GlobalArgs, args: &ProjectArgs) -> Result<i32> {
    let session = global.session();
    let mut stdout = anstream::stdout();
    if args.default.is_some() || args.no_default {
        let (folder, config) = session.set_default_project(args.default.as_deref())?;
        write_default(&mut stdout, folder.as_deref(), &config, true)?;
        return Ok(exit::OK);
    }
    let (project, config) = session.default_project()?;
    let located = session.locate();
    if let Ok((path, origin)) = &located {
        write_located(&mut stdout, path, origin.as_ref())?;
    }
    write_default(&mut stdout, project.as_deref(), &config, false)?;
    // No judge.toml here: the error says where it looked and how to name one.
    located.map(|_| exit::OK)
}
