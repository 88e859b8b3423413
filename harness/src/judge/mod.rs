//! Judges one program on a list of cases: run each under the limits, classify, check.
//! It reports through events and returns outcomes; it never prints.

pub(crate) mod calibrate;
pub(crate) mod custom;
#[cfg(unix)]
pub(crate) mod interactive;
pub(crate) mod multipass;
pub(crate) mod scoring;
pub(crate) mod stored;
pub(crate) mod submission;
pub(crate) mod suite;
pub(crate) mod verify;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

use crate::case::discover::Case;
use crate::case::excerpt::InputExcerpt;
use crate::check::{self, CaseFiles, Checker, Judgement};
use crate::compile::sanitizer::Sanitized;
use crate::compile::Program;
use crate::config::FileIo;
use crate::sandbox::run::{self, Isolation, Limits, RunError, RunRequest, Stdin};
use crate::verdict::{self, Verdict};

pub use crate::results::case::{
    max_cpu_time, max_memory, overall_verdict, CaseOutcome, Interaction, Mismatch,
};
use std::ffi::OsString;

/// The reason of a case that ran within its limits but has no answer file.
pub const NO_ANSWER: &str = "no answer to compare with";

/// How much of a wrong output (and its answer) is kept for the diff: enough for any readable
/// diff, while a suite of many wrong answers stays small in memory.
const MISMATCH_KEEP_BYTES: usize = 4 << 20;

/// How each case is judged.
#[derive(Debug, Clone)]
pub struct JudgeSettings<'a> {
    /// The limits of every run.
    pub limits: Limits,
    /// How outputs are compared.
    pub checker: &'a Checker,
    /// Cases run at once. Verdicts use CPU time, which parallel runs barely disturb.
    pub jobs: usize,
    /// For an interactive problem: the interactor each case runs beside.
    #[cfg(unix)]
    pub interactor: Option<&'a interactive::ReadyInteractor>,
    /// Input and output files instead of stdin and stdout, for file-I/O problems.
    pub files: &'a FileIo,
    /// A scored problem's rules: each case is scored as soon as it is checked.
    pub scoring: Option<&'a crate::score::Scoring>,
    /// Files put in the run's folder beside the program, by name (a package's `include/`:
    /// an interpreted submission imports them from its own folder, the run's `/tmp`).
    pub beside: &'a [(String, std::path::PathBuf)],
}

/// Stdin and stdout: what a problem without `input-file` and `output-file` uses.
pub static STANDARD_IO: FileIo = FileIo {
    input: None,
    output: None,
};

/// Whether judging goes on after a case fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stop {
    /// Judge every case (the counts of each verdict are wanted).
    #[default]
    Never,
    /// Stop at the first case, in case order, that is not AC: all an expected-verdict check
    /// needs, and it spares running hundreds of cases into a time limit.
    AfterFirstFailure,
    /// In a scored problem, skip the cases the score no longer needs: those of a group that
    /// stopped at its first failure (all-or-nothing subtasks, Kattis' `on_reject: break`) or
    /// whose dependency failed. Without scoring rules, the same as [`Stop::Never`].
    Unneeded,
}

/// Judges `program` on every case; outcomes come back in case order, and each is handed to
/// `on_case` on the calling thread as it finishes (in completion order).
pub fn judge_cases(
    program: &Program,
    cases: &[Case],
    settings: &JudgeSettings<'_>,
    on_case: &mut dyn FnMut(&CaseOutcome),
) -> Vec<CaseOutcome> {
    judge_cases_with(program, cases, settings, Stop::Never, on_case)
}

