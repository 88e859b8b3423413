//! A contest day: every team's submissions judged once, and the scoreboard they make. The
//! rules come from contest.yaml (`rules`), the submissions from a CLICS package or a coach's
//! folders (`submissions`), the board is a pure function of both (`scoreboard`), and the CLICS
//! outputs (`clics`: scoreboard.json, event-feed.ndjson) are exporters of the finished day.
//! What each submission got is kept between runs (`cache`).

pub mod cache;
pub mod clics;
pub mod error;
pub mod rules;
pub mod scoreboard;
pub mod submissions;
pub mod time;

use cache::Judgement;
use rules::ContestInfo;
use scoreboard::{Board, Try, View};
use submissions::{Submission, Team};
use time::Millis;

/// What an accepted try on a problem with no scoring of its own is worth in a score contest:
/// a whole problem, as IOI and CMS count one (and as a scored problem's `total` defaults).
pub const PASS_FAIL_SCORE: f64 = 100.0;

/// One problem of the contest, as the outputs show it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemInfo {
    pub label: String,
    pub id: String,
    pub name: String,
    /// Its cases.
    pub cases: usize,
    pub time_limit_ms: u64,
    /// The most a submission scores (score contests).
    pub max_score: Option<f64>,
}

/// A language the day's submissions use.
#[derive(Debug, Clone, PartialEq)]
pub struct LanguageInfo {
    pub id: String,
    pub name: String,
    pub extensions: Vec<String>,
}

/// The judged day: every output is a function of it.
#[derive(Debug)]
pub struct Record<'a> {
    pub info: &'a ContestInfo,
    /// The contest's start (contest.yaml's, the submissions', else 1970-01-01T00:00:00Z).
    pub start: Millis,
    pub problems: Vec<ProblemInfo>,
    pub teams: &'a [Team],
    pub languages: Vec<LanguageInfo>,
    /// In submission order.
    pub submissions: &'a [Submission],
    /// The `i`-th submission's.
    pub judgements: Vec<Judgement>,
}

impl Record<'_> {
    /// The tries the scoreboard counts: every submission with its judgement.
    pub fn tries(&self) -> Vec<Try> {
        self.submissions
            .iter()
            .zip(&self.judgements)
            .map(|(s, j)| Try {
                team: s.team,
                problem: s.problem,
                time: s.time,
                verdict: j.verdict(),
                score: j.score.unwrap_or_else(|| {
                    if j.verdict().is_accepted() {
                        PASS_FAIL_SCORE
                    } else {
                        0.0
                    }
                }),
                subtasks: j.subtasks.clone(),
            })
            .collect()
    }

    pub fn board(&self, view: View) -> Board {
        let names: Vec<&str> = self.teams.iter().map(|t| t.name.as_str()).collect();
        scoreboard::board(
            &self.info.rules,
            &names,
            self.problems.len(),
            &self.tries(),
            view,
        )
    }

    /// When the contest ends, as an absolute time.
    pub fn end(&self) -> Millis {
        self.start + self.info.rules.duration
    }
}
