//! `harness verify [PROBLEM…]`: judge every stored submission and check it gets the verdict
//! its folder names.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::case::partition::Partition;
use crate::exit;
use crate::judge::verify::{self, Skipped, Stored, VerifyEvent};
use crate::report::human::{self, Detail, VerifyPrinter};
use crate::report::json;
use crate::report::junit::JunitReport;
use crate::report::progress::Progress;

use super::{
    build_checkers, compile_sources, load_config_to_judge, write_junit, Format, GlobalArgs,
};
use crate::author::program::Part;

/// Most stored submissions that fail do so on their first case, so every job runs one
/// program at its memory limit at once: a memory-hungry one on a 64-core machine must not
/// take 64 times the limit.
const DEFAULT_JOBS_MAX: usize = 4;

#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// Only the submissions of these problems (default: all); or problem package folders
    /// (Kattis/ICPC or Polygon), or a folder of packages, whose own submissions are verified.
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problems: Vec<String>,
    /// The folder of stored submissions, `<problem>/<expected>/FILE` below it
    /// [default: solutions/submissions beside judge.toml].
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<PathBuf>,
    /// Cases to run at once, per submission [default: the number of CPUs, at most 4]. The
    /// stored submissions are meant to be far from the limits, and verdicts use CPU time,
    /// which parallel runs barely disturb.
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Skip judge.toml's build command (only run when a checker is a program).
    #[arg(long)]
    pub no_build: bool,
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Only the submissions that MISMATCH, and the summary.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Under each submission, every case it was judged on, with the tail of its stderr.
    #[arg(short, long)]
    pub verbose: bool,
    /// Also write the results as JUnit XML to FILE: a test per stored submission.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Verify only the K-th of N stable slices of the stored submissions (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
}

pub fn verify(global: &GlobalArgs, args: &VerifyArgs) -> Result<i32> {
    if let Some(dirs) = super::package::package_dirs(&args.problems)? {
        return verify_packages(global, args, &dirs);
    }
    if let Some(dirs) = super::named_packages(global, &args.problems)? {
        return verify_packages(global, args, &dirs);
    }
    let names: Vec<&str> = args.problems.iter().map(String::as_str).collect();
    let config = compile_sources(load_config_to_judge(global)?, &names, &[Part::Checker])?;
    let folder = args
        .submissions
        .clone()
        .unwrap_or_else(|| config.root.join(verify::DEFAULT_FOLDER));
    let mut stored = verify::plan(&config, &folder, &args.problems)?;
    if let Some(partition) = args.partition {
        // A submission's verdict needs all its cases, so verify splits by submission.
        stored.retain(|s| s.in_partition(partition));
    }
    build_checkers(
        &config,
        stored.iter().map(|s| s.plan.problem),
        args.no_build,
    )?;
    judge_and_report(&stored, Vec::new(), args, None)
}

/// `harness verify PKG_DIR…`: each package's stored submissions, by the format's folders.
fn verify_packages(global: &GlobalArgs, args: &VerifyArgs, dirs: &[PathBuf]) -> Result<i32> {
    let languages = super::package::languages(global);
    let jobs = jobs(args);
    let mut loaded = Vec::new();
    let mut skipped = Vec::new();
    for dir in dirs {
        let human = args.format == Format::Human;
        loaded.push(super::package::load_for_judging(
            dir,
            languages.clone(),
            jobs,
            human,
        )?);
    }
    let mut stored = Vec::new();
    for package in &loaded {
        let (mut planned, mut not_judged) = crate::package::stored::plan(package);
        stored.append(&mut planned);
        skipped.append(&mut not_judged);
    }
    if stored.is_empty() && skipped.is_empty() {
        anyhow::bail!(
            "no stored submissions in {} (hint: a package keeps them in `submissions/<verdict>/`)",
            dirs.iter()
                .map(|d| format!("`{}`", d.display()))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let contest = super::package::contest_of(&args.problems)?;
    judge_and_report(&stored, skipped, args, contest.as_ref())
}

fn jobs(args: &VerifyArgs) -> usize {
    args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(DEFAULT_JOBS_MAX)
    })
}

/// Judges the planned submissions, printing each row as it is known, then the summary.
fn judge_and_report(
    stored: &[Stored<'_>],
    skipped: Vec<Skipped>,
    args: &VerifyArgs,
    contest: Option<&crate::package::contest::Contest>,
) -> Result<i32> {
    let human = args.format == Format::Human;
    let detail = if args.quiet {
        Detail::Quiet
    } else if args.verbose {
        Detail::Verbose
    } else {
        Detail::Normal
    };
    let mut printer = VerifyPrinter::new(stored.iter().map(|s| s.name.as_str()), detail);
    let mut stdout = anstream::stdout().lock();
    if human {
        printer.start(&mut stdout)?;
        stdout.flush()?;
    }
    let total = stored.iter().map(|s| s.plan.cases.len()).sum();
    let mut progress = Progress::stderr(total);
    let mut judged = 0;
    let mut failed_write = None;
    let jobs = jobs(args);
    let report = verify::run(stored, jobs, &mut |event| match event {
        VerifyEvent::Started { name } => {
            judged = 0;
            progress.set_label(name);
        }
        VerifyEvent::CaseFinished => {
            judged += 1;
            progress.tick();
        }
        VerifyEvent::Judged { result, index } => {
            // It stopped at its first failing case: the rest of its cases will not run.
            progress.skip(stored[index].plan.cases.len().saturating_sub(judged));
            if !result.ok() {
                progress.add_failure();
            }
            if human && failed_write.is_none() {
                let written = progress.suspend(|| {
                    printer.row(&mut stdout, result)?;
                    stdout.flush()
                });
                failed_write = written.err();
            }
        }
    })?;
    progress.finish();
    if let Some(error) = failed_write {
        return Err(error.into());
    }
    let mut report = report;
    report.skipped = skipped;
    if let Some(path) = &args.junit {
        write_junit(path, &JunitReport::from_verify(&report, args.partition))?;
    }
    if human {
        human::write_verify_summary(&mut stdout, &report)?;
        if let Some(contest) = contest {
            crate::report::package::write_contest_summary(&mut stdout, contest, &report)?;
        }
    } else {
        let mut document = json::VerifyJson::from(&report);
        document.partition = args.partition.map(|p| p.to_string());
        json::write(&mut stdout, &document)?;
    }
    stdout.flush()?;
    Ok(exit::for_verdicts(
        report
            .results
            .iter()
            .map(crate::judge::verify::Verified::as_outcome),
    ))
}
