//! The `unordered-blocks` checker: blank-line-separated blocks compared as a multiset.

use std::collections::HashSet;

use crate::scan::{compare_blocks, split_blocks, Block, BlockProblem, BlocksCompared};
use crate::text::plural;
use crate::verdict::Judgement;

/// The comparison itself is `scan::compare_blocks`, optimized in an install with the sandbox;
/// this words its outcome.
pub(super) fn unordered_blocks(output: &[u8], answer: &[u8]) -> Judgement {
    let BlocksCompared {
        found: found_count,
        expected: expected_count,
        problem,
        missing,
        first_missing_line,
    } = compare_blocks(output, answer);
    if found_count == 0 && expected_count > 0 {
        return Judgement::wrong_answer(format!(
            "output is empty: expected {}",
            plural(expected_count, "block")
        ));
    }
    if let Some(problem) = problem {
        let problem = match problem {
            BlockProblem::Repeated {
                number,
                line,
                first_number,
                first_line,
            } => format!(
                "block {number} (output line {line}) appears twice: it repeats block {first_number} (output line {first_line})"
            ),
            BlockProblem::TooMany {
                number,
                line,
                seen,
                count,
            } => format!(
                "block {number} (output line {line}) appears {seen} times, but the answer has it {count} times"
            ),
            BlockProblem::Unexpected { number, block } => unexpected_block(number, &block, answer),
        };
        let summary = if found_count == expected_count {
            String::new()
        } else {
            format!(
                " (output has {}, answer {})",
                plural(found_count, "block"),
                expected_count
            )
        };
        return Judgement::wrong_answer(format!("{problem}{summary}"));
    }
    if missing > 0 {
        return Judgement::wrong_answer(format!(
            "missing {missing} of {expected_count} expected blocks, e.g. the one at answer line {first_missing_line}"
        ));
    }
    Judgement::accepted(plural(found_count, "block"))
}

/// The reason for an output block the answer does not have: "malformed" when no answer block
/// even has its shape, since then the program printed something that is not a solution at all.
fn unexpected_block(number: usize, block: &Block<'_>, answer: &[u8]) -> String {
    let Some(example) = split_blocks(answer).next() else {
        return format!(
            "block {number} (output line {}) is not an expected block: the answer has none",
            block.line
        );
    };
    let shape = block.shape();
    let shapes: HashSet<Vec<usize>> = split_blocks(answer).map(|b| b.shape()).collect();
    if shapes.contains(&shape) {
        format!(
            "block {number} (output line {}) is not an expected block",
            block.line
        )
    } else {
        format!(
            "block {number} (output line {}) is malformed: {}, but expected blocks have {}",
            block.line,
            describe_shape(&shape),
            describe_shape(&example.shape())
        )
    }
}

fn describe_shape(widths: &[usize]) -> String {
    let lines = plural(widths.len(), "line");
    let min = widths.iter().copied().min().unwrap_or(0);
    let max = widths.iter().copied().max().unwrap_or(0);
    if min == max {
        format!("{lines} of width {min}")
    } else {
        format!("{lines} of widths {min} to {max}")
    }
}

#[cfg(test)]
mod tests {

    use crate::check::test_table::{run, table};
    use crate::check::Checker;
    use crate::scan::LOOKUP_BATCH;

    use crate::verdict::Verdict::{Accepted as AC, WrongAnswer as WA};

