//! `harness stress SOURCE --gen GEN [--brute BRUTE]` in a folder with no judge.toml: sources
//! in any language for the generator and the brute force, a checker program that needs no
//! answer, and clear errors for what is missing.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::project::Project;

use predicates::prelude::*;

const FAILED: i32 = 1;
const ERROR: i32 = 2;
const INTERRUPTED: i32 = 130;

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

fn folder() -> Project {
    Project::new()
        .file("wrong.c", WRONG_SUM_C)
        .file("brute.py", BRUTE_PY)
        .file("gen.py", GEN_PY)
}

fn harness(project: &Project, args: &[&str]) -> assert_cmd::assert::Assert {
    project.harness().args(args).assert()
}

fn json(assert: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_slice(&assert.get_output().stdout).unwrap()
}

#[test]
fn sources_for_brute_and_generator_and_a_planted_bug_shrunk_to_one_number() {
    let dir = folder();
    let assert = harness(
        &dir,
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
        &dir,
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
        &dir,
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
    harness(&dir, &["stress", "wrong.c", "--brute", "brute.py"])
        .code(ERROR)
        .stderr(predicate::str::contains("needs --gen"))
        .stderr(predicate::str::contains("first seed").not());
    harness(&dir, &["stress", "wrong.c", "--gen", "gen.py"])
        .code(ERROR)
        .stderr(predicate::str::contains(
            "nothing answers the random inputs",
        ))
        .stderr(predicate::str::contains("first seed").not());
    harness(
        &dir,
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
        harness(&dir, &args).success()
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

/// `a b c`: prints a * b + c, but multiplies in 32 bits, as `int p = a * b` does (written
/// without the undefined behaviour): wrong once a * b reaches 2^31.
const OVERFLOW_C: &str = r#"#include <stdio.h>
int main(void) {
    int a, b, c;
    if (scanf("%d %d %d", &a, &b, &c) != 3) return 1;
    int p = (int)((unsigned)a * (unsigned)b);
    printf("%lld\n", (long long)p + c);
    return 0;
}
"#;

const PRODUCT_PY: &str = "a, b, c = map(int, input().split())\nprint(a * b + c)\n";

/// Three big numbers, as the issue's: a and b up to 10^9, c up to 10^4.
const BIG_GEN_PY: &str = r#"import random, sys
r = random.Random(int(sys.argv[1]))
print(r.randint(10**8, 10**9), r.randint(10**8, 10**9), r.randint(1, 10**4))
"#;

/// Three integers from 1 to 10^9, and nothing else. In C: it runs once a candidate.
const THREE_VALIDATOR_C: &str = r#"#include <stdio.h>
int main(void) {
    long long v;
    int n = 0;
    while (scanf("%lld", &v) == 1) {
        if (v < 1 || v > 1000000000) return 1;
        n++;
    }
    return feof(stdin) && n == 3 ? 0 : 1;
}
"#;

/// The overflow fixture: a submission, the brute force, a generator and a validator.
fn overflow_project() -> Project {
    Project::new()
        .file("overflow.c", OVERFLOW_C)
        .file("product.py", PRODUCT_PY)
        .file("gen.py", BIG_GEN_PY)
        .file("valid.c", THREE_VALIDATOR_C)
}

/// `harness stress` in `project`, with its own build cache and no user settings.
fn stress_in(project: &Project, args: &[&str]) -> assert_cmd::assert::Assert {
    project
        .harness()
        .env("XDG_CONFIG_HOME", project.join("config"))
        .arg("stress")
        .args(args)
        .assert()
}

const OVERFLOW_ARGS: [&str; 9] = [
    "overflow.c",
    "--brute",
    "product.py",
    "--gen",
    "gen.py",
    "--validator",
    "valid.c",
    "--seed",
    "1",
];

fn numbers(text: &str) -> Vec<i64> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn overflows(numbers: &[i64]) -> bool {
    numbers[0] * numbers[1] > i64::from(i32::MAX)
}

#[test]
fn an_overflow_shrinks_by_bisection_to_a_minimal_input() {
    let project = overflow_project();
    let mut args = OVERFLOW_ARGS.to_vec();
    args.extend(["-n", "1", "--format", "json"]);
    let report = json(&stress_in(&project, &args).code(FAILED));
    assert_eq!(report["verdict"], "WA", "{report:#}");
    assert_eq!(report["shrink"], "shrunk", "{report:#}");
    let input = report["input"].as_str().unwrap();
    let minimal = numbers(input);
    assert!(overflows(&minimal), "{report:#}");
    // The smallest value the validator accepts for the number that does not matter, and
    // each of the others where one less passes.
    assert_eq!(minimal[2], 1, "{report:#}");
    for index in 0..2 {
        let mut lower = minimal.clone();
        lower[index] -= 1;
        assert!(!overflows(&lower), "`{input}` is not minimal at {index}");
    }
    // About 30 runs a number by bisection, against one run per unit before.
    let tried = report["candidates_tried"].as_u64().unwrap();
    assert!(tried < 300, "{tried} candidates tried: {report:#}");
    // A shrink that ran to its end keeps no files.
    assert!(report.get("kept").is_none(), "{report:#}");
    assert!(!project.join("stress-failing.in").exists());

    // The step log of the same shrink is a summary: the first steps and the last.
    args.truncate(args.len() - 2);
    let assert = stress_in(&project, &args).code(FAILED);
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let log: Vec<&str> = text
        .lines()
        .skip_while(|line| !line.starts_with("shrunk in"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .collect();
    assert!(log.len() <= 10, "{text}");
    assert!(
        log.iter().any(|line| line.contains("more steps …")),
        "{text}"
    );
}

/// `n`, then n numbers: prints the number of pairs i < j with equal values.
const PAIRS_PY: &str = r#"from collections import Counter
input()
print(sum(k * (k - 1) // 2 for k in Counter(input().split()).values()))
"#;

/// Counts each run of equal values after sorting as k - 1 pairs: right for values that
/// occur at most twice.
const PAIRS_WRONG_PY: &str = r#"input()
values = sorted(map(int, input().split()))
print(sum(1 for x, y in zip(values, values[1:]) if x == y))
"#;

/// A thousand numbers from 1 to 100: many values thrice or more.
const LIST_GEN_PY: &str = r#"import random, sys
r = random.Random(int(sys.argv[1]))
print(1000)
print(*[r.randint(1, 100) for _ in range(1000)])
"#;

/// `n`, then n numbers from 1 to 100, and nothing else.
const LIST_VALIDATOR_C: &str = r#"#include <stdio.h>
int main(void) {
    long long n, v, i;
    if (scanf("%lld", &n) != 1 || n < 1 || n > 1000) return 1;
    for (i = 0; i < n; i++)
        if (scanf("%lld", &v) != 1 || v < 1 || v > 100) return 1;
    return scanf("%lld", &v) == EOF ? 0 : 1;
}
"#;

#[test]
fn a_duplicate_pairs_bug_in_a_list_of_a_thousand_shrinks_to_three_numbers() {
    let project = Project::new()
        .file("wrong.py", PAIRS_WRONG_PY)
        .file("pairs.py", PAIRS_PY)
        .file("gen.py", LIST_GEN_PY)
        .file("valid.c", LIST_VALIDATOR_C);
    let report = json(
        &stress_in(
            &project,
            &[
                "wrong.py",
                "--brute",
                "pairs.py",
                "--gen",
                "gen.py",
                "--validator",
                "valid.c",
                "--seed",
                "1",
                "-n",
                "1",
                "--format",
                "json",
            ],
        )
        .code(FAILED),
    );
    assert_eq!(report["shrink"], "shrunk", "{report:#}");
    // Three equal numbers, the least the validator allows: the smallest input the bug shows on.
    assert_eq!(report["input"], "3\n1 1 1\n", "{report:#}");
    assert_eq!(report["expected"], "3\n");
    assert_eq!(report["output"], "2\n");
}

#[test]
fn a_budget_of_candidates_stops_early_and_prints_and_keeps_both_inputs() {
    let project = overflow_project().file("stress-failing.in", "mine\n");
    let mut args = OVERFLOW_ARGS.to_vec();
    // Five candidates find no smaller input (dropping tokens breaks the format, 0 is out
    // of bounds, then `a` one less fails): eight have a few.
    args.extend(["-n", "1", "--shrink-candidates", "8", "--format", "json"]);
    let report = json(&stress_in(&project, &args).code(FAILED));
    assert_eq!(report["shrink"], "candidate-budget", "{report:#}");
    assert_eq!(report["candidates_tried"], 8, "{report:#}");
    let original = report["original_input"].as_str().unwrap();
    let smallest = report["input"].as_str().unwrap();
    assert_ne!(original, smallest, "{report:#}");
    assert!(overflows(&numbers(smallest)), "{report:#}");
    // Both kept, beside a file of the user's of the same name, which stays as it was.
    let kept = &report["kept"];
    let first = Path::new(kept["first"].as_str().unwrap());
    let small = Path::new(kept["smallest"].as_str().unwrap());
    assert_eq!(first, project.join("stress-failing-2.in"), "{report:#}");
    assert_eq!(small, project.join("stress-smallest.in"), "{report:#}");
    assert_eq!(std::fs::read_to_string(first).unwrap(), original);
    assert_eq!(std::fs::read_to_string(small).unwrap(), smallest);
    assert_eq!(project.read("stress-failing.in"), "mine\n");

    // For people: why it stopped, both inputs, and where they are.
    args.truncate(args.len() - 2);
    let assert = stress_in(&project, &args).code(FAILED);
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        text.contains("shrinking stopped at its budget of 8 candidates (--shrink-candidates)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "first failing input (seed 1, 1 line, 3 tokens, {} B):\n  {original}",
            original.len()
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "smallest failing input so far (1 line, 3 tokens, {} B):\n  {smallest}",
            smallest.len()
        )),
        "{text}"
    );
    assert!(
        text.contains("kept: stress-failing-3.in (the first failing input), stress-smallest-2.in (the smallest)"),
        "{text}"
    );
    assert_eq!(project.read("stress-smallest-2.in"), smallest);
}

/// The overflow's three numbers, whatever the seed.
const FIXED_GEN_PY: &str = "print(148994384, 805819538, 5687)\n";

#[test]
fn ctrl_c_while_shrinking_prints_and_keeps_the_failing_input() {
    // Slow: a fifth of a second a run, so that the shrink is still going when Ctrl-C comes.
    // The brute force leaves a line per run, to tell when shrinking has begun.
    let project = Project::new()
        .file(
            "slow.py",
            "import time\ntime.sleep(0.2)\na, b, c = map(int, input().split())\np = (a * b) % 2**32\nprint((p - 2**32 if p >= 2**31 else p) + c)\n",
        )
        .file("gen.py", FIXED_GEN_PY);
    let log = project.join("runs.log");
    project.write(
        "product.py",
        &format!(
            "open({:?}, 'a').write('run\\n')\na, b, c = map(int, input().split())\nprint(a * b + c)\n",
            log.display().to_string()
        ),
    );
    // Spawned rather than asserted: the test signals it while it runs.
    let mut harness = project
        .process()
        .args([
            "stress",
            "slow.py",
            "--brute",
            "product.py",
            "--gen",
            "gen.py",
            "--seed",
            "1",
            "-n",
            "1",
            "-j",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The input found, then a few candidates: it is shrinking.
    let waiting = Instant::now();
    let runs = || std::fs::read_to_string(&log).map_or(0, |log| log.lines().count());
    while runs() < 4 {
        assert!(
            harness.try_wait().unwrap().is_none(),
            "the harness ended before shrinking"
        );
        assert!(
            waiting.elapsed() < Duration::from_secs(120),
            "never started shrinking"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(harness.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let output = harness.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(INTERRUPTED),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    assert!(
        stdout.contains("shrinking interrupted (Ctrl-C)"),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    assert!(
        stdout.contains(
            "kept: stress-failing.in (the first failing input), stress-smallest.in (the smallest)"
        ),
        "{stdout}"
    );
    assert_eq!(
        project.read("stress-failing.in"),
        "148994384 805819538 5687\n"
    );
    // The smallest so far fails too, and is what the report shows.
    let smallest = project.read("stress-smallest.in");
    assert!(overflows(&numbers(&smallest)), "{smallest}");
    assert!(
        stdout.contains(&format!("  {}", smallest.trim_end())),
        "{stdout}"
    );
}
