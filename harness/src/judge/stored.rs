//! A loaded package's stored submissions as `verify` plans them (each with its language, or
//! skipped with why), and the time limit computed from the accepted ones when the package
//! gives none.

use std::time::Duration;

use super::cases::Stop;
use super::submission::{self, Options, Plan};
use super::verify::Stored;
use crate::compile::submit::SubmitError;
use crate::package::expected::{Expected, Skipped};
use crate::package::limits::{LimitOrigin, TimeLimit};
use crate::package::{languages, Loaded};

/// The package's submissions ready to judge, named `<package>/<folder>/<file>`, and those
/// that cannot be judged here.
pub fn plan(loaded: &Loaded) -> (Vec<Stored<'_>>, Vec<Skipped>) {
    let problem = loaded.problem();
    let name = &loaded.package.name;
    let mut stored = Vec::new();
    let mut skipped: Vec<Skipped> = loaded
        .package
        .skipped
        .iter()
        .map(|s| Skipped {
            name: format!("{name}/{}", s.name),
            reason: s.reason.clone(),
        })
        .collect();
    let communication = super::communication::of_package(problem);
    for submission in &loaded.package.submissions {
        let full = format!("{name}/{}", submission.name);
        let partial = submission.name.starts_with("partially_accepted/");
        let language =
            languages::language_of(&loaded.config.languages, &submission.path).and_then(|l| {
                languages::available(l)
                    .map(|()| l)
                    .map_err(|why| format!("{}: {why}", l.name))
            });
        match language {
            Ok(language) => stored.push(Stored {
                name: full,
                // Scored, a partial submission is checked by its score, whatever its verdict
                // (unless submissions.yaml says which: its rules stay, and their `score`s).
                expected: match &submission.expected {
                    _ if !partial || problem.package_scoring.is_none() => {
                        submission.expected.clone()
                    }
                    Expected::Rules { rules, label } => Expected::Rules {
                        rules: rules.clone(),
                        label: match label.strip_prefix("any") {
                            Some(rest) => format!("partial{rest}"),
                            None => format!("partial, {label}"),
                        },
                    },
                    _ => crate::package::expected::partially_accepted(),
                },
                plan: Plan {
                    problem,
                    language,
                    source: submission.path.clone(),
                    cases: loaded.package.cases.clone(),
                    interactor: loaded.interactor.clone(),
                    communication: communication.clone(),
                    scoring: problem.package_scoring.clone(),
                    unscored: None,
                },
                expected_score: submission.expected_score,
                partial,
            }),
            Err(reason) => skipped.push(Skipped { name: full, reason }),
        }
    }
    (stored, skipped)
}

/// Judges the accepted submissions under the placeholder limit and computes the time limit
/// from the slowest, as problemtools does. `None` when the package gives its limit.
pub fn compute_time_limit(
    loaded: &Loaded,
    jobs: usize,
    on_case: &mut dyn FnMut(),
) -> Result<Option<(Duration, LimitOrigin)>, SubmitError> {
    let TimeLimit::Computed {
        multiplier,
        resolution,
    } = loaded.package.time_limit
    else {
        return Ok(None);
    };
    let (stored, _) = plan(loaded);
    let options = Options {
        jobs: jobs.max(1),
        stop: Stop::AfterFirstFailure,
    };
    let mut slowest: Option<(Duration, String, bool)> = None;
    for entry in stored.iter().filter(|s| bounds_from_below(loaded, s)) {
        let report = submission::judge(&entry.plan, &options, &mut |_| on_case())?;
        // An accepted one counts when it is accepted; one expected to fail otherwise (2025-09
        // `wrong_answer`, `run_time_error`) when it did not time out.
        let accepted = entry.expected == Expected::One(crate::verdict::Verdict::Accepted);
        let counts = if accepted {
            report.verdict.is_accepted()
        } else {
            report.compile.ok
                && !matches!(
                    report.verdict,
                    crate::verdict::Verdict::TimeLimitExceeded
                        | crate::verdict::Verdict::JudgeError
                )
        };
        if !counts {
            continue;
        }
        // Only the cases its rules bound the limit by (all, unless submissions.yaml says).
        let cases = lower_bound_cases(loaded, entry);
        let slowest_case = report
            .outcomes
            .iter()
            .filter(|o| cases.is_empty() || cases.iter().any(|g| g.matches(&o.case)))
            .map(|o| o.cpu_time)
            .max()
            .unwrap_or_default();
        // An interpreter's time counts as the language's multiplier says.
        let time = slowest_case.div_f64(entry.plan.language.time_multiplier);
        if slowest.as_ref().is_none_or(|(t, _, _)| time > *t) {
            slowest = Some((time, entry.name.clone(), accepted));
        }
    }
    Ok(Some(match slowest {
        Some((time, name, accepted)) => (
            TimeLimit::compute(multiplier, resolution, time),
            LimitOrigin::Computed {
                slowest: time,
                slowest_name: name,
                slowest_accepted: accepted,
                multiplier,
                resolution,
            },
        ),
        None => (
            crate::package::limits::UNKNOWN_TIME_LIMIT,
            LimitOrigin::Given(
                "no accepted submission passing to compute it from: problemtools' placeholder",
            ),
        ),
    }))
}

/// What the package says of the stored submission `entry` (its name is the package's, then
/// the path under submissions/).
fn declared<'l>(
    loaded: &'l Loaded,
    entry: &Stored<'_>,
) -> Option<&'l crate::package::PackageSubmission> {
    let prefix = format!("{}/", loaded.package.name);
    let name = entry.name.strip_prefix(&prefix).unwrap_or(&entry.name);
    loaded.package.submissions.iter().find(|s| s.name == name)
}

/// The cases of `entry` that bound the time limit (empty: all of them).
fn lower_bound_cases(
    loaded: &Loaded,
    entry: &Stored<'_>,
) -> Vec<crate::package::expectations::Glob> {
    declared(loaded, entry)
        .map(|s| s.lower_bound_cases.clone())
        .unwrap_or_default()
}

/// Whether the stored submission `entry` bounds the time limit from below: the accepted ones
/// (problemtools), and in 2025-09 every one not permitted to time out, as submissions.yaml's
/// `use_for_time_limit` leaves it.
fn bounds_from_below(loaded: &Loaded, entry: &Stored<'_>) -> bool {
    declared(loaded, entry)
        .is_some_and(|s| s.for_time_limit == crate::package::expectations::TimeLimitUse::Lower)
}

/// The cases count `compute_time_limit` will run, for a progress bar.
pub fn accepted_runs(loaded: &Loaded) -> usize {
    if loaded.package.time_limit.fixed().is_some() {
        return 0;
    }
    let (stored, _) = plan(loaded);
    stored
        .iter()
        .filter(|s| bounds_from_below(loaded, s))
        .map(|s| s.plan.cases.len())
        .sum()
}
