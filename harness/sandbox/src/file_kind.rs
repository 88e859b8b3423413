//! What a path is when it is not a regular file: a FIFO blocks whoever reads it and a device
//! like `/dev/zero` never ends, so sources and cases must be regular files, and the error
//! says what the path is instead.

use std::fs::{FileType, Metadata};
#[cfg(unix)]
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// `None` for a regular file (after following symbolic links); otherwise what it is, in words
/// for an error message: "a FIFO", "a directory"…. A path that cannot be read is left to the
/// read that follows, whose error says why.
pub fn not_regular(path: &Path) -> Option<&'static str> {
    let metadata = std::fs::metadata(path).ok()?;
    describe(&metadata)
}

fn describe(metadata: &Metadata) -> Option<&'static str> {
    of_type(metadata.file_type())
}

/// The same for a file type already known (an `lstat`'s, which may be a symbolic link).
pub fn of_type(kind: FileType) -> Option<&'static str> {
    if kind.is_file() {
        None
    } else if kind.is_dir() {
        Some("a directory")
    } else {
        Some(special(kind))
    }
}

#[cfg(unix)]
fn special(kind: FileType) -> &'static str {
    if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn special(_: FileType) -> &'static str {
    "not a regular file"
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.c");
        std::fs::write(&file, "int main(){}").unwrap();
        let fifo = dir.path().join("fifo.c");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let table: [(&Path, Option<&str>); 4] = [
            (&file, None),
            (dir.path(), Some("a directory")),
            (&fifo, Some("a FIFO (named pipe)")),
            (Path::new("/dev/zero"), Some("a character device")),
        ];
        for (path, expected) in table {
            assert_eq!(not_regular(path), expected, "{}", path.display());
        }
        assert_eq!(not_regular(&dir.path().join("missing")), None);
    }
}
