//! The committed cases: exactly the samples plus what the generator table makes, byte for
//! byte; inputs valid; answers canonical and equal to the reference's output, with the fast
//! solution agreeing.

mod common;

use std::collections::BTreeSet;

use common::{boards, case_name, committed, run, run_ok, samples, GENERATORS};
use solutions::Problem;

#[test]
fn cases_are_the_samples_plus_the_generated_ones() {
    for problem in Problem::ALL {
        let on_disk: BTreeSet<String> = committed(problem).into_iter().map(|c| c.0).collect();
        let mut expected: BTreeSet<String> = samples(problem)
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        for g in GENERATORS.iter().filter(|g| g.problem == problem) {
            for seed in g.seeds.0..=g.seeds.1 {
                assert!(expected.insert(case_name(g.pattern, seed)), "name clash");
            }
        }
        assert_eq!(on_disk, expected, "{problem}");
    }
    let total: usize = Problem::ALL.map(|p| committed(p).len()).iter().sum();
    assert_eq!(total, 10 + 9 + 651 + 310);
}

#[test]
fn generated_inputs_are_reproduced_byte_for_byte() {
    let dir = common::cases_dir();
    for g in GENERATORS {
        for seed in g.seeds.0..=g.seeds.1 {
            let name = case_name(g.pattern, seed);
            let path = dir.join(g.problem.id()).join(format!("{name}.in"));
            let on_disk = std::fs::read_to_string(&path).unwrap();
            let again = common::generate(g.problem, g.family, seed);
            assert_eq!(on_disk, again, "`{}`", path.display());
        }
    }
}

#[test]
fn inputs_are_valid_and_answers_canonical() {
    for problem in Problem::ALL {
        for (name, input, answer) in committed(problem) {
            let out = run("validate", &[problem.id()], input.as_bytes());
            assert!(
                out.status.code() == Some(42),
                "{problem}/{name}.in: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let empty_allowed = problem == Problem::QueensBoards && answer.is_empty();
            assert!(
                empty_allowed || answer.ends_with('\n'),
                "{problem}/{name}.ans"
            );
            assert!(!answer.ends_with("\n\n\n"), "{problem}/{name}.ans");
            if problem != Problem::QueensBoards {
                assert!(!answer.ends_with("\n\n"), "{problem}/{name}.ans");
            }
            assert!(
                !answer.contains(" \n") && !answer.contains('\r'),
                "{problem}/{name}.ans"
            );
        }
    }
}

/// The answer equals the reference's output, and the fast solution gives the same (for
/// queens-boards, the same set of boards).
fn check_answers(problem: Problem, part: usize, parts: usize) {
    let cases = committed(problem);
    for (i, (name, input, answer)) in cases.iter().enumerate() {
        if i % parts != part {
            continue;
        }
        let brute = run_ok(&format!("{}-brute", problem.id()), &[], input.as_bytes());
        assert_eq!(
            &brute, answer,
            "{problem}/{name}.ans differs from the reference"
        );
        let fast = run_ok(problem.id(), &[], input.as_bytes());
        if problem == Problem::QueensBoards {
            let n: usize = input.trim().parse().unwrap();
            assert_eq!(boards(n, &fast), boards(n, answer), "{problem}/{name}");
        } else {
            assert_eq!(&fast, answer, "{problem}/{name}: fast solution disagrees");
        }
    }
}

#[test]
fn answers_queens_boards() {
    check_answers(Problem::QueensBoards, 0, 1);
}

#[test]
fn answers_checker_challenge() {
    check_answers(Problem::CheckerChallenge, 0, 1);
}

// king-queens has the slowest references (n = 12): interleaved parts keep test threads busy.
#[test]
fn answers_king_queens_a() {
    check_answers(Problem::KingQueens, 0, 3);
}

#[test]
fn answers_king_queens_b() {
    check_answers(Problem::KingQueens, 1, 3);
}

#[test]
fn answers_king_queens_c() {
    check_answers(Problem::KingQueens, 2, 3);
}

#[test]
fn answers_two_n_queens() {
    check_answers(Problem::TwoNQueens, 0, 1);
}

#[test]
fn samples_match_the_statements() {
    let dir = common::cases_dir();
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
    assert_eq!(read("checker-challenge/sample-1.in"), "6\n");
    assert_eq!(
        read("checker-challenge/sample-1.ans"),
        "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n4\n"
    );
    assert_eq!(read("king-queens/sample-1.in"), "8 2 2\n");
    assert_eq!(read("king-queens/sample-1.ans"), "10\n");
    assert_eq!(read("two-n-queens/sample-1.ans"), "2\n");
    assert_eq!(
        read("two-n-queens/sample-2.in"),
        "4\n1 0 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1\n"
    );
    assert_eq!(read("two-n-queens/sample-2.ans"), "0\n");
    // The statement lists the two boards the other way round; either order is accepted.
    let statement = ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n";
    assert_eq!(
        boards(4, &read("queens-boards/sample-1.ans")),
        boards(4, statement)
    );
}
