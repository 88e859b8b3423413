//! The `tokens` and `float` checkers: whitespace-separated tokens, numbers within a tolerance.

use crate::text::{plural, quote, show};
use crate::verdict::Judgement;

/// Whitespace as testlib skips it between tokens (and vertical tab, which nobody means as text).
pub(super) fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Characters of a token kept in a reason; numbers longer than this are rarely read digit by digit.
const TOKEN_CHARS: usize = 40;

#[derive(Debug, Clone, Copy)]
pub(super) struct Tolerance {
    pub(super) absolute: f64,
    pub(super) relative: f64,
}

impl Tolerance {
    /// Whether `found` is close enough to `expected`, and the difference if both are numbers.
    ///
    /// The files hold decimals that f64 cannot represent exactly (0.300001 is not), so a value
    /// exactly at the tolerance in decimal can land a rounding error past it. A slack of a few
    /// ulps of the operands and of the bound absorbs that without accepting anything a human
    /// would call "past the tolerance".
    fn accepts(self, expected: f64, found: f64) -> bool {
        let difference = (found - expected).abs();
        let rounding = 4.0 * f64::EPSILON;
        let slack = rounding * expected.abs().max(found.abs());
        let absolute = self.absolute * (1.0 + rounding);
        let relative = self.relative * expected.abs() * (1.0 + rounding);
        difference <= absolute + slack || difference <= relative + slack
    }
}

/// One whitespace-separated token and where it sits: line and position within the line, 1-based.
#[derive(Debug, Clone, Copy)]
pub(super) struct Token<'a> {
    pub(super) text: &'a [u8],
    line: usize,
    index: usize,
}

/// Splits bytes into tokens without allocating, counting lines as it goes.
pub(super) struct Tokenizer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    index: usize,
}

impl<'a> Tokenizer<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Tokenizer {
            bytes,
            pos: 0,
            line: 1,
            index: 0,
        }
    }
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.bytes;
        let mut i = self.pos;
        while let Some(&byte) = bytes.get(i) {
            if !is_space(byte) {
                break;
            }
            if byte == b'\n' {
                self.line += 1;
                self.index = 0;
            }
            i += 1;
        }
        if i >= bytes.len() {
            self.pos = i;
            return None;
        }
        let start = i;
        while let Some(&byte) = bytes.get(i) {
            if is_space(byte) {
                break;
            }
            i += 1;
        }
        self.pos = i;
        self.index += 1;
        Some(Token {
            text: &bytes[start..i],
            line: self.line,
            index: self.index,
        })
    }
}

/// Whether letters of tokens must match in case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Case {
    Sensitive,
    Ignored,
}

