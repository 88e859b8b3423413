//! The `tokens` and `float` checkers: whitespace-separated tokens, numbers within a tolerance.

use crate::scan::{compare_tokens, finite_number, TokensCompared};
pub(super) use crate::scan::{Case, Tolerance};
use crate::text::{plural, quote, show};
use crate::verdict::Judgement;

/// Characters of a token kept in a reason; numbers longer than this are rarely read digit by digit.
const TOKEN_CHARS: usize = 40;

/// The comparison itself is `scan::compare_tokens`, optimized in an install with the sandbox;
/// this words its outcome.
pub(super) fn tokens(
    output: &[u8],
    answer: &[u8],
    tolerance: Option<Tolerance>,
    case: Case,
) -> Judgement {
    let TokensCompared {
        count,
        max_difference,
        difference,
    } = compare_tokens(output, answer, tolerance, case);
    match difference {
        None | Some((None, None)) => {}
        Some((Some(found), Some(expected))) => {
            let numbers = (finite_number(expected.text), finite_number(found.text));
            return Judgement::wrong_answer(match (tolerance, numbers) {
                (Some(tolerance), (Some(e), Some(f))) => format!(
                    "line {}, token {}: expected {}, found {}, difference {} exceeds the tolerance (absolute {}, relative {})",
                    found.line,
                    found.index,
                    show(expected.text, TOKEN_CHARS),
                    show(found.text, TOKEN_CHARS),
                    format_number((f - e).abs()),
                    format_number(tolerance.absolute),
                    format_number(tolerance.relative),
                ),
                (tolerance, (e, f)) => {
                    let not_number = match (tolerance, e, f) {
                        (Some(_), Some(_), None) => " (not a finite number)",
                        _ => "",
                    };
                    format!(
                        "line {}, token {}: expected {}, found {}{not_number}",
                        found.line,
                        found.index,
                        show(expected.text, TOKEN_CHARS),
                        show(found.text, TOKEN_CHARS)
                    )
                }
            });
        }
        Some((None, Some(expected))) => {
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
        Some((Some(found), None)) => {
            return Judgement::wrong_answer(format!(
                "extra output at line {}, token {}: {}",
                found.line,
                found.index,
                quote(found.text, TOKEN_CHARS)
            ));
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
    use super::*;
    use crate::check::test_table::{run, table};
    use crate::check::Checker;

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

        let (verdict, reason) = run(&Checker::Tokens, b"\xff\x1b[31m", b"ok");
        assert_eq!(verdict, WA);
        assert_eq!(
            reason,
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
