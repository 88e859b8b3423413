//! `harness judge`: one submission on a problem of judge.toml, on a package folder judged as it
//! is, or on a folder of cases with no judge.toml (`oj t`'s `test/`); or on one input
//! (`--input`); or again on every save (`--watch`). The submission is a source file, or a
//! command line run with the current folder's files (`--cmd`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::failed::FailedStore;
use super::failures;
use super::prepare::{build_checkers, compile_sources, warn_if_oversubscribed};
use super::watch::Watched;
use super::{packages, sanitize, stream, Output, Session};
use crate::author::program::Part;
use crate::case::partition::Partition;
use crate::compile::submission::Compiled;
use crate::compile::submit;
use crate::config::{self, standalone, Config, LimitOverrides};
use crate::event::{Command, Event, Finished, Plan};
use crate::exit;
use crate::judge::custom;
use crate::judge::submission::{self, Request};
use crate::judge::Stop;
use crate::report::custom as report_custom;
use crate::report::human::{Detail, HumanOptions};
use crate::report::notice;

/// Failing cases listed without `--verbose`.
const FAILING_CASES_SHOWN: usize = 10;

/// Where the cases of a judge without judge.toml are, when `--cases` does not say.
const DEFAULT_CASES: &str = "test";

/// What `harness judge` is asked to judge: the command's arguments themselves.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct JudgeRequest {
    /// The problem, by its id in judge.toml, or a problem package folder (Kattis/ICPC,
    /// Polygon, a CMS or TPS task) judged as it is; or, alone, the source file to judge on the cases of `--cases`
    /// (default `test/`, as online-judge-tools downloads them), no judge.toml needed. With
    /// `--cmd`, the problem alone, or nothing (the cases of `--cases`, default `test/`).
    #[arg(value_name = "PROBLEM|PKG_DIR", required_unless_present = "cmd")]
    pub problem: Option<String>,
    /// The source file to judge; its extension picks the language. After a contest folder
    /// (one with problems.yaml), the problem's label (`A`) or short name instead.
    #[arg(value_name = "SOURCE")]
    pub source: Option<PathBuf>,
    /// After a contest folder and a problem's label: the source file.
    #[arg(value_name = "CONTEST_SOURCE", hide = true)]
    pub contest_source: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitOverrides,
    /// The language, by its id in judge.toml (`[languages.<id>]`), whatever the extension.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Judge this command line instead of a source (`--cmd "java Main"`, `--cmd "python3
    /// sol.py"`), run with the current folder's files (not its cases) in its own folder. Its
    /// program is found on PATH, or is a path (`./a.out`).
    #[arg(
        long,
        value_name = "COMMAND",
        conflicts_with_all = ["source", "lang", "sanitize", "input", "watch", "interactor"]
    )]
    pub cmd: Option<String>,
    /// Judge on the `.in`/`.ans` pairs of this folder (a downloaded test set) instead.
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,
    /// Judge only the cases whose name matches (a name or a glob such as `all-0*`).
    #[arg(short, long, value_name = "NAME|GLOB")]
    pub case: Option<String>,
    /// Cases to run at once. One by default: the times are what you read.
    #[arg(short, long, default_value_t = 1, value_name = "N", value_parser = super::parse_jobs)]
    pub jobs: usize,
    /// Stop at the first failing case (in case order), as most online judges do. A pass-fail
    /// problem stops there anyway (its verdict is settled); this stops a scored one too.
    #[arg(long)]
    pub fail_fast: bool,
    /// Skip judge.toml's build command (only run when the problem's checker is a program).
    #[arg(long)]
    pub no_build: bool,
    /// Rerun only the cases that failed the last time this source was judged on this problem
    /// (or folder of cases).
    #[arg(long)]
    pub failed: bool,
    /// Run on this input instead of the cases (`-` reads it from stdin): print the output, the
    /// time and memory, and with the problem's reference its answer and the checker's verdict.
    #[arg(long, value_name = "FILE|-")]
    pub input: Option<PathBuf>,
    /// Judge again whenever the source file or a case changes (a case added, edited or
    /// removed; Ctrl-C stops), clearing the screen between runs.
    #[arg(long)]
    pub watch: bool,
    /// Judge only the K-th of N stable slices of the cases (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
    /// Build C and C++ with AddressSanitizer and UndefinedBehaviorSanitizer (Rust with debug
    /// assertions and overflow checks): a bad access or an overflow is an RE naming its line.
    #[arg(long)]
    pub sanitize: bool,
    /// The interactor of an interactive problem: a source file (compiled like a submission)
    /// or a program with its arguments; each case's input and answer go to it.
    #[arg(long, value_name = "PROGRAM")]
    pub interactor: Option<String>,
    /// How `--interactor` is called.
    #[arg(long, value_enum, value_name = "PROTOCOL", requires = "interactor")]
    pub interactor_protocol: Option<crate::verdict::InteractorProtocol>,
}

