//! `harness judge PROBLEM FILE` on a temporary project: the verdict an online judge would give
//! (the first failing case's, in case order), the exit code, the JSON fields, and clear errors.
//! Verdicts, codes and messages are asserted, never timings.
#![cfg(unix)]

mod common;

use std::path::PathBuf;

use predicates::prelude::*;
use serde_json::Value;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

/// A problem `sum` (two numbers in, their sum out) and three languages, one of them with a
/// compiler that does not exist. Limits are generous: no test depends on the machine's speed.
const PROBLEM_TOML: &str = r#"
[defaults]
time-limit = "2s"
memory-limit = "256MiB"

[problems.sum]
solution = "/bin/cat"
"#;

const GHOST_TOML: &str = r#"
[languages.ghost]
name = "Ghost"
extensions = ["ghost"]
compile = ["no-such-compiler-zz", "-o", "{exe}", "{source}"]
run = ["{exe}"]
"#;

/// Right on 01 and 02, a run-time error on 03, a wrong answer on 04: the verdict must be RE,
/// the first failure in case order, not the last nor the "worst".
const FIRST_FAILURE_C: &str = r#"#include <stdio.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    if (a == 100) { fprintf(stderr, "giving up on 100\n"); return 3; }
    if (a == 1000) a++;
    printf("%lld\n", a + b);
    return 0;
}
"#;

const BROKEN_C: &str = "int main(void) {\n    return 0\n}\n";

const SUM_PY: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

/// The shared project builder, with the sum problem's judge.toml and cases.
struct Project {
    project: common::project::Project,
}

impl Project {
    /// judge.toml and four cases of `sum`: 01 and 02 easy, 03 and 04 where FIRST_FAILURE_C
    /// goes wrong.
    fn new() -> Project {
        let toml = format!("{PROBLEM_TOML}{}{GHOST_TOML}", common::C_AND_PYTHON);
        let project = common::project::Project::new()
            .file("judge.toml", &toml)
            .case("sum", "01", "1 2\n", "3\n")
            .case("sum", "02", "5 7\n", "12\n")
            .case("sum", "03", "100 -1\n", "99\n")
            .case("sum", "04", "1000 1\n", "1001\n");
        Project { project }
    }

    fn write(&self, relative: &str, text: &str) -> PathBuf {
        self.project.write(relative, text)
    }

    /// The well-behaved sum program of the test fixtures, as a submission.
    fn sum_c(&self) -> &'static str {
        let text = std::fs::read_to_string(common::fixture_source("echo-sum")).unwrap();
        self.write("sum.c", &text);
        "sum.c"
    }

    fn judge(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        self.project.harness().arg("judge").args(args).assert()
    }

    fn judge_json(&self, args: &[&str], code: i32) -> Value {
        let assert = self
            .judge(&[args, &["--format", "json"]].concat())
            .code(code);
        let stdout = &assert.get_output().stdout;
        // Exactly one JSON document on stdout, nothing else.
        serde_json::from_slice(stdout).unwrap_or_else(|error| {
            panic!(
                "stdout is not one JSON document ({error}):\n{}",
                String::from_utf8_lossy(stdout)
            )
        })
    }
}

fn no_panic() -> impl Predicate<str> {
    predicate::str::contains("panicked").not()
}

#[test]
fn a_right_c_submission_is_accepted() {
    let project = Project::new();
    let source = project.sum_c();
    project
        .judge(&["sum", source])
        .code(OK)
        .stdout(predicate::str::contains("sum: sum.c (C11), 4 cases"))
        .stdout(predicate::str::contains("verdict: AC — 4 AC;"));
}

#[test]
fn a_right_python_submission_is_accepted() {
    let project = Project::new();
    project.write("sum.py", SUM_PY);
    project
        .judge(&["sum", "sum.py"])
        .code(OK)
        .stdout(predicate::str::contains("(Python 3)"))
        .stdout(predicate::str::contains("verdict: AC — 4 AC;"));
}

