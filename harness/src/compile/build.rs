//! Builds what judge.toml's `build` command builds (the solutions, references, generators and
//! validators) before anything is judged.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use crate::sandbox::run::{self, LimitHit, Limits, Output, RunError, RunRequest, Scope};
use crate::units::format_time_limit;

/// A build compiles a whole workspace: it gets long, and is bounded only so that one that
/// hangs cannot hang the judge. Its memory is not watched: a parallel `cargo build` of a large
/// project may rightly use several GiB, and the user runs it on their own code.
const LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(60 * 60),
    wall_time: Duration::from_secs(60 * 60),
    memory_bytes: u64::MAX,
    output_bytes: 0,
};

/// Why judge.toml's build command did not build.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// It could not be started.
    #[error(
        "cannot start the build command `{command}`: {source} (hint: is `{program}` installed?)"
    )]
    Start {
        /// The whole command, as written.
        command: String,
        /// Its program.
        program: String,
        /// Why it did not start.
        source: std::io::Error,
    },
    /// It ran and failed.
    #[error("the build command `{command}` failed ({how}); its messages are above")]
    Failed {
        /// The whole command, as written.
        command: String,
        /// How it ended (`exit 101`, or the time limit).
        how: String,
    },
    /// The sandbox could not run it.
    #[error("the build command `{command}` could not run: {source}")]
    Run {
        /// The whole command, as written.
        command: String,
        /// Why.
        source: RunError,
    },
}

/// Runs the build command in judge.toml's folder. Its messages go to our stderr, where the
/// user sees the compiler's errors as they come; stdout stays clean for JSON reports.
pub fn build(command: &[String], root: &Path) -> Result<(), BuildError> {
    let Some((program, args)) = command.split_first() else {
        return Ok(());
    };
    let shown = command.join(" ");
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    // A path with a slash is taken from judge.toml's folder, as the build runs there.
    let program_path = crate::tool::resolve_program(program, root);
    let request = RunRequest::new(&program_path, LIMITS)
        .args(&args)
        .workdir(Some(root))
        .stdout(Output::Stderr)
        .stderr(Output::Stderr)
        .scope(Scope::Group);
    let result = run::run(&request).map_err(|error| match error {
        RunError::Spawn { source, .. } => BuildError::Start {
            command: shown.clone(),
            program: program.clone(),
            source,
        },
        other => BuildError::Run {
            command: shown.clone(),
            source: other,
        },
    })?;
    if result.succeeded() {
        return Ok(());
    }
    let how = match result.limit_hit {
        Some(LimitHit::WallTime) => {
            format!(
                "still running after {}, killed",
                format_time_limit(LIMITS.wall_time)
            )
        }
        Some(LimitHit::CpuTime) => format!(
            "used more than {} of CPU time, killed",
            format_time_limit(LIMITS.cpu_time)
        ),
        _ => result.termination.describe(),
    };
    Err(BuildError::Failed {
        command: shown,
        how,
    })
}
