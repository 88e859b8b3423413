//! Judges one program on a list of cases: run each under the limits, classify, check.
//! It reports through events and returns outcomes; it never prints.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::check::{self, CaseFiles, Checker};
use crate::discover::Case;
use crate::run::{self, Limits, RunRequest};
use crate::verdict::{self, Verdict};

/// How much of a wrong output (and its answer) is kept for the diff: enough for any readable
/// diff, while a suite of many wrong answers stays small in memory.
const MISMATCH_KEEP_BYTES: usize = 4 << 20;

/// A program to judge: the executable and its arguments (an interpreter and a script, say).
#[derive(Debug, Clone)]
pub struct Program {
    pub executable: PathBuf,
    pub args: Vec<OsString>,
}

impl Program {
    pub fn new(executable: impl Into<PathBuf>) -> Program {
        Program {
            executable: executable.into(),
            args: Vec::new(),
        }
    }
}

/// The outcome of one case.
#[derive(Debug, Clone)]
pub struct CaseOutcome {
    pub case: String,
    pub verdict: Verdict,
    /// One line: why the verdict (empty for AC).
    pub reason: String,
    pub cpu_time: Duration,
    pub wall_time: Duration,
    pub peak_memory_bytes: u64,
    /// CPU time within 10% of the limit, either side: another machine could flip the verdict.
    pub time_sensitive: bool,
    pub stderr_tail: String,
    /// For wrong answers: what the program printed and what was expected, for the diff.
    pub mismatch: Option<Mismatch>,
}

#[derive(Debug, Clone)]
pub struct Mismatch {
    pub output: Vec<u8>,
    pub answer: Vec<u8>,
}

/// Progress, delivered on the calling thread in completion order.
#[derive(Debug)]
pub enum Event<'a> {
    Finished {
        index: usize,
        outcome: &'a CaseOutcome,
    },
}

#[derive(Debug, Clone)]
pub struct JudgeSettings<'a> {
    pub limits: Limits,
    pub checker: &'a Checker,
    /// Cases run at once. Verdicts use CPU time, which parallel runs barely disturb.
    pub jobs: usize,
}

/// Judges `program` on every case; outcomes come back in case order.
pub fn judge_cases(
    program: &Program,
    cases: &[Case],
    settings: &JudgeSettings<'_>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Vec<CaseOutcome> {
    let jobs = settings.jobs.clamp(1, cases.len().max(1));
    let mut outcomes: Vec<Option<CaseOutcome>> = vec![None; cases.len()];
    if jobs == 1 {
        for (index, case) in cases.iter().enumerate() {
            let outcome = judge_case(program, case, settings);
            on_event(Event::Finished {
                index,
                outcome: &outcome,
            });
            outcomes[index] = Some(outcome);
        }
    } else {
        let next = AtomicUsize::new(0);
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                let sender = sender.clone();
                let next = &next;
                scope.spawn(move || loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(index) else { break };
                    let outcome = judge_case(program, case, settings);
                    if sender.send((index, outcome)).is_err() {
                        break;
                    }
                });
            }
            drop(sender);
            for (index, outcome) in receiver {
                on_event(Event::Finished {
                    index,
                    outcome: &outcome,
                });
                outcomes[index] = Some(outcome);
            }
        });
    }
    outcomes.into_iter().flatten().collect()
}

/// Runs and checks one case.
pub fn judge_case(program: &Program, case: &Case, settings: &JudgeSettings<'_>) -> CaseOutcome {
    let limits = settings.limits;
    let request = RunRequest {
        program: &program.executable,
        args: &program.args,
        stdin: Some(&case.input),
        limits,
        workdir: None,
    };
    let result = match run::run(&request) {
        Ok(result) => result,
        Err(error) => return judge_error(case, error.to_string()),
    };
    let stderr_tail = String::from_utf8_lossy(&result.stderr_tail).into_owned();
    let mut outcome = CaseOutcome {
        case: case.name.clone(),
        verdict: Verdict::Accepted,
        reason: String::new(),
        cpu_time: result.cpu_time,
        wall_time: result.wall_time,
        peak_memory_bytes: result.peak_memory_bytes,
        time_sensitive: verdict::is_time_sensitive(result.cpu_time, limits.cpu_time),
        stderr_tail,
        mismatch: None,
    };
    if let Some(classified) = verdict::classify(&result, &limits) {
        outcome.verdict = classified.verdict;
        outcome.reason = classified.reason;
        return outcome;
    }
    let answer = match std::fs::read(&case.answer) {
        Ok(answer) => answer,
        Err(error) => {
            outcome.verdict = Verdict::JudgeError;
            outcome.reason = format!(
                "cannot read answer file `{}`: {error}",
                case.answer.display()
            );
            return outcome;
        }
    };
    let files = CaseFiles {
        input: &case.input,
        answer: &case.answer,
    };
    let checked = check::check(settings.checker, &files, &result.stdout, &answer);
    outcome.verdict = checked.verdict;
    outcome.reason = checked.reason;
    if checked.verdict == Verdict::WrongAnswer {
        // Truncating keeps the capacity, and the whole output was written into it: shrink, or
        // every wrong answer would hold its full output (up to the output limit) until the
        // report.
        let mut output = result.stdout;
        output.truncate(MISMATCH_KEEP_BYTES);
        output.shrink_to_fit();
        let mut answer = answer;
        answer.truncate(MISMATCH_KEEP_BYTES);
        answer.shrink_to_fit();
        outcome.mismatch = Some(Mismatch { output, answer });
    }
    outcome
}

fn judge_error(case: &Case, reason: String) -> CaseOutcome {
    CaseOutcome {
        case: case.name.clone(),
        verdict: Verdict::JudgeError,
        reason,
        cpu_time: Duration::ZERO,
        wall_time: Duration::ZERO,
        peak_memory_bytes: 0,
        time_sensitive: false,
        stderr_tail: String::new(),
        mismatch: None,
    }
}

/// The verdict a submission gets, as online judges report it: AC when every case is AC,
/// otherwise the verdict of the first failing case in case order.
pub fn overall_verdict(outcomes: &[CaseOutcome]) -> Verdict {
    outcomes
        .iter()
        .map(|o| o.verdict)
        .find(|v| !v.is_accepted())
        .unwrap_or(Verdict::Accepted)
}
