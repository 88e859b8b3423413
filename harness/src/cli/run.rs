//! `harness run`: build, then judge every selected problem's solution on its cases.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use crate::case::failures::{self, FailedCases};
use crate::case::partition::Partition;
use crate::exit;
use crate::judge::suite::{self, Selection, SuiteReport};
use crate::report::human::{self, Detail, HumanOptions};
use crate::report::json;
use crate::report::junit::JunitReport;
use crate::report::notice;
use crate::report::progress::Progress;

use super::{build_first, compile_sources, load_config_to_judge, write_junit, Format, GlobalArgs};
use crate::author::program::Part;

#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct RunArgs {
    /// Judge only this problem (repeat for several).
    #[arg(short, long = "problem", value_name = "PROBLEM")]
    pub problems: Vec<String>,
    /// Judge only the cases whose name matches (a name or a glob such as `all-0*`).
    #[arg(short, long, value_name = "NAME|GLOB")]
    pub case: Option<String>,
    /// Show every case, not only the failures.
    #[arg(short, long)]
    pub all: bool,
    /// Only failures and the final summary.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Every case, with the tail of its stderr.
    #[arg(short, long)]
    pub verbose: bool,
    /// Skip judge.toml's build command (the binaries are already built).
    #[arg(long)]
    pub no_build: bool,
    /// Judge even cases whose input the problem's validator rejects.
    #[arg(long)]
    pub no_validate: bool,
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Cases to run at once (verdicts use CPU time, which parallel runs barely disturb).
    #[arg(short, long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Also write the results as JUnit XML to FILE, for CI systems.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Judge only the K-th of N stable slices of the cases (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
    /// Rerun only the cases that failed last time.
    #[arg(long)]
    pub failed: bool,
}

impl RunArgs {
    /// The options as parsed from an empty command line: what "no option given" looks like.
    pub fn from_nothing() -> RunArgs {
        use clap::FromArgMatches;
        let command = <RunArgs as Args>::augment_args(clap::Command::new("run"));
        let matches = command.get_matches_from(["run"]);
        RunArgs::from_arg_matches(&matches).expect("empty arguments always parse")
    }
}

pub fn run(global: &GlobalArgs, args: &RunArgs) -> Result<i32> {
    // Sources compile on their own, before judge.toml's build, which they do not need.
    let names: Vec<&str> = args.problems.iter().map(String::as_str).collect();
    let config = compile_sources(
        load_config_to_judge(global)?,
        &names,
        &[Part::Validator, Part::Checker],
    )?;
    let selection = Selection {
        problems: args.problems.clone(),
        case_pattern: args.case.clone(),
        partition: args.partition,
    };
    let mut planned = suite::plan(&config, &selection)?;
    super::warn_if_oversubscribed(args.jobs);
    let skipped = suite::take_skipped(&mut planned);
    for (problem, skip) in &skipped {
        let _ = notice::write_skipped(&mut anstream::stderr(), &problem.name, *skip);
    }
    if planned.is_empty() && !skipped.is_empty() {
        // Nothing to judge is not a failure: a workspace of received problems has no
        // solutions until the user writes them, and `harness judge` is how they are judged.
        return Ok(exit::OK);
    }
    let store = failures::store_path(&config.root);
    let mut failed = match FailedCases::load(&store) {
        Ok(failed) => failed,
        // Only `--failed` needs the old list; any other run starts a new one.
        Err(error) if !args.failed => {
            let _ = notice::write_warning(&mut anstream::stderr(), &error);
            FailedCases::default()
        }
        Err(error) => return Err(error.into()),
    };
    if args.failed {
        failed.retain_failed(&mut planned);
        if planned.is_empty() {
            // Not an error: the last run passed, which is what the user hoped to hear.
            let report = SuiteReport {
                problems: Vec::new(),
                jobs: args.jobs.max(1),
                elapsed: Duration::ZERO,
                partition: args.partition,
            };
            if let Some(path) = &args.junit {
                write_junit(path, &JunitReport::from_suite(&report))?;
            }
            let mut stdout = anstream::stdout().lock();
            if args.format == Format::Json {
                json::write(&mut stdout, &json::SuiteJson::from(&report))?;
            } else {
                notice::write_nothing_failed(&mut stdout)?;
            }
            stdout.flush()?;
            return Ok(exit::OK);
        }
    }
    build_first(&config, args.no_build)?;
    if !args.no_validate {
        if let Some(code) = super::validate::refuse_invalid(&config, &planned)? {
            return Ok(code);
        }
    }
    let total = planned.iter().map(|p| p.cases.len()).sum();
    let mut progress = Progress::stderr(total);
    let mut report = suite::run(&config, &planned, args.jobs.max(1), &mut |event| {
        progress.on_suite_event(&event);
    })?;
    progress.finish();
    report.partition = args.partition;

    for problem in &report.problems {
        failed.record(&problem.name, &problem.outcomes);
    }
    remember(&failed, &store);
    if let Some(path) = &args.junit {
        write_junit(path, &JunitReport::from_suite(&report))?;
    }

    let mut stdout = anstream::stdout().lock();
    if args.format == Format::Json {
        json::write(&mut stdout, &json::SuiteJson::from(&report))?;
        stdout.flush()?;
        return Ok(exit::for_verdicts(report.outcomes().map(|o| o.verdict)));
    }
    let options = HumanOptions {
        detail: if args.quiet {
            Detail::Quiet
        } else if args.verbose || args.all {
            Detail::Verbose
        } else {
            Detail::Normal
        },
        ..HumanOptions::default()
    };
    human::write_suite(&mut stdout, &report, &options)?;
    stdout.flush()?;
    Ok(exit::for_verdicts(report.outcomes().map(|o| o.verdict)))
}

/// Saves the failures for `--failed`. Losing them is not worth failing a run over (a
/// read-only checkout, say): the user is told and the verdicts stand.
fn remember(failed: &FailedCases, store: &Path) {
    // A project that never failed gets no `target/harness/` at all.
    if failed.is_empty() && !store.exists() {
        return;
    }
    if let Err(error) = failed.save(store) {
        let _ = notice::write_warning(
            &mut anstream::stderr(),
            format_args!("{error} (`--failed` will not know this run)"),
        );
    }
}
