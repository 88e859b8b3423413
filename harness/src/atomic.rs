//! Writing files so that a crash or a full disk leaves the old file or the new one, never half
//! of one: write a temporary file beside the target, then rename it over.

use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
#[error("cannot write `{}`: {source}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// Replaces (or creates) `path` with `contents` in one step. An existing file keeps its
/// permissions; a new one gets the usual 0644.
pub fn write(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    put(path, contents, true).map(|_| ())
}

/// Writes `path` only if nothing is there yet; `Ok(false)` when something already was (it is
/// left as it is). The check and the write are one step: no race with another writer.
pub fn write_new(path: &Path, contents: &[u8]) -> Result<bool, WriteError> {
    put(path, contents, false)
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
    let permissions = match std::fs::metadata(path) {
        Ok(metadata) => metadata.permissions(),
        Err(_) => default_permissions(),
    };
    std::fs::set_permissions(file.path(), permissions).map_err(error)?;
    if replace {
        file.persist(path).map_err(|e| error(e.error))?;
        return Ok(true);
    }
    match file.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(error(e.error)),
    }
}

#[cfg(unix)]
fn default_permissions() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    std::fs::Permissions::from_mode(0o644)
}

#[cfg(not(unix))]
fn default_permissions() -> std::fs::Permissions {
    tempfile::tempfile()
        .and_then(|f| f.metadata())
        .map(|m| m.permissions())
        .expect("a temporary file to read default permissions from")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_keeps_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o644);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            write(&path, b"two").unwrap();
            assert_eq!(mode(&path), 0o600);
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert!(!write_new(&path, b"three").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        // Nothing is left behind beside the file.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
