//! A readable, bounded line diff of a wrong answer against the expected one, for the terminal.
//!
//! Outputs can be megabytes and differ everywhere, so the diff never looks at all of them: it
//! skips the common prefix, diffs a window of lines from the first difference, stops rendering
//! after `max_lines`, and says what it left out. Colors are always written as ANSI escapes; the
//! caller's `anstream::AutoStream` strips them when the terminal (or NO_COLOR) says so.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anstyle::{AnsiColor, Color, Style};
use similar::{Algorithm, DiffOp};

use crate::scan::count_newlines;

/// How much of a diff to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffOptions {
    /// Lines of diff rendered (context and changes) before the rest is summarized in a note.
    pub max_lines: usize,
    /// Unchanged lines shown around each change.
    pub context: usize,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            max_lines: 40,
            context: 3,
        }
    }
}

/// Lines per side handed to the diff algorithm: far more than anyone reads, few enough that the
/// diff takes milliseconds.
const WINDOW_LINES: usize = 2_000;
/// Bytes per side handed to the diff algorithm (a window also stops here).
const WINDOW_BYTES: usize = 1 << 20;
/// Time the diff algorithm gets before it settles for a coarser (still correct) diff.
const DIFF_TIMEOUT: Duration = Duration::from_millis(500);
/// Characters of one line rendered; a contest output is often one very long line.
const LINE_CHARS: usize = 160;
/// Characters shown before the first difference when a long line is shown from the middle.
const LEAD_CHARS: usize = 40;

const REMOVED: Style = Style::new().fg_color(Some(Color::Ansi(AnsiColor::Red)));
const ADDED: Style = Style::new().fg_color(Some(Color::Ansi(AnsiColor::Green)));
const CONTEXT: Style = Style::new().dimmed();
const NOTE: Style = Style::new().dimmed();

/// Writes a diff from `answer` (expected, `-`) to `output` (received, `+`). Writes nothing when
/// they are identical.
pub fn write_diff(
    out: &mut dyn Write,
    output: &[u8],
    answer: &[u8],
    options: &DiffOptions,
) -> io::Result<()> {
    if output == answer {
        return Ok(());
    }

    let (start, skipped_lines, lines_before) = diff_start(output, answer, options.context);

    let old = Window::take(&answer[start..], lines_before + 1);
    let new = Window::take(&output[start..], lines_before + 1);
    let started = Instant::now();
    let ops = similar::capture_diff_slices_deadline(
        Algorithm::Myers,
        &old.lines,
        &new.lines,
        Some(started + DIFF_TIMEOUT),
    );
    let gave_up = started.elapsed() >= DIFF_TIMEOUT;

    let rows = rows(&ops, &old.lines, &new.lines, options.context);
    let last_number = skipped_lines + old.lines.len().max(new.lines.len());
    let width = last_number.to_string().len();

    write_styled(out, REMOVED, "--- expected (answer)")?;
    write_styled(out, ADDED, "+++ received (output)")?;

    let mut showed_whitespace = false;
    let shown = rows.len().min(options.max_lines);
    for row in &rows[..shown] {
        showed_whitespace |= write_row(out, row, skipped_lines, width)?;
    }

    let hidden = rows[shown..]
        .iter()
        .filter(|row| matches!(row.kind, Kind::Removed | Kind::Added))
        .count();
    if hidden > 0 {
        write_styled(
            out,
            NOTE,
            &format!("… {hidden} more differing lines not shown"),
        )?;
    }
    if old.rest_lines > 0 || new.rest_lines > 0 {
        write_styled(
            out,
            NOTE,
            &format!(
                "… compared answer lines {} and output lines {} only ({} and {} more lines not compared)",
                line_range(skipped_lines, old.lines.len()),
                line_range(skipped_lines, new.lines.len()),
                old.rest_lines,
                new.rest_lines,
            ),
        )?;
    }
    if gave_up {
        write_styled(
            out,
            NOTE,
            &format!(
                "… the diff stopped aligning lines after {} ms: it may show more changes than there are",
                DIFF_TIMEOUT.as_millis()
            ),
        )?;
    }
    write_endings(out, output, answer, (&old, &new), showed_whitespace)
}

