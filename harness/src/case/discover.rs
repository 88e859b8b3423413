//! Finds a problem's cases: every `NAME.in` with its answer (`NAME.ans`, or `NAME.out` as
//! online-judge-tools and Codeforces downloads name it), in judge order: samples first, then
//! the rest in natural order.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// One test case. `name` is the path below the case folder without `.in` (`sample-1`,
/// `secret/07`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The path below the case folder, without `.in`.
    pub name: String,
    /// The `.in` file.
    pub input: PathBuf,
    /// The `.ans` file beside it; empty for a case with none, which only
    /// [`discover_unanswered_too`] lists.
    pub answer: PathBuf,
    /// Arguments the submission is run with on this case (a 2025-09 package's `args`, from
    /// its `test_group.yaml` or the case's own `.yaml`); none elsewhere.
    pub args: Vec<String>,
}

impl Case {
    /// Whether it has no answer to compare with.
    pub fn unanswered(&self) -> bool {
        self.answer.as_os_str().is_empty()
    }
}

/// Why a case folder cannot be listed as cases.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// The folder judge.toml names is not there.
    #[error("case folder `{}` does not exist (hint: create it and add cases with `harness add`, or fix `cases` in judge.toml)", .0.display())]
    MissingFolder(PathBuf),
    /// A file given where the folder of the cases goes (`--cases x.in`).
    #[error("`{}` is a file, not a folder of cases (hint: --cases takes the folder that holds NAME.in and NAME.ans; to run one input, use --input FILE)", .0.display())]
    NotAFolder(PathBuf),
    /// Listing the folder failed.
    #[error("cannot read case folder `{}`: {source}", path.display())]
    Unreadable {
        /// What could not be read.
        path: PathBuf,
        /// Why.
        source: walkdir::Error,
    },
    /// An input without its answer.
    #[error("missing answer file `{}` (or `.out`) (hint: `harness add` or `harness gen` writes it)", .0.display())]
    MissingAnswer(PathBuf),
    /// An answer without its input.
    #[error("answer file `{}` has no input `{}` beside it (hint: add the input or remove the answer)", answer.display(), input.display())]
    MissingInput {
        /// The answer file found.
        answer: PathBuf,
        /// The input file it lacks.
        input: PathBuf,
    },
    /// A case file that is a FIFO, a device or a folder: reading it would block or not end.
    #[error("case file `{}` is {kind}, not a regular file (hint: cases are files; replace it with one)", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// A file name that is not UTF-8 cannot be a case name.
    #[error("case name `{}` is not valid UTF-8 (hint: rename the file)", .0.display())]
    BadName(PathBuf),
}

/// Lists the cases below `folder`, sorted naturally (`n2` before `n10`).
pub fn discover(folder: &Path) -> Result<Vec<Case>, DiscoverError> {
    list(folder, false)
}

/// [`discover`], an input without an answer listed too (its `answer` empty): a submission is
/// judged on a downloaded folder as it is, and such a case is only run.
pub fn discover_unanswered_too(folder: &Path) -> Result<Vec<Case>, DiscoverError> {
    list(folder, true)
}

fn list(folder: &Path, unanswered: bool) -> Result<Vec<Case>, DiscoverError> {
    if folder.is_file() {
        return Err(DiscoverError::NotAFolder(folder.to_path_buf()));
    }
    if !folder.is_dir() {
        return Err(DiscoverError::MissingFolder(folder.to_path_buf()));
    }
    let mut cases = Vec::new();
    for entry in WalkDir::new(folder).follow_links(true) {
        let entry = entry.map_err(|source| DiscoverError::Unreadable {
            path: folder.to_path_buf(),
            source,
        })?;
        let path = entry.path();
        let extension = path.extension().and_then(|e| e.to_str());
        if !entry.file_type().is_file() {
            // `x.in` that is a FIFO, a device or a folder is a case that cannot be read: say
            // so, rather than skip it and report its answer as lacking an input.
            if matches!(extension, Some("in" | "ans")) {
                if let Some(kind) = not_a_file(path) {
                    return Err(kind);
                }
            }
            continue;
        }
        match extension {
            Some("in") => {
                let answer = path.with_extension("ans");
                if let Some(kind) = not_a_file(&answer) {
                    return Err(kind);
                }
                let answer = if answer.is_file() {
                    answer
                } else {
                    let out = path.with_extension("out");
                    match (out.is_file(), unanswered) {
                        (true, _) => out,
                        (false, true) => PathBuf::new(),
                        (false, false) => return Err(DiscoverError::MissingAnswer(answer)),
                    }
                };
                cases.push(Case {
                    name: case_name(folder, path)?,
                    input: path.to_path_buf(),
                    answer,
                    args: Vec::new(),
                });
            }
            Some("ans") => {
                let input = path.with_extension("in");
                if let Some(kind) = not_a_file(&input) {
                    return Err(kind);
                }
                if !input.is_file() {
                    return Err(DiscoverError::MissingInput {
                        answer: path.to_path_buf(),
                        input,
                    });
                }
            }
            _ => {}
        }
    }
    cases.sort_by(|a, b| judge_order(&a.name, &b.name));
    Ok(cases)
}

/// The error for a case path that exists but is not a regular file.
fn not_a_file(path: &Path) -> Option<DiscoverError> {
    crate::file_kind::not_regular(path).map(|kind| DiscoverError::NotAFile {
        path: path.to_path_buf(),
        kind,
    })
}

