//! The option groups several commands share, each defined once and flattened into them: the
//! options every command takes (`--config`, `--color`) and how results are shown. The limits
//! laid over a problem's are `config::LimitOverrides` itself.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::report::human::Detail;
use crate::session::{self, Session};
pub use crate::session::{parse_jobs, Format};

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
            format: args.format,
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
