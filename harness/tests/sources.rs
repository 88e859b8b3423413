//! judge.toml's author programs as source files: a reference `brute.py`, a generator
//! `gen.cpp`, a validator `val.py`, a checker `check.cpp` and a solution `sol.cpp`, compiled
//! through the built-in languages into the build cache once, and used by `add`,
//! `gen`, `validate`, `stress` and `run`.
//!
//! The problem is "sum": the input is `a b` with 0 ≤ a, b ≤ 100, the answer a + b.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::time::SystemTime;

use common::project::Project;
use predicates::prelude::*;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

const JUDGE_TOML: &str = r#"
[problems.sum]
solution = "sol.cpp"
reference = "brute.py"
validator = ["val.py"]
checker = { type = "command", command = ["check.cpp"] }

[[problems.sum.generators]]
name = "g{seed}"
command = ["gen.cpp", "{seed}"]
seeds = "1..=3"

[problems.sum.stress]
generator = ["gen.cpp", "{seed}"]
"#;

const BRUTE: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

/// Seed s gives `s%101 (3s)%101`.
const GEN: &str = r#"#include <cstdio>
#include <cstdlib>
int main(int argc, char** argv) {
    long s = std::atol(argv[1]);
    std::printf("%ld %ld\n", s % 101, (3 * s) % 101);
}
"#;

const VAL: &str = r#"import sys
a, b = map(int, sys.stdin.readline().split())
for v in (a, b):
    if not 0 <= v <= 100:
        sys.exit(f"line 1: {v} is out of [0, 100]")
"#;

/// testlib's protocol: `check input output answer`, exit 0 (AC) or 1 (WA).
const CHECK: &str = r#"#include <fstream>
int main(int argc, char** argv) {
    std::ifstream out(argv[2]), ans(argv[3]);
    long x, y;
    if (!(out >> x) || !(ans >> y)) return 1;
    return x == y ? 0 : 1;
}
"#;

const SOL: &str = r#"#include <iostream>
int main() { long a, b; std::cin >> a >> b; std::cout << a + b << "\n"; }
"#;

/// Wrong when a = 7.
const BUGGY: &str = r#"#include <iostream>
int main() { long a, b; std::cin >> a >> b; std::cout << a + b + (a == 7) << "\n"; }
"#;

fn project() -> Project {
    Project::new()
        .file("judge.toml", JUDGE_TOML)
        .file("brute.py", BRUTE)
        .file("gen.cpp", GEN)
        .file("val.py", VAL)
        .file("check.cpp", CHECK)
        .file("sol.cpp", SOL)
        .file("buggy.cpp", BUGGY)
        .case("sum", "sample-1", "1 2\n", "3\n")
}

