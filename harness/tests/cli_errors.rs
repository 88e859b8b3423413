//! Bad input to the harness itself: a clear message naming the file, the right exit code, and
//! never a panic.

mod common;

use std::path::Path;

use predicates::prelude::*;

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
    dir.harness()
        .arg("--no-build")
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("judge.toml:3:"))
        .stderr(no_panic());
}

#[test]
fn unknown_key_names_line_and_column() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\nmemory-limt = \"1MiB\"\n");
    dir.harness()
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("judge.toml:3:1"))
        .stderr(predicate::str::contains("memory-limt"))
        .stderr(no_panic());
}

#[test]
fn bad_value_names_line_and_column() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\nmemory-limit = \"64\"\n");
    dir.harness()
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("judge.toml:3:16"))
        .stderr(predicate::str::contains("no unit"))
        .stderr(no_panic());
}

#[test]
fn missing_judge_toml_says_where_it_looked() {
    let dir = Project::new();
    dir.harness()
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("no `judge.toml`"))
        .stderr(no_panic());
}

#[test]
fn judge_toml_is_found_from_a_subfolder() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    let sub = dir.path().join("deep/er");
    std::fs::create_dir_all(&sub).unwrap();
    // The problem has no case folder: the error proves the file above was found and read.
    dir.harness()
        .current_dir(&sub)
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("cases/sum"))
        .stderr(predicate::str::contains("does not exist"))
        .stderr(no_panic());
}

#[test]
fn unknown_problem_lists_the_known_ones() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    dir.harness()
        .args(["run", "--problem", "summ"])
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("unknown problem `summ`"))
        .stderr(predicate::str::contains("`sum`"))
        .stderr(no_panic());
}

#[test]
fn missing_answer_file_names_the_path_and_the_fix() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    with_case(dir.path(), "01", "1 2\n", None);
    dir.harness()
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("missing answer file"))
        .stderr(predicate::str::contains("cases/sum/01.ans"))
        .stderr(predicate::str::contains("harness add"))
        .stderr(no_panic());
}

#[test]
fn missing_solution_says_how_to_build_it() {
    let dir = project("[problems.sum]\nsolution = \"target/release/sum\"\n");
    with_case(dir.path(), "01", "1 2\n", Some("3\n"));
    dir.harness()
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("target/release/sum"))
        .stderr(predicate::str::contains("does not exist"))
        .stderr(no_panic());
}

#[test]
fn a_failing_build_stops_the_run() {
    let dir = project(
        "[defaults]\nbuild = [\"sh\", \"-c\", \"echo broken >&2; exit 7\"]\n[problems.sum]\nsolution = \"/bin/cat\"\n",
    );
    with_case(dir.path(), "01", "3\n", Some("3\n"));
    dir.harness()
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("broken"))
        .stderr(predicate::str::contains("failed"))
        .stderr(no_panic());
}

#[test]
fn a_case_pattern_that_matches_nothing_is_an_error() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    with_case(dir.path(), "01", "3\n", Some("3\n"));
    dir.harness()
        .args(["--case", "nope*"])
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("no case matches `nope*`"))
        .stderr(no_panic());
}

#[test]
fn config_may_come_before_the_command() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    with_case(dir.path(), "01", "3\n", Some("3\n"));
    let elsewhere = Project::new();
    let config = dir.path().join("judge.toml");
    elsewhere
        .harness()
        .arg("--config")
        .arg(&config)
        .args(["run", "--no-build"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("sum: 1/1 AC"));
}

#[test]
fn run_options_before_another_command_are_refused() {
    let dir = project("[problems.sum]\nsolution = \"/bin/cat\"\n");
    dir.harness()
        .args(["-p", "sum", "validate"])
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("go after a command's name"))
        .stderr(no_panic());
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
        dir.harness()
            .arg("--no-build")
            .assert()
            .code(ERROR)
            .stderr(predicate::str::contains("judge.toml:3:"))
            .stderr(predicate::str::contains(format!("`{key}`")))
            .stderr(predicate::str::contains(why))
            .stderr(no_panic());
    }
}

#[test]
fn a_huge_time_multiplier_is_refused_with_its_line() {
    for value in ["1e300", "0", "-1", "nan"] {
        let dir = project(&format!(
            "[problems.sum]\nsolution = \"/bin/cat\"\n[languages.py]\nextensions = [\"py\"]\nrun = [\"python3\", \"{{source}}\"]\ntime-multiplier = {value}\n"
        ));
        dir.harness()
            .arg("--no-build")
            .assert()
            .code(ERROR)
            .stderr(predicate::str::contains("judge.toml:6:"))
            .stderr(predicate::str::contains("`time-multiplier`"))
            .stderr(no_panic());
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
