//! Ctrl-C while a child runs: the harness kills the child's process group (which the
//! terminal's SIGINT never reaches, since it runs in a group of its own), removes its scratch
//! folder, and exits 130 at once. The child may be the program judged, a compiler or an
//! external checker: each is killed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::project::Project;

const INTERRUPTED: i32 = 130;

#[test]
fn ctrl_c_kills_the_running_program_and_exits_130() {
    let sleeper = common::fixture("sleep-30s");
    // Limits far above the test's patience: only the interrupt can end this run early.
    let toml = format!(
        "[problems.sum]\nsolution = \"{}\"\ntime-limit = \"20s\"\n",
        sleeper.display()
    );
    let project = Project::new()
        .file("judge.toml", &toml)
        .case("sum", "01", "1 2\n", "3\n")
        .case("sum", "02", "1 2\n", "3\n")
        .case("sum", "03", "1 2\n", "3\n");
    let mut harness = project
        .process()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    // Wait until the sleeper is running, then press Ctrl-C (SIGINT to the harness alone).
    let waiting = Instant::now();
    while common::processes_running(&sleeper).is_empty() {
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
        common::processes_running(&sleeper).is_empty(),
        "the sleeper outlived the harness"
    );
    // Only the first case ever started: the others were not run after the interrupt.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains(" 02 "), "stdout: {stdout}");
}

/// Starts the harness with `args` in the project, waits until `child` runs, presses Ctrl-C, and
/// returns the harness's stderr and how long it took to exit after Ctrl-C. Asserts the exit
/// code 130 and that `child` did not outlive the harness.
fn interrupt_while_running(project: &Project, args: &[&str], child: &Path) -> (String, Duration) {
    let mut harness = project
        .process()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let waiting = Instant::now();
    while common::processes_running(child).is_empty() {
        assert!(
            waiting.elapsed() < Duration::from_secs(20),
            "`{}` never started",
            child.display()
        );
        assert!(
            harness.try_wait().unwrap().is_none(),
            "the harness ended before `{}` started",
            child.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let interrupted = Instant::now();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(harness.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let status = loop {
        if let Some(status) = harness.try_wait().unwrap() {
            break status;
        }
        assert!(
            interrupted.elapsed() < Duration::from_secs(10),
            "the harness did not stop after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = interrupted.elapsed();
    let output = harness.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(status.code(), Some(INTERRUPTED), "stderr: {stderr}");
    assert!(stderr.contains("interrupted"), "stderr: {stderr}");
    assert!(
        common::processes_running(child).is_empty(),
        "`{}` outlived the harness",
        child.display()
    );
    (stderr, took)
}

/// A problem `sum` whose only case is `3` -> `3`, solved by `cat`, with `extra` added to
/// judge.toml.
fn sum_project(extra: &str) -> Project {
    Project::new()
        .file(
            "judge.toml",
            &format!("[problems.sum]\nsolution = \"/bin/cat\"\n{extra}"),
        )
        .case("sum", "01", "3\n", "3\n")
}

/// Adds `text` to the end of the project's judge.toml.
fn append(project: &Project, text: &str) {
    let toml = project.read("judge.toml");
    project.write("judge.toml", &format!("{toml}{text}"));
}

/// A private copy of fixture `name` in the project: tests run at once, and each must find its own
/// child among the running processes, not another test's.
fn own_copy(project: &Project, name: &str) -> PathBuf {
    let copy = project.join(&format!("own-{name}"));
    std::fs::copy(common::fixture(name), &copy).unwrap();
    copy
}

/// An external checker that hangs would otherwise hold the judge for its 30 s time-out.
#[test]
fn ctrl_c_kills_a_running_checker() {
    let dir = sum_project("");
    let sleeper = own_copy(&dir, "sleep-30s");
    append(
        &dir,
        &format!(
            "checker = {{ type = \"command\", command = [\"{}\"] }}\n",
            sleeper.display()
        ),
    );
    interrupt_while_running(&dir, &[], &sleeper);
}

/// A compiler that hangs would otherwise hold the judge for its 120 s compile time limit.
#[test]
fn ctrl_c_kills_a_running_compiler() {
    let dir = sum_project("");
    let sleeper = own_copy(&dir, "sleep-30s");
    append(&dir, &slow_language(&sleeper));
    dir.write("sol.slow", "");
    let (stderr, _) = interrupt_while_running(&dir, &["judge", "sum", "sol.slow"], &sleeper);
    assert!(!stderr.contains("CE"), "stderr: {stderr}");
}

/// A compiler that allocates without end, interrupted long before its 2 GiB limit.
#[test]
fn ctrl_c_kills_a_compiler_that_allocates() {
    let dir = sum_project("");
    let allocator = own_copy(&dir, "alloc-forever");
    append(&dir, &slow_language(&allocator));
    dir.write("sol.slow", "");
    interrupt_while_running(&dir, &["judge", "sum", "sol.slow"], &allocator);
}

/// A language `slow` (files `*.slow`) whose compiler is `compiler`.
fn slow_language(compiler: &Path) -> String {
    format!(
        "[languages.slow]\nextensions = [\"slow\"]\ncompile = [\"{}\", \"{{source}}\"]\nrun = [\"{{exe}}\"]\n",
        compiler.display()
    )
}
