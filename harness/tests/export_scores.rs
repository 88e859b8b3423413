//! `harness export` of a scored problem: a Kattis scoring package (`type: scoring`, a folder
//! per subtask with its testdata.yaml, dependencies as copies of the cases required, the
//! expected scores in the sources) that the harness reading it back and problemtools'
//! verifyproblem both score as `harness verify` scores judge.toml. The comparison with
//! verifyproblem says "skipped:" where it is not installed, and fails under CI.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;

use common::project::Project;
use serde_json::Value;

/// Subtasks over `n`, the answer `2n`: `small` all or nothing, `big` each case its share and
/// only when `small` passes, `huge` only when `big` passes.
const TOML: &str = r#"
[problems.double]
title = "Double it"
time-limit = "2s"
memory-limit = "256MiB"
[problems.double.scoring]
total = 100
[[problems.double.scoring.groups]]
name = "small"
cases = "small-*"
points = 30
[[problems.double.scoring.groups]]
name = "big"
cases = "big-*"
points = 30
aggregation = "sum"
depends-on = ["small"]
[[problems.double.scoring.groups]]
name = "huge"
cases = "huge-*"
points = 40
depends-on = ["big"]
[problems.double.expected-scores]
"partially_accepted/upto30.py" = 50
"#;

/// A submission right for the `n` that `condition` (Python) accepts, and wrong elsewhere.
fn right_when(condition: &str, expected: Option<&str>) -> String {
    let comment = expected.map_or(String::new(), |s| format!("# @EXPECTED_SCORE@: {s}\n"));
    format!("{comment}n = int(input())\nprint(2 * n if {condition} else 0)\n")
}

/// Scores (with the groups') `harness verify` gives: file name → (total, group → score).
type Scores = BTreeMap<String, (f64, BTreeMap<String, f64>)>;

fn project() -> Project {
    let mut project = Project::new()
        .file("judge.toml", TOML)
        .file(
            "solutions/submissions/double/accepted/right.py",
            &right_when("True", None),
        )
        .file(
            "solutions/submissions/double/partially_accepted/small.py",
            &right_when("n <= 10", Some("30")),
        )
        // Its expected score is judge.toml's: the export writes it into the source.
        .file(
            "solutions/submissions/double/partially_accepted/upto30.py",
            &right_when("n <= 30", None),
        )
        // Right on huge, wrong on big: huge depends on big, so it scores nothing.
        .file(
            "solutions/submissions/double/partially_accepted/not_big.py",
            &right_when("not 10 < n <= 40", Some("30")),
        )
        // Right on big and huge, but small fails: nothing counts.
        .file(
            "solutions/submissions/double/wrong_answer/skip_small.py",
            &right_when("n > 10", None),
        )
        .case("double", "sample-1", "1\n", "2\n");
    for (group, values) in [
        ("small", &[3, 7][..]),
        ("big", &[20, 30, 40][..]),
        ("huge", &[1000][..]),
    ] {
        for (i, n) in values.iter().enumerate() {
            project = project.case(
                "double",
                &format!("{group}-{}", i + 1),
                &format!("{n}\n"),
                &format!("{}\n", 2 * n),
            );
        }
    }
    project
}

