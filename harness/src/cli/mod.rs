//! The command line: one module per command, each turning its arguments into one call of the
//! library (`session`) and its result into an exit code; the option groups several commands
//! share are in `args`.

mod add;
mod args;
pub mod book;
mod cache;
mod calibrate;
mod doctor;
mod export;
mod gen;
mod judge;
mod listen;
mod new;
mod project;
mod run;
mod serve;
mod stress;
mod validate;
mod verify;

pub(crate) use args::{ColorWhen, GlobalArgs};

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use crate::exit;
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
    /// Lay out a new problem (statement, sample, generator, validator, reference solution,
    /// submission folders) and add its table to judge.toml (made if there is none).
    New(new::NewArgs),
    /// Receive problems from the browser (Competitive Companion) into judge.toml and cases/.
    Listen(listen::ListenArgs),
    /// Serve the judge to editors: JSON-RPC 2.0, one object a line, on stdin/stdout or a
    /// Unix socket (docs: reference/protocol).
    Serve(serve::ServeArgs),
    /// Judge every stored submission and check it gets the verdict its folder names.
    Verify(verify::VerifyArgs),
    /// Measure the accepted programs and suggest a time limit for each problem.
    Calibrate(calibrate::CalibrateArgs),
    /// Say what this machine supports: the sandbox, how memory is measured, compilers found.
    Doctor,
    /// Show the build cache kept across runs (where, how large); --clear empties it.
    Cache(cache::CacheArgs),
    /// Judge a contest day: every team's submissions, then the scoreboard (ICPC or IOI), as
    /// text, CLICS scoreboard.json or a CLICS event feed.
    Contest(crate::session::ContestRequest),
    /// Show which judge.toml a command here uses; --default DIR reaches DIR's problems from
    /// any folder.
    Project(project::ProjectArgs),
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
        Some(Command::Calibrate(args)) => calibrate::calibrate(&cli.global, &args),
        Some(Command::Contest(request)) => cli.global.session().contest(&request),
        Some(Command::Export(args)) => export::export(&cli.global, &args),
        Some(Command::Validate(args)) => validate::validate(&cli.global, &args),
        Some(Command::Add(args)) => add::add(&cli.global, &args),
        Some(Command::Gen(args)) => gen::gen(&cli.global, &args),
        Some(Command::Stress(args)) => stress::stress(&cli.global, &args),
        Some(Command::Judge(args)) => judge::judge(&cli.global, &args),
        Some(Command::New(args)) => new::new(&cli.global, &args),
        Some(Command::Listen(args)) => listen::listen(&cli.global, &args),
        Some(Command::Serve(args)) => serve::serve(&cli.global, &args),
        Some(Command::Verify(args)) => verify::verify(&cli.global, &args),
        Some(Command::Doctor) => doctor::doctor(&cli.global),
        Some(Command::Cache(args)) => cache::cache(&args),
        Some(Command::Project(args)) => project::project(&cli.global, &args),
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
            let _ = notice::write_error(&mut anstream::stderr(), notice::error_chain(&error));
            ExitCode::from(exit::ERROR as u8)
        }
    }
}
