//! Checkers: decide whether a program's output answers a case, with a one-line reason.
//!
//! Every checker works on bytes (outputs need not be UTF-8) and compares slices in place: a
//! 10 MB output must not turn into a million small `String`s. Reasons are always one line,
//! with long or strange text escaped and cut, because reporters print them in a table.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::verdict::Verdict;

pub mod default_validator;
pub mod package;

/// How a problem's outputs are compared with its answers.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Checker {
    /// Whitespace-separated tokens; spacing, CRLF and the final newline do not matter.
    #[default]
    Tokens,
    /// Line by line, trailing whitespace ignored (and a final newline).
    Lines,
    /// Byte for byte.
    Exact,
    /// Tokens; numbers equal within `absolute` or `relative` tolerance, others exactly.
    Float { absolute: f64, relative: f64 },
    /// Blank-line-separated blocks compared as a multiset (queens-boards).
    UnorderedBlocks,
    /// An external checker: `program [args…] INPUT OUTPUT ANSWER`, testlib exit codes.
    Command { program: PathBuf, args: Vec<String> },
    /// A problem package's check: the Kattis default validator with its flags, or the
    /// package's own output validator (see [`package`]).
    Package(std::sync::Arc<package::PackageChecker>),
}

/// The checker's decision: `Accepted`, `WrongAnswer` or `JudgeError`, with a one-line reason.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckResult {
    pub verdict: Verdict,
    pub reason: String,
}

impl CheckResult {
    pub fn accepted(reason: impl Into<String>) -> Self {
        CheckResult {
            verdict: Verdict::Accepted,
            reason: reason.into(),
        }
    }

    pub fn wrong_answer(reason: impl Into<String>) -> Self {
        CheckResult {
            verdict: Verdict::WrongAnswer,
            reason: reason.into(),
        }
    }

    /// The checker itself failed: not the contestant's fault.
    pub fn judge_error(reason: impl Into<String>) -> Self {
        CheckResult {
            verdict: Verdict::JudgeError,
            reason: reason.into(),
        }
    }
}

/// The files of the case being checked (external checkers need paths).
pub struct CaseFiles<'a> {
    pub input: &'a Path,
    pub answer: &'a Path,
}

/// Wall-clock time an external checker gets before it is killed and the case is a judge error.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// Characters of a token kept in a reason; numbers longer than this are rarely read digit by digit.
const TOKEN_CHARS: usize = 40;
/// Characters of a line kept in a reason.
const LINE_CHARS: usize = 80;
/// Characters of an external checker's message kept in a reason.
const MESSAGE_CHARS: usize = 200;
/// Bytes of an external checker's stdout/stderr kept; the rest is read and dropped so that a
/// chatty checker never blocks on a full pipe.
const MESSAGE_BYTES: usize = 64 * 1024;