/// `harness verify TARGET --format json`, which must pass, as scores by file name.
fn verified(project: &Project, target: &str) -> Scores {
    let output = project
        .harness()
        .args(["verify", target, "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "verify {target}: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let document: Value = serde_json::from_str(&stdout).unwrap();
    document["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let file = s["name"].as_str().unwrap().rsplit('/').next().unwrap();
            let groups = s["groups"]
                .as_array()
                .map(|groups| {
                    groups
                        .iter()
                        .map(|g| {
                            let name = g["name"].as_str().unwrap();
                            let last = name.rsplit('/').next().unwrap().to_string();
                            (last, g["score"].as_f64().unwrap_or(f64::NAN))
                        })
                        .collect()
                })
                .unwrap_or_default();
            (
                file.to_string(),
                (s["score"].as_f64().expect("a score"), groups),
            )
        })
        .collect()
}

fn export(project: &Project, dialect: &str, out: &str) {
    project
        .harness()
        .args([
            "export",
            "double",
            "--no-measure",
            "--for",
            dialect,
            "--out",
            out,
        ])
        .assert()
        .success();
}

const RECORDED: [(&str, f64); 5] = [
    ("right.py", 100.0),
    ("small.py", 30.0),
    ("upto30.py", 50.0),
    ("not_big.py", 30.0),
    ("skip_small.py", 0.0),
];

#[test]
fn a_scored_problem_exports_as_a_scoring_package_scored_the_same() {
    let project = project();
    let ours = verified(&project, "double");
    for (file, score) in RECORDED {
        assert_eq!(ours[file].0, score, "{file}: {ours:?}");
    }
    for (dialect, out) in [("kattis", "double"), ("domjudge", "legacy/double")] {
        export(&project, dialect, out);
        let yaml = project.read(&format!("{out}/problem.yaml"));
        assert!(yaml.contains("type: scoring"), "{yaml}");
        assert_eq!(
            project.read(&format!("{out}/data/secret/small/testdata.yaml")),
            "on_reject: break\nrange: 0 30\naccept_score: 30\ngrader_flags: min\n"
        );
        // big, a sum group that depends on small: the lesser of small's copies (all or
        // nothing) and the average of its own cases.
        assert!(project
            .join(&format!(
                "{out}/data/secret/big/0-requires/small-small-1.in"
            ))
            .is_file());
        assert!(project
            .join(&format!("{out}/data/secret/big/1-cases/big-3.in"))
            .is_file());
        // huge, a min group: the copies beside its own case.
        assert!(project
            .join(&format!("{out}/data/secret/huge/big-big-2.in"))
            .is_file());
        // judge.toml's expected score, now in the source as DOMjudge and the harness read it.
        assert!(project
            .read(&format!("{out}/submissions/partially_accepted/upto30.py"))
            .starts_with("# @EXPECTED_SCORE@: 50\n"));
        // The package read back: the same total for every submission, and each group's.
        let theirs = verified(&project, out);
        for (file, (score, groups)) in &ours {
            let (their_score, their_groups) = &theirs[file];
            assert_eq!(their_score, score, "{dialect} {file}: {theirs:?}");
            for (group, points) in groups {
                assert_eq!(
                    their_groups.get(group),
                    Some(points),
                    "{dialect} {file} group {group}: {theirs:?}"
                );
            }
        }
    }
}

/// The "Submission results" table of verifyproblem: file name → (group → cell, points).
fn verifyproblem_table(text: &str) -> BTreeMap<String, (BTreeMap<String, String>, f64)> {
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with("Submission results:"))
        .skip(1);
    let header: Vec<&str> = lines
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let mut table = BTreeMap::new();
    for line in lines {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells.len() != header.len() {
            break;
        }
        let groups = header[1..header.len() - 2]
            .iter()
            .zip(&cells[1..])
            .map(|(g, c)| (g.to_string(), c.to_string()))
            .collect();
        let points = cells[cells.len() - 2].parse().unwrap_or(f64::NAN);
        table.insert(cells[0].to_string(), (groups, points));
    }
    table
}

