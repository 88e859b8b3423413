//! TPS task folders read as packages: `problem.json`, `subtasks.json` with `gen/data`,
//! `tests/`, `grader/cpp/` compiled with each submission, the testlib checker in `checker/`,
//! and `solutions.json`'s verdicts; an OutputOnly task's answer files judged by its checker
//! and scored by subtask; a Communication task's `grader/manager.cpp` talking with the grader
//! through FIFOs, its output judged by the checker; a TwoSteps task's program, built with its
//! grader, run twice with a FIFO between the runs. The tasks are TPS's own samples (see
//! `tests/fixtures/tps/README.md`).
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

/// A type TPS's scripts do not have (CMS's TPS loader also knows `Notice`, a task with
/// nothing to submit) is refused by name, not judged as something else.
#[test]
fn task_types_not_read_are_refused_by_name() {
    let project = project();
    project.write(
        "mountains/problem.json",
        "{\"name\": \"mountains\", \"type\": \"Notice\"}\n",
    );
    project
        .args(["verify", "mountains"])
        .status(2)
        .stderr_contains("a TPS `Notice` task")
        .run();
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

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tps")
}

/// TPS's OutputOnly sample `nowruz`, cut to its first three subtasks (10 points each), its
/// checker given the testlib `mountains` ships (the same file in every TPS sample).
fn nowruz() -> Project {
    let testlib = std::fs::read_to_string(fixtures().join("mountains/checker/testlib.h")).unwrap();
    Project::new()
        .tree("nowruz", &fixtures().join("nowruz"))
        .file("nowruz/checker/testlib.h", &testlib)
}

/// Each case's name, verdict and reason, and the score, from `harness judge --format json`.
fn judged(project: &Project, answers: &str, code: i32) -> (Vec<(String, String, String)>, f64) {
    let output = project
        .harness()
        .args(["judge", "nowruz", answers, "--all", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let document: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stderr}"));
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    let rows = document["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let text = |key: &str| case[key].as_str().unwrap_or_default().to_string();
            (text("name"), text("verdict"), text("reason"))
        })
        .collect();
    (rows, document["score"].as_f64().unwrap_or(f64::NAN))
}

#[test]
fn an_output_only_tasks_model_answers_score_in_full() {
    let project = nowruz();
    // As CMS's TPS loader asks for them: `output_<test>.txt`, the tests numbered through
    // gen/data. The answers are the model solution's, which `tests/*.out` hold.
    for test in ["01", "02", "03"] {
        let answer = project.read(&format!("nowruz/tests/{test}.out"));
        project.write(&format!("answers/output_{test}.txt"), &answer);
    }
    let (rows, score) = judged(&project, "answers", 0);
    let verdicts: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
    assert_eq!(verdicts, ["AC", "AC", "AC"], "{rows:?}");
    assert_eq!(score, 30.0);
    project
        .args(["judge", "nowruz", "answers"])
        .status(0)
        .stdout_contains("nowruz: answers (answer files), 3 cases")
        .stdout_contains("score 30/30")
        .run();
    // Such a task stores no submissions: verify says how its answers are judged instead.
    project
        .args(["verify", "nowruz"])
        .status(2)
        .stderr_contains("`nowruz` is an output-only task: `harness judge nowruz ANSWERS` judges")
        .run();
}

#[test]
fn a_partial_answer_set_scores_as_the_checker_and_the_subtasks_say() {
    let project = nowruz();
    let model = project.read("nowruz/tests/01.out");
    project.write("answers/output_01.txt", &model);
    // The sample's `dfs.cpp` (verdict `incorrect`) on test 02: a tree of 652 leaves, where the
    // input's line 1 asks for 1338. The checker's score is int(652 / 1338 * 1000) / 1000 =
    // 0.487, the subtask's 10 points times its one test's score: 4.87. Test 03 has no answer.
    let dfs = std::fs::read_to_string(fixtures().join("nowruz-answers/output_02.txt")).unwrap();
    project.write("answers/output_02.txt", &dfs);
    let (rows, score) = judged(&project, "answers", 1);
    assert_eq!(rows[0].1, "AC", "{rows:?}");
    assert!(rows[1].2.contains("score 0.487"), "{rows:?}");
    assert_eq!(
        (rows[2].1.as_str(), rows[2].2.as_str()),
        ("WA", "no answer file: looked for `03.out`, `output_03.txt`"),
        "{rows:?}"
    );
    assert!((score - 14.87).abs() < 1e-9, "{score}");
}

