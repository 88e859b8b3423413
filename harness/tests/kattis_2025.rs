//! The parts of the 2025-09 package format beyond cases and folders: arguments from
//! `test_group.yaml` and a case's `.yaml` (with `constants` in them), the validation data
//! (`invalid_input`, `invalid_output`, `valid_output`), `submissions.yaml`'s sets, `include/`,
//! multi-pass problems. Where BAPCtools (`bt`) is installed, the same package is checked with
//! it too, so the harness and the format's own tool agree; without it the test says
//! "skipped:".
#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::Command as Process;

use common::project::Project;

const OK: i32 = 0;
const FAILED: i32 = 1;

/// BAPCtools' `bt`, if it is installed (`pip install bapctools`).
fn bt() -> Option<std::path::PathBuf> {
    let found = Process::new("bt").arg("--version").output();
    match found {
        Ok(output) if output.status.success() => Some("bt".into()),
        _ => {
            eprintln!("skipped: BAPCtools (`bt`) is not installed (pip install bapctools)");
            None
        }
    }
}

/// `bt ARGS` in the problem folder `dir`: whether it succeeded, and what it said.
fn run_bt(dir: &Path, args: &[&str]) -> (bool, String) {
    let output = Process::new("bt")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("bt runs");
    let said = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), said)
}

/// A 2025-09 package whose submission reads a factor from its `args`: `secret/small` gives
/// `1`, `secret/big` gives `2`, and `secret/big/03.yaml` gives that one case `3`. The input
/// validator takes `--max {{MAXN}}` from `input_validator_args` (a map by validator name,
/// with a constant in it); the validation data checks both validators.
fn args_package(project: &Project) {
    for (path, text) in [
        (
            "args/problem.yaml",
            "problem_format_version: 2025-09\nname: Args\nuuid: 1f1c2b7e-0000-4000-8000-000000000002\nlimits:\n  time_limit: 2\nconstants:\n  MAXN: 100\n",
        ),
        ("args/statement/problem.en.tex", "\\problemname{Args}\nPrint the number times the factor.\n"),
        ("args/data/sample/1.in", "3\n"),
        ("args/data/sample/1.ans", "3\n"),
        ("args/data/sample/1.out", "3\n"),
        (
            "args/data/secret/small/test_group.yaml",
            "args: [\"1\"]\ninput_validator_args:\n  validate.py: [\"--max\", \"{{MAXN}}\"]\n",
        ),
        ("args/data/secret/small/01.in", "7\n"),
        ("args/data/secret/small/01.ans", "7\n"),
        ("args/data/secret/big/test_group.yaml", "args: [\"2\"]\n"),
        ("args/data/secret/big/02.in", "50\n"),
        ("args/data/secret/big/02.ans", "100\n"),
        ("args/data/secret/big/03.in", "50\n"),
        ("args/data/secret/big/03.ans", "150\n"),
        ("args/data/secret/big/03.yaml", "args: [\"3\"]\n"),
        (
            "args/data/invalid_input/test_group.yaml",
            "input_validator_args:\n  validate.py: [\"--max\", \"{{MAXN}}\"]\n",
        ),
        ("args/data/invalid_input/too-big.in", "101\n"),
        ("args/data/invalid_output/wrong.in", "5\n"),
        ("args/data/invalid_output/wrong.ans", "5\n"),
        ("args/data/invalid_output/wrong.out", "6\n"),
        ("args/data/valid_output/spaces.in", "5\n"),
        ("args/data/valid_output/spaces.ans", "5\n"),
        ("args/data/valid_output/spaces.out", "  5  \n"),
        (
            "args/input_validators/validate.py",
            "import sys\nargs = sys.argv[1:]\nlimit = int(args[args.index('--max') + 1]) if '--max' in args else 10**9\nn = int(sys.stdin.readline())\nsys.exit(42 if 1 <= n <= limit else 43)\n",
        ),
        (
            "args/output_validator/validate.py",
            "import sys\nteam = sys.stdin.read().split()\njudge = open(sys.argv[2]).read().split()\nif team == judge:\n    sys.exit(42)\nwith open(sys.argv[3] + 'judgemessage.txt', 'w') as f:\n    f.write('expected %s got %s\\n' % (judge, team))\nsys.exit(43)\n",
        ),
        (
            "args/submissions/accepted/times.py",
            "import sys\nn = int(input())\nprint(n * int(sys.argv[1] if len(sys.argv) > 1 else 1))\n",
        ),
        ("args/submissions/wrong_answer/ignore.py", "print(input())\n"),
    ] {
        project.write(path, text);
    }
}

#[test]
fn args_of_groups_and_cases_reach_the_submission_and_the_validators() {
    let project = Project::new();
    args_package(&project);
    let assert = project.harness().args(["verify", "args"]).assert().code(OK);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("all 2 submissions got their expected verdict"),
        "{stdout}"
    );
    // The validator rejects 101 only when `--max 100` (the constant) reaches it.
    let assert = project
        .harness()
        .args(["validate", "args"])
        .assert()
        .code(OK);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.contains("4 of 4 case checks valid"), "{stdout}");
    assert!(
        stdout.contains("4 of 4 validation-data checks passed"),
        "{stdout}"
    );
    if bt().is_some() {
        let (ok, said) = run_bt(
            &project.join("args"),
            &["validate", "-B", "--invalid", "--valid-output"],
        );
        assert!(ok, "bt validate: {said}");
    }
}

#[test]
fn validation_data_that_the_validators_get_wrong_fails_validate() {
    let project = Project::new();
    args_package(&project);
    // Valid after all, and an output that is right: both must now be reported.
    project.write("args/data/invalid_input/too-big.in", "50\n");
    project.write("args/data/invalid_output/wrong.out", "5\n");
    project.write("args/data/valid_output/spaces.out", "4\n");
    let assert = project
        .harness()
        .args(["validate", "args"])
        .assert()
        .code(FAILED);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    for line in [
        "NOT REJECTED invalid_input/too-big: every input validator accepted it",
        "NOT REJECTED invalid_output/wrong: the output validator accepted the `.out`",
        "NOT ACCEPTED valid_output/spaces: the output validator rejected the `.out`",
        "1 of 4 validation-data checks passed",
    ] {
        assert!(stdout.contains(line), "no `{line}` in: {stdout}");
    }
    if bt().is_some() {
        let (ok, said) = run_bt(
            &project.join("args"),
            &["validate", "-B", "--invalid", "--valid-output"],
        );
        assert!(!ok, "bt validate passed what the harness failed: {said}");
        assert!(said.contains("invalid_input/too-big"), "{said}");
    }
}
