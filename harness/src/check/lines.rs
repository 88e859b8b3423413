//! The `lines` checker: line by line, trailing whitespace ignored.

use super::tokens::{is_space, Tokenizer};
use crate::text::{plural, quote};
use crate::verdict::Judgement;

/// Characters of a line kept in a reason.
const LINE_CHARS: usize = 80;

/// Trailing whitespace a checker ignores on a line, including the `\r` of CRLF files.
pub(super) fn trim_end(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && is_space(line[end - 1]) {
        end -= 1;
    }
    &line[..end]
}

/// Lines with trailing whitespace removed.
fn trimmed_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> + Clone {
    bytes.split(|&b| b == b'\n').map(trim_end)
}

pub(super) fn lines(output: &[u8], answer: &[u8]) -> Judgement {
    let mut found_lines = trimmed_lines(output);
    let mut expected_lines = trimmed_lines(answer);
    let mut number = 0usize;
    let mut count = 0usize;
    loop {
        let (found, expected) = match (found_lines.next(), expected_lines.next()) {
            (None, None) => break,
            (found, expected) => (found.unwrap_or_default(), expected.unwrap_or_default()),
        };
        number += 1;
        if found == expected {
            if !found.is_empty() {
                count = number;
            }
            continue;
        }
        // Blank lines at the end of either side need not match: a difference against a blank
        // line followed only by blank lines is really output that ends early, or extra output.
        let reason = if expected.is_empty() && expected_lines.clone().all(<[u8]>::is_empty) {
            format!(
                "extra output at line {number}: {}",
                quote(found, LINE_CHARS)
            )
        } else if found.is_empty() && found_lines.clone().all(<[u8]>::is_empty) {
            let what = if output.iter().all(|&b| is_space(b)) {
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
        return Judgement::wrong_answer(reason);
    }
    Judgement::accepted(plural(count, "line"))
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