/// Judges `program` on the cases, stopping as `stop` says. Outcomes come back in case order;
/// with [`Stop::AfterFirstFailure`] they are the cases up to and including the first failing
/// one in case order, whatever the number of jobs: a case that finished after a later one
/// failed still counts, and cases past the first failure are dropped even if they ran.
pub fn judge_cases_with(
    program: &Program,
    cases: &[Case],
    settings: &JudgeSettings<'_>,
    stop: Stop,
    on_case: &mut dyn FnMut(&CaseOutcome),
) -> Vec<CaseOutcome> {
    let jobs = settings.jobs.clamp(1, cases.len().max(1));
    let mut outcomes: Vec<Option<CaseOutcome>> = vec![None; cases.len()];
    // The lowest failing index seen so far; cases are handed out in increasing order, so
    // every case below it has already been started and will be waited for.
    let first_failure = AtomicUsize::new(usize::MAX);
    // With `Stop::Unneeded`, the outcomes known so far, from which the scoring tells whether
    // a case is still needed.
    let known = std::sync::Mutex::new(crate::score::Outcomes::new());
    let scoring = settings.scoring.filter(|_| stop == Stop::Unneeded);
    let needed = |case: &Case| match scoring {
        Some(scoring) => scoring.needs(
            &case.name,
            &known
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        ),
        None => true,
    };
    let failed = |index: usize, outcome: &CaseOutcome| {
        if stop == Stop::AfterFirstFailure && !outcome.verdict.is_accepted() {
            first_failure.fetch_min(index, Ordering::Relaxed);
        }
        if scoring.is_some() {
            known
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(
                    outcome.case.clone(),
                    crate::score::CaseOutcome {
                        verdict: outcome.verdict,
                        credit: outcome.credit,
                    },
                );
        }
    };
    if jobs == 1 {
        for (index, case) in cases.iter().enumerate() {
            if crate::sandbox::interrupt::is_interrupted() {
                break;
            }
            if !needed(case) {
                continue;
            }
            let mut outcome = judge_case(program, case, settings);
            scoring::score_case(&mut outcome, settings.scoring);
            failed(index, &outcome);
            on_case(&outcome);
            outcomes[index] = Some(outcome);
            if first_failure.load(Ordering::Relaxed) != usize::MAX {
                break;
            }
        }
    } else {
        let next = AtomicUsize::new(0);
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                let sender = sender.clone();
                let (next, first_failure, failed, needed) =
                    (&next, &first_failure, &failed, &needed);
                scope.spawn(move || loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(index) else { break };
                    if index > first_failure.load(Ordering::Relaxed)
                        || crate::sandbox::interrupt::is_interrupted()
                    {
                        break;
                    }
                    if !needed(case) {
                        continue;
                    }
                    let mut outcome = judge_case(program, case, settings);
                    scoring::score_case(&mut outcome, settings.scoring);
                    failed(index, &outcome);
                    if sender.send((index, outcome)).is_err() {
                        break;
                    }
                });
            }
            drop(sender);
            for (index, outcome) in receiver {
                on_case(&outcome);
                outcomes[index] = Some(outcome);
            }
        });
    }
    let keep = first_failure
        .into_inner()
        .saturating_add(1)
        .min(outcomes.len());
    outcomes.truncate(keep);
    outcomes.into_iter().flatten().collect()
}

/// Runs and checks one case; a failing one carries the head of its input for the report.
pub fn judge_case(program: &Program, case: &Case, settings: &JudgeSettings<'_>) -> CaseOutcome {
    #[cfg(unix)]
    if let Some(interactor) = settings.interactor {
        return with_input(
            interactive::judge_case(program, case, settings, interactor),
            case,
        );
    }
    if let Checker::Package(package) = settings.checker {
        if let Some((passes, validator)) = package.multi_pass() {
            let flags = package.flags_for(&case.input).to_vec();
            return with_input(
                multipass::judge_case(program, case, settings, passes, validator, &flags),
                case,
            );
        }
    }
    with_input(run_and_check(program, case, settings), case)
}

/// A failing outcome with the head of its input, for the report.
pub(crate) fn with_input(mut outcome: CaseOutcome, case: &Case) -> CaseOutcome {
    if !outcome.verdict.is_accepted() {
        outcome.input = Some(InputExcerpt::read(&case.input));
    }
    outcome
}

