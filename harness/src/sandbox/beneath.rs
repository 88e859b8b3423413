//! Opening a file that a program under test made, in its folder, without following it: a
//! file-I/O program's output file. The program controls every name in its folder, so the judge
//! never resolves a path there: each component is opened relative to the folder's descriptor
//! with `O_NOFOLLOW` (a symbolic link is refused, wherever it is on the way), never blocks
//! (`O_NONBLOCK`: a FIFO opens at once), and only a regular file is read, at most up to the
//! output limit. A link to the case's answer, to `/etc/shadow`, to `/proc/self/environ` or
//! to the judge's own stdin is then refused instead of read in the judge's process.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

use super::outcome::OutputFileError;

/// Opens the folder `path` (which the judge made) for reading names beneath it. Taken before
/// the program runs: whatever it renames or replaces meanwhile, the descriptor stays on the
/// folder it ran in.
pub(crate) fn open_folder(path: &Path) -> io::Result<OwnedFd> {
    let path = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path holds a NUL byte"))?;
    // SAFETY: a NUL-terminated path and integer flags; returns a fresh descriptor or -1.
    let fd = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor is fresh and ours alone.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Opens `name` (a plain name, or names joined by `/`) beneath `folder`: every folder on the
/// way and the file itself without following a link, the file without blocking; only a
/// regular file is returned.
pub(crate) fn open_regular(folder: BorrowedFd<'_>, name: &str) -> Result<File, OutputFileError> {
    let components: Vec<&str> = name.split('/').collect();
    let refused = |component: &str| {
        component.is_empty() || component == "." || component == ".." || component.contains('\0')
    };
    if components.iter().any(|c| refused(c)) {
        return Err(OutputFileError::Unreadable(format!(
            "`{name}` is not a plain path inside the run's folder"
        )));
    }
    let (last, folders) = components
        .split_last()
        .expect("split yields one item at least");
    let mut here: Option<OwnedFd> = None;
    for component in folders {
        let at = here.as_ref().map_or(folder, AsFd::as_fd);
        let opened = open_at(
            at,
            component,
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW,
        )
        .map_err(|error| {
            // O_DIRECTORY wins over O_NOFOLLOW: a link to a folder says "not a folder".
            if error.raw_os_error() == Some(libc::ENOTDIR) && is_link(at, component) {
                OutputFileError::SymbolicLink((*component).to_owned())
            } else {
                refusal(&error, component, true)
            }
        })?;
        here = Some(opened);
    }
    let at = here.as_ref().map_or(folder, AsFd::as_fd);
    let file = File::from(
        open_at(
            at,
            last,
            libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY,
        )
        .map_err(|error| refusal(&error, last, false))?,
    );
    let kind = file
        .metadata()
        .map_err(|error| OutputFileError::Io(error.to_string()))?
        .file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(OutputFileError::NotRegular(
        if kind.is_dir() {
            "a folder"
        } else if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_socket() {
            "a socket"
        } else if kind.is_char_device() || kind.is_block_device() {
            "a device"
        } else {
            "not a file"
        }
        .to_owned(),
    ))
}

/// Reads a regular file from its start, at most `limit` bytes: `TooLarge` past that.
pub(crate) fn read_bounded(file: File, limit: u64) -> Result<Vec<u8>, OutputFileError> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| OutputFileError::Io(error.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(OutputFileError::TooLarge);
    }
    Ok(bytes)
}

/// [`open_regular`] then [`read_bounded`].
pub(crate) fn read_regular(
    folder: BorrowedFd<'_>,
    name: &str,
    limit: u64,
) -> Result<Vec<u8>, OutputFileError> {
    read_bounded(open_regular(folder, name)?, limit)
}

