//! The report of `harness stress`: the failing input found, how it shrank, and the outputs
//! side by side, for people and (one JSON document) for scripts.

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

use super::excerpt::write_excerpt;
use super::shown_path;
use super::style::{BAD, BOLD, DIM, GOOD};
use crate::author::add::Added;
use crate::author::stress::{Failing, Rerun, ShrinkStatus, StressReport};
use crate::text::{cut, tail_lines};
use crate::units::format_duration;
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
pub fn compile_error_json(
    problem: &str,
    submission: &Path,
    language: &str,
    message: &str,
) -> serde_json::Value {
    serde_json::json!({
        "problem": problem,
        "submission": submission.display().to_string(),
        "language": language,
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
    match found.shrink {
        ShrinkStatus::Shrunk | ShrinkStatus::GaveUp => {
            let gave_up = if found.shrink == ShrinkStatus::GaveUp {
                ", then gave up"
            } else {
                ""
            };
            writeln!(
                out,
                "shrunk in {} {} ({} candidates tried{gave_up}):",
                found.steps.len(),
                if found.steps.len() == 1 {
                    "step"
                } else {
                    "steps"
                },
                found.tried
            )?;
            writeln!(
                out,
                "  {:<3}  {}",
                original.outcome.verdict,
                one_line(&original.input)
            )?;
            // Each step by what it took away from the one before.
            let mut before = original;
            for step in &found.steps {
                writeln!(
                    out,
                    "  {:<3}  {}",
                    step.outcome.verdict,
                    crate::author::shrink_tokens::describe_step(&before.input, &step.input)
                )?;
                before = step;
            }
            if found.builtin_shrinker {
                // What a shrinker that only sees tokens cannot know.
                writeln!(
                    out,
                    "{DIM}shrunk by the built-in shrinker: it drops lines and tokens and brings numbers toward 0 and 1, keeping a candidate only if it fails the same way; it keeps a lone first number that counts the lines below, or the items on the next line, in step, but other counts and bounds of the statement (an `n m` header, a list's length) it cannot know, so the input above may break them: a validator (--validator, or the problem's) rejects such candidates, or write a shrink command{DIM:#}"
                )?;
            }
        }
        ShrinkStatus::Disabled => writeln!(out, "{DIM}not shrunk (--no-shrink){DIM:#}")?,
        ShrinkStatus::JudgeError => writeln!(
            out,
            "{DIM}not shrunk: the checker failed (a judge error){DIM:#}"
        )?,
    }
    let minimal = &found.minimal;
    let title = if found.steps.is_empty() {
        "failing input"
    } else {
        "minimal failing input"
    };
    writeln!(out, "{BOLD}{title}:{BOLD:#}")?;
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
    match &found.sanitized {
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

/// `--format json`: one document, field names stable for scripts.
#[derive(Debug, Serialize)]
pub struct StressJson {
    problem: String,
    submission: String,
    language: String,
    found: bool,
    iterations: u64,
    /// Inputs seen before in the run, given the reference's earlier answer (the submission
    /// ran on them all the same).
    answers_reused: u64,
    /// Workers that judged inputs at once (`-j`).
    jobs: usize,
    first_seed: u64,
    /// The failing input's seed, or the first seed when nothing failed.
    seed: u64,
    verdict: Option<&'static str>,
    reason: Option<String>,
    input: Option<String>,
    expected: Option<String>,
    /// What the submission printed (kept for wrong answers only).
    output: Option<String>,
    stderr: Option<String>,
    original_input: Option<String>,
    original_verdict: Option<&'static str>,
    shrink: Option<&'static str>,
    /// `built-in` (the token shrinker) or `command` (the problem's shrink command).
    shrinker: Option<&'static str>,
    shrink_steps: Vec<StepJson>,
    candidates_tried: usize,
    elapsed_ms: u64,
    saved: Option<String>,
    /// The failing input run again sanitized (`--sanitize` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    sanitized: Option<SanitizedJson>,
}

/// What the sanitized build did on the failing input.
#[derive(Debug, Serialize)]
struct SanitizedJson {
    /// Its verdict; `AC` when it passed, `CE` when it did not compile.
    verdict: &'static str,
    reason: String,
}

#[derive(Debug, Serialize)]
struct StepJson {
    input: String,
    verdict: &'static str,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl StressJson {
    pub fn new(summary: &StressSummary<'_>) -> Self {
        let StressSummary {
            submission,
            language,
            report,
            saved,
            ..
        } = *summary;
        let found = report.found.as_ref();
        let minimal: Option<&Failing> = found.map(|f| &f.minimal);
        StressJson {
            problem: report.problem.clone(),
            submission: submission.display().to_string(),
            language: language.to_string(),
            found: found.is_some(),
            iterations: report.iterations,
            answers_reused: report.answers_reused,
            jobs: report.jobs,
            first_seed: report.first_seed,
            seed: found.map_or(report.first_seed, |f| f.seed),
            verdict: minimal.map(|m| m.outcome.verdict.as_str()),
            reason: minimal.map(|m| m.outcome.reason.clone()),
            input: minimal.map(|m| text(&m.input)),
            expected: minimal.map(|m| text(&m.expected)),
            output: minimal.and_then(|m| m.output().map(text)),
            stderr: minimal.map(|m| m.outcome.stderr_tail.clone()),
            original_input: found.map(|f| text(&f.original.input)),
            original_verdict: found.map(|f| f.original.outcome.verdict.as_str()),
            shrink: found.map(|f| match f.shrink {
                ShrinkStatus::Shrunk => "shrunk",
                ShrinkStatus::GaveUp => "gave-up",
                ShrinkStatus::Disabled => "disabled",
                ShrinkStatus::JudgeError => "judge-error",
            }),
            shrinker: found.map(|f| {
                if f.builtin_shrinker {
                    "built-in"
                } else {
                    "command"
                }
            }),
            shrink_steps: found
                .map(|f| {
                    f.steps
                        .iter()
                        .map(|s| StepJson {
                            input: text(&s.input),
                            verdict: s.outcome.verdict.as_str(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            candidates_tried: found.map_or(0, |f| f.tried),
            elapsed_ms: report.elapsed.as_millis() as u64,
            saved: saved.map(|a| a.name.clone()),
            sanitized: found
                .and_then(|f| f.sanitized.as_ref())
                .map(|rerun| match rerun {
                    Rerun::Failed(outcome) => SanitizedJson {
                        verdict: outcome.verdict.as_str(),
                        reason: outcome.reason.clone(),
                    },
                    Rerun::Passed => SanitizedJson {
                        verdict: Verdict::Accepted.as_str(),
                        reason: "the sanitizers saw nothing wrong on this input".to_string(),
                    },
                    Rerun::NotBuilt(message) => SanitizedJson {
                        verdict: Verdict::CompileError.as_str(),
                        reason: message.clone(),
                    },
                }),
        }
    }
}
