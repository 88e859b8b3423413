//! The cases that failed last time, per problem (`harness run --failed`) or per problem and
//! source (`harness judge --failed`), keyed by what [`source_key`] makes. Kept in
//! `target/harness/failed.json` under the project root: build output, not source, so it is
//! never committed and `cargo clean` forgets it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::judge::suite::Planned;
use crate::judge::CaseOutcome;

#[derive(Debug, thiserror::Error)]
pub enum FailuresError {
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("`{}` is not a list of failed cases: {message} (hint: delete it; the next run writes it again)", path.display())]
    Corrupt { path: PathBuf, message: String },
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Failed cases by problem, each a sorted set of case names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedCases {
    failed: BTreeMap<String, BTreeSet<String>>,
}

/// The key of one source's failures under `problem_key` (`judge sum`): the source by its
/// canonical path, so that `a.cpp` and `./a.cpp` are one, and `a.cpp` and `b.cpp` two.
pub fn source_key(problem_key: &str, source: &Path) -> String {
    let source = std::fs::canonicalize(source).unwrap_or_else(|_| source.to_path_buf());
    format!("{problem_key} {}", source.display())
}

/// Where the failures of the project rooted at `root` (judge.toml's folder) are kept.
pub fn store_path(root: &Path) -> PathBuf {
    root.join("target").join("harness").join("failed.json")
}

impl FailedCases {
    /// What `path` holds; nothing if it does not exist (no run yet).
    pub fn load(path: &Path) -> Result<FailedCases, FailuresError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(FailedCases::default())
            }
            Err(source) => {
                return Err(FailuresError::Read {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        serde_json::from_str(&text).map_err(|error| FailuresError::Corrupt {
            path: path.to_path_buf(),
            message: error.to_string(),
        })
    }

    /// Writes through a temporary file and a rename, so that an interrupted run never leaves
    /// half a file for the next `--failed` to choke on; only over a regular file (never over
    /// or through a link, a device or a FIFO put there).
    pub fn save(&self, path: &Path) -> Result<(), FailuresError> {
        let write_error = |source| FailuresError::Write {
            path: path.to_path_buf(),
            source,
        };
        let folder = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(folder).map_err(write_error)?;
        let mut text = serde_json::to_string_pretty(self)
            .map_err(std::io::Error::other)
            .map_err(write_error)?;
        text.push('\n');
        crate::atomic::write(path, text.as_bytes()).map_err(|error| write_error(error.source))
    }

    /// Takes in one problem's results: failures are remembered, cases that pass now are
    /// forgotten, and cases not judged this time keep what was known of them.
    pub fn record(&mut self, problem: &str, outcomes: &[CaseOutcome]) {
        let cases = self.failed.entry(problem.to_string()).or_default();
        for outcome in outcomes {
            if outcome.verdict.is_accepted() {
                cases.remove(&outcome.case);
            } else {
                cases.insert(outcome.case.clone());
            }
        }
        if cases.is_empty() {
            self.failed.remove(problem);
        }
    }

    /// Moves the failures kept under `old` to `new` when `new` has none: a store written
    /// before each source had its own key (`judge sum`) still tells `--failed` what failed,
    /// once, and is then the first source's.
    pub fn adopt(&mut self, old: &str, new: &str) {
        if self.failed.contains_key(new) {
            return;
        }
        if let Some(cases) = self.failed.remove(old) {
            self.failed.insert(new.to_string(), cases);
        }
    }

    pub fn contains(&self, problem: &str, case: &str) -> bool {
        self.failed
            .get(problem)
            .is_some_and(|cases| cases.contains(case))
    }

    pub fn is_empty(&self) -> bool {
        self.failed.is_empty()
    }

    /// Keeps in the plan only the cases that failed last time (and problems that have some).
    pub fn retain_failed(&self, planned: &mut Vec<Planned<'_>>) {
        for plan in planned.iter_mut() {
            let problem = &plan.problem.name;
            plan.cases.retain(|case| self.contains(problem, &case.name));
        }
        planned.retain(|plan| !plan.cases.is_empty());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    fn outcome(case: &str, verdict: Verdict) -> CaseOutcome {
        CaseOutcome::new(case, verdict, "")
    }

    #[test]
    fn passing_cases_are_forgotten_and_unjudged_ones_kept() {
        let mut failed = FailedCases::default();
        failed.record(
            "sum",
            &[
                outcome("1", Verdict::WrongAnswer),
                outcome("2", Verdict::Accepted),
                outcome("3", Verdict::JudgeError),
            ],
        );
        assert!(failed.contains("sum", "1") && failed.contains("sum", "3"));
        assert!(!failed.contains("sum", "2"));
        // A rerun of case 1 alone: it passes now; case 3 was not judged and stays.
        failed.record("sum", &[outcome("1", Verdict::Accepted)]);
        assert!(!failed.contains("sum", "1") && failed.contains("sum", "3"));
        failed.record("sum", &[outcome("3", Verdict::Accepted)]);
        assert!(failed.is_empty());
    }

    #[test]
    fn each_source_has_its_own_and_an_old_problem_key_is_adopted_once() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.c"), dir.path().join("b.c"));
        std::fs::write(&a, "").unwrap();
        std::fs::write(&b, "").unwrap();
        let key_a = source_key("judge sum", &a);
        assert_eq!(key_a, source_key("judge sum", &dir.path().join("./a.c")));
        assert_ne!(key_a, source_key("judge sum", &b));

        // A store from before: `judge sum` alone.
        let mut failed: FailedCases =
            serde_json::from_str(r#"{"failed": {"judge sum": ["2"], "sum": ["9"]}}"#).unwrap();
        failed.adopt("judge sum", &key_a);
        assert!(failed.contains(&key_a, "2") && failed.contains("sum", "9"));
        assert!(!failed.contains("judge sum", "2"));
        failed.record(
            &source_key("judge sum", &b),
            &[outcome("3", Verdict::WrongAnswer)],
        );
        failed.adopt("judge sum", &source_key("judge sum", &b));
        assert!(failed.contains(&key_a, "2") && !failed.contains(&key_a, "3"));
    }

    #[test]
    fn saved_and_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let path = store_path(dir.path());
        assert_eq!(FailedCases::load(&path).unwrap(), FailedCases::default());
        let mut failed = FailedCases::default();
        failed.record("sum", &[outcome("secret/1", Verdict::TimeLimitExceeded)]);
        failed.save(&path).unwrap();
        assert_eq!(FailedCases::load(&path).unwrap(), failed);
        assert!(path.starts_with(dir.path().join("target/harness")));

        std::fs::write(&path, "{ not json").unwrap();
        let error = FailedCases::load(&path).unwrap_err().to_string();
        assert!(
            error.contains("failed.json") && error.contains("hint: delete it"),
            "{error}"
        );
    }
}
