//! The sandbox alone, in process: `harness::sandbox::run::run` (limits, process group, scratch
//! folder, CPU time and peak memory) and `harness::judge::judge_case` (that plus reading the
//! answer and checking) against std's bare `Command::output()` of the same program.

use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use harness::case::discover::Case;
use harness::check::Checker;
use harness::compile::Program;
use harness::judge::{self, JudgeSettings};
use harness::sandbox::run::{self, Limits, RunRequest, Stdin, Termination};
use harness::verdict::Verdict;

use crate::setup::Setup;
use crate::stats::{median, ratio};

/// Runs per variant in one round; rounds alternate the variants.
const RUNS: u32 = 200;

#[derive(Debug, Clone, Copy)]
enum Variant {
    Bare,
    Run,
    JudgeCase,
}

pub fn run(setup: &Setup, repeats: usize) -> Result<String, String> {
    let cases = setup.root.join("cases/king-queens");
    // A middling case: n = 8, one millisecond or so of search.
    let case = Case {
        name: "all-150".into(),
        input: cases.join("all-150.in"),
        answer: cases.join("all-150.ans"),
        args: Vec::new(),
    };
    // For the echo programs the input is its own answer.
    let echo_case = Case {
        answer: case.input.clone(),
        ..case.clone()
    };
    let programs = [
        (setup.echo_c.clone(), &echo_case),
        (setup.echo_rs.clone(), &echo_case),
        (
            crate::setup::Program {
                label: "king-queens (n = 8)".into(),
                path: setup.solution("king-queens")?,
            },
            &case,
        ),
    ];
    let limits = Limits {
        cpu_time: Duration::from_secs(1),
        wall_time: Duration::from_secs(3),
        memory_bytes: 256 << 20,
        output_bytes: 64 << 20,
    };
    let mut text = String::from("## The sandbox alone, in process\n\n");
    writeln!(
        text,
        "Mean cost of one run over {RUNS} runs, median over {} rounds that alternate the \
         variants. `run::run` adds to a bare spawn: the rlimits and the process group (set in \
         the child before exec), a scratch folder, pidfd + poll, wait4 and memory sampling; \
         `judge_case` adds reading the answer and the tokens checker.\n\n\
         CPU: user + sys of this process and its children (getrusage).\n\n\
         | program | time | bare `Command::output` (µs) | `run::run` (µs) | `judge_case` (µs) | run ÷ bare | judge_case ÷ bare |\n\
         | --- | --- | --: | --: | --: | --: | --: |",
        repeats * 2
    )
    .unwrap();
    for (program, case) in programs {
        eprintln!("runner: {}", program.label);
        // samples[variant] = (wall, CPU) seconds per run, one pair per round.
        let mut samples = [Vec::new(), Vec::new(), Vec::new()];
        let variants = [Variant::Bare, Variant::Run, Variant::JudgeCase];
        // A warm-up round, then twice as many rounds as repeats: they are cheap.
        for round in 0..=repeats * 2 {
            for k in 0..variants.len() {
                let v = (k + round) % variants.len();
                let per_run = measure(variants[v], &program.path, case, limits)?;
                if round > 0 {
                    samples[v].push(per_run);
                }
            }
        }
        for (metric, pick) in [("wall", 0), ("CPU", 1)] {
            let series: Vec<Vec<f64>> = samples
                .iter()
                .map(|s| {
                    s.iter()
                        .map(|p: &(f64, f64)| if pick == 0 { p.0 } else { p.1 })
                        .collect()
                })
                .collect();
            let to_bare = |v: usize| {
                median(
                    &series[v]
                        .iter()
                        .zip(&series[0])
                        .map(|(x, b)| x / b)
                        .collect::<Vec<_>>(),
                )
            };
            writeln!(
                text,
                "| {} | {metric} | {:.0} | {:.0} | {:.0} | {} | {} |",
                program.label,
                median(&series[0]) * 1e6,
                median(&series[1]) * 1e6,
                median(&series[2]) * 1e6,
                ratio(to_bare(1)),
                ratio(to_bare(2)),
            )
            .unwrap();
        }
    }
    Ok(text)
}

/// (wall, CPU) seconds per run, averaged over `RUNS` runs.
fn measure(
    variant: Variant,
    program: &Path,
    case: &Case,
    limits: Limits,
) -> Result<(f64, f64), String> {
    let checker = Checker::Tokens;
    let settings = JudgeSettings {
        limits,
        checker: &checker,
        jobs: 1,
        interactor: None,
        communication: None,
        two_steps: false,
        files: &harness::judge::STANDARD_IO,
        scoring: None,
        beside: &[],
    };
    let judged = Program::new(program);
    let cpu_before = cpu_used();
    let started = Instant::now();
    for _ in 0..RUNS {
        match variant {
            Variant::Bare => {
                let input = File::open(&case.input).map_err(|e| e.to_string())?;
                let output = Command::new(program)
                    .stdin(input)
                    .output()
                    .map_err(|e| e.to_string())?;
                if !output.status.success() {
                    return Err(format!("{}: {}", program.display(), output.status));
                }
            }
            Variant::Run => {
                let request = RunRequest::new(program, limits).stdin(Stdin::File(&case.input));
                let result = run::run(&request).map_err(|e| e.to_string())?;
                if result.termination != Termination::Exited(0) {
                    return Err(format!("{}: {:?}", program.display(), result.termination));
                }
            }
            Variant::JudgeCase => {
                let outcome = judge::judge_case(&judged, case, &settings);
                if outcome.verdict != Verdict::Accepted {
                    return Err(format!("{}: {}", program.display(), outcome.reason));
                }
            }
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_used() - cpu_before;
    Ok((wall / f64::from(RUNS), cpu / f64::from(RUNS)))
}

/// Seconds of CPU used so far by this process and the children it reaped.
fn cpu_used() -> f64 {
    let seconds = |who| {
        // SAFETY: rusage is plain data that getrusage fills.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: the pointer is valid for the call.
        unsafe { libc::getrusage(who, &raw mut usage) };
        let time = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        time(usage.ru_utime) + time(usage.ru_stime)
    };
    seconds(libc::RUSAGE_SELF) + seconds(libc::RUSAGE_CHILDREN)
}
