//! A contest day on the terminal: the scoreboard (one row per team, one cell per problem,
//! first solves starred, the freeze's pending tries and those the judge failed on shown as
//! such) and the debrief (each
//! team's tries in order, with its verdict and the case that decided it).

use std::io::{self, Write};

use super::style::{verdict_style, BOLD, DIM, GOOD, WARN};
use crate::contest::scoreboard::{Board, Cell, Kind, View};
use crate::contest::time::format_reltime;
use crate::contest::Record;

/// A score without the noise of its float: `100`, `37.5`.
fn score_text(score: f64) -> String {
    let text = format!("{score:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What one cell shows, and whether it is a solve (green), a first solve, or nothing.
fn cell_text(kind: Kind, cell: &Cell) -> String {
    let mut parts = Vec::new();
    match kind {
        Kind::PassFail => {
            if cell.solved {
                let minute = cell.time.unwrap_or(0) / 60_000;
                let tries = if cell.rejected > 0 {
                    cell.rejected.to_string()
                } else {
                    String::new()
                };
                parts.push(format!(
                    "+{tries} {minute}{}",
                    if cell.first { "*" } else { "" }
                ));
            } else if cell.judged > 0 {
                parts.push(format!("-{}", cell.judged));
            }
        }
        Kind::Score => {
            if cell.judged > 0 {
                parts.push(score_text(cell.score));
            }
        }
    }
    if cell.pending > 0 {
        parts.push(format!("?{}", cell.pending));
    }
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join(" ")
    }
}

/// `final scoreboard`, or `scoreboard at the freeze (2:00:00)`: the board's title.
pub fn which_board(record: &Record<'_>, board: &Board) -> String {
    let rules = &record.info.rules;
    match board.view {
        View::Final => "final scoreboard".to_string(),
        View::Frozen => format!(
            "scoreboard at the freeze ({})",
            format_reltime(rules.freeze_start().unwrap_or(rules.duration))
        ),
    }
}

/// The board, with a title saying which board it is and by which rules.
pub fn write_board(out: &mut dyn Write, record: &Record<'_>, board: &Board) -> io::Result<()> {
    let rules = &record.info.rules;
    let which = which_board(record, board);
    let how = match rules.kind {
        Kind::PassFail => format!(
            "pass-fail, {} minutes a rejected try",
            rules.penalty_minutes
        ),
        Kind::Score => match rules.score_by {
            crate::contest::scoreboard::ScoreBy::MaxSubtask => {
                "score: each subtask's best try, summed".to_string()
            }
            crate::contest::scoreboard::ScoreBy::BestSubmission => {
                "score: each problem's best try".to_string()
            }
        },
    };
    writeln!(out, "{BOLD}{}{BOLD:#}: {which} ({how})", record.info.name)?;
    let total_header = match rules.kind {
        Kind::PassFail => ["solved", "time"],
        Kind::Score => ["score", ""],
    };
    let mut table: Vec<Vec<String>> = vec![[
        vec!["rank".to_string(), "team".to_string()],
        total_header.iter().map(ToString::to_string).collect(),
        record.problems.iter().map(|p| p.label.clone()).collect(),
    ]
    .concat()];
    for row in &board.rows {
        let totals = match rules.kind {
            Kind::PassFail => vec![row.solved.to_string(), row.total_minutes.to_string()],
            Kind::Score => vec![score_text(row.score), String::new()],
        };
        let cells = row.cells.iter().map(|c| cell_text(rules.kind, c));
        table.push(
            [
                vec![row.rank.to_string(), record.teams[row.team].name.clone()],
                totals,
                cells.collect(),
            ]
            .concat(),
        );
    }
    let columns = table[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (i, line) in table.iter().enumerate() {
        let mut text = String::new();
        for (c, value) in line.iter().enumerate() {
            // The last column unpadded: no trailing blanks.
            let pad = if c + 1 == columns {
                0
            } else {
                widths[c] - value.chars().count()
            };
            // Numbers to the right, names and cells to the left.
            let padded = if c == 0 || c == 2 || c == 3 {
                format!("{}{value}", " ".repeat(pad))
            } else {
                format!("{value}{}", " ".repeat(pad))
            };
            let style = match (i, c) {
                (0, _) => BOLD,
                (_, c) if c >= 4 => {
                    let cell = &board.rows[i - 1].cells[c - 4];
                    if cell.first {
                        GOOD.bold()
                    } else if cell.solved {
                        GOOD
                    } else if cell.pending > 0 {
                        WARN
                    } else if cell.judged > 0 {
                        verdict_style(crate::verdict::Verdict::WrongAnswer)
                    } else {
                        DIM
                    }
                }
                _ => anstyle::Style::new(),
            };
            if c > 0 {
                text.push_str("  ");
            }
            text.push_str(&format!("{style}{padded}{style:#}"));
        }
        writeln!(out, "{}", text.trim_end())?;
    }
    let legend = match rules.kind {
        Kind::PassFail => "+N M: solved at minute M after N rejected tries (* first to solve); -N: N rejected tries",
        Kind::Score => "the problem's score",
    };
    let failed = board
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .any(|c| c.failed > 0);
    let pending = match (board.view, failed) {
        (View::Frozen, false) => "; ?N: N tries sent during the freeze",
        (View::Frozen, true) => {
            "; ?N: N tries sent during the freeze, or the judge failed on (JE: no result until judged again)"
        }
        (View::Final, true) => {
            "; ?N: N tries the judge failed on (JE: no result until judged again, no penalty)"
        }
        (View::Final, false) => "",
    };
    writeln!(out, "{DIM}{legend}{pending}{DIM:#}")
}

/// Each team's tries in order: when, which problem, the verdict (and score), the file, and
/// the case that decided it.
pub fn write_debrief(out: &mut dyn Write, record: &Record<'_>) -> io::Result<()> {
    for (index, team) in record.teams.iter().enumerate() {
        writeln!(out)?;
        writeln!(out, "{BOLD}{}{BOLD:#}", team.name)?;
        let mut any = false;
        for (submission, judgement) in record
            .submissions
            .iter()
            .zip(&record.judgements)
            .filter(|(s, _)| s.team == index)
        {
            any = true;
            let verdict = judgement.verdict();
            let style = verdict_style(verdict);
            let score = judgement
                .score
                .map(|s| format!(" {}", score_text(s)))
                .unwrap_or_default();
            let failing = judgement
                .failing
                .as_ref()
                .map(|(case, why)| format!("  first failing case `{case}`: {why}"))
                .unwrap_or_default();
            writeln!(
                out,
                "  {}  {}  {style}{:<3}{style:#}{score}  {}{failing}",
                format_reltime(submission.time),
                record.problems[submission.problem].label,
                verdict.as_str(),
                submission.shown,
            )?;
        }
        if !any {
            writeln!(out, "  {DIM}no submissions{DIM:#}")?;
        }
    }
    Ok(())
}