#[test]
fn verifyproblem_scores_the_exported_package_as_harness_verify_does() {
    let installed = std::process::Command::new("verifyproblem")
        .arg("--help")
        .output()
        .is_ok_and(|o| o.status.success());
    let pypy = std::process::Command::new("pypy3")
        .args(["-c", "1"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !(installed && pypy) {
        assert!(
            std::env::var_os("CI").is_none(),
            "verifyproblem or pypy3 is not installed: CI runs .ci/install-tools, which installs them"
        );
        common::skipped("verifyproblem_scores_the_exported_package_as_harness_verify_does: verifyproblem or pypy3 is not installed");
        return;
    }
    let project = project();
    let ours = verified(&project, "double");
    // problemtools runs Python with PyPy under an address-space limit PyPy cannot start in
    // (.ci/verify-export says why): the judge host's configuration lifts it.
    project.write(
        "config/problemtools/languages.yaml",
        "python3:\n    run: \"/bin/sh -c 'ulimit -v $(( ({memlim} + 2048) * 1024 )) && exec pypy3 \\\"$0\\\" \\\"$@\\\"' \\\"{mainfile}\\\"\"\n",
    );
    for (dialect, out) in [("kattis", "double"), ("domjudge", "legacy/double")] {
        export(&project, dialect, out);
        let output = std::process::Command::new("verifyproblem")
            .args(["-p", "submissions", "--"])
            .arg(project.join(out))
            .env("XDG_CONFIG_HOME", project.join("config"))
            .current_dir(project.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "verifyproblem on {dialect}:\n{text}"
        );
        let table = verifyproblem_table(&text);
        for (file, (score, groups)) in &ours {
            let (cells, points) = table.get(file).unwrap_or_else(|| {
                panic!("{dialect}: no {file} in verifyproblem's table:\n{text}")
            });
            assert_eq!(*points, score.round(), "{dialect} {file}:\n{text}");
            for (group, got) in groups {
                // `AC(30):0.05s` for a group that passes; a failed one shows only its verdict
                // (a `sum` group may still have scored: the total says it).
                let cell = &cells[group];
                let Some(said) = cell
                    .strip_prefix("AC(")
                    .and_then(|c| c.split_once(')'))
                    .and_then(|(s, _)| s.parse::<f64>().ok())
                else {
                    continue;
                };
                assert!(
                    (said - got).abs() < 0.01,
                    "{dialect} {file} group {group}: verifyproblem {cell}, harness {got}:\n{text}"
                );
            }
        }
    }
}

/// Luogu points, 8 cases of 12.5: a `wrong_answer/` and a `time_limit_exceeded/` submission
/// each right on 7 of them score 87.5 and fail with their folder's verdict. The package's
/// `secret/` grades a submission that scores AC (problemtools wants `partially_accepted/`
/// AC), so before the export wrote the folders' rules over the cases into
/// `submissions.yaml`, both read back "AC, score 87.5/100", a mismatch.
#[test]
fn a_scored_failing_submission_that_scores_reads_back_with_its_folders_verdict() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.pts]\ntitle = \"Points\"\ntime-limit = \"1s\"\nscoring = \"points\"\n",
        )
        .file(
            "solutions/submissions/pts/accepted/right.py",
            &right_when("True", None),
        )
        .file(
            "solutions/submissions/pts/wrong_answer/last_wrong.py",
            &right_when("n < 8", None),
        )
        .file(
            "solutions/submissions/pts/time_limit_exceeded/last_spins.py",
            "n = int(input())\nwhile n == 8:\n    pass\nprint(2 * n)\n",
        )
        .case("pts", "sample-1", "1\n", "2\n");
    let project = (1..=8).fold(project, |p, n| {
        p.case(
            "pts",
            &format!("t{n}"),
            &format!("{n}\n"),
            &format!("{}\n", 2 * n),
        )
    });
    project
        .args(["export", "pts", "--no-measure", "--out", "out/pts"])
        .status(0)
        .run();
    assert_eq!(
        project.read("out/pts/submissions/submissions.yaml"),
        "# Exported by harness: each folder's verdict is a case's, whatever the score.\n\
         wrong_answer:\n  permitted: [AC, WA]\n  required: [WA]\n\
         time_limit_exceeded:\n  permitted: [AC, TLE]\n  required: [TLE]\n"
    );
    // `verified` asserts that every submission met its expectation (exit 0).
    for target in ["pts", "out/pts"] {
        let scores: BTreeMap<String, f64> = verified(&project, target)
            .into_iter()
            .map(|(file, (score, _))| (file, score))
            .collect();
        assert_eq!(
            scores,
            BTreeMap::from([
                ("right.py".to_string(), 100.0),
                ("last_wrong.py".to_string(), 87.5),
                ("last_spins.py".to_string(), 87.5),
            ]),
            "verify {target}"
        );
    }
}
