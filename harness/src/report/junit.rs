//! JUnit XML, so CI systems (GitHub, GitLab, Jenkins) show judged cases as tests: one
//! `<testsuite>` per problem, one `<testcase>` per case (per stored submission for
//! `harness verify`). Written by hand: the format is small, and the one thing that needs
//! care, escaping, is done here for every string.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

use crate::case::partition::Partition;
use crate::event::{Command, Event, Finished};
use crate::judge::submission::SubmissionReport;
use crate::judge::verify::Verified;
use crate::judge::CaseOutcome;
use crate::report::diff::{self, DiffOptions};
use crate::report::reporter::Reporter;
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

/// Everything one JUnit file says.
#[derive(Debug, Clone)]
pub struct JunitReport {
    /// The `<testsuites name>`: which command judged (`harness run`).
    pub name: String,
    pub suites: Vec<JunitSuite>,
}

/// One `<testsuite>`: one problem.
#[derive(Debug, Clone)]
pub struct JunitSuite {
    pub name: String,
    /// `<property>` pairs, in order: the program, the limits, how the run was split.
    pub properties: Vec<(String, String)>,
    pub cases: Vec<JunitCase>,
}

/// One `<testcase>`.
#[derive(Debug, Clone)]
pub struct JunitCase {
    /// The problem.
    pub classname: String,
    /// The case (or the stored submission).
    pub name: String,
    /// CPU time.
    pub time: Duration,
    /// `None` when it passed.
    pub failure: Option<Failure>,
    /// `<skipped>`'s message: a case that ran but that nothing could check (no answer), which
    /// CI must not count as passed.
    pub skipped: Option<String>,
    pub system_out: Option<String>,
    pub system_err: String,
}

/// Why a test case did not pass.
#[derive(Debug, Clone)]
pub struct Failure {
    /// `<error>` (the judge failed, so nothing was judged) rather than `<failure>`.
    pub error: bool,
    /// The `type` attribute: a verdict code.
    pub kind: String,
    /// The one-line reason.
    pub message: String,
    /// The element's text: measurements, the diff, a compiler's message.
    pub text: String,
}

impl JunitCase {
    /// One judged case: a failure for every verdict but AC, an error for a judge error.
    pub fn from_outcome(classname: &str, outcome: &CaseOutcome) -> Self {
        let failure = (!outcome.verdict.is_accepted()).then(|| {
            let message = if outcome.reason.is_empty() {
                outcome.verdict.as_str().to_string()
            } else {
                outcome.reason.clone()
            };
            Failure {
                error: outcome.verdict == Verdict::JudgeError,
                kind: outcome.verdict.as_str().to_string(),
                text: failure_text(outcome, &message),
                message,
            }
        });
        // A passing case near the limit has no failure to carry the warning: CI shows
        // system-out beside the test.
        let system_out = outcome.time_sensitive.then(|| {
            format!(
                "near the time limit: CPU {} ms (within 10% of the limit)",
                outcome.cpu_time.as_millis()
            )
        });
        let skipped = (!outcome.checked()).then(|| {
            format!(
                "{}: {}",
                crate::results::case::RAN_NOT_CHECKED,
                outcome.reason
            )
        });
        JunitCase {
            classname: classname.to_string(),
            name: outcome.case.clone(),
            time: outcome.cpu_time,
            failure,
            skipped,
            system_out,
            system_err: tail_lines(&outcome.stderr_tail, STDERR_LINES).join("\n"),
        }
    }

    fn is_error(&self) -> bool {
        self.failure.as_ref().is_some_and(|f| f.error)
    }
}

/// The `<testsuite>` of a problem's solution (`harness run`).
fn problem_suite(
    problem: &SubmissionReport,
    jobs: usize,
    partition: Option<Partition>,
) -> JunitSuite {
    let mut properties = vec![("program".to_string(), problem.source.display().to_string())];
    properties.extend(limit_properties(&problem.limits));
    properties.extend(run_properties(jobs, partition));
    properties.extend(score_properties("", problem));
    JunitSuite {
        name: problem.problem.clone(),
        properties,
        cases: problem
            .outcomes
            .iter()
            .map(|o| JunitCase::from_outcome(&problem.problem, o))
            .collect(),
    }
}

