//! The page itself: the run's context, a summary line per problem, then per problem the
//! verdict of every case (the submissions × cases matrix for `verify`, one row for `run` and
//! `judge`), CPU time against the limit, calibrate's distribution, and each failing case
//! folded in a `<details>`. Every string that is not this file's own goes through `esc`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use super::bands;
use super::chart::{self, Bar, Spread, Strip};
use super::file::MARKER;
use super::page::{esc, limit, ms, utc, verdict_class, STYLE};
use crate::event::{Command, Plan, Summary, Unit};
use crate::judge::calibrate::ProblemCalibration;
use crate::judge::submission::SubmissionReport;
use crate::judge::verify::Verified;
use crate::judge::CaseOutcome;
use crate::report::diff::{self, DiffOptions};
use crate::report::json::time_sensitive_count;
use crate::report::record::{Record, Recorded};
use crate::report::shown_path;
use crate::results::case::{by_case, RAN};
use crate::text::{plural, tail_lines};
use crate::verdict::Verdict;

/// Failing cases shown per program; the rest are counted.
pub(super) const FAILURES_SHOWN: usize = 30;
/// Up to this many failing cases of a program are shown opened.
const OPENED: usize = 3;
/// Lines of a program's stderr shown per failing case.
const STDERR_LINES: usize = 20;
/// Up to this many cases, the matrix names each case above its column and marks each
/// failing cell with a letter; beyond it the names are in the tooltips.
const NAMED_COLUMNS: usize = 60;

/// The whole page.
pub(super) fn page(record: &Record) -> String {
    let (plan, results, summary) = (&record.plan, &record.units[..], &record.summary);
    let mut html = String::with_capacity(64 * 1024);
    let title = plan.command.title();
    let problems = by_problem(&plan.units);
    let names: Vec<&str> = problems.iter().map(|(p, _)| *p).collect();
    let _ = write!(
        html,
        "{MARKER}\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
         <meta name=\"generator\" content=\"harness {}\"/>\
         <title>{} — {}</title><style>{STYLE}</style></head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        esc(title),
        esc(&names.join(", "))
    );
    let _ = write!(html, "<header><h1>{}</h1>", esc(title));
    context(&mut html, plan, summary);
    html.push_str("</header>\n");

    summary_table(&mut html, plan, &problems, results);
    for (problem, units) in &problems {
        let _ = write!(
            html,
            "<section class=\"problem\" id=\"{}\" data-problem=\"{}\">",
            esc(&anchor(problem)),
            esc(problem)
        );
        match &plan.command {
            Command::Verify => verify_section(&mut html, plan, problem, units, results),
            Command::Calibrate { repeat } => {
                calibrate_section(&mut html, problem, units, results, *repeat);
            }
            _ => judged_section(&mut html, plan, problem, units, results),
        }
        html.push_str("</section>\n");
    }
    if !summary.skipped.is_empty() {
        html.push_str("<section class=\"skipped\"><h2>Not judged here</h2><ul>");
        for skipped in &summary.skipped {
            let _ = write!(
                html,
                "<li><code>{}</code>: {}</li>",
                esc(&skipped.name),
                esc(&skipped.reason)
            );
        }
        html.push_str("</ul></section>\n");
    }
    let _ = write!(
        html,
        "<footer>Written by harness {} — one file: nothing in it is fetched from anywhere. \
         Hover a cell or a bar for its case and time.</footer>\n</body></html>\n",
        env!("CARGO_PKG_VERSION")
    );
    html
}

/// The problems in plan order, each with its units' indices.
fn by_problem(units: &[Unit]) -> Vec<(&str, Vec<usize>)> {
    let mut problems: Vec<(&str, Vec<usize>)> = Vec::new();
    for (index, unit) in units.iter().enumerate() {
        match problems.iter_mut().find(|(p, _)| *p == unit.problem) {
            Some((_, indices)) => indices.push(index),
            None => problems.push((&unit.problem, vec![index])),
        }
    }
    problems
}

/// An `id` for a problem's section: its name with anything but letters, digits, `-` and `_`
/// made `_`.
fn anchor(problem: &str) -> String {
    let name: String = problem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("problem-{name}")
}

