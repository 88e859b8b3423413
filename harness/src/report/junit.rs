//! JUnit XML, so CI systems (GitHub, GitLab, Jenkins) show judged cases as tests: one
//! `<testsuite>` per problem, one `<testcase>` per case (per stored submission for
//! `harness verify`). Written with nextest's `quick-junit`, which escapes every string and
//! counts the tests.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use crate::case::partition::Partition;
use crate::event::Command;
use crate::judge::submission::SubmissionReport;
use crate::judge::verify::Verified;
use crate::judge::CaseOutcome;
use crate::report::diff::{self, DiffOptions};
use crate::report::record::{Exporter, Record};
use crate::sandbox::run::Limits;
use crate::text::tail_lines;
use crate::verdict::Verdict;

/// How every JUnit file the harness writes begins (its `<testsuites name>` is the command,
/// `harness run`): a file that begins so is an earlier report, replaced without being told.
pub const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"harness ";

/// The JUnit report, as its errors name it.
pub const JUNIT: crate::atomic::Report = crate::atomic::Report {
    what: "the JUnit report",
    option: "--junit",
    example: "junit.xml",
    marker: HEAD,
};

/// Lines of diff kept in a failure's text: CI pages show it inline.
const DIFF_LINES: usize = 40;
/// Lines of stderr kept per case.
const STDERR_LINES: usize = 20;

/// JUnit XML: a `<testsuite>` per problem (`run`, `judge`) or a test per stored submission
/// (`verify`). Other commands have no JUnit view.
pub struct Junit;

impl Exporter for Junit {
    fn export(&self, record: &Record) -> Option<Vec<u8>> {
        let plan = &record.plan;
        let run = run_properties(plan.jobs, plan.partition);
        let suites: Vec<TestSuite> = match plan.command {
            Command::Run => record.judged().map(|r| problem_suite(r, &run)).collect(),
            Command::Judge => record.judged().map(|r| submission_suite(r, &run)).collect(),
            Command::Verify => verify_suites(record.verified(), &run),
            Command::Calibrate { .. } | Command::Stress { .. } | Command::Gen { .. } => {
                return None
            }
        };
        document(plan.command.title(), suites)
    }

    fn diffs(&self) -> usize {
        usize::MAX
    }
}

/// The file: the command (`harness run`) over its suites, timed as their sum. Built whole and
/// written once: a half-written file is worse than none for CI.
fn document(command: &str, suites: Vec<TestSuite>) -> Option<Vec<u8>> {
    let mut report = Report::new(command);
    let time = suites.iter().filter_map(|s| s.time).sum();
    report.set_time(time).add_test_suites(suites);
    report.to_string().ok().map(String::into_bytes)
}

/// One judged case: a failure for every verdict but AC, an error for a judge error; skipped
/// when it ran but nothing could check it (no answer), which CI must not count as passed.
fn case_test(classname: &str, outcome: &CaseOutcome) -> TestCase {
    let status = if !outcome.verdict.is_accepted() {
        let message = if outcome.reason.is_empty() {
            outcome.verdict.as_str().to_string()
        } else {
            outcome.reason.clone()
        };
        let text = failure_text(outcome, &message);
        failure(outcome.verdict, &message, &text)
    } else if !outcome.checked() {
        let mut status = TestCaseStatus::skipped();
        let ran = crate::results::case::RAN_NOT_CHECKED;
        status.set_message(xml_text(&format!("{ran}: {}", outcome.reason)));
        status
    } else {
        TestCaseStatus::success()
    };
    let mut case = test(classname, &outcome.case, status, outcome.cpu_time);
    // A passing case near the limit has no failure to carry the warning: CI shows
    // system-out beside the test.
    if outcome.time_sensitive {
        case.set_system_out(format!(
            "near the time limit: CPU {} ms (within 10% of the limit)",
            outcome.cpu_time.as_millis()
        ));
    }
    with_stderr(case, &outcome.stderr_tail)
}

/// A test named `name` of `classname` (the problem) that took `time` (CPU).
fn test(classname: &str, name: &str, status: TestCaseStatus, time: Duration) -> TestCase {
    let mut case = TestCase::new(name, status);
    case.set_classname(classname).set_time(time);
    case
}

