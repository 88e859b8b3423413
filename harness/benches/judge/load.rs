//! The wall bound under load: `harness run -j 8` on a machine whose cores are also taken by
//! CPU hogs (4 and 12 per core: load about 10 and 25 on two cores), against a quiet `-j 1`,
//! on honest programs that need 60–95% of the time limit, an interactive pair whose
//! interactor computes before it plays, and one that sleeps. Time a program spent waiting
//! for a CPU is not sleeping: with the sandbox it is taken off the wall clock
//! (`/proc/<pid>/schedstat`'s run delay, the interactor's, the init's, the judge's own), so
//! the verdicts must match; the plain runner (`sandbox = "off"`) is shown beside it.

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
/// The interactive cases' secrets.
const SECRETS: [u32; 3] = [37, 1, 100];
const LOADED_JOBS: usize = 8;
/// CPU hogs per core: load about 10, then about 25, with the judge's own work.
const HOGS_PER_CORE: [usize; 2] = [4, 12];

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

impl Outcome {
    fn find(&self, case: &CaseOutcome) -> Option<&CaseOutcome> {
        self.cases
            .iter()
            .find(|c| c.problem == case.problem && c.name == case.name)
    }

    /// How many of `quiet`'s cases have the same verdict here.
    fn same_as(&self, quiet: &Outcome) -> usize {
        quiet
            .cases
            .iter()
            .filter(|case| self.find(case).is_some_and(|c| c.verdict == case.verdict))
            .count()
    }

    fn cell(&self, case: &CaseOutcome) -> String {
        self.find(case).map_or("missing".to_string(), |c| {
            format!("{} {} / {}", c.verdict, c.time_ms, c.wall_ms)
        })
    }
}

/// The runs beside one number of hogs.
struct Loaded {
    hogs: usize,
    sandboxed: Outcome,
    plain: Outcome,
}

pub fn run(setup: &Setup, targets: &mut Vec<Target>) -> Result<String, String> {
    let base = setup.bench_dir.join("load");
    let _ = fs::remove_dir_all(&base);
    let (sandboxed, plain) = write_problems(setup, &base)?;
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);

    eprintln!("load: quiet, -j 1, sandboxed");
    let quiet = judge(setup, &sandboxed, 1)?;
    let mut loads = Vec::new();
    for per_core in HOGS_PER_CORE {
        let hogs = per_core * cores;
        eprintln!("load: -j {LOADED_JOBS} beside {hogs} CPU hogs, sandboxed");
        let loaded = with_hogs(hogs, || judge(setup, &sandboxed, LOADED_JOBS))??;
        eprintln!("load: -j {LOADED_JOBS} beside {hogs} CPU hogs, sandbox off");
        let loaded_plain = with_hogs(hogs, || judge(setup, &plain, LOADED_JOBS))??;
        loads.push(Loaded {
            hogs,
            sandboxed: loaded,
            plain: loaded_plain,
        });
    }

    let mut text = String::from("## The wall bound under load\n\n");
    writeln!(
        text,
        "Time limit 1 s, so the wall limit is 3 s. `spin` needs the CPU time in its name; \
         `guess` is a binary search against an interactor that computes for 300 ms of CPU \
         before it plays; `sleep` sleeps 30 s. Quiet: `harness run -j 1`. Loaded: `-j \
         {LOADED_JOBS}` on {cores} cores while busy loops (`sh -c 'while :; do :; done'`) run. \
         Both runners take the program's run delay (runnable, waiting for a CPU) and its \
         interactor's off the wall clock; sandboxed runs also their init's and the judge's. \
         Whole runs: quiet {:.1} s{}.\n",
        quiet.elapsed_s,
        loads
            .iter()
            .map(|l| format!(
                ", beside {} hogs sandboxed {:.1} s and plain {:.1} s",
                l.hogs, l.sandboxed.elapsed_s, l.plain.elapsed_s
            ))
            .collect::<String>()
    )
    .unwrap();
    text.push_str("| case | quiet: verdict, CPU / wall (ms) |");
    for l in &loads {
        write!(
            text,
            " {} hogs, sandboxed | {} hogs, sandbox off |",
            l.hogs, l.hogs
        )
        .unwrap();
    }
    text.push_str("\n| --- | --- |");
    text.push_str(&" --- | --- |".repeat(loads.len()));
    text.push('\n');
    for case in &quiet.cases {
        write!(
            text,
            "| {}/{} | {} {} / {} |",
            case.problem, case.name, case.verdict, case.time_ms, case.wall_ms
        )
        .unwrap();
        for l in &loads {
            write!(
                text,
                " {} | {} |",
                l.sandboxed.cell(case),
                l.plain.cell(case)
            )
            .unwrap();
        }
        text.push('\n');
    }
    let total = quiet.cases.len();
    text.push_str("\nSame verdict as quiet:");
    for l in &loads {
        write!(
            text,
            " beside {} hogs, sandboxed {} of {total}, sandbox off {} of {total};",
            l.hogs,
            l.sandboxed.same_as(&quiet),
            l.plain.same_as(&quiet)
        )
        .unwrap();
    }
    text.pop();
    text.push_str(".\n");
    for l in &loads {
        let same = l.sandboxed.same_as(&quiet);
        targets.push(Target {
            what: format!(
                "-j {LOADED_JOBS} beside {} CPU hogs keeps the quiet -j 1 verdicts (sandboxed)",
                l.hogs
            ),
            measured: format!("{same} of {total} the same"),
            met: same == total,
        });
        // The sleeper's CPU time is nil: its bound is 2 × limit + 1 s = 3 s, pushed back by
        // the waits for a CPU of its init and of the judge (hundreds of ms at load 25), never
        // by the 30 s it sleeps.
        let sleeper = l.sandboxed.cases.iter().find(|c| c.problem == "sleep");
        if let Some(sleeper) = sleeper {
            targets.push(Target {
                what: format!(
                    "a sleeping program is still TLE, within twice its 3 s wall bound \
                     (beside {} hogs)",
                    l.hogs
                ),
                measured: format!("{} after {} ms", sleeper.verdict, sleeper.wall_ms),
                met: sleeper.verdict == "TLE" && sleeper.wall_ms < 2 * 3_000,
            });
        }
    }
    Ok(text)
}

