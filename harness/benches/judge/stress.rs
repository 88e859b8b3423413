//! Stress throughput on king-queens: random inputs per second, each generated, answered by the
//! brute force and judged for a fast submission, for `harness stress --gen --brute` (every
//! core, and one worker), a bash 对拍 loop (gen; brute; sol; diff), `oj g/i --hack` (with
//! `-j` cores), a driver that only starts the three programs (the ceiling of any tool that
//! starts them), `--baseline`'s harness when given, and the limit: the number of cores ÷ the
//! CPU time of one iteration's three programs. The submission is right, so every run goes the
//! whole time.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::setup::{run_quietly, Setup};
use crate::stats::{median, ms, ratio};
use crate::{Options, Target};

/// How long one measurement runs.
const WINDOW: Duration = Duration::from_secs(10);
/// Iterations timed for the CPU cost of one iteration.
const COST_ITERATIONS: u32 = 400;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Harness,
    /// `--no-memo`: the brute force answers every input, repeats included.
    HarnessEvery,
    HarnessOne,
    Baseline,
    Bash,
    Oj,
    Driver,
}

impl Tool {
    fn label(self, cores: usize) -> String {
        match self {
            Tool::Harness => format!("`harness stress --gen --brute` (-j {cores})"),
            Tool::HarnessEvery => format!(
                "`harness stress --gen --brute --no-memo` (-j {cores}; the brute force answers repeats too)"
            ),
            Tool::HarnessOne => "`harness stress --gen --brute -j 1`".to_string(),
            Tool::Bash => "bash 对拍 loop (gen; brute; sol; diff)".to_string(),
            Tool::Baseline => format!("`harness stress`, the `--baseline` binary (-j {cores})"),
            Tool::Oj => format!("`oj g/i --hack -j {cores}`"),
            Tool::Driver => format!(
                "a driver that only starts the programs (-j {cores}, files on tmpfs, nothing checked)"
            ),
        }
    }
}

struct Programs {
    casegen: PathBuf,
    brute: PathBuf,
    /// The accepted bit-mask submission, as a source (for harness) and compiled (for the others).
    source: PathBuf,
    compiled: PathBuf,
    scratch: PathBuf,
    /// `spawn-driver.c`, compiled.
    driver: PathBuf,
    /// Where the driver writes its files: a tmpfs when there is one, as the harness's runs.
    fast_scratch: PathBuf,
}

