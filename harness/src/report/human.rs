//! The terminal report: a compact line per passing problem, a line per failing case with its
//! reason and a diff, and a summary. Styles are ANSI escapes; the caller's writer (anstream)
//! strips them when the output is not a terminal or NO_COLOR is set.

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};

use crate::diff::{self, DiffOptions};
use crate::judge::CaseOutcome;
use crate::suite::{ProblemReport, SuiteReport};
use crate::units::{format_bytes, format_duration};
use crate::verdict::Verdict;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// Only failures and the summaries.
    Quiet,
    /// A compact line per passing problem, a line per failing case.
    #[default]
    Normal,
    /// Every case, with the tail of its stderr.
    Verbose,
}

#[derive(Debug, Clone, Copy)]
pub struct HumanOptions {
    pub detail: Detail,
    /// Lines of diff per wrong answer.
    pub diff_lines: usize,
    /// How many wrong answers get a diff; the rest get their reason only.
    pub max_diffs: usize,
}

impl Default for HumanOptions {
    fn default() -> Self {
        HumanOptions {
            detail: Detail::Normal,
            diff_lines: 40,
            max_diffs: 5,
        }
    }
}

const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();

fn verdict_style(verdict: Verdict) -> Style {
    let color = match verdict {
        Verdict::Accepted => AnsiColor::Green,
        Verdict::WrongAnswer => AnsiColor::Red,
        Verdict::JudgeError => AnsiColor::Magenta,
        _ => AnsiColor::Yellow,
    };
    Style::new().fg_color(Some(color.into())).bold()
}

pub fn write_suite(
    out: &mut dyn Write,
    report: &SuiteReport,
    options: &HumanOptions,
) -> io::Result<()> {
    let mut diffs_left = options.max_diffs;
    let width = report
        .problems
        .iter()
        .flat_map(|p| p.outcomes.iter().map(|o| o.case.len()))
        .max()
        .unwrap_or(0)
        .min(32);
    for problem in &report.problems {
        write_problem(out, problem, options, width, &mut diffs_left)?;
    }
    write_totals(out, report)
}

fn write_problem(
    out: &mut dyn Write,
    problem: &ProblemReport,
    options: &HumanOptions,
    width: usize,
    diffs_left: &mut usize,
) -> io::Result<()> {
    for outcome in &problem.outcomes {
        // A pass near the limit is listed too: it is the case another machine could flip.
        let show = options.detail == Detail::Verbose
            || !outcome.verdict.is_accepted()
            || (outcome.time_sensitive && options.detail == Detail::Normal);
        if show {
            write_case(out, outcome, width, options)?;
            if let Some(mismatch) = &outcome.mismatch {
                if *diffs_left > 0 {
                    *diffs_left -= 1;
                    let diff_options = DiffOptions {
                        max_lines: options.diff_lines,
                        ..DiffOptions::default()
                    };
                    let mut indented = Indent::new(out, "        ");
                    diff::write_diff(
                        &mut indented,
                        &mismatch.output,
                        &mismatch.answer,
                        &diff_options,
                    )?;
                }
            }
        }
    }
    if options.detail == Detail::Quiet && problem.all_accepted() {
        return Ok(());
    }
    write_problem_summary(out, problem)
}

fn write_case(
    out: &mut dyn Write,
    outcome: &CaseOutcome,
    width: usize,
    options: &HumanOptions,
) -> io::Result<()> {
    let style = verdict_style(outcome.verdict);
    write!(
        out,
        "  {style}{:<3}{style:#}  {:<width$}  {:>7}  {:>9}",
        outcome.verdict.as_str(),
        outcome.case,
        format_duration(outcome.cpu_time),
        format_bytes(outcome.peak_memory_bytes),
    )?;
    if outcome.time_sensitive {
        write!(out, "  {DIM}(near the time limit){DIM:#}")?;
    }
    if !outcome.reason.is_empty() {
        write!(out, "  {}", outcome.reason)?;
    }
    writeln!(out)?;
    if options.detail == Detail::Verbose && !outcome.stderr_tail.trim().is_empty() {
        for line in tail_lines(&outcome.stderr_tail, 10) {
            writeln!(out, "        {DIM}stderr | {line}{DIM:#}")?;
        }
    }
    Ok(())
}

fn tail_lines(text: &str, count: usize) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].to_vec()
}

/// `king-queens: 652/652 AC, max 3 ms, 2.1 MiB`, with the other verdicts counted.
fn write_problem_summary(out: &mut dyn Write, problem: &ProblemReport) -> io::Result<()> {
    let total = problem.outcomes.len();
    let accepted = problem.count(Verdict::Accepted);
    let style = if accepted == total {
        verdict_style(Verdict::Accepted)
    } else {
        verdict_style(Verdict::WrongAnswer)
    };
    write!(
        out,
        "{BOLD}{}{BOLD:#}: {style}{accepted}/{total} AC{style:#}",
        problem.name
    )?;
    for verdict in Verdict::ALL.into_iter().filter(|v| !v.is_accepted()) {
        let count = problem.count(verdict);
        if count > 0 {
            write!(out, ", {count} {verdict}")?;
        }
    }
    write!(
        out,
        ", max {}, {}",
        format_duration(problem.max_cpu_time()),
        format_bytes(problem.max_memory())
    )?;
    let near = problem.outcomes.iter().filter(|o| o.time_sensitive).count();
    write_near_limit(out, ", ", near)?;
    writeln!(out)
}