/// The run's context: what ran it, on what, how, when.
fn context(html: &mut String, plan: &Plan, summary: &Summary) {
    html.push_str("<p class=\"context\">");
    let mut part = |text: String| {
        let _ = write!(html, "<span>{}</span>", esc(&text));
    };
    part(format!("harness {}", env!("CARGO_PKG_VERSION")));
    part(format!("started {}", utc(plan.started)));
    part(format!("took {:.1} s", summary.elapsed.as_secs_f64()));
    part(plural(plan.cores, "core"));
    part(format!(
        "{} at a time{}",
        plan.jobs,
        if plan.jobs > 1 {
            " (wall times inflated; CPU times are what count)"
        } else {
            ""
        }
    ));
    match &summary.unsandboxed {
        Some(why) => part(format!(
            "sandbox: {} — programs ran without it: {why}",
            plan.sandbox.as_str()
        )),
        None => part(format!(
            "sandbox: {} — programs under test ran sandboxed",
            plan.sandbox.as_str()
        )),
    }
    if let Some(partition) = plan.partition {
        part(format!("slice {partition}"));
    }
    if plan.failed_only {
        part("only the cases that failed last time".to_string());
    }
    if let Command::Calibrate { repeat } = plan.command {
        part(format!("{repeat} runs per case, the median counts"));
    }
    html.push_str("</p>");
}

/// A summary line per problem, linking to its section.
fn summary_table(
    html: &mut String,
    plan: &Plan,
    problems: &[(&str, Vec<usize>)],
    results: &[Option<Recorded>],
) {
    html.push_str("<table class=\"summary\"><thead><tr><th>problem</th><th>result</th><th>summary</th></tr></thead><tbody>");
    for (problem, units) in problems {
        let kept: Vec<&Recorded> = units
            .iter()
            .filter_map(|&u| results.get(u)?.as_ref())
            .collect();
        let (badge, line) = match &plan.command {
            Command::Verify => verify_line(&kept),
            Command::Calibrate { .. } => calibrate_line(&kept),
            _ => judged_line(&kept),
        };
        let _ = write!(
            html,
            "<tr data-problem=\"{}\"><th><a href=\"#{}\">{}</a></th><td>{badge}</td><td>{}</td></tr>",
            esc(problem),
            esc(&anchor(problem)),
            esc(problem),
            esc(&line)
        );
    }
    html.push_str("</tbody></table>\n");
}

fn badge(verdict: Verdict) -> String {
    format!(
        "<span class=\"badge {}\" title=\"{}\">{}</span>",
        verdict_class(verdict),
        verdict.dir_name(),
        verdict.as_str()
    )
}

/// The badge of a run nothing checked (no answer to compare with): never AC.
fn ran_badge() -> String {
    format!(
        "<span class=\"badge v-ran\" title=\"{}\">{RAN}</span>",
        crate::results::case::RAN_NOT_CHECKED
    )
}

fn judged_reports<'a>(kept: &[&'a Recorded]) -> Vec<&'a SubmissionReport> {
    kept.iter().filter_map(|k| k.judged()).collect()
}

/// `12 AC · 1 WA · slowest 523 ms of 1 s · 2 near the limit`.
fn judged_line(kept: &[&Recorded]) -> (String, String) {
    let Some(report) = judged_reports(kept).into_iter().next() else {
        return (String::new(), "not judged".to_string());
    };
    if !report.compile.ok {
        return (badge(Verdict::CompileError), "did not compile".to_string());
    }
    let mut parts: Vec<String> = score_part(report).into_iter().collect();
    parts.extend(crate::results::case::counted(&report.outcomes));
    parts.push(format!(
        "slowest {} of {}",
        ms(report.max_cpu_time()),
        limit(report.limits.cpu_time)
    ));
    let near = report.outcomes.iter().filter(|o| o.time_sensitive).count();
    if near > 0 {
        parts.push(format!("{near} near the limit"));
    }
    if report.stopped_early() {
        parts.push(format!(
            "stopped after {} of {} cases",
            report.outcomes.len(),
            report.planned_cases
        ));
    }
    let verdict = if report.verdict_code() == RAN {
        ran_badge()
    } else {
        badge(report.verdict)
    };
    (verdict, parts.join(" · "))
}

/// `score 70/100` for a scored problem's submission, as the terminal says it.
fn score_part(report: &SubmissionReport) -> Option<String> {
    let score = report.score.as_ref()?;
    let max = score.max_score().map_or(String::new(), |max| {
        format!("/{}", crate::score::format_score(max))
    });
    Some(match score.score() {
        Some(got) => format!("score {}{max}", crate::score::format_score(got)),
        None => format!("no score{max}"),
    })
}

