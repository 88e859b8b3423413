//! What can be wrong with judge.toml, and where: the error type, and placing an error at
//! the line and column of the value it is about.

use std::path::{Path, PathBuf};

use super::names::FILE_NAME;

/// Why judge.toml could not be used; a syntax or value error names its line and column.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// No judge.toml in the folder or above it.
    #[error("no `{FILE_NAME}` in `{}` or any folder above it (hint: run the harness inside the project, pass --config, or name a project for every folder: `harness project --default DIR`)", start.display())]
    NotFound {
        /// Where the search started.
        start: PathBuf,
    },
    /// The user's default project has no judge.toml.
    #[error("the default project `{}` (`project` in `{}`) has no `{FILE_NAME}` (hint: `harness project --default DIR` names another, `--no-default` none)", project.display(), config.display())]
    NoDefaultProject {
        /// The folder (or file) the user's config names.
        project: PathBuf,
        /// The user's config file.
        config: PathBuf,
    },
    /// It could not be read, or what it says is wrong (at a line and column where it can be).
    #[error(transparent)]
    File(#[from] FileError),
}

/// What is wrong with a file (judge.toml, a package's, a contest's), and where.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// It could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It is not valid TOML (YAML, JSON), or a key or value is wrong there.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line of the fault.
        line: usize,
        /// 1-based column of the fault.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// The settings do not fit together (a problem without cases, say).
    #[error("`{}`: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl FileError {
    /// `path` is malformed at `line` and `column` (1-based).
    pub(crate) fn syntax(path: &Path, line: usize, column: usize, message: String) -> FileError {
        FileError::Syntax {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    }

    /// `path`'s YAML is malformed where `error` says; `hint` follows its message.
    pub(crate) fn yaml(path: &Path, error: &serde_norway::Error, hint: &str) -> FileError {
        let (line, column) = error.location().map_or((1, 1), |l| (l.line(), l.column()));
        FileError::syntax(path, line, column, format!("{error}{hint}"))
    }
}

/// A step from a table of judge.toml to the value an error is about.
#[derive(Debug, Clone, Copy)]
pub(super) enum Key<'a> {
    Name(&'a str),
    Index(usize),
}

/// Errors found after the text parsed, placed at their value's line and column when it can
/// be found (the file is parsed again, with spans, only when an error needs them).
pub(super) struct Errors<'a> {
    text: &'a str,
    path: &'a Path,
}

impl<'a> Errors<'a> {
    pub(super) fn new(text: &'a str, path: &'a Path) -> Errors<'a> {
        Errors { text, path }
    }

    pub(super) fn invalid(&self, message: String) -> ConfigError {
        FileError::Invalid {
            path: self.path.to_path_buf(),
            message,
        }
        .into()
    }

    /// An error at the value `keys` lead to (or, when it is not there, the nearest above it).
    pub(super) fn at(&self, keys: &[Key<'_>], message: String) -> ConfigError {
        let Ok(document) = toml_edit::Document::parse(self.text) else {
            return self.invalid(message);
        };
        let mut item = document.as_item();
        let mut span = None;
        for key in keys {
            let next = match key {
                Key::Name(name) => item.get(*name),
                Key::Index(index) => item.get(*index),
            };
            let Some(next) = next else { break };
            item = next;
            span = item.span().or(span);
        }
        match span {
            Some(span) => {
                let (line, column) = line_and_column(self.text, span.start);
                FileError::syntax(self.path, line, column, message).into()
            }
            None => self.invalid(message),
        }
    }
}

pub(super) fn syntax_error(text: &str, path: &Path, error: &toml::de::Error) -> ConfigError {
    let (line, column) = match error.span() {
        Some(span) => line_and_column(text, span.start),
        None => (1, 1),
    };
    let message = name_the_key(
        text,
        error.span(),
        error.message().trim().replace('\n', " "),
    );
    FileError::syntax(path, line, column, message).into()
}

/// A value's error names its key: the message of a bad value (`\`0.0000001ms\` is shorter than
/// 1ms…`) is about the value, and the line `time-limit = "0.0000001ms"` says which key it is.
fn name_the_key(text: &str, span: Option<std::ops::Range<usize>>, message: String) -> String {
    let Some(span) = span else {
        return message;
    };
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    let Some((key, _)) = before.split_once('=') else {
        return message;
    };
    let key = key.trim().trim_matches('"');
    let is_key = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !is_key || message.contains(&format!("`{key}`")) {
        return message;
    }
    format!("`{key}`: {message}")
}

/// 1-based line and column (in characters) of a byte offset.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}
