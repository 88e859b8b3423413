//! The setter's loop: `harness verify` on a problem package against BAPCtools' `bt run` on
//! the same folder, cold (nothing built: each tool's build cache emptied) and warm (run again,
//! nothing changed). The package is made here: a sum problem with 1 sample and 30 secret
//! cases, and six C++ submissions (`benches/programs/verify/`: four accepted, one wrong
//! answer, one run-time error), so a cold run is mostly six g++ compiles. Twice: the sources
//! as written (`<iostream>`, `<map>`…), and as contest code is mostly written, each including
//! `<bits/stdc++.h>` instead, where harness's precompiled header counts: cold with none made
//! yet (an empty cache) and with it kept from before (only the builds emptied: new
//! submissions on a machine that has judged C++ before).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::setup::{describe, run_quietly, Setup, PROGRAMS};
use crate::stats::{median, range, ratio};
use crate::{Options, Target};

/// BAPCtools from PyPI, pinned so that the numbers stay comparable.
const BT_PACKAGE: &str = "bapctools==2026.10.0";
const SECRET_CASES: usize = 30;
/// The largest list of a case: enough that reading it is work, small enough that a run is
/// the judge's cost, not the program's.
const MAX_NUMBERS: u64 = 20_000;

/// The submissions, by the folder their verdict names.
const SUBMISSIONS: [(&str, &str); 6] = [
    ("accepted", "sum.cpp"),
    ("accepted", "sum_vector.cpp"),
    ("accepted", "sum_map.cpp"),
    ("accepted", "sum_sort.cpp"),
    ("wrong_answer", "int_overflow.cpp"),
    ("run_time_error", "crash.cpp"),
];

/// `{uuid}` differs between the two packages: bt warns (and fails) on a UUID it has seen in
/// another folder.
const PROBLEM_YAML: &str = "problem_format_version: 2025-09
type: pass-fail
name: Sum of a list
uuid: {uuid}
credits: harness bench
source: harness bench
license: cc by-sa
rights_owner: harness bench
limits:
  time_limit: 2.0
";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Harness,
    /// Cold with only the builds emptied: the precompiled header made by a run before stays.
    HarnessPchKept,
    Baseline,
    Bt,
}

impl Tool {
    fn label(self) -> &'static str {
        match self {
            Tool::Harness => "`harness verify`",
            Tool::HarnessPchKept => "`harness verify`, PCH kept",
            Tool::Baseline => "`harness verify`, the `--baseline` binary",
            Tool::Bt => "`bt run` (BAPCtools)",
        }
    }
}

/// How the submissions include the standard library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flavor {
    /// The headers each needs, as the sources in `benches/programs/verify/` are written.
    AsWritten,
    /// `#include <bits/stdc++.h>` in place of them all.
    Bits,
}

impl Flavor {
    fn folder(self) -> &'static str {
        match self {
            Flavor::AsWritten => "as-written",
            Flavor::Bits => "bits",
        }
    }

    fn uuid(self) -> &'static str {
        match self {
            Flavor::AsWritten => "7d3e51b2-0c4a-4f8e-b6a1-93c2d8e4f017",
            Flavor::Bits => "7d3e51b2-0c4a-4f8e-b6a1-93c2d8e4f018",
        }
    }

    /// The source as this flavor has it.
    fn source(self, text: &str) -> String {
        match self {
            Flavor::AsWritten => text.to_string(),
            Flavor::Bits => {
                let mut out = String::new();
                let mut included = false;
                for line in text.lines() {
                    if line.starts_with("#include <") {
                        if !included {
                            out.push_str("#include <bits/stdc++.h>\n");
                            included = true;
                        }
                    } else {
                        out.push_str(line);
                        out.push('\n');
                    }
                }
                out
            }
        }
    }
}

/// One timed run: wall and CPU (user + sys of the tool and everything it waited for).
#[derive(Debug, Clone, Copy, Default)]
struct Timing {
    wall: f64,
    cpu: f64,
}

pub fn run(setup: &Setup, options: &Options, targets: &mut Vec<Target>) -> Result<String, String> {
    let bt = install_bt(&setup.bench_dir);
    let mut text = String::from("## Verify a package: harness against BAPCtools\n");
    for flavor in [Flavor::AsWritten, Flavor::Bits] {
        text.push_str(&run_flavor(setup, options, &bt, flavor, targets)?);
    }
    Ok(text)
}

