//! The server's reporter: the session's event stream, as the `event` notifications of one
//! task (`task.started`, `compile.finished`, `case.finished`, `stress.progress`,
//! `stress.shrunk`, `task.finished`), built from the same records `--format json` writes, so
//! a field means the same in both.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::diagnostics;
use crate::event::{Command, Event, Finished, Plan};
use crate::report::diff::{diff_to_string, DiffOptions};
use crate::report::json::{LimitsJson, SubmissionJson};
use crate::report::reporter::Reporter;
use crate::report::stress::{compile_error_json, StressSummary};
use crate::results::case::CaseOutcome;
use crate::sandbox::interrupt::Task;

/// Lines of an expected or received output a `case.finished` carries.
const EXCERPT_LINES: usize = 30;
/// Characters of one such line.
const EXCERPT_CHARS: usize = 200;

/// Sends one event of a task (its kind and fields) to the server's stream.
pub type Emit = Box<dyn Fn(&str, Map<String, Value>) + Send + Sync>;

/// What one task's runs have said, shared by the reporters of its runs (a watched task has
/// one run a save) and the thread that runs it.
pub struct TaskEvents {
    /// Sends one event of the task to the server's stream.
    pub emit: Emit,
    pub cancel: Arc<Task>,
    /// The task re-judges on save: a run's end is not the task's.
    pub watch: bool,
    /// Runs started.
    pub runs: std::sync::atomic::AtomicU64,
    /// A `task.finished` with `done: true` was sent.
    pub done: AtomicBool,
}

impl TaskEvents {
    /// One event of this task.
    pub fn emit(&self, kind: &str, fields: Map<String, Value>) {
        (self.emit)(kind, fields);
    }

    /// The task's last event, unless one was sent: cancelled, or the error that stopped it.
    pub fn finish(&self, error: Option<String>) {
        if self.done.swap(true, Ordering::SeqCst) {
            return;
        }
        let mut fields = Map::new();
        fields.insert("run".into(), self.runs.load(Ordering::SeqCst).into());
        fields.insert("done".into(), true.into());
        fields.insert("verdict".into(), Value::Null);
        if self.cancel.is_cancelled() {
            fields.insert("cancelled".into(), true.into());
        }
        if let Some(error) = error {
            fields.insert("error".into(), error.into());
        }
        self.emit("task.finished", fields);
    }
}

/// The reporter of one run of a task.
pub struct Notifier {
    events: Arc<TaskEvents>,
    run: u64,
    /// What `task.finished` says, from the unit's result.
    finished: Map<String, Value>,
}

impl Notifier {
    pub fn new(events: Arc<TaskEvents>) -> Notifier {
        Notifier {
            events,
            run: 0,
            finished: Map::new(),
        }
    }

    fn emit(&self, kind: &str, mut fields: Map<String, Value>) {
        fields.insert("run".into(), self.run.into());
        self.events.emit(kind, fields);
    }

    fn started(&mut self, plan: &Plan) {
        self.run = self.events.runs.fetch_add(1, Ordering::SeqCst) + 1;
        let mut fields = Map::new();
        let command = match &plan.command {
            Command::Stress { .. } => "stress",
            _ => "judge",
        };
        fields.insert("command".into(), command.into());
        if let Some(unit) = plan.units.first() {
            fields.insert("problem".into(), unit.problem.clone().into());
            fields.insert(
                "source".into(),
                unit.source.as_ref().map(|s| s.display().to_string()).into(),
            );
            fields.insert(
                "language".into(),
                unit.language.as_ref().map(|l| l.id.clone()).into(),
            );
            fields.insert(
                "limits".into(),
                unit.limits
                    .as_ref()
                    .map(|l| to_value(&LimitsJson::from(l)))
                    .unwrap_or(Value::Null),
            );
            fields.insert("cases".into(), json!(unit.cases));
        }
        fields.insert("jobs".into(), plan.jobs.into());
        fields.insert("sanitized".into(), plan.sanitized.clone().into());
        self.emit("task.started", fields);
    }

