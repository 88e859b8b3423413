//! find-the-queens, fast: row by row, a three-way binary search over the columns that no queen
//! found so far attacks. With k such columns it asks at most ⌊log₂ k⌋ questions, and k is at
//! most the number of queens still hidden, so it stays within the budget on every board.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use solutions::find_queens::{self, Reply};

fn main() -> ExitCode {
    match solve(io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(solutions::exit::INVALID_INPUT as u8)
        }
    }
}

fn solve(mut from: impl BufRead, mut to: impl Write) -> Result<(), String> {
    let mut line = String::new();
    let n: usize = read_line(&mut from, &mut line)?
        .parse()
        .map_err(|_| format!("expected n, found `{}`", line.trim()))?;
    if !find_queens::n_allowed(n) {
        return Err(format!("n = {n} is out of the statement's bounds"));
    }
    let mut found: Vec<usize> = Vec::with_capacity(n);
    for row in 1..=n {
        let free: Vec<usize> = (1..=n)
            .filter(|&c| {
                found
                    .iter()
                    .enumerate()
                    .all(|(r, &q)| q != c && q.abs_diff(c) != row - 1 - r)
            })
            .collect();
        let (mut lo, mut hi) = (0, free.len());
        let column = loop {
            if hi - lo == 1 {
                break free[lo];
            }
            if hi == lo {
                return Err(format!("no free column is left in row {row}"));
            }
            let mid = lo + (hi - lo) / 2;
            writeln!(to, "? {row} {}", free[mid])
                .and_then(|()| to.flush())
                .map_err(|e| format!("cannot write: {e}"))?;
            match Reply::parse(read_line(&mut from, &mut line)?) {
                Some(Reply::Here) => break free[mid],
                Some(Reply::Left) => hi = mid,
                Some(Reply::Right) => lo = mid + 1,
                None => return Err(format!("unexpected reply `{}`", line.trim())),
            }
        };
        found.push(column);
    }
    let columns: Vec<String> = found.iter().map(usize::to_string).collect();
    writeln!(to, "! {}", columns.join(" "))
        .and_then(|()| to.flush())
        .map_err(|e| format!("cannot write: {e}"))
}

fn read_line<'a>(from: &mut impl BufRead, line: &'a mut String) -> Result<&'a str, String> {
    line.clear();
    match from.read_line(line) {
        Ok(0) => Err("the interactor closed the dialogue".to_string()),
        Ok(_) => Ok(line.trim()),
        Err(e) => Err(format!("cannot read: {e}")),
    }
}
