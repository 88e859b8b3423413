//! Scores on the real binary: judge.toml's test points and subtasks, the score and the group
//! lines of `judge`, JSON and JUnit, a group stopped at its first failure (unless `--all`),
//! the expected scores of stored submissions in `verify`, and bad scoring rules named at their
//! line and column.
#![cfg(unix)]

mod common;

use common::project::Project;
use serde_json::Value;

const FAILED: i32 = 1;
const ERROR: i32 = 2;
const JUDGE_ERROR: i32 = 3;

/// `sq`: three small cases (n < 10), three big ones, a sample; squares. `sh` submissions.
const SQ: &str = r#"
[problems.sq]
[problems.sq.scoring]
total = 100
[[problems.sq.scoring.groups]]
name = "small"
cases = "small-*"
points = 30
[[problems.sq.scoring.groups]]
name = "big"
cases = ["big-*"]
points = 70
depends-on = ["small"]

[problems.luogu]
cases = "cases/sq"
scoring = "points"

[problems.own]
cases = "cases/sq"
[problems.own.scoring]
[[problems.own.scoring.points]]
cases = "big-*"
points = 20

[languages.sh]
extensions = ["sh"]
run = ["sh", "{source}"]
"#;

/// Right for n < 10 only.
const SMALL: &str = "read n\nif [ \"$n\" -lt 10 ]; then echo $((n * n)); else echo 0; fi\n";
/// Right everywhere.
const RIGHT: &str = "read n\necho $((n * n))\n";
/// Wrong everywhere.
const ZERO: &str = "read n\necho 0\n";

fn project(toml: &str) -> Project {
    let mut project = Project::new()
        .file("judge.toml", toml)
        .file("small.sh", SMALL)
        .file("right.sh", RIGHT)
        .file("zero.sh", ZERO)
        .case("sq", "sample-1", "2\n", "4\n");
    for n in [1, 2, 3] {
        project = project.case(
            "sq",
            &format!("small-{n}"),
            &format!("{n}\n"),
            &format!("{}\n", n * n),
        );
    }
    for n in [100, 200, 300] {
        project = project.case(
            "sq",
            &format!("big-{n}"),
            &format!("{n}\n"),
            &format!("{}\n", n * n),
        );
    }
    project
}

fn run(project: &Project, args: &[&str]) -> (i32, String, String) {
    let output = project.harness().args(args).output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn json(project: &Project, args: &[&str]) -> Value {
    let (_, stdout, stderr) = run(project, args);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}:\n{stdout}\n{stderr}"))
}

#[test]
fn subtasks_give_the_score_and_a_line_per_group() {
    let project = project(SQ);
    let (code, stdout, _) = run(&project, &["judge", "sq", "small.sh"]);
    assert_eq!(code, FAILED, "{stdout}");
    assert!(stdout.contains("verdict: WA, score 30/100"), "{stdout}");
    let small = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("small "))
        .unwrap();
    assert!(small.contains("30/30") && small.contains("AC"), "{small}");
    let big = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("big "))
        .unwrap();
    assert!(
        big.contains("0/70") && big.contains("WA") && big.contains("first failing case: big-100"),
        "{big}"
    );
    // A subtask counts only if all its cases pass: after big-100, the rest are not needed.
    assert!(stdout.contains("5 of 7 cases judged"), "{stdout}");

    let (code, stdout, _) = run(&project, &["judge", "sq", "right.sh"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("verdict: AC, score 100/100"), "{stdout}");
}

#[test]
fn all_judges_every_case_of_a_group_that_failed() {
    let project = project(SQ);
    let document = json(&project, &["judge", "sq", "small.sh", "--format", "json"]);
    assert_eq!(document["cases"].as_array().unwrap().len(), 5);
    let (_, stdout, _) = run(&project, &["judge", "sq", "small.sh", "--all"]);
    assert!(stdout.contains("3 WA"), "{stdout}");
    assert!(stdout.contains("score 30/100"), "{stdout}");
}

#[test]
fn a_failed_dependency_blocks_its_group() {
    let project = project(SQ);
    let (_, stdout, _) = run(&project, &["judge", "sq", "zero.sh"]);
    assert!(stdout.contains("score 0/100"), "{stdout}");
    let big = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("big "))
        .unwrap();
    assert!(big.contains("not judged: `small` did not pass"), "{big}");
    // Only the sample and the first small case ran.
    assert!(stdout.contains("2 of 7 cases judged"), "{stdout}");
}