/// Every build in the project's cache with the time it was made (its compiler messages'
/// file, written once; the folder's own time marks its last use): a rebuild would change the
/// set or a time.
fn builds(project: &Project) -> BTreeMap<String, SystemTime> {
    let Ok(entries) = fs::read_dir(project.cache_home().join("harness/build")) else {
        return BTreeMap::new();
    };
    entries
        .map(|entry| {
            let entry = entry.unwrap();
            let made = fs::metadata(entry.path().join(".message"))
                .and_then(|meta| meta.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            (entry.file_name().to_string_lossy().into_owned(), made)
        })
        .collect()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

#[test]
fn source_files_in_judge_toml_are_compiled_once_and_used_by_every_command() {
    let project = project();
    let root = project.path();

    project.args(["gen", "sum"]).status(OK).run();
    assert_eq!(project.read("cases/sum/g2.in"), "2 6\n");
    assert_eq!(project.read("cases/sum/g2.ans"), "8\n");
    // What gen uses: gen.cpp, val.py and brute.py (not the checker, nor the solution).
    let after_gen = builds(&project);
    let names: Vec<&str> = after_gen.keys().map(String::as_str).collect();
    assert_eq!(after_gen.len(), 3, "{names:?}");
    for build in ["gen-cpp-", "val-python-", "brute-python-"] {
        assert!(names.iter().any(|n| n.starts_with(build)), "{names:?}");
    }
    assert!(
        !names.iter().any(|n| n.starts_with('.')),
        "a build left aside: {names:?}"
    );

    project
        .harness()
        .args(["add", "sum", "mine", "--input", "-"])
        .write_stdin("40 2\n")
        .assert()
        .code(OK);
    assert_eq!(project.read("cases/sum/mine.ans"), "42\n");
    project
        .harness()
        .args(["add", "sum", "big", "--input", "-"])
        .write_stdin("400 2\n")
        .assert()
        .code(FAILED)
        .stderr(predicate::str::contains("400 is out of [0, 100]"));

    project.write("cases/sum/bad.in", "101 0\n");
    project.write("cases/sum/bad.ans", "101\n");
    project
        .args(["validate", "sum"])
        .status(FAILED)
        .stdout_contains("101 is out of [0, 100]")
        .run();
    fs::remove_file(root.join("cases/sum/bad.in")).unwrap();
    fs::remove_file(root.join("cases/sum/bad.ans")).unwrap();

    let run = project.harness().arg("run").assert().code(OK);
    assert!(stdout(&run).contains("5 AC"), "{}", stdout(&run));
    // The checker (add compares answers with it) and the solution sol.cpp join them;
    // nothing was built again.
    let after_run = builds(&project);
    assert_eq!(after_run.len(), 5);
    assert!(after_gen
        .iter()
        .all(|(name, time)| after_run.get(name) == Some(time)));

    // The checker's verdict is what counts: a wrong answer file is WA through check.cpp.
    project.write("cases/sum/mine.ans", "41\n");
    project
        .args(["run"])
        .status(FAILED)
        .stdout_contains("WA")
        .run();
    project.write("cases/sum/mine.ans", "42\n");

    project
        .args(["stress", "sum", "buggy.cpp", "-n", "200", "-j", "1"])
        .status(FAILED)
        .stdout_contains("7 ")
        .run();

    // Nothing above compiled a program twice: the same builds, untouched, and the stressed
    // submission's beside them.
    let after_stress = builds(&project);
    assert_eq!(after_stress.len(), 6);
    assert!(after_run
        .iter()
        .all(|(name, time)| after_stress.get(name) == Some(time)));
    assert!(after_stress
        .keys()
        .any(|name| name.starts_with("buggy-cpp-")));
    project.args(["run"]).status(OK).run();
    assert_eq!(
        builds(&project),
        after_stress,
        "the second run compiled again"
    );

    // An edited source is a new build; the old one is not used.
    project.write("brute.py", &format!("{BRUTE}# edited\n"));
    project.args(["gen", "sum"]).status(OK).run();
    assert_eq!(builds(&project).len(), 7);
}

#[test]
fn an_author_program_that_does_not_compile_is_an_error_naming_it() {
    let project = project().file("gen.cpp", "int main() { this is not C++ }\n");
    let assert = project.harness().args(["gen", "sum"]).assert().code(ERROR);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains("the generator `gen.cpp` does not compile"),
        "{stderr}"
    );
    // The compiler's own first lines, naming the user's file.
    assert!(stderr.contains("gen.cpp:1"), "{stderr}");
    assert!(stderr.contains("error"), "{stderr}");
    // Not a half-built folder left under the cache.
    let left: Vec<String> = fs::read_dir(project.cache_home().join("harness/build"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_command_compiles_only_the_programs_it_uses() {
    // Half-way through writing the generator: judging and validating still work.
    let project = project().file("gen.cpp", "int main() { this is not C++ }\n");
    project.args(["run"]).status(OK).run();
    project.args(["validate", "sum"]).status(OK).run();
    project.args(["judge", "sum", "sol.cpp"]).status(OK).run();
    project.args(["gen", "sum"]).status(ERROR).run();
}

#[test]
fn a_reference_may_be_a_command_array() {
    let project = project().file(
        "judge.toml",
        &JUDGE_TOML.replace(
            r#"reference = "brute.py""#,
            r#"reference = ["python3", "brute.py"]"#,
        ),
    );
    project
        .harness()
        .args(["add", "sum", "mine", "--input", "-"])
        .write_stdin("40 2\n")
        .assert()
        .code(OK);
    assert_eq!(project.read("cases/sum/mine.ans"), "42\n");
}
