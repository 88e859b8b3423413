//! `harness new ID` on a temporary workspace: the user's judge.toml keeps every byte but the
//! added table, an existing problem is never replaced unless told, and a problem without a
//! solution is judged with `harness judge` while `harness run` skips it with a note.
#![cfg(unix)]

mod common;

use common::project::Project;

/// A judge.toml as people write them: comments above and beside keys, odd spacing, problems
/// with sub-tables, and languages after the problems.
const COMMENTED: &str = r#"# My practice workspace.
#   Problems first, languages last.

[defaults]
time-limit   = "2s"      # most judges
memory-limit = "256MiB"

# A warm-up.
[problems.sum]
title = "A + B"
solution = "/bin/cat"   # not really

[[problems.sum.generators]]
name = "big-{seed}"
command = ["gen", "{seed}"]
seeds = "1..=3"

[problems.sum.stress]
generator = ["gen", "{seed}"]

# ---- languages ----
[languages.c]
name = "C"
extensions = ["c"]
compile = ["cc", "-O2", "-o", "{exe}", "{source}"]
run = ["{exe}"]
"#;

#[test]
fn new_keeps_a_commented_judge_toml_byte_for_byte_except_the_added_table() {
    let project = Project::new().file("judge.toml", COMMENTED);
    let output = project
        .harness()
        .args([
            "new",
            "cf1900a",
            "--time-limit",
            "1500ms",
            "--memory-limit",
            "512MiB",
        ])
        .args(["--checker", "float", "--title", "Cover in Water"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert_eq!(
        stdout,
        "added problem `cf1900a` to `judge.toml`\nmade `cases/cf1900a/`: put its cases there as NAME.in + NAME.ans\njudge a submission: harness judge cf1900a FILE\n"
    );

    // The table goes after the last problem's last sub-table, before the languages.
    let at = COMMENTED.find("\n# ---- languages ----").unwrap();
    let expected = format!(
        "{}\n[problems.cf1900a]\ntitle = \"Cover in Water\"\ntime-limit = \"1.5s\"\nmemory-limit = \"512MiB\"\nchecker = \"float\"\n{}",
        &COMMENTED[..at],
        &COMMENTED[at..]
    );
    assert_eq!(project.read("judge.toml"), expected);
    assert!(project.join("cases/cf1900a").is_dir());
}

#[test]
fn an_existing_problem_is_refused_unless_forced() {
    let project = Project::new().file("judge.toml", COMMENTED);
    let output = project.harness().args(["new", "sum"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("problem `sum` is already in") && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(project.read("judge.toml"), COMMENTED);

    let output = project
        .harness()
        .args(["new", "sum", "--force", "--time-limit", "3s"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = project.read("judge.toml");
    // Its comment and place stay; its keys are the new ones.
    assert!(
        text.contains("# A warm-up.\n[problems.sum]\ntime-limit = \"3s\"\n"),
        "{text}"
    );
    assert!(!text.contains("A + B"), "{text}");
    assert!(text.ends_with(&COMMENTED[COMMENTED.find("\n# ---- languages").unwrap()..]));
}

#[test]
fn a_bad_id_or_checker_writes_nothing() {
    let project = Project::new();
    let output = project.harness().args(["new", "a b"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("`a b` is not a valid name"));
    let output = project
        .harness()
        .args(["new", "ok", "--checker", "tokenz"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(!project.join("judge.toml").exists());
    assert!(!project.join("cases").exists());
}

#[test]
fn a_new_workspace_judges_with_harness_judge_and_run_skips_it() {
    let project = Project::new();
    let output = project.harness().args(["new", "sum"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout)
        .starts_with("created `judge.toml` with problem `sum`\n"));
    let text = project.read("judge.toml");
    assert!(text.starts_with("# judge.toml"), "{text}");
    assert!(text.ends_with("\n[problems.sum]\n"), "{text}");
    project.add_case("sum", "1", "1 2\n", Some("3\n"));
    project.write("sum.py", "a, b = map(int, input().split())\nprint(a + b)\n");
    let output = project
        .harness()
        .args(["judge", "sum", "sum.py"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("AC"), "{stdout}");

    // `run` judges the source named after the problem, which has no solution of its own.
    let output = project.harness().arg("run").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("note: problem `sum` has no `solution`: judging `sum.py`, the newest source named after it"),
        "{stderr}"
    );
    assert!(stdout.contains("sum: 1/1 AC"), "{stdout}");
    // Without one, it is skipped with a note.
    std::fs::remove_file(project.join("sum.py")).unwrap();
    let output = project.harness().arg("run").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("note: problem `sum` has no `solution` in judge.toml: its solution run is skipped (hint: `harness judge sum FILE` judges a source file;"),
        "{stderr}"
    );
}

#[test]
fn a_file_name_with_a_folder_is_refused() {
    let project = Project::new().file(
        "judge.toml",
        "[problems.p]\ninput-file = \"../secret.txt\"\n",
    );
    let output = project.harness().arg("run").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("problem `p`, input-file: `../secret.txt` is not a plain file name"),
        "{stderr}"
    );
}
