//! The one way the harness writes a file: whole or not at all (a temporary file beside the
//! target, renamed over it), and only over what it may replace. What is at the path is looked
//! at without following a link (lstat): a symbolic link, a folder, a device, a FIFO or a socket
//! is never written through nor replaced, whatever the command was told (`--force` included),
//! since a rename over `/dev/null` would replace the system's `/dev/null` with a file. A report
//! the user names ([`NamedFile`]) replaces only an empty file or an earlier report (known by
//! how it begins) unless told to.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::file_kind;

#[derive(Debug, thiserror::Error)]
#[error("cannot write `{}`: {source}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    pub source: io::Error,
}

/// Replaces (or creates) the regular file `path` with `contents` in one step. An existing file
/// keeps its permissions; a new one gets the usual 0644. Anything else at `path` (a link, a
/// device, a FIFO, a folder) is an error, and stays as it is.
pub fn write(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    put(path, contents, true).map(|_| ())
}

/// Writes `path` only if nothing is there yet; `Ok(false)` when something already was (it is
/// left as it is). The check and the write are one step: no race with another writer.
pub fn write_new(path: &Path, contents: &[u8]) -> Result<bool, WriteError> {
    put(path, contents, false)
}

/// Whether nothing at all is at `path`, not even a dangling symbolic link: where a command
/// that never overwrites (an export) may write.
pub fn is_free(path: &Path) -> bool {
    matches!(fs::symlink_metadata(path), Err(e) if e.kind() == io::ErrorKind::NotFound)
}

/// Renames the folder `from` to `to`, which must not exist: an empty folder made there
/// meanwhile is not replaced (as rename(2) alone would), nor anything else.
pub fn rename_folder_new(from: &Path, to: &Path) -> Result<(), WriteError> {
    let error = |source| WriteError {
        path: to.to_path_buf(),
        source,
    };
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use nix::fcntl::{renameat2, RenameFlags, AT_FDCWD};
        renameat2(AT_FDCWD, from, AT_FDCWD, to, RenameFlags::RENAME_NOREPLACE)
            .map_err(|errno| error(io::Error::from(errno)))
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        // No renameat2 here: looked at just before, which leaves only a moment's race.
        if !is_free(to) {
            return Err(error(io::ErrorKind::AlreadyExists.into()));
        }
        fs::rename(from, to).map_err(error)
    }
}

fn put(path: &Path, contents: &[u8], replace: bool) -> Result<bool, WriteError> {
    let error = |source| WriteError {
        path: path.to_path_buf(),
        source,
    };
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let mut file = tempfile::Builder::new()
        .prefix(".harness-")
        .suffix(".partial")
        .tempfile_in(folder)
        .map_err(error)?;
    file.write_all(contents).map_err(error)?;
    file.as_file().sync_all().map_err(error)?;
    let permissions = match fs::symlink_metadata(path) {
        Ok(metadata) if replace => match file_kind::of_type(metadata.file_type()) {
            None => metadata.permissions(),
            // Looked at last, just before the rename, so that what is there now decides.
            Some(kind) => {
                return Err(error(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("it is {kind}, not a file: not replacing it"),
                )))
            }
        },
        _ => default_permissions(),
    };
    fs::set_permissions(file.path(), permissions).map_err(error)?;
    if replace {
        file.persist(path).map_err(|e| error(e.error))?;
        return Ok(true);
    }
    match file.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(error(e.error)),
    }
}

/// A report file the user names, for the errors that name it and to know an earlier one.
#[derive(Debug, Clone, Copy)]
pub struct Report {
    /// `the HTML report`.
    pub what: &'static str,
    /// The option that names the file (`--html`), which the hint says to leave out.
    pub option: &'static str,
    /// A file name to suggest when a folder is named (`report.html`).
    pub example: &'static str,
    /// How every such report the harness writes begins: a file that begins so is an earlier
    /// one, replaced without being told.
    pub marker: &'static str,
}

