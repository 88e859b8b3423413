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
//! - keys (`keyctl`, `add_key`, `request_key`), `ptrace`, `bpf`, `perf_event_open`;
//! - sockets of a family that no namespace of the sandbox isolates ([`SOCKET_FAMILIES`] is
//!   what `socket` and `socketpair` take): AF_VSOCK's ports are the machine's, a channel past
//!   the network namespace to the hypervisor and other VMs, and a family a newer kernel adds
//!   is refused until it is known to be isolated;
//! - memory the kernel holds for a program outside its address space that only a memory
//!   cgroup would count (without root there is none, and `client` counts each socket at the
//!   most its default buffers hold): socket buffers above the default (`setsockopt` of
//!   `SO_SNDBUF`, `SO_RCVBUF` and their `FORCE` forms), pipes above 64 KiB (`fcntl`
//!   `F_SETPIPE_SZ`), user pages held by a pipe (`vmsplice`: 4 KiB of a huge page in a pipe
//!   hold all 2 MiB of it once unmapped), files outside the run's folder (`memfd_create`,
//!   `memfd_secret`: each up to the 1 GiB file-size limit, uncounted), and System V IPC and
//!   POSIX message queues (`shmget`, `semget`, `msgget`, `mq_open`), which also outlive the
//!   run in the worker's IPC namespace: a segment one run wrote, the next read.
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
const REFUSED: [libc::c_long; 27] = [
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
    libc::SYS_ptrace,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_vmsplice,
    libc::SYS_memfd_create,
    libc::SYS_memfd_secret,
    // Without an id or a name from these, the rest of each interface has nothing to act on.
    libc::SYS_shmget,
    libc::SYS_semget,
    libc::SYS_msgget,
    libc::SYS_mq_open,
];

/// The socket families `socket` and `socketpair` take: those the sandbox's network namespace
/// isolates. AF_UNIX: abstract names are the namespace's, and paths lie in the run's view;
/// AF_INET and AF_INET6: the namespace has only a loopback, down; AF_NETLINK with
/// NETLINK_ROUTE only (the namespace's own links and addresses, which glibc's `getaddrinfo`
/// and `getifaddrs` and Go's and the JVM's network code read): other netlink protocols reach
/// past it (uevents, audit, the crypto API). Every other family is refused, a new one too.
const SOCKET_FAMILIES: [u64; 4] = [
    libc::AF_UNIX as u64,
    libc::AF_INET as u64,
    libc::AF_INET6 as u64,
    libc::AF_NETLINK as u64,
];
const NETLINK_ROUTE: u64 = 0;

/// The largest pipe a program may ask for (`fcntl` `F_SETPIPE_SZ`): the default, 16 pages.
pub(crate) const PIPE_SIZE: u64 = 64 << 10;

/// The socket options that set a buffer's size (`SO_SNDBUF`, `SO_RCVBUF` and their `FORCE`
/// forms, which need a capability the program lacks anyway).
const BUFFER_OPTIONS: [u64; 4] = [
    libc::SO_SNDBUF as u64,
    libc::SO_RCVBUF as u64,
    SO_SNDBUFFORCE,
    SO_RCVBUFFORCE,
];
const SO_SNDBUFFORCE: u64 = 32;
const SO_RCVBUFFORCE: u64 = 33;

/// The x32 ABI's numbers on x86-64: the 64-bit number with this bit set, except for the calls
/// x32 gives numbers of their own (see [`x32`]).
#[cfg(target_arch = "x86_64")]
const X32: i64 = 0x4000_0000;

/// The x32 number of the call whose 64-bit number is `number`.
#[cfg(target_arch = "x86_64")]
fn x32(number: i64) -> i64 {
    const OWN: [(libc::c_long, i64); 3] = [
        (libc::SYS_ptrace, 521),
        (libc::SYS_vmsplice, 532),
        (libc::SYS_setsockopt, 541),
    ];
    let own = OWN.iter().find(|(call, _)| *call == number);
    X32 + own.map_or(number, |&(_, x32)| x32)
}

