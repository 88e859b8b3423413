//! Where an HTML report goes: a file the user names, written whole on each flush (a browser
//! reloading the page never reads half of it) by the harness's one way of writing a named file
//! ([`crate::atomic::NamedFile`]): never over a file that is not an earlier report unless the
//! user said `--force`, and never over or through a link, a device or a FIFO.

use std::path::Path;

use crate::atomic::{Report, TargetError};
use crate::report::reporter::ReportFile;

/// The first line of every report: a file that starts with it was written by us, and may be
/// written over.
pub const MARKER: &str =
    "<!DOCTYPE html><!-- a report written by harness: the next run that names this file replaces it -->";

/// The HTML report, as its errors name it.
pub const HTML: Report = Report {
    what: "the HTML report",
    option: "--html",
    example: "report.html",
    marker: MARKER,
};

/// The report file at `path`, checked now (before anything runs).
pub fn open(path: &Path, force: bool) -> Result<ReportFile, TargetError> {
    ReportFile::new(path, HTML, force)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn write(file: &mut ReportFile, text: &str) {
        file.write_all(text.as_bytes()).unwrap();
        file.flush().unwrap();
    }

    #[test]
    fn a_new_file_is_written_whole_on_flush_and_its_folder_made() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep/report.html");
        let mut file = open(&path, false).unwrap();
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
        let mut file = open(&path, false).unwrap();
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
        let error = open(&path, false).err().unwrap().to_string();
        assert!(error.contains("not a report harness wrote"), "{error}");
        assert!(error.contains("--force"), "{error}");
        assert!(error.contains("notes.html"), "{error}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "<!DOCTYPE html><p>my notes</p>"
        );
        let mut forced = open(&path, true).unwrap();
        write(&mut forced, MARKER);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), MARKER);
    }

    #[test]
    fn an_empty_file_may_be_written_and_a_folder_never() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.html");
        std::fs::write(&empty, "").unwrap();
        assert!(open(&empty, false).is_ok());
        let error = open(dir.path(), true).err().unwrap().to_string();
        assert!(error.contains("is a folder"), "{error}");
    }
}