/// The programs and the cases, and the two judge.toml files (sandboxed and not).
fn write_problems(setup: &Setup, base: &Path) -> Result<(PathBuf, PathBuf), String> {
    let bin = setup.bench_dir.join("bin");
    let program = |name: &str| Path::new(PROGRAMS).join(format!("{name}.c"));
    let spin = compile(&bin, "spin", &program("spin"))?;
    let sleep = compile(&bin, "sleep", &program("sleep"))?;
    // The tests' binary search (tests/under_load.rs and tests/interactive.rs judge it too).
    let guess = compile(
        &bin,
        "guess",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/guess-binary.c"),
    )?;
    let interactor = compile(&bin, "guess-interactor", &program("guess-interactor"))?;
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
    for secret in SECRETS {
        for ext in ["in", "ans"] {
            write(
                &base.join(format!("cases/guess/{secret}.{ext}")),
                &format!("{secret}\n"),
            )?;
        }
    }
    write(&base.join("cases/sleep/30s.in"), "")?;
    write(&base.join("cases/sleep/30s.ans"), "")?;
    let config = |mode: &str| {
        format!(
            "# Written by the benchmark's `load` section.\n[defaults]\ntime-limit = \"1s\"\n\
             memory-limit = \"64MiB\"\nsandbox = \"{mode}\"\n\n\
             [problems.spin]\nsolution = \"{}\"\ncases = \"cases/spin\"\n\n\
             [problems.guess]\nsolution = \"{}\"\ncases = \"cases/guess\"\n\
             interactor = [\"{}\"]\ninteractor-protocol = \"kattis\"\n\n\
             [problems.sleep]\nsolution = \"{}\"\ncases = \"cases/sleep\"\n",
            spin.display(),
            guess.display(),
            interactor.display(),
            sleep.display()
        )
    };
    let sandboxed = base.join("judge.toml");
    let plain = base.join("judge-plain.toml");
    write(&sandboxed, &config("required"))?;
    write(&plain, &config("off"))?;
    Ok((sandboxed, plain))
}

fn compile(bin: &Path, name: &str, source: &Path) -> Result<PathBuf, String> {
    let path = bin.join(format!("load-{name}"));
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    run_quietly(Command::new(cc).args(["-O2", "-o"]).arg(&path).arg(source))?;
    Ok(path)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(folder) = path.parent() {
        fs::create_dir_all(folder).map_err(|e| describe(&folder.display().to_string(), e))?;
    }
    fs::write(path, text).map_err(|e| describe(&path.display().to_string(), e))
}

/// Runs `body` while `count` busy loops take CPUs, and stops them after.
fn with_hogs<T>(count: usize, body: impl FnOnce() -> T) -> Result<T, String> {
    let mut hogs: Vec<Child> = Vec::new();
    for _ in 0..count {
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
