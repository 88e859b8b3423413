//! The report of `harness stress`: the failing input found, how it shrank, and the outputs
//! side by side, for people and (one JSON document) for scripts.

use std::io::{self, Write};
use std::path::Path;

use super::excerpt::write_excerpt;
use super::shown_path;
use super::style::{BAD, BOLD, DIM, GOOD};
use crate::author::add::Added;
use crate::author::stress::{Rerun, ShrinkStatus, StressReport};
use crate::event::{StressResult, Stressed};
use crate::text::{cut, plural, tail_lines};
use crate::units::{format_bytes, format_duration, format_time_limit};
use crate::verdict::Verdict;

/// Lines of an input or output shown; the rest is counted.
const SHOWN_LINES: usize = 20;
/// Characters of one shown line.
const SHOWN_CHARS: usize = 100;

/// An input or output, indented, cut to [`SHOWN_LINES`] lines of [`SHOWN_CHARS`] characters.
fn excerpt(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    write_excerpt(out, bytes, SHOWN_LINES, SHOWN_CHARS)
}

/// `--format json` for a submission that does not compile: nothing was tried.
pub fn compile_error_json(stressed: &Stressed, message: &str) -> serde_json::Value {
    serde_json::json!({
        "problem": stressed.problem,
        "submission": stressed.submission.display().to_string(),
        "language": stressed.language,
        "found": false,
        "iterations": 0,
        "verdict": Verdict::CompileError.as_str(),
        "compile_error": message,
    })
}

/// The compiler's message, for a submission that does not compile.
pub fn write_compile_error(
    out: &mut dyn Write,
    submission: &Path,
    language: &str,
    message: &str,
) -> io::Result<()> {
    writeln!(
        out,
        "{BAD}CE{BAD:#}: `{}` does not compile as {language}:",
        submission.display()
    )?;
    for line in message.lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// What a stress run is reported with: its result and what it was run on.
pub struct StressSummary<'a> {
    pub submission: &'a Path,
    pub language: &'a str,
    pub report: &'a StressReport,
    /// The failing input, stored as a case by `--save`.
    pub saved: Option<&'a Added>,
    /// The command that ran, as typed (without `--seed`), for the line that reproduces it.
    pub command: &'a str,
}

impl<'a> StressSummary<'a> {
    /// What `stressed` is reported with, or its compiler's message when it did not compile.
    pub fn of(stressed: &'a Stressed, command: &'a str) -> Result<Self, &'a str> {
        match &stressed.result {
            StressResult::CompileError(message) => Err(message),
            StressResult::Ran { report, saved } => Ok(StressSummary {
                submission: &stressed.submission,
                language: &stressed.language,
                report,
                saved: saved.as_ref(),
                command,
            }),
        }
    }
}

/// The result for people: the failure, how it shrank, the minimal input with the expected and
/// received outputs, and how to reproduce it.
pub fn write_human(out: &mut dyn Write, summary: &StressSummary<'_>) -> io::Result<()> {
    let StressSummary {
        submission,
        language,
        report,
        saved,
        command,
    } = *summary;
    let elapsed = format_duration(report.elapsed);
    let Some(found) = &report.found else {
        let last = report.first_seed + report.iterations.saturating_sub(1);
        let repeats = match report.answers_reused {
            0 => String::new(),
            1 => "; 1 repeated input answered as before".to_owned(),
            n => format!("; {n} repeated inputs answered as before"),
        };
        return writeln!(
            out,
            "{GOOD}no failure{GOOD:#} in {} inputs (seeds {}..={last}{repeats}) of `{}` ({language}), in {elapsed}",
            report.iterations,
            report.first_seed,
            submission.display()
        );
    };
    let original = &found.original;
    writeln!(
        out,
        "{BAD}{}{BAD:#} on input {} (seed {}) of `{}` ({language}), after {elapsed}",
        original.outcome.verdict,
        found.iteration,
        found.seed,
        submission.display()
    )?;
    write_shrink(out, found)?;
    write_failing(out, found)?;
    write_sanitized(out, found.sanitized.as_ref())?;
    if let Some(kept) = &found.kept {
        writeln!(
            out,
            "kept: {} (the first failing input), {} (the smallest)",
            shown_path(&kept.first),
            shown_path(&kept.smallest)
        )?;
    }
    if let Some(added) = saved {
        writeln!(
            out,
            "saved as case `{}`: {} + .ans",
            added.name,
            shown_path(&added.input)
        )?;
    }
    writeln!(out, "reproduce: {command} --seed {} -n 1", found.seed)
}