/// Why a report cannot be written where it was named, said before anything runs.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error("`{}` is {kind}, not a file: not writing {what} there (hint: leave out {option}, or name a file)", path.display())]
    NotAFile {
        path: PathBuf,
        kind: &'static str,
        what: &'static str,
        option: &'static str,
    },
    #[error("`{}` is a symbolic link to {kind}, not a file: not writing {what} there (hint: leave out {option}, or name a file)", path.display())]
    LinkToNotAFile {
        path: PathBuf,
        kind: &'static str,
        what: &'static str,
        option: &'static str,
    },
    #[error("`{}` is a symbolic link: not writing {what} through it or over it (hint: name the file it leads to, or another file)", path.display())]
    Link { path: PathBuf, what: &'static str },
    #[error("`{}` is a folder, not a file (hint: name a file such as `{}`)", path.display(), path.join(example).display())]
    Folder {
        path: PathBuf,
        example: &'static str,
    },
    #[error("`{}` exists and is not a report harness wrote: not overwriting it (hint: pass --force to replace it, or name another file)", .0.display())]
    NotOurs(PathBuf),
    #[error("cannot read `{}` to see whether it is an earlier report: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// A report file, checked when it is named (before anything runs) and again at each write:
/// nothing there, an empty regular file, an earlier report, or (`force`) any regular file.
#[derive(Debug, Clone)]
pub struct NamedFile {
    path: PathBuf,
    report: Report,
    force: bool,
}

impl NamedFile {
    pub fn new(path: &Path, report: Report, force: bool) -> Result<NamedFile, TargetError> {
        let named = NamedFile {
            path: path.to_path_buf(),
            report,
            force,
        };
        named.check()?;
        Ok(named)
    }

    /// Replaces the report with `contents` in one step, making its folder first.
    pub fn write(&self, contents: &[u8]) -> Result<(), TargetError> {
        self.check()?;
        if let Some(folder) = self.path.parent().filter(|f| !f.as_os_str().is_empty()) {
            fs::create_dir_all(folder).map_err(|source| WriteError {
                path: folder.to_path_buf(),
                source,
            })?;
        }
        write(&self.path, contents)?;
        Ok(())
    }

    fn check(&self) -> Result<(), TargetError> {
        let path = &self.path;
        let Report {
            what,
            option,
            example,
            marker,
        } = self.report;
        // A path that cannot be looked at (a parent that is a file, a folder not readable) is
        // left to the write, whose error says why.
        let Ok(metadata) = fs::symlink_metadata(path) else {
            return Ok(());
        };
        let kind = metadata.file_type();
        if kind.is_symlink() {
            // Where it leads, only to say so: a link is never followed for the write.
            let leads_to = fs::metadata(path)
                .ok()
                .and_then(|target| file_kind::of_type(target.file_type()));
            return Err(match leads_to {
                Some(kind) => TargetError::LinkToNotAFile {
                    path: path.clone(),
                    kind,
                    what,
                    option,
                },
                None => TargetError::Link {
                    path: path.clone(),
                    what,
                },
            });
        }
        if kind.is_dir() {
            return Err(TargetError::Folder {
                path: path.clone(),
                example,
            });
        }
        if let Some(kind) = file_kind::of_type(kind) {
            return Err(TargetError::NotAFile {
                path: path.clone(),
                kind,
                what,
                option,
            });
        }
        if self.force || metadata.len() == 0 {
            return Ok(());
        }
        match begins_with(path, marker) {
            Ok(true) => Ok(()),
            Ok(false) => Err(TargetError::NotOurs(path.clone())),
            Err(source) => Err(TargetError::Read {
                path: path.clone(),
                source,
            }),
        }
    }
}

/// Whether the regular file at `path` begins with `marker`. Opened without following a link
/// and without blocking, in case what is there changed since it was looked at: only a regular
/// file is read.
fn begins_with(path: &Path, marker: &str) -> io::Result<bool> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file: File = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Ok(false);
    }
    let mut head = Vec::with_capacity(marker.len());
    file.take(marker.len() as u64).read_to_end(&mut head)?;
    Ok(head == marker.as_bytes())
}

#[cfg(unix)]
fn default_permissions() -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    fs::Permissions::from_mode(0o644)
}

