//! The head of a case's input, for reports of a failing case: its first lines, each cut to a
//! readable width, and whether anything was left out.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Lines of an input shown.
pub const HEAD_LINES: usize = 6;
/// Characters of one shown line.
pub const LINE_CHARS: usize = 80;
/// Bytes read at most: a 100 MB input is not read to show six lines.
const READ_BYTES: u64 = 16 * 1024;

/// Where a failing case's input is, and how it begins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputExcerpt {
    pub path: PathBuf,
    /// The first [`HEAD_LINES`] lines, each cut to [`LINE_CHARS`] characters (`…` marks a cut
    /// line), joined with `\n`.
    pub head: String,
    /// Lines were left out, or a line was cut.
    pub truncated: bool,
}

impl InputExcerpt {
    /// Reads the head of the input at `path`; an unreadable file shows as its error.
    pub fn read(path: &Path) -> InputExcerpt {
        let mut bytes = Vec::new();
        let read = std::fs::File::open(path)
            .and_then(|file| file.take(READ_BYTES + 1).read_to_end(&mut bytes));
        match read {
            Ok(_) => {
                let more_bytes = bytes.len() as u64 > READ_BYTES;
                bytes.truncate(READ_BYTES as usize);
                let mut excerpt = InputExcerpt::of(path, &bytes);
                excerpt.truncated |= more_bytes;
                excerpt
            }
            Err(error) => InputExcerpt {
                path: path.to_path_buf(),
                head: format!("(cannot read it: {error})"),
                truncated: false,
            },
        }
    }

    /// The head of `bytes`, the input found at `path`.
    pub fn of(path: &Path, bytes: &[u8]) -> InputExcerpt {
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text.lines().collect();
        let mut truncated = lines.len() > HEAD_LINES;
        let head: Vec<String> = lines
            .iter()
            .take(HEAD_LINES)
            .map(|line| {
                let line = line.trim_end_matches('\r');
                match line.char_indices().nth(LINE_CHARS) {
                    Some((end, _)) => {
                        truncated = true;
                        format!("{}…", &line[..end])
                    }
                    None => line.to_string(),
                }
            })
            .collect();
        InputExcerpt {
            path: path.to_path_buf(),
            head: head.join("\n"),
            truncated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads() {
        let path = Path::new("x.in");
        let cases: [(&str, &str, bool); 5] = [
            ("", "", false),
            ("1 2\n", "1 2", false),
            ("1\r\n2\r\n", "1\n2", false),
            ("1\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\n4\n5\n6", true),
            ("no final newline", "no final newline", false),
        ];
        for (input, head, truncated) in cases {
            let excerpt = InputExcerpt::of(path, input.as_bytes());
            assert_eq!(excerpt.head, head, "{input:?}");
            assert_eq!(excerpt.truncated, truncated, "{input:?}");
        }
        let wide = InputExcerpt::of(path, "9 ".repeat(100).as_bytes());
        assert!(wide.truncated);
        assert_eq!(wide.head.chars().count(), LINE_CHARS + 1);
    }

    #[test]
    fn a_big_file_is_read_in_part() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.in");
        std::fs::write(&path, "1\n".repeat(100_000)).unwrap();
        let excerpt = InputExcerpt::read(&path);
        assert!(excerpt.truncated);
        assert_eq!(excerpt.head.lines().count(), HEAD_LINES);
        let missing = InputExcerpt::read(&dir.path().join("gone.in"));
        assert!(
            missing.head.starts_with("(cannot read it"),
            "{}",
            missing.head
        );
    }
}
