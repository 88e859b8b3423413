//! The progress bar on stderr: cases done out of the total, failures so far, time elapsed.
//! Fed with the runner's events by the command line; it appears only on a terminal, and only
//! once a run has lasted more than a moment, so quick runs and piped output stay clean.

use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::event::{Command, Event, Finished, Plan};
use crate::judge::CaseOutcome;
use crate::report::reporter::Reporter;

/// How long a run goes before the bar appears: below this, it would only flicker.
const DELAY: Duration = Duration::from_millis(400);
/// How often the elapsed time is redrawn while a slow case runs.
const TICK: Duration = Duration::from_millis(200);

pub struct Progress {
    bar: ProgressBar,
    done: usize,
    failed: usize,
    problem: String,
    /// Dropping this tells the timer thread that the run is over.
    stop: Option<Sender<()>>,
    timer: Option<JoinHandle<()>>,
}

impl Progress {
    /// A bar on stderr when stderr is a terminal; otherwise one that counts but never draws.
    pub fn stderr(total: usize) -> Progress {
        let visible =
            std::io::stderr().is_terminal() && std::env::var_os("TERM").is_none_or(|t| t != "dumb");
        Progress::new(total, visible)
    }

    /// A bar on stderr (as [`Progress::stderr`]) for work counted in `unit`s, such as the
    /// inputs of `stress`; `total` is `None` when the end is not known in advance.
    pub fn stderr_counting(total: Option<usize>, unit: &str) -> Progress {
        let visible =
            std::io::stderr().is_terminal() && std::env::var_os("TERM").is_none_or(|t| t != "dumb");
        Progress::build(total, unit, visible)
    }

    /// `visible`: whether to draw at all (after [`DELAY`]).
    pub fn new(total: usize, visible: bool) -> Progress {
        Progress::build(Some(total), "cases", visible)
    }

    fn build(total: Option<usize>, unit: &str, visible: bool) -> Progress {
        let bar =
            ProgressBar::with_draw_target(total.map(|t| t as u64), ProgressDrawTarget::hidden());
        let template = match total {
            Some(_) => format!("{{elapsed:>4}} [{{bar:30}}] {{pos}}/{{len}} {unit}{{left}}{{msg}}"),
            None => format!("{{elapsed:>4}} {{pos}} {unit}{{msg}}"),
        };
        let style = ProgressStyle::with_template(&template)
            .expect("a valid progress template")
            .with_key(
                "left",
                |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
                    let total = state.len().unwrap_or(0);
                    if let Some(left) = time_left(state.pos(), total, state.elapsed()) {
                        let _ = write!(out, ", ~{left} left");
                    }
                },
            )
            .progress_chars("=> ");
        bar.set_style(style);
        let mut progress = Progress {
            bar,
            done: 0,
            failed: 0,
            problem: String::new(),
            stop: None,
            timer: None,
        };
        if visible {
            let (stop, stopped) = mpsc::channel::<()>();
            let bar = progress.bar.clone();
            // The reveal runs on its own thread so that a first case that takes seconds
            // still shows the bar (and its clock) while it runs.
            let timer = std::thread::spawn(move || {
                if stopped.recv_timeout(DELAY) == Err(RecvTimeoutError::Timeout) {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(TICK);
                }
            });
            progress.stop = Some(stop);
            progress.timer = Some(timer);
        }
        progress
    }

    /// The bar itself, for a writer that hides it while it writes ([`Suspended`]).
    ///
    /// [`Suspended`]: super::reporter::Suspended
    pub fn bar(&self) -> ProgressBar {
        self.bar.clone()
    }

    /// One case judged (for commands that judge a single program).
    pub fn on_case(&mut self, outcome: &CaseOutcome) {
        self.done += 1;
        if !outcome.verdict.is_accepted() {
            self.failed += 1;
        }
        self.bar.set_message(self.message());
        self.bar.inc(1);
    }

    /// One run finished whose outcome the caller does not have (counted, never a failure).
    pub fn tick(&mut self) {
        self.done += 1;
        self.bar.inc(1);
    }

    /// Counts a failure that is not a case's (a stored submission with the wrong verdict).
    pub fn add_failure(&mut self) {
        self.failed += 1;
        self.bar.set_message(self.message());
    }

    /// Runs that were counted in but will not happen.
    pub fn skip(&mut self, runs: usize) {
        self.bar.inc(runs as u64);
    }

    /// Names what is being judged now (a problem, a submission).
    pub fn set_label(&mut self, label: &str) {
        self.problem = label.to_string();
        self.bar.set_message(self.message());
    }

    /// Jumps to `done` units of work, for callers that count themselves.
    pub fn set_position(&mut self, done: usize) {
        self.done = done;
        self.bar.set_position(done as u64);
    }

    #[cfg(test)]
    fn done(&self) -> usize {
        self.done
    }

    #[cfg(test)]
    fn failed(&self) -> usize {
        self.failed
    }

    /// `, 2 failed · king-queens`
    fn message(&self) -> String {
        message(self.failed, &self.problem)
    }

    /// Removes the bar, so the report that follows starts on a clean line.
    pub fn finish(mut self) {
        self.stop_and_clear();
    }

    fn stop_and_clear(&mut self) {
        self.stop.take();
        if let Some(timer) = self.timer.take() {
            let _ = timer.join();
        }
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    /// Also on an error path: a bar left on the screen would garble the error message.
    fn drop(&mut self) {
        self.stop_and_clear();
    }
}