pub fn run(setup: &Setup, options: &Options, targets: &mut Vec<Target>) -> Result<String, String> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let scratch = setup.bench_dir.join("stress");
    std::fs::create_dir_all(&scratch).map_err(|e| format!("`{}`: {e}", scratch.display()))?;
    let source = setup
        .root
        .join("solutions/submissions/king-queens/accepted/bitmask.cpp");
    let compiled = scratch.join("bitmask");
    run_quietly(
        Command::new("g++")
            .args(["-O2", "-std=c++17", "-o"])
            .arg(&compiled)
            .arg(&source),
    )?;
    let driver = scratch.join("spawn-driver");
    run_quietly(
        Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&driver)
            .arg(setup.root.join("harness/benches/programs/spawn-driver.c")),
    )?;
    let fast_scratch = tempfile::Builder::new()
        .prefix("harness-bench-driver-")
        .tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .map_err(|e| format!("a folder for the driver: {e}"))?;
    let programs = Programs {
        casegen: setup.solution("casegen")?,
        brute: setup.solution("king-queens-brute")?,
        source,
        compiled,
        scratch,
        driver,
        fast_scratch: fast_scratch.path().to_path_buf(),
    };
    let oj = options
        .oj
        .then(|| setup.bench_dir.join("oj-venv/bin/oj"))
        .filter(|oj| oj.is_file());

    let (cost, cost_wall) = iteration_cost(&programs)?;
    let limit = cores as f64 / cost;
    // What starting the three programs costs in wall time, one after another, with nothing
    // judged: on a VM much of a process start (page-table set-up, CPUID traps to the
    // hypervisor) is not in any process's CPU time, so the CPU limit above is out of reach
    // of any tool that starts processes; this floor is what one that did nothing else would
    // reach on idle cores.
    let floor = cores as f64 / cost_wall;
    let mut tools = vec![
        Tool::Harness,
        Tool::HarnessEvery,
        Tool::HarnessOne,
        Tool::Bash,
        Tool::Driver,
    ];
    if options.baseline.is_some() {
        tools.push(Tool::Baseline);
    }
    if oj.is_some() {
        tools.push(Tool::Oj);
    }
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); tools.len()];
    // Of `harness stress`'s inputs, the share that repeated an earlier one.
    let mut repeated = Vec::new();
    let repeats = options.repeats.min(3);
    for repeat in 0..repeats {
        // Rotated each repeat, so that no tool always runs right after another.
        for k in 0..tools.len() {
            let index = (k + repeat) % tools.len();
            let tool = tools[index];
            eprintln!("stress: {} (repeat {})", tool.label(cores), repeat + 1);
            let seed = 1_000_000 * (repeat as u64 + 1);
            let mut harness = |binary: &Path, jobs, memo| {
                harness_rate(binary, &programs, Some(jobs), seed, memo).map(|(rate, share)| {
                    if tool == Tool::Harness {
                        repeated.push(share);
                    }
                    rate
                })
            };
            let rate = match tool {
                Tool::Harness => harness(&setup.harness, cores, true)?,
                Tool::HarnessEvery => harness(&setup.harness, cores, false)?,
                Tool::HarnessOne => harness(&setup.harness, 1, true)?,
                // As it comes: one from before `--no-memo` would not know the flag.
                Tool::Baseline => harness(
                    options.baseline.as_deref().unwrap_or(&setup.harness),
                    cores,
                    true,
                )?,
                Tool::Driver => driver_rate(&programs, cores, seed)?,
                Tool::Bash => bash_rate(&programs, seed)?,
                Tool::Oj => oj_rate(oj.as_deref().unwrap_or(Path::new("oj")), &programs, cores)?,
            };
            rates[index].push(rate);
        }
    }

    let mut text = String::from("## Stress throughput (king-queens)\n\n");
    writeln!(
        text,
        "Random inputs judged per second over {} s windows, median of {repeats} interleaved \
         repeats: `casegen king-queens random SEED`, the brute-force reference \
         `king-queens-brute`, and the accepted `bitmask.cpp` submission (right, so no run \
         stops early). The limit is {cores} cores ÷ {} ms, the CPU time (user + sys, from \
         getrusage of the children) of one iteration's three programs run one after another, \
         mean of {COST_ITERATIONS} iterations; the spawn floor is {cores} cores ÷ {} ms, the \
         wall time of the same three programs started directly one after another (nothing \
         checked), mean of the same iterations. The driver (`benches/programs/spawn-driver.c`) \
         does what every tool must, on every core and nothing more: per seed it starts the \
         generator, then the brute force and the submission side by side, writing to files, \
         and checks nothing; no tool that starts the same processes can go faster.\n\n\
         | tool | inputs/s | min–max | ÷ bash loop | ÷ limit | ÷ spawn floor |\n\
         | --- | --: | --: | --: | --: | --: |",
        WINDOW.as_secs(),
        ms(cost),
        ms(cost_wall)
    )
    .unwrap();
    let bash = median(&rates[tools.iter().position(|t| *t == Tool::Bash).unwrap_or(0)]);
    for (index, tool) in tools.iter().enumerate() {
        let rate = median(&rates[index]);
        let (low, high) = crate::stats::range(&rates[index]);
        writeln!(
            text,
            "| {} | {rate:.0} | {low:.0}–{high:.0} | {} | {:.0}% | {:.0}% |",
            tool.label(cores),
            ratio(rate / bash),
            100.0 * rate / limit,
            100.0 * rate / floor
        )
        .unwrap();
    }
    writeln!(
        text,
        "| the limit ({cores} ÷ {} ms CPU) | {limit:.0} | | {} | 100% | {:.0}% |",
        ms(cost),
        ratio(limit / bash),
        100.0 * limit / floor
    )
    .unwrap();
    writeln!(
        text,
        "| the spawn floor ({cores} ÷ {} ms wall) | {floor:.0} | | {} | {:.0}% | 100% |",
        ms(cost_wall),
        ratio(floor / bash),
        100.0 * floor / limit
    )
    .unwrap();
    let rate_of = |wanted| median(&rates[tools.iter().position(|t| *t == wanted).unwrap_or(0)]);
    let harness = rate_of(Tool::Harness);
    let every = rate_of(Tool::HarnessEvery);
    let driver = rate_of(Tool::Driver);
    writeln!(
        text,
        "\n{:.0}% of `harness stress`'s inputs repeated an earlier one of the same run (the \
         generator draws small boards often) and were answered with the brute force's first \
         answer; the submission ran on every input. The limit, the spawn floor and the driver \
         run all three programs on every input: `--no-memo` is the harness doing the same, and \
         reaches {:.0}% of the driver's rate (3 × the bash loop would be {:.0}% of it).",
        100.0 * median(&repeated),
        100.0 * every / driver,
        100.0 * 3.0 * bash / driver
    )
    .unwrap();
    targets.push(Target {
        what: format!("stress: harness (-j {cores}) ≥ 2.5 × the bash loop"),
        measured: ratio(harness / bash),
        met: harness >= 2.5 * bash,
    });
    targets.push(Target {
        what: format!(
            "stress: harness --no-memo (-j {cores}, all three programs on every input) ≥ 3 × the bash loop (issue 33)"
        ),
        measured: ratio(every / bash),
        met: every >= 3.0 * bash,
    });
    targets.push(Target {
        what: "stress: harness --no-memo ≥ 80% of the limit".to_string(),
        measured: format!("{:.0}%", 100.0 * every / limit),
        met: every >= 0.8 * limit,
    });
    targets.push(Target {
        what: "stress: harness --no-memo ≥ 80% of the spawn floor".to_string(),
        measured: format!("{:.0}%", 100.0 * every / floor),
        met: every >= 0.8 * floor,
    });
    Ok(text)
}