    const QUEENS_4: &str = ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n";

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn unordered_blocks() {
        let swapped = "..Q.\nQ...\n...Q\n.Q..\n\n.Q..\n...Q\nQ...\n..Q.\n";
        table(
            &Checker::UnorderedBlocks,
            &[
                (QUEENS_4, QUEENS_4, AC, "2 blocks"),
                (swapped, QUEENS_4, AC, "2 blocks"),
                // Several blank lines (some with spaces) between blocks, CRLF, trailing spaces.
                (".Q..\n...Q\nQ...\n..Q.\n\n \n\t\n..Q.\nQ...\n...Q\n.Q..", QUEENS_4, AC, ""),
                (".Q..\r\n...Q  \r\nQ...\r\n..Q.\r\n\r\n..Q.\r\nQ...\r\n...Q\r\n.Q..\r\n", QUEENS_4, AC, ""),
                ("\n\n.Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n\n", QUEENS_4, AC, ""),
                ("", "", AC, "0 blocks"),
                (".Q..\n...Q\nQ...\n..Q.\n\n.Q..\n...Q\nQ...\n..Q.\n", QUEENS_4, WA, "block 2 (output line 6) appears twice: it repeats block 1 (output line 1)"),
                (".Q..\n...Q\nQ...\n..Q.\n", QUEENS_4, WA, "missing 1 of 2 expected blocks, e.g. the one at answer line 6"),
                (".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\nQ...\n..Q.\n....\n...Q\n", QUEENS_4, WA, "block 3 (output line 11) is not an expected block (output has 3 blocks, answer 2)"),
                (".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n", QUEENS_4, WA, "block 2 (output line 6) is malformed: 3 lines of width 4, but expected blocks have 4 lines of width 4"),
                (".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q...\n", QUEENS_4, WA, "block 2 (output line 6) is malformed: 4 lines of widths 4 to 5, but expected blocks have 4 lines of width 4"),
                // Leading spaces are kept: an indented board is not the board.
                (".Q..\n...Q\nQ...\n..Q.\n\n ..Q.\nQ...\n...Q\n.Q..\n", QUEENS_4, WA, "block 2 (output line 6) is malformed: 4 lines of widths 4 to 5, but expected blocks have 4 lines of width 4"),
                ("", QUEENS_4, WA, "output is empty: expected 2 blocks"),
                ("\n \n", QUEENS_4, WA, "output is empty: expected 2 blocks"),
                ("x\n", "", WA, "block 1 (output line 1) is not an expected block: the answer has none (output has 1 block, answer 0)"),
            ],
        );
    }

    /// Output blocks are looked up a batch at a time: problems in a later batch, and counts
    /// across batches, come out as with one batch.
    #[test]
    fn unordered_blocks_across_batches() {
        let blocks: Vec<String> = (0..3 * LOOKUP_BATCH + 7)
            .map(|i| format!("{i}\n"))
            .collect();
        let answer = blocks.join("\n");
        let mut reversed = blocks.clone();
        reversed.reverse();
        assert_eq!(
            run(&Checker::UnorderedBlocks, reversed.join("\n"), &answer),
            (AC, format!("{} blocks", blocks.len()))
        );
        // The last block repeats the first, in the fourth batch.
        let mut repeated = blocks.clone();
        *repeated.last_mut().unwrap() = blocks[0].clone();
        let last = blocks.len();
        assert_eq!(
            run(&Checker::UnorderedBlocks, repeated.join("\n"), &answer),
            (
                WA,
                format!(
                    "block {last} (output line {}) appears twice: it repeats block 1 (output line 1)",
                    2 * last - 1
                )
            )
        );
        // Millions of blocks are counted without being kept.
        let flood = "1\n\n".repeat(1_000_000);
        assert_eq!(
            run(&Checker::UnorderedBlocks, &flood, "1\n"),
            (
                WA,
                "block 2 (output line 3) appears twice: it repeats block 1 (output line 1) (output has 1000000 blocks, answer 1)".to_string()
            )
        );
    }

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn unordered_blocks_count_duplicates_the_answer_has() {
        let answer = "a\n\na\n\nb\n";
        table(
            &Checker::UnorderedBlocks,
            &[
                ("a\n\nb\n\na\n", answer, AC, "3 blocks"),
                ("a\n\nb\n", answer, WA, "missing 1 of 3 expected blocks, e.g. the one at answer line 1"),
                ("a\n\na\n\na\n\nb\n", answer, WA, "block 3 (output line 5) appears 3 times, but the answer has it 2 times (output has 4 blocks, answer 3)"),
            ],
        );
    }

    #[test]
    fn block_hash_separates_lines() {
        // Same bytes, different line breaks: different blocks.
        table(&Checker::UnorderedBlocks, &[("ab\nc\n", "a\nbc\n", WA, "")]);
    }
}
