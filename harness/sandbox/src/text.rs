//! Text cut and escaped for one-line reasons and reports: outputs may be huge, binary or full
//! of control characters, and a reason must still fit on one line of a table.

/// Bytes shown lossily as text, control characters escaped, cut to `max` characters.
pub fn show(bytes: &[u8], max: usize) -> String {
    // Only the start is shown, so a 10 MB line is never converted whole. `4 * max + 4` bytes
    // hold more than `max` characters, so a character cut in half here is never shown.
    let head = &bytes[..bytes.len().min(4 * max + 4)];
    one_line(&String::from_utf8_lossy(head), max)
}

/// Like [`show`], in double quotes so that spaces and emptiness are visible.
pub fn quote(bytes: &[u8], max: usize) -> String {
    format!("\"{}\"", show(bytes, max).replace('"', "\\\""))
}

/// Text on one line: control characters (newlines, `\r`, escapes) written as escapes, and cut
/// to `max` characters with an ellipsis.
pub fn one_line(text: &str, max: usize) -> String {
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

/// Lines of an error message, each on its own indented line: the first ten, and a count of the
/// rest.
pub fn listed(lines: impl ExactSizeIterator<Item = String>) -> String {
    const LISTED: usize = 10;
    let total = lines.len();
    let mut text: String = lines
        .take(LISTED)
        .map(|line| format!("\n  {line}"))
        .collect();
    if total > LISTED {
        text.push_str(&format!("\n  … and {} more", total - LISTED));
    }
    text
}

pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// `text` cut to `max` characters, with an ellipsis when something was cut.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// The first line of `text` with something on it, trimmed: where testlib writes its verdict.
pub fn first_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).find(|line| !line.is_empty())
}

/// The last line of `text` with something on it, trimmed: in a program's stderr, where a
/// panic, an assertion or a validator says why.
pub fn last_line(text: &str) -> Option<&str> {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|line| !line.is_empty())
}

/// The last `count` lines of `text`.
pub fn tail_lines(text: &str, count: usize) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_and_last_lines_skip_blank_ones() {
        let text = "\n  warning \nline 1: n = 14 is out of [6, 13]\n \n";
        assert_eq!(first_line(text), Some("warning"));
        assert_eq!(last_line(text), Some("line 1: n = 14 is out of [6, 13]"));
        assert_eq!(first_line(" \n\n"), None);
        assert_eq!(last_line(""), None);
    }

    #[test]
    fn cut_counts_characters_not_bytes() {
        assert_eq!(cut("héllo", 5), "héllo");
        assert_eq!(cut("héllo", 2), "hé…");
        assert_eq!(cut("", 0), "");
        assert_eq!(cut("x", 0), "…");
    }

    #[test]
    fn tail_lines_keeps_the_end() {
        assert_eq!(tail_lines("a\nb\nc\n", 2), ["b", "c"]);
        assert_eq!(tail_lines("a", 5), ["a"]);
        assert!(tail_lines("", 3).is_empty());
    }
}
