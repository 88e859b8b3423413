//! CMS `italy_yaml` task folders read as packages: `task.yaml`, `input/` + `output/`, a
//! grader in `sol/` compiled with the contestant's source, a checker speaking CMS's protocol,
//! scored as CMS scores them. The tasks are cmstestsuite's own (see
//! `tests/fixtures/cms/README.md`), and the scores each submission must get are those
//! `cmstestsuite/Tests.py` checks (`CheckOverallScore`).
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};

use common::project::Project;
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cms")
}

fn project() -> Project {
    let cms = fixtures();
    Project::new()
        .tree("batchfileiomanaged", &cms.join("batchfileiomanaged"))
        .tree("batchstdio", &cms.join("batchstdio"))
        .tree("code", &cms.join("code"))
}

/// `harness judge TASK code/FILE --format json`: the verdict and the score.
fn judged(project: &Project, task: &str, file: &str) -> (String, f64, Option<i32>) {
    let output = project
        .harness()
        .args(["judge", task, &format!("code/{file}"), "--format", "json"])
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (
        document["verdict"].as_str().unwrap_or_default().to_string(),
        document["score"].as_f64().unwrap_or(f64::NAN),
        output.status.code(),
    )
}

#[test]
fn cmstestsuite_submissions_score_as_its_tests_expect() {
    let project = project();
    // Tests.py: managed-correct 100, managed-incorrect 0 (the grader links with `userfunc`,
    // the checker prints the score); correct-stdio 100, half-correct-stdio 50,
    // incorrect-stdio 0 (CMS's diff, Sum 50 a case).
    for (task, file, verdict, score) in [
        ("batchfileiomanaged", "managed-correct.cpp", "AC", 100.0),
        ("batchfileiomanaged", "managed-correct.c", "AC", 100.0),
        ("batchfileiomanaged", "managed-incorrect.cpp", "WA", 0.0),
        ("batchfileiomanaged", "managed-incorrect.c", "WA", 0.0),
        ("batchstdio", "correct-stdio.cpp", "AC", 100.0),
        ("batchstdio", "half-correct-stdio.cpp", "WA", 50.0),
        ("batchstdio", "incorrect-stdio.cpp", "WA", 0.0),
    ] {
        let (got, points, code) = judged(&project, task, file);
        assert_eq!((got.as_str(), points), (verdict, score), "{task} {file}");
        assert_eq!(code, Some(if verdict == "AC" { 0 } else { 1 }), "{file}");
    }
}

#[test]
fn verify_judges_the_reference_solution_in_sol() {
    project()
        .args(["verify", "batchfileiomanaged"])
        .status(0)
        .stdout_contains("sol/batchfileiomanaged.cpp")
        .stdout_contains("100/100")
        .run();
}

#[test]
fn the_checkers_message_is_the_cases_reason() {
    project()
        .args(["judge", "batchfileiomanaged", "code/managed-incorrect.cpp"])
        .status(1)
        .stdout_contains("Plain wrong")
        .run();
}

#[test]
fn a_grader_that_does_not_compile_is_the_tasks_error() {
    let project = project();
    project.write("batchfileiomanaged/sol/grader.cpp", "int main( {\n");
    project
        .args(["judge", "batchfileiomanaged", "code/managed-correct.cpp"])
        .status(2)
        .stderr_contains("grader")
        .stderr_contains("a fault of the problem, not of the submission")
        .run();
}