impl JudgeRequest {
    /// A problem id, a package folder; or, without `source`, the source file itself (empty
    /// for a command judged with no judge.toml).
    fn problem(&self) -> &str {
        self.problem.as_deref().unwrap_or_default()
    }

    /// The source file, whichever form the command line took; a command's is the current
    /// folder.
    fn source(&self) -> PathBuf {
        if self.cmd.is_some() {
            return std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        }
        self.source
            .clone()
            .unwrap_or_else(|| PathBuf::from(self.problem()))
    }

    /// The source given after a problem (`PROBLEM SOURCE`, `PROBLEM --cmd COMMAND`).
    fn source_of_problem(&self) -> Option<PathBuf> {
        match &self.cmd {
            Some(_) => (!self.problem().is_empty()).then(|| self.source()),
            None => self.source.clone(),
        }
    }

    /// Judged with no judge.toml: only a source (or a command) was given.
    fn standalone(&self) -> bool {
        self.source_of_problem().is_none()
    }

    /// The language to judge as: `--lang`, or a command's.
    fn lang(&self) -> Option<&str> {
        match &self.cmd {
            Some(_) => Some(crate::compile::command::COMMAND),
            None => self.lang.as_deref(),
        }
    }
}

impl Session {
    /// Judges the submission; the exit code follows its verdict.
    pub fn judge(&self, request: &JudgeRequest, output: &Output) -> Result<i32> {
        // `harness judge CONTEST LABEL SOURCE` is `harness judge PKG_DIR SOURCE` for the
        // problem the label (or short name) names.
        let contest_request;
        let request = if crate::package::contest::is_contest(Path::new(request.problem())) {
            let contest = crate::package::contest::open(Path::new(request.problem()))?;
            let Some(key) = &request.source else {
                anyhow::bail!(
                    "`{}` is a contest: give a problem's label and the source (hint: `harness judge {} A SOURCE`)",
                    request.problem(),
                    request.problem()
                );
            };
            let found = contest.problem(&key.to_string_lossy())?;
            let Some(source) = &request.contest_source else {
                anyhow::bail!(
                    "no source file to judge on problem {} ({}) (hint: `harness judge {} {} SOURCE`)",
                    found.label,
                    found.id,
                    request.problem(),
                    found.label
                );
            };
            contest_request = JudgeRequest {
                problem: Some(found.dir.display().to_string()),
                source: Some(source.clone()),
                contest_source: None,
                ..request.clone()
            };
            &contest_request
        } else if request.contest_source.is_some() {
            anyhow::bail!(
                "`{}` is not a contest folder (no problems.yaml), so it takes PROBLEM SOURCE, not three words",
                request.problem()
            );
        } else {
            request
        };
        // A piped input is read once: a watch reruns on it.
        let stdin_input = match request.input.as_deref() {
            Some(path) if path == Path::new("-") => {
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
            .or(request.input.clone());
        if request.watch {
            // A file a report may not replace stops the watch now, not at every save.
            output.files()?;
            // A terminal is cleared between runs; a caller's sink has no screen.
            let clear = output.sink.is_none();
            return super::watch::watch(&request.source(), clear, |watched| {
                self.fresh()
                    .judge_once(request, output, input.as_deref(), watched)
            });
        }
        self.judge_once(request, output, input.as_deref(), &mut Watched::default())
    }

    /// The configuration to judge with, the problem's id and the source: judge.toml's problem,
    /// a package's, or one made up from the command line; the command line's limits on top.
    fn resolve(&self, request: &JudgeRequest, human: bool) -> Result<(Config, String, PathBuf)> {
        let (mut config, problem, source) = match &request.source_of_problem() {
            // A package folder is a problem of its own, judged with no judge.toml.
            Some(source) if crate::package::detect(Path::new(request.problem())).is_some() => {
                let loaded = packages::load_for_judging(
                    Path::new(request.problem()),
                    self.languages(),
                    request.jobs.max(1),
                    human,
                )?;
                (loaded.config, loaded.package.name, source.clone())
            }
            Some(source) => (
                compile_sources(
                    self.load_config_to_judge(&[request.problem()])?,
                    &[request.problem()],
                    &[Part::Reference, Part::Checker],
                )?,
                request.problem().to_string(),
                source.clone(),
            ),
            None => {
                let source = request.source();
                if request.cmd.is_none() && !source.is_file() {
                    anyhow::bail!(
                        "submission `{}` does not exist (hint: `harness judge SOURCE --cases DIR` judges a source file; `harness judge PROBLEM SOURCE` a problem of judge.toml)",
                        source.display()
                    );
                }
                let (cases, root) = match &request.cases {
                    Some(cases) => (cases.clone(), None),
                    // A command's folder is here: `test/` here.
                    None if request.cmd.is_some() => default_cases(Path::new(""), false)?,
                    None => default_cases(&source, request.input.is_some())?,
                };
                let cases = std::path::absolute(&cases).unwrap_or(cases);
                let made_up = match root {
                    // The problem is named after the folder its cases are in (`4A`).
                    Some(root) => self.made_up_config_in(&root, cases, &request.limits)?,
                    None => self.made_up_config(cases, &request.limits)?,
                };
                let name = made_up.problems[0].name.clone();
                (made_up, name, source)
            }
        };
        if let Some(cmd) = &request.cmd {
            let language = crate::compile::command::language(cmd)?;
            crate::compile::command::check(&language, &source)?;
            if let Some(found) = config.problem(&problem).filter(|p| p.interactive) {
                anyhow::bail!(
                    "problem `{}` is interactive, and --cmd judges batch problems only (hint: judge its source file, or the program you built: `harness judge {} ./a.out`)",
                    found.name,
                    found.name
                );
            }
            config.languages.push(language);
        }
        let languages = config.languages.clone();
        if let Some(problem) = config.problems.iter_mut().find(|p| p.name == problem) {
            request.limits.apply(problem);
            if let Some(interactor) = &request.interactor {
                problem.interactor = Some(interactor_of(
                    interactor,
                    request
                        .interactor_protocol
                        .unwrap_or(crate::verdict::InteractorProtocol::Testlib),
                    &languages,
                )?);
                problem.interactive = true;
            }
        }
        Ok((config, problem, source))
    }

    /// A configuration of one problem made up from the command line, for a program judged
    /// with no judge.toml: its cases in `cases`, the user's defaults and the command line's
    /// limits; a judge.toml above still says how its languages compile.
    pub(super) fn made_up_config(&self, cases: PathBuf, limits: &LimitOverrides) -> Result<Config> {
        let here = std::env::current_dir().context("cannot read the current folder")?;
        self.made_up_config_in(&here, cases, limits)
    }

    /// [`Self::made_up_config`] for a problem whose folder is `root` (named after it).
    fn made_up_config_in(
        &self,
        root: &Path,
        cases: PathBuf,
        limits: &LimitOverrides,
    ) -> Result<Config> {
        let user = config::user::load()?;
        let mut made_up = standalone::config(root, &user, cases, limits);
        if self.has_config() {
            // Only its languages: no problem of it, and so no package, is read.
            made_up.languages = self.read_config()?.languages.clone();
        }
        Ok(made_up)
    }

    fn judge_once(
        &self,
        request: &JudgeRequest,
        output: &Output,
        input: Option<&Path>,
        watched: &mut Watched,
    ) -> Result<i32> {
        let (mut config, problem, source) = self.resolve(request, output.is_human())?;
        if config.require_problem(&problem)?.output_only {
            return judge_answers(&config, &problem, &source, request, output, input);
        }
        ignore_what_it_writes(watched, &config, output);
        let package_cases = request.cases.is_none() && input.is_none();
        let sanitizing = request
            .sanitize
            .then(|| {
                sanitize::apply(
                    &mut config,
                    &problem,
                    &source,
                    request.lang(),
                    package_cases,
                )
            })
            .transpose()?;
        let toolchain = sanitizing.as_ref().map(|s| s.toolchain);
        if let Some(input) = input {
            watch_input(watched, input)?;
            return run_input(&config, &problem, &source, request, input, toolchain);
        }
        let mut plan = plan_submission(&config, &problem, &source, request)?;
        watched.folders = case_folders(&plan);
        let (store, key, mut failed) = failures_of(&config, &plan, request)?;
        if request.failed {
            plan.cases.retain(|case| failed.contains(&key, &case.name));
            if plan.cases.is_empty() {
                let mut stdout = anstream::stdout().lock();
                notice::write_nothing_failed(&mut stdout)?;
                std::io::Write::flush(&mut stdout)?;
                return Ok(exit::OK);
            }
        }
        warn_if_unscored(&plan);
        build_checkers(&config, [plan.problem], request.no_build)?;
        let jobs = request.jobs.max(1);
        warn_if_oversubscribed(jobs);
        let options = submission::Options {
            jobs,
            stop: stop_of(request, output),
        };
        let label = match &request.cmd {
            Some(cmd) => cmd.clone(),
            None => plan.source.display().to_string(),
        };
        let mut run = run_plan(&config, &plan, request, &label, jobs);
        run.sanitized = sanitizing.map(|s| s.note);
        let report = stream_unit(&run, output, &label, |on_event| {
            let mut report = submission::judge_as(&plan, &options, toolchain, &mut |progress| {
                on_event(match progress {
                    submission::Progress::Compiled(compile) => Event::Compiled { unit: 0, compile },
                    submission::Progress::Case(outcome) => Event::CaseFinished { unit: 0, outcome },
                });
            })?;
            // A command is reported by its words, not its folder.
            if request.cmd.is_some() {
                report.source = PathBuf::from(&label);
            }
            Ok(report)
        })?;
        if report.compile.ok {
            failed.record(&key, &report.outcomes);
            store.save(&failed);
        }
        Ok(exit::for_verdicts([report.verdict]))
    }
}

/// Streams the run's one unit, `label`: its start, what `judge` reports as it goes, and its
/// end with the report.
fn stream_unit(
    run: &Plan,
    output: &Output,
    label: &str,
    judge: impl FnOnce(&mut dyn FnMut(Event<'_>)) -> Result<submission::SubmissionReport>,
) -> Result<submission::SubmissionReport> {
    stream(
        run,
        output,
        human_options(output.detail),
        Vec::new(),
        |on_event| {
            on_event(Event::Started { unit: 0, label });
            let report = judge(on_event)?;
            on_event(Event::UnitFinished {
                unit: 0,
                result: Finished::Judged(&report),
            });
            Ok(report)
        },
    )
}

/// What the harness writes as it judges is no change of what it judges.
fn ignore_what_it_writes(watched: &mut Watched, config: &Config, output: &Output) {
    watched.ignored.extend(
        [
            Some(config.root.join("target")),
            Some(crate::compile::cache::cache_root()),
            output.junit.clone(),
            output.html.clone(),
        ]
        .into_iter()
        .flatten()
        .map(|path| std::path::absolute(&path).unwrap_or(path)),
    );
}

/// Watches one input and the answers that may be put beside it.
fn watch_input(watched: &mut Watched, input: &Path) -> Result<()> {
    watched.files.push(std::path::absolute(input)?);
    // An answer put beside it later is compared with.
    for extension in ["ans", "out"] {
        watched
            .files
            .push(std::path::absolute(input.with_extension(extension))?);
    }
    Ok(())
}

/// Where the plan's failures are kept, the key of its source there, and what failed before.
fn failures_of(
    config: &Config,
    plan: &submission::Plan<'_>,
    request: &JudgeRequest,
) -> Result<(FailedStore, String, failures::FailedCases)> {
    // A project's failures are kept in it, keyed apart from `run`'s; those of a folder of
    // cases in the user's cache, keyed by the folder. Each source has its own: `--failed`
    // on a.cpp reruns what a.cpp failed, not what b.cpp judged since then failed.
    let (store, problem_key) = if request.standalone() {
        let cases = plan.problem.cases.display();
        (FailedStore::of_user(), format!("judge {cases}"))
    } else {
        let key = format!("judge {}", plan.problem.name);
        (FailedStore::of_project(&config.root), key)
    };
    let key = failures::source_key(&problem_key, &plan.source);
    let mut failed = store.load(request.failed)?;
    failed.adopt(&problem_key, &key);
    Ok((store, key, failed))
}

fn warn_if_unscored(plan: &submission::Plan<'_>) {
    if let Some(why) = &plan.unscored {
        let _ = notice::write_warning(
            &mut anstream::stderr(),
            format_args!(
                "problem `{}` is scored, but the cases of --cases do not fit its rules ({why}): judged pass-fail, with no score",
                plan.problem.name
            ),
        );
    }
}

/// When judging stops.
fn stop_of(request: &JudgeRequest, output: &Output) -> Stop {
    // A scored problem's groups stop at their first failure (as Kattis'
    // `on_reject: break`), unless every case is asked for (`--all`).
    if request.fail_fast {
        Stop::AfterFirstFailure
    } else if output.detail == crate::report::human::Detail::Verbose {
        Stop::Never
    } else {
        Stop::Unneeded
    }
}

/// The run's plan: one unit, the submission, named `label`.
fn run_plan(
    config: &Config,
    plan: &submission::Plan<'_>,
    request: &JudgeRequest,
    label: &str,
    jobs: usize,
) -> Plan {
    let mut unit = super::unit_of(plan, label);
    if request.cmd.is_some() {
        // Reports name a command by its words; its folder is where it was run.
        unit.source = Some(PathBuf::from(label));
    }
    let mut run = Plan::new(Command::Judge, vec![unit], jobs, config.sandbox);
    run.partition = request.partition;
    run.failed_only = request.failed;
    run.memory_note = super::memory_note();
    run
}

/// `harness judge PROBLEM ANSWERS` on an output-only problem: each case's answer file in the
/// folder or zip checked, nothing run.
fn judge_answers(
    config: &Config,
    problem: &str,
    answers: &Path,
    request: &JudgeRequest,
    output: &Output,
    input: Option<&Path>,
) -> Result<i32> {
    let refused = [
        ("--input", input.is_some()),
        ("--sanitize", request.sanitize),
        ("--lang", request.lang.is_some()),
        ("--interactor", request.interactor.is_some()),
        ("--cases", request.cases.is_some()),
        ("--failed", request.failed),
    ];
    if let Some((flag, _)) = refused.iter().find(|(_, given)| *given) {
        anyhow::bail!(
            "problem `{problem}` is output-only: `{}` is a folder or zip of answer files, judged as they are, so {flag} does not apply",
            answers.display()
        );
    }
    let mut plan = crate::judge::answers::plan(config, problem, answers, request.case.as_deref())?;
    if let Some(partition) = request.partition {
        partition.retain_cases(&plan.problem.name, &mut plan.cases);
    }
    build_checkers(config, [plan.problem], request.no_build)?;
    let label = answers.display().to_string();
    let unit = crate::event::Unit {
        problem: plan.problem.name.clone(),
        label: label.clone(),
        source: Some(plan.source.clone()),
        language: None,
        limits: None,
        cases: plan.cases.iter().map(|c| c.name.clone()).collect(),
        runs: plan.cases.len(),
        expected: None,
        scoring: plan.scoring.clone(),
    };
    let mut run = Plan::new(Command::Judge, vec![unit], 1, config.sandbox);
    run.partition = request.partition;
    let report = stream_unit(&run, output, &label, |on_event| {
        Ok(crate::judge::answers::judge(&plan, &mut |outcome| {
            on_event(Event::CaseFinished { unit: 0, outcome });
        })?)
    })?;
    Ok(exit::for_verdicts([report.verdict]))
}

/// The submission planned on its cases: a package's own, the problem's, or those of
/// `--cases`; those of `--case` and the `--partition` slice.
fn plan_submission<'a>(
    config: &'a Config,
    problem: &'a str,
    source: &'a Path,
    request: &'a JudgeRequest,
) -> Result<submission::Plan<'a>> {
    let selection = Request {
        problem,
        source,
        language: request.lang(),
        cases: if request.standalone() {
            None
        } else {
            request.cases.as_deref()
        },
        case_pattern: request.case.as_deref(),
    };
    let mut plan = match package_plan(config, problem, source, request)? {
        Some(plan) => plan,
        None => submission::plan(config, &selection)?,
    };
    if let Some(partition) = request.partition {
        partition.retain_cases(&plan.problem.name, &mut plan.cases);
    }
    Ok(plan)
}

/// The folders the plan's cases come from, for `--watch`: the problem's folder of cases (a
/// package's `data/`, `--cases`), and those of cases kept elsewhere (a Polygon package's
/// `tests/`).
fn case_folders(plan: &submission::Plan) -> Vec<PathBuf> {
    let absolute = |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut folders = vec![absolute(&plan.problem.cases)];
    for case in &plan.cases {
        let Some(folder) = case.input.parent() else {
            continue;
        };
        let folder = absolute(folder);
        if !folders.iter().any(|known| folder.starts_with(known)) {
            folders.push(folder);
        }
    }
    folders
}

/// What the report shows of the cases: every case when verbose; otherwise the first failing
/// case decides the verdict, so it gets the diff, and a few more show whether the others fail
/// alike.
fn human_options(detail: Detail) -> HumanOptions {
    match detail {
        Detail::Verbose => HumanOptions {
            detail,
            ..HumanOptions::default()
        },
        Detail::Quiet | Detail::Normal => HumanOptions {
            detail,
            max_diffs: 1,
            max_cases: FAILING_CASES_SHOWN,
            ..HumanOptions::default()
        },
    }
}

/// `--input`: the submission on one input, under the problem's limits.
fn run_input(
    config: &Config,
    problem: &str,
    source: &Path,
    request: &JudgeRequest,
    input: &Path,
    sanitized: Option<crate::compile::sanitizer::Toolchain>,
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
    let language =
        crate::config::detect_submission_language(config, source, request.lang.as_deref())?;
    submit::check_tools(language)?;
    // The answer beside the input is the one to compare with, as a case's would be.
    let answer = answer_beside(input);
    build_checkers(
        config,
        [problem],
        request.no_build || (problem.reference.is_none() && answer.is_none()),
    )?;
    let limits = problem.limits(language.time_multiplier);
    let mut stdout = anstream::stdout().lock();
    let prepared =
        match crate::compile::submission::compile(language, source, problem.memory_limit)? {
            Compiled::Ready(mut prepared) => {
                prepared.program.sanitized = sanitized.map(|toolchain| {
                    std::sync::Arc::new(crate::compile::sanitizer::Sanitized {
                        toolchain,
                        shown: source.to_path_buf(),
                        copy: prepared.source_copy.clone(),
                    })
                });
                prepared
            }
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
    let why_unchecked = match request.input.as_deref() {
        Some(given) if given != Path::new("-") => format!(
            "not checked: no answer beside the input (`{}` or `{}`) and no reference",
            file_name(&given.with_extension("ans")),
            file_name(&given.with_extension("out"))
        ),
        _ => "not checked: no reference to compare with".to_string(),
    };
    let expected = match (&answer, &problem.reference) {
        (Some(answer), _) => custom::Expected::Answer(answer),
        (None, Some(command)) => custom::Expected::Reference {
            command,
            root: &config.root,
        },
        (None, None) => custom::Expected::Nothing {
            why: &why_unchecked,
        },
    };
    let run = custom::run_on_input(&prepared.program, input, limits, &problem.checker, expected)?;
    report_custom::write_custom(&mut stdout, &run)?;
    std::io::Write::flush(&mut stdout)?;
    Ok(exit::for_verdicts(std::iter::once(run.verdict)))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
}

/// `--interactor`: a source file of a known language (compiled like a submission), else a
/// program (a path, or a name on PATH) with its arguments.
fn interactor_of(
    spec: &str,
    protocol: crate::verdict::InteractorProtocol,
    languages: &[crate::compile::Language],
) -> Result<config::Interactor> {
    let path = Path::new(spec);
    let is_source = path.is_file()
        && path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            languages
                .iter()
                .any(|l| l.extensions.iter().any(|x| x == e))
        });
    let program = if is_source {
        config::InteractorProgram::Source(
            std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
        )
    } else {
        let mut words = spec.split_whitespace();
        let Some(first) = words.next() else {
            anyhow::bail!(
                "--interactor is empty (hint: the interactor's source file, or its program)"
            );
        };
        let program = if first.contains('/') {
            let path = Path::new(first);
            if !path.exists() {
                anyhow::bail!("interactor `{first}` does not exist (hint: give its source file or its program, from the current folder)");
            }
            std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
        } else {
            crate::sandbox::run::find_program(Path::new(first)).map_err(|_| {
                anyhow::anyhow!("interactor `{first}` is not a file here nor a program on PATH (hint: `./{first}` for a file in this folder)")
            })?
        };
        config::InteractorProgram::Command {
            program,
            args: words.map(str::to_string).collect(),
        }
    };
    Ok(config::Interactor {
        program,
        protocol,
        checker: None,
    })
}

/// The cases of a source judged with no `--cases`: `test/` beside the source (`harness judge
/// 4A/a.cpp` from the contest's folder), else `test/` here; with the folder the problem is
/// named after when it is the source's. `--input` needs none.
fn default_cases(source: &Path, input: bool) -> Result<(PathBuf, Option<PathBuf>)> {
    let folder = source
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf);
    if let Some(folder) = &folder {
        let beside = folder.join(DEFAULT_CASES);
        if beside.is_dir() {
            let root = std::path::absolute(folder).unwrap_or_else(|_| folder.clone());
            return Ok((beside, Some(root)));
        }
    }
    let here = PathBuf::from(DEFAULT_CASES);
    if !here.is_dir() && !input {
        match folder {
            Some(folder) => anyhow::bail!(
                "no `{DEFAULT_CASES}/` folder beside `{}` nor here (hint: pass --cases DIR, a folder of NAME.in with NAME.out or NAME.ans; looked in `{}` and `{DEFAULT_CASES}`)",
                source.display(),
                folder.join(DEFAULT_CASES).display()
            ),
            None => anyhow::bail!(
                "no `{DEFAULT_CASES}/` folder here (hint: pass --cases DIR, a folder of NAME.in with NAME.out or NAME.ans)"
            ),
        }
    }
    Ok((here, None))
}

