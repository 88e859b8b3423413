//! The `lines` checker: line by line, trailing whitespace ignored.

use crate::scan::{compare_lines, is_blank, LineDifference, LinesCompared, Tokenizer};
use crate::text::{plural, quote};
use crate::verdict::Judgement;

/// Characters of a line kept in a reason.
const LINE_CHARS: usize = 80;

/// The comparison itself is `scan::compare_lines`, optimized in an install with the sandbox;
/// this words its outcome.
pub(super) fn lines(output: &[u8], answer: &[u8]) -> Judgement {
    let LinesCompared { count, difference } = compare_lines(output, answer);
    let Some(LineDifference {
        number,
        found,
        expected,
        found_rest_blank,
        expected_rest_blank,
    }) = difference
    else {
        return Judgement::accepted(plural(count, "line"));
    };
    // Blank lines at the end of either side need not match: a difference against a blank
    // line followed only by blank lines is really output that ends early, or extra output.
    let reason = if expected.is_empty() && expected_rest_blank {
        format!(
            "extra output at line {number}: {}",
            quote(found, LINE_CHARS)
        )
    } else if found.is_empty() && found_rest_blank {
        let what = if is_blank(output) {
            "output is empty"
        } else {
            "output ends early"
        };
        format!(
            "{what}: expected {} at line {number}",
            quote(expected, LINE_CHARS)
        )
    } else {
        let same_tokens = Tokenizer::new(found)
            .map(|t| t.text)
            .eq(Tokenizer::new(expected).map(|t| t.text));
        let hint = if same_tokens {
            " (only spacing differs)"
        } else {
            ""
        };
        format!(
            "line {number}: expected {}, found {}{hint}",
            quote(expected, LINE_CHARS),
            quote(found, LINE_CHARS)
        )
    };
    Judgement::wrong_answer(reason)
}

#[cfg(test)]
mod tests {

    use crate::check::test_table::table;
    use crate::check::Checker;

    use crate::verdict::Verdict::{Accepted as AC, WrongAnswer as WA};

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn lines() {
        table(
            &Checker::Lines,
            &[
                ("a b\nc\n", "a b\nc\n", AC, "2 lines"),
                ("a b  \t\nc\n", "a b\nc\n", AC, ""),
                ("a b\r\nc\r\n", "a b\nc\n", AC, ""),
                ("a b\nc", "a b\nc\n", AC, ""),
                ("a b\nc\n\n\n", "a b\nc\n", AC, ""),
                ("a b\nc\n", "a b\nc\n\n  \n", AC, ""),
                ("", "", AC, "0 lines"),
                ("a  b\n", "a b\n", WA, "line 1: expected \"a b\", found \"a  b\" (only spacing differs)"),
                (" a b\n", "a b\n", WA, "line 1: expected \"a b\", found \" a b\" (only spacing differs)"),
                ("a\nx\n", "a\nb\n", WA, "line 2: expected \"b\", found \"x\""),
                ("a\n\nb\n", "a\nb\n", WA, "line 2: expected \"b\", found \"\""),
                ("", "a\n", WA, "output is empty: expected \"a\" at line 1"),
                ("a\n", "a\n\nb\n", WA, "output ends early: expected \"b\" at line 3"),
                ("a\nb\n\nfoo\n", "a\nb\n", WA, "extra output at line 4: \"foo\""),
                ("a\n", "", WA, "extra output at line 1: \"a\""),
            ],
        );
    }
}
