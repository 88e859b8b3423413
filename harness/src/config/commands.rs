//! The files a judge.toml command names (an interactor, a `command` checker, a reference, a
//! validator, generators, the stress commands), found from judge.toml's folder and checked
//! when the file is read: a missing script is a config error at its line, never a program
//! that runs somewhere else, fails to open it, and is read as a verdict on the contestant.
//!
//! The rule, word by word (`{…}` placeholders, options `-…` and words with spaces are left
//! as written):
//! - a word that names an existing file from judge.toml's folder is that file;
//! - otherwise the program (the first word), when it is a bare name (`python3`), is looked up
//!   on PATH, and any other word is passed as written;
//! - except a word that can only be a file — a source (`inter.py`, `check.cpp`: an extension
//!   of a language) or a path (`interactors/guess`, with a `/`) — which must exist: a config
//!   error if not. A path that is not a source may be what `[defaults] build` makes
//!   (`target/release/gen`): with a `build`, it is looked for when it runs instead.

use std::path::{Path, PathBuf};

/// What the words of a command are checked against.
pub(super) struct Files<'a> {
    /// judge.toml's folder.
    pub root: &'a Path,
    /// `[defaults] build` is set: a built program may not be there before it runs.
    pub built: bool,
    /// The extensions of source files (every language's, without the dot).
    pub sources: &'a [String],
}

/// A word of a command that names a file that is not there.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Missing {
    /// Which word (0: the program).
    pub index: usize,
    pub message: String,
}

impl Files<'_> {
    /// `command` with every word that names a file made an absolute path, for a command that
    /// runs in a folder of its own (an interactor, a checker, a reference).
    pub fn resolve(&self, command: &[String]) -> Result<Vec<String>, Missing> {
        command
            .iter()
            .enumerate()
            .map(|(index, word)| {
                Ok(match self.file(index, word)? {
                    Some(file) => file.display().to_string(),
                    None => word.clone(),
                })
            })
            .collect()
    }

    /// The file `word` names, absolute, for a key that takes a file and no command
    /// (`reference = "brute.py"`): it must exist, unless the build may make it.
    pub fn file_only(&self, word: &str) -> Result<String, Missing> {
        let path = self.root.join(word);
        if path.exists() || (self.built && !self.is_source(word)) {
            return Ok(std::path::absolute(&path)
                .unwrap_or(path)
                .display()
                .to_string());
        }
        Err(self.missing(0, word))
    }

    /// Only checks `command`, for one that runs in judge.toml's folder (a validator, the
    /// generators and stress commands), where its relative paths hold as written.
    pub fn check(&self, command: &[String]) -> Result<(), Missing> {
        for (index, word) in command.iter().enumerate() {
            self.file(index, word)?;
        }
        Ok(())
    }

    /// The file `word` names, absolute; `None` for a word that is no file (or one that the
    /// build may make).
    fn file(&self, index: usize, word: &str) -> Result<Option<PathBuf>, Missing> {
        let as_written = word.is_empty()
            || word.contains('{')
            || word.chars().any(char::is_whitespace)
            || (index > 0 && word.starts_with('-'));
        if as_written {
            return Ok(None);
        }
        let path = self.root.join(word);
        let found = if word.contains('/') {
            path.exists()
        } else {
            path.is_file()
        };
        if found {
            return Ok(Some(std::path::absolute(&path).unwrap_or(path)));
        }
        if !self.is_source(word) && (!word.contains('/') || self.built) {
            return Ok(None);
        }
        Err(self.missing(index, word))
    }

    /// Whether `word` ends with a language's extension: a source, which no build makes.
    fn is_source(&self, word: &str) -> bool {
        Path::new(word)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| self.sources.iter().any(|s| s == e))
    }

    fn missing(&self, index: usize, word: &str) -> Missing {
        let folder = std::path::absolute(self.root).unwrap_or_else(|_| self.root.to_path_buf());
        let message = format!(
            "no file `{word}` in `{}` (a command's files are named from judge.toml's folder)",
            folder.display()
        );
        Missing { index, message }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(parts: &[&str]) -> Vec<String> {
        parts.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn files_are_found_from_the_folder_and_missing_ones_named() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("interactors")).unwrap();
        for file in ["inter.py", "interactors/guess", "words.txt", "gen"] {
            std::fs::write(root.join(file), "").unwrap();
        }
        let sources = words(&["py", "cpp"]);
        let files = Files {
            root,
            built: false,
            sources: &sources,
        };
        let at = |file: &str| root.join(file).display().to_string();
        // A command, and what it resolves to (or the index of its missing word).
        type Row<'a> = (&'a [&'a str], Result<Vec<String>, usize>);
        let rows: [Row<'_>; 10] = [
            (
                &["python3", "inter.py", "--strict"],
                Ok(words(&["python3", &at("inter.py"), "--strict"])),
            ),
            (&["interactors/guess"], Ok(vec![at("interactors/guess")])),
            // A bare program that is a file here is that file; else one on PATH.
            (&["gen", "{seed}"], Ok(words(&[&at("gen"), "{seed}"]))),
            (
                &["sort", "-n", "words.txt"],
                Ok(words(&["sort", "-n", &at("words.txt")])),
            ),
            // Words that are no file stay as written.
            (
                &["casegen", "queens", "7"],
                Ok(words(&["casegen", "queens", "7"])),
            ),
            (
                &["sh", "-c", "python3 x.py"],
                Ok(words(&["sh", "-c", "python3 x.py"])),
            ),
            (
                &["gen", "--out={dir}/x.py"],
                Ok(words(&[&at("gen"), "--out={dir}/x.py"])),
            ),
            // Sources and paths must be there.
            (&["python3", "missing.py"], Err(1)),
            (&["interactors/missing", "x"], Err(0)),
            (&["check.cpp"], Err(0)),
        ];
        for (command, expected) in rows {
            let got = files
                .resolve(&words(command))
                .map_err(|missing| missing.index);
            assert_eq!(got, expected, "{command:?}");
        }
        let missing = files
            .resolve(&words(&["python3", "missing.py"]))
            .unwrap_err();
        assert!(
            missing.message.starts_with("no file `missing.py` in `"),
            "{}",
            missing.message
        );
    }

    #[test]
    fn a_build_may_make_programs_but_not_sources() {
        let dir = tempfile::tempdir().unwrap();
        let sources = words(&["py"]);
        let files = Files {
            root: dir.path(),
            built: true,
            sources: &sources,
        };
        assert_eq!(
            files.check(&words(&["target/release/gen", "{seed}"])),
            Ok(())
        );
        let missing = files.check(&words(&["python3", "gen.py"])).unwrap_err();
        assert_eq!(missing.index, 1);
    }
}