fn run_flavor(
    setup: &Setup,
    options: &Options,
    bt: &Result<PathBuf, String>,
    flavor: Flavor,
    targets: &mut Vec<Target>,
) -> Result<String, String> {
    let dir = setup.bench_dir.join("verify").join(flavor.folder());
    // bt names the problem by its folder.
    let package = dir.join("sumlist");
    make_package(&package, flavor)?;
    let mut tools = vec![Tool::Harness];
    if flavor == Flavor::Bits {
        tools.push(Tool::HarnessPchKept);
    }
    if options.baseline.is_some() {
        tools.push(Tool::Baseline);
    }
    let bt_missing = match bt {
        Ok(_) => {
            tools.push(Tool::Bt);
            None
        }
        Err(why) => Some(why.clone()),
    };
    let mut cold: Vec<Vec<Timing>> = vec![Vec::new(); tools.len()];
    let mut warm: Vec<Vec<Timing>> = vec![Vec::new(); tools.len()];
    for repeat in 0..options.repeats {
        for offset in 0..tools.len() {
            let index = (repeat + offset) % tools.len();
            let tool = tools[index];
            eprintln!(
                "verify ({}): {} (repeat {})",
                flavor.folder(),
                tool.label(),
                repeat + 1
            );
            let cache = dir.join(format!("cache-{index}"));
            let kept = cache.join("harness/pch");
            if tool == Tool::HarnessPchKept && kept.is_dir() {
                let _ = fs::remove_dir_all(cache.join("harness/build"));
            } else {
                let _ = fs::remove_dir_all(&cache);
            }
            fs::create_dir_all(&cache).map_err(|e| describe(&cache.display().to_string(), e))?;
            let once = || match tool {
                Tool::Harness | Tool::HarnessPchKept => harness(&setup.harness, &package, &cache),
                Tool::Baseline => harness(
                    options.baseline.as_deref().unwrap_or(&setup.harness),
                    &package,
                    &cache,
                ),
                Tool::Bt => bt_run(bt.as_deref().unwrap_or(Path::new("bt")), &package, &cache),
            };
            if tool == Tool::HarnessPchKept && !kept.is_dir() {
                // The first time: made here, untimed.
                once()?;
                let _ = fs::remove_dir_all(cache.join("harness/build"));
            }
            cold[index].push(once()?);
            warm[index].push(once()?);
        }
    }

    let mut text = format!(
        "\n### Sources {}\n\n",
        match flavor {
            Flavor::AsWritten => "as written",
            Flavor::Bits => "including `<bits/stdc++.h>`",
        }
    );
    writeln!(
        text,
        "`harness verify PKG` and `bt run` in the same package folder (a sum problem: 1 sample \
         and {SECRET_CASES} secret cases, six C++ submissions — four accepted, one wrong answer, \
         one run-time error — each getting its folder's verdict), medians of {} interleaved \
         repeats. Cold: each tool's build cache emptied first (harness: a fresh \
         `XDG_CACHE_HOME`, its precompiled header too but in the \"PCH kept\" row; bt: a fresh \
         `TMPDIR`, where it keeps `bapctools_*/`); warm: the same \
         command again at once, nothing changed. CPU is user + sys of the tool and everything \
         it waited for (getrusage of the children).\n\n\
         | tool | cold wall | cold CPU | warm wall | warm CPU | warm min–max |\n\
         | --- | --: | --: | --: | --: | --: |",
        options.repeats
    )
    .unwrap();
    let wall = |samples: &[Timing]| median(&samples.iter().map(|t| t.wall).collect::<Vec<_>>());
    let cpu = |samples: &[Timing]| median(&samples.iter().map(|t| t.cpu).collect::<Vec<_>>());
    for (index, tool) in tools.iter().enumerate() {
        let (low, high) = range(&warm[index].iter().map(|t| t.wall).collect::<Vec<_>>());
        writeln!(
            text,
            "| {} | {:.2} s | {:.2} s | {:.2} s | {:.2} s | {low:.2}–{high:.2} s |",
            tool.label(),
            wall(&cold[index]),
            cpu(&cold[index]),
            wall(&warm[index]),
            cpu(&warm[index]),
        )
        .unwrap();
    }
    match bt_missing {
        Some(why) => writeln!(text, "\n`bt run` not measured: {why}.").unwrap(),
        None => {
            let bt = tools.iter().position(|t| *t == Tool::Bt).unwrap_or(0);
            let flavor_name = flavor.folder();
            // Ratios within each repeat, so that a busy minute weighs on both tools alike.
            let ratios = |runs: &[Vec<Timing>]| -> Vec<f64> {
                runs[0]
                    .iter()
                    .zip(&runs[bt])
                    .map(|(harness, bt)| harness.wall / bt.wall)
                    .collect()
            };
            let warm_ratio = median(&ratios(&warm));
            let cold_ratio = median(&ratios(&cold));
            let (warm_low, warm_high) = range(&ratios(&warm));
            writeln!(
                text,
                "\nharness ÷ bt, wall, within each repeat: cold {}, warm {} ({}–{}).",
                ratio(cold_ratio),
                ratio(warm_ratio),
                ratio(warm_low),
                ratio(warm_high)
            )
            .unwrap();
            targets.push(Target {
                what: format!(
                    "verify ({flavor_name}): warm `harness verify` ≤ 0.8 × warm `bt run` (wall)"
                ),
                measured: ratio(warm_ratio),
                met: warm_ratio <= 0.8,
            });
            // Issue 33: a cold verify at most half of bt's.
            targets.push(Target {
                what: format!(
                    "verify ({flavor_name}): cold `harness verify` ≤ 0.5 × cold `bt run` (wall)"
                ),
                measured: ratio(cold_ratio),
                met: cold_ratio <= 0.5,
            });
        }
    }
    Ok(text)
}