/// How the shrinking went, and the steps it took.
fn write_shrink(out: &mut dyn Write, found: &crate::author::stress::Found) -> io::Result<()> {
    match found.shrink {
        ShrinkStatus::Disabled => writeln!(out, "{DIM}not shrunk (--no-shrink){DIM:#}")?,
        ShrinkStatus::JudgeError => writeln!(
            out,
            "{DIM}not shrunk: the checker failed (a judge error){DIM:#}"
        )?,
        status => {
            let steps = plural(found.steps.len(), "step");
            let tried = plural(found.tried, "candidate");
            let headline = match status {
                ShrinkStatus::GaveUp => format!("shrunk in {steps} ({tried} tried, then gave up)"),
                ShrinkStatus::OutOfTime(budget) => format!(
                    "{BAD}shrinking stopped{BAD:#} at its time budget ({}, --shrink-time) after {steps} ({tried} tried)",
                    format_time_limit(budget)
                ),
                ShrinkStatus::OutOfCandidates(budget) => format!(
                    "{BAD}shrinking stopped{BAD:#} at its budget of {} (--shrink-candidates) after {steps}",
                    plural(budget, "candidate")
                ),
                ShrinkStatus::Interrupted => format!(
                    "{BAD}shrinking interrupted{BAD:#} (Ctrl-C) after {steps} ({tried} tried)"
                ),
                _ => format!("shrunk in {steps} ({tried} tried)"),
            };
            writeln!(out, "{headline}:")?;
            write_steps(out, found)?;
            if found.builtin_shrinker {
                // What a shrinker that only sees tokens cannot know.
                writeln!(
                    out,
                    "{DIM}shrunk by the built-in shrinker: it drops lines and tokens and brings numbers down by bisection, keeping a candidate only if it fails the same way; it keeps a lone first number that counts the lines below, or the items on the next line, in step, but other counts and bounds of the statement (an `n m` header, a list's length) it cannot know, so the input above may break them: a validator (--validator, or the problem's) rejects such candidates, or write a shrink command{DIM:#}"
                )?;
            }
        }
    }
    Ok(())
}

/// The failing input (the first and the smallest, when shrinking was cut short), what was
/// expected and received, and the verdict.
fn write_failing(out: &mut dyn Write, found: &crate::author::stress::Found) -> io::Result<()> {
    let original = &found.original;
    let minimal = &found.minimal;
    let cut_short = found.shrink.cut_short() && !found.steps.is_empty();
    if cut_short {
        writeln!(
            out,
            "{BOLD}first failing input{BOLD:#} (seed {}, {}):",
            found.seed,
            size(&original.input)
        )?;
        excerpt(out, &original.input)?;
    }
    if cut_short {
        writeln!(
            out,
            "{BOLD}smallest failing input so far{BOLD:#} ({}):",
            size(&minimal.input)
        )?;
    } else if found.steps.is_empty() {
        writeln!(out, "{BOLD}failing input:{BOLD:#}")?;
    } else {
        writeln!(out, "{BOLD}minimal failing input:{BOLD:#}")?;
    }
    excerpt(out, &minimal.input)?;
    match &minimal.outcome.interaction {
        // Interactive: the interactor judged the dialogue; there is no expected output.
        Some(interaction) => {
            writeln!(out, "{BOLD}dialogue (end):{BOLD:#}")?;
            let transcript = interaction.transcript.to_interaction();
            excerpt(out, tail_lines(&transcript, 12).join("\n").as_bytes())?;
        }
        None => {
            writeln!(out, "{BOLD}expected (reference):{BOLD:#}")?;
            excerpt(out, &minimal.expected)?;
        }
    }
    match minimal.output() {
        Some(output) => {
            writeln!(out, "{BOLD}received:{BOLD:#}")?;
            excerpt(out, output)?;
        }
        None if !minimal.outcome.stderr_tail.trim().is_empty() => {
            writeln!(out, "{BOLD}stderr (end):{BOLD:#}")?;
            excerpt(
                out,
                tail_lines(&minimal.outcome.stderr_tail, 5)
                    .join("\n")
                    .as_bytes(),
            )?;
        }
        None => {}
    }
    write!(
        out,
        "{BOLD}verdict:{BOLD:#} {BAD}{}{BAD:#}  {}",
        minimal.outcome.verdict, minimal.outcome.reason
    )?;
    match minimal
        .outcome
        .mismatch
        .as_ref()
        .and_then(|m| m.hint.as_ref())
    {
        Some(hint) => writeln!(out, " {DIM}(hint: {hint}){DIM:#}")?,
        None => writeln!(out)?,
    }
    Ok(())
}

