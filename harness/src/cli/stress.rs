//! `harness stress`: judge a submission on random inputs until one fails, shrink it, and
//! show the small failing input with the expected and received outputs.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use super::args::{Format, LimitArgs};
use super::GlobalArgs;
use crate::session::{Output, StressRequest};
use crate::units;

#[derive(Args, Debug, Clone)]
#[command(
    override_usage = "harness stress [OPTIONS] PROBLEM SUBMISSION\n       harness stress [OPTIONS] SUBMISSION --gen GEN [--brute BRUTE]"
)]
pub struct StressArgs {
    /// The problem whose stress generator makes the inputs; or, alone, the submission to
    /// stress with --gen and --brute (no judge.toml needed).
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// The submission: a source file in any language of judge.toml.
    #[arg(value_name = "SUBMISSION")]
    pub submission: Option<PathBuf>,
    /// The generator: a source file, an executable or a command line; it gets the seed as
    /// its last argument (or where it says `{seed}`) and prints one input.
    #[arg(long, value_name = "GEN")]
    pub gen: Option<String>,
    /// The brute-force reference that answers each input (a source file, an executable or a
    /// command line). Not needed when the checker is a program that judges an output alone.
    #[arg(long, value_name = "BRUTE")]
    pub brute: Option<String>,
    /// A validator that rejects inputs the statement does not allow (exit non-zero), so that
    /// shrinking keeps to valid inputs.
    #[arg(long, value_name = "VALIDATOR")]
    pub validator: Option<String>,
    /// The language, when the file's extension does not tell.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// The first seed (then seed + 1, …); default: a random one, printed.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Inputs to try (default: 1000, or no limit with --time).
    #[arg(short = 'n', long, value_name = "N")]
    pub iterations: Option<u64>,
    /// Stop looking after this long (`30s`, `2m`).
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    pub time: Option<Duration>,
    /// Inputs judged at once, each worker on its own seeds (default: the number of cores).
    #[arg(short, long, value_name = "N", value_parser = super::args::parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Report the failing input as found, without shrinking it.
    #[arg(long)]
    pub no_shrink: bool,
    /// Stop shrinking after this long (default: 60s), reporting the smallest failing input so
    /// far; it and the first are kept in files.
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    pub shrink_time: Option<Duration>,
    /// Stop shrinking after this many candidates run (default: 5000), as --shrink-time does.
    #[arg(long, value_name = "N")]
    pub shrink_candidates: Option<usize>,
    /// Run the brute force on every input, repeats included (by default an input seen
    /// before in the run gets the brute force's first answer; the submission runs on every
    /// input either way).
    #[arg(long)]
    pub no_memo: bool,
    /// Store the minimal failing input (answered by the reference) as a new case NAME
    /// (default: the first free `added-N`); never overwrites.
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    pub save: Option<String>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Skip judge.toml's build command (generator, reference and shrinker are built).
    #[arg(long)]
    pub no_build: bool,
    /// Once an input fails, run it again (only it) with the submission built with sanitizers
    /// (C, C++) or runtime checks (Rust), whose report names the line.
    #[arg(long)]
    pub sanitize: bool,
}

pub fn stress(global: &GlobalArgs, args: &StressArgs) -> Result<i32> {
    let request = StressRequest {
        problem: args.problem.clone(),
        submission: args.submission.clone(),
        gen: args.gen.clone(),
        brute: args.brute.clone(),
        validator: args.validator.clone(),
        lang: args.lang.clone(),
        seed: args.seed,
        iterations: args.iterations,
        time: args.time,
        jobs: args.jobs,
        limits: (&args.limits).into(),
        no_shrink: args.no_shrink,
        shrink_time: args.shrink_time,
        shrink_candidates: args.shrink_candidates,
        no_memo: args.no_memo,
        save: args.save.clone(),
        no_build: args.no_build,
        sanitize: args.sanitize,
    };
    global
        .session()
        .stress(&request, &Output::format(args.format.into()))
}