pub(super) fn tokens(
    output: &[u8],
    answer: &[u8],
    tolerance: Option<Tolerance>,
    case: Case,
) -> Judgement {
    let mut found_tokens = Tokenizer::new(output);
    let mut expected_tokens = Tokenizer::new(answer);
    let mut count = 0usize;
    // The largest difference accepted between two numbers written differently, for the
    // reason of an accepted Float check.
    let mut max_difference: Option<f64> = None;
    loop {
        match (found_tokens.next(), expected_tokens.next()) {
            (None, None) => break,
            (Some(found), Some(expected)) => {
                count += 1;
                if found.text == expected.text
                    || (case == Case::Ignored && found.text.eq_ignore_ascii_case(expected.text))
                {
                    continue;
                }
                let Some(tolerance) = tolerance else {
                    return Judgement::wrong_answer(format!(
                        "line {}, token {}: expected {}, found {}",
                        found.line,
                        found.index,
                        show(expected.text, TOKEN_CHARS),
                        show(found.text, TOKEN_CHARS)
                    ));
                };
                match (finite_number(expected.text), finite_number(found.text)) {
                    (Some(e), Some(f)) if tolerance.accepts(e, f) => {
                        let difference = (f - e).abs();
                        max_difference =
                            Some(max_difference.map_or(difference, |m| m.max(difference)));
                    }
                    (Some(e), Some(f)) => {
                        return Judgement::wrong_answer(format!(
                            "line {}, token {}: expected {}, found {}, difference {} exceeds the tolerance (absolute {}, relative {})",
                            found.line,
                            found.index,
                            show(expected.text, TOKEN_CHARS),
                            show(found.text, TOKEN_CHARS),
                            format_number((f - e).abs()),
                            format_number(tolerance.absolute),
                            format_number(tolerance.relative),
                        ));
                    }
                    (e, f) => {
                        let not_number = match (e, f) {
                            (Some(_), None) => " (not a finite number)",
                            _ => "",
                        };
                        return Judgement::wrong_answer(format!(
                            "line {}, token {}: expected {}, found {}{not_number}",
                            found.line,
                            found.index,
                            show(expected.text, TOKEN_CHARS),
                            show(found.text, TOKEN_CHARS)
                        ));
                    }
                }
            }
            (None, Some(expected)) => {
                let what = if count == 0 {
                    "output is empty"
                } else {
                    "output ends early"
                };
                return Judgement::wrong_answer(format!(
                    "{what}: expected {} at answer line {}",
                    show(expected.text, TOKEN_CHARS),
                    expected.line
                ));
            }
            (Some(found), None) => {
                return Judgement::wrong_answer(format!(
                    "extra output at line {}, token {}: {}",
                    found.line,
                    found.index,
                    quote(found.text, TOKEN_CHARS)
                ));
            }
        }
    }
    let mut reason = plural(count, "token");
    if let Some(difference) = max_difference {
        reason.push_str(&format!(
            ", largest difference {}",
            format_number(difference)
        ));
    }
    Judgement::accepted(reason)
}

/// The value of a token that reads as a finite number; `nan` and `inf` are compared as text.
fn finite_number(text: &[u8]) -> Option<f64> {
    let value: f64 = std::str::from_utf8(text).ok()?.parse().ok()?;
    value.is_finite().then_some(value)
}

