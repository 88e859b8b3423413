//! The plain runner: starts a program as the judge's child (through the `launcher` where there
//! is one) and watches it with poll, pidfd, wait4 and /proc. Its parts shared with the
//! sandboxed ways to run (rlimits, the process group, the pipes) are in `process`.
//!
//! One thread watches one run: `poll()` waits on the stdout pipe, the stderr pipe and a pidfd
//! (or short ticks of `waitid(WNOHANG)` where pidfds are missing), waking early only to sample
//! the program's resident memory and to enforce the wall clock. No thread is spawned per run,
//! so the cost of a tiny case stays close to the cost of a bare spawn.
//!
//! Limits of this design: a process that leaves the group (`setsid`, `setpgid`) escapes the
//! group kill, and with `Scope::Process` the memory watch sees the main process only (wait4
//! still folds in the children it waited for). Containing those takes cgroups or a PID
//! namespace.
//!
//! How a process is started is one function, [`start`]: everything after it (the watch, the
//! kill, the reaping) needs only a pid and the read ends of its pipes, so a start that goes
//! through a helper process inside namespaces can take its place.

use std::fs::{self, File};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::{Duration, Instant};

use nix::sys::resource::setrlimit;

use super::outcome::{Capture, LimitHit, Supervised};
use super::process::{
    cpu_backstop, has_exited, max_rss_bytes, page_size, pidfd_open, rlimit_plan, set_nonblocking,
    termination, timeval, Group, Start, Started, Streams, EXIT_TICK, READ_CHUNK,
};
use super::request::{Limits, Scope};
use crate::sandbox::watch::{self, Plan, Probe, Sample, Sampling, Schedstat, Watch};

/// How the runner learns that the main process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitWatch {
    /// A pidfd in the poll set (Linux ≥ 5.3), falling back to `Polling` when it cannot open one.
    Pidfd,
    /// `waitid(WNOHANG | WNOWAIT)` every few milliseconds.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "chosen by tests; runs pick it when pidfd_open fails"
        )
    )]
    Polling,
}

/// Starts a child in its own process group, under the rlimits of its limits and scope.
/// The one place a plain process is created: by the `launcher` when there is one, else by a
/// fork of this process.
pub(crate) fn start(start: Start<'_>) -> io::Result<Started> {
    // Through a small helper process where there is one: a fork of the judge costs more.
    #[cfg(target_os = "linux")]
    let start = match super::launcher::start(start) {
        Ok(started) => return started,
        Err(start) => start,
    };
    let mut command = Command::new(start.program);
    command
        .args(start.args)
        .envs(start.env.iter().map(|(name, value)| (name, value)))
        .current_dir(start.workdir)
        .stdin(start.stdin)
        .stdout(start.stdout)
        .stderr(start.stderr);
    confine(
        &mut command,
        start.limits,
        start.scope,
        start.address_space_cap,
    );
    let started = Instant::now();
    let mut child = spawn_retrying_busy_text(&mut command)?;
    let pipe = |pipe: Option<OwnedFd>| pipe.map(File::from);
    Ok(Started {
        // Child::id is the kernel's pid_t widened to u32, so it narrows back losslessly.
        pid: child.id() as libc::pid_t,
        started,
        stdout: pipe(child.stdout.take().map(OwnedFd::from)),
        stderr: pipe(child.stderr.take().map(OwnedFd::from)),
    })
    // Dropping `child` neither waits nor kills: `supervise` owns the process from here.
}

/// Spawns, trying again for a while when exec says "Text file busy": an executable written
/// by this process (a script, a fixture) is busy for as long as any child forked meanwhile
/// by another thread still holds the writing descriptor, until that child execs. The window
/// is short; waiting it out is the usual remedy (Go's os/exec does the same).
fn spawn_retrying_busy_text(command: &mut Command) -> io::Result<std::process::Child> {
    const TRIES: u32 = 50;
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(error) if error.raw_os_error() == Some(libc::ETXTBSY) && tries < TRIES => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(2));
            }
            result => return result,
        }
    }
}

