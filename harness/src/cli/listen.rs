//! `harness listen`: receive problems from the browser (Competitive Companion) into the
//! workspace until stopped, or once with `--once`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use crate::config;
use crate::exit;
use crate::receive::batch::Progress;
use crate::receive::server::{self, Event, Options, Stopped, DEFAULT_PORT};
use crate::receive::Template;
use crate::report::workspace as render;
use crate::units;

use super::GlobalArgs;
use crate::report::shown_path;

#[derive(Args, Debug, Clone)]
pub struct ListenArgs {
    /// The port on 127.0.0.1 (0: any free one, printed). The default is one Competitive
    /// Companion sends to without set-up; another needs adding to its custom ports.
    #[arg(long, default_value_t = DEFAULT_PORT, value_name = "PORT")]
    pub port: u16,
    /// Stop after one problem, or after one whole contest.
    #[arg(long)]
    pub once: bool,
    /// The workspace: judge.toml in DIR (made if missing) and its `cases/` folder (default:
    /// the judge.toml found walking up from here, else a new one here).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// How long a contest may go quiet before its table prints with the problems that came.
    #[arg(long, default_value = "30s", value_name = "DURATION", value_parser = units::parse_duration)]
    pub batch_timeout: Duration,
    /// Start each problem's solution from this file: `<id>.<its extension>` beside judge.toml
    /// (an existing file is never replaced). Default: `template` in your config file's
    /// [defaults].
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
}

pub fn listen(global: &GlobalArgs, args: &ListenArgs) -> Result<i32> {
    let config = global.session().workspace_file(args.dir.as_deref())?;
    let root = crate::config::root_of(&config);
    let template = match &args.template {
        Some(path) => Some(read_template(path)?),
        None => user_template()?,
    };
    let server = server::bind(args.port)?;
    let port = server.port();
    {
        let mut stdout = anstream::stdout().lock();
        render::write_listening(&mut stdout, port, &shown_path(&config))?;
        stdout.flush()?;
    }
    let options = Options {
        once: args.once,
        batch_quiet: args.batch_timeout,
        template,
    };
    let mut received = Vec::new();
    let stopped = server::serve(&server, &config, &options, &mut |event| {
        let _ = show(&event, &root);
        if let Event::Received { problem, .. } = event {
            received.push(problem.id().to_string());
        }
    })?;
    let mut stdout = anstream::stdout().lock();
    render::write_listen_end(&mut stdout, &received)?;
    stdout.flush()?;
    Ok(match stopped {
        Stopped::Done => exit::OK,
        Stopped::Interrupted => {
            render::write_listen_stopped(&mut anstream::stderr(), received.len())?;
            exit::INTERRUPTED
        }
    })
}

fn show(event: &Event<'_>, root: &Path) -> std::io::Result<()> {
    let mut stdout = anstream::stdout().lock();
    match event {
        Event::Received { problem, progress } => {
            render::write_received(&mut stdout, problem, progress, root)?;
            if let Progress::Complete(batch) = progress {
                render::write_batch(&mut stdout, batch)?;
            }
        }
        Event::BatchTimedOut(batch) => render::write_batch(&mut stdout, batch)?,
        Event::Refused { status, reason } => {
            render::write_refused(&mut anstream::stderr(), *status, reason)?;
        }
    }
    stdout.flush()
}

/// The template named by `template` in the user's config file, read.
pub fn user_template() -> Result<Option<Template>> {
    match config::user::load()?.template {
        Some(path) => Ok(Some(read_template(&path).map_err(|error| {
            let file = config::user::path().unwrap_or_default();
            anyhow::anyhow!("{error} (named by `template` in `{}`)", file.display())
        })?)),
        None => Ok(None),
    }
}

fn read_template(path: &Path) -> Result<Template> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .filter(|e| !e.is_empty())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "template `{}` has no extension (hint: name it like `template.cpp`: the extension names the solution files)",
                path.display()
            )
        })?;
    let text = std::fs::read(path)
        .map_err(|error| anyhow::anyhow!("cannot read template `{}`: {error}", path.display()))?;
    Ok(Template {
        extension: extension.to_string(),
        text,
    })
}
