//! Lenient input reading for the solutions: whitespace-separated integers with bounds checks.
//! Bad input becomes a one-line message and exit code 1, never a panic trace, so the judge can
//! tell a broken case from a broken solution. (Strict format checks live in `validate`.)

use std::fmt;
use std::io::{self, Read, Write};

use crate::exit;

/// What a token stands for, named in error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    Var(&'static str),
    /// A board square, 1-based row and column.
    Square(usize, usize),
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Name::Var(v) => f.write_str(v),
            Name::Square(r, c) => write!(f, "square ({r}, {c})"),
        }
    }
}

/// Why an input was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    Missing(Name),
    NotInteger(Name, String),
    OutOfRange {
        name: Name,
        value: String,
        lo: i64,
        hi: i64,
    },
    NotBinary(Name, String),
    Extra(String),
}

/// Long tokens are cut so the message stays one readable line.
fn shorten(token: &str) -> String {
    const MAX: usize = 24;
    if token.chars().count() <= MAX {
        token.to_string()
    } else {
        let head: String = token.chars().take(MAX).collect();
        format!("{head}…")
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Missing(name) => write!(f, "expected {name}, found end of input"),
            InputError::NotInteger(name, tok) => {
                write!(f, "expected {name} as an integer, found `{}`", shorten(tok))
            }
            InputError::OutOfRange {
                name,
                value,
                lo,
                hi,
            } => {
                write!(f, "{name} = {} is out of [{lo}, {hi}]", shorten(value))
            }
            InputError::NotBinary(name, value) => {
                write!(f, "{name} = {} is not 0 or 1", shorten(value))
            }
            InputError::Extra(tok) => write!(f, "unexpected `{}` after the input", shorten(tok)),
        }
    }
}

impl std::error::Error for InputError {}

/// Whitespace-separated tokens of an input, read front to back.
pub struct Tokens<'a> {
    rest: &'a [u8],
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a [u8]) -> Tokens<'a> {
        Tokens { rest: text }
    }

    fn next_token(&mut self) -> Option<&'a [u8]> {
        let start = self.rest.iter().position(|b| !b.is_ascii_whitespace())?;
        let rest = &self.rest[start..];
        let len = rest
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(rest.len());
        self.rest = &rest[len..];
        Some(&rest[..len])
    }

    /// The next token as an integer in `[lo, hi]`.
    pub fn int(&mut self, name: Name, lo: i64, hi: i64) -> Result<i64, InputError> {
        let tok = self.next_token().ok_or(InputError::Missing(name))?;
        let text = String::from_utf8_lossy(tok);
        let digits = text.strip_prefix(['-', '+']).unwrap_or(&text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(InputError::NotInteger(name, text.into_owned()));
        }
        // A valid integer too long for i64 is simply out of range, not "not an integer".
        match text.parse::<i64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(InputError::OutOfRange {
                name,
                value: text.into_owned(),
                lo,
                hi,
            }),
        }
    }

    /// The next token as a board square's 0 or 1.
    pub fn bit(&mut self, name: Name) -> Result<bool, InputError> {
        let tok = self.next_token().ok_or(InputError::Missing(name))?;
        match tok {
            b"0" => Ok(false),
            b"1" => Ok(true),
            _ => Err(InputError::NotBinary(
                name,
                String::from_utf8_lossy(tok).into_owned(),
            )),
        }
    }

    /// Refuses anything after the input: a case with extra tokens is a broken case.
    pub fn finish(mut self) -> Result<(), InputError> {
        match self.next_token() {
            None => Ok(()),
            Some(tok) => Err(InputError::Extra(String::from_utf8_lossy(tok).into_owned())),
        }
    }
}

/// An input that is a single n (queens-boards, checker-challenge).
pub fn read_n(text: &[u8], lo: u32, hi: u32) -> Result<usize, InputError> {
    let mut t = Tokens::new(text);
    let n = t.int(Name::Var("n"), lo.into(), hi.into())?;
    t.finish()?;
    Ok(n as usize)
}

/// A king-queens input: board size and the king's 1-based row and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingInput {
    pub n: usize,
    pub x: usize,
    pub y: usize,
}

pub fn read_king(text: &[u8]) -> Result<KingInput, InputError> {
    let mut t = Tokens::new(text);
    let n = t.int(Name::Var("n"), 1, 12)?;
    let x = t.int(Name::Var("x"), 1, n)?;
    let y = t.int(Name::Var("y"), 1, n)?;
    t.finish()?;
    Ok(KingInput {
        n: n as usize,
        x: x as usize,
        y: y as usize,
    })
}

/// A two-n-queens input: `usable[r][c]` for 0-based row and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardInput {
    pub n: usize,
    pub usable: Vec<Vec<bool>>,
}

pub fn read_board(text: &[u8]) -> Result<BoardInput, InputError> {
    let mut t = Tokens::new(text);
    let n = t.int(Name::Var("n"), 1, 8)? as usize;
    let mut usable = vec![vec![false; n]; n];
    for (r, row) in usable.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = t.bit(Name::Square(r + 1, c + 1))?;
        }
    }
    t.finish()?;
    Ok(BoardInput { n, usable })
}

/// Reads all of stdin and parses it, or reports the problem on stderr and exits with
/// [`exit::INVALID_INPUT`]. Every solution binary starts here.
pub fn parse_stdin<T>(parse: impl FnOnce(&[u8]) -> Result<T, InputError>) -> T {
    let mut text = Vec::new();
    if let Err(e) = io::stdin().lock().read_to_end(&mut text) {
        fail(&format!("cannot read stdin: {e}"));
    }
    parse(&text).unwrap_or_else(|e| fail(&format!("invalid input: {e}")))
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(exit::INVALID_INPUT)
}

/// Writes a solution's whole output at once; a closed stdout is not worth a panic trace.
pub fn write_stdout(bytes: &[u8]) {
    let mut out = io::stdout().lock();
    if out.write_all(bytes).and_then(|()| out.flush()).is_err() {
        std::process::exit(exit::INVALID_INPUT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_king_with_any_whitespace() {
        let k = read_king(b"  8\t2\r\n2\n\n").unwrap();
        assert_eq!(k, KingInput { n: 8, x: 2, y: 2 });
    }

    #[test]
    fn errors_name_the_token() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "expected n, found end of input"),
            (b"abc\n", "expected n as an integer, found `abc`"),
            (b"14\n", "n = 14 is out of [6, 13]"),
            (
                b"99999999999999999999\n",
                "n = 99999999999999999999 is out of [6, 13]",
            ),
            (b"7 7\n", "unexpected `7` after the input"),
            (b"-\n", "expected n as an integer, found `-`"),
        ];
        for (text, want) in cases {
            let got = read_n(text, 6, 13).unwrap_err().to_string();
            assert_eq!(&got, want, "input {:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn king_bounds_follow_n() {
        let e = read_king(b"4 5 1\n").unwrap_err();
        assert_eq!(e.to_string(), "x = 5 is out of [1, 4]");
    }

    #[test]
    fn board_errors() {
        let e = read_board(b"2\n1 1\n1\n").unwrap_err();
        assert_eq!(e.to_string(), "expected square (2, 2), found end of input");
        let e = read_board(b"2\n1 2\n1 1\n").unwrap_err();
        assert_eq!(e.to_string(), "square (1, 2) = 2 is not 0 or 1");
        let b = read_board(b"2\n1 0\n0 1\n").unwrap();
        assert_eq!(b.usable, vec![vec![true, false], vec![false, true]]);
    }
}
