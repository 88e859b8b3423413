//! `harness contest CONTEST --submissions DIR` on a small contest day, checked by hand: a
//! coach's folders (`alice/A.py`, `alice/A-2.py`, a `times` file) and a CLICS package's
//! submissions; the ICPC board with its ties, a compile error that costs nothing, the freeze
//! and a team that sent nothing; the cache that spares a second run; the CLICS outputs held
//! to the 2026-01 JSON schemas by a real validator; and bad input named by its file.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::Command as Process;

use common::project::Project;

const OK: i32 = 0;
const ERROR: i32 = 2;
/// The judge's own part failed on some try (exit::JUDGE_ERROR).
const JUDGE_ERROR: i32 = 3;

/// A contest of two Python-friendly problems: A (`hello`: print hello) and B (`echo`: print
/// the input), 2 hours, a 30-minute freeze, 20 minutes a rejected try.
fn contest() -> Project {
    Project::new()
        .file(
            "day/contest.yaml",
            "id: club\nname: Club Training\nduration: 2:00:00\nscoreboard_freeze_duration: 0:30:00\npenalty_time: 20\n",
        )
        .file("day/problems.yaml", "- id: hello\n  label: A\n- id: echo\n  label: B\n")
        .file(
            "day/hello/problem.yaml",
            "problem_format_version: 2025-09\nname: Hello\nlimits:\n  time_limit: 2\n",
        )
        .file("day/hello/data/sample/1.in", "\n")
        .file("day/hello/data/sample/1.ans", "hello\n")
        .file("day/hello/data/secret/2.in", "\n")
        .file("day/hello/data/secret/2.ans", "hello\n")
        .file(
            "day/echo/problem.yaml",
            "problem_format_version: 2025-09\nname: Echo\nlimits:\n  time_limit: 2\n",
        )
        .file("day/echo/data/sample/1.in", "7\n")
        .file("day/echo/data/sample/1.ans", "7\n")
        .file("day/echo/data/secret/2.in", "8\n")
        .file("day/echo/data/secret/2.ans", "8\n")
}

const HELLO: &str = "print('hello')\n";
const BYE: &str = "print('bye')\n";
const ECHO: &str = "print(input())\n";
const BROKEN_C: &str = "int main( { return 0; }\n";

/// The coach's folders, by hand:
/// - alice: A wrong at 0:05, right at 0:10 (10 + 20 = 30); B right at 0:50. 2 solved, 80.
/// - bob: a compile error on A at 0:01 (no penalty), A right at 0:30, B right at 0:50.
///   2 solved, 30 + 50 = 80, last solve 50 as alice: tied at rank 1.
/// - carol: A right at 0:20, B right at 1:40 (in the freeze). 2 solved, 120; frozen: 1, 20.
/// - dave: an empty folder, a team that sent nothing.
fn folders(project: &Project) {
    for (file, text) in [
        ("subs/alice/A.py", BYE),
        ("subs/alice/A-2.py", HELLO),
        ("subs/alice/B.py", ECHO),
        ("subs/bob/A.c", BROKEN_C),
        ("subs/bob/A-2.py", HELLO),
        ("subs/bob/B/1.py", ECHO),
        ("subs/carol/A.py", HELLO),
        ("subs/carol/B.py", ECHO),
    ] {
        project.write(file, text);
    }
    std::fs::create_dir_all(project.join("subs/dave")).unwrap();
    project.write(
        "subs/times",
        "# team/file  contest time\nalice/A.py 0:05:00\nalice/A-2.py 10\nalice/B.py 0:50:00\nbob/A.c 0:01:00\nbob/A-2.py 0:30:00\nbob/B/1.py 50\ncarol/A.py 0:20:00\ncarol/B.py 1:40:00\n",
    );
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The board's lines with their spacing squeezed: `1 alice 2 80 +1 10* +50*`.
fn rows(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn a_coachs_folders_make_the_icpc_board_with_ties_compile_errors_and_the_freeze() {
    let project = contest();
    folders(&project);
    let output = project
        .harness()
        .args(["contest", "day", "--submissions", "subs", "--debrief"])
        .output()
        .unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(OK), "{text}{}", stderr(&output));
    let lines = rows(&text);
    assert!(
        lines[0].starts_with("Club Training: final scoreboard (pass-fail, 20 minutes"),
        "{text}"
    );
    assert_eq!(lines[1], "rank team solved time A B", "{text}");
    // alice and bob tie on solved, time and last solve; A's first solve is alice's (0:10),
    // B's first solves are alice's and bob's, both at 0:50.
    assert_eq!(lines[2], "1 alice 2 80 +1 10* + 50*", "{text}");
    assert_eq!(lines[3], "1 bob 2 80 + 30 + 50*", "{text}");
    assert_eq!(lines[4], "3 carol 2 120 + 20 + 100", "{text}");
    assert_eq!(lines[5], "4 dave 0 0 . .", "{text}");
    // The debrief: each try, its verdict, the case that decided it.
    assert!(
        text.contains("0:05:00.000  A  WA   alice/A.py  first failing case `sample/1`"),
        "{text}"
    );
    assert!(text.contains("0:01:00.000  A  CE   bob/A.c"), "{text}");
    assert!(text.contains("dave\n  no submissions"), "{text}");

    let frozen = project
        .harness()
        .args(["contest", "day", "--submissions", "subs", "--frozen"])
        .output()
        .unwrap();
    let text = stdout(&frozen);
    assert_eq!(frozen.status.code(), Some(OK), "{text}{}", stderr(&frozen));
    let lines = rows(&text);
    assert!(
        lines[0].contains("scoreboard at the freeze (1:30:00.000)"),
        "{text}"
    );
    // A's first solve is still alice's; carol's B is pending.
    assert_eq!(lines[4], "3 carol 1 20 + 20 ?1", "{text}");
    // The second run judged nothing again.
    assert!(
        stderr(&frozen).contains("8 of 8 submissions were judged before"),
        "{}",
        stderr(&frozen)
    );
}

#[test]
fn a_second_run_judges_only_what_changed_and_rejudge_judges_all() {
    let project = contest();
    folders(&project);
    let run = |extra: &[&str]| {
        let output = project
            .harness()
            .args(["contest", "day", "--submissions", "subs"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(OK),
            "{}{}",
            stdout(&output),
            stderr(&output)
        );
        (stdout(&output), stderr(&output))
    };
    let (_, first) = run(&[]);
    assert!(!first.contains("judged before"), "{first}");
    // dave's late first try: a new file, judged alone.
    // (Bytes of its own: the same bytes on the same problem would share alice's judgement.)
    project.write("subs/dave/A.py", "print('hello')  # dave\n");
    let mut times = project.read("subs/times");
    times.push_str("dave/A.py 1:00:00\n");
    project.write("subs/times", &times);
    // carol's B changes: rejudged.
    project.write("subs/carol/B.py", BYE);
    let (board, second) = run(&[]);
    assert!(
        second.contains("7 of 9 submissions were judged before"),
        "{second}"
    );
    let lines = rows(&board);
    assert!(lines.iter().any(|l| l == "3 carol 1 20 + 20 -1"), "{board}");
    assert!(lines.iter().any(|l| l == "4 dave 1 60 + 60 ."), "{board}");
    let (_, again) = run(&["--rejudge"]);
    assert!(!again.contains("judged before"), "{again}");
}

/// The vendored schema folder and the validator script.
fn schema_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clics-schema")
}

/// Validates `file` as `kind` (`scoreboard`, `event-feed`); false (after saying why) when
/// Python's `jsonschema` is not installed (`.ci/install-tools` installs it).
fn validate(kind: &str, file: &Path) -> bool {
    let probe = Process::new("python3")
        .args(["-c", "import jsonschema, referencing"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var_os("CI").is_none(),
            "no Python `jsonschema`: CI runs .ci/install-tools, which installs it"
        );
        // On stderr itself, where `cargo test` shows it (it captures `eprintln!`).
        common::skipped("the CLICS schema check needs Python's `jsonschema` (pip install jsonschema; .ci/install-tools does)");
        return false;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clics_validate.py");
    let output = Process::new("python3")
        .arg(script)
        .arg(schema_dir())
        .arg(kind)
        .arg(file)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{kind} `{}` does not validate:\n{}{}",
        file.display(),
        stdout(&output),
        stderr(&output)
    );
    true
}

/// The same day as a CLICS package's submissions: ids, teams.json, files/ and files.zip.
fn clics(project: &Project) {
    project.write(
        "pkg/teams.json",
        r#"[{"id": "t1", "name": "Alice"}, {"id": "t2", "name": "Bob"}, {"id": "t3", "name": "Dave"}]"#,
    );
    project.write(
        "pkg/submissions.json",
        r#"[
  {"id": "s1", "team_id": "t1", "problem_id": "hello", "language_id": "python3", "contest_time": "0:05:00.000", "time": "2026-12-05T10:05:00+01:00"},
  {"id": "s2", "team_id": "t1", "problem_id": "hello", "language_id": "python3", "contest_time": "0:10:00.000"},
  {"id": "s3", "team_id": "t2", "problem_id": "echo", "language_id": "c", "contest_time": "0:20:00.000"},
  {"id": "s4", "team_id": "t2", "problem_id": "echo", "language_id": "python3", "contest_time": "1:45:00.000"}
]"#,
    );
    project.write("pkg/submissions/s1/files/a.py", BYE);
    project.write("pkg/submissions/s2/files/a.py", HELLO);
    project.write("pkg/submissions/s3/files/b.c", BROKEN_C);
    // s4 as an archive, as a CLICS package keeps it.
    std::fs::create_dir_all(project.join("pkg/submissions/s4")).unwrap();
    let zip = std::fs::File::create(project.join("pkg/submissions/s4/files.zip")).unwrap();
    let mut writer = zip::ZipWriter::new(zip);
    writer
        .start_file("echo.py", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut writer, ECHO.as_bytes()).unwrap();
    writer.finish().unwrap();
}

