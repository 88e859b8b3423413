//! Interactive problems end to end, with the real `harness` binary on temporary projects: a
//! guess-the-number problem whose interactors (Python, both protocols) and submissions (C)
//! misbehave on purpose, one blame rule per test. Verdicts, exit codes, reasons and the
//! transcript are asserted; timings only as far apart as an interactor that burns a second of
//! CPU and a submission that uses almost none.
#![cfg(unix)]

mod common;

use common::project::Project;
use common::C_AND_PYTHON;
use serde_json::Value;

const FAILED: i32 = 1;
const JUDGE_ERROR: i32 = 3;

/// A Kattis-protocol interactor: the secret is the input; ten guesses; `higher`, `lower`,
/// `correct`. The variants below change one thing each.
const GUESS_KATTIS: &str = r#"#!/usr/bin/env python3
import sys
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
assert feedback.endswith("/"), feedback

def verdict(code, message):
    with open(feedback + "judgemessage.txt", "w") as f:
        f.write(message + "\n")
    sys.exit(code)

for number in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        verdict(43, "the submission ended before guess %d" % number)
    try:
        guess = int(line)
    except ValueError:
        verdict(43, "guess %d: `%s` is not a number" % (number, line.strip()))
    if guess == secret:
        print("correct", flush=True)
        verdict(42, "found %d in %d guesses" % (secret, number))
    print("higher" if guess < secret else "lower", flush=True)
verdict(43, "no correct guess in 10 guesses")
"#;

/// The testlib protocol: `INPUT OUTPUT ANSWER`, exit 0/1/2/3, the reason on stderr; it writes
/// the number found to OUTPUT, which the problem's checker compares with the answer.
const GUESS_TESTLIB: &str = r#"#!/usr/bin/env python3
import sys
secret = int(open(sys.argv[1]).read())
output = sys.argv[2]
for number in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        sys.stderr.write("wrong answer the submission ended before guess %d\n" % number)
        sys.exit(1)
    if line.strip() == "FAIL":
        sys.stderr.write("FAIL asked to fail\n")
        sys.exit(3)
    try:
        guess = int(line)
    except ValueError:
        sys.stderr.write("wrong output format `%s` is not a number\n" % line.strip())
        sys.exit(2)
    if guess == secret:
        print("correct", flush=True)
        open(output, "w").write("%d\n" % guess)
        sys.stderr.write("ok found %d\n" % secret)
        sys.exit(0)
    print("higher" if guess < secret else "lower", flush=True)
sys.stderr.write("wrong answer no correct guess in 10 guesses\n")
sys.exit(1)
"#;

/// Crashes at the first guess: its own bug, a judge error whatever the submission does.
const CRASHING_INTERACTOR: &str = r#"#!/usr/bin/env python3
import sys
sys.stdin.readline()
print(1 / 0)
"#;

/// Burns about a second of CPU and holds 300 MiB before it answers: none of it may show in
/// the submission's numbers.
const HEAVY_INTERACTOR: &str = r#"#!/usr/bin/env python3
import sys, time
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
ballast = b"x" * (300 << 20)
start = time.process_time()
while time.process_time() - start < 1.0:
    pass
for number in range(1, 11):
    guess = int(sys.stdin.readline())
    if guess == secret:
        print("correct", flush=True)
        open(feedback + "judgemessage.txt", "w").write("found it, %d bytes held\n" % len(ballast))
        sys.exit(42)
    print("higher" if guess < secret else "lower", flush=True)
sys.exit(43)
"#;

/// Burns a second of CPU before it plays as the Kattis interactor above: on a busy machine
/// that second takes several of wall time, all of which the submission spends waiting.
const SLOW_INTERACTOR: &str = r#"#!/usr/bin/env python3
import sys, time
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
start = time.process_time()
while time.process_time() - start < 1.0:
    pass
for number in range(1, 11):
    guess = int(sys.stdin.readline())
    if guess == secret:
        print("correct", flush=True)
        open(feedback + "judgemessage.txt", "w").write("found %d\n" % secret)
        sys.exit(42)
    print("higher" if guess < secret else "lower", flush=True)
