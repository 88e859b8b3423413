//! `harness validate`: check every case's input against its problem's statement; also the
//! check `harness run` makes before judging.

use std::io::Write;

use anstyle::{AnsiColor, Style};
use anyhow::Result;
use clap::Args;

use harness::config::{Config, Problem};
use harness::discover;
use harness::exit;
use harness::suite::Planned;
use harness::validate::{self, InvalidCase, Validator};

use super::{build_first, load_config, shown_path, GlobalArgs};

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

const BAD: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)))
    .bold();
const GOOD: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)))
    .bold();
const DIM: Style = Style::new().dimmed();

pub fn validate(global: &GlobalArgs, args: &ValidateArgs) -> Result<i32> {
    if let Some(dirs) = super::package::package_dirs(args.problem.as_slice())? {
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
    let jobs = args.jobs.unwrap_or_else(validate::default_jobs).max(1);

    let mut stdout = anstream::stdout().lock();
    let mut invalid_total = 0;
    for (problem, cases) in problems.iter().zip(&cases) {
        let Some(validator) = Validator::for_problem(&config, problem) else {
            writeln!(
                stdout,
                "{}: {DIM}no validator{DIM:#} (hint: set `validator` in [problems.{}])",
                problem.name, problem.name
            )?;
            continue;
        };
        let invalid = validator.check_cases(cases, jobs)?;
        write_invalid(&mut stdout, &invalid)?;
        invalid_total += invalid.len();
        if invalid.is_empty() {
            writeln!(
                stdout,
                "{}: {GOOD}{} inputs valid{GOOD:#}",
                problem.name,
                cases.len()
            )?;
        } else {
            writeln!(
                stdout,
                "{}: {BAD}{} of {} inputs invalid{BAD:#}",
                problem.name,
                invalid.len(),
                cases.len()
            )?;
        }
    }
    stdout.flush()?;
    Ok(if invalid_total == 0 {
        exit::OK
    } else {
        exit::FAILED
    })
}

fn write_invalid(out: &mut dyn Write, invalid: &[InvalidCase]) -> std::io::Result<()> {
    for case in invalid {
        writeln!(
            out,
            "  {BAD}INVALID{BAD:#}  {}: {}",
            shown_path(&case.input),
            case.reason
        )?;
    }
    Ok(())
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
    write_invalid(&mut stderr, &invalid)?;
    writeln!(
        stderr,
        "{BAD}error{BAD:#}: nothing was judged: {} {} the constraints (hint: fix {}, or pass --no-validate)",
        invalid.len(),
        if invalid.len() == 1 { "case breaks" } else { "cases break" },
        if invalid.len() == 1 { "it" } else { "them" },
    )?;
    Ok(Some(exit::FAILED))
}

/// `harness validate PKG_DIR`: the package's input validators on each of its cases.
fn validate_packages(global: &GlobalArgs, dirs: &[std::path::PathBuf]) -> Result<i32> {
    use harness::package::validate::{self as package_validate, Judgement};
    let languages = super::package::languages(global);
    let mut stdout = anstream::stdout().lock();
    let mut bad = 0;
    let mut failed = 0;
    for dir in dirs {
        let package = harness::package::open(dir)?;
        let loaded = harness::package::load(package, languages.clone(), None)?;
        let name = &loaded.package.name;
        let validators = package_validate::build_all(&loaded);
        for (source, why) in &validators.skipped {
            writeln!(stdout, "{name}: {DIM}skipped {}{DIM:#}: {why}", source.name)?;
        }
        if validators.built.is_empty() {
            writeln!(
                stdout,
                "{name}: {DIM}no input validator to run{DIM:#} (hint: the format keeps them in `input_validators/`)"
            )?;
            continue;
        }
        let results = package_validate::validate(&loaded, &validators, &mut |_| {});
        let mut valid = 0;
        for result in &results {
            match &result.judgement {
                Judgement::Valid => valid += 1,
                Judgement::Invalid(reason) => {
                    bad += 1;
                    writeln!(
                        stdout,
                        "{name}: {BAD}INVALID{BAD:#} {} by {}: {reason}",
                        result.case, result.validator
                    )?;
                }
                Judgement::Failed(reason) => {
                    failed += 1;
                    writeln!(
                        stdout,
                        "{name}: {BAD}validator failed{BAD:#} on {} ({}): {reason}",
                        result.case, result.validator
                    )?;
                }
            }
        }
        let names: Vec<&str> = validators
            .built
            .iter()
            .map(|(s, _)| s.name.as_str())
            .collect();
        let style = if valid == results.len() { GOOD } else { BAD };
        writeln!(
            stdout,
            "{name}: {style}{valid} of {} case checks valid{style:#} ({} cases × {})",
            results.len(),
            loaded.package.cases.len(),
            names.join(", ")
        )?;
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
