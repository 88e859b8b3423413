//! The `exact` checker: byte for byte.

use crate::scan::count_newlines;
use crate::text::{plural, quote};
use crate::verdict::Judgement;

pub(super) fn exact(output: &[u8], answer: &[u8]) -> Judgement {
    if output == answer {
        return Judgement::accepted(plural(output.len(), "byte"));
    }
    let offset = common_prefix(output, answer);
    let line = 1 + count_newlines(&answer[..offset]);
    let line_start = answer[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = offset - line_start + 1;
    // A few bytes from the difference on: enough to see a `\r` or a missing newline.
    let excerpt = |bytes: &[u8]| {
        let end = bytes.len().min(offset + 16);
        quote(&bytes[offset..end], 16)
    };
    let at = format!("byte {offset} (line {line}, column {column})");
    let reason = if offset == output.len() {
        let what = if output.is_empty() {
            "output is empty"
        } else {
            "output ends early"
        };
        format!("{what} at {at}: expected {}", excerpt(answer))
    } else if offset == answer.len() {
        format!("extra output at {at}: {}", excerpt(output))
    } else {
        format!(
            "first difference at {at}: expected {}, found {}",
            excerpt(answer),
            excerpt(output)
        )
    };
    Judgement::wrong_answer(reason)
}

/// The length of the common prefix, comparing in chunks so that memcmp does the bulk.
pub(crate) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const CHUNK: usize = 4096;
    let common = a.len().min(b.len());
    let mut start = 0;
    while start + CHUNK <= common && a[start..start + CHUNK] == b[start..start + CHUNK] {
        start += CHUNK;
    }
    start
        + a[start..common]
            .iter()
            .zip(&b[start..common])
            .position(|(x, y)| x != y)
            .unwrap_or(common - start)
}

#[cfg(test)]
mod tests {
    use crate::check::test_table::{run, table};
    use crate::check::Checker;

    use crate::verdict::Verdict::{Accepted as AC, WrongAnswer as WA};

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn exact() {
        table(
            &Checker::Exact,
            &[
                ("a b\n", "a b\n", AC, "4 bytes"),
                ("", "", AC, "0 bytes"),
                ("a\nb c\n", "a\nb d\n", WA, "first difference at byte 4 (line 2, column 3): expected \"d\\n\", found \"c\\n\""),
                ("a b \n", "a b\n", WA, "first difference at byte 3 (line 1, column 4): expected \"\\n\", found \" \\n\""),
                ("a\r\n", "a\n", WA, "first difference at byte 1 (line 1, column 2): expected \"\\n\", found \"\\r\\n\""),
                ("a", "a\n", WA, "output ends early at byte 1 (line 1, column 2): expected \"\\n\""),
                ("", "a\n", WA, "output is empty at byte 0 (line 1, column 1): expected \"a\\n\""),
                ("a\nb\n", "a\n", WA, "extra output at byte 2 (line 2, column 1): \"b\\n\""),
            ],
        );
    }

    #[test]
    fn exact_finds_the_first_difference_past_a_chunk() {
        let answer = "x".repeat(10_000) + "\n";
        let mut output = answer.clone().into_bytes();
        output[9_000] = b'y';
        let (_, reason) = run(&Checker::Exact, output, answer);
        assert!(
            reason.starts_with("first difference at byte 9000 (line 1, column 9001)"),
            "{reason}"
        );
    }
}
