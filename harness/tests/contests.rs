//! A contest folder (`problems.yaml` and `contest.yaml`, as `bt new_contest` and `bt
//! new_problem` make them): `verify` verifies every problem with one summary table, `judge`
//! finds a problem by its label or short name, and a malformed problems.yaml is named with
//! its line and column. Where BAPCtools is not installed the contest is written by hand (and
//! the test says "skipped:" for bt's part).
#![cfg(unix)]

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command as Process, Stdio};

use common::project::Project;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `bt ARGS` in `dir` with `answers` on stdin and questionary hidden (plain prompts read the
/// answers); false when bt is not installed.
fn bt(dir: &Path, args: &[&str], answers: &str) -> bool {
    if Process::new("bt").arg("--version").output().is_err() {
        return false;
    }
    let shim = dir.join(".no-prompts");
    std::fs::create_dir_all(&shim).unwrap();
    std::fs::write(
        shim.join("sitecustomize.py"),
        "import importlib.util as _u\n_find = _u.find_spec\n_u.find_spec = lambda name, *a, **k: None if name == 'questionary' else _find(name, *a, **k)\n",
    )
    .unwrap();
    let mut child = Process::new("bt")
        .args(args)
        .current_dir(dir)
        .env("PYTHONPATH", &shim)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bt starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answers.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "bt {args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    true
}

/// A contest `mycontest` with problems `hello` (A: print "hello") and `world` (B: echo the
/// input), each with its cases and submissions; `world`'s `wrong_answer/` one is in fact
/// accepted, so it mismatches.
fn contest(project: &Project) -> std::path::PathBuf {
    let root = project.join("mycontest");
    let by_bt = bt(
        project.path(),
        &["new_contest"],
        "My Contest\n\nmycontest\n\n\n\n\n\n\n",
    ) && ["hello", "world"].iter().all(|p| {
        bt(
            &root,
            &[
                "new_problem",
                p,
                "--author",
                "T",
                "--type",
                "pass-fail",
                "--defaults",
                "-B",
            ],
            "",
        )
    });
    if by_bt {
        assert!(std::fs::read_to_string(root.join("problems.yaml"))
            .unwrap()
            .contains("label: B"));
    } else {
        common::skipped("BAPCtools (`bt`) is not installed: the contest is written by hand");
        write(&root, "contest.yaml", "id: mycontest\nname: My Contest\n");
        write(
            &root,
            "problems.yaml",
            "- id: hello\n  label: A\n  rgb: '#000000'\n- id: world\n  label: B\n",
        );
        for problem in ["hello", "world"] {
            write(
                &root,
                &format!("{problem}/problem.yaml"),
                &format!("problem_format_version: 2025-09\nname: {problem}\nuuid: 8ee7605a-4774-8efc-17bf-32bd92fc61d{}\n", problem.len()),
            );
        }
    }
    write(&root, "hello/data/sample/1.in", "\n");
    write(&root, "hello/data/sample/1.ans", "hello\n");
    write(&root, "hello/data/secret/2.in", "\n");
    write(&root, "hello/data/secret/2.ans", "hello\n");
    write(
        &root,
        "hello/submissions/accepted/hello.py",
        "print('hello')\n",
    );
    write(
        &root,
        "hello/submissions/wrong_answer/bye.py",
        "print('bye')\n",
    );
    write(&root, "world/data/sample/1.in", "7\n");
    write(&root, "world/data/sample/1.ans", "7\n");
    write(&root, "world/data/secret/2.in", "8\n");
    write(&root, "world/data/secret/2.ans", "8\n");
    write(
        &root,
        "world/submissions/accepted/echo.py",
        "print(input())\n",
    );
    write(
        &root,
        "world/submissions/wrong_answer/echo2.py",
        "print(input())\n",
    );
    // The problems' own input validators (bt's C++ skeleton) are not what this test is about.
    for problem in ["hello", "world"] {
        let _ = std::fs::remove_dir_all(root.join(problem).join("input_validators"));
    }
    root
}

#[test]
fn verify_a_contest_gives_one_row_per_problem() {
    let project = Project::new();
    contest(&project);
    let assert = project
        .harness()
        .env("HARNESS_CACHE_DIR", project.join(".cache"))
        .args(["verify", "mycontest"])
        .assert()
        .code(FAILED);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("contest My Contest: 2 problems"),
        "{stdout}"
    );
    let row = |start: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no row `{start}`: {stdout}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("A hello")[2..4], ["2", "0"]);
    assert_eq!(row("B world")[2..4], ["2", "1"]);
    // The rows come in problems.yaml's order.
    assert!(stdout.find("A hello").unwrap() < stdout.find("B world").unwrap());
}

#[test]
fn judge_a_contest_problem_by_its_label_or_short_name() {
    let project = Project::new();
    contest(&project);
    write(project.path(), "mine.py", "print(input())\n");
    for key in ["B", "b", "world"] {
        project
            .harness()
            .env("HARNESS_CACHE_DIR", project.join(".cache"))
            .args(["judge", "mycontest", key, "mine.py"])
            .assert()
            .code(OK);
    }
    project
        .harness()
        .env("HARNESS_CACHE_DIR", project.join(".cache"))
        .args(["judge", "mycontest", "A", "mine.py"])
        .assert()
        .code(FAILED);
    let assert = project
        .harness()
        .args(["judge", "mycontest", "Z", "mine.py"])
        .assert()
        .code(ERROR);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("no problem `Z` in the contest"), "{stderr}");
    assert!(stderr.contains("A (hello), B (world)"), "{stderr}");
}

#[test]
fn a_bad_problems_yaml_is_named_with_line_and_column() {
    let project = Project::new();
    let root = contest(&project);
    // A problem whose folder is not there does not stop the others: it is named among the
    // skipped ones, and the verify fails.
    for (text, at, says, code) in [
        (
            "- id: hello\n  label: A\n- id: nowhere\n  label: B\n",
            ":3:3:",
            "`nowhere`",
            FAILED,
        ),
        (
            "- id: hello\n  label: [A\n",
            ":3:1:",
            "while parsing a flow sequence",
            ERROR,
        ),
        ("- id: hello\n- label: B\n", ":1:3:", "no `label`", ERROR),
        (
            "- id: hello\n  label: A\n- id: world\n  label: A\n",
            ":3:3:",
            "the label or the id",
            ERROR,
        ),
    ] {
        write(&root, "problems.yaml", text);
        let assert = project
            .harness()
            .args(["verify", "mycontest"])
            .assert()
            .code(code);
        let output = assert.get_output();
        let stderr = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            stderr.contains(&format!("problems.yaml{at}")),
            "{text:?}: {stderr}"
        );
        assert!(stderr.contains(says), "{text:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
