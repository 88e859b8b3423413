//! The `unordered-blocks` checker: blank-line-separated blocks compared as a multiset.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::lines::trim_end;
use crate::text::plural;
use crate::verdict::Judgement;

/// A run of non-blank lines. `raw` spans the block's lines in the file (without the last
/// newline); equality and the hash look at the lines with trailing whitespace trimmed, so the
/// block never needs to be copied.
#[derive(Debug, Clone, Copy)]
struct Block<'a> {
    raw: &'a [u8],
    line: usize,
    hash: u64,
}

impl<'a> Block<'a> {
    fn lines(&self) -> impl Iterator<Item = &'a [u8]> {
        self.raw.split(|&b| b == b'\n').map(trim_end)
    }

    /// Line count and the width of each line in characters: what tells a board from garbage.
    fn shape(&self) -> Vec<usize> {
        self.lines()
            .map(|line| line.iter().filter(|&&b| b & 0xC0 != 0x80).count())
            .collect()
    }
}

impl PartialEq for Block<'_> {
    fn eq(&self, other: &Self) -> bool {
        // Same bytes is the usual case; only blocks that differ in trailing whitespace (CRLF
        // against LF) need the line-by-line look.
        self.hash == other.hash && (self.raw == other.raw || self.lines().eq(other.lines()))
    }
}

impl Eq for Block<'_> {}

impl Hash for Block<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// FNV-1a over 8-byte words: a few times faster than SipHash on the short lines of boards,
/// and collisions only cost a comparison (equality checks the lines).
struct BlockHasher(u64);

impl BlockHasher {
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Self {
        BlockHasher(0xcbf2_9ce4_8422_2325)
    }

    fn add_line(&mut self, line: &[u8]) {
        let mut chunks = line.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
        for &byte in chunks.remainder() {
            self.mix(u64::from(byte));
        }
        // Lines never contain a newline, so this separator keeps `ab|c` apart from `a|bc`.
        self.mix(u64::from(b'\n') | 1 << 63);
    }

    fn mix(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(Self::PRIME);
        self.0 ^= self.0 >> 29;
    }
}

/// Passes [`Block`]'s precomputed hash through: hashing it again would only cost time.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8) | u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// The blocks of a text, separated by one or more blank (whitespace-only) lines, found one at
/// a time: a check never holds a list of the output's blocks, whose count the program decides.
struct Blocks<'a> {
    text: &'a [u8],
    /// Where the next line starts; past the end when done.
    pos: usize,
    /// The number of the line that starts at `pos`.
    line: usize,
}

fn split_blocks(text: &[u8]) -> Blocks<'_> {
    Blocks {
        text,
        pos: 0,
        line: 1,
    }
}

impl<'a> Iterator for Blocks<'a> {
    type Item = Block<'a>;

    fn next(&mut self) -> Option<Block<'a>> {
        let text = self.text;
        // (byte offset where the block starts, its first line number, byte offset it ends)
        let mut current: Option<(usize, usize, usize)> = None;
        let mut hasher = BlockHasher::new();
        while self.pos <= text.len() {
            let start = self.pos;
            let end = text[start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(text.len(), |i| start + i);
            let number = self.line;
            self.pos = end + 1;
            self.line += 1;
            let line = trim_end(&text[start..end]);
            if line.is_empty() {
                if current.is_some() {
                    break;
                }
            } else {
                let (_, _, stop) = current.get_or_insert((start, number, end));
                hasher.add_line(line);
                *stop = end;
            }
        }
        let (start, first, stop) = current?;
        Some(Block {
            raw: &text[start..stop],
            line: first,
            hash: hasher.0,
        })
    }
}

/// What the answer says about one distinct block, and what the output did with it so far.
/// Counts and line numbers are u32: the map holds one per answer block, and a smaller entry
/// is less memory and fewer cache misses.
struct Expected {
    /// How many times the answer has it.
    count: u32,
    /// How many of those the output has not matched yet.
    remaining: u32,
    answer_line: u32,
    /// How many times the output has had it so far.
    seen: u32,
    /// The output block (number, line) that first matched it; (0, 0) until then.
    first_seen: (u32, u32),
}

