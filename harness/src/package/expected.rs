//! What a stored submission must get: the verdict its folder names (or several, or rules over
//! its cases from `submissions.yaml`), and the score it states. A package's reader and
//! judge.toml's stored submissions both say it; `verify` checks it.

use std::path::{Path, PathBuf};

use super::expectations::Expectations;
pub use super::expectations::EXPECTED;
use crate::verdict::Verdict;

/// A stored submission's `@EXPECTED_SCORE@` comment that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("`{}`: {source}", path.display())]
pub struct StatedScoreError {
    pub path: PathBuf,
    pub source: crate::score::ExpectedError,
}

/// The folder of stored submissions of a scored problem that score partially: more than 0,
/// less than the maximum (the verdict is any failure).
pub const PARTIALLY_ACCEPTED: &str = "partially_accepted";

/// What a `partially_accepted` submission of a scored problem must get: any verdict but a
/// compile or judge error (its grader may accept it, as problemtools' does oddecho's
/// `sol.py`), and a score strictly between 0 and the maximum, which is the real check.
pub fn partially_accepted() -> Expected {
    Expected::AnyOf {
        verdicts: EXPECTED
            .iter()
            .copied()
            .filter(|v| *v != Verdict::CompileError)
            .collect(),
        label: "partial".to_string(),
    }
}

/// What a stored submission must get.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// The verdict its folder names.
    One(Verdict),
    /// Any of these: a package format's folder that takes several (Kattis'
    /// `run_time_error` takes MLE and OLE, which the format does not have; `rejected` takes
    /// any failure), or DOMjudge's `@EXPECTED_RESULTS@` list. `label` is what the report shows.
    AnyOf {
        verdicts: Vec<Verdict>,
        label: String,
    },
    /// A folder the format does not define (`slow_accepted`): judged and shown, never a
    /// mismatch.
    Unchecked { folder: String },
    /// 2025-09 `submissions.yaml` rules: verdict sets over the cases (or some of them), a
    /// judge message; met or not by the whole run, not by its verdict alone.
    Rules {
        rules: std::sync::Arc<Expectations>,
        label: String,
    },
}

impl Expected {
    pub fn allows(&self, verdict: Verdict) -> bool {
        match self {
            Expected::One(expected) => *expected == verdict,
            Expected::AnyOf { verdicts, .. } => verdicts.contains(&verdict),
            Expected::Unchecked { .. } => true,
            Expected::Rules { rules, .. } => rules.may_end_with().contains(&verdict),
        }
    }

    /// The short form shown in the report's "expected" column.
    pub fn as_str(&self) -> &str {
        match self {
            Expected::One(verdict) => verdict.as_str(),
            Expected::AnyOf { label, .. } | Expected::Rules { label, .. } => label,
            Expected::Unchecked { .. } => "any",
        }
    }

    pub fn is_checked(&self) -> bool {
        !matches!(self, Expected::Unchecked { .. })
    }

    /// Where it sorts: accepted first, then the ways to fail, then the unchecked.
    pub(crate) fn rank(&self) -> usize {
        match self {
            Expected::One(verdict) => EXPECTED.iter().position(|v| v == verdict).unwrap_or(0),
            Expected::AnyOf { verdicts, .. } => verdicts
                .iter()
                .filter_map(|v| EXPECTED.iter().position(|e| e == v))
                .min()
                .unwrap_or(EXPECTED.len()),
            Expected::Unchecked { .. } => EXPECTED.len() + 1,
            Expected::Rules { rules, .. } => rules
                .may_end_with()
                .iter()
                .filter_map(|v| EXPECTED.iter().position(|e| e == v))
                .min()
                .unwrap_or(EXPECTED.len()),
        }
    }
}

impl From<Verdict> for Expected {
    fn from(verdict: Verdict) -> Self {
        Expected::One(verdict)
    }
}

impl PartialEq<Verdict> for Expected {
    fn eq(&self, other: &Verdict) -> bool {
        *self == Expected::One(*other)
    }
}

/// The score a stored submission states: judge.toml's `expected-scores` (keyed by its path
/// below the problem's folder), else its `@EXPECTED_SCORE@: ` comment, as DOMjudge reads it.
pub fn stated_score(
    table: &[(String, crate::score::ExpectedScore)],
    key: &str,
    source: &Path,
) -> Result<Option<crate::score::ExpectedScore>, StatedScoreError> {
    if let Some((_, score)) = table.iter().find(|(file, _)| file == key) {
        return Ok(Some(*score));
    }
    let Ok(text) = std::fs::read(source) else {
        // Unreadable sources are named when they are compiled.
        return Ok(None);
    };
    match crate::score::expected_score_annotation(&String::from_utf8_lossy(&text)) {
        Ok(Some(crate::score::Annotation::Score(score))) => {
            Ok(Some(crate::score::ExpectedScore::Exactly(score)))
        }
        Ok(_) => Ok(None),
        Err(source_error) => Err(StatedScoreError {
            path: source.to_path_buf(),
            source: source_error,
        }),
    }
}

/// A stored submission that was not judged, and why (a language this machine lacks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub name: String,
    pub reason: String,
}