    fn case(&self, outcome: &CaseOutcome) {
        let mut fields = match to_value(outcome) {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        // `case`, as the protocol calls it; `name` in the JSON report.
        if let Some(name) = fields.remove("name") {
            fields.insert("case".into(), name);
        }
        if let Some(mismatch) = &outcome.mismatch {
            let (expected, expected_cut) = excerpt(&mismatch.answer);
            let (received, received_cut) = excerpt(&mismatch.output);
            fields.insert("expected".into(), expected.into());
            fields.insert("expected_truncated".into(), expected_cut.into());
            fields.insert("received".into(), received.into());
            fields.insert("received_truncated".into(), received_cut.into());
            let diff = diff_to_string(&mismatch.output, &mismatch.answer, &DiffOptions::default());
            fields.insert("diff".into(), diff.into());
        } else if let Some(output) = &outcome.unanswered {
            let (received, cut) = excerpt(output);
            fields.insert("received".into(), received.into());
            fields.insert("received_truncated".into(), cut.into());
        }
        if !outcome.verdict.is_accepted() && !outcome.stderr_tail.is_empty() {
            fields.insert("stderr".into(), outcome.stderr_tail.clone().into());
        }
        self.emit("case.finished", fields);
    }

    fn unit(&mut self, result: Finished<'_>) {
        match result {
            Finished::Judged(report) => {
                let mut fields = match to_value(&SubmissionJson::from(report)) {
                    Value::Object(map) => map,
                    _ => Map::new(),
                };
                // Each case was its own event.
                fields.remove("cases");
                fields.remove("compile");
                fields.insert("compile_ok".into(), report.compile.ok.into());
                self.finished = fields;
            }
            Finished::Stressed(stressed) => {
                let (verdict, document) = match StressSummary::of(stressed, "harness serve") {
                    Err(message) => ("CE", compile_error_json(stressed, message)),
                    Ok(summary) => {
                        let found = summary.report.found.as_ref();
                        let verdict = found.map_or("AC", |f| f.minimal.outcome.verdict.as_str());
                        (verdict, to_value(&summary))
                    }
                };
                let mut fields = Map::new();
                fields.insert("verdict".into(), verdict.into());
                fields.insert("stress".into(), document);
                self.finished = fields;
            }
            Finished::Verified(_)
            | Finished::Calibrated(_)
            | Finished::Generated(_)
            | Finished::PackageGenerated(_) => {}
        }
    }

    fn end(&mut self) {
        let mut fields = std::mem::take(&mut self.finished);
        if self.events.cancel.is_cancelled() {
            // What ran last was killed: no verdict is told for it.
            fields = Map::new();
            fields.insert("verdict".into(), Value::Null);
            fields.insert("cancelled".into(), true.into());
        }
        let done = !self.events.watch || self.events.cancel.is_cancelled();
        fields.insert("done".into(), done.into());
        if done && self.events.done.swap(true, Ordering::SeqCst) {
            return;
        }
        self.emit("task.finished", fields);
    }
}

impl Reporter for Notifier {
    fn report(&mut self, event: &Event<'_>) -> io::Result<()> {
        let cancelled = self.events.cancel.is_cancelled();
        match *event {
            Event::RunStarted(plan) => self.started(plan),
            Event::Compiled { compile, .. } if !cancelled => {
                let mut fields = Map::new();
                fields.insert("ok".into(), compile.ok.into());
                fields.insert("message".into(), compile.message.clone().into());
                fields.insert(
                    "diagnostics".into(),
                    to_value(&diagnostics::read(&compile.message)),
                );
                self.emit("compile.finished", fields);
            }
            Event::CaseFinished { outcome, .. } if !cancelled => self.case(outcome),
            Event::Tried {
                iteration,
                seed,
                failed,
            } if !cancelled => {
                let mut fields = Map::new();
                fields.insert("iteration".into(), iteration.into());
                fields.insert("seed".into(), seed.into());
                fields.insert(
                    "failed".into(),
                    failed.map(crate::verdict::Verdict::as_str).into(),
                );
                self.emit("stress.progress", fields);
            }
            Event::Shrunk {
                steps,
                tried,
                input,
                verdict,
            } if !cancelled => {
                let (text, cut) = excerpt(input);
                let mut fields = Map::new();
                fields.insert("steps".into(), steps.into());
                fields.insert("tried".into(), tried.into());
                fields.insert("input".into(), text.into());
                fields.insert("input_truncated".into(), cut.into());
                fields.insert("input_bytes".into(), input.len().into());
                fields.insert("verdict".into(), verdict.as_str().into());
                self.emit("stress.shrunk", fields);
            }
            Event::UnitFinished { result, .. } => self.unit(result),
            Event::RunFinished(_) => self.end(),
            _ => {}
        }
        Ok(())
    }
}

fn to_value(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The first lines of an output, each cut to a readable width; and whether anything was
/// left out.
fn excerpt(bytes: &[u8]) -> (String, bool) {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut cut = lines.len() > EXCERPT_LINES;
    let shown: Vec<String> = lines
        .iter()
        .take(EXCERPT_LINES)
        .map(|line| {
            let shown = crate::text::cut(line, EXCERPT_CHARS);
            cut |= shown.len() != line.len();
            shown
        })
        .collect();
    (shown.join("\n"), cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_is_cut_and_says_so() {
        assert_eq!(excerpt(b"1 2\n3\n"), ("1 2\n3".to_string(), false));
        assert_eq!(excerpt(b""), (String::new(), false));
        let many: String = (0..100).map(|i| format!("{i}\n")).collect();
        let (text, cut) = excerpt(many.as_bytes());
        assert_eq!(text.lines().count(), EXCERPT_LINES);
        assert!(cut);
        let (text, cut) = excerpt("x".repeat(1000).as_bytes());
        assert!(text.chars().count() <= EXCERPT_CHARS + 1 && cut);
    }
}
