//! The terminal report: a compact line per passing problem, a line per failing case with its
//! reason and a diff, and a summary. Styles are ANSI escapes; the caller's writer (anstream)
//! strips them when the output is not a terminal or NO_COLOR is set.

use std::io::{self, Write};

use super::shown_path;
use super::style::{verdict_style, BOLD, DIM};
use crate::case::excerpt::InputExcerpt;
use crate::config::units::{format_bytes, format_duration};
use crate::judge::submission::SubmissionReport;
use crate::judge::suite::{ProblemReport, SuiteReport};
use crate::judge::verify::{Verified, VerifyReport};
use crate::judge::{CaseOutcome, Interaction};
use crate::report::diff::{self, DiffOptions};
use crate::sandbox::transcript::Line;
use crate::text::tail_lines;
use crate::text::{cut, plural};
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
    /// How many case lines a list shows before it says how many more there are: a
    /// submission that fails every one of 651 cases needs a few lines, not 651.
    pub max_cases: usize,
}

impl Default for HumanOptions {
    fn default() -> Self {
        HumanOptions {
            detail: Detail::Normal,
            diff_lines: 40,
            max_diffs: 5,
            max_cases: usize::MAX,
        }
    }
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
        .map(|p| name_width(&p.outcomes))
        .max()
        .unwrap_or(0);
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
    write_outcomes(out, &problem.outcomes, options, width, diffs_left)?;
    if options.detail == Detail::Quiet && problem.all_accepted() {
        return Ok(());
    }
    write_problem_summary(out, problem)
}

