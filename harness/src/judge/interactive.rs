//! One case of an interactive problem: the submission and the interactor run as a pair (see
//! `sandbox::pair`), the interactor's exit is read by its protocol, and `verdict::blame`
//! decides who is at fault. The interactor is prepared once per judging (compiled from
//! source through the languages table, when judge.toml names a source file); what it is and
//! how it is called on a case is `check::interactor`.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::case::discover::Case;
use crate::check::interactor::{call_message, interactor_limits, Call, INTERACTOR_MEMORY};
use crate::check::package::{read_left, PackageProgram};
use crate::check::{self, CaseFiles};
use crate::compile::submission::{Compiled, Prepared};
use crate::compile::submit::SubmitError;
use crate::config::{self, Config, InteractorProgram};
use crate::sandbox::pair::{self, PairRequest, Party};
use crate::sandbox::run::{RunError, Scope};
use crate::verdict::InteractorProtocol;
use crate::verdict::{self, Verdict};

pub use crate::check::interactor::{ReadyInteractor, Shared};

/// Bytes of a testlib interactor's OUTPUT file read for its checker.
const OUTPUT_BYTES: usize = 64 << 20;

use crate::compile::Program;
use crate::results::case::{CaseOutcome, Interaction};

use super::plain::JudgeSettings;

/// Why a problem's interactor or manager cannot be made ready.
#[derive(Debug, thiserror::Error)]
pub enum InteractorError {
    #[error("problem `{problem}`: the {role} `{}` does not compile{} (hint: fix it, or name a built program with `{role} = [\"path\"]`):\n{message}", path.display(), role.consequence())]
    CompileError {
        problem: String,
        role: Role,
        path: PathBuf,
        message: String,
    },
    #[error("problem `{problem}`: the {role}: {error}")]
    Submit {
        problem: String,
        role: Role,
        #[source]
        error: Box<SubmitError>,
    },
}

/// Which of the judge's own programs an [`InteractorError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Interactor,
    Manager,
}

impl Role {
    /// What its not compiling means, beyond itself.
    fn consequence(self) -> &'static str {
        match self {
            Role::Interactor => "",
            Role::Manager => ", so no submission can be judged",
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Interactor => "interactor",
            Role::Manager => "manager",
        })
    }
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
    let (protocol, checker) = (interactor.protocol, interactor.checker.clone());
    let program = &interactor.program;
    let ready = match own_program(
        config,
        problem,
        Role::Interactor,
        program,
        INTERACTOR_MEMORY,
    )? {
        OwnProgram::Package(program) => ReadyInteractor::of_package(program, protocol, checker),
        OwnProgram::Ready(program, prepared) => {
            ReadyInteractor::of_program(program, protocol, checker, prepared)
        }
    };
    Ok(Some(std::sync::Arc::new(ready)))
}

/// A judge's own program (an interactor, a manager) as judge.toml names it.
#[expect(
    clippy::large_enum_variant,
    reason = "made once per judging and taken apart at once"
)]
pub(super) enum OwnProgram<'a> {
    /// Ready to run, with what compiling its source prepared.
    Ready(Program, Option<Prepared>),
    /// A package's program, built when the package was loaded.
    Package(&'a PackageProgram),
}

/// Makes `problem`'s `program` (its `role`) ready to run: a command as it is, a source file
/// compiled (to run under `memory` bytes).
pub(super) fn own_program<'a>(
    config: &Config,
    problem: &config::Problem,
    role: Role,
    program: &'a InteractorProgram,
    memory: u64,
) -> Result<OwnProgram<'a>, InteractorError> {
    let submit_error = |error| InteractorError::Submit {
        problem: problem.name.clone(),
        role,
        error: Box::new(error),
    };
    Ok(match program {
        InteractorProgram::Package(package) => OwnProgram::Package(package),
        InteractorProgram::Command { program, args } => {
            let mut ready = Program::new(program.clone());
            ready.args = args.iter().map(OsString::from).collect();
            OwnProgram::Ready(ready, None)
        }
        InteractorProgram::Source(source) => {
            let language =
                crate::config::detect_language(config, source, None).map_err(submit_error)?;
            match crate::compile::submission::compile(language, source, memory)
                .map_err(submit_error)?
            {
                Compiled::Ready(prepared) => {
                    OwnProgram::Ready(prepared.program.clone(), Some(prepared))
                }
                Compiled::CompileError { message, .. } => {
                    return Err(InteractorError::CompileError {
                        problem: problem.name.clone(),
                        role,
                        path: source.clone(),
                        message,
                    })
                }
            }
        }
    })
}

