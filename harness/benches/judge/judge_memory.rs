//! The judge's own memory in a program's peak. A fork copies the judge's page tables and exec
//! records that copy in the program's `maxrss`: with 100 MiB held by the judge, `sh -c true`
//! measured 103 MiB. The harness starts plain programs from its launcher and sandboxed ones
//! from the per-worker helper, not from the judge. This bench binary, started again as
//! `judge judge-memory-probe MiB MODE`, holds MiB of touched memory and runs `sh -c true`
//! through `run::run` forked (no helper binary given, as before the launcher), launched
//! (plain) or sandboxed, and prints the peaks it measured.

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
        "`sh -c true` run through `run::run` by a process that holds (allocated and \
         touched) the memory in the first column; the peak the judge reports, median of 9 \
         runs. Forked: a plain run forked from that process (no helper binary given, as every \
         plain run was before the launcher). Launched: a plain run, started by the launcher. \
         Sandboxed: started by the per-worker helper's init; with a cgroup (as here, root with \
         cgroup v1) the cgroup's peak is the measure.\n\n\
         | judge holds | forked peak | launched peak | sandboxed peak |\n| --: | --: | --: | --: |\n",
    );
    let mut at_100 = (0.0, 0.0);
    for held in HELD_MIB {
        let mut row = Vec::new();
        for mode in ["forked", "launched", "sandboxed"] {
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
            at_100 = (row[1], row[2]);
        }
        writeln!(
            text,
            "| {held} MiB | {:.2} MiB | {:.2} MiB | {:.2} MiB |",
            row[0], row[1], row[2]
        )
        .unwrap();
    }
    targets.push(Target {
        what: "100 MiB held by the judge stay out of `sh -c true`'s peak (launched)".into(),
        measured: format!("{:.2} MiB", at_100.0),
        met: at_100.0 < 8.0,
    });
    targets.push(Target {
        what: "100 MiB held by the judge stay out of `sh -c true`'s peak (sandboxed)".into(),
        measured: format!("{:.2} MiB", at_100.1),
        met: at_100.1 < 8.0,
    });
    Ok(text)
}

/// `judge judge-memory-probe MiB forked|launched|sandboxed HARNESS`: prints the median peak in
/// MiB.
pub fn main(args: &[String]) -> ExitCode {
    let [held, mode, harness] = args else {
        eprintln!("usage: judge {COMMAND} MiB forked|launched|sandboxed HARNESS");
        return ExitCode::from(2);
    };
    let Ok(held) = held.parse::<usize>() else {
        eprintln!("not a number of MiB: {held}");
        return ExitCode::from(2);
    };
    let memory = vec![1u8; held << 20];
    // Forked: no helper binary, so neither the launcher nor the sandbox can start.
    if mode != "forked" {
        harness::sandbox::enable(Path::new(harness).to_path_buf());
    }
    let isolation = if mode == "sandboxed" {
        Isolation::Sandbox
    } else {
        Isolation::Process
    };
    let limits = Limits {
        cpu_time: Duration::from_secs(2),
        wall_time: Duration::from_secs(5),
        memory_bytes: 512 << 20,
        output_bytes: 1 << 20,
    };
    let args = ["-c".into(), "true".into()];
    let request = RunRequest::new(Path::new("/bin/sh"), limits)
        .args(&args)
        .isolation(isolation);
    let mut peaks = Vec::new();
    for _ in 0..RUNS {
        match run::run(&request) {
            Ok(result) => peaks.push(result.peak_memory_bytes as f64 / f64::from(1 << 20)),
            Err(error) => {
                eprintln!("cannot run `sh -c true`: {error}");
                harness::sandbox::shutdown();
                return ExitCode::FAILURE;
            }
        }
    }
    std::hint::black_box(&memory);
    // The helpers' worker folders and cgroups go with them.
    harness::sandbox::shutdown();
    println!("{}", median(&peaks));
    ExitCode::SUCCESS
}