/// Where the diff starts: the byte offset of its first line, the lines skipped before it, and
/// the lines of context it shows before the first difference.
fn diff_start(output: &[u8], answer: &[u8], context: usize) -> (usize, usize, usize) {
    // Both sides agree up to `prefix`; the diff starts `context` lines before the line that
    // holds the first difference, so nothing before it is split into lines or diffed.
    let prefix = crate::check::common_prefix(answer, output);
    let differing_line_start = line_start(answer, prefix);
    let mut start = differing_line_start;
    let mut skipped_lines = count_newlines(&answer[..start]);
    let mut lines_before = 0;
    while lines_before < context && start > 0 {
        start = line_start(answer, start - 1);
        skipped_lines -= 1;
        lines_before += 1;
    }
    (start, skipped_lines, lines_before)
}

/// The notes on line endings: a missing last newline, and what the whitespace marks mean.
fn write_endings(
    out: &mut dyn Write,
    output: &[u8],
    answer: &[u8],
    (old, new): (&Window<'_>, &Window<'_>),
    showed_whitespace: bool,
) -> io::Result<()> {
    if old.rest_lines == 0 && new.rest_lines == 0 {
        let old_newline = answer.last() == Some(&b'\n');
        let new_newline = output.last() == Some(&b'\n');
        if old_newline && !new_newline && !output.is_empty() {
            write_styled(out, NOTE, "(the output does not end with a newline)")?;
        } else if new_newline && !old_newline && !answer.is_empty() {
            write_styled(out, NOTE, "(the answer does not end with a newline)")?;
        }
    }
    if showed_whitespace {
        let only_whitespace = old.lines.len() == new.lines.len()
            && old
                .lines
                .iter()
                .zip(&new.lines)
                .all(|(a, b)| trim_end(a) == trim_end(b));
        let what = if only_whitespace {
            "the lines differ only in trailing whitespace: "
        } else {
            ""
        };
        write_styled(
            out,
            NOTE,
            &format!("({what}␍ is a carriage return, · a trailing space, → a tab)"),
        )?;
    }
    Ok(())
}

/// The diff as plain text, without color escapes (for tests and plain-text reports).
pub fn diff_to_string(output: &[u8], answer: &[u8], options: &DiffOptions) -> String {
    let mut buffer = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_diff(&mut buffer, output, answer, options);
    let text = String::from_utf8_lossy(&buffer);
    anstream::adapter::strip_str(&text).to_string()
}

/// The lines of one side that the diff looks at.
struct Window<'a> {
    lines: Vec<&'a [u8]>,
    /// Lines after the window, which the diff never saw.
    rest_lines: usize,
}