/// What is left of a run, from its pace so far: `1 min 05 s`; `None` until a few runs have
/// finished (or a second has passed), and once nothing is left, when a guess would only
/// flicker.
fn time_left(done: u64, total: u64, elapsed: Duration) -> Option<String> {
    if done < 3 || done >= total || elapsed < Duration::from_secs(1) {
        return None;
    }
    let left = elapsed
        .mul_f64((total - done) as f64 / done as f64)
        .as_secs();
    Some(match left {
        0 => "1 s".to_owned(),
        1..60 => format!("{left} s"),
        60..3600 => format!("{} min {:02} s", left / 60, left % 60),
        _ => format!("{} h {:02} min", left / 3600, left % 3600 / 60),
    })
}

/// The progress bar as a [`Reporter`]: cases done of those planned, failures so far, and what
/// runs now. A stored submission that gets its expected verdict is no failure, whatever its
/// cases got; runs a unit planned but skipped (judging stopped at a failure) are counted done
/// when it finishes.
pub struct ProgressReporter {
    progress: Option<Progress>,
    command: Command,
    runs: Vec<usize>,
    done_in_unit: usize,
}

impl ProgressReporter {
    /// A bar on stderr for `plan` (drawn only on a terminal).
    pub fn stderr(plan: &Plan) -> Self {
        let progress = match plan.command {
            Command::Stress { .. } => Progress::stderr_counting(plan.runs, "inputs"),
            _ => Progress::stderr(plan.runs.unwrap_or(0)),
        };
        ProgressReporter::with(progress, plan)
    }

    /// Drives `progress` through `plan`'s events.
    pub fn with(progress: Progress, plan: &Plan) -> Self {
        ProgressReporter {
            progress: Some(progress),
            command: plan.command.clone(),
            runs: plan.units.iter().map(|u| u.runs).collect(),
            done_in_unit: 0,
        }
    }

    /// The bar, for the writer of a report printed while it runs.
    pub fn bar(&self) -> Option<ProgressBar> {
        self.progress.as_ref().map(Progress::bar)
    }
}

impl Reporter for ProgressReporter {
    fn report(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        let Some(progress) = &mut self.progress else {
            return Ok(());
        };
        match *event {
            Event::RunStarted(_) | Event::Compiled { .. } => {}
            Event::Started { label, .. } => match &self.command {
                Command::Stress { .. } => progress.set_label(&format!("stress {label}")),
                _ => progress.set_label(label),
            },
            Event::CaseFinished { outcome, .. } => {
                self.done_in_unit += 1;
                match self.command {
                    // Its verdict against the expected one is what fails, not a case.
                    Command::Verify => progress.tick(),
                    _ => progress.on_case(outcome),
                }
            }
            Event::Generated { .. } => {
                self.done_in_unit += 1;
                progress.tick();
            }
            Event::Tried {
                iteration,
                seed,
                failed,
            } => {
                progress.set_position(usize::try_from(iteration).unwrap_or(usize::MAX));
                match failed {
                    None => progress.set_label(&format!("seed {seed}")),
                    Some(verdict) => {
                        progress.add_failure();
                        progress.set_label(&format!("{verdict} on seed {seed}, shrinking"));
                    }
                }
            }
            Event::Shrunk {
                steps,
                tried,
                input,
                verdict,
            } => progress.set_label(&format!(
                "shrinking {verdict}: {} · {}, {}",
                super::stress::size(input),
                crate::text::plural(steps, "step"),
                crate::text::plural(tried, "candidate"),
            )),
            Event::UnitFinished { unit, result } => {
                let planned = self.runs.get(unit).copied().unwrap_or(0);
                progress.skip(planned.saturating_sub(self.done_in_unit));
                self.done_in_unit = 0;
                if let Finished::Verified(verified) = result {
                    if !verified.ok() {
                        progress.add_failure();
                    }
                }
            }
            Event::RunFinished(_) => {
                if let Some(progress) = self.progress.take() {
                    progress.finish();
                }
            }
        }
        Ok(())
    }
}

