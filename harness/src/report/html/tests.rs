//! The HTML report on hand-built events. The page is written as well-formed XML (void
//! elements closed, no named entities), so these tests read it with roxmltree, as a browser
//! would build its tree.

use std::path::PathBuf;
use std::time::Duration;

use super::*;
use crate::event::{Command, Event, Finished, Plan, Summary, Unit};
use crate::judge::calibrate::{ProblemCalibration, ProgramTiming, Role};
use crate::judge::verify::{Expected, Verified};
use crate::judge::CaseOutcome;
use crate::report::fixtures::{outcome, report, with_mismatch};
use crate::report::record::Recorder;
use crate::report::reporter::Reporter;
use crate::verdict::Verdict;

const EVIL: &str = "<script>alert('x')</script>";

fn unit(problem: &str, label: &str, cases: &[&str]) -> Unit {
    Unit {
        problem: problem.to_string(),
        label: label.to_string(),
        cases: cases.iter().map(|c| (*c).to_string()).collect(),
        runs: cases.len(),
        ..Unit::default()
    }
}

/// The page the reporter writes for `command` on these units and results.
fn page_of(command: Command, units: Vec<Unit>, results: &[Finished<'_>]) -> String {
    let plan = Plan::new(command, units, 2, crate::sandbox::Mode::Auto);
    let (mut reporter, out) = Recorder::capture(Html);
    reporter.report(&Event::RunStarted(&plan)).unwrap();
    for (unit, &result) in results.iter().enumerate() {
        reporter
            .report(&Event::UnitFinished { unit, result })
            .unwrap();
    }
    let summary = Summary {
        elapsed: Duration::from_millis(1500),
        skipped: Vec::new(),
        unsandboxed: Some("judge.toml says `sandbox = \"off\"`".to_string()),
    };
    reporter.report(&Event::RunFinished(&summary)).unwrap();
    out.text()
}

/// The page of `harness run` on problem `sum`'s solution `sum.c`, judged on `cases`.
fn run_page(cases: &[&str], outcomes: Vec<CaseOutcome>) -> String {
    let judged = report("sum", "sum.c", outcomes, cases.len());
    page_of(
        Command::Run,
        vec![unit("sum", "sum", cases)],
        &[Finished::Judged(&judged)],
    )
}

fn parse(html: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(html, options)
        .unwrap_or_else(|error| panic!("not well-formed: {error}\n{html}"))
}

/// The text inside `node`, as a browser's `textContent`.
fn text_of(node: &roxmltree::Node<'_, '_>) -> String {
    node.descendants()
        .filter(roxmltree::Node::is_text)
        .filter_map(|t| t.text())
        .collect()
}

fn has_class(node: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|c| c == class))
}

#[test]
fn text_from_the_run_is_text_never_markup() {
    let mut wrong = with_mismatch(
        outcome(
            EVIL,
            Verdict::WrongAnswer,
            "expected <b>3</b> & found \"4\"",
            12,
        ),
        b"</pre><script>alert(1)</script>\n",
        b"3\n",
    );
    wrong.stderr_tail = "<img src=x onerror=alert(1)>\n".to_string();
    let judged = report(EVIL, "<b>mine</b>.c", vec![wrong], 1);
    let html = page_of(
        Command::Judge,
        vec![unit(EVIL, "<b>mine</b>.c", &[EVIL])],
        &[Finished::Judged(&judged)],
    );
    let document = parse(&html);
    let tags: Vec<&str> = document
        .descendants()
        .filter(roxmltree::Node::is_element)
        .map(|n| n.tag_name().name())
        .collect();
    for forbidden in ["script", "img", "b"] {
        assert!(
            !tags.contains(&forbidden),
            "a <{forbidden}> element: {html}"
        );
    }
    let text: String = document
        .descendants()
        .filter(roxmltree::Node::is_text)
        .filter_map(|n| n.text())
        .collect();
    assert!(text.contains(EVIL), "the case name is shown as text");
    assert!(
        text.contains("</pre><script>alert(1)</script>"),
        "the output is shown as text"
    );
    assert!(
        text.contains("<img src=x onerror=alert(1)>"),
        "stderr is shown as text"
    );
    assert!(text.contains("expected <b>3</b> & found \"4\""), "{text}");
    let cell = document
        .descendants()
        .find(|n| has_class(n, "c"))
        .expect("a cell");
    assert_eq!(cell.attribute("data-case"), Some(EVIL));
}

