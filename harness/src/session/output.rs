//! What the output options ask for: the report on stdout (for people, or one JSON document),
//! a JUnit file and an HTML page beside it, the progress bar on stderr; made into the
//! reporters a run feeds.

use std::path::PathBuf;
use std::sync::Arc;

use crate::atomic::TargetError;
use crate::event::Plan;
use crate::report::html::{self, Html};
use crate::report::human::{Detail, HumanOptions, HumanReporter};
use crate::report::json::Json;
use crate::report::junit::{self, Junit};
use crate::report::progress::ProgressReporter;
use crate::report::record::Recorder;
use crate::report::reporter::{Fanout, ReportFile, Reporter, Suspended};

/// Makes the reporter of each run for a caller that is not the command line (`harness
/// serve`): with one, it takes the place of the report on stdout and of the progress bar.
#[derive(Clone)]
pub struct Sink(Arc<dyn Fn() -> Box<dyn Reporter> + Send + Sync>);

impl Sink {
    pub fn new(make: impl Fn() -> Box<dyn Reporter> + Send + Sync + 'static) -> Sink {
        Sink(Arc::new(make))
    }
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sink")
    }
}

/// How results are printed on stdout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// For people: verdict lines, diffs and summaries.
    #[default]
    Human,
    /// One JSON document and nothing else, for scripts and editors.
    Json,
}

/// The output options of a command that judges.
#[derive(Clone, Debug, Default)]
pub struct Output {
    pub format: Format,
    /// Also write JUnit XML to this file.
    pub junit: Option<PathBuf>,
    /// How much of the cases the report for people shows.
    pub detail: Detail,
    /// Also write the HTML report to this file.
    pub html: Option<PathBuf>,
    /// Write the HTML or JUnit report over a regular file that is not an earlier one.
    pub force: bool,
    /// Where the events go instead of stdout and the progress bar.
    pub sink: Option<Sink>,
}

impl Output {
    /// Only the format, as the commands without other output options have.
    pub fn format(format: Format) -> Output {
        Output {
            format,
            ..Output::default()
        }
    }

    pub fn is_human(&self) -> bool {
        self.format == Format::Human && self.sink.is_none()
    }

    /// The report files named, checked: a file that may not be written over (the user's own,
    /// a link, a device, a FIFO) stops the command before anything runs.
    pub(super) fn files(&self) -> Result<(Option<ReportFile>, Option<ReportFile>), TargetError> {
        let junit = match &self.junit {
            Some(path) => Some(ReportFile::new(path, junit::JUNIT, self.force)?),
            None => None,
        };
        let html = match &self.html {
            Some(path) => Some(html::file::open(path, self.force)?),
            None => None,
        };
        Ok((junit, html))
    }

    /// The reporters of `plan`: the progress bar first (so that it is cleared before a
    /// report written at the end), the report on stdout, then the recorder behind the
    /// end-of-run exports: the JSON document on stdout, the JUnit file, the HTML page.
    pub(super) fn reporters(&self, plan: &Plan, options: HumanOptions) -> anyhow::Result<Fanout> {
        let (junit, html) = self.files()?;
        let mut fanout = Fanout::new();
        let mut recorder = Recorder::new();
        if let Some(Sink(make)) = &self.sink {
            fanout.push_boxed(make());
        } else {
            let progress = ProgressReporter::stderr(plan);
            let bar = progress.bar();
            fanout.push(progress);
            match self.format {
                Format::Human => fanout.push(HumanReporter::new(
                    Suspended::new(anstream::stdout(), bar),
                    options,
                )),
                Format::Json => recorder.push(Json, anstream::stdout()),
            }
        }
        if let Some(file) = junit {
            recorder.push(Junit, file);
        }
        if let Some(file) = html {
            recorder.push(Html, file);
        }
        if !recorder.is_empty() {
            fanout.push(recorder);
        }
        Ok(fanout)
    }
}
