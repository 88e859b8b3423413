//! What is said about a problem package: where its time limit comes from, and what its input
//! validators made of its cases.

use std::io::{self, Write};
use std::time::Duration;

use super::style::{BAD, DIM, GOOD, WARN};
use crate::package::limits::LimitOrigin;
use crate::package::validate::{CaseValidity, Judgement, Validators};
use crate::package::Loaded;
use crate::units::{format_bytes, format_duration};

/// `different: A Different Problem (Kattis/ICPC package (legacy)), time limit 1 s (computed
/// as problemtools does: …), memory 2.0 GiB`: read before every report on a package.
pub fn write_loaded(
    out: &mut dyn Write,
    loaded: &Loaded,
    limit: Duration,
    origin: &LimitOrigin,
) -> io::Result<()> {
    writeln!(
        out,
        "{}: {} ({}), time limit {} ({origin}), memory {}",
        loaded.package.name,
        loaded.package.title,
        loaded.package.format.describe(),
        format_duration(limit),
        format_bytes(loaded.problem().memory_limit),
    )?;
    if loaded.package.scoring && loaded.package.scoring_rules.is_none() {
        writeln!(
            out,
            "{}: {DIM}a scoring problem: judged pass-fail here (every case must be AC), no score is computed{DIM:#}",
            loaded.package.name
        )?;
    }
    Ok(())
}

/// The invalid cases, the validators that could not run, and a count.
pub fn write_validation(
    out: &mut dyn Write,
    loaded: &Loaded,
    validators: &Validators,
    results: &[CaseValidity],
) -> io::Result<()> {
    let name = &loaded.package.name;
    for (source, why) in &validators.skipped {
        writeln!(out, "{name}: {DIM}skipped {}{DIM:#}: {why}", source.name)?;
    }
    if validators.built.is_empty() {
        return writeln!(
            out,
            "{name}: {DIM}no input validator to run{DIM:#} (hint: the format keeps them in `input_validators/`)"
        );
    }
    let mut valid = 0;
    for result in results {
        match &result.judgement {
            Judgement::Valid => valid += 1,
            Judgement::Invalid(reason) => writeln!(
                out,
                "{name}: {BAD}INVALID{BAD:#} {} by {}: {reason}",
                result.case, result.validator
            )?,
            Judgement::Failed(reason) => writeln!(
                out,
                "{name}: {BAD}validator failed{BAD:#} on {} ({}): {reason}",
                result.case, result.validator
            )?,
        }
    }
    let style = if valid == results.len() { GOOD } else { BAD };
    writeln!(
        out,
        "{name}: {style}{valid} of {} case checks valid{style:#} ({} cases × {})",
        results.len(),
        loaded.package.cases.len(),
        validators.names()
    )
}

/// What the validation data (`data/invalid_input`, `invalid_output`, `valid_output`, the
/// samples' `.out`) made of the validators: each failure, then a count.
pub fn write_data_checks(
    out: &mut dyn Write,
    loaded: &Loaded,
    results: &[crate::package::validate::CheckResult],
) -> io::Result<()> {
    use crate::package::validate::CheckOutcome;
    if results.is_empty() {
        return Ok(());
    }
    let name = &loaded.package.name;
    let mut passed = 0;
    let mut skipped = 0;
    for result in results {
        match &result.outcome {
            CheckOutcome::Passed => passed += 1,
            CheckOutcome::Skipped(why) => {
                skipped += 1;
                writeln!(out, "{name}: {DIM}skipped {}{DIM:#}: {why}", result.case)?;
            }
            CheckOutcome::Failed(why) => writeln!(
                out,
                "{name}: {BAD}{}{BAD:#} {}: {why}",
                match result.kind {
                    crate::package::DataCheckKind::ValidOutput => "NOT ACCEPTED",
                    crate::package::DataCheckKind::Interaction => "BAD INTERACTION",
                    _ => "NOT REJECTED",
                },
                result.case
            )?,
            CheckOutcome::Broken(why) => writeln!(
                out,
                "{name}: {BAD}validator failed{BAD:#} on {}: {why}",
                result.case
            )?,
        }
    }
    let checked = results.len() - skipped;
    let style = if passed == checked { GOOD } else { BAD };
    writeln!(
        out,
        "{name}: {style}{passed} of {checked} validation-data checks passed{style:#} (invalid_input, invalid_output, valid_output, the samples' .out and .interaction)"
    )
}

/// `exported king-queens to king-queens.zip: 212 files (…)`, and what was left out.
pub fn write_exported(
    out: &mut dyn Write,
    problem: &str,
    path: &std::path::Path,
    exported: &crate::export::Exported,
) -> io::Result<()> {
    let files = |prefix: &str, suffix: &str| {
        (exported.files.iter())
            .filter(|f| f.starts_with(prefix) && f.ends_with(suffix))
            .count()
    };
    let count = |prefix: &str| files(prefix, "");
    // A scoring package's folders have their testdata.yaml beside the cases.
    let cases = |prefix: &str| files(prefix, ".in");
    writeln!(
        out,
        "{GOOD}exported{GOOD:#} {problem} to {} ({}): {} files ({} sample and {} secret cases, {} submissions{}{})",
        super::shown_path(path),
        exported.dialect.describe(),
        exported.files.len(),
        cases("data/sample/"),
        cases("data/secret/"),
        count("submissions/"),
        if count("output_validator/") + count("output_validators/") > 0 {
            ", an output validator"
        } else {
            ", default-validator flags"
        },
        if count("input_validators/") > 0 {
            ", an input validator"
        } else {
            ""
        },
    )?;
    for warning in &exported.warnings {
        writeln!(out, "  {WARN}warning:{WARN:#} {warning}")?;
    }
    for note in &exported.notes {
        writeln!(out, "  {DIM}note:{DIM:#} {note}")?;
    }
    Ok(())
}