#[test]
fn a_clics_package_gives_a_scoreboard_and_an_event_feed_that_validate() {
    let project = contest();
    clics(&project);
    let output = project
        .harness()
        .args([
            "contest",
            "day",
            "--submissions",
            "pkg",
            "--format",
            "json",
            "--event-feed",
            "feed.ndjson",
        ])
        .output()
        .unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(OK), "{text}{}", stderr(&output));
    let board: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The start comes from s1's own `time`: 09:00 UTC.
    assert_eq!(board["state"]["started"], "2026-12-05T09:00:00.000Z");
    let row = |i: usize| &board["rows"][i];
    assert_eq!(
        (row(0)["team_id"].as_str(), row(0)["rank"].as_i64()),
        (Some("t1"), Some(1))
    );
    assert_eq!(row(0)["score"]["num_solved"], 1);
    assert_eq!(row(0)["score"]["total_time"], "0:30:00.000");
    assert_eq!(row(1)["team_id"], "t2");
    assert_eq!(row(1)["score"]["total_time"], "1:45:00.000");
    assert_eq!(
        row(1)["problems"][1]["num_judged"],
        1,
        "the CE is not counted"
    );
    assert_eq!(
        (row(2)["team_id"].as_str(), row(2)["rank"].as_i64()),
        (Some("t3"), Some(3))
    );
    let feed = project.read("feed.ndjson");
    assert!(feed.starts_with("{\"type\":\"contest\""), "{feed}");
    assert!(feed.contains("\"judgement_type_id\":\"CE\""), "{feed}");
    let scoreboard = project.join("scoreboard.json");
    std::fs::write(&scoreboard, &text).unwrap();
    if validate("scoreboard", &scoreboard) {
        assert!(validate("event-feed", &project.join("feed.ndjson")));
        let frozen = project
            .harness()
            .args([
                "contest",
                "day",
                "--submissions",
                "pkg",
                "--format",
                "json",
                "--frozen",
            ])
            .output()
            .unwrap();
        std::fs::write(&scoreboard, stdout(&frozen)).unwrap();
        assert!(validate("scoreboard", &scoreboard));
        let frozen: serde_json::Value = serde_json::from_slice(&frozen.stdout).unwrap();
        assert_eq!(frozen["rows"][1]["problems"][1]["num_pending"], 1);
    }
    // The feed is written again over the earlier one, never over a file of the coach's.
    project.write("notes.ndjson", "my notes\n");
    let refused = project
        .harness()
        .args([
            "contest",
            "day",
            "--submissions",
            "pkg",
            "--event-feed",
            "notes.ndjson",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(ERROR));
    assert!(
        stderr(&refused).contains("is not a report harness wrote"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(project.read("notes.ndjson"), "my notes\n");
    let again = project
        .harness()
        .args([
            "contest",
            "day",
            "--submissions",
            "pkg",
            "--event-feed",
            "feed.ndjson",
        ])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(OK), "{}", stderr(&again));
}

#[test]
fn bad_input_is_named_by_its_file() {
    let table: [(&str, &str, &str); 6] = [
        (
            "subs/alice/Q.py",
            "alice/Q.py 0:05:00\n",
            "`subs/alice/Q.py`: no problem `Q` in the contest",
        ),
        (
            "subs/alice/A.rb",
            "alice/A.rb 0:05:00\n",
            "`subs/alice/A.rb`: no language for `.rb` files here",
        ),
        (
            "subs/alice/A.py",
            "alice/A.py 2:00:01\n",
            "subs/times:1:1: `alice/A.py`: its time 2:00:01.000 is outside the contest",
        ),
        (
            "subs/alice/A.py",
            "alice/B.py 0:05:00\n",
            "subs/times:1:1: `alice/B.py` is not a try in",
        ),
        (
            "subs/alice/A.py",
            "",
            "`subs/times`: no time for `alice/A.py`",
        ),
        (
            "subs/alice/A.py",
            "alice/A.py soon\n",
            "subs/times:1:1: `soon` is not a contest time",
        ),
    ];
    for (file, times, expected) in table {
        let project = contest();
        project.write(file, HELLO);
        project.write("subs/times", times);
        let output = project
            .harness()
            .args(["contest", "day", "--submissions", "subs"])
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(ERROR),
            "{file}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(expected),
            "{file}: {}",
            stderr(&output)
        );
    }
    let clics_table: [(&str, &str); 6] = [
        (
            r#"[{"id": "s1", "team_id": "t1", "problem_id": "hello", "language_id": "python3", "contest_time": "2:00:01"}]"#,
            "`pkg/submissions.json`: submission `s1`: its time 2:00:01.000 is outside the contest (0:00:00.000 to 2:00:00.000) (hint: a try after the end does not count",
        ),
        (
            r#"[{"id": "s1", "team_id": "t1", "problem_id": "hello", "language_id": "python3", "contest_time": "-0:01:00"}]"#,
            "submission `s1`: its time -0:01:00.000 is outside the contest (0:00:00.000 to 2:00:00.000) (hint: a try before the start is a time noted wrong",
        ),
        (
            r#"[{"id": "s1", "team_id": "nobody", "problem_id": "hello", "language_id": "python3", "contest_time": "0:05:00"}]"#,
            "`pkg/submissions.json`: submission `s1`: team `nobody` is not in",
        ),
        (
            r#"[{"id": "s1", "team_id": "t1", "problem_id": "zzz", "language_id": "python3", "contest_time": "0:05:00"}]"#,
            "submission `s1`: no problem `zzz` in the contest (hint: one of A (hello), B (echo))",
        ),
        (
            r#"[{"id": "s1", "team_id": "t1", "problem_id": "hello", "language_id": "cobol", "contest_time": "0:05:00"}]"#,
            "submission `s1`: unknown language `cobol` (hint: one of c, cpp, python3",
        ),
        (
            r#"[{"id": "s9", "team_id": "t1", "problem_id": "hello", "language_id": "python3", "contest_time": "0:05:00"}]"#,
            "submission `s9`: its files are missing: no `",
        ),
    ];
    for (submissions, expected) in clics_table {
        let project = contest();
        project.write("pkg/teams.json", r#"[{"id": "t1", "name": "Alice"}]"#);
        project.write("pkg/submissions.json", submissions);
        project.write("pkg/submissions/s1/files/a.py", HELLO);
        let output = project
            .harness()
            .args(["contest", "day", "--submissions", "pkg"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
        assert!(
            stderr(&output).contains(expected),
            "{expected}: {}",
            stderr(&output)
        );
    }
}

/// A score contest of one 2025-09 scoring package (`sq`, squares of n: group1 worth 20 for
/// n < 10, group2 `sum` of 30 over n = 10, 20, 1000, group3 `min` worth 50 for n ≥ 5000).
fn squares_contest(score_by: &[&str]) -> (i32, String, String) {
    let project = Project::new()
        .file("ioi/contest.yaml", "name: Squares Day\nscoreboard_type: score\nduration: 2:00:00\n")
        .file("ioi/problems.yaml", "- id: sq\n  label: A\n")
        .file(
            "ioi/sq/problem.yaml",
            "problem_format_version: 2025-09\ntype: scoring\nname: Squares\nlimits:\n  time_limit: 2\n",
        )
        .file("ioi/sq/data/sample/1.in", "2\n")
        .file("ioi/sq/data/sample/1.ans", "4\n");
    let groups: [(&str, &str, &[u64]); 3] = [
        ("group1", "max_score: 20\n", &[3, 7]),
        (
            "group2",
            "max_score: 30\nscore_aggregation: sum\n",
            &[10, 20, 1000],
        ),
        (
            "group3",
            "max_score: 50\nscore_aggregation: min\n",
            &[5000, 9000],
        ),
    ];
    for (group, config, ns) in groups {
        project.write(
            &format!("ioi/sq/data/secret/{group}/test_group.yaml"),
            config,
        );
        for (i, n) in ns.iter().enumerate() {
            project.write(
                &format!("ioi/sq/data/secret/{group}/{i:02}.in"),
                &format!("{n}\n"),
            );
            project.write(
                &format!("ioi/sq/data/secret/{group}/{i:02}.ans"),
                &format!("{}\n", n * n),
            );
        }
    }
    // ana: 80 (wrong on n = 10 and 20: group2 gives 10) at 0:10, then 50 (wrong on n = 5000:
    // group3 gives 0) at 0:20. Each subtask's best: 20 + 30 + 50 = 100, last improved at 0:20;
    // the best try: 80. ben: 100 at 1:00.
    project.write(
        "subs/ana/A.py",
        "n = int(input())\nprint(0 if n in (10, 20) else n * n)\n",
    );
    project.write(
        "subs/ana/A-2.py",
        "n = int(input())\nprint(0 if n == 5000 else n * n)\n",
    );
    project.write("subs/ben/A.py", "n = int(input())\nprint(n * n)\n");
    project.write("subs/times", "ana/A.py 10\nana/A-2.py 20\nben/A.py 60\n");
    let output = project
        .harness()
        .args(["contest", "ioi", "--submissions", "subs"])
        .args(score_by)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        stdout(&output),
        stderr(&output),
    )
}

#[test]
fn a_score_contest_sums_each_subtasks_best_or_takes_the_best_try() {
    let (code, text, errors) = squares_contest(&[]);
    assert_eq!(code, OK, "{text}{errors}");
    let lines = rows(&text);
    assert!(
        lines[0].contains("(score: each subtask's best try, summed)"),
        "{text}"
    );
    // Equal scores: the earlier last improvement ranks first.
    assert_eq!(lines[2], "1 ana 100 100", "{text}");
    assert_eq!(lines[3], "2 ben 100 100", "{text}");
    let (code, text, errors) = squares_contest(&["--score-by", "best-submission"]);
    assert_eq!(code, OK, "{text}{errors}");
    let lines = rows(&text);
    assert_eq!(lines[2], "1 ben 100 100", "{text}");
    assert_eq!(lines[3], "2 ana 80 80", "{text}");
}

#[test]
fn a_score_contests_scoreboard_json_validates() {
    let (code, text, errors) = squares_contest(&["--format", "json"]);
    assert_eq!(code, OK, "{text}{errors}");
    let board: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(board["rows"][0]["score"]["score"], 100.0);
    assert_eq!(board["rows"][0]["problems"][0]["time"], "0:20:00.000");
    // Written beside nothing of the project's: the validator reads a file.
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("scoreboard.json");
    std::fs::write(&file, &text).unwrap();
    validate("scoreboard", &file);
}

/// The shipped example, `contests/training` (a judge.toml of the repository's four problems
/// with labels A–D, a few cases each, and five teams' tries), copied as it is.
fn training() -> Project {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../contests/training");
    Project::new().tree("training", &example)
}

/// `harness contest --submissions submissions` in the example's folder (its judge.toml is
/// the contest). It exits with the judge error's code, saying which try it failed on: the
/// coach's checker of A fails on eli's try.
fn judge_training(project: &Project, extra: &[&str]) -> (String, String) {
    let output = project
        .harness()
        .current_dir(project.join("training"))
        .args(["contest", "--submissions", "submissions"])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(JUDGE_ERROR),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("the judge failed on 1 submission(s) (`eli/A.py`): not the teams' fault, and not counted against them; they are pending on the board, and judged again on the next run (hint: `harness judge queens-boards submissions/eli/A.py` shows why)"),
        "{}",
        stderr(&output)
    );
    (stdout(&output), stderr(&output))
}

/// The example's boards, worked out by hand from `submissions/times` (5 hours, 20 minutes a
/// rejected try, the last hour frozen):
/// - eli: A at 5, a judge error: its program never checks the anti-diagonals, nor does the
///   coach's checker (checkers/boards.py), which takes eli's extra boards for valid ones the
///   answer lacks and fails (exit 3). As DOMjudge shows a try whose judging failed (it gives
///   the judging back, to be judged again): pending, `?1`, no penalty, not judged; and since
///   it may yet be right, the later solves of A (ada's and cy's at 12) are no first solve.
///   C TLE (it sleeps) at 30, right at 40 (40 + 20 = 60), the first solve of C; D partial
///   twice. 1 solved, 60.
/// - ada: A at 12; B wrong at 30 (75 points: short_count.py overflows at n = 13), right at
///   45 (45 + 20 = 65), B's first solve; C at 70; D at 120. 4 solved, 12 + 65 + 70 + 120 =
///   267, last 120.
/// - cy: A at 12, B at 65, C at 70, D at 120 (a wrong try after it changes nothing): 267,
///   last 120 as ada: tied at rank 1. D's first solve is both's (minute 120).
/// - bo: a CE on A at 8 (costs nothing), A at 15; C wrong at 50, RTE at 60, right at 80
///   (80 + 40 = 120); D partial at 180, right at 250 in the freeze (250 + 20 = 270).
///   3 solved, 15 + 120 + 270 = 405. Frozen: 2 solved, 15 + 120 = 135, D `-1 ?1`; eli's JE
///   was sent before the freeze and is pending there too.
/// - dee: an empty folder.
///
/// As a score contest (100 a pass-fail problem): ada and cy 400 (last improved at 2:00,
/// tied), bo 300, eli's A pending (0), 100 on C and on D small (30, D.py) + middle and large
/// (70, D-2.py) = 200 by subtask, 170 by best try; bo at the freeze 230 (D's 100 hidden, 30
/// shown).
#[test]
fn the_shipped_training_contest_gives_the_hand_checked_icpc_and_ioi_boards() {
    let project = training();
    let (text, _) = judge_training(&project, &["--debrief"]);
    let lines = rows(&text);
    assert_eq!(
        lines[0], "Queens Training: final scoreboard (pass-fail, 20 minutes a rejected try)",
        "{text}"
    );
    assert_eq!(lines[1], "rank team solved time A B C D", "{text}");
    assert_eq!(lines[2], "1 ada 4 267 + 12 +1 45* + 70 + 120*", "{text}");
    assert_eq!(lines[3], "1 cy 4 267 + 12 + 65 + 70 + 120*", "{text}");
    assert_eq!(lines[4], "3 bo 3 405 + 15 . +2 80 +1 250", "{text}");
    assert_eq!(lines[5], "4 eli 1 60 ?1 . +1 40* -2", "{text}");
    assert_eq!(lines[6], "5 dee 0 0 . . . .", "{text}");
    assert!(
        lines[7].ends_with(
            "?N: N tries the judge failed on (JE: no result until judged again, no penalty)"
        ),
        "{text}"
    );
    for line in [
        "0:05:00.000 A JE eli/A.py first failing case `sample-1`: checker `checkers/boards.py` failed (exit 3): board 2 is valid but not in the answer file: the answer must be wrong",
        "0:08:00.000 A CE bo/A.cpp",
        "1:00:00.000 C RE bo/C/2.py first failing case `sample-1`",
        "0:30:00.000 C TLE eli/C.cpp first failing case `sample-1`",
        "0:30:00.000 B WA 75 ada/B.py first failing case `n13`",
        "4:10:00.000 D AC 100 bo/D-2.cpp",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(line)), "{line}\n{text}");
    }

    assert!(
        text.contains("board 2 is valid but not in the answer file: the answer must be wrong"),
        "{text}"
    );

    // eli's JE is judged again (and fails again); nothing else is.
    let (text, errors) = judge_training(&project, &["--frozen"]);
    assert!(
        errors.contains("21 of 22 submissions were judged before"),
        "{errors}"
    );
    let lines = rows(&text);
    assert!(lines[0].contains("at the freeze (4:00:00.000)"), "{text}");
    assert_eq!(lines[4], "3 bo 2 135 + 15 . +2 80 -1 ?1", "{text}");
    assert_eq!(lines[5], "4 eli 1 60 ?1 . +1 40* -2", "{text}");

    // The page: the board, each team's tries; never over a file of the coach's.
    judge_training(&project, &["--html", "../board.html"]);
    let page = project.read("board.html");
    assert!(page.contains("<td class=\"cell first\" data-problem=\"C\"><a href=\"#team-4-2\">40<small>2 tries</small></a></td>"), "{page}");
    assert!(
        page.contains("first failing case <code>n13</code>"),
        "{page}"
    );
    // eli's A: pending (blue, `?1`), and in eli's tries the JE with the checker's words.
    assert!(page.contains("<td class=\"cell pending\" data-problem=\"A\"><a href=\"#team-4-0\"><small>?1 JE</small></a></td>"), "{page}");
    assert!(
        page.contains("<span class=\"badge v-JE\">JE</span>"),
        "{page}"
    );
    assert!(page.contains("first failing case <code>sample-1</code>: checker `checkers/boards.py` failed (exit 3): board 2 is valid but not in the answer file"), "{page}");
    assert!(
        page.contains("?N: tries the judge failed on (JE): no result until judged again"),
        "{page}"
    );
    project.write("notes.html", "my notes\n");
    let refused = project
        .harness()
        .current_dir(project.join("training"))
        .args([
            "contest",
            "--submissions",
            "submissions",
            "--html",
            "../notes.html",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(ERROR), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("is not a report harness wrote"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(project.read("notes.html"), "my notes\n");

    // The CLICS outputs of the day hold to the schemas.
    let (json, _) = judge_training(
        &project,
        &["--format", "json", "--event-feed", "../feed.ndjson"],
    );
    let board: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(board["rows"][0]["score"]["total_time"], "4:27:00.000");
    // eli's A: one pending, none judged.
    let eli = &board["rows"][3];
    assert_eq!(eli["team_id"], "eli");
    assert_eq!(
        (
            &eli["problems"][0]["num_pending"],
            &eli["problems"][0]["num_judged"]
        ),
        (&serde_json::json!(1), &serde_json::json!(0))
    );
    let feed = project.read("feed.ndjson");
    assert!(feed.contains("\"judgement_type_id\":\"JE\""), "{feed}");
    assert_eq!(board["state"]["started"], "2026-12-05T09:00:00.000Z");
    let scoreboard = project.join("scoreboard.json");
    std::fs::write(&scoreboard, &json).unwrap();
    if validate("scoreboard", &scoreboard) {
        assert!(validate("event-feed", &project.join("feed.ndjson")));
    }

    // The same day as a score contest: the judgements are the cache's (the rules are no
    // part of them).
    let yaml = project
        .read("training/contest.yaml")
        .replace("scoreboard_type: pass-fail", "scoreboard_type: score");
    project.write("training/contest.yaml", &yaml);
    let (text, errors) = judge_training(&project, &[]);
    assert!(errors.contains("21 of 22 submissions"), "{errors}");
    let lines = rows(&text);
    assert!(
        lines[0].contains("(score: each subtask's best try, summed)"),
        "{text}"
    );
    assert_eq!(lines[2], "1 ada 400 100 100 100 100", "{text}");
    assert_eq!(lines[3], "1 cy 400 100 100 100 100", "{text}");
    assert_eq!(lines[4], "3 bo 300 100 . 100 100", "{text}");
    assert_eq!(lines[5], "4 eli 200 ?1 . 100 100", "{text}");
    assert_eq!(lines[6], "5 dee 0 . . . .", "{text}");
    let (text, _) = judge_training(&project, &["--score-by", "best-submission"]);
    assert_eq!(rows(&text)[5], "4 eli 170 ?1 . 100 70", "{text}");
    let (text, _) = judge_training(&project, &["--frozen"]);
    assert_eq!(rows(&text)[4], "3 bo 230 100 . 100 30 ?1", "{text}");
    let (json, _) = judge_training(&project, &["--format", "json"]);
    std::fs::write(&scoreboard, &json).unwrap();
    validate("scoreboard", &scoreboard);

    // The coach mends the checker (the anti-diagonals too) and runs the day again: A's tries
    // are judged again with it, eli's is WA (unsolved: it costs nothing), and with no try of A
    // left without a result, ada's and cy's solves at 12 are the first.
    let yaml = yaml.replace("scoreboard_type: score", "scoreboard_type: pass-fail");
    project.write("training/contest.yaml", &yaml);
    let checker = project.read("training/checkers/boards.py");
    let mended = checker.replace(
        "len({r - c for r, c in enumerate(columns)}) == n",
        "len({r - c for r, c in enumerate(columns)}) == n and len({r + c for r, c in enumerate(columns)}) == n",
    );
    assert_ne!(mended, checker);
    project.write("training/checkers/boards.py", &mended);
    let output = project
        .harness()
        .current_dir(project.join("training"))
        .args(["contest", "--submissions", "submissions"])
        .output()
        .unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(OK), "{text}{}", stderr(&output));
    assert!(
        stderr(&output).contains("17 of 22 submissions were judged before"),
        "{}",
        stderr(&output)
    );
    let lines = rows(&text);
    assert_eq!(lines[2], "1 ada 4 267 + 12* +1 45* + 70 + 120*", "{text}");
    assert_eq!(lines[3], "1 cy 4 267 + 12* + 65 + 70 + 120*", "{text}");
    assert_eq!(lines[5], "4 eli 1 60 -1 . +1 40* -2", "{text}");
}

/// A judge.toml of two labelled problems (and one without a label, no part of the contest).
fn table_contest() -> Project {
    Project::new()
        .file(
            "club/judge.toml",
            "[problems.hello]\nlabel = \"B\"\n\n[problems.echo]\nlabel = \"A\"\n\n[problems.practice]\n",
        )
        .file("club/contest.yaml", "name: Club Night\nduration: 1:00:00\n")
        .file("club/cases/hello/1.in", "\n")
        .file("club/cases/hello/1.ans", "hello\n")
        .file("club/cases/echo/1.in", "7\n")
        .file("club/cases/echo/1.ans", "7\n")
        .file("club/subs/ann/A.py", ECHO)
        .file("club/subs/ann/B.py", BYE)
        .file("club/subs/ann/B-2.py", HELLO)
        .file("club/subs/times", "ann/A.py 5\nann/B.py 10\nann/B-2.py 15\n")
}

#[test]
fn a_judge_toml_whose_problems_have_labels_is_a_contest_named_by_file_folder_or_nothing() {
    let project = table_contest();
    // The labels' order is the board's (echo is A), and `practice` has no column.
    let expected = "1 ann 2 40 + 5* +1 15*";
    for (folder, args) in [
        ("club", vec!["contest", "--submissions", "subs"]),
        (".", vec!["contest", "club", "--submissions", "club/subs"]),
        (
            ".",
            vec!["contest", "club/judge.toml", "--submissions", "club/subs"],
        ),
    ] {
        let output = project
            .harness()
            .current_dir(project.join(folder))
            .args(&args)
            .output()
            .unwrap();
        let text = stdout(&output);
        assert_eq!(
            output.status.code(),
            Some(OK),
            "{args:?}: {text}{}",
            stderr(&output)
        );
        let lines = rows(&text);
        assert!(
            lines[0].starts_with("Club Night: final scoreboard"),
            "{text}"
        );
        assert_eq!(lines[1], "rank team solved time A B", "{text}");
        assert_eq!(lines[2], expected, "{args:?}: {text}");
    }
}

#[test]
fn a_judge_toml_contest_names_what_is_wrong_with_it() {
    // No label at all.
    let project = Project::new()
        .file("judge.toml", "[problems.hello]\n")
        .case("hello", "1", "\n", "hello\n")
        .file("subs/ann/A.py", HELLO);
    let output = project
        .harness()
        .args(["contest", "--submissions", "subs"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("judge.toml` has no problem with a `label`, so it holds no contest (hint: `label = \"A\"`"),
        "{}",
        stderr(&output)
    );
    // Two problems with one label (letter case aside), at a label's line and column.
    project.write(
        "judge.toml",
        "[problems.hello]\nlabel = \"A\"\n\n[problems.echo]\nlabel = \"a\"\n",
    );
    let output = project
        .harness()
        .args(["contest", "--submissions", "subs"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("judge.toml:2:9: problem `hello` has the label `A` of problem `echo`"),
        "{}",
        stderr(&output)
    );
    // A try at a problem with no label: named by its file, with the labels there are.
    project.write(
        "judge.toml",
        "[problems.hello]\nlabel = \"A\"\n\n[problems.echo]\n",
    );
    project.write("subs/ann/echo.py", ECHO);
    let output = project
        .harness()
        .args(["contest", "--submissions", "subs"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("`subs/ann/echo.py`: no problem `echo` in the contest")
            && stderr(&output).contains("hint: one of A (hello)"),
        "{}",
        stderr(&output)
    );
    // A folder that is neither kind of contest.
    let output = project
        .harness()
        .args(["contest", "subs", "--submissions", "subs"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("`subs` is not a contest: it has neither problems.yaml nor judge.toml"),
        "{}",
        stderr(&output)
    );
}

/// Every file under `dir`, relative to the project (`pkg/a/b`), in no order.
fn walk(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let parent = dir.parent().unwrap();
                files.push(path.strip_prefix(parent).unwrap().display().to_string());
            }
        }
    }
    files
}

/// `harness export --contest --with-submissions` in the training folder, into `../pkg`.
fn hand_off(project: &Project) -> std::process::Output {
    project
        .harness()
        .current_dir(project.join("training"))
        .args([
            "export",
            "--contest",
            "--with-submissions",
            "submissions",
            "--out",
            "../pkg",
            "--no-measure",
        ])
        .output()
        .unwrap()
}

#[test]
fn the_hand_off_is_a_clics_package_whose_day_judges_to_the_same_score_board() {
    let project = training();
    // As an IOI day: its scored problems' packages are judged as judge.toml judges them.
    let yaml = project
        .read("training/contest.yaml")
        .replace("scoreboard_type: pass-fail", "scoreboard_type: score");
    project.write("training/contest.yaml", &yaml);
    let output = hand_off(&project);
    assert_eq!(
        output.status.code(),
        Some(OK),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    let text = stdout(&output);
    assert!(
        text.contains("with the day of submissions: 5 teams (groups.json, teams.json, accounts.json) and 22 submissions at their ids and times"),
        "{text}"
    );
    assert!(
        text.contains("contest.yaml (start_time 2026-12-05T09:00:00.000Z)"),
        "{text}"
    );
    assert!(!text.contains("is scored"), "{text}");
    // contest.yaml is the day's, and the problems keep their labels.
    let contest_yaml = project.read("pkg/contest.yaml");
    for line in [
        "id: training",
        "name: \"Queens Training\"",
        "start_time: 2026-12-05T09:00:00.000Z",
        "scoreboard_type: score",
        "scoreboard_freeze_duration: \"1:00:00.000\"",
    ] {
        assert!(contest_yaml.contains(line), "{line}\n{contest_yaml}");
    }
    assert!(project
        .read("pkg/problems.yaml")
        .contains("- id: twonqueens\n  label: D\n"));
    // The submissions at their ids and times, each source zipped as it was sent.
    let submissions: serde_json::Value =
        serde_json::from_str(&project.read("pkg/submissions.json")).unwrap();
    let late = submissions
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["contest_time"] == "4:10:00.000")
        .expect("bo's try in the freeze");
    assert_eq!(late["team_id"], "bo");
    assert_eq!(late["problem_id"], "twonqueens");
    assert_eq!(late["language_id"], "cpp");
    assert_eq!(late["time"], "2026-12-05T13:10:00.000Z");
    let id = late["id"].as_str().unwrap();
    let zip =
        std::fs::File::open(project.join(&format!("pkg/submissions/{id}/files.zip"))).unwrap();
    let mut archive = zip::ZipArchive::new(zip).unwrap();
    assert_eq!(archive.len(), 1);
    let mut source = String::new();
    std::io::Read::read_to_string(&mut archive.by_name("D-2.cpp").unwrap(), &mut source).unwrap();
    assert_eq!(source, project.read("training/submissions/bo/D-2.cpp"));
    for kind in ["teams", "accounts", "groups", "submissions"] {
        if !validate(kind, &project.join(&format!("pkg/{kind}.json"))) {
            break;
        }
    }
    // The coach's checker goes with A, wrapped to answer as a package's output validator.
    let validators: Vec<String> = walk(&project.join("pkg"))
        .into_iter()
        .filter(|f| f.ends_with("output_validator/validate.py"))
        .collect();
    assert_eq!(validators.len(), 1, "{validators:?}");
    assert!(project
        .read(&validators[0])
        .contains("the answer must be wrong"));
    // The package judged as a contest folder, its day as a CLICS package's: the same board,
    // eli's try on A a judge error there too (the wrapped checker fails as it did).
    let judged = project
        .harness()
        .args([
            "contest",
            "pkg",
            "--submissions",
            "pkg",
            "--event-feed",
            "pkg-feed.ndjson",
        ])
        .output()
        .unwrap();
    let board = stdout(&judged);
    assert_eq!(
        judged.status.code(),
        Some(JUDGE_ERROR),
        "{board}{}",
        stderr(&judged)
    );
    let eli_a = submissions
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["team_id"] == "eli" && s["contest_time"] == "0:05:00.000")
        .expect("eli's try on A");
    let judgement = project
        .read("pkg-feed.ndjson")
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .rfind(|e| e["type"] == "judgements" && e["data"]["submission_id"] == eli_a["id"])
        .expect("a judgement of eli's try");
    assert_eq!(judgement["data"]["judgement_type_id"], "JE", "{judgement}");
    let lines = rows(&board);
    let start = lines
        .iter()
        .position(|l| l.starts_with("Queens Training: final scoreboard"))
        .unwrap_or_else(|| panic!("{board}"));
    assert_eq!(
        lines[start + 2..start + 7],
        [
            "1 ada 400 100 100 100 100",
            "1 cy 400 100 100 100 100",
            "3 bo 300 100 . 100 100",
            "4 eli 200 ?1 . 100 100",
            "5 dee 0 . . . .",
        ],
        "{board}"
    );
}

#[test]
fn the_hand_off_of_an_icpc_day_warns_of_scored_problems_and_checks_the_day_first() {
    let project = training();
    let output = hand_off(&project);
    assert_eq!(output.status.code(), Some(OK), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("warning: problem B (`checker-challenge`) is scored, and its package accepts a try that scores anything"),
        "{text}"
    );
    assert!(
        text.contains("warning: problem D (`two-n-queens`) is scored"),
        "{text}"
    );
    // A second hand-off into the same folder writes nothing over what is there.
    project.write("pkg/notes.txt", "my notes\n");
    let again = hand_off(&project);
    assert_eq!(again.status.code(), Some(ERROR), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("already exists"),
        "{}",
        stderr(&again)
    );
    assert_eq!(project.read("pkg/notes.txt"), "my notes\n");
    // A bad try stops it before anything is written, naming the file.
    let project = training();
    project.write("training/submissions/ada/Q.py", HELLO);
    let output = hand_off(&project);
    assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("`submissions/ada/Q.py`: no problem `Q` in the contest"),
        "{}",
        stderr(&output)
    );
    assert!(!project.join("pkg").exists());
    // So does a team whose folder cannot be a CLICS id.
    let project = training();
    std::fs::rename(
        project.join("training/submissions/dee"),
        project.join("training/submissions/dee dee"),
    )
    .unwrap();
    let output = hand_off(&project);
    assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("team `dee dee` cannot keep its id in a CLICS package"),
        "{}",
        stderr(&output)
    );
    assert!(!project.join("pkg").exists());
}