fn run_and_check(program: &Program, case: &Case, settings: &JudgeSettings<'_>) -> CaseOutcome {
    check_run(run_case(program, case, settings), case, settings)
}

/// A finished run of one case: what the runner measured (for a file-I/O problem, with its
/// output file read back).
pub(crate) struct CaseRun {
    result: Result<run::RunResult, RunError>,
    /// How to read a sanitizer's report, when the program was built with one.
    sanitized: Option<Arc<Sanitized>>,
}

/// Runs `program` on the case's input under the limits: the first half of judging a case,
/// for callers that prepare the answer meanwhile (stress runs the reference alongside).
pub(crate) fn run_case(program: &Program, case: &Case, settings: &JudgeSettings<'_>) -> CaseRun {
    let files = settings.files;
    // As on the judges that use files, stdin is empty when the input is a file, which the
    // runner copies into the program's folder under the problem's name.
    let (stdin, input) = match &files.input {
        Some(name) => (Stdin::Null, Some((name.as_str(), case.input.as_path()))),
        None => (Stdin::File(&case.input), None),
    };
    let inputs: Vec<(&str, &std::path::Path)> = input
        .into_iter()
        .chain(
            settings
                .beside
                .iter()
                .map(|(name, path)| (name.as_str(), path.as_path())),
        )
        .collect();
    let args = case_args(program, case);
    let env = program.env();
    let request = RunRequest::new(&program.executable, settings.limits)
        .args(&args)
        .stdin(stdin)
        .env(&env)
        .address_space_cap(program.address_space_cap())
        .files(&inputs)
        .output_file(files.output.as_deref())
        .syscall_filter(program.syscall_filter)
        .isolation(Isolation::Sandbox);
    CaseRun {
        result: run::run(&request),
        sanitized: program.sanitized.clone(),
    }
}

/// The second half: the verdict of a run, its output checked against the case's answer
/// (read now), and the input's head when it failed.
pub(crate) fn check_run(run: CaseRun, case: &Case, settings: &JudgeSettings<'_>) -> CaseOutcome {
    check_run_with(run, case, settings, &mut |files, output, answer| {
        check::check(settings.checker, files, output, answer)
    })
}

/// How [`check_run_with`] judges an output: the case's files, the output, the answer.
pub(crate) type CheckFn<'a> = dyn FnMut(&CaseFiles<'_>, &[u8], &[u8]) -> Judgement + 'a;

