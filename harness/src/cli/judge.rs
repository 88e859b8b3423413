//! `harness judge PROBLEM FILE`: judge a contest submission as an online judge would; and
//! `harness judge FILE --cases DIR` anywhere, with no judge.toml (like `oj t`).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use crate::check::Checker;
use crate::config::units;
use crate::config::{self, standalone, Config};

use crate::case::failures::{self, FailedCases};
use crate::case::partition::Partition;
use crate::compile::submit::{self, Compiled};
use crate::exit;
use crate::judge::custom;
use crate::judge::submission::{self, Request};
use crate::judge::{Event, Stop};
use crate::report::custom as report_custom;
use crate::report::human::{Detail, HumanOptions, SubmissionHeader, SubmissionStream};
use crate::report::json;
use crate::report::junit::JunitReport;
use crate::report::notice;
use crate::report::progress::Progress;

use super::{
    build_checkers, compile_sources, load_config, load_config_to_judge, write_junit, Format,
    GlobalArgs,
};
use crate::author::program::Part;

/// Failing cases listed without `--all`.
const FAILING_CASES_SHOWN: usize = 10;

#[derive(Args, Debug, Clone)]
#[command(
    override_usage = "harness judge [OPTIONS] PROBLEM SOURCE\n       harness judge [OPTIONS] CONTEST_DIR LABEL SOURCE\n       harness judge [OPTIONS] SOURCE [--cases DIR]"
)]
pub struct JudgeArgs {
    /// The problem, by its id in judge.toml, or a problem package folder (Kattis/ICPC or
    /// Polygon) judged as it is; or, alone, the source file to judge on the cases of `--cases`
    /// (default `test/`, as online-judge-tools downloads them), no judge.toml needed.
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problem: String,
    /// The source file to judge; its extension picks the language. After a contest folder
    /// (one with problems.yaml), the problem's label (`A`) or short name instead.
    #[arg(value_name = "SOURCE")]
    pub source: Option<PathBuf>,
    /// After a contest folder and a problem's label: the source file.
    #[arg(value_name = "CONTEST_SOURCE", hide = true)]
    pub contest_source: Option<PathBuf>,
    /// The CPU time limit (default: the problem's; without judge.toml, 2s).
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    pub time_limit: Option<Duration>,
    /// The memory limit (default: the problem's; without judge.toml, 256MiB).
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    pub memory_limit: Option<u64>,
    /// How outputs are compared: tokens, tokens-ignore-case, lines, exact, float,
    /// unordered-blocks, or a checker program (`./checker`, run as `checker IN OUT ANS`).
    #[arg(long, value_name = "CHECKER", value_parser = standalone::parse_checker)]
    pub checker: Option<Checker>,
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
    /// Rerun only the cases that failed the last time this problem (or folder of cases) was
    /// judged.
    #[arg(long)]
    pub failed: bool,
    /// Run on this input instead of the cases (`-` reads it from stdin): print the output, the
    /// time and memory, and with the problem's reference its answer and the checker's verdict.
    #[arg(long, value_name = "FILE|-")]
    pub input: Option<PathBuf>,
    /// Judge again whenever the source file changes (Ctrl-C stops), clearing the screen
    /// between runs.
    #[arg(long)]
    pub watch: bool,
    /// Judge only the K-th of N stable slices of the cases (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
}

/// Where the failures of this judge are remembered for `--failed`, and under which key: the
/// project's `target/harness/` for a problem of judge.toml (beside `run`'s, keyed apart), the
/// user's cache folder for a folder of cases (no `target/` is made in it).
fn failures_store(
    config: &Config,
    plan: &submission::Plan<'_>,
    standalone: bool,
) -> (PathBuf, String) {
    if standalone {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
            .unwrap_or_else(std::env::temp_dir);
        let cases = plan.problem.cases.display();
        (
            cache.join("harness").join("failed.json"),
            format!("judge {cases}"),
        )
    } else {
        (
            failures::store_path(&config.root),
            format!("judge {}", plan.problem.name),
        )
    }
}

/// Where the cases of a judge without judge.toml are, when `--cases` does not say.
const DEFAULT_CASES: &str = "test";

