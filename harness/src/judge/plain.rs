//! A plain case: the program run once on the case's input under the limits, then its output
//! checked against the answer. The settings every kind of case is judged with, and the
//! pieces an interactive or multi-pass case reuses (the run, the check, a judge error).

use std::borrow::Cow;
use std::ffi::OsString;
use std::sync::Arc;

use crate::case::discover::Case;
use crate::case::excerpt::InputExcerpt;
use crate::check::{self, CaseFiles, Checker, Judgement};
use crate::compile::sanitizer::Sanitized;
use crate::compile::shown::ShownNames;
use crate::compile::Program;
use crate::config::FileIo;
use crate::results::case::{CaseOutcome, Mismatch};
use crate::sandbox::run::{self, Isolation, Limits, RunError, RunRequest, Stdin};
use crate::verdict::{self, Verdict};

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
    pub interactor: Option<&'a crate::check::interactor::ReadyInteractor>,
    /// For a communication task: the manager each case's processes talk with.
    #[cfg(unix)]
    pub communication: Option<&'a crate::check::manager::Manager>,
    /// A two-step task: each case runs the program twice through a FIFO (`two_steps`).
    pub two_steps: bool,
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

/// A failing outcome with the head of its input, for the report.
pub(crate) fn with_input(mut outcome: CaseOutcome, case: &Case) -> CaseOutcome {
    if !outcome.verdict.is_accepted() {
        outcome.input = Some(InputExcerpt::read(&case.input));
    }
    outcome
}

pub(crate) fn run_and_check(
    program: &Program,
    case: &Case,
    settings: &JudgeSettings<'_>,
) -> CaseOutcome {
    check_run(run_case(program, case, settings), case, settings)
}

/// A finished run of one case: what the runner measured (for a file-I/O problem, with its
/// output file read back).
pub(crate) struct CaseRun {
    result: Result<run::RunResult, RunError>,
    /// How to read a sanitizer's report, when the program was built with one.
    sanitized: Option<Arc<Sanitized>>,
    /// The user's names for the copies of its source that its stderr names.
    shown: Arc<ShownNames>,
}

/// Runs `program` on the case's input under the limits: the first half of judging a case,
/// for callers that prepare the answer meanwhile (stress runs the reference alongside).
pub(crate) fn run_case(program: &Program, case: &Case, settings: &JudgeSettings<'_>) -> CaseRun {
    run_step(program, case, settings, None)
}

/// One run of a two-step task (`two_steps`): its step's arguments after the program's, its
/// stdin, and the caller's folder (under the sandbox's scratch root) to run in.
pub(crate) struct Step<'a> {
    pub args: &'a [OsString],
    pub stdin: Stdin<'a>,
    pub workdir: &'a std::path::Path,
}

