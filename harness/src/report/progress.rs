//! The progress bar on stderr: cases done out of the total, failures so far, time elapsed.
//! Fed with the runner's events by the command line; it appears only on a terminal, and only
//! once a run has lasted more than a moment, so quick runs and piped output stay clean.

use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::judge::suite::SuiteEvent;
use crate::judge::CaseOutcome;

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
            Some(_) => format!("{{elapsed:>4}} [{{bar:30}}] {{pos}}/{{len}} {unit}{{msg}}"),
            None => format!("{{elapsed:>4}} {{pos}} {unit}{{msg}}"),
        };
        let style = ProgressStyle::with_template(&template)
            .expect("a valid progress template")
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

    pub fn on_suite_event(&mut self, event: &SuiteEvent<'_>) {
        match event {
            SuiteEvent::ProblemStarted { problem } => {
                self.problem = problem.to_string();
                self.bar.set_message(self.message());
            }
            SuiteEvent::CaseFinished { outcome } => self.on_case(outcome),
        }
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

    /// Hides the bar while `write` prints, so a line written mid-run is not torn by it.
    pub fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        self.bar.suspend(write)
    }

    /// More runs are coming than the bar knew of (commands that find out as they go).
    pub fn add_total(&mut self, runs: usize) {
        self.bar.inc_length(runs as u64);
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

    /// The total became known (or changed).
    pub fn set_total(&mut self, total: usize) {
        self.bar.set_length(total as u64);
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
        CaseOutcome {
            case: "1".to_string(),
            verdict,
            reason: String::new(),
            cpu_time: Duration::ZERO,
            wall_time: Duration::ZERO,
            peak_memory_bytes: 0,
            time_sensitive: false,
            stderr_tail: String::new(),
            mismatch: None,
            interaction: None,
            input: None,
        }
    }

    #[test]
    fn counts_cases_and_failures() {
        let mut progress = Progress::new(3, false);
        progress.on_suite_event(&SuiteEvent::ProblemStarted { problem: "sum" });
        for verdict in [Verdict::Accepted, Verdict::WrongAnswer, Verdict::JudgeError] {
            let outcome = outcome(verdict);
            progress.on_suite_event(&SuiteEvent::CaseFinished { outcome: &outcome });
        }
        assert_eq!((progress.done(), progress.failed()), (3, 2));
        assert_eq!(progress.message(), ", 2 failed · sum");
        progress.finish();
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
