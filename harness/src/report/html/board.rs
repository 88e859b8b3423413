//! A contest day's scoreboard as one self-contained page (`harness contest --html FILE`): the
//! board in ICPC colours (DOMjudge's: solved, first to solve, rejected, pending in the
//! freeze), then each team's tries with their verdicts and the first failing case, each
//! board cell linking to its team's tries. An exporter of the finished day: a pure function of
//! the record and its board. Nothing is fetched; every string that is not this file's own
//! goes through `esc`.

use std::fmt::Write as _;

use super::file::MARKER;
use super::page::{esc, verdict_class, STYLE};
use crate::atomic::Report;
use crate::contest::scoreboard::{Board, Cell, Kind, ScoreBy, View};
use crate::contest::time::format_reltime;
use crate::contest::Record;

/// The scoreboard page as a file the user names: an earlier page (or HTML report) is
/// replaced, nothing else without `--force`.
pub const BOARD_PAGE: Report = Report {
    what: "the scoreboard page",
    option: "--html",
    example: "scoreboard.html",
    marker: MARKER,
};

/// The board's own colours, those of DOMjudge's scoreboard (`score_correct`, `score_first`,
/// `score_incorrect`, `score_pending`), kept in dark mode: a coach projects the board and
/// teams know these colours.
const BOARD_STYLE: &str = r#"
.board td, .board th { padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--line); text-align: left; }
.board td.cell { min-width: 4.2em; text-align: center; border: 2px solid var(--bg); color: #000; }
.board td.cell a { color: inherit; text-decoration: none; display: block; }
.board td.solved { background: #60e760; }
.board td.first { background: #1daa1d; font-weight: 700; }
.board td.rejected { background: #e87272; }
.board td.partial { background: #f0d060; }
.board td.pending { background: #6666ff; color: #fff; }
.board td.empty { background: var(--none); color: var(--muted); }
.board td.cell small { display: block; font-size: 10px; }
.legend .sw.solved { background: #60e760; } .legend .sw.first { background: #1daa1d; }
.legend .sw.rejected { background: #e87272; } .legend .sw.partial { background: #f0d060; }
.legend .sw.pending { background: #6666ff; }
.tries td, .tries th { padding: 0.15rem 0.6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
.tries td.why { max-width: 40em; }
"#;

/// A score without the noise of its float: `100`, `37.5`.
fn score_text(score: f64) -> String {
    let text = format!("{score:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The class of a cell's colour and what it says: the solve's minute and tries, a score, the
/// rejected tries, the pending ones.
fn cell(kind: Kind, cell: &Cell, max_score: Option<f64>) -> (&'static str, String) {
    // Which of the pending tries the judge failed on, said where there is room for it.
    let failed = match cell.failed {
        0 => String::new(),
        n if n == cell.pending => " JE".to_string(),
        n => format!(" ({n} JE)"),
    };
    let pending = if cell.pending > 0 {
        format!("<small>?{}{failed}</small>", cell.pending)
    } else {
        String::new()
    };
    let tries = |n: usize| {
        if n == 1 {
            "1 try".to_string()
        } else {
            format!("{n} tries")
        }
    };
    let (class, main) = match kind {
        Kind::PassFail if cell.solved => (
            if cell.first { "first" } else { "solved" },
            format!(
                "{}<small>{}</small>",
                cell.time.unwrap_or(0) / 60_000,
                tries(cell.rejected + 1)
            ),
        ),
        Kind::PassFail if cell.judged > 0 => {
            ("rejected", format!("<small>{}</small>", tries(cell.judged)))
        }
        Kind::Score if cell.judged > 0 => {
            let full = max_score.is_some_and(|max| cell.score >= max - 1e-9);
            let class = if full {
                "solved"
            } else if cell.score > 0.0 {
                "partial"
            } else {
                "rejected"
            };
            (class, score_text(cell.score))
        }
        _ if cell.pending > 0 => ("pending", String::new()),
        _ => ("empty", String::new()),
    };
    // A cell with tries in the freeze is blue, whatever came before, as on a frozen board.
    let class = if cell.pending > 0 { "pending" } else { class };
    (class, format!("{main}{pending}"))
}

/// The whole page of `board`.
pub fn page(record: &Record<'_>, board: &Board) -> String {
    let rules = &record.info.rules;
    let mut html = String::with_capacity(32 * 1024);
    let name = &record.info.name;
    let which = crate::report::scoreboard::which_board(record, board);
    let how = match (rules.kind, rules.score_by) {
        (Kind::PassFail, _) => format!(
            "pass-fail: problems solved, then penalty minutes ({} a rejected try), then the last solve",
            rules.penalty_minutes
        ),
        (Kind::Score, ScoreBy::MaxSubtask) => {
            "score: each subtask's best try, summed".to_string()
        }
        (Kind::Score, ScoreBy::BestSubmission) => "score: each problem's best try".to_string(),
    };
    let _ = write!(
        html,
        "{MARKER}\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
         <meta name=\"generator\" content=\"harness {}\"/>\
         <title>{} — {}</title><style>{STYLE}{BOARD_STYLE}</style></head>\n<body>\n\
         <header><h1>{}</h1><p class=\"context\"><span>{}</span><span>{}</span><span>{} long</span></p></header>\n",
        env!("CARGO_PKG_VERSION"),
        esc(name),
        esc(&which),
        esc(name),
        esc(&which),
        esc(&how),
        esc(&format_reltime(rules.duration)),
    );
    board_table(&mut html, record, board);
    let failed = board
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .any(|c| c.failed > 0);
    legend(&mut html, rules.kind, board.view, failed);
    tries(&mut html, record, board);
    html.push_str("</body></html>\n");
    html
}

fn board_table(html: &mut String, record: &Record<'_>, board: &Board) {
    let kind = record.info.rules.kind;
    html.push_str("<div class=\"scroll\"><table class=\"board\" id=\"board\"><thead><tr><th class=\"num\">rank</th><th>team</th>");
    match kind {
        Kind::PassFail => html.push_str("<th class=\"num\">solved</th><th class=\"num\">time</th>"),
        Kind::Score => html.push_str("<th class=\"num\">score</th>"),
    }
    for problem in &record.problems {
        let _ = write!(
            html,
            "<th class=\"cell\" title=\"{}\">{}</th>",
            esc(&problem.name),
            esc(&problem.label)
        );
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in &board.rows {
        let team = &record.teams[row.team];
        let _ = write!(
            html,
            "<tr data-team=\"{}\"><td class=\"num\">{}</td><td><a href=\"#team-{}\">{}</a></td>",
            esc(&team.id),
            row.rank,
            row.team,
            esc(&team.name)
        );
        match kind {
            Kind::PassFail => {
                let _ = write!(
                    html,
                    "<td class=\"num\">{}</td><td class=\"num\">{}</td>",
                    row.solved, row.total_minutes
                );
            }
            Kind::Score => {
                let _ = write!(html, "<td class=\"num\">{}</td>", score_text(row.score));
            }
        }
        for (index, (c, problem)) in row.cells.iter().zip(&record.problems).enumerate() {
            let (class, text) = cell(kind, c, problem.max_score);
            let _ = write!(
                html,
                "<td class=\"cell {class}\" data-problem=\"{}\"><a href=\"#team-{}-{index}\">{text}</a></td>",
                esc(&problem.label),
                row.team,
            );
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody></table></div>\n");
}

/// `failed`: some try has no result, the judge having failed on it.
fn legend(html: &mut String, kind: Kind, view: View, failed: bool) {
    html.push_str("<p class=\"legend\">");
    match kind {
        Kind::PassFail => html.push_str(
            "<span class=\"sw first\"></span> first to solve · <span class=\"sw solved\"></span> solved (the minute, and the tries it took) · <span class=\"sw rejected\"></span> tried, not solved",
        ),
        Kind::Score => html.push_str(
            "<span class=\"sw solved\"></span> full score · <span class=\"sw partial\"></span> part of it · <span class=\"sw rejected\"></span> nothing",
        ),
    }
    match (view, failed) {
        (View::Frozen, false) => html.push_str(" · <span class=\"sw pending\"></span> ?N: tries sent during the freeze, their results hidden"),
        (View::Frozen, true) => html.push_str(" · <span class=\"sw pending\"></span> ?N: tries sent during the freeze, their results hidden, or the judge failed on (JE)"),
        (View::Final, true) => html.push_str(" · <span class=\"sw pending\"></span> ?N: tries the judge failed on (JE): no result until judged again, no penalty"),
        (View::Final, false) => {}
    }
    html.push_str("</p>\n");
}

/// Each team's tries, grouped by problem: when, the verdict (hidden in the freeze), the score,
/// the file, and the first failing case with why it failed.
fn tries(html: &mut String, record: &Record<'_>, board: &Board) {
    let hidden_from = match board.view {
        View::Final => None,
        View::Frozen => record.info.rules.freeze_start(),
    };
    html.push_str("<h2>Each team's tries</h2>\n");
    for row in &board.rows {
        let team = row.team;
        let _ = write!(
            html,
            "<section class=\"team\" id=\"team-{team}\"><h3>{}</h3>",
            esc(&record.teams[team].name)
        );
        let mine: Vec<usize> = (0..record.submissions.len())
            .filter(|&i| record.submissions[i].team == team)
            .collect();
        if mine.is_empty() {
            html.push_str("<p class=\"muted\">no submissions</p></section>\n");
            continue;
        }
        for (index, problem) in record.problems.iter().enumerate() {
            let on: Vec<usize> = mine
                .iter()
                .copied()
                .filter(|&i| record.submissions[i].problem == index)
                .collect();
            if on.is_empty() {
                continue;
            }
            let _ = write!(
                html,
                "<h4 id=\"team-{team}-{index}\">{} · {}</h4><table class=\"tries\"><tbody>",
                esc(&problem.label),
                esc(&problem.name)
            );
            for i in on {
                let submission = &record.submissions[i];
                let judgement = &record.judgements[i];
                let _ = write!(
                    html,
                    "<tr id=\"submission-{}\"><td class=\"mono\">{}</td>",
                    esc(&submission.id),
                    esc(&format_reltime(submission.time))
                );
                if hidden_from.is_some_and(|from| submission.time >= from) {
                    let _ = write!(
                        html,
                        "<td><span class=\"badge v-ran\">?</span></td><td></td><td class=\"mono\">{}</td><td class=\"why muted\">sent during the freeze</td></tr>",
                        esc(&submission.shown)
                    );
                    continue;
                }
                let verdict = judgement.verdict();
                let score = judgement.score.map(score_text).unwrap_or_default();
                let why = judgement
                    .failing
                    .as_ref()
                    .map(|(case, why)| {
                        format!(
                            "first failing case <code>{}</code>: {}",
                            esc(case),
                            esc(why)
                        )
                    })
                    .unwrap_or_default();
                let _ = write!(
                    html,
                    "<td><span class=\"badge {}\">{}</span></td><td class=\"num\">{}</td><td class=\"mono\">{}</td><td class=\"why\">{why}</td></tr>",
                    verdict_class(verdict),
                    verdict.as_str(),
                    esc(&score),
                    esc(&submission.shown)
                );
            }
            html.push_str("</tbody></table>");
        }
        html.push_str("</section>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::cache::Judgement;
    use crate::contest::rules::ContestInfo;
    use crate::contest::scoreboard::Rules;
    use crate::contest::submissions::{Submission, Team};
    use crate::contest::ProblemInfo;

    fn judgement(verdict: &str, failing: Option<(&str, &str)>) -> Judgement {
        Judgement {
            verdict: verdict.to_string(),
            score: None,
            subtasks: Vec::new(),
            failing: failing.map(|(c, w)| (c.to_string(), w.to_string())),
            runs: Vec::new(),
        }
    }

    fn submission(id: &str, team: usize, minute: i64, shown: &str) -> Submission {
        Submission {
            id: id.to_string(),
            team,
            problem: 0,
            language: "python".to_string(),
            time: minute * 60_000,
            source: std::path::PathBuf::from(shown),
            shown: shown.to_string(),
        }
    }

    /// Two teams on one problem: `<b>` solves at 10 after a WA whose reason holds markup; eve
    /// (`"e&v"`) sends her only try in the freeze.
    fn page_of(view: View) -> String {
        let info = ContestInfo {
            id: "c".to_string(),
            name: "Club <Night>".to_string(),
            start: None,
            rules: Rules {
                kind: Kind::PassFail,
                penalty_minutes: 20,
                duration: 60 * 60_000,
                freeze: Some(20 * 60_000),
                score_by: ScoreBy::MaxSubtask,
            },
        };
        let teams = [
            Team {
                id: "t1".to_string(),
                name: "<b>".to_string(),
            },
            Team {
                id: "t2".to_string(),
                name: "e&v".to_string(),
            },
        ];
        let submissions = [
            submission("1", 0, 5, "b/A.py"),
            submission("2", 0, 10, "b/A-2.py"),
            submission("3", 1, 50, "e/A.py"),
        ];
        let record = Record {
            info: &info,
            start: 0,
            problems: vec![ProblemInfo {
                label: "A".to_string(),
                id: "hello".to_string(),
                name: "Hello".to_string(),
                cases: 1,
                time_limit_ms: 1000,
                max_score: Some(100.0),
            }],
            teams: &teams,
            languages: Vec::new(),
            submissions: &submissions,
            judgements: vec![
                judgement("WA", Some(("sample/1", "expected <hello>, found \"bye\""))),
                judgement("AC", None),
                judgement("AC", None),
            ],
        };
        page(&record, &record.board(view))
    }

    #[test]
    fn the_page_holds_the_board_in_its_colours_and_each_try_escaped() {
        let html = page_of(View::Final);
        assert!(html.starts_with(MARKER));
        assert!(html.contains("<title>Club &lt;Night&gt; — final scoreboard</title>"));
        // The first solve, in its colour, linking to the team's tries on A.
        assert!(
            html.contains("<td class=\"cell first\" data-problem=\"A\"><a href=\"#team-0-0\">10<small>2 tries</small></a></td>"),
            "{html}"
        );
        assert!(html.contains("<a href=\"#team-0\">&lt;b&gt;</a>"));
        assert!(html.contains("<a href=\"#team-1\">e&amp;v</a>"));
        assert!(html.contains("<h4 id=\"team-0-0\">A · Hello</h4>"));
        assert!(html.contains(
            "first failing case <code>sample/1</code>: expected &lt;hello&gt;, found &quot;bye&quot;"
        ));
        assert!(html.contains("<span class=\"badge v-WA\">WA</span>"));
        // Nothing fetched, nothing run.
        for outside in ["<script", "<link", "src=", "@import", "url("] {
            assert!(!html.contains(outside), "{outside}");
        }
        assert!(!html.contains("<b>"));
    }

    #[test]
    fn the_frozen_page_hides_what_the_freeze_hides() {
        let html = page_of(View::Frozen);
        assert!(html.contains("scoreboard at the freeze (0:40:00.000)"));
        assert!(
            html.contains("<td class=\"cell pending\" data-problem=\"A\"><a href=\"#team-1-0\"><small>?1</small></a></td>"),
            "{html}"
        );
        assert!(html.contains("sent during the freeze"));
        // eve's try is AC, and the page must not say so.
        let eve = &html[html.find("id=\"team-1\"").unwrap()..];
        assert!(!eve.contains("v-AC"), "{eve}");
        assert!(html.contains("?N: tries sent during the freeze"));
    }
}
