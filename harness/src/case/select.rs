//! Choosing which cases to judge: by name or glob (`-c sample-*`). The other two ways to
//! narrow a run live beside it: `partition` (`--partition K/N`) and `failures` (`--failed`).

use globset::{Glob, GlobMatcher};

use super::discover::Case;

#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    #[error("`{pattern}` is not a case pattern: {message}")]
    BadPattern { pattern: String, message: String },
    #[error("no case matches `{pattern}` (hint: case names are file names without `.in`, like `sample-1`)")]
    NoCaseMatches { pattern: String },
}

/// A case name or glob (`sample-*`, `all-0??`), checked before anything runs.
#[derive(Debug, Clone)]
pub struct CasePattern {
    pattern: String,
    matcher: GlobMatcher,
}

impl CasePattern {
    pub fn new(pattern: &str) -> Result<CasePattern, SelectError> {
        let glob = Glob::new(pattern).map_err(|error| SelectError::BadPattern {
            pattern: pattern.to_string(),
            message: error.kind().to_string(),
        })?;
        Ok(CasePattern {
            pattern: pattern.to_string(),
            matcher: glob.compile_matcher(),
        })
    }

    pub fn matches(&self, case: &Case) -> bool {
        self.matcher.is_match(&case.name)
    }

    /// Keeps the matching cases.
    pub fn retain(&self, cases: &mut Vec<Case>) {
        cases.retain(|case| self.matches(case));
    }

    /// The error for a pattern that matched nothing, anywhere it was tried.
    pub fn matched_nothing(&self) -> SelectError {
        SelectError::NoCaseMatches {
            pattern: self.pattern.clone(),
        }
    }
}
