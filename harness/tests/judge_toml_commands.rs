//! The commands judge.toml names (interactor, checker) and the files in them: found from
//! judge.toml's folder wherever the harness runs and wherever the command runs, a missing one
//! a config error at its word, and a judge's own program that fails a judge error (JE, exit 3)
//! with what it said, never the contestant's WA. The real binary on temporary projects.
#![cfg(unix)]

mod common;

use common::project::Project;
use common::C_AND_PYTHON;
use serde_json::Value;

const OK: i32 = 0;
const ERROR: i32 = 2;
const JUDGE_ERROR: i32 = 3;

/// testlib's protocol (`INPUT OUTPUT ANSWER`, exit 0 OK / 1 WA): sends the input's number and
/// wants its double back.
const DOUBLE_INTERACTOR: &str = r#"import sys
n = int(open(sys.argv[1]).read())
print(n, flush=True)
reply = sys.stdin.readline().strip()
if reply == str(2 * n):
    sys.stderr.write("ok %d doubled\n" % n)
    sys.exit(0)
sys.stderr.write("wrong answer expected %d, got `%s`\n" % (2 * n, reply))
sys.exit(1)
"#;

/// A testlib checker (`INPUT OUTPUT ANSWER`, exit 0 AC / 1 WA), run with python3.
const CHECK_PY: &str = r#"import sys
output, answer = open(sys.argv[2]).read().split(), open(sys.argv[3]).read().split()
if output == answer:
    sys.exit(0)
sys.stderr.write("wrong answer %s instead of %s\n" % (output, answer))
sys.exit(1)
"#;

const DOUBLE_PY: &str = "n = int(input())\nprint(2 * n, flush=True)\n";

const TOML: &str = r#"
[problems.double]
cases = "cases/double"
interactor = ["python3", "double.py"]

[problems.sum]
cases = "cases/sum"
checker = { type = "command", command = ["python3", "checkers/check.py"] }
"#;

fn project() -> Project {
    Project::new()
        .file("judge.toml", &format!("{TOML}{C_AND_PYTHON}"))
        .file("double.py", DOUBLE_INTERACTOR)
        .file("checkers/check.py", CHECK_PY)
        .file("sol.py", DOUBLE_PY)
        .file("sum.py", "a, b = map(int, input().split())\nprint(a + b)\n")
        .file("sub/.keep", "")
        .case("double", "1", "21\n", "")
        .case("sum", "1", "1 2\n", "3\n")
}

/// `harness judge PROBLEM SOURCE --format json` in `dir` of the project: the exit code and
/// the one case's JSON.
fn judge(project: &Project, dir: &str, problem: &str, source: &str) -> (i32, Value) {
    let output = common::project::harness_in(&project.join(dir))
        .args(["judge", problem, source, "--format", "json"])
        .output()
        .expect("the harness runs");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "not JSON ({error}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap(), report["cases"][0].clone())
}

#[test]
fn an_interactor_script_is_found_from_judge_toml_wherever_the_harness_runs() {
    let project = project();
    // The interactor runs in a scratch folder of its own: `double.py` is judge.toml's.
    for (dir, source) in [(".", "sol.py"), ("sub", "../sol.py")] {
        let (code, case) = judge(&project, dir, "double", source);
        assert_eq!((code, case["verdict"].as_str()), (OK, Some("AC")), "{case}");
        assert!(
            case["interaction"]["message"]
                .as_str()
                .unwrap()
                .contains("ok 21 doubled"),
            "{case}"
        );
    }
}

#[test]
fn a_checker_script_is_found_from_judge_toml_when_the_harness_runs_in_a_subfolder() {
    let project = project();
    for dir in [".", "sub"] {
        let source = if dir == "." { "sum.py" } else { "../sum.py" };
        let (code, case) = judge(&project, dir, "sum", source);
        assert_eq!(
            (code, case["verdict"].as_str()),
            (OK, Some("AC")),
            "{dir}: {case}"
        );
    }
}

#[test]
fn a_missing_script_is_a_config_error_at_its_word() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.p]\ncases = \"cases/p\"\ninteractor = [\"python3\", \"inter.py\"]\n",
        )
        .case("p", "1", "1\n", "")
        .file("sol.py", DOUBLE_PY);
    let output = project
        .harness()
        .args(["judge", "p", "sol.py"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(ERROR), "{stderr}");
    assert!(
        stderr.contains("judge.toml:3:26: problem `p`: interactor: no file `inter.py` in `"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("WA") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

#[test]
fn a_problem_id_may_not_start_with_a_dash() {
    let project = Project::new().file("judge.toml", "[problems.-help]\nsolution = \"a\"\n");
    let output = project.harness().args(["run"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(ERROR), "{stderr}");
    assert!(
        stderr.contains("judge.toml:1:")
            && stderr.contains("`-help` is not a valid name: it starts with `-`"),
        "{stderr}"
    );
}

/// A Kattis interactor with a bug: a traceback on stderr, no judgemessage.txt.
const CRASHING_KATTIS: &str =
    "#!/usr/bin/env python3\nimport sys\nsys.stdin.readline()\nprint(1 / 0)\n";

/// Says why on stderr, then dies by a signal.
const KILLED_TESTLIB: &str =
    "#!/bin/sh\nread guess\necho \"lost its table of primes\" >&2\nkill -KILL $$\n";

#[test]
fn an_interactor_that_cannot_start_crashes_or_is_killed_is_a_judge_error_with_its_stderr() {
    let project = Project::new()
        .file(
            "judge.toml",
            &format!(
                r#"
[problems.not-executable]
cases = "cases/double"
interactor = ["interactors/plain"]

[problems.crashes]
cases = "cases/double"
interactor = ["interactors/crashes"]
interactor-protocol = "kattis"

[problems.killed]
cases = "cases/double"
interactor = ["interactors/killed"]
{C_AND_PYTHON}"#
            ),
        )
        .file("interactors/plain", "#!/bin/sh\nexit 0\n")
        .executable("interactors/crashes", CRASHING_KATTIS)
        .executable("interactors/killed", KILLED_TESTLIB)
        .file("sol.py", "print(1, flush=True)\ninput()\n")
        .case("double", "1", "21\n", "");
    let rows = [
        ("not-executable", "the interactor cannot start"),
        ("crashes", "ZeroDivisionError: division by zero"),
        (
            "killed",
            "the interactor was killed by SIGKILL: lost its table of primes",
        ),
    ];
    for (problem, expected) in rows {
        let (code, case) = judge(&project, ".", problem, "sol.py");
        assert_eq!(
            (code, case["verdict"].as_str()),
            (JUDGE_ERROR, Some("JE")),
            "{problem}: {case}"
        );
        let reason = case["reason"].as_str().unwrap();
        assert!(reason.contains(expected), "{problem}: {reason}");
    }
}
