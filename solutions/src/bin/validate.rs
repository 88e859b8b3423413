//! validate: checks one input on stdin strictly against a problem's statement, as a Kattis
//! input validator.
//!
//! Usage: `validate <problem> < input`. Exit 42 when the input is valid; 43 with
//! `line N: reason` on stderr when it is not; 2 when the problem is unknown. For
//! `find-the-queens` the input is the interactor's: the hidden placement.
//!
//! One self-contained file, with nothing but the standard library, on purpose: judge.toml
//! names this source (the harness compiles it once and caches the build), and `harness
//! export` copies it into a package's `input_validators/`, where problemtools compiles it
//! with a bare `rustc`. Its exit codes are the Kattis format's (`validator-protocol =
//! "kattis"` in judge.toml), so the same file answers the harness and problemtools alike.
//! The solutions read leniently; this is what keeps the committed cases canonical.

use std::fmt;
use std::io::Read;
use std::process::ExitCode;

/// The Kattis format's exit codes for an input validator.
const EXIT_VALID: u8 = 42;
const EXIT_INVALID: u8 = 43;
/// Misuse: an unknown problem, or stdin unreadable.
const EXIT_USAGE: u8 = 2;

/// The problems this validator knows, with the bounds their statements give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Problem {
    QueensBoards,
    CheckerChallenge,
    KingQueens,
    TwoNQueens,
    /// Interactive: the input is the hidden placement the interactor reads.
    FindTheQueens,
}