/// The configuration to judge with, the problem's id and the source: judge.toml's problem
/// with the command line's limits on top, or, given only a source, a problem made up from
/// the command line (judge.toml's languages still apply when there is one).
fn resolve(global: &GlobalArgs, args: &JudgeArgs) -> Result<(Config, String, PathBuf)> {
    let (mut config, problem, source) = match &args.source {
        // A contest folder, a problem's label or short name, and the source.
        Some(label) if crate::package::contest::is_contest(std::path::Path::new(&args.problem)) => {
            let contest = crate::package::contest::open(std::path::Path::new(&args.problem))?;
            let found = contest.problem(&label.to_string_lossy())?;
            let Some(source) = &args.contest_source else {
                anyhow::bail!(
                    "no source file to judge on problem {} ({}) (hint: `harness judge {} {} SOURCE`)",
                    found.label,
                    found.id,
                    args.problem,
                    found.label
                );
            };
            let loaded = super::package::load_for_judging(
                &found.dir,
                super::package::languages(global),
                args.jobs.max(1),
                args.format == Format::Human,
            )?;
            (loaded.config, loaded.package.name, source.clone())
        }
        Some(_) if args.contest_source.is_some() => {
            anyhow::bail!(
                "`{}` is not a contest folder (no problems.yaml), so it takes PROBLEM SOURCE, not three words",
                args.problem
            );
        }
        // A package folder is a problem of its own, judged with no judge.toml.
        Some(source) if crate::package::detect(std::path::Path::new(&args.problem)).is_some() => {
            let loaded = super::package::load_for_judging(
                std::path::Path::new(&args.problem),
                super::package::languages(global),
                args.jobs.max(1),
                args.format == Format::Human,
            )?;
            (loaded.config, loaded.package.name, source.clone())
        }
        Some(source) => (
            compile_sources(
                load_config_to_judge(global)?,
                &[&args.problem],
                &[Part::Reference, Part::Checker],
            )?,
            args.problem.clone(),
            source.clone(),
        ),
        None => {
            let source = PathBuf::from(&args.problem);
            if !source.is_file() {
                anyhow::bail!(
                    "submission `{}` does not exist (hint: `harness judge SOURCE --cases DIR` judges a source file; `harness judge PROBLEM SOURCE` a problem of judge.toml)",
                    source.display()
                );
            }
            let here = std::env::current_dir().context("cannot read the current folder")?;
            let cases = args
                .cases
                .clone()
                .unwrap_or_else(|| PathBuf::from(DEFAULT_CASES));
            if args.cases.is_none() && !cases.is_dir() && args.input.is_none() {
                anyhow::bail!(
                    "no `{DEFAULT_CASES}/` folder here (hint: pass --cases DIR, a folder of NAME.in with NAME.out or NAME.ans)"
                );
            }
            let user = config::user::load()?;
            let settings = standalone::Settings {
                cases: std::path::absolute(&cases).unwrap_or(cases),
                ..standalone::Settings::default()
            };
            let mut made_up = standalone::config(&here, &user, &settings);
            // A judge.toml above still says how its languages compile.
            if global.config.is_some() || config::find(&here).is_ok() {
                made_up.languages = load_config(global)?.languages;
            }
            let name = made_up.problems[0].name.clone();
            (made_up, name, source)
        }
    };
    if let Some(problem) = config.problems.iter_mut().find(|p| p.name == problem) {
        if let Some(time_limit) = args.time_limit {
            problem.time_limit = time_limit;
            problem.wall_limit = crate::sandbox::run::wall_limit(time_limit);
        }
        if let Some(memory_limit) = args.memory_limit {
            problem.memory_limit = memory_limit;
        }
        if let Some(checker) = &args.checker {
            problem.checker = checker.clone();
        }
    }
    Ok((config, problem, source))
}

