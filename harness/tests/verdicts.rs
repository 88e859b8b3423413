//! One misbehaving fixture program per verdict, judged by the real `harness` binary on a
//! temporary project: the verdict, the reason, the exit code, and that nothing is left behind.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use predicates::prelude::*;

use common::expect::NO_ARGUMENTS;
use common::project::Project;
use serde_json::Value;

const OK: i32 = 0;
const FAILED: i32 = 1;

/// A project whose every problem is the sum of two numbers, each judged with one fixture as
/// its solution. Limits are small so that the misbehaving fixtures come back soon.
fn project(fixtures: &[&str]) -> Project {
    let mut toml = String::from(
        "[defaults]\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\noutput-limit = \"1MiB\"\n",
    );
    for name in fixtures {
        let solution = common::fixture(name);
        toml.push_str(&format!(
            "\n[problems.{name}]\nsolution = \"{}\"\ncases = \"cases/sum\"\n",
            solution.display()
        ));
    }
    Project::new()
        .file("judge.toml", &toml)
        .case("sum", "01", "1 2\n", "3\n")
}

/// Judges one fixture and returns its case's JSON entry and the exit code.
fn judge_json(fixture: &str) -> (Value, i32, Duration) {
    let dir = project(&[fixture]);
    let started = Instant::now();
    let output = dir
        .harness()
        .args(["run", "--format", "json"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let case = report["problems"][0]["cases"][0].clone();
    (case, output.status.code().unwrap(), elapsed)
}

fn assert_verdict(fixture: &str, verdict: &str, reason_part: &str) -> Duration {
    let (case, code, elapsed) = judge_json(fixture);
    assert_eq!(case["verdict"], verdict, "{fixture}: {case}");
    let reason = case["reason"].as_str().unwrap();
    assert!(
        reason.contains(reason_part),
        "{fixture}: reason `{reason}` lacks `{reason_part}`"
    );
    let expected_code = if verdict == "AC" { OK } else { FAILED };
    assert_eq!(code, expected_code, "{fixture}: exit code");
    elapsed
}

#[test]
fn right_answer_is_ac() {
    assert_verdict("echo-sum", "AC", "");
}

#[test]
fn wrong_output_is_wa_with_the_tokens() {
    assert_verdict("wrong-sum", "WA", "expected 3, found 4");
}

#[test]
fn spinning_forever_is_tle() {
    let (case, code, _) = judge_json("spin");
    assert_eq!(case["verdict"], "TLE", "{case}");
    // On a loaded machine the wall bound may strike first; either way it is TLE.
    assert_eq!(code, FAILED);
}

#[test]
fn sleeping_is_tle_within_the_wall_bound() {
    // The wall bound is 2 × 1 s + 1 s; the fixture would sleep 30 s. The margin is generous.
    let elapsed = assert_verdict("sleep-30s", "TLE", "wall time");
    assert!(
        elapsed < Duration::from_secs(20),
        "took {elapsed:?}: the sleeper was not killed"
    );
}

#[test]
fn allocating_a_gibibyte_is_mle() {
    assert_verdict("alloc-1gib", "MLE", "");
}

#[test]
fn segfault_is_re_by_signal_name() {
    assert_verdict("segfault", "RE", "SIGSEGV");
}

#[test]
fn exit_3_is_re_with_the_code() {
    assert_verdict("exit-3", "RE", "exit 3");
}

#[test]
fn printing_forever_is_ole() {
    assert_verdict("print-forever", "OLE", "output");
}

#[test]
fn a_grandchild_holding_stdout_does_not_keep_the_judge_waiting() {
    let elapsed = assert_verdict("grandchild-holds-stdout", "AC", "");
    assert!(elapsed < Duration::from_secs(20), "took {elapsed:?}");
}

#[test]
fn forking_fifty_sleepers_is_still_ac_and_fast() {
    let elapsed = assert_verdict("fork-50", "AC", "");
    assert!(elapsed < Duration::from_secs(20), "took {elapsed:?}");
}

#[test]
fn deep_recursion_is_ac_because_the_stack_follows_the_memory_limit() {
    assert_verdict("deep-recursion", "AC", "");
}

#[test]
fn writing_files_is_ac_and_leaves_nothing_in_the_project() {
    let dir = project(&["write-files"]);
    let before = listing(dir.path());
    dir.harness().assert().code(OK);
    assert_eq!(
        listing(dir.path()),
        before,
        "the program's files leaked into the project"
    );
}

fn listing(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(root)
        .into_iter()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn wrong_answer_report_has_reason_and_diff_and_summary() {
    let dir = project(&["wrong-sum"]);
    dir.harness()
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains("WA"))
        .stdout(predicate::str::contains(
            "line 1, token 1: expected 3, found 4",
        ))
        .stdout(predicate::str::contains("--- expected (answer)"))
        .stdout(predicate::str::contains("- 1   │ 3"))
        .stdout(predicate::str::contains("+   1 │ 4"))
        .stdout(predicate::str::contains("wrong-sum: 0/1 AC, 1 WA"))
        .stdout(predicate::str::contains("FAILED: 1 of 1 cases not AC"))
        .stdout(predicate::str::contains("\u{1b}[").not());
}

#[test]
fn a_passing_problem_is_one_compact_line() {
    let dir = project(&["echo-sum"]);
    let output = dir.harness().assert().code(OK).get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    // Times and memory vary from run to run; the snapshot keeps only the shape.
    insta::with_settings!({filters => vec![
        (r"\d+(\.\d+)? (ms|s)\b", "[time]"),
        (r"\d+(\.\d+)? (B|KiB|MiB|GiB)\b", "[memory]"),
    ]}, {
        insta::assert_snapshot!(text, @r"
    echo-sum: 1/1 AC, max [time], [memory]
    all 1 cases AC in [time]
    ");
    });
}

#[test]
fn several_problems_one_failing_sets_the_exit_code() {
    let dir = project(&["echo-sum", "exit-3"]);
    dir.harness()
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains("echo-sum: 1/1 AC"))
        .stdout(predicate::str::contains("exit-3: 0/1 AC, 1 RE"));
}

#[test]
fn picking_one_problem_judges_only_it() {
    let dir = project(&["echo-sum", "exit-3"]);
    dir.harness()
        .args(["--problem", "echo-sum"])
        .assert()
        .code(OK)
        .stdout(predicate::str::contains("exit-3").not());
}

/// Peak memory is the program's own: a judge that once held a large output (64 MiB of an
/// endless printer) must not lend its own high-water mark to the programs it starts next.
/// (A spawn that shares the judge's memory until exec, as vfork does, reports the judge's peak
/// as the child's ru_maxrss.)
#[test]
fn a_large_output_held_earlier_does_not_inflate_the_next_programs_memory() {
    let toml = format!(
        "[defaults]\noutput-limit = \"64MiB\"\n\
         [problems.a-flood]\nsolution = \"{}\"\ncases = \"cases/sum\"\n\
         [problems.b-small]\nsolution = \"{}\"\ncases = \"cases/sum\"\nmemory-limit = \"32MiB\"\n",
        common::fixture("print-forever").display(),
        common::fixture("echo-sum").display()
    );
    Project::new()
        .file("judge.toml", &toml)
        .case("sum", "01", "1 2\n", "3\n")
        .args(NO_ARGUMENTS)
        .status(FAILED)
        .stdout_contains("a-flood: 0/1 AC, 1 OLE")
        .stdout_contains("b-small: 1/1 AC")
        .run();
}

#[test]
fn the_memory_shown_is_the_peak_resident_size_as_time_shows_it() {
    // A program that touches 32 MiB shows at least that.
    let (case, code, _) = judge_json("touch-32mib");
    assert_eq!((case["verdict"].as_str(), code), (Some("AC"), OK), "{case}");
    let shown = case["memory_kib"].as_u64().unwrap() * 1024;
    assert!(shown >= 32 << 20, "{case}");

    // A program that does next to nothing (a C hello world) shows its own resident size,
    // libc's pages included (the cgroup's charge leaves them out: 0.25-0.5 MiB where time
    // says 1.2-1.5 MiB), and not the sandbox's init's, which it was cloned from (2.6 MiB in
    // a release build, 8.8 MiB in a debug one).
    let program = common::fixture("echo-sum");
    let Some(time) = common::time_max_rss(&program, "1 2\n") else {
        common::skipped("the memory shown: no /usr/bin/time to compare it with");
        return;
    };
    let (case, code, _) = judge_json("echo-sum");
    assert_eq!((case["verdict"].as_str(), code), (Some("AC"), OK), "{case}");
    let shown = case["memory_kib"].as_u64().unwrap() * 1024;
    assert!(
        shown.abs_diff(time) <= 512 << 10,
        "shown {shown} bytes, /usr/bin/time says {time}: {case}"
    );
}
