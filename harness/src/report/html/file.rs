//! Where an HTML report goes: a file written whole, through a temporary file in the same
//! folder renamed over it (a browser reloading the page never reads half of it), and never
//! over a file that is not an earlier report of ours unless the user said `--force`.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The first line of every report: a file that starts with it was written by us, and may be
/// written over.
pub const MARKER: &str =
    "<!DOCTYPE html><!-- a report written by harness: the next run that names this file replaces it -->";

/// An error about the report file, naming it.
#[derive(Debug, thiserror::Error)]
pub enum HtmlFileError {
    #[error("`{}` is a folder, not a file (hint: name a file such as `{}`)", .0.display(), .0.join("report.html").display())]
    Folder(PathBuf),
    #[error("`{}` exists and is not a report harness wrote: not overwriting it (hint: pass --force to replace it, or name another file)", .0.display())]
    NotOurs(PathBuf),
    #[error("cannot read `{}` to see whether it is an earlier report: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
}

/// The report file, checked when it is named (before anything runs), written when flushed.
pub struct HtmlFile {
    path: PathBuf,
    buffer: Vec<u8>,
}

impl HtmlFile {
    /// The file at `path`, which may be written when it does not exist, is empty, or holds an
    /// earlier report; anything else only with `force`.
    pub fn new(path: &Path, force: bool) -> Result<HtmlFile, HtmlFileError> {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => return Err(HtmlFileError::Folder(path.to_path_buf())),
            Ok(meta)
                if !force
                    && meta.len() > 0
                    && !is_ours(path).map_err(|source| HtmlFileError::Read {
                        path: path.to_path_buf(),
                        source,
                    })? =>
            {
                return Err(HtmlFileError::NotOurs(path.to_path_buf()));
            }
            _ => {}
        }
        Ok(HtmlFile {
            path: path.to_path_buf(),
            buffer: Vec::new(),
        })
    }

    fn error(&self, error: &io::Error) -> io::Error {
        io::Error::new(
            error.kind(),
            format!(
                "cannot write the HTML report `{}`: {error}",
                self.path.display()
            ),
        )
    }

    /// Writes `bytes` to a temporary file beside the report and renames it over the report.
    fn replace(&self, bytes: &[u8]) -> io::Result<()> {
        let folder = match self.path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&folder)?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(".harness-report-").suffix(".html.tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Readable by others, as a file the user made would be: it is meant to be shared.
            builder.permissions(std::fs::Permissions::from_mode(0o644));
        }
        let mut temporary = builder.tempfile_in(&folder)?;
        temporary.write_all(bytes)?;
        temporary.as_file().sync_data()?;
        temporary.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// Whether the file at `path` begins with [`MARKER`].
fn is_ours(path: &Path) -> io::Result<bool> {
    let mut head = Vec::with_capacity(MARKER.len());
    std::fs::File::open(path)?
        .take(MARKER.len() as u64)
        .read_to_end(&mut head)?;
    Ok(head == MARKER.as_bytes())
}

impl Write for HtmlFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(buf);
        Ok(buf.len())
    }

    /// Writes what was written since the last flush as the whole file.
    fn flush(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let bytes = std::mem::take(&mut self.buffer);
        self.replace(&bytes).map_err(|e| self.error(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(file: &mut HtmlFile, text: &str) {
        file.write_all(text.as_bytes()).unwrap();
        file.flush().unwrap();
    }

    #[test]
    fn a_new_file_is_written_whole_on_flush_and_its_folder_made() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep/report.html");
        let mut file = HtmlFile::new(&path, false).unwrap();
        file.write_all(MARKER.as_bytes()).unwrap();
        assert!(!path.exists(), "nothing is written before the flush");
        file.flush().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), MARKER);
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["report.html"], "no temporary file is left behind");
    }

    #[test]
    fn an_earlier_report_is_replaced_and_each_flush_rewrites_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.html");
        std::fs::write(&path, format!("{MARKER}\nold")).unwrap();
        let mut file = HtmlFile::new(&path, false).unwrap();
        write(&mut file, &format!("{MARKER}\nnew"));
        write(&mut file, &format!("{MARKER}\nnewer"));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{MARKER}\nnewer")
        );
    }

    #[test]
    fn a_file_of_the_user_is_kept_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.html");
        std::fs::write(&path, "<!DOCTYPE html><p>my notes</p>").unwrap();
        let error = HtmlFile::new(&path, false).err().unwrap().to_string();
        assert!(error.contains("not a report harness wrote"), "{error}");
        assert!(error.contains("--force"), "{error}");
        assert!(error.contains("notes.html"), "{error}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "<!DOCTYPE html><p>my notes</p>"
        );
        let mut forced = HtmlFile::new(&path, true).unwrap();
        write(&mut forced, MARKER);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), MARKER);
    }

    #[test]
    fn an_empty_file_may_be_written_and_a_folder_never() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.html");
        std::fs::write(&empty, "").unwrap();
        assert!(HtmlFile::new(&empty, false).is_ok());
        let error = HtmlFile::new(dir.path(), true).err().unwrap().to_string();
        assert!(error.contains("is a folder"), "{error}");
    }
}
