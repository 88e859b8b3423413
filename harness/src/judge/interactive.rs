//! One case of an interactive problem: the submission and the interactor run as a pair (see
//! `sandbox::pair`), the interactor's exit is read by its protocol, and `verdict::blame`
//! decides who is at fault. The interactor is prepared once per judging (compiled from
//! source through the languages table, when judge.toml names a source file).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::case::discover::Case;
use crate::check::{self, CaseFiles, Checker};
use crate::compile::submit::{self, Compiled, Prepared, SubmitError};
use crate::config::{self, Config, InteractorProgram, InteractorProtocol};
use crate::sandbox::pair::{self, PairRequest, Party};
use crate::sandbox::run::{Isolation, Limits, RunError, RunRequest, Scope, Stdin};
use crate::verdict::{self, Verdict};

use super::{CaseOutcome, Interaction, JudgeSettings, Program};

/// Memory the interactor may use: generous, since it is the judge's own program, but bounded
/// so a broken one cannot take the machine.
const INTERACTOR_MEMORY: u64 = 2 << 30;
/// Bytes of the interactor's message kept (judgemessage.txt or stderr).
const MESSAGE_BYTES: usize = 4096;

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
    let (program, build) = match &interactor.program {
        InteractorProgram::Command { program, args } => (
            Program {
                executable: program.clone(),
                args: args.iter().map(OsString::from).collect(),
                syscall_filter: true,
            },
            None,
        ),
        InteractorProgram::Source(source) => {
            let language = submit::detect_language(config, source, None).map_err(submit_error)?;
            match submit::compile(language, source, INTERACTOR_MEMORY).map_err(submit_error)? {
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

/// How the interactor is called on one case: its arguments by protocol, and where it writes.
struct Call {
    args: Vec<OsString>,
    /// testlib's OUTPUT file.
    output: PathBuf,
    /// Kattis's feedback folder.
    feedback: PathBuf,
}

impl Call {
    /// The arguments for `case`, with the interactor's files in `scratch`.
    fn new(interactor: &ReadyInteractor, case: &Case, scratch: &Path) -> Result<Call, String> {
        // The interactor runs in its own folder: the case's paths must not be relative.
        let absolute =
            |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let (input, answer) = (absolute(&case.input), absolute(&case.answer));
        let output = scratch.join("output");
        let feedback = scratch.join("feedback");
        let mut args = interactor.program.args.clone();
        match interactor.protocol {
            InteractorProtocol::Testlib => {
                args.extend([input.into(), output.clone().into(), answer.into()]);
            }
            InteractorProtocol::Kattis => {
                std::fs::create_dir(&feedback)
                    .map_err(|error| format!("cannot make the feedback folder: {error}"))?;
                // The trailing slash is part of the protocol: validators append file names.
                let mut dir: OsString = feedback.clone().into();
                dir.push("/");
                args.extend([input.into(), answer.into(), dir]);
            }
        }
        Ok(Call {
            args,
            output,
            feedback,
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
    let scratch = tempfile::Builder::new()
        .prefix("harness-interactor-")
        .tempdir()
        .map_err(|error| format!("cannot make a folder: {error}"))?;
    let said_path = scratch.path().join("said");
    std::fs::write(&said_path, said).map_err(|error| format!("cannot write: {error}"))?;
    let call = Call::new(interactor, case, scratch.path())?;
    let limits = interactor_limits(wall_time);
    let request = RunRequest::new(&interactor.program.executable, limits)
        .args(&call.args)
        .stdin(Stdin::File(&said_path))
        .scope(Scope::Group)
        .workdir(Some(scratch.path()));
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
    let scratch = match tempfile::Builder::new()
        .prefix("harness-interactor-")
        .tempdir()
    {
        Ok(dir) => dir,
        Err(error) => return failed(RunError::Workdir(error).to_string()),
    };
    let call = match Call::new(interactor, case, scratch.path()) {
        Ok(call) => call,
        Err(reason) => return failed(reason),
    };
    let args = call.args;
    let (output, feedback) = (call.output, call.feedback);
    let limits = settings.limits;
    let request = PairRequest {
        submission: Party {
            program: &program.executable,
            args: &program.args,
            limits,
            scope: Scope::Process,
            workdir: None,
            isolation: Isolation::Sandbox,
            syscall_filter: program.syscall_filter,
        },
        interactor: Party {
            program: &interactor.program.executable,
            args: &args,
            limits: interactor_limits(limits.wall_time),
            scope: Scope::Group,
            workdir: Some(scratch.path()),
            isolation: Isolation::Process,
            syscall_filter: true,
        },
        wall_time: limits.wall_time,
    };
    let result = match pair::run_pair(&request) {
        Ok(result) => result,
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
    let said = verdict::interactor_said(
        interactor.protocol,
        &result.interactor,
        &interactor_limits(limits.wall_time),
        &message,
        submission_ended,
    );
    let mut judgement = verdict::blame(&result.submission, &limits, &said, result.first);
    // testlib: an accepted dialogue may still have its OUTPUT judged, as on Codeforces.
    if let (Verdict::Accepted, Some(checker)) = (judgement.verdict, &interactor.checker) {
        let answer_bytes = std::fs::read(&case.answer).unwrap_or_default();
        let written = std::fs::read(&output).unwrap_or_default();
        let files = CaseFiles {
            input: &case.input,
            answer: &case.answer,
        };
        judgement = check::check(checker, &files, &written, &answer_bytes);
    }
    let submission = &result.submission;
    CaseOutcome {
        case: case.name.clone(),
        verdict: judgement.verdict,
        reason: judgement.reason,
        cpu_time: submission.cpu_time,
        wall_time: submission.wall_time,
        peak_memory_bytes: submission.resident_peak_bytes,
        time_sensitive: verdict::is_time_sensitive(submission.cpu_time, limits.cpu_time),
        stderr_tail: String::from_utf8_lossy(&submission.stderr_tail).into_owned(),
        mismatch: None,
        // Added by the caller for a failing case.
        input: None,
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

/// The start of a message file; missing is empty (a validator need not write one).
fn read_bounded(path: &Path) -> String {
    use std::io::Read;
    let mut text = Vec::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(MESSAGE_BYTES as u64).read_to_end(&mut text);
    }
    String::from_utf8_lossy(&text).trim().to_string()
}

/// testlib prints its verdict line last on stderr (`wrong answer …`, `ok …`).
fn last_lines(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    crate::text::tail_lines(text.trim_end(), 1).join(" ")
}
