//! Strict validation of a case input against its statement: exact layout (single spaces, one
//! line per row, a final newline, nothing extra) and bounds. The solutions read leniently; this
//! is what keeps the committed cases canonical.

use std::fmt;

use crate::Problem;

/// Why an input breaks its statement, at a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for Invalid {}

fn invalid<T>(line: usize, reason: impl Into<String>) -> Result<T, Invalid> {
    Err(Invalid {
        line,
        reason: reason.into(),
    })
}

/// Checks `text` as an input of `problem`.
pub fn validate(problem: Problem, text: &[u8]) -> Result<(), Invalid> {
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
        Problem::QueensBoards | Problem::CheckerChallenge => {
            let (lo, hi) = problem.n_bounds();
            let [n] = reader.numbers("n")?;
            reader.bounded("n", n, lo.into(), hi.into())?;
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
}