#[test]
fn the_page_starts_with_the_marker_and_fetches_nothing() {
    let html = run_page(&["01"], vec![outcome("01", Verdict::Accepted, "", 5)]);
    assert!(html.starts_with(file::MARKER), "{html}");
    let document = parse(&html);
    for node in document.descendants().filter(roxmltree::Node::is_element) {
        for attribute in ["src", "href", "srcset", "action", "data", "poster"] {
            if let Some(value) = node.attribute(attribute) {
                assert!(
                    value.starts_with('#'),
                    "<{} {attribute}={value:?}>",
                    node.tag_name().name()
                );
            }
        }
        assert!(
            !matches!(
                node.tag_name().name(),
                "script" | "link" | "iframe" | "img" | "object" | "embed"
            ),
            "<{}>",
            node.tag_name().name()
        );
    }
    assert!(
        !html.contains("url("),
        "nothing is loaded from the style sheet"
    );
    assert!(!html.contains("@import"));
    assert!(html.contains("prefers-color-scheme: dark") && html.contains("@media print"));
}

#[test]
fn the_context_says_what_ran_where_and_when() {
    let html = run_page(&["01"], vec![outcome("01", Verdict::Accepted, "", 5)]);
    let document = parse(&html);
    let context: String = document
        .descendants()
        .find(|n| has_class(n, "context"))
        .expect("the context line")
        .descendants()
        .filter_map(|n| n.text())
        .collect();
    for wanted in [
        concat!("harness ", env!("CARGO_PKG_VERSION")),
        "started 20",
        " UTC",
        "took 1.5 s",
        "core",
        "2 at a time",
        "sandbox: auto — programs ran without it: judge.toml says `sandbox = \"off\"`",
    ] {
        assert!(context.contains(wanted), "{wanted:?} in {context:?}");
    }
}

fn verified(name: &str, expected: Verdict, outcomes: Vec<CaseOutcome>, planned: usize) -> Verified {
    Verified {
        name: format!("p/{name}"),
        expected: Expected::One(expected),
        report: report("p", name, outcomes, planned),
        expected_score: None,
        score_check: crate::score::ScoreCheck::Ok,
    }
}

#[test]
fn the_matrix_has_a_row_per_submission_a_cell_per_case_and_mismatches_first() {
    let cases = ["01", "02", "03"];
    let ac = |case, ms| outcome(case, Verdict::Accepted, "", ms);
    let wa = outcome("02", Verdict::WrongAnswer, "expected 3, found 4", 6);
    let stored: Vec<Verified> = [
        (
            "accepted/fast.cpp",
            Verdict::Accepted,
            vec![ac("01", 5), ac("02", 7), ac("03", 950)],
        ),
        (
            "wrong_answer/off_by_one.cpp",
            Verdict::WrongAnswer,
            vec![ac("01", 5), wa],
        ),
        // Stored as too slow, but accepted: a MISMATCH.
        (
            "time_limit_exceeded/not_slow.cpp",
            Verdict::TimeLimitExceeded,
            vec![ac("01", 5), ac("02", 6), ac("03", 7)],
        ),
    ]
    .into_iter()
    .map(|(name, expected, outcomes)| verified(name, expected, outcomes, 3))
    .collect();
    let units = stored.iter().map(|s| unit("p", &s.name, &cases)).collect();
    let results: Vec<Finished<'_>> = stored.iter().map(Finished::Verified).collect();
    let html = page_of(Command::Verify, units, &results);
    let document = parse(&html);
    let rows: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.attribute("data-submission").is_some())
        .collect();
    let names: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.attribute("data-submission").unwrap(),
                r.attribute("data-status").unwrap(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("time_limit_exceeded/not_slow.cpp", "MISMATCH"),
            ("accepted/fast.cpp", "OK"),
            ("wrong_answer/off_by_one.cpp", "OK"),
        ]
    );
    for row in &rows {
        let cells: Vec<_> = row.children().filter(|n| has_class(n, "c")).collect();
        let named: Vec<_> = cells
            .iter()
            .map(|c| c.attribute("data-case").unwrap())
            .collect();
        assert_eq!(named, cases);
    }
    let wrong_row = rows[2];
    let verdicts: Vec<_> = wrong_row
        .children()
        .filter(|n| has_class(n, "c"))
        .map(|c| c.attribute("data-verdict").unwrap_or("none"))
        .collect();
    assert_eq!(
        verdicts,
        ["AC", "WA", "none"],
        "the case after the failure did not run"
    );
    let tip = wrong_row
        .children()
        .find(|n| n.attribute("data-verdict") == Some("WA"))
        .unwrap()
        .attribute("title")
        .unwrap();
    assert_eq!(
        tip,
        "02: WA — CPU 6 ms of 1 s — expected 3, found 4 (expected WA)"
    );
    assert!(has_class(&rows[0], "is-mismatch"));
    // The failing case of the stored WA is folded; the MISMATCH is open.
    let details: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("details"))
        .map(|n| (n.attribute("data-case"), n.attribute("open").is_some()))
        .collect();
    assert!(details.contains(&(Some("02"), false)), "{details:?}");
    assert!(details.contains(&(None, true)), "{details:?}");
}

