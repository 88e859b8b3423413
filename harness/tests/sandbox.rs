//! The runner against programs that misbehave on purpose: each limit stops its offender, the
//! measurements are sane, and nothing the program started survives the run.
//!
//! Timings here are generous on purpose: the machine may be loaded, and speed is measured by
//! the ignored benchmark at the end, not asserted.
#![cfg(unix)]

mod common;

use std::ffi::OsString;
use std::fs;
use std::io::{Read, Seek, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::fixture;
use harness::sandbox::run::{
    signal_name, LimitHit, Limits, Output, RunError, RunRequest, RunResult, Scope, Stdin,
    Termination,
};

/// Runs `request` as the harness runs a plain program: through its launcher, a re-executed
/// `harness` that starts programs as this process's children (the fork it falls back to is
/// tested by the runner's unit tests).
fn run(request: &RunRequest<'_>) -> Result<RunResult, RunError> {
    #[cfg(target_os = "linux")]
    harness::sandbox::enable(PathBuf::from(env!("CARGO_BIN_EXE_harness")));
    harness::sandbox::run::run(request)
}

const SIGKILL: i32 = 9;
const SIGSEGV: i32 = 11;
const SIGXCPU: i32 = 24;
const MIB: u64 = 1 << 20;

fn limits() -> Limits {
    Limits {
        cpu_time: Duration::from_secs(2),
        wall_time: Duration::from_secs(10),
        memory_bytes: 256 * MIB,
        output_bytes: MIB,
    }
}

/// A file holding the input of the "sum" problem, whose answer is `3\n`.
fn sum_input() -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(b"1 2\n").unwrap();
    file
}

/// Runs a fixture on the sum input; also returns how long `run` took.
fn run_fixture(name: &str, limits: Limits) -> (RunResult, Duration) {
    let program = fixture(name);
    let input = sum_input();
    let request = RunRequest::new(&program, limits).stdin(Stdin::File(input.path()));
    let started = Instant::now();
    let result = run(&request).unwrap_or_else(|error| panic!("{name}: {error}"));
    (result, started.elapsed())
}

fn stderr(result: &RunResult) -> String {
    String::from_utf8_lossy(&result.stderr_tail).into_owned()
}

/// The value of a `key=value` line a fixture wrote on stderr.
fn reported<'a>(stderr: &'a str, key: &str) -> &'a str {
    stderr
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no `{key}=` line on stderr: {stderr:?}"))
}

/// The process group a fixture reported on stderr; checks it is not the test's own.
fn group_of(result: &RunResult) -> i32 {
    let pgid = reported(&stderr(result), "pgid").parse().unwrap();
    let (_, own) = state_and_group(Path::new("/proc/self/stat")).unwrap();
    assert_ne!(pgid, own, "the program must run in its own process group");
    pgid
}

/// State letter and process group from a /proc/<pid>/stat file.
fn state_and_group(stat: &Path) -> Option<(char, i32)> {
    let text = fs::read_to_string(stat).ok()?;
    // The command name may hold spaces and parentheses: fields resume after the last ')'.
    let mut fields = text[text.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let _parent = fields.next()?;
    Some((state, fields.next()?.parse().ok()?))
}

/// Processes of group `pgid` still running. Zombies are dead already: they wait for an init
/// that reaps orphans, which some containers lack.
fn live_members(pgid: i32) -> Vec<u32> {
    let mut alive = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Some((state, group)) = state_and_group(&entry.path().join("stat")) {
            if group == pgid && !matches!(state, 'Z' | 'X') {
                alive.push(pid);
            }
        }
    }
    alive
}

/// SIGKILL is delivered asynchronously: give the group a moment to finish dying.
fn assert_group_gone(pgid: i32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let alive = live_members(pgid);
        if alive.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "processes of group {pgid} survived the run: {alive:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_correct_program_is_measured() {
    let (result, _) = run_fixture("echo-sum", limits());
    assert_eq!(result.termination, Termination::Exited(0));
    assert_eq!(result.limit_hit, None);
    assert_eq!(result.stdout, b"3\n");
    assert!(!result.stdout_truncated);
    assert!(result.stderr_tail.is_empty());
    assert!(result.peak_memory_bytes > 0, "{result:?}");
    assert!(result.cpu_time < Duration::from_secs(2), "{result:?}");
    assert!(result.wall_time < Duration::from_secs(10), "{result:?}");
}

