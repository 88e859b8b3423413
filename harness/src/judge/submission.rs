//! Judges one contest submission on a problem, as an online judge would: compile it once, run
//! every case under the problem's limits (scaled for its language) with the problem's checker,
//! and give one verdict, the first failing case's. It never prints.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::case::discover::{self, Case, DiscoverError};
use crate::case::select::CasePattern;
use crate::compile::sanitizer::{Sanitized, Toolchain};
use crate::compile::submission::Compiled;
use crate::compile::submit::{self, SubmitError};
use crate::compile::Language;
use crate::config::{Config, Problem, UnknownProblem};
use crate::judge::suite::SuiteError;
use crate::judge::{self, CaseOutcome, JudgeSettings, Stop};
use crate::verdict::Verdict;

pub use crate::results::submission::{CompileOutcome, SubmissionReport};

use super::interactive;

#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    #[error(transparent)]
    UnknownProblem(#[from] UnknownProblem),
    #[error(transparent)]
    Submit(#[from] SubmitError),
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    #[error(transparent)]
    Cases(#[from] SuiteError),
    #[error("no cases in `{}` (hint: a case is a `NAME.in` file with its `NAME.ans` beside it)", .0.display())]
    NoCases(PathBuf),
    #[error(transparent)]
    Interactor(#[from] interactive::InteractorError),
    #[error(transparent)]
    Scoring(#[from] crate::config::ConfigError),
    #[error("problem `{problem}` is interactive but names no `interactor`, so no verdict can be given (hint: pass --interactor PROGRAM (and --interactor-protocol), or add `interactor = [\"path/to/interactor\"]` and its `interactor-protocol` to [problems.{problem}], as the book's \"Interactive problems\" chapter (docs/src/guide/interactive.md) shows; its samples are in `{}`)", cases.display())]
    Interactive { problem: String, cases: PathBuf },
}

/// What to judge: a problem, a source file, and optionally another case set.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub problem: &'a str,
    pub source: &'a Path,
    /// A language id from judge.toml; `None` picks it by the file's extension.
    pub language: Option<&'a str>,
    /// Judge on this folder's `.in`/`.ans` pairs instead of the problem's own cases.
    pub cases: Option<&'a Path>,
    /// Only the cases whose name matches this name or glob.
    pub case_pattern: Option<&'a str>,
}

/// A submission with everything resolved, before anything runs: a typo, a missing file or an
/// unknown extension stops here, not after a compile.
#[derive(Debug, Clone)]
pub struct Plan<'a> {
    pub problem: &'a Problem,
    pub language: &'a Language,
    pub source: PathBuf,
    pub cases: Vec<Case>,
    /// The interactor of an interactive problem, ready to run.
    pub interactor: Option<interactive::Shared>,
    /// The manager of a communication task, ready to run.
    pub communication: Option<Arc<crate::check::manager::Manager>>,
    /// A scored problem's rules, over all its cases (not only those planned).
    pub scoring: Option<std::sync::Arc<crate::score::Scoring>>,
    /// Why a scored problem is judged pass-fail on the cases of `--cases`, when it is.
    pub unscored: Option<String>,
}

pub fn plan<'a>(config: &'a Config, request: &Request<'_>) -> Result<Plan<'a>, SubmissionError> {
    let problem = config.require_problem(request.problem)?;
    // Judging it like a batch problem would give a verdict that means nothing.
    if problem.interactive && problem.interactor.is_none() {
        return Err(SubmissionError::Interactive {
            problem: problem.name.clone(),
            cases: problem.cases.clone(),
        });
    }
    // A missing file is named now, before any compile; read errors come when compiling.
    if !request.source.exists() {
        return Err(SubmitError::MissingSource(request.source.to_path_buf()).into());
    }
    // A command's source is its folder (`--cmd`).
    let command = request.language == Some(crate::compile::command::COMMAND);
    if let Some(kind) = crate::file_kind::not_regular(request.source).filter(|_| !command) {
        return Err(SubmitError::NotAFile {
            path: request.source.to_path_buf(),
            kind,
        }
        .into());
    }
    let language =
        crate::config::detect_submission_language(config, request.source, request.language)?;
    submit::check_tools(language)?;
    let folder = request.cases.unwrap_or(&problem.cases);
    let mut cases = select_cases(folder, request.case_pattern)?;
    // Scored over all the problem's own cases, or over those of `--cases` by the problem's
    // rules where the folder's cases fit them.
    let all = discover::discover_unanswered_too(folder)?;
    let (scoring, unscored) = match request.cases {
        None => (super::scoring::rules_for(problem, &all)?, None),
        Some(_) => match super::scoring::rules_for_folder(problem, &all) {
            Ok(scoring) => (scoring, None),
            Err(why) => (None, Some(why)),
        },
    };
    super::scoring::order_cases(scoring.as_deref(), &mut cases);
    let interactor = interactive::prepare(config, problem)?;
    let communication = super::communication::prepare(config, problem)?;
    Ok(Plan {
        problem,
        language,
        source: request.source.to_path_buf(),
        cases,
        interactor,
        communication,
        scoring,
        unscored,
    })
}

/// The cases of `folder`, those matching `pattern` if one is given; never none.
pub fn select_cases(folder: &Path, pattern: Option<&str>) -> Result<Vec<Case>, SubmissionError> {
    narrow(discover::discover_unanswered_too(folder)?, folder, pattern)
}

/// `cases` (those of `folder`), those matching `pattern` if one is given; never none.
pub fn narrow(
    mut cases: Vec<Case>,
    folder: &Path,
    pattern: Option<&str>,
) -> Result<Vec<Case>, SubmissionError> {
    if let Some(pattern) = pattern {
        let pattern = CasePattern::new(pattern).map_err(SuiteError::from)?;
        pattern.retain(&mut cases);
        if cases.is_empty() {
            return Err(SuiteError::from(pattern.matched_nothing()).into());
        }
    }
    if cases.is_empty() {
        return Err(SubmissionError::NoCases(folder.to_path_buf()));
    }
    Ok(cases)
}

/// How to judge.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Cases run at once. One by default for a submission: its times are what the user reads.
    pub jobs: usize,
    pub stop: Stop,
}

/// Compiles the submission once and judges it on the planned cases, handing each case to
/// `on_case` as it finishes.
pub fn judge(
    plan: &Plan<'_>,
    options: &Options,
    on_case: &mut dyn FnMut(&CaseOutcome),
) -> Result<SubmissionReport, SubmitError> {
    judge_as(plan, options, None, &mut |progress| {
        if let Progress::Case(outcome) = progress {
            on_case(outcome);
        }
    })
}

/// What goes onto a submission in `language` before it is built: a package's `include/`
/// files, or judge.toml's `grader` and `grader-files`; with where they come from, which a
/// grader's compile error names, when there are any.
fn included(
    problem: &Problem,
    language: &Language,
) -> Result<(crate::package::include::Included, Option<PathBuf>), SubmitError> {
    // A package's graders (a CMS task's `sol/grader.%l`, a Polygon package's compile-stage
    // resources) are given as judge.toml's are; a Kattis package has `include/`.
    if let Some(package) = problem
        .package
        .as_ref()
        .filter(|_| problem.graders.is_empty())
    {
        let path = package.path.join("include");
        let included =
            crate::package::include::files_for(&package.path, language).map_err(|why| {
                SubmitError::Include {
                    path: path.clone(),
                    why,
                }
            })?;
        return Ok((included, Some(path)));
    }
    if problem.graders.is_empty() {
        return Ok(Default::default());
    }
    // A communication task's stub holds `main` and the protocol: without one in the
    // submission's language, CMS fails the compilation as the task's fault (its
    // `check_manager_present`), never the contestant's.
    if let (Some(_), Some((_, stub)), None) = (
        &problem.communication,
        problem.graders.sources.first(),
        problem.graders.source_for(language),
    ) {
        let given: Vec<String> = problem
            .graders
            .sources
            .iter()
            .map(|(_, path)| format!("`{}`", crate::package::file_name(path)))
            .collect();
        return Err(SubmitError::Include {
            path: stub.clone(),
            why: format!(
                "the task has no stub for {} to compile the submission with (it has {})",
                language.name,
                given.join(", ")
            ),
        });
    }
    let path = problem
        .graders
        .source_for(language)
        .or(problem.graders.files.first().map(PathBuf::as_path))
        .map(Path::to_path_buf);
    let included =
        crate::package::include::from_graders(&problem.graders, language).map_err(|why| {
            SubmitError::Include {
                path: path.clone().unwrap_or_default(),
                why,
            }
        })?;
    Ok((included, path))
}

/// What [`judge_as`] tells as it goes: the build, then each case as it finishes.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    Compiled(&'a CompileOutcome),
    Case(&'a CaseOutcome),
}

/// [`judge`], the plan's language being a sanitized build (`--sanitize`,
/// [`crate::compile::sanitizer::language`]) when `sanitized` says with which toolchain: a crash's
/// reason is then read from the sanitizer's report.
pub fn judge_as(
    plan: &Plan<'_>,
    options: &Options,
    sanitized: Option<Toolchain>,
    on_progress: &mut dyn FnMut(Progress<'_>),
) -> Result<SubmissionReport, SubmitError> {
    let built = build(plan)?;
    judge_built(plan, built, options, sanitized, on_progress)
}

/// A submission compiled (or refused by the compiler), not judged yet: what [`build`] gives
/// and [`judge_built`] takes, so that `verify` can compile the next submissions while it
/// judges this one.
#[derive(Debug)]
pub struct Build {
    compiled: Compiled,
    /// A package's `include/` files (or judge.toml's graders), which the runs get beside the
    /// program.
    included: crate::package::include::Included,
    /// How long compiling took, counted in the report's time.
    took: Duration,
}

/// Compiles the plan's submission with a package's `include/` files or judge.toml's graders:
/// the first half of [`judge_as`]. A grader that does not compile on its own is the problem's
/// error, not a CE.
pub fn build(plan: &Plan<'_>) -> Result<Build, SubmitError> {
    let started = Instant::now();
    let problem = plan.problem;
    // A package's `include/` files, or judge.toml's graders, go onto the submission, and are
    // compiled with it.
    let (included, grader_path) = included(problem, plan.language)?;
    let compiled = crate::compile::submission::compile_with(
        plan.language,
        &plan.source,
        problem.memory_limit,
        &included.files,
        included.entry.as_deref(),
    )?;
    if let (Compiled::CompileError { .. }, Some(path)) = (&compiled, grader_path) {
        // A grader that does not compile on its own is the problem's fault, not a CE
        // of every submission.
        crate::compile::submission::check_beside(
            plan.language,
            &included.files,
            included.entry.as_deref(),
        )
        .map_err(|message| SubmitError::Grader { path, message })?;
    }
    Ok(Build {
        compiled,
        included,
        took: started.elapsed(),
    })
}

/// Judges a submission [`build`] compiled: the second half of [`judge_as`].
pub fn judge_built(
    plan: &Plan<'_>,
    built: Build,
    options: &Options,
    sanitized: Option<Toolchain>,
    on_progress: &mut dyn FnMut(Progress<'_>),
) -> Result<SubmissionReport, SubmitError> {
    // The report's time is the compile's and the cases', as when both ran here.
    let started = Instant::now();
    let took = built.took;
    let problem = plan.problem;
    let mut report = SubmissionReport {
        problem: problem.name.clone(),
        title: problem.title.clone(),
        source: plan.source.clone(),
        language: Some(plan.language.clone()),
        limits: problem.limits(plan.language.time_multiplier),
        compile: CompileOutcome {
            ok: false,
            message: String::new(),
        },
        outcomes: Vec::new(),
        planned_cases: plan.cases.len(),
        verdict: Verdict::CompileError,
        elapsed: Duration::ZERO,
        jobs: options.jobs.max(1),
        score: None,
    };
    let included = built.included;
    let beside = included.files;
    let mut prepared = match built.compiled {
        Compiled::CompileError { message, .. } => {
            report.compile.message = message;
            report.elapsed = took + started.elapsed();
            on_progress(Progress::Compiled(&report.compile));
            return Ok(report);
        }
        Compiled::Ready(prepared) => prepared,
    };
    if let Some(toolchain) = sanitized {
        prepared.program.sanitized = Some(Arc::new(Sanitized {
            toolchain,
            shown: plan.source.clone(),
            copy: prepared.source_copy.clone(),
        }));
    }
    report.compile = CompileOutcome {
        ok: true,
        message: prepared.compile_message.clone(),
    };
    on_progress(Progress::Compiled(&report.compile));
    // The runner copies them into each run's folder from files of their own.
    let include_dir = (!beside.is_empty())
        .then(tempfile::tempdir)
        .transpose()
        .map_err(SubmitError::TempDir)?;
    let mut beside_files = Vec::new();
    if let Some(dir) = &include_dir {
        for (name, bytes) in &beside {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).map_err(|error| SubmitError::Unreadable {
                path: path.clone(),
                source: error,
            })?;
            beside_files.push((name.clone(), path));
        }
    }
    // An interpreter sees only the file it runs: the submission's other files (its modules,
    // or all of them when a grader's `main.py` is what runs) go into each run's folder too.
    if plan.language.run.iter().any(|part| part == "{source}") {
        let (files, main) = if plan.source.is_dir() {
            crate::compile::submission::folder_sources(plan.language, &plan.source)?
        } else {
            (vec![plan.source.clone()], plan.source.clone())
        };
        for file in files {
            let name = file
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let runs_itself = included.entry.is_none() && file == main;
            if !runs_itself && !beside.iter().any(|(other, _)| *other == name) {
                beside_files.push((name, file));
            }
        }
    }
    // A command's folder, but for the files the problem's own input and output take.
    let taken = [
        problem.files.input.as_deref(),
        problem.files.output.as_deref(),
    ];
    beside_files.extend(
        prepared
            .beside
            .iter()
            .filter(|(name, _)| !taken.contains(&Some(name.as_str())))
            .cloned(),
    );
    let settings = JudgeSettings {
        limits: report.limits,
        checker: &problem.checker,
        jobs: options.jobs.max(1),
        interactor: plan.interactor.as_deref(),
        communication: plan.communication.as_deref(),
        two_steps: problem.two_steps,
        files: &problem.files,
        scoring: plan.scoring.as_deref(),
        beside: &beside_files,
    };
    report.outcomes = judge::judge_cases_with(
        &prepared.program,
        &plan.cases,
        &settings,
        options.stop,
        &mut |outcome| on_progress(Progress::Case(outcome)),
    );
    report.verdict = judge::overall_verdict(&report.outcomes);
    if let Some(scoring) = plan.scoring.as_deref() {
        let score = super::scoring::score_submission(scoring, &report.outcomes);
        if let Some(sheet) = score.sheet() {
            // The scoring's own verdict: a group's fault is a judge error.
            report.verdict = sheet.verdict;
        }
        report.score = Some(score);
    }
    report.elapsed = took + started.elapsed();
    Ok(report)
}