/// Puts the child in its own process group and under rlimits set between fork and exec.
fn confine(command: &mut Command, limits: &Limits, scope: Scope, address_space_cap: bool) {
    let plan = rlimit_plan(limits, scope, address_space_cap);
    command.process_group(0);
    // SAFETY: between fork and exec only async-signal-safe calls are allowed; the closure
    // only calls setrlimit on values computed beforehand, and builds its error without
    // allocating.
    unsafe {
        command.pre_exec(move || {
            for &(resource, value) in plan.iter().flatten() {
                setrlimit(resource, value, value).map_err(io::Error::from)?;
            }
            Ok(())
        });
    }
}

/// The watch of a plain run: its wall bound pushed back by the time its group waited for a
/// CPU (where /proc says), and its memory sampled per scope, where /proc has it.
pub(super) fn plan(limits: &Limits, scope: Scope) -> Plan {
    let (first, every) = match scope {
        Scope::Process => (watch::FIRST_SAMPLE, watch::SAMPLE_EVERY),
        Scope::Group => (watch::GROUP_SAMPLE_EVERY, watch::GROUP_SAMPLE_EVERY),
    };
    let proc = cfg!(any(target_os = "linux", target_os = "android"));
    Plan {
        wall: Some(limits.wall_time),
        push_back: cfg!(target_os = "linux"),
        cpu_limit: limits.cpu_time,
        cpu_stop: cpu_backstop(limits.cpu_time),
        sampling: (proc && limits.memory_bytes < u64::MAX).then_some(Sampling {
            limit: limits.memory_bytes,
            first,
            every,
        }),
        counter: None,
    }
}

/// Watches the spawned child until it ends, enforcing the wall clock, memory and output
/// limits; then kills its whole group, reaps it with `wait4` and drains its pipes.
pub(crate) fn supervise(
    child: Started,
    limits: &Limits,
    scope: Scope,
    capture: &mut Capture,
    exits: ExitWatch,
) -> io::Result<Supervised> {
    let Started {
        pid,
        started,
        stdout,
        stderr,
    } = child;
    // From here on, any early return kills and reaps the group.
    let mut group = Group {
        pid,
        reaped: false,
        registered: Some(crate::sandbox::interrupt::register(pid)),
    };
    let mut streams = Streams {
        stdout,
        stderr,
        buf: Vec::with_capacity(READ_CHUNK),
    };
    for pipe in [&streams.stdout, &streams.stderr].into_iter().flatten() {
        set_nonblocking(pipe)?;
    }
    let pidfd = match exits {
        ExitWatch::Pidfd => pidfd_open(pid),
        ExitWatch::Polling => None,
    };
    let mut watch = Watch::new(plan(limits, scope), started);
    let mut probe = GroupProbe::new(pid, scope);

    let exited_at = loop {
        let now = Instant::now();
        if watch.look(now, &mut probe).is_some() {
            group.kill();
        }
        if pidfd.is_none() && has_exited(pid)? {
            break now;
        }
        let mut wake = watch.wake(now);
        if pidfd.is_none() {
            wake = Some(wake.map_or(now + EXIT_TICK, |wake| wake.min(now + EXIT_TICK)));
        }
        let ready = streams.poll(pidfd.as_ref(), wake)?;
        if streams.service(ready, capture)? && watch.hit().is_none() {
            group.kill();
            watch.stopped(LimitHit::Output);
        }
        if ready.pidfd {
            break Instant::now();
        }
    };

    // Kill before reaping: the unreaped main process pins its pid, so the group id cannot
    // have been reused by an unrelated process.
    group.kill();
    let (status, usage) = group.reap()?;
    streams.drain(capture)?;
    let peak = max_rss_bytes(&usage).max(watch.peak());
    Ok(Supervised {
        termination: termination(status),
        limit_hit: streams.settled(watch.hit(), capture),
        cpu_time: timeval(usage.ru_utime) + timeval(usage.ru_stime),
        wall_time: exited_at.saturating_duration_since(started),
        peak_memory_bytes: peak,
        resident_peak_bytes: peak,
        scratch_bytes: 0,
        socket_bytes: 0,
        output_file: None,
    })
}