pub fn judge(global: &GlobalArgs, args: &JudgeArgs) -> Result<i32> {
    // A piped input is read once: a watch reruns on it.
    let stdin_input = match args.input.as_deref() {
        Some(path) if path == std::path::Path::new("-") => {
            let mut file =
                tempfile::NamedTempFile::new().context("cannot make a temporary file")?;
            std::io::copy(&mut std::io::stdin().lock(), &mut file)
                .context("cannot read the input from stdin")?;
            Some(file)
        }
        _ => None,
    };
    let input = stdin_input
        .as_ref()
        .map(|f| f.path().to_path_buf())
        .or(args.input.clone());
    if args.watch {
        return super::watch::watch(&source_of(args), || {
            judge_once(global, args, input.as_deref())
        });
    }
    judge_once(global, args, input.as_deref())
}

/// The source file, whichever form the command line took.
fn source_of(args: &JudgeArgs) -> PathBuf {
    args.contest_source
        .clone()
        .or_else(|| args.source.clone())
        .unwrap_or_else(|| PathBuf::from(&args.problem))
}

/// `--input`: the submission on one input, under the problem's limits.
fn run_input(
    config: &Config,
    problem: &str,
    source: &std::path::Path,
    args: &JudgeArgs,
    input: &std::path::Path,
) -> Result<i32> {
    let problem = config.require_problem(problem)?;
    if !input.is_file() {
        anyhow::bail!(
            "input `{}` does not exist (hint: give a file, or `-` to type it)",
            input.display()
        );
    }
    if !source.exists() {
        return Err(submit::SubmitError::MissingSource(source.to_path_buf()).into());
    }
    let language = submit::detect_language(config, source, args.lang.as_deref())?;
    submit::check_tools(language)?;
    build_checkers(
        config,
        [problem],
        args.no_build || problem.reference.is_none(),
    )?;
    let limits = problem.limits(language.time_multiplier);
    let mut stdout = anstream::stdout().lock();
    let prepared = match submit::compile(language, source, problem.memory_limit)? {
        Compiled::Ready(prepared) => prepared,
        Compiled::CompileError { message, .. } => {
            crate::report::stress::write_compile_error(
                &mut stdout,
                source,
                &language.name,
                &message,
            )?;
            return Ok(exit::FAILED);
        }
    };
    let reference: Option<Vec<String>> = problem.reference.as_ref().cloned();
    let run = custom::run_on_input(
        &prepared.program,
        input,
        limits,
        &problem.checker,
        reference
            .as_deref()
            .map(|command| (command, config.root.as_path())),
    )?;
    report_custom::write_custom(&mut stdout, &run)?;
    stdout.flush()?;
    Ok(exit::for_verdicts(std::iter::once(run.verdict)))
}

