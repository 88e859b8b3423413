//! What `verify` gave for one stored submission: its report beside what it was expected to
//! get, and whether the two agree.

use super::submission::SubmissionReport;
use crate::package::expected::Expected;
use crate::verdict::Verdict;

/// One stored submission, judged.
#[derive(Debug, Clone)]
pub struct Verified {
    pub name: String,
    pub expected: Expected,
    pub report: SubmissionReport,
    /// The score it must get, when one is stated (`@EXPECTED_SCORE@`, judge.toml's
    /// `expected-scores`, submissions.yaml's `score`).
    pub expected_score: Option<crate::score::ExpectedScore>,
    /// Whether its score is the one expected (and, for a `partially_accepted` one, strictly
    /// between 0 and the maximum).
    pub score_check: crate::score::ScoreCheck,
}

impl Verified {
    /// It got the verdict it is stored under (an unchecked one always has), and the score
    /// expected of it.
    pub fn ok(&self) -> bool {
        self.expected.met_by(&self.report).is_ok()
            && self.score_check == crate::score::ScoreCheck::Ok
    }

    /// What the row means for the exit code: AC when it got its expected verdict, a judge
    /// error when the judge failed, otherwise the verdict it got (WA if it passed unexpectedly).
    pub fn as_outcome(&self) -> Verdict {
        match self.report.verdict {
            Verdict::JudgeError => Verdict::JudgeError,
            _ if self.ok() => Verdict::Accepted,
            Verdict::Accepted => Verdict::WrongAnswer,
            other => other,
        }
    }
}

impl Expected {
    /// Whether the judged submission meets what is expected of it, and why not.
    pub fn met_by(&self, report: &SubmissionReport) -> Result<(), String> {
        match self {
            Expected::Rules { rules, .. } => {
                let judged: Vec<crate::package::expectations::JudgedCase<'_>> = report
                    .outcomes
                    .iter()
                    .map(|o| crate::package::expectations::JudgedCase {
                        name: &o.case,
                        verdict: o.verdict,
                        message: &o.reason,
                    })
                    .collect();
                rules.check(report.compile.ok, &judged)
            }
            other if other.allows(report.verdict) => Ok(()),
            other => Err(format!("expected {}", other.as_str())),
        }
    }
}