sys.exit(43)
"#;

const TOML: &str = r#"
[defaults]
time-limit = "1s"
memory-limit = "64MiB"

[problems.guess]
solution = "/bin/cat"
cases = "cases/guess"
interactor = ["interactors/guess-kattis"]
interactor-protocol = "kattis"

[problems.guess-testlib]
solution = "/bin/cat"
cases = "cases/guess"
interactor = ["interactors/guess-testlib"]
checker = "tokens"

[problems.broken]
solution = "/bin/cat"
cases = "cases/guess"
interactor = ["interactors/crash"]
interactor-protocol = "kattis"

# The same crash under testlib's protocol, where Python's exit 1 would read as WA.
[problems.broken-testlib]
solution = "/bin/cat"
cases = "cases/guess"
interactor = ["interactors/crash"]
checker = "tokens"

[problems.heavy]
solution = "/bin/cat"
cases = "cases/guess"
wall-limit = "20s"
interactor = ["interactors/heavy"]
interactor-protocol = "kattis"

# The default wall bound, 2 × 1 s + 1 s = 3 s: three times what the interactor computes.
[problems.slow]
solution = "/bin/cat"
cases = "cases/guess"
interactor = ["interactors/slow"]
interactor-protocol = "kattis"

[problems.mislabelled]
solution = "/bin/cat"
cases = "cases/guess"
interactor = ["interactors/always-42"]

# The interactor as a source file, compiled (here: byte-compiled) through [languages].
[problems.from-source]
solution = "/bin/cat"
cases = "cases/guess"
interactor = "interactors/guess.py"
interactor-protocol = "kattis"

[problems.broken-source]
solution = "/bin/cat"
cases = "cases/guess"
interactor = "interactors/broken.c"

# A wall bound far above the CPU limit: the spinning submission meets its CPU limit first,
# however loaded the machine.
[problems.patient]
solution = "/bin/cat"
cases = "cases/guess"
wall-limit = "60s"
interactor = ["interactors/guess-kattis"]
interactor-protocol = "kattis"

# Limits far above what any case here needs: a submission left to spin to them would take
# half a minute.
[problems.roomy]
solution = "/bin/cat"
cases = "cases/guess"
time-limit = "30s"
wall-limit = "60s"
interactor = ["interactors/guess-kattis"]
interactor-protocol = "kattis"
"#;

/// Exits 42 (Kattis's AC) whatever it reads.
const ALWAYS_42: &str = "#!/bin/sh\nexit 42\n";

/// Binary search over 1..=100, flushing each guess (the fixture under_load and the load
/// bench judge too).
const BINARY_C: &str = include_str!("fixtures/guess-binary.c");

/// Guesses 1 every time: the interactor gives up after ten and exits; the submission then
/// reads EOF and exits with 1. Its exit is the consequence: WA, not RE.
const STUBBORN_C: &str = r#"#include <stdio.h>
int main(void) {
    char reply[16];
    for (;;) {
        printf("1\n");
        fflush(stdout);
        if (scanf("%15s", reply) != 1) return 1;
    }
}
"#;

/// Spins before its first guess while the interactor waits: TLE by CPU.
const SPINS_C: &str = r#"int main(void) {
    volatile unsigned long long x = 0;
    for (;;) x++;
}
"#;

/// Finds the number, then spins once the interactor has ended: TLE by CPU, its CPU counted
/// though the interactor is gone.
const SPINS_AFTER_C: &str = r#"#include <stdio.h>
#include <string.h>
int main(void) {
    int low = 1, high = 100;
    char reply[16];
    while (low <= high) {
        int mid = (low + high) / 2;
        printf("%d\n", mid);
        fflush(stdout);
        if (scanf("%15s", reply) != 1) return 1;
        if (!strcmp(reply, "correct")) break;
        if (!strcmp(reply, "higher")) low = mid + 1; else high = mid - 1;
    }
    volatile unsigned long long x = 0;
    for (;;) x++;
}
"#;

