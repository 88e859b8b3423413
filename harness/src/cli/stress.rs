//! `harness stress`: judge a submission on random inputs until one fails, shrink it, and
//! show the small failing input with the expected and received outputs.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, Context, Result};
use clap::Args;

use crate::author::add::{self, NewCase};
use crate::author::program;
use crate::author::stress::{self, Setup, Shrinker, StressEvent, StressOptions};
use crate::author::tool as author_tool;
use crate::author::validate::{default_jobs, Validator};
use crate::check::Checker;
use crate::compile::submit::{self, Compiled};
use crate::config::units::{self};
use crate::config::{self, standalone};
use crate::exit;
use crate::report::json;
use crate::report::notice;
use crate::report::progress::Progress;
use crate::report::stress::{self as stress_report, StressJson, StressSummary};

use super::{build_first, compile_sources, load_config, load_config_to_judge, Format, GlobalArgs};
use crate::author::program::Part;

/// Inputs tried when neither --iterations nor --time says otherwise.
const DEFAULT_ITERATIONS: u64 = 1000;
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
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// The CPU time limit (default: the problem's; without judge.toml, 2s).
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    pub time_limit: Option<Duration>,
    /// The memory limit (default: the problem's; without judge.toml, 256MiB).
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    pub memory_limit: Option<u64>,
    /// How outputs are compared (as `harness judge --checker`).
    #[arg(long, value_name = "CHECKER", value_parser = standalone::parse_checker)]
    pub checker: Option<Checker>,
    /// Report the failing input as found, without shrinking it.
    #[arg(long)]
    pub no_shrink: bool,
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
}

