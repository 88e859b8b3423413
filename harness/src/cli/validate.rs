//! `harness validate`: check every case's input against its problem's statement; also the
//! check `harness run` makes before judging.

use std::io::Write;

use anstyle::{AnsiColor, Style};
use anyhow::Result;
use clap::Args;

use harness::author::validate::{self, InvalidCase, Validator};
use harness::case::discover;
use harness::config::{Config, Problem};
use harness::exit;
use harness::judge::suite::Planned;

use super::{build_first, load_config, shown_path, GlobalArgs};

#[derive(Args, Debug, Clone)]
pub struct ValidateArgs {
    /// Validate only this problem's cases (default: every problem's).
    #[arg(value_name = "PROBLEM")]
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
