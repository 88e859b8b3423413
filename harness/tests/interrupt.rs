//! Ctrl-C while a program runs: the harness kills the program's process group (which the
//! terminal's SIGINT never reaches, since it runs in a group of its own), removes its scratch
//! folder, and exits 130 at once.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const INTERRUPTED: i32 = 130;

/// Process ids whose command line names `program`.
fn processes_running(program: &Path) -> Vec<u32> {
    let wanted = program.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // A zombie waiting for PID 1 to reap it is dead already.
            let zombie = state
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z'));
            !zombie && String::from_utf8_lossy(&cmdline).starts_with(&wanted)
        })
        .collect()
}

#[test]
fn ctrl_c_kills_the_running_program_and_exits_130() {
    let sleeper = common::fixture("sleep-30s");
    let dir = tempfile::tempdir().unwrap();
    // Limits far above the test's patience: only the interrupt can end this run early.
    let toml = format!(
        "[problems.sum]\nsolution = \"{}\"\ntime-limit = \"20s\"\n",
        sleeper.display()
    );
    std::fs::write(dir.path().join("judge.toml"), toml).unwrap();
    let cases = dir.path().join("cases/sum");
    std::fs::create_dir_all(&cases).unwrap();
    for name in ["01", "02", "03"] {
        std::fs::write(cases.join(format!("{name}.in")), "1 2\n").unwrap();
        std::fs::write(cases.join(format!("{name}.ans")), "3\n").unwrap();
    }
    let mut harness = Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    // Wait until the sleeper is running, then press Ctrl-C (SIGINT to the harness alone).
    let waiting = Instant::now();
    while processes_running(&sleeper).is_empty() {
        assert!(
            waiting.elapsed() < Duration::from_secs(20),
            "the sleeper never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let interrupted = Instant::now();
    // SAFETY: kill(2) on a child we started.
    unsafe { libc::kill(harness.id() as i32, libc::SIGINT) };

    let status = loop {
        if let Some(status) = harness.try_wait().unwrap() {
            break status;
        }
        assert!(
            interrupted.elapsed() < Duration::from_secs(10),
            "the harness did not stop after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = harness.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(status.code(), Some(INTERRUPTED), "stderr: {stderr}");
    assert!(stderr.contains("interrupted"), "stderr: {stderr}");
    assert!(
        processes_running(&sleeper).is_empty(),
        "the sleeper outlived the harness"
    );
    // Only the first case ever started: the others were not run after the interrupt.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains(" 02 "), "stdout: {stdout}");
}