impl Problem {
    const ALL: [(Problem, &'static str); 5] = [
        (Problem::QueensBoards, "queens-boards"),
        (Problem::CheckerChallenge, "checker-challenge"),
        (Problem::KingQueens, "king-queens"),
        (Problem::TwoNQueens, "two-n-queens"),
        (Problem::FindTheQueens, "find-the-queens"),
    ];

    fn from_id(id: &str) -> Option<Problem> {
        Problem::ALL
            .into_iter()
            .find(|(_, name)| *name == id)
            .map(|(p, _)| p)
    }

    fn id(self) -> &'static str {
        Problem::ALL
            .into_iter()
            .find(|(p, _)| *p == self)
            .map(|(_, name)| name)
            .expect("every problem has an id")
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Largest board of find the queens.
pub(crate) const MAX_N: usize = 100;

/// Whether find the queens allows a board of size `n`: no placement exists for 2 and 3.
pub(crate) fn n_allowed(n: usize) -> bool {
    n == 1 || (4..=MAX_N).contains(&n)
}

/// The first pair of queens that attack each other, as 1-based rows.
fn first_attack(columns: &[usize]) -> Option<(usize, usize)> {
    for (a, &ca) in columns.iter().enumerate() {
        for (b, &cb) in columns.iter().enumerate().skip(a + 1) {
            if ca == cb || ca.abs_diff(cb) == b - a {
                return Some((a + 1, b + 1));
            }
        }
    }
    None
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let problem = match args.as_slice() {
        [id] => match Problem::from_id(id) {
            Some(p) => p,
            None => {
                let known: Vec<String> = Problem::ALL
                    .iter()
                    .map(|(_, id)| format!("`{id}`"))
                    .collect();
                eprintln!(
                    "validate: unknown problem `{id}` (hint: problems are {})",
                    known.join(", ")
                );
                return ExitCode::from(EXIT_USAGE);
            }
        },
        _ => {
            eprintln!("validate: usage: validate <problem> < input");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let mut text = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut text) {
        eprintln!("validate: cannot read stdin: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    match validate(problem, &text) {
        Ok(()) => ExitCode::from(EXIT_VALID),
        Err(invalid) => {
            eprintln!("{invalid}");
            ExitCode::from(EXIT_INVALID)
        }
    }
}

/// Why an input breaks its statement, at a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Invalid {
    pub(crate) line: usize,
    pub(crate) reason: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

fn invalid<T>(line: usize, reason: impl Into<String>) -> Result<T, Invalid> {
    Err(Invalid {
        line,
        reason: reason.into(),
    })
}

/// Checks `text` as an input of `problem`.
fn validate(problem: Problem, text: &[u8]) -> Result<(), Invalid> {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    // `split` leaves an empty piece after a final newline; anything else lacks one.
    let terminated = lines.last().is_some_and(|l| l.is_empty());
    if terminated {
        lines.pop();
    }
    let mut reader = Lines {
        lines: &lines,
        at: 0,
    };
    match problem {
        Problem::FindTheQueens => return validate_placement(text).map(drop),
        Problem::QueensBoards => {
            let [n] = reader.numbers("n")?;
            reader.bounded("n", n, 1, 9)?;
        }
        Problem::CheckerChallenge => {
            let [n] = reader.numbers("n")?;
            reader.bounded("n", n, 6, 13)?;
        }
        Problem::KingQueens => {
            let [n, x, y] = reader.numbers("`n x y`")?;
            let n = reader.bounded("n", n, 1, 12)?;
            reader.bounded("x", x, 1, n)?;
            reader.bounded("y", y, 1, n)?;
        }
        Problem::TwoNQueens => {
            let [n] = reader.numbers("n")?;
            let n = reader.bounded("n", n, 1, 8)? as usize;
            for r in 1..=n {
                let row = reader.row(n, r)?;
                for (c, v) in row.iter().enumerate() {
                    if *v != "0" && *v != "1" {
                        return invalid(
                            reader.at,
                            format!("value `{v}` in column {} is not 0 or 1", c + 1),
                        );
                    }
                }
            }
        }
    }
    if lines.len() > reader.at {
        let extra = lines[reader.at];
        let what = if extra.is_empty() {
            "unexpected empty line after the input".to_string()
        } else {
            format!(
                "unexpected extra line `{}` after the input",
                String::from_utf8_lossy(extra)
            )
        };
        return invalid(reader.at + 1, what);
    }
    if !terminated {
        return invalid(reader.at, "missing final newline");
    }
    Ok(())
}

/// The input's lines, consumed front to back; `at` is the number of lines read so far.
struct Lines<'a> {
    lines: &'a [&'a [u8]],
    at: usize,
}

impl<'a> Lines<'a> {
    /// The next line's space-separated tokens, checked for layout and canonical integers.
    fn tokens(&mut self, what: &str) -> Result<Vec<&'a str>, Invalid> {
        let line_no = self.at + 1;
        let Some(&line) = self.lines.get(self.at) else {
            return invalid(line_no, format!("expected {what}, found end of input"));
        };
        self.at += 1;
        for (i, &b) in line.iter().enumerate() {
            let column = i + 1;
            match b {
                b'0'..=b'9' | b'-' | b' ' => {}
                b'\r' => return invalid(line_no, "carriage return (CRLF line ending)"),
                b'\t' => return invalid(line_no, format!("tab at column {column}")),
                _ => {
                    return invalid(
                        line_no,
                        format!(
                            "unexpected character `{}` at column {column}",
                            std::ascii::escape_default(b)
                        ),
                    )
                }
            }
        }
        if line.is_empty() {
            return invalid(line_no, format!("empty line, expected {what}"));
        }
        if line.first() == Some(&b' ') {
            return invalid(line_no, "leading space");
        }
        if line.last() == Some(&b' ') {
            return invalid(line_no, "trailing space");
        }
        if let Some(i) = line.windows(2).position(|w| w == b"  ") {
            return invalid(line_no, format!("double space at column {}", i + 1));
        }
        // Only ASCII digits, '-' and ' ' are left, so this cannot fail.
        let text = std::str::from_utf8(line).expect("checked ASCII");
        let tokens: Vec<&str> = text.split(' ').collect();
        for tok in &tokens {
            let digits = tok.strip_prefix('-').unwrap_or(tok);
            if digits.is_empty() || digits.contains('-') {
                return invalid(line_no, format!("`{tok}` is not an integer"));
            }
            if (digits.len() > 1 && digits.starts_with('0')) || *tok == "-0" {
                return invalid(line_no, format!("`{tok}` is not written canonically"));
            }
        }
        Ok(tokens)
    }

    /// The next line as exactly `N` numbers.
    fn numbers<const N: usize>(&mut self, what: &str) -> Result<[&'a str; N], Invalid> {
        let tokens = self.tokens(what)?;
        <[&str; N]>::try_from(tokens.as_slice()).or_else(|_| {
            invalid(
                self.at,
                format!("expected {}, found {}", count(N), tokens.len()),
            )
        })
    }

    /// Board row `r` as exactly `n` numbers.
    fn row(&mut self, n: usize, r: usize) -> Result<Vec<&'a str>, Invalid> {
        let tokens = self.tokens(&format!("row {r} of the board"))?;
        if tokens.len() != n {
            return invalid(
                self.at,
                format!("expected {}, found {}", count(n), tokens.len()),
            );
        }
        Ok(tokens)
    }

