//! Output-only tasks: `harness judge PROBLEM ANSWERS` on a folder or a zip of answer files,
//! each checked with the problem's checker and scored; the shipped `queens-any` problem; a
//! Kattis `submit-answer` package; answer files that are links, FIFOs or too large.
#![cfg(unix)]

mod common;

use std::io::Write;
use std::path::Path;

use common::project::Project;
use predicates::prelude::*;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

/// Squares: the answer of `n` is n². Scored by points, so each right file counts.
const SQUARES_TOML: &str = r#"
[problems.sq]
output-only = true
scoring = "points"
output-limit = "1KiB"
"#;

fn squares() -> Project {
    Project::new()
        .file("judge.toml", SQUARES_TOML)
        .case("sq", "01", "1\n", "1\n")
        .case("sq", "02", "2\n", "4\n")
        .case("sq", "03", "3\n", "9\n")
        .case("sq", "04", "4\n", "16\n")
}

fn json(output: &[u8]) -> serde_json::Value {
    serde_json::from_slice(output)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(output)))
}

/// Each case's verdict and reason, in case order.
fn rows(report: &serde_json::Value) -> Vec<(String, String, String)> {
    report["cases"]
        .as_array()
        .expect("a list of cases")
        .iter()
        .map(|case| {
            (
                case["name"].as_str().unwrap().to_string(),
                case["verdict"].as_str().unwrap().to_string(),
                case["reason"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn judge_json(project: &Project, args: &[&str], code: i32) -> serde_json::Value {
    let output = project
        .harness()
        .arg("judge")
        .args(args)
        .args(["--format", "json"])
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    json(&output)
}

#[test]
fn a_folder_of_answers_is_checked_file_by_file_and_scored() {
    let project = squares()
        .file("answers/01.out", "1\n")
        // CMS's name for a case's output.
        .file("answers/output_02.txt", "4\n")
        .file("answers/03.out", "10\n");
    let report = judge_json(&project, &["sq", "answers", "--all"], FAILED);
    let rows = rows(&report);
    assert_eq!(rows[0].1, "AC");
    assert_eq!(rows[1].1, "AC");
    assert_eq!(rows[2].1, "WA");
    assert!(rows[2].2.contains("expected 9, found 10"), "{rows:?}");
    assert_eq!(rows[3].1, "WA");
    assert_eq!(
        rows[3].2,
        "no answer file: looked for `04.out`, `output_04.txt`"
    );
    assert_eq!(report["score"], 50.0);
    assert_eq!(report["verdict"], "WA");
}

#[test]
fn all_answers_right_is_accepted_with_full_score_and_the_human_report_says_answers() {
    let project = squares()
        .file("answers/01.out", "1\n")
        .file("answers/02.out", "4\n")
        .file("answers/03.out", "9\n")
        .file("answers/04.out", "16\n");
    project
        .args(["judge", "sq", "answers"])
        .status(OK)
        .stdout_contains("sq: answers (answer files), 4 cases")
        .stdout_contains("verdict: AC, score 100/100")
        .run();
}

#[test]
fn a_link_a_fifo_and_a_huge_file_get_a_verdict_and_nothing_outside_is_read() {
    let project = squares()
        .file("secret.txt", "1\n")
        .file("answers/02.out", &"4 ".repeat(1000));
    let answers = project.join("answers");
    // The link leads to a file that would be right: it must not be followed.
    std::os::unix::fs::symlink(project.join("secret.txt"), answers.join("01.out")).unwrap();
    nix::unistd::mkfifo(&answers.join("03.out"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let report = judge_json(&project, &["sq", "answers", "--all"], FAILED);
    let rows = rows(&report);
    assert_eq!(rows[0].1, "WA", "{rows:?}");
    assert!(rows[0].2.contains("symbolic link"), "{rows:?}");
    assert_eq!(rows[1].1, "OLE", "{rows:?}");
    assert!(
        rows[1].2.contains("larger than the output limit"),
        "{rows:?}"
    );
    assert_eq!(rows[2].1, "WA", "{rows:?}");
    assert!(rows[2].2.contains("FIFO"), "{rows:?}");
    assert_eq!(report["score"], 0.0);
}

#[test]
fn a_zip_of_answers_is_read_with_its_top_folder_and_its_links_refused() {
    let project = squares();
    let file = std::fs::File::create(project.join("answers.zip")).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default();
    // As `zip -r answers.zip answers/` writes it: every file below one folder.
    for (name, text) in [("01.out", "1\n"), ("02.out", "4\n"), ("04.out", "15\n")] {
        zip.start_file(format!("answers/{name}"), options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.add_symlink("answers/03.out", "/etc/passwd", options)
        .unwrap();
    zip.finish().unwrap();
    let report = judge_json(&project, &["sq", "answers.zip", "--all"], FAILED);
    let rows = rows(&report);
    assert_eq!(
        rows.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(),
        ["AC", "AC", "WA", "WA"],
        "{rows:?}"
    );
    assert!(rows[2].2.contains("symbolic link"), "{rows:?}");
    assert_eq!(report["score"], 50.0);
}

#[test]
fn an_entry_above_the_output_limit_is_not_inflated() {
    let project = squares();
    let file = std::fs::File::create(project.join("answers.zip")).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("01.out", options).unwrap();
    // 64 MiB of zeros deflate to a few KiB: only the limit's worth is ever inflated.
    let block = vec![b'0'; 1 << 20];
    for _ in 0..64 {
        zip.write_all(&block).unwrap();
    }
    zip.finish().unwrap();
    let report = judge_json(
        &project,
        &["sq", "answers.zip", "--case", "01", "--all"],
        FAILED,
    );
    assert_eq!(rows(&report)[0].1, "OLE");
}

#[test]
fn what_is_not_answers_is_a_clear_error() {
    let project = squares().file("answers.txt", "not a zip\n");
    project
        .args(["judge", "sq", "answers.txt"])
        .status(ERROR)
        .stderr_contains("answers `answers.txt` are a file that is not a zip")
        .run();
    project
        .args(["judge", "sq", "nowhere"])
        .status(ERROR)
        .stderr_contains("answers `nowhere` do not exist")
        .run();
}

#[test]
fn a_key_that_runs_a_program_beside_output_only_is_an_error_at_its_line() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.sq]\nsolution = \"sq.py\"\noutput-only = true\n",
        )
        .case("sq", "01", "1\n", "1\n")
        .file("answers/01.out", "1\n");
    project
        .args(["judge", "sq", "answers"])
        .status(ERROR)
        .stderr_contains("judge.toml:3:")
        .stderr_contains("problem `sq` is output-only, so `solution` means nothing")
        .run();
}

/// The repository's own `queens-any`: its judge.toml table, its cases, its checker and the
/// two sets of answers it ships, judged as they are.
fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn shipped_queens_any() -> Project {
    let toml = std::fs::read_to_string(repo().join("judge.toml")).unwrap();
    let start = toml
        .find("[problems.queens-any]")
        .expect("judge.toml ships queens-any");
    let end = toml[start + 1..]
        .find("\n[")
        .map_or(toml.len(), |at| start + 1 + at);
    Project::new()
        .file("judge.toml", &toml[start..end])
        .tree("cases/queens-any", &repo().join("cases/queens-any"))
        .tree("solutions/checkers", &repo().join("solutions/checkers"))
        .tree(
            "solutions/answers/queens-any",
            &repo().join("solutions/answers/queens-any"),
        )
}

#[test]
fn the_shipped_queens_any_accepts_any_right_board_and_scores_a_partial_set() {
    let project = shipped_queens_any();
    let report = judge_json(
        &project,
        &["queens-any", "solutions/answers/queens-any/all-boards"],
        OK,
    );
    assert_eq!(report["score"], 100.0);
    assert_eq!(report["cases"].as_array().unwrap().len(), 10);
    let report = judge_json(
        &project,
        &[
            "queens-any",
            "solutions/answers/queens-any/partial",
            "--all",
        ],
        FAILED,
    );
    let failing: Vec<(String, String)> = rows(&report)
        .into_iter()
        .filter(|row| row.1 != "AC")
        .map(|row| (row.0, row.2))
        .collect();
    assert_eq!(
        failing,
        [
            (
                "n009".to_string(),
                "the queens of rows 1 and 2 share a diagonal".to_string()
            ),
            (
                "n014".to_string(),
                "said impossible, but 14 queens fit on a 14x14 board".to_string()
            ),
            (
                "n100".to_string(),
                "no answer file: looked for `n100.out`, `output_n100.txt`".to_string()
            ),
        ]
    );
    assert_eq!(report["score"], 70.0);
}

/// A 2025-09 package of type `submit-answer`, with its answers named by the cases' whole
/// names (`secret/…`) or by their last part.
#[test]
fn a_kattis_submit_answer_package_judges_a_folder_of_answers() {
    let project = Project::new()
        .file(
            "pkg/problem.yaml",
            "problem_format_version: 2025-09\ntype: submit-answer\nname: Squares\nuuid: 5e5b1d6c-3a3f-4b8e-9d55-2f1f0f7b0c11\n",
        )
        .file("pkg/data/sample/1.in", "1\n")
        .file("pkg/data/sample/1.ans", "1\n")
        .file("pkg/data/secret/2.in", "2\n")
        .file("pkg/data/secret/2.ans", "4\n")
        .file("pkg/data/secret/3.in", "3\n")
        .file("pkg/data/secret/3.ans", "9\n")
        .file("answers/sample/1.out", "1\n")
        .file("answers/2.out", "4\n")
        .file("answers/secret/3.out", "9\n");
    let report = judge_json(&project, &["pkg", "answers"], OK);
    assert_eq!(report["verdict"], "AC");
    assert_eq!(report["cases"].as_array().unwrap().len(), 3);
    project.write("answers/secret/3.out", "8\n");
    let report = judge_json(&project, &["pkg", "answers"], FAILED);
    let rows = rows(&report);
    assert_eq!(rows[2].0, "secret/3");
    assert_eq!(rows[2].1, "WA");
}

#[test]
fn export_refuses_an_output_only_problem_instead_of_writing_a_batch_one() {
    let project = squares();
    project
        .args(["export", "--no-measure", "sq", "--out", "sq-pkg"])
        .status(ERROR)
        .stderr_contains("problem `sq` is output-only, which the package this writes cannot say")
        .run();
    assert!(!project.join("sq-pkg").exists());
}

#[test]
fn run_skips_an_output_only_problem_and_says_how_to_judge_it() {
    squares()
        .harness()
        .arg("run")
        .assert()
        .code(OK)
        .stderr(predicate::str::contains(
            "problem `sq` is output-only: no solution runs (hint: `harness judge sq ANSWERS`",
        ));
}
