//! One trait every output implements — the terminal report, the progress bar, JSON, JUnit —
//! and the fan-out that hands each event of a run to all of them, as nextest's reporter and
//! hyperfine's `Exporter`s are fed. A new output is one more `Reporter`.

use std::io::{self, Write};
use std::path::Path;

use crate::atomic::{NamedFile, Report, TargetError};
use crate::event::Event;

/// Renders the events of a run. It never runs anything; what it writes goes to a writer it
/// was given, so every reporter can be tested on a hand-built list of events.
pub trait Reporter: Send {
    fn report(&mut self, event: &Event<'_>) -> io::Result<()>;
}

/// Hands every event to each reporter in turn (the progress bar first, so that the bar is
/// cleared before a report that follows it). A reporter that fails to write (a closed pipe,
/// a full disk) is not called again; the first such error is what [`Fanout::finish`] returns,
/// after the run: losing a report is not a reason to stop judging.
#[derive(Default)]
pub struct Fanout {
    reporters: Vec<Option<Box<dyn Reporter>>>,
    error: Option<io::Error>,
}

impl Fanout {
    pub fn new() -> Fanout {
        Fanout::default()
    }

    /// Adds a reporter after those already there.
    pub fn push(&mut self, reporter: impl Reporter + 'static) {
        self.reporters.push(Some(Box::new(reporter)));
    }

    /// Adds a reporter made elsewhere, after those already there.
    pub fn push_boxed(&mut self, reporter: Box<dyn Reporter>) {
        self.reporters.push(Some(reporter));
    }

    /// One event, to every reporter still writing.
    pub fn report(&mut self, event: &Event<'_>) {
        for slot in &mut self.reporters {
            let Some(reporter) = slot else { continue };
            if let Err(error) = reporter.report(event) {
                *slot = None;
                self.error.get_or_insert(error);
            }
        }
    }

    /// The first write error any reporter met.
    pub fn finish(self) -> io::Result<()> {
        match self.error {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// A writer that keeps what is written until it is flushed, then writes it at once with the
/// progress bar hidden: a line written mid-run is not torn by the bar, and the bar does not
/// flicker for events that print nothing.
pub struct Suspended<W: Write> {
    inner: W,
    bar: Option<indicatif::ProgressBar>,
    buffer: Vec<u8>,
}

impl<W: Write> Suspended<W> {
    /// Writes to `inner`, hiding `bar` (when there is one) while it does.
    pub fn new(inner: W, bar: Option<indicatif::ProgressBar>) -> Self {
        Suspended {
            inner,
            bar,
            buffer: Vec::new(),
        }
    }
}

impl<W: Write> Write for Suspended<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let (inner, buffer) = (&mut self.inner, &self.buffer);
        let mut write = || inner.write_all(buffer).and_then(|()| inner.flush());
        let written = match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        };
        self.buffer.clear();
        written
    }
}

/// A report file the user named (`--junit`, `--html`): checked when named, before anything
/// runs, and written whole at each flush, with its folder, by the harness's one way of writing
/// a named file; so a run that fails before its report leaves no file behind, and CI configs
/// may name paths like `target/junit/run.xml` before anything made `target/junit`.
pub struct ReportFile {
    file: NamedFile,
    buffer: Vec<u8>,
}

impl ReportFile {
    pub fn new(path: &Path, report: Report, force: bool) -> Result<Self, TargetError> {
        Ok(ReportFile {
            file: NamedFile::new(path, report, force)?,
            buffer: Vec::new(),
        })
    }
}

impl Write for ReportFile {
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
        self.file.write(&bytes).map_err(io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Summary;

    /// Counts what it is given; fails from the `fail_at`-th event on.
    struct Counter {
        seen: std::sync::Arc<std::sync::atomic::AtomicUsize>,
        fail_at: usize,
    }

    impl Reporter for Counter {
        fn report(&mut self, _: &Event<'_>) -> io::Result<()> {
            let seen = self.seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            if seen >= self.fail_at {
                return Err(io::Error::other(format!("failed at {seen}")));
            }
            Ok(())
        }
    }

    #[test]
    fn a_reporter_that_fails_is_left_out_and_its_error_kept() {
        let counts: Vec<_> = (0..2)
            .map(|_| std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0)))
            .collect();
        let mut fanout = Fanout::new();
        fanout.push(Counter {
            seen: counts[0].clone(),
            fail_at: 2,
        });
        fanout.push(Counter {
            seen: counts[1].clone(),
            fail_at: usize::MAX,
        });
        let summary = Summary::default();
        for _ in 0..4 {
            fanout.report(&Event::RunFinished(&summary));
        }
        let seen: Vec<usize> = counts
            .iter()
            .map(|c| c.load(std::sync::atomic::Ordering::SeqCst))
            .collect();
        assert_eq!(seen, [2, 4]);
        assert_eq!(fanout.finish().unwrap_err().to_string(), "failed at 2");
    }

    #[test]
    fn a_suspended_writer_writes_only_when_flushed() {
        let mut out = Suspended::new(Vec::new(), None);
        write!(out, "one ").unwrap();
        write!(out, "line").unwrap();
        assert!(out.inner.is_empty());
        out.flush().unwrap();
        assert_eq!(out.inner, b"one line");
    }

    #[test]
    fn a_report_file_is_made_on_the_first_write_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep/folder/run.xml");
        let mut file = ReportFile::new(&path, crate::report::junit::JUNIT, false).unwrap();
        file.flush().unwrap();
        assert!(!path.exists());
        file.write_all(b"<x/>").unwrap();
        assert!(!path.exists(), "nothing is written before the flush");
        file.flush().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"<x/>");
    }
}
