//! `cargo bench -p harness --bench judge`: what the judge itself costs, measured against the
//! alternatives in one run, and how fast the shipped solutions are.
//!
//! - overhead: `harness run` (sandboxed, and with `sandbox = "off"`) per case against the process-spawn floor of the same program, a
//!   bash loop with `diff`, and online-judge-tools (`oj test`, with and without its memory
//!   measurement), fixed costs removed by timing N cases and 1 case;
//! - runner: `harness::sandbox::run::run` in process against a bare `Command::output()`;
//! - checkers: throughput of the built-in checkers on 10 MB outputs, and their heap;
//! - solutions: CPU time of each fast solution against its brute-force reference and the
//!   textbook array search on the largest inputs;
//! - judge-memory: the judge's own memory in a program's peak, plain and sandboxed;
//! - load: verdicts of `-j 8` beside 4 and 12 CPU hogs per core against a quiet `-j 1` (the
//!   wall bound);
//! - stress: `harness stress --gen --brute` inputs per second on king-queens against a bash
//!   对拍 loop, `oj g/i --hack` and the limit (cores ÷ CPU time of one iteration);
//! - verify: `harness verify` on a package with six C++ submissions against BAPCtools' `bt
//!   run` on the same folder, cold (build caches emptied) and warm;
//! - html: the king-queens verify's HTML report, its size and what Chromium takes to paint it;
//! - serve: a case judged through `harness serve` against `harness judge`, and the time from
//!   a `judge` request to its first `case.finished`;
//! - contest: `harness contest` on 100 teams × 12 problems × 5 tries of the shipped problems,
//!   cold, with `--rejudge` and warm.
//!
//! Everything is interleaved and repeated; tables show medians and ratios taken within the
//! same repeat, because the machines this runs on are shared and noisy. The tables go to
//! stdout and to `target/bench/results.md`; progress goes to stderr.
//!
//! Arguments (after `--`): section names to run only those (`overhead runner checkers
//! solutions judge-memory load stress verify html serve contest`), `--repeats N` (default 5),
//! `--no-oj` to skip online-judge-tools, `--teams N` (the contest day's teams, default 100), and
//! `--baseline PATH` to time another `harness` binary beside this one (before/after a change).

mod checkers;
mod contest;
mod floor;
mod html;
mod judge_memory;
mod load;
mod machine;
mod overhead;
mod runner;
mod serve;
mod setup;
mod solutions;
mod stats;
mod stress;
mod verify;

use std::fmt::Write as _;
use std::fs;
use std::process::ExitCode;

use setup::Setup;

/// Counts heap bytes, so the checker table can show what a check allocates.
#[global_allocator]
static ALLOCATOR: checkers::CountingAllocator = checkers::CountingAllocator::new();

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Overhead,
    Runner,
    Checkers,
    Solutions,
    JudgeMemory,
    Load,
    Stress,
    Verify,
    Html,
    Serve,
    Contest,
}

impl Section {
    const ALL: [Section; 11] = [
        Section::Overhead,
        Section::Runner,
        Section::Checkers,
        Section::Solutions,
        Section::JudgeMemory,
        Section::Load,
        Section::Stress,
        Section::Verify,
        Section::Html,
        Section::Serve,
        Section::Contest,
    ];

    fn name(self) -> &'static str {
        match self {
            Section::Overhead => "overhead",
            Section::Runner => "runner",
            Section::Checkers => "checkers",
            Section::Solutions => "solutions",
            Section::JudgeMemory => "judge-memory",
            Section::Load => "load",
            Section::Stress => "stress",
            Section::Verify => "verify",
            Section::Html => "html",
            Section::Serve => "serve",
            Section::Contest => "contest",
        }
    }
}

