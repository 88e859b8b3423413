//! The system calls a sandboxed program is refused (seccomp), built with `seccompiler`:
//! kernel surface no contest program needs, each answered with an error the program sees
//! (`EPERM`) rather than a kill, so that a runtime that probes for a feature falls back.
//!
//! - io_uring (`io_uring_setup`, `_enter`, `_register`): a large, often-patched interface
//!   (libuv and others fall back to threads);
//! - mounts, old and new API (`mount`, `umount2`, `pivot_root`, `fsopen`, `fsconfig`,
//!   `fsmount`, `fspick`, `move_mount`, `open_tree`, `mount_setattr`);
//! - new namespaces: `unshare` and `clone` with a `CLONE_NEW*` flag, `setns`; `clone3`, whose
//!   flags sit in memory a filter cannot read, says `ENOSYS`, so glibc falls back to `clone`;
//! - keys (`keyctl`, `add_key`, `request_key`), `ptrace`, `bpf`, `perf_event_open`.
//!
//! The filters are checked against the architecture they were built for: a system call made
//! through another ABI (a 32-bit `int 0x80` on x86-64) kills the program, and x32 numbers of
//! the refused calls are refused too.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The namespace flags of `clone` and `unshare` (`CLONE_NEWTIME` only in `unshare`: in
/// `clone` that bit is part of the exit signal).
const NAMESPACE_FLAGS: [u64; 7] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
];
const CLONE_NEWTIME: u64 = 0x80;

/// Refused whatever their arguments.
const REFUSED: [libc::c_long; 19] = [
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_mount_setattr,
    libc::SYS_setns,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
];

/// The x32 ABI's numbers on x86-64: the 64-bit number with this bit set, except for the calls
/// x32 gives numbers of their own (`ptrace` is 521).
#[cfg(target_arch = "x86_64")]
const X32: i64 = 0x4000_0000;

/// The filters to install, in order: everything but `clone3` refused with `EPERM`, then
/// `clone3` answered `ENOSYS`. Two filters because one answers every match alike; the kernel
/// runs both and takes the error of the one that matched. `None` on an architecture
/// seccompiler does not build for.
pub(crate) fn programs() -> Result<Vec<BpfProgram>, String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| e.to_string())?;
    let error = |e: seccompiler::BackendError| e.to_string();
    let always = |numbers: &mut BTreeMap<i64, Vec<SeccompRule>>, number: i64| {
        numbers.insert(number, Vec::new());
        #[cfg(target_arch = "x86_64")]
        numbers.insert(number | X32, Vec::new());
    };
    let any_flag = |flags: &[u64]| -> Result<Vec<SeccompRule>, String> {
        flags
            .iter()
            .map(|&flag| {
                let set = SeccompCondition::new(
                    0,
                    SeccompCmpArgLen::Qword,
                    SeccompCmpOp::MaskedEq(flag),
                    flag,
                )
                .map_err(error)?;
                SeccompRule::new(vec![set]).map_err(error)
            })
            .collect()
    };

    let mut refused = BTreeMap::new();
    for number in REFUSED.into_iter().chain([libc::SYS_ptrace]) {
        always(&mut refused, number);
    }
    #[cfg(target_arch = "x86_64")]
    {
        refused.remove(&(libc::SYS_ptrace | X32));
        refused.insert(X32 + 521, Vec::new());
    }
    let mut unshare_flags = NAMESPACE_FLAGS.to_vec();
    unshare_flags.push(CLONE_NEWTIME);
    for (number, flags) in [
        (libc::SYS_clone, NAMESPACE_FLAGS.to_vec()),
        (libc::SYS_unshare, unshare_flags),
    ] {
        refused.insert(number, any_flag(&flags)?);
        #[cfg(target_arch = "x86_64")]
        refused.insert(number | X32, any_flag(&flags)?);
    }
    let refused = SeccompFilter::new(
        refused,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(error)?;

    let mut clone3 = BTreeMap::new();
    always(&mut clone3, libc::SYS_clone3);
    let clone3 = SeccompFilter::new(
        clone3,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )
    .map_err(error)?;

    [refused, clone3]
        .into_iter()
        .map(|filter| BpfProgram::try_from(filter).map_err(error))
        .collect()
}

/// The audit architecture of the system calls the filters are built for.
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: Option<u32> = Some(0xC000_003E);
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: Option<u32> = Some(0xC000_00B7);
#[cfg(target_arch = "riscv64")]
const AUDIT_ARCH: Option<u32> = Some(0xC000_00F3);
#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "riscv64"
)))]
const AUDIT_ARCH: Option<u32> = None;

/// A filter that lets every system call through but holds `exit_group` (of this
/// architecture's ABI) for a listener, which reads the exiting process's memory while its
/// address space is still there and lets it go on (the init's, see `init`): the one moment
/// the program's own high-water mark can be read, since `ru_maxrss` also holds the address
/// space the program was exec'd from. Nothing is refused. `None` on an architecture not
/// listed here.
pub(crate) fn exit_listener() -> Option<BpfProgram> {
    use seccompiler::sock_filter;
    const LOAD_WORD: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JUMP_IF_EQUAL: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const RETURN: u16 = 0x06; // BPF_RET | BPF_K
    const ARCH_AT: u32 = 4; // seccomp_data.arch
    const NR_AT: u32 = 0; // seccomp_data.nr
    let arch = AUDIT_ARCH?;
    let exit_group = u32::try_from(libc::SYS_exit_group).ok()?;
    let op = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    Some(vec![
        op(LOAD_WORD, 0, 0, ARCH_AT),
        op(JUMP_IF_EQUAL, 0, 3, arch),
        op(LOAD_WORD, 0, 0, NR_AT),
        op(JUMP_IF_EQUAL, 0, 1, exit_group),
        op(RETURN, 0, 0, libc::SECCOMP_RET_USER_NOTIF),
        op(RETURN, 0, 0, libc::SECCOMP_RET_ALLOW),
    ])
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_exit_listener_holds_exit_group_only() {
        let Some(program) = super::exit_listener() else {
            return;
        };
        // The two jumps land on the notification (exit_group) and the allow (anything else,
        // or another ABI).
        assert_eq!(program.len(), 6);
        assert_eq!(program[1].jf as usize + 2, 5);
        assert_eq!(program[3].jt as usize + 4, 4);
        assert_eq!(program[3].jf as usize + 4, 5);
        assert_eq!(program[4].k, libc::SECCOMP_RET_USER_NOTIF);
        assert_eq!(program[5].k, libc::SECCOMP_RET_ALLOW);
    }

    #[test]
    fn the_filters_build_here() {
        let programs = super::programs().unwrap();
        assert_eq!(programs.len(), 2);
        assert!(programs.iter().all(|program| !program.is_empty()));
    }
}
