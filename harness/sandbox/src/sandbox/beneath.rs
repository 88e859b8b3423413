//! Reading, writing and removing beneath a folder without following a link. A program under
//! test controls every name in its folder, and a downloaded package every name in its own, so
//! the judge never resolves such a path: each component is opened relative to the folder's
//! descriptor with `O_NOFOLLOW` (a symbolic link is refused, wherever it is on the way). Reads
//! never block (`O_NONBLOCK`: a FIFO opens at once) and take only a regular file, at most up
//! to a limit: a file-I/O program's output file that links to the case's answer, to
//! `/etc/shadow` or to the judge's own stdin is refused instead of read. Writes and removals
//! ([`Beneath`]) act on the name itself, never on where a link leads: `harness gen` writing a
//! package's `data/` and its own cache cannot be turned, by a link or a `..`, on a folder
//! outside them.

use std::ffi::{CStr, CString, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::outcome::OutputFileError;

/// Opens the folder `path` (which the judge made) for reading names beneath it. Taken before
/// the program runs: whatever it renames or replaces meanwhile, the descriptor stays on the
/// folder it ran in.
pub fn open_folder(path: &Path) -> io::Result<OwnedFd> {
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
pub fn open_regular(folder: BorrowedFd<'_>, name: &str) -> Result<File, OutputFileError> {
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

/// Why [`open_regular`] refused a file, in words.
pub fn describe(error: &OutputFileError) -> String {
    match error {
        OutputFileError::Missing => "it is not there".to_owned(),
        OutputFileError::SymbolicLink(name) => {
            format!("`{name}` is a symbolic link, which is not followed")
        }
        OutputFileError::NotAFolder(name) => format!("`{name}` is not a folder"),
        OutputFileError::NotRegular(what) => format!("it is {what}, not a regular file"),
        OutputFileError::TooLarge => "it is too large".to_owned(),
        OutputFileError::Unreadable(why) | OutputFileError::Io(why) => why.clone(),
    }
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
pub fn read_regular(
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

/// A folder the judge writes and removes beneath: the package's folder, the cache. The folder
/// itself is the caller's choice (links on the way to it are followed, as the user set them
/// up); every name below it is a relative path of plain parts, walked without following a
/// link, so a link planted anywhere below makes the operation fail instead of reaching out.
#[derive(Debug)]
pub struct Beneath {
    fd: OwnedFd,
    path: PathBuf,
}

/// What a name beneath a folder is, not following a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    File {
        len: u64,
    },
    Folder,
    Link(PathBuf),
    /// A FIFO, a socket, a device.
    Other,
}

impl Beneath {
    /// Opens the folder `path`.
    pub fn open(path: &Path) -> io::Result<Beneath> {
        let c_path = CString::new(path.as_os_str().as_bytes())
            .map_err(|_| invalid("a path holds a NUL byte"))?;
        // SAFETY: a NUL-terminated path and integer flags; returns a fresh descriptor or -1.
        let fd = unsafe {
            libc::open(
                c_path.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Beneath {
            // SAFETY: the descriptor is fresh and ours alone.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
            path: path.to_path_buf(),
        })
    }

    /// Makes the folder `path` (and its parents) where missing, then opens it: for a folder
    /// of the user's own, such as the cache.
    pub fn create(path: &Path) -> io::Result<Beneath> {
        std::fs::create_dir_all(path)?;
        Beneath::open(path)
    }

    /// Where it is, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of `name` below it, for messages.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// The folder `name` below, made with its parents where missing (mode 0755).
    pub fn make_folders(&self, name: &str) -> io::Result<Beneath> {
        let parts = parts(name)?;
        let mut here: Option<OwnedFd> = None;
        for part in &parts {
            let at = here.as_ref().map_or(self.fd.as_fd(), AsFd::as_fd);
            let c_part = c_name(part)?;
            // SAFETY: a valid descriptor, a NUL-terminated name and a mode.
            if unsafe { libc::mkdirat(at.as_raw_fd(), c_part.as_ptr(), 0o755) } < 0 {
                let error = io::Error::last_os_error();
                if error.raw_os_error() != Some(libc::EEXIST) {
                    return Err(error);
                }
            }
            here = Some(open_folder_at(at, part)?);
        }
        Ok(Beneath {
            fd: here.expect("a name has one part at least"),
            path: self.join(name),
        })
    }

    /// The folder `name` below, if it is there; a link or a file on the way is an error.
    pub fn folder(&self, name: &str) -> io::Result<Option<Beneath>> {
        let mut here: Option<OwnedFd> = None;
        for part in parts(name)? {
            let at = here.as_ref().map_or(self.fd.as_fd(), AsFd::as_fd);
            match open_folder_at(at, part) {
                Ok(fd) => here = Some(fd),
                Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
                Err(error) => return Err(error),
            }
        }
        Ok(Some(Beneath {
            fd: here.expect("a name has one part at least"),
            path: self.join(name),
        }))
    }

    /// What `name` is, without following it; `None` when nothing (or no folder on the way) is
    /// there.
    pub fn entry(&self, name: &str) -> io::Result<Option<Entry>> {
        let Some((folder, last)) = self.parent(name)? else {
            return Ok(None);
        };
        let at = folder.as_ref().map_or(self.fd.as_fd(), AsFd::as_fd);
        let Some(stat) = stat_at(at, last)? else {
            return Ok(None);
        };
        Ok(Some(match stat.st_mode & libc::S_IFMT {
            libc::S_IFREG => Entry::File {
                len: u64::try_from(stat.st_size).unwrap_or(0),
            },
            libc::S_IFDIR => Entry::Folder,
            libc::S_IFLNK => Entry::Link(read_link_at(at, last)?),
            _ => Entry::Other,
        }))
    }

    /// Opens the regular file `name` below for reading (see [`open_regular`]).
    pub fn open_file(&self, name: &str) -> Result<File, OutputFileError> {
        open_regular(self.fd.as_fd(), name)
    }

    /// Writes `name` (its folder must be there) from `from`, at most `limit` bytes (more is an
    /// error of kind `FileTooLarge`, and nothing is written): into a new file beside it, then
    /// renamed over whatever `name` was, so a reader sees the old file or the new one and a
    /// link at `name` is replaced, never written through. The file gets `mode`, or else the
    /// permissions of the file it replaces, or 0644. Returns the bytes written.
    pub fn write(
        &self,
        name: &str,
        from: &mut dyn Read,
        limit: u64,
        mode: Option<u32>,
    ) -> io::Result<u64> {
        let (folder, last) = self
            .parent(name)?
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "its folder is not there"))?;
        let at = folder.as_ref().map_or(self.fd.as_fd(), AsFd::as_fd);
        let mode = match (mode, stat_at(at, last)?) {
            (Some(mode), _) => mode & 0o7777,
            (None, Some(stat)) if stat.st_mode & libc::S_IFMT == libc::S_IFREG => {
                stat.st_mode & 0o7777
            }
            _ => 0o644,
        };
        let (temp, mut file) = create_temp(at)?;
        let written =
            io::copy(&mut from.take(limit.saturating_add(1)), &mut file).and_then(|written| {
                if written > limit {
                    return Err(io::Error::new(
                        io::ErrorKind::FileTooLarge,
                        format!("more than {limit} bytes"),
                    ));
                }
                file.flush()?;
                file.set_permissions(std::fs::Permissions::from_mode(mode))?;
                rename_at(at, &temp, at, last)?;
                Ok(written)
            });
        if written.is_err() {
            let _ = unlink_at(at, &temp, 0);
        }
        written
    }

    /// Makes `name` (its folder must be there) a symbolic link to `target`, replacing what it
    /// was (a file or a link, never a folder).
    pub fn symlink(&self, name: &str, target: &Path) -> io::Result<()> {
        let (folder, last) = self
            .parent(name)?
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "its folder is not there"))?;
        let at = folder.as_ref().map_or(self.fd.as_fd(), AsFd::as_fd);
        let c_target = CString::new(target.as_os_str().as_bytes())
            .map_err(|_| invalid("a link target holds a NUL byte"))?;
        // Where nothing is yet, the link is made in place; else beside it and renamed over.
        let c_last = c_name(last)?;
        // SAFETY: NUL-terminated strings and a valid descriptor.
        if unsafe { libc::symlinkat(c_target.as_ptr(), at.as_raw_fd(), c_last.as_ptr()) } == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.raw_os_error() != Some(libc::EEXIST) {
            return Err(error);
        }
        for attempt in 0..100u32 {
            let temp = format!(".harness-{}-{attempt}.link", std::process::id());
            let c_temp = c_name(&temp)?;
            // SAFETY: NUL-terminated strings and a valid descriptor.
            let rc = unsafe { libc::symlinkat(c_target.as_ptr(), at.as_raw_fd(), c_temp.as_ptr()) };
            if rc == 0 {
                return rename_at(at, &temp, at, last).inspect_err(|_| {
                    let _ = unlink_at(at, &temp, 0);
                });
            }
            let error = io::Error::last_os_error();
            if error.raw_os_error() != Some(libc::EEXIST) {
                return Err(error);
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free temporary name",
        ))
    }

    /// Removes the file or link `name` (never where a link leads); `false` when it was not
    /// there.
    pub fn remove(&self, name: &str) -> io::Result<bool> {
        let Some((folder, last)) = self.parent(name)? else {
            return Ok(false);
        };
        let at = folder.as_ref().map_or(self.fd.as_fd(), AsFd::as_fd);
        match unlink_at(at, last, 0) {
            Ok(()) => Ok(true),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// Removes `name` and, when it is a folder, everything in it; a link in it is removed as a
    /// link. Nothing is there afterwards; it was not there is fine.
    pub fn remove_all(&self, name: &str) -> io::Result<()> {
        let Some((folder, last)) = self.parent(name)? else {
            return Ok(());
        };
        let at = folder.as_ref().map_or(self.fd.as_fd(), AsFd::as_fd);
        remove_all_at(at, last)
    }

    /// Moves the file or link `name` to `to_name` below `to` (whose folder must be there): a
    /// rename where both are on one file system, else a copy (a link copied as a link, a file
    /// read without following) and a removal.
    pub fn move_to(&self, name: &str, to: &Beneath, to_name: &str) -> io::Result<()> {
        let (from_folder, from_last) = self
            .parent(name)?
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "it is not there"))?;
        let (to_folder, to_last) = to.parent(to_name)?.ok_or_else(|| {
            io::Error::new(io::ErrorKind::NotFound, "its new folder is not there")
        })?;
        let from_at = from_folder.as_ref().map_or(self.fd.as_fd(), AsFd::as_fd);
        let to_at = to_folder.as_ref().map_or(to.fd.as_fd(), AsFd::as_fd);
        match rename_at(from_at, from_last, to_at, to_last) {
            Err(error) if error.raw_os_error() == Some(libc::EXDEV) => {}
            done => return done,
        }
        match self.entry(name)? {
            Some(Entry::Link(target)) => to.symlink(to_name, &target)?,
            Some(Entry::File { .. }) => {
                let mut file = self
                    .open_file(name)
                    .map_err(|error| io::Error::other(describe(&error)))?;
                to.write(to_name, &mut file, u64::MAX, None)?;
            }
            _ => return Err(invalid("not a file or a link")),
        }
        unlink_at(from_at, from_last, 0)
    }

    /// The folder that holds `name` (`None`: this one) and `name`'s last part; `Ok(None)` when
    /// a folder on the way is missing.
    fn parent<'n>(&self, name: &'n str) -> io::Result<Option<(Option<Beneath>, &'n str)>> {
        let parts = parts(name)?;
        let last = parts.last().expect("a name has one part at least");
        let Some(cut) = name.rfind('/') else {
            return Ok(Some((None, last)));
        };
        Ok(self
            .folder(&name[..cut])?
            .map(|folder| (Some(folder), *last)))
    }
}

