//! `harness stress`: a submission on random inputs until one fails, that input shrunk; with
//! a problem's stress table, or with `--gen` and `--brute` and no judge.toml.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, Result};

use super::prepare::{build_first, compile_sources};
use super::{stream, Output, Session};
use crate::author::add::{self, Added, NewCase};
use crate::author::program::{self, Part, ResolvedProgram};
use crate::author::stress::{self, Setup, Shrinker, StressOptions};
use crate::author::validate::{default_jobs, Validator};
use crate::compile::submission::Compiled;
use crate::compile::submit;
use crate::config::{Config, LimitOverrides, Problem};
use crate::event::{Command, Event, Finished, Plan, StressResult, Stressed, Unit};
use crate::exit;
use crate::report::human::HumanOptions;
use crate::report::notice;
use crate::results::submission::CompileOutcome;
use crate::tool as author_tool;

/// Inputs tried when neither --iterations nor --time says otherwise.
const DEFAULT_ITERATIONS: u64 = 1000;
/// How long a shrink may take unless --shrink-time says otherwise: a minute is long enough
/// for thousands of runs of a small input (bisection needs about 30 per number), and short
/// enough that a slow program's shrink ends while one waits for it.
const DEFAULT_SHRINK_TIME: Duration = Duration::from_secs(60);
/// Candidates a shrink may run unless --shrink-candidates says otherwise: far more than a
/// list of a thousand numbers needs, and a bound on a shrink of fast programs that the time
/// budget would let run thousands more.
const DEFAULT_SHRINK_CANDIDATES: usize = 5000;

/// What `harness stress` is asked to try: the command's arguments themselves.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct StressRequest {
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
    #[arg(long, value_name = "DURATION", value_parser = crate::units::parse_duration)]
    pub time: Option<Duration>,
    /// Inputs judged at once, each worker on its own seeds (default: the number of cores).
    #[arg(short, long, value_name = "N", value_parser = super::parse_jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub limits: LimitOverrides,
    /// Report the failing input as found, without shrinking it.
    #[arg(long)]
    pub no_shrink: bool,
    /// Stop shrinking after this long (default: 60s), reporting the smallest failing input so
    /// far; it and the first are kept in files.
    #[arg(long, value_name = "DURATION", value_parser = crate::units::parse_duration)]
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
    /// Skip judge.toml's build command (generator, reference and shrinker are built).
    #[arg(long)]
    pub no_build: bool,
    /// Once an input fails, run it again (only it) with the submission built with sanitizers
    /// (C, C++) or runtime checks (Rust), whose report names the line.
    #[arg(long)]
    pub sanitize: bool,
}

/// The programs of the command line (`--gen`, `--brute`, `--validator`), compiled once; kept
/// alive while the run uses them.
struct Tools {
    generator: Option<ResolvedProgram>,
    brute: Option<ResolvedProgram>,
    validator: Option<ResolvedProgram>,
}

impl Tools {
    fn resolve(config: &Config, request: &StressRequest) -> Result<Tools> {
        let resolve = |spec: &Option<String>, role| {
            spec.as_deref()
                .map(|spec| program::resolve(config, spec, role, author_tool::LIMITS.memory_bytes))
                .transpose()
        };
        Ok(Tools {
            generator: resolve(&request.gen, "generator")?,
            brute: resolve(&request.brute, "reference")?,
            validator: resolve(&request.validator, "validator")?,
        })
    }
}