fn message(failed: usize, label: &str) -> String {
    let mut message = String::new();
    if failed > 0 {
        message.push_str(&format!(", {failed} failed"));
    }
    if !label.is_empty() {
        message.push_str(" · ");
        message.push_str(label);
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    fn outcome(verdict: Verdict) -> CaseOutcome {
        CaseOutcome::new("1", verdict, "")
    }

    #[test]
    fn counts_cases_and_failures() {
        let mut progress = Progress::new(3, false);
        progress.set_label("sum");
        for verdict in [Verdict::Accepted, Verdict::WrongAnswer, Verdict::JudgeError] {
            progress.on_case(&outcome(verdict));
        }
        assert_eq!((progress.done(), progress.failed()), (3, 2));
        assert_eq!(progress.message(), ", 2 failed · sum");
        progress.finish();
    }

    fn plan(command: Command, runs: &[usize]) -> Plan {
        let units = runs
            .iter()
            .map(|&runs| crate::event::Unit {
                runs,
                ..crate::event::Unit::default()
            })
            .collect();
        Plan::new(command, units, 1, crate::sandbox::Mode::Auto)
    }

    /// The reporter's bar after `events`, as (done, failed, label).
    fn after(command: Command, runs: &[usize], events: &[Event<'_>]) -> (u64, usize, String) {
        let plan = plan(command, runs);
        let mut reporter = ProgressReporter::with(Progress::new(0, false), &plan);
        reporter.report(&Event::RunStarted(&plan)).unwrap();
        for event in events {
            reporter.report(event).unwrap();
        }
        let progress = reporter.progress.as_ref().unwrap();
        (
            progress.bar.position(),
            progress.failed(),
            progress.problem.clone(),
        )
    }

    #[test]
    fn a_unit_that_stops_early_counts_its_planned_runs_done() {
        let failing = outcome(Verdict::WrongAnswer);
        let report = crate::judge::submission::SubmissionReport {
            problem: "sum".to_string(),
            title: "Sum".to_string(),
            source: "a.c".into(),
            language: None,
            limits: crate::sandbox::run::Limits {
                cpu_time: Duration::from_secs(1),
                wall_time: Duration::from_secs(3),
                memory_bytes: 1 << 20,
                output_bytes: 1 << 20,
            },
            compile: crate::judge::submission::CompileOutcome {
                ok: true,
                message: String::new(),
            },
            outcomes: vec![failing.clone()],
            planned_cases: 5,
            verdict: Verdict::WrongAnswer,
            elapsed: Duration::ZERO,
            jobs: 1,
            score: None,
        };
        let verified = crate::judge::verify::Verified {
            name: "sum/wrong_answer/a.c".to_string(),
            expected: Verdict::WrongAnswer.into(),
            report,
            expected_score: None,
            score_check: crate::score::ScoreCheck::Ok,
        };
        let events = [
            Event::Started {
                unit: 0,
                label: "sum/wrong_answer/a.c",
            },
            Event::CaseFinished {
                unit: 0,
                outcome: &failing,
            },
            Event::UnitFinished {
                unit: 0,
                result: Finished::Verified(&verified),
            },
        ];
        // Expected to fail, it did: nothing failed, and its 4 unrun cases count as done.
        assert_eq!(
            after(Command::Verify, &[5, 3], &events),
            (5, 0, "sum/wrong_answer/a.c".to_string())
        );
        // The same case in `judge` is a failure.
        assert_eq!(after(Command::Judge, &[5], &events[..2]).1, 1);
    }

    #[test]
    fn stress_shows_the_seed_and_the_shrinking() {
        let events = [
            Event::Tried {
                iteration: 1,
                seed: 41,
                failed: None,
            },
            Event::Tried {
                iteration: 2,
                seed: 42,
                failed: Some(Verdict::WrongAnswer),
            },
        ];
        let reproduce = String::new();
        let command = Command::Stress { reproduce };
        assert_eq!(
            after(command.clone(), &[0], &events),
            (2, 1, "WA on seed 42, shrinking".to_string())
        );
        let shrunk = [Event::Shrunk {
            steps: 3,
            tried: 41,
            input: b"2\n1 2\n",
            verdict: Verdict::WrongAnswer,
        }];
        assert_eq!(
            after(command, &[0], &shrunk).2,
            "shrinking WA: 2 lines, 3 tokens, 6 B · 3 steps, 41 candidates"
        );
    }

    #[test]
    fn the_time_left_follows_the_pace_so_far() {
        let secs = Duration::from_secs;
        let table = [
            (0, 651, secs(5), None),
            (2, 651, secs(5), None),
            (10, 651, Duration::from_millis(500), None),
            (651, 651, secs(60), None),
            (10, 20, secs(5), Some("5 s")),
            (100, 651, secs(10), Some("55 s")),
            (10, 651, secs(10), Some("10 min 41 s")),
            (3, 10_000, secs(60), Some("55 h 32 min")),
            (999, 1000, secs(2), Some("1 s")),
        ];
        for (done, total, elapsed, left) in table {
            assert_eq!(
                time_left(done, total, elapsed).as_deref(),
                left,
                "{done}/{total} in {elapsed:?}"
            );
        }
    }

    #[test]
    fn messages() {
        assert_eq!(message(0, ""), "");
        assert_eq!(message(0, "king-queens"), " · king-queens");
        assert_eq!(message(1, "a.cpp"), ", 1 failed · a.cpp");
    }

    #[test]
    fn a_visible_bar_stops_at_once_when_finished() {
        let started = std::time::Instant::now();
        let progress = Progress::new(1, true);
        progress.finish();
        assert!(
            started.elapsed() < DELAY,
            "finish must not wait for the timer"
        );
    }
}