/// A failure (an error for a judge error: nothing was judged) of this verdict, its one-line
/// message and its text (measurements, the diff, a compiler's message).
fn failure(verdict: Verdict, message: &str, text: &str) -> TestCaseStatus {
    let kind = if verdict == Verdict::JudgeError {
        NonSuccessKind::Error
    } else {
        NonSuccessKind::Failure
    };
    let mut status = TestCaseStatus::non_success(kind);
    status
        .set_type(verdict.as_str())
        .set_message(xml_text(message))
        .set_description(xml_text(text));
    status
}

/// quick-junit drops the control characters XML 1.0 forbids, but not U+FFFE and U+FFFF, which
/// it forbids too: a program's output or stderr holding one would make the whole file
/// unreadable. Shown as `\u{fffe}`, so the reader still sees what was there.
fn xml_text(text: &str) -> String {
    text.replace('\u{fffe}', "\\u{fffe}")
        .replace('\u{ffff}', "\\u{ffff}")
}

/// `case` with the end of the program's stderr, when it wrote any.
fn with_stderr(mut case: TestCase, stderr: &str) -> TestCase {
    if !stderr.is_empty() {
        case.set_system_err(xml_text(&tail_lines(stderr, STDERR_LINES).join("\n")));
    }
    case
}

/// A suite of these tests, with these properties and, last, how many were near the limit.
fn suite(name: &str, mut properties: Vec<Property>, cases: Vec<TestCase>) -> TestSuite {
    let near = cases.iter().filter(|c| c.system_out.is_some()).count();
    properties.push(Property::new("time-sensitive-cases", near.to_string()));
    let mut suite = TestSuite::new(name);
    let time = cases.iter().filter_map(|c| c.time).sum();
    suite
        .set_time(time)
        .add_properties(properties)
        .add_test_cases(cases);
    suite
}

/// The `<testsuite>` of a problem's solution (`harness run`).
fn problem_suite(problem: &SubmissionReport, run: &[Property]) -> TestSuite {
    let mut properties = vec![Property::new(
        "program",
        problem.source.display().to_string(),
    )];
    properties.extend(limit_properties(&problem.limits));
    properties.extend_from_slice(run);
    properties.extend(score_properties("", problem));
    let cases = problem.outcomes.iter();
    let cases = cases.map(|o| case_test(&problem.problem, o)).collect();
    suite(&problem.problem, properties, cases)
}

/// The `<testsuite>` of `harness judge`: the problem's, with the submission as a property. A
/// compile error is one failing test named `compile`, since no case ran.
fn submission_suite(report: &SubmissionReport, run: &[Property]) -> TestSuite {
    let language = report.language.as_ref().map(|l| l.id.as_str());
    let mut properties = vec![
        Property::new("submission", report.source.display().to_string()),
        Property::new("language", language.unwrap_or_default()),
        Property::new("verdict", report.verdict_code()),
    ];
    properties.extend(limit_properties(&report.limits));
    properties.extend_from_slice(run);
    properties.extend(score_properties("", report));
    let cases = if report.compile.ok {
        let cases = report.outcomes.iter();
        cases.map(|o| case_test(&report.problem, o)).collect()
    } else {
        vec![compile_error_test(&report.problem, "compile", report)]
    };
    suite(&report.problem, properties, cases)
}

/// `harness verify`: a suite per problem, in the order the problems first come, holding a
/// test per stored submission and each one's score properties.
fn verify_suites<'a>(
    verified: impl Iterator<Item = &'a Verified>,
    run: &[Property],
) -> Vec<TestSuite> {
    let mut problems: Vec<(&str, Vec<Property>, Vec<TestCase>)> = Vec::new();
    for result in verified {
        let problem = result.report.problem.as_str();
        let case = verified_test(result);
        let scores = score_properties(&format!("{}:", case.name.as_str()), &result.report);
        let at = match problems.iter().position(|(name, ..)| *name == problem) {
            Some(at) => at,
            None => {
                problems.push((problem, run.to_vec(), Vec::new()));
                problems.len() - 1
            }
        };
        problems[at].1.extend(scores);
        problems[at].2.push(case);
    }
    let suites = problems.into_iter();
    suites
        .map(|(name, properties, cases)| suite(name, properties, cases))
        .collect()
}