/// Copies `source` into `folder` as `name` (a plain file name), readable by all, written by
/// the judge only: a file-I/O problem's input, before the program starts.
pub(crate) fn place(folder: BorrowedFd<'_>, name: &str, source: &Path) -> io::Result<()> {
    if name.is_empty() || name == "." || name == ".." || name.contains('/') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{name}` is not a plain file name"),
        ));
    }
    let mut from = File::open(source)?;
    let name_c = CString::new(name)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a name holds a NUL byte"))?;
    // SAFETY: a valid descriptor, a NUL-terminated name, integer flags and mode.
    let fd = unsafe {
        libc::openat(
            folder.as_raw_fd(),
            name_c.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            0o644 as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor is fresh and ours alone.
    let mut to = File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    io::copy(&mut from, &mut to)?;
    // The umask may have taken bits away; the program may run as another user (`nobody`).
    to.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644))
}

/// `openat(at, name, flags | O_CLOEXEC)`.
fn open_at(at: BorrowedFd<'_>, name: &str, flags: libc::c_int) -> io::Result<OwnedFd> {
    let name = CString::new(name)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a name holds a NUL byte"))?;
    // SAFETY: a valid descriptor, a NUL-terminated name and integer flags.
    let fd = unsafe { libc::openat(at.as_raw_fd(), name.as_ptr(), flags | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor is fresh and ours alone.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Whether `name` beneath `at` is a symbolic link (not followed).
fn is_link(at: BorrowedFd<'_>, name: &str) -> bool {
    let Ok(name) = CString::new(name) else {
        return false;
    };
    // SAFETY: stat is plain data that fstatat fills; the name is NUL-terminated.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    let rc = unsafe {
        libc::fstatat(
            at.as_raw_fd(),
            name.as_ptr(),
            &raw mut stat,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    rc == 0 && stat.st_mode & libc::S_IFMT == libc::S_IFLNK
}

/// What a failed open says about the program's file: the judge's own failures stay errors.
fn refusal(error: &io::Error, component: &str, folder: bool) -> OutputFileError {
    match error.raw_os_error() {
        Some(libc::ENOENT) => OutputFileError::Missing,
        // O_NOFOLLOW on a link: ELOOP (Linux), EMLINK (FreeBSD), EFTYPE (NetBSD).
        Some(libc::ELOOP | libc::EMLINK) => OutputFileError::SymbolicLink(component.to_owned()),
        Some(libc::ENOTDIR) if folder => OutputFileError::NotAFolder(component.to_owned()),
        // A socket cannot be opened; a device may refuse to be.
        Some(libc::ENXIO | libc::ENODEV | libc::EOPNOTSUPP) => {
            OutputFileError::NotRegular("not a file".to_owned())
        }
        Some(libc::EACCES | libc::EPERM) => OutputFileError::Unreadable(error.to_string()),
        _ => OutputFileError::Io(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn read(dir: &Path, name: &str, limit: u64) -> Result<Vec<u8>, OutputFileError> {
        let folder = open_folder(dir).unwrap();
        read_regular(folder.as_fd(), name, limit)
    }

    #[test]
    fn a_regular_file_is_read_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("out.txt"), "3\n").unwrap();
        assert_eq!(read(dir.path(), "out.txt", 2).unwrap(), b"3\n");
        assert_eq!(
            read(dir.path(), "out.txt", 1),
            Err(OutputFileError::TooLarge)
        );
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/out.txt"), "4\n").unwrap();
        assert_eq!(read(dir.path(), "sub/out.txt", 10).unwrap(), b"4\n");
    }

    #[test]
    fn links_fifos_folders_and_escapes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let secret = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(secret.path(), "secret").unwrap();
        symlink(secret.path(), dir.path().join("link")).unwrap();
        symlink("/etc", dir.path().join("etc")).unwrap();
        std::fs::create_dir(dir.path().join("folder")).unwrap();
        std::fs::write(dir.path().join("plain"), "x").unwrap();
        nix::unistd::mkfifo(
            &dir.path().join("fifo"),
            nix::sys::stat::Mode::from_bits_truncate(0o644),
        )
        .unwrap();
        let link = |name: &str| OutputFileError::SymbolicLink(name.to_owned());
        let table = [
            ("link", link("link")),
            // A linked folder on the way is refused as well as a linked file.
            ("etc/passwd", link("etc")),
            ("fifo", OutputFileError::NotRegular("a FIFO".to_owned())),
            ("folder", OutputFileError::NotRegular("a folder".to_owned())),
            ("plain/x", OutputFileError::NotAFolder("plain".to_owned())),
            ("missing", OutputFileError::Missing),
            ("folder/missing", OutputFileError::Missing),
        ];
        for (name, expected) in table {
            assert_eq!(read(dir.path(), name, 100), Err(expected), "{name}");
        }
        for name in ["../x", "/etc/passwd", "a//b", "./plain", ""] {
            assert!(
                matches!(
                    read(dir.path(), name, 100),
                    Err(OutputFileError::Unreadable(_))
                ),
                "{name}"
            );
        }
    }
}
