//! Communication tasks (CMS `Communication`): a manager and N processes of the submission
//! talking through FIFO pairs, run for real: the shipped `queens-relay` verified, and small
//! projects whose manager crashes or says nonsense (a judge error), whose contestant never
//! answers (TLE, not a hang), whose processes are each within the limit but not together, and
//! whose contestant is a function called by a stub compiled with it.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::project::Project;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;
const JUDGE_ERROR: i32 = 3;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn json(output: &[u8]) -> serde_json::Value {
    serde_json::from_slice(output)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(output)))
}

/// `harness judge ARGS --all --format json`, with its exit code checked; each case's verdict
/// and reason.
fn judge(project: &Project, args: &[&str], code: i32) -> Vec<(String, String)> {
    let output = project
        .harness()
        .arg("judge")
        .args(args)
        .args(["--all", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(code), "{stdout}{stderr}");
    json(&output.stdout)["cases"]
        .as_array()
        .expect("a list of cases")
        .iter()
        .map(|case| {
            (
                case["verdict"].as_str().unwrap().to_string(),
                case["reason"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn shipped_queens_relay() -> Project {
    let toml = std::fs::read_to_string(repo().join("judge.toml")).unwrap();
    let start = toml
        .find("[problems.queens-relay]")
        .expect("judge.toml ships queens-relay");
    let end = toml[start + 1..]
        .find("\n[")
        .map_or(toml.len(), |at| start + 1 + at);
    Project::new()
        .file("judge.toml", &toml[start..end])
        .tree("cases/queens-relay", &repo().join("cases/queens-relay"))
        .tree("solutions/managers", &repo().join("solutions/managers"))
        .tree(
            "solutions/submissions/queens-relay",
            &repo().join("solutions/submissions/queens-relay"),
        )
}

/// Two processes, each given its index: the placement and the hidden queen. The partial one
/// is right only on the placement (and on the case whose hidden queen is in column 1); the one
/// whose process 0 never answers is TLE, the manager waiting for it notwithstanding.
#[test]
fn the_shipped_queens_relay_verifies_its_submissions() {
    let project = shipped_queens_relay();
    let output = project
        .harness()
        .args(["verify", "queens-relay", "-j", "2", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let document = json(&output.stdout);
    let got: BTreeMap<String, (String, f64)> = document["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                (
                    s["verdict"].as_str().unwrap().to_string(),
                    s["score"].as_f64().unwrap_or(f64::NAN),
                ),
            )
        })
        .collect();
    let expected = |verdict: &str, score: f64| (verdict.to_string(), score);
    assert_eq!(
        got,
        BTreeMap::from([
            (
                "queens-relay/accepted/relay.cpp".into(),
                expected("AC", 100.0)
            ),
            (
                "queens-relay/accepted/relay.py".into(),
                expected("AC", 100.0)
            ),
            (
                "queens-relay/partially_accepted/first_column.py".into(),
                expected("AC", 60.0)
            ),
            (
                "queens-relay/time_limit_exceeded/never_answers.py".into(),
                expected("TLE", 0.0)
            ),
        ]),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(OK), "{stderr}");
}

/// One process that doubles what the manager says; `manager` is the manager's Python source.
fn doubling(manager: &str, processes: usize) -> Project {
    Project::new()
        .file(
            "judge.toml",
            &format!(
                "[problems.double]\ntime-limit = \"1s\"\ncommunication = {{ manager = [\"python3\", \"manager.py\"], processes = {processes} }}\n"
            ),
        )
        .file("manager.py", manager)
        .case("double", "1", "21\n", "")
        .file(
            "double.py",
            "import sys\nx = int(input())\nprint(2 * x, flush=True)\n",
        )
}

/// A manager that checks the answer of each of its processes, as CMS managers are written.
const MANAGER: &str = r#"import sys
x = int(sys.stdin.read())
right = 0
processes = (len(sys.argv) - 1) // 2
for i in range(processes):
    with open(sys.argv[1 + 2 * i]) as answers, open(sys.argv[2 + 2 * i], "w") as out:
        out.write(f"{x}\n")
        out.close()
        right += answers.readline().strip() == str(2 * x)
print(1.0 if right == processes else 0.0)
print("translate:success" if right == processes else f"{right} of {processes} right", file=sys.stderr)
"#;

#[test]
fn a_manager_talks_with_each_process_and_its_score_is_the_verdict() {
    let project = doubling(MANAGER, 3);
    assert_eq!(
        judge(&project, &["double", "double.py"], OK),
        [("AC".to_string(), "Output is correct".to_string())]
    );
    project.write(
        "half.py",
        "import sys\nx = int(input())\nprint(x, flush=True)\n",
    );
    let rows = judge(&project, &["double", "half.py"], FAILED);
    assert_eq!(rows[0], ("WA".to_string(), "0 of 3 right".to_string()));
}

/// The manager is the judge's: its crash, or a score that is no score, is never the
/// contestant's WA.
#[test]
fn a_manager_that_crashes_or_says_nonsense_is_a_judge_error() {
    for (manager, says) in [
        (
            "import sys\nraise SystemExit('the manager is broken')\n".to_string(),
            "the manager exited with 1: the manager is broken",
        ),
        (
            MANAGER.replace("print(1.0 if", "print('yes' if"),
            "should be a score from 0.0 to 1.0, and is `yes`",
        ),
        (
            MANAGER.replace("print(1.0 if", "print(1.5 if"),
            "and is `1.5`",
        ),
    ] {
        let project = doubling(&manager, 1);
        let rows = judge(&project, &["double", "double.py"], JUDGE_ERROR);
        assert_eq!(rows[0].0, "JE", "{manager}: {rows:?}");
        assert!(rows[0].1.contains(says), "{manager}: {rows:?}");
    }
}

/// A process that reads its input and never answers: the manager waits for its line, the
/// process is stopped at its wall bound, and the case is TLE; the judge does not hang.
#[test]
fn a_contestant_that_never_answers_is_tle_not_a_hang() {
    let project = doubling(MANAGER, 2);
    project.write(
        "silent.py",
        "import sys, time\ninput()\nif sys.argv[1] == '1':\n    time.sleep(1000)\nprint(0, flush=True)\n",
    );
    let rows = judge(&project, &["double", "silent.py"], FAILED);
    assert_eq!(rows[0].0, "TLE", "{rows:?}");
    assert!(rows[0].1.contains("process 1"), "{rows:?}");
    assert!(rows[0].1.contains("wall time"), "{rows:?}");
}

/// The limit is the processes' CPU time summed: two that each spin for 1.3 s of CPU are within
/// Python's 2 s alone, and over it together.
#[test]
fn the_time_limit_is_the_processes_cpu_time_summed() {
    let project = doubling(MANAGER, 2);
    project.write(
        "spin.py",
        "import time\nx = int(input())\nwhile time.process_time() < 1.3:\n    pass\nprint(2 * x, flush=True)\n",
    );
    let rows = judge(&project, &["double", "spin.py"], FAILED);
    assert_eq!(rows[0].0, "TLE", "{rows:?}");
    assert!(rows[0].1.contains("summed"), "{rows:?}");
}

/// A stub compiled with the contestant's code (judge.toml's `grader`): the contestant writes
/// `long long twice(long long)`, the stub talks with the manager.
#[test]
fn a_stub_is_compiled_with_the_contestants_function() {
    let project = doubling(MANAGER, 1)
        .file(
            "judge.toml",
            "[problems.double]\ntime-limit = \"1s\"\ncommunication = { manager = [\"python3\", \"manager.py\"] }\ngrader = { cpp = \"stub.cpp\" }\n",
        )
        .file(
            "stub.cpp",
            "#include <cstdio>\nlong long twice(long long x);\nint main() { long long x; if (std::scanf(\"%lld\", &x) != 1) return 1; std::printf(\"%lld\\n\", twice(x)); std::fflush(stdout); }\n",
        )
        .file("twice.cpp", "long long twice(long long x) { return 2 * x; }\n");
    assert_eq!(
        judge(&project, &["double", "twice.cpp"], OK)[0].0,
        "AC".to_string()
    );
}

/// A manager that answers WA and closes its FIFOs before its process, which then asserts on
/// the end of file: RE on every case, as CMS decides once all have ended (a user's failure
/// before the manager's outcome), however the ends of the two reached the judge. Before, the
/// order the judge saw them in decided it: RE or WA from one case to the next.
#[test]
fn a_user_that_crashes_after_the_manager_closed_is_re_on_every_case() {
    let mut project = doubling(
        "import sys\nsys.stdin.read()\nopen(sys.argv[2], 'w').close()\nopen(sys.argv[1]).close()\nprint(0.0)\nprint('translate:wrong', file=sys.stderr)\n",
        1,
    )
    .file(
        "eof.py",
        "import sys\nline = sys.stdin.readline()\nassert line, 'the manager closed'\n",
    );
    for case in 2..=20 {
        project = project.case("double", &case.to_string(), "21\n", "");
    }
    let rows = judge(&project, &["double", "eof.py", "-j", "2"], FAILED);
    assert_eq!(rows.len(), 20);
    for (verdict, reason) in &rows {
        assert_eq!(verdict, "RE", "{rows:?}");
        assert!(reason.contains("exit"), "{rows:?}");
    }
}

#[test]
fn communication_keys_are_checked_at_their_line() {
    for (table, says) in [
        (
            "[problems.double]\ncommunication = { manager = [\"python3\", \"manager.py\"], processes = 0 }\n",
            "`processes` is 0, not from 1 to 16",
        ),
        (
            "[problems.double]\nsolution = \"double.py\"\ncommunication = { manager = [\"python3\", \"manager.py\"] }\n",
            "is a communication task, so `solution` means nothing",
        ),
        (
            "[problems.double]\ncommunication = { manager = \"missing.cpp\" }\n",
            "missing.cpp",
        ),
    ] {
        let project = doubling(MANAGER, 1).file("judge.toml", table);
        let output = project
            .harness()
            .args(["judge", "double", "double.py"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(ERROR), "{table}\n{stderr}");
        assert!(stderr.contains(says), "{table}\n{stderr}");
        assert!(stderr.contains("judge.toml:"), "{table}\n{stderr}");
    }
}
