//! Authoring cases on a temporary project whose tools are tiny shell scripts: `validate`,
//! `run` refusing invalid inputs, `add`, `gen` and `gen --check`, and `stress --save`.
//!
//! The problem is "sum": the input is `a b` with 0 ≤ a, b ≤ 100, the answer a + b.
#![cfg(unix)]

mod common;

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

const FAILED: i32 = 1;
const ERROR: i32 = 2;

const JUDGE_TOML: &str = r#"
[problems.sum]
solution = "sum.sh"
reference = "sum.sh"
validator = ["sh", "validate.sh"]

[[problems.sum.generators]]
name = "g{seed:02}"
command = ["sh", "gen.sh", "{seed}"]
seeds = "1..=3"

[problems.sum.stress]
generator = ["sh", "gen.sh", "{seed}"]
shrink = ["sh", "shrink.sh", "{input}", "{dir}"]

[languages.c]
extensions = ["c"]
compile = ["cc", "-O1", "-o", "{exe}", "{source}"]
run = ["{exe}"]
"#;

const VALIDATE: &str = r#"read a b
for v in "$a" "$b"; do
  if [ "$v" -gt 100 ]; then echo "line 1: $v is out of [0, 100]" >&2; exit 1; fi
done
"#;

/// Seed s gives `s 2s`; one seed can be made to fail through the file `fail-seed`, and to
/// hang for a while through `slow-seed`.
const GENERATE: &str = r#"if [ -f fail-seed ] && [ "$1" = "$(cat fail-seed)" ]; then echo "seed $1: out of ideas" >&2; exit 4; fi
if [ -f slow-seed ] && [ "$1" = "$(cat slow-seed)" ]; then exec sleep 5; fi
echo "$1 $(( $1 * 2 % 101 ))"
"#;

/// Candidates: a halved, b halved, a - 1, b - 1 (never below 0), written as 000.in, 001.in, …
const SHRINK: &str = r#"dir=$2
read a b < "$1"
i=0
for c in "$((a / 2)) $b" "$a $((b / 2))" "$((a - 1)) $b" "$a $((b - 1))"; do
  set -- $c
  if [ "$1" -ge 0 ] && [ "$2" -ge 0 ] && [ "$c" != "$a $b" ]; then
    echo "$c" > "$dir/$(printf %03d $i).in"
    i=$((i + 1))
  fi
done
"#;

const SUM: &str = "#!/bin/sh\nread a b\necho $((a + b))\n";

/// The shared project builder, with the sum problem's tools and one sample.
struct Project {
    project: common::project::Project,
}

impl Project {
    fn new() -> Project {
        let project = common::project::Project::new()
            .file("judge.toml", JUDGE_TOML)
            .file("validate.sh", VALIDATE)
            .file("gen.sh", GENERATE)
            .file("shrink.sh", SHRINK)
            .executable("sum.sh", SUM)
            .case("sum", "sample-1", "1 2\n", "3\n");
        Project { project }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.project.join(relative)
    }

    fn write(&self, relative: &str, text: &str) {
        self.project.write(relative, text);
    }

    fn read(&self, relative: &str) -> String {
        self.project.read(relative)
    }

    fn harness(&self) -> Command {
        self.project.harness()
    }

    fn args<const N: usize>(&self, args: [&str; N]) -> common::expect::Run {
        self.project.args(args)
    }

