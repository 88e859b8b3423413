//! The command line: one module per command, each turning its arguments into library calls
//! and its results into an exit code.

mod add;
mod calibrate;
mod doctor;
mod export;
mod gen;
mod judge;
mod listen;
mod new;
mod package;
mod run;
mod stress;
mod validate;
mod verify;
mod watch;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::check::Checker;
use crate::config::{self, Config, Problem};
use crate::exit;
use crate::report::junit::{self, JunitReport};
use crate::report::notice;

#[derive(Parser, Debug)]
#[command(
    name = "harness",
    version,
    about = "A local judge for competitive programming",
    long_about = "A local judge for competitive programming.\n\nWithout a command it runs `harness run`: builds the solutions and judges each problem's solution on every case.",
    // `harness -p x` is `harness run -p x`; options of a named command go after it, but
    // `--config` and `--color` may stand on either side (see `dispatch`).
    subcommand_negates_reqs = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: run::RunArgs,
    #[command(flatten)]
    global: GlobalArgs,
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

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// How results are printed on stdout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum Format {
    /// For people: verdict lines, diffs and summaries.
    #[default]
    Human,
    /// One JSON document and nothing else, for scripts and editors.
    Json,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build the solutions and judge them on every case (the default command).
    Run(run::RunArgs),
    /// Check every case's input with its problem's validator.
    Validate(validate::ValidateArgs),
    /// Add a case: validate the input, answer it with the reference, write NAME.in + NAME.ans.
    Add(add::AddArgs),
    /// Rebuild the generated cases from judge.toml's generators (or check them with --check).
    Gen(gen::GenArgs),
    /// Judge a submission on random inputs until one fails, then shrink that input.
    Stress(stress::StressArgs),
    /// Judge a contest submission (C, C++, Rust, Python, … by its extension) on a problem.
    Judge(judge::JudgeArgs),
    /// Add a problem to judge.toml (made if there is none) and make its case folder.
    New(new::NewArgs),
    /// Receive problems from the browser (Competitive Companion) into judge.toml and cases/.
    Listen(listen::ListenArgs),
    /// Judge every stored submission and check it gets the verdict its folder names.
    Verify(verify::VerifyArgs),
    /// Measure the accepted programs and suggest a time limit for each problem.
    Calibrate(calibrate::CalibrateArgs),
    /// Say what this machine supports: the sandbox, how memory is measured, compilers found.
    Doctor,
    /// Write a problem as an ICPC/Kattis package (a folder or a zip) that DOMjudge imports.
    Export(export::ExportArgs),
}

pub(crate) fn dispatch(cli: Cli) -> Result<i32> {
    apply_color(cli.global.color);
    if cli.command.is_some() && cli.run != run::RunArgs::from_nothing() {
        anyhow::bail!(
            "options of `run` go after a command's name, not before it (hint: `harness run -p …`, or put the option after the command)"
        );
    }
    match cli.command {
        Some(Command::Run(args)) => run::run(&cli.global, &args),
        Some(Command::Calibrate(args)) => calibrate::run(&cli.global, &args),
        Some(Command::Export(args)) => export::export(&cli.global, &args),
        Some(Command::Validate(args)) => validate::validate(&cli.global, &args),
        Some(Command::Add(args)) => add::add(&cli.global, &args),
        Some(Command::Gen(args)) => gen::gen(&cli.global, &args),
        Some(Command::Stress(args)) => stress::stress(&cli.global, &args),
        Some(Command::Judge(args)) => judge::judge(&cli.global, &args),
        Some(Command::New(args)) => new::new(&cli.global, &args),
        Some(Command::Listen(args)) => listen::listen(&cli.global, &args),
        Some(Command::Verify(args)) => verify::verify(&cli.global, &args),
        Some(Command::Doctor) => doctor::doctor(&cli.global),
        None => run::run(&cli.global, &cli.run),
    }
}

fn apply_color(when: ColorWhen) {
    let choice = match when {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    };
    choice.write_global();
}

/// judge.toml from `--config`, or found by walking up from the current folder.
pub(crate) fn load_config(global: &GlobalArgs) -> Result<Config> {
    let path = match &global.config {
        Some(path) => path.clone(),
        None => {
            let here = std::env::current_dir().context("cannot read the current folder")?;
            config::find(&here)?
        }
    };
    let mut config = config::load(&path)?;
    // Before the packages are read: building one may run its code.
    #[cfg(target_os = "linux")]
    crate::sandbox::set_mode(config.sandbox);
    package::resolve_packages(&mut config)?;
    Ok(config)
}

/// judge.toml for a command that runs programs under test: a required sandbox this machine
/// cannot make stops it here, once, before anything is built or run.
pub(crate) fn load_config_to_judge(global: &GlobalArgs) -> Result<Config> {
    let config = load_config(global)?;
    #[cfg(target_os = "linux")]
    crate::sandbox::check_required(&config.path)?;
    Ok(config)
}

/// One line when more programs would run at once than there are cores: each then waits for a
/// CPU, and its wall-clock time (not its CPU time) grows.
pub(crate) fn warn_if_oversubscribed(jobs: usize) {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    if jobs > cores {
        let _ = notice::write_warning(
            &mut anstream::stderr(),
            format_args!(
                "-j {jobs} runs more programs at once than this machine has cores ({cores}): \
                 each waits for a CPU, so wall-clock times grow (CPU times do not)"
            ),
        );
    }
}

