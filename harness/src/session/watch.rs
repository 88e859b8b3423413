//! `--watch`: run a command again each time a file changes (the `notify` crate: inotify,
//! FSEvents, kqueue), clearing the screen between runs, until Ctrl-C.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context, Result};
use notify::{EventKind, RecursiveMode, Watcher};

use crate::exit;
use crate::report::notice;

/// How often a wait looks at Ctrl-C.
const TICK: Duration = Duration::from_millis(200);
/// Events this close together are one save (editors write, rename, touch).
const SETTLE: Duration = Duration::from_millis(150);

/// Runs `run` now and after every change of `file`; returns the last exit code on Ctrl-C.
pub fn watch(file: &Path, mut run: impl FnMut() -> Result<i32>) -> Result<i32> {
    let (sender, receiver) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = sender.send(event);
    })
    .context("cannot watch files on this system")?;
    // The folder, not the file: editors save by writing a new file and renaming it over the
    // old one, and a watch on the old file would see nothing after the first save.
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let folder = absolute.parent().unwrap_or(Path::new("/"));
    let name = absolute.file_name().map(std::ffi::OsStr::to_os_string);
    watcher
        .watch(folder, RecursiveMode::NonRecursive)
        .with_context(|| format!("cannot watch `{}`", folder.display()))?;
    let terminal = std::io::stdout().is_terminal();
    loop {
        if terminal {
            // Clear the screen and go home: each run reads from the top.
            let _ = notice::write_clear_screen(&mut std::io::stdout());
        }
        let last = match run() {
            Ok(code) => code,
            Err(error) => {
                let _ = notice::write_error(&mut anstream::stderr(), format_args!("{error:#}"));
                exit::ERROR
            }
        };
        let _ = notice::write_watching(&mut anstream::stderr(), file);
        // Wait for a change of the file itself; anything else in the folder is ignored.
        loop {
            if crate::sandbox::interrupt::is_interrupted() {
                return Ok(last);
            }
            match receiver.recv_timeout(TICK) {
                Ok(Ok(event)) => {
                    let ours = event
                        .paths
                        .iter()
                        .any(|path| path.file_name().map(std::ffi::OsStr::to_os_string) == name);
                    let changed = matches!(event.kind, EventKind::Modify(_) | EventKind::Create(_));
                    if ours && changed {
                        break;
                    }
                }
                Ok(Err(error)) => {
                    let _ = notice::write_warning(
                        &mut anstream::stderr(),
                        format_args!("watch: {error}"),
                    );
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(last),
            }
        }
        std::thread::sleep(SETTLE);
        while receiver.try_recv().is_ok() {}
    }
}