    /// The names in the case folder, sorted: what a test expects to find there and no more.
    fn case_files(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.path("cases/sum"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }
}

fn no_panic() -> impl Predicate<str> {
    predicate::str::contains("panicked").not()
}

// ---- validate, and run refusing invalid inputs ----------------------------------------------

#[test]
fn validate_lists_each_invalid_case_with_its_reason() {
    let project = Project::new();
    project
        .args(["validate"])
        .status(0)
        .stdout_contains("sum: 1 inputs valid")
        .run();

    project.write("cases/sum/big.in", "500 1\n");
    project.write("cases/sum/big.ans", "501\n");
    project
        .args(["validate"])
        .status(FAILED)
        .stdout_contains("INVALID  cases/sum/big.in: line 1: 500 is out of [0, 100]")
        .stdout_contains("sum: 1 of 2 inputs invalid")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn a_kattis_validator_accepts_with_42_and_rejects_with_anything_else() {
    let project = Project::new();
    let toml = project.read("judge.toml").replace(
        "validator = [\"sh\", \"validate.sh\"]",
        "validator = [\"sh\", \"validate-kattis.sh\", \"100\"]\nvalidator-protocol = \"kattis\"",
    );
    project.write("judge.toml", &toml);
    // The bound comes as an argument, as `input_validator_flags` give it in a package.
    project.write(
        "validate-kattis.sh",
        r#"read a b
for v in "$a" "$b"; do
  if [ "$v" -gt "$1" ]; then echo "line 1: $v is out of [0, $1]" >&2; exit 43; fi
done
[ "$a" = 0 ] && exit 0
exit 42
"#,
    );
    project.write("cases/sum/big.in", "500 1\n");
    project.write("cases/sum/big.ans", "501\n");
    // Exit 0 is not Kattis' "valid".
    project.write("cases/sum/zero.in", "0 1\n");
    project.write("cases/sum/zero.ans", "1\n");
    project
        .args(["validate"])
        .status(FAILED)
        .stdout_contains("INVALID  cases/sum/big.in: line 1: 500 is out of [0, 100]")
        .stdout_contains("INVALID  cases/sum/zero.in: rejected (exit 0) without a reason")
        .stdout_contains("sum: 2 of 3 inputs invalid")
        .stderr_lacks("panicked")
        .run();
}

#[test]
fn run_refuses_invalid_inputs_unless_told_not_to() {
    let project = Project::new();
    project.write("cases/sum/big.in", "500 1\n");
    project.write("cases/sum/big.ans", "501\n");
    project
        .harness()
        .arg("run")
        .assert()
        .code(FAILED)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "cases/sum/big.in: line 1: 500 is out of [0, 100]",
        ))
        .stderr(predicate::str::contains("nothing was judged"))
        .stderr(predicate::str::contains("--no-validate"));

    project
        .args(["run", "--no-validate"])
        .status(0)
        .stdout_contains("all 2 cases AC")
        .run();
}

// ---- add ------------------------------------------------------------------------------------

#[test]
fn add_refuses_an_invalid_input_and_writes_nothing() {
    let project = Project::new();
    project
        .harness()
        .args(["add", "sum", "--input", "-"])
        .write_stdin("7 101\n")
        .assert()
        .code(FAILED)
        .stderr(predicate::str::contains(
            "the input is not valid for `sum`: line 1: 101 is out of [0, 100]",
        ))
        .stderr(no_panic());
    assert_eq!(project.case_files(), ["sample-1.ans", "sample-1.in"]);
}

#[test]
fn add_picks_the_next_free_name_and_answers_with_the_reference() {
    let project = Project::new();
    project.write("mine.in", "20 22\n");
    for expected in ["added-1", "added-2"] {
        project
            .args(["add", "sum", "--input", "mine.in"])
            .status(0)
            .stdout_contains(&format!("wrote cases/sum/{expected}.in (6 bytes)"))
            .stdout_contains(&format!(
                "wrote cases/sum/{expected}.ans (3 bytes, answer from the reference)"
            ))
            .run();
        assert_eq!(project.read(&format!("cases/sum/{expected}.in")), "20 22\n");
        assert_eq!(project.read(&format!("cases/sum/{expected}.ans")), "42\n");
    }
    // Written by rename: nothing but the cases is left in the folder.
    assert_eq!(
        project.case_files(),
        [
            "added-1.ans",
            "added-1.in",
            "added-2.ans",
            "added-2.in",
            "sample-1.ans",
            "sample-1.in"
        ]
    );
}