/// The mean CPU time and the mean wall time of gen + brute + sol on one input, in seconds.
/// The mean, not the median: a rate is total iterations over total time, and the brute
/// force's cost is skewed (a few large boards cost many small ones), so the median
/// understated an iteration's cost by half and the limit was twice what any tool could reach.
fn iteration_cost(programs: &Programs) -> Result<(f64, f64), String> {
    let input = programs.scratch.join("cost.in");
    let mut samples = Vec::new();
    let mut walls = Vec::new();
    for seed in 0..COST_ITERATIONS {
        let before = children_cpu();
        let started = Instant::now();
        let generated = Command::new(&programs.casegen)
            .args(["king-queens", "random", &seed.to_string()])
            .output()
            .map_err(|e| format!("casegen: {e}"))?;
        std::fs::write(&input, &generated.stdout).map_err(|e| e.to_string())?;
        for program in [&programs.brute, &programs.compiled] {
            let file = std::fs::File::open(&input).map_err(|e| e.to_string())?;
            Command::new(program)
                .stdin(file)
                .stdout(Stdio::null())
                .status()
                .map_err(|e| format!("`{}`: {e}", program.display()))?;
        }
        samples.push(children_cpu() - before);
        walls.push(started.elapsed().as_secs_f64());
    }
    let mean = |values: &[f64]| values.iter().sum::<f64>() / values.len().max(1) as f64;
    Ok((mean(&samples), mean(&walls)))
}