#[test]
fn the_first_failing_case_in_case_order_decides_the_verdict() {
    let project = Project::new();
    project.write("first_failure.c", FIRST_FAILURE_C);
    // Every case (`--all`): the verdict is still the first failing one's, not the last's.
    project
        .judge(&["sum", "first_failure.c", "--all"])
        .code(FAILED)
        .stdout(predicate::str::contains(
            "verdict: RE (first failing case: 03) — 2 AC, 1 WA, 1 RE;",
        ))
        .stdout(predicate::str::contains("exit 3: giving up on 100"))
        .stdout(predicate::str::contains("expected 1001, found 1002"));
}

#[test]
fn json_carries_every_field() {
    let project = Project::new();
    project.write("first_failure.c", FIRST_FAILURE_C);
    let json = project.judge_json(&["sum", "first_failure.c", "--all"], FAILED);
    assert_eq!(json["problem"], "sum");
    assert_eq!(json["submission"], "first_failure.c");
    assert_eq!(json["language"], "c");
    assert_eq!(json["language_name"], "C11");
    assert_eq!(json["verdict"], "RE");
    assert_eq!(json["first_failure"], "03");
    assert_eq!(json["compile"]["ok"], true);
    assert!(json["compile"]["message"].is_string());
    assert_eq!(json["limits"]["time_ms"], 2000);
    assert_eq!(json["limits"]["memory_kib"], 256 * 1024);
    assert_eq!(
        json["counts"],
        serde_json::json!({"AC": 2, "WA": 1, "RE": 1})
    );
    assert_eq!(json["cases_planned"], 4);
    let cases = json["cases"].as_array().unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["01", "02", "03", "04"]);
    let verdicts: Vec<&str> = cases
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["AC", "AC", "RE", "WA"]);
    for case in cases {
        for field in ["time_ms", "wall_ms", "memory_kib"] {
            assert!(case[field].is_u64(), "{field} in {case}");
        }
        assert!(case["reason"].is_string(), "{case}");
    }
    assert!(cases[2]["reason"]
        .as_str()
        .unwrap()
        .contains("exit 3: giving up on 100"));
}

#[test]
fn a_compile_error_is_ce_with_the_compilers_message_and_no_case_run() {
    let project = Project::new();
    project.write("broken.c", BROKEN_C);
    project
        .judge(&["sum", "broken.c"])
        .code(FAILED)
        .stdout(predicate::str::contains("CE"))
        // The message names the user's file, not the private copy that was compiled.
        .stdout(predicate::str::contains("broken.c:2"))
        .stdout(predicate::str::contains("error"))
        .stdout(predicate::str::contains("harness-build-").not())
        .stdout(predicate::str::contains(
            "verdict: CE (compile error; no case was run)",
        ));

    let json = project.judge_json(&["sum", "broken.c"], FAILED);
    assert_eq!(json["verdict"], "CE");
    assert_eq!(json["compile"]["ok"], false);
    assert!(json["compile"]["message"]
        .as_str()
        .unwrap()
        .contains("error"));
    assert_eq!(json["cases"], serde_json::json!([]));
    assert_eq!(json["first_failure"], Value::Null);
}

#[test]
fn a_missing_compiler_is_named() {
    let project = Project::new();
    project.write("sum.ghost", "boo");
    project
        .judge(&["sum", "sum.ghost"])
        .code(ERROR)
        .stderr(predicate::str::contains(
            "`no-such-compiler-zz` is not installed",
        ))
        .stderr(predicate::str::contains("[languages.ghost]"))
        .stderr(no_panic());
}

#[test]
fn an_unknown_problem_lists_the_known_ones() {
    let project = Project::new();
    let source = project.sum_c();
    project
        .judge(&["summ", source])
        .code(ERROR)
        .stderr(predicate::str::contains("unknown problem `summ`"))
        .stderr(predicate::str::contains("`sum`"))
        .stderr(no_panic());
}