/// The contest's two packages as problems of a judge.toml beside it, with labels, and the
/// contest's own contest.yaml.
fn packages_in_judge_toml() -> Project {
    let project = contest();
    project.write(
        "judge.toml",
        "[problems.hello]\npackage = \"day/hello\"\nlabel = \"A\"\n\n[problems.echo]\npackage = \"day/echo\"\nlabel = \"B\"\n",
    );
    project.write("contest.yaml", "name: Club Export\nduration: 2:00:00\n");
    project
}

#[test]
fn export_contest_of_package_problems_writes_each_package_as_it_is() {
    let project = packages_in_judge_toml();
    let output = project
        .harness()
        .args(["export", "--contest", "--out", "out", "--no-measure"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(OK),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(
        stdout(&output).contains("exported contest"),
        "{}",
        stdout(&output)
    );
    let problems = project.read("out/problems.yaml");
    assert!(problems.contains("- id: hello\n  label: A\n"), "{problems}");
    assert!(problems.contains("- id: echo\n  label: B\n"), "{problems}");
    for file in ["problem.yaml", "data/sample/1.in", "data/secret/2.ans"] {
        assert_eq!(
            project.read(&format!("out/hello/{file}")),
            project.read(&format!("day/hello/{file}")),
            "{file}"
        );
    }
    assert!(project.join("out/echo.zip").is_file());
    // Named and ruled by the contest.yaml beside judge.toml, not after the folder.
    let contest_yaml = project.read("out/contest.yaml");
    assert!(
        contest_yaml.contains("name: \"Club Export\""),
        "{contest_yaml}"
    );
    assert!(
        contest_yaml.contains("duration: \"2:00:00.000\""),
        "{contest_yaml}"
    );
    // The exported contest judges the day as the original does.
    folders(&project);
    let judged = project
        .harness()
        .args(["contest", "out", "--submissions", "subs"])
        .output()
        .unwrap();
    let board = stdout(&judged);
    assert_eq!(judged.status.code(), Some(OK), "{board}{}", stderr(&judged));
    assert_eq!(rows(&board)[2], "1 alice 2 80 +1 10* + 50*", "{board}");
}

#[test]
fn export_contest_that_would_hold_no_problem_writes_nothing() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.odd]\nchecker = { type = \"command\", command = [\"checkers/mine\"] }\n",
        )
        .executable("checkers/mine", "#!/bin/sh\nexit 0\n")
        .case("odd", "1", "1\n", "1\n");
    let output = project
        .harness()
        .args(["export", "--contest", "--out", "out", "--no-measure"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("no problem could be exported, so no contest is written (odd: problem `odd`: its checker is the command"),
        "{}",
        stderr(&output)
    );
    assert!(!project.join("out").exists());
}

/// Stored submissions for the contest's packages: `hello` keeps one of its own.
fn with_stored(project: &Project) {
    project.write("day/hello/submissions/accepted/own.py", HELLO);
    project.write("stored/A/accepted/hello.py", HELLO);
    project.write("stored/echo/wrong_answer/bye.py", BYE);
}

#[test]
fn verify_contest_with_submissions_dir_judges_dirs_submissions_for_package_problems() {
    let project = contest();
    with_stored(&project);
    let output = project
        .harness()
        .args(["verify", "day", "--submissions", "stored"])
        .output()
        .unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(OK), "{text}{}", stderr(&output));
    let lines = rows(&text);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("hello/accepted/hello.py AC AC")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("echo/wrong_answer/bye.py WA WA")),
        "{text}"
    );
    assert!(
        !text.contains("own.py"),
        "the package's own are not DIR's: {text}"
    );
    // A DIR with nothing for any problem is named.
    std::fs::create_dir_all(project.join("empty")).unwrap();
    let output = project
        .harness()
        .args(["verify", "day", "--submissions", "empty"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(ERROR), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("`empty` has no folder of submissions for any of the problems (hint: `empty/<problem>/<verdict>/<file>`, the problem named `hello` or `A`, `echo` or `B`)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn verify_of_a_contest_with_a_missing_problem_verifies_the_others_and_names_it() {
    let project = contest();
    project.write(
        "day/problems.yaml",
        "- id: hello\n  label: A\n- id: gone\n  label: B\n- id: echo\n  label: C\n",
    );
    project.write("day/hello/submissions/accepted/own.py", HELLO);
    project.write("day/echo/submissions/accepted/echo.py", ECHO);
    let output = project.harness().args(["verify", "day"]).output().unwrap();
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}{}", stderr(&output));
    let lines = rows(&text);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("hello/accepted/own.py AC AC")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("echo/accepted/echo.py AC AC")),
        "{text}"
    );
    assert!(
        text.contains("gone (B)  the problem is not there:")
            && text.contains("problems.yaml:3:3: problem `gone` (B)"),
        "{text}"
    );
    assert!(
        stderr(&output).contains(
            "1 of the contest's problems could not be verified, not being there: B (`gone`)"
        ),
        "{}",
        stderr(&output)
    );
}