/// `5 submissions: 4 OK, 1 MISMATCH`.
fn verify_line(kept: &[&Recorded]) -> (String, String) {
    let all: Vec<&Verified> = kept.iter().filter_map(|k| k.verified()).collect();
    let mismatches = all.iter().filter(|v| !v.ok()).count();
    let badge = if mismatches == 0 {
        "<span class=\"ok\">OK</span>".to_string()
    } else {
        "<span class=\"mismatch\">MISMATCH</span>".to_string()
    };
    let mut line = format!(
        "{}: {} OK",
        plural(all.len(), "submission"),
        all.len() - mismatches
    );
    if mismatches > 0 {
        let _ = write!(line, ", {mismatches} MISMATCH");
    }
    let near: usize = all
        .iter()
        .map(|v| time_sensitive_count(&v.report.outcomes))
        .sum();
    if near > 0 {
        let _ = write!(line, " · {} near the limit", plural(near, "case"));
    }
    (badge, line)
}

/// `suggested 200 ms (now 1 s) · slowest: solution 83 ms on 07`.
fn calibrate_line(kept: &[&Recorded]) -> (String, String) {
    match kept.iter().find_map(|k| match k {
        Recorded::Calibrated { calibration, .. } => Some(calibration),
        _ => None,
    }) {
        Some(calibration) => calibration_line(calibration),
        None => (String::new(), "not calibrated".to_string()),
    }
}

/// [`calibrate_line`] of one calibration.
fn calibration_line(calibration: &ProblemCalibration) -> (String, String) {
    let mut parts = Vec::new();
    match calibration.suggested_limit {
        Some(suggested) => parts.push(format!(
            "suggested limit {} (now {})",
            limit(suggested),
            limit(calibration.current_limit)
        )),
        None => parts.push("no limit suggested".to_string()),
    }
    if let Some(slowest) = calibration.slowest() {
        parts.push(format!(
            "slowest: {} {} on {}",
            slowest.label,
            ms(slowest.normalized()),
            slowest.slowest_case
        ));
    }
    let warnings = calibration.warnings().len();
    if warnings > 0 {
        parts.push(plural(warnings, "warning"));
    }
    let badge = if warnings == 0 {
        "<span class=\"ok\">OK</span>"
    } else {
        "<span class=\"mismatch\">check</span>"
    };
    (badge.to_string(), parts.join(" · "))
}

/// The heading of a problem's section.
fn heading(html: &mut String, problem: &str, title: Option<&str>) {
    let _ = write!(html, "<h2>{}", esc(problem));
    if let Some(title) = title.filter(|t| !t.is_empty() && *t != problem) {
        let _ = write!(html, " <span class=\"muted\">— {}</span>", esc(title));
    }
    html.push_str("</h2>");
}

/// `run` and `judge`: the verdict of every case, the time chart, the failures.
fn judged_section(
    html: &mut String,
    plan: &Plan,
    problem: &str,
    units: &[usize],
    results: &[Option<Recorded>],
) {
    let kept: Vec<&Recorded> = units
        .iter()
        .filter_map(|&u| results.get(u)?.as_ref())
        .collect();
    let reports = judged_reports(&kept);
    heading(html, problem, reports.first().map(|r| r.title.as_str()));
    for (&unit, report) in units.iter().zip(&reports) {
        let planned = &plan.units[unit];
        let (badge, line) = judged_line(&[&Recorded::Judged((*report).clone())]);
        let _ = write!(
            html,
            "<p>{badge} <code>{}</code>{} — {}</p>",
            esc(&shown_path(&report.source)),
            report
                .language
                .as_ref()
                .map(|l| format!(" <span class=\"muted\">({})</span>", esc(&l.name)))
                .unwrap_or_default(),
            esc(&line)
        );
        limits_line(html, report);
        if !report.compile.ok {
            let _ = write!(
                html,
                "<details open=\"open\"><summary>{} compiler's message</summary><pre>{}</pre></details>",
                self::badge(Verdict::CompileError),
                esc(report.compile.message.trim_end())
            );
            continue;
        }
        let row = Row {
            label: &planned.label,
            title: report.source.display().to_string(),
            expected: None,
            report,
        };
        matrix(html, &planned.cases, &[row], planned.scoring.as_deref());
        let strip = strip_of(&planned.label, report, &planned.cases);
        html.push_str(&chart::time_strips(
            &format!("CPU time of {} per case against the limit", planned.label),
            &[strip],
        ));
        near_limit(html, &[(None, report)]);
        failures(html, report, &report.outcomes);
    }
}