/// The answer of an input given with `--input`: `NAME.ans`, else `NAME.out`, beside it (as
/// a case's answer is found).
fn answer_beside(input: &Path) -> Option<PathBuf> {
    ["ans", "out"]
        .iter()
        .map(|extension| input.with_extension(extension))
        .find(|answer| answer != input && answer.is_file())
}

/// The plan for a problem read from a package, on the package's own cases in its order
/// (unless `--cases` names others), with the language chosen as the format's tools choose it
/// (a `.py` asking for python2 is Python 2). `None` for any other problem.
fn package_plan<'a>(
    config: &'a Config,
    problem: &str,
    source: &Path,
    request: &JudgeRequest,
) -> Result<Option<submission::Plan<'a>>> {
    let problem = config.require_problem(problem)?;
    let Some(reference) = &problem.package else {
        return Ok(None);
    };
    if request.cases.is_some() {
        return Ok(None);
    }
    if !source.exists() {
        return Err(submit::SubmitError::MissingSource(source.to_path_buf()).into());
    }
    let language = match request.lang() {
        Some(lang) => crate::config::detect_language(config, source, Some(lang))?,
        None => crate::package::languages::language_of(&config.languages, source)
            .map_err(|why| anyhow::anyhow!("cannot judge `{}`: {why}", source.display()))?,
    };
    crate::package::languages::available(language).map_err(anyhow::Error::msg)?;
    let mut cases = crate::package::open(&reference.path)?.cases;
    if let Some(pattern) = request.case.as_deref() {
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
        communication: crate::judge::communication::prepare(config, problem)?,
        scoring: problem.package_scoring.clone(),
        unscored: None,
    }))
}
