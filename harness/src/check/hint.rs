//! Hints on a near miss: a wrong answer that a looser built-in checker would accept (only the
//! letter case differs, numbers within the usual tolerance, only whitespace under `exact`)
//! names the option that would accept it. Pure: the same comparisons the checkers make.

use super::checker::Checker;
use super::tokens::{self, Tolerance};
use crate::verdict::Verdict;

/// The `float` checker's default tolerance, absolute and relative.
const USUAL_TOLERANCE: f64 = 1e-6;

/// What would have accepted `output`, when `checker` (a built-in one) did not:
/// `only the letter case differs: --checker tokens-ignore-case accepts it`.
pub fn near_miss(checker: &Checker, output: &[u8], answer: &[u8]) -> Option<String> {
    let accepts = |tolerance: Option<Tolerance>, case: tokens::Case| {
        tokens::tokens(output, answer, tolerance, case).verdict == Verdict::Accepted
    };
    let usual = Some(Tolerance {
        absolute: USUAL_TOLERANCE,
        relative: USUAL_TOLERANCE,
    });
    let strict = matches!(checker, Checker::Exact | Checker::Lines);
    let by_tokens = matches!(checker, Checker::Tokens) || strict;
    if strict && accepts(None, tokens::Case::Sensitive) {
        return Some("only the whitespace differs: --checker tokens accepts it".to_string());
    }
    if by_tokens && accepts(None, tokens::Case::Ignored) {
        return Some(
            "only the letter case differs: --checker tokens-ignore-case accepts it".to_string(),
        );
    }
    let case = match checker {
        Checker::TokensIgnoreCase => tokens::Case::Ignored,
        _ if by_tokens => tokens::Case::Sensitive,
        _ => return None,
    };
    accepts(usual, case)
        .then(|| "the numbers are equal within 1e-6: --checker float accepts it".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_name_the_checker_that_accepts_them() {
        let float = Checker::Float {
            absolute: 1e-6,
            relative: 1e-6,
        };
        let command = Checker::Command {
            program: "chk".into(),
            args: Vec::new(),
            shown: None,
        };
        let case = Some("only the letter case differs: --checker tokens-ignore-case accepts it");
        let numbers = Some("the numbers are equal within 1e-6: --checker float accepts it");
        let spaces = Some("only the whitespace differs: --checker tokens accepts it");
        let rows: [(&Checker, &str, &str, Option<&str>); 12] = [
            (&Checker::Tokens, "yes\n", "YES\n", case),
            (&Checker::Tokens, "0.3333\n", "0.333333333\n", None),
            (&Checker::Tokens, "0.3333333\n", "0.333333333\n", numbers),
            (&Checker::Tokens, "1.0000001 yes\n", "1 yes\n", numbers),
            (&Checker::Tokens, "NO\n", "YES\n", None),
            (
                &Checker::TokensIgnoreCase,
                "yes 2.0000001\n",
                "YES 2\n",
                numbers,
            ),
            (&Checker::Exact, "1  2\n", "1 2\n", spaces),
            (&Checker::Exact, "1\r\n2\r\n", "1\n2\n", spaces),
            (&Checker::Lines, "1 2\n", "1\n2\n", spaces),
            (&Checker::Exact, "Yes\n", "YES\n", case),
            (&float, "0.5\n", "0.6\n", None),
            (&command, "yes\n", "YES\n", None),
        ];
        for (checker, output, answer, expected) in rows {
            assert_eq!(
                near_miss(checker, output.as_bytes(), answer.as_bytes()).as_deref(),
                expected,
                "{checker:?} on {output:?} against {answer:?}"
            );
        }
    }
}
