//! `harness stress`: judge a submission on random inputs until one fails, shrink it, and
//! show the small failing input with the expected and received outputs.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, Result};
use clap::Args;

use crate::author::add::{self, NewCase};
use crate::author::stress::{self, StressEvent, StressOptions};
use crate::compile::submit::{self, Compiled};
use crate::config::units::{self};
use crate::exit;
use crate::report::json;
use crate::report::notice;
use crate::report::progress::Progress;
use crate::report::stress::{self as stress_report, StressJson, StressSummary};

use super::{build_first, load_config, Format, GlobalArgs};

/// Inputs tried when neither --iterations nor --time says otherwise.
const DEFAULT_ITERATIONS: u64 = 1000;
#[derive(Args, Debug, Clone)]
pub struct StressArgs {
    /// The problem whose stress generator makes the inputs.
    #[arg(value_name = "PROBLEM")]
    pub problem: String,
    /// The submission: a source file in any language of judge.toml.
    #[arg(value_name = "SUBMISSION")]
    pub submission: PathBuf,
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
    /// Report the failing input as found, without shrinking it.
    #[arg(long)]
    pub no_shrink: bool,
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
}

pub fn stress(global: &GlobalArgs, args: &StressArgs) -> Result<i32> {
    let config = load_config(global)?;
    let problem = config.require_problem(&args.problem)?;
    let language = submit::detect_language(&config, &args.submission, args.lang.as_deref())?;
    build_first(&config, args.no_build)?;
    let prepared = match submit::compile(language, &args.submission)? {
        Compiled::Ready(prepared) => prepared,
        Compiled::CompileError { language, message } => {
            let mut stdout = anstream::stdout().lock();
            if args.format == Format::Json {
                let document = stress_report::compile_error_json(
                    &args.problem,
                    &args.submission,
                    &language.name,
                    &message,
                );
                json::write(&mut stdout, &document)?;
            } else {
                stress_report::write_compile_error(
                    &mut stdout,
                    &args.submission,
                    &language.name,
                    &message,
                )?;
            }
            stdout.flush()?;
            return Ok(exit::FAILED);
        }
    };
    let first_seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        // Said at once, so that even an interrupted run can be repeated.
        let _ = notice::write_first_seed(&mut anstream::stderr(), seed);
        seed
    });
    let options = StressOptions {
        first_seed,
        iterations: match (args.iterations, args.time) {
            (None, None) => Some(DEFAULT_ITERATIONS),
            (iterations, _) => iterations,
        },
        time: args.time,
        shrink: !args.no_shrink,
    };

    let mut progress = Progress::stderr_counting(
        options
            .iterations
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        "inputs",
    );
    progress.set_label(&format!("stress {}", problem.name));
    let mut on_event = |event: StressEvent<'_>| match event {
        StressEvent::Judged { iteration, seed } => {
            progress.set_position(usize::try_from(iteration).unwrap_or(usize::MAX));
            progress.set_label(&format!("seed {seed}"));
        }
        StressEvent::Failed { seed, verdict } => {
            progress.add_failure();
            progress.set_label(&format!("{verdict} on seed {seed}, shrinking"));
        }
        StressEvent::ShrinkStep { step, failing } => progress.set_label(&format!(
            "shrinking: step {step}, {} {}",
            stress_report::one_line(&failing.input),
            failing.outcome.verdict
        )),
    };
    let report = stress::stress(
        &config,
        problem,
        &prepared.program,
        prepared.time_multiplier,
        &options,
        &mut on_event,
    );
    progress.finish();
    let report = report?;

    let saved = match (&report.found, &args.save) {
        (Some(found), Some(name)) => Some(add::add(
            &config,
            problem,
            &NewCase {
                name: Some(name.as_str()).filter(|n| !n.is_empty()),
                input: &found.minimal.input,
                ..NewCase::default()
            },
        )),
        _ => None,
    };
    let saved_case = saved.as_ref().and_then(|s| s.as_ref().ok());

    let summary = StressSummary {
        submission: &args.submission,
        language: &language.name,
        report: &report,
        saved: saved_case,
    };
    let mut stdout = anstream::stdout().lock();
    if args.format == Format::Json {
        json::write(&mut stdout, &StressJson::new(&summary))?;
    } else {
        stress_report::write_human(&mut stdout, &summary)?;
    }
    stdout.flush()?;
    if let Some(Err(error)) = saved {
        return Err(anyhow!(error).context("the failing input was not saved"));
    }
    Ok(exit::for_verdicts(
        report
            .found
            .iter()
            .map(|found| found.minimal.outcome.verdict),
    ))
}

/// Short enough to read back and type: seeds are printed for reproducing a run.
fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000
}
