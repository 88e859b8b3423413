//! One case of a communication task (CMS `Communication`): the problem's manager and N copies
//! of the submission run together (`sandbox::communication`), each copy given its index as
//! its argument when there are several, as CMS gives it; `verdict::communication` decides who
//! is at fault and reads the manager's score. The manager is prepared once per judging
//! (compiled from source through the languages table, when judge.toml names a source file).

use std::ffi::OsString;
use std::sync::Arc;

use crate::case::discover::Case;
use crate::check::interactor::interactor_limits;
use crate::check::manager::Manager;
use crate::check::{CaseFiles, Judgement};

use crate::compile::Program;
use crate::config::{self, Config, InteractorProgram, UserIo};
use crate::results::case::CaseOutcome;
use crate::sandbox::communication::{self, CommunicationRequest};
use crate::sandbox::pair::{Party, AFTER_SUBMISSION};
use crate::sandbox::run::{Isolation, Limits, RunError, Scope};
use crate::verdict::{self, communication as blame};

use super::interactive::{own_program, InteractorError, OwnProgram, Role};
use super::plain::JudgeSettings;

/// Memory the manager may use: the judge's own program, not the contestant's.
const MANAGER_MEMORY: u64 = 2 << 30;

/// Prepares the problem's manager; `None` for a problem that is not a communication task.
pub fn prepare(
    config: &Config,
    problem: &config::Problem,
) -> Result<Option<Arc<Manager>>, InteractorError> {
    let Some(communication) = &problem.communication else {
        return Ok(None);
    };
    let manager = &communication.manager;
    let (program, prepared) =
        match own_program(config, problem, Role::Manager, manager, MANAGER_MEMORY)? {
            OwnProgram::Ready(program, prepared) => (program, prepared),
            // A package's manager (CMS's `check/manager`, TPS's `grader/manager.cpp`), as built.
            OwnProgram::Package(package) => {
                return Ok(Some(Arc::new(package_manager(package, communication))))
            }
        };
    Ok(Some(Arc::new(Manager {
        program,
        processes: communication.processes,
        user_io: communication.user_io,
        checked: communication.checked,
        prepared,
    })))
}

/// A package's manager, ready to run (it was built when the package was loaded); `None` for
/// a package that is not a communication task.
pub fn of_package(problem: &config::Problem) -> Option<Arc<Manager>> {
    let communication = problem.communication.as_ref()?;
    let InteractorProgram::Package(package) = &communication.manager else {
        return None;
    };
    Some(Arc::new(package_manager(package, communication)))
}

fn package_manager(
    package: &crate::check::package::PackageProgram,
    communication: &config::Communication,
) -> Manager {
    let mut program = Program::new(package.program.clone());
    program.args = package.args.clone();
    Manager {
        program,
        processes: communication.processes,
        user_io: communication.user_io,
        checked: communication.checked,
        prepared: None,
    }
}

/// The manager's limits: the judge's own, over every user's wall bound, since a manager may
/// serve them one after the other (CMS gives it `processes × (time limit + 1 s)`), and a grace
/// to give its verdict after the last has ended.
fn manager_limits(limits: &Limits, processes: usize) -> Limits {
    let wall = limits.wall_time.saturating_mul(processes as u32) + AFTER_SUBMISSION;
    Limits {
        memory_bytes: MANAGER_MEMORY,
        ..interactor_limits(wall)
    }
}

/// What a `fifo_io` user process gets as its FIFOs' paths: its stdin and stdout, which are
/// its pair, reopened by name (the FIFOs themselves live where its sandbox shows nothing).
const FIFO_PATHS: [&str; 2] = ["/proc/self/fd/0", "/proc/self/fd/1"];

/// A fresh folder for the manager, with the case's input copied in as `input.txt`.
fn manager_folder(case: &Case) -> std::io::Result<tempfile::TempDir> {
    let folder = tempfile::Builder::new()
        .prefix("harness-manager-")
        .tempdir()?;
    std::fs::copy(&case.input, folder.path().join("input.txt"))?;
    Ok(folder)
}

/// The most of a manager's stdout read when it is a score: its first token.
const SCORE_BYTES: u64 = 4096;

