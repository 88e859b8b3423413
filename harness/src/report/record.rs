//! The end-of-run outputs (JSON, JUnit, HTML) as hyperfine's exporters are: one [`Recorder`]
//! gathers the plan, each unit's result and the summary from the event stream, and each
//! output is an [`Exporter`], a function of that one [`Record`]. The streaming outputs (the
//! terminal, the progress bar, the live page) stay reporters of the stream.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

use crate::event::{Event, Finished, Plan, Stressed, Summary};
use crate::judge::calibrate::ProblemCalibration;
use crate::judge::submission::SubmissionReport;
use crate::judge::verify::Verified;
use crate::report::reporter::Reporter;

/// Per program (by its label), per case, the CPU time of each repeat: what `calibrate`'s
/// cases took, gathered from its case events.
pub type CaseTimes = BTreeMap<String, BTreeMap<String, Vec<Duration>>>;

/// A finished run: everything an exporter may show.
#[derive(Debug)]
pub struct Record {
    pub plan: Plan,
    /// By unit, in plan order; `None` for a unit that did not finish (an earlier stop).
    pub units: Vec<Option<Recorded>>,
    pub summary: Summary,
}

/// What a unit gave, as the record keeps it.
#[derive(Debug, Clone)]
pub enum Recorded {
    Judged(SubmissionReport),
    Verified(Verified),
    Calibrated {
        calibration: ProblemCalibration,
        times: CaseTimes,
    },
    Stressed(Stressed),
}

impl Record {
    /// Each unit's result, in plan order.
    pub fn results(&self) -> impl Iterator<Item = &Recorded> {
        self.units.iter().flatten()
    }

    /// The programs judged on their cases (`run`, `judge`).
    pub fn judged(&self) -> impl Iterator<Item = &SubmissionReport> {
        self.results().filter_map(Recorded::judged)
    }

    /// The stored submissions judged (`verify`).
    pub fn verified(&self) -> impl Iterator<Item = &Verified> {
        self.results().filter_map(Recorded::verified)
    }
}

impl Recorded {
    /// A program judged on its cases (`run`, `judge`).
    pub fn judged(&self) -> Option<&SubmissionReport> {
        match self {
            Recorded::Judged(report) => Some(report),
            Recorded::Verified(_) | Recorded::Calibrated { .. } | Recorded::Stressed(_) => None,
        }
    }

    /// A stored submission judged (`verify`).
    pub fn verified(&self) -> Option<&Verified> {
        match self {
            Recorded::Verified(verified) => Some(verified),
            Recorded::Judged(_) | Recorded::Calibrated { .. } | Recorded::Stressed(_) => None,
        }
    }
}

/// An output that needs only the finished run. Returns its document, or `None` when the
/// command has no such document (JUnit of `calibrate`): then nothing is written.
pub trait Exporter: Send {
    fn export(&self, record: &Record) -> Option<Vec<u8>>;

    /// How many failing cases of each unit it shows the output and answer of (for a diff):
    /// the record keeps no more, since a suite of wrong answers holds megabytes per case.
    fn diffs(&self) -> usize {
        0
    }
}

/// The one reporter behind every exporter of a run: it gathers the [`Record`] and, when the
/// run finishes, writes each export to its writer (and flushes it). A writer that fails does
/// not keep the others from being written; the first error is returned.
#[derive(Default)]
pub struct Recorder {
    exports: Vec<(Box<dyn Exporter>, Box<dyn Write + Send>)>,
    plan: Option<Plan>,
    units: Vec<Option<Recorded>>,
    /// Calibrate: case times of the unit running now, and the program whose cases they are.
    running: CaseTimes,
    program: String,
}

impl Recorder {
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// Adds an export, written to `out` when the run finishes.
    pub fn push(&mut self, exporter: impl Exporter + 'static, out: impl Write + Send + 'static) {
        self.exports.push((Box::new(exporter), Box::new(out)));
    }

    pub fn is_empty(&self) -> bool {
        self.exports.is_empty()
    }

    fn finished(&mut self, unit: usize, result: Finished<'_>) {
        let diffs = self.exports.iter().map(|(e, _)| e.diffs()).max();
        let diffs = diffs.unwrap_or(0);
        let recorded = match result {
            Finished::Judged(report) => Some(Recorded::Judged(lightened(report, diffs))),
            Finished::Verified(verified) => Some(Recorded::Verified(Verified {
                name: verified.name.clone(),
                expected: verified.expected.clone(),
                expected_score: verified.expected_score,
                score_check: verified.score_check.clone(),
                report: lightened(&verified.report, diffs),
            })),
            Finished::Calibrated(calibration) => Some(Recorded::Calibrated {
                calibration: calibration.clone(),
                times: std::mem::take(&mut self.running),
            }),
            Finished::Stressed(stressed) => Some(Recorded::Stressed(stressed.clone())),
            // No export shows what `gen` made: its report is the terminal's.
            Finished::Generated(_) | Finished::PackageGenerated(_) => None,
        };
        self.running.clear();
        if self.units.len() <= unit {
            self.units.resize(unit + 1, None);
        }
        self.units[unit] = recorded;
    }