impl Session {
    /// Stresses the submission; the exit code follows the failure found, if any.
    pub fn stress(&self, request: &StressRequest, output: &Output) -> Result<i32> {
        let (config, problem, submission) = self.stress_config(request)?;
        let problem = config.require_problem(&problem)?;
        let language = crate::config::detect_submission_language(
            &config,
            &submission,
            request.lang.as_deref(),
        )?;
        submit::check_tools(language)?;
        // A machine that cannot build it sanitized says so before the first seed.
        let sanitized = request
            .sanitize
            .then(|| super::sanitize::build(language))
            .transpose()?;
        let uses_table =
            request.gen.is_none() || request.brute.is_none() || request.validator.is_none();
        if request.submission.is_some() && uses_table {
            build_first(&config, request.no_build)?;
        }
        let tools = Tools::resolve(&config, request)?;
        // Everything is checked before the first seed is printed: a run that cannot start says
        // why, not a seed.
        let setup = setup(&config, problem, language.time_multiplier, &tools)?;
        let mut options = stress_options(request);
        let plan = stress_plan(
            request,
            &config,
            problem,
            (&submission, language),
            &setup,
            &options,
        );
        let stressed = |result| Stressed {
            problem: problem.name.clone(),
            submission: submission.clone(),
            language: language.name.clone(),
            result,
        };

        let prepared =
            match crate::compile::submission::compile(language, &submission, problem.memory_limit)?
            {
                Compiled::Ready(prepared) => prepared,
                Compiled::CompileError { language, message } => {
                    let stressed = Stressed {
                        language: language.name.clone(),
                        ..stressed(StressResult::CompileError(message))
                    };
                    return report_compile_error(&plan, output, &stressed);
                }
            };
        options.first_seed = request.seed.unwrap_or_else(|| {
            let seed = random_seed();
            // Said at once, so that even an interrupted run can be repeated.
            let _ = notice::write_first_seed(&mut anstream::stderr(), seed);
            seed
        });
        let mut save_error = None;
        let mut keep_error = None;
        let (verdict, shrink_interrupted) = stream(
            &plan,
            output,
            HumanOptions::default(),
            Vec::new(),
            |on_event| {
                on_event(Event::Started {
                    unit: 0,
                    label: &problem.name,
                });
                let compile = CompileOutcome {
                    ok: true,
                    message: prepared.compile_message.clone(),
                };
                on_event(Event::Compiled {
                    unit: 0,
                    compile: &compile,
                });
                let mut report = stress::stress(&setup, &prepared.program, &options, on_event)?;
                keep_error = keep_cut_short(&mut report);
                // After Ctrl-C nothing more runs: no sanitized build, no reference for --save.
                let stopped = crate::sandbox::interrupt::is_interrupted();
                let sanitize = sanitized.as_ref().filter(|_| !stopped);
                rerun_found(&setup, problem, &submission, sanitize, &mut report)?;
                let saved = match (&report.found, &request.save) {
                    (Some(found), Some(name)) if !stopped => {
                        save(&config, problem, name, &found.minimal.input)
                            .map_err(|error| save_error = Some(error))
                            .ok()
                    }
                    _ => None,
                };
                let verdict = report.found.as_ref().map(|f| f.minimal.outcome.verdict);
                let shrink_interrupted = report
                    .found
                    .as_ref()
                    .is_some_and(|f| f.shrink == stress::ShrinkStatus::Interrupted);
                let report = Box::new(report);
                let stressed = stressed(StressResult::Ran { report, saved });
                on_event(Event::UnitFinished {
                    unit: 0,
                    result: Finished::Stressed(&stressed),
                });
                Ok((verdict, shrink_interrupted))
            },
        )?;
        if let Some(error) = keep_error {
            return Err(anyhow!(error).context("the failing inputs were not kept in files"));
        }
        if let Some(error) = save_error {
            return Err(anyhow!(error).context("the failing input was not saved"));
        }
        Ok(exit_of(verdict, shrink_interrupted))
    }

    /// The configuration, the problem's id and the submission: judge.toml's problem with the
    /// command line's limits on top (its stress programs compiled), or, given only a source
    /// with `--gen`, a problem made up from the command line.
    fn stress_config(&self, request: &StressRequest) -> Result<(Config, String, PathBuf)> {
        let Some(submission) = &request.submission else {
            let submission = PathBuf::from(&request.problem);
            if !submission.is_file() {
                anyhow::bail!(
                    "submission `{}` does not exist (hint: `harness stress SOURCE --gen GEN --brute BRUTE`, or `harness stress PROBLEM SOURCE` for a problem of judge.toml)",
                    submission.display()
                );
            }
            if request.gen.is_none() {
                anyhow::bail!("`harness stress SOURCE` needs --gen (hint: a generator that prints a random input for the seed it is given)");
            }
            if request.save.is_some() {
                anyhow::bail!("--save stores the input as a case of a judge.toml problem (hint: `harness stress PROBLEM SOURCE --save`)");
            }
            let here = std::env::current_dir()
                .map_err(|e| anyhow!("cannot read the current folder: {e}"))?;
            let made_up = self.made_up_config(here, &request.limits)?;
            let name = made_up.problems[0].name.clone();
            return Ok((made_up, name, submission));
        };
        let mut config = self.load_config_to_judge(&[&request.problem])?;
        let name = request.problem.clone();
        if let Some(problem) = config.problems.iter_mut().find(|p| p.name == name) {
            request.limits.apply(problem);
        }
        let parts = [
            Part::StressGenerator,
            Part::Reference,
            Part::Validator,
            Part::Checker,
        ];
        let config = compile_sources(config, &[&name], &parts)?;
        Ok((config, name, submission.clone()))
    }
}

