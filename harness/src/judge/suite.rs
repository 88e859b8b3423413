//! The main job: judge each selected problem's solution on its cases.

use std::time::Instant;

use crate::case::discover::{self, Case, DiscoverError};
use crate::case::partition::Partition;
use crate::case::select::{CasePattern, SelectError};
use crate::compile::submission::Compiled;
use crate::compile::submit::{self, SubmitError};
use crate::compile::Language;
use crate::compile::Program;
use crate::config::{Config, Problem, UnknownProblem};
use crate::event::{Event, Finished};
use crate::judge::{self, JudgeSettings};
use crate::results::submission::{CompileOutcome, SubmissionReport};

#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error(transparent)]
    UnknownProblem(#[from] UnknownProblem),
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    #[error(transparent)]
    Select(#[from] SelectError),
    #[error("problem `{problem}`: solution `{}` does not exist (hint: build it — `cargo build --release -p solutions` — or fix `solution` in judge.toml)", path.display())]
    MissingSolution {
        problem: String,
        path: std::path::PathBuf,
    },
    #[error(transparent)]
    Interactor(#[from] super::interactive::InteractorError),
    #[error("problem `{problem}`: solution `{}` does not compile as {language}:\n{message}", path.display())]
    CompileError {
        problem: String,
        path: std::path::PathBuf,
        language: String,
        message: String,
    },
    #[error("problem `{problem}` has no `solution` in judge.toml (hint: `harness judge {problem} FILE` judges a source file)")]
    NoSolution { problem: String },
    #[error("problem `{problem}`: {source}")]
    Submit {
        problem: String,
        source: SubmitError,
    },
    #[error(transparent)]
    Scoring(#[from] crate::config::ConfigError),
}

/// Which problems and cases to judge.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Problem names; empty means every problem.
    pub problems: Vec<String>,
    /// A case name or glob (`all-0*`); `None` means every case.
    pub case_pattern: Option<String>,
    /// Only this slice of the cases (`--partition K/N`), for CI machines sharing a suite.
    pub partition: Option<Partition>,
}

/// A problem with the cases picked for it, ready to judge.
#[derive(Debug, Clone)]
pub struct Planned<'a> {
    pub problem: &'a Problem,
    pub cases: Vec<Case>,
    /// The interactor of an interactive problem, ready to run.
    pub interactor: Option<super::interactive::Shared>,
    /// A scored problem's rules, over all its cases (not only those selected).
    pub scoring: Option<std::sync::Arc<crate::score::Scoring>>,
}

/// Resolves the selection to problems and cases, before anything runs, so that a missing
/// answer file or a typo in a name stops the run at once instead of after minutes of judging.
pub fn plan<'a>(config: &'a Config, selection: &Selection) -> Result<Vec<Planned<'a>>, SuiteError> {
    let problems: Vec<&Problem> = if selection.problems.is_empty() {
        config.problems.iter().collect()
    } else {
        selection
            .problems
            .iter()
            .map(|name| config.require_problem(name))
            .collect::<Result<_, _>>()?
    };
    let pattern = selection
        .case_pattern
        .as_deref()
        .map(CasePattern::new)
        .transpose()?;
    let mut planned = Vec::new();
    for problem in problems {
        let mut cases = discover::discover(&problem.cases)?;
        let scoring = super::scoring::rules_for(problem, &cases)?;
        super::scoring::order_cases(scoring.as_deref(), &mut cases);
        if let Some(pattern) = &pattern {
            pattern.retain(&mut cases);
        }
        let interactor = super::interactive::prepare(config, problem)?;
        planned.push(Planned {
            problem,
            cases,
            interactor,
            scoring,
        });
    }
    if let Some(pattern) = &pattern {
        if planned.iter().all(|p| p.cases.is_empty()) {
            return Err(pattern.matched_nothing().into());
        }
        planned.retain(|p| !p.cases.is_empty());
    }
    if let Some(partition) = selection.partition {
        for plan in &mut planned {
            partition.retain_cases(&plan.problem.name, &mut plan.cases);
        }
        // A slice may hold no case of a problem: this machine has nothing to do for it.
        planned.retain(|p| !p.cases.is_empty());
    }
    Ok(planned)
}

/// The language of a problem's solution: a source file in a known language (`sol.cpp`) has
/// one, an executable (`target/release/sol`) none.
pub(crate) fn solution_language<'a>(
    config: &'a Config,
    path: &std::path::Path,
) -> Option<&'a Language> {
    crate::config::detect_language(config, path, None).ok()
}