/// A stored submission of `harness verify` as a test, failing when it did not get the verdict
/// its folder names.
fn verified_test(result: &Verified) -> TestCase {
    let problem = &result.report.problem;
    let name = result.name.strip_prefix(&format!("{problem}/"));
    let name = name.unwrap_or(&result.name);
    let got = &result.report;
    // A submission that did not compile ran no case: nothing decided, no time.
    let decided = got.first_failure();
    let status = if result.ok() {
        TestCaseStatus::success()
    } else {
        let on = decided.map(|o| format!(" on `{}`: {}", o.case, o.reason));
        let message = match &result.score_check {
            crate::score::ScoreCheck::Mismatch(why) if result.expected.allows(got.verdict) => {
                why.clone()
            }
            _ => format!(
                "expected {}, got {}{}",
                result.expected.as_str(),
                got.verdict.as_str(),
                on.unwrap_or_default()
            ),
        };
        let text = match decided {
            _ if !got.compile.ok => format!("{}\n", got.compile.message.trim_end()),
            Some(outcome) => failure_text(outcome, &message),
            None => format!("every case was AC ({} cases)\n", got.outcomes.len()),
        };
        failure(got.verdict, &message, &text)
    };
    let case = test(problem, name, status, got.max_cpu_time());
    with_stderr(case, decided.map_or("", |o| o.stderr_tail.as_str()))
}

/// A submission that did not compile, as one failing test carrying the compiler's message.
fn compile_error_test(classname: &str, name: &str, report: &SubmissionReport) -> TestCase {
    let message = &report.compile.message;
    let first = message.lines().next().unwrap_or("compile error");
    let text = format!("{}\n", message.trim_end());
    let status = failure(Verdict::CompileError, first, &text);
    test(classname, name, status, Duration::ZERO)
}

/// A scored submission's score as properties: `score`, `max-score` and `group.NAME` (`30/30
/// AC`), each name after `prefix` (a stored submission's name in `verify`'s suite). None for
/// a pass-fail problem.
pub fn score_properties(prefix: &str, report: &SubmissionReport) -> Vec<Property> {
    let Some(score) = report.score.as_ref().filter(|_| report.compile.ok) else {
        return Vec::new();
    };
    let number = |n: Option<f64>| n.map(crate::score::format_score).unwrap_or_default();
    let mut properties = vec![
        Property::new(format!("{prefix}score"), number(score.score())),
        Property::new(format!("{prefix}max-score"), number(score.max_score())),
    ];
    for group in score.groups() {
        let verdict = group.verdict.map_or("not judged", |v| v.as_str());
        let points = super::score::points(group.score, group.max_score);
        properties.push(Property::new(
            format!("{prefix}group.{}", group.name),
            format!("{points} {verdict}"),
        ));
    }
    properties
}

/// The limits as properties, in the units the JSON report uses.
pub fn limit_properties(limits: &Limits) -> [Property; 4] {
    let ms = |d: Duration| d.as_millis().to_string();
    let kib = |bytes: u64| (bytes / 1024).to_string();
    [
        Property::new("time-limit-ms", ms(limits.cpu_time)),
        Property::new("wall-limit-ms", ms(limits.wall_time)),
        Property::new("memory-limit-kib", kib(limits.memory_bytes)),
        Property::new("output-limit-kib", kib(limits.output_bytes)),
    ]
}

/// How the cases were run: at once or not (wall times of parallel runs are inflated), and
/// which slice of a split suite this file holds.
pub fn run_properties(jobs: usize, partition: Option<Partition>) -> Vec<Property> {
    let mut properties = vec![
        Property::new("jobs", jobs.to_string()),
        Property::new("parallel", (jobs > 1).to_string()),
    ];
    if let Some(partition) = partition {
        properties.push(Property::new("partition", partition.to_string()));
    }
    properties
}