/// The names a shrink cut short keeps its find under, in the current folder: the first
/// failing input and the smallest.
const KEPT_FIRST: &str = "stress-failing";
const KEPT_SMALLEST: &str = "stress-smallest";

/// The exit code of a stress run that found `verdict` (none: no failure).
fn exit_of(verdict: Option<crate::verdict::Verdict>, shrink_interrupted: bool) -> i32 {
    if shrink_interrupted {
        // The report said what was interrupted, and what it kept; any other Ctrl-C is
        // said and turned into the exit code by the command line.
        return exit::INTERRUPTED;
    }
    exit::for_verdicts(verdict)
}

/// Keeps the failing inputs in files when shrinking was cut short; the error, if that
/// failed, is said after the report.
fn keep_cut_short(report: &mut stress::StressReport) -> Option<anyhow::Error> {
    let found = report.found.as_mut()?;
    if !found.shrink.cut_short() {
        return None;
    }
    match keep_inputs(found) {
        Ok(kept) => {
            found.kept = Some(kept);
            None
        }
        Err(error) => Some(error),
    }
}

/// Reruns the smallest failing input on the sanitized build, when there is one.
fn rerun_found(
    setup: &Setup,
    problem: &Problem,
    submission: &std::path::Path,
    sanitize: Option<&(
        crate::compile::Language,
        crate::compile::sanitizer::Toolchain,
    )>,
    report: &mut stress::StressReport,
) -> Result<()> {
    if let (Some(found), Some((language, toolchain))) = (&mut report.found, sanitize) {
        let limits = super::sanitize::limits(problem, language, *toolchain);
        found.sanitized = Some(rerun_sanitized(
            setup,
            language,
            *toolchain,
            submission,
            limits,
            &found.minimal,
        )?);
    }
    Ok(())
}

/// Writes the first and the smallest failing inputs of a shrink cut short into the current
/// folder, each under the first free name (`stress-failing.in`, `stress-failing-2.in`, …):
/// a file already there, the user's or an earlier run's, is never replaced.
fn keep_inputs(found: &stress::Found) -> Result<stress::Kept> {
    let here =
        std::env::current_dir().map_err(|e| anyhow!("cannot read the current folder: {e}"))?;
    Ok(stress::Kept {
        first: write_fresh(&here, KEPT_FIRST, &found.original.input)?,
        smallest: write_fresh(&here, KEPT_SMALLEST, &found.minimal.input)?,
    })
}

/// Writes `bytes` to `<stem>.in` in `folder`, or the first free `<stem>-N.in`.
fn write_fresh(folder: &std::path::Path, stem: &str, bytes: &[u8]) -> Result<PathBuf> {
    const TRIES: usize = 1000;
    for n in 1..=TRIES {
        let name = match n {
            1 => format!("{stem}.in"),
            n => format!("{stem}-{n}.in"),
        };
        let path = folder.join(name);
        if crate::atomic::write_new(&path, bytes)? {
            return Ok(path);
        }
    }
    anyhow::bail!(
        "`{}` holds {stem}.in to {stem}-{TRIES}.in already (hint: remove the old ones)",
        folder.display()
    )
}

/// The failing input judged once more by a sanitized build of the submission, its limits
/// loosened as the sanitizers need.
fn rerun_sanitized(
    setup: &Setup,
    language: &crate::compile::Language,
    toolchain: crate::compile::sanitizer::Toolchain,
    submission: &std::path::Path,
    limits: crate::sandbox::run::Limits,
    failing: &stress::Failing,
) -> Result<stress::Rerun> {
    let mut prepared =
        match crate::compile::submission::compile(language, submission, limits.memory_bytes)? {
            Compiled::Ready(prepared) => prepared,
            Compiled::CompileError { message, .. } => {
                let first = message.lines().next().unwrap_or_default().to_string();
                return Ok(stress::Rerun::NotBuilt(first));
            }
        };
    prepared.program.sanitized = Some(std::sync::Arc::new(crate::compile::sanitizer::Sanitized {
        toolchain,
        shown: submission.to_path_buf(),
        copy: prepared.source_copy.clone(),
    }));
    Ok(stress::rerun(setup, &prepared.program, limits, failing)?)
}