#[cfg(not(unix))]
fn default_permissions() -> fs::Permissions {
    tempfile::tempfile()
        .and_then(|f| f.metadata())
        .map(|m| m.permissions())
        .expect("a temporary file to read default permissions from")
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: Report = Report {
        what: "the HTML report",
        option: "--html",
        example: "report.html",
        marker: "<!-- ours -->",
    };

    #[test]
    fn replaces_and_keeps_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write(&path, b"one").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o644);
            fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
            write(&path, b"two").unwrap();
            assert_eq!(mode(&path), 0o600);
        }
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert!(!write_new(&path, b"three").unwrap());
        assert_eq!(fs::read(&path).unwrap(), b"two");
        // Nothing is left behind beside the file.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let outside = dir.path().join("outside.txt");
        fs::write(&outside, "mine").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        for path in [&fifo, &link] {
            let error = write(path, b"x").unwrap_err().to_string();
            assert!(error.contains("not replacing it"), "{error}");
        }
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&outside).unwrap(), "mine");
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert!(!write_new(&link, b"x").unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn a_named_report_replaces_only_nothing_an_empty_file_or_an_earlier_report() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        fs::write(at("empty.html"), "").unwrap();
        fs::write(at("earlier.html"), "<!-- ours -->\nold").unwrap();
        fs::write(at("notes.html"), "<p>mine</p>").unwrap();
        nix::unistd::mkfifo(&at("fifo"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        std::os::unix::fs::symlink(at("earlier.html"), at("link.html")).unwrap();
        std::os::unix::fs::symlink(at("fifo"), at("fifo-link")).unwrap();
        std::os::unix::fs::symlink(at("missing"), at("dangling")).unwrap();
        fs::create_dir(at("folder")).unwrap();
        let table: [(&str, bool, Option<&str>); 11] = [
            ("new/deep/report.html", false, None),
            ("empty.html", false, None),
            ("earlier.html", false, None),
            ("notes.html", false, Some("is not a report harness wrote")),
            ("notes.html", true, None),
            ("fifo", true, Some("/fifo` is a FIFO (named pipe), not a file: not writing the HTML report there (hint: leave out --html, or name a file)")),
            ("fifo-link", true, Some("/fifo-link` is a symbolic link to a FIFO (named pipe), not a file")),
            ("link.html", true, Some("/link.html` is a symbolic link: not writing the HTML report through it or over it (hint: name the file it leads to")),
            ("dangling", false, Some("is a symbolic link")),
            ("folder", true, Some("is a folder, not a file (hint: name a file such as")),
            ("/dev/null", true, Some("`/dev/null` is a character device, not a file")),
        ];
        for (name, force, expected) in table {
            let path = if name.starts_with('/') {
                PathBuf::from(name)
            } else {
                at(name)
            };
            let named = NamedFile::new(&path, REPORT, force);
            match expected {
                None => {
                    named.unwrap().write(b"<!-- ours -->\nnew").unwrap();
                    assert_eq!(fs::read_to_string(&path).unwrap(), "<!-- ours -->\nnew");
                }
                Some(expected) => {
                    let error = named.unwrap_err().to_string();
                    assert!(error.contains(expected), "{name}: {error}");
                    if !name.starts_with('/') {
                        assert!(error.contains(&format!("`{}", dir.path().display())));
                    }
                }
            }
        }
        // The link and its target stay as they were.
        assert_eq!(
            fs::read_to_string(at("earlier.html")).unwrap(),
            "<!-- ours -->\nnew"
        );
        assert!(fs::symlink_metadata(at("link.html"))
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_that_becomes_a_fifo_after_the_check_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.html");
        let named = NamedFile::new(&path, REPORT, true).unwrap();
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let error = named.write(b"x").unwrap_err().to_string();
        assert!(
            error.contains("is a FIFO (named pipe), not a file"),
            "{error}"
        );
    }

    #[test]
    fn a_folder_is_renamed_only_where_nothing_is() {
        let dir = tempfile::tempdir().unwrap();
        let (from, to) = (dir.path().join("from"), dir.path().join("to"));
        fs::create_dir(&from).unwrap();
        fs::create_dir(&to).unwrap();
        assert!(!is_free(&to));
        let error = rename_folder_new(&from, &to).unwrap_err();
        assert_eq!(error.source.kind(), io::ErrorKind::AlreadyExists);
        fs::remove_dir(&to).unwrap();
        assert!(is_free(&to));
        rename_folder_new(&from, &to).unwrap();
        assert!(to.is_dir() && is_free(&from));
    }
}
