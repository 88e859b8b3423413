//! The wall bound under load: `harness run -j 8` on a machine whose cores are also taken by
//! two CPU hogs, against a quiet `-j 1`, on honest programs that need 60–95% of the time
//! limit, and one that sleeps. Time a program spent waiting for a CPU is not sleeping: with
//! the sandbox it is taken off the wall clock (`/proc/<pid>/schedstat`'s run delay), so the
//! verdicts must match; the plain runner is shown beside it for comparison.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use serde_json::Value;

use crate::setup::{describe, run_quietly, Setup, PROGRAMS};
use crate::Target;

/// CPU time each honest case needs, in ms of the 1 s limit: 60% to 95%.
const NEEDS_MS: [u64; 15] = [
    600, 625, 650, 675, 700, 725, 750, 775, 800, 825, 850, 875, 900, 925, 950,
];
const LOADED_JOBS: usize = 8;
const HOGS: usize = 2;

/// One `harness run`: each case's verdict, CPU and wall time, and how long it took.
struct Outcome {
    cases: Vec<CaseOutcome>,
    elapsed_s: f64,
}

struct CaseOutcome {
    problem: String,
    name: String,
    verdict: String,
    time_ms: u64,
    wall_ms: u64,
}

pub fn run(setup: &Setup, targets: &mut Vec<Target>) -> Result<String, String> {
    let base = setup.bench_dir.join("load");
    let _ = fs::remove_dir_all(&base);
    let bin = setup.bench_dir.join("bin");
    let spin = compile(&bin, "spin")?;
    let sleep = compile(&bin, "sleep")?;
    for ms in NEEDS_MS {
        write(
            &base.join(format!("cases/spin/{ms}.in")),
            &format!("{ms}\n"),
        )?;
        write(
            &base.join(format!("cases/spin/{ms}.ans")),
            &format!("{ms}\n"),
        )?;
    }
    write(&base.join("cases/sleep/30s.in"), "")?;
    write(&base.join("cases/sleep/30s.ans"), "")?;
    let config = |mode: &str| {
        format!(
            "# Written by the benchmark's `load` section.\n[defaults]\ntime-limit = \"1s\"\n\
             memory-limit = \"64MiB\"\nsandbox = \"{mode}\"\n\n\
             [problems.spin]\nsolution = \"{}\"\ncases = \"cases/spin\"\n\n\
             [problems.sleep]\nsolution = \"{}\"\ncases = \"cases/sleep\"\n",
            spin.display(),
            sleep.display()
        )
    };
    let sandboxed = base.join("judge.toml");
    let plain = base.join("judge-plain.toml");
    write(&sandboxed, &config("required"))?;
    write(&plain, &config("off"))?;

    eprintln!("load: quiet, -j 1, sandboxed");
    let quiet = judge(setup, &sandboxed, 1)?;
    eprintln!("load: -j {LOADED_JOBS} beside {HOGS} CPU hogs, sandboxed");
    let loaded = with_hogs(|| judge(setup, &sandboxed, LOADED_JOBS))??;
    eprintln!("load: -j {LOADED_JOBS} beside {HOGS} CPU hogs, sandbox off");
    let loaded_plain = with_hogs(|| judge(setup, &plain, LOADED_JOBS))??;

    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let mut text = String::from("## The wall bound under load\n\n");
    writeln!(
        text,
        "Time limit 1 s, so the wall limit is 3 s. `spin` needs the CPU time in its name; \
         `sleep` sleeps 30 s. Quiet: `harness run -j 1`. Loaded: `-j {LOADED_JOBS}` on \
         {cores} cores while {HOGS} busy loops (`sh -c 'while :; do :; done'`) run. \
         Sandboxed runs take a program's run delay (runnable, waiting for a CPU) off its \
         wall clock; the plain runner does not. Whole runs: quiet {:.1} s, loaded sandboxed \
         {:.1} s, loaded plain {:.1} s.\n",
        quiet.elapsed_s, loaded.elapsed_s, loaded_plain.elapsed_s
    )
    .unwrap();
    text.push_str(
        "| case | quiet: verdict, CPU / wall (ms) | loaded, sandboxed | loaded, sandbox off |\n\
         | --- | --- | --- | --- |\n",
    );
    let mut same = 0;
    let mut sleeper_wall = None;
    for case in &quiet.cases {
        let find = |outcome: &Outcome| {
            outcome
                .cases
                .iter()
                .find(|c| c.problem == case.problem && c.name == case.name)
                .map_or("missing".to_string(), |c| {
                    format!("{} {} / {}", c.verdict, c.time_ms, c.wall_ms)
                })
        };
        let loaded_case = loaded
            .cases
            .iter()
            .find(|c| c.problem == case.problem && c.name == case.name);
        if loaded_case.is_some_and(|c| c.verdict == case.verdict) {
            same += 1;
        }
        if case.problem == "sleep" {
            sleeper_wall = loaded_case.map(|c| c.wall_ms);
        }
        writeln!(
            text,
            "| {}/{} | {} {} / {} | {} | {} |",
            case.problem,
            case.name,
            case.verdict,
            case.time_ms,
            case.wall_ms,
            find(&loaded),
            find(&loaded_plain)
        )
        .unwrap();
    }
    let flipped_plain = quiet
        .cases
        .iter()
        .filter(|case| {
            !loaded_plain.cases.iter().any(|c| {
                c.problem == case.problem && c.name == case.name && c.verdict == case.verdict
            })
        })
        .count();
    writeln!(
        text,
        "\nSame verdict as quiet: sandboxed {same} of {}, sandbox off {} of {}.",
        quiet.cases.len(),
        quiet.cases.len() - flipped_plain,
        quiet.cases.len()
    )
    .unwrap();
    targets.push(Target {
        what: format!(
            "-j {LOADED_JOBS} beside {HOGS} CPU hogs keeps the quiet -j 1 verdicts (sandboxed)"
        ),
        measured: format!("{same} of {} the same", quiet.cases.len()),
        met: same == quiet.cases.len(),
    });
    // The sleeper's CPU time is nil: its bound is 2 × limit + 1 s = 3 s, plus the run delay
    // a loaded machine adds, which a sleeping program hardly has.
    if let Some(wall) = sleeper_wall {
        targets.push(Target {
            what: "a sleeping program is still TLE within 2 × limit + 1 s (loaded)".into(),
            measured: format!("killed after {wall} ms"),
            met: wall <= 3_000 + 500,
        });
    }
    Ok(text)
}