/// The `<testsuite>` of `harness judge`: the problem's, with the submission as a property. A
/// compile error is one failing test named `compile`, since no case ran.
fn submission_suite(
    report: &SubmissionReport,
    jobs: usize,
    partition: Option<Partition>,
) -> JunitSuite {
    let mut properties = vec![
        (
            "submission".to_string(),
            report.source.display().to_string(),
        ),
        (
            "language".to_string(),
            report
                .language
                .as_ref()
                .map(|l| l.id.clone())
                .unwrap_or_default(),
        ),
        ("verdict".to_string(), report.verdict_code().to_string()),
    ];
    properties.extend(limit_properties(&report.limits));
    properties.extend(run_properties(jobs, partition));
    properties.extend(score_properties("", report));
    let cases = if report.compile.ok {
        report
            .outcomes
            .iter()
            .map(|o| JunitCase::from_outcome(&report.problem, o))
            .collect()
    } else {
        vec![compile_error_case(&report.problem, "compile", report)]
    };
    JunitSuite {
        name: report.problem.clone(),
        properties,
        cases,
    }
}

/// A stored submission of `harness verify` as a test, failing when it did not get the verdict
/// its folder names.
fn verified_case(result: &Verified) -> JunitCase {
    let problem = &result.report.problem;
    let name = result
        .name
        .strip_prefix(&format!("{problem}/"))
        .unwrap_or(&result.name)
        .to_string();
    let got = &result.report;
    let mut case = if !got.compile.ok && result.ok() {
        JunitCase {
            classname: problem.clone(),
            name: name.clone(),
            time: Duration::ZERO,
            failure: None,
            skipped: None,
            system_out: None,
            system_err: String::new(),
        }
    } else if !got.compile.ok {
        compile_error_case(problem, &name, got)
    } else {
        let decided = got.first_failure();
        JunitCase {
            classname: problem.clone(),
            name: name.clone(),
            time: got.max_cpu_time(),
            failure: None,
            skipped: None,
            system_out: None,
            system_err: decided
                .map(|o| tail_lines(&o.stderr_tail, STDERR_LINES).join("\n"))
                .unwrap_or_default(),
        }
    };
    if !result.ok() {
        let on = got
            .first_failure()
            .map(|o| format!(" on `{}`: {}", o.case, o.reason))
            .unwrap_or_default();
        let message = match &result.score_check {
            crate::score::ScoreCheck::Mismatch(why) if result.expected.allows(got.verdict) => {
                why.clone()
            }
            _ => format!(
                "expected {}, got {}{on}",
                result.expected.as_str(),
                got.verdict.as_str()
            ),
        };
        let text = match (&case.failure, got.first_failure()) {
            (Some(compile), _) => compile.text.clone(),
            (None, Some(outcome)) => failure_text(outcome, &message),
            (None, None) => format!("every case was AC ({} cases)\n", got.outcomes.len()),
        };
        case.failure = Some(Failure {
            error: got.verdict == Verdict::JudgeError,
            kind: got.verdict.as_str().to_string(),
            message,
            text,
        });
    }
    case
}

/// JUnit XML as a [`Reporter`]: a `<testsuite>` per problem (`run`, `judge`) or a test per
/// stored submission (`verify`), written to the file when the run finishes. Other commands
/// have no JUnit view.
pub struct JunitReporter<W: Write> {
    out: W,
    report: JunitReport,
    jobs: usize,
    partition: Option<Partition>,
    command: Option<Command>,
}

impl<W: Write> JunitReporter<W> {
    pub fn new(out: W) -> Self {
        JunitReporter {
            out,
            report: JunitReport {
                name: String::new(),
                suites: Vec::new(),
            },
            jobs: 1,
            partition: None,
            command: None,
        }
    }
}