/// Compares `output` with `answer` as `checker` says. `case` is only read by `Command`, which
/// passes the input and answer paths on to the external program.
pub fn check(checker: &Checker, case: &CaseFiles<'_>, output: &[u8], answer: &[u8]) -> CheckResult {
    match checker {
        Checker::Tokens => tokens(output, answer, None),
        Checker::Float { absolute, relative } => tokens(
            output,
            answer,
            Some(Tolerance {
                absolute: *absolute,
                relative: *relative,
            }),
        ),
        Checker::Lines => lines(output, answer),
        Checker::Exact => exact(output, answer),
        Checker::UnorderedBlocks => unordered_blocks(output, answer),
        Checker::Command { program, args } => command(program, args, case, output, COMMAND_TIMEOUT),
        Checker::Package(checker) => checker.check(case, output, answer),
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens and Float

#[derive(Debug, Clone, Copy)]
struct Tolerance {
    absolute: f64,
    relative: f64,
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
struct Token<'a> {
    text: &'a [u8],
    line: usize,
    index: usize,
}

/// Splits bytes into tokens without allocating, counting lines as it goes.
struct Tokenizer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    index: usize,
}

impl<'a> Tokenizer<'a> {
    fn new(bytes: &'a [u8]) -> Self {
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

/// The whitespace testlib skips between tokens (and vertical tab, which nobody means as text).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn tokens(output: &[u8], answer: &[u8], tolerance: Option<Tolerance>) -> CheckResult {
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
                if found.text == expected.text {
                    continue;
                }
                let Some(tolerance) = tolerance else {
                    return CheckResult::wrong_answer(format!(
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
                        return CheckResult::wrong_answer(format!(
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
                        return CheckResult::wrong_answer(format!(
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
                return CheckResult::wrong_answer(format!(
                    "{what}: expected {} at answer line {}",
                    show(expected.text, TOKEN_CHARS),
                    expected.line
                ));
            }
            (Some(found), None) => {
                return CheckResult::wrong_answer(format!(
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
    CheckResult::accepted(reason)
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

// ---------------------------------------------------------------------------------------------
// Lines

/// Trailing whitespace a checker ignores on a line, including the `\r` of CRLF files.
fn trim_end(line: &[u8]) -> &[u8] {
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

fn lines(output: &[u8], answer: &[u8]) -> CheckResult {
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
        let reason = if expected.is_empty() && expected_lines.clone().all(|l| l.is_empty()) {
            format!(
                "extra output at line {number}: {}",
                quote(found, LINE_CHARS)
            )
        } else if found.is_empty() && found_lines.clone().all(|l| l.is_empty()) {
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
        return CheckResult::wrong_answer(reason);
    }
    CheckResult::accepted(plural(count, "line"))
}

// ---------------------------------------------------------------------------------------------
// Exact

fn exact(output: &[u8], answer: &[u8]) -> CheckResult {
    if output == answer {
        return CheckResult::accepted(plural(output.len(), "byte"));
    }
    let offset = common_prefix(output, answer);
    let line = 1 + answer[..offset].iter().filter(|&&b| b == b'\n').count();
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
    CheckResult::wrong_answer(reason)
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

// ---------------------------------------------------------------------------------------------
// UnorderedBlocks

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

fn unordered_blocks(output: &[u8], answer: &[u8]) -> CheckResult {
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
        return CheckResult::wrong_answer(format!(
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
        return CheckResult::wrong_answer(format!("{problem}{summary}"));
    }
    let missing: u64 = expected.values().map(|e| u64::from(e.remaining)).sum();
    if missing > 0 {
        let example = expected
            .values()
            .filter(|e| e.remaining > 0)
            .map(|e| e.answer_line)
            .min()
            .unwrap_or(0);
        return CheckResult::wrong_answer(format!(
            "missing {missing} of {expected_count} expected blocks, e.g. the one at answer line {example}"
        ));
    }
    CheckResult::accepted(plural(found_count, "block"))
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

// ---------------------------------------------------------------------------------------------
// Command

/// testlib's exit codes.
const EXIT_ACCEPTED: i32 = 0;
const EXIT_WRONG_ANSWER: i32 = 1;
const EXIT_PRESENTATION_ERROR: i32 = 2;
const EXIT_FAIL: i32 = 3;

fn command(
    program: &Path,
    args: &[String],
    case: &CaseFiles<'_>,
    output: &[u8],
    timeout: Duration,
) -> CheckResult {
    let file = tempfile::Builder::new()
        .prefix("harness-output-")
        .tempfile()
        .and_then(|mut file| {
            file.write_all(output)?;
            file.flush()?;
            Ok(file)
        });
    let file = match file {
        Ok(file) => file,
        Err(err) => {
            return CheckResult::judge_error(format!(
                "cannot write the output for checker `{}`: {err}",
                program.display()
            ))
        }
    };

    let mut command = Command::new(program);
    command
        .args(args)
        .arg(case.input)
        .arg(file.path())
        .arg(case.answer)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own group, so that a timeout kills whatever the checker started too.
        .process_group(0);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(err) => {
            let hint = match err.kind() {
                std::io::ErrorKind::PermissionDenied => " (hint: `chmod +x` it)",
                std::io::ErrorKind::NotFound => " (hint: check the path in judge.toml)",
                _ => "",
            };
            return CheckResult::judge_error(format!(
                "cannot start checker `{}`: {err}{hint}",
                program.display()
            ));
        }
    };
    let stdout = read_in_background(child.stdout.take());
    let stderr = read_in_background(child.stderr.take());

    let status = wait_with_timeout(&mut child, timeout);
    // Anything the checker left running would hold the pipes open: end the whole group.
    kill_group(&child);
    // Readers finish once the group is gone; the bound only matters for a grandchild that
    // escaped the group, which must not hang the judge.
    let stdout = stdout
        .recv_timeout(Duration::from_secs(1))
        .unwrap_or_default();
    let stderr = stderr
        .recv_timeout(Duration::from_secs(1))
        .unwrap_or_default();
    drop(file);

    let status = match status {
        Ok(Some(status)) => status,
        Ok(None) => {
            return CheckResult::judge_error(format!(
                "checker `{}` did not finish within {}s and was killed",
                program.display(),
                timeout.as_secs_f64()
            ))
        }
        Err(err) => {
            return CheckResult::judge_error(format!(
                "lost track of checker `{}`: {err}",
                program.display()
            ))
        }
    };
    classify_command(program, status, &stdout, &stderr)
}

/// Turns the checker's exit status and messages into a result (testlib's conventions).
fn classify_command(
    program: &Path,
    status: ExitStatus,
    stdout: &[u8],
    stderr: &[u8],
) -> CheckResult {
    // testlib writes its verdict line first; a crashing checker's traceback ends with the error.
    // Checkers that print to stdout instead of stderr are common enough to fall back on.
    let message = |last: bool| {
        let pick = |bytes: &[u8]| {
            let text = String::from_utf8_lossy(bytes);
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let line = if last {
                lines.next_back()
            } else {
                lines.next()
            };
            line.map(|l| one_line(l, MESSAGE_CHARS))
        };
        pick(stderr).or_else(|| pick(stdout))
    };
    match status.code() {
        Some(EXIT_ACCEPTED) => CheckResult::accepted(message(false).unwrap_or_default()),
        Some(EXIT_WRONG_ANSWER) => CheckResult::wrong_answer(
            message(false).unwrap_or_else(|| "checker says wrong answer (no message)".into()),
        ),
        Some(EXIT_PRESENTATION_ERROR) => CheckResult::wrong_answer(format!(
            "presentation error: {}",
            message(false).unwrap_or_else(|| "(no message)".into())
        )),
        code => {
            let how = match (code, status.signal()) {
                (Some(EXIT_FAIL), _) => "failed (exit 3)".to_string(),
                (Some(code), _) => format!("exited with unknown code {code}"),
                (None, Some(signal)) => format!("was killed by {}", signal_name(signal)),
                (None, None) => "ended abnormally".to_string(),
            };
            let detail = message(true).map(|m| format!(": {m}")).unwrap_or_default();
            CheckResult::judge_error(format!("checker `{}` {how}{detail}", program.display()))
        }
    }
}

fn signal_name(signal: i32) -> String {
    nix::sys::signal::Signal::try_from(signal)
        .map(|s| s.as_str().to_string())
        .unwrap_or_else(|_| format!("signal {signal}"))
}

/// Reads a pipe to its end on a thread, keeping the first [`MESSAGE_BYTES`].
fn read_in_background(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (sender, receiver) = mpsc::channel();
    if let Some(mut pipe) = pipe {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buffer = [0u8; 8192];
            loop {
                match pipe.read(&mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let room = MESSAGE_BYTES.saturating_sub(kept.len());
                        kept.extend_from_slice(&buffer[..n.min(room)]);
                    }
                }
            }
            // The receiver may have given up waiting; nothing to do then.
            let _ = sender.send(kept);
        });
    } else {
        let _ = sender.send(Vec::new());
    }
    receiver
}

/// Waits for the child; `Ok(None)` when it was killed for running past `timeout`.
fn wait_with_timeout(child: &mut Child, timeout: Duration) -> std::io::Result<Option<ExitStatus>> {
    let deadline = Instant::now() + timeout;
    // Most checkers finish in milliseconds: poll often at first, then back off.
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            kill_group(child);
            child.wait()?;
            return Ok(None);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

fn kill_group(child: &Child) {
    let Ok(pid) = i32::try_from(child.id()) else {
        return;
    };
    // ESRCH (the group is already gone) is the usual, happy case.
    let _ = nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGKILL,
    );
}

// ---------------------------------------------------------------------------------------------
// Showing text in a one-line reason

/// Bytes shown lossily as text, control characters escaped, cut to `max` characters.
fn show(bytes: &[u8], max: usize) -> String {
    // Only the start is shown, so a 10 MB line is never converted whole. `4 * max + 4` bytes
    // hold more than `max` characters, so a character cut in half here is never shown.
    let head = &bytes[..bytes.len().min(4 * max + 4)];
    one_line(&String::from_utf8_lossy(head), max)
}

/// Like [`show`], in double quotes so that spaces and emptiness are visible.
fn quote(bytes: &[u8], max: usize) -> String {
    format!("\"{}\"", show(bytes, max).replace('"', "\\\""))
}

/// Text on one line: control characters (newlines, `\r`, escapes) written as escapes, and cut
/// to `max` characters with an ellipsis.
fn one_line(text: &str, max: usize) -> String {
    let mut shown = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max {
            shown.push('…');
            break;
        }
        match c {
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\t' => shown.push_str("\\t"),
            c if c.is_control() => shown.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => shown.push(c),
        }
    }
    shown
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(checker: &Checker, output: &str, answer: &str) -> (Verdict, String) {
        let case = CaseFiles {
            input: Path::new("/dev/null"),
            answer: Path::new("/dev/null"),
        };
        let result = check(checker, &case, output.as_bytes(), answer.as_bytes());
        (result.verdict, result.reason)
    }

    /// Runs a table of `(output, answer, expected verdict, expected reason)`; an empty expected
    /// reason means "any reason" (used for accepted rows whose reason is a count).
    fn table(checker: &Checker, rows: &[(&str, &str, Verdict, &str)]) {
        for (output, answer, verdict, reason) in rows {
            let (got_verdict, got_reason) = run(checker, output, answer);
            assert_eq!(
                (got_verdict, got_reason.as_str()),
                (
                    *verdict,
                    if reason.is_empty() {
                        got_reason.as_str()
                    } else {
                        reason
                    }
                ),
                "{checker:?} output {output:?} answer {answer:?}"
            );
            assert!(
                !got_reason.contains('\n'),
                "reason must be one line: {got_reason:?}"
            );
        }
    }

    use Verdict::{Accepted as AC, JudgeError as JE, WrongAnswer as WA};

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
        let case = CaseFiles {
            input: Path::new("/dev/null"),
            answer: Path::new("/dev/null"),
        };
        let result = check(&Checker::Exact, &case, &output, answer.as_bytes());
        assert!(
            result
                .reason
                .starts_with("first difference at byte 9000 (line 1, column 9001)"),
            "{}",
            result.reason
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

    /// Writes an executable `#!/bin/sh` script into `dir`.
    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    fn run_command(program: &Path, args: &[&str], timeout: Duration) -> CheckResult {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("case.in");
        let answer = dir.path().join("case.ans");
        std::fs::write(&input, "2 3\n").expect("write input");
        std::fs::write(&answer, "5\n").expect("write answer");
        let case = CaseFiles {
            input: &input,
            answer: &answer,
        };
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        command(program, &args, &case, b"5\n", timeout)
    }

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn command_exit_codes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let rows: &[(&str, Verdict, &str)] = &[
            ("echo 'ok 1 number' >&2; exit 0", AC, "ok 1 number"),
            ("exit 0", AC, ""),
            ("echo >&2; echo 'wrong answer expected 5, found 6' >&2; echo 'more' >&2; exit 1", WA, "wrong answer expected 5, found 6"),
            ("exit 1", WA, "checker says wrong answer (no message)"),
            ("echo 'wrong answer on stdout'; exit 1", WA, "wrong answer on stdout"),
            ("echo 'extra spaces' >&2; exit 2", WA, "presentation error: extra spaces"),
            ("echo 'FAIL answer is wrong' >&2; exit 3", JE, "failed (exit 3): FAIL answer is wrong"),
            ("exit 7", JE, "exited with unknown code 7"),
            ("echo 'Traceback:' >&2; echo 'ValueError: x' >&2; exit 42", JE, "exited with unknown code 42: ValueError: x"),
            ("kill -SEGV $$", JE, "was killed by SIGSEGV"),
        ];
        for (i, (body, verdict, reason)) in rows.iter().enumerate() {
            let program = script(dir.path(), &format!("checker{i}.sh"), body);
            let result = run_command(&program, &[], Duration::from_secs(20));
            assert_eq!(result.verdict, *verdict, "{body}: {}", result.reason);
            assert!(
                result.reason.ends_with(reason),
                "{body}: reason {:?} should end with {reason:?}",
                result.reason
            );
        }
    }

    #[test]
    fn command_gets_args_then_input_output_answer() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Accepts only when given `--flag`, the input, the output (holding 5) and the answer.
        let program = script(
            dir.path(),
            "args.sh",
            r#"[ "$1" = --flag ] || { echo "bad flag $1" >&2; exit 3; }
[ "$(cat "$2")" = "2 3" ] || { echo "bad input" >&2; exit 3; }
[ "$(cat "$3")" = "$(cat "$4")" ] || { echo "wrong answer" >&2; exit 1; }
echo "ok" >&2"#,
        );
        let result = run_command(&program, &["--flag"], Duration::from_secs(20));
        assert_eq!(result, CheckResult::accepted("ok"));
    }

    #[test]
    fn command_that_cannot_start_is_a_judge_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("no-such-checker");
        let result = run_command(&missing, &[], Duration::from_secs(20));
        assert_eq!(result.verdict, JE);
        assert!(
            result.reason.starts_with("cannot start checker"),
            "{}",
            result.reason
        );

        let not_executable = dir.path().join("plain.sh");
        std::fs::write(&not_executable, "#!/bin/sh\nexit 0\n").expect("write");
        let result = run_command(&not_executable, &[], Duration::from_secs(20));
        assert_eq!(result.verdict, JE);
        assert!(result.reason.contains("chmod +x"), "{}", result.reason);
    }

    #[test]
    fn command_message_is_one_line_and_cut() {
        let dir = tempfile::tempdir().expect("tempdir");
        let program = script(
            dir.path(),
            "long.sh",
            "printf 'wrong\\tanswer %0300d\\n' 0 >&2; exit 1",
        );
        let result = run_command(&program, &[], Duration::from_secs(20));
        assert_eq!(result.verdict, WA);
        assert!(
            result.reason.starts_with("wrong\\tanswer 000"),
            "{}",
            result.reason
        );
        assert_eq!(result.reason.chars().count(), MESSAGE_CHARS + 2);
        assert!(result.reason.ends_with('…'));
    }

    #[test]
    fn command_timeout_kills_the_checker_and_what_it_started() {
        let dir = tempfile::tempdir().expect("tempdir");
        // The background sleep holds stderr open: only killing the group lets the judge go on.
        let program = script(dir.path(), "slow.sh", "sleep 30 & sleep 30");
        let started = Instant::now();
        let result = run_command(&program, &[], Duration::from_millis(300));
        assert_eq!(result.verdict, JE);
        assert!(
            result.reason.contains("did not finish"),
            "{}",
            result.reason
        );
        assert!(started.elapsed() < Duration::from_secs(10));

        // A checker that exits but leaves a child holding the pipes must not hang the judge.
        let program = script(dir.path(), "leaves.sh", "sleep 30 & echo 'ok' >&2; exit 0");
        let started = Instant::now();
        let result = run_command(&program, &[], Duration::from_secs(20));
        assert_eq!(result, CheckResult::accepted("ok"));
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
