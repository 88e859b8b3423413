//! `harness verify` on a temporary project: stored submissions that get the verdict their folder
//! names pass, one that gets another fails the run, and a badly named folder is a clear error.
//! The misbehaving submissions are the C fixtures of the runner's tests, judged from source.
#![cfg(unix)]

mod common;

use std::path::Path;

use predicates::prelude::*;

use common::project::{harness_in, Project};
use serde_json::Value;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

/// Generous time, and small memory and output limits so that the offenders are stopped fast.
const PROBLEM_TOML: &str = r#"
[defaults]
time-limit = "2s"
memory-limit = "256MiB"
output-limit = "1MiB"

[problems.sum]
solution = "/bin/cat"
"#;

const OFF_BY_ONE_C: &str = r#"#include <stdio.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    printf("%lld\n", a + b + (a > 3));
    return 0;
}
"#;

fn project() -> tempfile::TempDir {
    let toml = format!("{PROBLEM_TOML}{}", common::C_AND_PYTHON);
    Project::new()
        .file("judge.toml", &toml)
        .case("sum", "01", "1 2\n", "3\n")
        .case("sum", "02", "5 7\n", "12\n")
        .into_dir()
}

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Stores the C fixture `fixture` as `solutions/submissions/sum/<folder>/<fixture>.c`.
fn store_fixture(root: &Path, folder: &str, fixture: &str) {
    let text = std::fs::read_to_string(common::fixture_source(fixture)).unwrap();
    store(root, &format!("{folder}/{fixture}.c"), &text);
}

fn store(root: &Path, relative: &str, text: &str) {
    write(root, &format!("solutions/submissions/sum/{relative}"), text);
}

fn verify(root: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    harness_in(root).arg("verify").args(args).assert()
}

fn row<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find(|line| line.starts_with(name))
        .unwrap_or_else(|| panic!("no row for `{name}` in:\n{stdout}"))
}

#[test]
fn every_submission_gets_its_expected_verdict() {
    let dir = project();
    let root = dir.path();
    store_fixture(root, "accepted", "echo-sum");
    store(
        root,
        "accepted/sum.py",
        "a, b = map(int, input().split())\nprint(a + b)\n",
    );
    store(root, "wrong_answer/off_by_one.c", OFF_BY_ONE_C);
    store_fixture(root, "run_time_error", "segfault");
    store_fixture(root, "run_time_error", "exit-3");
    store_fixture(root, "memory_limit_exceeded", "alloc-1gib");
    store_fixture(root, "output_limit_exceeded", "print-forever");
    store(
        root,
        "compile_error/broken.c",
        "int main(void) { return 0 }\n",
    );
    store(root, "README.md", "Submissions of `sum`.\n");

    let assert = verify(root, &[]).code(OK);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    for (name, expected) in [
        ("sum/accepted/echo-sum.c", "AC"),
        ("sum/accepted/sum.py", "AC"),
        ("sum/wrong_answer/off_by_one.c", "WA"),
        ("sum/memory_limit_exceeded/alloc-1gib.c", "MLE"),
        ("sum/run_time_error/exit-3.c", "RE"),
        ("sum/run_time_error/segfault.c", "RE"),
        ("sum/output_limit_exceeded/print-forever.c", "OLE"),
        ("sum/compile_error/broken.c", "CE"),
    ] {
        let line = row(&stdout, name);
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[1..3], [expected, expected], "{line}");
        assert!(line.contains(" OK"), "{line}");
    }
    // The wrong answer is caught by case 02 only; the row says where.
    assert!(row(&stdout, "sum/wrong_answer/off_by_one.c").contains("(02)"));
    assert!(
        stdout.contains("verify: all 8 submissions got their expected verdict"),
        "{stdout}"
    );
}

#[test]
fn a_submission_that_gets_another_verdict_fails_the_run() {
    let dir = project();
    let root = dir.path();
    store_fixture(root, "accepted", "echo-sum");
    // Stored as a wrong answer, but right.
    store_fixture(root, "wrong_answer", "echo-sum");
    store(root, "accepted/off_by_one.c", OFF_BY_ONE_C);

    let assert = verify(root, &[]).code(FAILED);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(row(&stdout, "sum/accepted/echo-sum.c").ends_with("OK"));
    let line = row(&stdout, "sum/wrong_answer/echo-sum.c");
    assert!(line.contains("WA        AC"), "{line}");
    assert!(line.ends_with("MISMATCH"), "{line}");
    assert!(stdout.contains("every case was AC (2 cases)"), "{stdout}");
    let line = row(&stdout, "sum/accepted/off_by_one.c");
    assert!(line.ends_with("MISMATCH"), "{line}");
    assert!(
        stdout.contains("first failing case 02: WA, line 1, token 1: expected 12, found 13"),
        "{stdout}"
    );
    assert!(
        stdout.contains("verify: 2 of 3 submissions MISMATCH"),
        "{stdout}"
    );
}

#[test]
fn json_has_one_entry_per_submission() {
    let dir = project();
    let root = dir.path();
    store_fixture(root, "accepted", "echo-sum");
    store_fixture(root, "wrong_answer", "echo-sum");
    let assert = verify(root, &["--format", "json"]).code(FAILED);
    let json: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(json["ok"], false);
    assert_eq!(json["mismatches"], 1);
    let entries = json["submissions"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["name"], "sum/accepted/echo-sum.c");
    assert_eq!(entries[0]["expected"], "AC");
    assert_eq!(entries[0]["verdict"], "AC");
    assert_eq!(entries[0]["ok"], true);
    assert!(entries[0]["time_ms"].is_u64());
    assert_eq!(entries[0]["language"], "c");
    assert_eq!(entries[0]["compile"]["ok"], true);
    assert_eq!(entries[0]["cases"].as_array().unwrap().len(), 2);
    assert_eq!(entries[1]["name"], "sum/wrong_answer/echo-sum.c");
    assert_eq!(entries[1]["expected"], "WA");
    assert_eq!(entries[1]["verdict"], "AC");
    assert_eq!(entries[1]["ok"], false);
}

#[test]
fn an_unknown_expected_folder_is_an_error_listing_the_valid_names() {
    let dir = project();
    let root = dir.path();
    store_fixture(root, "acepted", "echo-sum");
    verify(root, &[])
        .code(ERROR)
        .stderr(predicate::str::contains("solutions/submissions/sum/acepted`"))
        .stderr(predicate::str::contains(
            "`accepted`, `wrong_answer`, `time_limit_exceeded`, `memory_limit_exceeded`, `run_time_error`, `output_limit_exceeded`, `compile_error`",
        ))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn an_unknown_problem_is_an_error() {
    let dir = project();
    store_fixture(dir.path(), "accepted", "echo-sum");
    verify(dir.path(), &["summ"])
        .code(ERROR)
        .stderr(predicate::str::contains("unknown problem `summ`"));
}
