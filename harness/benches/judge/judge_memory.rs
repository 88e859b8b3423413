//! The judge's own memory in a program's peak. A fork copies the judge's page tables and exec
//! records that copy in the program's `maxrss`: with 100 MiB held by the judge, `sh -c true`
//! measured 103 MiB. Under the sandbox the program is forked from the per-worker helper, not
//! from the judge. This bench binary, started again as `judge judge-memory-probe MiB MODE`,
//! holds MiB of touched memory and runs `sh -c true` through `run::run` (`Isolation::Sandbox`), plain or
//! sandboxed, and prints the peaks it measured.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Duration;

use harness::sandbox::run::{self, Isolation, Limits, RunRequest};

use crate::setup::Setup;
use crate::stats::median;
use crate::Target;

/// The first argument that turns this binary into the probe.
pub const COMMAND: &str = "judge-memory-probe";
const RUNS: usize = 9;
const HELD_MIB: [usize; 2] = [0, 100];

pub fn run(setup: &Setup, targets: &mut Vec<Target>) -> Result<String, String> {
    let mut text = String::from("## The judge's memory in a program's peak\n\n");
    text.push_str(
        "`sh -c true` run through `run::run` (`Isolation::Sandbox`) by a process that holds (allocated and \
         touched) the memory in the first column; the peak the judge reports, median of 9 \
         runs. Plain: forked from that process. Sandboxed: forked from the per-worker helper; \
         with a cgroup (as here, root with cgroup v1) the cgroup's peak is the measure.\n\n\
         | judge holds | plain peak | sandboxed peak |\n| --: | --: | --: |\n",
    );
    let mut sandboxed_at_100 = 0.0;
    for held in HELD_MIB {
        let mut row = Vec::new();
        for mode in ["plain", "sandboxed"] {
            eprintln!("judge memory: {held} MiB held, {mode}");
            let output = Command::new(std::env::current_exe().map_err(|e| e.to_string())?)
                .args([COMMAND, &held.to_string(), mode])
                .arg(&setup.harness)
                .output()
                .map_err(|e| e.to_string())?;
            if !output.status.success() {
                return Err(format!(
                    "the memory probe failed: {}",
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            let mib: f64 = String::from_utf8_lossy(&output.stdout)
                .trim()
                .parse()
                .map_err(|e| format!("the memory probe printed no number: {e}"))?;
            row.push(mib);
        }
        if held == 100 {
            sandboxed_at_100 = row[1];
        }
        writeln!(
            text,
            "| {held} MiB | {:.2} MiB | {:.2} MiB |",
            row[0], row[1]
        )
        .unwrap();
    }
    targets.push(Target {
        what: "100 MiB held by the judge stay out of `sh -c true`'s peak (sandboxed)".into(),
        measured: format!("{sandboxed_at_100:.2} MiB"),
        met: sandboxed_at_100 < 8.0,
    });
    Ok(text)
}

/// `judge judge-memory-probe MiB plain|sandboxed HARNESS`: prints the median peak in MiB.
pub fn main(args: &[String]) -> ExitCode {
    let [held, mode, harness] = args else {
        eprintln!("usage: judge {COMMAND} MiB plain|sandboxed HARNESS");
        return ExitCode::from(2);
    };
    let Ok(held) = held.parse::<usize>() else {
        eprintln!("not a number of MiB: {held}");
        return ExitCode::from(2);
    };
    let memory = vec![1u8; held << 20];
    if mode == "sandboxed" {
        harness::sandbox::enable(Path::new(harness).to_path_buf());
    }
    let limits = Limits {
        cpu_time: Duration::from_secs(2),
        wall_time: Duration::from_secs(5),
        memory_bytes: 512 << 20,
        output_bytes: 1 << 20,
    };
    let args = ["-c".into(), "true".into()];
    // Plain: `Isolation::Sandbox` runs as a plain process while the sandbox is not enabled.
    let request = RunRequest::new(Path::new("/bin/sh"), limits)
        .args(&args)
        .isolation(Isolation::Sandbox);
    let mut peaks = Vec::new();
    for _ in 0..RUNS {
        match run::run(&request) {
            Ok(result) => peaks.push(result.peak_memory_bytes as f64 / f64::from(1 << 20)),
            Err(error) => {
                eprintln!("cannot run `sh -c true`: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    std::hint::black_box(&memory);
    println!("{}", median(&peaks));
    ExitCode::SUCCESS
}
