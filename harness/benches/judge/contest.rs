//! A contest day at scale: `harness contest` on 100 teams × 12 problems × 5 tries (6,000
//! submissions; `--teams N` for fewer), cold (fresh build and contest caches), again with
//! `--rejudge` (every submission judged, the builds cached) and warm (nothing changed: every
//! judgement from the contest cache). The twelve problems are the four shipped ones three
//! times over (A, E, I are queens-boards, …), each on a slice of its shipped cases; the tries
//! are the shipped stored submissions (accepted, wrong, crashing, not compiling), picked per
//! team and problem from a fixed seed, at times spread over the five hours.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::setup::{describe, Setup};
use crate::{Options, Target};

const PROBLEMS: usize = 12;
const TRIES: usize = 5;
/// Cases per problem: the samples and an even slice of the rest, so that one accepted try
/// is a dozen runs, as a contest's problem has tens, not the hundreds of a shipped suite.
const CASES: usize = 12;

/// Each shipped problem, its table's keys, and the stored submissions the teams send.
struct Shipped {
    id: &'static str,
    table: &'static str,
    tries: &'static [&'static str],
}

/// No try that times out or runs out of memory: those measure the limits, not the judge.
const SHIPPED: [Shipped; 4] = [
    Shipped {
        id: "queens-boards",
        table: "time-limit = \"1s\"\nmemory-limit = \"64MiB\"\nchecker = \"unordered-blocks\"\n",
        tries: &[
            "accepted/row_by_row.cpp",
            "accepted/cell_by_cell.c",
            "wrong_answer/duplicated_board.cpp",
            "compile_error/missing_semicolon.cpp",
            "run_time_error/at_past_the_end.cpp",
        ],
    },
    Shipped {
        id: "checker-challenge",
        table: "time-limit = \"1s\"\nmemory-limit = \"128MiB\"\n",
        tries: &[
            "accepted/bitmask.cpp",
            "accepted/deep_recursion.cpp",
            "compile_error/syntax_error.py",
            "accepted/bitmask.cpp",
        ],
    },
    Shipped {
        id: "king-queens",
        table: "time-limit = \"1s\"\nmemory-limit = \"256MiB\"\n",
        tries: &[
            "accepted/bitmask.cpp",
            "wrong_answer/edge_off_by_one.py",
            "run_time_error/reads_one_number.py",
            "accepted/bitmask.cpp",
        ],
    },
    Shipped {
        id: "two-n-queens",
        table: "time-limit = \"1s\"\nmemory-limit = \"512MiB\"\n",
        tries: &[
            "accepted/pairs.cpp",
            "wrong_answer/black_ignores_board.cpp",
            "accepted/pairs.cpp",
        ],
    },
];

/// One timed `harness contest`.
struct Timed {
    wall: f64,
    judged: usize,
}

pub fn run(setup: &Setup, options: &Options, targets: &mut Vec<Target>) -> Result<String, String> {
    let teams = options.teams;
    let dir = setup.bench_dir.join("contest");
    let _ = fs::remove_dir_all(&dir);
    let submissions = make_day(setup, &dir, teams)?;
    let cache = dir.join("cache");
    let jobs = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    eprintln!("contest: cold, {submissions} submissions");
    let cold = contest(setup, &dir, &cache, &[])?;
    eprintln!("contest: --rejudge");
    let rejudged = contest(setup, &dir, &cache, &["--rejudge"])?;
    eprintln!("contest: warm");
    let warm = contest(setup, &dir, &cache, &[])?;
    let per = |t: &Timed| t.wall * 1e3 / submissions as f64;
    let mut text = String::from("## A contest day: `harness contest`\n\n");
    writeln!(
        text,
        "`harness contest --submissions DIR -j {jobs}` on {teams} teams × {PROBLEMS} problems × \
         {TRIES} tries = {submissions} submissions (the four shipped problems three times over, \
         {CASES} of each one's shipped cases; the tries are its shipped stored submissions, C, \
         C++ and Python: accepted, wrong, crashing, not compiling), one run each. Cold: a fresh \
         `XDG_CACHE_HOME` (nothing compiled, nothing judged); `--rejudge`: every submission \
         judged again, the programs from the build cache; warm: nothing changed, every \
         judgement from the contest cache.\n\n\
         | run | submissions judged | wall | per submission |\n| --- | --: | --: | --: |"
    )
    .unwrap();
    for (label, timed) in [
        ("cold", &cold),
        ("`--rejudge` (builds cached)", &rejudged),
        ("warm (judgements cached)", &warm),
    ] {
        writeln!(
            text,
            "| {label} | {} | {:.2} s | {:.2} ms |",
            timed.judged,
            timed.wall,
            per(timed)
        )
        .unwrap();
    }
    targets.push(Target {
        what: format!("contest: a warm day of {submissions} submissions judges none again"),
        measured: format!("{} judged", warm.judged),
        met: warm.judged == 0,
    });
    targets.push(Target {
        what: "contest: warm ≤ 1% of cold (wall)".to_string(),
        measured: format!("{:.2}%", warm.wall / cold.wall * 100.0),
        met: warm.wall <= cold.wall / 100.0,
    });
    Ok(text)
}