impl<'a> Window<'a> {
    /// Lines from the start of `text` up to [`WINDOW_LINES`] / [`WINDOW_BYTES`], but at least
    /// `at_least` (the first difference must be in the window, however long the lines before).
    fn take(text: &'a [u8], at_least: usize) -> Self {
        let mut lines = Vec::new();
        let mut bytes = 0;
        let mut pos = 0;
        while pos < text.len() {
            if lines.len() >= at_least && (lines.len() >= WINDOW_LINES || bytes >= WINDOW_BYTES) {
                break;
            }
            let end = text[pos..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(text.len(), |i| pos + i);
            lines.push(&text[pos..end]);
            bytes += end - pos + 1;
            pos = end + 1;
        }
        let rest = &text[pos.min(text.len())..];
        let rest_lines =
            count_newlines(rest) + usize::from(rest.last().is_some_and(|&b| b != b'\n'));
        Window { lines, rest_lines }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Kind {
    #[default]
    Context,
    Removed,
    Added,
    /// Between two groups of changes, where unchanged lines are left out.
    Gap,
}

/// One rendered line of the diff. Indices are into the window's lines.
#[derive(Debug, Clone, Copy, Default)]
struct Row<'a> {
    kind: Kind,
    old: Option<usize>,
    new: Option<usize>,
    text: &'a [u8],
    /// Byte offset the rendering starts from, to show a long line near its difference.
    from: usize,
    /// Draw tabs and trailing spaces visibly: they are what differs.
    whitespace: bool,
}

/// Lays out the diff as rows: groups of changes with `context` lines around them.
fn rows<'a>(ops: &[DiffOp], old: &[&'a [u8]], new: &[&'a [u8]], context: usize) -> Vec<Row<'a>> {
    let mut rows = Vec::new();
    for (i, group) in similar::group_diff_ops(ops.to_vec(), context)
        .iter()
        .enumerate()
    {
        if i > 0 {
            rows.push(Row {
                kind: Kind::Gap,
                ..Row::default()
            });
        }
        for op in group {
            match *op {
                DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                } => {
                    rows.extend((0..len).map(|k| Row {
                        old: Some(old_index + k),
                        new: Some(new_index + k),
                        text: old[old_index + k],
                        ..Row::default()
                    }));
                }
                DiffOp::Delete {
                    old_index, old_len, ..
                } => {
                    rows.extend(
                        (old_index..old_index + old_len)
                            .map(|k| removed(old, k, 0, is_blank(old[k]))),
                    );
                }
                DiffOp::Insert {
                    new_index, new_len, ..
                } => {
                    rows.extend(
                        (new_index..new_index + new_len)
                            .map(|k| added(new, k, 0, is_blank(new[k]))),
                    );
                }
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => replaced(
                    &mut rows,
                    (old, old_index..old_index + old_len),
                    (new, new_index..new_index + new_len),
                ),
            }
        }
    }
    rows
}

/// The rows of a replaced run, paired side by side (-a +a' -b +b'): contest outputs are
/// compared line for line, and a long replaced run would otherwise show only `-` lines
/// before the cut.
fn replaced<'a>(
    rows: &mut Vec<Row<'a>>,
    (old, old_range): (&[&'a [u8]], std::ops::Range<usize>),
    (new, new_range): (&[&'a [u8]], std::ops::Range<usize>),
) {
    let (old_index, old_len) = (old_range.start, old_range.len());
    let (new_index, new_len) = (new_range.start, new_range.len());
    for k in 0..old_len.max(new_len) {
        let pair = (old.get(old_index + k), new.get(new_index + k));
        let (from, whitespace) = match pair {
            (Some(a), Some(b)) if k < old_len && k < new_len => {
                (start_near(a, b), only_whitespace_differs(a, b))
            }
            (Some(line), _) | (_, Some(line)) => (0, is_blank(line)),
            (None, None) => (0, false),
        };
        if k < old_len {
            rows.push(removed(old, old_index + k, from, whitespace));
        }
        if k < new_len {
            rows.push(added(new, new_index + k, from, whitespace));
        }
    }
}

fn removed<'a>(old: &[&'a [u8]], index: usize, from: usize, whitespace: bool) -> Row<'a> {
    Row {
        kind: Kind::Removed,
        old: Some(index),
        text: old[index],
        from,
        whitespace,
        ..Row::default()
    }
}

fn added<'a>(new: &[&'a [u8]], index: usize, from: usize, whitespace: bool) -> Row<'a> {
    Row {
        kind: Kind::Added,
        new: Some(index),
        text: new[index],
        from,
        whitespace,
        ..Row::default()
    }
}

/// Whether two lines hold the same words, so that only spacing tells them apart.
fn only_whitespace_differs(a: &[u8], b: &[u8]) -> bool {
    fn words(line: &[u8]) -> impl Iterator<Item = &[u8]> {
        line.split(u8::is_ascii_whitespace)
            .filter(|word| !word.is_empty())
    }
    words(a).eq(words(b))
}

/// A line of nothing but whitespace, which would look empty.
fn is_blank(line: &[u8]) -> bool {
    !line.is_empty() && line.iter().all(u8::is_ascii_whitespace)
}

/// Where to start showing two long lines so that their first difference is on screen.
fn start_near(a: &[u8], b: &[u8]) -> usize {
    let common = crate::check::common_prefix(a, b);
    if common + LEAD_CHARS < LINE_CHARS {
        return 0;
    }
    let mut from = common - LEAD_CHARS;
    // Start on a character, not inside one (both lines agree up to `common`).
    while from > 0 && a[from] & 0xC0 == 0x80 {
        from -= 1;
    }
    from
}

/// Writes one row; returns whether it made whitespace visible.
fn write_row(out: &mut dyn Write, row: &Row<'_>, skipped: usize, width: usize) -> io::Result<bool> {
    let number = |index: Option<usize>| match index {
        Some(i) => format!("{:>width$}", skipped + i + 1),
        None => " ".repeat(width),
    };
    let (marker, style, changed) = match row.kind {
        Kind::Context => (' ', CONTEXT, false),
        Kind::Removed => ('-', REMOVED, true),
        Kind::Added => ('+', ADDED, true),
        Kind::Gap => {
            write_styled(out, CONTEXT, &format!("{:>w$}", "⋮", w = 2 * width + 3))?;
            return Ok(false);
        }
    };
    let (text, visible) = render_text(row.text, row.from, changed, row.whitespace);
    let line = format!("{marker} {} {} │ {text}", number(row.old), number(row.new));
    write_styled(out, style, line.trim_end_matches(' '))?;
    Ok(visible)
}