#[test]
fn add_never_overwrites_without_force() {
    let project = Project::new();
    project
        .harness()
        .args(["add", "sum", "edge", "--input", "-"])
        .write_stdin("0 0\n")
        .assert()
        .success();
    project
        .harness()
        .args(["add", "sum", "edge", "--input", "-"])
        .write_stdin("1 1\n")
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains(
            "problem `sum` already has a case `edge`",
        ))
        .stderr(predicate::str::contains("--force"));
    assert_eq!(project.read("cases/sum/edge.in"), "0 0\n");

    project
        .harness()
        .args(["add", "sum", "sample-1", "--input", "-"])
        .write_stdin("1 1\n")
        .assert()
        .code(ERROR);
    assert_eq!(project.read("cases/sum/sample-1.in"), "1 2\n");

    project
        .harness()
        .args(["add", "sum", "edge", "--input", "-", "--force"])
        .write_stdin("1 1\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("replaced cases/sum/edge.in"));
    assert_eq!(project.read("cases/sum/edge.in"), "1 1\n");
    assert_eq!(project.read("cases/sum/edge.ans"), "2\n");
}

#[test]
fn add_keeps_a_given_answer_but_warns_when_the_reference_disagrees() {
    let project = Project::new();
    project.write("in.txt", "2 2\n");
    project.write("right.txt", "4\n");
    project.write("wrong.txt", "5\n");
    project
        .args([
            "add",
            "sum",
            "ok",
            "--input",
            "in.txt",
            "--answer",
            "right.txt",
        ])
        .status(0)
        .stdout_contains("answer as given")
        .stderr_lacks("warning")
        .run();
    project
        .args(["add", "sum", "odd", "--input", "in.txt", "--answer", "wrong.txt"]).status(0).stderr_contains("warning: the given answer disagrees with the reference's (WA: line 1, token 1: expected 4, found 5)").run();
    assert_eq!(project.read("cases/sum/odd.ans"), "5\n");
}

#[test]
fn add_leaves_nothing_behind_when_the_reference_fails() {
    let project = Project::new();
    project.write("sum.sh", "#!/bin/sh\necho broken >&2\nexit 3\n");
    project
        .harness()
        .args(["add", "sum", "x", "--input", "-"])
        .write_stdin("1 1\n")
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("exit 3: broken"));
    assert_eq!(project.case_files(), ["sample-1.ans", "sample-1.in"]);
}

#[test]
fn add_refuses_a_name_a_generator_owns() {
    let project = Project::new();
    project
        .harness()
        .args(["add", "sum", "g02", "--input", "-"])
        .write_stdin("1 1\n")
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains(
            "`g02` is a case of the generator `g{seed:02}`",
        ));
}

// ---- gen ------------------------------------------------------------------------------------

