//! JUnit XML, so CI systems (GitHub, GitLab, Jenkins) show judged cases as tests: one
//! `<testsuite>` per problem, one `<testcase>` per case. Written by hand: the format is small,
//! and the one thing that needs care, escaping, is done here for every string.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

use crate::diff::{self, DiffOptions};
use crate::judge::CaseOutcome;
use crate::partition::Partition;
use crate::run::Limits;
use crate::suite::SuiteReport;
use crate::verdict::Verdict;

/// Lines of diff kept in a failure's text: CI pages show it inline.
const DIFF_LINES: usize = 40;
/// Lines of stderr kept per case.
const STDERR_LINES: usize = 20;

/// Everything one JUnit file says.
#[derive(Debug, Clone)]
pub struct JunitReport<'a> {
    /// The `<testsuites name>`: which command judged (`harness run`).
    pub name: String,
    pub suites: Vec<JunitSuite<'a>>,
}

/// One `<testsuite>`: usually one problem's cases.
#[derive(Debug, Clone)]
pub struct JunitSuite<'a> {
    pub name: String,
    /// The `classname` of each test case: the problem.
    pub classname: String,
    /// `<property>` pairs, in order: the program, the limits, how the run was split.
    pub properties: Vec<(String, String)>,
    pub outcomes: &'a [CaseOutcome],
}

impl<'a> JunitReport<'a> {
    /// The JUnit view of `harness run`.
    pub fn from_suite(report: &'a SuiteReport) -> Self {
        let suites = report
            .problems
            .iter()
            .map(|problem| {
                let mut properties = vec![("program".to_string(), problem.program.clone())];
                properties.extend(limit_properties(&problem.limits));
                properties.extend(run_properties(report.jobs, report.partition));
                JunitSuite {
                    name: problem.name.clone(),
                    classname: problem.name.clone(),
                    properties,
                    outcomes: &problem.outcomes,
                }
            })
            .collect();
        JunitReport {
            name: "harness run".to_string(),
            suites,
        }
    }
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
    pub time: Duration,
}

impl Counts {
    pub fn of(outcomes: &[CaseOutcome]) -> Counts {
        let mut counts = Counts::default();
        for outcome in outcomes {
            counts.tests += 1;
            counts.time += outcome.cpu_time;
            match outcome.verdict {
                Verdict::Accepted => {}
                Verdict::JudgeError => counts.errors += 1,
                _ => counts.failures += 1,
            }
        }
        counts
    }

    fn add(self, other: Counts) -> Counts {
        Counts {
            tests: self.tests + other.tests,
            failures: self.failures + other.failures,
            errors: self.errors + other.errors,
            time: self.time + other.time,
        }
    }
}

pub fn write(out: &mut dyn Write, report: &JunitReport<'_>) -> io::Result<()> {
    let total = report
        .suites
        .iter()
        .map(|suite| Counts::of(suite.outcomes))
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
        "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{}\"",
        counts.tests,
        counts.failures,
        counts.errors,
        seconds(counts.time)
    )
}

fn write_suite(xml: &mut String, suite: &JunitSuite<'_>) {
    let counts = Counts::of(suite.outcomes);
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" {}>",
        attribute(&suite.name),
        counts_attributes(counts)
    );
    let near = suite.outcomes.iter().filter(|o| o.time_sensitive).count();
    if !suite.properties.is_empty() || near > 0 {
        xml.push_str("    <properties>\n");
        let near = near.to_string();
        let extra = [("time-sensitive-cases", near.as_str())];
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
    }
    for outcome in suite.outcomes {
        write_case(xml, &suite.classname, outcome);
    }
    xml.push_str("  </testsuite>\n");
}

fn write_case(xml: &mut String, classname: &str, outcome: &CaseOutcome) {
    let _ = write!(
        xml,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"",
        attribute(classname),
        attribute(&outcome.case),
        seconds(outcome.cpu_time)
    );
    let stderr = tail_lines(&outcome.stderr_tail, STDERR_LINES);
    if outcome.verdict.is_accepted() && stderr.is_empty() && !outcome.time_sensitive {
        xml.push_str("/>\n");
        return;
    }
    xml.push_str(">\n");
    if !outcome.verdict.is_accepted() {
        let element = if outcome.verdict == Verdict::JudgeError {
            "error"
        } else {
            "failure"
        };
        let message = if outcome.reason.is_empty() {
            outcome.verdict.as_str().to_string()
        } else {
            outcome.reason.clone()
        };
        let _ = writeln!(
            xml,
            "      <{element} type=\"{}\" message=\"{}\">{}</{element}>",
            outcome.verdict.as_str(),
            attribute(&message),
            text(&failure_text(outcome, &message))
        );
    }
    if outcome.time_sensitive {
        // A passing case near the limit has no failure to carry the warning: CI shows
        // system-out beside the test.
        let _ = writeln!(
            xml,
            "      <system-out>near the time limit: CPU {} ms (within 10% of the limit)</system-out>",
            outcome.cpu_time.as_millis()
        );
    }
    if !stderr.is_empty() {
        let _ = writeln!(xml, "      <system-err>{}</system-err>", text(&stderr));
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
    body
}

fn tail_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
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
            case: case.to_string(),
            verdict,
            reason: reason.to_string(),
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_millis(cpu_ms + 1),
            peak_memory_bytes: 2 << 20,
            time_sensitive: false,
            stderr_tail: String::new(),
            mismatch: None,
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

    fn render(report: &JunitReport<'_>) -> String {
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
        ];
        let counts = Counts::of(&outcomes);
        assert_eq!(
            counts,
            Counts {
                tests: 4,
                failures: 2,
                errors: 1,
                time: Duration::from_millis(1530),
            }
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
        });
        wrong.stderr_tail = "debug \u{1b}[1mx\u{1b}[0m\n".to_string();
        let mut near = outcome("big", Verdict::Accepted, "", 950);
        near.time_sensitive = true;
        let outcomes = vec![
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
                classname: "sum".to_string(),
                properties,
                outcomes: &outcomes,
            }],
        };
        insta::assert_snapshot!(render(&report));
    }
}