/// The package folders of the named problems, when every one of them is read from a package
/// (`package = "path"` in judge.toml): their own submissions and validators are then used.
pub(crate) fn named_packages(
    global: &GlobalArgs,
    names: &[String],
) -> Result<Option<Vec<PathBuf>>> {
    if names.is_empty() {
        return Ok(None);
    }
    let path = match &global.config {
        Some(path) => path.clone(),
        None => match config::find(&std::env::current_dir()?) {
            Ok(path) => path,
            Err(_) => return Ok(None),
        },
    };
    let config = config::load(&path)?;
    let mut dirs = Vec::new();
    // Its packages are judged under its `sandbox` mode.
    #[cfg(target_os = "linux")]
    crate::sandbox::set_mode(config.sandbox);
    for name in names {
        match config.problem(name).and_then(|p| p.package.as_ref()) {
            Some(reference) => dirs.push(reference.path.clone()),
            None => return Ok(None),
        }
    }
    Ok(Some(dirs))
}

/// Writes a JUnit file, making its folder if needed (CI configs name paths like
/// `target/junit/run.xml` before anything made `target/junit`).
pub(crate) fn write_junit(path: &Path, report: &JunitReport) -> Result<()> {
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot make the folder of `{}`", path.display()))?;
    }
    let mut buffer = Vec::new();
    junit::write(&mut buffer, report)?;
    std::fs::write(path, buffer)
        .with_context(|| format!("cannot write the JUnit report `{}`", path.display()))
}

/// Runs judge.toml's build command unless told not to.
pub(crate) fn build_first(config: &Config, skip: bool) -> Result<()> {
    if skip {
        return Ok(());
    }
    if let Some(command) = &config.build {
        let _ = notice::write_building(&mut anstream::stderr(), command);
        crate::compile::build::build(command, &config.root)?;
    }
    Ok(())
}

/// `config` with the author programs (`parts`) of these problems (all when `names` is empty)
/// that are source files compiled, or taken from the build cache.
pub(crate) fn compile_sources(
    mut config: Config,
    names: &[&str],
    parts: &[crate::author::program::Part],
) -> Result<Config> {
    let problems = config
        .problems
        .iter()
        .map(|problem| {
            if names.is_empty() || names.contains(&problem.name.as_str()) {
                crate::author::program::prepare(&config, problem, parts)
            } else {
                Ok(problem.clone())
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    config.problems = problems;
    Ok(config)
}

/// Runs judge.toml's build command when one of these problems is checked by a program, which
/// the build makes; submissions are compiled on their own, so nothing else needs it.
pub(crate) fn build_checkers<'a>(
    config: &Config,
    problems: impl IntoIterator<Item = &'a Problem>,
    skip: bool,
) -> Result<()> {
    let needed = problems
        .into_iter()
        .any(|p| matches!(p.checker, Checker::Command { .. }));
    build_first(config, skip || !needed)
}

/// Runs the `harness` command: parses the arguments, dispatches, and turns the result (or the
/// error) into the exit code, printing the error first.
pub fn main() -> ExitCode {
    // Before anything else (clap, threads): the sandbox re-executes this binary as its
    // per-worker helper, and making a user namespace needs a single-threaded process.
    #[cfg(target_os = "linux")]
    crate::sandbox::enter_helper_if_asked();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            let code = if error.use_stderr() {
                exit::ERROR
            } else {
                exit::OK
            };
            return ExitCode::from(code as u8);
        }
    };
    crate::sandbox::interrupt::install();
    // A panic is a bug, and the rule is that exit code 101 never reaches the user: the panic's
    // own message (already printed) is followed by one line saying what it is, exit 2.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dispatch(cli)))
        .unwrap_or_else(|_| {
            Err(anyhow::anyhow!(
                "internal error: the harness hit a bug (the message above says where; please \
                 report it)"
            ))
        });
    #[cfg(target_os = "linux")]
    {
        crate::sandbox::shutdown();
        if let Some(warning) = crate::sandbox::fallback_warning() {
            let _ = notice::write_warning(&mut anstream::stderr(), &warning);
        }
    }
    // A command that stops on Ctrl-C by design (`listen`) says so itself and returns 130.
    let stopped_cleanly = matches!(result, Ok(exit::INTERRUPTED));
    if crate::sandbox::interrupt::is_interrupted() && !stopped_cleanly {
        let _ = notice::write_interrupted(&mut anstream::stderr());
        return ExitCode::from(exit::INTERRUPTED as u8);
    }
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(error) => {
            let _ = notice::write_error(&mut anstream::stderr(), error_chain(&error));
            ExitCode::from(exit::ERROR as u8)
        }
    }
}

/// The error and its causes, `outer: inner`, leaving out a cause whose text the message before
/// it already quotes (library errors name their cause in their own words, hint included).
fn error_chain(error: &anyhow::Error) -> String {
    let mut message = error.to_string();
    for cause in error.chain().skip(1) {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
    }
    message
}