#[test]
fn the_time_chart_draws_each_case_against_the_limit() {
    let mut near = outcome("big", Verdict::Accepted, "", 950);
    near.time_sensitive = true;
    let html = run_page(
        &["small", "big"],
        vec![outcome("small", Verdict::Accepted, "", 5), near],
    );
    let document = parse(&html);
    let svg = document
        .descendants()
        .find(|n| n.has_tag_name("svg"))
        .expect("a chart");
    let bars: Vec<String> = svg
        .descendants()
        .filter(|n| has_class(n, "bar"))
        .map(|n| text_of(&n))
        .collect();
    assert_eq!(
        bars,
        [
            "small: AC 5 ms of 1 s",
            "big: AC 950 ms of 1 s, near the limit"
        ]
    );
    let said: String = document
        .descendants()
        .find(|n| has_class(n, "near-limit"))
        .map(|n| text_of(&n))
        .expect("the near-limit cases said in words");
    assert!(
        said.contains("near the limit: big AC 950 ms of 1 s"),
        "{said}"
    );
    assert_eq!(
        svg.descendants().filter(|n| has_class(n, "limit")).count(),
        1
    );
    assert_eq!(
        svg.descendants().filter(|n| has_class(n, "band")).count(),
        1
    );
    let cell = document
        .descendants()
        .find(|n| n.attribute("data-case") == Some("big") && has_class(n, "c"))
        .unwrap();
    assert!(
        has_class(&cell, "near"),
        "the near-limit case is marked in the matrix"
    );
}

#[test]
fn calibrate_draws_each_programs_case_times_with_the_suggested_limit() {
    let calibration = ProblemCalibration {
        problem: "p".to_string(),
        current_limit: Duration::from_secs(1),
        case_count: 2,
        programs: vec![ProgramTiming {
            label: "solution".to_string(),
            role: Role::Solution,
            path: PathBuf::from("target/release/p"),
            time_multiplier: 1.0,
            slowest: Duration::from_millis(90),
            slowest_case: "02".to_string(),
            slowest_runs: Vec::new(),
            failures: Vec::new(),
            compile_error: None,
        }],
        suggested_limit: Some(Duration::from_millis(200)),
        within_noise: Some((Duration::from_millis(180), Duration::from_millis(200))),
        slow_checks: Vec::new(),
    };
    let plan = Plan::new(
        Command::Calibrate { repeat: 3 },
        vec![unit("p", "p", &["01", "02"])],
        1,
        crate::sandbox::Mode::Auto,
    );
    let (mut reporter, out) = Recorder::capture(Html);
    reporter.report(&Event::RunStarted(&plan)).unwrap();
    reporter
        .report(&Event::Started {
            unit: 0,
            label: "p: solution",
        })
        .unwrap();
    for pass in [[40, 90], [41, 95], [39, 80]] {
        for (case, ms) in ["01", "02"].iter().zip(pass) {
            let outcome = outcome(case, Verdict::Accepted, "", ms);
            reporter
                .report(&Event::CaseFinished {
                    unit: 0,
                    outcome: &outcome,
                })
                .unwrap();
        }
    }
    reporter
        .report(&Event::UnitFinished {
            unit: 0,
            result: Finished::Calibrated(&calibration),
        })
        .unwrap();
    reporter
        .report(&Event::RunFinished(&Summary::default()))
        .unwrap();
    let html = out.text();
    let document = parse(&html);
    let ticks: Vec<String> = document
        .descendants()
        .filter(|n| has_class(n, "tick"))
        .map(|n| text_of(&n))
        .collect();
    // The median of the three passes over each case.
    assert_eq!(ticks, ["01: 40 ms", "02: 90 ms"], "{html}");
    assert_eq!(
        document
            .descendants()
            .filter(|n| has_class(n, "suggested"))
            .count(),
        1
    );
    assert!(html.contains("suggested limit 200 ms (now 1 s)"));
}

