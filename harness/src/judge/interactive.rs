//! One case of an interactive problem: the submission and the interactor run as a pair (see
//! `sandbox::pair`), the interactor's exit is read by its protocol, and `verdict::blame`
//! decides who is at fault. The interactor is prepared once per judging (compiled from
//! source through the languages table, when judge.toml names a source file).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::case::discover::Case;
use crate::check::package::{read_left, PackageProgram, RunFolder};
use crate::check::{self, CaseFiles, Checker};
use crate::compile::submission::{Compiled, Prepared};
use crate::compile::submit::SubmitError;
use crate::config::{self, Config, InteractorProgram};
use crate::sandbox::pair::{self, PairRequest, Party};
use crate::sandbox::run::{Isolation, Limits, RunError, RunRequest, Scope, Stdin};
use crate::verdict::InteractorProtocol;
use crate::verdict::{self, Verdict};

use super::{CaseOutcome, Interaction, JudgeSettings, Program};

/// Memory the interactor may use: generous, since it is the judge's own program, but bounded
/// so a broken one cannot take the machine.
const INTERACTOR_MEMORY: u64 = 2 << 30;
/// Bytes of the interactor's message kept (judgemessage.txt or stderr).
const MESSAGE_BYTES: usize = 4096;
/// Bytes of a testlib interactor's OUTPUT file read for its checker.
const OUTPUT_BYTES: usize = 64 << 20;

#[derive(Debug, thiserror::Error)]
pub enum InteractorError {
    #[error("problem `{problem}`: the interactor `{}` does not compile (hint: fix it, or name a built program with `interactor = [\"path\"]`):\n{message}", path.display())]
    CompileError {
        problem: String,
        path: PathBuf,
        message: String,
    },
    #[error("problem `{problem}`: the interactor: {error}")]
    Submit {
        problem: String,
        #[source]
        error: SubmitError,
    },
}

/// A prepared interactor, shared by the plans that judge against it.
pub type Shared = std::sync::Arc<ReadyInteractor>;

/// An interactor ready to run.
#[derive(Debug)]
pub struct ReadyInteractor {
    pub program: Program,
    pub protocol: InteractorProtocol,
    /// testlib: the checker of the OUTPUT file, if the problem names one.
    pub checker: Option<Checker>,
    /// A problem package's interactor: code from outside the project, run in the sandbox.
    pub package: Option<PackageProgram>,
    /// Keeps the build folder of a compiled interactor until judging ends.
    _build: Option<Prepared>,
}

/// Prepares the problem's interactor, compiling it when judge.toml names a source file.
/// `None` for a problem that is not interactive.
pub fn prepare(
    config: &Config,
    problem: &config::Problem,
) -> Result<Option<Shared>, InteractorError> {
    let Some(interactor) = &problem.interactor else {
        return Ok(None);
    };
    let submit_error = |error| InteractorError::Submit {
        problem: problem.name.clone(),
        error,
    };
    let package = match &interactor.program {
        InteractorProgram::Package(program) => Some(program.clone()),
        _ => None,
    };
    let (program, build) = match &interactor.program {
        InteractorProgram::Package(program) => (
            Program {
                executable: program.program.clone(),
                args: program.args.clone(),
                syscall_filter: true,
                sanitized: None,
            },
            None,
        ),
        InteractorProgram::Command { program, args } => (
            Program {
                executable: program.clone(),
                args: args.iter().map(OsString::from).collect(),
                syscall_filter: true,
                sanitized: None,
            },
            None,
        ),
        InteractorProgram::Source(source) => {
            let language =
                crate::config::detect_language(config, source, None).map_err(submit_error)?;
            match crate::compile::submission::compile(language, source, INTERACTOR_MEMORY)
                .map_err(submit_error)?
            {
                Compiled::Ready(prepared) => (prepared.program.clone(), Some(prepared)),
                Compiled::CompileError { message, .. } => {
                    return Err(InteractorError::CompileError {
                        problem: problem.name.clone(),
                        path: source.clone(),
                        message,
                    })
                }
            }
        }
    };
    Ok(Some(std::sync::Arc::new(ReadyInteractor {
        program,
        protocol: interactor.protocol,
        checker: interactor.checker.clone(),
        package,
        _build: build,
    })))
}

