//! The terminal report: a compact line per passing problem, a line per failing case with its
//! reason and its detail (input, stderr, dialogue, diff), and a summary; for `verify` a table
//! row per stored submission. [`HumanReporter`] writes it from a run's events, as they come.
//! Styles are ANSI escapes; the caller's writer (anstream) strips them when the output is not
//! a terminal or NO_COLOR is set.

use std::io::{self, Write};
use std::time::Duration;

use super::shown_path;
use super::style::{verdict_style, BOLD, DIM, UNCHECKED};
use crate::case::excerpt::InputExcerpt;
use crate::case::partition::Partition;
use crate::event::{Command, Event, Finished, Plan, Summary, Unit};
use crate::judge::submission::SubmissionReport;
use crate::judge::verify::{Skipped, Verified};
use crate::judge::{CaseOutcome, Interaction};
use crate::report::diff::{self, DiffOptions};
use crate::report::reporter::Reporter;
use crate::results::case::{counted, max_cpu_time, max_memory, RAN, RAN_NOT_CHECKED};
use crate::sandbox::transcript::Line;
use crate::text::tail_lines;
use crate::text::{cut, plural};
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

/// A list of cases as every report shows it: a line per case shown (the failing ones, those
/// near the time limit, every one when verbose), and under the first few failing ones what to
/// look at — the head of the input, the end of stderr (a crash's own words), the dialogue of
/// an interactive case, the diff of a wrong answer. `run`, `judge` and `verify -v` all list
/// their cases through it.
#[derive(Debug, Clone)]
pub struct CaseList {
    options: HumanOptions,
    width: usize,
    shown: usize,
    not_shown: usize,
    diffs_left: usize,
}

impl CaseList {
    /// `cases`: the names of the cases to come, for the width of the name column.
    pub fn new<'a>(options: HumanOptions, cases: impl IntoIterator<Item = &'a str>) -> Self {
        CaseList {
            options,
            width: name_width(cases),
            shown: 0,
            not_shown: 0,
            diffs_left: options.max_diffs,
        }
    }

    /// The next list (another problem's) under the same column, with the details left.
    pub fn next_list(&mut self) {
        self.shown = 0;
        self.not_shown = 0;
    }

    /// Whether `outcome` gets a line.
    fn shows(&self, outcome: &CaseOutcome) -> bool {
        // A pass near the limit is listed too: it is the case another machine could flip.
        self.options.detail == Detail::Verbose
            || !outcome.verdict.is_accepted()
            || (outcome.unanswered.is_some() && self.options.detail == Detail::Normal)
            || (outcome.time_sensitive && self.options.detail == Detail::Normal)
    }

    /// One case judged: its line if it is shown, and its detail if it is among the first
    /// failures.
    pub fn write_case(&mut self, out: &mut dyn Write, outcome: &CaseOutcome) -> io::Result<()> {
        if !self.shows(outcome) {
            return Ok(());
        }
        if self.shown == self.options.max_cases {
            self.not_shown += 1;
            return Ok(());
        }
        self.shown += 1;
        write_case_line(out, outcome, self.width, &self.options)?;
        if let Some(output) = &outcome.unanswered {
            // Nothing judged it: what it printed is for the reader to judge.
            if let Some(input) = &outcome.input {
                write_input(out, input)?;
            }
            writeln!(out, "        {DIM}output{DIM:#}")?;
            for line in String::from_utf8_lossy(output).lines().take(STDERR_LINES) {
                writeln!(out, "        {DIM}│{DIM:#} {}", cut(line, STDERR_CHARS))?;
            }
            return Ok(());
        }
        if outcome.verdict.is_accepted() || self.diffs_left == 0 {
            return Ok(());
        }
        self.diffs_left -= 1;
        write_case_detail(out, outcome, &self.options)
    }

    /// `… 28 more cases not shown`, when the list was cut.
    pub fn write_not_shown(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.not_shown > 0 {
            writeln!(
                out,
                "  {DIM}… {} more cases not shown{DIM:#}",
                self.not_shown
            )?;
            self.not_shown = 0;
        }
        Ok(())
    }
}

/// What a failing case shows under its line: the head of its input (what to reproduce it
/// with), the end of its stderr, its dialogue, its diff.
fn write_case_detail(
    out: &mut dyn Write,
    outcome: &CaseOutcome,
    options: &HumanOptions,
) -> io::Result<()> {
    if let Some(input) = &outcome.input {
        write_input(out, input)?;
    }
    // A crash's own words (a runtime that could not start says why over several lines; the
    // reason keeps only the last). Verbose shows stderr under every case's line already.
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
fn name_width<'a>(names: impl IntoIterator<Item = &'a str>) -> usize {
    names.into_iter().map(str::len).max().unwrap_or(0).min(32)
}