#[test]
fn json_and_junit_carry_the_score_and_the_groups() {
    let project = project(SQ);
    let document = json(
        &project,
        &[
            "judge", "sq", "small.sh", "--format", "json", "--junit", "sq.xml",
        ],
    );
    assert_eq!(document["score"], 30.0);
    assert_eq!(document["max_score"], 100.0);
    let groups = document["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[1]["name"], "big");
    assert_eq!(groups[1]["score"], 0.0);
    assert_eq!(groups[1]["max_score"], 70.0);
    assert_eq!(groups[1]["verdict"], "WA");
    assert_eq!(groups[1]["first_failure"], "big-100");
    let xml = project.read("sq.xml");
    assert!(
        xml.contains(r#"<property name="score" value="30"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<property name="max-score" value="100"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<property name="group.big" value="0/70 WA"/>"#),
        "{xml}"
    );

    // A pass-fail problem's document has none of them.
    let plain = Project::new()
        .file(
            "judge.toml",
            "[problems.sq]\n[languages.sh]\nextensions = [\"sh\"]\nrun = [\"sh\", \"{source}\"]\n",
        )
        .file("right.sh", RIGHT)
        .case("sq", "1", "2\n", "4\n");
    let document = json(&plain, &["judge", "sq", "right.sh", "--format", "json"]);
    for key in ["score", "max_score", "groups"] {
        assert!(document.get(key).is_none(), "{key} in {document}");
    }
}

#[test]
fn test_points_as_luogu_gives_them() {
    let project = project(SQ);
    // Six cases not samples share 100: three right make 50.
    let (_, stdout, _) = run(&project, &["judge", "luogu", "small.sh"]);
    assert!(stdout.contains("score 50/100"), "{stdout}");
    // Big cases 20 each (60), the three small share the 40 left.
    let document = json(&project, &["judge", "own", "small.sh", "--format", "json"]);
    assert_eq!(document["score"], 40.0, "{document}");
    let big = document["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "big-100")
        .unwrap();
    assert_eq!(big["max_score"], 20.0);
    assert_eq!(big["score"], 0.0);
}

/// `(code, stderr)` of judging `sq` with the scoring table replaced by `scoring`.
fn with_scoring(scoring: &str) -> (i32, String) {
    let toml = format!(
        "[problems.sq]\n{scoring}\n[languages.sh]\nextensions = [\"sh\"]\nrun = [\"sh\", \"{{source}}\"]\n"
    );
    let project = project(&toml);
    let (code, _, stderr) = run(&project, &["judge", "sq", "right.sh"]);
    (code, stderr)
}

#[test]
fn bad_scoring_is_an_error_at_its_line_and_column() {
    let group = |name: &str, cases: &str, points: u32, extra: &str| {
        format!("[[problems.sq.scoring.groups]]\nname = \"{name}\"\ncases = {cases}\npoints = {points}\n{extra}")
    };
    let table: Vec<(String, &str)> = vec![
        (
            format!("[problems.sq.scoring]\ntotal = 100\n{}{}", group("small", "\"small-*\"", 30, ""), group("big", "\"big-*\"", 60, "")),
            "judge.toml:3:9: problem `sq`, scoring: the points add up to 90, not the stated total 100",
        ),
        (
            format!("[problems.sq.scoring]\n{}{}", group("small", "[\"small-*\", \"huge-*\"]", 30, ""), group("big", "\"big-*\"", 70, "")),
            "judge.toml:5:21: problem `sq`, scoring: `huge-*` matches no case (in group `small`)",
        ),
        (
            format!("[problems.sq.scoring]\n{}{}", group("small", "\"*\"", 30, ""), group("big", "\"big-*\"", 70, "")),
            "judge.toml:9:9: problem `sq`, scoring: case `big-100` is in both `small` and `big`",
        ),
        (
            format!("[problems.sq.scoring]\n{}", group("small", "\"small-*\"", 30, "")),
            "problem `sq`, scoring: case `big-100` is in no group",
        ),
        (
            format!("[problems.sq.scoring]\n{}{}", group("small", "\"small-*\"", 30, ""), group("big", "\"big-*\"", 70, "depends-on = [\"smal\"]\n")),
            "judge.toml:11:15: problem `sq`, scoring: group `big` depends on `smal`",
        ),
        (
            format!("[problems.sq.scoring]\n{}{}", group("small", "\"small-*\"", 30, "depends-on = [\"big\"]\n"), group("big", "\"big-*\"", 70, "depends-on = [\"small\"]\n")),
            "problem `sq`, scoring: ",
        ),
        (
            format!("[problems.sq.scoring]\n{}", group("small", "\"small-*\"", 30, "weight = 2\n")),
            "judge.toml:7:10: problem `sq`, scoring: unknown key `weight` in `groups`",
        ),
        (
            "scoring = \"point\"\n".to_string(),
            "judge.toml:2:11: problem `sq`, scoring: unknown scoring `point`",
        ),
    ];
    for (scoring, expected) in &table {
        let (code, stderr) = with_scoring(scoring);
        assert_eq!(code, ERROR, "{scoring}\n{stderr}");
        assert!(
            stderr.contains(expected),
            "{scoring}\nexpected `{expected}` in:\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // The glob that matches nothing and the cycle say so.
    let (_, stderr) = with_scoring(&table[1].0);
    assert!(stderr.contains("huge-*"), "{stderr}");
    let (_, stderr) = with_scoring(&table[5].0);
    assert!(
        stderr.contains("`small` → `big`") || stderr.contains("`big` → `small`"),
        "{stderr}"
    );
}

fn store(project: &Project, relative: &str, text: &str) {
    project.write(&format!("solutions/submissions/sq/{relative}"), text);
}

#[test]
fn verify_checks_expected_scores() {
    let project = project(SQ);
    store(&project, "accepted/right.sh", RIGHT);
    store(&project, "partially_accepted/small.sh", SMALL);
    store(&project, "wrong_answer/zero.sh", ZERO);
    let (code, stdout, stderr) = run(&project, &["verify"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("submission results: sq"), "{stdout}");
    let row = stdout
        .lines()
        .rfind(|l| l.starts_with("sq/partially_accepted/small.sh"))
        .unwrap();
    // The table: small 30, big 0, total 30/100.
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[1..4], ["30", "0", "30/100"], "{row}");

    // A wrong stated score is a MISMATCH, whichever way it is stated.
    store(
        &project,
        "partially_accepted/small40.sh",
        &format!("# @EXPECTED_SCORE@: 40\n{SMALL}"),
    );
    let (code, stdout, _) = run(&project, &["verify"]);
    assert_eq!(code, FAILED, "{stdout}");
    let row = stdout
        .lines()
        .position(|l| l.starts_with("sq/partially_accepted/small40.sh"))
        .unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[row].contains("MISMATCH") && lines[row].contains("score 30/100"),
        "{stdout}"
    );
    assert!(
        lines[row + 1].contains("expected score 40, got 30"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(got another score than expected)"),
        "{stdout}"
    );
    std::fs::remove_file(project.join("solutions/submissions/sq/partially_accepted/small40.sh"))
        .unwrap();

    // judge.toml's table wins over the comment, and a range is a range.
    let toml = SQ.replace(
        "[problems.luogu]",
        "[problems.sq.expected-scores]\n\"partially_accepted/small.sh\" = [31, 50]\n\n[problems.luogu]",
    );
    project.write("judge.toml", &toml);
    let document = json(&project, &["verify", "--format", "json"]);
    let entry = document["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "sq/partially_accepted/small.sh")
        .unwrap();
    assert_eq!(entry["ok"], false, "{entry}");
    assert_eq!(entry["score"], 30.0);
    assert_eq!(entry["expected_score"], "31 to 50");
    assert_eq!(entry["score_mismatch"], "expected score 31 to 50, got 30");
}

#[test]
fn a_partially_accepted_submission_must_score_strictly_between() {
    let project = project(SQ);
    // Stored as partial, but it scores everything (and it got AC, not a failure).
    store(&project, "partially_accepted/right.sh", RIGHT);
    // Stored as partial, it scores nothing.
    store(&project, "partially_accepted/zero.sh", ZERO);
    let document = json(&project, &["verify", "--format", "json"]);
    let entries = document["submissions"].as_array().unwrap();
    for entry in entries {
        assert_eq!(entry["ok"], false, "{entry}");
    }
    let zero = entries
        .iter()
        .find(|s| s["name"] == "sq/partially_accepted/zero.sh")
        .unwrap();
    assert_eq!(
        zero["score_mismatch"],
        "a partially accepted submission must score more than 0 and less than 100, got 0"
    );
}

/// Checker in testlib's manner: the output equal to the answer is AC; `half` gets the points
/// after it (`half 12.5`) through `quitp` (exit 7); anything else is WA.
const QUITP_CHECKER: &str = r#"out=$(cat "$2"); ans=$(cat "$3")
[ "$out" = "$ans" ] && { echo "ok" >&2; exit 0; }
case "$out" in half*) echo "points ${out#half } partly right" >&2; exit 7;; esac
echo "wrong answer" >&2; exit 1
"#;

fn partial_project(scoring: &str) -> Project {
    let toml = format!(
        "[problems.p]\n{scoring}\nchecker = {{ type = \"command\", command = [\"sh\", \"check.sh\"] }}\n[languages.sh]\nextensions = [\"sh\"]\nrun = [\"sh\", \"{{source}}\"]\n"
    );
    let mut project = Project::new()
        .file("judge.toml", &toml)
        .file("check.sh", QUITP_CHECKER);
    for n in 1..=4 {
        project = project.case("p", &format!("c{n}"), &format!("{n}\n"), &format!("{n}\n"));
    }
    project
}

#[test]
fn testlib_quitp_points_are_partial_credit() {
    let project = partial_project("scoring = \"points\"");
    // Each case 25: c1 gets 12.5 of it through quitp, the others are right.
    project.write(
        "half.sh",
        "read n\nif [ \"$n\" = 1 ]; then echo 'half 12.5'; else echo \"$n\"; fi\n",
    );
    let document = json(&project, &["judge", "p", "half.sh", "--format", "json"]);
    assert_eq!(document["score"], 87.5, "{document}");
    assert_eq!(document["cases"][0]["score"], 12.5);
    assert_eq!(document["cases"][0]["verdict"], "AC");

    // More than the case is worth is the checker's fault: a judge error, exit 3.
    project.write("greedy.sh", "read n\necho 'half 30'\n");
    let (code, stdout, _) = run(&project, &["judge", "p", "greedy.sh"]);
    assert_eq!(code, 3, "{stdout}");
    assert!(
        stdout.contains("more than the case is worth (25)"),
        "{stdout}"
    );

    // A pass-fail problem has no use for points: a judge error that says so.
    let project = partial_project("");
    project.write("half.sh", "read n\necho 'half 12.5'\n");
    let (code, stdout, _) = run(&project, &["judge", "p", "half.sh"]);
    assert_eq!(code, 3, "{stdout}");
    assert!(
        stdout.contains("but the problem is scored pass-fail"),
        "{stdout}"
    );
}

/// What verifyproblem (problemtools 1.20260907) gives oddecho's submissions, as its run
/// prints them (`partially_accepted/sol.py (…) OK: AC (50)`) and in its "Submission
/// results" table: sample, subtask1, subtask2, total.
const ODDECHO_VERIFYPROBLEM: [(&str, [f64; 3], f64); 3] = [
    ("accepted/echo.cpp", [0.0, 50.0, 50.0], 100.0),
    ("accepted/js.py", [0.0, 50.0, 50.0], 100.0),
    ("partially_accepted/sol.py", [0.0, 50.0, 0.0], 50.0),
];

/// The score verifyproblem's run gives each submission: `   accepted/js.py (…) OK: AC (100) …`.
fn verifyproblem_scores(package: &std::path::Path) -> Option<Vec<(String, f64)>> {
    let output = std::process::Command::new("verifyproblem")
        .arg(package)
        .args(["-p", "submissions"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    let scores: Vec<(String, f64)> = text
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let (name, rest) = line.split_once(" (")?;
            let (_, result) = rest.split_once(": ")?;
            let score = result.split_once('(')?.1.split_once(')')?.0;
            Some((name.to_string(), score.parse().ok()?))
        })
        .collect();
    Some(scores)
}

#[test]
fn oddecho_scores_as_verifyproblem_does() {
    let Some(examples) =
        common::problemtools_examples_or_skip("oddecho_scores_as_verifyproblem_does")
    else {
        return;
    };
    let project = Project::new();
    // A copy named as the package, so that nothing is written into the shared examples.
    let package = project.path().join("oddecho");
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(examples.join("oddecho"))
        .arg(&package)
        .status()
        .unwrap();
    assert!(copied.success());
    let output = project
        .harness()
        .args(["verify", "oddecho", "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let document: Value = serde_json::from_str(&stdout).unwrap();
    let submissions = document["submissions"].as_array().unwrap();
    assert_eq!(submissions.len(), 3);
    for (name, groups, total) in ODDECHO_VERIFYPROBLEM {
        let entry = submissions
            .iter()
            .find(|s| s["name"] == format!("oddecho/{name}"))
            .unwrap_or_else(|| panic!("no {name} in {document}"));
        assert_eq!(entry["score"], total, "{name}: {entry}");
        assert_eq!(entry["max_score"], 100.0);
        let score_of = |group: &str| {
            entry["groups"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["name"] == group)
                .unwrap_or_else(|| panic!("no group {group} in {entry}"))["score"]
                .clone()
        };
        for (group, score) in ["sample", "secret/subtask1", "secret/subtask2"]
            .iter()
            .zip(groups)
        {
            assert_eq!(score_of(group), score, "{name}, {group}");
        }
    }
    // And verifyproblem itself, when it is here, says the same.
    match verifyproblem_scores(&package) {
        Some(scores) if !scores.is_empty() => {
            for (name, _, total) in ODDECHO_VERIFYPROBLEM {
                let got = scores.iter().find(|(n, _)| n == name);
                assert_eq!(got.map(|(_, s)| *s), Some(total), "{name}: {scores:?}");
            }
        }
        _ => common::skipped("oddecho_scores_as_verifyproblem_does: verifyproblem is not installed; compared with its recorded scores only"),
    }
}

/// An interactive scoring package (legacy Kattis): guess a number; the validator, which is the
/// interactor, writes score.txt (20 for an easy secret, 30 for a hard one, less 2 per guess
/// after the seventh). verifyproblem (problemtools 1.20260907) gives binary.py 60 and
/// linear.py 2.
fn guess_package(root: &std::path::Path) -> std::path::PathBuf {
    let package = root.join("guess");
    let write = |relative: &str, text: &str| {
        let path = package.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "problem.yaml",
        "name: Guess with points\ntype: scoring\nvalidation: custom interactive score\n",
    );
    for (folder, secret) in [
        ("sample", 10),
        ("secret/easy", 3),
        ("secret/easy", 7),
        ("secret/hard", 60),
        ("secret/hard", 99),
    ] {
        write(
            &format!("data/{folder}/{secret}.in"),
            &format!("{secret}\n"),
        );
        write(&format!("data/{folder}/{secret}.ans"), "");
    }
    write(
        "data/testdata.yaml",
        "grader_flags: ignore_sample\nrange: 0 100\n",
    );
    write(
        "data/secret/easy/testdata.yaml",
        "grader_flags: sum\nrange: 0 40\n",
    );
    write(
        "data/secret/hard/testdata.yaml",
        "grader_flags: sum\nrange: 0 60\n",
    );
    write(
        "output_validators/validate/validate.py",
        r#"#!/usr/bin/env python3
import sys
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
worth = 20 if secret < 50 else 30
for tries in range(1, 101):
    line = sys.stdin.readline()
    if not line:
        open(feedback + "judgemessage.txt", "w").write("no guess")
        sys.exit(43)
    guess = int(line)
    if guess == secret:
        print("correct", flush=True)
        open(feedback + "score.txt", "w").write(str(max(1, worth - 2 * max(0, tries - 7))))
        sys.exit(42)
    print("lower" if guess > secret else "higher", flush=True)
open(feedback + "judgemessage.txt", "w").write("too many guesses")
sys.exit(43)
"#,
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        package.join("output_validators/validate/validate.py"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    write(
        "submissions/accepted/binary.py",
        "lo, hi = 1, 100\nwhile True:\n    mid = (lo + hi) // 2\n    print(mid, flush=True)\n    said = input()\n    if said == \"correct\":\n        break\n    if said == \"lower\":\n        hi = mid - 1\n    else:\n        lo = mid + 1\n",
    );
    write(
        "submissions/partially_accepted/linear.py",
        "for guess in range(1, 101):\n    print(guess, flush=True)\n    if input() == \"correct\":\n        break\n",
    );
    package
}

#[test]
fn an_interactive_scoring_package_scores_as_verifyproblem_does() {
    let project = Project::new();
    let package = guess_package(project.path());
    let output = project
        .harness()
        .args(["verify", "guess", "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let document: Value = serde_json::from_str(&stdout).unwrap();
    let recorded = [
        ("accepted/binary.py", 60.0),
        ("partially_accepted/linear.py", 2.0),
    ];
    let score_of = |name: &str| {
        document["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == format!("guess/{name}"))
            .unwrap_or_else(|| panic!("no {name} in {document}"))["score"]
            .as_f64()
    };
    for (name, score) in recorded {
        assert_eq!(score_of(name), Some(score), "{name}");
    }
    match verifyproblem_scores(&package) {
        Some(scores) if !scores.is_empty() => {
            for (name, _) in recorded {
                let theirs = scores.iter().find(|(n, _)| n == name).map(|(_, s)| *s);
                assert_eq!(theirs, score_of(name), "{name}: verifyproblem said {scores:?}");
            }
        }
        _ => common::skipped("an_interactive_scoring_package_scores_as_verifyproblem_does: verifyproblem is not installed; compared with its recorded scores only"),
    }
}

/// A case of the squares packages: `STEM.in` is n, `STEM.ans` its square.
fn square_case(write: &dyn Fn(&str, &str), stem: &str, n: u64) {
    write(&format!("{stem}.in"), &format!("{n}\n"));
    write(&format!("{stem}.ans"), &format!("{}\n", n * n));
}

/// The squares packages' accepted submission, and one right only for n below `small`.
fn square_submissions(write: &dyn Fn(&str, &str), small: u64) {
    write(
        "submissions/accepted/right.py",
        "n = int(input())\nprint(n * n)\n",
    );
    write(
        "submissions/partially_accepted/small.py",
        &format!("n = int(input())\nprint(n * n if n < {small} else 0)\n"),
    );
}

/// A 2025-09 scoring package (`sq`, squares of n): `secret/group1` pass-fail worth 20 (n < 10),
/// `secret/group2` `sum` of 30 over three cases (n = 10, 20, 1000), `secret/group3` `min` worth
/// 50 that requires `sample` and `secret/group1` (n ≥ 5000). `extra` are more files.
fn squares_2025(root: &std::path::Path, extra: &[(&str, &str)]) -> std::path::PathBuf {
    let package = root.join("sq");
    let write = |relative: &str, text: &str| {
        let path = package.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "problem.yaml",
        "problem_format_version: 2025-09\ntype: scoring\nname: Squares\nlimits:\n  time_limit: 2\n",
    );
    write("data/sample/1.in", "2\n");
    write("data/sample/1.ans", "4\n");
    let groups: [(&str, &str, &[u64]); 3] = [
        ("group1", "max_score: 20\n", &[3, 7]),
        (
            "group2",
            "max_score: 30\nscore_aggregation: sum\n",
            &[10, 20, 1000],
        ),
        (
            "group3",
            "max_score: 50\nscore_aggregation: min\nrequire_pass: [sample, secret/group1]\n",
            &[5000, 9000],
        ),
    ];
    for (group, config, ns) in groups {
        write(&format!("data/secret/{group}/test_group.yaml"), config);
        for (i, n) in ns.iter().enumerate() {
            square_case(&write, &format!("data/secret/{group}/{i:02}"), *n);
        }
    }
    square_submissions(&write, 100);
    write(
        "submissions/partially_accepted/nosample.py",
        "n = int(input())\nprint(0 if n == 2 else n * n)\n",
    );
    for (relative, text) in extra {
        write(relative, text);
    }
    package
}

/// The scores the 2025-09 spec's "Result aggregation" gives `squares_2025`'s submissions, by
/// hand: (total, [sample, secret/group1, secret/group2, secret/group3]).
/// - right.py: every case passes: 20 + 30 + 50.
/// - small.py (right for n < 100): group1 20; group2 is `sum`, each case worth
///   (30 − 0) / 3 = 10, two pass: 20; group3 `min` of two failed cases: 0. Total 40.
/// - nosample.py (wrong on the sample only): the sample is worth nothing, but group3
///   `require_pass`es it, so group3 is not run and scores 0: 20 + 30 + 0 = 50.
const SQUARES_2025: [(&str, f64, [f64; 4]); 3] = [
    ("accepted/right.py", 100.0, [0.0, 20.0, 30.0, 50.0]),
    ("partially_accepted/small.py", 40.0, [0.0, 20.0, 20.0, 0.0]),
    (
        "partially_accepted/nosample.py",
        50.0,
        [0.0, 20.0, 30.0, 0.0],
    ),
];

/// `harness verify PACKAGE --format json` in the project: the exit code and the document.
fn verify_json(project: &Project, package: &str) -> (i32, Value) {
    let output = project
        .harness()
        .args(["verify", package, "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let document = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{e}:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap(), document)
}

fn submission<'a>(document: &'a Value, name: &str) -> &'a Value {
    document["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {document}"))
}

fn group_score(entry: &Value, group: &str) -> Value {
    entry["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == group)
        .unwrap_or_else(|| panic!("no group {group} in {entry}"))["score"]
        .clone()
}

#[test]
fn a_2025_09_scoring_package_is_scored_by_its_test_groups() {
    let project = Project::new();
    let package = squares_2025(project.path(), &[]);
    let (code, document) = verify_json(&project, "sq");
    assert_eq!(code, 0, "{document}");
    for (name, total, groups) in SQUARES_2025 {
        let entry = submission(&document, &format!("sq/{name}"));
        assert_eq!(entry["score"], total, "{name}: {entry}");
        assert_eq!(entry["max_score"], 100.0, "{name}");
        for (group, score) in ["sample", "secret/group1", "secret/group2", "secret/group3"]
            .iter()
            .zip(groups)
        {
            assert_eq!(group_score(entry, group), score, "{name}, {group}");
        }
    }
    // `judge` gives the same score, in the human report.
    let output = project
        .harness()
        .args(["judge", "sq", "sq/submissions/partially_accepted/small.py"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("score 40/100"), "{stdout}");
    // The format's own tool cannot score it: BAPCtools 2026.10 refuses `type: scoring`
    // ("unrecognized value for `type`: scoring") and skips `max_score`, so there is no
    // `bt run` score to compare with; the scores above are the spec's, by hand.
    match std::process::Command::new("bt")
        .args(["run", "-B"])
        .current_dir(&package)
        .env("NO_COLOR", "1")
        .output()
    {
        Ok(output) => {
            let said = String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr);
            if said.contains("scoring") && !said.contains("score 40") {
                common::skipped("a_2025_09_scoring_package_is_scored_by_its_test_groups: `bt run` does not score 2025-09 packages; compared with the spec's scores by hand only");
            } else {
                eprintln!("bt run said (not compared):\n{said}");
            }
        }
        Err(_) => common::skipped(
            "a_2025_09_scoring_package_is_scored_by_its_test_groups: BAPCtools (`bt`) is not installed; compared with the spec's scores by hand only",
        ),
    }
}

#[test]
fn a_2025_09_package_without_test_groups_sums_secret_to_100() {
    // No test_group.yaml at all: `secret` is `sum` of 100 over its cases (the spec's
    // defaults), four cases worth 25; small.py passes the two with n < 100.
    let project = Project::new();
    let root = project.path().join("flat");
    let write = |relative: &str, text: &str| {
        let path = root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "problem.yaml",
        "problem_format_version: 2025-09\ntype: [scoring]\nname: Flat\nlimits:\n  time_limit: 2\n",
    );
    for n in [3u64, 50, 500, 5000] {
        write(&format!("data/secret/{n:04}.in"), &format!("{n}\n"));
        write(&format!("data/secret/{n:04}.ans"), &format!("{}\n", n * n));
    }
    write(
        "submissions/accepted/right.py",
        "n = int(input())\nprint(n * n)\n",
    );
    write(
        "submissions/partially_accepted/small.py",
        "n = int(input())\nprint(n * n if n < 100 else 0)\n",
    );
    let (code, document) = verify_json(&project, "flat");
    assert_eq!(code, 0, "{document}");
    assert_eq!(
        submission(&document, "flat/accepted/right.py")["score"],
        100.0
    );
    assert_eq!(
        submission(&document, "flat/partially_accepted/small.py")["score"],
        50.0
    );
    // Declared 2023-07-draft, the same package is problemtools' to score, by its legacy
    // grader (each accepted case 1, summed), as it reads that version.
    write(
        "problem.yaml",
        "problem_format_version: 2023-07-draft\ntype: scoring\nname: Flat\nlimits:\n  time_limit: 2\n",
    );
    let (_, document) = verify_json(&project, "flat");
    assert_eq!(
        submission(&document, "flat/accepted/right.py")["score"],
        4.0
    );
    assert_eq!(
        submission(&document, "flat/partially_accepted/small.py")["score"],
        2.0
    );
}

#[test]
fn a_2025_09_package_the_harness_cannot_score_is_refused_naming_the_file() {
    let project = Project::new();
    let refused = |extra: &[(&str, &str)], file: &str, words: &str| {
        let package = squares_2025(project.path(), extra);
        let output = project.harness().args(["verify", "sq"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(ERROR), "{stderr}");
        assert!(stderr.contains(file), "{file}: {stderr}");
        assert!(stderr.contains(words), "{words}: {stderr}");
        std::fs::remove_dir_all(package).unwrap();
    };
    refused(
        &[(
            "data/secret/group2/test_group.yaml",
            "max_score: 30\nscore_aggregation: sum\nstatic_validation_score: 10\n",
        )],
        "sq/data/secret/group2/test_group.yaml",
        "static_validation_score",
    );
    refused(
        &[("data/secret/group1/deep/test_group.yaml", "max_score: 5\n")],
        "sq/data/secret/group1/deep/test_group.yaml",
        "cannot hold another",
    );
    refused(
        &[(
            "data/secret/group1/test_group.yaml",
            "score_aggregation: sum\n",
        )],
        "sq/data",
        "`secret/group1` needs a `max_score`",
    );
    // A bad value is pointed at in its own file, by the line of its key.
    refused(
        &[(
            "data/secret/group2/test_group.yaml",
            "# three cases\nscore_aggregation: sum\nmax_score: lots\n",
        )],
        "sq/data/secret/group2/test_group.yaml:3:1:",
        "`max_score: lots` (in group `secret/group2`): a non-negative integer or `unbounded`",
    );
    // A custom grader is the legacy format's: 2025-09's groups have `score_aggregation`.
    refused(
        &[("graders/grader.py", "print('AC 100')\n")],
        "sq/graders",
        "which have none",
    );
}

/// `harness verify sq` (human): the exit code and stdout.
fn verify_human(project: &Project) -> (i32, String) {
    let output = project.harness().args(["verify", "sq"]).output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

#[test]
fn submissions_yaml_scores_are_expected_scores_of_the_submission_and_its_groups() {
    // 2025-09: `score` is the submission's score (a number, or an inclusive range), or under a
    // test data group's key that group's aggregated score. The scores are SQUARES_2025's.
    let project = Project::new();
    let met = "partially_accepted/small.py:\n  score: 40\n  secret/group2:\n    score: [15, 25]\npartially_accepted/nosample.py:\n  score: [45, 55]\n  secret/group3:\n    score: 0\naccepted:\n  secret/*:\n    score: [20, 50]\n";
    squares_2025(project.path(), &[("submissions/submissions.yaml", met)]);
    let (code, document) = verify_json(&project, "sq");
    assert_eq!(code, 0, "{document}");
    let small = submission(&document, "sq/partially_accepted/small.py");
    assert_eq!(small["expected_score"], "40", "{small}");
    assert_eq!(
        submission(&document, "sq/partially_accepted/nosample.py")["expected_score"],
        "45 to 55"
    );

    // Each one broken: the submission's score, a group's, a glob that names no group.
    let broken = "partially_accepted/small.py:\n  score: 60\npartially_accepted/nosample.py:\n  secret/group2:\n    score: 20\naccepted/right.py:\n  secret/group9:\n    score: 1\n";
    std::fs::write(
        project.path().join("sq/submissions/submissions.yaml"),
        broken,
    )
    .unwrap();
    let (code, said) = verify_human(&project);
    assert_eq!(code, FAILED, "{said}");
    for line in [
        "expected score 60, got 40",
        "expected score 20 on `secret/group2` (submissions.yaml `partially_accepted/nosample.py` for `secret/group2`), got 30",
        "`score` is for a test data group, and `secret/group9` names none",
    ] {
        assert!(said.contains(line), "{line}:\n{said}");
    }
    assert_eq!(said.matches("MISMATCH").count(), 4, "{said}");

    // A comment's `@EXPECTED_SCORE@` and submissions.yaml's `score` must both hold.
    std::fs::write(
        project.path().join("sq/submissions/submissions.yaml"),
        "partially_accepted/small.py:\n  score: [30, 50]\n",
    )
    .unwrap();
    std::fs::write(
        project
            .path()
            .join("sq/submissions/partially_accepted/small.py"),
        "# @EXPECTED_SCORE@: 60\nn = int(input())\nprint(n * n if n < 100 else 0)\n",
    )
    .unwrap();
    let (code, said) = verify_human(&project);
    assert_eq!(code, ERROR, "{said}");
    assert!(
        said.contains(
            "`@EXPECTED_SCORE@: 60` and submissions.yaml's `score` 30 to 50 cannot both hold"
        ),
        "{said}"
    );
}

/// A Polygon package (`psq`, squares) with groups, as Polygon's problem.xml writes them when
/// the testset has points and groups enabled: each `<test>` its `group` and `points`, each
/// `<group>` its `points-policy` (and, for a `complete-group` one, `points`, the sum of its
/// tests'), `<dependencies>` and a `feedback-policy` (what a contestant sees, not scored).
fn polygon_squares(root: &std::path::Path) -> std::path::PathBuf {
    let package = root.join("psq");
    let write = |relative: &str, text: &str| {
        let path = package.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // (n, group, points, sample)
    let tests: [(u64, &str, &str, bool); 7] = [
        (2, "samples", "0.0", true),
        (3, "g1", "10.0", false),
        (7, "g1", "10.0", false),
        (10, "g2", "30.0", false),
        (1000, "g2", "0.0", false),
        (5000, "g3", "50.0", false),
        (9000, "g3", "0.0", false),
    ];
    let mut xml_tests = String::new();
    for (i, (n, group, points, sample)) in tests.iter().enumerate() {
        write(&format!("tests/{:02}", i + 1), &format!("{n}\n"));
        write(&format!("tests/{:02}.a", i + 1), &format!("{}\n", n * n));
        let sample = if *sample { " sample=\"true\"" } else { "" };
        xml_tests.push_str(&format!(
            "                <test method=\"manual\" group=\"{group}\" points=\"{points}\"{sample}/>\n"
        ));
    }
    write(
        "problem.xml",
        &format!(
            r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="1" short-name="psq">
    <names><name language="english" value="Polygon Squares"/></names>
    <judging input-file="" output-file="">
        <testset name="tests">
            <time-limit>2000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>7</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
{xml_tests}            </tests>
            <groups>
                <group feedback-policy="complete" name="samples" points="0.0" points-policy="complete-group"/>
                <group feedback-policy="points" name="g1" points-policy="each-test"/>
                <group feedback-policy="icpc" name="g2" points="30.0" points-policy="complete-group">
                    <dependencies><dependency group="g1"/></dependencies>
                </group>
                <group feedback-policy="icpc" name="g3" points="50.0" points-policy="complete-group">
                    <dependencies><dependency group="g2"/></dependencies>
                </group>
            </groups>
        </testset>
    </judging>
    <assets>
        <solutions>
            <solution tag="main"><source path="solutions/right.py" type="python.3"/></solution>
            <solution tag="wrong-answer"><source path="solutions/below-5000.py" type="python.3"/></solution>
            <solution tag="wrong-answer"><source path="solutions/below-100.py" type="python.3"/></solution>
            <solution tag="wrong-answer"><source path="solutions/not-3.py" type="python.3"/></solution>
        </solutions>
    </assets>
</problem>
"#
        ),
    );
    write("solutions/right.py", "n = int(input())\nprint(n * n)\n");
    write(
        "solutions/below-5000.py",
        "n = int(input())\nprint(n * n if n < 5000 else 0)\n",
    );
    write(
        "solutions/below-100.py",
        "n = int(input())\nprint(n * n if n < 100 else 0)\n",
    );
    write(
        "solutions/not-3.py",
        "n = int(input())\nprint(0 if n == 3 else n * n)\n",
    );
    package
}

/// `polygon_squares`' scores by Polygon's rules (formats.md, "Scoring": groups with points,
/// dependencies, points-policy each-test | complete-group; as CMS's Polygon loader reads
/// them): an `each-test` group gives each passed test its `points`; a `complete-group` one
/// its `points` only when every test in it passes; a group whose dependency did not pass
/// entirely gives nothing; samples are worth 0. (total, [samples, g1, g2, g3]):
/// - right.py: 10 + 10, 30, 50.
/// - below-5000.py: g1 20, g2 30; g3 fails its n = 9000 test (and 5000): 0. Total 50.
/// - below-100.py: g1 20; g2 fails n = 1000: 0; g3 depends on g2: 0. Total 20.
/// - not-3.py: g1 gives its other test's 10; g2 depends on g1, which did not pass entirely:
///   0, and so g3. Total 10, though it passes every test of g2 and g3.
const POLYGON_SQUARES: [(&str, f64, [f64; 4]); 4] = [
    ("solutions/right.py (main)", 100.0, [0.0, 20.0, 30.0, 50.0]),
    (
        "solutions/below-5000.py (wrong-answer)",
        50.0,
        [0.0, 20.0, 30.0, 0.0],
    ),
    (
        "solutions/below-100.py (wrong-answer)",
        20.0,
        [0.0, 20.0, 0.0, 0.0],
    ),
    (
        "solutions/not-3.py (wrong-answer)",
        10.0,
        [0.0, 10.0, 0.0, 0.0],
    ),
];

#[test]
fn a_polygon_package_is_scored_by_its_groups_points_and_dependencies() {
    let project = Project::new();
    polygon_squares(project.path());
    let (code, document) = verify_json(&project, "psq");
    assert_eq!(code, 0, "{document}");
    for (name, total, groups) in POLYGON_SQUARES {
        let entry = submission(&document, &format!("psq/{name}"));
        assert_eq!(entry["score"], total, "{name}: {entry}");
        assert_eq!(entry["max_score"], 100.0, "{name}");
        for (group, score) in ["samples", "g1", "g2", "g3"].iter().zip(groups) {
            assert_eq!(group_score(entry, group), score, "{name}, {group}");
        }
    }
    // A problem.xml whose points do not add up is refused, naming it.
    let xml = project.path().join("psq/problem.xml");
    let text = std::fs::read_to_string(&xml).unwrap();
    std::fs::write(
        &xml,
        text.replace("name=\"g2\" points=\"30.0\"", "name=\"g2\" points=\"35.0\""),
    )
    .unwrap();
    let output = project.harness().args(["verify", "psq"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(ERROR), "{stderr}");
    assert!(stderr.contains("psq/problem.xml"), "{stderr}");
    assert!(
        stderr.contains("the points of group `g2` add up to 30, not the stated total 35"),
        "{stderr}"
    );
}

/// `--cases DIR` on a scored problem: a folder whose cases fit the problem's groups by name is
/// scored by them; one whose cases do not (a glob that matches none of them, a case in no
/// group) is judged pass-fail, with a warning that says why.
#[test]
fn cases_of_another_folder_are_scored_by_the_groups_they_fit() {
    let project = project(SQ);
    // Another copy of the problem's cases, one big case fewer: the groups still fit.
    for (name, n) in [("sample-1", 2), ("small-1", 1), ("small-2", 5)] {
        project.write(&format!("other/{name}.in"), &format!("{n}\n"));
        project.write(&format!("other/{name}.ans"), &format!("{}\n", n * n));
    }
    for n in [100, 200] {
        project.write(&format!("other/big-{n}.in"), &format!("{n}\n"));
        project.write(&format!("other/big-{n}.ans"), &format!("{}\n", n * n));
    }
    let (code, stdout, stderr) = run(&project, &["judge", "sq", "small.sh", "--cases", "other"]);
    assert_eq!(code, FAILED, "{stdout}{stderr}");
    assert!(stdout.contains("verdict: WA, score 30/100"), "{stdout}");
    assert!(!stderr.contains("pass-fail"), "{stderr}");
    let document = json(
        &project,
        &[
            "judge", "luogu", "small.sh", "--cases", "other", "--format", "json",
        ],
    );
    // Luogu points over the folder's four cases that are not samples: 25 each.
    assert_eq!(document["score"].as_f64(), Some(50.0), "{document}");

    // A folder of cases the groups do not know: pass-fail, saying why.
    project.write("odd/x.in", "3\n");
    project.write("odd/x.ans", "9\n");
    let (code, stdout, stderr) = run(&project, &["judge", "sq", "right.sh", "--cases", "odd"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("verdict: AC"), "{stdout}");
    assert!(!stdout.contains("score"), "{stdout}");
    assert!(
        stderr.contains("problem `sq` is scored, but the cases of --cases do not fit its rules")
            && stderr.contains("judged pass-fail, with no score"),
        "{stderr}"
    );
    let document = json(
        &project,
        &[
            "judge", "sq", "right.sh", "--cases", "odd", "--format", "json",
        ],
    );
    assert!(document.get("score").is_none(), "{document}");
}

/// A scoring package whose output validator writes the submission's output, as it is, into
/// `score.txt`: each submission says its own score. `secret` holds two cases; `secret_yaml`
/// is its `test_group.yaml` (2025-09), or `None` for a legacy package (problem.yaml with no
/// version, `validation: custom score`).
fn echo_score_package(project: &Project, secret_yaml: Option<&str>) {
    let (problem_yaml, validator) = match secret_yaml {
        Some(yaml) => {
            project.write("echo/data/secret/test_group.yaml", yaml);
            (
                "problem_format_version: 2025-09\ntype: scoring\nname: Echo\nlimits:\n  time_limit: 2\n",
                "echo/output_validator/validate.py",
            )
        }
        None => (
            "name: Echo\ntype: scoring\nvalidation: custom score\nlimits:\n  time_limit: 2\n",
            "echo/output_validators/echo/validate.py",
        ),
    };
    project.write("echo/problem.yaml", problem_yaml);
    project.write(
        validator,
        "import sys\nopen(sys.argv[3] + 'score.txt', 'w').write(sys.stdin.read())\nsys.exit(42)\n",
    );
    for (case, input) in [
        ("sample/1", "0\n"),
        ("secret/1", "1\n"),
        ("secret/2", "2\n"),
    ] {
        project.write(&format!("echo/data/{case}.in"), input);
        project.write(&format!("echo/data/{case}.ans"), "\n");
    }
}

/// `harness judge echo` on a submission that prints `score`: the exit code and the report.
fn judge_echo(project: &Project, score: &str) -> (i32, String) {
    let file = format!("says-{}.py", score.len());
    project.write(&file, &format!("print({score:?})\n"));
    let (code, stdout, stderr) = run(project, &["judge", "echo", &file]);
    (code, format!("{stdout}{stderr}"))
}

#[test]
fn a_negative_score_txt_is_a_judge_error_in_a_2025_09_package() {
    const JUDGE_ERROR: i32 = 3;
    let project = Project::new();
    echo_score_package(&project, Some("max_score: 100\nscore_aggregation: sum\n"));
    let (code, said) = judge_echo(&project, "25");
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("score 50/100"), "{said}");
    // 2025-09: "`score.txt` ... must contain a single non-negative floating-point number".
    let (code, said) = judge_echo(&project, "-15");
    assert_eq!(code, JUDGE_ERROR, "{said}");
    assert!(
        said.contains("output validator `output_validator` accepted, but its score cannot be used: `score.txt` is negative: -15"),
        "{said}"
    );
    assert!(!said.contains("score -"), "{said}");
    // A legacy package keeps problemtools' rule: any finite number, bounded by `range`.
    let legacy = Project::new();
    echo_score_package(&legacy, None);
    legacy.write(
        "echo/data/testdata.yaml",
        "range: -100 100\non_reject: continue\n",
    );
    let (code, said) = judge_echo(&legacy, "-15");
    assert_eq!(code, 0, "{said}");
    // The sample counts too, as problemtools' default grader sums it.
    assert!(said.contains("verdict: AC, score -45/100"), "{said}");
}

#[test]
fn case_scores_that_add_up_past_any_number_are_a_judge_error_not_infinity() {
    const JUDGE_ERROR: i32 = 3;
    let project = Project::new();
    echo_score_package(
        &project,
        Some("max_score: unbounded\nscore_aggregation: sum\n"),
    );
    // Each case 1e308, a finite score; their sum is not.
    let (code, said) = judge_echo(&project, "1e308");
    assert_eq!(code, JUDGE_ERROR, "{said}");
    assert!(
        said.contains(
            "group `secret` has no score: its parts' scores add up to more than a number holds"
        ),
        "{said}"
    );
    assert!(!said.contains("inf"), "{said}");
    let file = "says-5.py";
    let (_, stdout, _) = run(&project, &["judge", "echo", file, "--format", "json"]);
    let document: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(document["verdict"], "JE", "{document}");
    assert!(document["score"].is_number(), "{document}");
    for case in document["cases"].as_array().unwrap() {
        if let Some(score) = case.get("score") {
            assert!(score.is_number(), "{document}");
        }
    }
    // A score.txt that is not a finite number is the validator's fault, never a score.
    for score in ["inf", "nan", "1e400", "-inf"] {
        let (code, said) = judge_echo(&project, score);
        assert_eq!(code, JUDGE_ERROR, "{score}: {said}");
        assert!(
            said.contains("`score.txt` is not a finite number"),
            "{score}: {said}"
        );
    }
}

/// testlib's `quitp(1e308)`: the points are far more than the case is worth, and the message
/// that says so is a line, not 309 digits.
#[test]
fn huge_points_are_printed_short() {
    let project = partial_project("scoring = \"points\"");
    project.write("huge.sh", "read n\necho 'half 1e308'\n");
    let document = json(&project, &["judge", "p", "huge.sh", "--format", "json"]);
    let reason = document["cases"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("gives 1e308, more than the case is worth (25)"),
        "{reason}"
    );
    assert!(reason.len() < 150, "{} characters: {reason}", reason.len());
    // A pass-fail problem says the points it refuses, as short.
    let project = partial_project("");
    project.write("huge.sh", "read n\necho 'half 1e308'\n");
    let (code, stdout, _) = run(&project, &["judge", "p", "huge.sh"]);
    assert_eq!(code, 3, "{stdout}");
    assert!(stdout.contains("points 1e308)"), "{stdout}");
    assert!(stdout.lines().all(|l| l.len() < 300), "{stdout}");
}

/// A legacy scoring package whose subtasks a custom grader scores, as Swedish olympiad
/// packages do (`grading: custom`, `grader_flags: all POINTS`): `graders/grader.py` gives a
/// group its points when every result is AC. `secret` accepts when any subtask does.
/// verifyproblem (problemtools 1.20260907) gives right.py 100, small.py 40, zero.py WA 0.
fn graded_package(root: &std::path::Path, grader: (&str, &str)) -> std::path::PathBuf {
    let package = root.join("sq");
    let write = |relative: &str, text: &str| {
        let path = package.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("problem.yaml", "name: Squares\ntype: scoring\n");
    write(grader.0, grader.1);
    write("data/testdata.yaml", "on_reject: continue\n");
    write("data/sample/testdata.yaml", "accept_score: 0\n");
    write(
        "data/secret/testdata.yaml",
        "grader_flags: accept_if_any_accepted\n",
    );
    write(
        "data/secret/g1/testdata.yaml",
        "grading: custom\ngrader_flags: all 40\n",
    );
    write(
        "data/secret/g2/testdata.yaml",
        "grading: custom\ngrader_flags: all 60\n",
    );
    write("data/sample/1.in", "2\n");
    write("data/sample/1.ans", "4\n");
    for (group, n) in [("g1", 1), ("g1", 2), ("g1", 3), ("g2", 11), ("g2", 12)] {
        square_case(&write, &format!("data/secret/{group}/{n}"), n);
    }
    square_submissions(&write, 10);
    write(
        "submissions/wrong_answer/zero.py",
        "n = int(input())\nprint(0)\n",
    );
    package
}

/// The grader: the group's points when every result is AC, else 0 and the first failure.
const ALL_GRADER: &str = "import sys\n\npoints = float(sys.argv[2])\nverdicts = [line.split()[0] for line in sys.stdin if line.strip()]\nfailed = [v for v in verdicts if v != 'AC']\nprint(failed[0] if failed else 'AC', 0 if failed else points)\n";

/// What verifyproblem gives the graded package: submission, verdict, g1, g2, total.
const GRADED_VERIFYPROBLEM: [(&str, &str, f64, f64, f64); 3] = [
    ("accepted/right.py", "AC", 40.0, 60.0, 100.0),
    ("partially_accepted/small.py", "AC", 40.0, 0.0, 40.0),
    ("wrong_answer/zero.py", "WA", 0.0, 0.0, 0.0),
];

#[test]
fn a_custom_grader_scores_its_groups_as_verifyproblem_does() {
    let project = Project::new();
    let package = graded_package(project.path(), ("graders/grader.py", ALL_GRADER));
    let (code, document) = verify_json(&project, "sq");
    assert_eq!(code, 0, "{document}");
    for (name, verdict, g1, g2, total) in GRADED_VERIFYPROBLEM {
        let entry = submission(&document, &format!("sq/{name}"));
        assert_eq!(entry["verdict"], verdict, "{name}: {entry}");
        assert_eq!(entry["score"], total, "{name}: {entry}");
        assert_eq!(group_score(entry, "secret/g1"), g1, "{name}");
        assert_eq!(group_score(entry, "secret/g2"), g2, "{name}");
    }
    match verifyproblem_scores(&package) {
        Some(scores) if !scores.is_empty() => {
            for (name, _, _, _, total) in GRADED_VERIFYPROBLEM {
                if total > 0.0 {
                    let got = scores.iter().find(|(n, _)| n == name);
                    assert_eq!(got.map(|(_, s)| *s), Some(total), "{name}: {scores:?}");
                }
            }
        }
        _ => common::skipped("a_custom_grader_scores_its_groups_as_verifyproblem_does: verifyproblem is not installed; compared with its recorded scores only"),
    }
}

/// A grader that crashes or answers nonsense is a judge error of the submission, never its
/// WA; one that does not build, two graders, or `grading: custom` without one is the package's
/// error (exit 2) naming the file.
#[test]
fn a_broken_grader_is_a_judge_error_or_the_packages_error() {
    for (grader, why) in [
        ("import sys\nsys.exit(3)\n", "exited with 3, not 0"),
        ("print('fine, thanks')\n", "not one line `VERDICT SCORE`"),
        ("print('AC 1 2')\n", "answered `AC 1 2`"),
    ] {
        let project = Project::new();
        graded_package(project.path(), ("graders/grader.py", grader));
        let (code, document) = verify_json(&project, "sq");
        assert_ne!(code, 0, "{document}");
        for name in GRADED_VERIFYPROBLEM.map(|row| row.0) {
            let entry = submission(&document, &format!("sq/{name}"));
            assert_eq!(entry["verdict"], "JE", "{grader}: {entry}");
        }
        project
            .args(["judge", "sq", "sq/submissions/accepted/right.py"])
            .status(JUDGE_ERROR)
            .stdout_contains("the custom grader failed on group `secret/g1`: `graders/grader.py`")
            .stdout_contains(why)
            .run();
    }
    let project = Project::new();
    graded_package(
        project.path(),
        ("graders/grader.cpp", "int main( { return 0; }\n"),
    );
    project
        .args(["verify", "sq"])
        .status(ERROR)
        .stderr_contains("graders/grader.cpp")
        .run();
    let project = Project::new();
    let package = graded_package(project.path(), ("graders/grader.py", ALL_GRADER));
    std::fs::write(package.join("graders/other.py"), ALL_GRADER).unwrap();
    project
        .args(["verify", "sq"])
        .status(ERROR)
        .stderr_contains("one custom grader")
        .run();
    std::fs::remove_dir_all(package.join("graders")).unwrap();
    project
        .args(["verify", "sq"])
        .status(ERROR)
        .stderr_contains("says `grading: custom`, but the package has no grader")
        .run();
}