/// The interactor's limits for a pair bounded by `wall_time`: CPU up to the whole bound,
/// [`INTERACTOR_MEMORY`], no output limit (its words are the submission's input).
pub fn interactor_limits(wall_time: Duration) -> Limits {
    Limits {
        cpu_time: wall_time,
        wall_time,
        memory_bytes: INTERACTOR_MEMORY,
        output_bytes: u64::MAX,
    }
}

/// The interactor's folder for one case: a package's interactor runs in the sandbox, so its
/// folder is under the sandbox's scratch root; the project's own runs as a plain process.
enum Scratch {
    Plain(tempfile::TempDir),
    Package(RunFolder),
}

impl Scratch {
    fn path(&self) -> &Path {
        match self {
            Scratch::Plain(dir) => dir.path(),
            Scratch::Package(folder) => folder.path(),
        }
    }
}

/// How the interactor is called on one case: the program and its arguments by protocol, where
/// it runs and writes.
struct Call {
    program: PathBuf,
    args: Vec<OsString>,
    /// testlib's OUTPUT file.
    output: PathBuf,
    /// Kattis's feedback folder.
    feedback: PathBuf,
    isolation: Isolation,
    scratch: Scratch,
}

impl Call {
    /// The call for `case`, in a fresh folder.
    fn new(interactor: &ReadyInteractor, case: &Case) -> Result<Call, String> {
        let made = |error: std::io::Error| format!("cannot make the interactor's folder: {error}");
        let (scratch, program, mut args, isolation) = match &interactor.package {
            Some(package) => {
                let folder = RunFolder::new().map_err(made)?;
                let (program, args) = package.laid_out(folder.path()).map_err(made)?;
                (Scratch::Package(folder), program, args, Isolation::Sandbox)
            }
            None => (
                Scratch::Plain(
                    tempfile::Builder::new()
                        .prefix("harness-interactor-")
                        .tempdir()
                        .map_err(made)?,
                ),
                interactor.program.executable.clone(),
                interactor.program.args.clone(),
                Isolation::Process,
            ),
        };
        // The interactor runs in its own folder: the case's paths must not be relative.
        let absolute =
            |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let (input, answer) = (absolute(&case.input), absolute(&case.answer));
        let output = scratch.path().join("output");
        let feedback = scratch.path().join("feedback");
        match interactor.protocol {
            InteractorProtocol::Testlib => {
                args.extend([input.into(), output.clone().into(), answer.into()]);
            }
            InteractorProtocol::Kattis => {
                match &scratch {
                    Scratch::Package(folder) => folder.writable("feedback").map(drop),
                    Scratch::Plain(_) => std::fs::create_dir(&feedback),
                }
                .map_err(|error| format!("cannot make the feedback folder: {error}"))?;
                // The trailing slash is part of the protocol: validators append file names.
                let mut dir: OsString = feedback.clone().into();
                dir.push("/");
                args.extend([input.into(), answer.into(), dir]);
            }
        }
        Ok(Call {
            program,
            args,
            output,
            feedback,
            isolation,
            scratch,
        })
    }

    /// The interactor's message: Kattis's judgemessage.txt, or testlib's stderr.
    fn message(&self, protocol: InteractorProtocol, stderr: &[u8]) -> String {
        call_message(protocol, &self.feedback, stderr)
    }
}

/// Why a sample's `.interaction` file and the interactor disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleMismatch {
    /// The sample's `.interaction` file.
    pub file: PathBuf,
    /// One line: where and how they differ.
    pub reason: String,
}

