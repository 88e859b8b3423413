//! The reports of the authoring commands: `add`, `gen` and `validate`.

use std::io::{self, Write};
use std::time::Duration;

use anstyle::Style;

use super::shown_path;
use super::style::{BAD, DIM, GOOD, WARN};
use crate::author::add::{AddError, Added, AnswerSource, Warning};
use crate::author::gen::{GenReport, Mode, Status};
use crate::author::validate::InvalidCase;
use crate::units::format_duration;

/// The files `add` wrote.
pub fn write_added(out: &mut dyn Write, added: &Added) -> io::Result<()> {
    let verb = if added.replaced { "replaced" } else { "wrote" };
    writeln!(
        out,
        "{verb} {} ({} bytes)",
        shown_path(&added.input),
        added.input_bytes
    )?;
    let source = match added.answer_source {
        AnswerSource::Reference => "answer from the reference",
        AnswerSource::Given => "answer as given",
        AnswerSource::Empty => "empty answer: the interactor judges the dialogue",
    };
    writeln!(
        out,
        "{verb} {} ({} bytes, {source})",
        shown_path(&added.answer),
        added.answer_bytes
    )
}

/// A given answer the reference disagrees with, or could not check.
pub fn write_add_warning(out: &mut dyn Write, warning: &Warning) -> io::Result<()> {
    match warning {
        Warning::Disagrees { verdict, reason } => writeln!(
            out,
            "{WARN}warning{WARN:#}: the given answer disagrees with the reference's ({verdict}: {reason})"
        ),
        Warning::ReferenceFailed { reason } => writeln!(
            out,
            "{WARN}warning{WARN:#}: the given answer was not compared with the reference's: {reason}"
        ),
    }
}

/// An input `add` refused (the validator rejected it).
pub fn write_refused(out: &mut dyn Write, error: &AddError) -> io::Result<()> {
    writeln!(out, "{BAD}error{BAD:#}: {error}")
}

/// What `gen` did to one problem's cases: each new, changed or differing case, then a line.
pub fn write_gen(out: &mut dyn Write, report: &GenReport) -> io::Result<()> {
    let label = |status: Status| match (report.mode, status) {
        (_, Status::Unchanged) => "",
        (Mode::Write, Status::Missing) => "new     ",
        (Mode::Write, Status::Differs { .. }) => "changed ",
        (Mode::Check, Status::Missing) => "MISSING ",
        (Mode::Check, Status::Differs { .. }) => "DIFFERS ",
    };
    for case in &report.changed {
        let what = match case.status {
            Status::Differs {
                input: true,
                answer: true,
            } => ": input and answer",
            Status::Differs { input: true, .. } => ": input",
            Status::Differs { answer: true, .. } => ": answer",
            _ => "",
        };
        let style = if report.mode == Mode::Check {
            BAD
        } else {
            Style::new()
        };
        writeln!(
            out,
            "  {style}{}{style:#} {}{what}",
            label(case.status),
            shown_path(&report.cases_folder.join(&case.case))
        )?;
    }
    let elapsed = format_duration(report.elapsed);
    match report.mode {
        Mode::Write => writeln!(
            out,
            "{}: {} cases, {} written, {} unchanged ({elapsed})",
            report.problem,
            report.total,
            report.changed.len(),
            report.unchanged()
        ),
        Mode::Check if report.changed.is_empty() => writeln!(
            out,
            "{}: {GOOD}{} cases match{GOOD:#} ({elapsed})",
            report.problem, report.total
        ),
        Mode::Check => writeln!(
            out,
            "{}: {BAD}{} of {} cases differ{BAD:#} ({elapsed})",
            report.problem,
            report.changed.len(),
            report.total
        ),
    }
}

/// The last line of `gen`: how many cases were written, or whether they all match.
pub fn write_gen_summary(
    out: &mut dyn Write,
    mode: Mode,
    total: usize,
    changed: usize,
    elapsed: Duration,
) -> io::Result<()> {
    let elapsed = format_duration(elapsed);
    match mode {
        Mode::Write => writeln!(
            out,
            "{GOOD}generated {total} cases{GOOD:#}: {changed} written, {} unchanged, in {elapsed}",
            total - changed
        ),
        Mode::Check if changed == 0 => writeln!(
            out,
            "{GOOD}all {total} generated cases match the committed ones{GOOD:#}, in {elapsed}"
        ),
        Mode::Check => writeln!(
            out,
            "{BAD}FAILED{BAD:#}: {changed} of {total} generated cases differ from the committed ones, in {elapsed} (hint: `harness gen` rewrites them)"
        ),
    }
}

/// Each invalid case with its path and the validator's reason.
pub fn write_invalid(out: &mut dyn Write, invalid: &[InvalidCase]) -> io::Result<()> {
    for case in invalid {
        writeln!(
            out,
            "  {BAD}INVALID{BAD:#}  {}: {}",
            shown_path(&case.input),
            case.reason
        )?;
    }
    Ok(())
}

/// A problem `validate` cannot check.
pub fn write_no_validator(out: &mut dyn Write, problem: &str) -> io::Result<()> {
    writeln!(
        out,
        "{problem}: {DIM}no validator{DIM:#} (hint: set `validator` in [problems.{problem}])"
    )
}

/// One problem's validation: its invalid cases, then a line.
pub fn write_validated(
    out: &mut dyn Write,
    problem: &str,
    invalid: &[InvalidCase],
    cases: usize,
) -> io::Result<()> {
    write_invalid(out, invalid)?;
    if invalid.is_empty() {
        writeln!(out, "{problem}: {GOOD}{cases} inputs valid{GOOD:#}")
    } else {
        writeln!(
            out,
            "{problem}: {BAD}{} of {cases} inputs invalid{BAD:#}",
            invalid.len()
        )
    }
}

/// The `.interaction` samples replayed against the interactor: each mismatch, then a line.
pub fn write_interactions(
    out: &mut dyn Write,
    problem: &str,
    mismatches: &[crate::check::interactor::SampleMismatch],
    replayed: usize,
) -> io::Result<()> {
    for mismatch in mismatches {
        writeln!(
            out,
            "  {BAD}mismatch{BAD:#} {}: {}",
            mismatch.file.display(),
            mismatch.reason
        )?;
    }
    if mismatches.is_empty() {
        writeln!(
            out,
            "{problem}: {GOOD}{replayed} .interaction samples replayed as written{GOOD:#}"
        )
    } else {
        writeln!(
            out,
            "{problem}: {BAD}{} of {replayed} .interaction samples differ from the interactor{BAD:#}",
            mismatches.len()
        )
    }
}

/// Why `harness run` judged nothing: some planned cases break the constraints.
pub fn write_nothing_judged(out: &mut dyn Write, invalid: usize) -> io::Result<()> {
    writeln!(
        out,
        "{BAD}error{BAD:#}: nothing was judged: {} {} the constraints (hint: fix {}, or pass --no-validate)",
        invalid,
        if invalid == 1 { "case breaks" } else { "cases break" },
        if invalid == 1 { "it" } else { "them" },
    )
}