/// A line per failing case (per case when verbose), with a diff under the first few wrong
/// answers.
fn write_outcomes(
    out: &mut dyn Write,
    outcomes: &[CaseOutcome],
    options: &HumanOptions,
    width: usize,
    diffs_left: &mut usize,
) -> io::Result<()> {
    // A pass near the limit is listed too: it is the case another machine could flip.
    let show = |o: &CaseOutcome| {
        options.detail == Detail::Verbose
            || !o.verdict.is_accepted()
            || (o.time_sensitive && options.detail == Detail::Normal)
    };
    let mut shown = 0;
    for outcome in outcomes {
        if !show(outcome) {
            continue;
        }
        if shown == options.max_cases {
            let left = outcomes.iter().filter(|o| show(o)).count() - shown;
            writeln!(out, "  {DIM}… {left} more cases not shown{DIM:#}")?;
            break;
        }
        shown += 1;
        write_case(out, outcome, width, options)?;
        // The first failures get their input (what to reproduce with) and their diff; an
        // interactive one its dialogue, which is its diff.
        if outcome.verdict.is_accepted() || *diffs_left == 0 {
            continue;
        }
        *diffs_left -= 1;
        if let Some(input) = &outcome.input {
            write_input(out, input)?;
        }
        if let Some(interaction) = &outcome.interaction {
            write_interaction(out, interaction, &outcome.reason, options.diff_lines)?;
        }
        if let Some(mismatch) = &outcome.mismatch {
            {
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
    Ok(())
}

/// Lines of a failing dialogue shown: its end, where it went wrong.
const DIALOGUE_LINES: usize = 12;

/// The end of an interactive case's dialogue, `>` from the submission and `<` to it (the
/// `.interaction` convention), the interactor's message, and its own numbers.
fn write_interaction(
    out: &mut dyn Write,
    interaction: &Interaction,
    reason: &str,
    max_lines: usize,
) -> io::Result<()> {
    const PAD: &str = "        ";
    let transcript = &interaction.transcript;
    let kept: Vec<Option<&Line>> = transcript.lines().collect();
    let window = &kept[kept.len() - max_lines.clamp(4, DIALOGUE_LINES).min(kept.len())..];
    let gap_shown = window.iter().any(Option::is_none);
    let earlier = transcript.len()
        - window.iter().flatten().count()
        - if gap_shown { transcript.omitted } else { 0 };
    writeln!(
        out,
        "{PAD}{DIM}dialogue: {} (> from the submission, < to it){DIM:#}",
        plural(transcript.len(), "line")
    )?;
    if earlier > 0 {
        writeln!(
            out,
            "{PAD}{DIM}… {}{DIM:#}",
            plural(earlier, "earlier line")
        )?;
    }
    for line in window {
        let Some(line) = line else {
            let left_out = plural(transcript.omitted, "line");
            writeln!(out, "{PAD}{DIM}… {left_out} left out{DIM:#}")?;
            continue;
        };
        let unfinished = if line.complete { "" } else { "  (no newline)" };
        writeln!(
            out,
            "{PAD}{}{}{DIM}{unfinished}{DIM:#}",
            line.speaker.mark(),
            line.text
        )?;
    }
    if transcript.is_empty() {
        writeln!(out, "{PAD}{DIM}(nothing was said){DIM:#}")?;
    }
    // Most reasons quote the interactor already.
    let message = if interaction.message.is_empty() || reason.contains(&interaction.message) {
        String::new()
    } else {
        format!(": {}", interaction.message)
    };
    writeln!(
        out,
        "{PAD}{DIM}interactor: {} CPU, {}{message}{DIM:#}",
        format_duration(interaction.interactor_cpu_time),
        format_bytes(interaction.interactor_peak_memory_bytes)
    )
}

/// Lines of a failing run's stderr shown under it.
const STDERR_LINES: usize = 6;
/// Characters of one such line.
const STDERR_CHARS: usize = 160;

/// `input cases/x/all-123.in:` and its first lines, `…` when there is more.
fn write_input(out: &mut dyn Write, input: &InputExcerpt) -> io::Result<()> {
    writeln!(
        out,
        "        {DIM}input{DIM:#} {}{}",
        shown_path(&input.path),
        if input.head.is_empty() {
            " (empty)"
        } else {
            ""
        }
    )?;
    for line in input.head.lines() {
        writeln!(out, "        {DIM}│{DIM:#} {line}")?;
    }
    if input.truncated {
        writeln!(out, "        {DIM}│ …{DIM:#}")?;
    }
    Ok(())
}

/// The width of the case-name column: the longest name, within reason.
fn name_width(outcomes: &[CaseOutcome]) -> usize {
    outcomes
        .iter()
        .map(|o| o.case.len())
        .max()
        .unwrap_or(0)
        .min(32)
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
    write!(out, ", {}", maxima(&problem.outcomes))?;
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

/// `640 AC, 11 WA`: how many cases got each verdict, verdicts with none left out.
fn counts(outcomes: &[CaseOutcome]) -> String {
    Verdict::ALL
        .into_iter()
        .filter_map(|verdict| {
            let count = outcomes.iter().filter(|o| o.verdict == verdict).count();
            (count > 0).then(|| format!("{count} {verdict}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `max 12 ms, 3.1 MiB`: the largest CPU time and peak memory of any case.
fn maxima(outcomes: &[CaseOutcome]) -> String {
    let cpu = outcomes
        .iter()
        .map(|o| o.cpu_time)
        .max()
        .unwrap_or_default();
    let memory = outcomes
        .iter()
        .map(|o| o.peak_memory_bytes)
        .max()
        .unwrap_or_default();
    format!("max {}, {}", format_duration(cpu), format_bytes(memory))
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

// ---- harness judge ------------------------------------------------------------------------

/// One submission: what was judged under which limits, the failing cases with their diffs (or
/// the compiler's message), and the verdict line; `harness judge` writes the same through a
/// [`SubmissionStream`] as cases finish.
#[cfg(test)]
pub fn write_submission(
    out: &mut dyn Write,
    report: &SubmissionReport,
    options: &HumanOptions,
) -> io::Result<()> {
    let mut stream =
        SubmissionStream::new(*options, report.outcomes.iter().map(|o| o.case.as_str()));
    stream.write_header(out, &SubmissionHeader::from(report))?;
    for outcome in &report.outcomes {
        stream.write_case(out, outcome)?;
    }
    stream.write_end(out, report)
}

/// What `harness judge` says before anything runs.
#[derive(Debug, Clone, Copy)]
pub struct SubmissionHeader<'a> {
    pub problem: &'a str,
    pub source: &'a std::path::Path,
    pub language: &'a crate::config::Language,
    /// With the language's time multiplier applied.
    pub limits: crate::sandbox::run::Limits,
    pub cases: usize,
}

impl<'a> From<&'a SubmissionReport> for SubmissionHeader<'a> {
    fn from(report: &'a SubmissionReport) -> Self {
        SubmissionHeader {
            problem: &report.problem,
            source: &report.source,
            language: &report.language,
            limits: report.limits,
            cases: report.planned_cases,
        }
    }
}

/// The report of one submission written as it is judged: the header at once, each failing
/// case (with its input and diff) when it fails, the verdict at the end. Printed after the
/// fact it reads the same.
#[derive(Debug, Clone)]
pub struct SubmissionStream {
    options: HumanOptions,
    width: usize,
    shown: usize,
    not_shown: usize,
    diffs_left: usize,
}

impl SubmissionStream {
    /// `cases`: the names of the cases to come, for the width of the name column.
    pub fn new<'a>(options: HumanOptions, cases: impl Iterator<Item = &'a str>) -> Self {
        SubmissionStream {
            options,
            width: cases.map(str::len).max().unwrap_or(0).min(32),
            shown: 0,
            not_shown: 0,
            diffs_left: options.max_diffs,
        }
    }

    /// `king-queens: mine.py (Python 3), 651 cases, limits 3 s CPU (1 s × 3), 256 MiB`
    pub fn write_header(
        &self,
        out: &mut dyn Write,
        header: &SubmissionHeader<'_>,
    ) -> io::Result<()> {
        let multiplier = header.language.time_multiplier;
        let scaled = if multiplier == 1.0 {
            String::new()
        } else {
            format!(
                " ({} × {multiplier} for {})",
                format_duration(header.limits.cpu_time.div_f64(multiplier)),
                header.language.name
            )
        };
        writeln!(
            out,
            "{BOLD}{}{BOLD:#}: {} ({}), {}, limits {} CPU{scaled}, {}",
            header.problem,
            header.source.display(),
            header.language.name,
            plural(header.cases, "case"),
            format_duration(header.limits.cpu_time),
            format_bytes(header.limits.memory_bytes),
        )
    }

    /// One case judged: written if it failed (or near the limit, or verbose).
    pub fn write_case(&mut self, out: &mut dyn Write, outcome: &CaseOutcome) -> io::Result<()> {
        let options = &self.options;
        let show = options.detail == Detail::Verbose
            || !outcome.verdict.is_accepted()
            || (outcome.time_sensitive && options.detail == Detail::Normal);
        if !show {
            return Ok(());
        }
        if self.shown == options.max_cases {
            self.not_shown += 1;
            return Ok(());
        }
        self.shown += 1;
        write_case(out, outcome, self.width, options)?;
        if outcome.verdict.is_accepted() || self.diffs_left == 0 {
            return Ok(());
        }
        self.diffs_left -= 1;
        if let Some(input) = &outcome.input {
            write_input(out, input)?;
        }
        // A crash's own words (a runtime that could not start says why over several lines;
        // the reason keeps only the last). Verbose shows stderr for every case already.
        if outcome.mismatch.is_none()
            && options.detail != Detail::Verbose
            && !outcome.stderr_tail.trim().is_empty()
        {
            writeln!(out, "        {DIM}stderr (end){DIM:#}")?;
            for line in tail_lines(&outcome.stderr_tail, STDERR_LINES) {
                writeln!(out, "        {DIM}│{DIM:#} {}", cut(line, STDERR_CHARS))?;
            }
        }
        if let Some(interaction) = &outcome.interaction {
            write_interaction(out, interaction, &outcome.reason, options.diff_lines)?;
        }
        if let Some(mismatch) = &outcome.mismatch {
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
        Ok(())
    }

    /// The compiler's message or the cases not shown, and the verdict line.
    pub fn write_end(&mut self, out: &mut dyn Write, report: &SubmissionReport) -> io::Result<()> {
        if self.not_shown > 0 {
            writeln!(
                out,
                "  {DIM}… {} more cases not shown{DIM:#}",
                self.not_shown
            )?;
        }
        if !report.compile.ok {
            let style = verdict_style(Verdict::CompileError);
            writeln!(out, "  {style}CE{style:#}   the compiler said:")?;
            write_indented(out, &report.compile.message, "        ")?;
        } else if self.options.detail == Detail::Verbose && !report.compile.message.is_empty() {
            writeln!(out, "  {DIM}compiler warnings:{DIM:#}")?;
            write_indented(out, &report.compile.message, "        ")?;
        }
        write_submission_verdict(out, report)
    }
}

/// `verdict: WA (first failing case: all-123) — 640 AC, 11 WA; max 12 ms, 3.1 MiB`
fn write_submission_verdict(out: &mut dyn Write, report: &SubmissionReport) -> io::Result<()> {
    let style = verdict_style(report.verdict);
    write!(
        out,
        "{BOLD}verdict{BOLD:#}: {style}{}{style:#}",
        report.verdict
    )?;
    if !report.compile.ok {
        return writeln!(out, " (compile error; no case was run)");
    }
    if let Some(failure) = report.first_failure() {
        write!(out, " (first failing case: {}", failure.case)?;
        if report.stopped_early() {
            write!(
                out,
                "; stopped there, {} of {} cases judged",
                report.outcomes.len(),
                report.planned_cases
            )?;
        }
        write!(out, ")")?;
    }
    write!(
        out,
        " — {}; {}",
        counts(&report.outcomes),
        maxima(&report.outcomes)
    )?;
    let near = report.outcomes.iter().filter(|o| o.time_sensitive).count();
    if near > 0 {
        let cases = if near == 1 { "case" } else { "cases" };
        write!(out, "; {DIM}{near} {cases} near the time limit{DIM:#}")?;
    }
    writeln!(out)
}

fn write_indented(out: &mut dyn Write, text: &str, prefix: &'static str) -> io::Result<()> {
    let mut indented = Indent::new(out, prefix);
    writeln!(indented, "{}", text.trim_end())
}

// ---- harness verify -----------------------------------------------------------------------

/// The table of `harness verify`, written a row at a time as submissions are judged.
#[derive(Debug, Clone, Copy)]
pub struct VerifyTable {
    width: usize,
}

/// Lines of a compile message shown under a mismatching row.
const MISMATCH_MESSAGE_LINES: usize = 6;

impl VerifyTable {
    /// A table wide enough for these submission names.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let width = names
            .into_iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max("submission".len());
        VerifyTable { width }
    }

    pub fn write_header(self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{BOLD}{:<width$}  expected  got  {:>8}  result{BOLD:#}",
            "submission",
            "max CPU",
            width = self.width
        )
    }

    /// `king-queens/time_limit_exceeded/brute.cpp  TLE  TLE  1.01 s  OK  (all-400)`, and for
    /// a mismatch, why under it.
    pub fn write_row(self, out: &mut dyn Write, result: &Verified) -> io::Result<()> {
        let report = &result.report;
        let got = verdict_style(report.verdict);
        write!(
            out,
            "{:<width$}  {:<8}  {got}{:<3}{got:#}  {:>8}  ",
            result.name,
            result.expected.as_str(),
            report.verdict.as_str(),
            format_duration(report.max_cpu_time()),
            width = self.width
        )?;
        if let crate::judge::verify::Expected::Unchecked { folder } = &result.expected {
            write!(
                out,
                "{DIM}unchecked: the format has no folder `{folder}`{DIM:#}"
            )?;
            if let Some(failure) = report.first_failure() {
                write!(out, "  {DIM}({}){DIM:#}", failure.case)?;
            }
            return writeln!(out);
        }
        if result.ok() {
            let ok = verdict_style(Verdict::Accepted);
            write!(out, "{ok}OK{ok:#}")?;
            if let Some(failure) = report.first_failure() {
                write!(out, "        {DIM}({}){DIM:#}", failure.case)?;
            }
            // Right today, but a slower machine could flip it: worth a look before trusting
            // the limit.
            let near = report.outcomes.iter().filter(|o| o.time_sensitive).count();
            write_near_limit(out, "  ", near)?;
            return writeln!(out);
        }
        let bad = verdict_style(Verdict::WrongAnswer);
        writeln!(out, "{bad}MISMATCH{bad:#}")?;
        // submissions.yaml's rules: which one is not met, and how.
        if let crate::judge::verify::Expected::Rules { .. } = &result.expected {
            if let Err(why) = result.expected.met_by(report) {
                writeln!(out, "    {why}")?;
            }
        }
        if !report.compile.ok {
            let lines: Vec<&str> = report.compile.message.lines().collect();
            for line in lines.iter().take(MISMATCH_MESSAGE_LINES) {
                writeln!(out, "    {line}")?;
            }
            if lines.len() > MISMATCH_MESSAGE_LINES {
                writeln!(
                    out,
                    "    {DIM}… {} more lines{DIM:#}",
                    lines.len() - MISMATCH_MESSAGE_LINES
                )?;
            }
        } else if let Some(failure) = report.first_failure() {
            write!(
                out,
                "    first failing case {}: {}",
                failure.case, failure.verdict
            )?;
            if !failure.reason.is_empty() {
                write!(out, ", {}", failure.reason)?;
            }
            writeln!(out)?;
        } else {
            writeln!(
                out,
                "    every case was AC ({} cases)",
                report.outcomes.len()
            )?;
        }
        Ok(())
    }
}

/// `verify: all 26 submissions got their expected verdict, in 84.2 s`
pub fn write_verify_summary(out: &mut dyn Write, report: &VerifyReport) -> io::Result<()> {
    let total = report.results.len();
    let mismatches = report.mismatches();
    let elapsed = format_duration(report.elapsed);
    let parallel = if report.jobs > 1 {
        format!(" ({} cases at a time)", report.jobs)
    } else {
        String::new()
    };
    if mismatches == 0 {
        let style = verdict_style(Verdict::Accepted);
        write!(
            out,
            "{style}verify: all {total} submissions got their expected verdict{style:#}, in {elapsed}{parallel}"
        )?;
    } else {
        let style = verdict_style(Verdict::WrongAnswer);
        write!(
            out,
            "{style}verify: {mismatches} of {total} submissions MISMATCH{style:#} (got another verdict than expected), in {elapsed}{parallel}"
        )?;
    }
    let near = report
        .results
        .iter()
        .filter(|r| r.report.outcomes.iter().any(|o| o.time_sensitive))
        .count();
    if near > 0 {
        let style = verdict_style(Verdict::TimeLimitExceeded);
        let which = if near == 1 {
            "submission has cases"
        } else {
            "submissions have cases"
        };
        write!(out, "; {style}{near} {which} near the time limit{style:#}")?;
    }
    let unchecked = report
        .results
        .iter()
        .filter(|r| !r.expected.is_checked())
        .count();
    if unchecked > 0 {
        write!(
            out,
            "; {unchecked} unchecked (in folders the format does not define)"
        )?;
    }
    writeln!(out)?;
    if !report.skipped.is_empty() {
        let width = report
            .skipped
            .iter()
            .map(|s| s.name.len())
            .max()
            .unwrap_or(0);
        writeln!(
            out,
            "{DIM}skipped {} (not judged here):{DIM:#}",
            report.skipped.len()
        )?;
        for skipped in &report.skipped {
            writeln!(out, "  {:<width$}  {}", skipped.name, skipped.reason)?;
        }
    }
    Ok(())
}

/// The cases of one submission, as `harness judge` lists them, for `verify -v` under its
/// row.
pub fn write_cases(
    out: &mut dyn Write,
    outcomes: &[CaseOutcome],
    options: &HumanOptions,
) -> io::Result<()> {
    let mut diffs_left = options.max_diffs;
    write_outcomes(
        out,
        outcomes,
        options,
        name_width(outcomes),
        &mut diffs_left,
    )
}

/// The whole verify report at once: header, rows and summary.
#[cfg(test)]
fn write_verify(out: &mut dyn Write, report: &VerifyReport) -> io::Result<()> {
    let mut printer = VerifyPrinter::new(
        report.results.iter().map(|r| r.name.as_str()),
        Detail::Normal,
    );
    printer.start(out)?;
    for result in &report.results {
        printer.row(out, result)?;
    }
    write_verify_summary(out, report)
}

/// `verify`'s table as submissions are judged: the header at once (with `-q`, only before the
/// first row shown), each row as soon as it is known — a full verify takes a minute — and with
/// `-v` each submission's cases under its row.
#[derive(Debug, Clone, Copy)]
pub struct VerifyPrinter {
    table: VerifyTable,
    detail: Detail,
    header_written: bool,
}

impl VerifyPrinter {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>, detail: Detail) -> Self {
        VerifyPrinter {
            table: VerifyTable::new(names),
            detail,
            header_written: false,
        }
    }

    /// Before any submission is judged.
    pub fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.detail != Detail::Quiet {
            self.write_header(out)?;
        }
        Ok(())
    }

    /// One judged submission; with `-q` only a mismatch is shown.
    pub fn row(&mut self, out: &mut dyn Write, result: &Verified) -> io::Result<()> {
        if self.detail == Detail::Quiet && result.ok() {
            return Ok(());
        }
        self.write_header(out)?;
        self.table.write_row(out, result)?;
        if self.detail == Detail::Verbose {
            let verbose = HumanOptions {
                detail: Detail::Verbose,
                ..HumanOptions::default()
            };
            write_cases(out, &result.report.outcomes, &verbose)?;
        }
        Ok(())
    }

    fn write_header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.header_written {
            self.header_written = true;
            self.table.write_header(out)?;
        }
        Ok(())
    }
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
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use crate::case::partition::Partition;
    use crate::config::Language;
    use crate::judge::submission::CompileOutcome;
    use crate::judge::verify::Verified;
    use crate::judge::Mismatch;
    use crate::sandbox::run::Limits;

    fn outcome(case: &str, verdict: Verdict, ms: u64, reason: &str) -> CaseOutcome {
        CaseOutcome {
            case: case.to_string(),
            verdict,
            reason: reason.to_string(),
            cpu_time: Duration::from_millis(ms),
            wall_time: Duration::from_millis(ms + 1),
            peak_memory_bytes: 3 << 20,
            time_sensitive: false,
            stderr_tail: String::new(),
            mismatch: None,
            interaction: None,
            input: None,
        }
    }

    fn submission(outcomes: Vec<CaseOutcome>, planned: usize) -> SubmissionReport {
        SubmissionReport {
            problem: "sum".to_string(),
            source: PathBuf::from("mine.py"),
            language: Language {
                id: "python".to_string(),
                name: "Python 3".to_string(),
                extensions: vec!["py".to_string()],
                compile: None,
                run: vec!["python3".to_string(), "{source}".to_string()],
                time_multiplier: 2.0,
                compile_limits: crate::config::CompileLimits::default(),
            },
            limits: Limits {
                cpu_time: Duration::from_secs(2),
                wall_time: Duration::from_secs(6),
                memory_bytes: 256 << 20,
                output_bytes: 64 << 20,
            },
            compile: CompileOutcome {
                ok: true,
                message: String::new(),
            },
            verdict: crate::judge::overall_verdict(&outcomes),
            outcomes,
            planned_cases: planned,
            elapsed: Duration::from_millis(100),
            jobs: 1,
        }
    }

    fn render(write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> String {
        let mut out = Vec::new();
        write(&mut out).unwrap();
        anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string()
    }

    #[test]
    fn a_submission_shows_its_failures_then_the_first_failing_verdict() {
        let mut wrong = outcome(
            "02",
            Verdict::WrongAnswer,
            12,
            "line 1: expected 12, found 13",
        );
        wrong.mismatch = Some(Mismatch {
            output: b"13\n".to_vec(),
            answer: b"12\n".to_vec(),
        });
        let report = submission(
            vec![
                outcome("01", Verdict::Accepted, 5, ""),
                wrong,
                outcome("03", Verdict::TimeLimitExceeded, 2100, "CPU time over"),
            ],
            3,
        );
        let text = render(|out| write_submission(out, &report, &HumanOptions::default()));
        insta::assert_snapshot!(text, @r"
        sum: mine.py (Python 3), 3 cases, limits 2000 ms CPU (1000 ms × 2 for Python 3), 256.0 MiB
          WA   02    12 ms    3.0 MiB  line 1: expected 12, found 13
                --- expected (answer)
                +++ received (output)
                - 1   │ 12
                +   1 │ 13
          TLE  03  2100 ms    3.0 MiB  CPU time over
        verdict: WA (first failing case: 02) — 1 AC, 1 WA, 1 TLE; max 2100 ms, 3.0 MiB
        ");
    }

    #[test]
    fn a_compile_error_shows_the_message_and_runs_nothing() {
        let mut report = submission(Vec::new(), 4);
        report.verdict = Verdict::CompileError;
        report.compile = CompileOutcome {
            ok: false,
            message: "mine.py:1: SyntaxError: expected ':'".to_string(),
        };
        let text = render(|out| write_submission(out, &report, &HumanOptions::default()));
        insta::assert_snapshot!(text, @r"
        sum: mine.py (Python 3), 4 cases, limits 2000 ms CPU (1000 ms × 2 for Python 3), 256.0 MiB
          CE   the compiler said:
                mine.py:1: SyntaxError: expected ':'
        verdict: CE (compile error; no case was run)
        ");
    }

    #[test]
    fn a_long_list_of_failures_is_cut_with_a_count() {
        let outcomes = (0..30)
            .map(|i| outcome(&format!("{i:02}"), Verdict::RuntimeError, 1, "SIGSEGV"))
            .collect();
        let report = submission(outcomes, 30);
        let options = HumanOptions {
            max_cases: 2,
            ..HumanOptions::default()
        };
        let text = render(|out| write_submission(out, &report, &options));
        assert!(text.contains("  RE   01"), "{text}");
        assert!(!text.contains("  RE   02"), "{text}");
        assert!(text.contains("… 28 more cases not shown"), "{text}");
    }

    #[test]
    fn the_verify_table_marks_each_row() {
        let ok = Verified {
            name: "sum/time_limit_exceeded/slow.py".to_string(),
            expected: Verdict::TimeLimitExceeded.into(),
            report: submission(
                vec![
                    outcome("01", Verdict::Accepted, 5, ""),
                    outcome("02", Verdict::TimeLimitExceeded, 2100, "CPU time over"),
                ],
                9,
            ),
        };
        let mismatch = Verified {
            name: "sum/accepted/mine.py".to_string(),
            expected: Verdict::Accepted.into(),
            report: submission(
                vec![outcome(
                    "01",
                    Verdict::WrongAnswer,
                    7,
                    "expected 3, found 4",
                )],
                9,
            ),
        };
        let report = VerifyReport {
            skipped: Vec::new(),
            results: vec![ok, mismatch],
            jobs: 1,
            elapsed: Duration::from_millis(1500),
        };
        let text = render(|out| write_verify(out, &report));
        insta::assert_snapshot!(text, @r"
        submission                       expected  got   max CPU  result
        sum/time_limit_exceeded/slow.py  TLE       TLE   2100 ms  OK        (02)
        sum/accepted/mine.py             AC        WA       7 ms  MISMATCH
            first failing case 01: WA, expected 3, found 4
        verify: 1 of 2 submissions MISMATCH (got another verdict than expected), in 1500 ms
        ");
    }

    fn suite() -> SuiteReport {
        let mut wrong = outcome(
            "02",
            Verdict::WrongAnswer,
            3,
            "line 1, token 1: expected 3, found 4",
        );
        wrong.mismatch = Some(Mismatch {
            output: b"4\n".to_vec(),
            answer: b"3\n".to_vec(),
        });
        wrong.stderr_tail = "debug: n=2\n".to_string();
        let mut near = outcome("big", Verdict::Accepted, 950, "");
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
                    outcomes: vec![outcome("01", Verdict::Accepted, 1, ""), wrong, near],
                },
                ProblemReport {
                    name: "echo".to_string(),
                    title: "Echo".to_string(),
                    program: "echo".to_string(),
                    limits,
                    outcomes: vec![outcome("01", Verdict::Accepted, 1, "")],
                },
            ],
            jobs: 2,
            elapsed: Duration::from_millis(1234),
            partition: Some(Partition { index: 1, count: 2 }),
        }
    }

    fn render_suite(detail: Detail) -> String {
        let options = HumanOptions {
            detail,
            ..HumanOptions::default()
        };
        render(|out| write_suite(out, &suite(), &options))
    }

    #[test]
    fn normal() {
        insta::assert_snapshot!(render_suite(Detail::Normal));
    }

    #[test]
    fn quiet_leaves_out_problems_that_passed() {
        let text = render_suite(Detail::Quiet);
        assert!(!text.contains("echo:"), "{text}");
        assert!(text.contains("sum: 2/3 AC, 1 WA"), "{text}");
        assert!(!text.contains("stderr |"), "{text}");
    }

    #[test]
    fn verbose_shows_every_case_and_stderr() {
        let text = render_suite(Detail::Verbose);
        assert!(text.contains("AC   01"), "{text}");
        assert!(text.contains("stderr | debug: n=2"), "{text}");
    }

    #[test]
    fn verify_flags_submissions_near_the_time_limit() {
        let mut near = outcome("01", Verdict::Accepted, 1950, "");
        near.time_sensitive = true;
        let result = Verified {
            name: "sum/accepted/close.py".to_string(),
            expected: Verdict::Accepted.into(),
            report: submission(vec![near], 1),
        };
        let report = VerifyReport {
            skipped: Vec::new(),
            results: vec![result],
            jobs: 1,
            elapsed: Duration::from_millis(2000),
        };
        let text = render(|out| write_verify(out, &report));
        assert!(text.contains("OK  1 case near the time limit"), "{text}");
        assert!(
            text.contains("; 1 submission has cases near the time limit"),
            "{text}"
        );
    }
}