/// The body of a failure: the verdict and reason, the measurements, and for a wrong answer
/// the same diff the terminal shows, without colors.
fn failure_text(outcome: &CaseOutcome, message: &str) -> String {
    let mut body = format!(
        "{}: {message}\nCPU {} ms, wall {} ms, peak memory {} KiB",
        outcome.verdict.as_str(),
        outcome.cpu_time.as_millis(),
        outcome.wall_time.as_millis(),
        outcome.peak_memory_bytes / 1024
    );
    if outcome.time_sensitive {
        body.push_str(" (near the time limit)");
    }
    body.push('\n');
    if let Some(mismatch) = &outcome.mismatch {
        let options = DiffOptions {
            max_lines: DIFF_LINES,
            ..DiffOptions::default()
        };
        body.push_str(&diff::diff_to_string(
            &mismatch.output,
            &mismatch.answer,
            &options,
        ));
    }
    if let Some(interaction) = &outcome.interaction {
        // The dialogue, as the `.interaction` files write it.
        body.push_str(&format!(
            "interactor: CPU {} ms, peak memory {} KiB; dialogue, > from the submission, < to it:\n{}",
            interaction.interactor_cpu_time.as_millis(),
            interaction.interactor_peak_memory_bytes / 1024,
            interaction.transcript.to_interaction()
        ));
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Finished;
    use crate::report::fixtures::{limits, outcome, with_mismatch};

    /// The report of one `harness run` suite of `sum` on these outcomes.
    fn render(outcomes: &[CaseOutcome], run: &[Property]) -> String {
        let mut properties = vec![Property::new("program", "target/release/sum")];
        properties.extend(limit_properties(&limits()));
        properties.extend_from_slice(run);
        let cases = outcomes.iter().map(|o| case_test("sum", o)).collect();
        let xml = document("harness run", vec![suite("sum", properties, cases)]);
        String::from_utf8(xml.unwrap()).unwrap()
    }

    #[test]
    fn what_a_program_writes_cannot_break_the_file() {
        let hostile =
            "a<b & \"c\" \u{1b}[31mred\u{1b}[0m nul\0bell\u{7}\u{fffe}\u{ffff}\r\nünïcode ✓";
        let mut case = outcome("hostile", Verdict::WrongAnswer, hostile, 1);
        case.stderr_tail = hostile.to_string();
        let xml = render(&[case], &[]);
        let document = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
        let failure = document
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        // Escapes and the control characters XML 1.0 forbids are gone; the rest reads back,
        // but for a line break in an attribute, which XML reads as a space.
        assert_eq!(
            failure.attribute("message"),
            Some("a<b & \"c\" red nulbell\\u{fffe}\\u{ffff} ünïcode ✓")
        );
        let stderr = document
            .descendants()
            .find(|n| n.has_tag_name("system-err"))
            .unwrap();
        let text = "a<b & \"c\" red nulbell\\u{fffe}\\u{ffff}\nünïcode ✓";
        assert_eq!(stderr.text(), Some(text));
    }

    #[test]
    fn counts_follow_the_verdicts() {
        let outcomes = [
            outcome("1", Verdict::Accepted, "", 10),
            outcome("2", Verdict::WrongAnswer, "no", 20),
            outcome("3", Verdict::JudgeError, "checker crashed", 0),
            outcome("4", Verdict::TimeLimitExceeded, "slow", 1500),
            CaseOutcome {
                unanswered: Some(b"5\n".to_vec()),
                ..outcome("5", Verdict::Accepted, "no answer to compare with", 0)
            },
        ];
        let cases = outcomes.iter().map(|o| case_test("p", o)).collect();
        let suite = suite("p", Vec::new(), cases);
        let counts = (suite.tests, suite.failures, suite.errors, suite.skipped);
        assert_eq!(counts, (5, 2, 1, 1));
        assert_eq!(suite.time, Some(Duration::from_millis(1530)));
        let TestCaseStatus::Skipped { message, .. } = &suite.test_cases[4].status else {
            panic!("not skipped: {:?}", suite.test_cases[4]);
        };
        assert_eq!(
            message.as_ref().map(quick_junit::XmlString::as_str),
            Some("ran, not checked: no answer to compare with")
        );
    }

    #[test]
    fn a_small_report() {
        let mut wrong = with_mismatch(
            outcome(
                "secret/02",
                Verdict::WrongAnswer,
                "expected 3, found <4>",
                12,
            ),
            b"4\n",
            b"3\n",
        );
        wrong.stderr_tail = "debug \u{1b}[1mx\u{1b}[0m\n".to_string();
        let mut near = outcome("big", Verdict::Accepted, "", 950);
        near.time_sensitive = true;
        let outcomes = [
            outcome("sample-1", Verdict::Accepted, "", 1),
            wrong,
            near,
            outcome(
                "broken",
                Verdict::JudgeError,
                "cannot read answer file `x.ans`",
                0,
            ),
        ];
        let run = run_properties(2, Some(Partition { index: 1, count: 3 }));
        let rendered = render(&outcomes, &run);
        // An earlier report is known by its head: the next run replaces it.
        assert!(rendered.starts_with(HEAD), "{rendered}");
        insta::assert_snapshot!(rendered);
    }

    fn submission(outcomes: Vec<CaseOutcome>, compiled: bool) -> SubmissionReport {
        let mut report = crate::report::fixtures::report("sum", "mine.c", outcomes, 3);
        report.language = crate::config::languages::builtin()
            .into_iter()
            .find(|l| l.id == "c");
        if !compiled {
            report.compile.ok = false;
            report.compile.message = "mine.c:3: error: expected ';'\n  3 | x = 1".to_string();
            report.verdict = Verdict::CompileError;
        }
        report
    }

    /// What the JUnit export is for `command` on these finished units.
    fn report_of(command: Command, results: &[Finished<'_>], jobs: usize) -> String {
        crate::report::record::Recorder::exported(Junit, command, results, jobs)
    }

    #[test]
    fn a_compile_error_is_one_failing_test() {
        let report = submission(Vec::new(), false);
        let xml = report_of(Command::Judge, &[Finished::Judged(&report)], 1);
        let document = roxmltree::Document::parse(&xml).unwrap();
        let cases: Vec<_> = document
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].attribute("name"), Some("compile"));
        let failure = cases[0].first_element_child().unwrap();
        assert_eq!(failure.attribute("type"), Some("CE"));
        assert_eq!(
            failure.attribute("message"),
            Some("mine.c:3: error: expected ';'")
        );
        assert_eq!(document.root_element().attribute("failures"), Some("1"));
    }

    #[test]
    fn verify_has_a_test_per_submission_failing_on_a_mismatch() {
        use crate::judge::verify::Verified;
        let slow = Verified {
            name: "sum/time_limit_exceeded/slow.c".to_string(),
            expected: Verdict::TimeLimitExceeded.into(),
            report: submission(
                vec![
                    outcome("1", Verdict::Accepted, "", 5),
                    outcome("2", Verdict::WrongAnswer, "expected 3, found 4", 7),
                ],
                true,
            ),
            expected_score: None,
            score_check: crate::score::ScoreCheck::Ok,
        };
        let fine = Verified {
            name: "sum/accepted/mine.c".to_string(),
            expected: Verdict::Accepted.into(),
            report: submission(vec![outcome("1", Verdict::Accepted, "", 5)], true),
            expected_score: None,
            score_check: crate::score::ScoreCheck::Ok,
        };
        let xml = report_of(
            Command::Verify,
            &[Finished::Verified(&slow), Finished::Verified(&fine)],
            2,
        );
        let document = roxmltree::Document::parse(&xml).unwrap();
        let suites: Vec<_> = document
            .descendants()
            .filter(|n| n.has_tag_name("testsuite"))
            .collect();
        assert_eq!(suites.len(), 1, "one suite per problem");
        assert_eq!(suites[0].attribute("tests"), Some("2"));
        assert_eq!(suites[0].attribute("failures"), Some("1"));
        let failure = document
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        assert_eq!(
            failure.parent().unwrap().attribute("name"),
            Some("time_limit_exceeded/slow.c")
        );
        assert_eq!(failure.attribute("type"), Some("WA"));
        assert_eq!(
            failure.attribute("message"),
            Some("expected TLE, got WA on `2`: expected 3, found 4")
        );
    }
}
