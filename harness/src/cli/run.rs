//! `harness run`: build, then judge every selected problem's solution on its cases.

use std::io::Write;

use anyhow::Result;
use clap::Args;

use harness::exit;
use harness::report::human::{self, Detail, HumanOptions};
use harness::report::json;
use harness::suite::{self, Selection};
use harness::verdict::Verdict;

use super::{build_first, load_config, Format, GlobalArgs};

#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct RunArgs {
    /// Judge only this problem (repeat for several).
    #[arg(short, long = "problem", value_name = "PROBLEM")]
    pub problems: Vec<String>,
    /// Judge only the cases whose name matches (a name or a glob such as `all-0*`).
    #[arg(short, long, value_name = "NAME|GLOB")]
    pub case: Option<String>,
    /// Show every case, not only the failures.
    #[arg(short, long)]
    pub all: bool,
    /// Only failures and the final summary.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Every case, with the tail of its stderr.
    #[arg(short, long)]
    pub verbose: bool,
    /// Skip judge.toml's build command (the binaries are already built).
    #[arg(long)]
    pub no_build: bool,
    /// Judge even cases whose input the problem's validator rejects.
    #[arg(long)]
    pub no_validate: bool,
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Cases to run at once.
    #[arg(short, long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
}

impl RunArgs {
    /// The options as parsed from an empty command line: what "no option given" looks like.
    pub fn from_nothing() -> RunArgs {
        use clap::FromArgMatches;
        let command = <RunArgs as Args>::augment_args(clap::Command::new("run"));
        let matches = command.get_matches_from(["run"]);
        RunArgs::from_arg_matches(&matches).expect("empty arguments always parse")
    }
}

pub fn run(global: &GlobalArgs, args: &RunArgs) -> Result<i32> {
    let config = load_config(global)?;
    let selection = Selection {
        problems: args.problems.clone(),
        case_pattern: args.case.clone(),
    };
    let planned = suite::plan(&config, &selection)?;
    build_first(&config, args.no_build)?;
    if !args.no_validate {
        if let Some(code) = super::validate::refuse_invalid(&config, &planned)? {
            return Ok(code);
        }
    }
    let report = suite::run(&planned, args.jobs.max(1), &mut |_| {})?;
    let mut stdout = anstream::stdout().lock();
    if args.format == Format::Json {
        json::write(&mut stdout, &json::SuiteJson::from(&report))?;
        stdout.flush()?;
        return Ok(exit_code(report.outcomes().map(|o| o.verdict)));
    }
    let options = HumanOptions {
        detail: if args.quiet {
            Detail::Quiet
        } else if args.verbose || args.all {
            Detail::Verbose
        } else {
            Detail::Normal
        },
        ..HumanOptions::default()
    };
    human::write_suite(&mut stdout, &report, &options)?;
    stdout.flush()?;
    Ok(exit_code(report.outcomes().map(|o| o.verdict)))
}

/// 0 when everything is AC; a judge error outranks a contestant's failure, since it means the
/// verdicts cannot be trusted.
pub fn exit_code(verdicts: impl Iterator<Item = Verdict>) -> i32 {
    let mut code = exit::OK;
    for verdict in verdicts {
        match verdict {
            Verdict::Accepted => {}
            Verdict::JudgeError => return exit::JUDGE_ERROR,
            _ => code = exit::FAILED,
        }
    }
    code
}