/// The cases within 10% of the limit, said in words: another machine could flip them.
fn near_limit(html: &mut String, programs: &[(Option<&str>, &SubmissionReport)]) {
    let near: Vec<(Option<&str>, &SubmissionReport, &CaseOutcome)> = programs
        .iter()
        .flat_map(|(who, report)| {
            report
                .outcomes
                .iter()
                .filter(|o| o.time_sensitive)
                .map(move |o| (*who, *report, o))
        })
        .collect();
    if near.is_empty() {
        return;
    }
    html.push_str("<ul class=\"warning near-limit\">");
    for (who, report, outcome) in near.iter().take(FAILURES_SHOWN) {
        let _ = write!(
            html,
            "<li>near the limit: {}<strong>{}</strong> {} {} of {} — within 10%, so a faster or slower judge could give another verdict</li>",
            who.map(|w| format!("<code>{}</code> on ", esc(w))).unwrap_or_default(),
            esc(&outcome.case),
            badge(outcome.verdict),
            ms(outcome.cpu_time),
            limit(report.limits.cpu_time)
        );
    }
    if near.len() > FAILURES_SHOWN {
        let _ = write!(html, "<li>and {} more</li>", near.len() - FAILURES_SHOWN);
    }
    html.push_str("</ul>");
}

/// The limits a program ran under.
fn limits_line(html: &mut String, report: &SubmissionReport) {
    let limits = &report.limits;
    let _ = write!(
        html,
        "<p class=\"muted\">limits: CPU {} · wall {} · memory {} MiB · output {} MiB</p>",
        limit(limits.cpu_time),
        limit(limits.wall_time),
        limits.memory_bytes / (1 << 20),
        limits.output_bytes / (1 << 20)
    );
}

/// One row of the matrix: a program and what it got on each case.
struct Row<'a> {
    label: &'a str,
    /// Its tooltip: the whole path.
    title: String,
    /// For `verify`: the stored verdict.
    expected: Option<&'a Verified>,
    report: &'a SubmissionReport,
}