/// What `harness gen PKG` made of the package's `data/`: the notes (visualizers not run, the
/// solution picked), each file that differs, and a count.
pub fn write_generated(
    out: &mut dyn Write,
    report: &crate::results::author::PackageGenerated,
) -> io::Result<()> {
    let (name, generated, diff, check) = (
        &report.package,
        &report.generated,
        &report.diff,
        report.check,
    );
    for note in &generated.notes {
        writeln!(out, "{name}: {DIM}note:{DIM:#} {note}")?;
    }
    let (new, changed, removed) = if check {
        ("MISSING", "DIFFERS", "NOT IN RECIPE")
    } else {
        ("new", "changed", "removed")
    };
    for (word, paths) in [
        (new, &diff.new),
        (changed, &diff.changed),
        (removed, &diff.removed),
    ] {
        for path in paths {
            let style = if check { BAD } else { DIM };
            writeln!(
                out,
                "{name}: {style}{word}{style:#} data/{}",
                path.display()
            )?;
        }
    }
    for failure in &generated.failed {
        writeln!(out, "{name}: {BAD}FAILED{BAD:#} data/{}", failure.case)?;
    }
    if let Some(trash) = &report.trash {
        writeln!(
            out,
            "{name}: files the harness had not written were moved to {}",
            trash.display()
        )?;
    }
    let cases = generated
        .files
        .keys()
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .count();
    let differ = diff.new.len() + diff.changed.len() + diff.removed.len();
    if check {
        let style = if differ == 0 { GOOD } else { BAD };
        writeln!(
            out,
            "{name}: {style}{} of {} files as generators.yaml makes them{style:#} ({cases} cases, {})",
            generated.files.len() - diff.new.len() - diff.changed.len(),
            generated.files.len(),
            format_duration(report.elapsed)
        )
    } else {
        writeln!(
            out,
            "{name}: {GOOD}generated {cases} cases{GOOD:#} into data/ ({} new, {} changed, {} removed, {} unchanged; {})",
            diff.new.len(),
            diff.changed.len(),
            diff.removed.len(),
            diff.same,
            format_duration(report.elapsed)
        )
    }
}

/// `harness verify CONTEST`: one row per problem, in problems.yaml's order: its submissions,
/// how many did not get their expected verdict, and the time they took.
pub fn write_contest_summary(
    out: &mut dyn Write,
    contest: &crate::package::contest::Contest,
    results: &[crate::judge::verify::Verified],
) -> io::Result<()> {
    let width = contest
        .problems
        .iter()
        .map(|p| p.label.len() + 1 + p.id.len())
        .max()
        .unwrap_or(7)
        .max(7);
    writeln!(
        out,
        "\ncontest {}: {} problems",
        contest.name,
        contest.problems.len()
    )?;
    writeln!(
        out,
        "{:<width$}  submissions  mismatches      time",
        "problem"
    )?;
    for problem in &contest.problems {
        let prefix = format!("{}/", problem.id);
        let rows: Vec<_> = results
            .iter()
            .filter(|r| r.name.starts_with(&prefix))
            .collect();
        let mismatches = rows.iter().filter(|r| !r.ok()).count();
        let time: Duration = rows.iter().map(|r| r.report.elapsed).sum();
        let style = if mismatches == 0 { GOOD } else { BAD };
        writeln!(
            out,
            "{:<width$}  {:>11}  {style}{:>10}{style:#}  {:>8}",
            format!("{} {}", problem.label, problem.id),
            rows.len(),
            mismatches,
            format_duration(time)
        )?;
    }
    Ok(())
}

/// `harness export --contest`: the contest's folder, then each problem as `write_exported`
/// says it, under its label.
pub fn write_contest_exported(
    out: &mut dyn Write,
    path: &std::path::Path,
    exported: &crate::export::contest::ContestExported,
) -> io::Result<()> {
    let start = match &exported.start_time {
        Some(start) => format!("start_time {start}"),
        None => format!(
            "start_time {} is a placeholder: set it",
            crate::export::contest::START_PLACEHOLDER
        ),
    };
    writeln!(
        out,
        "{GOOD}exported{GOOD:#} contest {} to {}: {} problems, contest.yaml ({start}), problems.yaml, and each problem as a zip and a folder",
        exported.id,
        super::shown_path(path),
        exported.problems.len(),
    )?;
    for problem in &exported.problems {
        write!(out, "{}: ", problem.label)?;
        write_exported(
            out,
            &problem.problem,
            &path.join(format!("{}.zip", problem.id)),
            &problem.exported,
        )?;
    }
    for (problem, why) in &exported.left_out {
        writeln!(out, "{WARN}left out{WARN:#} {problem}: {why}")?;
    }
    Ok(())
}
