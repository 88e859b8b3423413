//! An input or output shown in a report: indented, cut to a number of lines of a number of
//! characters, the rest counted, `(empty)` for nothing.

use std::io::{self, Write};

use super::style::DIM;
use crate::text::cut;

/// Writes `bytes` (lossily as UTF-8) as at most `lines` lines of at most `chars` characters.
pub fn write_excerpt(
    out: &mut dyn Write,
    bytes: &[u8],
    lines: usize,
    chars: usize,
) -> io::Result<()> {
    let text = String::from_utf8_lossy(bytes);
    if text.is_empty() {
        return writeln!(out, "  {DIM}(empty){DIM:#}");
    }
    let all: Vec<&str> = text.lines().collect();
    for line in all.iter().take(lines) {
        writeln!(out, "  {}", cut(line, chars))?;
    }
    if all.len() > lines {
        writeln!(out, "  {DIM}… {} more lines{DIM:#}", all.len() - lines)?;
    }
    Ok(())
}