/// A Kattis interactor that reads one line and says `code`.
fn says(code: u8) -> String {
    format!("import sys\nsys.stdin.readline()\nsys.exit({code})\n")
}

#[test]
fn an_edited_interactor_judges_its_problems_tries_again() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.ask]\nlabel = \"A\"\ninteractor = \"inter.py\"\ninteractor-protocol = \"kattis\"\n",
        )
        .file("inter.py", &says(43))
        .case("ask", "1", "1\n", "1\n")
        .file("subs/ann/A.py", "print(1)\n")
        .file("subs/times", "ann/A.py 5\n");
    let run = || {
        let output = project
            .harness()
            .args(["contest", "--submissions", "subs"])
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(OK),
            "{}{}",
            stdout(&output),
            stderr(&output)
        );
        (rows(&stdout(&output)), stderr(&output))
    };
    let (lines, _) = run();
    assert_eq!(lines[2], "1 ann 0 0 -1", "{lines:?}");
    // The interactor mended: its bytes are part of the judgement's key, its path alone is not.
    project.write("inter.py", &says(42));
    let (lines, errors) = run();
    assert!(!errors.contains("judged before"), "{errors}");
    assert_eq!(lines[2], "1 ann 1 5 + 5*", "{lines:?}");
    let (_, errors) = run();
    assert!(
        errors.contains("1 of 1 submissions were judged before"),
        "{errors}"
    );
}

