//! Verdicts that hold on a loaded machine: with CPU hogs beside the judge (4 and 12 per core:
//! load about 10 and 25 on two cores), a program that uses almost no CPU is never TLE by the
//! wall clock (sandboxed where the machine can), one at under half its limit stays AC, an
//! interactive pair is judged as on a quiet machine, and a sleeper is still TLE. The wall
//! bound is pushed back by every wait for a CPU — the program's, its sandbox init's, the
//! interactor's, the judge's own — so only what sleeps reaches it.

mod common;

use std::process::{Child, Command, Stdio};

use common::project::Project;
use serde_json::Value;

/// Processes that keep every core busy until dropped.
struct Hogs(Vec<Child>);

impl Hogs {
    fn start(count: usize) -> Hogs {
        Hogs(
            (0..count)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .spawn()
                        .expect("sh starts")
                })
                .collect(),
        )
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for hog in &mut self.0 {
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}

/// A Kattis-protocol guess-the-number interactor (the secret is the input) that computes for
/// 0.3 s of CPU before it plays: on a loaded machine that takes seconds of wall time, past
/// the submission's 3 s bound, all of which the submission spends waiting for it.
const INTERACTOR: &str = r#"#!/usr/bin/env python3
import sys, time
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
start = time.process_time()
while time.process_time() - start < 0.3:
    pass
for number in range(1, 11):
    guess = int(sys.stdin.readline())
    if guess == secret:
        print("correct", flush=True)
        open(feedback + "judgemessage.txt", "w").write("found %d in %d\n" % (secret, number))
        sys.exit(42)
    print("higher" if guess < secret else "lower", flush=True)
sys.exit(43)
"#;

/// The interactive cases: each secret and what the interactor says of a binary search for it,
/// as on a quiet machine.
const SECRETS: [(u32, &str); 3] = [
    (37, "found 37 in 3"),
    (1, "found 1 in 6"),
    (100, "found 100 in 7"),
];

/// Tiny cases, two at under half the limit, an interactive pair, one sleeper: each
/// problem's verdicts and walls.
fn judged_beside(hogs: usize) -> Value {
    let mut project = Project::new()
        .file(
            "judge.toml",
            &format!(
                "[defaults]\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\n\
                 [problems.tiny]\nsolution = \"{}\"\ncases = \"cases/tiny\"\n\
                 [problems.half]\nsolution = \"{}\"\ncases = \"cases/half\"\n\
                 [problems.guess]\nsolution = \"{}\"\ncases = \"cases/guess\"\n\
                 interactor = [\"interactor\"]\ninteractor-protocol = \"kattis\"\n\
                 [problems.sleeper]\nsolution = \"{}\"\ncases = \"cases/sleeper\"\n",
                common::fixture("echo-sum").display(),
                common::fixture("half-second-sum").display(),
                common::fixture("guess-binary").display(),
                common::fixture("sleep-30s").display(),
            ),
        )
        .executable("interactor", INTERACTOR);
    for (secret, _) in SECRETS {
        let secret = format!("{secret}\n");
        project = project.case("guess", &secret[..secret.len() - 1], &secret, &secret);
    }
    for n in 0..24 {
        project = project.case(
            "tiny",
            &format!("{n:02}"),
            &format!("{n} 1\n"),
            &format!("{}\n", n + 1),
        );
    }
    for n in 0..2 {
        project = project.case("half", &format!("{n:02}"), "1 2\n", "3\n");
    }
    project = project.case("sleeper", "01", "1 2\n", "3\n");
    let _hogs = Hogs::start(hogs);
    let output = project
        .harness()
        .args(["run", "--all", "--format", "json"])
        .output()
        .expect("harness runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|error| {
        panic!(
            "not JSON ({error}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn cases<'a>(report: &'a Value, problem: &str) -> Vec<&'a Value> {
    report["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .find(|p| p["problem"] == problem)
        .unwrap_or_else(|| panic!("no problem `{problem}` in {report}"))["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .collect()
}

fn check(report: &Value, hogs: usize) {
    for problem in ["tiny", "half", "guess", "sleeper"] {
        let walls: Vec<u64> = cases(report, problem)
            .iter()
            .map(|c| c["wall_ms"].as_u64().unwrap_or(0))
            .collect();
        eprintln!("{hogs} hogs: {problem}: walls {walls:?}");
    }
    for case in cases(report, "tiny") {
        assert_eq!(case["verdict"], "AC", "beside {hogs} hogs: {case}");
    }
    for case in cases(report, "half") {
        assert_eq!(case["verdict"], "AC", "beside {hogs} hogs: {case}");
    }
    for (secret, reason) in SECRETS {
        let case = cases(report, "guess")
            .into_iter()
            .find(|c| c["name"].as_str() == Some(secret.to_string().as_str()))
            .unwrap_or_else(|| panic!("no case {secret} in {report}"));
        assert_eq!(
            (case["verdict"].as_str(), case["reason"].as_str()),
            (Some("AC"), Some(reason)),
            "beside {hogs} hogs: {case}"
        );
    }
    let sleeper = cases(report, "sleeper");
    assert_eq!(
        sleeper[0]["verdict"], "TLE",
        "beside {hogs} hogs: {}",
        sleeper[0]
    );
}

/// One test, the two loads one after the other: two tests would run at once, and load 35.
#[test]
fn verdicts_hold_at_load_10_and_25() {
    for per_core in [4, 12] {
        let hogs = per_core * cores();
        check(&judged_beside(hogs), hogs);
    }
}
