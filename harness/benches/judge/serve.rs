//! `harness serve` against `harness judge` on the same cases: the per-case cost of each
//! (N cases against 1, so start-up and the build cancel), and how soon the first
//! `case.finished` comes after a `judge` request when the build is cached. One server process
//! serves every repeat, as an editor keeps one; the command line starts anew each time, as a
//! terminal does. Interleaved, the order rotated from repeat to repeat.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::setup::{Setup, PROGRAMS};
use crate::stats::{median, ms, range, ratio};
use crate::{Options, Target};

/// Cases judged in the long runs: the first of king-queens' inputs, each its own answer.
const CASES: usize = 300;
/// The case of the one-case runs.
const ONE: &str = "all-000";
/// How long a judge through the server may take before the bench gives up.
const PATIENCE: Duration = Duration::from_secs(600);

/// The folder the bench judges in: `echo.c` and `test/` of `CASES` cases beside it.
fn lay_out(setup: &Setup) -> Result<PathBuf, String> {
    let dir = setup.bench_dir.join("serve");
    let test = dir.join("test");
    let _ = std::fs::remove_dir_all(&test);
    std::fs::create_dir_all(&test).map_err(|e| format!("cannot make `{}`: {e}", test.display()))?;
    let cases = setup.root.join("cases/king-queens");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&cases)
        .map_err(|e| format!("cannot read `{}`: {e}", cases.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "in"))
        .collect();
    inputs.sort();
    if inputs.len() < CASES {
        return Err(format!(
            "`{}` has fewer than {CASES} inputs",
            cases.display()
        ));
    }
    for input in &inputs[..CASES] {
        let name = input.file_name().unwrap();
        let copy = |to: PathBuf| {
            std::fs::copy(input, &to).map_err(|e| format!("cannot copy `{}`: {e}", input.display()))
        };
        copy(test.join(name))?;
        copy(test.join(name).with_extension("ans"))?;
    }
    std::fs::copy(Path::new(PROGRAMS).join("echo.c"), dir.join("echo.c"))
        .map_err(|e| format!("cannot copy echo.c: {e}"))?;
    Ok(dir)
}

