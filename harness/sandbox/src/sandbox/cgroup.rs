//! Per-worker cgroups for sandboxed runs (cgroup v1 `memory`, `pids` and `cpuacct`, writable
//! by root on machines like this one): the exact peak memory of a run's whole process tree, a
//! hard cap that turns fork-and-allocate tricks into MLE, a process count against fork bombs,
//! and the tree's CPU time in one counter, which the judge reads to stop a tree of many
//! processes (a fork bomb with a 1 s limit took 7 to 16 s to be stopped when the judge summed
//! /proc for it, as one runnable task among hundreds).
//!
//! No `cpu` group: one per worker made the tree weigh as one task and stopped a fork bomb
//! 0.4 s sooner, but cost 2 to 4% of every sandboxed run's throughput (a migration per run and
//! group scheduling), and a judge that sleeps until it reads one counter gets its CPU anyway.
//! Folders are named `harness/<judge pid>-<n>`; ones left by a killed judge are removed by the
//! next one.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

const MEMORY_ROOT: &str = "/sys/fs/cgroup/memory";
const PIDS_ROOT: &str = "/sys/fs/cgroup/pids";
const CPUACCT_ROOT: &str = "/sys/fs/cgroup/cpuacct";
const PARENT: &str = "harness";
/// Tasks (processes and threads) one run may have at once.
///
/// Far above what contest programs start (a JVM on 64 cores, about 100 threads), and low
/// enough that a fork bomb held at it stays well under usual memory limits: each task is
/// charged its kernel memory (about 0.2 to 0.5 MiB on the machines measured), and a bomb
/// held at 512 reached a 256 MiB limit on one of them.
pub(crate) const TASK_LIMIT: u32 = 256;

/// One worker's cgroups, removed on drop.
#[derive(Debug)]
pub(crate) struct WorkerCgroup {
    pub memory: PathBuf,
    /// Groups the program only joins (the init reads nothing of them): `pids` and `cpuacct`,
    /// each where this machine lets the judge make it.
    pub joined: Vec<PathBuf>,
    /// The `cpuacct` group's `cpuacct.usage`: CPU time of every task that was ever in the
    /// group, exited ones included, in nanoseconds.
    cpu_usage: Option<fs::File>,
}

/// The controllers a worker's runs are held by here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Controllers {
    pub memory: bool,
    pub pids: bool,
    pub cpuacct: bool,
}

impl Controllers {
    pub(crate) fn here() -> Controllers {
        let memory = available();
        Controllers {
            memory,
            pids: memory && is_writable_v1(Path::new(PIDS_ROOT)),
            cpuacct: memory && is_writable_v1(Path::new(CPUACCT_ROOT)),
        }
    }
}

/// Whether this process can make memory cgroups (v1, as root).
pub(crate) fn available() -> bool {
    is_writable_v1(Path::new(MEMORY_ROOT))
}

fn is_writable_v1(root: &Path) -> bool {
    root.join("tasks").is_file()
        && nix::unistd::access(root, nix::unistd::AccessFlags::W_OK).is_ok()
}

impl WorkerCgroup {
    /// Makes the `n`-th worker's cgroups; `None` where cgroups cannot be made here.
    pub(crate) fn create(n: usize) -> Option<WorkerCgroup> {
        if !available() {
            return None;
        }
        let name = format!("{}-{n}", std::process::id());
        let memory = Path::new(MEMORY_ROOT).join(PARENT).join(&name);
        fs::create_dir_all(&memory).ok()?;
        let pids = joined(PIDS_ROOT, &name, |pids| {
            fs::write(pids.join("pids.max"), TASK_LIMIT.to_string())
        });
        let cpuacct = joined(CPUACCT_ROOT, &name, |_| Ok(()));
        let cpu_usage = cpuacct
            .as_ref()
            .and_then(|group| fs::File::open(group.join("cpuacct.usage")).ok());
        Some(WorkerCgroup {
            memory,
            joined: pids.into_iter().chain(cpuacct).collect(),
            cpu_usage,
        })
    }

    /// The CPU time the worker's runs have used so far, all processes of each run's tree
    /// together: one read of a counter, however many processes there are.
    pub(crate) fn cpu_used(&self) -> Option<Duration> {
        let mut buf = [0u8; 32];
        let n = super::sys::read_small(self.cpu_usage.as_ref()?, &mut buf).ok()?;
        let nanos = std::str::from_utf8(&buf[..n]).ok()?.trim().parse().ok()?;
        Some(Duration::from_nanos(nanos))
    }
}

/// Makes the worker's group `name` under `root` and sets it up; `None` where either fails.
fn joined(root: &str, name: &str, set_up: impl Fn(&Path) -> io::Result<()>) -> Option<PathBuf> {
    let root = Path::new(root);
    if !is_writable_v1(root) {
        return None;
    }
    let group = root.join(PARENT).join(name);
    if fs::create_dir_all(&group).is_ok() && set_up(&group).is_ok() {
        Some(group)
    } else {
        remove(&group);
        None
    }
}

impl Drop for WorkerCgroup {
    fn drop(&mut self) {
        remove(&self.memory);
        for group in &self.joined {
            remove(group);
        }
    }
}

/// rmdir, retried briefly: the last task of a killed run may take a moment to leave.
fn remove(dir: &Path) {
    for _ in 0..20 {
        match fs::remove_dir(dir) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            _ => return,
        }
    }
}

/// Removes cgroups left by judges that no longer run.
pub(crate) fn remove_stale() {
    for root in [MEMORY_ROOT, PIDS_ROOT, CPUACCT_ROOT] {
        let Ok(entries) = fs::read_dir(Path::new(root).join(PARENT)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(owner) = name.to_str().and_then(owner_pid) else {
                continue;
            };
            if !Path::new(&format!("/proc/{owner}")).exists() {
                let _ = fs::remove_dir(entry.path());
            }
        }
    }
}

/// The judge's pid in a folder name `<pid>-<n>`.
fn owner_pid(name: &str) -> Option<u32> {
    let (pid, n) = name.split_once('-')?;
    n.parse::<usize>().ok()?;
    pid.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_name_their_judge() {
        let table = [
            ("123-0", Some(123)),
            ("9-17", Some(9)),
            ("123", None),
            ("abc-1", None),
            ("12-x", None),
            ("", None),
        ];
        for (name, expected) in table {
            assert_eq!(owner_pid(name), expected, "{name}");
        }
    }
}