/// A number short enough to read: plain when that is short, scientific otherwise.
fn format_number(value: f64) -> String {
    let plain = format!("{value}");
    if plain.len() <= 12 {
        plain
    } else {
        format!("{value:.3e}")
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::check::test_table::{run, table};
    use crate::check::{check, CaseFiles, Checker};

    use crate::verdict::Verdict::{Accepted as AC, WrongAnswer as WA};

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn tokens() {
        table(
            &Checker::Tokens,
            &[
                ("1 2 3\n", "1 2 3\n", AC, "3 tokens"),
                ("1 2 3   \n", "1 2 3\n", AC, ""),
                ("1 2 3\r\n4\r\n", "1 2 3\n4\n", AC, ""),
                ("1 2 3", "1 2 3\n", AC, ""),
                ("1\n2\n3\n", "1 2 3\n", AC, ""),
                ("  1 \t 2\n\n\n3\n\n", "1 2 3", AC, ""),
                ("", "", AC, "0 tokens"),
                ("\n  \n", "", AC, "0 tokens"),
                ("1 2\n14199\n", "1 2\n14200\n", WA, "line 2, token 1: expected 14200, found 14199"),
                ("1\n2 3 9\n", "1\n2 3 4\n", WA, "line 2, token 3: expected 4, found 9"),
                ("", "14200\n", WA, "output is empty: expected 14200 at answer line 1"),
                ("  \n", "14200\n", WA, "output is empty: expected 14200 at answer line 1"),
                ("1\n2\n", "1\n2\n14200\n", WA, "output ends early: expected 14200 at answer line 3"),
                ("1\n2\n3\n4\nfoo\n", "1 2 3 4\n", WA, "extra output at line 5, token 1: \"foo\""),
                ("1 2 3\n", "1 2\n", WA, "extra output at line 1, token 3: \"3\""),
                ("x\n", "", WA, "extra output at line 1, token 1: \"x\""),
                ("1.0\n", "1\n", WA, "line 1, token 1: expected 1, found 1.0"),
                ("Yes\n", "YES\n", WA, "line 1, token 1: expected YES, found Yes"),
            ],
        );
    }

    #[test]
    fn tokens_are_cut_and_escaped() {
        let long = "9".repeat(100);
        let (verdict, reason) = run(&Checker::Tokens, &long, "1");
        assert_eq!(verdict, WA);
        assert_eq!(
            reason,
            format!(
                "line 1, token 1: expected 1, found {}…",
                "9".repeat(TOKEN_CHARS)
            )
        );

        let case = CaseFiles {
            input: Path::new("/dev/null"),
            answer: Path::new("/dev/null"),
        };
        let result = check(&Checker::Tokens, &case, b"\xff\x1b[31m", b"ok");
        assert_eq!(result.verdict, WA);
        assert_eq!(
            result.reason,
            "line 1, token 1: expected ok, found \u{fffd}\\u{1b}[31m"
        );
    }

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn float() {
        let checker = Checker::Float {
            absolute: 1e-6,
            relative: 1e-6,
        };
        table(
            &checker,
            &[
                ("0.5\n", "0.5\n", AC, "1 token"),
                ("0.500\n", "0.5\n", AC, "1 token, largest difference 0"),
                ("1e-1\n", "0.1\n", AC, ""),
                // At the edge of the absolute tolerance, written in decimal.
                ("0.300001\n", "0.3\n", AC, ""),
                ("0.299999\n", "0.3\n", AC, ""),
                // Just past it.
                ("0.3000011\n", "0.3\n", WA, "line 1, token 1: expected 0.3, found 0.3000011, difference 1.100e-6 exceeds the tolerance (absolute 0.000001, relative 0.000001)"),
                // At the edge of the relative tolerance (|a-b| = 1e-6 * 1e9), and just past it.
                ("1000001000\n", "1000000000\n", AC, ""),
                ("1000001001\n", "1000000000\n", WA, ""),
                // Words are compared exactly.
                ("YES 0.5\n", "YES 0.5000001\n", AC, ""),
                ("yes 0.5\n", "YES 0.5\n", WA, "line 1, token 1: expected YES, found yes"),
                // NaN and infinity are never "close": only the same text is accepted.
                ("nan\n", "0.5\n", WA, "line 1, token 1: expected 0.5, found nan (not a finite number)"),
                ("inf\n", "1e308\n", WA, ""),
                ("1e400\n", "inf\n", WA, "line 1, token 1: expected inf, found 1e400"),
                ("nan\n", "nan\n", AC, ""),
                ("inf\n", "inf\n", AC, ""),
                ("0.5", "0.5 0.25\n", WA, "output ends early: expected 0.25 at answer line 1"),
                ("", "0.5\n", WA, "output is empty: expected 0.5 at answer line 1"),
                ("0.5 1\n", "0.5\n", WA, "extra output at line 1, token 2: \"1\""),
            ],
        );
    }

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn float_edges_on_exact_binary_values() {
        // 0.5 and 0.25 are exact in binary: the edge is the edge, with no rounding in play.
        let checker = Checker::Float {
            absolute: 0.5,
            relative: 0.0,
        };
        table(
            &checker,
            &[
                ("1.5", "1", AC, "1 token, largest difference 0.5"),
                ("0.5", "1", AC, ""),
                ("1.5000001", "1", WA, ""),
                ("0.4999999", "1", WA, ""),
            ],
        );
        let checker = Checker::Float {
            absolute: 0.0,
            relative: 0.25,
        };
        table(
            &checker,
            &[
                ("5", "4", AC, ""),
                ("-5", "-4", AC, ""),
                ("5.0001", "4", WA, ""),
                // Relative to the answer (0.25 × 3), not to the output (0.25 × 4 would accept).
                ("4", "3", WA, ""),
                ("3", "4", AC, ""),
            ],
        );
    }
}