    /// `tok` (from the line just read) as an integer in `[lo, hi]`.
    fn bounded(&self, name: &str, tok: &str, lo: i64, hi: i64) -> Result<i64, Invalid> {
        match tok.parse::<i64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => invalid(self.at, format!("{name} = {tok} is out of [{lo}, {hi}]")),
        }
    }
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 number".to_string()
    } else {
        format!("{n} numbers")
    }
}

/// Checks the interactor's input strictly: `n` on line 1, then n columns separated by single
/// spaces on line 2, a final newline, a valid placement. Returns the columns, row by row.
/// The interactor (`solutions::find_queens`, which includes this file as a module) checks its
/// input with this very function, so the two can never disagree.
pub(crate) fn validate_placement(text: &[u8]) -> Result<Vec<usize>, Invalid> {
    let invalid = |line: usize, reason: String| Err(Invalid { line, reason });
    let Ok(text) = std::str::from_utf8(text) else {
        return invalid(1, "the input is not UTF-8".to_string());
    };
    let Some(body) = text.strip_suffix('\n') else {
        return invalid(text.lines().count().max(1), "no final newline".to_string());
    };
    let lines: Vec<&str> = body.split('\n').collect();
    if lines.len() != 2 {
        return invalid(
            lines.len().min(3),
            format!(
                "expected 2 lines (n, then the columns), found {}",
                lines.len()
            ),
        );
    }
    let n = match number(lines[0]) {
        Some(n) if n_allowed(n) => n,
        Some(n) => {
            return invalid(
                1,
                format!("n = {n} has no placement or is out of 1, 4..={MAX_N}"),
            )
        }
        None => return invalid(1, format!("expected n, found `{}`", lines[0])),
    };
    let tokens: Vec<&str> = lines[1].split(' ').collect();
    if tokens.len() != n {
        return invalid(
            2,
            format!(
                "expected {n} columns separated by single spaces, found {}",
                tokens.len()
            ),
        );
    }
    let mut columns = Vec::with_capacity(n);
    for (row, token) in tokens.iter().enumerate() {
        match number(token) {
            Some(c) if (1..=n).contains(&c) => columns.push(c),
            _ => {
                return invalid(
                    2,
                    format!("row {}: column `{token}` is not in 1..={n}", row + 1),
                )
            }
        }
    }
    if let Some((a, b)) = first_attack(&columns) {
        return invalid(
            2,
            format!("the queens of rows {a} and {b} attack each other"),
        );
    }
    Ok(columns)
}

