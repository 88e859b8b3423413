//! Ctrl-C and kill: a judged program runs in its own process group, so the terminal's SIGINT
//! never reaches it. When the harness is interrupted, it kills every running group itself,
//! lets each run clean up its scratch folder, and stops judging.
//!
//! A task of `harness serve` is stopped the same way, alone: the thread that judges it (and
//! the workers it starts) carry its [`Task`], so "interrupted" is asked of that task too, and
//! cancelling it kills only the programs it started.

use std::cell::RefCell;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Process groups running now. A fixed table, because the signal handler may neither lock
/// nor allocate; more runs at once than slots is not a case the harness creates (`-j` is
/// small), and a run that finds no slot is merely not killed early.
const SLOTS: usize = 256;
static RUNNING: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler for SIGINT, SIGTERM and SIGHUP. A second signal of the same kind
/// ends the harness at once (the handler resets itself), for when cleaning up hangs.
pub fn install() {
    use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
    let action = SigAction::new(
        SigHandler::Handler(on_signal),
        SaFlags::SA_RESETHAND | SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        // SAFETY: the handler only touches atomics and calls kill(2), which is
        // async-signal-safe.
        let _ = unsafe { sigaction(signal, &action) };
    }
}

extern "C" fn on_signal(_signal: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
    for slot in &RUNNING {
        let group = slot.load(Ordering::SeqCst);
        if group > 0 {
            kill_group(group);
        }
    }
}

/// SIGKILL to the whole group. killpg(2) is async-signal-safe, and nix's wrapper neither
/// allocates nor locks, so the signal handler may call it.
fn kill_group(group: i32) {
    use nix::sys::signal::{killpg, Signal};
    // ESRCH: the group ended meanwhile, which is fine.
    let _ = killpg(nix::unistd::Pid::from_raw(group), Signal::SIGKILL);
}

/// Whether the harness was asked to stop, or the task this thread judges was cancelled:
/// judging loops check it before each case.
pub fn is_interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
        || TASK.with(|task| task.borrow().as_ref().is_some_and(|t| t.is_cancelled()))
}

/// How one running program of a task is killed when the task is cancelled.
enum Stopper {
    /// A plain run's process group.
    Group(i32),
    /// A sandboxed run's program (its own descriptor, so it can never name another process);
    /// the sandbox's init ends the rest of the run when it dies.
    Pidfd(OwnedFd),
}

impl Stopper {
    fn stop(&self) {
        match self {
            Stopper::Group(group) => kill_group(*group),
            #[cfg(target_os = "linux")]
            Stopper::Pidfd(pidfd) => super::sys::pidfd_kill(pidfd.as_raw_fd()),
            #[cfg(not(target_os = "linux"))]
            Stopper::Pidfd(_) => {}
        }
    }
}

/// One task of `harness serve`: cancelled on request (or when its client goes), which stops
/// its judging loops and kills the programs it runs now, and no other task's.
#[derive(Default)]
pub struct Task {
    cancelled: AtomicBool,
    /// Its programs running now, by the number of their registration.
    running: Mutex<Vec<(u64, Stopper)>>,
}

impl Task {
    pub fn new() -> Arc<Task> {
        Arc::new(Task::default())
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// Stops the task: its loops end before their next case, and what it runs now is killed.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        let running = self
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (_, stopper) in running.iter() {
            stopper.stop();
        }
    }

    /// Remembers `stopper` until the returned number is given to [`Task::forget`]; a task
    /// already cancelled stops it at once (a run that started in the race still ends).
    fn remember(&self, stopper: Stopper) -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut running = self
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.is_cancelled() {
            stopper.stop();
        }
        running.push((number, stopper));
        number
    }

    fn forget(&self, number: u64) {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .retain(|(n, _)| *n != number);
    }
}

thread_local! {
    /// The task this thread judges, if it judges one for `harness serve`.
    static TASK: RefCell<Option<Arc<Task>>> = const { RefCell::new(None) };
}

/// The task this thread judges, to hand to the workers it starts ([`in_task`]).
pub fn current_task() -> Option<Arc<Task>> {
    TASK.with(|task| task.borrow().clone())
}

/// Runs `work` on this thread as part of `task` (none: of no task).
pub fn in_task<T>(task: Option<Arc<Task>>, work: impl FnOnce() -> T) -> T {
    let before = TASK.with(|slot| slot.replace(task));
    /// Puts the thread's task back even when `work` unwinds.
    struct Restore(Option<Arc<Task>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            TASK.with(|slot| *slot.borrow_mut() = before);
        }
    }
    let _restore = Restore(before);
    work()
}

/// A running process group, killed by the handler (and by its task's cancel) until this
/// guard is dropped.
pub struct Registered {
    slot: Option<usize>,
    task: Option<(Arc<Task>, u64)>,
}

/// Remembers `group` as running, for Ctrl-C and for the cancel of this thread's task. If the
/// harness was interrupted meanwhile, the group is killed at once, so a run that started in
/// the race still ends.
pub fn register(group: i32) -> Registered {
    let mut registered = register_for_life(group);
    registered.task = current_task().map(|task| {
        let number = task.remember(Stopper::Group(group));
        (task, number)
    });
    registered
}

/// [`register`] for Ctrl-C only: a process that serves every task (a sandbox worker), which
/// no one task's cancel may kill.
pub fn register_for_life(group: i32) -> Registered {
    let slot = RUNNING.iter().position(|slot| {
        slot.compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    if INTERRUPTED.load(Ordering::SeqCst) {
        kill_group(group);
    }
    Registered { slot, task: None }
}

/// Remembers a sandboxed run's program, by its pidfd, for the cancel of this thread's task
/// (Ctrl-C kills the sandbox's worker, and so the run, already).
pub fn register_pidfd(pidfd: BorrowedFd<'_>) -> Registered {
    let task = current_task().and_then(|task| {
        let copy = pidfd.try_clone_to_owned().ok()?;
        let number = task.remember(Stopper::Pidfd(copy));
        Some((task, number))
    });
    Registered { slot: None, task }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            RUNNING[slot].store(0, Ordering::SeqCst);
        }
        if let Some((task, number)) = self.task.take() {
            task.forget(number);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_taken_and_given_back() {
        let first = register(i32::MAX - 1);
        let second = register(i32::MAX - 2);
        assert_ne!(first.slot, second.slot);
        let taken = first.slot.unwrap();
        drop(first);
        assert_eq!(RUNNING[taken].load(Ordering::SeqCst), 0);
        drop(second);
    }

    #[test]
    fn a_cancelled_task_interrupts_its_own_threads_only() {
        let task = Task::new();
        let other = Task::new();
        task.cancel();
        assert!(in_task(Some(task.clone()), is_interrupted));
        assert!(!in_task(Some(other), is_interrupted));
        assert!(!is_interrupted(), "the thread's task is put back");
        let inner = in_task(Some(task), || {
            let worker = current_task();
            std::thread::spawn(move || in_task(worker, is_interrupted))
                .join()
                .unwrap()
        });
        assert!(inner, "a worker handed the task sees its cancel");
    }

    #[test]
    fn a_cancel_kills_the_groups_its_task_registered() {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sleep")
            .arg("600")
            .process_group(0)
            .spawn()
            .unwrap();
        let task = Task::new();
        let registered = in_task(Some(task.clone()), || register(child.id() as i32));
        assert_eq!(task.running.lock().unwrap().len(), 1);
        task.cancel();
        let status = child.wait().unwrap();
        assert!(!status.success(), "killed: {status:?}");
        drop(registered);
        assert!(task.running.lock().unwrap().is_empty());
    }
}