fn judge_once(
    global: &GlobalArgs,
    args: &JudgeArgs,
    input: Option<&std::path::Path>,
) -> Result<i32> {
    let (config, problem, source) = resolve(global, args)?;
    if let Some(input) = input {
        return run_input(&config, &problem, &source, args, input);
    }
    let standalone = args.source.is_none();
    let request = Request {
        problem: &problem,
        source: &source,
        language: args.lang.as_deref(),
        cases: if standalone {
            None
        } else {
            args.cases.as_deref()
        },
        case_pattern: args.case.as_deref(),
    };
    let mut plan = match package_plan(&config, &problem, &source, args)? {
        Some(plan) => plan,
        None => submission::plan(&config, &request)?,
    };
    if let Some(partition) = args.partition {
        partition.retain_cases(&plan.problem.name, &mut plan.cases);
    }
    let (store, key) = failures_store(&config, &plan, standalone);
    let mut failed = match FailedCases::load(&store) {
        Ok(failed) => failed,
        Err(error) if !args.failed => {
            // Only `--failed` needs the old list; this run starts a new one.
            let _ = notice::write_warning(&mut anstream::stderr(), format_args!("{error}"));
            FailedCases::default()
        }
        Err(error) => return Err(error.into()),
    };
    if args.failed {
        plan.cases.retain(|case| failed.contains(&key, &case.name));
        if plan.cases.is_empty() {
            let mut stdout = anstream::stdout().lock();
            notice::write_nothing_failed(&mut stdout)?;
            stdout.flush()?;
            return Ok(exit::OK);
        }
    }
    build_checkers(&config, [plan.problem], args.no_build)?;
    let jobs = args.jobs.max(1);
    super::warn_if_oversubscribed(jobs);
    let options = submission::Options {
        jobs,
        stop: if args.fail_fast {
            Stop::AfterFirstFailure
        } else {
            Stop::Never
        },
    };
    let human_options = if args.all || args.verbose {
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
    let human = args.format == Format::Human;
    let mut stream = SubmissionStream::new(
        human_options,
        plan.cases.iter().map(|case| case.name.as_str()),
    );
    let mut stdout = anstream::stdout().lock();
    if human {
        // At once: what is judged and how, before a compile and cases that may take a while.
        let header = SubmissionHeader {
            problem: &plan.problem.name,
            source: &plan.source,
            language: plan.language,
            limits: plan.problem.limits(plan.language.time_multiplier),
            cases: plan.cases.len(),
        };
        stream.write_header(&mut stdout, &header)?;
        stdout.flush()?;
    }
    let mut progress = Progress::stderr(plan.cases.len());
    progress.set_label(&source.display().to_string());
    let mut written = Ok(());
    let report = submission::judge(&plan, &options, &mut |event| {
        let Event::Finished { outcome, .. } = event;
        progress.on_case(outcome);
        if human && written.is_ok() {
            // Each failing case as it fails, the bar hidden while it is written.
            written = progress.suspend(|| {
                stream
                    .write_case(&mut stdout, outcome)
                    .and_then(|()| stdout.flush())
            });
        }
    })?;
    progress.finish();
    written?;
    if report.compile.ok {
        failed.record(&key, &report.outcomes);
        // Losing the list is not worth failing the judge over: `--failed` says so next time.
        if !failed.is_empty() || store.exists() {
            if let Err(error) = failed.save(&store) {
                let _ = notice::write_warning(
                    &mut anstream::stderr(),
                    format_args!("{error} (`--failed` will not know this run)"),
                );
            }
        }
    }
    if let Some(path) = &args.junit {
        write_junit(
            path,
            &JunitReport::from_submission(&report, jobs, args.partition),
        )?;
    }

    if args.format == Format::Json {
        let mut document = json::SubmissionJson::from(&report);
        document.partition = args.partition.map(|p| p.to_string());
        json::write(&mut stdout, &document)?;
    } else {
        stream.write_end(&mut stdout, &report)?;
    }
    stdout.flush()?;
    Ok(crate::exit::for_verdicts([report.verdict]))
}

/// The plan for a problem read from a package, on the package's own cases in its order
/// (unless `--cases` names others), with the language chosen as the format's tools choose it
/// (a `.py` asking for python2 is Python 2). `None` for any other problem.
fn package_plan<'a>(
    config: &'a Config,
    problem: &str,
    source: &std::path::Path,
    args: &JudgeArgs,
) -> Result<Option<submission::Plan<'a>>> {
    let problem = config.require_problem(problem)?;
    let Some(reference) = &problem.package else {
        return Ok(None);
    };
    if args.cases.is_some() {
        return Ok(None);
    }
    if !source.exists() {
        return Err(submit::SubmitError::MissingSource(source.to_path_buf()).into());
    }
    let language = match args.lang.as_deref() {
        Some(_) => submit::detect_language(config, source, args.lang.as_deref())?,
        None => crate::package::languages::language_of(&config.languages, source)
            .map_err(|why| anyhow::anyhow!("cannot judge `{}`: {why}", source.display()))?,
    };
    crate::package::languages::available(language).map_err(anyhow::Error::msg)?;
    let mut cases = crate::package::open(&reference.path)?.cases;
    if let Some(pattern) = args.case.as_deref() {
        let pattern = crate::case::select::CasePattern::new(pattern)?;
        pattern.retain(&mut cases);
        if cases.is_empty() {
            return Err(pattern.matched_nothing().into());
        }
    }
    Ok(Some(submission::Plan {
        problem,
        language,
        source: source.to_path_buf(),
        cases,
        interactor: crate::judge::interactive::prepare(config, problem)?,
    }))
}