/// A decimal number without sign or leading zeros.
fn number(token: &str) -> Option<usize> {
    let canonical = !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    canonical.then(|| token.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(problem: Problem, text: &str) -> String {
        match validate(problem, text.as_bytes()) {
            Ok(()) => "ok".to_string(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn table() {
        use Problem::*;
        let cases: &[(Problem, &str, &str)] = &[
            (CheckerChallenge, "6\n", "ok"),
            (CheckerChallenge, "14\n", "line 1: n = 14 is out of [6, 13]"),
            (CheckerChallenge, "5\n", "line 1: n = 5 is out of [6, 13]"),
            (CheckerChallenge, "6", "line 1: missing final newline"),
            (
                CheckerChallenge,
                "",
                "line 1: expected n, found end of input",
            ),
            (CheckerChallenge, "\n", "line 1: empty line, expected n"),
            (
                CheckerChallenge,
                "6\n\n",
                "line 2: unexpected empty line after the input",
            ),
            (
                CheckerChallenge,
                "6\n7\n",
                "line 2: unexpected extra line `7` after the input",
            ),
            (
                CheckerChallenge,
                "6 7\n",
                "line 1: expected 1 number, found 2",
            ),
            (CheckerChallenge, " 6\n", "line 1: leading space"),
            (CheckerChallenge, "6 \n", "line 1: trailing space"),
            (
                CheckerChallenge,
                "6\r\n",
                "line 1: carriage return (CRLF line ending)",
            ),
            (
                CheckerChallenge,
                "06\n",
                "line 1: `06` is not written canonically",
            ),
            (
                CheckerChallenge,
                "x\n",
                "line 1: unexpected character `x` at column 1",
            ),
            (CheckerChallenge, "6-\n", "line 1: `6-` is not an integer"),
            (
                CheckerChallenge,
                "99999999999999999999\n",
                "line 1: n = 99999999999999999999 is out of [6, 13]",
            ),
            (QueensBoards, "1\n", "ok"),
            (QueensBoards, "0\n", "line 1: n = 0 is out of [1, 9]"),
            (QueensBoards, "-1\n", "line 1: n = -1 is out of [1, 9]"),
            (KingQueens, "8 2 2\n", "ok"),
            (KingQueens, "8 2\n", "line 1: expected 3 numbers, found 2"),
            (KingQueens, "8  2 2\n", "line 1: double space at column 2"),
            (KingQueens, "8\t2 2\n", "line 1: tab at column 2"),
            (KingQueens, "4 5 1\n", "line 1: x = 5 is out of [1, 4]"),
            (KingQueens, "4 1 0\n", "line 1: y = 0 is out of [1, 4]"),
            (KingQueens, "13 1 1\n", "line 1: n = 13 is out of [1, 12]"),
            (TwoNQueens, "2\n1 0\n0 1\n", "ok"),
            (
                TwoNQueens,
                "4\n1 1 1 1\n1 1 1\n",
                "line 3: expected 4 numbers, found 3",
            ),
            (
                TwoNQueens,
                "2\n1 0\n",
                "line 3: expected row 2 of the board, found end of input",
            ),
            (
                TwoNQueens,
                "2\n1 0\n0 2\n",
                "line 3: value `2` in column 2 is not 0 or 1",
            ),
            (
                TwoNQueens,
                "2\n1 0\n0 1\n1 1\n",
                "line 4: unexpected extra line `1 1` after the input",
            ),
            (
                TwoNQueens,
                "2\n1 0 0 1\n",
                "line 2: expected 2 numbers, found 4",
            ),
            (TwoNQueens, "2\n1 0\n0 1", "line 3: missing final newline"),
            (TwoNQueens, "9\n", "line 1: n = 9 is out of [1, 8]"),
        ];
        for (problem, text, want) in cases {
            assert_eq!(&reason(*problem, text), want, "{problem} {text:?}");
        }
    }

    /// Find the queens' placements: also the interactor's check (solutions/src/find_queens.rs
    /// includes this file).
    #[test]
    fn find_the_queens_table() {
        let table: [(&str, Option<(usize, &str)>); 9] = [
            ("4\n2 4 1 3\n", None),
            ("1\n1\n", None),
            ("4\n2 4 1 3", Some((2, "no final newline"))),
            ("3\n1 2 3\n", Some((1, "has no placement"))),
            ("4\n2 4 1\n", Some((2, "expected 4 columns"))),
            ("4\n2  4 1 3\n", Some((2, "expected 4 columns"))),
            ("4\n2 4 1 5\n", Some((2, "row 4: column `5`"))),
            ("4\n1 2 3 4\n", Some((2, "rows 1 and 2 attack"))),
            ("04\n2 4 1 3\n", Some((1, "expected n"))),
        ];
        for (text, expected) in table {
            match (validate(Problem::FindTheQueens, text.as_bytes()), expected) {
                (Ok(()), None) => {}
                (Err(e), Some((line, reason))) => {
                    assert_eq!(e.line, line, "{text:?}: {e}");
                    assert!(e.reason.contains(reason), "{text:?}: {e}");
                }
                (got, want) => panic!("{text:?}: got {got:?}, want {want:?}"),
            }
        }
    }
}