/// A line as text for the terminal: lossy UTF-8, control characters escaped (a raw escape in
/// the output must not drive the terminal), cut to [`LINE_CHARS`]. On changed lines `\r` is
/// drawn visibly (it is never meant), and with `whitespace` so are tabs and trailing spaces.
/// Returns whether anything was drawn visibly.
fn render_text(line: &[u8], from: usize, changed: bool, whitespace: bool) -> (String, bool) {
    let from = from.min(line.len());
    // Only what can be shown is converted: 4 bytes per character at most, plus a spare.
    let end = line.len().min(from + 4 * LINE_CHARS + 4);
    let text = String::from_utf8_lossy(&line[from..end]);
    let trailing_start = if whitespace && end == line.len() {
        text.trim_end_matches([' ', '\t', '\r']).len()
    } else {
        text.len()
    };

    let mut shown = String::new();
    let mut visible = false;
    if from > 0 {
        shown.push('…');
    }
    for (count, (at, c)) in text.char_indices().enumerate() {
        if count == LINE_CHARS {
            shown.push('…');
            break;
        }
        match c {
            '\r' if changed => {
                shown.push('␍');
                visible = true;
            }
            '\t' if whitespace => {
                shown.push('→');
                visible = true;
            }
            ' ' if at >= trailing_start => {
                shown.push('·');
                visible = true;
            }
            '\t' => shown.push('\t'),
            c if c.is_control() => shown.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => shown.push(c),
        }
    }
    (shown, visible)
}

fn write_styled(out: &mut dyn Write, style: Style, text: &str) -> io::Result<()> {
    writeln!(out, "{}{text}{}", style.render(), style.render_reset())
}

/// The offset where the line holding `pos` starts.
fn line_start(text: &[u8], pos: usize) -> usize {
    text[..pos]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1)
}

fn trim_end(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b' ' | b'\t' | b'\r') {
        end -= 1;
    }
    &line[..end]
}