impl<W: Write + Send> Reporter for JunitReporter<W> {
    fn report(&mut self, event: &Event<'_>) -> io::Result<()> {
        let (jobs, partition) = (self.jobs, self.partition);
        match (event, &self.command) {
            (Event::RunStarted(plan), _) => {
                self.report.name = plan.command.title().to_string();
                self.jobs = plan.jobs;
                self.partition = plan.partition;
                self.command = Some(plan.command.clone());
            }
            (
                Event::UnitFinished {
                    result: Finished::Judged(report),
                    ..
                },
                Some(Command::Run),
            ) => self
                .report
                .suites
                .push(problem_suite(report, jobs, partition)),
            (
                Event::UnitFinished {
                    result: Finished::Judged(report),
                    ..
                },
                Some(Command::Judge),
            ) => self
                .report
                .suites
                .push(submission_suite(report, jobs, partition)),
            (
                Event::UnitFinished {
                    result: Finished::Verified(result),
                    ..
                },
                _,
            ) => {
                let case = verified_case(result);
                let problem = &result.report.problem;
                let scores = score_properties(&format!("{}:", case.name), &result.report);
                match self.report.suites.iter_mut().find(|s| &s.name == problem) {
                    Some(suite) => {
                        suite.cases.push(case);
                        suite.properties.extend(scores);
                    }
                    None => {
                        let mut properties = run_properties(jobs, partition);
                        properties.extend(scores);
                        self.report.suites.push(JunitSuite {
                            name: problem.clone(),
                            properties,
                            cases: vec![case],
                        });
                    }
                }
            }
            (Event::RunFinished(_), Some(Command::Run | Command::Judge | Command::Verify)) => {
                write(&mut self.out, &self.report)?;
                self.out.flush()?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// A submission that did not compile, as one failing test carrying the compiler's message.
fn compile_error_case(classname: &str, name: &str, report: &SubmissionReport) -> JunitCase {
    let first = report
        .compile
        .message
        .lines()
        .next()
        .unwrap_or("compile error");
    JunitCase {
        classname: classname.to_string(),
        name: name.to_string(),
        time: Duration::ZERO,
        failure: Some(Failure {
            error: false,
            kind: Verdict::CompileError.as_str().to_string(),
            message: first.to_string(),
            text: format!("{}\n", report.compile.message.trim_end()),
        }),
        skipped: None,
        system_out: None,
        system_err: String::new(),
    }
}

/// A scored submission's score as properties: `score`, `max-score` and `group.NAME` (`30/30
/// AC`), each name after `prefix` (a stored submission's name in `verify`'s suite). None for
/// a pass-fail problem.
pub fn score_properties(prefix: &str, report: &SubmissionReport) -> Vec<(String, String)> {
    let Some(score) = report.score.as_ref().filter(|_| report.compile.ok) else {
        return Vec::new();
    };
    let number = |n: Option<f64>| n.map(crate::score::format_score).unwrap_or_default();
    let mut properties = vec![
        (format!("{prefix}score"), number(score.score())),
        (format!("{prefix}max-score"), number(score.max_score())),
    ];
    for group in score.groups() {
        let verdict = group.verdict.map_or("not judged", |v| v.as_str());
        properties.push((
            format!("{prefix}group.{}", group.name),
            format!(
                "{} {verdict}",
                super::score::points(group.score, group.max_score)
            ),
        ));
    }
    properties
}

/// The limits as properties, in the units the JSON report uses.
pub fn limit_properties(limits: &Limits) -> Vec<(String, String)> {
    vec![
        (
            "time-limit-ms".to_string(),
            limits.cpu_time.as_millis().to_string(),
        ),
        (
            "wall-limit-ms".to_string(),
            limits.wall_time.as_millis().to_string(),
        ),
        (
            "memory-limit-kib".to_string(),
            (limits.memory_bytes / 1024).to_string(),
        ),
        (
            "output-limit-kib".to_string(),
            (limits.output_bytes / 1024).to_string(),
        ),
    ]
}

/// How the cases were run: at once or not (wall times of parallel runs are inflated), and
/// which slice of a split suite this file holds.
pub fn run_properties(jobs: usize, partition: Option<Partition>) -> Vec<(String, String)> {
    let mut properties = vec![
        ("jobs".to_string(), jobs.to_string()),
        ("parallel".to_string(), (jobs > 1).to_string()),
    ];
    if let Some(partition) = partition {
        properties.push(("partition".to_string(), partition.to_string()));
    }
    properties
}

/// Counts as JUnit reads them: a judge error is an `error` (the test could not be judged),
/// every other verdict but AC a `failure`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub tests: usize,
    pub failures: usize,
    pub errors: usize,
    pub skipped: usize,
    pub time: Duration,
}

impl Counts {
    pub fn of(cases: &[JunitCase]) -> Counts {
        let mut counts = Counts::default();
        for case in cases {
            counts.tests += 1;
            counts.time += case.time;
            if case.is_error() {
                counts.errors += 1;
            } else if case.failure.is_some() {
                counts.failures += 1;
            } else if case.skipped.is_some() {
                counts.skipped += 1;
            }
        }
        counts
    }

    fn add(self, other: Counts) -> Counts {
        Counts {
            tests: self.tests + other.tests,
            failures: self.failures + other.failures,
            errors: self.errors + other.errors,
            skipped: self.skipped + other.skipped,
            time: self.time + other.time,
        }
    }
}

pub fn write(out: &mut dyn Write, report: &JunitReport) -> io::Result<()> {
    let total = report
        .suites
        .iter()
        .map(|suite| Counts::of(&suite.cases))
        .fold(Counts::default(), Counts::add);
    // Built as a String and written once: a half-written file is worse than none for CI.
    let mut xml = String::new();
    xml.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"{}\" {}>",
        attribute(&report.name),
        counts_attributes(total)
    );
    for suite in &report.suites {
        write_suite(&mut xml, suite);
    }
    xml.push_str("</testsuites>\n");
    out.write_all(xml.as_bytes())
}

fn counts_attributes(counts: Counts) -> String {
    format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\"",
        counts.tests,
        counts.failures,
        counts.errors,
        counts.skipped,
        seconds(counts.time)
    )
}

fn write_suite(xml: &mut String, suite: &JunitSuite) {
    let counts = Counts::of(&suite.cases);
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" {}>",
        attribute(&suite.name),
        counts_attributes(counts)
    );
    let near = suite
        .cases
        .iter()
        .filter(|c| c.system_out.is_some())
        .count();
    let near = near.to_string();
    let extra = [("time-sensitive-cases", near.as_str())];
    xml.push_str("    <properties>\n");
    let properties = suite
        .properties
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .chain(extra);
    for (name, value) in properties {
        let _ = writeln!(
            xml,
            "      <property name=\"{}\" value=\"{}\"/>",
            attribute(name),
            attribute(value)
        );
    }
    xml.push_str("    </properties>\n");
    for case in &suite.cases {
        write_case(xml, case);
    }
    xml.push_str("  </testsuite>\n");
}

