//! An interactor, the judge's own program that talks with a submission: ready to run (built,
//! with its protocol and the checker of its OUTPUT file), called on a case in a folder of its
//! own, its message read back, and a sample's `.interaction` transcript replayed against it.
//! Judging a submission against it is `judge::interactive`; here is what validating a
//! package needs as well, below the judge.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::check::package::{read_left, PackageProgram, RunFolder};
use crate::check::{CaseFiles, Checker};
use crate::compile::submission::Prepared;
use crate::compile::Program;
use crate::sandbox::run::{Isolation, Limits, RunRequest, Scope, Stdin};
use crate::verdict::{self, InteractorProtocol};

/// Memory the interactor may use: generous, since it is the judge's own program, but bounded
/// so a broken one cannot take the machine.
pub(crate) const INTERACTOR_MEMORY: u64 = 2 << 30;
/// Bytes of the interactor's message kept (judgemessage.txt or stderr).
const MESSAGE_BYTES: usize = 4096;

/// A prepared interactor, shared by the plans that judge against it.
pub type Shared = std::sync::Arc<ReadyInteractor>;

/// An interactor ready to run.
#[derive(Debug)]
pub struct ReadyInteractor {
    /// What runs: a built program, or a command.
    pub program: Program,
    /// How its exit and message are read.
    pub protocol: InteractorProtocol,
    /// testlib: the checker of the OUTPUT file, if the problem names one.
    pub checker: Option<Checker>,
    /// A problem package's interactor: code from outside the project, run in the sandbox.
    pub package: Option<PackageProgram>,
    /// Keeps the build folder of a compiled interactor until judging ends.
    _build: Option<Prepared>,
}

impl ReadyInteractor {
    /// A problem package's interactor, built already: run in the sandbox, laid out in each
    /// case's folder.
    pub fn of_package(
        program: &PackageProgram,
        protocol: InteractorProtocol,
        checker: Option<Checker>,
    ) -> ReadyInteractor {
        ReadyInteractor {
            program: Program {
                executable: program.program.clone(),
                args: program.args.clone(),
                syscall_filter: true,
                sanitized: None,
                shown: Default::default(),
            },
            protocol,
            checker,
            package: Some(program.clone()),
            _build: None,
        }
    }

    /// The project's own interactor, run as a plain process; `build` is the folder of a
    /// compiled one, kept until judging ends.
    pub fn of_program(
        program: Program,
        protocol: InteractorProtocol,
        checker: Option<Checker>,
        build: Option<Prepared>,
    ) -> ReadyInteractor {
        ReadyInteractor {
            program,
            protocol,
            checker,
            package: None,
            _build: build,
        }
    }
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
pub(crate) enum Scratch {
    Plain(tempfile::TempDir),
    Package(RunFolder),
}

impl Scratch {
    pub(crate) fn path(&self) -> &Path {
        match self {
            Scratch::Plain(dir) => dir.path(),
            Scratch::Package(folder) => folder.path(),
        }
    }
}

/// How the interactor is called on one case: the program and its arguments by protocol, where
/// it runs and writes.
pub(crate) struct Call {
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<OsString>,
    /// testlib's OUTPUT file.
    pub(crate) output: PathBuf,
    /// Kattis's feedback folder.
    pub(crate) feedback: PathBuf,
    pub(crate) isolation: Isolation,
    pub(crate) scratch: Scratch,
}

impl Call {
    /// The call for a case, in a fresh folder.
    pub(crate) fn new(interactor: &ReadyInteractor, case: &CaseFiles<'_>) -> Result<Call, String> {
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
        let (input, answer) = (absolute(case.input), absolute(case.answer));
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
    case: &CaseFiles<'_>,
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

pub(crate) fn call_message(protocol: InteractorProtocol, feedback: &Path, stderr: &[u8]) -> String {
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

/// testlib prints its verdict line last on stderr (`wrong answer …`, `ok …`). A Python
/// interactor that crashed printed its traceback: its opening line is kept above the last
/// (the exception), so that its exit 1 is read as the crash it is, not as testlib's WA.
fn last_lines(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let last = crate::text::tail_lines(text.trim_end(), 1).join(" ");
    if crate::verdict::has_python_traceback(&text) {
        format!("{}\n{last}", crate::verdict::PYTHON_TRACEBACK)
    } else {
        last
    }
}
