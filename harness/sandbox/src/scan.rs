//! The checkers' loops over every byte of an output: tokens (numbers within a tolerance) and
//! lines with trailing whitespace trimmed, compared up to the first difference, and
//! blank-line-separated blocks compared as a multiset. They sit here, below the checkers that
//! word their reasons (`check::tokens`, `check::lines`, `check::unordered_blocks`), so that an
//! install builds them optimized with the sandbox: unoptimized, the tokenizer checked a 24 MB
//! output three times as slowly (docs/BENCHMARKS.md, "Install and first build").

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Whitespace as testlib skips it between tokens (and vertical tab, which nobody means as text).
pub fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Whether `bytes` is whitespace only (or empty).
pub fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| is_space(b))
}

/// How far a number may be from the answer's and still be accepted.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance {
    /// Largest accepted `|found - expected|`.
    pub absolute: f64,
    /// Largest accepted `|found - expected| / |expected|`.
    pub relative: f64,
}

impl Tolerance {
    /// Whether `found` is close enough to `expected`, and the difference if both are numbers.
    ///
    /// The files hold decimals that f64 cannot represent exactly (0.300001 is not), so a value
    /// exactly at the tolerance in decimal can land a rounding error past it. A slack of a few
    /// ulps of the operands and of the bound absorbs that without accepting anything a human
    /// would call "past the tolerance".
    pub fn accepts(self, expected: f64, found: f64) -> bool {
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
pub struct Token<'a> {
    /// The token's bytes.
    pub text: &'a [u8],
    /// Its line, 1-based.
    pub line: usize,
    /// Its position within the line, 1-based.
    pub index: usize,
}

/// Splits bytes into tokens without allocating, counting lines as it goes.
pub struct Tokenizer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    index: usize,
}

impl<'a> Tokenizer<'a> {
    /// The tokens of `bytes`, from the first.
    pub fn new(bytes: &'a [u8]) -> Self {
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
pub enum Case {
    /// `YES` is not `yes`.
    Sensitive,
    /// `YES`, `yes` and `Yes` are the same token.
    Ignored,
}

/// Two texts' tokens compared in order, up to the first pair that differs.
#[derive(Debug, Clone, Copy)]
pub struct TokensCompared<'a> {
    /// Pairs of tokens compared, the differing one included.
    pub count: usize,
    /// The largest difference accepted between two numbers written differently.
    pub max_difference: Option<f64>,
    /// The first pair that differs (output's, answer's), `None` on the side that ended first;
    /// `None` when all are the same.
    pub difference: Option<(Option<Token<'a>>, Option<Token<'a>>)>,
}

/// Compares the tokens of `output` with those of `answer`: the same bytes, the same letters
/// when `case` is `Ignored`, or, with a `tolerance`, numbers within it.
pub fn compare_tokens<'a>(
    output: &'a [u8],
    answer: &'a [u8],
    tolerance: Option<Tolerance>,
    case: Case,
) -> TokensCompared<'a> {
    let mut found_tokens = Tokenizer::new(output);
    let mut expected_tokens = Tokenizer::new(answer);
    let mut count = 0usize;
    let mut max_difference: Option<f64> = None;
    let difference = loop {
        match (found_tokens.next(), expected_tokens.next()) {
            (None, None) => break None,
            (Some(found), Some(expected)) => {
                count += 1;
                if found.text == expected.text
                    || (case == Case::Ignored && found.text.eq_ignore_ascii_case(expected.text))
                {
                    continue;
                }
                let Some(tolerance) = tolerance else {
                    break Some((Some(found), Some(expected)));
                };
                match (finite_number(expected.text), finite_number(found.text)) {
                    (Some(e), Some(f)) if tolerance.accepts(e, f) => {
                        let difference = (f - e).abs();
                        max_difference =
                            Some(max_difference.map_or(difference, |m| m.max(difference)));
                    }
                    _ => break Some((Some(found), Some(expected))),
                }
            }
            (found, expected) => break Some((found, expected)),
        }
    };
    TokensCompared {
        count,
        max_difference,
        difference,
    }
}

/// The value of a token that reads as a finite number; `nan` and `inf` are compared as text.
pub fn finite_number(text: &[u8]) -> Option<f64> {
    let value: f64 = std::str::from_utf8(text).ok()?.parse().ok()?;
    value.is_finite().then_some(value)
}

/// The newlines in `text`: a WA's diff counts the lines before and after what it shows, which
/// may be all of a large output.
pub fn count_newlines(text: &[u8]) -> usize {
    text.iter().filter(|&&b| b == b'\n').count()
}

/// Trailing whitespace a checker ignores on a line, including the `\r` of CRLF files.
pub fn trim_end(line: &[u8]) -> &[u8] {
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

/// Two texts compared line by line, trailing whitespace ignored, up to the first difference.
#[derive(Debug, Clone, Copy)]
pub struct LinesCompared<'a> {
    /// The number of the last non-blank line compared equal.
    pub count: usize,
    /// The first line that differs, if any.
    pub difference: Option<LineDifference<'a>>,
}