/// [`check_run`] with the output judged by `check` (a multi-pass problem's validator, which
/// keeps its feedback folder between passes) instead of the settings' checker.
pub(crate) fn check_run_with(
    run: CaseRun,
    case: &Case,
    settings: &JudgeSettings<'_>,
    check: &mut CheckFn<'_>,
) -> CaseOutcome {
    let limits = settings.limits;
    let files = settings.files;
    let CaseRun { result, sanitized } = run;
    let result = match result {
        Ok(result) => result,
        Err(error) => return judge_error(case, error.to_string()),
    };
    if crate::sandbox::interrupt::is_interrupted() {
        // Killed by our own Ctrl-C handler: whatever it shows is not the program's verdict.
        return judge_error(case, RunError::Interrupted.to_string());
    }
    let stderr_tail = String::from_utf8_lossy(&result.stderr_tail).into_owned();
    let mut outcome = CaseOutcome {
        case: case.name.clone(),
        verdict: Verdict::Accepted,
        reason: String::new(),
        cpu_time: result.cpu_time,
        wall_time: result.wall_time,
        peak_memory_bytes: result.resident_peak_bytes,
        time_sensitive: verdict::is_time_sensitive(result.cpu_time, limits.cpu_time),
        stderr_tail,
        mismatch: None,
        interaction: None,
        unanswered: None,
        input: None,
        credit: None,
        score: None,
        max_score: None,
    };
    let mut answer = Vec::new();
    let mut output = Vec::new();
    let unanswered = case.unanswered();
    let judgement = verdict::decide(&result, &limits, || {
        if unanswered {
            return Judgement::accepted(NO_ANSWER);
        }
        answer = match std::fs::read(&case.answer) {
            Ok(answer) => answer,
            Err(error) => {
                return Judgement::judge_error(format!(
                    "cannot read answer file `{}`: {error}",
                    case.answer.display()
                ))
            }
        };
        output = match (&files.output, &result.output_file) {
            (Some(name), Some(read)) => match output_file(read, name, &result, &limits) {
                Ok(output) => output,
                Err(judgement) => return judgement,
            },
            _ => result.stdout.clone(),
        };
        let case_files = CaseFiles {
            input: &case.input,
            answer: &case.answer,
        };
        check(&case_files, &output, &answer)
    });
    outcome.verdict = judgement.verdict;
    outcome.reason = judgement.reason;
    outcome.credit = judgement.credit;
    if let Some(sanitized) = sanitized.filter(|_| outcome.verdict == Verdict::RuntimeError) {
        if let Some(report) = sanitized.reason(&outcome.stderr_tail) {
            // The sanitizer's words say more than `exit 1` and its last line.
            outcome.reason = report;
            outcome.stderr_tail = sanitized.tidy(&outcome.stderr_tail);
        }
    }
    if unanswered && outcome.verdict == Verdict::Accepted {
        // Shown with its input and what it printed (of a file-I/O program, its stdout).
        let mut output = result.stdout;
        output.truncate(MISMATCH_KEEP_BYTES);
        output.shrink_to_fit();
        outcome.unanswered = Some(output);
        outcome.input = Some(InputExcerpt::read(&case.input));
        return outcome;
    }
    if outcome.verdict == Verdict::WrongAnswer {
        let hint = check::hint::near_miss(settings.checker, &output, &answer);
        // Truncating keeps the capacity, and the whole output was written into it: shrink, or
        // every wrong answer would hold its full output (up to the output limit) until the
        // report.
        let mut output = output;
        output.truncate(MISMATCH_KEEP_BYTES);
        output.shrink_to_fit();
        let mut answer = answer;
        answer.truncate(MISMATCH_KEEP_BYTES);
        answer.shrink_to_fit();
        outcome.mismatch = Some(Mismatch {
            output,
            answer,
            hint,
        });
    }
    outcome
}

/// The program's own arguments, then the case's (`args` of a 2025-09 package).
pub(crate) fn case_args(program: &Program, case: &Case) -> Vec<OsString> {
    let mut args = program.args.clone();
    args.extend(case.args.iter().map(OsString::from));
    args
}

/// The output a file-I/O program wrote, or the verdict when it wrote none, too much, or
/// something that is not a file of its own (a link, a FIFO), which the runner never read.
fn output_file(
    read: &Result<Vec<u8>, run::OutputFileError>,
    name: &str,
    result: &run::RunResult,
    limits: &Limits,
) -> Result<Vec<u8>, Judgement> {
    use run::OutputFileError as Why;
    let wrong = |why: String| Err(Judgement::wrong_answer(why));
    match read {
        Ok(output) => Ok(output.clone()),
        Err(Why::Missing) => {
            let printed = if result.stdout.is_empty() {
                String::new()
            } else {
                format!(
                    " (it printed {} bytes on stdout instead: the answer goes in the file)",
                    result.stdout.len()
                )
            };
            wrong(format!(
                "no output file `{name}`: the program did not write it{printed}"
            ))
        }
        Err(Why::SymbolicLink(link)) if link == name => wrong(format!(
            "the output file `{name}` is a symbolic link: only a regular file is read"
        )),
        Err(Why::SymbolicLink(link)) => wrong(format!(
            "`{link}` on the way to the output file `{name}` is a symbolic link: not followed"
        )),
        Err(Why::NotAFolder(folder)) => wrong(format!(
            "`{folder}` on the way to the output file `{name}` is not a folder"
        )),
        Err(Why::NotRegular(what)) => wrong(format!(
            "the output file `{name}` is not a regular file ({what}): it is not read"
        )),
        Err(Why::Unreadable(why)) => {
            wrong(format!("the output file `{name}` cannot be read: {why}"))
        }
        Err(Why::TooLarge) => Err(Judgement::new(
            Verdict::OutputLimitExceeded,
            format!(
                "the output file `{name}` is larger than the output limit ({})",
                crate::units::format_bytes(limits.output_bytes)
            ),
        )),
        Err(Why::Io(why)) => Err(Judgement::judge_error(format!(
            "cannot read the output file `{name}`: {why}"
        ))),
    }
}

