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