/// Samples first (`sample-1`, `sample/02`, `samples/3`), as online judges run them, so the
/// first failure shown is one the statement explains; then natural order.
pub fn judge_order(a: &str, b: &str) -> Ordering {
    is_sample(b)
        .cmp(&is_sample(a))
        .then_with(|| natural_cmp(a, b))
}

pub(crate) fn is_sample(name: &str) -> bool {
    name.get(..6)
        .is_some_and(|start| start.eq_ignore_ascii_case("sample"))
}

fn case_name(folder: &Path, input: &Path) -> Result<String, DiscoverError> {
    let relative = input
        .strip_prefix(folder)
        .unwrap_or(input)
        .with_extension("");
    relative
        .to_str()
        .map(|name| name.replace(std::path::MAIN_SEPARATOR, "/"))
        .ok_or_else(|| DiscoverError::BadName(input.to_path_buf()))
}

/// Compares names with digit runs as numbers, so `sample-2` < `sample-10` and `n9` < `n10`.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (da, ra) = split_digits(a);
                let (db, rb) = split_digits(b);
                let (ta, tb) = (trim_zeros(da), trim_zeros(db));
                let order = ta
                    .len()
                    .cmp(&tb.len())
                    .then_with(|| ta.cmp(tb))
                    .then_with(|| da.len().cmp(&db.len()));
                if order != Ordering::Equal {
                    return order;
                }
                (a, b) = (ra, rb);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    let end = s
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(s.len());
    s.split_at(end)
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let start = digits
        .iter()
        .position(|&c| c != b'0')
        .unwrap_or(digits.len());
    &digits[start..]
}

/// A case name is a relative path below the case folder, without `.in`: `big`, `secret/07`.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.ends_with(".in") || name.ends_with(".ans") {
        return Err("leave out `.in` / `.ans`".to_string());
    }
    check_path(name)
}

/// The one rule for a name that a judge.toml, a package or a recipe gives to something the
/// harness reads, writes or removes below a folder (a case, a test group, a generator, a file
/// it copies): plain parts joined by `/`. Never absolute, never `..` or `.`, never an empty
/// part (`generators//etc`), never a hidden part, a NUL or a backslash: such a name stays
/// below its folder however it is joined.
pub fn check_path(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("it is empty".to_string());
    }
    if name.contains('\0') || name.contains('\\') {
        return Err("it holds a NUL or a backslash".to_string());
    }
    if name.starts_with('/') || name.ends_with('/') || name.contains("//") {
        return Err("it must be a relative path like `big` or `secret/07`".to_string());
    }
    // Split by hand: `Path::components` drops a `.` in the middle (`a/./b`).
    if name.split('/').any(|part| part.starts_with('.')) {
        return Err("no part of it may be `..` or start with `.`".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        let mut names = vec!["n10", "n9", "sample-2", "sample-10", "a", "n09", "all-001"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            ["a", "all-001", "n9", "n09", "n10", "sample-2", "sample-10"]
        );
    }

    #[test]
    fn pairs_and_errors() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("secret")).unwrap();
        for name in ["sample-1", "secret/02", "n10", "n9"] {
            std::fs::write(root.join(format!("{name}.in")), "1\n").unwrap();
            std::fs::write(root.join(format!("{name}.ans")), "1\n").unwrap();
        }
        std::fs::write(root.join("notes.txt"), "ignored").unwrap();
        let names: Vec<_> = discover(root)
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(names, ["sample-1", "n9", "n10", "secret/02"]);

        std::fs::remove_file(root.join("n9.ans")).unwrap();
        let error = discover(root).unwrap_err().to_string();
        assert!(error.contains("missing answer file"), "{error}");
        assert!(error.contains("n9.ans"), "{error}");
        std::fs::remove_file(root.join("n9.in")).unwrap();

        std::fs::remove_file(root.join("n10.in")).unwrap();
        let error = discover(root).unwrap_err().to_string();
        assert!(error.contains("has no input"), "{error}");
    }

    #[test]
    fn samples_come_first_and_out_files_are_answers() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in ["added-1", "all-002", "sample-2", "sample-10", "Sample-1"] {
            std::fs::write(root.join(format!("{name}.in")), "1\n").unwrap();
            std::fs::write(root.join(format!("{name}.out")), "1\n").unwrap();
        }
        // An answer written both ways: `.ans` is the one judged.
        std::fs::write(root.join("added-1.ans"), "1\n").unwrap();
        // A stray `.out` (a program's output) is not a case.
        std::fs::write(root.join("notes.out"), "1\n").unwrap();
        let cases = discover(root).unwrap();
        let names: Vec<_> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["Sample-1", "sample-2", "sample-10", "added-1", "all-002"]
        );
        assert!(cases[3].answer.ends_with("added-1.ans"));
        assert!(cases[0].answer.ends_with("Sample-1.out"));
    }

    #[test]
    fn missing_folder_says_what_to_do() {
        let error = discover(Path::new("/nonexistent/cases/x"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("does not exist"), "{error}");
        assert!(error.contains("/nonexistent/cases/x"), "{error}");
    }

    #[test]
    fn paths_stay_below_their_folder() {
        for good in ["gen.py", "sub/gen.py", "secret/03-big", "a.in", "n1.5"] {
            assert_eq!(check_path(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "/abs",
            "generators//ABS/dir",
            "../victim",
            "a/../../b",
            "a/./b",
            ".",
            "..",
            "a/",
            ".hidden",
            "nul\0byte",
            "back\\slash",
        ] {
            assert!(check_path(bad).is_err(), "{bad:?}");
        }
        assert!(check_name("a.in").is_err() && check_path("a.in").is_ok());
    }
}
