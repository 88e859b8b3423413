//! `--watch`: run a command again each time a file it read changes (the `notify` crate:
//! inotify, FSEvents, kqueue) — the source, and the cases it was judged on — clearing the
//! screen between runs, until Ctrl-C.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context, Result};
use notify::{EventKind, RecursiveMode, Watcher};

use crate::exit;
use crate::report::notice;

/// How often a wait looks at Ctrl-C.
const TICK: Duration = Duration::from_millis(200);
/// Events this close together are one save (editors write, rename, touch; a case is an input
/// and then its answer).
const SETTLE: Duration = Duration::from_millis(150);

/// What a run read, and so what makes it run again when it changes. Paths are absolute.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Watched {
    /// Files watched by name (the source; an `--input` and its answer).
    pub files: Vec<PathBuf>,
    /// Folders of cases: a file added, changed or removed in them or below.
    pub folders: Vec<PathBuf>,
    /// What the harness itself writes (its build output, the report files): a change below
    /// one of these is its own, never a reason to judge again.
    pub ignored: Vec<PathBuf>,
}

impl Watched {
    /// Only `file`.
    fn of(file: &Path) -> Watched {
        Watched {
            files: vec![absolute(file)],
            ..Watched::default()
        }
    }

    /// Whether a change of `path` is one the run should see.
    fn matters(&self, path: &Path) -> bool {
        if self.ignored.iter().any(|ignored| path.starts_with(ignored)) {
            return false;
        }
        if self.files.iter().any(|file| file == path) {
            return true;
        }
        self.folders.iter().any(|folder| {
            // Hidden names are editors' swap files and the harness's own half-written files
            // (`.harness-…`, renamed into place when whole).
            path.strip_prefix(folder).is_ok_and(|below| {
                below.components().next().is_some()
                    && !below
                        .components()
                        .any(|part| part.as_os_str().to_string_lossy().starts_with('.'))
            })
        })
    }

    /// The folders to ask the system to watch, with whether to watch below them. A file is
    /// watched through its folder: editors save by writing a new file and renaming it over
    /// the old one, and a watch on the old file would see nothing after the first save.
    fn points(&self) -> BTreeMap<PathBuf, bool> {
        let mut points = BTreeMap::new();
        for file in &self.files {
            let folder = file.parent().unwrap_or(Path::new("/")).to_path_buf();
            points.entry(folder).or_insert(false);
        }
        for folder in &self.folders {
            points.insert(folder.clone(), true);
        }
        points
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Runs `run` now and after every change of `file` or of what the last run said it read (it
/// adds to the [`Watched`] it is given); returns the last exit code on Ctrl-C.
pub fn watch(
    file: &Path,
    clear: bool,
    mut run: impl FnMut(&mut Watched) -> Result<i32>,
) -> Result<i32> {
    let (sender, receiver) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = sender.send(event);
    })
    .context("cannot watch files on this system")?;
    let mut watched = Watched::of(file);
    // The source is watched before the first run, not after it: a save while it runs (an
    // editor that saves right after asking) is then seen, not lost.
    let mut points = rewatch(&mut watcher, &BTreeMap::new(), watched.points())?;
    let terminal = clear && std::io::stdout().is_terminal();
    loop {
        if terminal {
            // Clear the screen and go home: each run reads from the top.
            let _ = notice::write_clear_screen(&mut std::io::stdout());
        }
        // A run that fails before it reads its cases keeps the last run's.
        let mut next = Watched::of(file);
        let last = match run(&mut next) {
            Ok(code) => code,
            Err(error) => {
                let _ = notice::write_error(&mut anstream::stderr(), format_args!("{error:#}"));
                exit::ERROR
            }
        };
        if next != Watched::of(file) {
            watched = next;
        }
        points = rewatch(&mut watcher, &points, watched.points())?;
        let here = std::env::current_dir().unwrap_or_default();
        let folders: Vec<&Path> = watched
            .folders
            .iter()
            .filter(|folder| points.contains_key(*folder))
            .map(|folder| folder.strip_prefix(&here).unwrap_or(folder))
            .collect();
        let _ = notice::write_watching(&mut anstream::stderr(), file, &folders);
        loop {
            if crate::sandbox::interrupt::is_interrupted() {
                return Ok(last);
            }
            match receiver.recv_timeout(TICK) {
                Ok(Ok(event)) => {
                    let changed = matches!(
                        event.kind,
                        EventKind::Modify(_) | EventKind::Create(_) | EventKind::Remove(_)
                    );
                    if changed && event.paths.iter().any(|path| watched.matters(path)) {
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

/// Moves the system's watches from `old` to `new`; returns those now in place. The source's
/// folder must be watched; a folder of cases that is not there (yet) is left out.
fn rewatch(
    watcher: &mut impl Watcher,
    old: &BTreeMap<PathBuf, bool>,
    new: BTreeMap<PathBuf, bool>,
) -> Result<BTreeMap<PathBuf, bool>> {
    for (path, recursive) in old {
        if new.get(path) != Some(recursive) {
            let _ = watcher.unwatch(path);
        }
    }
    let mut placed = BTreeMap::new();
    for (path, recursive) in new {
        if old.get(&path) != Some(&recursive) {
            let mode = if recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            if let Err(error) = watcher.watch(&path, mode) {
                if !recursive {
                    return Err(error)
                        .with_context(|| format!("cannot watch `{}`", path.display()));
                }
                continue;
            }
        }
        placed.insert(path, recursive);
    }
    Ok(placed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watched() -> Watched {
        Watched {
            files: vec![PathBuf::from("/p/a.py"), PathBuf::from("/p/in.txt")],
            folders: vec![PathBuf::from("/p/test")],
            ignored: vec![PathBuf::from("/p/target"), PathBuf::from("/p/live.html")],
        }
    }

    #[test]
    fn a_change_matters_when_it_is_of_what_the_run_read() {
        let watched = watched();
        for (path, matters) in [
            ("/p/a.py", true),
            ("/p/in.txt", true),
            ("/p/test/3.in", true),
            ("/p/test/secret/group/3.ans", true),
            ("/p/notes.md", false),
            // Its own writes: the build folder, the report, half-written files.
            ("/p/target/harness/failed.json", false),
            ("/p/live.html", false),
            ("/p/test/.harness-x1y2", false),
            ("/p/test/.3.in.swp", false),
            ("/p/test/.git/index", false),
            // Not below anything watched.
            ("/q/test/3.in", false),
            ("/p/test", false),
        ] {
            assert_eq!(watched.matters(Path::new(path)), matters, "{path}");
        }
    }

    #[test]
    fn only_a_file_is_watched_by_its_name() {
        let watched = Watched::of(Path::new("/p/a.py"));
        assert!(watched.matters(Path::new("/p/a.py")));
        assert!(!watched.matters(Path::new("/p/b.py")));
        assert!(!watched.matters(Path::new("/p/a.py~")));
    }

    #[test]
    fn a_folder_of_cases_is_watched_below_even_when_a_file_is_in_it() {
        let mut watched = watched();
        watched.folders.push(PathBuf::from("/p"));
        let points = watched.points();
        assert_eq!(
            points.into_iter().collect::<Vec<_>>(),
            [
                (PathBuf::from("/p"), true),
                (PathBuf::from("/p/test"), true)
            ]
        );
        let points = Watched::of(Path::new("/p/a.py")).points();
        assert_eq!(
            points.into_iter().collect::<Vec<_>>(),
            [(PathBuf::from("/p"), false)]
        );
    }
}
