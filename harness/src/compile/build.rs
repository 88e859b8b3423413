//! Builds what judge.toml's `build` command builds (the solutions, references, generators and
//! validators) before anything is judged.

use std::path::Path;
use std::process::{Command, Stdio};

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
    #[error("the build command `{command}` failed ({status}); its messages are above")]
    Failed {
        /// The whole command, as written.
        command: String,
        /// How it ended (`exit status: 101`).
        status: String,
    },
}

/// Runs the build command in judge.toml's folder. Its messages go to our stderr, where the
/// user sees the compiler's errors as they are; stdout stays clean for JSON reports.
pub fn build(command: &[String], root: &Path) -> Result<(), BuildError> {
    let Some((program, args)) = command.split_first() else {
        return Ok(());
    };
    let shown = command.join(" ");
    let status = Command::new(program)
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(stderr_for_child())
        .stderr(Stdio::inherit())
        .status()
        .map_err(|source| BuildError::Start {
            command: shown.clone(),
            program: program.clone(),
            source,
        })?;
    if status.success() {
        Ok(())
    } else {
        Err(BuildError::Failed {
            command: shown,
            status: status.to_string(),
        })
    }
}

/// A duplicate of our stderr, so the child's stdout joins it without closing ours.
fn stderr_for_child() -> Stdio {
    use std::os::fd::AsFd;
    std::io::stderr()
        .as_fd()
        .try_clone_to_owned()
        .map_or_else(|_| Stdio::null(), Stdio::from)
}