/// A count or line number for [`Expected`]: past 4 billion it stops counting, which changes
/// no verdict (a check compares counts only below that) and only a reason's number.
fn small(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Output blocks split between two rounds of lookups.
const LOOKUP_BATCH: usize = 256;

pub(super) fn unordered_blocks(output: &[u8], answer: &[u8]) -> Judgement {
    let expected_blocks: Vec<Block<'_>> = split_blocks(answer).collect();
    let expected_count = expected_blocks.len();
    let mut expected: HashMap<Block<'_>, Expected, BuildHasherDefault<PassThrough>> =
        HashMap::with_capacity_and_hasher(expected_count, Default::default());
    for block in expected_blocks {
        expected
            .entry(block)
            .and_modify(|e| {
                e.count = e.count.saturating_add(1);
                e.remaining = e.remaining.saturating_add(1);
            })
            .or_insert(Expected {
                count: 1,
                remaining: 1,
                answer_line: small(block.line),
                seen: 0,
                first_seen: (0, 0),
            });
    }

    // The first problem in output order is the one reported: it is where a reader looks first.
    let mut problem: Option<String> = None;
    let mut found_count = 0;
    let mut found_blocks = split_blocks(output);
    // Blocks are split a batch at a time, then looked up: a tight loop of lookups lets the
    // processor wait for several of the map's cache misses at once.
    let mut batch = Vec::with_capacity(LOOKUP_BATCH);
    loop {
        batch.clear();
        batch.extend(found_blocks.by_ref().take(LOOKUP_BATCH));
        if batch.is_empty() {
            break;
        }
        for block in &batch {
            found_count += 1;
            let number = found_count;
            match expected.get_mut(block) {
                Some(entry) => {
                    entry.seen = entry.seen.saturating_add(1);
                    if entry.remaining > 0 {
                        entry.remaining -= 1;
                        if entry.first_seen == (0, 0) {
                            entry.first_seen = (small(number), small(block.line));
                        }
                    } else if problem.is_none() {
                        let (first_number, first_line) = entry.first_seen;
                        problem = Some(if entry.count == 1 {
                            format!(
                                "block {number} (output line {}) appears twice: it repeats block {first_number} (output line {first_line})",
                                block.line
                            )
                        } else {
                            format!(
                                "block {number} (output line {}) appears {} times, but the answer has it {} times",
                                block.line, entry.seen, entry.count
                            )
                        });
                    }
                }
                None if problem.is_none() => {
                    problem = Some(unexpected_block(number, block, answer));
                }
                None => {}
            }
        }
    }

    if found_count == 0 && expected_count > 0 {
        return Judgement::wrong_answer(format!(
            "output is empty: expected {}",
            plural(expected_count, "block")
        ));
    }
    if let Some(problem) = problem {
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
    let missing: u64 = expected.values().map(|e| u64::from(e.remaining)).sum();
    if missing > 0 {
        let example = expected
            .values()
            .filter(|e| e.remaining > 0)
            .map(|e| e.answer_line)
            .min()
            .unwrap_or(0);
        return Judgement::wrong_answer(format!(
            "missing {missing} of {expected_count} expected blocks, e.g. the one at answer line {example}"
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

    use super::*;
    use crate::check::test_table::{run, table};
    use crate::check::Checker;

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
            run(&Checker::UnorderedBlocks, &reversed.join("\n"), &answer),
            (AC, format!("{} blocks", blocks.len()))
        );
        // The last block repeats the first, in the fourth batch.
        let mut repeated = blocks.clone();
        *repeated.last_mut().unwrap() = blocks[0].clone();
        let last = blocks.len();
        assert_eq!(
            run(&Checker::UnorderedBlocks, &repeated.join("\n"), &answer),
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