/// The verdict cell of each case for each row, and the legend; on a scored problem the
/// columns grouped under a band per group, and under each row the points it got in each.
fn matrix(
    html: &mut String,
    cases: &[String],
    rows: &[Row<'_>],
    scoring: Option<&crate::score::Scoring>,
) {
    let named = cases.len() <= NAMED_COLUMNS;
    let verify = rows.iter().any(|r| r.expected.is_some());
    let bands = scoring.map_or_else(Vec::new, |s| bands::bands(s, cases));
    // A band's first column (but the matrix's first) draws a line down the whole table.
    let band_starts: std::collections::HashSet<usize> =
        bands.iter().map(|b| b.start).filter(|&s| s > 0).collect();
    let lead = if verify { 4 } else { 1 };
    html.push_str("<div class=\"scroll\"><table class=\"matrix\"><thead>");
    if !bands.is_empty() {
        bands::heading_row(html, &bands, lead, cases);
    }
    html.push_str("<tr><th class=\"sub\">");
    html.push_str(if verify { "submission" } else { "program" });
    html.push_str("</th>");
    if verify {
        html.push_str("<th>expected</th><th>got</th><th></th>");
    }
    for (index, case) in cases.iter().enumerate() {
        let text = if named {
            esc(case).to_string()
        } else if (index + 1) % 10 == 0 || index == 0 {
            (index + 1).to_string()
        } else {
            String::new()
        };
        let _ = write!(
            html,
            "<th class=\"case{}\" title=\"{}\">{text}</th>",
            if band_starts.contains(&index) {
                " band"
            } else {
                ""
            },
            esc(case)
        );
    }
    html.push_str("</tr></thead><tbody>");
    for row in rows {
        let by_case = by_case(&row.report.outcomes);
        let status = match row.expected {
            Some(v) if !v.ok() => "MISMATCH",
            Some(_) => "OK",
            None => "",
        };
        let _ = write!(
            html,
            "<tr class=\"sub{}\" data-submission=\"{}\" data-status=\"{status}\"><th class=\"sub\" title=\"{}\">{}</th>",
            if status == "MISMATCH" { " is-mismatch" } else { "" },
            esc(row.label),
            esc(&row.title),
            esc(row.label)
        );
        if let Some(verified) = row.expected {
            let _ = write!(
                html,
                "<td class=\"head\">{}</td><td class=\"head\">{}{}</td><td class=\"head\">{}</td>",
                esc(verified.expected.as_str()),
                badge(verified.report.verdict),
                score_part(&verified.report).map_or(String::new(), |score| format!(
                    " <span class=\"score\">{}</span>",
                    esc(&score)
                )),
                if verified.ok() {
                    "<span class=\"ok\">OK</span>"
                } else {
                    "<span class=\"mismatch\">MISMATCH</span>"
                }
            );
        }
        let limit = row.report.limits.cpu_time;
        for (index, case) in cases.iter().enumerate() {
            let band = if band_starts.contains(&index) {
                " band"
            } else {
                ""
            };
            match by_case.get(case.as_str()) {
                Some(outcome) => {
                    let mut tip = format!(
                        "{case}: {} — CPU {} of {}",
                        outcome.code(),
                        ms(outcome.cpu_time),
                        self::limit(limit)
                    );
                    if outcome.time_sensitive {
                        tip.push_str(", near the limit");
                    }
                    if !outcome.verdict.is_accepted() && !outcome.reason.is_empty() {
                        let _ = write!(tip, " — {}", outcome.reason);
                    }
                    if let (Some(got), Some(max)) = (outcome.score, outcome.max_score) {
                        if max > 0.0 {
                            let _ = write!(
                                tip,
                                " — {} of {} points",
                                crate::score::format_score(got),
                                crate::score::format_score(max)
                            );
                        }
                    }
                    if let Some(verified) = row.expected {
                        let _ = write!(tip, " (expected {})", verified.expected.as_str());
                    }
                    let letter = if !named {
                        ""
                    } else if !outcome.verdict.is_accepted() {
                        &outcome.verdict.as_str()[..1]
                    } else if outcome.time_sensitive {
                        "!"
                    } else {
                        ""
                    };
                    let _ = write!(
                        html,
                        "<td class=\"c {}{}{band}\" data-case=\"{}\" data-verdict=\"{}\" title=\"{}\">{letter}</td>",
                        if outcome.checked() {
                            verdict_class(outcome.verdict)
                        } else {
                            "v-ran"
                        },
                        if outcome.time_sensitive { " near" } else { "" },
                        esc(case),
                        outcome.code(),
                        esc(&tip)
                    );
                }
                None => {
                    let why = if !row.report.compile.ok {
                        "did not compile"
                    } else {
                        "not run: judging stops at the first failing case"
                    };
                    let _ = write!(
                        html,
                        "<td class=\"c none{band}\" data-case=\"{}\" title=\"{}: {why}\"></td>",
                        esc(case),
                        esc(case)
                    );
                }
            }
        }
        html.push_str("</tr>");
        if !bands.is_empty() {
            bands::points_row(html, row.label, &bands, lead, cases, row.report);
        }
    }
    html.push_str("</tbody></table></div>");
    legend(html, !bands.is_empty());
}

/// What the colours mean; with `bands`, those of the points rows too.
fn legend(html: &mut String, bands: bool) {
    html.push_str("<p class=\"legend\">");
    for verdict in Verdict::ALL {
        let _ = write!(
            html,
            "<span class=\"sw {}\"></span> {} &#160; ",
            verdict_class(verdict),
            verdict.as_str()
        );
    }
    html.push_str(
        "<span class=\"sw none\"></span> not run &#160; <span class=\"sw near\"></span> near the limit (±10%)</p>",
    );
    if bands {
        // A paragraph of its own: the browser writes a `<br/>` back as `<br>`, which the
        // tests' XML reader refuses.
        html.push_str(
            "<p class=\"legend\">points per group: <span class=\"sw pts-pass\"></span> all passed &#160; \
             <span class=\"sw pts-partial\"></span> some points &#160; \
             <span class=\"sw pts-fail\"></span> failed &#160; \
             <span class=\"sw none\"></span> not judged (a group before it failed)</p>",
        );
    }
}

/// A program's bars, in the order of `cases`.
fn strip_of<'a>(label: &'a str, report: &'a SubmissionReport, cases: &'a [String]) -> Strip<'a> {
    let by_case = by_case(&report.outcomes);
    Strip {
        label,
        limit: report.limits.cpu_time,
        bars: cases
            .iter()
            .map(|case| {
                by_case.get(case.as_str()).map(|o| Bar {
                    case,
                    verdict: o.verdict,
                    cpu: o.cpu_time,
                    near: o.time_sensitive,
                })
            })
            .collect(),
    }
}

