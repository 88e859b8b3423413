//! The machine a table was measured on: what a reader needs to weigh the numbers.

use std::fmt::Write as _;
use std::fs;
use std::process::Command;

/// A markdown paragraph: cores, CPU model, kernel, compiler, load.
pub fn describe() -> String {
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name")?.split_once(':'))
        .map_or("unknown".to_string(), |(_, model)| model.trim().to_string());
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease")
        .map_or("unknown".to_string(), |k| k.trim().to_string());
    let rustc = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("--version")
        .output()
        .ok()
        .map_or("unknown".to_string(), |o| {
            String::from_utf8_lossy(&o.stdout).trim().to_string()
        });
    let mut text = String::new();
    writeln!(
        text,
        "Machine: {cores} cores (`nproc`), {model}, Linux {kernel}, {rustc}. Load average at the start: {}.",
        load_average()
    )
    .unwrap();
    text
}

/// The 1, 5 and 15 minute load averages: others' work on a shared machine shows here.
pub fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| "unknown".to_string())
}