/// Finds the number, then computes for 0.7 s of CPU once the interactor has ended (its CPU
/// limit is 1 s): on a busy machine that takes seconds of wall time.
const COMPUTES_AFTER_C: &str = r#"#include <stdio.h>
#include <string.h>
#include <time.h>
int main(void) {
    int low = 1, high = 100;
    char reply[16];
    while (low <= high) {
        int mid = (low + high) / 2;
        printf("%d\n", mid);
        fflush(stdout);
        if (scanf("%15s", reply) != 1) return 1;
        if (!strcmp(reply, "correct")) break;
        if (!strcmp(reply, "higher")) low = mid + 1; else high = mid - 1;
    }
    volatile unsigned long long x = 0;
    while (clock() < CLOCKS_PER_SEC / 10 * 7) x++;
    return 0;
}
"#;

/// One guess, then a crash: RE, though the interactor then reads EOF and says WA.
const CRASHES_C: &str = r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    char reply[16];
    printf("50\n");
    fflush(stdout);
    if (scanf("%15s", reply) != 1) return 0;
    abort();
}
"#;

/// The binary search without fflush: stdout is a pipe, so fully buffered; both sides wait.
const NO_FLUSH_C: &str = r#"#include <stdio.h>
#include <string.h>
int main(void) {
    int lo = 1, hi = 100;
    char reply[16];
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        printf("%d\n", mid);
        if (scanf("%15s", reply) != 1) return 0;
        if (strcmp(reply, "correct") == 0) return 0;
        if (strcmp(reply, "higher") == 0) lo = mid + 1; else hi = mid - 1;
    }
    return 0;
}
"#;

/// Prints words instead of numbers.
const GARBAGE_C: &str = r#"#include <stdio.h>
int main(void) {
    printf("is it fifty?\n");
    fflush(stdout);
    char reply[16];
    return scanf("%15s", reply) == 1 ? 0 : 0;
}
"#;

/// A word instead of a guess, then spins without reading the reply: the interactor has said
/// wrong answer and ended by then.
const GARBAGE_THEN_SPINS_C: &str = r#"#include <stdio.h>
int main(void) {
    printf("is it fifty?\n");
    fflush(stdout);
    volatile unsigned long long x = 0;
    for (;;) x++;
}
"#;

/// Sends FAIL to the testlib interactor, which then exits 3.
const ASKS_FAIL_C: &str = r#"#include <stdio.h>
int main(void) {
    printf("FAIL\n");
    fflush(stdout);
    char reply[16];
    return scanf("%15s", reply) == 1 ? 0 : 0;
}
"#;

fn project() -> Project {
    Project::new()
        .file("judge.toml", &format!("{TOML}{C_AND_PYTHON}"))
        .executable("interactors/guess-kattis", GUESS_KATTIS)
        .executable("interactors/guess-testlib", GUESS_TESTLIB)
        .executable("interactors/crash", CRASHING_INTERACTOR)
        .executable("interactors/heavy", HEAVY_INTERACTOR)
        .executable("interactors/slow", SLOW_INTERACTOR)
        .executable("interactors/always-42", ALWAYS_42)
        .file("interactors/guess.py", GUESS_KATTIS)
        .file("interactors/broken.c", "this is not C\n")
        .case("guess", "1", "37\n", "37\n")
        .file("binary.c", BINARY_C)
        .file("stubborn.c", STUBBORN_C)
        .file("spins.c", SPINS_C)
        .file("spins_after.c", SPINS_AFTER_C)
        .file("computes_after.c", COMPUTES_AFTER_C)
        .file("crashes.c", CRASHES_C)
        .file("no_flush.c", NO_FLUSH_C)
        .file("garbage.c", GARBAGE_C)
        .file("garbage_then_spins.c", GARBAGE_THEN_SPINS_C)
        .file("asks_fail.c", ASKS_FAIL_C)
}

/// `harness judge PROBLEM SOURCE --format json`: the exit code and the one case's JSON.
fn judge(project: &Project, problem: &str, source: &str) -> (i32, Value) {
    let output = project
        .harness()
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
    let case = report["cases"][0].clone();
    (output.status.code().expect("an exit code"), case)
}

fn reason(case: &Value) -> &str {
    case["reason"].as_str().expect("a reason")
}