/// Replays a sample's `.interaction` file (the Kattis convention: `>` lines from the
/// submission, `<` lines to it) against the interactor: fed the `>` lines, it must answer
/// exactly the `<` lines and accept. `Ok(None)` when it does.
pub fn replay_sample(
    interactor: &ReadyInteractor,
    case: &Case,
    interaction: &Path,
    wall_time: Duration,
) -> Result<Option<SampleMismatch>, String> {
    let mismatch = |reason: String| {
        Ok(Some(SampleMismatch {
            file: interaction.to_path_buf(),
            reason,
        }))
    };
    let text = std::fs::read_to_string(interaction)
        .map_err(|error| format!("cannot read `{}`: {error}", interaction.display()))?;
    let (mut said, mut expected) = (String::new(), Vec::new());
    for (number, line) in text.lines().enumerate() {
        match line.split_at_checked(1) {
            Some((">", rest)) => {
                said.push_str(rest);
                said.push('\n');
            }
            Some(("<", rest)) => expected.push(rest),
            _ => {
                return mismatch(format!(
                    "line {}: starts with neither `>` nor `<`",
                    number + 1
                ))
            }
        }
    }
    let call = Call::new(interactor, case)?;
    let limits = interactor_limits(wall_time);
    let request = RunRequest::new(&call.program, limits)
        .args(&call.args)
        .stdin(Stdin::Bytes(said.as_bytes()))
        .scope(Scope::Group)
        .workdir(Some(call.scratch.path()))
        .isolation(call.isolation);
    let run = crate::sandbox::run::run(&request).map_err(|error| error.to_string())?;
    let replies = String::from_utf8_lossy(&run.stdout);
    let replies: Vec<&str> = replies.lines().collect();
    let message = call.message(interactor.protocol, &run.stderr_tail);
    let position = replies
        .iter()
        .zip(&expected)
        .position(|(got, want)| got != want);
    if let Some(index) = position {
        return mismatch(format!(
            "reply {}: the interactor says `{}`, the sample says `{}`",
            index + 1,
            crate::text::one_line(replies[index], 60),
            crate::text::one_line(expected[index], 60)
        ));
    }
    if replies.len() != expected.len() {
        return mismatch(format!(
            "the interactor gives {} replies, the sample {}",
            replies.len(),
            expected.len()
        ));
    }
    match verdict::interactor_said(interactor.protocol, &run, &limits, &message, true) {
        verdict::InteractorSaid::Accepted(_) => Ok(None),
        verdict::InteractorSaid::WrongAnswer(why) | verdict::InteractorSaid::Failed(why) => {
            mismatch(format!("the dialogue is not accepted: {why}"))
        }
        verdict::InteractorSaid::Silenced => mismatch("the interactor did not finish".into()),
    }
}

