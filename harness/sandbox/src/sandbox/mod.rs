//! Running programs under limits: `run` is the one way a program is started, measured and
//! killed; `pair` runs an interactive submission beside its interactor, recording the
//! `transcript`; `unix` runs a plain process (`process` holds what it shares with the
//! sandbox's side); `interrupt` kills whatever runs on Ctrl-C.
//!
//! Programs under test (solutions, submissions, stress runs, interactive and file-I/O ones)
//! run in a sandbox on Linux: user, PID, mount, network, IPC and UTS namespaces made without
//! root by a per-worker `zygote`, a read-only view of the system with nothing of the project
//! or `$HOME` (`view`), stdin as a sealed private copy (or, for an interactive submission, the
//! pipes the judge relays), and a per-worker `init` (PID 1 of the worker's PID namespace) that
//! starts each run's program (see `spawn`) and makes the whole process tree the program.
//! `policy` decides when (judge.toml's `sandbox`), `client` is the judge's side. See the
//! book's "Sandbox" chapter (docs/src/design/sandbox.md).
//!
//! Every other program (compilers, checkers, the author's tools, and programs under test when
//! the sandbox is off) is started by a `launcher`, another small helper, as the judge's own
//! child: a fork of the judge cost more than the rest of a short run. Both helpers start
//! programs with `spawn`.
//!
//! The submodules form layers; each uses only its own layer and those below it, and none
//! depends on itself through others (`harness/tests/layers.rs` checks it), bottom to top:
//!
//! - data and system calls: `request` (what to run, under which limits) and `outcome` (what a
//!   run comes back with), `mode`, `interrupt`, `transcript`, `sys`, `spawn`, `cgroup`,
//!   `beneath`, `view`, `filter`, `wire` (the helpers' protocol), `helper` (the harness
//!   binary started as one), `process` (a child's rlimits, group, pipes and wait status) and
//!   `scratch` (the folders runs work in);
//! - the watch: `watch` (when to wake next, which limit is over) and `tree` (the sandboxed
//!   tree's samples);
//! - the ways to run one program: plain, `launcher` then `unix`; sandboxed, `init`, then
//!   `zygote`, then `client` (the judge's side);
//! - `policy`: whether a run is sandboxed, from judge.toml and what this machine can do;
//! - `pair`: an interactive submission beside its interactor;
//! - the entry points: `run` (one program, dispatched to `unix` or `client`; it re-exports
//!   the data the rest of the crate uses), `collect`, and this module's re-exports.

// Data and system calls.
#[cfg(unix)]
pub mod beneath;
#[cfg(target_os = "linux")]
mod cgroup;
#[cfg(target_os = "linux")]
mod filter;
#[cfg(target_os = "linux")]
mod helper;
pub mod interrupt;
mod mode;
mod outcome;
#[cfg(unix)]
mod process;
mod request;
#[cfg(unix)]
mod scratch;
#[cfg(target_os = "linux")]
mod spawn;
#[cfg(target_os = "linux")]
mod sys;
pub mod transcript;
#[cfg(target_os = "linux")]
mod view;
#[cfg(target_os = "linux")]
mod wire;

// The watch.
#[cfg(target_os = "linux")]
mod tree;
#[cfg(unix)]
mod watch;

// The ways to run: plain, sandboxed.
#[cfg(target_os = "linux")]
mod client;
#[cfg(target_os = "linux")]
mod init;
#[cfg(target_os = "linux")]
mod launcher;
#[cfg(unix)]
mod unix;
#[cfg(target_os = "linux")]
mod zygote;

// Whether to sandbox; the interactive pair; the entry points.
pub mod collect;
#[cfg(unix)]
pub mod communication;
#[cfg(unix)]
pub mod pair;
#[cfg(target_os = "linux")]
mod policy;
pub mod run;

#[cfg(target_os = "linux")]
pub(crate) use client::{run as run_sandboxed, Failure};
pub use mode::{LanguageSandbox, Mode};
/// For benchmarks and tests that run programs in process: lets `run::run` use the
/// sandbox, with the given `harness` binary as the per-worker helper.
#[cfg(target_os = "linux")]
pub use policy::enable;
/// For the same users as [`enable`]: stops the helpers and removes their folders and cgroups
/// once the runs are over (the command line calls it before it exits).
#[cfg(target_os = "linux")]
pub use policy::shutdown;
#[cfg(target_os = "linux")]
pub use policy::{
    check_required, fallback_warning, memory_note, plain_because, required, set_mode, support,
};
#[cfg(target_os = "linux")]
pub(crate) use policy::{decide, Decision};

/// Becomes a per-worker sandbox helper or a launcher when this process was started as one (the
/// hidden first argument; then it never returns), and otherwise lets runs use both by
/// re-executing this binary. Called first thing in `cli::main`, before clap or any thread:
/// making a user namespace needs a single-threaded process.
#[cfg(target_os = "linux")]
pub fn enter_helper_if_asked() {
    let mut args = std::env::args_os().skip(1);
    match args.next() {
        Some(arg) if arg == zygote::ZYGOTE_ARG => zygote::main(args.next().as_deref()),
        Some(arg) if arg == launcher::LAUNCHER_ARG => launcher::main(args.next().as_deref()),
        _ => {}
    }
    if let Ok(exe) = std::env::current_exe() {
        policy::enable(exe);
    }
}