/// Writes the package (again: the data is the same every time, from a fixed seed).
fn make_package(package: &Path, flavor: Flavor) -> Result<(), String> {
    let _ = fs::remove_dir_all(package);
    let write = |relative: &str, text: &[u8]| -> Result<(), String> {
        let path = package.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| describe(&parent.display().to_string(), e))?;
        }
        fs::write(&path, text).map_err(|e| describe(&path.display().to_string(), e))
    };
    write(
        "problem.yaml",
        PROBLEM_YAML.replace("{uuid}", flavor.uuid()).as_bytes(),
    )?;
    // bt warns (and exits 1) about a name without a statement.
    write(
        "statement/problem.en.tex",
        b"\\problemname{Sum of a list}\nPrint the sum of the $n$ numbers.\n",
    )?;
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    // xorshift64*: the same cases on every machine.
    let next = |state: &mut u64| {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let case = |relative: &str, n: u64, state: &mut u64| -> Result<(), String> {
        let numbers: Vec<i64> = (0..n)
            .map(|_| (next(state) % 2_000_000_001) as i64 - 1_000_000_000)
            .collect();
        let list: Vec<String> = numbers.iter().map(i64::to_string).collect();
        write(
            &format!("{relative}.in"),
            format!("{n}\n{}\n", list.join(" ")).as_bytes(),
        )?;
        let sum: i64 = numbers.iter().sum();
        write(&format!("{relative}.ans"), format!("{sum}\n").as_bytes())
    };
    case("data/sample/01", 3, &mut state)?;
    for index in 1..=SECRET_CASES {
        let n = 1 + next(&mut state) % MAX_NUMBERS;
        case(&format!("data/secret/{index:02}"), n, &mut state)?;
    }
    for (folder, name) in SUBMISSIONS {
        let source = Path::new(PROGRAMS).join("verify").join(name);
        let text =
            fs::read_to_string(&source).map_err(|e| describe(&source.display().to_string(), e))?;
        write(
            &format!("submissions/{folder}/{name}"),
            flavor.source(&text).as_bytes(),
        )?;
    }
    Ok(())
}

/// One `harness verify` of the package with its cache in `cache`; every submission must get
/// its folder's verdict (exit 0).
fn harness(harness: &Path, package: &Path, cache: &Path) -> Result<Timing, String> {
    let mut command = Command::new(harness);
    command
        .current_dir(package)
        .env("XDG_CACHE_HOME", cache)
        .env_remove("HARNESS_CACHE_DIR")
        .env("XDG_CONFIG_HOME", cache.join("no-config"))
        .arg("verify")
        .arg(package);
    timed("harness verify", &mut command)
}

/// One `bt run` in the package, with its temporary folder (where it keeps its builds) in
/// `cache`.
fn bt_run(bt: &Path, package: &Path, cache: &Path) -> Result<Timing, String> {
    let mut command = Command::new(bt);
    command.current_dir(package).env("TMPDIR", cache).arg("run");
    timed("bt run", &mut command)
}

fn timed(what: &str, command: &mut Command) -> Result<Timing, String> {
    let (timing, output) = run_timed(what, command)?;
    if !output.status.success() {
        return Err(failed(what, &output));
    }
    Ok(timing)
}

fn run_timed(what: &str, command: &mut Command) -> Result<(Timing, std::process::Output), String> {
    let before = crate::stress::children_cpu();
    let started = Instant::now();
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: {e}"))?;
    let wall = started.elapsed().as_secs_f64();
    let cpu = crate::stress::children_cpu() - before;
    Ok((Timing { wall, cpu }, output))
}

fn failed(what: &str, output: &std::process::Output) -> String {
    let tail = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    };
    format!(
        "{what} failed ({}):\n{}\n{}",
        output.status,
        tail(&output.stdout),
        tail(&output.stderr)
    )
}

/// BAPCtools in a private venv under `target/bench`, installed on first use.
fn install_bt(bench_dir: &Path) -> Result<PathBuf, String> {
    let venv = bench_dir.join("bt-venv");
    let bt = venv.join("bin/bt");
    if bt.is_file() {
        return Ok(bt);
    }
    eprintln!("installing {BT_PACKAGE} into {}", venv.display());
    run_quietly(Command::new("python3").arg("-m").arg("venv").arg(&venv))
        .and_then(|()| {
            run_quietly(
                Command::new(venv.join("bin/pip"))
                    .args(["install", "--quiet", BT_PACKAGE])
                    .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"),
            )
        })
        .map(|()| bt)
        .map_err(|e| format!("cannot install {BT_PACKAGE} from PyPI ({e})"))
}
