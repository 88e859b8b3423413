//! Per-worker cgroups for sandboxed runs (cgroup v1 `memory` and `pids`, writable by root on
//! machines like this one): the exact peak memory of a run's whole process tree, a hard cap
//! that turns fork-and-allocate tricks into MLE, and a process count against fork bombs.
//! Folders are named `harness/<judge pid>-<n>`; ones left by a killed judge are removed by the
//! next one.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

const MEMORY_ROOT: &str = "/sys/fs/cgroup/memory";
const PIDS_ROOT: &str = "/sys/fs/cgroup/pids";
const PARENT: &str = "harness";
/// Tasks (processes and threads) one run may have at once.
pub(crate) const TASK_LIMIT: u32 = 512;

/// One worker's pair of cgroups, removed on drop.
#[derive(Debug)]
pub(crate) struct WorkerCgroup {
    pub memory: PathBuf,
    pub pids: Option<PathBuf>,
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
        // Charges of this group's tasks count in its peak; no moving of old charges.
        let pids = Some(Path::new(PIDS_ROOT))
            .filter(|root| is_writable_v1(root))
            .map(|root| root.join(PARENT).join(&name))
            .filter(|pids| {
                fs::create_dir_all(pids).is_ok()
                    && fs::write(pids.join("pids.max"), TASK_LIMIT.to_string()).is_ok()
            });
        Some(WorkerCgroup { memory, pids })
    }
}

impl Drop for WorkerCgroup {
    fn drop(&mut self) {
        remove(&self.memory);
        if let Some(pids) = &self.pids {
            remove(pids);
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
    for root in [MEMORY_ROOT, PIDS_ROOT] {
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