#[test]
fn no_stdin_reads_as_empty() {
    let program = fixture("echo-sum");
    let request = RunRequest::new(&program, limits());
    let result = run(&request).unwrap();
    // echo-sum exits 1 when it cannot read two numbers.
    assert_eq!(result.termination, Termination::Exited(1));
    assert_eq!(result.stdout, b"");
}

#[test]
fn arguments_reach_the_program() {
    let args: Vec<OsString> = vec!["-c".into(), "printf '%s|' \"$@\"".into(), "sh".into()];
    let args = [args, vec!["a b".into(), "".into()]].concat();
    let request = RunRequest::new(Path::new("/bin/sh"), limits()).args(&args);
    assert_eq!(run(&request).unwrap().stdout, b"a b||");
}

#[test]
fn spinning_is_stopped_by_the_cpu_backstop() {
    let limits = Limits {
        cpu_time: Duration::from_millis(200),
        wall_time: Duration::from_secs(30),
        ..limits()
    };
    let (result, _) = run_fixture("spin", limits);
    assert!(
        result.cpu_time > limits.cpu_time,
        "cpu time {:?} within the limit",
        result.cpu_time
    );
    // RLIMIT_CPU (ceil(0.2 s) + 1 = 2 s) stops it; only a very loaded machine reaches the wall.
    match (result.termination, result.limit_hit) {
        (Termination::Signaled(SIGKILL | SIGXCPU), None | Some(LimitHit::WallTime)) => {}
        other => panic!("spin ended as {other:?}"),
    }
    assert_group_gone(group_of(&result));
}

#[test]
fn sleeping_is_stopped_by_the_wall_clock() {
    let limits = Limits {
        cpu_time: Duration::from_secs(1),
        wall_time: Duration::from_secs(1),
        ..limits()
    };
    let (result, took) = run_fixture("sleep-30s", limits);
    assert_eq!(result.limit_hit, Some(LimitHit::WallTime));
    assert_eq!(result.termination, Termination::Signaled(SIGKILL));
    assert!(
        took < limits.wall_time + Duration::from_secs(3),
        "took {took:?}"
    );
    assert!(result.wall_time >= limits.wall_time, "{result:?}");
    assert!(result.cpu_time < Duration::from_millis(500), "{result:?}");
    assert_group_gone(group_of(&result));
}

#[test]
fn touching_a_gibibyte_is_stopped_by_the_memory_limit() {
    let limits = Limits {
        memory_bytes: 256 * MIB,
        ..limits()
    };
    let (result, took) = run_fixture("alloc-1gib", limits);
    assert!(
        result.limit_hit == Some(LimitHit::Memory)
            || result.peak_memory_bytes > limits.memory_bytes,
        "{result:?}"
    );
    assert_ne!(result.termination, Termination::Exited(0));
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_group_gone(group_of(&result));
}

#[test]
fn a_null_write_dies_of_sigsegv() {
    let (result, _) = run_fixture("segfault", limits());
    assert_eq!(result.termination, Termination::Signaled(SIGSEGV));
    assert_eq!(signal_name(SIGSEGV), "SIGSEGV");
    assert_eq!(result.limit_hit, None);
}

#[test]
fn an_exit_status_and_stderr_are_kept() {
    let (result, _) = run_fixture("exit-3", limits());
    assert_eq!(result.termination, Termination::Exited(3));
    assert_eq!(result.limit_hit, None);
    assert_eq!(stderr(&result), "exit-3: giving up on purpose\n");
}