fn judge_error(case: &Case, reason: String) -> CaseOutcome {
    CaseOutcome::new(case.name.clone(), Verdict::JudgeError, reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Twenty cases judged with `cat`: the output is the input, so a case fails exactly when
    /// its answer differs from its input.
    fn cat_cases(failing: &[usize]) -> (tempfile::TempDir, Vec<Case>) {
        let dir = tempfile::tempdir().unwrap();
        let cases = (0..20)
            .map(|i| {
                let input = dir.path().join(format!("{i:02}.in"));
                let answer = dir.path().join(format!("{i:02}.ans"));
                std::fs::write(&input, format!("{i}\n")).unwrap();
                let expected = if failing.contains(&i) { i + 100 } else { i };
                std::fs::write(&answer, format!("{expected}\n")).unwrap();
                Case {
                    name: format!("{i:02}"),
                    input,
                    answer,
                    args: Vec::new(),
                }
            })
            .collect();
        (dir, cases)
    }

    fn judge_with(cases: &[Case], jobs: usize, stop: Stop) -> Vec<CaseOutcome> {
        let settings = JudgeSettings {
            limits: Limits {
                cpu_time: Duration::from_secs(5),
                wall_time: Duration::from_secs(30),
                memory_bytes: 256 << 20,
                output_bytes: 1 << 20,
            },
            checker: &Checker::Tokens,
            jobs,
            interactor: None,
            files: &STANDARD_IO,
            scoring: None,
            beside: &[],
        };
        judge_cases_with(&Program::new("cat"), cases, &settings, stop, &mut |_| {})
    }

    #[test]
    fn stopping_keeps_the_cases_up_to_the_first_failure_in_case_order() {
        let (_dir, cases) = cat_cases(&[7, 3, 13]);
        for jobs in [1, 4] {
            let outcomes = judge_with(&cases, jobs, Stop::AfterFirstFailure);
            let names: Vec<&str> = outcomes.iter().map(|o| o.case.as_str()).collect();
            assert_eq!(names, ["00", "01", "02", "03"], "jobs {jobs}");
            assert_eq!(overall_verdict(&outcomes), Verdict::WrongAnswer);
            assert!(outcomes[..3].iter().all(|o| o.verdict.is_accepted()));
        }
    }

    #[test]
    fn without_a_failure_or_without_stopping_every_case_is_judged() {
        let (_dir, cases) = cat_cases(&[]);
        for jobs in [1, 3] {
            let outcomes = judge_with(&cases, jobs, Stop::AfterFirstFailure);
            assert_eq!(outcomes.len(), 20);
            assert_eq!(overall_verdict(&outcomes), Verdict::Accepted);
        }
        let (_dir, cases) = cat_cases(&[0, 19]);
        let outcomes = judge_with(&cases, 2, Stop::Never);
        assert_eq!(outcomes.len(), 20);
        assert_eq!(outcomes[0].verdict, Verdict::WrongAnswer);
        assert_eq!(outcomes[19].verdict, Verdict::WrongAnswer);
    }
}