/// When to stop looking, and how: the first seed is set once the submission compiled.
fn stress_options(request: &StressRequest) -> StressOptions {
    StressOptions {
        first_seed: 0,
        iterations: match (request.iterations, request.time) {
            (None, None) => Some(DEFAULT_ITERATIONS),
            (iterations, _) => iterations,
        },
        time: request.time,
        shrink: !request.no_shrink,
        shrink_time: request.shrink_time.unwrap_or(DEFAULT_SHRINK_TIME),
        shrink_candidates: request
            .shrink_candidates
            .unwrap_or(DEFAULT_SHRINK_CANDIDATES),
        reuse_answers: !request.no_memo,
        jobs: request.jobs.unwrap_or_else(default_jobs).max(1),
    }
}

/// The plan of a stress run: one unit, as many runs as inputs (unknown with `--time` alone).
fn stress_plan(
    request: &StressRequest,
    config: &Config,
    problem: &Problem,
    (submission, language): (&std::path::Path, &crate::compile::Language),
    setup: &Setup,
    options: &StressOptions,
) -> Plan {
    let runs = options
        .iterations
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let unit = Unit {
        problem: problem.name.clone(),
        label: problem.name.clone(),
        source: Some(submission.to_path_buf()),
        language: Some(language.clone()),
        limits: Some(setup.limits),
        runs: runs.unwrap_or(0),
        ..Unit::default()
    };
    let command = Command::Stress {
        reproduce: reproduce_command(request, submission),
    };
    let mut plan = Plan::new(command, vec![unit], options.jobs, config.sandbox);
    plan.runs = runs;
    plan
}

/// A submission that does not compile: nothing is tried, the report says why.
fn report_compile_error(plan: &Plan, output: &Output, stressed: &Stressed) -> Result<i32> {
    stream(
        plan,
        output,
        HumanOptions::default(),
        Vec::new(),
        |on_event| {
            if let StressResult::CompileError(message) = &stressed.result {
                let compile = CompileOutcome {
                    ok: false,
                    message: message.clone(),
                };
                on_event(Event::Compiled {
                    unit: 0,
                    compile: &compile,
                });
            }
            on_event(Event::UnitFinished {
                unit: 0,
                result: Finished::Stressed(stressed),
            });
            Ok(())
        },
    )?;
    Ok(exit::FAILED)
}

/// Where the inputs, answers and smaller inputs come from: the problem's stress table, or the
/// command line's programs over it.
fn setup(config: &Config, problem: &Problem, time_multiplier: f64, tools: &Tools) -> Result<Setup> {
    let mut setup = match &tools.generator {
        None => Setup::for_problem(config, problem, time_multiplier)?,
        Some(generator) => {
            let reference = match &tools.brute {
                Some(brute) => Some(brute.command.clone()),
                None => problem.reference.as_ref().cloned(),
            };
            let interactor = crate::judge::interactive::prepare(config, problem)?;
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
                validator: Validator::for_problem(config, problem),
                limits: problem.limits(time_multiplier),
                checker: problem.checker.clone(),
                interactor,
            }
        }
    };
    if let Some(brute) = &tools.brute {
        setup.reference = Some(brute.command.clone());
    }
    if let Some(validator) = &tools.validator {
        setup.validator = Some(Validator::from_command(&validator.command, &config.root));
    }
    Ok(setup)
}

/// `--save`: the minimal failing input as a new case (named, or the first free `added-N`),
/// answered by the reference.
fn save(
    config: &Config,
    problem: &Problem,
    name: &str,
    input: &[u8],
) -> Result<Added, crate::author::add::AddError> {
    let new = NewCase {
        name: Some(name).filter(|n| !n.is_empty()),
        input,
        ..NewCase::default()
    };
    add::add(config, problem, &new)
}

/// The command line that ran, as the user would type it again (quoted where needed), without
/// the seed and count that the report adds.
fn reproduce_command(request: &StressRequest, submission: &std::path::Path) -> String {
    let quote = |text: &str| {
        if text.is_empty() || text.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
            format!("'{}'", text.replace('\'', "'\\''"))
        } else {
            text.to_string()
        }
    };
    let mut words = vec!["harness".to_string(), "stress".to_string()];
    if request.submission.is_some() {
        words.push(quote(&request.problem));
    }
    words.push(quote(&submission.display().to_string()));
    for (flag, value) in [
        ("--gen", &request.gen),
        ("--brute", &request.brute),
        ("--validator", &request.validator),
        ("--lang", &request.lang),
    ] {
        if let Some(value) = value {
            words.push(flag.to_string());
            words.push(quote(value));
        }
    }
    if request.sanitize {
        words.push("--sanitize".to_string());
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