/// [`run_case`], or one step of a two-step task's case.
pub(crate) fn run_step(
    program: &Program,
    case: &Case,
    settings: &JudgeSettings<'_>,
    step: Option<Step<'_>>,
) -> CaseRun {
    let files = settings.files;
    // As on the judges that use files, stdin is empty when the input is a file, which the
    // runner copies into the program's folder under the problem's name.
    let (mut stdin, input) = match &files.input {
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
    let mut args = case_args(program, case);
    let mut workdir = None;
    if let Some(step) = step {
        args.extend(step.args.iter().cloned());
        stdin = step.stdin;
        workdir = Some(step.workdir);
    }
    let env = program.env();
    let request = RunRequest::new(&program.executable, settings.limits)
        .args(&args)
        .stdin(stdin)
        .env(&env)
        .address_space_cap(program.address_space_cap())
        .files(&inputs)
        .output_file(files.output.as_deref())
        .syscall_filter(program.syscall_filter)
        .isolation(Isolation::Sandbox)
        .workdir(workdir);
    CaseRun {
        result: run::run(&request),
        sanitized: program.sanitized.clone(),
        shown: program.shown.clone(),
    }
}

impl CaseRun {
    /// Whether the run itself failed (crashed, broke a limit, or could not run), before any
    /// output of it is judged.
    pub(crate) fn failed(&self, limits: &Limits) -> bool {
        self.result
            .as_ref()
            .map_or(true, |result| verdict::classify(result, limits).is_some())
    }

    /// Its measurements, when it ran.
    pub(crate) fn result(&self) -> Option<&run::RunResult> {
        self.result.as_ref().ok()
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
    let CaseRun {
        result,
        sanitized,
        shown,
    } = run;
    let mut result = match result {
        Ok(result) => result,
        Err(error) => return judge_error(case, error.to_string()),
    };
    // A traceback or an `assert` names the user's file, in the reason as in the excerpt.
    if let Cow::Owned(said) = shown.show_bytes(&result.stderr_tail) {
        result.stderr_tail = said;
    }
    if crate::sandbox::interrupt::is_interrupted() {
        // Killed by our own Ctrl-C handler: whatever it shows is not the program's verdict.
        return judge_error(case, RunError::Interrupted.to_string());
    }
    let mut outcome = measured(case, &result, &limits);
    let mut answer = Vec::new();
    let mut output = Vec::new();
    let unanswered = case.unanswered();
    let judgement = verdict::decide(&result, &limits, || {
        if unanswered {
            return Judgement::accepted(NO_ANSWER);
        }
        answer = match read_answer(case) {
            Ok(answer) => answer,
            Err(judgement) => return judgement,
        };
        output = match program_output(files.output.as_deref(), &result, &limits) {
            Ok(output) => output,
            Err(judgement) => return judgement,
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
        outcome.mismatch = Some(mismatch(settings.checker, output, answer));
    }
    outcome
}

/// The outcome of a run before it is judged: its numbers and its stderr.
pub(crate) fn measured(case: &Case, result: &run::RunResult, limits: &Limits) -> CaseOutcome {
    let mut outcome = CaseOutcome::new(case.name.clone(), Verdict::Accepted, String::new());
    outcome.cpu_time = result.cpu_time;
    outcome.wall_time = result.wall_time;
    outcome.peak_memory_bytes = result.resident_peak_bytes;
    outcome.time_sensitive = verdict::is_time_sensitive(result.cpu_time, limits.cpu_time);
    outcome.stderr_tail = String::from_utf8_lossy(&result.stderr_tail).into_owned();
    outcome
}

/// The case's answer file.
fn read_answer(case: &Case) -> Result<Vec<u8>, Judgement> {
    std::fs::read(&case.answer).map_err(|error| {
        Judgement::judge_error(format!(
            "cannot read answer file `{}`: {error}",
            case.answer.display()
        ))
    })
}

/// What the program answered: its stdout, or the file judge.toml names (`output_name`).
fn program_output(
    output_name: Option<&str>,
    result: &run::RunResult,
    limits: &Limits,
) -> Result<Vec<u8>, Judgement> {
    match (output_name, &result.output_file) {
        (Some(name), Some(read)) => output_file(read, name, result, limits),
        _ => Ok(result.stdout.clone()),
    }
}

/// What the diff of a wrong output shows: the output and the answer, each cut to a few MiB,
/// and a looser checker that would accept it.
pub(crate) fn mismatch(checker: &Checker, output: Vec<u8>, answer: Vec<u8>) -> Mismatch {
    let hint = check::hint::near_miss(checker, &output, &answer);
    // Truncating keeps the capacity, and the whole output was written into it: shrink, or
    // every wrong answer would hold its full output (up to the output limit) until the
    // report.
    let mut output = output;
    output.truncate(MISMATCH_KEEP_BYTES);
    output.shrink_to_fit();
    let mut answer = answer;
    answer.truncate(MISMATCH_KEEP_BYTES);
    answer.shrink_to_fit();
    Mismatch {
        output,
        answer,
        hint,
    }
}

/// The program's own arguments, then the case's (`args` of a 2025-09 package).
pub(crate) fn case_args(program: &Program, case: &Case) -> Vec<OsString> {
    let mut args = program.args.clone();
    args.extend(case.args.iter().map(OsString::from));
    args
}
/// The submission as one party of a run beside another program (an interactor, a manager):
/// sandboxed, its memory counted for its main process.
pub(crate) fn submission_party<'a>(
    program: &'a Program,
    args: &'a [OsString],
    limits: crate::sandbox::run::Limits,
    env: &'a [(OsString, OsString)],
) -> crate::sandbox::pair::Party<'a> {
    crate::sandbox::pair::Party {
        program: &program.executable,
        args,
        limits,
        scope: crate::sandbox::run::Scope::Process,
        workdir: None,
        isolation: crate::sandbox::run::Isolation::Sandbox,
        syscall_filter: program.syscall_filter,
        env,
        address_space_cap: program.address_space_cap(),
    }
}

/// Why a run of the submission beside the judge's own program (`role`: the interactor, the
/// manager) failed. That program failing to start is never the contestant's fault, and is
/// said as its own, with how to fix it.
pub(crate) fn beside_error(
    error: crate::sandbox::run::RunError,
    program: &Program,
    role: &str,
) -> String {
    match error {
        crate::sandbox::run::RunError::Spawn {
            program: failed_program,
            source,
        } if failed_program != program.executable => format!(
            "the {role} cannot start (`{}`: {source}) (hint: make it executable, or name its interpreter in judge.toml: {role} = [\"python3\", \"{role}.py\"])",
            failed_program.display()
        ),
        error => error.to_string(),
    }
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

pub(crate) fn judge_error(case: &Case, reason: String) -> CaseOutcome {
    CaseOutcome::new(case.name.clone(), Verdict::JudgeError, reason)
}
