//! `harness stress`: a submission on random inputs until one fails, that input shrunk; with
//! a problem's stress table, or with `--gen` and `--brute` and no judge.toml.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, Result};

use super::limits::LimitOverrides;
use super::prepare::{build_first, compile_sources};
use super::{stream, Output, Session};
use crate::author::add::{self, NewCase};
use crate::author::program::{self, Part};
use crate::author::stress::{self, Setup, Shrinker, StressOptions};
use crate::author::tool as author_tool;
use crate::author::validate::{default_jobs, Validator};
use crate::compile::submit::{self, Compiled};
use crate::event::{Command, Event, Finished, Plan, StressResult, Stressed, Unit};
use crate::exit;
use crate::report::human::HumanOptions;
use crate::report::notice;

/// Inputs tried when neither --iterations nor --time says otherwise.
const DEFAULT_ITERATIONS: u64 = 1000;

/// What `harness stress` is asked to try.
#[derive(Debug, Clone, Default)]
pub struct StressRequest {
    /// The problem; or, without `submission`, the submission itself.
    pub problem: String,
    pub submission: Option<PathBuf>,
    /// The generator, brute force and validator of the command line (source files,
    /// executables or command lines), instead of the problem's.
    pub gen: Option<String>,
    pub brute: Option<String>,
    pub validator: Option<String>,
    pub lang: Option<String>,
    /// The first seed; a random one by default.
    pub seed: Option<u64>,
    pub iterations: Option<u64>,
    pub time: Option<Duration>,
    /// Workers; the cores by default.
    pub jobs: Option<usize>,
    pub limits: LimitOverrides,
    pub no_shrink: bool,
    pub no_memo: bool,
    /// Store the failing input as a case (`Some("")`: the first free name).
    pub save: Option<String>,
    pub no_build: bool,
}

impl Session {
    /// Stresses the submission; the exit code follows the failure found, if any.
    pub fn stress(&self, request: &StressRequest, output: &Output) -> Result<i32> {
        let standalone = request.submission.is_none();
        let (config, problem, submission) = if standalone {
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
            (made_up, name, submission)
        } else {
            let mut config = self.load_config_to_judge()?;
            let name = request.problem.clone();
            if let Some(problem) = config.problems.iter_mut().find(|p| p.name == name) {
                request.limits.apply(problem);
            }
            let config = compile_sources(
                config,
                &[&name],
                &[
                    Part::StressGenerator,
                    Part::Reference,
                    Part::Validator,
                    Part::Checker,
                ],
            )?;
            let submission = request.submission.clone().unwrap_or_default();
            (config, name, submission)
        };
        let problem = config.require_problem(&problem)?;
        let language = submit::detect_language(&config, &submission, request.lang.as_deref())?;
        submit::check_tools(language)?;
        let uses_table =
            request.gen.is_none() || request.brute.is_none() || request.validator.is_none();
        if !standalone && uses_table {
            build_first(&config, request.no_build)?;
        }
        // The programs of the command line, compiled once; kept alive while the run uses them.
        let resolve = |spec: &Option<String>, role| {
            spec.as_deref()
                .map(|spec| program::resolve(&config, spec, role, author_tool::LIMITS.memory_bytes))
                .transpose()
        };
        let generator = resolve(&request.gen, "generator")?;
        let brute = resolve(&request.brute, "reference")?;
        let validator = resolve(&request.validator, "validator")?;

        // Everything is checked before the first seed is printed: a run that cannot start says
        // why, not a seed.
        let time_multiplier = language.time_multiplier;
        let mut setup = match &generator {
            None => Setup::for_problem(&config, problem, time_multiplier)?,
            Some(generator) => {
                let reference = match &brute {
                    Some(brute) => Some(brute.command.clone()),
                    None => problem.reference.as_ref().cloned(),
                };
                let interactor = crate::judge::interactive::prepare(&config, problem)?;
                if reference.is_none()
                    && interactor.is_none()
                    && stress::needs_answer(&problem.checker)
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
        if let Some(brute) = &brute {
            setup.reference = Some(brute.command.clone());
        }
        if let Some(validator) = &validator {
            setup.validator = Some(Validator::from_command(&validator.command, &config.root));
        }

        let options = StressOptions {
            first_seed: 0,
            iterations: match (request.iterations, request.time) {
                (None, None) => Some(DEFAULT_ITERATIONS),
                (iterations, _) => iterations,
            },
            time: request.time,
            shrink: !request.no_shrink,
            reuse_answers: !request.no_memo,
            jobs: request.jobs.unwrap_or_else(default_jobs).max(1),
        };
        let unit = Unit {
            problem: problem.name.clone(),
            label: problem.name.clone(),
            source: Some(submission.clone()),
            language: Some(language.clone()),
            limits: Some(setup.limits),
            runs: options
                .iterations
                .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX)),
            ..Unit::default()
        };
        let command = Command::Stress {
            reproduce: reproduce_command(request, &submission),
        };
        let mut plan = Plan::new(command, vec![unit], options.jobs, config.sandbox);
        plan.runs = options
            .iterations
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX));

        let prepared = match submit::compile(language, &submission, problem.memory_limit)? {
            Compiled::Ready(prepared) => prepared,
            Compiled::CompileError { language, message } => {
                let stressed = Stressed {
                    problem: problem.name.clone(),
                    submission,
                    language: language.name.clone(),
                    result: StressResult::CompileError(message),
                };
                stream(
                    &plan,
                    output,
                    HumanOptions::default(),
                    Vec::new(),
                    |on_event| {
                        on_event(Event::UnitFinished {
                            unit: 0,
                            result: Finished::Stressed(&stressed),
                        });
                        Ok(())
                    },
                )?;
                return Ok(exit::FAILED);
            }
        };
        let program = &prepared.program;
        let first_seed = request.seed.unwrap_or_else(|| {
            let seed = random_seed();
            // Said at once, so that even an interrupted run can be repeated.
            let _ = notice::write_first_seed(&mut anstream::stderr(), seed);
            seed
        });
        let options = StressOptions {
            first_seed,
            ..options
        };
        let mut save_error = None;
        let verdict = stream(
            &plan,
            output,
            HumanOptions::default(),
            Vec::new(),
            |on_event| {
                on_event(Event::Started {
                    unit: 0,
                    label: &problem.name,
                });
                let report = stress::stress(&setup, program, &options, on_event)?;
                let saved = match (&report.found, &request.save) {
                    (Some(found), Some(name)) => {
                        let new = NewCase {
                            name: Some(name.as_str()).filter(|n| !n.is_empty()),
                            input: &found.minimal.input,
                            ..NewCase::default()
                        };
                        match add::add(&config, problem, &new) {
                            Ok(added) => Some(added),
                            Err(error) => {
                                save_error = Some(error);
                                None
                            }
                        }
                    }
                    _ => None,
                };
                let verdict = report.found.as_ref().map(|f| f.minimal.outcome.verdict);
                let stressed = Stressed {
                    problem: problem.name.clone(),
                    submission: submission.clone(),
                    language: language.name.clone(),
                    result: StressResult::Ran {
                        report: Box::new(report),
                        saved,
                    },
                };
                on_event(Event::UnitFinished {
                    unit: 0,
                    result: Finished::Stressed(&stressed),
                });
                Ok(verdict)
            },
        )?;
        if let Some(error) = save_error {
            return Err(anyhow!(error).context("the failing input was not saved"));
        }
        Ok(exit::for_verdicts(verdict))
    }
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
    words.join(" ")
}

/// Short enough to read back and type: seeds are printed for reproducing a run.
fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000
}