/// Refuses the call `number` (and its x32 twin) when one of `rules` holds; always when there
/// are none.
fn refuse(refused: &mut BTreeMap<i64, Vec<SeccompRule>>, number: i64, rules: Vec<SeccompRule>) {
    #[cfg(target_arch = "x86_64")]
    refused.insert(x32(number), rules.clone());
    refused.insert(number, rules);
}

/// The filters to install, in order: everything but `clone3` refused with `EPERM`, then
/// `clone3` answered `ENOSYS`. Two filters because one answers every match alike; the kernel
/// runs both and takes the error of the one that matched. `None` on an architecture
/// seccompiler does not build for.
pub(crate) fn programs() -> Result<Vec<BpfProgram>, String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| e.to_string())?;
    let error = |e: seccompiler::BackendError| e.to_string();
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
    // The arguments compared below are `int`s (a pipe's size an `unsigned int`): their low
    // 32 bits are what the kernel reads.
    let arg = |index: u8, op: SeccompCmpOp, value: u64| {
        SeccompCondition::new(index, SeccompCmpArgLen::Dword, op, value).map_err(error)
    };
    let all = |conditions: Vec<SeccompCondition>| SeccompRule::new(conditions).map_err(error);
    let foreign_family = || {
        let other: Result<Vec<_>, _> = SOCKET_FAMILIES
            .iter()
            .map(|&family| arg(0, SeccompCmpOp::Ne, family))
            .collect();
        all(other?)
    };

    let mut refused = BTreeMap::new();
    for number in REFUSED {
        refuse(&mut refused, number, Vec::new());
    }
    let mut unshare_flags = NAMESPACE_FLAGS.to_vec();
    unshare_flags.push(CLONE_NEWTIME);
    refuse(&mut refused, libc::SYS_clone, any_flag(&NAMESPACE_FLAGS)?);
    refuse(&mut refused, libc::SYS_unshare, any_flag(&unshare_flags)?);
    let other_netlink = all(vec![
        arg(0, SeccompCmpOp::Eq, libc::AF_NETLINK as u64)?,
        arg(2, SeccompCmpOp::Ne, NETLINK_ROUTE)?,
    ])?;
    refuse(
        &mut refused,
        libc::SYS_socket,
        vec![foreign_family()?, other_netlink],
    );
    refuse(&mut refused, libc::SYS_socketpair, vec![foreign_family()?]);
    let buffer_sizes = BUFFER_OPTIONS
        .iter()
        .map(|&option| {
            all(vec![
                arg(1, SeccompCmpOp::Eq, libc::SOL_SOCKET as u64)?,
                arg(2, SeccompCmpOp::Eq, option)?,
            ])
        })
        .collect::<Result<_, _>>()?;
    refuse(&mut refused, libc::SYS_setsockopt, buffer_sizes);
    let larger_pipe = all(vec![
        arg(1, SeccompCmpOp::Eq, libc::F_SETPIPE_SZ as u64)?,
        arg(2, SeccompCmpOp::Gt, PIPE_SIZE)?,
    ])?;
    refuse(&mut refused, libc::SYS_fcntl, vec![larger_pipe]);
    let refused = SeccompFilter::new(
        refused,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(error)?;

    let mut clone3 = BTreeMap::new();
    refuse(&mut clone3, libc::SYS_clone3, Vec::new());
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

    /// The calls of [`the_rules_on_arguments_refuse_only_what_they_name`], made by a child
    /// under the filters: the errno of each, 0 where it succeeded.
    fn calls_under_the_filters(programs: &[super::BpfProgram]) -> [i32; 13] {
        let mut ends = [0; 2];
        // SAFETY: pipe with a valid array; fork, then in the child only system calls, no
        // allocation, and `_exit`; the parent reads what it wrote and reaps it.
        unsafe {
            assert_eq!(libc::pipe(ends.as_mut_ptr()), 0);
            let pid = libc::fork();
            assert!(pid >= 0);
            if pid == 0 {
                libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                for program in programs {
                    #[repr(C)]
                    struct SockFprog {
                        len: libc::c_ushort,
                        filter: *const seccompiler::sock_filter,
                    }
                    let fprog = SockFprog {
                        len: program.len() as libc::c_ushort,
                        filter: program.as_ptr(),
                    };
                    if libc::syscall(libc::SYS_seccomp, 1, 0, &raw const fprog) != 0 {
                        libc::_exit(2);
                    }
                }
                let errno = |result: libc::c_long| {
                    if result < 0 {
                        *libc::__errno_location()
                    } else {
                        0
                    }
                };
                let socket = |family, kind, protocol| {
                    errno(libc::socket(family, kind, protocol) as libc::c_long)
                };
                let mut pair = [0; 2];
                let unix = libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0);
                let size: libc::c_int = 1 << 20;
                let set = |option| {
                    errno(libc::setsockopt(
                        unix,
                        libc::SOL_SOCKET,
                        option,
                        (&raw const size).cast(),
                        4,
                    ) as libc::c_long)
                };
                let mut pipe = [0; 2];
                libc::pipe(pipe.as_mut_ptr());
                let pipe_size = |size: libc::c_int| {
                    errno(libc::fcntl(pipe[1], libc::F_SETPIPE_SZ, size).into())
                };
                let results = [
                    socket(libc::AF_VSOCK, libc::SOCK_STREAM, 0),
                    socket(libc::AF_BLUETOOTH, libc::SOCK_STREAM, 0),
                    socket(libc::AF_UNIX, libc::SOCK_STREAM, 0),
                    socket(libc::AF_INET6, libc::SOCK_DGRAM, 0),
                    socket(libc::AF_NETLINK, libc::SOCK_RAW, libc::NETLINK_ROUTE),
                    socket(
                        libc::AF_NETLINK,
                        libc::SOCK_RAW,
                        libc::NETLINK_KOBJECT_UEVENT,
                    ),
                    errno(
                        libc::socketpair(libc::AF_VSOCK, libc::SOCK_STREAM, 0, pair.as_mut_ptr())
                            .into(),
                    ),
                    errno(
                        libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr())
                            .into(),
                    ),
                    set(libc::SO_SNDBUF),
                    set(libc::SO_RCVBUF),
                    set(libc::SO_PASSCRED),
                    pipe_size(64 << 10),
                    pipe_size((64 << 10) + 1),
                ];
                libc::write(
                    ends[1],
                    results.as_ptr().cast(),
                    std::mem::size_of_val(&results),
                );
                libc::_exit(0);
            }
            libc::close(ends[1]);
            let mut results = [0i32; 13];
            let n = libc::read(
                ends[0],
                results.as_mut_ptr().cast(),
                std::mem::size_of_val(&results),
            );
            libc::close(ends[0]);
            let mut status = 0;
            libc::waitpid(pid, &raw mut status, 0);
            assert_eq!(
                n as usize,
                std::mem::size_of_val(&results),
                "status {status}"
            );
            results
        }
    }

    #[test]
    fn the_rules_on_arguments_refuse_only_what_they_name() {
        let programs = super::programs().unwrap();
        let results = calls_under_the_filters(&programs);
        // (what, refused)
        let expected = [
            ("socket(AF_VSOCK)", true),
            ("socket(AF_BLUETOOTH), a family this kernel may lack", true),
            ("socket(AF_UNIX)", false),
            ("socket(AF_INET6)", false),
            ("socket(AF_NETLINK, NETLINK_ROUTE)", false),
            ("socket(AF_NETLINK, NETLINK_KOBJECT_UEVENT)", true),
            ("socketpair(AF_VSOCK)", true),
            ("socketpair(AF_UNIX)", false),
            ("SO_SNDBUF", true),
            ("SO_RCVBUF", true),
            ("SO_PASSCRED", false),
            ("F_SETPIPE_SZ 64 KiB", false),
            ("F_SETPIPE_SZ 64 KiB + 1", true),
        ];
        for ((what, refused), errno) in expected.into_iter().zip(results) {
            // Allowed, a call may still fail for the kernel's own reasons, never EPERM here.
            assert_eq!(errno == libc::EPERM, refused, "{what}: errno {errno}");
        }
    }
}
