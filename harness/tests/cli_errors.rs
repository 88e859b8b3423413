//! Bad input to the harness itself: a clear message naming the file, the right exit code, and
//! never a panic.

mod common;

use std::path::Path;

use predicates::prelude::*;

use common::expect::NO_ARGUMENTS;
use common::project::{write_case, Project};

const ERROR: i32 = 2;

fn project(judge_toml: &str) -> Project {
    Project::new().file("judge.toml", judge_toml)
}

fn with_case(dir: &Path, name: &str, input: &str, answer: Option<&str>) {
    write_case(dir, "sum", name, input, answer);
}

fn no_panic() -> impl Predicate<str> {
    predicate::str::contains("panicked").not()
}

#[test]
fn malformed_toml_names_line_and_column() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\ntime-limit = 1s\n");
    dir.args(["--no-build"])
        .status(ERROR)
        .stderr_contains("judge.toml:3:")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn unknown_key_names_line_and_column() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\nmemory-limt = \"1MiB\"\n");
    dir.args(NO_ARGUMENTS)
        .status(ERROR)
        .stderr_contains("judge.toml:3:1")
        .stderr_contains("memory-limt")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn bad_value_names_line_and_column() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\nmemory-limit = \"64\"\n");
    dir.args(NO_ARGUMENTS)
        .status(ERROR)
        .stderr_contains("judge.toml:3:16")
        .stderr_contains("no unit")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn missing_judge_toml_says_where_it_looked() {
    let dir = Project::new();
    dir.args(NO_ARGUMENTS)
        .status(ERROR)
        .stderr_contains("no `judge.toml`")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn judge_toml_is_found_from_a_subfolder() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    let sub = dir.path().join("deep/er");
    std::fs::create_dir_all(&sub).unwrap();
    // The problem has no case folder: the error proves the file above was found and read.
    dir.args(NO_ARGUMENTS)
        .current_dir(&sub)
        .status(ERROR)
        .stderr_contains("cases/sum")
        .stderr_contains("does not exist")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn unknown_problem_lists_the_known_ones() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    dir.args(["run", "--problem", "summ"])
        .status(ERROR)
        .stderr_contains("unknown problem `summ`")
        .stderr_contains("`sum`")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn missing_answer_file_names_the_path_and_the_fix() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    with_case(dir.path(), "01", "1 2\n", None);
    dir.args(NO_ARGUMENTS)
        .status(ERROR)
        .stderr_contains("missing answer file")
        .stderr_contains("cases/sum/01.ans")
        .stderr_contains("harness add")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn missing_solution_says_how_to_build_it() {
    let dir = project("[problems.sum]\nsolution = \"target/release/sum\"\n");
    with_case(dir.path(), "01", "1 2\n", Some("3\n"));
    dir.args(NO_ARGUMENTS)
        .status(ERROR)
        .stderr_contains("target/release/sum")
        .stderr_contains("does not exist")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn a_failing_build_stops_the_run() {
    let dir = project(
        "[defaults]\nbuild = [\"sh\", \"-c\", \"echo broken >&2; exit 7\"]\n[problems.sum]\nsolution = \"/bin/cat\"\n",
    );
    with_case(dir.path(), "01", "3\n", Some("3\n"));
    dir.args(NO_ARGUMENTS)
        .status(ERROR)
        .stderr_contains("broken")
        .stderr_contains("failed")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn a_case_pattern_that_matches_nothing_is_an_error() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    with_case(dir.path(), "01", "3\n", Some("3\n"));
    dir.args(["--case", "nope*"])
        .status(ERROR)
        .stderr_contains("no case matches `nope*`")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn config_may_come_before_the_command() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    with_case(dir.path(), "01", "3\n", Some("3\n"));
    let elsewhere = Project::new();
    let config = dir.path().join("judge.toml");
    elsewhere
        .args(["--config"])
        .arg(&config)
        .args(["run", "--no-build"])
        .status(0)
        .stdout_contains("sum: 1/1 AC")
        .run();
}

#[test]
fn run_options_before_another_command_are_refused() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    dir.args(["-p", "sum", "validate"])
        .status(ERROR)
        .stderr_contains("go after a command's name")
        .stderr_lacks("panicked")
        .run();
}

/// Values past the sane bounds: exit 2 with `judge.toml:LINE:COL` and the key's name, never a
/// panic (the first two panicked, the third was read as a 0 ms limit).
#[test]
fn out_of_bounds_values_name_their_key() {
    let table = [
        (
            "time-limit = \"99999999999999999999s\"",
            "time-limit",
            "maximum",
        ),
        (
            "time-limit = \"0.0000001ms\"",
            "time-limit",
            "shorter than 1ms",
        ),
        ("wall-limit = \"100000m\"", "wall-limit", "maximum"),
        (
            "memory-limit = \"99999999TiB\"",
            "memory-limit",
            "unknown size unit",
        ),
        ("memory-limit = \"99999999GiB\"", "memory-limit", "maximum"),
        (
            "output-limit = \"4GiB\"",
            "output-limit",
            "maximum output limit",
        ),
    ];
    for (line, key, why) in table {
        let dir = project(&format!(
            "[problems.sum]\nsolution = \"/bin/cat\"\n{line}\n"
        ));
        dir.args(["--no-build"])
            .status(ERROR)
            .stderr_contains("judge.toml:3:")
            .stderr_contains(&format!("`{key}`"))
            .stderr_contains(why)
            .stderr_lacks("panicked")
            .run();
    }
}

#[test]
fn a_huge_time_multiplier_is_refused_with_its_line() {
    for value in ["1e300", "0", "-1", "nan"] {
        let dir = project(&format!(
            "[problems.sum]\nsolution = \"/bin/cat\"\n[languages.py]\nextensions = [\"py\"]\nrun = [\"python3\", \"{{source}}\"]\ntime-multiplier = {value}\n"
        ));
        dir.args(["--no-build"])
            .status(ERROR)
            .stderr_contains("judge.toml:6:")
            .stderr_contains("`time-multiplier`")
            .stderr_lacks("panicked")
            .run();
    }
}

#[test]
fn a_seed_range_past_the_maximum_is_refused_without_collecting_it() {
    let dir = project(
        "[problems.sum]\nsolution = \"/bin/cat\"\nreference = \"/bin/cat\"\n\
         [[problems.sum.generators]]\nname = \"r{seed}\"\ncommand = [\"/bin/echo\", \"{seed}\"]\n\
         seeds = \"0..=18446744073709551615\"\n",
    );
    dir.harness()
        .args(["gen", "--check"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("judge.toml:7:"))
        .stderr(predicate::str::contains("`seeds`"))
        .stderr(predicate::str::contains("18446744073709551616 seeds"))
        .stderr(no_panic());
}

#[test]
fn run_on_a_package_folder_points_to_verify_and_judge_inside_a_project_or_not() {
    let package = |project: Project| {
        project
            .file("sum/problem.yaml", "name: Sum\n")
            .file("sum/data/secret/1.in", "1 2\n")
            .file("sum/data/secret/1.ans", "3\n")
    };
    let hint = "hint: `harness verify sum` judges the package's stored submissions";
    for project in [
        package(Project::new()),
        package(project("[problems.other]\nsolution = \"/bin/cat\"\n")),
    ] {
        project
            .args(["run", "-p", "sum"])
            .status(ERROR)
            .stderr_contains("`sum` is a Kattis/ICPC package (legacy), not a problem of judge.toml")
            .stderr_contains(hint)
            .stderr_lacks("unknown problem")
            .stderr_lacks("panicked")
            .run();
    }
}