/// What the problem's checker makes of the manager's output, as it would of a batch
/// submission's (TPS's `check_test.sh` hands it the manager's stdout).
fn checked(case: &Case, settings: &JudgeSettings<'_>, output: &[u8]) -> Judgement {
    let answer = match std::fs::read(&case.answer) {
        Ok(answer) => answer,
        Err(error) => {
            return Judgement::judge_error(format!(
                "cannot read the answer `{}`: {error}",
                case.answer.display()
            ))
        }
    };
    let files = CaseFiles {
        input: &case.input,
        answer: &case.answer,
    };
    crate::check::check(settings.checker, &files, output, &answer)
}

/// Runs and judges one communication case.
pub fn judge_case(
    program: &Program,
    case: &Case,
    settings: &JudgeSettings<'_>,
    manager: &Manager,
) -> CaseOutcome {
    let failed = |reason: String| super::plain::judge_error(case, reason);
    let limits = settings.limits;
    let env = program.env();
    let base_args = super::plain::case_args(program, case);
    // CMS gives each process its FIFOs' paths under `fifo_io` (from the manager, then to it:
    // here its own stdin and stdout, which it reopens by those names), then its index when
    // there are several.
    let args: Vec<Vec<OsString>> = (0..manager.processes)
        .map(|index| {
            let mut args = base_args.clone();
            if manager.user_io == UserIo::Fifo {
                args.extend(FIFO_PATHS.map(OsString::from));
            }
            if manager.processes > 1 {
                args.push(index.to_string().into());
            }
            args
        })
        .collect();
    let users = args
        .iter()
        .map(|args| super::plain::submission_party(program, args, limits, &env))
        .collect();
    // The manager's own folder holds the case's input as `input.txt`, as on CMS, where it
    // may read it (cmstestsuite's managers do) besides its stdin, and write `output.txt`.
    let folder = match manager_folder(case) {
        Ok(folder) => folder,
        Err(error) => {
            return failed(format!(
                "cannot make the manager's folder with `input.txt`: {error}"
            ))
        }
    };
    let request = CommunicationRequest {
        users,
        manager: Party {
            program: &manager.program.executable,
            args: &manager.program.args,
            limits: manager_limits(&limits, manager.processes),
            scope: Scope::Group,
            workdir: Some(folder.path()),
            isolation: Isolation::Process,
            syscall_filter: true,
            env: &[],
            address_space_cap: true,
        },
        input: &case.input,
        // A trusted program: generous, since a busy machine (its disk too) can hold up its
        // start for seconds, and a stuck one costs only time.
        idle_grace: limits.wall_time + AFTER_SUBMISSION,
        stdout_bytes: if manager.checked {
            limits.output_bytes
        } else {
            SCORE_BYTES
        },
    };
    let result = match communication::run_communication(&request) {
        Ok(result) => result,
        Err(error) => return failed(super::plain::beside_error(error, program, "manager")),
    };
    if crate::sandbox::interrupt::is_interrupted() {
        return failed(RunError::Interrupted.to_string());
    }
    let said = if manager.checked {
        blame::manager_checked(&result.manager, &result.manager.stderr_tail, || {
            checked(case, settings, &result.manager.stdout)
        })
    } else {
        blame::manager_said(
            &result.manager,
            &result.manager.stdout,
            &result.manager.stderr_tail,
        )
    };
    let judgement = blame::blame(&result.users, &limits, &said, settings.scoring.is_some());
    let runs = || result.users.iter();
    let cpu_time = runs().map(|run| run.cpu_time).sum();
    let stderr: Vec<u8> = runs()
        .flat_map(|run| run.stderr_tail.iter().copied())
        .collect();
    let mut outcome = CaseOutcome::new(case.name.clone(), judgement.verdict, judgement.reason);
    outcome.credit = judgement.credit;
    outcome.cpu_time = cpu_time;
    outcome.wall_time = runs().map(|run| run.wall_time).max().unwrap_or_default();
    outcome.peak_memory_bytes = runs()
        .map(|run| run.resident_peak_bytes)
        .max()
        .unwrap_or_default();
    outcome.time_sensitive = verdict::is_time_sensitive(cpu_time, limits.cpu_time);
    outcome.stderr_tail = String::from_utf8_lossy(&program.shown.show_bytes(&stderr)).into_owned();
    outcome
}
