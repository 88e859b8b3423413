//! Fast, reference and array solvers agree on every small input and on random boards.

mod common;

use common::{boards, generate, run_ok, solvers};
use solutions::Problem;

/// Runs the three solvers of `problem` on `input` and asserts the same stdout.
fn agree(problem: Problem, input: &str) -> String {
    let [fast, brute, array] = solvers(problem).map(|s| run_ok(&s, &[], input.as_bytes()));
    assert_eq!(fast, brute, "{problem} fast vs brute on {input:?}");
    assert_eq!(array, brute, "{problem} array vs brute on {input:?}");
    brute
}

#[test]
fn queens_boards_same_sets_for_every_n() {
    let counts = [1, 0, 0, 2, 10, 4, 40, 92, 352];
    for n in 1..=9 {
        let input = format!("{n}\n");
        let [fast, brute, array] =
            solvers(Problem::QueensBoards).map(|s| run_ok(&s, &[], input.as_bytes()));
        let want = boards(n, &brute);
        assert_eq!(want.len(), counts[n - 1], "n = {n}");
        // The reference prints boards sorted by text, and each once.
        assert_eq!(want.concat(), brute, "n = {n}");
        assert_eq!(boards(n, &fast), want, "fast, n = {n}");
        assert_eq!(boards(n, &array), want, "array, n = {n}");
    }
}

#[test]
fn checker_challenge_every_n_up_to_11() {
    for n in 6..=11 {
        agree(Problem::CheckerChallenge, &format!("{n}\n"));
    }
    assert_eq!(
        agree(Problem::CheckerChallenge, "6\n"),
        "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n4\n"
    );
}

/// All (n, x, y) with n in `ns`.
fn king_inputs(ns: std::ops::RangeInclusive<usize>) -> Vec<String> {
    let mut out = Vec::new();
    for n in ns {
        for x in 1..=n {
            for y in 1..=n {
                out.push(format!("{n} {x} {y}\n"));
            }
        }
    }
    out
}

// Split in two so the test threads share the work.
#[test]
fn king_queens_every_input_up_to_8() {
    for input in king_inputs(1..=8) {
        agree(Problem::KingQueens, &input);
    }
}

#[test]
fn king_queens_every_input_n_9() {
    for input in king_inputs(9..=9) {
        agree(Problem::KingQueens, &input);
    }
}

fn two_n_random(seeds: std::ops::Range<u64>) {
    for seed in seeds {
        // Seeds far from the committed ones, so this adds coverage.
        let input = generate(Problem::TwoNQueens, "random", 1_000_000 + seed);
        agree(Problem::TwoNQueens, &input);
    }
}

#[test]
fn two_n_queens_random_boards_a() {
    two_n_random(0..150);
}

#[test]
fn two_n_queens_random_boards_b() {
    two_n_random(150..300);
}

#[test]
fn two_n_queens_dense_boards() {
    for seed in 0..40 {
        let input = generate(Problem::TwoNQueens, "holes", 1_000_000 + seed);
        agree(Problem::TwoNQueens, &input);
    }
}