/// Runs and judges one interactive case.
pub fn judge_case(
    program: &Program,
    case: &Case,
    settings: &JudgeSettings<'_>,
    interactor: &ReadyInteractor,
) -> CaseOutcome {
    let failed = |reason: String| super::plain::judge_error(case, reason);
    let files = CaseFiles {
        input: &case.input,
        answer: &case.answer,
    };
    let call = match Call::new(interactor, &files) {
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
    let submission_args = super::plain::case_args(program, case);
    let env = program.env();
    let request = PairRequest {
        submission: super::plain::submission_party(program, &submission_args, limits, &env),
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
        Err(error) => return failed(super::plain::beside_error(error, program, "interactor")),
    };
    if crate::sandbox::interrupt::is_interrupted() {
        return failed(RunError::Interrupted.to_string());
    }
    let message = call_message(
        interactor.protocol,
        &feedback,
        &result.interactor.stderr_tail,
    );
    let said = said_of(interactor, &result, &limits, &message);
    let mut judgement = verdict::blame(&result.submission, &limits, &said, result.first);
    credit_of(&mut judgement, interactor, &feedback, &result.interactor);
    // testlib: an accepted dialogue may still have its OUTPUT judged, as on Codeforces.
    if let (Verdict::Accepted, Some(checker)) = (judgement.verdict, &interactor.checker) {
        check_output(&mut judgement, checker, case, &output);
    }
    outcome_of(case, program, &limits, judgement, result, &message)
}

/// What the interactor said of the dialogue.
fn said_of(
    interactor: &ReadyInteractor,
    result: &pair::PairResult,
    limits: &crate::sandbox::run::Limits,
    message: &str,
) -> verdict::InteractorSaid {
    // Not stopped by the pair's wall clock: it ended on its own (or by its other limits).
    let submission_ended = result.submission.limit_hit != Some(crate::verdict::LimitHit::WallTime);
    let mut said = verdict::interactor_said(
        interactor.protocol,
        &result.interactor,
        &interactor_limits(limits.wall_time),
        message,
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
    said
}

/// The score an accepting interactor gives: a Kattis one's in its feedback folder, a
/// testlib one's by `quitp`.
fn credit_of(
    judgement: &mut crate::check::Judgement,
    interactor: &ReadyInteractor,
    feedback: &std::path::Path,
    run: &crate::sandbox::run::RunResult,
) {
    // A Kattis interactor of a scoring problem leaves the case's score in its feedback folder.
    if judgement.verdict == Verdict::Accepted && interactor.protocol == InteractorProtocol::Kattis {
        // A package's interactor by its format's rules; judge.toml's by the current format's.
        let rules = interactor
            .package
            .as_ref()
            .map_or_else(crate::score::FeedbackRules::default, |p| p.feedback);
        match crate::check::package::feedback_credit(feedback, rules) {
            Ok(credit) => judgement.credit = credit,
            Err(error) => {
                *judgement = crate::check::Judgement::judge_error(format!(
                    "the interactor accepted, but its score cannot be used: {error}"
                ));
            }
        }
    }
    // A testlib interactor's `quitp` (exit 7): the points are the first token of its message,
    // read as a checker's are (check/command.rs); what they are worth is the case's rule.
    let quitp = interactor.protocol == InteractorProtocol::Testlib
        && matches!(
            run.termination,
            crate::sandbox::run::Termination::Exited(crate::score::TESTLIB_POINTS_EXIT)
        );
    if judgement.verdict == Verdict::Accepted && quitp {
        match crate::score::testlib_points(&run.stderr_tail) {
            Ok(credit) => judgement.credit = Some(credit),
            Err(error) => {
                *judgement = crate::check::Judgement::judge_error(format!(
                    "the interactor gave points (testlib `quitp`, exit 7) that cannot be used: {error}"
                ));
            }
        }
    }
}

/// Judges the OUTPUT file a testlib interactor wrote with the problem's checker.
fn check_output(
    judgement: &mut crate::check::Judgement,
    checker: &crate::check::Checker,
    case: &Case,
    output: &std::path::Path,
) {
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
    *judgement = check::check(checker, &files, &written, &answer_bytes);
    // The checker's own credit wins; an accepted OUTPUT keeps the interactor's points.
    if judgement.verdict == Verdict::Accepted && judgement.credit.is_none() {
        judgement.credit = points;
    }
}

/// The case's outcome: the submission's numbers, and the dialogue.
fn outcome_of(
    case: &Case,
    program: &Program,
    limits: &crate::sandbox::run::Limits,
    judgement: crate::check::Judgement,
    result: pair::PairResult,
    message: &str,
) -> CaseOutcome {
    let submission = &result.submission;
    // Its input is added by the caller for a failing case.
    let mut outcome = super::plain::measured(case, submission, limits);
    outcome.stderr_tail =
        String::from_utf8_lossy(&program.shown.show_bytes(&submission.stderr_tail)).into_owned();
    outcome.verdict = judgement.verdict;
    outcome.reason = judgement.reason;
    outcome.credit = judgement.credit;
    outcome.interaction = Some(Interaction {
        transcript: result.transcript,
        // Every line of it, on one line.
        message: crate::text::one_line(&message.trim().replace('\n', " / "), 300),
        interactor_cpu_time: result.interactor.cpu_time,
        interactor_peak_memory_bytes: result.interactor.resident_peak_bytes,
    });
    outcome
}
