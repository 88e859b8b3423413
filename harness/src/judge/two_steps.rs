//! One case of a two-step task (CMS `TwoSteps`), as CMS's `TwoSteps.py` runs one: the
//! submission, built with the task's grader (CMS's `manager.%l`, TPS's `grader/<lang>/`),
//! runs twice at once, each run in a sandbox of its own under the problem's limits: the first
//! with the arguments `0 fifo` and the case's input on stdin, the second with `1 fifo` and an
//! empty stdin. `fifo` is one FIFO, linked into both runs' folders: the first writes what the
//! second reads. The second run's stdout is the output, judged by the problem's checker (CMS's
//! `comparator`) or compared (its white diff). A run that failed is the case's verdict, the
//! first run's before the second's, as CMS merges the two runs' numbers; each run has the
//! whole time limit (CMS gives each sandbox `job.time_limit`).

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use nix::fcntl::{open, OFlag};
use nix::sys::stat::Mode;

use crate::case::discover::Case;
use crate::compile::Program;
use crate::results::case::CaseOutcome;

use super::multipass::Stats;
use crate::sandbox::run::{scratch_dir, RunError, Stdin};

use super::plain::{CaseRun, JudgeSettings, Step};

/// The FIFO's name in each run's folder, the path each run is given.
const FIFO: &str = "fifo";

/// How often the FIFO is opened and closed for a run still running once the other has ended,
/// so that an open of it that waits for that other run returns.
const RELEASE_TICK: Duration = Duration::from_millis(2);

/// Runs and judges one case of a two-step task.
pub fn judge_case(program: &Program, case: &Case, settings: &JudgeSettings<'_>) -> CaseOutcome {
    let failed = |what: &str, error: &dyn std::fmt::Display| {
        super::plain::judge_error(case, format!("{what}: {error}"))
    };
    let (first_dir, second_dir) = match (scratch_dir(), scratch_dir()) {
        (Ok(first), Ok(second)) => (first, second),
        (Err(error), _) | (_, Err(error)) => {
            return failed("cannot make the runs' folders", &error)
        }
    };
    let fifo = first_dir.path().join(FIFO);
    if let Err(error) = make_fifo(&fifo, &second_dir.path().join(FIFO)) {
        return failed("cannot make the FIFO between the two runs", &error);
    }
    let (first_args, second_args) = (
        [OsString::from("0"), FIFO.into()],
        [OsString::from("1"), FIFO.into()],
    );
    let (first, second) = std::thread::scope(|scope| {
        let first = scope.spawn(|| {
            let step = Step {
                args: &first_args,
                stdin: Stdin::File(&case.input),
                workdir: first_dir.path(),
            };
            super::plain::run_step(program, case, settings, Some(step))
        });
        let second = scope.spawn(|| {
            let step = Step {
                args: &second_args,
                stdin: Stdin::Null,
                workdir: second_dir.path(),
            };
            super::plain::run_step(program, case, settings, Some(step))
        });
        // A run whose partner ended without opening the FIFO would wait in its open until its
        // wall bound: its open is answered by the judge's, opened and closed at once (a reader
        // then reads end of file, a writer gets SIGPIPE, as from a partner that closed).
        loop {
            match (first.is_finished(), second.is_finished()) {
                (true, true) => break,
                (true, false) => release(&fifo, OFlag::O_WRONLY),
                (false, true) => release(&fifo, OFlag::O_RDONLY),
                (false, false) => {}
            }
            std::thread::sleep(RELEASE_TICK);
        }
        let join = |run: std::thread::ScopedJoinHandle<'_, CaseRun>| {
            run.join().expect("a run's thread does not panic")
        };
        (join(first), join(second))
    });
    if crate::sandbox::interrupt::is_interrupted() {
        return super::plain::judge_error(case, RunError::Interrupted.to_string());
    }
    let measured = measured(&first, &second, settings);
    let limits = settings.limits;
    let outcome = if first.failed(&limits) {
        step_failed(super::plain::check_run(first, case, settings), "first")
    } else if second.failed(&limits) {
        step_failed(super::plain::check_run(second, case, settings), "second")
    } else {
        super::plain::check_run(second, case, settings)
    };
    measured.into(outcome)
}

/// Makes the FIFO at `first` and links it at `second`: one FIFO, seen by each run in its own
/// folder. Readable and writable by anyone, as CMS makes it: the sandbox may run the program
/// as another user.
fn make_fifo(first: &Path, second: &Path) -> std::io::Result<()> {
    nix::unistd::mkfifo(first, Mode::S_IRUSR | Mode::S_IWUSR)?;
    std::fs::set_permissions(first, std::os::unix::fs::PermissionsExt::from_mode(0o666))?;
    std::fs::hard_link(first, second)
}

/// Opens the FIFO's `end` without waiting and closes it: a partner's open that waits returns.
fn release(fifo: &Path, end: OFlag) {
    // A write end opens only once a reader waits (ENXIO otherwise): nothing to answer then.
    let _ = open(
        fifo,
        end | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
        Mode::empty(),
    );
}

/// A failed run's outcome, its reason saying which run it was.
fn step_failed(mut outcome: CaseOutcome, which: &str) -> CaseOutcome {
    outcome.reason = format!("{which} run: {}", outcome.reason);
    outcome
}

/// The case's numbers from both runs, as CMS merges two concurrent runs': CPU time and
/// memory added, wall time the longer.
fn measured(first: &CaseRun, second: &CaseRun, settings: &JudgeSettings<'_>) -> Stats {
    let runs = || [first.result(), second.result()].into_iter().flatten();
    let cpu_limit = settings.limits.cpu_time;
    Stats {
        cpu: runs().map(|run| run.cpu_time).sum(),
        wall: runs().map(|run| run.wall_time).max().unwrap_or_default(),
        memory: runs().map(|run| run.resident_peak_bytes).sum(),
        sensitive: runs().any(|run| crate::verdict::is_time_sensitive(run.cpu_time, cpu_limit)),
    }
}
