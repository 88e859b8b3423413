//! Authoring tools on the repository itself: its judge.toml, its generators, validators and
//! references. `gen --check` must reproduce the committed cases, and `stress` must find the
//! bug planted in a king-queens submission and shrink it to a small board.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;
use predicates::prelude::*;

const FAILED: i32 = 1;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stress")
        .join(name)
}

/// Builds what judge.toml's `build` builds (the solutions, casegen, validate), once per test
/// binary; cargo's own lock keeps concurrent builds from other test binaries apart.
fn ensure_built() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let config = harness::config::load(&repo().join("judge.toml")).unwrap();
        let command = config
            .build
            .as_deref()
            .expect("judge.toml has a build command");
        harness::compile::build::build(command, &config.root)
            .unwrap_or_else(|error| panic!("cannot build the solutions: {error}"));
    });
}

/// `harness <args> --config <repo>/judge.toml`: the option goes after the subcommand, where
/// clap takes it as the subcommand's.
fn harness(args: &[&str]) -> Command {
    ensure_built();
    let mut command = Command::cargo_bin("harness").unwrap();
    command
        .args(args)
        .arg("--config")
        .arg(repo().join("judge.toml"))
        .env("NO_COLOR", "1");
    command
}

fn json(output: &[u8]) -> serde_json::Value {
    serde_json::from_slice(output)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(output)))
}

#[test]
fn gen_check_passes_on_the_repository() {
    harness(&["gen", "--check", "--no-build"])
        .assert()
        .success()
        .stdout(predicate::str::contains("king-queens: 650 cases match"))
        .stdout(predicate::str::contains(
            "generated cases match the committed ones",
        ));
}

#[test]
fn stress_finds_the_forgotten_diagonals_and_shrinks_to_a_small_board() {
    let submission = fixture("king-queens-no-diagonals.cpp");
    let assert = harness(&[
        "stress",
        "king-queens",
        "--no-build",
        "--seed",
        "1",
        "--format",
        "json",
    ])
    .arg(&submission)
    .assert()
    .code(FAILED);
    let report = json(&assert.get_output().stdout);
    assert_eq!(report["found"], true, "{report:#}");
    assert_eq!(report["verdict"], "WA", "{report:#}");
    assert_eq!(report["shrink"], "shrunk", "{report:#}");
    assert_eq!(report["language"], "C++17");

    let input = report["input"].as_str().unwrap();
    let numbers: Vec<usize> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let [n, x, y] = numbers[..] else {
        panic!("not a king-queens input: {input:?}")
    };
    assert!(n <= 5, "shrunk only to n = {n}: {report:#}");
    assert!((1..=n).contains(&x) && (1..=n).contains(&y), "{input:?}");
    assert_ne!(report["expected"], report["output"], "{report:#}");
    assert!(report["reason"].as_str().unwrap().contains("expected"));
    // Every step is a failure, each derived from the one before.
    let steps = report["shrink_steps"].as_array().unwrap();
    assert!(steps.iter().all(|s| s["verdict"] == "WA"), "{report:#}");
    assert_eq!(steps.last().unwrap()["input"].as_str().unwrap(), input);
    assert_ne!(report["original_input"].as_str().unwrap(), input);

    // The same run for people: the seed to reproduce it, and the outputs.
    harness(&["stress", "king-queens", "--no-build", "--seed", "1"])
        .arg(&submission)
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains("minimal failing input:"))
        .stdout(predicate::str::contains(format!("\n  {}\n", input.trim())))
        .stdout(predicate::str::contains("expected (reference):"))
        .stdout(predicate::str::contains("received:"))
        .stdout(predicate::str::contains(
            "reproduce: harness stress king-queens",
        ))
        .stdout(predicate::str::contains("--seed 1 -n 1"));
}

#[test]
fn stress_runs_clean_on_a_right_submission() {
    let assert = harness(&[
        "stress",
        "king-queens",
        "--no-build",
        "--seed",
        "1000",
        "--iterations",
        "300",
        "--format",
        "json",
    ])
    .arg(fixture("king-queens.c"))
    .assert()
    .success();
    let report = json(&assert.get_output().stdout);
    assert_eq!(report["found"], false, "{report:#}");
    assert_eq!(report["iterations"], 300);
    assert_eq!(report["first_seed"], 1000);
    assert!(report["verdict"].is_null());
}

/// The king-queens input of a stress report, as numbers.
fn numbers(report: &serde_json::Value) -> Vec<usize> {
    report["input"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

#[test]
fn stress_from_the_command_line_shrinks_as_far_as_the_problems_own_shrinker() {
    let submission = fixture("king-queens-no-diagonals.cpp");
    let release = repo().join("target/release");
    // A folder with no judge.toml: only the submission, the brute force and the generator,
    // named on the command line, and the built-in shrinker.
    let folder = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "7"] {
        ensure_built();
        let generic = Command::cargo_bin("harness")
            .unwrap()
            .current_dir(folder.path())
            .env("XDG_CONFIG_HOME", folder.path().join("config"))
            .args(["stress", "--seed", seed, "--format", "json"])
            .arg(&submission)
            .arg("--brute")
            .arg(release.join("king-queens-brute"))
            .arg("--gen")
            .arg(format!(
                "{} king-queens random",
                release.join("casegen").display()
            ))
            .assert()
            .code(FAILED);
        let generic = json(&generic.get_output().stdout);
        assert_eq!(generic["found"], true, "{generic:#}");
        assert_eq!(generic["shrinker"], "built-in", "{generic:#}");

        let specific = harness(&[
            "stress",
            "king-queens",
            "--no-build",
            "--seed",
            seed,
            "--format",
            "json",
        ])
        .arg(&submission)
        .assert()
        .code(FAILED);
        let specific = json(&specific.get_output().stdout);
        assert_eq!(specific["shrinker"], "command", "{specific:#}");

        // No larger: the board no bigger, and the whole input no longer.
        let (g, s) = (numbers(&generic), numbers(&specific));
        assert!(
            g[0] <= s[0],
            "seed {seed}: built-in {g:?}, king-queens' own {s:?}"
        );
        assert!(
            generic["input"].as_str().unwrap().len() <= specific["input"].as_str().unwrap().len(),
            "seed {seed}: built-in {g:?}, king-queens' own {s:?}"
        );
        assert!(
            g[1] >= 1 && g[1] <= g[0] && g[2] >= 1 && g[2] <= g[0],
            "{g:?}"
        );
    }
}
