//! `harness judge PROBLEM FILE`: judge a contest submission as an online judge would.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::case::partition::Partition;
use crate::judge::submission::{self, Request};
use crate::judge::{Event, Stop};
use crate::report::human::{self, Detail, HumanOptions};
use crate::report::json;
use crate::report::junit::JunitReport;
use crate::report::progress::Progress;

use super::{build_checkers, load_config, write_junit, Format, GlobalArgs};

/// Failing cases listed without `--all`.
const FAILING_CASES_SHOWN: usize = 10;

#[derive(Args, Debug, Clone)]
pub struct JudgeArgs {
    /// The problem, by its id in judge.toml, or a problem package folder (Kattis/ICPC or
    /// Polygon), judged as it is with no judge.toml.
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problem: String,
    /// The source file to judge; its extension picks the language.
    pub source: PathBuf,
    /// The language, by its id in judge.toml (`[languages.<id>]`), whatever the extension.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Judge on the `.in`/`.ans` pairs of this folder (a downloaded test set) instead.
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,
    /// Judge only the cases whose name matches (a name or a glob such as `all-0*`).
    #[arg(short, long, value_name = "NAME|GLOB")]
    pub case: Option<String>,
    /// Cases to run at once. One by default: the times are what you read.
    #[arg(short, long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Stop at the first failing case (in case order), as most online judges do.
    #[arg(long)]
    pub fail_fast: bool,
    /// Show every case (not only the first failing ones), and the compiler's warnings.
    #[arg(short, long)]
    pub all: bool,
    /// Every case, with the tail of its stderr (as --all).
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Only the failing cases and the verdict.
    #[arg(short, long)]
    pub quiet: bool,
    /// Skip judge.toml's build command (only run when the problem's checker is a program).
    #[arg(long)]
    pub no_build: bool,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Also write the result as JUnit XML to FILE, for CI systems.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Judge only the K-th of N stable slices of the cases (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
}

pub fn judge(global: &GlobalArgs, args: &JudgeArgs) -> Result<i32> {
    // A package folder is a problem of its own, judged with no judge.toml.
    let loaded = match crate::package::detect(std::path::Path::new(&args.problem)) {
        Some(_) => Some(super::package::load_for_judging(
            std::path::Path::new(&args.problem),
            super::package::languages(global),
            args.jobs.max(1),
            args.format == Format::Human,
        )?),
        None => None,
    };
    let config = match &loaded {
        Some(loaded) => loaded.config.clone(),
        None => load_config(global)?,
    };
    let problem_name = match &loaded {
        Some(loaded) => loaded.package.name.clone(),
        None => args.problem.clone(),
    };
    let request = Request {
        problem: &problem_name,
        source: &args.source,
        language: args.lang.as_deref(),
        cases: args.cases.as_deref(),
        case_pattern: args.case.as_deref(),
    };
    let mut plan = match &loaded {
        // The package's own cases, in its order, unless --cases names others.
        Some(loaded) if args.cases.is_none() => {
            let problem = config.require_problem(&problem_name)?;
            if !args.source.exists() {
                return Err(crate::compile::submit::SubmitError::MissingSource(
                    args.source.clone(),
                )
                .into());
            }
            let language = match args.lang.as_deref() {
                Some(_) => crate::compile::submit::detect_language(
                    &config,
                    &args.source,
                    args.lang.as_deref(),
                )?,
                None => crate::package::languages::language_of(&config.languages, &args.source)
                    .map_err(|why| {
                        anyhow::anyhow!("cannot judge `{}`: {why}", args.source.display())
                    })?,
            };
            crate::package::languages::available(language).map_err(anyhow::Error::msg)?;
            let mut cases = loaded.package.cases.clone();
            if let Some(pattern) = args.case.as_deref() {
                let pattern = crate::case::select::CasePattern::new(pattern)?;
                pattern.retain(&mut cases);
                if cases.is_empty() {
                    return Err(pattern.matched_nothing().into());
                }
            }
            submission::Plan {
                problem,
                language,
                source: args.source.clone(),
                cases,
            }
        }
        _ => submission::plan(&config, &request)?,
    };
    if let Some(partition) = args.partition {
        partition.retain_cases(&plan.problem.name, &mut plan.cases);
    }
    build_checkers(&config, [plan.problem], args.no_build)?;
    let jobs = args.jobs.max(1);
    let options = submission::Options {
        jobs,
        stop: if args.fail_fast {
            Stop::AfterFirstFailure
        } else {
            Stop::Never
        },
    };
    let mut progress = Progress::stderr(plan.cases.len());
    progress.set_label(&args.source.display().to_string());
    let report = submission::judge(&plan, &options, &mut |event| {
        let Event::Finished { outcome, .. } = event;
        progress.on_case(outcome);
    })?;
    progress.finish();
    if let Some(path) = &args.junit {
        write_junit(
            path,
            &JunitReport::from_submission(&report, jobs, args.partition),
        )?;
    }

    let mut stdout = anstream::stdout().lock();
    if args.format == Format::Json {
        let mut document = json::SubmissionJson::from(&report);
        document.partition = args.partition.map(|p| p.to_string());
        json::write(&mut stdout, &document)?;
    } else {
        let options = if args.all || args.verbose {
            HumanOptions {
                detail: Detail::Verbose,
                ..HumanOptions::default()
            }
        } else {
            // The first failing case decides the verdict: it gets the diff, and a few more
            // show whether the others fail alike.
            HumanOptions {
                detail: if args.quiet {
                    Detail::Quiet
                } else {
                    Detail::Normal
                },
                max_diffs: 1,
                max_cases: FAILING_CASES_SHOWN,
                ..HumanOptions::default()
            }
        };
        human::write_submission(&mut stdout, &report, &options)?;
    }
    stdout.flush()?;
    Ok(crate::exit::for_verdicts([report.verdict]))
}
