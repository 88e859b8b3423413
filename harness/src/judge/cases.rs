//! Which kind of case it is (plain, interactive, multi-pass), and a list of cases judged by
//! a pool of workers, stopping as asked; each outcome scored as soon as it is checked.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::case::discover::Case;
use crate::check::Checker;
use crate::compile::Program;
use crate::results::case::CaseOutcome;

#[cfg(unix)]
use super::interactive;
use super::multipass;
use super::plain::{run_and_check, with_input, JudgeSettings};
use super::run_twice;
use super::scoring;

/// Whether judging goes on after a case fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stop {
    /// Judge every case (the counts of each verdict are wanted).
    #[default]
    Never,
    /// Stop at the first case, in case order, that is not AC: all an expected-verdict check
    /// needs, and it spares running hundreds of cases into a time limit.
    AfterFirstFailure,
    /// Judge only what can still change the result. In a scored problem, skip the cases the
    /// score no longer needs: those of a group that stopped at its first failure
    /// (all-or-nothing subtasks, Kattis' `on_reject: break`) or whose dependency failed.
    /// Without scoring rules the verdict is the first failing case's, in case order, so it is
    /// settled there: the same as [`Stop::AfterFirstFailure`].
    Unneeded,
}

/// Judges `program` on every case; outcomes come back in case order, and each is handed to
/// `on_case` on the calling thread as it finishes (in completion order).
pub fn judge_cases(
    program: &Program,
    cases: &[Case],
    settings: &JudgeSettings<'_>,
    on_case: &mut dyn FnMut(&CaseOutcome),
) -> Vec<CaseOutcome> {
    judge_cases_with(program, cases, settings, Stop::Never, on_case)
}

/// Judges `program` on the cases, stopping as `stop` says. Outcomes come back in case order;
/// with [`Stop::AfterFirstFailure`] they are the cases up to and including the first failing
/// one in case order, whatever the number of jobs: a case that finished after a later one
/// failed still counts, and cases past the first failure are dropped even if they ran.
pub fn judge_cases_with(
    program: &Program,
    cases: &[Case],
    settings: &JudgeSettings<'_>,
    stop: Stop,
    on_case: &mut dyn FnMut(&CaseOutcome),
) -> Vec<CaseOutcome> {
    let stop = match stop {
        Stop::Unneeded if settings.scoring.is_none() => Stop::AfterFirstFailure,
        stop => stop,
    };
    let jobs = settings.jobs.clamp(1, cases.len().max(1));
    let mut outcomes: Vec<Option<CaseOutcome>> = vec![None; cases.len()];
    // The lowest failing index seen so far; cases are handed out in increasing order, so
    // every case below it has already been started and will be waited for.
    let first_failure = AtomicUsize::new(usize::MAX);
    // With `Stop::Unneeded`, the outcomes known so far, from which the scoring tells whether
    // a case is still needed.
    let known = std::sync::Mutex::new(crate::score::Outcomes::new());
    let scoring = settings.scoring.filter(|_| stop == Stop::Unneeded);
    let needed = |case: &Case| match scoring {
        Some(scoring) => scoring.needs(
            &case.name,
            &known
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        ),
        None => true,
    };
    let record = |index: usize, outcome: &CaseOutcome| {
        if stop == Stop::AfterFirstFailure && !outcome.verdict.is_accepted() {
            first_failure.fetch_min(index, Ordering::Relaxed);
        }
        if scoring.is_some() {
            known
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(outcome.case.clone(), scoring::model(outcome));
        }
    };
    // Judges and scores the case at `index` and records it, if it is still needed.
    let run = |index: usize, case: &Case| {
        if !needed(case) {
            return None;
        }
        let mut outcome = judge_case(program, case, settings);
        scoring::score_case(&mut outcome, settings.scoring);
        record(index, &outcome);
        Some(outcome)
    };
    if jobs == 1 {
        for (index, case) in cases.iter().enumerate() {
            if crate::sandbox::interrupt::is_interrupted() {
                break;
            }
            let Some(outcome) = run(index, case) else {
                continue;
            };
            on_case(&outcome);
            outcomes[index] = Some(outcome);
            if first_failure.load(Ordering::Relaxed) != usize::MAX {
                break;
            }
        }
    } else {
        let next = AtomicUsize::new(0);
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                let sender = sender.clone();
                let (next, first_failure, run) = (&next, &first_failure, &run);
                let task = crate::sandbox::interrupt::current_task();
                scope.spawn(move || {
                    crate::sandbox::interrupt::in_task(task, || loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(index) else { break };
                        if index > first_failure.load(Ordering::Relaxed)
                            || crate::sandbox::interrupt::is_interrupted()
                        {
                            break;
                        }
                        let Some(outcome) = run(index, case) else {
                            continue;
                        };
                        if sender.send((index, outcome)).is_err() {
                            break;
                        }
                    });
                });
            }
            drop(sender);
            for (index, outcome) in receiver {
                on_case(&outcome);
                outcomes[index] = Some(outcome);
            }
        });
    }
    let keep = first_failure
        .into_inner()
        .saturating_add(1)
        .min(outcomes.len());
    outcomes.truncate(keep);
    outcomes.into_iter().flatten().collect()
}

