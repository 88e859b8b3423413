//! The HTML report (`--html FILE`): one self-contained page of a `run`, `judge`, `verify` or
//! `calibrate` — no script, no style sheet, font or image fetched, readable in print and in
//! dark mode. It is one more [`Reporter`]: it keeps what the events say and writes the page
//! when the run finishes; it never runs or reads anything.

mod bands;
pub mod board;
pub mod chart;
pub mod file;
mod kept;
pub mod page;
mod render;

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

use kept::Kept;

use crate::event::{Event, Finished, Plan, Summary};
use crate::judge::submission::SubmissionReport;
use crate::judge::verify::Verified;
use crate::judge::CaseOutcome;
use crate::report::reporter::Reporter;

/// Everything the page shows, gathered from the events.
#[derive(Debug, Default)]
struct Gathered {
    plan: Option<Plan>,
    /// By unit, in plan order.
    results: Vec<Option<Kept>>,
    summary: Option<Summary>,
    /// Calibrate: case times of the unit running now, per program, per case.
    running: BTreeMap<String, BTreeMap<String, Vec<Duration>>>,
    /// Calibrate: the program whose cases are being run.
    program: String,
}

/// The HTML report as a [`Reporter`], written to `out` (and flushed) when the run finishes.
pub struct HtmlReporter<W: Write> {
    out: W,
    gathered: Gathered,
}

impl<W: Write> HtmlReporter<W> {
    pub fn new(out: W) -> Self {
        HtmlReporter {
            out,
            gathered: Gathered::default(),
        }
    }
}

impl<W: Write + Send> Reporter for HtmlReporter<W> {
    fn report(&mut self, event: &Event<'_>) -> io::Result<()> {
        let gathered = &mut self.gathered;
        match event {
            Event::RunStarted(plan) => {
                *gathered = Gathered {
                    results: vec![None; plan.units.len()],
                    plan: Some((*plan).clone()),
                    ..Gathered::default()
                };
            }
            Event::Started { label, .. } => {
                // Calibrate names each program `problem: label`.
                gathered.program = label
                    .split_once(": ")
                    .map_or(*label, |(_, program)| program)
                    .to_string();
            }
            Event::CaseFinished { outcome, .. } => {
                gathered
                    .running
                    .entry(gathered.program.clone())
                    .or_default()
                    .entry(outcome.case.clone())
                    .or_default()
                    .push(outcome.cpu_time);
            }
            Event::UnitFinished { unit, result } => {
                let kept = match result {
                    Finished::Judged(report) => Some(Kept::Judged(lightened(report))),
                    Finished::Verified(verified) => Some(Kept::Verified(Verified {
                        name: verified.name.clone(),
                        expected: verified.expected.clone(),
                        expected_score: verified.expected_score,
                        score_check: verified.score_check.clone(),
                        report: lightened(&verified.report),
                    })),
                    Finished::Calibrated(calibration) => Some(Kept::Calibrated {
                        calibration: (*calibration).clone(),
                        times: std::mem::take(&mut gathered.running),
                    }),
                    Finished::Stressed(_) | Finished::Generated(_) => None,
                };
                gathered.running.clear();
                if let Some(slot) = gathered.results.get_mut(*unit) {
                    *slot = kept;
                }
            }
            Event::RunFinished(summary) => {
                gathered.summary = Some((*summary).clone());
                if let Some(plan) = &gathered.plan {
                    let page = render::page(plan, &gathered.results, gathered.summary.as_ref());
                    self.out.write_all(page.as_bytes())?;
                    self.out.flush()?;
                }
            }
            Event::Compiled { .. }
            | Event::Generated { .. }
            | Event::Tried { .. }
            | Event::Shrunk { .. } => {}
        }
        Ok(())
    }
}

/// A copy of `report` without what the page never shows: the outputs, inputs and stderr of
/// the failing cases past the ones it details (a suite of wrong answers keeps megabytes of
/// output per case, for the diff).
fn lightened(report: &SubmissionReport) -> SubmissionReport {
    let mut failing = 0;
    let outcomes = report
        .outcomes
        .iter()
        .map(|outcome| {
            if outcome.verdict.is_accepted() {
                return outcome.clone();
            }
            failing += 1;
            if failing <= render::FAILURES_SHOWN {
                return outcome.clone();
            }
            CaseOutcome {
                mismatch: None,
                interaction: None,
                input: None,
                stderr_tail: String::new(),
                ..outcome.clone()
            }
        })
        .collect();
    SubmissionReport {
        problem: report.problem.clone(),
        title: report.title.clone(),
        source: report.source.clone(),
        language: report.language.clone(),
        limits: report.limits,
        compile: report.compile.clone(),
        outcomes,
        planned_cases: report.planned_cases,
        verdict: report.verdict,
        elapsed: report.elapsed,
        jobs: report.jobs,
        score: report.score.clone(),
    }
}

#[cfg(test)]
mod tests;