/// What the watch reads of a plain run: the main process's resident memory (statm), or the
/// whole group's, and the schedstat of the main process and its descendants.
pub(super) struct GroupProbe {
    pid: libc::pid_t,
    scope: Scope,
    /// /proc/<pid>/statm, opened at the first sample and re-read in place.
    statm: Option<File>,
}

impl GroupProbe {
    pub(super) fn new(pid: libc::pid_t, scope: Scope) -> GroupProbe {
        GroupProbe {
            pid,
            scope,
            statm: None,
        }
    }

    fn resident_bytes(&mut self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        if self.statm.is_none() {
            self.statm = File::open(format!("/proc/{}/statm", self.pid)).ok();
        }
        let mut text = [0u8; 128];
        let n = self.statm.as_ref()?.read_at(&mut text, 0).ok()?;
        // statm: size resident shared text lib data dt, in pages.
        let pages: u64 = std::str::from_utf8(&text[..n])
            .ok()?
            .split_ascii_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        Some(pages.saturating_mul(page_size()))
    }
}

impl Probe for GroupProbe {
    fn schedstat(&mut self) -> Schedstat {
        #[cfg(target_os = "linux")]
        return super::tree::schedstat_from(self.pid);
        #[cfg(not(target_os = "linux"))]
        return Schedstat::default();
    }

    fn sample(&mut self) -> Option<Sample> {
        let resident = match self.scope {
            Scope::Process => self.resident_bytes(),
            Scope::Group => group_resident_bytes(self.pid),
        }?;
        Some(Sample {
            resident,
            ..Sample::default()
        })
    }

    fn cpu_used(&mut self) -> Option<Duration> {
        None
    }
}

/// The resident memory of every process in the group `group`, summed: a compiler's driver is
/// small, the compiler proper it starts is where the memory goes. `None` once nobody is left.
fn group_resident_bytes(group: libc::pid_t) -> Option<u64> {
    let mut total: u64 = 0;
    let mut found = false;
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        // Gone in between, or not ours to read: either way not in the group any more.
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if let Some((pgrp, pages)) = parse_stat(&stat) {
            if pgrp == group {
                found = true;
                total = total.saturating_add(pages.saturating_mul(page_size()));
            }
        }
    }
    found.then_some(total)
}

/// The process group and the resident pages from a `/proc/<pid>/stat` line. The command name
/// is in parentheses and may hold spaces and parentheses itself, so fields count from the last
/// `)`: state ppid pgrp … with rss the 22nd field after it.
fn parse_stat(stat: &str) -> Option<(libc::pid_t, u64)> {
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_ascii_whitespace();
    let pgrp = fields.nth(2)?.parse().ok()?;
    let rss = fields.nth(18)?.parse().ok()?;
    Some((pgrp, rss))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_give_the_group_and_resident_pages() {
        let line = "4242 (cc1 (x) y) R 4240 4239 4239 0 -1 4194560 1 0 0 0 5 1 0 0 20 0 1 0 \
                    100 123456 789 18446744073709551615";
        assert_eq!(parse_stat(line), Some((4239, 789)));
        assert_eq!(parse_stat("12 (sh) S 1"), None);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn a_group_is_sampled_as_a_whole() {
        let own_group = nix::unistd::getpgrp().as_raw();
        assert!(group_resident_bytes(own_group).is_some_and(|bytes| bytes > 0));
        assert_eq!(group_resident_bytes(i32::MAX - 7), None);
    }
}