fn write_case_line(
    out: &mut dyn Write,
    outcome: &CaseOutcome,
    width: usize,
    options: &HumanOptions,
) -> io::Result<()> {
    let style = if outcome.checked() {
        verdict_style(outcome.verdict)
    } else {
        UNCHECKED
    };
    write!(
        out,
        "  {style}{:<3}{style:#}  {:<width$}  {:>7}  {:>9}",
        outcome.code(),
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
    if let Some(hint) = outcome.mismatch.as_ref().and_then(|m| m.hint.as_ref()) {
        write!(out, " {DIM}(hint: {hint}){DIM:#}")?;
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
fn write_problem_summary(out: &mut dyn Write, problem: &SubmissionReport) -> io::Result<()> {
    let total = problem.outcomes.len();
    let unchecked = problem.unchecked();
    let accepted = problem.count(Verdict::Accepted) - unchecked;
    let style = if accepted == total {
        verdict_style(Verdict::Accepted)
    } else if accepted + unchecked == total {
        UNCHECKED
    } else {
        verdict_style(Verdict::WrongAnswer)
    };
    write!(
        out,
        "{BOLD}{}{BOLD:#}: {style}{accepted}/{total} AC{style:#}",
        problem.problem
    )?;
    if unchecked > 0 {
        write!(
            out,
            ", {UNCHECKED}{unchecked} {RAN_NOT_CHECKED}{UNCHECKED:#}"
        )?;
    }
    for verdict in Verdict::ALL.into_iter().filter(|v| !v.is_accepted()) {
        let count = problem.count(verdict);
        if count > 0 {
            write!(out, ", {count} {verdict}")?;
        }
    }
    if let Some(score) = &problem.score {
        write!(out, ", {BOLD}{}{BOLD:#}", super::score::score_text(score))?;
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

/// `max 12 ms, 3.1 MiB`: the largest CPU time and peak memory of any case.
fn maxima(outcomes: &[CaseOutcome]) -> String {
    let (cpu, memory) = (max_cpu_time(outcomes), max_memory(outcomes));
    format!("max {}, {}", format_duration(cpu), format_bytes(memory))
}

/// What `run`'s last line counts, over every problem.
#[derive(Debug, Clone, Copy, Default)]
struct RunTotals {
    cases: usize,
    failed: usize,
    /// Ran within the limits with no answer to check them against: neither AC nor failed.
    unchecked: usize,
    near: usize,
}

impl RunTotals {
    fn add(&mut self, report: &SubmissionReport) {
        self.cases += report.outcomes.len();
        self.failed += report
            .outcomes
            .iter()
            .filter(|o| !o.verdict.is_accepted())
            .count();
        self.unchecked += report.unchecked();
        self.near += report.outcomes.iter().filter(|o| o.time_sensitive).count();
    }
}

/// `all 652 cases AC in 1.9 s (2 cases at a time)`, or how many failed.
fn write_totals(
    out: &mut dyn Write,
    totals: RunTotals,
    jobs: usize,
    partition: Option<Partition>,
    elapsed: Duration,
) -> io::Result<()> {
    let RunTotals {
        cases: total,
        failed,
        unchecked,
        near,
    } = totals;
    let mut how = Vec::new();
    if jobs > 1 {
        how.push(format!("{jobs} cases at a time"));
    }
    if let Some(partition) = partition {
        how.push(format!("slice {partition}"));
    }
    let how = if how.is_empty() {
        String::new()
    } else {
        format!(" ({})", how.join(", "))
    };
    let elapsed = format_duration(elapsed);
    if total == 0 {
        writeln!(out, "no case to judge{how}")?;
    } else if failed == 0 && unchecked == 0 {
        let style = verdict_style(Verdict::Accepted);
        write!(
            out,
            "{style}all {total} cases AC{style:#} in {elapsed}{how}"
        )?;
    } else if failed == 0 {
        // Nothing failed, but the cases with no answer say nothing of the output.
        write!(
            out,
            "{} AC, {UNCHECKED}{unchecked} {RAN_NOT_CHECKED}{UNCHECKED:#} (no answer to compare with), in {elapsed}{how}",
            total - unchecked
        )?;
    } else {
        let style = verdict_style(Verdict::WrongAnswer);
        write!(
            out,
            "{style}FAILED{style:#}: {failed} of {total} cases not AC, in {elapsed}{how}"
        )?;
        if unchecked > 0 {
            write!(out, "; {unchecked} {RAN_NOT_CHECKED}")?;
        }
    }
    if total > 0 {
        write_near_limit(out, "; ", near)?;
        writeln!(out)?;
    }
    Ok(())
}

// ---- harness judge ------------------------------------------------------------------------

/// What `harness judge` says before anything runs.
#[derive(Debug, Clone, Copy)]
pub struct SubmissionHeader<'a> {
    pub problem: &'a str,
    pub source: &'a std::path::Path,
    pub language: &'a crate::compile::Language,
    /// With the language's time multiplier applied.
    pub limits: crate::sandbox::run::Limits,
    pub cases: usize,
}

impl<'a> SubmissionHeader<'a> {
    /// The header of a planned submission; `None` when the plan does not say what it is.
    pub fn of(unit: &'a Unit) -> Option<Self> {
        Some(SubmissionHeader {
            problem: &unit.problem,
            source: unit.source.as_deref()?,
            language: unit.language.as_ref()?,
            limits: unit.limits?,
            cases: unit.cases.len(),
        })
    }
}

/// `king-queens: mine.py (Python 3), 651 cases, limits 3 s CPU (1 s × 3), 256 MiB`
fn write_submission_header(out: &mut dyn Write, header: &SubmissionHeader<'_>) -> io::Result<()> {
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

/// After the last case: the cases not shown, the compiler's message, and the verdict line.
fn write_submission_end(
    out: &mut dyn Write,
    cases: &mut CaseList,
    report: &SubmissionReport,
) -> io::Result<()> {
    cases.write_not_shown(out)?;
    if !report.compile.ok {
        let style = verdict_style(Verdict::CompileError);
        writeln!(out, "  {style}CE{style:#}   the compiler said:")?;
        write_indented(out, &report.compile.message, "        ")?;
    } else if cases.options.detail == Detail::Verbose && !report.compile.message.is_empty() {
        writeln!(out, "  {DIM}compiler warnings:{DIM:#}")?;
        write_indented(out, &report.compile.message, "        ")?;
    }
    if let Some(score) = report.score.as_ref().filter(|_| report.compile.ok) {
        super::score::write_groups(out, score)?;
    }
    write_submission_verdict(out, report)
}

/// `verdict: WA (first failing case: all-123) — 640 AC, 11 WA; max 12 ms, 3.1 MiB`
fn write_submission_verdict(out: &mut dyn Write, report: &SubmissionReport) -> io::Result<()> {
    if report.verdict_code() == RAN {
        // Every case ran within its limits and none had an answer: nothing says it is right.
        write!(
            out,
            "{BOLD}verdict{BOLD:#}: {UNCHECKED}{RAN_NOT_CHECKED}{UNCHECKED:#} (no answer to compare with)"
        )?;
    } else {
        let style = verdict_style(report.verdict);
        write!(
            out,
            "{BOLD}verdict{BOLD:#}: {style}{}{style:#}",
            report.verdict
        )?;
    }
    if !report.compile.ok {
        return writeln!(out, " (compile error; no case was run)");
    }
    if let Some(score) = &report.score {
        write!(out, ", {BOLD}{}{BOLD:#}", super::score::score_text(score))?;
    }
    let scored = report.score.as_ref().is_some_and(|s| s.sheet().is_some());
    if scored && report.stopped_early() {
        // The groups stopped at their first failures: the rest could not change the score.
        write!(out, " (")?;
        if let Some(failure) = report.first_failure() {
            write!(out, "first failing case: {}; ", failure.case)?;
        }
        write!(
            out,
            "{} of {} cases judged, the others cannot change the score)",
            report.outcomes.len(),
            report.planned_cases
        )?;
    } else if let Some(failure) = report.first_failure() {
        write!(out, " (first failing case: {}", failure.case)?;
        if report.stopped_early() {
            // Pass-fail: the first failing case in case order is the verdict, so the cases
            // after it cannot change it.
            write!(
                out,
                "; the verdict is settled there: {} of {} cases judged, --all judges the other {}",
                report.outcomes.len(),
                report.planned_cases,
                report.planned_cases - report.outcomes.len()
            )?;
        }
        write!(out, ")")?;
    }
    write!(
        out,
        " — {}; {}",
        counted(&report.outcomes).join(", "),
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
        let score = report
            .score
            .as_ref()
            .filter(|_| report.compile.ok)
            .map(|s| format!("  {}", super::score::score_text(s)))
            .unwrap_or_default();
        if result.ok() {
            let ok = verdict_style(Verdict::Accepted);
            write!(out, "{ok}OK{ok:#}")?;
            if let Some(failure) = report.first_failure() {
                write!(out, "        {DIM}({}){DIM:#}", failure.case)?;
            }
            write!(out, "{score}")?;
            // Right today, but a slower machine could flip it: worth a look before trusting
            // the limit.
            let near = report.outcomes.iter().filter(|o| o.time_sensitive).count();
            write_near_limit(out, "  ", near)?;
            return writeln!(out);
        }
        let bad = verdict_style(Verdict::WrongAnswer);
        writeln!(out, "{bad}MISMATCH{bad:#}{score}")?;
        if let crate::score::ScoreCheck::Mismatch(why) = &result.score_check {
            if result.expected.met_by(report).is_ok() {
                return writeln!(out, "    {why}");
            }
            writeln!(out, "    {why}")?;
        }
        // submissions.yaml's rules: which one is not met, and how.
        if let crate::judge::verify::Expected::Rules { .. } = &result.expected {
            if let Err(why) = result.expected.met_by(report) {
                writeln!(out, "    {why}")?;
            }
        }
        write_why_not_as_expected(out, report)
    }
}

/// Why a submission did not judge as expected: its compiler's message, its first failing
/// case, or that every case was accepted.
fn write_why_not_as_expected(out: &mut dyn Write, report: &SubmissionReport) -> io::Result<()> {
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

/// What `verify`'s last line counts.
#[derive(Debug, Clone, Copy, Default)]
struct VerifyTotals {
    submissions: usize,
    mismatches: usize,
    /// Submissions with a case near the time limit.
    near: usize,
    /// Submissions in folders the format does not define.
    unchecked: usize,
    /// Submissions with the verdict expected but not the score.
    wrong_scores: usize,
}

impl VerifyTotals {
    fn add(&mut self, result: &Verified) {
        self.submissions += 1;
        self.mismatches += usize::from(!result.ok());
        self.near += usize::from(result.report.outcomes.iter().any(|o| o.time_sensitive));
        self.unchecked += usize::from(!result.expected.is_checked());
        self.wrong_scores += usize::from(
            result.expected.allows(result.report.verdict)
                && result.score_check != crate::score::ScoreCheck::Ok,
        );
    }
}

/// `verify: all 26 submissions got their expected verdict, in 84.2 s`
fn write_verify_summary(
    out: &mut dyn Write,
    totals: VerifyTotals,
    skipped: &[Skipped],
    jobs: usize,
    elapsed: Duration,
) -> io::Result<()> {
    let VerifyTotals {
        submissions: total,
        mismatches,
        near,
        unchecked,
        wrong_scores,
    } = totals;
    let elapsed = format_duration(elapsed);
    let parallel = if jobs > 1 {
        format!(" ({jobs} cases at a time)")
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
            "{style}verify: {mismatches} of {total} submissions MISMATCH{style:#} (got another {} than expected), in {elapsed}{parallel}",
            if wrong_scores == 0 {
                "verdict"
            } else if wrong_scores == mismatches {
                "score"
            } else {
                "verdict or score"
            }
        )?;
    }
    if near > 0 {
        let style = verdict_style(Verdict::TimeLimitExceeded);
        let which = if near == 1 {
            "submission has cases"
        } else {
            "submissions have cases"
        };
        write!(out, "; {style}{near} {which} near the time limit{style:#}")?;
    }
    if unchecked > 0 {
        write!(
            out,
            "; {unchecked} unchecked (in folders the format does not define)"
        )?;
    }
    writeln!(out)?;
    if !skipped.is_empty() {
        let width = skipped.iter().map(|s| s.name.len()).max().unwrap_or(0);
        writeln!(
            out,
            "{DIM}skipped {} (not judged here):{DIM:#}",
            skipped.len()
        )?;
        for skipped in skipped {
            writeln!(out, "  {:<width$}  {}", skipped.name, skipped.reason)?;
        }
    }
    Ok(())
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
            let outcomes = &result.report.outcomes;
            let mut cases = CaseList::new(verbose, outcomes.iter().map(|o| o.case.as_str()));
            for outcome in outcomes {
                cases.write_case(out, outcome)?;
            }
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

// ---- the reporter -------------------------------------------------------------------------

/// The terminal report as a [`Reporter`]: each command's layout of the same events, written as
/// they come — `judge` streams each failing case, `run` each problem when it is done, `verify`
/// each row — and flushed after every event that wrote something.
pub struct HumanReporter<W: Write> {
    out: W,
    options: HumanOptions,
    layout: Option<Layout>,
}

/// Where a command's report is, between events.
enum Layout {
    /// Each problem's failing cases and summary line when it is done, the totals at the end.
    Run {
        cases: CaseList,
        totals: RunTotals,
        jobs: usize,
        partition: Option<Partition>,
        /// `--failed` found nothing that failed last time.
        nothing_to_rerun: bool,
    },
    /// The header at once, each failing case as it fails, the verdict at the end.
    Judge { cases: CaseList },
    /// A row per stored submission as it is judged, the summary at the end.
    Verify {
        printer: VerifyPrinter,
        totals: VerifyTotals,
        jobs: usize,
        /// The scored submissions (without their cases), for the table at the end.
        scored: Vec<Verified>,
    },
    /// A table per problem.
    Calibrate { repeat: usize, problems: usize },
    /// The failure found (or not), shrunk, with the line that reproduces it.
    Stress { reproduce: String },
    /// What changed per problem, the totals at the end.
    Gen {
        check: bool,
        total: usize,
        changed: usize,
        /// A package's `data/` was generated: its report has its own count.
        package: bool,
    },
}

impl<W: Write> HumanReporter<W> {
    pub fn new(out: W, options: HumanOptions) -> Self {
        HumanReporter {
            out,
            options,
            layout: None,
        }
    }

    /// The writer, for tests.
    #[cfg(test)]
    pub fn into_inner(self) -> W {
        self.out
    }

    fn start(&mut self, plan: &Plan) -> io::Result<Layout> {
        let out = &mut self.out;
        let names = || {
            plan.units
                .iter()
                .flat_map(|u| u.cases.iter().map(String::as_str))
        };
        Ok(match &plan.command {
            Command::Run => {
                if let Some(note) = &plan.memory_note {
                    writeln!(out, "{DIM}{note}{DIM:#}")?;
                }
                Layout::Run {
                    cases: CaseList::new(self.options, names()),
                    totals: RunTotals::default(),
                    jobs: plan.jobs,
                    partition: plan.partition,
                    nothing_to_rerun: plan.failed_only && plan.units.is_empty(),
                }
            }
            Command::Judge => {
                // What is judged and how, before a compile and cases that may take a while.
                if let Some(header) = plan.units.first().and_then(SubmissionHeader::of) {
                    write_submission_header(out, &header)?;
                } else if let Some(unit) = plan.units.first().filter(|u| u.limits.is_none()) {
                    // An output-only problem's answers: nothing compiles or runs.
                    if let Some(source) = &unit.source {
                        writeln!(
                            out,
                            "{BOLD}{}{BOLD:#}: {} (answer files), {}",
                            unit.problem,
                            source.display(),
                            plural(unit.cases.len(), "case")
                        )?;
                    }
                }
                for note in [&plan.sanitized, &plan.memory_note].into_iter().flatten() {
                    writeln!(out, "  {DIM}{note}{DIM:#}")?;
                }
                Layout::Judge {
                    cases: CaseList::new(self.options, names()),
                }
            }
            Command::Verify => {
                let labels = plan.units.iter().map(|u| u.label.as_str());
                let mut printer = VerifyPrinter::new(labels, self.options.detail);
                printer.start(out)?;
                Layout::Verify {
                    printer,
                    totals: VerifyTotals::default(),
                    jobs: plan.jobs,
                    scored: Vec::new(),
                }
            }
            Command::Calibrate { repeat } => Layout::Calibrate {
                repeat: *repeat,
                problems: 0,
            },
            Command::Stress { reproduce } => Layout::Stress {
                reproduce: reproduce.clone(),
            },
            Command::Gen { check } => Layout::Gen {
                check: *check,
                total: 0,
                changed: 0,
                package: false,
            },
        })
    }

    fn finished(&mut self, result: Finished<'_>) -> io::Result<()> {
        let out = &mut self.out;
        match (&mut self.layout, result) {
            (Some(Layout::Run { cases, totals, .. }), Finished::Judged(report)) => {
                for outcome in &report.outcomes {
                    cases.write_case(out, outcome)?;
                }
                cases.write_not_shown(out)?;
                cases.next_list();
                totals.add(report);
                let all_accepted = report.outcomes.iter().all(|o| o.verdict.is_accepted());
                if self.options.detail != Detail::Quiet || !all_accepted {
                    write_problem_summary(out, report)?;
                }
            }
            (Some(Layout::Judge { cases }), Finished::Judged(report)) => {
                write_submission_end(out, cases, report)?;
            }
            (
                Some(Layout::Verify {
                    printer,
                    totals,
                    scored,
                    ..
                }),
                Finished::Verified(result),
            ) => {
                printer.row(out, result)?;
                totals.add(result);
                if result.report.score.is_some() {
                    let mut slim = result.clone();
                    slim.report.outcomes = Vec::new();
                    scored.push(slim);
                }
            }
            (Some(Layout::Calibrate { repeat, problems }), Finished::Calibrated(calibration)) => {
                if *problems > 0 {
                    writeln!(out)?;
                }
                *problems += 1;
                super::calibrate::write_problem(out, calibration, *repeat)?;
            }
            (Some(Layout::Stress { reproduce }), Finished::Stressed(stressed)) => {
                match super::stress::StressSummary::of(stressed, reproduce) {
                    Err(message) => super::stress::write_compile_error(
                        out,
                        &stressed.submission,
                        &stressed.language,
                        message,
                    )?,
                    Ok(summary) => super::stress::write_human(out, &summary)?,
                }
            }
            (Some(Layout::Gen { total, changed, .. }), Finished::Generated(report)) => {
                super::author::write_gen(out, report)?;
                *total += report.total;
                *changed += report.changed.len();
            }
            (Some(Layout::Gen { package, .. }), Finished::PackageGenerated(generated)) => {
                super::package::write_generated(out, generated)?;
                *package = true;
            }
            _ => {}
        }
        Ok(())
    }

    fn end(&mut self, summary: &Summary) -> io::Result<()> {
        let out = &mut self.out;
        match &self.layout {
            Some(Layout::Run {
                nothing_to_rerun: true,
                ..
            }) => {
                // Not an error: the last run passed, which is what the user hoped to hear.
                super::notice::write_nothing_failed(out)?;
            }
            Some(Layout::Run {
                totals,
                jobs,
                partition,
                ..
            }) => write_totals(out, *totals, *jobs, *partition, summary.elapsed)?,
            Some(Layout::Verify {
                totals,
                jobs,
                scored,
                ..
            }) => {
                if self.options.detail != Detail::Quiet {
                    let scored: Vec<&Verified> = scored.iter().collect();
                    super::score::write_results_table(out, &scored)?;
                }
                write_verify_summary(out, *totals, &summary.skipped, *jobs, summary.elapsed)?;
            }
            Some(Layout::Gen {
                check,
                total,
                changed,
                package: false,
            }) => {
                let mode = if *check {
                    crate::author::gen::Mode::Check
                } else {
                    crate::author::gen::Mode::Write
                };
                super::author::write_gen_summary(out, mode, *total, *changed, summary.elapsed)?;
            }
            _ => {}
        }
        Ok(())
    }
}

impl<W: Write + Send> Reporter for HumanReporter<W> {
    fn report(&mut self, event: &Event<'_>) -> io::Result<()> {
        match *event {
            Event::RunStarted(plan) => self.layout = Some(self.start(plan)?),
            Event::CaseFinished { outcome, .. } => {
                if let Some(Layout::Judge { cases }) = &mut self.layout {
                    cases.write_case(&mut self.out, outcome)?;
                }
            }
            Event::UnitFinished { result, .. } => self.finished(result)?,
            Event::RunFinished(summary) => self.end(summary)?,
            Event::Started { .. }
            | Event::Compiled { .. }
            | Event::Generated { .. }
            | Event::Tried { .. }
            | Event::Shrunk { .. } => return Ok(()),
        }
        self.out.flush()
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
    use crate::compile::Language;
    use crate::judge::submission::CompileOutcome;
    use crate::judge::verify::Verified;
    use crate::report::fixtures::with_mismatch;
    use crate::sandbox::run::Limits;

    fn outcome(case: &str, verdict: Verdict, ms: u64, reason: &str) -> CaseOutcome {
        CaseOutcome {
            cpu_time: Duration::from_millis(ms),
            wall_time: Duration::from_millis(ms + 1),
            peak_memory_bytes: 3 << 20,
            ..CaseOutcome::new(case, verdict, reason)
        }
    }

    fn python() -> Language {
        Language {
            id: "python".to_string(),
            name: "Python 3".to_string(),
            extensions: vec!["py".to_string()],
            compile: None,
            run: vec!["python3".to_string(), "{source}".to_string()],
            time_multiplier: 2.0,
            compile_limits: crate::compile::CompileLimits::default(),
            sandbox: Default::default(),
            tools: Vec::new(),
        }
    }

    fn limits(seconds: u64) -> Limits {
        Limits {
            cpu_time: Duration::from_secs(seconds),
            wall_time: Duration::from_secs(3 * seconds),
            memory_bytes: 256 << 20,
            output_bytes: 64 << 20,
        }
    }

    fn submission(outcomes: Vec<CaseOutcome>, planned: usize) -> SubmissionReport {
        SubmissionReport {
            problem: "sum".to_string(),
            title: "Sum".to_string(),
            source: PathBuf::from("mine.py"),
            language: Some(python()),
            limits: limits(2),
            compile: CompileOutcome {
                ok: true,
                message: String::new(),
            },
            verdict: crate::judge::overall_verdict(&outcomes),
            outcomes,
            planned_cases: planned,
            elapsed: Duration::from_millis(100),
            jobs: 1,
            score: None,
        }
    }

    /// The plan's unit for a judged report, as the session makes it.
    fn unit_of(report: &SubmissionReport, label: &str) -> Unit {
        Unit {
            problem: report.problem.clone(),
            label: label.to_string(),
            source: Some(report.source.clone()),
            language: report.language.clone(),
            limits: Some(report.limits),
            cases: (0..report.planned_cases)
                .map(|i| {
                    report
                        .outcomes
                        .get(i)
                        .map_or(format!("{i:02}"), |o| o.case.clone())
                })
                .collect(),
            runs: report.planned_cases,
            expected: None,
            scoring: None,
        }
    }

    /// What the reporter writes for `plan` and `events`, with RunStarted and RunFinished
    /// around them, styles stripped.
    fn render(
        plan: &Plan,
        events: &[Event<'_>],
        summary: &Summary,
        options: HumanOptions,
    ) -> String {
        let mut reporter = HumanReporter::new(Vec::new(), options);
        reporter.report(&Event::RunStarted(plan)).unwrap();
        for event in events {
            reporter.report(event).unwrap();
        }
        reporter.report(&Event::RunFinished(summary)).unwrap();
        let text = String::from_utf8(reporter.into_inner()).unwrap();
        anstream::adapter::strip_str(&text).to_string()
    }

    /// What the reporter writes for `plan` whose units finished with `results`, in
    /// `elapsed_ms`.
    fn render_finished(
        plan: &Plan,
        results: &[Finished<'_>],
        elapsed_ms: u64,
        options: HumanOptions,
    ) -> String {
        let events: Vec<Event<'_>> = results
            .iter()
            .enumerate()
            .map(|(unit, &result)| Event::UnitFinished { unit, result })
            .collect();
        let summary = Summary {
            elapsed: Duration::from_millis(elapsed_ms),
            ..Summary::default()
        };
        render(plan, &events, &summary, options)
    }

    /// `harness judge` on one submission: each case as it finishes, then the report.
    fn render_judged(report: &SubmissionReport, options: HumanOptions) -> String {
        let plan = Plan::new(
            Command::Judge,
            vec![unit_of(report, "mine.py")],
            1,
            crate::sandbox::Mode::Auto,
        );
        let mut events: Vec<Event<'_>> = report
            .outcomes
            .iter()
            .map(|outcome| Event::CaseFinished { unit: 0, outcome })
            .collect();
        events.push(Event::UnitFinished {
            unit: 0,
            result: Finished::Judged(report),
        });
        render(&plan, &events, &Summary::default(), options)
    }

    #[test]
    fn a_submission_shows_its_failures_then_the_first_failing_verdict() {
        let wrong = with_mismatch(
            outcome(
                "02",
                Verdict::WrongAnswer,
                12,
                "line 1: expected 12, found 13",
            ),
            b"13\n",
            b"12\n",
        );
        let report = submission(
            vec![
                outcome("01", Verdict::Accepted, 5, ""),
                wrong,
                outcome("03", Verdict::TimeLimitExceeded, 2100, "CPU time over"),
            ],
            3,
        );
        let text = render_judged(&report, HumanOptions::default());
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
        let text = render_judged(&report, HumanOptions::default());
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
        let text = render_judged(&report, options);
        assert!(text.contains("  RE   01"), "{text}");
        assert!(!text.contains("  RE   02"), "{text}");
        assert!(text.contains("… 28 more cases not shown"), "{text}");
    }

    /// `harness verify` on these results.
    fn render_verify(results: &[Verified], elapsed_ms: u64) -> String {
        let units = results
            .iter()
            .map(|r| unit_of(&r.report, &r.name))
            .collect();
        let plan = Plan::new(Command::Verify, units, 1, crate::sandbox::Mode::Auto);
        let results: Vec<_> = results.iter().map(Finished::Verified).collect();
        render_finished(&plan, &results, elapsed_ms, HumanOptions::default())
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
            expected_score: None,
            score_check: crate::score::ScoreCheck::Ok,
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
            expected_score: None,
            score_check: crate::score::ScoreCheck::Ok,
        };
        let text = render_verify(&[ok, mismatch], 1500);
        insta::assert_snapshot!(text, @r"
        submission                       expected  got   max CPU  result
        sum/time_limit_exceeded/slow.py  TLE       TLE   2100 ms  OK        (02)
        sum/accepted/mine.py             AC        WA       7 ms  MISMATCH
            first failing case 01: WA, expected 3, found 4
        verify: 1 of 2 submissions MISMATCH (got another verdict than expected), in 1500 ms
        ");
    }

    #[test]
    fn verify_flags_submissions_near_the_time_limit() {
        let mut near = outcome("01", Verdict::Accepted, 1950, "");
        near.time_sensitive = true;
        let result = Verified {
            name: "sum/accepted/close.py".to_string(),
            expected: Verdict::Accepted.into(),
            report: submission(vec![near], 1),
            expected_score: None,
            score_check: crate::score::ScoreCheck::Ok,
        };
        let text = render_verify(&[result], 2000);
        assert!(text.contains("OK  1 case near the time limit"), "{text}");
        assert!(
            text.contains("; 1 submission has cases near the time limit"),
            "{text}"
        );
    }

    /// Two problems of `harness run`: `sum` with a wrong answer (it printed on stderr too) and
    /// a pass near the limit, `echo` all right.
    fn suite() -> Vec<SubmissionReport> {
        let mut wrong = with_mismatch(
            outcome(
                "02",
                Verdict::WrongAnswer,
                3,
                "line 1, token 1: expected 3, found 4",
            ),
            b"4\n",
            b"3\n",
        );
        wrong.stderr_tail = "debug: n=2\n".to_string();
        let mut near = outcome("big", Verdict::Accepted, 950, "");
        near.time_sensitive = true;
        let problem = |name: &str, outcomes: Vec<CaseOutcome>| SubmissionReport {
            problem: name.to_string(),
            source: PathBuf::from(name),
            language: None,
            limits: limits(1),
            planned_cases: outcomes.len(),
            ..submission(outcomes, 0)
        };
        vec![
            problem(
                "sum",
                vec![outcome("01", Verdict::Accepted, 1, ""), wrong, near],
            ),
            problem("echo", vec![outcome("01", Verdict::Accepted, 1, "")]),
        ]
    }

    fn render_run(reports: &[SubmissionReport], detail: Detail) -> String {
        let units = reports.iter().map(|r| unit_of(r, &r.problem)).collect();
        let mut plan = Plan::new(Command::Run, units, 2, crate::sandbox::Mode::Auto);
        plan.partition = Some(Partition { index: 1, count: 2 });
        let results: Vec<_> = reports.iter().map(Finished::Judged).collect();
        let options = HumanOptions {
            detail,
            ..HumanOptions::default()
        };
        render_finished(&plan, &results, 1234, options)
    }

    #[test]
    fn normal() {
        insta::assert_snapshot!(render_run(&suite(), Detail::Normal));
    }

    #[test]
    fn quiet_leaves_out_problems_that_passed() {
        let text = render_run(&suite(), Detail::Quiet);
        assert!(!text.contains("echo:"), "{text}");
        assert!(text.contains("sum: 2/3 AC, 1 WA"), "{text}");
        assert!(!text.contains("stderr |"), "{text}");
    }

    #[test]
    fn verbose_shows_every_case_and_stderr() {
        let text = render_run(&suite(), Detail::Verbose);
        assert!(text.contains("AC   01"), "{text}");
        assert!(text.contains("stderr | debug: n=2"), "{text}");
    }

    #[test]
    fn run_shows_a_crashs_stderr_as_judge_does() {
        let mut crash = outcome("01", Verdict::RuntimeError, 2, "exit 1: no such file");
        crash.stderr_tail = "loading the table\nno such file: table.txt\n".to_string();
        let mut reports = suite();
        reports[1].outcomes = vec![crash.clone()];
        let run = render_run(&reports, Detail::Normal);
        let judged = render_judged(&submission(vec![crash], 1), HumanOptions::default());
        let detail = "exit 1: no such file\n        stderr (end)\n        │ loading the table\n        │ no such file: table.txt\n";
        assert!(run.contains(detail), "{run}");
        assert!(judged.contains(detail), "{judged}");
    }

    #[test]
    fn run_says_when_nothing_failed_last_time() {
        let mut plan = Plan::new(Command::Run, Vec::new(), 1, crate::sandbox::Mode::Auto);
        plan.failed_only = true;
        let text = render(&plan, &[], &Summary::default(), HumanOptions::default());
        assert!(text.starts_with("nothing failed"), "{text}");
    }
}