/// Seconds for `harness judge echo.c` on every case, or on `ONE`.
fn judge_cli(setup: &Setup, dir: &Path, one: bool) -> Result<f64, String> {
    let mut command = Command::new(&setup.harness);
    command
        .args(["judge", "echo.c", "--all", "-j", "1", "--color", "never"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if one {
        command.args(["--case", ONE]);
    }
    let started = Instant::now();
    let status = command
        .status()
        .map_err(|e| format!("cannot run harness judge: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    // Exit 0: every case is accepted (each input is its own answer).
    if !status.success() {
        return Err(format!(
            "harness judge echo.c failed in `{}`: {status}",
            dir.display()
        ));
    }
    Ok(seconds)
}

/// A `harness serve` on pipes, its lines read as they come with when they came.
struct Server {
    child: Child,
    to: ChildStdin,
    from: Receiver<(Instant, Value)>,
    next_id: u64,
}

impl Server {
    fn start(setup: &Setup, dir: &Path) -> Result<Server, String> {
        let mut child = Command::new(&setup.harness)
            .arg("serve")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start harness serve: {e}"))?;
        let to = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, from) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let now = Instant::now();
                let Ok(value) = serde_json::from_str(&line) else {
                    return;
                };
                if sender.send((now, value)).is_err() {
                    return;
                }
            }
        });
        Ok(Server {
            child,
            to,
            from,
            next_id: 1,
        })
    }

    /// Judges `echo.c` (every case, or `ONE`): seconds from the request to `task.finished`,
    /// and to the first `case.finished`.
    fn judge(&mut self, dir: &Path, one: bool) -> Result<(f64, f64), String> {
        let id = self.next_id;
        self.next_id += 1;
        let mut params = json!({"source": dir.join("echo.c"), "all": true, "jobs": 1});
        if one {
            params["case"] = json!(ONE);
        }
        let line = json!({"jsonrpc": "2.0", "id": id, "method": "judge", "params": params});
        let started = Instant::now();
        writeln!(self.to, "{line}").map_err(|e| format!("the server is gone: {e}"))?;
        let mut task = None;
        let mut first = None;
        loop {
            let (at, value) = self
                .from
                .recv_timeout(PATIENCE)
                .map_err(|_| "the server did not finish the task".to_string())?;
            if value["id"] == id {
                if let Some(error) = value.get("error") {
                    return Err(format!("judge was refused: {error}"));
                }
                task = Some(value["result"]["task"].clone());
                continue;
            }
            let event = &value["params"];
            if value["method"] != "event" || task.as_ref() != Some(&event["task"]) {
                continue;
            }
            match event["kind"].as_str() {
                Some("case.finished") if first.is_none() => first = Some(at - started),
                Some("task.finished") => {
                    if event["verdict"] != "AC" {
                        return Err(format!("serve judged echo.c: {event}"));
                    }
                    let first = first.ok_or("no case.finished came")?;
                    return Ok(((at - started).as_secs_f64(), first.as_secs_f64()));
                }
                _ => {}
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn run(setup: &Setup, options: &Options, targets: &mut Vec<Target>) -> Result<String, String> {
    let dir = lay_out(setup)?;
    let mut server = Server::start(setup, &dir)?;
    // Both build echo.c once (one cache): what follows is judged with a cached build.
    eprintln!("serve: warming up (the build of echo.c)");
    judge_cli(setup, &dir, true)?;
    server.judge(&dir, true)?;
    let (mut cli_case, mut serve_case, mut ratios, mut firsts, mut firsts_all) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for repeat in 0..options.repeats {
        eprintln!("serve: repeat {}/{}", repeat + 1, options.repeats);
        let mut cli = (0.0, 0.0);
        let mut served = ((0.0, 0.0), (0.0, 0.0));
        let mut turns: [u8; 2] = [0, 1];
        turns.rotate_left(repeat % 2);
        for turn in turns {
            if turn == 0 {
                cli = (
                    judge_cli(setup, &dir, false)?,
                    judge_cli(setup, &dir, true)?,
                );
            } else {
                served = (server.judge(&dir, false)?, server.judge(&dir, true)?);
            }
        }
        let per = |all: f64, one: f64| (all - one) / (CASES - 1) as f64;
        let cli_per = per(cli.0, cli.1);
        let serve_per = per(served.0 .0, served.1 .0);
        cli_case.push(cli_per);
        serve_case.push(serve_per);
        ratios.push(serve_per / cli_per);
        firsts.push(served.1 .1);
        firsts_all.push(served.0 .1);
    }
    let (cli, serve, r) = (median(&cli_case), median(&serve_case), median(&ratios));
    let first = median(&firsts);
    let mut text =
        String::from("## serve: a case through `harness serve` against `harness judge`\n\n");
    let _ = writeln!(
        text,
        "The C echo (`benches/programs/echo.c`, built by the judge's own C entry) on the first {CASES} king-queens inputs (each its own answer), \
         `-j 1`, the build cached; per case = (T({CASES}) − T(1)) / {}, wall time. One \
         `harness serve` serves every repeat; `harness judge` starts anew each time.\n\n\
         | | per case (median) |\n| --- | --- |\n\
         | `harness judge echo.c --all` | {} ms |\n\
         | `harness serve`, `judge {{source, all}}` | {} ms |\n\
         | serve ÷ judge (median of the repeats' ratios; min–max) | {} ({}–{}) |\n\n\
         | from the `judge` request to the first `case.finished` | median |\n| --- | --- |\n\
         | one case (`case: \"{ONE}\"`) | {} ms |\n| every case | {} ms |",
        CASES - 1,
        ms(cli),
        ms(serve),
        ratio(r),
        ratio(range(&ratios).0),
        ratio(range(&ratios).1),
        ms(first),
        ms(median(&firsts_all)),
    );
    targets.push(Target {
        what: "serve: a case through `harness serve` ≤ 1.05× one through `harness judge`".into(),
        measured: ratio(r),
        met: r <= 1.05,
    });
    targets.push(Target {
        what: "serve: the first `case.finished` ≤ 50 ms after the `judge` request (cached build)"
            .into(),
        measured: format!("{} ms", ms(first)),
        met: first <= 0.050,
    });
    Ok(text)
}