fn write_case(xml: &mut String, case: &JunitCase) {
    let _ = write!(
        xml,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"",
        attribute(&case.classname),
        attribute(&case.name),
        seconds(case.time)
    );
    if case.failure.is_none()
        && case.skipped.is_none()
        && case.system_out.is_none()
        && case.system_err.is_empty()
    {
        xml.push_str("/>\n");
        return;
    }
    xml.push_str(">\n");
    if let Some(failure) = &case.failure {
        let element = if failure.error { "error" } else { "failure" };
        let _ = writeln!(
            xml,
            "      <{element} type=\"{}\" message=\"{}\">{}</{element}>",
            attribute(&failure.kind),
            attribute(&failure.message),
            text(&failure.text)
        );
    }
    if let Some(skipped) = &case.skipped {
        let _ = writeln!(xml, "      <skipped message=\"{}\"/>", attribute(skipped));
    }
    if let Some(system_out) = &case.system_out {
        let _ = writeln!(xml, "      <system-out>{}</system-out>", text(system_out));
    }
    if !case.system_err.is_empty() {
        let _ = writeln!(
            xml,
            "      <system-err>{}</system-err>",
            text(&case.system_err)
        );
    }
    xml.push_str("    </testcase>\n");
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

/// Seconds with millisecond precision, as JUnit readers expect (`0.012`).
fn seconds(duration: Duration) -> String {
    format!("{:.3}", duration.as_secs_f64())
}

/// Escaped for an attribute value in double quotes; line breaks and tabs become character
/// references, or a reader would fold them into spaces.
fn attribute(value: &str) -> String {
    escape(value, true)
}

/// Escaped for element content.
fn text(value: &str) -> String {
    escape(value, false)
}

fn escape(value: &str, in_attribute: bool) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' if in_attribute => escaped.push_str("&quot;"),
            '\n' if in_attribute => escaped.push_str("&#10;"),
            '\r' => escaped.push_str("&#13;"),
            '\t' if in_attribute => escaped.push_str("&#9;"),
            '\n' | '\t' => escaped.push(c),
            // XML 1.0 forbids other control characters even as references: a program's
            // stderr full of color escapes would make the whole file unreadable. Shown as
            // `\x1b`, so the reader still sees what was there.
            c if (c as u32) < 0x20 => {
                let _ = write!(escaped, "\\x{:02x}", c as u32);
            }
            '\u{fffe}' | '\u{ffff}' => {
                let _ = write!(escaped, "\\u{{{:x}}}", c as u32);
            }
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Mismatch;

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

    fn render(report: &JunitReport) -> String {
        let mut out = Vec::new();
        write(&mut out, report).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn escaping_table() {
        let cases = [
            ("plain", "plain", "plain"),
            ("a<b & c>d", "a&lt;b &amp; c&gt;d", "a&lt;b &amp; c&gt;d"),
            ("say \"hi\"", "say &quot;hi&quot;", "say \"hi\""),
            (
                "two\nlines\r\n",
                "two&#10;lines&#13;&#10;",
                "two\nlines&#13;\n",
            ),
            ("tab\there", "tab&#9;here", "tab\there"),
            (
                "\u{1b}[31mred\u{1b}[0m",
                "\\x1b[31mred\\x1b[0m",
                "\\x1b[31mred\\x1b[0m",
            ),
            ("nul\0bell\u{7}", "nul\\x00bell\\x07", "nul\\x00bell\\x07"),
            ("\u{fffe}", "\\u{fffe}", "\\u{fffe}"),
            ("ünïcode ✓", "ünïcode ✓", "ünïcode ✓"),
        ];
        for (raw, in_attribute, in_text) in cases {
            assert_eq!(attribute(raw), in_attribute, "{raw:?}");
            assert_eq!(text(raw), in_text, "{raw:?}");
        }
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
        let cases: Vec<JunitCase> = outcomes
            .iter()
            .map(|o| JunitCase::from_outcome("p", o))
            .collect();
        let counts = Counts::of(&cases);
        assert_eq!(
            counts,
            Counts {
                tests: 5,
                failures: 2,
                errors: 1,
                skipped: 1,
                time: Duration::from_millis(1530),
            }
        );
        assert_eq!(
            cases[4].skipped.as_deref(),
            Some("ran, not checked: no answer to compare with")
        );
    }

    #[test]
    fn a_small_report() {
        let mut wrong = outcome(
            "secret/02",
            Verdict::WrongAnswer,
            "expected 3, found <4>",
            12,
        );
        wrong.mismatch = Some(Mismatch {
            output: b"4\n".to_vec(),
            answer: b"3\n".to_vec(),
            hint: None,
        });
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
        let mut properties = vec![("program".to_string(), "target/release/sum".to_string())];
        properties.extend(limit_properties(&limits()));
        properties.extend(run_properties(2, Some(Partition { index: 1, count: 3 })));
        let report = JunitReport {
            name: "harness run".to_string(),
            suites: vec![JunitSuite {
                name: "sum".to_string(),
                properties,
                cases: outcomes
                    .iter()
                    .map(|o| JunitCase::from_outcome("sum", o))
                    .collect(),
            }],
        };
        let rendered = render(&report);
        // An earlier report is known by its head: the next run replaces it.
        assert!(rendered.starts_with(HEAD), "{rendered}");
        insta::assert_snapshot!(rendered);
    }

    fn submission(outcomes: Vec<CaseOutcome>, compiled: bool) -> SubmissionReport {
        use crate::compile::Language;
        use crate::judge::submission::CompileOutcome;
        SubmissionReport {
            problem: "sum".to_string(),
            title: "Sum".to_string(),
            source: std::path::PathBuf::from("mine.c"),
            language: Some(Language {
                id: "c".to_string(),
                name: "C11".to_string(),
                extensions: vec!["c".to_string()],
                compile: None,
                run: vec!["{exe}".to_string()],
                time_multiplier: 1.0,
                compile_limits: crate::compile::CompileLimits::default(),
                sandbox: Default::default(),
            }),
            limits: limits(),
            compile: CompileOutcome {
                ok: compiled,
                message: if compiled {
                    String::new()
                } else {
                    "mine.c:3: error: expected ';'\n  3 | x = 1".to_string()
                },
            },
            verdict: if compiled {
                crate::judge::overall_verdict(&outcomes)
            } else {
                Verdict::CompileError
            },
            planned_cases: 3,
            outcomes,
            elapsed: Duration::from_millis(10),
            jobs: 1,
            score: None,
        }
    }

    /// What the reporter writes for `command` on these finished units.
    fn report_of(command: crate::event::Command, results: &[Finished<'_>], jobs: usize) -> String {
        let units = results
            .iter()
            .map(|_| crate::event::Unit::default())
            .collect();
        let plan = crate::event::Plan::new(command, units, jobs, crate::sandbox::Mode::Auto);
        let mut reporter = JunitReporter::new(Vec::new());
        reporter.report(&Event::RunStarted(&plan)).unwrap();
        for (unit, &result) in results.iter().enumerate() {
            reporter
                .report(&Event::UnitFinished { unit, result })
                .unwrap();
        }
        let summary = crate::event::Summary::default();
        reporter.report(&Event::RunFinished(&summary)).unwrap();
        String::from_utf8(reporter.out).unwrap()
    }

    #[test]
    fn a_compile_error_is_one_failing_test() {
        let report = submission(Vec::new(), false);
        let xml = report_of(
            crate::event::Command::Judge,
            &[Finished::Judged(&report)],
            1,
        );
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
            crate::event::Command::Verify,
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
