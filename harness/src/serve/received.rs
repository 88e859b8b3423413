//! `harness serve --receive`: the receiver of `harness listen` inside the server, one for
//! every editor window that shares it. Each problem Competitive Companion sends is stored as
//! `harness listen` stores it (its samples, its table in judge.toml) and told to every
//! client as a `problem.received` event.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use serde_json::{Map, Value};

use super::server::Server;
use crate::receive::server::{self, Event, Options};
use crate::receive::{Received, SolutionFile, Template};

/// What the receiver is given.
#[derive(Debug, Clone)]
pub struct Receiving {
    pub port: u16,
    /// The workspace's judge.toml (made when missing).
    pub config: PathBuf,
    pub template: Option<Template>,
    /// How long a contest may go quiet before what came of it is kept as it is.
    pub batch_quiet: Duration,
}

/// The receiver's port, bound, and what it stores into.
pub struct Bound {
    server: server::Server,
    receiving: Receiving,
}

impl Bound {
    pub fn port(&self) -> u16 {
        self.server.port()
    }

    pub fn config(&self) -> &Path {
        &self.receiving.config
    }
}

pub fn bind(receiving: &Receiving) -> Result<Bound> {
    Ok(Bound {
        server: server::bind(receiving.port)?,
        receiving: receiving.clone(),
    })
}

/// Receives on a thread of its own until the process ends.
pub fn start(bound: Bound, events: Arc<Server>) -> Result<()> {
    std::thread::Builder::new()
        .name("receive".into())
        .spawn(move || {
            let options = Options {
                once: false,
                batch_quiet: bound.receiving.batch_quiet,
                template: bound.receiving.template.clone(),
            };
            let config = bound.receiving.config.clone();
            let outcome =
                server::serve(&bound.server, &config, &options, &mut |event| match event {
                    Event::Received { problem, .. } => {
                        events.emit_event(None, "problem.received", fields(problem, &config));
                    }
                    Event::Refused { status, reason } => {
                        let _ = crate::report::workspace::write_refused(
                            &mut anstream::stderr(),
                            status,
                            reason,
                        );
                    }
                    Event::BatchTimedOut(_) => {}
                });
            if let Err(error) = outcome {
                let _ = crate::report::notice::write_warning(
                    &mut anstream::stderr(),
                    format_args!("the receiver stopped (the server goes on): {error}"),
                );
            }
        })?;
    Ok(())
}

/// The fields of `problem.received`.
fn fields(problem: &Received, config: &Path) -> Map<String, Value> {
    let path = |path: &Path| Value::from(path.display().to_string());
    let folder = crate::config::root_of(config);
    let solution = match &problem.solution_file {
        Some(SolutionFile::Created(path) | SolutionFile::Kept(path)) => {
            Value::from(path.display().to_string())
        }
        None => Value::Null,
    };
    let mut fields = Map::new();
    fields.insert("problem".into(), problem.id().into());
    fields.insert("title".into(), problem.title().into());
    fields.insert("group".into(), problem.group.clone().into());
    fields.insert(
        "url".into(),
        problem.table.url.as_deref().unwrap_or_default().into(),
    );
    fields.insert("config".into(), path(config));
    fields.insert("folder".into(), path(&folder));
    fields.insert("cases".into(), path(&problem.cases));
    fields.insert("samples".into(), problem.samples.into());
    fields.insert(
        "time_limit_ms".into(),
        problem
            .table
            .time_limit
            .map(|t| t.as_millis() as u64)
            .map_or(Value::Null, Value::from),
    );
    fields.insert(
        "memory_kib".into(),
        problem
            .table
            .memory_limit
            .map(|bytes| bytes / 1024)
            .map_or(Value::Null, Value::from),
    );
    fields.insert("interactive".into(), problem.table.interactive.into());
    fields.insert("updated".into(), problem.updated.into());
    fields.insert("solution".into(), solution);
    fields.insert("notes".into(), problem.notes.clone().into());
    fields
}
