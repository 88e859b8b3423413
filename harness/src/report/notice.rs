//! One-line notices on stderr that are not part of a report: warnings, errors, what the judge
//! is about to do. Kept here so that every command words and colours them alike.

use std::fmt::Display;
use std::io::{self, Write};

use super::style::{BAD, WARN};
use crate::judge::suite::Skip;

/// `warning: …`, for something the user should know that does not stop the command.
pub fn write_warning(out: &mut dyn Write, message: impl Display) -> io::Result<()> {
    writeln!(out, "{WARN}warning{WARN:#}: {message}")
}

/// `error: …`, for what stopped the command.
pub fn write_error(out: &mut dyn Write, message: impl Display) -> io::Result<()> {
    writeln!(out, "{BAD}error{BAD:#}: {message}")
}

/// The build command about to run, whose own output follows.
pub fn write_building(out: &mut dyn Write, command: &[String]) -> io::Result<()> {
    writeln!(out, "building: {}", command.join(" "))
}

/// The build command's end, with how long it took: a log without a terminal (CI) shows where
/// the minutes went.
pub fn write_built(out: &mut dyn Write, took: std::time::Duration) -> io::Result<()> {
    writeln!(out, "built in {}", crate::units::format_duration(took))
}

/// `--failed` with nothing to rerun.
pub fn write_nothing_failed(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "nothing failed last time: no case to rerun")
}

/// A stress run's random first seed, said at once so that even an interrupted run can be
/// repeated.
pub fn write_first_seed(out: &mut dyn Write, seed: u64) -> io::Result<()> {
    writeln!(
        out,
        "stress: first seed {seed} (pass --seed {seed} to repeat this run)"
    )
}

/// `harness run` judges a problem without a `solution` with the newest source named after it.
pub fn write_adopted(
    out: &mut dyn Write,
    problem: &str,
    source: &std::path::Path,
) -> io::Result<()> {
    let name = source.file_name().map_or_else(
        || source.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    writeln!(
        out,
        "note: problem `{problem}` has no `solution`: judging `{name}`, the newest source named after it"
    )
}

/// `harness run` leaves a problem's solution unjudged.
pub fn write_skipped(out: &mut dyn Write, problem: &str, skip: Skip) -> io::Result<()> {
    match skip {
        Skip::NoSolution => writeln!(
            out,
            "note: problem `{problem}` has no `solution` in judge.toml: its solution run is skipped (hint: `harness judge {problem} FILE` judges a source file; `{problem}.cpp` or another source named after it beside judge.toml is judged by `harness run`)"
        ),
        Skip::OutputOnly => writeln!(
            out,
            "note: problem `{problem}` is output-only: no solution runs (hint: `harness judge {problem} ANSWERS` checks a folder or zip of answer files)"
        ),
        Skip::Interactive => writeln!(
            out,
            "note: problem `{problem}` is interactive but names no `interactor`, so its solution run is skipped (hint: add `interactor` to [problems.{problem}])"
        ),
    }
}

/// `--watch`: the screen cleared before each run, so each run reads from the top.
pub fn write_clear_screen(out: &mut dyn Write) -> io::Result<()> {
    write!(out, "\x1b[2J\x1b[H")?;
    out.flush()
}

/// `--watch` between runs: what is watched and how to stop.
pub fn write_watching(
    out: &mut dyn Write,
    file: &std::path::Path,
    cases: &[&std::path::Path],
) -> io::Result<()> {
    if cases.is_empty() {
        return writeln!(
            out,
            "watching `{}`: judged again when it changes (Ctrl-C stops)",
            file.display()
        );
    }
    let cases: Vec<String> = cases
        .iter()
        .map(|folder| format!("`{}`", folder.display()))
        .collect();
    writeln!(
        out,
        "watching `{}` and the cases in {}: judged again when they change (Ctrl-C stops)",
        file.display(),
        cases.join(", ")
    )
}

/// After Ctrl-C.
pub fn write_interrupted(out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "interrupted: every program the judge started was killed"
    )
}

/// The error and its causes, `outer: inner`, leaving out a cause whose text the message before
/// it already quotes (library errors name their cause in their own words, hint included).
pub fn error_chain(error: &anyhow::Error) -> String {
    let mut message = error.to_string();
    for cause in error.chain().skip(1) {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
    }
    message
}