/// A problem's solution as a program: a source file in a known language is compiled through
/// the languages table into the project's build cache (a second run compiles nothing), and
/// comes with its language (whose time multiplier applies); anything else is an executable.
pub(crate) fn solution_program<'a>(
    config: &'a Config,
    problem: &Problem,
    path: &std::path::Path,
) -> Result<(Program, Option<&'a Language>), SuiteError> {
    let Some(language) = solution_language(config, path) else {
        return Ok((Program::new(path), None));
    };
    let submit_error = |source| SuiteError::Submit {
        problem: problem.name.clone(),
        source,
    };
    submit::check_tools(language).map_err(submit_error)?;
    match crate::compile::submission::compile(language, path, problem.memory_limit)
        .map_err(submit_error)?
    {
        Compiled::Ready(prepared) => Ok((prepared.program, Some(language))),
        Compiled::CompileError { message, .. } => Err(SuiteError::CompileError {
            problem: problem.name.clone(),
            path: path.to_path_buf(),
            language: language.name.clone(),
            message,
        }),
    }
}

/// Why `harness run` leaves a problem's solution unjudged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// judge.toml names no `solution`: the problem is judged with `harness judge` only.
    NoSolution,
    /// An interactive problem that names no interactor: nothing can judge its dialogue.
    Interactive,
    /// An output-only problem: the contestant hands in answers, and no program runs.
    OutputOnly,
}

impl Skip {
    /// Why `problem`'s solution cannot be judged, if it cannot.
    pub fn of(problem: &Problem) -> Option<Skip> {
        if problem.output_only {
            Some(Skip::OutputOnly)
        } else if problem.interactive && problem.interactor.is_none() {
            Some(Skip::Interactive)
        } else if problem.solution.is_none() {
            Some(Skip::NoSolution)
        } else {
            None
        }
    }
}

/// Takes the problems whose solution cannot be judged out of `planned`, with the reason.
pub fn take_skipped<'a>(planned: &mut Vec<Planned<'a>>) -> Vec<(&'a Problem, Skip)> {
    let mut skipped = Vec::new();
    planned.retain(|plan| match Skip::of(plan.problem) {
        Some(skip) => {
            skipped.push((plan.problem, skip));
            false
        }
        None => true,
    });
    skipped
}

/// Judges every planned problem's solution (see [`take_skipped`] for those that have none),
/// the `unit`-th of the plan being the `unit`-th planned problem.
pub fn run(
    config: &Config,
    planned: &[Planned<'_>],
    jobs: usize,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<SubmissionReport>, SuiteError> {
    let mut solutions = Vec::new();
    for plan in planned {
        match &plan.problem.solution {
            Some(solution) if solution.is_file() => solutions.push(solution),
            Some(solution) => {
                return Err(SuiteError::MissingSolution {
                    problem: plan.problem.name.clone(),
                    path: solution.clone(),
                })
            }
            None => {
                return Err(SuiteError::NoSolution {
                    problem: plan.problem.name.clone(),
                })
            }
        }
    }
    let mut reports = Vec::new();
    for (unit, (plan, solution)) in planned.iter().zip(solutions).enumerate() {
        let started = Instant::now();
        let problem = plan.problem;
        on_event(Event::Started {
            unit,
            label: &problem.name,
        });
        let (program, language) = solution_program(config, problem, solution)?;
        let limits = problem.limits(language.map_or(1.0, |l| l.time_multiplier));
        let settings = JudgeSettings {
            limits,
            checker: &problem.checker,
            jobs,
            interactor: plan.interactor.as_deref(),
            communication: None,
            two_steps: false,
            files: &problem.files,
            scoring: plan.scoring.as_deref(),
            beside: &[],
        };
        let outcomes = judge::judge_cases(&program, &plan.cases, &settings, &mut |outcome| {
            on_event(Event::CaseFinished { unit, outcome });
        });
        let score = plan
            .scoring
            .as_deref()
            .map(|scoring| super::scoring::score_submission(scoring, &outcomes));
        let report = SubmissionReport {
            problem: problem.name.clone(),
            title: problem.title.clone(),
            source: solution.clone(),
            language: language.cloned(),
            limits,
            compile: CompileOutcome {
                ok: true,
                message: String::new(),
            },
            verdict: judge::overall_verdict(&outcomes),
            planned_cases: plan.cases.len(),
            outcomes,
            elapsed: started.elapsed(),
            jobs,
            score,
        };
        on_event(Event::UnitFinished {
            unit,
            result: Finished::Judged(&report),
        });
        reports.push(report);
    }
    Ok(reports)
}
