//! The score parts of the terminal report: `score 70/100` beside a verdict, a line per group
//! (its points, its verdict, its first failing case or why it was not judged), and `verify`'s
//! table of stored submissions × groups, as problemtools' "Submission results".

use std::io::{self, Write};

use super::style::{verdict_style, BOLD, DIM};
use crate::judge::scoring::SubmissionScore;
use crate::judge::verify::Verified;
use crate::score::{format_score, GroupScore, GroupState};
use crate::verdict::Verdict;

/// `70/100`, or `70` when there is no bound.
pub fn points(score: Option<f64>, max: Option<f64>) -> String {
    let score = score.map_or_else(|| "-".to_string(), format_score);
    match max {
        Some(max) => format!("{score}/{}", format_score(max)),
        None => score,
    }
}

/// `score 70/100`, or `no score (…)` when not every case it needs was judged.
pub fn score_text(score: &SubmissionScore) -> String {
    match score {
        SubmissionScore::Sheet(sheet) => {
            let score = format!("score {}", points(sheet.score, sheet.max_score));
            // No group's line shows the total's own fault: it is said here, beside the JE.
            match sheet.total_fault() {
                Some(fault) => format!("{score} ({fault})"),
                None => score,
            }
        }
        SubmissionScore::Incomplete { max_score, .. } => format!(
            "score {} (not every case it needs was judged)",
            points(None, *max_score)
        ),
    }
}

/// Why a group has no verdict of its own.
fn not_judged(group: &GroupScore) -> String {
    match &group.state {
        GroupState::Blocked { by } => format!("not judged: `{by}` did not pass"),
        GroupState::NotReached => "not judged: stopped at an earlier failure".to_string(),
        GroupState::Empty => "no cases".to_string(),
        GroupState::Judged => String::new(),
    }
}

/// A line per group, under a judged submission:
/// `  small    20/20  AC` / `  medium    0/30  WA  first failing case: medium-03`.
pub fn write_groups(out: &mut dyn Write, score: &SubmissionScore) -> io::Result<()> {
    let groups = score.groups();
    if groups.is_empty() {
        return Ok(());
    }
    let width = groups
        .iter()
        .map(|g| g.name.chars().count() + 2 * g.depth)
        .max()
        .unwrap_or(0)
        .max("group".len());
    let shown: Vec<String> = groups
        .iter()
        .map(|g| points(g.score, g.max_score))
        .collect();
    let points_width = shown
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max("points".len());
    writeln!(
        out,
        "  {DIM}{:<width$}  {:>points_width$}  verdict{DIM:#}",
        "group", "points"
    )?;
    for (group, shown) in groups.iter().zip(&shown) {
        let name = format!("{}{}", "  ".repeat(group.depth), group.name);
        write!(out, "  {name:<width$}  {shown:>points_width$}  ")?;
        match group.verdict {
            Some(verdict) => {
                let style = verdict_style(verdict);
                write!(out, "{style}{}{style:#}", verdict.as_str())?;
                if let Some(case) = &group.first_failure {
                    write!(out, "  first failing case: {case}")?;
                }
            }
            None => write!(out, "{DIM}{}{DIM:#}", not_judged(group))?,
        }
        if let Some(fault) = &group.fault {
            let style = verdict_style(Verdict::JudgeError);
            write!(out, "  {style}{fault}{style:#}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// `verify`'s last table, for the stored submissions of scored problems: a row per
/// submission, a column per group (top-level groups only), with the points of each and the
/// total, as problemtools' "Submission results".
pub fn write_results_table(out: &mut dyn Write, results: &[&Verified]) -> io::Result<()> {
    let scored: Vec<&&Verified> = results
        .iter()
        .filter(|r| r.report.score.is_some())
        .collect();
    if scored.is_empty() {
        return Ok(());
    }
    // One table per problem: the groups differ.
    let mut start = 0;
    while start < scored.len() {
        let problem = &scored[start].report.problem;
        let end = scored[start..]
            .iter()
            .position(|r| &r.report.problem != problem)
            .map_or(scored.len(), |n| start + n);
        write_problem_table(out, problem, &scored[start..end])?;
        start = end;
    }
    Ok(())
}

fn write_problem_table(
    out: &mut dyn Write,
    problem: &str,
    results: &[&&Verified],
) -> io::Result<()> {
    // The groups, from the first submission with a sheet (every sheet of a problem has them).
    let columns: Vec<(String, Option<f64>)> = results
        .iter()
        .find_map(|r| r.report.score.as_ref().and_then(SubmissionScore::sheet))
        .map(|sheet| {
            sheet
                .groups
                .iter()
                .filter(|g| g.depth == 0)
                .map(|g| (g.name.clone(), g.max_score))
                .collect()
        })
        .unwrap_or_default();
    let name_width = results
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max("submission".len());
    let headers: Vec<String> = columns
        .iter()
        .map(|(name, max)| match max {
            Some(max) => format!("{name} ({})", format_score(*max)),
            None => name.clone(),
        })
        .collect();
    let widths: Vec<usize> = headers.iter().map(|h| h.chars().count().max(5)).collect();
    writeln!(out)?;
    writeln!(out, "{BOLD}submission results: {problem}{BOLD:#}")?;
    write!(out, "{BOLD}{:<name_width$}", "submission")?;
    for (header, width) in headers.iter().zip(&widths) {
        write!(out, "  {header:>width$}")?;
    }
    writeln!(out, "  {:>9}  expected{BOLD:#}", "total")?;
    for result in results {
        write!(out, "{:<name_width$}", result.name)?;
        let sheet = result
            .report
            .score
            .as_ref()
            .and_then(SubmissionScore::sheet);
        for ((name, _), width) in columns.iter().zip(&widths) {
            let cell = sheet
                .and_then(|s| s.groups.iter().find(|g| g.depth == 0 && &g.name == name))
                .map_or_else(
                    || "-".to_string(),
                    |g| g.score.map_or_else(|| "-".to_string(), format_score),
                );
            write!(out, "  {cell:>width$}")?;
        }
        let total = result
            .report
            .score
            .as_ref()
            .map_or_else(String::new, |s| points(s.score(), s.max_score()));
        let expected = match (&result.expected_score, result.expected.as_str()) {
            (Some(score), _) => score.to_string(),
            (None, "partial") => "partial".to_string(),
            (None, _) => String::new(),
        };
        let style = if result.score_check == crate::score::ScoreCheck::Ok {
            verdict_style(Verdict::Accepted)
        } else {
            verdict_style(Verdict::WrongAnswer)
        };
        let line = format!("  {style}{total:>9}{style:#}  {expected}");
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