#[test]
fn printing_forever_is_stopped_at_the_output_limit() {
    let (result, took) = run_fixture("print-forever", limits());
    assert_eq!(result.limit_hit, Some(LimitHit::Output));
    assert!(result.stdout_truncated);
    assert_eq!(result.stdout.len() as u64, limits().output_bytes);
    assert!(result.stdout.iter().all(|&byte| byte == b'y'));
    assert!(
        matches!(result.termination, Termination::Signaled(_)),
        "{result:?}"
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_group_gone(group_of(&result));
}

#[test]
fn the_output_limit_is_exact() {
    let at_limit = Limits {
        output_bytes: 2,
        ..limits()
    };
    let (result, _) = run_fixture("echo-sum", at_limit);
    assert_eq!(
        (result.stdout.as_slice(), result.stdout_truncated),
        (&b"3\n"[..], false)
    );
    assert_eq!(result.limit_hit, None);

    let below = Limits {
        output_bytes: 1,
        ..limits()
    };
    let (result, _) = run_fixture("echo-sum", below);
    assert_eq!(
        (result.stdout.as_slice(), result.stdout_truncated),
        (&b"3"[..], true)
    );
    assert_eq!(result.limit_hit, Some(LimitHit::Output));
}

#[test]
fn a_grandchild_holding_stdout_does_not_keep_the_judge_waiting() {
    let (result, took) = run_fixture("grandchild-holds-stdout", limits());
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_eq!(result.termination, Termination::Exited(0));
    assert_eq!(result.limit_hit, None);
    assert_eq!(result.stdout, b"3\n");
    assert_group_gone(group_of(&result));
}

#[test]
fn fifty_sleeping_children_are_all_killed() {
    let (result, took) = run_fixture("fork-50", limits());
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_eq!(result.termination, Termination::Exited(0));
    assert_eq!(result.stdout, b"3\n");
    assert_group_gone(group_of(&result));
}

#[test]
fn closing_stdout_early_is_fine() {
    let (result, _) = run_fixture("close-stdout", limits());
    assert_eq!(result.termination, Termination::Exited(0));
    assert_eq!(result.limit_hit, None);
    assert_eq!(result.stdout, b"3\n");
    // Written after stdout closed: the runner waited for the exit, not for stdout's end.
    assert_eq!(stderr(&result), "still here after closing stdout\n");
}

#[test]
fn a_million_deep_recursion_fits_in_the_memory_limit() {
    let limits = Limits {
        memory_bytes: 256 * MIB,
        ..limits()
    };
    let (result, _) = run_fixture("deep-recursion", limits);
    assert_eq!(result.termination, Termination::Exited(0), "{result:?}");
    assert_eq!(result.limit_hit, None);
    assert_eq!(result.stdout, b"3\n");
}

/// The judge ignores SIGPIPE (Rust does); the program must not inherit that, nor a blocked
/// signal, and start as it would under a shell.
#[test]
fn the_program_starts_with_default_signals_and_none_blocked() {
    let args: Vec<OsString> = vec![
        "-c".into(),
        // Read with builtins only: while the shell waits for a child (grep), dash blocks every
        // signal, and the mask read would be the shell's own, not the one it started with.
        "while read -r line; do case $line in SigBlk*|SigIgn*) echo \"$line\";; esac; done < /proc/$$/status; kill -PIPE $$; echo survived".into(),
    ];
    let request = RunRequest::new(Path::new("/bin/sh"), limits()).args(&args);
    let result = run(&request).unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(stdout.contains("SigBlk:\t0000000000000000"), "{stdout}");
    // A shell that inherits an ignored SIGPIPE cannot un-ignore it, and would survive.
    assert_eq!(
        result.termination,
        Termination::Signaled(13),
        "{stdout}{}",
        stderr(&result)
    );
    assert!(!stdout.contains("survived"), "{stdout}");
}

/// The peak memory is the program's, not the judge's. A spawn that shares the judge's memory
/// until exec (vfork, posix_spawn, clone with CLONE_VM) makes the kernel record the judge's
/// resident size as the child's high-water mark, which wait4 then reports: with 64 MiB of a
/// file mapped and read, every program would measure at least 64 MiB. A fork does not copy
/// file-backed pages, so they do not count.
#[test]
fn the_judges_own_memory_is_not_the_programs() {
    const JUDGE_BYTES: usize = 64 << 20;
    let mut file = tempfile::tempfile().unwrap();
    file.write_all(&vec![7u8; JUDGE_BYTES]).unwrap();
    // SAFETY: a private read-only mapping of a file this test owns and does not change.
    let mapped = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            JUDGE_BYTES,
            libc::PROT_READ,
            libc::MAP_PRIVATE,
            std::os::fd::AsRawFd::as_raw_fd(&file),
            0,
        )
    };
    assert_ne!(mapped, libc::MAP_FAILED);
    // Touch every page so that all of it is resident in this process.
    let bytes = mapped.cast::<u8>();
    let mut sum = 0u64;
    for offset in (0..JUDGE_BYTES).step_by(4096) {
        // SAFETY: within the mapping.
        sum += u64::from(unsafe { bytes.add(offset).read_volatile() });
    }
    assert_eq!(sum, 7 * (JUDGE_BYTES / 4096) as u64);

    let (result, _) = run_fixture("echo-sum", limits());
    // SAFETY: the mapping made above, no longer used.
    unsafe { libc::munmap(mapped, JUDGE_BYTES) };
    assert_eq!(result.stdout, b"3\n");
    assert!(
        result.peak_memory_bytes < 32 * MIB,
        "echo-sum measured {} KiB: the judge's resident memory was counted",
        result.peak_memory_bytes / 1024
    );
}