#[test]
fn a_checker_that_crashes_is_a_judge_error() {
    let project = project();
    let checker = project.write("batchfileiomanaged/check/checker", "#!/bin/sh\nexit 3\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&checker, std::fs::Permissions::from_mode(0o755)).unwrap();
    project
        .args(["judge", "batchfileiomanaged", "code/managed-correct.cpp"])
        .status(3)
        .stdout_contains("JE")
        .stdout_contains("checker `check/checker` exited with 3")
        .run();
}

#[test]
fn a_checker_that_prints_no_score_is_a_judge_error() {
    let project = project();
    let checker = project.write(
        "batchfileiomanaged/check/checker",
        "#!/bin/sh\necho correct\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&checker, std::fs::Permissions::from_mode(0o755)).unwrap();
    project
        .args(["judge", "batchfileiomanaged", "code/managed-correct.cpp"])
        .status(3)
        .stdout_contains("should be a score from 0.0 to 1.0")
        .run();
}

#[test]
fn malformed_task_yaml_names_its_line_and_column() {
    let project = project();
    project.write("batchstdio/task.yaml", "name: batchstdio\nn_input: [2\n");
    project
        .args(["verify", "batchstdio"])
        .status(2)
        .stderr_contains("task.yaml:3:1:")
        .run();
}

/// cmstestsuite's communication tasks, each in its own project.
fn communication(task: &str) -> Project {
    let cms = fixtures();
    Project::new()
        .tree(task, &cms.join(task))
        .tree("code", &cms.join("code"))
}

#[test]
fn cmstestsuite_communication_submissions_score_as_its_tests_expect() {
    // Tests.py: communication-stdio-unstubbed-correct 100, -incorrect 0 (no stub, std_io);
    // communication-stdio-correct 100, -incorrect 0 (the stub's `main` calls `userfunc`,
    // std_io); communication-fifoio-correct 100, -incorrect 0 (the stub opens the FIFOs
    // whose paths it is given). `communication-stubbed-*.c` are links to `managed-*.c`.
    // communication-many-*: see below.
    for (task, files, score) in [
        (
            "communicationstdio",
            &["communication-stdio-correct.c"][..],
            100.0,
        ),
        (
            "communicationstdio",
            &["communication-stdio-incorrect.c"],
            0.0,
        ),
        (
            "communicationstdiostubbed",
            &["managed-correct.c", "managed-correct.cpp"],
            100.0,
        ),
        (
            "communicationstdiostubbed",
            &["managed-incorrect.c", "managed-incorrect.cpp"],
            0.0,
        ),
        (
            "communicationfifoiostubbed",
            &["managed-correct.c", "managed-correct.cpp"],
            100.0,
        ),
        (
            "communicationfifoiostubbed",
            &["managed-incorrect.c", "managed-incorrect.cpp"],
            0.0,
        ),
        // communication-many-{fifoio,stdio}-{correct,incorrect}: two processes, each told
        // its index, 100 and 0; their two files one after the other (see the README).
        (
            "communicationmanyfifoiostubbed",
            &["communication-many-correct.c"],
            100.0,
        ),
        (
            "communicationmanyfifoiostubbed",
            &["communication-many-incorrect.c"],
            0.0,
        ),
        (
            "communicationmanystdiostubbed",
            &["communication-many-correct.c"],
            100.0,
        ),
        (
            "communicationmanystdiostubbed",
            &["communication-many-incorrect.c"],
            0.0,
        ),
    ] {
        let project = communication(task);
        for file in files {
            let (verdict, points, code) = judged(&project, task, file);
            assert_eq!(points, score, "{task} {file}: {verdict}");
            // An incorrect stub asserts on the end of file the manager leaves it: WA or RE,
            // 0 points either way, as CMS gives any failing user process.
            let accepted = score == 100.0;
            assert_eq!(verdict == "AC", accepted, "{task} {file}: {verdict}");
            assert_eq!(code, Some(if accepted { 0 } else { 1 }), "{task} {file}");
        }
    }
}

#[test]
fn a_communication_manager_that_does_not_build_is_the_tasks_error() {
    let project = communication("communicationstdio");
    std::fs::remove_file(project.path().join("communicationstdio/check/manager")).unwrap();
    project.write("communicationstdio/check/manager.cpp", "int main( {\n");
    project
        .args([
            "judge",
            "communicationstdio",
            "code/communication-stdio-correct.c",
        ])
        .status(2)
        .stderr_contains("check/manager.cpp")
        .stderr_contains("cannot build")
        .run();
}

#[test]
fn a_manager_that_crashes_or_prints_no_score_is_a_judge_error() {
    let project = communication("communicationstdio");
    for (script, says) in [
        (
            "#!/bin/sh\nkill -SEGV $$\n",
            "the manager was killed by SIGSEGV",
        ),
        (
            "#!/bin/sh\necho hello\n",
            "the manager's stdout should be a score from 0.0 to 1.0, and is `hello`",
        ),
    ] {
        // Not executable, as cmstestsuite's own managers: CMS runs it by its `#!` line.
        project.write("communicationstdio/check/manager", script);
        project
            .args([
                "judge",
                "communicationstdio",
                "code/communication-stdio-correct.c",
            ])
            .status(3)
            .stdout_contains("JE")
            .stdout_contains(says)
            .run();
    }
}

#[test]
fn a_missing_stub_for_the_submissions_language_is_the_tasks_error() {
    let project = communication("communicationstdiostubbed");
    std::fs::remove_file(
        project
            .path()
            .join("communicationstdiostubbed/sol/stub.cpp"),
    )
    .unwrap();
    project
        .args([
            "judge",
            "communicationstdiostubbed",
            "code/managed-correct.cpp",
        ])
        .status(2)
        .stderr_contains("no stub for C++")
        .stderr_contains("stub.c")
        .run();
}

#[test]
fn only_gen_without_generated_data_says_so() {
    let project = project();
    project.write("batchstdio/gen/GEN", "# ST: 100\n1\n2\n");
    std::fs::remove_file(project.path().join("batchstdio/input/input1.txt")).unwrap();
    project
        .args(["verify", "batchstdio"])
        .status(2)
        .stderr_contains("input1.txt")
        .stderr_contains("made by `gen/GEN`, which the harness does not run")
        .run();
}

#[test]
fn an_output_only_tasks_answer_files_score_as_its_tests_expect() {
    let cms = fixtures();
    let project = Project::new().tree("outputonly", &cms.join("outputonlycomparator"));
    // Tests.py: correct-outputonly 100, incorrect-outputonly 0, one of each 50; the files
    // handed in as CMS names them, `output_000.txt` and `output_001.txt`.
    for (answers, first, second, verdict, score, code) in [
        ("correct", "correct", "correct", "AC", 100.0, 0),
        ("incorrect", "incorrect", "incorrect", "WA", 0.0, 1),
        ("partial", "correct", "incorrect", "WA", 50.0, 1),
    ] {
        for (index, which) in [(0, first), (1, second)] {
            let text =
                std::fs::read_to_string(cms.join(format!("code/{which}-outputonly-00{index}.txt")))
                    .unwrap();
            project.write(&format!("{answers}/output_00{index}.txt"), &text);
        }
        let output = project
            .harness()
            .args(["judge", "outputonly", answers, "--format", "json"])
            .output()
            .unwrap();
        let document: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(
            (document["verdict"].as_str(), document["score"].as_f64()),
            (Some(verdict), Some(score)),
            "{answers}"
        );
        assert_eq!(output.status.code(), Some(code), "{answers}");
    }
}

/// cmstestsuite's `twosteps` (CMS `TwoSteps`, white diff, Sum 50 a case), laid out as a TPS
/// folder, the on-disk format TwoSteps is read from (no `italy_yaml` folder can say it): its
/// `manager.c` the grader compiled with the submission, run twice with a FIFO between the
/// runs. Tests.py: correct 100, half-correct 50, incorrect 0; each submission is its
/// `-first.c` and `twosteps-correct-second.c` one after the other.
#[test]
fn cmstestsuite_two_steps_submissions_score_as_its_tests_expect() {
    let project = Project::new()
        .tree("twosteps", &fixtures().join("twosteps"))
        .tree("code", &fixtures().join("code"));
    for (file, verdict, score) in [
        ("twosteps-correct.c", "AC", 100.0),
        ("twosteps-half-correct.c", "WA", 50.0),
        ("twosteps-incorrect.c", "WA", 0.0),
    ] {
        let (got, points, code) = judged(&project, "twosteps", file);
        assert_eq!((got.as_str(), points), (verdict, score), "{file}");
        assert_eq!(code, Some(if verdict == "AC" { 0 } else { 1 }), "{file}");
    }
}