fn compile(bin: &Path, name: &str) -> Result<PathBuf, String> {
    let path = bin.join(format!("load-{name}"));
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    run_quietly(
        Command::new(cc)
            .args(["-O2", "-o"])
            .arg(&path)
            .arg(Path::new(PROGRAMS).join(format!("{name}.c"))),
    )?;
    Ok(path)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(folder) = path.parent() {
        fs::create_dir_all(folder).map_err(|e| describe(&folder.display().to_string(), e))?;
    }
    fs::write(path, text).map_err(|e| describe(&path.display().to_string(), e))
}

/// Runs `body` while `HOGS` busy loops take CPUs, and stops them after.
fn with_hogs<T>(body: impl FnOnce() -> T) -> Result<T, String> {
    let mut hogs: Vec<Child> = Vec::new();
    for _ in 0..HOGS {
        let hog = Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .stdin(Stdio::null())
            .spawn()
            .map_err(|e| describe("a CPU hog", e))?;
        hogs.push(hog);
    }
    let result = body();
    for mut hog in hogs {
        let _ = hog.kill();
        let _ = hog.wait();
    }
    Ok(result)
}

fn judge(setup: &Setup, config: &Path, jobs: usize) -> Result<Outcome, String> {
    let started = Instant::now();
    let output = Command::new(&setup.harness)
        .arg("run")
        .arg("--config")
        .arg(config)
        .args(["--no-build", "--color", "never", "--format", "json", "-j"])
        .arg(jobs.to_string())
        .stdin(Stdio::null())
        .output()
        .map_err(|e| describe("harness run", e))?;
    let elapsed_s = started.elapsed().as_secs_f64();
    // 0: all AC; 1: some not (the sleeper is TLE by design).
    if !matches!(output.status.code(), Some(0 | 1)) {
        return Err(format!(
            "harness run -j {jobs} failed: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let report: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("harness run printed no JSON report: {e}"))?;
    let mut cases = Vec::new();
    for problem in report["problems"].as_array().into_iter().flatten() {
        for case in problem["cases"].as_array().into_iter().flatten() {
            cases.push(CaseOutcome {
                problem: problem["problem"].as_str().unwrap_or_default().to_string(),
                name: case["name"].as_str().unwrap_or_default().to_string(),
                verdict: case["verdict"].as_str().unwrap_or_default().to_string(),
                time_ms: case["time_ms"].as_u64().unwrap_or(0),
                wall_ms: case["wall_ms"].as_u64().unwrap_or(0),
            });
        }
    }
    Ok(Outcome { cases, elapsed_s })
}
