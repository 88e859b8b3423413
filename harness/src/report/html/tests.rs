//! The HTML report on hand-built events. The page is written as well-formed XML (void
//! elements closed, no named entities), so these tests read it with roxmltree, as a browser
//! would build its tree.

use std::path::PathBuf;
use std::time::Duration;

use super::*;
use crate::event::{Command, Plan, Unit};
use crate::judge::calibrate::{ProgramTiming, Role};
use crate::judge::submission::CompileOutcome;
use crate::judge::verify::Expected;
use crate::judge::{CaseOutcome, Mismatch};
use crate::sandbox::run::Limits;
use crate::verdict::Verdict;

const EVIL: &str = "<script>alert('x')</script>";

fn outcome(case: &str, verdict: Verdict, reason: &str, cpu_ms: u64) -> CaseOutcome {
    CaseOutcome {
        cpu_time: Duration::from_millis(cpu_ms),
        wall_time: Duration::from_millis(cpu_ms + 1),
        peak_memory_bytes: 2 << 20,
        ..CaseOutcome::new(case, verdict, reason)
    }
}

fn limits() -> Limits {
    Limits {
        cpu_time: Duration::from_secs(1),
        wall_time: Duration::from_secs(3),
        memory_bytes: 256 << 20,
        output_bytes: 64 << 20,
    }
}

fn report(
    problem: &str,
    source: &str,
    outcomes: Vec<CaseOutcome>,
    planned: usize,
) -> SubmissionReport {
    SubmissionReport {
        problem: problem.to_string(),
        title: format!("Title of {problem}"),
        source: PathBuf::from(source),
        language: None,
        limits: limits(),
        compile: CompileOutcome {
            ok: true,
            message: String::new(),
        },
        verdict: crate::judge::overall_verdict(&outcomes),
        planned_cases: planned,
        outcomes,
        elapsed: Duration::from_millis(10),
        jobs: 1,
        score: None,
    }
}

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
    let mut reporter = HtmlReporter::new(Vec::new());
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
    String::from_utf8(reporter.out).unwrap()
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
    let mut wrong = outcome(
        EVIL,
        Verdict::WrongAnswer,
        "expected <b>3</b> & found \"4\"",
        12,
    );
    wrong.mismatch = Some(Mismatch {
        output: b"</pre><script>alert(1)</script>\n".to_vec(),
        answer: b"3\n".to_vec(),
        hint: None,
    });
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
    let judged = report(
        "sum",
        "sum.c",
        vec![outcome("01", Verdict::Accepted, "", 5)],
        1,
    );
    let html = page_of(
        Command::Run,
        vec![unit("sum", "sum", &["01"])],
        &[Finished::Judged(&judged)],
    );
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
    let judged = report(
        "sum",
        "sum.c",
        vec![outcome("01", Verdict::Accepted, "", 5)],
        1,
    );
    let html = page_of(
        Command::Run,
        vec![unit("sum", "sum", &["01"])],
        &[Finished::Judged(&judged)],
    );
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
    let accepted = verified(
        "accepted/fast.cpp",
        Verdict::Accepted,
        vec![
            outcome("01", Verdict::Accepted, "", 5),
            outcome("02", Verdict::Accepted, "", 7),
            outcome("03", Verdict::Accepted, "", 950),
        ],
        3,
    );
    let wrong = verified(
        "wrong_answer/off_by_one.cpp",
        Verdict::WrongAnswer,
        vec![
            outcome("01", Verdict::Accepted, "", 5),
            outcome("02", Verdict::WrongAnswer, "expected 3, found 4", 6),
        ],
        3,
    );
    // Stored as too slow, but accepted: a MISMATCH.
    let slow = verified(
        "time_limit_exceeded/not_slow.cpp",
        Verdict::TimeLimitExceeded,
        vec![
            outcome("01", Verdict::Accepted, "", 5),
            outcome("02", Verdict::Accepted, "", 6),
            outcome("03", Verdict::Accepted, "", 7),
        ],
        3,
    );
    let units = vec![
        unit("p", "p/accepted/fast.cpp", &cases),
        unit("p", "p/wrong_answer/off_by_one.cpp", &cases),
        unit("p", "p/time_limit_exceeded/not_slow.cpp", &cases),
    ];
    let html = page_of(
        Command::Verify,
        units,
        &[
            Finished::Verified(&accepted),
            Finished::Verified(&wrong),
            Finished::Verified(&slow),
        ],
    );
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
    let judged = report(
        "sum",
        "sum.c",
        vec![outcome("small", Verdict::Accepted, "", 5), near],
        2,
    );
    let html = page_of(
        Command::Run,
        vec![unit("sum", "sum", &["small", "big"])],
        &[Finished::Judged(&judged)],
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
            failures: Vec::new(),
            compile_error: None,
        }],
        suggested_limit: Some(Duration::from_millis(200)),
        slow_checks: Vec::new(),
    };
    let plan = Plan::new(
        Command::Calibrate { repeat: 3 },
        vec![unit("p", "p", &["01", "02"])],
        1,
        crate::sandbox::Mode::Auto,
    );
    let mut reporter = HtmlReporter::new(Vec::new());
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
    let html = String::from_utf8(reporter.out).unwrap();
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
fn outputs_past_the_failures_shown_are_not_kept() {
    let outcomes: Vec<CaseOutcome> = (0..40)
        .map(|i| {
            let mut wrong = outcome(&format!("{i:02}"), Verdict::WrongAnswer, "no", 1);
            wrong.mismatch = Some(Mismatch {
                output: vec![b'x'; 1000],
                answer: b"y\n".to_vec(),
                hint: None,
            });
            wrong
        })
        .collect();
    let kept = lightened(&report("p", "p.c", outcomes, 40));
    let with_output = kept
        .outcomes
        .iter()
        .filter(|o| o.mismatch.is_some())
        .count();
    assert_eq!(with_output, render::FAILURES_SHOWN);
    assert_eq!(
        kept.outcomes.len(),
        40,
        "every case keeps its verdict and time"
    );
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