/// User + system time of the waited-for children so far, in seconds.
pub(crate) fn children_cpu() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage, RUSAGE_CHILDREN is a valid `who`.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &raw mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Inputs per second, and the share of them answered from the memo of repeated inputs.
fn harness_rate(
    harness: &Path,
    programs: &Programs,
    jobs: Option<usize>,
    seed: u64,
    memo: bool,
) -> Result<(f64, f64), String> {
    let gen = format!("{} king-queens random", programs.casegen.display());
    let mut command = Command::new(harness);
    command
        .current_dir(&programs.scratch)
        .env("XDG_CONFIG_HOME", programs.scratch.join("no-config"))
        .arg("stress")
        .arg(&programs.source)
        .arg("--gen")
        .arg(&gen)
        .arg("--brute")
        .arg(&programs.brute)
        .args(["--time", &format!("{}s", WINDOW.as_secs())])
        .args(["--seed", &seed.to_string(), "--format", "json"]);
    if let Some(jobs) = jobs {
        command.args(["-j", &jobs.to_string()]);
    }
    if !memo {
        command.arg("--no-memo");
    }
    let output = command
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("harness stress: {e}"))?;
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("harness stress printed no JSON ({e})"))?;
    if report["found"] != false {
        return Err(format!("harness stress found a failure: {report}"));
    }
    let iterations = report["iterations"].as_f64().unwrap_or(0.0);
    let elapsed = report["elapsed_ms"].as_f64().unwrap_or(1.0) / 1e3;
    let reused = report["answers_reused"].as_f64().unwrap_or(0.0);
    Ok((iterations / elapsed, reused / iterations.max(1.0)))
}

const BASH_LOOP: &str = r#"
gen=$1; brute=$2; sol=$3; i=$4; n=0
trap 'echo $n; exit 0' TERM
while true; do
  "$gen" king-queens random $i > in
  "$brute" < in > ans
  "$sol" < in > out
  diff -q out ans > /dev/null || { echo "seed $i differs" >&2; exit 1; }
  i=$((i + 1)); n=$((n + 1))
done
"#;

fn bash_rate(programs: &Programs, seed: u64) -> Result<f64, String> {
    let started = Instant::now();
    let output = Command::new("timeout")
        .args([
            "-s",
            "TERM",
            &format!("{}s", WINDOW.as_secs()),
            "bash",
            "-c",
            BASH_LOOP,
            "bash",
        ])
        .arg(&programs.casegen)
        .arg(&programs.brute)
        .arg(&programs.compiled)
        .arg(seed.to_string())
        .current_dir(&programs.scratch)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("bash loop: {e}"))?;
    let elapsed = started.elapsed().as_secs_f64();
    let count: f64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|_| "the bash loop printed no count".to_string())?;
    Ok(count / elapsed)
}

/// The spawn-only driver's rate: inputs done over the window.
fn driver_rate(programs: &Programs, cores: usize, seed: u64) -> Result<f64, String> {
    let output = Command::new(&programs.driver)
        .arg(&programs.casegen)
        .arg(&programs.brute)
        .arg(&programs.compiled)
        .arg(cores.to_string())
        .arg(WINDOW.as_secs().to_string())
        .arg(seed.to_string())
        .arg(&programs.fast_scratch)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("spawn-driver: {e}"))?;
    let count: f64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|_| "the spawn driver printed no count".to_string())?;
    Ok(count / WINDOW.as_secs_f64())
}

/// oj draws its own random input: the generator reads a seed from /dev/urandom.
fn oj_rate(oj: &Path, programs: &Programs, cores: usize) -> Result<f64, String> {
    let generator = programs.scratch.join("gen.sh");
    std::fs::write(
        &generator,
        format!(
            "#!/bin/sh\nexec {} king-queens random $(od -An -N4 -tu4 /dev/urandom)\n",
            programs.casegen.display()
        ),
    )
    .map_err(|e| e.to_string())?;
    run_quietly(Command::new("chmod").arg("+x").arg(&generator))?;
    let started = Instant::now();
    let output = Command::new("timeout")
        .args(["-s", "TERM", &format!("{}s", WINDOW.as_secs())])
        .arg(oj)
        .args(["g/i", "-j", &cores.to_string(), "--hack-actual"])
        .arg(&programs.compiled)
        .arg("--hack-expected")
        .arg(&programs.brute)
        .arg(&generator)
        .current_dir(&programs.scratch)
        .output()
        .map_err(|e| format!("oj: {e}"))?;
    let elapsed = started.elapsed().as_secs_f64();
    let log = String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
    // One "N-th attempt" line per input; the last may not have finished.
    let attempts = log.matches("-th attempt").count().saturating_sub(1);
    Ok(attempts as f64 / elapsed)
}
