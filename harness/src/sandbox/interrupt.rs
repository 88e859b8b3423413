//! Ctrl-C and kill: a judged program runs in its own process group, so the terminal's SIGINT
//! never reaches it. When the harness is interrupted, it kills every running group itself,
//! lets each run clean up its scratch folder, and stops judging.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

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

/// Whether the harness was asked to stop: judging loops check it before each case.
pub fn is_interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// A running process group, killed by the handler until this guard is dropped.
pub struct Registered {
    slot: Option<usize>,
}

/// Remembers `group` as running. If the harness was interrupted meanwhile, the group is
/// killed at once, so a run that started in the race still ends.
pub fn register(group: i32) -> Registered {
    let slot = RUNNING.iter().position(|slot| {
        slot.compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    if is_interrupted() {
        kill_group(group);
    }
    Registered { slot }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            RUNNING[slot].store(0, Ordering::SeqCst);
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
}