#[test]
fn the_judges_anonymous_memory_is_not_the_programs_either() {
    // Written memory, which a fork of the judge would copy (page tables and all) into the
    // child and exec would then record as the child's peak.
    const JUDGE_BYTES: usize = 128 << 20;
    let held = vec![1u8; JUDGE_BYTES];
    let (result, _) = run_fixture("echo-sum", limits());
    assert_eq!(
        held.iter()
            .step_by(4096)
            .map(|&b| u64::from(b))
            .sum::<u64>(),
        (JUDGE_BYTES / 4096) as u64
    );
    assert_eq!(result.stdout, b"3\n");
    assert!(
        result.peak_memory_bytes < 32 * MIB,
        "echo-sum measured {} KiB: the judge's resident memory was counted",
        result.peak_memory_bytes / 1024
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_launcher_is_replaced() {
    let (first, _) = run_fixture("echo-sum", limits());
    assert_eq!(first.stdout, b"3\n");
    let killed = kill_own_launchers();
    assert!(!killed.is_empty(), "no launcher of this process was found");
    // A start that finds its launcher gone forks instead, and drops it; once the idle ones
    // (one per test running meanwhile) are used up, a fresh launcher is started. Every run
    // goes as before.
    let mut fresh = 0;
    for _ in 0..50 {
        let (result, _) = run_fixture("echo-sum", limits());
        assert_eq!(result.stdout, b"3\n");
        assert_eq!(result.termination, Termination::Exited(0));
        fresh = own_launchers()
            .iter()
            .filter(|pid| !killed.contains(pid))
            .count();
        if fresh > 0 {
            break;
        }
    }
    assert!(fresh > 0, "no fresh launcher was started");
}

/// This process's live launchers (children whose first argument says so), by pid.
#[cfg(target_os = "linux")]
fn own_launchers() -> Vec<i32> {
    let own = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let cmdline = fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let is_launcher = cmdline
            .split(|&b| b == 0)
            .nth(1)
            .is_some_and(|arg| arg == b"__harness-launcher");
        let status = fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .map(str::trim)
                .unwrap_or_default()
                .to_string()
        };
        if is_launcher && field("PPid:") == own && !field("State:").starts_with('Z') {
            found.push(pid);
        }
    }
    found
}

