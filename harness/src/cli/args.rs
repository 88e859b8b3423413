//! The option groups several commands share, each defined once and flattened into them: the
//! options every command takes (`--config`, `--color`), the limits laid over a problem's, and
//! how results are shown.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::check::Checker;
use crate::config::standalone;
use crate::report::human::Detail;
use crate::session::{self, LimitOverrides, Session};
use crate::units;

/// `--interactor-protocol`: how the interactor of `--interactor` is called.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum InteractorProtocolArg {
    /// `interactor INPUT OUTPUT ANSWER`, exit 0 accepts (Codeforces, Polygon).
    #[default]
    Testlib,
    /// `interactor INPUT ANSWER FEEDBACK_DIR`, exit 42 accepts (Kattis, ICPC).
    Kattis,
}

impl From<InteractorProtocolArg> for crate::verdict::InteractorProtocol {
    fn from(protocol: InteractorProtocolArg) -> Self {
        match protocol {
            InteractorProtocolArg::Testlib => crate::verdict::InteractorProtocol::Testlib,
            InteractorProtocolArg::Kattis => crate::verdict::InteractorProtocol::Kattis,
        }
    }
}

/// `-j N`: at least one; `-j 0` would judge nothing, silently.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err(
            "must be at least 1 (hint: -j 1 runs one at a time; leave -j out for the default)"
                .to_string(),
        ),
        Ok(jobs) => Ok(jobs),
        Err(_) => Err(format!(
            "`{text}` is not a number of jobs (hint: a whole number such as 4)"
        )),
    }
}

/// The limits of the command line, over the problem's (`judge`, `stress`).
#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// The CPU time limit (default: the problem's; without judge.toml, 2s).
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    pub time_limit: Option<Duration>,
    /// The memory limit (default: the problem's; without judge.toml, 256MiB).
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    pub memory_limit: Option<u64>,
    /// How outputs are compared: tokens, tokens-ignore-case, lines, exact, float,
    /// unordered-blocks, or a checker program (`./checker`, run as `checker IN OUT ANS`).
    #[arg(long, value_name = "CHECKER", value_parser = standalone::parse_checker)]
    pub checker: Option<Checker>,
}

impl From<&LimitArgs> for LimitOverrides {
    fn from(args: &LimitArgs) -> Self {
        LimitOverrides {
            time_limit: args.time_limit,
            memory_limit: args.memory_limit,
            checker: args.checker.clone(),
        }
    }
}

/// How results are printed on stdout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// For people: verdict lines, diffs and summaries.
    #[default]
    Human,
    /// One JSON document and nothing else, for scripts and editors.
    Json,
}

impl From<Format> for session::Format {
    fn from(format: Format) -> Self {
        match format {
            Format::Human => session::Format::Human,
            Format::Json => session::Format::Json,
        }
    }
}

/// How the results of a command that judges cases are shown (`run`, `judge`, `verify`).
#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct OutputArgs {
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Also write the results as JUnit XML to FILE, for CI systems (rewritten on each run; a
    /// file that is not an earlier report is never written over without --force).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    #[command(flatten)]
    pub html: HtmlArgs,
    /// Only the failures and the summary.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Every case (not only the failing ones), with the tail of its stderr and the compiler's
    /// warnings; `-a`/`--all` is the same. `judge` then runs every case, also those past the
    /// first failure, which settles a pass-fail verdict.
    #[arg(
        short,
        long,
        visible_short_alias = 'a',
        visible_alias = "all",
        overrides_with = "verbose"
    )]
    pub verbose: bool,
}

impl From<&OutputArgs> for session::Output {
    fn from(args: &OutputArgs) -> Self {
        session::Output {
            format: args.format.into(),
            junit: args.junit.clone(),
            html: args.html.html.clone(),
            force: args.html.force,
            detail: if args.quiet {
                Detail::Quiet
            } else if args.verbose {
                Detail::Verbose
            } else {
                Detail::Normal
            },
            sink: None,
        }
    }
}

/// The HTML report (`run`, `judge`, `verify`, `calibrate`).
#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct HtmlArgs {
    /// Also write the results as one self-contained HTML page to FILE (rewritten on each run;
    /// a file that is not an earlier report is never written over without --force).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// With --html or --junit: write over FILE even when it is not a report harness wrote (a
    /// link, a device or a FIFO never).
    #[arg(long)]
    pub force: bool,
}

/// Options every command takes.
#[derive(Args, Debug, Clone)]
pub(crate) struct GlobalArgs {
    /// judge.toml to use (default: found by walking up from the current folder).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// When to color the output (auto: on a terminal, unless NO_COLOR is set).
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

impl GlobalArgs {
    /// The library's session: where judge.toml is.
    pub(super) fn session(&self) -> Session {
        Session::new(self.config.clone())
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorWhen {
    Auto,
    Always,
    Never,
}