/// Runs and checks one case; a failing one carries the head of its input for the report.
pub fn judge_case(program: &Program, case: &Case, settings: &JudgeSettings<'_>) -> CaseOutcome {
    #[cfg(unix)]
    if let Some(manager) = settings.communication {
        return with_input(
            super::communication::judge_case(program, case, settings, manager),
            case,
        );
    }
    #[cfg(unix)]
    if settings.two_steps {
        return with_input(super::two_steps::judge_case(program, case, settings), case);
    }
    #[cfg(unix)]
    if let Some(interactor) = settings.interactor {
        return with_input(
            interactive::judge_case(program, case, settings, interactor),
            case,
        );
    }
    if let Checker::Package(package) = settings.checker {
        if let Some(checker) = package.run_twice() {
            return with_input(
                run_twice::judge_case(program, case, settings, checker),
                case,
            );
        }
        if let Some((passes, validator)) = package.multi_pass() {
            let flags = package.flags_for(&case.input).to_vec();
            return with_input(
                multipass::judge_case(program, case, settings, passes, validator, &flags),
                case,
            );
        }
    }
    with_input(run_and_check(program, case, settings), case)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::plain::STANDARD_IO;
    use crate::results::case::overall_verdict;
    use crate::sandbox::run::Limits;
    use crate::verdict::Verdict;
    use std::time::Duration;

    /// Twenty cases judged with `cat`: the output is the input, so a case fails exactly when
    /// its answer differs from its input.
    fn cat_cases(failing: &[usize]) -> (tempfile::TempDir, Vec<Case>) {
        let dir = tempfile::tempdir().unwrap();
        let cases = (0..20)
            .map(|i| {
                let input = dir.path().join(format!("{i:02}.in"));
                let answer = dir.path().join(format!("{i:02}.ans"));
                std::fs::write(&input, format!("{i}\n")).unwrap();
                let expected = if failing.contains(&i) { i + 100 } else { i };
                std::fs::write(&answer, format!("{expected}\n")).unwrap();
                Case {
                    name: format!("{i:02}"),
                    input,
                    answer,
                    args: Vec::new(),
                }
            })
            .collect();
        (dir, cases)
    }

    fn judge_with(cases: &[Case], jobs: usize, stop: Stop) -> Vec<CaseOutcome> {
        let settings = JudgeSettings {
            limits: Limits {
                cpu_time: Duration::from_secs(5),
                wall_time: Duration::from_secs(30),
                memory_bytes: 256 << 20,
                output_bytes: 1 << 20,
            },
            checker: &Checker::Tokens,
            jobs,
            interactor: None,
            communication: None,
            two_steps: false,
            files: &STANDARD_IO,
            scoring: None,
            beside: &[],
        };
        judge_cases_with(&Program::new("cat"), cases, &settings, stop, &mut |_| {})
    }

    #[test]
    fn stopping_keeps_the_cases_up_to_the_first_failure_in_case_order() {
        let (_dir, cases) = cat_cases(&[7, 3, 13]);
        for jobs in [1, 4] {
            let outcomes = judge_with(&cases, jobs, Stop::AfterFirstFailure);
            let names: Vec<&str> = outcomes.iter().map(|o| o.case.as_str()).collect();
            assert_eq!(names, ["00", "01", "02", "03"], "jobs {jobs}");
            assert_eq!(overall_verdict(&outcomes), Verdict::WrongAnswer);
            assert!(outcomes[..3].iter().all(|o| o.verdict.is_accepted()));
        }
    }

    #[test]
    fn without_a_failure_or_without_stopping_every_case_is_judged() {
        let (_dir, cases) = cat_cases(&[]);
        for jobs in [1, 3] {
            let outcomes = judge_with(&cases, jobs, Stop::AfterFirstFailure);
            assert_eq!(outcomes.len(), 20);
            assert_eq!(overall_verdict(&outcomes), Verdict::Accepted);
        }
        let (_dir, cases) = cat_cases(&[0, 19]);
        let outcomes = judge_with(&cases, 2, Stop::Never);
        assert_eq!(outcomes.len(), 20);
        assert_eq!(outcomes[0].verdict, Verdict::WrongAnswer);
        assert_eq!(outcomes[19].verdict, Verdict::WrongAnswer);
    }
}