/// Each failing case of a program, folded: the reason, the numbers, the input's head, the
/// diff, stderr.
fn failures(html: &mut String, report: &SubmissionReport, outcomes: &[CaseOutcome]) {
    let failing: Vec<&CaseOutcome> = outcomes
        .iter()
        .filter(|o| !o.verdict.is_accepted())
        .collect();
    if failing.is_empty() {
        return;
    }
    // A few are opened: they are what the page is read for.
    let open = failing.len() <= OPENED;
    for outcome in failing.iter().take(FAILURES_SHOWN) {
        failure(html, report, outcome, None, open);
    }
    if failing.len() > FAILURES_SHOWN {
        let _ = write!(
            html,
            "<p class=\"muted\">{} more failing cases are not shown (the terminal report and <code>--format json</code> list them all).</p>",
            failing.len() - FAILURES_SHOWN
        );
    }
}

/// The diff of a wrong output, each line marked removed, added or context.
fn diff_section(html: &mut String, mismatch: &crate::results::case::Mismatch) {
    let text = diff::diff_to_string(&mismatch.output, &mismatch.answer, &DiffOptions::default());
    if text.is_empty() {
        return;
    }
    html.push_str("<h4>diff</h4><pre class=\"diff\">");
    for line in text.lines() {
        let class = if line.starts_with('-') && !line.starts_with("---") {
            "del"
        } else if line.starts_with('+') && !line.starts_with("+++") {
            "ins"
        } else {
            "ctx"
        };
        let _ = write!(html, "<span class=\"{class}\">{}</span>", esc(line));
    }
    html.push_str("</pre>");
}

/// One failing case, folded unless `open`; `who` names the program when the section has
/// several.
fn failure(
    html: &mut String,
    report: &SubmissionReport,
    outcome: &CaseOutcome,
    who: Option<&str>,
    open: bool,
) {
    let _ = write!(
        html,
        "<details class=\"failure\" data-case=\"{}\"{}><summary>{} ",
        esc(&outcome.case),
        if open { " open=\"open\"" } else { "" },
        badge(outcome.verdict),
    );
    if let Some(who) = who {
        let _ = write!(html, "<code>{}</code> on ", esc(who));
    }
    let _ = write!(
        html,
        "<strong>{}</strong>{}</summary>",
        esc(&outcome.case),
        if outcome.reason.is_empty() {
            String::new()
        } else {
            format!(" — {}", esc(&outcome.reason))
        }
    );
    let _ = write!(
        html,
        "<p class=\"mono\">CPU {} of {} · wall {} · memory {:.1} MiB{}</p>",
        ms(outcome.cpu_time),
        limit(report.limits.cpu_time),
        ms(outcome.wall_time),
        outcome.peak_memory_bytes as f64 / f64::from(1 << 20),
        if outcome.time_sensitive {
            " · near the limit"
        } else {
            ""
        }
    );
    if let Some(input) = &outcome.input {
        let _ = write!(
            html,
            "<h4>input <code>{}</code>{}</h4><pre>{}</pre>",
            esc(&shown_path(&input.path)),
            if input.truncated { " (its head)" } else { "" },
            esc(&input.head)
        );
    }
    if let Some(mismatch) = &outcome.mismatch {
        diff_section(html, mismatch);
    }
    if let Some(interaction) = &outcome.interaction {
        let _ = write!(
            html,
            "<h4>interaction</h4><pre>{}</pre>",
            esc(&interaction.transcript.to_interaction())
        );
        if !interaction.message.is_empty() {
            let _ = write!(
                html,
                "<p>interactor: {} <span class=\"muted\">(CPU {})</span></p>",
                esc(&interaction.message),
                ms(interaction.interactor_cpu_time)
            );
        }
    }
    let stderr = tail_lines(&outcome.stderr_tail, STDERR_LINES).join("\n");
    if !stderr.trim().is_empty() {
        let _ = write!(html, "<h4>stderr (its end)</h4><pre>{}</pre>", esc(&stderr));
    }
    html.push_str("</details>");
}