/// SIGKILLs this process's launchers; their pids.
#[cfg(target_os = "linux")]
fn kill_own_launchers() -> Vec<i32> {
    let launchers = own_launchers();
    for &pid in &launchers {
        // SAFETY: kill with a pid and a signal number.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    launchers
}

#[test]
fn the_scratch_folder_is_removed_with_what_the_program_wrote() {
    let (result, _) = run_fixture("write-files", limits());
    assert_eq!(result.termination, Termination::Exited(0));
    assert_eq!(result.stdout, b"3\n");
    let stderr = stderr(&result);
    let workdir = PathBuf::from(reported(&stderr, "workdir"));
    let name = workdir.file_name().unwrap().to_string_lossy();
    assert!(
        name.starts_with("harness-run-"),
        "ran in {}",
        workdir.display()
    );
    assert!(!workdir.exists(), "{} was left behind", workdir.display());
}

#[test]
fn an_explicit_workdir_is_used_and_kept() {
    let workdir = tempfile::tempdir().unwrap();
    let program = fixture("write-files");
    let input = sum_input();
    let request = RunRequest::new(&program, limits())
        .stdin(Stdin::File(input.path()))
        .workdir(Some(workdir.path()));
    let result = run(&request).unwrap();
    assert_eq!(result.termination, Termination::Exited(0));
    let stderr = stderr(&result);
    let reported = Path::new(reported(&stderr, "workdir"));
    assert_eq!(
        reported.canonicalize().unwrap(),
        workdir.path().canonicalize().unwrap()
    );
    assert!(workdir.path().join("scratch.txt").is_file());
    assert!(workdir.path().join("nested/deeper.txt").is_file());
}

#[test]
fn runs_in_parallel_do_not_mix() {
    let threads: Vec<_> = (0..8)
        .map(|_| std::thread::spawn(|| run_fixture("echo-sum", limits()).0))
        .collect();
    for thread in threads {
        let result = thread.join().unwrap();
        assert_eq!(result.termination, Termination::Exited(0));
        assert_eq!(result.stdout, b"3\n");
    }
}

#[test]
fn a_missing_program_is_a_spawn_error_naming_it() {
    let program = Path::new("/nonexistent/solution");
    let request = RunRequest::new(program, limits());
    let error = run(&request).unwrap_err();
    assert!(matches!(error, RunError::Spawn { .. }), "{error:?}");
    assert!(
        error.to_string().contains("`/nonexistent/solution`"),
        "{error}"
    );
}

#[test]
fn a_file_that_is_not_executable_is_a_spawn_error() {
    let folder = tempfile::tempdir().unwrap();
    let program = folder.path().join("solution.txt");
    fs::write(&program, "not a program\n").unwrap();
    let request = RunRequest::new(&program, limits());
    let error = run(&request).unwrap_err();
    assert!(matches!(error, RunError::Spawn { .. }), "{error:?}");
    assert!(error.to_string().contains("solution.txt`"), "{error}");
}

#[test]
fn an_executable_script_without_a_shebang_runs_with_sh() {
    // As execvp runs it (and so `Command` did): a generator written as a bare shell script.
    use std::os::unix::fs::PermissionsExt;
    let folder = tempfile::tempdir().unwrap();
    let program = folder.path().join("gen");
    fs::write(&program, "echo \"seed $1\"\n").unwrap();
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    let args = [OsString::from("42")];
    let request = RunRequest::new(&program, limits()).args(&args);
    let result = run(&request).unwrap();
    assert_eq!(
        result.termination,
        Termination::Exited(0),
        "{}",
        stderr(&result)
    );
    assert_eq!(result.stdout, b"seed 42\n");
}

#[test]
fn a_bare_name_is_found_on_the_runs_own_path() {
    // The run's PATH, not the judge's, as `Command` looks it up.
    let folder = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(fixture("echo-sum"), folder.path().join("only-here")).unwrap();
    let input = sum_input();
    let env = [(
        OsString::from("PATH"),
        folder.path().as_os_str().to_os_string(),
    )];
    let request = RunRequest::new(Path::new("only-here"), limits())
        .env(&env)
        .stdin(Stdin::File(input.path()));
    let result = run(&request).unwrap();
    assert_eq!(result.stdout, b"3\n");
}

#[test]
fn a_command_line_too_long_for_the_launcher_still_runs() {
    // Above the 64 KiB a launcher message holds: this start forks instead.
    let long = OsString::from("x".repeat(100_000));
    let args = [long];
    let request = RunRequest::new(Path::new("echo"), limits()).args(&args);
    let result = run(&request).unwrap();
    assert_eq!(result.termination, Termination::Exited(0));
    assert_eq!(result.stdout.len(), 100_001);
}

#[test]
fn a_missing_input_file_is_a_stdin_error() {
    let program = fixture("echo-sum");
    let request =
        RunRequest::new(&program, limits()).stdin(Stdin::File(Path::new("/nonexistent/01.in")));
    let error = run(&request).unwrap_err();
    assert!(matches!(error, RunError::Stdin { .. }), "{error:?}");
    assert!(
        error.to_string().contains("`/nonexistent/01.in`"),
        "{error}"
    );
}

#[test]
fn a_missing_workdir_is_a_workdir_error() {
    let program = fixture("echo-sum");
    let request =
        RunRequest::new(&program, limits()).workdir(Some(Path::new("/nonexistent/folder")));
    let error = run(&request).unwrap_err();
    assert!(matches!(error, RunError::Workdir(_)), "{error:?}");
    assert!(
        error.to_string().contains("`/nonexistent/folder`"),
        "{error}"
    );
}

/// Per-run cost of `run` against a bare spawn-and-wait of the same program.
#[test]
#[ignore = "benchmark: cargo test --release -p harness --test sandbox -- --ignored --nocapture"]
fn overhead_against_a_bare_spawn() {
    const RUNS: u32 = 1000;
    let program = Path::new("/bin/true");
    let request = RunRequest::new(program, limits());
    let bare = || {
        let started = Instant::now();
        for _ in 0..RUNS {
            assert!(std::process::Command::new(program)
                .status()
                .unwrap()
                .success());
        }
        started.elapsed() / RUNS
    };
    let ours = || {
        let started = Instant::now();
        for _ in 0..RUNS {
            assert_eq!(run(&request).unwrap().termination, Termination::Exited(0));
        }
        started.elapsed() / RUNS
    };
    // Interleave, so drift in the machine's load hits both alike.
    let (bare_first, ours_first) = (bare(), ours());
    let (ours_second, bare_second) = (ours(), bare());
    eprintln!("bare spawn + wait: {bare_first:?} then {bare_second:?} per run");
    eprintln!("harness::sandbox::run::run: {ours_first:?} then {ours_second:?} per run");
}

/// A compiler's driver is small; the compiler proper it starts is where the memory goes. With
/// `Scope::Group` the watch counts the child too and stops the whole group.
#[test]
fn a_group_is_held_to_its_memory_limit_as_a_whole() {
    let alloc = fixture("alloc-1gib");
    // `; exit` keeps sh as the parent instead of letting it exec the allocator.
    let args: Vec<OsString> = vec![
        "-c".into(),
        "\"$0\" </dev/null; exit 7".into(),
        alloc.into(),
    ];
    let limits = Limits {
        memory_bytes: 64 * MIB,
        ..limits()
    };
    let request = RunRequest::new(Path::new("/bin/sh"), limits)
        .args(&args)
        .scope(Scope::Group);
    let started = Instant::now();
    let result = run(&request).unwrap();
    assert_eq!(result.limit_hit, Some(LimitHit::Memory), "{result:?}");
    assert!(result.peak_memory_bytes > 64 * MIB, "{result:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_group_gone(group_of(&result));
}

#[test]
fn stdin_from_bytes_and_environment_reach_the_program() {
    let args: Vec<OsString> = vec!["-c".into(), "read line; echo \"$line $GREETING\"".into()];
    let env = [(OsString::from("GREETING"), OsString::from("hello"))];
    let request = RunRequest::new(Path::new("/bin/sh"), limits())
        .args(&args)
        .stdin(Stdin::Bytes(b"1 2\n"))
        .env(&env);
    let result = run(&request).unwrap();
    assert_eq!(result.stdout, b"1 2 hello\n");
}

/// Output the caller owns (a file here; a pipe to another process for interactive problems)
/// is the program's own: the runner neither reads it nor limits it.
#[test]
fn output_to_a_callers_file_is_not_captured() {
    let log = tempfile::tempfile().unwrap();
    let args: Vec<OsString> = vec!["-c".into(), "echo out; echo err >&2".into()];
    let request = RunRequest::new(Path::new("/bin/sh"), limits())
        .args(&args)
        .stdout(Output::Fd(log.as_fd()))
        .stderr(Output::Fd(log.as_fd()));
    let result = run(&request).unwrap();
    assert_eq!(result.termination, Termination::Exited(0));
    assert!(result.stdout.is_empty() && result.stderr_tail.is_empty());
    let mut log = log;
    let mut text = String::new();
    log.rewind().unwrap();
    log.read_to_string(&mut text).unwrap();
    assert_eq!(text, "out\nerr\n");
}

#[test]
fn stdin_from_a_callers_pipe() {
    let (reader, writer) = nix::unistd::pipe().unwrap();
    let mut writer = std::fs::File::from(writer);
    writer.write_all(b"4 5\n").unwrap();
    drop(writer);
    let args: Vec<OsString> = vec!["-c".into(), "cat".into()];
    let request = RunRequest::new(Path::new("/bin/sh"), limits())
        .args(&args)
        .stdin(Stdin::Fd(reader.as_fd()));
    assert_eq!(run(&request).unwrap().stdout, b"4 5\n");
}
