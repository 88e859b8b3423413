//! TPS task folders read as packages: `problem.json`, `subtasks.json` with `gen/data`,
//! `tests/`, `grader/cpp/` compiled with each submission, the testlib checker in `checker/`,
//! and `solutions.json`'s verdicts; a Communication task's `grader/manager.cpp` talking with
//! the grader through FIFOs, its output judged by the checker. The tasks are TPS's own
//! samples (see `tests/fixtures/tps/README.md`).
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::project::Project;
use serde_json::Value;

fn project() -> Project {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tps/mountains");
    Project::new().tree("mountains", &fixture)
}

/// `harness verify TASK --format json`: each submission's verdict and score, and the exit code.
fn verified(project: &Project, task: &str) -> (BTreeMap<String, (String, f64)>, Option<i32>) {
    let output = project
        .harness()
        .args(["verify", task, "-j", "2", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let document: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stderr}"));
    let got = document["submissions"]
        .as_array()
        .unwrap_or_else(|| panic!("no submissions: {stderr}"))
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                (
                    s["verdict"].as_str().unwrap().to_string(),
                    // Rounded to hundredths: a manager's fraction times the points.
                    (s["score"].as_f64().unwrap_or(f64::NAN) * 100.0).round() / 100.0,
                ),
            )
        })
        .collect();
    (got, output.status.code())
}

#[test]
fn the_samples_submissions_get_the_verdicts_solutions_json_gives() {
    let (got, code) = verified(&project(), "mountains");
    let entry = |verdict: &str, score: f64| (verdict.to_string(), score);
    // solutions.json: the model solution and mountain.cpp correct; greedy and wrong1
    // incorrect (both fail `2^n`'s semi-manual test, and `bt` and up include it); n3 time
    // limit except on 2^n, bt and n3 (70 points); bt-optimized time limit.
    assert_eq!(
        got,
        BTreeMap::from([
            (
                "mountains/solution/bt-optimized.cpp".into(),
                entry("TLE", 70.0)
            ),
            ("mountains/solution/greedy.cpp".into(), entry("WA", 0.0)),
            ("mountains/solution/mountain.cpp".into(), entry("AC", 100.0)),
            (
                "mountains/solution/mountains-haghani-solution.cpp".into(),
                entry("AC", 100.0)
            ),
            ("mountains/solution/n3.cpp".into(), entry("TLE", 70.0)),
            ("mountains/solution/wrong1.cpp".into(), entry("WA", 0.0)),
        ])
    );
    assert_eq!(code, Some(0));
}

fn prize() -> Project {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tps/prize");
    Project::new().tree("prize", &fixture)
}

#[test]
fn the_communication_samples_submissions_get_what_solutions_json_says() {
    let (got, code) = verified(&prize(), "prize");
    let entry = |verdict: &str, score: f64| (verdict.to_string(), score);
    // solutions.json: main.cpp the model solution and q5000 correct; q5001 partially
    // correct, correct on v2 (the checker gives 80 - (5001 - 5000) / 100 of no_limit's 80
    // for one query over 5000); just2gen incorrect, correct on v2 (it fails the test with
    // five generations); q10001 incorrect (over the 10000 queries the manager allows).
    assert_eq!(
        got,
        BTreeMap::from([
            ("prize/solution/just2gen.cpp".into(), entry("WA", 20.0)),
            ("prize/solution/main.cpp".into(), entry("AC", 100.0)),
            ("prize/solution/q10001.cpp".into(), entry("WA", 0.0)),
            ("prize/solution/q5000.cpp".into(), entry("AC", 100.0)),
            ("prize/solution/q5001.cpp".into(), entry("AC", 99.99)),
        ])
    );
    assert_eq!(code, Some(0));
}

#[test]
fn a_communication_task_without_its_manager_is_named() {
    let project = prize();
    std::fs::remove_file(project.path().join("prize/grader/manager.cpp")).unwrap();
    project
        .args(["verify", "prize"])
        .status(2)
        .stderr_contains("grader/manager.cpp")
        .stderr_contains("missing")
        .run();
}

#[test]
fn judge_links_the_grader_and_scores_by_subtask() {
    let project = project();
    project
        .args([
            "judge",
            "mountains",
            "mountains/solution/wrong1.cpp",
            "--case",
            "1-*",
        ])
        .status(1)
        .stdout_contains("WA")
        .stdout_contains("1-03")
        .run();
    project
        .args(["judge", "mountains", "mountains/solution/mountain.cpp"])
        .status(0)
        .stdout_contains("score 100/100")
        .run();
}

#[test]
fn a_checker_that_does_not_compile_is_the_tasks_error() {
    let project = project();
    project.write("mountains/checker/checker.cpp", "int main( {\n");
    project
        .args(["verify", "mountains"])
        .status(2)
        .stderr_contains("checker")
        .run();
}

#[test]
fn malformed_problem_json_names_its_line_and_column() {
    let project = project();
    project.write(
        "mountains/problem.json",
        "{\n  \"name\": \"mountains\",\n  \"type\" \"Batch\"\n}\n",
    );
    project
        .args(["verify", "mountains"])
        .status(2)
        .stderr_contains("problem.json:3:")
        .run();
}

#[test]
fn task_types_not_read_yet_are_refused_by_name() {
    for kind in ["TwoSteps", "OutputOnly"] {
        let project = project();
        project.write(
            "mountains/problem.json",
            &format!("{{\"name\": \"mountains\", \"type\": \"{kind}\"}}\n"),
        );
        project
            .args(["verify", "mountains"])
            .status(2)
            .stderr_contains(&format!("a TPS `{kind}` task"))
            .run();
    }
}

#[test]
fn a_test_gen_data_names_but_tests_lacks_is_named() {
    let project = project();
    std::fs::remove_file(project.path().join("mountains/tests/2-02.out")).unwrap();
    project
        .args(["verify", "mountains"])
        .status(2)
        .stderr_contains("tests/2-02.out")
        .stderr_contains("`tps gen` writes `tests/`")
        .run();
}