/// `verify`: the submissions × cases matrix (MISMATCH rows first), the time chart of every
/// submission, each submission's failing case.
fn verify_section(
    html: &mut String,
    plan: &Plan,
    problem: &str,
    units: &[usize],
    results: &[Option<Recorded>],
) {
    let mut rows: Vec<(usize, &Verified)> = units
        .iter()
        .filter_map(|&u| Some((u, results.get(u)?.as_ref()?.verified()?)))
        .collect();
    heading(
        html,
        problem,
        rows.first().map(|(_, v)| v.report.title.as_str()),
    );
    // MISMATCH first; otherwise the plan's order (accepted, then the ways to fail).
    rows.sort_by_key(|(unit, verified)| (verified.ok(), *unit));
    let cases = case_union(plan, units);
    let labels: Vec<String> = rows
        .iter()
        .map(|(unit, v)| short_label(problem, &plan.units[*unit].label, &v.name))
        .collect();
    let matrix_rows: Vec<Row<'_>> = rows
        .iter()
        .zip(&labels)
        .map(|((_, verified), label)| Row {
            label,
            title: verified.report.source.display().to_string(),
            expected: Some(verified),
            report: &verified.report,
        })
        .collect();
    let scoring = units.iter().find_map(|&u| plan.units[u].scoring.as_deref());
    matrix(html, &cases, &matrix_rows, scoring);
    let strips: Vec<Strip<'_>> = rows
        .iter()
        .zip(&labels)
        .filter(|((_, v), _)| v.report.compile.ok)
        .map(|((_, v), label)| strip_of(label, &v.report, &cases))
        .collect();
    if !strips.is_empty() {
        html.push_str("<h3>CPU time per case against the limit</h3>");
        html.push_str(&chart::time_strips(
            &format!("CPU time of each submission of {problem} per case"),
            &strips,
        ));
    }
    let near: Vec<(Option<&str>, &SubmissionReport)> = rows
        .iter()
        .zip(&labels)
        .map(|((_, v), label)| (Some(label.as_str()), &v.report))
        .collect();
    near_limit(html, &near);
    let failing: Vec<_> = rows
        .iter()
        .zip(&labels)
        .filter(|((_, v), _)| !v.ok() || !v.report.verdict.is_accepted())
        .collect();
    if !failing.is_empty() {
        html.push_str("<h3>Why each failed</h3>");
    }
    for ((_, verified), label) in failing {
        why_failed(html, verified, label);
    }
}

/// Why one stored submission did not judge as expected (or failed as it should): its
/// compile error, its first failing case, or that it passed every case.
fn why_failed(html: &mut String, verified: &Verified, label: &str) {
    let report = &verified.report;
    if !report.compile.ok {
        let _ = write!(
            html,
            "<details class=\"failure\"{}><summary>{} <code>{}</code> did not compile{}</summary><pre>{}</pre></details>",
            if verified.ok() { "" } else { " open" },
            badge(Verdict::CompileError),
            esc(label),
            if verified.ok() { "" } else { " — MISMATCH" },
            esc(report.compile.message.trim_end())
        );
        return;
    }
    match report.first_failure() {
        Some(outcome) => failure(html, report, outcome, Some(label), !verified.ok()),
        None => {
            let _ = write!(
                html,
                "<details class=\"failure\" open=\"open\"><summary>{} <code>{}</code> passed every case — MISMATCH: expected {}</summary><p>{} cases, slowest {} of {}.</p></details>",
                badge(Verdict::Accepted),
                esc(label),
                esc(verified.expected.as_str()),
                report.outcomes.len(),
                ms(report.max_cpu_time()),
                limit(report.limits.cpu_time)
            );
        }
    }
}

/// The label of a stored submission without its problem: `accepted/greedy.cpp`.
fn short_label(problem: &str, label: &str, name: &str) -> String {
    let name = if label.is_empty() { name } else { label };
    name.strip_prefix(&format!("{problem}/"))
        .unwrap_or(name)
        .to_string()
}