/// The sanitized build's rerun of the smallest failing input.
fn write_sanitized(out: &mut dyn Write, sanitized: Option<&Rerun>) -> io::Result<()> {
    match sanitized {
        Some(Rerun::Failed(outcome)) => writeln!(
            out,
            "{BOLD}sanitized:{BOLD:#} {BAD}{}{BAD:#}  {}",
            outcome.verdict, outcome.reason
        )?,
        Some(Rerun::Passed) => writeln!(
            out,
            "{BOLD}sanitized:{BOLD:#} passes: the sanitizers saw nothing wrong on this input"
        )?,
        Some(Rerun::NotBuilt(message)) => writeln!(
            out,
            "{BOLD}sanitized:{BOLD:#} the sanitized build did not compile: {message}"
        )?,
        None => {}
    }
    Ok(())
}

/// Steps of the log shown from either end when there are more: the log stays a summary.
const SHOWN_STEPS: usize = 4;

/// The shrink's log: the input found, then each step by what it took away from the one
/// before; beyond `2 * SHOWN_STEPS + 1` steps, the first and last few, the rest counted.
fn write_steps(out: &mut dyn Write, found: &crate::author::stress::Found) -> io::Result<()> {
    let original = &found.original;
    writeln!(
        out,
        "  {:<3}  {}",
        original.outcome.verdict,
        one_line(&original.input)
    )?;
    let steps = &found.steps;
    let hidden = if steps.len() > 2 * SHOWN_STEPS + 1 {
        SHOWN_STEPS..steps.len() - SHOWN_STEPS
    } else {
        0..0
    };
    let mut before = original;
    for (index, step) in steps.iter().enumerate() {
        if index == hidden.start && !hidden.is_empty() {
            writeln!(out, "  {DIM}… {} more steps …{DIM:#}", hidden.len())?;
        }
        if !hidden.contains(&index) {
            writeln!(
                out,
                "  {:<3}  {}",
                step.outcome.verdict,
                crate::author::shrink_tokens::describe_step(&before.input, &step.input)
            )?;
        }
        before = step;
    }
    Ok(())
}

/// An input's size, for a shrink's progress and a report of one cut short: `1 line, 3
/// tokens, 24 B`.
pub fn size(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    format!(
        "{}, {}, {}",
        plural(text.lines().count(), "line"),
        plural(text.split_whitespace().count(), "token"),
        format_bytes(bytes.len() as u64)
    )
}

/// An input on one line: `4 1 1`, or `3 … (+5 lines)`.
pub fn one_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines();
    let first = cut(lines.next().unwrap_or(""), 40);
    let more = lines.count();
    if more == 0 {
        first
    } else {
        format!("{first} (+{more} lines)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::author::stress::{Failing, Found};
    use crate::results::case::CaseOutcome;

    fn failing(input: &str) -> Failing {
        Failing {
            input: input.as_bytes().to_vec(),
            expected: Vec::new(),
            outcome: CaseOutcome::new("input", Verdict::WrongAnswer, ""),
        }
    }

    fn found(steps: usize) -> Found {
        let steps: Vec<Failing> = (0..steps)
            .map(|n| failing(&format!("{}\n", 999 - n)))
            .collect();
        Found {
            seed: 1,
            iteration: 1,
            original: failing("1000\n"),
            minimal: steps.last().cloned().unwrap_or_else(|| failing("1000\n")),
            steps,
            tried: 40,
            remembered: 0,
            shrink: ShrinkStatus::Shrunk,
            builtin_shrinker: false,
            sanitized: None,
            kept: None,
        }
    }

    fn log(found: &Found) -> Vec<String> {
        let mut out = Vec::new();
        write_steps(&mut out, found).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_step_log_is_a_summary() {
        // Up to nine steps, every one.
        assert_eq!(log(&found(9)).len(), 10);
        let long = log(&found(30));
        assert_eq!(long.len(), 10, "{long:#?}");
        assert_eq!(long[0], "  WA  1000");
        assert_eq!(long[1], "  WA  `1000` → `999` (line 1)");
        // (Styled: the writer strips the style where colours are off.)
        assert!(long[5].contains("… 22 more steps …"), "{long:#?}");
        assert_eq!(long[9], "  WA  `971` → `970` (line 1)");
    }

    #[test]
    fn sizes_count_lines_tokens_and_bytes() {
        assert_eq!(size(b"1 2\n3\n"), "2 lines, 3 tokens, 6 B");
        assert_eq!(size(b"7\n"), "1 line, 1 token, 2 B");
    }
}
