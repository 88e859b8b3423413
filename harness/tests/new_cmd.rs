//! `harness new ID` on a temporary workspace: it lays out a whole problem that `gen`,
//! `validate`, `run`, `verify` and `export` take at once; the user's judge.toml keeps every
//! byte but the added table, an existing problem or file is never replaced unless told (and a
//! file not even then), and with `--bare` a problem without a solution is judged with
//! `harness judge` while `harness run` skips it with a note.
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
        .args(["--checker", "float", "--title", "Cover in Water", "--bare"])
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
        .args(["new", "sum", "--force", "--time-limit", "3s", "--bare"])
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
    // The layout's files, written before the table that names them, are taken back.
    assert_eq!(std::fs::read_dir(project.path()).unwrap().count(), 0);
}

#[test]
fn a_new_bare_workspace_judges_with_harness_judge_and_run_skips_it() {
    let project = Project::new();
    let output = project
        .harness()
        .args(["new", "sum", "--bare"])
        .output()
        .unwrap();
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

/// Every file below `root` with its bytes, for "nothing changed".
fn tree(root: &std::path::Path) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// As `bt new_problem` does: a statement where `harness export` takes it, a sample, a
/// generator, an input validator, a reference solution stored as accepted and the folders of
/// the submissions that must fail, with the table wired to them, so that each command works
/// on it at once. A second `harness new` of it is refused and changes nothing.
#[test]
fn new_lays_out_a_problem_that_every_command_takes_at_once() {
    let project = Project::new().file("judge.toml", COMMENTED);
    let output = project.harness().args(["new", "add"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for file in [
        "docs/problems/add.md",
        "cases/add/sample-1.in",
        "generators/add.py",
        "input_validators/add.py",
        "solutions/submissions/add/accepted/add.py",
        "solutions/submissions/add/wrong_answer/.gitkeep",
        "solutions/submissions/add/time_limit_exceeded/.gitkeep",
    ] {
        assert!(stdout.contains(&format!("wrote `{file}`")), "{stdout}");
        assert!(project.join(file).is_file(), "{file}");
    }
    // The rest of judge.toml is as it was.
    let text = project.read("judge.toml");
    let at = COMMENTED.find("\n# ---- languages ----").unwrap();
    assert!(text.starts_with(&COMMENTED[..at]), "{text}");
    assert!(text.ends_with(&COMMENTED[at..]), "{text}");
    assert!(
        text.contains("[problems.add]\nsolution = \"solutions/submissions/add/accepted/add.py\"\n"),
        "{text}"
    );

    let run = |args: &[&str]| {
        let output = project.harness().args(args).output().unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(output.status.code(), Some(0), "{args:?}: {said}");
        said
    };
    assert!(run(&["gen", "add"]).contains("10 written"));
    assert!(run(&["validate", "add"]).contains("add: 11 inputs valid"));
    assert!(run(&["run", "-p", "add"]).contains("add: 11/11 AC"));
    assert!(run(&["verify", "add"]).contains("all 1 submissions got their expected verdict"));
    run(&["export", "add", "--out", "package"]);
    for file in [
        "statement/problem.en.md",
        "data/sample/sample-1.in",
        "data/secret/random-01.ans",
        "input_validators/add/add.py",
        "submissions/accepted/add.py",
    ] {
        assert!(project.join("package").join(file).is_file(), "{file}");
    }
    // Its stress generator too: the reference against itself finds nothing (exit 0).
    run(&[
        "stress",
        "add",
        "solutions/submissions/add/accepted/add.py",
        "-n",
        "3",
    ]);

    let before = tree(project.path());
    let output = project.harness().args(["new", "add"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("problem `add` is already in")
            && stderr.contains("its layout has files already: `docs/problems/add.md`")
            && stderr.contains("--force"),
        "{stderr}"
    );
    assert!(
        tree(project.path()) == before,
        "a refused `new` changed a file"
    );
}

/// `--force` replaces the table and writes what is missing, but a file the user wrote stays.
#[test]
fn new_force_keeps_the_files_that_are_there() {
    let project = Project::new()
        .file("judge.toml", COMMENTED)
        .file("cases/sum/sample-1.in", "mine\n")
        .file("docs/problems/sum.md", "# My statement\n");
    let output = project
        .harness()
        .args(["new", "sum", "--force"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("replaced problem `sum`"), "{stdout}");
    assert!(
        stdout.contains("kept `docs/problems/sum.md`: it was there"),
        "{stdout}"
    );
    assert_eq!(project.read("cases/sum/sample-1.in"), "mine\n");
    assert_eq!(project.read("docs/problems/sum.md"), "# My statement\n");
    assert!(project.join("generators/sum.py").is_file());
    let text = project.read("judge.toml");
    assert!(
        text.contains("# A warm-up.\n[problems.sum]\nsolution = "),
        "{text}"
    );
    assert!(!text.contains("\"gen\", \"{seed}\""), "{text}");
    assert!(
        text.ends_with(&COMMENTED[COMMENTED.find("\n# ---- languages").unwrap()..]),
        "{text}"
    );
}

/// `--grader` lays out a function-signature problem: the submission defines `sum`, the
/// grader (judge.toml's `grader`, with `main`) and its header (`grader-files`) are compiled
/// with it, so `judge`, `verify` and `export` (as `include/`) take it at once; a function that
/// is wrong is WA, not a CE.
#[test]
fn new_grader_lays_out_a_function_problem_that_judges_verifies_and_exports() {
    let project = Project::new().file("judge.toml", COMMENTED);
    let run = |args: &[&str], code: i32| {
        let output = project.harness().args(args).output().unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(output.status.code(), Some(code), "{args:?}: {said}");
        said
    };
    let said = run(&["new", "add", "--grader"], 0);
    for file in [
        "graders/add/grader.cpp",
        "graders/add/add.h",
        "solutions/submissions/add/accepted/add.cpp",
        "references/add.py",
    ] {
        assert!(said.contains(&format!("wrote `{file}`")), "{said}");
    }
    assert!(!project
        .join("solutions/submissions/add/accepted/add.py")
        .exists());
    let text = project.read("judge.toml");
    assert!(
        text.contains(
            "grader = { cpp = \"graders/add/grader.cpp\" }\ngrader-files = [\"graders/add/add.h\"]\n"
        ),
        "{text}"
    );
    // A function is no program alone: the table has no `solution`.
    let table = &text[text.find("[problems.add]").unwrap()..];
    let table = &table[..table.find("\n[[problems.add.").unwrap()];
    assert!(!table.contains("solution ="), "{table}");
    assert!(run(&["gen", "add"], 0).contains("10 written"));
    assert!(run(&["verify", "add"], 0).contains("all 1 submissions got their expected verdict"));
    project.write(
        "minus.cpp",
        "#include \"add.h\"\nlong long sum(long long a, long long b) { return a - b; }\n",
    );
    assert!(run(&["judge", "add", "minus.cpp"], 1).contains("verdict: WA"));
    run(&["export", "add", "--no-measure", "--out", "package"], 0);
    assert_eq!(
        project.read("package/include/cpp/grader.cpp"),
        project.read("graders/add/grader.cpp")
    );
    assert_eq!(
        project.read("package/include/default/add.h"),
        project.read("graders/add/add.h")
    );
    assert!(run(&["verify", "package"], 0).contains("all 1 submissions got their expected verdict"));
}
