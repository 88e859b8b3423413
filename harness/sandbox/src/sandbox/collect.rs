//! A trusted helper's run (an external checker): its stdout and stderr go to files instead of
//! pipes, so a chatty helper never blocks and is never stopped for talking, and the first
//! bytes of each are kept, where testlib writes its verdict line.

use std::ffi::OsString;
use std::fs::File;
use std::io::{Read, Seek};
use std::os::fd::AsFd;
use std::path::Path;

use super::outcome::{RunError, RunResult};
use super::request::{Limits, Output, RunRequest, Scope};
use super::run;

/// What the helper did, and the start of what it wrote.
#[derive(Debug)]
pub struct Collected {
    pub result: RunResult,
    /// The first bytes of stdout, at most the `head` asked for.
    pub stdout: Vec<u8>,
    /// The first bytes of stderr, at most the `head` asked for.
    pub stderr: Vec<u8>,
}

/// Runs `program` with `args` in `workdir` (`None`: a fresh folder), stdin from /dev/null,
/// under `limits` for its whole process group (killed on Ctrl-C like every child), and keeps
/// the first `head` bytes of stdout and of stderr.
pub fn run_collecting(
    program: &Path,
    args: &[OsString],
    workdir: Option<&Path>,
    limits: Limits,
    head: usize,
) -> Result<Collected, RunError> {
    let mut stdout = tempfile::tempfile().map_err(RunError::Connect)?;
    let mut stderr = tempfile::tempfile().map_err(RunError::Connect)?;
    let request = RunRequest::new(program, limits)
        .args(args)
        .workdir(workdir)
        .stdout(Output::Fd(stdout.as_fd()))
        .stderr(Output::Fd(stderr.as_fd()))
        .scope(Scope::Group);
    let result = run::run(&request)?;
    Ok(Collected {
        result,
        stdout: read_head(&mut stdout, head).map_err(RunError::Connect)?,
        stderr: read_head(&mut stderr, head).map_err(RunError::Connect)?,
    })
}

fn read_head(file: &mut File, head: usize) -> std::io::Result<Vec<u8>> {
    file.rewind()?;
    let mut bytes = Vec::new();
    file.take(head as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}
