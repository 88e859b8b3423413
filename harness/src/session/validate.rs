//! `harness validate`: every case's input checked against its problem's statement by the
//! validator, interactive samples replayed against the interactor; or a package's cases by
//! its input validators.

use std::io::Write;

use anyhow::Result;

use super::prepare::{build_first, compile_sources, warn_if_oversubscribed};
use super::{packages, Session};
use crate::author::program::Part;
use crate::author::validate::{self, Validator};
use crate::case::discover;
use crate::config::Problem;
use crate::exit;
use crate::report::author as author_report;

/// What `harness validate` is asked to check.
#[derive(Debug, Clone, Default)]
pub struct ValidateRequest {
    /// Only this problem, or a package folder; by default every problem.
    pub problem: Option<String>,
    pub no_build: bool,
    /// Validators run at once; the cores by default.
    pub jobs: Option<usize>,
}

impl Session {
    /// Checks the inputs (and replays the interactive samples); the exit code fails when one
    /// is invalid.
    pub fn validate(&self, request: &ValidateRequest) -> Result<i32> {
        if let Some(dirs) = packages::package_dirs(request.problem.as_slice())? {
            return self.validate_packages(&dirs);
        }
        if let Some(dirs) = self.named_packages(request.problem.as_slice())? {
            return self.validate_packages(&dirs);
        }
        let names: Vec<&str> = request.problem.iter().map(String::as_str).collect();
        let config = self.load_config(&names)?;
        let problems: Vec<&Problem> = match &request.problem {
            Some(name) => vec![config.require_problem(name)?],
            None => config.problems.iter().collect(),
        };
        let cases = problems
            .iter()
            .map(|problem| discover::discover(&problem.cases))
            .collect::<Result<Vec<_>, _>>()?;
        build_first(&config, request.no_build)?;
        let names: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let config = compile_sources(config, &names, &[Part::Validator])?;
        let problems: Vec<&Problem> = names
            .iter()
            .map(|name| config.require_problem(name))
            .collect::<Result<_, _>>()?;
        let jobs = request.jobs.unwrap_or_else(validate::default_jobs).max(1);
        warn_if_oversubscribed(jobs);

        let mut stdout = anstream::stdout().lock();
        let mut invalid_total = 0;
        for (problem, cases) in problems.iter().zip(&cases) {
            let Some(validator) = Validator::for_problem(&config, problem) else {
                author_report::write_no_validator(&mut stdout, &problem.name)?;
                continue;
            };
            let invalid = validator.check_cases(cases, jobs)?;
            author_report::write_validated(&mut stdout, &problem.name, &invalid, cases.len())?;
            invalid_total += invalid.len();
        }
        // The `.interaction` samples of interactive problems, replayed against their interactor.
        for (problem, cases) in problems.iter().zip(&cases) {
            let Some(interactor) = crate::judge::interactive::prepare(&config, problem)? else {
                continue;
            };
            let (replayed, mismatches) = replay_samples(&interactor, problem, cases)?;
            if replayed > 0 {
                author_report::write_interactions(
                    &mut stdout,
                    &problem.name,
                    &mismatches,
                    replayed,
                )?;
                invalid_total += mismatches.len();
            }
        }
        stdout.flush()?;
        Ok(if invalid_total == 0 {
            exit::OK
        } else {
            exit::FAILED
        })
    }

    /// `harness validate PKG_DIR`: the package's input validators on each of its cases.
    fn validate_packages(&self, dirs: &[std::path::PathBuf]) -> Result<i32> {
        use crate::package::validate::{self as package_validate, CheckOutcome, Judgement};
        use crate::report::package as package_report;
        let languages = self.languages();
        let mut stdout = anstream::stdout().lock();
        let (mut bad, mut failed) = (0, 0);
        for dir in dirs {
            let package = crate::package::open(dir)?;
            packages::warn_unsandboxed(&package, true);
            let loaded = crate::package::load(package, languages.clone(), None)?;
            let validators = package_validate::build_all(&loaded);
            let results = package_validate::validate(&loaded, &validators);
            package_report::write_validation(&mut stdout, &loaded, &validators, &results)?;
            let checks = package_validate::check_data(&loaded, &validators);
            package_report::write_data_checks(&mut stdout, &loaded, &checks)?;
            // Each case and check: invalid or failed (a count of each), broken, or as it should be.
            let judged = results.iter().map(|r| match r.judgement {
                Judgement::Invalid(_) => (1, 0),
                Judgement::Failed(_) => (0, 1),
                Judgement::Valid => (0, 0),
            });
            let checked = checks.iter().map(|r| match r.outcome {
                CheckOutcome::Failed(_) => (1, 0),
                CheckOutcome::Broken(_) => (0, 1),
                CheckOutcome::Passed | CheckOutcome::Skipped(_) => (0, 0),
            });
            for (invalid, broken) in judged.chain(checked) {
                (bad, failed) = (bad + invalid, failed + broken);
            }
        }
        stdout.flush()?;
        Ok(if failed > 0 {
            exit::JUDGE_ERROR
        } else if bad > 0 {
            exit::FAILED
        } else {
            exit::OK
        })
    }
}

/// Replays each case's `.interaction` sample against the interactor: how many were
/// replayed, and the mismatches.
fn replay_samples(
    interactor: &crate::check::interactor::ReadyInteractor,
    problem: &Problem,
    cases: &[discover::Case],
) -> Result<(usize, Vec<crate::check::interactor::SampleMismatch>)> {
    let mut replayed = 0;
    let mut mismatches = Vec::new();
    for case in cases {
        let interaction = case.input.with_extension("interaction");
        if !interaction.is_file() {
            continue;
        }
        replayed += 1;
        let files = crate::check::CaseFiles {
            input: &case.input,
            answer: &case.answer,
        };
        let replay = crate::check::interactor::replay_sample(
            interactor,
            &files,
            &interaction,
            problem.wall_limit,
        );
        if let Some(mismatch) = replay.map_err(anyhow::Error::msg)? {
            mismatches.push(mismatch);
        }
    }
    Ok((replayed, mismatches))
}