/// Every case any unit of the problem planned, in plan order.
fn case_union(plan: &Plan, units: &[usize]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    units
        .iter()
        .flat_map(|&unit| &plan.units[unit].cases)
        .filter(|case| seen.insert(case.as_str()))
        .cloned()
        .collect()
}

/// `calibrate`: the distribution of each program's case times with the limits marked, the
/// table of programs, the too-slow submissions tried, the warnings.
fn calibrate_section(
    html: &mut String,
    problem: &str,
    units: &[usize],
    results: &[Option<Recorded>],
    repeat: usize,
) {
    heading(html, problem, None);
    for &unit in units {
        let Some(Recorded::Calibrated { calibration, times }) =
            results.get(unit).and_then(Option::as_ref)
        else {
            continue;
        };
        calibration_of(html, calibration, times, repeat);
    }
}

fn calibration_of(
    html: &mut String,
    calibration: &ProblemCalibration,
    times: &BTreeMap<String, BTreeMap<String, Vec<Duration>>>,
    repeat: usize,
) {
    let (_, line) = calibration_line(calibration);
    let _ = write!(html, "<p>{}</p>", esc(&line));
    let spreads: Vec<Spread<'_>> = calibration
        .programs
        .iter()
        .filter(|p| p.compile_error.is_none())
        .map(|program| Spread {
            label: &program.label,
            counts: program.role.sets_the_limit(),
            passed: program.passed(),
            times: (times.get(&program.label).into_iter().flatten())
                .map(|(case, runs)| {
                    let median = median(&mut runs.clone());
                    (case.as_str(), median.div_f64(program.time_multiplier))
                })
                .collect(),
        })
        .collect();
    if !spreads.is_empty() {
        let _ = write!(
            html,
            "<h3>Case times of each program <span class=\"muted\">(median of {repeat}, divided by the language's time multiplier; log scale)</span></h3>"
        );
        html.push_str(&chart::distribution(
            &format!("case times of the programs of {}", calibration.problem),
            &spreads,
            calibration.current_limit,
            calibration.suggested_limit,
        ));
    }
    html.push_str("<table class=\"runs\"><thead><tr><th>program</th><th>role</th><th class=\"num\">slowest</th><th>on</th><th class=\"num\">multiplier</th><th>result</th></tr></thead><tbody>");
    for program in &calibration.programs {
        let result = match (&program.compile_error, program.failures.first()) {
            (Some(_), _) => badge(Verdict::CompileError),
            (None, Some(first)) => format!(
                "{} on <code>{}</code> (and {} more)",
                badge(first.verdict),
                esc(&first.case),
                program.failures.len() - 1
            ),
            (None, None) => badge(Verdict::Accepted),
        };
        let _ = write!(
            html,
            "<tr><th><code>{}</code></th><td>{}</td><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{}</td><td>{result}</td></tr>",
            esc(&program.label),
            program.role.as_str(),
            ms(program.normalized()),
            esc(&program.slowest_case),
            program.time_multiplier,
        );
    }
    for check in &calibration.slow_checks {
        let result = if check.compile_error.is_some() {
            badge(Verdict::CompileError)
        } else if check.passes() {
            format!(
                "{} <span class=\"mismatch\">passes the suggested limit</span>",
                badge(check.verdict)
            )
        } else {
            format!(
                "{}{}",
                badge(check.verdict),
                check
                    .case
                    .as_ref()
                    .map(|c| format!(" on <code>{}</code>", esc(c)))
                    .unwrap_or_default()
            )
        };
        let _ = write!(
            html,
            "<tr><th><code>{}</code></th><td>too slow, tried under the suggestion</td><td class=\"num\">{}</td><td></td><td></td><td>{result}</td></tr>",
            esc(&check.label),
            ms(check.slowest)
        );
    }
    html.push_str("</tbody></table>");
    let warnings = calibration.warnings();
    if !warnings.is_empty() {
        html.push_str("<ul class=\"warning\">");
        for warning in warnings {
            let _ = write!(html, "<li>{}</li>", esc(&warning));
        }
        html.push_str("</ul>");
    }
}

/// The lower median, as calibrate takes it.
fn median(runs: &mut [Duration]) -> Duration {
    runs.sort();
    runs.get((runs.len().max(1) - 1) / 2)
        .copied()
        .unwrap_or_default()
}
