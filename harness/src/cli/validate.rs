//! `harness validate`: check every case's input against its problem's statement; also the
//! check `harness run` makes before judging.

use std::io::Write;

use anyhow::Result;
use clap::Args;

use crate::author::validate::{self, Validator};
use crate::case::discover;
use crate::config::{Config, Problem};
use crate::exit;
use crate::judge::suite::Planned;
use crate::report::author as author_report;

use super::{build_first, compile_sources, load_config, GlobalArgs};
use crate::author::program::Part;

#[derive(Args, Debug, Clone)]
pub struct ValidateArgs {
    /// Validate only this problem's cases (default: every problem's); or a problem package
    /// folder, whose input validators check its cases.
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problem: Option<String>,
    /// Skip judge.toml's build command (the validators are already built).
    #[arg(long)]
    pub no_build: bool,
    /// Validators to run at once (default: the number of cores).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
}

pub fn validate(global: &GlobalArgs, args: &ValidateArgs) -> Result<i32> {
    if let Some(dirs) = super::package::package_dirs(args.problem.as_slice())? {
        return validate_packages(global, &dirs);
    }
    if let Some(dirs) = super::named_packages(global, args.problem.as_slice())? {
        return validate_packages(global, &dirs);
    }
    let config = load_config(global)?;
    let problems: Vec<&Problem> = match &args.problem {
        Some(name) => vec![config.require_problem(name)?],
        None => config.problems.iter().collect(),
    };
    let cases = problems
        .iter()
        .map(|problem| discover::discover(&problem.cases))
        .collect::<Result<Vec<_>, _>>()?;
    build_first(&config, args.no_build)?;
    let names: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let config = compile_sources(config, &names, &[Part::Validator])?;
    let problems: Vec<&Problem> = names
        .iter()
        .map(|name| config.require_problem(name))
        .collect::<Result<_, _>>()?;
    let jobs = args.jobs.unwrap_or_else(validate::default_jobs).max(1);
    super::warn_if_oversubscribed(jobs);

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
        let mut replayed = 0;
        let mut mismatches = Vec::new();
        for case in cases {
            let interaction = case.input.with_extension("interaction");
            if !interaction.is_file() {
                continue;
            }
            replayed += 1;
            let replay = crate::judge::interactive::replay_sample(
                &interactor,
                case,
                &interaction,
                problem.wall_limit,
            );
            if let Some(mismatch) = replay.map_err(anyhow::Error::msg)? {
                mismatches.push(mismatch);
            }
        }
        if replayed > 0 {
            author_report::write_interactions(&mut stdout, &problem.name, &mismatches, replayed)?;
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

/// `harness run`'s check before judging: `Some(exit code)` when a planned case is invalid,
/// after listing every invalid one on stderr.
pub fn refuse_invalid(config: &Config, planned: &[Planned<'_>]) -> Result<Option<i32>> {
    let mut invalid = Vec::new();
    for plan in planned {
        if let Some(validator) = Validator::for_problem(config, plan.problem) {
            invalid.extend(validator.check_cases(&plan.cases, validate::default_jobs())?);
        }
    }
    if invalid.is_empty() {
        return Ok(None);
    }
    let mut stderr = anstream::stderr().lock();
    author_report::write_invalid(&mut stderr, &invalid)?;
    author_report::write_nothing_judged(&mut stderr, invalid.len())?;
    Ok(Some(exit::FAILED))
}

/// `harness validate PKG_DIR`: the package's input validators on each of its cases.
fn validate_packages(global: &GlobalArgs, dirs: &[std::path::PathBuf]) -> Result<i32> {
    use crate::package::validate::{self as package_validate, Judgement};
    use crate::report::package as package_report;
    let languages = super::package::languages(global);
    let mut stdout = anstream::stdout().lock();
    let (mut bad, mut failed) = (0, 0);
    for dir in dirs {
        let package = crate::package::open(dir)?;
        super::package::warn_unsandboxed(&package, true);
        let loaded = crate::package::load(package, languages.clone(), None)?;
        let validators = package_validate::build_all(&loaded);
        let results = if validators.built.is_empty() {
            Vec::new()
        } else {
            package_validate::validate(&loaded, &validators, &mut |_| {})
        };
        bad += results
            .iter()
            .filter(|r| matches!(r.judgement, Judgement::Invalid(_)))
            .count();
        failed += results
            .iter()
            .filter(|r| matches!(r.judgement, Judgement::Failed(_)))
            .count();
        package_report::write_validation(&mut stdout, &loaded, &validators, &results)?;
        let checks = package_validate::check_data(&loaded, &validators, &mut |_| {});
        bad += checks
            .iter()
            .filter(|r| matches!(r.outcome, package_validate::CheckOutcome::Failed(_)))
            .count();
        failed += checks
            .iter()
            .filter(|r| matches!(r.outcome, package_validate::CheckOutcome::Broken(_)))
            .count();
        package_report::write_data_checks(&mut stdout, &loaded, &checks)?;
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