#[test]
fn a_verify_of_651_cases_by_5_submissions_stays_a_few_megabytes() {
    let cases: Vec<String> = (0..651).map(|i| format!("all-{i:03}")).collect();
    let names: Vec<&str> = cases.iter().map(String::as_str).collect();
    let submissions: Vec<Verified> = (0..5)
        .map(|s| {
            let outcomes = cases
                .iter()
                .enumerate()
                .map(|(i, case)| {
                    let verdict = if s == 4 && i == 650 {
                        Verdict::WrongAnswer
                    } else {
                        Verdict::Accepted
                    };
                    outcome(case, verdict, "", (i % 97) as u64)
                })
                .collect();
            verified(
                &format!("accepted/s{s}.cpp"),
                Verdict::Accepted,
                outcomes,
                651,
            )
        })
        .collect();
    let units = submissions
        .iter()
        .map(|s| unit("p", &s.name, &names))
        .collect();
    let results: Vec<Finished<'_>> = submissions.iter().map(Finished::Verified).collect();
    let html = page_of(Command::Verify, units, &results);
    assert_eq!(html.matches("<td class=\"c ").count(), 651 * 5);
    assert!(html.len() < 3 << 20, "{} bytes", html.len());
}

#[test]
fn a_scored_submission_shows_its_score_beside_its_verdict() {
    let mut judged = report(
        "p",
        "p.c",
        vec![
            outcome("01", Verdict::Accepted, "", 5),
            outcome("02", Verdict::WrongAnswer, "expected 3, found 4", 6),
        ],
        2,
    );
    judged.score = Some(crate::judge::scoring::SubmissionScore::Incomplete {
        max_score: Some(100.0),
        reason: "cut short".to_string(),
    });
    let html = page_of(
        Command::Judge,
        vec![unit("p", "p.c", &["01", "02"])],
        &[Finished::Judged(&judged)],
    );
    assert!(html.contains("no score/100"), "{html}");
    judged.score = Some(crate::judge::scoring::SubmissionScore::Sheet(
        crate::score::ScoreSheet {
            score: Some(30.0),
            max_score: Some(100.0),
            verdict: Verdict::WrongAnswer,
            first_failure: Some("02".to_string()),
            groups: Vec::new(),
            cases: Vec::new(),
            faults: Vec::new(),
        },
    ));
    let html = page_of(
        Command::Judge,
        vec![unit("p", "p.c", &["01", "02"])],
        &[Finished::Judged(&judged)],
    );
    assert!(html.contains("score 30/100"), "{html}");
    let plain = report("p", "p.c", vec![outcome("01", Verdict::Accepted, "", 5)], 1);
    let html = page_of(
        Command::Judge,
        vec![unit("p", "p.c", &["01"])],
        &[Finished::Judged(&plain)],
    );
    assert!(!html.contains("score"), "a pass-fail page names no score");
}

/// Subtasks as two-n-queens has them: a sample worth nothing, `small` (30) and `large` (70),
/// each scored by its minimum.
fn subtasks() -> crate::score::Scoring {
    use crate::score::{CaseRule, CaseValue, Group, Item, Rule, Scoring};
    let case = |name: &str, worth: f64| Item::Case(CaseRule::new(name, CaseValue::Bounded(worth)));
    Scoring::new(Group::new(
        "",
        Rule::Sum,
        Some(100.0),
        vec![
            Item::Case(CaseRule::new("sample", CaseValue::Nothing)),
            Item::Group(Group::new(
                "small",
                Rule::Min,
                Some(30.0),
                vec![case("s1", 30.0), case("s2", 30.0)],
            )),
            Item::Group(Group::new(
                "large",
                Rule::Min,
                Some(70.0),
                vec![case("l1", 70.0), case("l2", 70.0)],
            )),
        ],
    ))
    .unwrap()
}

/// A stored submission of a scored problem, its cases and score as the judge makes them.
fn scored(
    name: &str,
    expected: Verdict,
    scoring: &crate::score::Scoring,
    verdicts: &[(&str, Verdict)],
    planned: usize,
) -> Verified {
    let outcomes: Vec<CaseOutcome> = verdicts
        .iter()
        .map(|&(case, verdict)| {
            let mut outcome = outcome(case, verdict, "", 5);
            crate::judge::scoring::score_case(&mut outcome, Some(scoring));
            outcome
        })
        .collect();
    let mut stored = verified(name, expected, outcomes, planned);
    stored.report.score = Some(crate::judge::scoring::score_submission(
        scoring,
        &stored.report.outcomes,
    ));
    stored
}

