//! `--html FILE` on a temporary project: the real binary writes one page, escapes what the
//! run gives it, rewrites its own earlier report, and never writes over a file of the user's
//! without `--force`.
#![cfg(unix)]

mod common;

use common::project::Project;
use common::{fixture, fixture_source};

const FAILED: i32 = 1;
const ERROR: i32 = 2;
/// What every report begins with (harness/src/report/html/file.rs).
const MARKER: &str = "<!DOCTYPE html><!-- a report written by harness";

/// `sum`: right on two cases, wrong on one, and a case whose name is markup.
fn project() -> Project {
    let toml = format!(
        "[problems.sum]\nsolution = \"{}\"\ntime-limit = \"2s\"\n",
        fixture("echo-sum").display()
    );
    Project::new()
        .file("judge.toml", &toml)
        .case("sum", "01", "1 2\n", "3\n")
        .case("sum", "02", "2 2\n", "4\n")
        .case("sum", "<img src=x onerror=alert(1)>", "0 0\n", "0\n")
        .case("sum", "wrong", "2 2\n", "5\n")
}

#[test]
fn run_writes_one_page_with_every_case_escaped() {
    let project = project();
    project
        .harness()
        .args(["run", "-p", "sum", "--html", "out/report.html"])
        .assert()
        .code(FAILED);
    let html = project.read("out/report.html");
    assert!(html.starts_with(MARKER), "{html}");
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{html}"
    );
    assert!(!html.contains("<img"), "{html}");
    assert_eq!(html.matches("class=\"c v-").count(), 4, "a cell per case");
    assert!(
        html.contains("data-case=\"wrong\" data-verdict=\"WA\""),
        "{html}"
    );
    let left: Vec<_> = std::fs::read_dir(project.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["report.html"], "no temporary file is left");
}

#[test]
fn a_file_the_user_wrote_is_kept_unless_forced_and_an_earlier_report_replaced() {
    let project = project().file("notes.html", "<p>my notes</p>\n");
    let assert = project
        .harness()
        .args(["run", "-p", "sum", "--html", "notes.html"])
        .assert()
        .code(ERROR);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains("`notes.html` exists and is not a report harness wrote"),
        "{stderr}"
    );
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(
        assert.get_output().stdout.is_empty(),
        "nothing ran before the check"
    );
    assert_eq!(project.read("notes.html"), "<p>my notes</p>\n");

    project
        .harness()
        .args(["run", "-p", "sum", "--html", "notes.html", "--force"])
        .assert()
        .code(FAILED);
    assert!(project.read("notes.html").starts_with(MARKER));
    // Now it is ours: the next run replaces it without being told.
    project.write("cases/sum/wrong.ans", "4\n");
    project
        .harness()
        .args(["run", "-p", "sum", "--html", "notes.html"])
        .assert()
        .success();
    let html = project.read("notes.html");
    assert!(
        html.contains("data-case=\"wrong\" data-verdict=\"AC\""),
        "{html}"
    );
}

#[test]
fn judge_writes_it_too() {
    let project = project();
    project
        .harness()
        .args(["judge", "sum"])
        .arg(fixture_source("wrong-sum"))
        .args(["--html", "judge.html"])
        .assert()
        .code(FAILED);
    let judged = project.read("judge.html");
    assert!(judged.starts_with(MARKER));
    assert!(judged.contains("<h1>harness judge</h1>"), "{judged}");
    assert!(judged.contains("<details class=\"failure\""), "{judged}");
}

/// Reads `child`'s stderr until the watch has said it is watching `times` more times.
fn wait_for_watching(child: &mut std::process::Child, times: usize) {
    use std::io::Read;
    // Generous: the machine may be busy; the watch says so on stderr after each run.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let stderr = child.stderr.as_mut().unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 256];
    while seen.matches("watching `a.py`").count() < times {
        assert!(std::time::Instant::now() < deadline, "no rerun: {seen}");
        let read = stderr.read(&mut buffer).unwrap();
        assert!(read > 0, "the watch ended: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
    }
}

#[test]
fn judge_watch_rewrites_the_page_on_every_rejudge() {
    use std::process::Stdio;

    let project = Project::new()
        .file("a.py", "print(int(input()) + 1)\n")
        .file("test/01.in", "1\n")
        .file("test/01.out", "1\n");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .current_dir(project.path())
        .env("XDG_CONFIG_HOME", project.join("config"))
        .env("XDG_CACHE_HOME", project.join("cache"))
        .env("NO_COLOR", "1")
        .args(["judge", "a.py", "--watch", "--html", "live.html"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_watching(&mut child, 1);
    let first = project.read("live.html");
    assert!(first.starts_with(MARKER));
    assert!(
        first.contains("data-case=\"01\" data-verdict=\"WA\""),
        "{first}"
    );
    project.write("a.py", "print(int(input()))\n");
    wait_for_watching(&mut child, 1);
    let second = project.read("live.html");
    assert!(
        second.contains("data-case=\"01\" data-verdict=\"AC\""),
        "{second}"
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    child.wait().unwrap();
}

#[test]
fn judge_watch_refuses_a_file_of_the_user_before_it_watches() {
    let project = Project::new()
        .file("a.py", "print(int(input()))\n")
        .file("test/01.in", "1\n")
        .file("test/01.out", "1\n")
        .file("live.html", "mine\n");
    project
        .harness()
        .env("XDG_CONFIG_HOME", project.join("config"))
        .env("XDG_CACHE_HOME", project.join("cache"))
        .args(["judge", "a.py", "--watch", "--html", "live.html"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(ERROR)
        .stderr(predicates::str::contains("--force"));
    assert_eq!(project.read("live.html"), "mine\n");
}

#[test]
fn calibrate_draws_the_case_times_and_the_suggested_limit() {
    let project = project();
    project.write("cases/sum/wrong.ans", "4\n");
    project
        .harness()
        .args([
            "calibrate",
            "sum",
            "--repeat",
            "2",
            "--html",
            "calibrate.html",
        ])
        .assert()
        .success();
    let html = project.read("calibrate.html");
    assert!(html.starts_with(MARKER));
    assert!(html.contains("<h1>harness calibrate</h1>"), "{html}");
    assert_eq!(
        html.matches("<line class=\"tick v-AC\"").count(),
        4,
        "a tick per case of the solution: {html}"
    );
    assert!(html.contains("class=\"suggested\""), "{html}");
    assert!(html.contains("suggested limit 100 ms (now 2 s)"), "{html}");
}