/// `from–to` in 1-based line numbers for `count` lines after `skipped`.
fn line_range(skipped: usize, count: usize) -> String {
    if count == 0 {
        "(none)".to_string()
    } else {
        format!("{}–{}", skipped + 1, skipped + count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(output: &str, answer: &str) -> String {
        diff_to_string(
            output.as_bytes(),
            answer.as_bytes(),
            &DiffOptions::default(),
        )
    }

    fn numbered(range: std::ops::RangeInclusive<u32>) -> String {
        range.map(|i| format!("{i}\n")).collect()
    }

    #[test]
    fn identical_writes_nothing() {
        assert_eq!(diff("1\n2\n", "1\n2\n"), "");
        assert_eq!(diff("", ""), "");
    }

    #[test]
    fn one_changed_line_with_context() {
        let answer = numbered(1..=12);
        let output = answer.replace("7\n", "70\n");
        assert_eq!(
            diff(&output, &answer),
            "\
--- expected (answer)
+++ received (output)
   4  4 │ 4
   5  5 │ 5
   6  6 │ 6
-  7    │ 7
+     7 │ 70
   8  8 │ 8
   9  9 │ 9
  10 10 │ 10
"
        );
    }

    #[test]
    fn output_ends_early() {
        assert_eq!(
            diff("1\n2\n", "1\n2\n3\n4\n"),
            "\
--- expected (answer)
+++ received (output)
  1 1 │ 1
  2 2 │ 2
- 3   │ 3
- 4   │ 4
"
        );
        assert_eq!(
            diff("", "1\n"),
            "\
--- expected (answer)
+++ received (output)
- 1   │ 1
"
        );
    }

    #[test]
    fn extra_lines() {
        assert_eq!(
            diff("1\n2\n3\nfoo\n\n", "1\n2\n3\n"),
            "\
--- expected (answer)
+++ received (output)
  1 1 │ 1
  2 2 │ 2
  3 3 │ 3
+   4 │ foo
+   5 │
"
        );
    }

    #[test]
    fn separate_changes_are_separate_groups() {
        let answer = numbered(1..=20);
        let output = answer.replacen("3\n", "x\n", 1).replace("17\n", "y\n");
        assert_eq!(
            diff(&output, &answer),
            "\
--- expected (answer)
+++ received (output)
   1  1 │ 1
   2  2 │ 2
-  3    │ 3
+     3 │ x
   4  4 │ 4
   5  5 │ 5
   6  6 │ 6
      ⋮
  14 14 │ 14
  15 15 │ 15
  16 16 │ 16
- 17    │ 17
+    17 │ y
  18 18 │ 18
  19 19 │ 19
  20 20 │ 20
"
        );
    }

    #[test]
    fn whitespace_only_differences_are_visible() {
        assert_eq!(
            diff("1 2 \r\n3\r\n", "1 2\n3\n"),
            "\
--- expected (answer)
+++ received (output)
- 1   │ 1 2
+   1 │ 1 2·␍
- 2   │ 3
+   2 │ 3␍
(the lines differ only in trailing whitespace: ␍ is a carriage return, · a trailing space, → a tab)
"
        );
        assert_eq!(
            diff("a\tb\n", "a b\n"),
            "\
--- expected (answer)
+++ received (output)
- 1   │ a b
+   1 │ a→b
(␍ is a carriage return, · a trailing space, → a tab)
"
        );
    }

    #[test]
    fn spacing_is_plain_when_the_words_differ() {
        // Both sides have the trailing space; the digit is the difference, so no `·` noise.
        assert_eq!(
            diff("1 3 \n", "1 2 \n"),
            "\
--- expected (answer)
+++ received (output)
- 1   │ 1 2
+   1 │ 1 3
"
        );
        // A line of spaces alone would look empty.
        assert_eq!(
            diff("1\n  \n", "1\n"),
            "\
--- expected (answer)
+++ received (output)
  1 1 │ 1
+   2 │ ··
(␍ is a carriage return, · a trailing space, → a tab)
"
        );
    }

    #[test]
    fn missing_final_newline_is_named() {
        assert_eq!(
            diff("1\n2", "1\n2\n"),
            "\
--- expected (answer)
+++ received (output)
(the output does not end with a newline)
"
        );
    }

    #[test]
    fn long_lines_are_shown_near_their_difference() {
        let answer: String = (0..1000).map(|i| format!("{i} ")).collect();
        let output = answer.replace(" 500 ", " 501 ");
        let text = diff(&output, &answer);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[2].starts_with("- 1   │ …"), "{}", lines[2]);
        assert!(lines[2].contains("499 500 501"), "{}", lines[2]);
        assert!(lines[3].contains("499 501 501"), "{}", lines[3]);
        assert!(lines[3].ends_with('…'));
        assert!(lines[3].chars().count() < LINE_CHARS + 20);
    }

    #[test]
    fn control_characters_are_escaped_and_bytes_shown_lossily() {
        assert_eq!(
            diff_to_string(b"\x1b[2J\xff\n", b"ok\n", &DiffOptions::default()),
            "\
--- expected (answer)
+++ received (output)
- 1   │ ok
+   1 │ \\u{1b}[2J\u{fffd}
"
        );
    }

    #[test]
    fn colors_are_always_written() {
        let mut raw = Vec::new();
        write_diff(&mut raw, b"2\n", b"1\n", &DiffOptions::default()).expect("write");
        let raw = String::from_utf8(raw).expect("utf-8");
        assert!(raw.contains("\x1b[31m- 1   │ 1\x1b[0m"), "{raw:?}");
        assert!(raw.contains("\x1b[32m+   1 │ 2\x1b[0m"), "{raw:?}");
    }

    #[test]
    fn huge_inputs_are_cut_with_a_note() {
        // A million lines, all different from line 11 on: the diff must stay small and quick.
        let answer: String = (0..1_000_000).map(|i| format!("{i}\n")).collect();
        let output: String = (0..1_000_000)
            .map(|i| {
                if i < 10 {
                    format!("{i}\n")
                } else {
                    format!("{i}.5\n")
                }
            })
            .collect();
        let started = Instant::now();
        let text = diff(&output, &answer);
        assert!(started.elapsed() < Duration::from_secs(20));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + 40 + 2, "{text}");
        assert_eq!(lines[2], "     8    8 │ 7");
        assert_eq!(lines[5], "-   11      │ 10");
        assert_eq!(lines[6], "+        11 │ 10.5");
        assert_eq!(lines[42], "… 3957 more differing lines not shown");
        assert_eq!(
            lines[43],
            "… compared answer lines 8–2007 and output lines 8–2007 only (997993 and 997993 more lines not compared)"
        );
    }

    #[test]
    fn max_lines_cuts_rendering() {
        let answer = numbered(1..=100);
        let output = numbered(101..=200);
        let options = DiffOptions {
            max_lines: 4,
            context: 3,
        };
        assert_eq!(
            diff_to_string(output.as_bytes(), answer.as_bytes(), &options),
            "\
--- expected (answer)
+++ received (output)
-   1     │ 1
+       1 │ 101
-   2     │ 2
+       2 │ 102
… 196 more differing lines not shown
"
        );
    }
}