#[test]
fn an_unknown_extension_says_how_to_pick_a_language() {
    let project = Project::new();
    project.write("sum.zz", "whatever");
    project
        .judge(&["sum", "sum.zz"])
        .code(ERROR)
        .stderr(predicate::str::contains(
            "cannot tell the language of `sum.zz`",
        ))
        .stderr(predicate::str::contains("--lang"))
        .stderr(predicate::str::contains("python (.py)"))
        .stderr(no_panic());
}

#[test]
fn lang_overrides_the_extension() {
    let project = Project::new();
    let text = std::fs::read_to_string(common::fixture_source("echo-sum")).unwrap();
    project.write("sum.txt", &text);
    project
        .judge(&["sum", "sum.txt", "--lang", "c"])
        .code(OK)
        .stdout(predicate::str::contains("verdict: AC"));
}

#[test]
fn a_missing_source_file_is_an_error() {
    let project = Project::new();
    project
        .judge(&["sum", "nope.c"])
        .code(ERROR)
        .stderr(predicate::str::contains(
            "submission `nope.c` does not exist",
        ))
        .stderr(no_panic());
}

#[test]
fn cases_from_another_folder() {
    let project = Project::new();
    project.write("first_failure.c", FIRST_FAILURE_C);
    // A downloaded test set that avoids the program's two bugs.
    project.write("downloaded/big.in", "40 2\n");
    project.write("downloaded/big.ans", "42\n");
    let json = project.judge_json(&["sum", "first_failure.c", "--cases", "downloaded"], OK);
    assert_eq!(json["verdict"], "AC");
    assert_eq!(json["cases_planned"], 1);
    assert_eq!(json["cases"][0]["name"], "big");
}

#[test]
fn a_case_glob_picks_cases() {
    let project = Project::new();
    project.write("first_failure.c", FIRST_FAILURE_C);
    project
        .judge(&["sum", "first_failure.c", "-c", "0[12]"])
        .code(OK)
        .stdout(predicate::str::contains("2 cases"))
        .stdout(predicate::str::contains("verdict: AC — 2 AC;"));
}

#[test]
fn fail_fast_stops_at_the_first_failure_in_case_order_even_in_parallel() {
    let project = Project::new();
    project.write("first_failure.c", FIRST_FAILURE_C);
    let json = project.judge_json(
        &["sum", "first_failure.c", "--fail-fast", "-j", "3"],
        FAILED,
    );
    assert_eq!(json["verdict"], "RE");
    assert_eq!(json["first_failure"], "03");
    assert_eq!(json["cases_planned"], 4);
    let names: Vec<&str> = json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["01", "02", "03"]);
}

/// A FIFO blocked the judge for ever and `/dev/zero` filled its memory: a source that is not a
/// regular file is refused before anything is read, saying what it is.
#[test]
fn a_source_that_is_not_a_regular_file_is_refused_saying_what_it_is() {
    let project = Project::new();
    let fifo = project.project.join("pipe.c");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    std::fs::create_dir(project.project.join("folder.c")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", project.project.join("zero.c")).unwrap();
    for (source, kind) in [
        ("pipe.c", "a FIFO"),
        ("folder.c", "a directory"),
        ("zero.c", "a character device"),
    ] {
        project
            .judge(&["sum", source])
            .code(ERROR)
            .stderr(predicate::str::contains(format!("`{source}` is {kind}")))
            .stderr(no_panic());
    }
}

/// A case file that is a FIFO or a folder: refused by name, not skipped nor blocked on.
#[test]
fn a_case_that_is_not_a_regular_file_is_refused_saying_what_it_is() {
    let project = Project::new();
    let source = project.sum_c();
    let fifo = project.project.join("cases/sum/05.in");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    project.write("cases/sum/05.ans", "3\n");
    project
        .judge(&["sum", source])
        .code(ERROR)
        .stderr(predicate::str::contains("05.in` is a FIFO"))
        .stderr(no_panic());
    std::fs::remove_file(&fifo).unwrap();
    std::fs::create_dir(&fifo).unwrap();
    project
        .judge(&["sum", source])
        .code(ERROR)
        .stderr(predicate::str::contains("05.in` is a directory"))
        .stderr(no_panic());
}

/// A language `bad` whose compiler is the fixture `compiler` (it never writes `{exe}`), held
/// to small compile limits, and a source for it: `sum.bad`.
fn with_bad_compiler(project: &Project, compiler: &str) -> &'static str {
    let toml = project.project.read("judge.toml");
    let compiler = common::fixture(compiler);
    project.write(
        "judge.toml",
        &format!(
            "{toml}\n[languages.bad]\nextensions = [\"bad\"]\ncompile = [\"{}\", \"{{source}}\"]\nrun = [\"{{exe}}\"]\ncompile-time-limit = \"2s\"\ncompile-memory-limit = \"64MiB\"\n",
            compiler.display()
        ),
    );
    project.write("sum.bad", "");
    "sum.bad"
}

