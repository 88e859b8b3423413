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

pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
