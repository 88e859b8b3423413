//! The shipped solutions on the largest inputs: each fast bit-mask solution against its
//! brute-force reference and the textbook array search, in CPU time from wait4 (through the
//! harness's own runner), every output checked against the case's answer.

use std::fmt::Write as _;
use std::time::Duration;

use harness::check::{self, CaseFiles};
use harness::config;
use harness::sandbox::run::{self, Limits, RunRequest, Stdin, Termination};
use harness::verdict::Verdict;

use crate::setup::Setup;
use crate::stats::{median, ms, ratio};
use crate::Target;

/// (problem, case, what the case is).
const LARGEST: [(&str, &str, &str); 4] = [
    ("checker-challenge", "n13", "n = 13"),
    ("queens-boards", "n9", "n = 9"),
    ("king-queens", "all-649", "n = 12, king in the corner"),
    ("two-n-queens", "full-8", "n = 8, full board"),
];
const VARIANTS: [&str; 3] = ["", "-brute", "-array"];

pub fn run(setup: &Setup, repeats: usize, targets: &mut Vec<Target>) -> Result<String, String> {
    let config =
        config::load(&setup.root.join("judge.toml")).map_err(|e| format!("judge.toml: {e}"))?;
    // Generous: a slow or loaded machine must not turn a measurement into a failure.
    let limits = Limits {
        cpu_time: Duration::from_secs(60),
        wall_time: Duration::from_secs(120),
        memory_bytes: 1 << 30,
        output_bytes: 256 << 20,
    };
    let rounds = repeats.max(5);
    let mut text = String::from("## The solutions on their largest inputs\n\n");
    writeln!(
        text,
        "CPU time (user + sys, from wait4) of one run, median of {rounds} interleaved rounds; \
         it includes the process's start-up (about 0.3–0.5 ms for a Rust binary), so ratios \
         of sub-millisecond runs say little. Every output was checked against the answer.\n\n\
         | problem | input | fast (ms) | brute force (ms) | array search (ms) | brute ÷ fast | array ÷ fast |\n\
         | --- | --- | --: | --: | --: | --: | --: |"
    )
    .unwrap();
    for (id, case_name, about) in LARGEST {
        eprintln!("solutions: {id}");
        let problem = config.require_problem(id).map_err(|e| e.to_string())?;
        let input = problem.cases.join(format!("{case_name}.in"));
        let answer_path = problem.cases.join(format!("{case_name}.ans"));
        let answer = std::fs::read(&answer_path)
            .map_err(|e| format!("cannot read `{}`: {e}", answer_path.display()))?;
        let programs = VARIANTS
            .iter()
            .map(|suffix| setup.solution(&format!("{id}{suffix}")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut cpu = vec![Vec::new(); programs.len()];
        for round in 0..=rounds {
            for k in 0..programs.len() {
                let v = (k + round) % programs.len();
                let request = RunRequest::new(&programs[v], limits).stdin(Stdin::File(&input));
                let result = run::run(&request).map_err(|e| e.to_string())?;
                if result.termination != Termination::Exited(0) || result.limit_hit.is_some() {
                    return Err(format!(
                        "{} on {case_name}: {:?} {:?}",
                        programs[v].display(),
                        result.termination,
                        result.limit_hit
                    ));
                }
                let files = CaseFiles {
                    input: &input,
                    answer: &answer_path,
                };
                let checked = check::check(&problem.checker, &files, &result.stdout, &answer);
                if checked.verdict != Verdict::Accepted {
                    return Err(format!(
                        "{} on {case_name}: {}",
                        programs[v].display(),
                        checked.reason
                    ));
                }
                // Round 0 warms the page cache.
                if round > 0 {
                    cpu[v].push(result.cpu_time.as_secs_f64());
                }
            }
        }
        let ratio_to_fast = |v: usize| {
            median(
                &cpu[v]
                    .iter()
                    .zip(&cpu[0])
                    .map(|(x, f)| x / f.max(1e-6))
                    .collect::<Vec<_>>(),
            )
        };
        let (brute, array) = (ratio_to_fast(1), ratio_to_fast(2));
        writeln!(
            text,
            "| {id} | {about} | {} | {} | {} | {} | {} |",
            ms(median(&cpu[0])),
            ms(median(&cpu[1])),
            ms(median(&cpu[2])),
            ratio(brute),
            ratio(array),
        )
        .unwrap();
        if id == "checker-challenge" {
            targets.push(Target {
                what: "checker-challenge n = 13: fast ≥ 10 × faster than the array search".into(),
                measured: ratio(array),
                met: array >= 10.0,
            });
        }
    }
    Ok(text)
}