/// Runs `harness contest` in `dir`; how long it took and how many it judged (the rest its
/// note says were judged before).
fn contest(setup: &Setup, dir: &Path, cache: &Path, extra: &[&str]) -> Result<Timed, String> {
    let started = Instant::now();
    let output = Command::new(&setup.harness)
        .args(["contest", "--submissions", "submissions"])
        .args(extra)
        .current_dir(dir)
        .env("XDG_CACHE_HOME", cache)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start harness contest: {e}"))?;
    let wall = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!(
            "harness contest failed ({}):\n{}{stderr}",
            output.status,
            String::from_utf8_lossy(&output.stdout)
        ));
    }
    // `note: K of N submissions were judged before …`.
    let total = submissions_in(dir)?;
    let cached = stderr
        .lines()
        .find_map(|line| {
            let rest = line.strip_prefix("note: ")?;
            let (k, rest) = rest.split_once(" of ")?;
            rest.contains("were judged before")
                .then(|| k.parse::<usize>().ok())?
        })
        .unwrap_or(0);
    Ok(Timed {
        wall,
        judged: total - cached,
    })
}

fn submissions_in(dir: &Path) -> Result<usize, String> {
    let times = fs::read_to_string(dir.join("submissions/times"))
        .map_err(|e| describe("submissions/times", e))?;
    Ok(times.lines().filter(|l| !l.starts_with('#')).count())
}

/// Writes judge.toml, contest.yaml, the cases and the teams' folders; the submissions' count.
fn make_day(setup: &Setup, dir: &Path, teams: usize) -> Result<usize, String> {
    let write = |relative: &str, bytes: &[u8]| -> Result<(), String> {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| describe(&parent.display().to_string(), e))?;
        }
        fs::write(&path, bytes).map_err(|e| describe(&path.display().to_string(), e))
    };
    write(
        "contest.yaml",
        b"name: Bench Day\nduration: 5:00:00\nscoreboard_freeze_duration: 1:00:00\npenalty_time: 20\n",
    )?;
    let mut table = String::new();
    let labels: Vec<char> = ('A'..='Z').take(PROBLEMS).collect();
    for (index, label) in labels.iter().enumerate() {
        let shipped = &SHIPPED[index % SHIPPED.len()];
        writeln!(
            table,
            "[problems.{label}-{}]\nlabel = \"{label}\"\n{}",
            shipped.id, shipped.table
        )
        .unwrap();
        for case in slice_of(&setup.root.join("cases").join(shipped.id))? {
            for extension in ["in", "ans"] {
                let from = setup
                    .root
                    .join("cases")
                    .join(shipped.id)
                    .join(format!("{case}.{extension}"));
                let bytes =
                    fs::read(&from).map_err(|e| describe(&from.display().to_string(), e))?;
                write(
                    &format!("cases/{label}-{}/{case}.{extension}", shipped.id),
                    &bytes,
                )?;
            }
        }
    }
    write("judge.toml", table.as_bytes())?;
    // xorshift64*: the same day on every machine.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |bound: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % bound
    };
    let mut times = String::from("# team/file contest time (minutes)\n");
    let mut count = 0;
    for team in 1..=teams {
        for (index, label) in labels.iter().enumerate() {
            let shipped = &SHIPPED[index % SHIPPED.len()];
            let mut minute = next(60);
            for attempt in 1..=TRIES {
                let stored = shipped.tries[next(shipped.tries.len())];
                let from = setup
                    .root
                    .join("solutions/submissions")
                    .join(shipped.id)
                    .join(stored);
                let bytes =
                    fs::read(&from).map_err(|e| describe(&from.display().to_string(), e))?;
                let extension = from
                    .extension()
                    .map_or(String::new(), |e| e.to_string_lossy().into_owned());
                let name = if attempt == 1 {
                    format!("team{team:03}/{label}.{extension}")
                } else {
                    format!("team{team:03}/{label}-{attempt}.{extension}")
                };
                write(&format!("submissions/{name}"), &bytes)?;
                minute = (minute + 1 + next(50)).min(299);
                writeln!(times, "{name} {minute}").unwrap();
                count += 1;
            }
        }
    }
    write("submissions/times", times.as_bytes())?;
    Ok(count)
}

/// The names of a shipped problem's cases the day uses: its samples, then every k-th of the
/// rest, [`CASES`] in all.
fn slice_of(folder: &Path) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .map_err(|e| describe(&folder.display().to_string(), e))?
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            if path.extension()? != "in" {
                return None;
            }
            Some(path.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    let (samples, rest): (Vec<String>, Vec<String>) =
        names.into_iter().partition(|n| n.starts_with("sample"));
    let wanted = CASES.saturating_sub(samples.len()).max(1);
    let step = rest.len().div_ceil(wanted).max(1);
    Ok(samples
        .into_iter()
        .chain(rest.into_iter().step_by(step))
        .take(CASES)
        .collect())
}