/// A coach's testlib checker in Python: 0 for the answer, 1 for another, 3 (its own failure)
/// when the output says `fail`, and a crash when it says `crash`.
const CHECK_PY: &str = r#"import sys
output = open(sys.argv[2]).read().split()
answer = open(sys.argv[3]).read().split()
if output == ["fail"]:
    print("FAIL the answer file must be wrong", file=sys.stderr)
    sys.exit(3)
if output == ["crash"]:
    raise ValueError("a bug of the checker's")
if output != answer:
    print("wrong answer %s instead of %s" % (output, answer), file=sys.stderr)
    sys.exit(1)
sys.exit(0)
"#;

/// The output validator problemtools reads, as `harness export` carries the checker above.
#[test]
fn an_exported_python_checker_answers_as_kattis_wants_and_its_failure_stays_a_judge_error() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.sum]\ntime-limit = \"2s\"\nchecker = { type = \"command\", command = [\"checkers/check.py\"] }\n",
        )
        .file("checkers/check.py", CHECK_PY)
        .case("sum", "sample-1", "1 2\n", "3\n")
        .case("sum", "1", "20 22\n", "42\n")
        .file(
            "solutions/submissions/sum/accepted/sum.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        )
        .file(
            "solutions/submissions/sum/wrong_answer/product.py",
            "a, b = map(int, input().split())\nprint(a * b)\n",
        );
    let output = project
        .harness()
        .args(["export", "sum", "--out", "pkg", "--no-measure"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(OK),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    let validator = project.join("pkg/output_validator/validate.py");
    assert!(validator.is_file(), "{:?}", walk(&project.join("pkg")));
    // `validate INPUT ANSWER FEEDBACK_DIR < OUTPUT`, as a judge runs it.
    let run = |output: &str| {
        let feedback = tempfile::tempdir_in(project.path()).unwrap();
        let mut child = Process::new("python3")
            .arg(&validator)
            .arg(project.join("cases/sum/1.in"))
            .arg(project.join("cases/sum/1.ans"))
            .arg(format!("{}/", feedback.path().display()))
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), output.as_bytes()).unwrap();
        let done = child.wait_with_output().unwrap();
        let message =
            std::fs::read_to_string(feedback.path().join("judgemessage.txt")).unwrap_or_default();
        (done.status.code(), message)
    };
    assert_eq!(run("42\n").0, Some(42));
    let (code, message) = run("41\n");
    assert_eq!(code, Some(43));
    assert!(
        message.contains("wrong answer ['41'] instead of ['42']"),
        "{message}"
    );
    // Its failure and its crash: neither 42 nor 43, a judge error wherever it is judged.
    let (code, message) = run("fail\n");
    assert!(!matches!(code, Some(42 | 43)), "{code:?}");
    assert!(
        message.contains("FAIL the answer file must be wrong"),
        "{message}"
    );
    let (code, message) = run("crash\n");
    assert!(!matches!(code, Some(42 | 43)), "{code:?}");
    assert!(
        message.contains("ValueError: a bug of the checker's"),
        "{message}"
    );

    // problemtools judges the stored submissions with it as they are filed.
    let installed = Process::new("verifyproblem")
        .arg("--help")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        assert!(
            std::env::var_os("CI").is_none(),
            "verifyproblem is not installed: CI runs .ci/install-tools, which installs it"
        );
        common::skipped(
            "verifyproblem is not installed (pip install problemtools; .ci/install-tools does)",
        );
        return;
    }
    let output = Process::new("verifyproblem")
        .args(["-p", "submissions", "--"])
        .arg(project.join("pkg"))
        .current_dir(project.path())
        .output()
        .unwrap();
    let text = stdout(&output) + &stderr(&output);
    assert!(output.status.success(), "verifyproblem:\n{text}");
    for line in [
        "accepted/sum.py",
        "OK: AC",
        "wrong_answer/product.py",
        "OK: WA",
        "0 errors",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}
