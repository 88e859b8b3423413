//! `harness stress SOURCE --gen GEN [--brute BRUTE]` in a folder with no judge.toml: sources
//! in any language for the generator and the brute force, a checker program that needs no
//! answer, and clear errors for what is missing.
#![cfg(unix)]

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

const FAILED: i32 = 1;
const ERROR: i32 = 2;

/// Sums a list: `n`, then n numbers on a line. Wrong when the list holds a number above 50.
const WRONG_SUM_C: &str = r#"#include <stdio.h>
int main(void) {
    int n; long long s = 0, v;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) { if (scanf("%lld", &v) != 1) return 1; s += v > 50 ? v + 1 : v; }
    printf("%lld\n", s);
    return 0;
}
"#;

const BRUTE_PY: &str = "n = int(input())\nprint(sum(map(int, input().split())) if n else 0)\n";

/// testlib-style: the seed is the last argument.
const GEN_PY: &str = r#"import random, sys
r = random.Random(int(sys.argv[1]))
n = r.randint(1, 8)
print(n)
print(*[r.randint(0, 60) for _ in range(n)])
"#;

fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write("wrong.c", WRONG_SUM_C);
    write("brute.py", BRUTE_PY);
    write("gen.py", GEN_PY);
    dir
}

fn harness(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("NO_COLOR", "1")
        .args(args)
        .assert()
}

fn json(assert: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_slice(&assert.get_output().stdout).unwrap()
}

#[test]
fn sources_for_brute_and_generator_and_a_planted_bug_shrunk_to_one_number() {
    let dir = folder();
    let assert = harness(
        dir.path(),
        &[
            "stress", "wrong.c", "--brute", "brute.py", "--gen", "gen.py", "--seed", "1",
            "--format", "json",
        ],
    )
    .code(FAILED);
    let report = json(&assert);
    assert_eq!(report["found"], true, "{report:#}");
    assert_eq!(report["verdict"], "WA");
    // One number, the smallest that triggers the bug; the count line kept in step.
    assert_eq!(report["input"], "1\n51\n", "{report:#}");
    assert_eq!(report["expected"], "51\n");
    assert_eq!(report["output"], "52\n");

    let assert = harness(
        dir.path(),
        &[
            "stress",
            "wrong.c",
            "--brute",
            "brute.py",
            "--gen",
            "python3 gen.py",
            "--seed",
            "1",
        ],
    )
    .code(FAILED);
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        text.contains("minimal failing input:\n  1\n  51\n"),
        "{text}"
    );
    assert!(
        text.contains("reproduce: harness stress wrong.c --gen 'python3 gen.py' --brute brute.py --seed 1 -n 1"),
        "{text}"
    );
}

#[test]
fn a_checker_program_needs_no_brute_force() {
    let dir = folder();
    // Judges an output by the input alone: the sum must not exceed 60 per number.
    std::fs::write(
        dir.path().join("check.sh"),
        "#!/bin/sh\nn=$(head -n 1 \"$1\")\nout=$(cat \"$2\")\n[ \"$out\" -le $((n * 60)) ] && exit 0\necho \"sum $out is too large\" >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("big.py"),
        "n = int(input())\nprint(n * 61)\n",
    )
    .unwrap();
    let assert = harness(
        dir.path(),
        &[
            "stress",
            "big.py",
            "--gen",
            "gen.py",
            "--checker",
            "sh check.sh",
            "--seed",
            "3",
            "--format",
            "json",
        ],
    )
    .code(FAILED);
    let report = json(&assert);
    assert_eq!(report["verdict"], "WA", "{report:#}");
    assert!(
        report["reason"].as_str().unwrap().contains("too large"),
        "{report:#}"
    );
}

#[test]
fn what_is_missing_is_said_before_any_seed() {
    let dir = folder();
    harness(dir.path(), &["stress", "wrong.c", "--brute", "brute.py"])
        .code(ERROR)
        .stderr(predicate::str::contains("needs --gen"))
        .stderr(predicate::str::contains("first seed").not());
    harness(dir.path(), &["stress", "wrong.c", "--gen", "gen.py"])
        .code(ERROR)
        .stderr(predicate::str::contains(
            "nothing answers the random inputs",
        ))
        .stderr(predicate::str::contains("first seed").not());
    harness(
        dir.path(),
        &["stress", "wrong.c", "--gen", "gen.py", "--brute", "./nope"],
    )
    .code(ERROR)
    .stderr(predicate::str::contains(
        "`./nope` is neither a file nor a command",
    ));
}

#[test]
fn a_repeated_input_is_answered_once_by_the_brute_force() {
    let dir = folder();
    // Three inputs in all, whatever the seed.
    std::fs::write(
        dir.path().join("gen3.py"),
        "import sys\nprint(1)\nprint(int(sys.argv[1]) % 3)\n",
    )
    .unwrap();
    // Leaves a line per run where the test can count them.
    let calls = dir.path().join("calls.log");
    std::fs::write(
        dir.path().join("counting.py"),
        format!(
            "open({:?}, 'a').write('run\\n')\nn = int(input())\nprint(sum(map(int, input().split())) if n else 0)\n",
            calls.display().to_string()
        ),
    )
    .unwrap();
    // `-j 1`: one worker, so no two runs of the same input overlap.
    let stress = |n: &str, more: &[&str]| {
        let mut args = vec![
            "stress",
            "wrong.c",
            "--brute",
            "counting.py",
            "--gen",
            "gen3.py",
            "-n",
            n,
            "-j",
            "1",
        ];
        args.extend_from_slice(more);
        harness(dir.path(), &args).success()
    };
    let report = json(&stress("30", &["--format", "json"]));
    assert_eq!(report["found"], false, "{report:#}");
    assert_eq!(report["iterations"], 30);
    let runs = std::fs::read_to_string(&calls).unwrap().lines().count();
    assert_eq!(runs, 3, "{report:#}");
    assert_eq!(report["answers_reused"], 27, "{report:#}");

    let assert = stress("4", &[]);
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        text.contains("1 repeated input answered as before"),
        "{text}"
    );

    std::fs::remove_file(&calls).unwrap();
    let report = json(&stress("5", &["--no-memo", "--format", "json"]));
    assert_eq!(report["answers_reused"], 0);
    assert_eq!(std::fs::read_to_string(&calls).unwrap().lines().count(), 5);
}
