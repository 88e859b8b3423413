//! The process tree under a run's init, read from the judge's /proc: how long its processes
//! waited for a CPU (schedstat's run delay, so a busy machine does not look like a program
//! that sleeps), and, where no cgroup measures them, their resident memory and CPU time.

use std::fs;
use std::time::Duration;

use super::watch::{Sample, Schedstat};

/// Most processes looked at per sample: a fork bomb must not make sampling slow.
const MAX_PROCESSES: usize = 256;

/// The descendants of `pid` (not `pid` itself), breadth first, at most [`MAX_PROCESSES`].
pub(crate) fn descendants(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let mut found = Vec::new();
    let mut next = 0;
    let mut parent = Some(pid);
    while let Some(current) = parent {
        // Children hang off the thread that forked them.
        let tasks = fs::read_dir(format!("/proc/{current}/task"))
            .into_iter()
            .flatten();
        for task in tasks.flatten() {
            let Ok(text) = fs::read_to_string(task.path().join("children")) else {
                continue;
            };
            for child in text.split_ascii_whitespace().filter_map(|p| p.parse().ok()) {
                if found.len() < MAX_PROCESSES {
                    found.push(child);
                }
            }
        }
        parent = found.get(next).copied();
        next += 1;
    }
    found
}

/// What the schedstat files of the descendants of `init` say: their CPU time summed, and the
/// longest time one of them waited for a CPU. One walk, one read per process (a fork bomb's
/// judge gets little CPU, and read them twice before).
pub(crate) fn schedstat(init: libc::pid_t) -> Schedstat {
    summed(descendants(init))
}

/// [`schedstat`] of `pid` and its descendants: a process group's leader and its tree.
pub(crate) fn schedstat_from(pid: libc::pid_t) -> Schedstat {
    summed(std::iter::once(pid).chain(descendants(pid)))
}

fn summed(processes: impl IntoIterator<Item = libc::pid_t>) -> Schedstat {
    processes
        .into_iter()
        .filter_map(|pid| fs::read_to_string(format!("/proc/{pid}/schedstat")).ok())
        .filter_map(|text| parse_schedstat(&text))
        .fold(Schedstat::default(), |total, (cpu, delay)| Schedstat {
            cpu_time: total.cpu_time + cpu,
            run_delay: total.run_delay.max(delay),
        })
}

/// How long the calling thread has waited for a CPU since it started: the judge's own wait,
/// which holds up what it relays between an interactive pair. Read at least twice a run: the
/// file stays open for the thread's life.
pub(crate) fn own_run_delay() -> Duration {
    thread_local! {
        static OWN: Option<SchedstatFile> = SchedstatFile::open("/proc/thread-self/schedstat");
    }
    OWN.with(|own| {
        own.as_ref()
            .map(SchedstatFile::run_delay)
            .unwrap_or_default()
    })
}

/// A thread's schedstat kept open: each reading starts again from the file's beginning (a
/// `pread` at 0 makes the kernel write it anew), without the path's walk and the `statx`,
/// `read`s and `close` of reading it by name. A thread that has ended reads as no wait.
pub(crate) struct SchedstatFile(fs::File);

impl SchedstatFile {
    pub(crate) fn open(path: &str) -> Option<Self> {
        fs::File::open(path).ok().map(Self)
    }

    /// The thread's schedstat file: `pid` is one thread, such as one of a run's init.
    pub(crate) fn of(pid: libc::pid_t) -> Option<Self> {
        Self::open(&format!("/proc/{pid}/schedstat"))
    }

    pub(crate) fn run_delay(&self) -> Duration {
        let mut buf = [0u8; 96];
        super::sys::read_small(&self.0, &mut buf)
            .ok()
            .and_then(|n| parse_schedstat(std::str::from_utf8(&buf[..n]).ok()?))
            .map(|(_, delay)| delay)
            .unwrap_or_default()
    }
}