    fn export(&mut self, summary: &Summary) -> io::Result<()> {
        let Some(plan) = self.plan.take() else {
            return Ok(());
        };
        let record = Record {
            plan,
            units: std::mem::take(&mut self.units),
            summary: summary.clone(),
        };
        let mut first_error = None;
        for (exporter, out) in &mut self.exports {
            let Some(bytes) = exporter.export(&record) else {
                continue;
            };
            if let Err(error) = out.write_all(&bytes).and_then(|()| out.flush()) {
                first_error.get_or_insert(error);
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

impl Reporter for Recorder {
    fn report(&mut self, event: &Event<'_>) -> io::Result<()> {
        match *event {
            Event::RunStarted(plan) => {
                self.plan = Some(plan.clone());
                self.units = vec![None; plan.units.len()];
            }
            Event::Started { label, .. } => {
                // Calibrate names each program `problem: label`.
                self.program = label
                    .split_once(": ")
                    .map_or(label, |(_, program)| program)
                    .to_string();
            }
            Event::CaseFinished { outcome, .. } => self
                .running
                .entry(self.program.clone())
                .or_default()
                .entry(outcome.case.clone())
                .or_default()
                .push(outcome.cpu_time),
            Event::UnitFinished { unit, result } => self.finished(unit, result),
            Event::RunFinished(summary) => self.export(summary)?,
            Event::Compiled { .. }
            | Event::Generated { .. }
            | Event::Tried { .. }
            | Event::Shrunk { .. } => {}
        }
        Ok(())
    }
}

/// A copy of `report` without the outputs and answers of its failing cases past the first
/// `diffs`, which no export shows.
fn lightened(report: &SubmissionReport, diffs: usize) -> SubmissionReport {
    let mut report = report.clone();
    let failing = report
        .outcomes
        .iter_mut()
        .filter(|o| !o.verdict.is_accepted());
    for mismatch in failing.skip(diffs).filter_map(|o| o.mismatch.as_mut()) {
        mismatch.output = Vec::new();
        mismatch.answer = Vec::new();
    }
    report
}

/// A writer the tests read back after the recorder has written to it.
#[cfg(test)]
#[derive(Clone, Default)]
pub struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

#[cfg(test)]
impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

#[cfg(test)]
impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
impl Recorder {
    /// A recorder with the one export `exporter`, and what it writes.
    pub fn capture(exporter: impl Exporter + 'static) -> (Recorder, Captured) {
        let captured = Captured::default();
        let mut recorder = Recorder::new();
        recorder.push(exporter, captured.clone());
        (recorder, captured)
    }

    /// What `exporter` writes for `command` on these finished units (one plain unit each).
    pub fn exported(
        exporter: impl Exporter + 'static,
        command: crate::event::Command,
        results: &[Finished<'_>],
        jobs: usize,
    ) -> String {
        let units = results.iter().map(|_| crate::event::Unit::default());
        let plan = Plan::new(command, units.collect(), jobs, crate::sandbox::Mode::Auto);
        let (mut recorder, out) = Recorder::capture(exporter);
        recorder.report(&Event::RunStarted(&plan)).unwrap();
        for (unit, &result) in results.iter().enumerate() {
            recorder
                .report(&Event::UnitFinished { unit, result })
                .unwrap();
        }
        let summary = Summary::default();
        recorder.report(&Event::RunFinished(&summary)).unwrap();
        out.text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{CaseOutcome, Mismatch};
    use crate::verdict::Verdict;

    /// Writes how many units it was given and the output bytes each failing case kept.
    struct Sizes(usize);

    impl Exporter for Sizes {
        fn export(&self, record: &Record) -> Option<Vec<u8>> {
            let kept: Vec<String> = record
                .judged()
                .flat_map(|r| &r.outcomes)
                .filter_map(|o| o.mismatch.as_ref())
                .map(|m| format!("{}+{}", m.output.len(), m.answer.len()))
                .collect();
            Some(format!("{} units: {}", record.units.len(), kept.join(" ")).into_bytes())
        }

        fn diffs(&self) -> usize {
            self.0
        }
    }

    /// Fails every write.
    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn wrong(case: &str) -> CaseOutcome {
        CaseOutcome {
            mismatch: Some(Mismatch {
                output: b"4\n".to_vec(),
                answer: b"3\n".to_vec(),
                hint: Some("a looser checker accepts it".to_string()),
            }),
            ..CaseOutcome::new(case, Verdict::WrongAnswer, "expected 3, found 4")
        }
    }

    #[test]
    fn the_record_keeps_the_diffs_its_most_demanding_export_shows() {
        let outcomes = vec![
            CaseOutcome::new("1", Verdict::Accepted, ""),
            wrong("2"),
            wrong("3"),
            wrong("4"),
        ];
        let judged = crate::report::fixtures::report("sum", "sum.c", outcomes, 4);
        let results = [Finished::Judged(&judged)];
        let command = || crate::event::Command::Run;
        let none = Recorder::exported(Sizes(0), command(), &results, 1);
        assert_eq!(none, "1 units: 0+0 0+0 0+0");
        let two = Recorder::exported(Sizes(2), command(), &results, 1);
        assert_eq!(two, "1 units: 2+2 2+2 0+0");
        // The hint stays whatever is left out: the JSON document says it of every case.
        let (mut recorder, _) = Recorder::capture(Sizes(0));
        recorder.finished(0, results[0]);
        let Some(Some(Recorded::Judged(kept))) = recorder.units.first() else {
            panic!("not recorded");
        };
        assert!(kept.outcomes[3].mismatch.as_ref().unwrap().hint.is_some());
    }

    #[test]
    fn a_writer_that_fails_does_not_keep_the_others_from_being_written() {
        let captured = Captured::default();
        let mut recorder = Recorder::new();
        recorder.push(Sizes(0), Broken);
        recorder.push(Sizes(0), captured.clone());
        let plan = Plan::new(
            crate::event::Command::Run,
            Vec::new(),
            1,
            crate::sandbox::Mode::Auto,
        );
        recorder.report(&Event::RunStarted(&plan)).unwrap();
        let error = recorder
            .report(&Event::RunFinished(&Summary::default()))
            .unwrap_err();
        assert_eq!(error.to_string(), "disk full");
        assert_eq!(captured.text(), "0 units: ");
    }
}
