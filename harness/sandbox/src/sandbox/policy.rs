//! Whether programs under test run sandboxed: judge.toml's `sandbox` mode, what this machine
//! supports (for `harness doctor`), and the one warning printed when runs fell back.

use std::path::PathBuf;

use super::Mode;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

static MODE: AtomicU8 = AtomicU8::new(1);
static FELL_BACK: AtomicBool = AtomicBool::new(false);

/// Lets runs use the sandbox: `harness` is the binary to re-execute as the per-worker helper.
/// Without this (unit tests, benchmarks), every run uses the plain runner.
pub fn enable(harness: PathBuf) {
    super::helper::set_helper(harness);
}

/// Sets the mode judge.toml asks for.
pub fn set_mode(mode: Mode) {
    MODE.store(mode as u8, Ordering::SeqCst);
}

pub fn mode() -> Mode {
    match MODE.load(Ordering::SeqCst) {
        0 => Mode::Required,
        2 => Mode::Off,
        _ => Mode::Auto,
    }
}

/// How the next program under test runs.
pub enum Decision {
    Sandboxed,
    Plain,
    /// `required`, and the sandbox cannot be made: why.
    Refused(String),
}

pub fn decide() -> Decision {
    if super::helper::helper().is_none() || mode() == Mode::Off {
        return Decision::Plain;
    }
    match super::client::probe() {
        Ok(()) => Decision::Sandboxed,
        Err(why) if mode() == Mode::Required => Decision::Refused(why),
        Err(_) => {
            FELL_BACK.store(true, Ordering::SeqCst);
            Decision::Plain
        }
    }
}

/// Why a program that asks for the sandbox would run without it here, or `None` when it is
/// sandboxed (or refused, when judge.toml requires the sandbox and it cannot be made).
pub fn plain_because() -> Option<String> {
    if super::helper::helper().is_none() {
        return Some("the sandbox helper is not enabled in this process".to_owned());
    }
    if mode() == Mode::Off {
        return Some("judge.toml says `sandbox = \"off\"`".to_owned());
    }
    match super::client::probe() {
        Err(why) if mode() == Mode::Auto => Some(why),
        _ => None,
    }
}

/// Whether judge.toml requires the sandbox (and this process may use it).
pub fn required() -> bool {
    super::helper::helper().is_some() && mode() == Mode::Required
}

/// judge.toml requires the sandbox and this machine cannot make it.
#[derive(Debug, thiserror::Error)]
#[error(
    "`{config}` says `sandbox = \"required\"`, but this machine cannot make the sandbox: {why} \
     (hint: `harness doctor` says what is missing; `sandbox = \"auto\"` runs without it)"
)]
pub struct Unavailable {
    config: String,
    why: String,
}

/// Checks, once and before anything runs, that a required sandbox can be made: a machine
/// without it fails the command here, not each case with a judge error.
pub fn check_required(config: &std::path::Path) -> Result<(), Unavailable> {
    if mode() != Mode::Required || super::helper::helper().is_none() {
        return Ok(());
    }
    super::client::probe().map_err(|why| Unavailable {
        config: config.display().to_string(),
        why,
    })
}

/// The one warning to print when runs fell back to the plain runner: what is missing.
pub fn fallback_warning() -> Option<String> {
    if !FELL_BACK.load(Ordering::SeqCst) {
        return None;
    }
    let why = super::client::probe().err().unwrap_or_default();
    Some(format!(
        "no sandbox on this machine ({why}): programs ran without namespaces, so they could \
         read the project and the answers through /proc, reach the network, and leave \
         processes behind with setsid; children's memory was not counted \
         (hint: `harness doctor`; judge.toml `sandbox = \"required\"` makes this an error)"
    ))
}

/// Stops the helpers and removes their cgroups; called once judging is over.
pub fn shutdown() {
    super::client::shutdown();
    super::launcher::shutdown();
}

/// What this machine supports, for `harness doctor`.
#[derive(Debug, Clone)]
pub struct Support {
    /// `Ok` when the namespaces can be made, or why not.
    pub namespaces: Result<(), String>,
    /// How a sandboxed run's memory is measured.
    pub memory: String,
}

pub fn support() -> Support {
    let namespaces = if super::helper::helper().is_none() {
        Err("the sandbox helper is not enabled in this process".to_owned())
    } else {
        super::client::probe()
    };
    let controllers = super::cgroup::Controllers::here();
    let memory = if namespaces.is_err() {
        "peak RSS of the main process (wait4) and samples of it; children not counted".to_owned()
    } else if controllers.memory {
        let mut text = "a cgroup v1 `memory` group per worker: exact peak of the whole tree \
                        (memory.max_usage_in_bytes), hard cap"
            .to_owned();
        if controllers.pids {
            text.push_str(", a `pids` limit against fork bombs");
        }
        if controllers.cpuacct {
            text.push_str(", the tree's CPU time from `cpuacct`");
        }
        text
    } else {
        format!(
            "samples of the whole tree's resident memory every 5 ms, and the largest wait4 \
             peak; {}",
            kernel_memory_bounds()
        )
    };
    Support { namespaces, memory }
}

/// What bounds a sandboxed run's kernel memory where no cgroup measures it (without root):
/// `harness doctor`'s account.
fn kernel_memory_bounds() -> String {
    use crate::units::format_bytes;
    format!(
        "no memory cgroup, so the kernel's memory outside the tree's address space is bounded, \
         not measured: each socket counts as {} (its buffers at most, as the filter keeps \
         them), {} descriptors per process, pipes of at most {} ({} of pipes per process, \
         not counted); no memfd, System V IPC or `vmsplice` (the seccomp filter; a language \
         with `sandbox = \"no-syscall-filter\"` has them)",
        format_bytes(super::client::socket_charge()),
        super::client::PROGRAM_FILES,
        format_bytes(super::filter::PIPE_SIZE),
        format_bytes(super::client::PROGRAM_FILES / 2 * super::filter::PIPE_SIZE),
    )
}

/// The line a run's header shows where its programs are sandboxed without a memory cgroup
/// (without root): what their memory figure counts of the kernel's, and what not. `None` where
/// a cgroup charges it all, or where programs are not sandboxed (the fallback warning says
/// more then).
pub fn memory_note() -> Option<String> {
    if super::helper::helper().is_none() || mode() == Mode::Off || super::cgroup::available() {
        return None;
    }
    super::client::probe().ok()?;
    Some(format!(
        "memory without a cgroup: each socket counts as {}; pipes (at most {} a process) and \
         the kernel's other memory are not counted (`harness doctor` says more)",
        crate::units::format_bytes(super::client::socket_charge()),
        crate::units::format_bytes(super::client::PROGRAM_FILES / 2 * super::filter::PIPE_SIZE),
    ))
}
