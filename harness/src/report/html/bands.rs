//! The column bands of a scored problem's matrix, as CMS and DOMjudge scoreboards show
//! subtasks: the case columns grouped under a band per group (its name and points), and per
//! submission the points it got in each band, a failing one marked. A band is a run of
//! adjacent columns whose cases sit in the same innermost group; cases directly under the top
//! group (Luogu's test points, samples) make a band of their own.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::page::esc;
use crate::judge::scoring::SubmissionScore;
use crate::judge::submission::SubmissionReport;
use crate::judge::CaseOutcome;
use crate::score::{format_score, Group, GroupState, Item, Scoring};
use crate::text::plural;
use crate::verdict::Verdict;

/// What a band stands for.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Kind {
    /// A group of the scoring (any depth: the innermost one holding the cases).
    Group,
    /// Cases directly under the top group, each scored on its own (`scoring = "points"`).
    TopCases,
    /// Cases worth nothing (samples) or not in the scoring at all.
    Unscored,
}

/// A run of adjacent case columns under one heading.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Band {
    /// The group's name; for the top group's cases a name of the page's own.
    pub name: String,
    pub kind: Kind,
    /// The most its cases can score together; `None` for no score or no bound.
    pub max: Option<f64>,
    /// Its first column (an index into the matrix's cases) and how many it spans.
    pub start: usize,
    pub len: usize,
}

impl Band {
    fn cases<'a>(&self, cases: &'a [String]) -> &'a [String] {
        &cases[self.start..self.start + self.len]
    }
}

/// The bands over `cases` (the matrix's columns, in order) by `scoring`; none for a
/// pass-fail problem, or a scored one with a single band (nothing to group).
pub(super) fn bands(scoring: &Scoring, cases: &[String]) -> Vec<Band> {
    if !scoring.is_scored() {
        return Vec::new();
    }
    let mut holder: HashMap<&str, &Group> = HashMap::new();
    innermost(scoring.root(), &mut holder);
    let root = scoring.root();
    let mut bands: Vec<Band> = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let group = holder.get(case.as_str()).copied();
        let rule = scoring.case(case);
        let worth = rule.and_then(crate::score::CaseRule::max_score);
        let (name, kind) = match group {
            Some(group) if !std::ptr::eq(group, root) => (group.name.clone(), Kind::Group),
            Some(_) if worth.is_some_and(|w| w > 0.0) => {
                ("points per case".to_string(), Kind::TopCases)
            }
            // Samples are worth nothing; a case the rules do not know is not scored.
            _ if worth.is_some() => ("samples".to_string(), Kind::Unscored),
            _ => ("not scored".to_string(), Kind::Unscored),
        };
        match bands.last_mut() {
            Some(last) if last.name == name && last.kind == kind => {
                last.len += 1;
                if kind == Kind::TopCases {
                    last.max = last.max.zip(worth).map(|(a, b)| a + b);
                }
            }
            _ => bands.push(Band {
                max: match kind {
                    Kind::Group => group.and_then(|g| g.max_score),
                    Kind::TopCases => worth,
                    Kind::Unscored => None,
                },
                name,
                kind,
                start: index,
                len: 1,
            }),
        }
    }
    if bands.len() < 2 {
        return Vec::new();
    }
    bands
}

/// For every case under `group`, the innermost group holding it.
fn innermost<'a>(group: &'a Group, holder: &mut HashMap<&'a str, &'a Group>) {
    for item in &group.items {
        match item {
            Item::Case(case) => {
                holder.insert(&case.name, group);
            }
            Item::Group(inner) => innermost(inner, holder),
        }
    }
}

/// How a submission did in a band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Standing {
    /// Every case accepted.
    Passed,
    /// Some points, not all.
    Partial,
    /// A case failed, and the band scored nothing.
    Failed,
    /// Not judged: a group it depends on failed, or its group stopped earlier.
    Skipped,
    /// No score to show: the submission did not compile, or not every case was judged.
    Unknown,
}

impl Standing {
    fn class(self) -> &'static str {
        match self {
            Standing::Passed => "pass",
            Standing::Partial => "partial",
            Standing::Failed => "fail",
            Standing::Skipped => "skip",
            Standing::Unknown => "unknown",
        }
    }
}

/// The thead row of band headings: `group · 30 points` over its columns. `lead` is how many
/// header cells come before the first case column.
pub(super) fn heading_row(html: &mut String, bands: &[Band], lead: usize, cases: &[String]) {
    html.push_str("<tr class=\"bands\"><th class=\"sub\">groups</th>");
    if lead > 1 {
        let _ = write!(html, "<th colspan=\"{}\"></th>", lead - 1);
    }
    for band in bands {
        let points = band.max.map(|max| format!(" · {}", format_score(max)));
        let what = match band.kind {
            Kind::Group => format!("group `{}`", band.name),
            Kind::TopCases => "cases each scored on their own".to_string(),
            Kind::Unscored => "cases worth no points".to_string(),
        };
        let cases = band.cases(cases);
        let _ = write!(
            html,
            "<th class=\"group{}\" colspan=\"{}\" data-group=\"{}\" title=\"{}: {}{}\">{}{}</th>",
            if band.start > 0 { " band" } else { "" },
            band.len,
            esc(&band.name),
            esc(&what),
            plural(cases.len(), "case"),
            band.max.map_or(String::new(), |max| format!(
                ", worth {} points",
                format_score(max)
            )),
            esc(&band.name),
            points.unwrap_or_default()
        );
    }
    html.push_str("</tr>");
}