/// The matrix's band headings (name, colspan, text) and, per submission, its points row
/// (group, standing, points).
type Bands = Vec<(String, String, String)>;
type Points = Vec<(String, Vec<(String, String, Option<String>)>)>;

fn bands_of(document: &roxmltree::Document<'_>) -> (Bands, Points) {
    let heads = document
        .descendants()
        .filter(|n| n.has_tag_name("th") && has_class(n, "group"))
        .map(|n| {
            (
                n.attribute("data-group").unwrap().to_string(),
                n.attribute("colspan").unwrap().to_string(),
                text_of(&n),
            )
        })
        .collect();
    let points = document
        .descendants()
        .filter(|n| n.has_tag_name("tr") && has_class(n, "points"))
        .map(|row| {
            (
                row.attribute("data-points-of").unwrap().to_string(),
                row.children()
                    .filter(|n| has_class(n, "pts"))
                    .map(|n| {
                        (
                            n.attribute("data-group").unwrap().to_string(),
                            n.attribute("data-standing").unwrap().to_string(),
                            n.attribute("data-points").map(str::to_string),
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    (heads, points)
}

#[test]
fn a_scored_problems_columns_are_banded_by_group_with_each_rows_points() {
    let scoring = subtasks();
    let cases = ["sample", "s1", "s2", "l1", "l2"];
    let all = |verdict: Verdict| -> Vec<(&str, Verdict)> {
        cases.iter().map(|&c| (c, verdict)).collect()
    };
    let accepted = scored(
        "accepted/fast.cpp",
        Verdict::Accepted,
        &scoring,
        &all(Verdict::Accepted),
        5,
    );
    // Too slow on the first large case: `large` stops there (its minimum is 0).
    let slow = scored(
        "partially_accepted/slow.cpp",
        Verdict::TimeLimitExceeded,
        &scoring,
        &[
            ("sample", Verdict::Accepted),
            ("s1", Verdict::Accepted),
            ("s2", Verdict::Accepted),
            ("l1", Verdict::TimeLimitExceeded),
        ],
        5,
    );
    assert_eq!(slow.report.score.as_ref().unwrap().score(), Some(30.0));
    let shared = std::sync::Arc::new(scoring);
    let units = ["p/accepted/fast.cpp", "p/partially_accepted/slow.cpp"]
        .iter()
        .map(|label| Unit {
            scoring: Some(shared.clone()),
            ..unit("p", label, &cases)
        })
        .collect();
    let html = page_of(
        Command::Verify,
        units,
        &[Finished::Verified(&accepted), Finished::Verified(&slow)],
    );
    let document = parse(&html);
    let (heads, points) = bands_of(&document);
    let head =
        |name: &str, span: &str, text: &str| (name.to_string(), span.to_string(), text.to_string());
    assert_eq!(
        heads,
        [
            head("samples", "1", "samples"),
            head("small", "2", "small · 30"),
            head("large", "2", "large · 70"),
        ]
    );
    let got = |group: &str, standing: &str, points: Option<&str>| {
        (
            group.to_string(),
            standing.to_string(),
            points.map(str::to_string),
        )
    };
    assert_eq!(
        points,
        [
            (
                "accepted/fast.cpp".to_string(),
                vec![
                    got("samples", "pass", None),
                    got("small", "pass", Some("30")),
                    got("large", "pass", Some("70")),
                ]
            ),
            (
                "partially_accepted/slow.cpp".to_string(),
                vec![
                    got("samples", "pass", None),
                    got("small", "pass", Some("30")),
                    got("large", "fail", Some("0")),
                ]
            ),
        ]
    );
    // Each points row comes right under its submission's row.
    let rows: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.parent().is_some_and(|p| p.has_tag_name("tbody")))
        .filter(|n| has_class(n, "sub") || has_class(n, "points"))
        .map(|n| {
            n.attribute("data-submission")
                .or(n.attribute("data-points-of"))
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        rows,
        [
            "accepted/fast.cpp",
            "accepted/fast.cpp",
            "partially_accepted/slow.cpp",
            "partially_accepted/slow.cpp"
        ]
    );
    // A line down the matrix where each band but the first begins.
    let slow_row = document
        .descendants()
        .find(|n| n.attribute("data-submission") == Some("partially_accepted/slow.cpp"))
        .unwrap();
    let lined: Vec<&str> = slow_row
        .children()
        .filter(|n| has_class(n, "c") && has_class(n, "band"))
        .map(|n| n.attribute("data-case").unwrap())
        .collect();
    assert_eq!(lined, ["s1", "l1"]);
    // Beside the verdicts, every group's points at once, coloured by how it went.
    let chips: Vec<(String, String)> = document
        .descendants()
        .find(|n| n.attribute("data-points-of") == Some("partially_accepted/slow.cpp"))
        .unwrap()
        .descendants()
        .filter(|n| has_class(n, "chip"))
        .map(|n| {
            let class = n.attribute("class").unwrap().replace("chip ", "");
            (text_of(&n), class)
        })
        .collect();
    let chip = |text: &str, class: &str| (text.to_string(), class.to_string());
    assert_eq!(
        chips,
        [
            chip("samples", "pass"),
            chip("small 30", "pass"),
            chip("large 0", "fail")
        ]
    );
    // The header cells, the points cells and the case columns line up: as many columns each.
    let width = |row: roxmltree::Node<'_, '_>| -> usize {
        row.children()
            .filter(roxmltree::Node::is_element)
            .map(|n| n.attribute("colspan").map_or(1, |s| s.parse().unwrap()))
            .sum()
    };
    let widths: Vec<usize> = document
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.ancestors().any(|a| has_class(&a, "matrix")))
        .map(width)
        .collect();
    assert!(widths.iter().all(|&w| w == 4 + cases.len()), "{widths:?}");
    let not_run = slow_row
        .children()
        .find(|n| n.attribute("data-case") == Some("l2"))
        .unwrap();
    assert!(has_class(&not_run, "none"));
}

#[test]
fn points_per_case_make_one_band_and_a_pass_fail_problem_none() {
    use crate::score::{CaseRule, CaseValue, Group, Item, Rule, Scoring};
    let scoring = Scoring::new(Group::new(
        "",
        Rule::Sum,
        Some(100.0),
        vec![
            Item::Case(CaseRule::new("sample", CaseValue::Nothing)),
            Item::Case(CaseRule::new("01", CaseValue::Bounded(50.0))),
            Item::Case(CaseRule::new("02", CaseValue::Bounded(50.0))),
        ],
    ))
    .unwrap();
    let cases = ["sample", "01", "02"];
    let half = scored(
        "partially_accepted/half.py",
        Verdict::WrongAnswer,
        &scoring,
        &[
            ("sample", Verdict::WrongAnswer),
            ("01", Verdict::Accepted),
            ("02", Verdict::WrongAnswer),
        ],
        3,
    );
    let html = page_of(
        Command::Verify,
        vec![Unit {
            scoring: Some(std::sync::Arc::new(scoring)),
            ..unit("p", "p/partially_accepted/half.py", &cases)
        }],
        &[Finished::Verified(&half)],
    );
    let document = parse(&html);
    let (heads, points) = bands_of(&document);
    let names: Vec<(&str, &str, &str)> = heads
        .iter()
        .map(|(n, s, t)| (n.as_str(), s.as_str(), t.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("samples", "1", "samples"),
            ("points per case", "2", "points per case · 100")
        ]
    );
    let standings: Vec<(&str, &str, Option<&str>)> = points[0]
        .1
        .iter()
        .map(|(g, s, p)| (g.as_str(), s.as_str(), p.as_deref()))
        .collect();
    assert_eq!(
        standings,
        [
            ("samples", "fail", None),
            ("points per case", "partial", Some("50"))
        ]
    );
    let cell = document
        .descendants()
        .find(|n| has_class(n, "c") && n.attribute("data-case") == Some("01"))
        .unwrap();
    assert!(
        cell.attribute("title").unwrap().contains("50 of 50 points"),
        "{:?}",
        cell.attribute("title")
    );

    // Without scoring, no bands and no points rows.
    let plain = verified(
        "accepted/fast.cpp",
        Verdict::Accepted,
        vec![outcome("01", Verdict::Accepted, "", 5)],
        1,
    );
    let html = page_of(
        Command::Verify,
        vec![unit("p", "p/accepted/fast.cpp", &["01"])],
        &[Finished::Verified(&plain)],
    );
    let (heads, points) = bands_of(&parse(&html));
    assert!(heads.is_empty() && points.is_empty(), "{html}");
}