/// Where two texts' lines first differ (each trimmed; empty past a text's end).
#[derive(Debug, Clone, Copy)]
pub struct LineDifference<'a> {
    /// The line's number, 1-based.
    pub number: usize,
    /// The output's line.
    pub found: &'a [u8],
    /// The answer's line.
    pub expected: &'a [u8],
    /// Whether the output's lines after this one are all blank.
    pub found_rest_blank: bool,
    /// Whether the answer's lines after this one are all blank.
    pub expected_rest_blank: bool,
}

/// Compares `output` with `answer` line by line, trailing whitespace ignored.
pub fn compare_lines<'a>(output: &'a [u8], answer: &'a [u8]) -> LinesCompared<'a> {
    let mut found_lines = trimmed_lines(output);
    let mut expected_lines = trimmed_lines(answer);
    let mut number = 0usize;
    let mut count = 0usize;
    loop {
        let (found, expected) = match (found_lines.next(), expected_lines.next()) {
            (None, None) => {
                return LinesCompared {
                    count,
                    difference: None,
                }
            }
            (found, expected) => (found.unwrap_or_default(), expected.unwrap_or_default()),
        };
        number += 1;
        if found == expected {
            if !found.is_empty() {
                count = number;
            }
            continue;
        }
        return LinesCompared {
            count,
            difference: Some(LineDifference {
                number,
                found,
                expected,
                found_rest_blank: found_lines.all(<[u8]>::is_empty),
                expected_rest_blank: expected_lines.all(<[u8]>::is_empty),
            }),
        };
    }
}

/// A run of non-blank lines. `raw` spans the block's lines in the file (without the last
/// newline); equality and the hash look at the lines with trailing whitespace trimmed, so the
/// block never needs to be copied.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    raw: &'a [u8],
    /// The number of its first line, 1-based.
    pub line: usize,
    hash: u64,
}

impl<'a> Block<'a> {
    fn lines(&self) -> impl Iterator<Item = &'a [u8]> {
        self.raw.split(|&b| b == b'\n').map(trim_end)
    }

    /// Line count and the width of each line in characters: what tells a board from garbage.
    pub fn shape(&self) -> Vec<usize> {
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
pub struct Blocks<'a> {
    text: &'a [u8],
    /// Where the next line starts; past the end when done.
    pos: usize,
    /// The number of the line that starts at `pos`.
    line: usize,
}

/// The blocks of `text`, from the first.
pub fn split_blocks(text: &[u8]) -> Blocks<'_> {
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
pub const LOOKUP_BATCH: usize = 256;

/// Two texts' blocks compared as a multiset.
#[derive(Debug, Clone, Copy)]
pub struct BlocksCompared<'a> {
    /// The output's blocks.
    pub found: usize,
    /// The answer's blocks.
    pub expected: usize,
    /// The first problem in output order: it is where a reader looks first.
    pub problem: Option<BlockProblem<'a>>,
    /// The answer's blocks the output does not have.
    pub missing: u64,
    /// The answer line of the first of those (0 when none is missing).
    pub first_missing_line: u32,
}

/// An output block the answer does not have as many times.
#[derive(Debug, Clone, Copy)]
pub enum BlockProblem<'a> {
    /// Output block `number` (starting at output `line`) repeats an earlier one, which the
    /// answer has once.
    Repeated {
        /// The block's number in the output, 1-based.
        number: usize,
        /// Its first line.
        line: usize,
        /// The number of the block it repeats.
        first_number: u32,
        /// That block's first line.
        first_line: u32,
    },
    /// Output block `number` is the `seen`-th of a block the answer has `count` times.
    TooMany {
        /// The block's number in the output, 1-based.
        number: usize,
        /// Its first line.
        line: usize,
        /// How many times the output has had it so far.
        seen: u32,
        /// How many times the answer has it.
        count: u32,
    },
    /// Output block `number` is not in the answer at all.
    Unexpected {
        /// The block's number in the output, 1-based.
        number: usize,
        /// The block.
        block: Block<'a>,
    },
}

/// Compares the blocks of `output` with those of `answer` as a multiset. A check never holds a
/// list of the output's blocks, whose count the program decides: the answer's are counted in
/// a map, the output's looked up a batch at a time.
pub fn compare_blocks<'a>(output: &'a [u8], answer: &'a [u8]) -> BlocksCompared<'a> {
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

    let mut problem: Option<BlockProblem<'a>> = None;
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
                            BlockProblem::Repeated {
                                number,
                                line: block.line,
                                first_number,
                                first_line,
                            }
                        } else {
                            BlockProblem::TooMany {
                                number,
                                line: block.line,
                                seen: entry.seen,
                                count: entry.count,
                            }
                        });
                    }
                }
                None if problem.is_none() => {
                    problem = Some(BlockProblem::Unexpected {
                        number,
                        block: *block,
                    });
                }
                None => {}
            }
        }
    }
    let missing: u64 = expected.values().map(|e| u64::from(e.remaining)).sum();
    let first_missing_line = expected
        .values()
        .filter(|e| e.remaining > 0)
        .map(|e| e.answer_line)
        .min()
        .unwrap_or(0);
    BlocksCompared {
        found: found_count,
        expected: expected_count,
        problem,
        missing,
        first_missing_line,
    }
}