pub fn stress(global: &GlobalArgs, args: &StressArgs) -> Result<i32> {
    let standalone = args.submission.is_none();
    let (config, problem, submission) = if standalone {
        let submission = PathBuf::from(&args.problem);
        if !submission.is_file() {
            anyhow::bail!(
                "submission `{}` does not exist (hint: `harness stress SOURCE --gen GEN --brute BRUTE`, or `harness stress PROBLEM SOURCE` for a problem of judge.toml)",
                submission.display()
            );
        }
        if args.gen.is_none() {
            anyhow::bail!("`harness stress SOURCE` needs --gen (hint: a generator that prints a random input for the seed it is given)");
        }
        if args.save.is_some() {
            anyhow::bail!("--save stores the input as a case of a judge.toml problem (hint: `harness stress PROBLEM SOURCE --save`)");
        }
        let here = std::env::current_dir().context("cannot read the current folder")?;
        let user = config::user::load()?;
        let settings = standalone::Settings {
            cases: here.clone(),
            time_limit: args.time_limit,
            memory_limit: args.memory_limit,
            checker: args.checker.clone(),
        };
        let mut made_up = standalone::config(&here, &user, &settings);
        if global.config.is_some() || config::find(&here).is_ok() {
            made_up.languages = load_config(global)?.languages;
        }
        let name = made_up.problems[0].name.clone();
        (made_up, name, submission)
    } else {
        let mut config = load_config_to_judge(global)?;
        let name = args.problem.clone();
        if let Some(problem) = config.problems.iter_mut().find(|p| p.name == name) {
            if let Some(time_limit) = args.time_limit {
                problem.time_limit = time_limit;
                problem.wall_limit = crate::sandbox::run::wall_limit(time_limit);
            }
            if let Some(memory_limit) = args.memory_limit {
                problem.memory_limit = memory_limit;
            }
            if let Some(checker) = &args.checker {
                problem.checker = checker.clone();
            }
        }
        let submission = args.submission.clone().unwrap_or_default();
        (config, name, submission)
    };
    let config = if standalone {
        config
    } else {
        compile_sources(
            config,
            &[&problem],
            &[
                Part::StressGenerator,
                Part::Reference,
                Part::Validator,
                Part::Checker,
            ],
        )?
    };
    let problem = config.require_problem(&problem)?;
    let language = submit::detect_language(&config, &submission, args.lang.as_deref())?;
    submit::check_tools(language)?;
    let uses_table = args.gen.is_none() || args.brute.is_none() || args.validator.is_none();
    if !standalone && uses_table {
        build_first(&config, args.no_build)?;
    }
    // The programs of the command line, compiled once; kept alive while the run uses them.
    let resolve = |spec: &Option<String>, role| {
        spec.as_deref()
            .map(|spec| program::resolve(&config, spec, role, author_tool::LIMITS.memory_bytes))
            .transpose()
    };
    let generator = resolve(&args.gen, "generator")?;
    let brute = resolve(&args.brute, "reference")?;
    let validator = resolve(&args.validator, "validator")?;

    // Everything is checked before the first seed is printed: a run that cannot start says
    // why, not a seed.
    let time_multiplier = language.time_multiplier;
    let setup = match &generator {
        None => Setup::for_problem(&config, problem, time_multiplier)?,
        Some(generator) => {
            let reference = match &brute {
                Some(brute) => Some(brute.command.clone()),
                None => problem.reference.as_ref().cloned(),
            };
            let interactor = crate::judge::interactive::prepare(&config, problem)?;
            if reference.is_none() && interactor.is_none() && stress::needs_answer(&problem.checker)
            {
                anyhow::bail!(
                    "nothing answers the random inputs (hint: pass --brute, a slow but sure solution; or a --checker program that judges an output alone)"
                );
            }
            Setup {
                problem: problem.name.clone(),
                root: config.root.clone(),
                generator: generator.command.clone(),
                reference,
                shrinker: match problem.stress.as_ref().and_then(|s| s.shrink.clone()) {
                    Some(command) => Shrinker::Command(command),
                    None => Shrinker::Tokens,
                },
                validator: Validator::for_problem(&config, problem),
                limits: problem.limits(time_multiplier),
                checker: problem.checker.clone(),
                interactor,
            }
        }
    };
    let mut setup = setup;
    if let Some(brute) = &brute {
        setup.reference = Some(brute.command.clone());
    }
    if let Some(validator) = &validator {
        setup.validator = Some(Validator::from_command(&validator.command, &config.root));
    }

    let prepared = match submit::compile(language, &submission, problem.memory_limit)? {
        Compiled::Ready(prepared) => prepared,
        Compiled::CompileError { language, message } => {
            let mut stdout = anstream::stdout().lock();
            if args.format == Format::Json {
                let document = stress_report::compile_error_json(
                    &problem.name,
                    &submission,
                    &language.name,
                    &message,
                );
                json::write(&mut stdout, &document)?;
            } else {
                stress_report::write_compile_error(
                    &mut stdout,
                    &submission,
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
        reuse_answers: !args.no_memo,
        jobs: args.jobs.unwrap_or_else(default_jobs).max(1),
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
    let report = stress::stress(&setup, &prepared.program, &options, &mut on_event);
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

    let command = reproduce_command(args, &submission);
    let summary = StressSummary {
        submission: &submission,
        language: &language.name,
        report: &report,
        saved: saved_case,
        command: &command,
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

/// The command line that ran, as the user would type it again (quoted where needed), without
/// the seed and count that the report adds.
fn reproduce_command(args: &StressArgs, submission: &std::path::Path) -> String {
    let quote = |text: &str| {
        if text.is_empty() || text.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
            format!("'{}'", text.replace('\'', "'\\''"))
        } else {
            text.to_string()
        }
    };
    let mut words = vec!["harness".to_string(), "stress".to_string()];
    if args.submission.is_some() {
        words.push(quote(&args.problem));
    }
    words.push(quote(&submission.display().to_string()));
    for (flag, value) in [
        ("--gen", &args.gen),
        ("--brute", &args.brute),
        ("--validator", &args.validator),
        ("--lang", &args.lang),
    ] {
        if let Some(value) = value {
            words.push(flag.to_string());
            words.push(quote(value));
        }
    }
    words.join(" ")
}

/// Short enough to read back and type: seeds are printed for reproducing a run.
fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000
}