/// The row under a submission's verdicts: the points it got in each band.
pub(super) fn points_row(
    html: &mut String,
    label: &str,
    bands: &[Band],
    lead: usize,
    cases: &[String],
    report: &SubmissionReport,
) {
    let _ = write!(
        html,
        "<tr class=\"points\" data-points-of=\"{}\"><th class=\"sub muted\">points</th>",
        esc(label)
    );
    let by_case = crate::results::case::by_case(&report.outcomes);
    let cells: Vec<(Standing, Option<f64>, String)> = bands
        .iter()
        .map(|band| {
            let (standing, got, why) = standing(band, cases, report, &by_case);
            let title = match (got, band.max) {
                (Some(got), Some(max)) => format!(
                    "{}: {} of {} points — {why}",
                    band.name,
                    format_score(got),
                    format_score(max)
                ),
                (Some(got), None) => {
                    format!("{}: {} points — {why}", band.name, format_score(got))
                }
                (None, _) => format!("{}: {why}", band.name),
            };
            (standing, got, title)
        })
        .collect();
    // Beside the verdicts, every group's points at once: the bands of a large matrix run off
    // to the right.
    if lead > 1 {
        let _ = write!(html, "<td class=\"head chips\" colspan=\"{}\">", lead - 1);
        for (band, (standing, got, title)) in bands.iter().zip(&cells) {
            let _ = write!(
                html,
                "<span class=\"chip {}\" title=\"{}\">{}{}</span>",
                standing.class(),
                esc(title),
                esc(&band.name),
                got.map_or(String::new(), |got| format!(" {}", format_score(got)))
            );
        }
        html.push_str("</td>");
    }
    for (band, (standing, got, title)) in bands.iter().zip(cells) {
        let text = got.map_or(String::new(), format_score);
        let _ = write!(
            html,
            "<td class=\"pts {}{}\" colspan=\"{}\" data-group=\"{}\" data-standing=\"{}\"{} title=\"{}\">{}</td>",
            standing.class(),
            if band.start > 0 { " band" } else { "" },
            band.len,
            esc(&band.name),
            standing.class(),
            got.map_or(String::new(), |g| format!(" data-points=\"{}\"", format_score(g))),
            esc(&title),
            esc(&text)
        );
    }
    html.push_str("</tr>");
}

/// How `report` did in `band`: its standing, its points there (when it has a score) and why,
/// in words.
fn standing(
    band: &Band,
    cases: &[String],
    report: &SubmissionReport,
    by_case: &HashMap<&str, &CaseOutcome>,
) -> (Standing, Option<f64>, String) {
    if !report.compile.ok {
        return (Standing::Unknown, None, "did not compile".to_string());
    }
    let sheet = match &report.score {
        Some(SubmissionScore::Sheet(sheet)) => sheet,
        Some(SubmissionScore::Incomplete { reason, .. }) => {
            return (Standing::Unknown, None, format!("no score: {reason}"));
        }
        None => return (Standing::Unknown, None, "no score".to_string()),
    };
    if band.kind == Kind::Group {
        let Some(group) = sheet.groups.iter().find(|g| g.name == band.name) else {
            return (
                Standing::Unknown,
                None,
                "not in the score sheet".to_string(),
            );
        };
        return match (&group.state, group.verdict) {
            (GroupState::Blocked { by }, _) => (
                Standing::Skipped,
                group.score,
                format!("not judged: it depends on `{by}`, which failed"),
            ),
            (GroupState::NotReached, _) => (
                Standing::Skipped,
                group.score,
                "not judged: the group holding it stopped at an earlier failure".to_string(),
            ),
            (_, Some(Verdict::Accepted)) => (Standing::Passed, group.score, "AC".to_string()),
            (_, Some(verdict)) => (
                if group.score.is_some_and(|s| s > 0.0) {
                    Standing::Partial
                } else {
                    Standing::Failed
                },
                group.score,
                format!(
                    "{}{}",
                    verdict.as_str(),
                    group
                        .first_failure
                        .as_ref()
                        .map_or(String::new(), |case| format!(" on {case}"))
                ),
            ),
            (_, None) => (Standing::Unknown, group.score, "no cases".to_string()),
        };
    }
    // The top group's own cases: their points summed, their verdicts together.
    let mut got: Option<f64> = None;
    let mut first_failure: Option<&CaseOutcome> = None;
    let mut judged = 0;
    for case in band.cases(cases) {
        let Some(outcome) = by_case.get(case.as_str()) else {
            continue;
        };
        judged += 1;
        if let Some(score) = outcome.score {
            got = Some(got.unwrap_or(0.0) + score);
        }
        if !outcome.verdict.is_accepted() && first_failure.is_none() {
            first_failure = Some(outcome);
        }
    }
    if band.kind == Kind::Unscored {
        got = None;
    }
    match first_failure {
        None if judged == band.len => (Standing::Passed, got, "AC".to_string()),
        None => (
            Standing::Skipped,
            got,
            format!("{} of {} cases judged", judged, band.len),
        ),
        Some(failure) => (
            if got.is_some_and(|g| g > 0.0) {
                Standing::Partial
            } else {
                Standing::Failed
            },
            got,
            format!("{} on {}", failure.verdict.as_str(), failure.case),
        ),
    }
}