#[test]
fn an_output_only_answer_that_is_a_link_a_fifo_or_huge_gets_a_verdict() {
    let project = nowruz();
    let answers = project.join("answers");
    std::fs::create_dir_all(&answers).unwrap();
    // The link leads to the right answer, outside the answers: it must not be followed.
    std::os::unix::fs::symlink(
        project.join("nowruz/tests/01.out"),
        answers.join("output_01.txt"),
    )
    .unwrap();
    nix::unistd::mkfifo(
        &answers.join("output_02.txt"),
        nix::sys::stat::Mode::S_IRWXU,
    )
    .unwrap();
    // Above the task's 64 MiB output limit, and sparse: nothing is written to the disk.
    std::fs::File::create(answers.join("output_03.txt"))
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    let (rows, score) = judged(&project, "answers", 1);
    assert_eq!(rows[0].1, "WA", "{rows:?}");
    assert!(rows[0].2.contains("symbolic link"), "{rows:?}");
    assert_eq!(rows[1].1, "WA", "{rows:?}");
    assert!(rows[1].2.contains("FIFO"), "{rows:?}");
    assert_eq!(rows[2].1, "OLE", "{rows:?}");
    assert_eq!(score, 0.0);
}

/// TPS's TwoSteps sample `coins`, cut to one test a subtask, its checker given the testlib
/// `mountains` ships (the same file in every TPS sample).
fn coins() -> Project {
    let testlib = std::fs::read_to_string(fixtures().join("mountains/checker/testlib.h")).unwrap();
    Project::new()
        .tree("coins", &fixtures().join("coins"))
        .file("coins/checker/testlib.h", &testlib)
}

#[test]
fn the_two_steps_samples_submissions_get_what_solutions_json_says() {
    let (got, code) = verified(&coins(), "coins");
    let entry = |verdict: &str, score: f64| (verdict.to_string(), score);
    // solutions.json: coins.cpp the model solution; k8 incorrect, correct on k8 (which
    // includes k64: 10 + 15); c2 incorrect, correct on c2 (10); wa and tof incorrect.
    assert_eq!(
        got,
        BTreeMap::from([
            ("coins/solution/c2.cpp".into(), entry("WA", 10.0)),
            ("coins/solution/coins.cpp".into(), entry("AC", 100.0)),
            ("coins/solution/k8.cpp".into(), entry("WA", 25.0)),
            ("coins/solution/tof.cpp".into(), entry("WA", 0.0)),
            ("coins/solution/wa.cpp".into(), entry("WA", 0.0)),
        ])
    );
    assert_eq!(code, Some(0));
}

/// The grader is the task's (CMS's `manager.%l`): one that does not build names itself and
/// stops the task (exit 2), never the contestant's CE.
#[test]
fn a_two_steps_grader_that_does_not_build_is_named() {
    let project = coins();
    let grader = project.path().join("coins/grader/cpp/grader.cpp");
    let mut text = std::fs::read_to_string(&grader).unwrap();
    text.push_str("int main( {\n");
    std::fs::write(&grader, text).unwrap();
    project
        .args(["judge", "coins", "coins/solution/coins.cpp"])
        .status(2)
        .stderr_contains("grader/cpp/grader.cpp")
        .stderr_contains("does not compile on its own")
        .run();
}

/// A crash of the judge's own part (the checker of the second run's output) is a judge
/// error (exit 3), never the contestant's WA.
#[test]
fn a_two_steps_checker_that_crashes_is_a_judge_error() {
    let project = coins();
    project.write(
        "coins/checker/checker.cpp",
        "#include <cstdlib>\nint main() { std::abort(); }\n",
    );
    project
        .args([
            "judge",
            "coins",
            "coins/solution/coins.cpp",
            "--case",
            "1-01",
        ])
        .status(3)
        .stdout_contains("JE")
        .run();
}

/// A second run that dies before it opens the FIFO: the first, waiting in its open, is let go
/// (it then writes to no reader) rather than left to its wall bound, and the case is RE.
#[test]
fn a_two_steps_run_that_crashes_is_re() {
    let project = coins();
    project.write(
        "crash.cpp",
        r#"#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
// The second run (arguments `1 fifo`) dies before the grader's main.
__attribute__((constructor)) static void second_dies() {
    char args[256] = {0};
    std::FILE* cmdline = std::fopen("/proc/self/cmdline", "rb");
    std::size_t n = cmdline ? std::fread(args, 1, sizeof args - 1, cmdline) : 0;
    std::size_t step = std::strlen(args) + 1;
    if (step < n && std::strcmp(args + step, "1") == 0) std::abort();
}
std::vector<int> coin_flips(std::vector<int> b, int c) { return {0}; }
int find_coin(std::vector<int> b) { return 0; }
"#,
    );
    project
        .args(["judge", "coins", "crash.cpp", "--case", "1-01"])
        .status(1)
        .stdout_contains("RE")
        .run();
}
