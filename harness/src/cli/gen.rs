//! `harness gen`: rebuild the generated cases, or check that they are reproducible.

use std::io::Write;
use std::time::Instant;

use anstyle::{AnsiColor, Style};
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use harness::author::gen::{self, GenEvent, GenReport, Mode, Status};
use harness::author::validate;
use harness::config::units::format_duration;
use harness::config::Problem;
use harness::exit;

use super::{build_first, load_config, shown_path, GlobalArgs};

#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    /// Only this problem (default: every problem with generators).
    #[arg(value_name = "PROBLEM")]
    pub problem: Option<String>,
    /// Regenerate in a temporary folder and report every case that differs from the committed
    /// one (exit 1 if any); writes nothing.
    #[arg(long)]
    pub check: bool,
    /// Cases to generate at once (default: the number of cores).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Skip judge.toml's build command (generators, validators and references are built).
    #[arg(long)]
    pub no_build: bool,
}

const BAD: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)))
    .bold();
const GOOD: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)))
    .bold();

pub fn gen(global: &GlobalArgs, args: &GenArgs) -> Result<i32> {
    let config = load_config(global)?;
    let problems: Vec<&Problem> = match &args.problem {
        Some(name) => vec![config.require_problem(name)?],
        None => config
            .problems
            .iter()
            .filter(|p| !p.generators.is_empty())
            .collect(),
    };
    // Every name is checked before anything is built or run.
    for problem in &problems {
        gen::plan(problem)?;
    }
    build_first(&config, args.no_build)?;
    let mode = if args.check { Mode::Check } else { Mode::Write };
    let jobs = args.jobs.unwrap_or_else(validate::default_jobs).max(1);

    let started = Instant::now();
    let mut stdout = anstream::stdout().lock();
    let mut reports = Vec::new();
    for problem in problems {
        let bar = ProgressBar::new(0).with_style(
            ProgressStyle::with_template("{prefix}: {bar:30} {pos}/{len} cases")
                .expect("a valid progress template"),
        );
        bar.set_prefix(problem.name.clone());
        let on_event = |event: GenEvent<'_>| match event {
            GenEvent::Started { cases, .. } => bar.set_length(cases as u64),
            GenEvent::CaseDone { .. } => bar.inc(1),
        };
        let report = gen::generate(&config, problem, mode, jobs, &on_event);
        bar.finish_and_clear();
        let report = report?;
        write_report(&mut stdout, &report)?;
        reports.push(report);
    }
    let total: usize = reports.iter().map(|r| r.total).sum();
    let changed: usize = reports.iter().map(|r| r.changed.len()).sum();
    let elapsed = format_duration(started.elapsed());
    let code = match mode {
        Mode::Write => {
            writeln!(
                stdout,
                "{GOOD}generated {total} cases{GOOD:#}: {changed} written, {} unchanged, in {elapsed}",
                total - changed
            )?;
            exit::OK
        }
        Mode::Check if changed == 0 => {
            writeln!(
                stdout,
                "{GOOD}all {total} generated cases match the committed ones{GOOD:#}, in {elapsed}"
            )?;
            exit::OK
        }
        Mode::Check => {
            writeln!(
                stdout,
                "{BAD}FAILED{BAD:#}: {changed} of {total} generated cases differ from the committed ones, in {elapsed} (hint: `harness gen` rewrites them)"
            )?;
            exit::FAILED
        }
    };
    stdout.flush()?;
    Ok(code)
}

fn write_report(out: &mut dyn Write, report: &GenReport) -> std::io::Result<()> {
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