impl AsFd for Beneath {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

/// The parts of a name below a folder; anything but plain parts is refused.
fn parts(name: &str) -> io::Result<Vec<&str>> {
    let parts: Vec<&str> = name.split('/').collect();
    let plain =
        |part: &&str| !part.is_empty() && *part != "." && *part != ".." && !part.contains('\0');
    if parts.iter().all(plain) {
        Ok(parts)
    } else {
        Err(invalid(&format!(
            "`{name}` is not a plain path below the folder"
        )))
    }
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_owned())
}

fn c_name(name: &str) -> io::Result<CString> {
    CString::new(name).map_err(|_| invalid("a name holds a NUL byte"))
}

/// Opens the folder `name` in `at`, not following a link: a link says so.
fn open_folder_at(at: BorrowedFd<'_>, name: &str) -> io::Result<OwnedFd> {
    open_at(
        at,
        name,
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW,
    )
    .map_err(|error| {
        // O_DIRECTORY wins over O_NOFOLLOW: a link to a folder says "not a folder".
        if is_link(at, name) {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("`{name}` is a symbolic link, which is not followed"),
            )
        } else {
            error
        }
    })
}

/// `fstatat` without following; `None` when nothing is there.
fn stat_at(at: BorrowedFd<'_>, name: &str) -> io::Result<Option<libc::stat>> {
    let c_name = c_name(name)?;
    // SAFETY: stat is plain data that fstatat fills; the name is NUL-terminated.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    let rc = unsafe {
        libc::fstatat(
            at.as_raw_fd(),
            c_name.as_ptr(),
            &raw mut stat,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if rc == 0 {
        return Ok(Some(stat));
    }
    let error = io::Error::last_os_error();
    if error.kind() == io::ErrorKind::NotFound {
        Ok(None)
    } else {
        Err(error)
    }
}

fn read_link_at(at: BorrowedFd<'_>, name: &str) -> io::Result<PathBuf> {
    let c_name = c_name(name)?;
    let mut buffer = vec![0u8; libc::PATH_MAX as usize + 1];
    // SAFETY: the buffer is as long as said; the name is NUL-terminated.
    let len = unsafe {
        libc::readlinkat(
            at.as_raw_fd(),
            c_name.as_ptr(),
            buffer.as_mut_ptr().cast(),
            buffer.len(),
        )
    };
    let len = usize::try_from(len).map_err(|_| io::Error::last_os_error())?;
    buffer.truncate(len);
    Ok(PathBuf::from(OsString::from_vec(buffer)))
}

fn unlink_at(at: BorrowedFd<'_>, name: &str, flags: libc::c_int) -> io::Result<()> {
    let c_name = c_name(name)?;
    // SAFETY: a valid descriptor, a NUL-terminated name, integer flags.
    if unsafe { libc::unlinkat(at.as_raw_fd(), c_name.as_ptr(), flags) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn rename_at(
    from: BorrowedFd<'_>,
    name: &str,
    to: BorrowedFd<'_>,
    to_name: &str,
) -> io::Result<()> {
    let (c_from, c_to) = (c_name(name)?, c_name(to_name)?);
    // SAFETY: valid descriptors and NUL-terminated names.
    let rc = unsafe {
        libc::renameat(
            from.as_raw_fd(),
            c_from.as_ptr(),
            to.as_raw_fd(),
            c_to.as_ptr(),
        )
    };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A new file in `at`, made by this call alone (`O_EXCL`, never through a link).
fn create_temp(at: BorrowedFd<'_>) -> io::Result<(String, File)> {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    for _ in 0..100 {
        let number = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let temp = format!(".harness-{}-{number}.partial", std::process::id());
        match open_at(
            at,
            &temp,
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW,
        ) {
            Ok(fd) => return Ok((temp, File::from(fd))),
            Err(error) if error.raw_os_error() == Some(libc::EEXIST) => {}
            Err(error) => return Err(error),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary name",
    ))
}

/// Removes `name` in `at`: a file or a link at once, a folder after what is in it, each
/// opened without following a link.
fn remove_all_at(at: BorrowedFd<'_>, name: &str) -> io::Result<()> {
    match unlink_at(at, name, 0) {
        Ok(()) => return Ok(()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        // Linux says EISDIR for a folder, POSIX EPERM.
        Err(error) if matches!(error.raw_os_error(), Some(libc::EISDIR | libc::EPERM)) => {}
        Err(error) => return Err(error),
    }
    let folder = open_folder_at(at, name)?;
    for entry in names_in(folder.as_fd())? {
        let entry = entry
            .into_string()
            .map_err(|_| invalid("a name in the folder is not UTF-8"))?;
        remove_all_at(folder.as_fd(), &entry)?;
    }
    unlink_at(at, name, libc::AT_REMOVEDIR)
}

/// The names in the folder `folder` (without `.` and `..`).
fn names_in(folder: BorrowedFd<'_>) -> io::Result<Vec<OsString>> {
    // fdopendir takes the descriptor over: give it a duplicate.
    let copy = folder.try_clone_to_owned()?;
    // SAFETY: a valid descriptor, ours to give away; NULL on failure.
    let dir = unsafe { libc::fdopendir(copy.as_raw_fd()) };
    if dir.is_null() {
        return Err(io::Error::last_os_error());
    }
    std::mem::forget(copy);
    let mut names = Vec::new();
    loop {
        // SAFETY: `dir` is an open stream; readdir returns NULL at the end.
        let entry = unsafe { libc::readdir(dir) };
        if entry.is_null() {
            break;
        }
        // SAFETY: d_name is NUL-terminated within the entry readdir returned.
        let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) };
        let bytes = name.to_bytes();
        if bytes != b"." && bytes != b".." {
            names.push(OsString::from_vec(bytes.to_vec()));
        }
    }
    // SAFETY: closes the stream and the descriptor it owns.
    unsafe { libc::closedir(dir) };
    Ok(names)
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

    #[test]
    fn writes_and_removals_stay_beneath_and_never_follow_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::create_dir(&victim).unwrap();
        std::fs::write(victim.join("keep.txt"), "mine").unwrap();
        let root = Beneath::open(dir.path()).unwrap();

        let data = root.make_folders("data/secret").unwrap();
        data.write("1.in", &mut &b"1\n"[..], 10, None).unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("data/secret/1.in")).unwrap(),
            b"1\n"
        );
        let error = data
            .write("big.in", &mut &[0u8; 11][..], 10, None)
            .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        assert!(!dir.path().join("data/secret/big.in").exists());
        data.symlink("2.in", Path::new("1.in")).unwrap();
        assert_eq!(
            root.entry("data/secret/2.in").unwrap(),
            Some(Entry::Link(PathBuf::from("1.in")))
        );
        // A link at the name is replaced, not written through.
        symlink(victim.join("keep.txt"), dir.path().join("data/secret/3.in")).unwrap();
        data.write("3.in", &mut &b"3\n"[..], 10, None).unwrap();
        assert_eq!(
            std::fs::read_to_string(victim.join("keep.txt")).unwrap(),
            "mine"
        );

        // A link on the way, a `..`, an absolute or empty part: refused, nothing touched.
        symlink(&victim, dir.path().join("data/out")).unwrap();
        assert!(root.make_folders("data/out/x").is_err());
        assert!(root.write("data/out/x", &mut &b""[..], 10, None).is_err());
        assert!(root.remove("data/out/keep.txt").is_err());
        assert!(root.remove_all("data/out/keep.txt").is_err());
        for bad in ["../victim", "data/../../victim", "/tmp", "data//x", ""] {
            assert!(root.remove_all(bad).is_err(), "{bad}");
            assert!(root.make_folders(bad).is_err(), "{bad}");
        }
        // Removing a folder removes a link in it as a link.
        root.remove_all("data").unwrap();
        assert!(!dir.path().join("data").exists());
        assert_eq!(
            std::fs::read_to_string(victim.join("keep.txt")).unwrap(),
            "mine"
        );
        root.remove_all("data").unwrap();

        // Moving between folders keeps a link a link.
        let a = root.make_folders("a").unwrap();
        let b = root.make_folders("b").unwrap();
        a.write("f", &mut &b"f"[..], 10, None).unwrap();
        a.symlink("l", &victim).unwrap();
        a.move_to("f", &b, "f").unwrap();
        a.move_to("l", &b, "l").unwrap();
        assert_eq!(std::fs::read(dir.path().join("b/f")).unwrap(), b"f");
        assert_eq!(
            root.entry("b/l").unwrap(),
            Some(Entry::Link(victim.clone()))
        );
        assert_eq!(root.entry("a/f").unwrap(), None);
        assert!(root.remove("b/l").unwrap() && !root.remove("b/l").unwrap());
        assert!(victim.join("keep.txt").is_file());
    }
}