#[test]
fn a_compiler_that_hangs_is_ce_at_its_time_limit() {
    let project = Project::new();
    let source = with_bad_compiler(&project, "sleep-30s");
    let json = project.judge_json(&["sum", source], FAILED);
    assert_eq!(json["verdict"], "CE");
    let message = json["compile"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the compiler took longer than 2 s (compile-time-limit)"),
        "{message}"
    );
}

#[test]
fn a_compiler_that_allocates_without_end_is_ce_at_its_memory_limit() {
    let project = Project::new();
    let source = with_bad_compiler(&project, "alloc-forever");
    project
        .judge(&["sum", source])
        .code(FAILED)
        .stdout(predicate::str::contains(
            "the compiler used more than 64 MiB (compile-memory-limit)",
        ))
        .stdout(predicate::str::contains(
            "verdict: CE (compile error; no case was run)",
        ))
        .stderr(no_panic());
}

/// A pass-fail verdict is the first failing case's: the default stops there, says how many
/// cases were left and how to judge them all; `--all` (and `--format json --all`) judges every
/// case.
#[test]
fn a_settled_verdict_stops_judging_and_says_what_was_left() {
    let project = Project::new();
    project.write("first_failure.c", FIRST_FAILURE_C);
    project
        .judge(&["sum", "first_failure.c"])
        .code(FAILED)
        .stdout(predicate::str::contains(
            "verdict: RE (first failing case: 03; the verdict is settled there: 3 of 4 cases judged, --all judges the other 1) — 2 AC, 1 RE;",
        ))
        .stdout(predicate::str::contains("expected 1001, found 1002").not());
    let json = project.judge_json(&["sum", "first_failure.c"], FAILED);
    assert_eq!(json["cases_planned"], 4);
    assert_eq!(json["cases"].as_array().unwrap().len(), 3, "{json}");
    assert_eq!(json["verdict"], "RE");
    let json = project.judge_json(&["sum", "first_failure.c", "--all"], FAILED);
    assert_eq!(json["cases"].as_array().unwrap().len(), 4, "{json}");
}

/// `--failed` is kept per source: judging b.py after a.py does not make a.py's `--failed`
/// rerun b.py's failures (nor forget a.py's).
#[test]
fn failed_reruns_what_this_source_failed_not_what_another_did() {
    let project = Project::new();
    let wrong_on = |a: i64| {
        format!("a, b = map(int, input().split())\nprint(a + b + (1 if a == {a} else 0))\n")
    };
    project.write("a.py", &wrong_on(5));
    project.write("b.py", &wrong_on(100));
    let cases = |json: &Value| -> Vec<String> {
        json["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|case| case["name"].as_str().unwrap().to_string())
            .collect()
    };
    project.judge_json(&["sum", "a.py"], FAILED);
    project.judge_json(&["sum", "b.py"], FAILED);
    let json = project.judge_json(&["sum", "./a.py", "--failed"], FAILED);
    assert_eq!(cases(&json), ["02"], "{json}");
    let json = project.judge_json(&["sum", "b.py", "--failed"], FAILED);
    assert_eq!(cases(&json), ["03"], "{json}");
}
