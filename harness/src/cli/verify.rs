//! `harness verify [PROBLEM…]`: judge every stored submission and check it gets the verdict
//! its folder names.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use harness::exit;
use harness::report::human::{self, VerifyTable};
use harness::report::json;
use harness::verdict::Verdict;
use harness::verify::{self, VerifyEvent};

use super::{build_checkers, load_config, progress_bar, Format, GlobalArgs};

/// Most stored submissions that fail do so on their first case, so every job runs one
/// program at its memory limit at once: a memory-hungry one on a 64-core machine must not
/// take 64 times the limit.
const DEFAULT_JOBS_MAX: usize = 4;

#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// Only the submissions of these problems (default: all).
    #[arg(value_name = "PROBLEM")]
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
}

pub fn verify(global: &GlobalArgs, args: &VerifyArgs) -> Result<i32> {
    let config = load_config(global)?;
    let folder = args
        .submissions
        .clone()
        .unwrap_or_else(|| config.root.join(verify::DEFAULT_FOLDER));
    let stored = verify::plan(&config, &folder, &args.problems)?;
    build_checkers(
        &config,
        stored.iter().map(|s| s.plan.problem),
        args.no_build,
    )?;

    let human = args.format == Format::Human;
    let table = VerifyTable::new(stored.iter().map(|s| s.name.as_str()));
    let mut stdout = anstream::stdout().lock();
    if human {
        table.write_header(&mut stdout)?;
        stdout.flush()?;
    }
    let bar = progress_bar(0, "");
    let mut failed_write = None;
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(DEFAULT_JOBS_MAX)
    });
    let report = verify::run(&stored, jobs, &mut |event| match event {
        VerifyEvent::Started { name, cases, .. } => {
            bar.reset();
            bar.set_length(cases as u64);
            bar.set_message(name.to_string());
        }
        VerifyEvent::CaseFinished { .. } => bar.inc(1),
        VerifyEvent::Judged { result, .. } => {
            if human && failed_write.is_none() {
                // Each row as soon as it is known: a full verify takes a minute.
                let written = bar.suspend(|| {
                    table.write_row(&mut stdout, result)?;
                    stdout.flush()
                });
                failed_write = written.err();
            }
        }
    })?;
    bar.finish_and_clear();
    if let Some(error) = failed_write {
        return Err(error.into());
    }
    if human {
        human::write_verify_summary(&mut stdout, &report)?;
    } else {
        json::write(&mut stdout, &json::VerifyJson::from(&report))?;
    }
    stdout.flush()?;
    let judge_failed = report
        .results
        .iter()
        .any(|r| r.report.verdict == Verdict::JudgeError);
    Ok(if judge_failed {
        exit::JUDGE_ERROR
    } else if report.all_ok() {
        exit::OK
    } else {
        exit::FAILED
    })
}
