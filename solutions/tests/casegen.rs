//! casegen: deterministic, valid outputs for every family; shrink candidates valid and
//! strictly smaller; misuse refused with exit code 2.

mod common;

use std::collections::BTreeSet;

use common::{generate, run, run_ok, TempDir};
use solutions::{exit, gen, Instance, Problem};

fn seeds_for(problem: Problem, family: &str) -> Vec<u64> {
    match (problem, family) {
        (Problem::QueensBoards, "exhaustive") => (1..=9).collect(),
        (Problem::CheckerChallenge, "exhaustive") => (6..=13).collect(),
        (Problem::KingQueens, "exhaustive") => vec![0, 1, 5, 100, 649],
        (Problem::TwoNQueens, "full" | "empty") => (1..=8).collect(),
        _ => (0..12).chain([u64::MAX, 1 << 63, 123_456_789]).collect(),
    }
}

#[test]
fn same_arguments_same_bytes_and_valid() {
    for problem in Problem::ALL {
        for (family, _) in gen::families(problem) {
            for seed in seeds_for(problem, family) {
                let first = generate(problem, family, seed);
                let second = generate(problem, family, seed);
                assert_eq!(first, second, "{problem} {family} {seed}");
                let out = run("validate", &[problem.id()], first.as_bytes());
                assert!(
                    out.status.code() == Some(42),
                    "{problem} {family} {seed}: {first:?}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
}

#[test]
fn random_families_cover_every_size() {
    for problem in Problem::ALL {
        let sizes: BTreeSet<usize> = (0..120)
            .map(|seed| {
                let text = generate(problem, "random", seed);
                Instance::parse(problem, text.as_bytes()).unwrap().n()
            })
            .collect();
        let (lo, hi) = problem.n_bounds();
        let all: BTreeSet<usize> = (lo as usize..=hi as usize).collect();
        assert_eq!(sizes, all, "{problem}");
    }
}

#[test]
fn misuse_exits_2_with_a_message() {
    let table: &[&[&str]] = &[
        &[],
        &["queens-boards"],
        &["n-queens", "random", "1"],
        &["queens-boards", "full", "1"],
        &["queens-boards", "random"],
        &["queens-boards", "random", "-1"],
        &["queens-boards", "random", "x"],
        &["queens-boards", "random", "1", "2"],
        &["queens-boards", "exhaustive", "10"],
        &["checker-challenge", "exhaustive", "5"],
        &["king-queens", "exhaustive", "650"],
        &["two-n-queens", "full", "0"],
        &["two-n-queens", "shrink", "/nonexistent/input"],
        &["two-n-queens", "shrink", "/nonexistent/input", "/tmp/x"],
    ];
    for args in table {
        let out = run("casegen", args, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(exit::USAGE), "{args:?}: {stderr}");
        assert!(stderr.starts_with("casegen: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

/// Runs `casegen <problem> shrink` on `input`; the candidates in order.
fn shrink(problem: Problem, input: &str) -> Vec<String> {
    let dir = TempDir::new("shrink");
    let file = dir.0.join("input.in");
    std::fs::write(&file, input).unwrap();
    let out_dir = dir.0.join("out");
    run_ok(
        "casegen",
        &[
            problem.id(),
            "shrink",
            file.to_str().unwrap(),
            out_dir.to_str().unwrap(),
        ],
        b"",
    );
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let want: Vec<String> = (0..names.len()).map(|i| format!("{i:03}.in")).collect();
    assert_eq!(names, want, "candidates are numbered from 000 without gaps");
    names
        .iter()
        .map(|n| std::fs::read_to_string(out_dir.join(n)).unwrap())
        .collect()
}

fn check_shrink(problem: Problem, input: &str) -> Vec<String> {
    let measure = |text: &str| Instance::parse(problem, text.as_bytes()).unwrap().measure();
    let candidates = shrink(problem, input);
    let mut previous = (0, 0);
    for c in &candidates {
        let out = run("validate", &[problem.id()], c.as_bytes());
        assert!(
            out.status.code() == Some(42),
            "{problem}: invalid candidate {c:?} of {input:?}"
        );
        assert!(
            measure(c) < measure(input),
            "{problem}: {c:?} not smaller than {input:?}"
        );
        assert!(
            measure(c) >= previous,
            "{problem}: candidates not smallest first"
        );
        previous = measure(c);
    }
    candidates
}

#[test]
fn shrink_candidates_are_valid_smaller_and_sorted() {
    let inputs = [
        (Problem::QueensBoards, "9\n".to_string()),
        (Problem::CheckerChallenge, "13\n".to_string()),
        (Problem::KingQueens, "12 7 5\n".to_string()),
        (Problem::KingQueens, "5 1 5\n".to_string()),
        (
            Problem::TwoNQueens,
            generate(Problem::TwoNQueens, "full", 8),
        ),
        (
            Problem::TwoNQueens,
            generate(Problem::TwoNQueens, "holes", 3),
        ),
        (
            Problem::TwoNQueens,
            generate(Problem::TwoNQueens, "one-col", 5),
        ),
    ];
    for (problem, input) in inputs {
        assert!(
            !check_shrink(problem, &input).is_empty(),
            "{problem} {input:?}"
        );
    }
    // The smallest n comes first, with the king kept on the board.
    assert_eq!(shrink(Problem::KingQueens, "12 7 5\n")[0], "1 1 1\n");
    assert_eq!(shrink(Problem::CheckerChallenge, "8\n"), ["6\n", "7\n"]);
}

#[test]
fn shrinking_minimal_inputs_writes_nothing() {
    assert!(shrink(Problem::QueensBoards, "1\n").is_empty());
    assert!(shrink(Problem::CheckerChallenge, "6\n").is_empty());
    assert!(shrink(Problem::KingQueens, "1 1 1\n").is_empty());
    assert!(shrink(Problem::TwoNQueens, "1\n0\n").is_empty());
}

#[test]
fn shrink_clears_the_previous_rounds_candidates() {
    let dir = TempDir::new("reuse");
    let file = dir.0.join("input.in");
    std::fs::write(&file, "8\n").unwrap();
    let keep = dir.0.join("notes.txt");
    std::fs::write(&keep, "not a candidate").unwrap();
    for stale in ["000.in", "099.in"] {
        std::fs::write(dir.0.join(stale), "stale").unwrap();
    }
    let args = [
        "checker-challenge",
        "shrink",
        file.to_str().unwrap(),
        dir.0.to_str().unwrap(),
    ];
    run_ok("casegen", &args, b"");
    let read = |name: &str| std::fs::read_to_string(dir.0.join(name)).ok();
    assert_eq!(read("000.in").as_deref(), Some("6\n"));
    assert_eq!(read("001.in").as_deref(), Some("7\n"));
    assert_eq!(read("099.in"), None);
    assert_eq!(read("notes.txt").as_deref(), Some("not a candidate"));
    assert_eq!(read("input.in").as_deref(), Some("8\n"));
}

#[test]
fn repeated_shrinking_terminates() {
    // Keep the last (least shrunk) candidate each round: the longest possible descent.
    let mut input = generate(Problem::TwoNQueens, "holes", 1);
    let mut rounds = 0;
    while let Some(next) = shrink(Problem::TwoNQueens, &input).pop() {
        input = next;
        rounds += 1;
        assert!(rounds < 200, "shrinking does not end");
    }
    assert_eq!(input, "1\n0\n");
}