/// `, 2 cases near the time limit`: verdicts that a slower or faster machine could flip.
fn write_near_limit(out: &mut dyn Write, separator: &str, near: usize) -> io::Result<()> {
    if near == 0 {
        return Ok(());
    }
    let style = verdict_style(Verdict::TimeLimitExceeded);
    let cases = if near == 1 { "case" } else { "cases" };
    write!(
        out,
        "{separator}{style}{near} {cases} near the time limit{style:#}"
    )
}

fn write_totals(out: &mut dyn Write, report: &SuiteReport) -> io::Result<()> {
    let total = report.case_count();
    let failed = report
        .outcomes()
        .filter(|o| !o.verdict.is_accepted())
        .count();
    let mut how = Vec::new();
    if report.jobs > 1 {
        how.push(format!("{} cases at a time", report.jobs));
    }
    if let Some(partition) = report.partition {
        how.push(format!("slice {partition}"));
    }
    let how = if how.is_empty() {
        String::new()
    } else {
        format!(" ({})", how.join(", "))
    };
    let elapsed = format_duration(report.elapsed);
    if total == 0 {
        writeln!(out, "no case to judge{how}")?;
    } else if failed == 0 {
        let style = verdict_style(Verdict::Accepted);
        write!(
            out,
            "{style}all {total} cases AC{style:#} in {elapsed}{how}"
        )?;
    } else {
        let style = verdict_style(Verdict::WrongAnswer);
        write!(
            out,
            "{style}FAILED{style:#}: {failed} of {total} cases not AC, in {elapsed}{how}"
        )?;
    }
    if total > 0 {
        let near = report.outcomes().filter(|o| o.time_sensitive).count();
        write_near_limit(out, "; ", near)?;
        writeln!(out)?;
    }
    Ok(())
}

/// Prefixes every line written through it, so a diff sits under its case.
struct Indent<'a> {
    inner: &'a mut dyn Write,
    prefix: &'static str,
    at_line_start: bool,
}

impl<'a> Indent<'a> {
    fn new(inner: &'a mut dyn Write, prefix: &'static str) -> Self {
        Indent {
            inner,
            prefix,
            at_line_start: true,
        }
    }
}

impl Write for Indent<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for piece in buf.split_inclusive(|&b| b == b'\n') {
            if self.at_line_start {
                self.inner.write_all(self.prefix.as_bytes())?;
            }
            self.inner.write_all(piece)?;
            self.at_line_start = piece.ends_with(b"\n");
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::judge::Mismatch;
    use crate::partition::Partition;
    use crate::run::Limits;

    fn outcome(case: &str, verdict: Verdict, cpu_ms: u64) -> CaseOutcome {
        CaseOutcome {
            case: case.to_string(),
            verdict,
            reason: String::new(),
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_millis(cpu_ms),
            peak_memory_bytes: 2 << 20,
            time_sensitive: false,
            stderr_tail: String::new(),
            mismatch: None,
        }
    }

    fn report() -> SuiteReport {
        let mut wrong = outcome("02", Verdict::WrongAnswer, 3);
        wrong.reason = "line 1, token 1: expected 3, found 4".to_string();
        wrong.mismatch = Some(Mismatch {
            output: b"4\n".to_vec(),
            answer: b"3\n".to_vec(),
        });
        wrong.stderr_tail = "debug: n=2\n".to_string();
        let mut near = outcome("big", Verdict::Accepted, 950);
        near.time_sensitive = true;
        let limits = Limits {
            cpu_time: Duration::from_secs(1),
            wall_time: Duration::from_secs(3),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
        };
        SuiteReport {
            problems: vec![
                ProblemReport {
                    name: "sum".to_string(),
                    title: "Sum".to_string(),
                    program: "sum".to_string(),
                    limits,
                    outcomes: vec![outcome("01", Verdict::Accepted, 1), wrong, near],
                },
                ProblemReport {
                    name: "echo".to_string(),
                    title: "Echo".to_string(),
                    program: "echo".to_string(),
                    limits,
                    outcomes: vec![outcome("01", Verdict::Accepted, 1)],
                },
            ],
            jobs: 2,
            elapsed: Duration::from_millis(1234),
            partition: Some(Partition { index: 1, count: 2 }),
        }
    }

    fn render(detail: Detail) -> String {
        let mut out = Vec::new();
        let options = HumanOptions {
            detail,
            ..HumanOptions::default()
        };
        write_suite(&mut out, &report(), &options).unwrap();
        anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string()
    }

    #[test]
    fn normal() {
        insta::assert_snapshot!(render(Detail::Normal));
    }

    #[test]
    fn quiet_leaves_out_problems_that_passed() {
        let text = render(Detail::Quiet);
        assert!(!text.contains("echo:"), "{text}");
        assert!(text.contains("sum: 2/3 AC, 1 WA"), "{text}");
        assert!(!text.contains("stderr |"), "{text}");
    }

    #[test]
    fn verbose_shows_every_case_and_stderr() {
        let text = render(Detail::Verbose);
        assert!(text.contains("AC   01"), "{text}");
        assert!(text.contains("stderr | debug: n=2"), "{text}");
    }
}
