//! The user's file names put back into what a program says. A build and a run see private
//! copies of the source (the build's scratch folder, the cache, the sandbox's `/tmp`), so a
//! compiler's message, a Python traceback, an `assert` or a sanitizer's frame names the copy;
//! the user knows the file by the path they gave.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// The paths a program's copies go by, each with the user's path to show instead.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShownNames {
    /// (copy, the user's path), the longest copy first so that no copy's path is replaced
    /// inside a longer one's.
    pairs: Vec<(Vec<u8>, Vec<u8>)>,
}

impl ShownNames {
    /// Each copy shown as its file. A copy spelt as its file is left out.
    pub fn new(pairs: impl IntoIterator<Item = (PathBuf, PathBuf)>) -> ShownNames {
        use std::os::unix::ffi::OsStrExt;
        let mut pairs: Vec<(Vec<u8>, Vec<u8>)> = pairs
            .into_iter()
            .filter(|(copy, file)| copy != file && !copy.as_os_str().is_empty())
            .map(|(copy, file)| {
                (
                    copy.as_os_str().as_bytes().to_vec(),
                    file.as_os_str().as_bytes().to_vec(),
                )
            })
            .collect();
        pairs.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
        pairs.dedup_by(|a, b| a.0 == b.0);
        ShownNames { pairs }
    }

    /// The copies of a program built in `dir` from `files` (copied there as `names`): in
    /// `dir`, in the scratch folder the compiler saw (`compiled_in`, when the build was
    /// made elsewhere and renamed into place), and the main file as the sandbox copies a
    /// script for its interpreter, `/tmp/NAME`.
    pub fn of_build(
        dir: &Path,
        compiled_in: Option<&Path>,
        names: &[PathBuf],
        files: &[PathBuf],
        main: Option<(&Path, &Path)>,
    ) -> ShownNames {
        let mut pairs = Vec::new();
        for (name, file) in names.iter().zip(files) {
            pairs.push((dir.join(name), file.clone()));
            if let Some(scratch) = compiled_in {
                pairs.push((scratch.join(name), file.clone()));
            }
        }
        if let Some((copy, file)) = main {
            if let Some(name) = copy.file_name() {
                pairs.push((Path::new("/tmp").join(name), file.to_path_buf()));
            }
        }
        ShownNames::new(pairs)
    }

    /// `text` with every copy's path, as a whole path (not a part of a longer one), replaced
    /// by its file's.
    pub fn show_bytes<'a>(&self, text: &'a [u8]) -> Cow<'a, [u8]> {
        if self.pairs.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out: Option<Vec<u8>> = None;
        let mut copied = 0;
        let mut at = 0;
        'scan: while at < text.len() {
            if text[at] == b'/' && (at == 0 || !is_path_byte(text[at - 1])) {
                for (copy, file) in &self.pairs {
                    if text[at..].starts_with(copy) && ends_a_path(&text[at + copy.len()..]) {
                        let out = out.get_or_insert_with(|| Vec::with_capacity(text.len()));
                        out.extend_from_slice(&text[copied..at]);
                        out.extend_from_slice(file);
                        at += copy.len();
                        copied = at;
                        continue 'scan;
                    }
                }
            }
            at += 1;
        }
        match out {
            None => Cow::Borrowed(text),
            Some(mut out) => {
                out.extend_from_slice(&text[copied..]);
                Cow::Owned(out)
            }
        }
    }

    /// [`Self::show_bytes`] of a text.
    pub fn show(&self, text: &str) -> String {
        String::from_utf8_lossy(&self.show_bytes(text.as_bytes())).into_owned()
    }
}

/// A byte a path is spelt with, around the names harness gives its copies.
fn is_path_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.' | b'/' | b'+')
}

/// Whether a path just read ends where `rest` starts: `a.py"`, `a.cpp:6`, `a.py` at the end
/// of a sentence (`.` then a space); not `a.py.bak` nor `a.py/x`.
fn ends_a_path(rest: &[u8]) -> bool {
    match rest {
        [] | [b'.'] => true,
        [b'.', after, ..] => !is_path_byte(*after),
        [byte, ..] => !is_path_byte(*byte),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> ShownNames {
        ShownNames::of_build(
            Path::new("/c/build/py-1"),
            Some(Path::new("/c/build/.building-x1")),
            &[PathBuf::from("crash.py")],
            &[PathBuf::from("crash.py")],
            Some((Path::new("/c/build/py-1/crash.py"), Path::new("crash.py"))),
        )
    }

    #[test]
    fn every_copy_is_shown_as_the_users_file() {
        let names = names();
        for (said, shown) in [
            (
                "  File \"/tmp/crash.py\", line 2, in solve\n",
                "  File \"crash.py\", line 2, in solve\n",
            ),
            (
                "  File \"/c/build/py-1/crash.py\", line 5, in <module>",
                "  File \"crash.py\", line 5, in <module>",
            ),
            (
                "main.bin: /c/build/.building-x1/crash.py:6: int main(): Assertion `x' failed.",
                "main.bin: crash.py:6: int main(): Assertion `x' failed.",
            ),
            ("see /tmp/crash.py.", "see crash.py."),
            ("/tmp/crash.py", "crash.py"),
            // Not the copy: longer names, other folders, a part of a path.
            ("/tmp/crash.py.bak", "/tmp/crash.py.bak"),
            ("/tmp/crash.pyc", "/tmp/crash.pyc"),
            ("/var/tmp/crash.py", "/var/tmp/crash.py"),
            ("/tmp/crash.py/x", "/tmp/crash.py/x"),
            ("nothing here", "nothing here"),
            ("", ""),
        ] {
            assert_eq!(names.show(said), shown, "{said}");
        }
    }

    #[test]
    fn a_longer_copy_wins_over_its_prefix() {
        let names = ShownNames::new([
            (PathBuf::from("/b/a"), PathBuf::from("short")),
            (PathBuf::from("/b/a/b.cpp"), PathBuf::from("b.cpp")),
        ]);
        assert_eq!(names.show("/b/a/b.cpp:3 /b/a"), "b.cpp:3 short");
    }

    #[test]
    fn nothing_to_show_borrows_the_text() {
        let none = ShownNames::default();
        assert!(matches!(none.show_bytes(b"/tmp/a.py"), Cow::Borrowed(_)));
        assert!(matches!(names().show_bytes(b"no copy"), Cow::Borrowed(_)));
        assert!(matches!(
            names().show_bytes(b"\xff /tmp/crash.py \xfe"),
            Cow::Owned(bytes) if bytes == b"\xff crash.py \xfe"
        ));
    }
}
