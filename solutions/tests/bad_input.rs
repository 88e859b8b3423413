//! Every solver refuses bad input with exit code 1 and a one-line message, never a panic.

mod common;

use common::{run, solvers};
use solutions::Problem;

/// Bad inputs of each problem, with a piece of the message expected on stderr.
fn bad_inputs(problem: Problem) -> Vec<(&'static str, &'static str)> {
    let mut all = vec![
        ("", "found end of input"),
        ("abc\n", "found `abc`"),
        ("99999999999999999999999\n", "is out of"),
        ("-3\n", "n = -3 is out of"),
        ("0\n", "n = 0 is out of"),
        ("\u{fffd}\n", "as an integer"),
    ];
    all.extend(match problem {
        Problem::QueensBoards => vec![
            ("10\n", "n = 10 is out of [1, 9]"),
            ("4 4\n", "unexpected `4`"),
        ],
        Problem::CheckerChallenge => vec![
            ("14\n", "n = 14 is out of [6, 13]"),
            ("5\n", "n = 5 is out of [6, 13]"),
            ("6.0\n", "found `6.0`"),
        ],
        Problem::KingQueens => vec![
            ("8 2\n", "expected y, found end of input"),
            ("8 9 1\n", "x = 9 is out of [1, 8]"),
            ("13 1 1\n", "n = 13 is out of [1, 12]"),
            ("8 2 x\n", "found `x`"),
            ("8 2 2 2\n", "unexpected `2`"),
        ],
        Problem::TwoNQueens => vec![
            (
                "4\n1 1 1 1\n1 1\n",
                "expected square (2, 3), found end of input",
            ),
            ("2\n1 2\n1 1\n", "square (1, 2) = 2 is not 0 or 1"),
            ("2\n1 -1\n1 1\n", "is not 0 or 1"),
            ("9\n", "n = 9 is out of [1, 8]"),
            ("2\n1 1\n1 1\n1\n", "unexpected `1`"),
        ],
    });
    all
}

#[test]
fn every_solver_rejects_bad_input() {
    for problem in Problem::ALL {
        for solver in solvers(problem) {
            for (input, want) in bad_inputs(problem) {
                let out = run(&solver, &[], input.as_bytes());
                let stderr = String::from_utf8_lossy(&out.stderr);
                let context = format!("`{solver}` on {input:?}: stderr {stderr:?}");
                assert_eq!(out.status.code(), Some(1), "{context}");
                assert!(out.stdout.is_empty(), "{context}");
                assert!(!stderr.contains("panicked"), "{context}");
                assert_eq!(stderr.lines().count(), 1, "{context}");
                assert!(stderr.contains(want), "{context}: want {want:?}");
            }
        }
    }
}

#[test]
fn solvers_accept_loose_whitespace() {
    // The statements fix the layout, but the solvers need not be fussy about it.
    assert_eq!(common::run_ok("king-queens", &[], b" 8\t2\r\n2"), "10\n");
    assert_eq!(
        common::run_ok(
            "two-n-queens-brute",
            &[],
            b"4 1 1 1 1 1 1 1 1\n1 1 1 1 1 1 1 1"
        ),
        "2\n"
    );
}