#[derive(Debug)]
struct Options {
    sections: Vec<Section>,
    repeats: usize,
    oj: bool,
    baseline: Option<std::path::PathBuf>,
    /// The contest day's teams.
    teams: usize,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        sections: Vec::new(),
        repeats: 5,
        oj: true,
        baseline: None,
        teams: 100,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // cargo bench passes this to every bench target.
            "--bench" => {}
            "--no-oj" => options.oj = false,
            "--baseline" => {
                let value = args.next().ok_or("`--baseline` needs a harness binary")?;
                let path = std::fs::canonicalize(value).map_err(|e| {
                    format!("`--baseline {value}`: {e} (hint: give an absolute path; cargo bench runs in the harness/ folder)")
                })?;
                options.baseline = Some(path);
            }
            "--teams" => {
                let value = args.next().ok_or("`--teams` needs a number")?;
                options.teams = value
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or(format!("`--teams {value}`: not a positive number"))?;
            }
            "--repeats" => {
                let value = args.next().ok_or("`--repeats` needs a number")?;
                options.repeats = value
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or(format!("`--repeats {value}`: not a positive number"))?;
            }
            name => {
                let section = Section::ALL
                    .into_iter()
                    .find(|s| s.name() == name)
                    .ok_or(format!(
                        "unknown argument `{name}` (sections: overhead, runner, checkers, solutions, judge-memory, load, stress, verify, html, serve, contest; options: --repeats N, --no-oj, --teams N, --baseline PATH)"
                    ))?;
                options.sections.push(section);
            }
        }
    }
    if options.sections.is_empty() {
        options.sections = Section::ALL.to_vec();
    }
    Ok(options)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The floor spawner is this very binary, started again by the overhead section.
    if args.first().map(String::as_str) == Some(floor::COMMAND) {
        return floor::main(&args[1..]);
    }
    if args.first().map(String::as_str) == Some(judge_memory::COMMAND) {
        return judge_memory::main(&args[1..]);
    }
    let options = match parse_options(&args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &Options) -> Result<(), String> {
    let setup = Setup::prepare()?;
    let mut report = String::new();
    writeln!(report, "# Benchmark results\n").unwrap();
    writeln!(
        report,
        "Written by `cargo bench -p harness --bench judge`; medians over {} interleaved repeats.\n",
        options.repeats
    )
    .unwrap();
    report.push_str(&machine::describe());
    let mut targets = Vec::new();
    for &section in &options.sections {
        eprintln!("== {}", section.name());
        let text = match section {
            Section::Overhead => overhead::run(&setup, options, &mut targets)?,
            Section::Runner => runner::run(&setup, options.repeats)?,
            Section::Checkers => checkers::run(options.repeats, &mut targets),
            Section::Solutions => solutions::run(&setup, options.repeats, &mut targets)?,
            Section::JudgeMemory => judge_memory::run(&setup, &mut targets)?,
            Section::Load => load::run(&setup, &mut targets)?,
            Section::Stress => stress::run(&setup, options, &mut targets)?,
            Section::Verify => verify::run(&setup, options, &mut targets)?,
            Section::Html => html::run(&setup, options.repeats, &mut targets)?,
            Section::Serve => serve::run(&setup, options, &mut targets)?,
            Section::Contest => contest::run(&setup, options, &mut targets)?,
        };
        report.push('\n');
        report.push_str(&text);
    }
    if !targets.is_empty() {
        report.push_str("\n## Targets\n\n| target | measured | met |\n| --- | --- | --- |\n");
        for target in &targets {
            writeln!(report, "{target}").unwrap();
        }
    }
    writeln!(
        report,
        "\nLoad average at the end: {}",
        machine::load_average()
    )
    .unwrap();
    let path = setup.bench_dir.join("results.md");
    fs::write(&path, &report).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    println!("{report}");
    eprintln!("written to {}", path.display());
    Ok(())
}

/// One line of the targets table.
pub struct Target {
    pub what: String,
    pub measured: String,
    pub met: bool,
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let met = if self.met { "yes" } else { "**no**" };
        write!(f, "| {} | {} | {met} |", self.what, self.measured)
    }
}
