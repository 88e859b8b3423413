//! A contest as BAPCtools and DOMjudge lay one out: a folder with `problems.yaml` (the
//! problems in order, each with its `label` and the `id` that is its package folder) and
//! `contest.yaml` (its name). Its problems are found by label (`A`) or by short name.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::FileError;
use super::PackageError;

/// One problem of `problems.yaml`.
#[derive(Debug, Clone, PartialEq)]
pub struct ContestProblem {
    /// `A`.
    pub label: String,
    /// The short name: the package's folder name.
    pub id: String,
    /// The package's folder.
    pub dir: PathBuf,
}

/// A contest folder, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Contest {
    pub root: PathBuf,
    /// `contest.yaml`'s `name` (or `title`), else the folder's name.
    pub name: String,
    pub problems: Vec<ContestProblem>,
}

/// An entry of `problems.yaml` as written; the keys the harness does not use (`name`, `rgb`,
/// `color`, `time_limit`, CCS fields) are allowed and left alone.
#[derive(Debug, Deserialize)]
struct Entry {
    id: Option<String>,
    /// BAPCtools calls it `label`; older DOMjudge files `letter`, and some give only `short-name`.
    label: Option<Scalar>,
    letter: Option<Scalar>,
    #[serde(rename = "short-name")]
    short_name: Option<String>,
}

/// A label written as `A` or as `1`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Scalar {
    Text(String),
    Number(i64),
}

impl Scalar {
    fn text(&self) -> String {
        match self {
            Scalar::Text(text) => text.clone(),
            Scalar::Number(n) => n.to_string(),
        }
    }
}

/// Whether `dir` is a contest folder (it has `problems.yaml`).
pub fn is_contest(dir: &Path) -> bool {
    dir.join("problems.yaml").is_file()
}

/// The line and column of the `index`-th entry of a `problems.yaml` list: where its first key
/// starts (`- id: a` gives the `id`). `(1, 1)` when it cannot be found.
fn entry_position(text: &str, index: usize) -> (usize, usize) {
    let mut seen = 0;
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("- ") || trimmed == "-" {
            if seen == index {
                let after_dash = &trimmed[1..];
                let key = after_dash.len() - after_dash.trim_start().len();
                let column = line.len() - trimmed.len() + 1 + key + 1;
                return (number + 1, column);
            }
            seen += 1;
        }
    }
    (1, 1)
}

/// A problem problems.yaml lists whose folder is not a package (missing, or not yet made).
#[derive(Debug, Clone, PartialEq)]
pub struct MissingProblem {
    pub label: String,
    pub id: String,
    /// What is wrong, with problems.yaml's line and column.
    pub why: String,
}

/// Reads the contest in `dir`.
pub fn open(dir: &Path) -> Result<Contest, PackageError> {
    open_with(dir, false).map(|(contest, _)| contest)
}

/// Reads the contest in `dir`, its problems whose folder is not a package left out and
/// returned beside it (a verify of the others need not wait for them); any other mistake
/// is an error still.
pub fn open_partial(dir: &Path) -> Result<(Contest, Vec<MissingProblem>), PackageError> {
    open_with(dir, true)
}

fn open_with(dir: &Path, partial: bool) -> Result<(Contest, Vec<MissingProblem>), PackageError> {
    let root = super::canonical(dir)?;
    let path = root.join("problems.yaml");
    super::check_inside(&root, &path)?;
    // Read within the package bounds (size, nesting), then typed, so that a wrong type is
    // named with its line and column.
    super::yaml::read(&path)?;
    let text = super::read_text(&path)?;
    let syntax = |line: usize, column: usize, message: String| {
        PackageError::from(FileError::syntax(&path, line, column, message))
    };
    let entries: Vec<Entry> = if text.trim().is_empty() {
        Vec::new()
    } else {
        serde_norway::from_str::<Option<Vec<Entry>>>(&text)
            .map_err(|error| {
                FileError::yaml(&path, &error, " (hint: problems.yaml is a list of problems, each `- id: <folder>` with its `label: A`)")
            })?
            .unwrap_or_default()
    };
    if entries.is_empty() {
        return Err(syntax(
            1,
            1,
            "no problems (hint: list them as `- id: <folder>` with `label: A`, as `bt new_problem` does)".to_string(),
        ));
    }
    let mut problems: Vec<ContestProblem> = Vec::new();
    let mut missing: Vec<MissingProblem> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let (line, column) = entry_position(&text, index);
        // Every mistake of the entry is said at its dash.
        let at_entry = |message: String| syntax(line, column, message);
        let id = (entry.id.clone().or_else(|| entry.short_name.clone()))
            .ok_or_else(|| at_entry("a problem without `id` (its package folder)".to_string()))?;
        let label = (entry.label.as_ref().or(entry.letter.as_ref()))
            .map(Scalar::text)
            .ok_or_else(|| at_entry(format!("problem `{id}` has no `label` (`A`, `B`, …)")))?;
        let folder = super::relative_inside(&root, &id)
            .map_err(|why| at_entry(format!("`id: {id}`: {why}")))?;
        super::check_inside(&root, &folder)?;
        if super::detect(&folder).is_none() {
            let error = at_entry(format!(
                "problem `{id}` ({label}): `{}` is not a problem package (hint: `id` is the name of the problem's folder beside problems.yaml)",
                folder.display()
            ));
            if partial {
                missing.push(MissingProblem {
                    label,
                    id,
                    why: error.to_string(),
                });
                continue;
            }
            return Err(error);
        }
        if let Some(other) = problems.iter().find(|p| p.label == label || p.id == id) {
            return Err(at_entry(format!(
                "problem `{id}` ({label}) has the label or the id of `{}` ({})",
                other.id, other.label
            )));
        }
        problems.push(ContestProblem {
            label,
            id,
            dir: folder,
        });
    }
    let contest_yaml = root.join("contest.yaml");
    super::check_inside(&root, &contest_yaml)?;
    let name = if contest_yaml.is_file() {
        let yaml = super::yaml::read(&contest_yaml)?;
        ["name", "title", "formal_name"].iter().find_map(|key| {
            yaml.get(*key)
                .and_then(serde_norway::Value::as_str)
                .map(str::to_string)
        })
    } else {
        None
    };
    Ok((
        Contest {
            name: name.unwrap_or_else(|| super::file_name(&root)),
            root,
            problems,
        },
        missing,
    ))
}

impl Contest {
    /// The problem whose label (any case) or short name is `key`.
    pub fn problem(&self, key: &str) -> Result<&ContestProblem, PackageError> {
        self.problems
            .iter()
            .find(|p| p.label.eq_ignore_ascii_case(key))
            .or_else(|| self.problems.iter().find(|p| p.id == key))
            .ok_or_else(|| {
                super::invalid(
                    &self.root.join("problems.yaml"),
                    format!(
                        "no problem `{key}` in the contest (hint: one of {})",
                        self.problems
                            .iter()
                            .map(|p| format!("{} ({})", p.label, p.id))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_by_their_dash() {
        let text = "# problems\n- id: a\n  label: A\n-   id: b\n    label: B\n";
        assert_eq!(entry_position(text, 0), (2, 3));
        assert_eq!(entry_position(text, 1), (4, 5));
    }
}