#[test]
fn a_right_dialogue_is_accepted_with_its_transcript() {
    let project = project();
    let (code, case) = judge(&project, "guess", "binary.c");
    assert_eq!(code, 0, "{case}");
    assert_eq!(case["verdict"], "AC");
    assert_eq!(reason(&case), "found 37 in 3 guesses");
    let transcript: Vec<&str> = case["interaction"]["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line.as_str().unwrap())
        .collect();
    assert_eq!(
        transcript,
        [">50", "<lower", ">25", "<higher", ">37", "<correct"]
    );
    assert_eq!(case["interaction"]["lines"], 6);
}

#[test]
fn an_interactor_given_as_a_source_file_is_compiled_through_the_languages() {
    let project = project();
    let (code, case) = judge(&project, "from-source", "binary.c");
    assert_eq!((code, case["verdict"].as_str()), (0, Some("AC")), "{case}");
    let output = project
        .harness()
        .args(["judge", "broken-source", "binary.c"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("problem `broken-source`: the interactor `"),
        "{stderr}"
    );
    assert!(stderr.contains("does not compile"), "{stderr}");
}

#[test]
fn an_interactor_that_crashes_is_a_judge_error() {
    let project = project();
    let (code, case) = judge(&project, "broken", "binary.c");
    assert_eq!(code, JUDGE_ERROR, "{case}");
    assert_eq!(case["verdict"], "JE");
    assert!(
        reason(&case).contains("exited with 1, which the kattis protocol does not define"),
        "{case}"
    );
    // Under testlib's protocol Python's exit 1 on its uncaught exception is the code of a
    // wrong answer: the traceback on its stderr says the interactor crashed.
    let (code, case) = judge(&project, "broken-testlib", "binary.c");
    assert_eq!(code, JUDGE_ERROR, "{case}");
    assert_eq!(case["verdict"], "JE");
    assert!(
        reason(&case).contains("the interactor crashed (a Python traceback, exit 1)")
            && reason(&case).contains("ZeroDivisionError"),
        "{case}"
    );
}

#[test]
fn the_interactors_wrong_answer_comes_first_when_it_ended_first() {
    let project = project();
    let (code, case) = judge(&project, "guess", "stubborn.c");
    assert_eq!(code, FAILED, "{case}");
    assert_eq!(case["verdict"], "WA", "{case}");
    assert!(
        reason(&case).contains("no correct guess in 10 guesses"),
        "{case}"
    );
}

#[test]
fn a_submission_still_running_when_the_interactors_wrong_answer_ended_the_run_is_stopped() {
    // The verdict was WA the moment the interactor said so and ended first; the submission
    // is stopped then, not left to spin to its 30 s limit (problemtools' guess example has
    // such a submission, which made `verify` take minutes).
    let project = project();
    let (code, case) = judge(&project, "roomy", "garbage_then_spins.c");
    assert_eq!(code, FAILED, "{case}");
    assert_eq!(case["verdict"], "WA", "{case}");
    assert!(reason(&case).contains("is not a number"), "{case}");
    let ms = case["time_ms"].as_u64().unwrap();
    assert!(
        ms < 15_000,
        "stopped at once, not at its 30 s limit: {case}"
    );
}

#[test]
fn a_submission_that_spins_while_the_interactor_waits_is_tle() {
    let project = project();
    let (code, case) = judge(&project, "patient", "spins.c");
    assert_eq!(code, FAILED, "{case}");
    assert_eq!(case["verdict"], "TLE", "{case}");
    assert!(reason(&case).contains("CPU time"), "{case}");
}

#[test]
fn a_submission_that_spins_after_the_interactor_ended_is_tle_by_its_cpu_time() {
    let project = project();
    let (code, case) = judge(&project, "guess", "spins_after.c");
    assert_eq!(code, FAILED, "{case}");
    assert_eq!(case["verdict"], "TLE", "{case}");
    assert!(reason(&case).contains("CPU time"), "{case}");
    assert!(case["time_ms"].as_u64().unwrap() >= 500, "{case}");
}

#[test]
fn a_submission_that_crashes_is_re_though_the_interactor_then_says_wa() {
    let project = project();
    let (code, case) = judge(&project, "guess", "crashes.c");
    assert_eq!(code, FAILED, "{case}");
    assert_eq!(case["verdict"], "RE", "{case}");
    assert!(reason(&case).contains("SIGABRT"), "{case}");
    assert!(
        case["interaction"]["message"]
            .as_str()
            .unwrap()
            .contains("ended before guess 2"),
        "{case}"
    );
}

#[test]
fn a_submission_that_does_not_flush_is_tle_with_a_hint() {
    let project = project();
    let (code, case) = judge(&project, "guess", "no_flush.c");
    assert_eq!(code, FAILED, "{case}");
    assert_eq!(case["verdict"], "TLE", "{case}");
    assert!(reason(&case).contains("did it flush"), "{case}");
    // Nothing reached the interactor.
    assert_eq!(case["interaction"]["lines"], 0, "{case}");
}

#[test]
fn garbage_is_rejected_by_the_interactor() {
    let project = project();
    let (code, case) = judge(&project, "guess", "garbage.c");
    assert_eq!(code, FAILED, "{case}");
    assert_eq!(case["verdict"], "WA", "{case}");
    assert!(
        reason(&case).contains("`is it fifty?` is not a number"),
        "{case}"
    );
}

#[test]
fn the_heavy_interactors_time_and_memory_are_its_own() {
    let project = project();
    let (code, case) = judge(&project, "heavy", "binary.c");
    assert_eq!(code, 0, "{case}");
    assert_eq!(case["verdict"], "AC", "{case}");
    // The submission: a few milliseconds and a few MiB, far under its 1 s and 64 MiB.
    assert!(case["time_ms"].as_u64().unwrap() < 500, "{case}");
    assert!(case["memory_kib"].as_u64().unwrap() < 32 << 10, "{case}");
    // The interactor: a second of CPU and 300 MiB, shown apart.
    let interaction = &case["interaction"];
    assert!(
        interaction["interactor_time_ms"].as_u64().unwrap() >= 900,
        "{case}"
    );
    assert!(
        interaction["interactor_memory_kib"].as_u64().unwrap() >= 300 << 10,
        "{case}"
    );
}

#[test]
fn a_dialogue_slowed_by_a_busy_machine_is_not_tle() {
    // Four busy loops per core: the interactor's second of CPU takes about five of wall time,
    // past the 3 s bound, while the submission waits with next to no CPU and no wait of its
    // own. The time the interactor waited for a CPU is not the submission's.
    let project = project();
    let load = common::Load::new(4);
    let (code, case) = judge(&project, "slow", "binary.c");
    drop(load);
    assert_eq!((code, case["verdict"].as_str()), (0, Some("AC")), "{case}");
    assert_eq!(reason(&case), "found 37", "{case}");
}

#[test]
fn the_interactors_wait_still_counts_once_it_has_ended() {
    // As above, and the submission then computes for 0.7 s of CPU, seconds of wall
    // time among the busy loops, after the interactor has gone: the seconds the interactor
    // waited for a CPU before still are not the submission's.
    let project = project();
    let load = common::Load::new(4);
    let (code, case) = judge(&project, "slow", "computes_after.c");
    drop(load);
    assert_eq!((code, case["verdict"].as_str()), (0, Some("AC")), "{case}");
    assert_eq!(reason(&case), "found 37", "{case}");
}

#[test]
fn testlib_codes_and_the_output_file_going_to_the_checker() {
    let project = project();
    let (code, case) = judge(&project, "guess-testlib", "binary.c");
    assert_eq!((code, case["verdict"].as_str()), (0, Some("AC")), "{case}");

    // The interactor accepts the dialogue, but its OUTPUT (37) is not the answer (38).
    project.add_case("guess", "1", "37\n", Some("38\n"));
    let (code, case) = judge(&project, "guess-testlib", "binary.c");
    assert_eq!(
        (code, case["verdict"].as_str()),
        (FAILED, Some("WA")),
        "{case}"
    );
    project.add_case("guess", "1", "37\n", Some("37\n"));

    let (_, case) = judge(&project, "guess-testlib", "garbage.c");
    assert_eq!(case["verdict"], "WA", "{case}");
    assert!(reason(&case).contains("presentation error"), "{case}");

    let (code, case) = judge(&project, "guess-testlib", "asks_fail.c");
    assert_eq!(
        (code, case["verdict"].as_str()),
        (JUDGE_ERROR, Some("JE")),
        "{case}"
    );
    assert!(reason(&case).contains("FAIL asked to fail"), "{case}");
}

#[test]
fn a_kattis_interactor_under_the_testlib_protocol_is_a_judge_error_that_says_so() {
    let project = project();
    let (code, case) = judge(&project, "mislabelled", "binary.c");
    assert_eq!(code, JUDGE_ERROR, "{case}");
    assert!(
        reason(&case).contains("exited with 42, which the testlib protocol does not define"),
        "{case}"
    );
    assert!(
        reason(&case).contains("interactor-protocol = \"kattis\""),
        "{case}"
    );
}

#[test]
fn the_human_report_shows_the_end_of_a_failing_dialogue() {
    let project = project();
    let output = project
        .harness()
        .args(["judge", "guess", "stubborn.c"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    // The last twelve lines of twenty (or 21, with the guess the submission sent before it
    // read EOF, which nobody heard), then the interactor's numbers.
    assert!(text.contains("dialogue: 2"), "{text}");
    assert!(text.contains(" earlier lines\n"), "{text}");
    assert!(
        text.contains("        >1\n        <higher\n        >1\n"),
        "{text}"
    );
    assert!(text.contains("\n        interactor: "), "{text}");
}

#[test]
fn stress_needs_no_reference_on_an_interactive_problem() {
    let project = project().file(
        "judge.toml",
        &format!(
            "{TOML}{C_AND_PYTHON}\n[problems.guess.stress]\ngenerator = [\"python3\", \"-c\", \"import sys; print(int(sys.argv[1]) % 100 + 1)\", \"{{seed}}\"]\n"
        ),
    );
    // Right for secrets up to 50 only.
    project.write(
        "half.c",
        &BINARY_C.replace("int lo = 1, hi = 100;", "int lo = 1, hi = 50;"),
    );
    let output = project
        .harness()
        .args(["stress", "guess", "half.c", "--seed", "1", "-n", "200"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(FAILED), "{text}");
    assert!(text.contains("dialogue (end):"), "{text}");
    assert!(text.contains("verdict: WA"), "{text}");
}

#[test]
fn add_writes_an_empty_answer_for_an_interactive_problem_without_reference() {
    let project = project().file("secret.txt", "64\n");
    let output = project
        .harness()
        .args(["add", "guess", "two", "--input", "secret.txt"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("empty answer: the interactor judges the dialogue"),
        "{text}"
    );
    assert_eq!(project.read("cases/guess/two.in"), "64\n");
    assert_eq!(project.read("cases/guess/two.ans"), "");
}

#[test]
fn ctrl_c_kills_both_sides_of_an_interactive_run() {
    use std::time::{Duration, Instant};
    let project = Project::new().case("pair", "01", "1\n", "");
    // Two copies of the sleeper, so each side can be found by its own path.
    let sleeper = common::fixture("sleep-30s");
    let (submission, interactor) = (
        project.join("sides/submission"),
        project.join("sides/interactor"),
    );
    std::fs::create_dir(project.join("sides")).unwrap();
    std::fs::copy(&sleeper, &submission).unwrap();
    std::fs::copy(&sleeper, &interactor).unwrap();
    let project = project.file(
        "judge.toml",
        "[problems.pair]\nsolution = \"sides/submission\"\ntime-limit = \"20s\"\ninteractor = [\"sides/interactor\"]\n",
    );
    let mut harness = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let waiting = Instant::now();
    while common::processes_running(&submission).is_empty()
        || common::processes_running(&interactor).is_empty()
    {
        assert!(
            waiting.elapsed() < Duration::from_secs(20),
            "the pair never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: kill(2) on a child we started.
    unsafe { libc::kill(harness.id() as i32, libc::SIGINT) };
    let interrupted = Instant::now();
    let status = loop {
        if let Some(status) = harness.try_wait().unwrap() {
            break status;
        }
        assert!(
            interrupted.elapsed() < Duration::from_secs(10),
            "the harness did not stop after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    assert!(
        common::processes_running(&submission).is_empty(),
        "the submission survived"
    );
    assert!(
        common::processes_running(&interactor).is_empty(),
        "the interactor survived"
    );
}

#[test]
fn validate_replays_the_interaction_samples_against_the_interactor() {
    let project = project()
        .file(
            "cases/guess/1.interaction",
            ">50\n<lower\n>25\n<higher\n>37\n<correct\n",
        )
        .case("guess", "2", "99\n", "")
        .file("cases/guess/2.interaction", ">50\n<lower\n");
    let output = project
        .harness()
        .args(["validate", "guess"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(FAILED), "{text}");
    assert!(
        text.contains(
            "2.interaction: reply 1: the interactor says `higher`, the sample says `lower`"
        ),
        "{text}"
    );
    assert!(
        text.contains("guess: 1 of 2 .interaction samples differ from the interactor"),
        "{text}"
    );

    project.write("cases/guess/2.interaction", ">50\n<higher\n>99\n<correct\n");
    let output = project
        .harness()
        .args(["validate", "guess"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("guess: 2 .interaction samples replayed as written"),
        "{text}"
    );

    // Every line said, but the interactor does not accept the dialogue.
    project.write("cases/guess/2.interaction", ">50\n<higher\n");
    let output = project
        .harness()
        .args(["validate", "guess"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("the dialogue is not accepted"), "{text}");
}

const TESTLIB_TOML: &str = r#"
[defaults]
time-limit = "1s"
memory-limit = "64MiB"

[problems.guess]
solution = "/bin/cat"
cases = "cases/guess"
interactor = "interactors/guess.cpp"
interactor-protocol = "testlib"
checker = "tokens"

[problems.bad-secret]
solution = "/bin/cat"
cases = "cases/bad-secret"
interactor = "interactors/guess.cpp"
interactor-protocol = "testlib"

[languages.cpp]
name = "C++17"
extensions = ["cpp"]
compile = ["g++", "-std=c++17", "-O1", "-o", "{exe}", "{source}"]
run = ["{exe}"]
"#;

#[test]
fn a_testlib_interactor_compiled_against_testlib_h() {
    let Some(testlib) =
        common::testlib_h_or_skip("a_testlib_interactor_compiled_against_testlib_h")
    else {
        return;
    };
    let project = Project::new()
        .file("judge.toml", &format!("{TESTLIB_TOML}{C_AND_PYTHON}"))
        .file("interactors/guess.cpp", common::GUESS_TESTLIB_CPP)
        .file(
            "interactors/testlib.h",
            &std::fs::read_to_string(testlib).unwrap(),
        )
        .case("guess", "1", "37\n", "37\n")
        // 5000 is out of the interactor's own range: its input is broken, not the submission.
        .case("bad-secret", "1", "5000\n", "5000\n")
        .file("binary.c", BINARY_C)
        .file("stubborn.c", STUBBORN_C);

    let (code, case) = judge(&project, "guess", "binary.c");
    assert_eq!((code, case["verdict"].as_str()), (0, Some("AC")), "{case}");
    assert!(
        case["interaction"]["message"]
            .as_str()
            .unwrap()
            .contains("found 37 in 3 guesses"),
        "{case}"
    );

    let (code, case) = judge(&project, "guess", "stubborn.c");
    assert_eq!(
        (code, case["verdict"].as_str()),
        (FAILED, Some("WA")),
        "{case}"
    );
    assert!(
        reason(&case).contains("no correct guess in 10 guesses"),
        "{case}"
    );

    // The interactor accepts the dialogue, but what it wrote to OUTPUT (37) is not the
    // answer (38): the problem's checker says WA, as on Codeforces.
    project.add_case("guess", "1", "37\n", Some("38\n"));
    let (code, case) = judge(&project, "guess", "binary.c");
    assert_eq!(
        (code, case["verdict"].as_str()),
        (FAILED, Some("WA")),
        "{case}"
    );

    let (code, case) = judge(&project, "bad-secret", "binary.c");
    assert_eq!(
        (code, case["verdict"].as_str()),
        (JUDGE_ERROR, Some("JE")),
        "{case}"
    );
    assert!(reason(&case).contains("secret"), "{case}");
}

/// A testlib interactor that gives points, as Codeforces' scored interactive problems do:
/// `quitp` (exit 7) with 11 − guesses, the points first in its message.
const POINTS_TESTLIB_CPP: &str = r#"#include "testlib.h"
#include <iostream>

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    int secret = inf.readInt(1, 1000, "secret");
    for (int guesses = 1; guesses <= 10; guesses++) {
        int guess = ouf.readInt(1, 1000, "guess");
        if (guess == secret) {
            std::cout << "correct" << std::endl;
            quitp(11.0 - guesses, "found %d in %d guesses", secret, guesses);
        }
        std::cout << (guess < secret ? "higher" : "lower") << std::endl;
    }
    quitf(_wa, "no correct guess in 10 guesses");
}
"#;

const POINTS_TOML: &str = r#"
[defaults]
time-limit = "1s"
memory-limit = "64MiB"

# Each case worth 10 points, what the interactor gives of them.
[problems.guess]
solution = "/bin/cat"
cases = "cases/guess"
interactor = "interactors/points.cpp"
interactor-protocol = "testlib"
[[problems.guess.scoring.points]]
cases = "*"
points = 10

# The same interactor where a case is worth 5: its 8 points are more than that.
[problems.small]
solution = "/bin/cat"
cases = "cases/guess"
interactor = "interactors/points.cpp"
interactor-protocol = "testlib"
[[problems.small.scoring.points]]
cases = "*"
points = 5

[languages.cpp]
name = "C++17"
extensions = ["cpp"]
compile = ["g++", "-std=c++17", "-O1", "-o", "{exe}", "{source}"]
run = ["{exe}"]
"#;

#[test]
fn a_testlib_interactors_quitp_gives_the_case_its_points() {
    let Some(testlib) =
        common::testlib_h_or_skip("a_testlib_interactors_quitp_gives_the_case_its_points")
    else {
        return;
    };
    let project = Project::new()
        .file("judge.toml", &format!("{POINTS_TOML}{C_AND_PYTHON}"))
        .file("interactors/points.cpp", POINTS_TESTLIB_CPP)
        .file(
            "interactors/testlib.h",
            &std::fs::read_to_string(testlib).unwrap(),
        )
        // 50, 25, 37: found in 3 guesses, 8 points.
        .case("guess", "1", "37\n", "37\n")
        .file("binary.c", BINARY_C)
        .file("stubborn.c", STUBBORN_C);
    let judged = |problem: &str, source: &str| {
        let output = project
            .harness()
            .args(["judge", problem, source, "--format", "json"])
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
            panic!(
                "not JSON ({error}): {}\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        });
        (output.status.code().unwrap(), report)
    };

    let (code, report) = judged("guess", "binary.c");
    let case = &report["cases"][0];
    assert_eq!(
        (code, case["verdict"].as_str()),
        (0, Some("AC")),
        "{report}"
    );
    assert_eq!(case["score"].as_f64(), Some(8.0), "{report}");
    assert_eq!(report["score"].as_f64(), Some(8.0), "{report}");
    assert_eq!(report["max_score"].as_f64(), Some(10.0), "{report}");

    // Blame is as before: no right guess is WA, and scores nothing.
    let (code, report) = judged("guess", "stubborn.c");
    assert_eq!(
        (code, report["cases"][0]["verdict"].as_str()),
        (FAILED, Some("WA")),
        "{report}"
    );
    assert_eq!(report["score"].as_f64(), Some(0.0), "{report}");

    // More points than the case is worth: the interactor's fault, a judge error.
    let (code, report) = judged("small", "binary.c");
    let case = &report["cases"][0];
    assert_eq!(
        (code, case["verdict"].as_str()),
        (JUDGE_ERROR, Some("JE")),
        "{report}"
    );
    assert!(reason(case).contains('8'), "{report}");
}
