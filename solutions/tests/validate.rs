//! validate: accepts the statements' exact layout and names the first problem otherwise, with
//! a Kattis input validator's exit codes (42 valid, 43 invalid).

mod common;

use common::run;
use solutions::{exit, Problem};

/// The Kattis format's exit codes for an input validator.
const VALID: i32 = 42;
const INVALID: i32 = 43;

fn check(problem: &str, input: &str) -> (Option<i32>, String) {
    let out = run("validate", &[problem], input.as_bytes());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).trim_end().to_string(),
    )
}

#[test]
fn valid_inputs_pass_silently() {
    for (problem, input) in [
        ("queens-boards", "4\n"),
        ("checker-challenge", "13\n"),
        ("king-queens", "12 12 1\n"),
        ("two-n-queens", "1\n0\n"),
        ("two-n-queens", "3\n1 0 1\n0 1 0\n1 1 1\n"),
    ] {
        assert_eq!(
            check(problem, input),
            (Some(VALID), String::new()),
            "{problem} {input:?}"
        );
    }
}

#[test]
fn malformed_inputs_are_rejected_with_the_reason() {
    let table = [
        (
            "checker-challenge",
            "14\n",
            "line 1: n = 14 is out of [6, 13]",
        ),
        ("checker-challenge", "6", "line 1: missing final newline"),
        (
            "checker-challenge",
            "6\n\n",
            "line 2: unexpected empty line after the input",
        ),
        ("checker-challenge", " 6\n", "line 1: leading space"),
        (
            "checker-challenge",
            "6\r\n",
            "line 1: carriage return (CRLF line ending)",
        ),
        (
            "checker-challenge",
            "+6\n",
            "line 1: unexpected character `+` at column 1",
        ),
        (
            "checker-challenge",
            "",
            "line 1: expected n, found end of input",
        ),
        ("queens-boards", "10\n", "line 1: n = 10 is out of [1, 9]"),
        (
            "queens-boards",
            "007\n",
            "line 1: `007` is not written canonically",
        ),
        (
            "queens-boards",
            "abc\n",
            "line 1: unexpected character `a` at column 1",
        ),
        (
            "king-queens",
            "8 2\n",
            "line 1: expected 3 numbers, found 2",
        ),
        ("king-queens", "8 2 2 \n", "line 1: trailing space"),
        (
            "king-queens",
            "8 2  2\n",
            "line 1: double space at column 4",
        ),
        ("king-queens", "8 2 9\n", "line 1: y = 9 is out of [1, 8]"),
        (
            "king-queens",
            "8\n2 2\n",
            "line 1: expected 3 numbers, found 1",
        ),
        (
            "two-n-queens",
            "4\n1 1 1 1\n1 1 1\n1 1 1 1\n1 1 1 1\n",
            "line 3: expected 4 numbers, found 3",
        ),
        (
            "two-n-queens",
            "2\n1 1\n",
            "line 3: expected row 2 of the board, found end of input",
        ),
        (
            "two-n-queens",
            "2\n1 1\n1 3\n",
            "line 3: value `3` in column 2 is not 0 or 1",
        ),
        (
            "two-n-queens",
            "2\n1 1\n1 1\n\n",
            "line 4: unexpected empty line after the input",
        ),
        (
            "two-n-queens",
            "2\n1 1 1 1\n",
            "line 2: expected 2 numbers, found 4",
        ),
        ("two-n-queens", "0\n", "line 1: n = 0 is out of [1, 8]"),
        ("two-n-queens", "2\n1\t1\n1 1\n", "line 2: tab at column 2"),
    ];
    for (problem, input, reason) in table {
        assert_eq!(
            check(problem, input),
            (Some(INVALID), reason.to_string()),
            "{problem} {input:?}"
        );
    }
}

#[test]
fn unknown_problem_or_no_problem_is_misuse() {
    let (code, stderr) = check("n-queens", "4\n");
    assert_eq!(code, Some(exit::USAGE));
    assert!(stderr.contains("unknown problem `n-queens`"), "{stderr}");
    for p in Problem::ALL {
        assert!(stderr.contains(p.id()), "hint lists `{p}`: {stderr}");
    }
    let out = run("validate", &[], b"4\n");
    assert_eq!(out.status.code(), Some(exit::USAGE));
}
