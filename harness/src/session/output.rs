//! What the output options ask for: the report on stdout (for people, or one JSON document),
//! a JUnit file beside it, the progress bar on stderr; made into the reporters a run feeds.

use std::path::PathBuf;

use crate::event::Plan;
use crate::report::human::{Detail, HumanOptions, HumanReporter};
use crate::report::json::JsonReporter;
use crate::report::junit::JunitReporter;
use crate::report::progress::ProgressReporter;
use crate::report::reporter::{Fanout, ReportFile, Suspended};

/// How results are printed on stdout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
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
        self.format == Format::Human
    }

    /// The reporters of `plan`: the progress bar first (so that it is cleared before a
    /// report written at the end), the report on stdout, the JUnit file.
    pub(super) fn reporters(&self, plan: &Plan, options: HumanOptions) -> Fanout {
        let mut fanout = Fanout::new();
        let progress = ProgressReporter::stderr(plan);
        let bar = progress.bar();
        fanout.push(progress);
        match self.format {
            Format::Human => fanout.push(HumanReporter::new(
                Suspended::new(anstream::stdout(), bar),
                options,
            )),
            Format::Json => fanout.push(JsonReporter::new(anstream::stdout())),
        }
        if let Some(path) = &self.junit {
            fanout.push(JunitReporter::new(ReportFile::new(
                path,
                "the JUnit report",
            )));
        }
        fanout
    }
}