/// Runs and judges one interactive case.
pub fn judge_case(
    program: &Program,
    case: &Case,
    settings: &JudgeSettings<'_>,
    interactor: &ReadyInteractor,
) -> CaseOutcome {
    let failed = |reason: String| super::judge_error(case, reason);
    let call = match Call::new(interactor, case) {
        Ok(call) => call,
        Err(reason) => return failed(reason),
    };
    let Call {
        program: interactor_program,
        args,
        output,
        feedback,
        isolation,
        scratch,
    } = call;
    let limits = settings.limits;
    let submission_args = super::case_args(program, case);
    let env = program.env();
    let request = PairRequest {
        submission: Party {
            program: &program.executable,
            args: &submission_args,
            limits,
            scope: Scope::Process,
            workdir: None,
            isolation: Isolation::Sandbox,
            syscall_filter: program.syscall_filter,
            env: &env,
            address_space_cap: program.address_space_cap(),
        },
        interactor: Party {
            program: &interactor_program,
            args: &args,
            limits: interactor_limits(limits.wall_time),
            scope: Scope::Group,
            workdir: Some(scratch.path()),
            isolation,
            syscall_filter: true,
            env: &[],
            address_space_cap: true,
        },
        wall_time: limits.wall_time,
        decided_by_interactor: &|end, first| {
            verdict::decided_by_interactor(interactor.protocol, end, first)
        },
    };
    let result = match pair::run_pair(&request) {
        Ok(result) => result,
        // The judge's own program: never the contestant's fault, and said as its own.
        Err(RunError::Spawn {
            program: failed_program,
            source,
        }) if failed_program != program.executable => {
            return failed(format!(
                "the interactor cannot start (`{}`: {source}) (hint: make it executable, or name its interpreter in judge.toml: interactor = [\"python3\", \"interactor.py\"])",
                failed_program.display()
            ))
        }
        Err(error) => return failed(error.to_string()),
    };
    if crate::sandbox::interrupt::is_interrupted() {
        return failed(RunError::Interrupted.to_string());
    }
    let message = call_message(
        interactor.protocol,
        &feedback,
        &result.interactor.stderr_tail,
    );
    // Not stopped by the pair's wall clock: it ended on its own (or by its other limits).
    let submission_ended = result.submission.limit_hit != Some(crate::verdict::LimitHit::WallTime);
    let mut said = verdict::interactor_said(
        interactor.protocol,
        &result.interactor,
        &interactor_limits(limits.wall_time),
        &message,
        submission_ended,
    );
    // A Kattis interactor's reason is its judgemessage.txt, which one that crashed never
    // wrote: where it failed is on its stderr (testlib's reason is its stderr already).
    if let (verdict::InteractorSaid::Failed(why), InteractorProtocol::Kattis) =
        (&mut said, interactor.protocol)
    {
        if let Some(line) =
            crate::text::last_line(&String::from_utf8_lossy(&result.interactor.stderr_tail))
        {
            why.push_str(&format!(
                " (its stderr: {})",
                crate::text::one_line(line, 200)
            ));
        }
    }
    let mut judgement = verdict::blame(&result.submission, &limits, &said, result.first);
    // A Kattis interactor of a scoring problem leaves the case's score in its feedback folder.
    if judgement.verdict == Verdict::Accepted && interactor.protocol == InteractorProtocol::Kattis {
        match crate::check::package::feedback_credit(&feedback) {
            Ok(credit) => judgement.credit = credit,
            Err(error) => {
                judgement = crate::check::Judgement::judge_error(format!(
                    "the interactor accepted, but its score cannot be used: {error}"
                ));
            }
        }
    }
    // A testlib interactor's `quitp` (exit 7): the points are the first token of its message,
    // read as a checker's are (check/command.rs); what they are worth is the case's rule.
    let quitp = interactor.protocol == InteractorProtocol::Testlib
        && matches!(
            result.interactor.termination,
            crate::sandbox::run::Termination::Exited(crate::score::TESTLIB_POINTS_EXIT)
        );
    if judgement.verdict == Verdict::Accepted && quitp {
        match crate::score::testlib_points(&result.interactor.stderr_tail) {
            Ok(credit) => judgement.credit = Some(credit),
            Err(error) => {
                judgement = crate::check::Judgement::judge_error(format!(
                    "the interactor gave points (testlib `quitp`, exit 7) that cannot be used: {error}"
                ));
            }
        }
    }
    // testlib: an accepted dialogue may still have its OUTPUT judged, as on Codeforces.
    if let (Verdict::Accepted, Some(checker)) = (judgement.verdict, &interactor.checker) {
        let answer_bytes = std::fs::read(&case.answer).unwrap_or_default();
        // Read as the interactor left it, never through a link it made.
        let written = output
            .parent()
            .and_then(|folder| read_left(folder, "output", OUTPUT_BYTES))
            .unwrap_or_default();
        let files = CaseFiles {
            input: &case.input,
            answer: &case.answer,
        };
        let points = judgement.credit;
        judgement = check::check(checker, &files, &written, &answer_bytes);
        // The checker's own credit wins; an accepted OUTPUT keeps the interactor's points.
        if judgement.verdict == Verdict::Accepted && judgement.credit.is_none() {
            judgement.credit = points;
        }
    }
    let submission = &result.submission;
    CaseOutcome {
        case: case.name.clone(),
        verdict: judgement.verdict,
        reason: judgement.reason,
        credit: judgement.credit,
        cpu_time: submission.cpu_time,
        wall_time: submission.wall_time,
        peak_memory_bytes: submission.resident_peak_bytes,
        time_sensitive: verdict::is_time_sensitive(submission.cpu_time, limits.cpu_time),
        stderr_tail: String::from_utf8_lossy(&submission.stderr_tail).into_owned(),
        mismatch: None,
        unanswered: None,
        // Added by the caller for a failing case.
        input: None,
        score: None,
        max_score: None,
        interaction: Some(Interaction {
            transcript: result.transcript,
            // Every line of it, on one line.
            message: crate::text::one_line(&message.trim().replace('\n', " / "), 300),
            interactor_cpu_time: result.interactor.cpu_time,
            interactor_peak_memory_bytes: result.interactor.resident_peak_bytes,
        }),
    }
}

fn call_message(protocol: InteractorProtocol, feedback: &Path, stderr: &[u8]) -> String {
    match protocol {
        InteractorProtocol::Kattis => read_bounded(&feedback.join("judgemessage.txt")),
        InteractorProtocol::Testlib => last_lines(stderr),
    }
}

/// The start of a message file; missing is empty (a validator need not write one). Read as
/// the interactor left it, never through a link it made.
fn read_bounded(path: &Path) -> String {
    let (Some(folder), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str()))
    else {
        return String::new();
    };
    let text = read_left(folder, name, MESSAGE_BYTES).unwrap_or_default();
    String::from_utf8_lossy(&text).trim().to_string()
}

/// testlib prints its verdict line last on stderr (`wrong answer …`, `ok …`).
fn last_lines(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    crate::text::tail_lines(text.trim_end(), 1).join(" ")
}