#[test]
fn gen_writes_the_generated_cases_and_leaves_hand_added_ones_alone() {
    let project = Project::new();
    // A hand-added case with an answer the reference would not give: gen must not "fix" it.
    project.write("cases/sum/mine.in", "1 1\n");
    project.write("cases/sum/mine.ans", "hand-made\n");
    project
        .args(["gen"])
        .status(0)
        .stdout_contains("new      cases/sum/g01")
        .stdout_contains("sum: 3 cases, 3 written, 0 unchanged")
        .run();
    assert_eq!(project.read("cases/sum/g02.in"), "2 4\n");
    assert_eq!(project.read("cases/sum/g02.ans"), "6\n");
    assert_eq!(project.read("cases/sum/mine.ans"), "hand-made\n");
    assert_eq!(project.read("cases/sum/sample-1.ans"), "3\n");

    project
        .args(["gen"])
        .status(0)
        .stdout_contains("sum: 3 cases, 0 written, 3 unchanged")
        .run();
    // The scratch folder went away.
    let leftovers: Vec<_> = fs::read_dir(project.path("cases"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["sum"]);
}

#[test]
fn a_killed_gens_scratch_folder_is_removed_by_the_next_gen() {
    let project = Project::new();
    project.write("slow-seed", "2\n");
    let mut killed = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .args(["gen", "-j", "1"])
        .current_dir(project.path(""))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let scratch = |project: &Project| -> Vec<String> {
        fs::read_dir(project.path("cases"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.starts_with(".harness-gen-"))
            .collect()
    };
    let waited = std::time::Instant::now();
    while scratch(&project).is_empty() && waited.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    killed.kill().unwrap(); // SIGKILL: no chance to clean up.
    killed.wait().unwrap();
    assert_eq!(
        scratch(&project).len(),
        1,
        "gen never made its scratch folder"
    );

    fs::remove_file(project.path("slow-seed")).unwrap();
    project.args(["gen"]).status(0).run();
    assert_eq!(scratch(&project), Vec::<String>::new());
}

#[test]
fn gen_check_passes_on_unchanged_cases_and_reports_changed_and_missing_ones() {
    let project = Project::new();
    project.args(["gen"]).status(0).run();
    project
        .args(["gen", "--check"])
        .status(0)
        .stdout_contains("sum: 3 cases match")
        .run();

    project.write("cases/sum/g02.ans", "7\n");
    fs::remove_file(project.path("cases/sum/g03.in")).unwrap();
    fs::remove_file(project.path("cases/sum/g03.ans")).unwrap();
    project
        .args(["gen", "--check"])
        .status(FAILED)
        .stdout_contains("DIFFERS  cases/sum/g02: answer")
        .stdout_contains("MISSING  cases/sum/g03")
        .stdout_contains("sum: 2 of 3 cases differ")
        .run();
    // --check writes nothing.
    assert_eq!(project.read("cases/sum/g02.ans"), "7\n");
    assert!(!project.path("cases/sum/g03.in").exists());

    // A generator that changed its mind is caught the same way.
    project.args(["gen"]).status(0).run();
    project.write("gen.sh", "echo \"$1 0\"\n");
    project
        .args(["gen", "--check", "sum"])
        .status(FAILED)
        .stdout_contains("DIFFERS  cases/sum/g01: input and answer")
        .run();
}

#[test]
fn a_failing_generator_loses_nothing() {
    let project = Project::new();
    project.args(["gen"]).status(0).run();
    // Seed 1 would now give another case, but seed 3 fails: nothing may change.
    project.write("gen.sh", &GENERATE.replace("% 101", "% 101 + 1"));
    project.write("fail-seed", "3\n");
    project
        .args(["gen"])
        .status(ERROR)
        .stderr_contains("1 of 3 cases could not be generated")
        .stderr_contains("`g03`")
        .stderr_contains("exit 4: seed 3: out of ideas")
        .stderr_lacks("panicked")
        .run();
    assert_eq!(project.read("cases/sum/g01.in"), "1 2\n");
    assert_eq!(project.read("cases/sum/g01.ans"), "3\n");
    let leftovers: Vec<_> = fs::read_dir(project.path("cases"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["sum"]);
}

#[test]
fn a_generated_input_the_validator_rejects_stops_gen() {
    let project = Project::new();
    project.write("gen.sh", "echo \"$1 $(( $1 * 60 ))\"\n");
    project
        .args(["gen"]).status(ERROR).stderr_contains("`g02`: the generator `sh gen.sh 2` made an invalid input: line 1: 120 is out of [0, 100]").run();
    assert_eq!(project.case_files(), ["sample-1.ans", "sample-1.in"]);
}

// ---- stress on the temporary project ---------------------------------------------------------

/// Wrong from a = 3 on; shrinking `a b` must end at `3 0`.
const OFF_BY_ONE_FROM_3: &str = r#"#include <stdio.h>
int main(void) {
    int a, b;
    if (scanf("%d %d", &a, &b) != 2) return 1;
    printf("%d\n", a >= 3 ? a + b + 1 : a + b);
    return 0;
}
"#;

#[test]
fn stress_shrinks_and_saves_the_minimal_input_as_a_case() {
    let project = Project::new();
    project.write("wrong.c", OFF_BY_ONE_FROM_3);
    project
        .args(["stress", "sum", "wrong.c", "--seed", "40", "--save", "tiny"])
        .status(FAILED)
        .stdout_contains("WA on input 1 (seed 40)")
        .stdout_contains("minimal failing input:\n  3 0\n")
        .stdout_contains("expected (reference):\n  3\n")
        .stdout_contains("received:\n  4\n")
        .stdout_contains("saved as case `tiny`")
        .stdout_contains("reproduce: harness stress sum wrong.c --seed 40 -n 1")
        .run();
    assert_eq!(project.read("cases/sum/tiny.in"), "3 0\n");
    assert_eq!(project.read("cases/sum/tiny.ans"), "3\n");

    // Saving never overwrites.
    project
        .args(["stress", "sum", "wrong.c", "--seed", "40", "--save", "tiny"])
        .status(ERROR)
        .stderr_contains("the failing input was not saved: problem `sum` already has a case `tiny`")
        .run();
}

#[test]
fn stress_without_a_shrink_command_uses_the_built_in_shrinker() {
    let project = Project::new();
    let toml = JUDGE_TOML.replace(
        "shrink = [\"sh\", \"shrink.sh\", \"{input}\", \"{dir}\"]\n",
        "",
    );
    project.write("judge.toml", &toml);
    project.write("wrong.c", OFF_BY_ONE_FROM_3);
    for jobs in ["1", "3"] {
        let output = project
            .harness()
            .args([
                "stress", "sum", "wrong.c", "--seed", "1", "--format", "json", "-j", jobs,
            ])
            .assert()
            .code(FAILED)
            .get_output()
            .stdout
            .clone();
        let json: serde_json::Value = serde_json::from_slice(&output).unwrap();
        // The same failure and the same shrink whatever the number of workers.
        assert_eq!(json["found"], true);
        assert_eq!(json["iterations"], 3, "-j {jobs}");
        assert_eq!(json["seed"], 3);
        assert_eq!(json["verdict"], "WA");
        assert_eq!(json["original_input"], "3 6\n");
        assert_eq!(json["shrink"], "shrunk");
        assert_eq!(json["shrinker"], "built-in");
        // b goes to 0; a cannot go below 3, where the bug starts.
        assert_eq!(json["input"], "3 0\n");
        assert_eq!(json["expected"], "3\n");
        assert_eq!(json["output"], "4\n");
    }
    project
        .args(["stress", "sum", "wrong.c", "--seed", "1"])
        .status(FAILED)
        .stdout_contains("shrunk by the built-in shrinker")
        .stdout_contains("cannot know")
        .run();
}

#[test]
fn stress_reports_a_compile_error() {
    let project = Project::new();
    project.write("broken.c", "int main( {\n");
    project
        .args(["stress", "sum", "broken.c"])
        .status(FAILED)
        .stdout_contains("CE")
        .stdout_contains("does not compile")
        .run();
}

#[test]
fn stress_blames_the_generator_for_an_invalid_input() {
    let project = Project::new();
    project.write("gen.sh", "echo \"$1 500\"\n");
    project.write("wrong.c", OFF_BY_ONE_FROM_3);
    project
        .args(["stress", "sum", "wrong.c", "--seed", "5"]).status(ERROR).stderr_contains("seed 5: the stress generator `sh gen.sh 5` made an invalid input: line 1: 500 is out of [0, 100]").run();
}

#[test]
fn stress_without_a_generator_says_so_before_any_seed() {
    let project = Project::new();
    let toml = JUDGE_TOML.replace(
        "[problems.sum.stress]\ngenerator = [\"sh\", \"gen.sh\", \"{seed}\"]\nshrink = [\"sh\", \"shrink.sh\", \"{input}\", \"{dir}\"]\n",
        "",
    );
    assert_ne!(toml, JUDGE_TOML);
    project.write("judge.toml", &toml);
    project.write("wrong.c", OFF_BY_ONE_FROM_3);
    project
        .args(["stress", "sum", "wrong.c"])
        .status(ERROR)
        .stderr_contains("problem `sum` has no stress generator")
        .stderr_contains("--gen")
        .stderr_lacks("first seed")
        .run();
}