/// The threads of process `pid` (their ids here), in no order; none when it is gone.
pub(crate) fn threads(pid: libc::pid_t) -> Vec<libc::pid_t> {
    fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// How long `pid` (one thread: a thread of a run's init) has waited for a CPU since it
/// started.
pub(crate) fn run_delay(pid: libc::pid_t) -> Duration {
    SchedstatFile::of(pid)
        .map(|file| file.run_delay())
        .unwrap_or_default()
}

/// The first two fields of /proc/<pid>/schedstat: time on a CPU, time waiting for one.
fn parse_schedstat(text: &str) -> Option<(Duration, Duration)> {
    let mut fields = text.split_ascii_whitespace().map(str::parse::<u64>);
    let cpu = fields.next()?.ok()?;
    let delay = fields.next()?.ok()?;
    Some((Duration::from_nanos(cpu), Duration::from_nanos(delay)))
}

/// The tree's resident memory, and its CPU time when it has more than one process (one
/// process is held by its own RLIMIT_CPU).
pub(crate) fn sample(init: libc::pid_t, page_size: u64) -> Sample {
    let processes = descendants(init);
    let cpu_time = (processes.len() > 1).then(|| {
        processes
            .iter()
            .filter_map(|pid| fs::read_to_string(format!("/proc/{pid}/schedstat")).ok())
            .filter_map(|text| parse_schedstat(&text))
            .map(|(cpu, _)| cpu)
            .sum()
    });
    Sample {
        resident: resident(&processes, page_size),
        cpu_time,
        ..Sample::default()
    }
}

/// The resident memory of `processes` (statm's second field, in pages), summed, in bytes.
fn resident(processes: &[libc::pid_t], page_size: u64) -> u64 {
    processes
        .iter()
        .filter_map(|pid| fs::read_to_string(format!("/proc/{pid}/statm")).ok())
        .filter_map(|text| text.split_ascii_whitespace().nth(1)?.parse::<u64>().ok())
        .map(|pages| pages.saturating_mul(page_size))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_and_run_delay_are_the_first_two_fields() {
        let ns = Duration::from_nanos;
        let table = [
            ("123 456 7\n", Some((ns(123), ns(456)))),
            ("0 0 0", Some((Duration::ZERO, Duration::ZERO))),
            ("123", None),
            ("123 x 7", None),
            ("a b c", None),
            ("", None),
        ];
        for (text, expected) in table {
            assert_eq!(parse_schedstat(text), expected, "{text:?}");
        }
    }

    #[test]
    fn a_second_threads_run_delay_is_read_by_its_id() {
        // This test's thread and one more that spins for a while: both listed, each one's
        // schedstat readable by its id as the init's are.
        let (tid_sender, tid) = std::sync::mpsc::channel();
        let spinner = std::thread::spawn(move || {
            // SAFETY: gettid has no arguments and cannot fail.
            tid_sender.send(unsafe { libc::gettid() }).unwrap();
            let started = std::time::Instant::now();
            while started.elapsed() < Duration::from_millis(50) {}
        });
        let tid = tid.recv().unwrap();
        let pid = std::process::id() as libc::pid_t;
        let listed = threads(pid);
        assert!(listed.contains(&pid) && listed.contains(&tid), "{listed:?}");
        assert!(fs::read_to_string(format!("/proc/{tid}/schedstat")).is_ok());
        spinner.join().unwrap();
        assert!(threads(-1).is_empty());
    }

    #[test]
    fn a_kept_open_schedstat_is_read_anew_each_time() {
        // The file is opened once; a pread at 0 must give the thread's figures as they are
        // now, not the first reading again: its CPU time grows while it spins.
        let cpu = |file: &SchedstatFile| {
            let mut buf = [0u8; 96];
            let n = crate::sandbox::sys::read_small(&file.0, &mut buf).unwrap();
            parse_schedstat(std::str::from_utf8(&buf[..n]).unwrap())
                .unwrap()
                .0
        };
        let file = SchedstatFile::open("/proc/thread-self/schedstat").unwrap();
        let before = cpu(&file);
        let started = std::time::Instant::now();
        while started.elapsed() < Duration::from_millis(30) {}
        assert!(cpu(&file) > before);
        // A thread that is gone reads as no wait, not as an error.
        let gone = std::thread::spawn(|| {
            // SAFETY: gettid has no arguments and cannot fail.
            SchedstatFile::of(unsafe { libc::gettid() }).unwrap()
        })
        .join()
        .unwrap();
        assert_eq!(gone.run_delay(), Duration::ZERO);
    }

    #[test]
    fn a_tree_of_two_spinners_has_their_cpu_time_summed() {
        // A shell with two busy children: more than one process, so its CPU time is read.
        let mut shell = std::process::Command::new("sh")
            .args(["-c", "(while :; do :; done) & (while :; do :; done) & wait"])
            .spawn()
            .unwrap();
        let pid = shell.id() as libc::pid_t;
        let mut sample = Sample::default();
        for _ in 0..200 {
            std::thread::sleep(std::time::Duration::from_millis(10));
            sample = super::sample(pid, 4096);
            if sample
                .cpu_time
                .is_some_and(|cpu| cpu >= Duration::from_millis(100))
            {
                break;
            }
        }
        for child in descendants(pid) {
            // SAFETY: kill with a pid found just now under our own child, which is unreaped.
            unsafe { libc::kill(child, libc::SIGKILL) };
        }
        shell.kill().unwrap();
        shell.wait().unwrap();
        assert!(sample.resident > 0, "{sample:?}");
        assert!(
            sample
                .cpu_time
                .is_some_and(|cpu| cpu >= Duration::from_millis(100)),
            "{sample:?}"
        );
    }

    #[test]
    fn this_process_has_children_to_find() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let me = std::process::id() as libc::pid_t;
        let found = descendants(me);
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(found.contains(&(child.id() as libc::pid_t)), "{found:?}");
    }
}
