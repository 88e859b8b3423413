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

/// A uuid of its own for each package a test writes: BAPCtools remembers the uuids it has
/// seen and warns (exit 1) when two packages share one.
fn fresh_uuid() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    format!(
        "{:08x}-{:04x}-4000-8000-{:012x}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed),
        nanos & 0xffff_ffff_ffff
    )
}

/// BAPCtools' `bt`, if it is installed (`pip install bapctools`).
fn bt() -> Option<std::path::PathBuf> {
    let found = Process::new("bt").arg("--version").output();
    match found {
        Ok(output) if output.status.success() => Some("bt".into()),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "no `bt`: CI runs .ci/install-tools, which installs BAPCtools"
            );
            common::skipped("BAPCtools (`bt`) is not installed (pip install bapctools)");
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
    project.write(
        "args/problem.yaml",
        &format!("problem_format_version: 2025-09\nname: Args\nuuid: {}\nlimits:\n  time_limit: 2\nconstants:\n  MAXN: 100\n", fresh_uuid()),
    );
    for (path, text) in [
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

/// A package whose `submissions.yaml` has rules per test group, a `message`, and a key that
/// overrides a default folder: `mixed/small.py` fails `secret/hard`, where only AC is
/// permitted to it.
fn rules_package(project: &Project) {
    project.write(
        "rules/problem.yaml",
        &format!(
            "problem_format_version: 2025-09\nname: Rules\nuuid: {}\nlimits:\n  time_limit: 2\n",
            fresh_uuid()
        ),
    );
    for (path, text) in [
        ("rules/statement/problem.en.tex", "\\problemname{Rules}\nEcho.\n"),
        ("rules/data/sample/1.in", "1\n"),
        ("rules/data/sample/1.ans", "1\n"),
        ("rules/data/secret/easy/1.in", "2\n"),
        ("rules/data/secret/easy/1.ans", "2\n"),
        ("rules/data/secret/hard/1.in", "300\n"),
        ("rules/data/secret/hard/1.ans", "300\n"),
        (
            "rules/output_validator/validate.py",
            "import os, sys\nteam = sys.stdin.read().split()\njudge = open(sys.argv[2]).read().split()\nwith open(os.path.join(sys.argv[3], 'judgemessage.txt'), 'w') as f:\n    f.write('all good\\n' if team == judge else 'expected %s got %s\\n' % (judge, team))\nsys.exit(42 if team == judge else 43)\n",
        ),
        ("rules/submissions/accepted/echo.py", "print(input())\n"),
        (
            "rules/submissions/wrong_answer/only_hard.py",
            "n = int(input())\nprint(n if n < 100 else 0)\n",
        ),
        (
            "rules/submissions/mixed/small.py",
            "n = int(input())\nprint(n if n < 100 else 0)\n",
        ),
        (
            "rules/submissions/submissions.yaml",
            "accepted:\n  message: all good\nwrong_answer/only_hard.py:\n  sample:\n    permitted: [AC]\n  secret/easy:\n    permitted: [AC]\n  secret/hard:\n    required: [WA]\n    message: \"got ['0']\"\nmixed:\n  permitted: [AC, WA]\n  secret/hard:\n    permitted: [AC]\n",
        ),
    ] {
        project.write(path, text);
    }
}

/// What `verify` said of each submission: (name, OK or MISMATCH), and the whole output.
fn verify_rows(project: &Project, package: &str, code: i32) -> (Vec<(String, String)>, String) {
    let assert = project
        .harness()
        .env("HARNESS_CACHE_DIR", project.join(".cache"))
        .args(["verify", package])
        .assert()
        .code(code);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let rows = stdout
        .lines()
        .filter(|l| l.starts_with(&format!("{package}/")))
        .map(|l| {
            let name = l.split_whitespace().next().unwrap().to_string();
            let result = if l.contains("MISMATCH") {
                "MISMATCH"
            } else {
                "OK"
            };
            (name, result.to_string())
        })
        .collect();
    (rows, stdout)
}

#[test]
fn submissions_yaml_rules_are_checked_over_the_cases_as_bt_run_checks_them() {
    let project = Project::new();
    rules_package(&project);
    let yaml = "rules/submissions/submissions.yaml";
    let written = project.read(yaml);
    let (rows, stdout) = verify_rows(&project, "rules", FAILED);
    assert_eq!(
        rows,
        [
            ("rules/accepted/echo.py".to_string(), "OK".to_string()),
            ("rules/mixed/small.py".to_string(), "MISMATCH".to_string()),
            (
                "rules/wrong_answer/only_hard.py".to_string(),
                "OK".to_string()
            ),
        ],
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "WA on secret/hard/1, not permitted by submissions.yaml `mixed` for `secret/hard` (AC)"
        ),
        "{stdout}"
    );
    let bt_ok = |project: &Project| bt().map(|_| run_bt(&project.join("rules"), &["run", "-B"]));
    if let Some((ok, said)) = bt_ok(&project) {
        assert!(!ok, "bt run passed what the harness failed: {said}");
        assert!(said.contains("required: [AC] for secret/hard"), "{said}");
    }
    // Permitted WA there too: every rule is met.
    project.write(
        yaml,
        &written.replace(
            "  secret/hard:\n    permitted: [AC]\n",
            "  secret/hard:\n    permitted: [AC, WA]\n",
        ),
    );
    let (rows, stdout) = verify_rows(&project, "rules", OK);
    assert!(rows.iter().all(|(_, r)| r == "OK"), "{stdout}");
    if let Some((ok, said)) = bt_ok(&project) {
        assert!(ok, "bt run: {said}");
    }
    // A message no judge message holds.
    project.write(
        yaml,
        &written.replace("got ['0']", "got ['1']").replace(
            "  secret/hard:\n    permitted: [AC]\n",
            "  secret/hard:\n    permitted: [AC, WA]\n",
        ),
    );
    let (rows, stdout) = verify_rows(&project, "rules", FAILED);
    assert_eq!(rows[2].1, "MISMATCH", "{stdout}");
    assert!(
        stdout.contains("no judge message holds `got ['1']`"),
        "{stdout}"
    );
    if let Some((ok, said)) = bt_ok(&project) {
        assert!(!ok, "bt run: {said}");
        assert!(said.contains("missing 'got ['1']"), "{said}");
    }
}

/// The output validator of the multi-pass package: each pass's output must double its input;
/// after pass 1 it keeps a state file in the feedback folder and asks for a pass 2 (the
/// output, as `nextpass.in`); in pass 2 it checks the state is still there.
const DOUBLE_VALIDATOR: &str = r#"import os, sys
x = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
team = sys.stdin.read().split()
state = os.path.join(feedback, "state")
def say(text):
    with open(os.path.join(feedback, "judgemessage.txt"), "a") as f:
        f.write(text + "\n")
if team != [str(2 * x)]:
    say("pass wanted %d, got %s" % (2 * x, team))
    sys.exit(43)
if not os.path.exists(state):
    open(state, "w").write("1")
    with open(os.path.join(feedback, "nextpass.in"), "w") as f:
        f.write("%d\n" % (2 * x))
    say("pass 1 ok")
    sys.exit(42)
if open(state).read() != "1":
    say("the feedback folder lost its state")
    sys.exit(1)
say("pass 2 ok")
sys.exit(42)
"#;

/// A multi-pass package (`type: multi-pass`, two passes) with a sample `.interaction` of its
/// two passes; `odd_only.py` doubles odd numbers only, so it fails pass 2.
fn double_package(project: &Project) {
    project.write(
        "double/problem.yaml",
        &format!("problem_format_version: 2025-09\ntype: multi-pass\nname: Double\nuuid: {}\nlimits:\n  time_limit: 2\n", fresh_uuid()),
    );
    for (path, text) in [
        (
            "double/statement/problem.en.tex",
            "\\problemname{Double}\nDouble it, twice.\n",
        ),
        ("double/data/sample/1.in", "3\n"),
        ("double/data/sample/1.ans", ""),
        ("double/data/sample/1.interaction", "<3\n>6\n---\n<6\n>12\n"),
        ("double/data/secret/1.in", "5\n"),
        ("double/data/secret/1.ans", ""),
        ("double/output_validator/validate.py", DOUBLE_VALIDATOR),
        (
            "double/submissions/accepted/double.py",
            "print(2 * int(input()))\n",
        ),
        (
            "double/submissions/wrong_answer/odd_only.py",
            "x = int(input())\nprint(2 * x if x % 2 else x + 1)\n",
        ),
    ] {
        project.write(path, text);
    }
}

#[test]
fn a_multi_pass_package_runs_its_passes_with_the_feedback_folder_kept() {
    let project = Project::new();
    double_package(&project);
    let (rows, stdout) = verify_rows(&project, "double", OK);
    assert!(
        rows.iter().all(|(_, r)| r == "OK") && rows.len() == 2,
        "{stdout}"
    );
    if let Some((ok, said)) = bt().map(|_| run_bt(&project.join("double"), &["run", "-B"])) {
        assert!(ok, "bt run: {said}");
    }
    // The failure is the second pass's, and says so.
    let assert = project
        .harness()
        .env("HARNESS_CACHE_DIR", project.join(".cache"))
        .args([
            "judge",
            "double",
            "double/submissions/wrong_answer/odd_only.py",
        ])
        .assert()
        .code(FAILED);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("pass 2: pass 1 ok\\npass wanted 12, got ['7']"),
        "{stdout}"
    );
    // The sample's `.interaction` is replayed pass by pass against the validator.
    let assert = project
        .harness()
        .args(["validate", "double"])
        .assert()
        .code(OK);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("1 of 1 validation-data checks passed"),
        "{stdout}"
    );
    project.write("double/data/sample/1.interaction", "<3\n>6\n---\n<7\n>14\n");
    let assert = project
        .harness()
        .args(["validate", "double"])
        .assert()
        .code(FAILED);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("BAD INTERACTION sample/1: pass 2: the validator's nextpass.in is `6\\n`, the sample's `<` lines `7\\n`"),
        "{stdout}"
    );
}

#[test]
fn a_multi_pass_validator_that_breaks_the_rules_is_a_judge_error() {
    const JUDGE_ERROR: i32 = 3;
    let project = Project::new();
    double_package(&project);
    // A third pass, where `limits.validation_passes` (2 by default) allows two.
    project.write(
        "double/output_validator/validate.py",
        &DOUBLE_VALIDATOR.replace(
            "if open(state).read() != \"1\":\n    say(\"the feedback folder lost its state\")\n    sys.exit(1)\n",
            "if open(state).read() == \"1\":\n    open(state, \"w\").write(\"2\")\n    open(os.path.join(feedback, \"nextpass.in\"), \"w\").write(\"1\\n\")\n    sys.exit(42)\n",
        ),
    );
    // Three passes allowed: then it is accepted.
    let yaml = project.read("double/problem.yaml");
    project.write(
        "double/problem.yaml",
        &yaml.replace(
            "  time_limit: 2\n",
            "  time_limit: 2\n  validation_passes: 3\n",
        ),
    );
    project
        .harness()
        .env("HARNESS_CACHE_DIR", project.join(".cache"))
        .args(["judge", "double", "double/submissions/accepted/double.py"])
        .assert()
        .code(OK);
    // nextpass.in with a wrong answer.
    project.write("double/problem.yaml", &yaml);
    project.write(
        "double/output_validator/validate.py",
        &DOUBLE_VALIDATOR.replace(
            "    say(\"pass wanted",
            "    open(os.path.join(feedback, \"nextpass.in\"), \"w\").write(\"1\\n\")\n    say(\"pass wanted",
        ),
    );
    let assert = project
        .harness()
        .env("HARNESS_CACHE_DIR", project.join(".cache"))
        .args([
            "judge",
            "double",
            "double/submissions/wrong_answer/odd_only.py",
        ])
        .assert()
        .code(JUDGE_ERROR);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("wrote nextpass.in but did not accept"),
        "{stdout}"
    );
}

/// `include/python3/` beside Python submissions, `include/default/` beside every one, with
/// constants replaced in them.
#[test]
fn included_files_are_put_beside_the_submissions() {
    let project = Project::new();
    project.write(
        "inc/problem.yaml",
        &format!("problem_format_version: 2025-09\nname: Inc\nuuid: {}\nlimits:\n  time_limit: 2\nconstants:\n  ANSWER: 42\n", fresh_uuid()),
    );
    for (path, text) in [
        ("inc/statement/problem.en.tex", "\\problemname{Inc}\nSay it.\n"),
        ("inc/data/sample/1.in", "\n"),
        ("inc/data/sample/1.ans", "42\n"),
        ("inc/include/python3/helper.py", "ANSWER = {{ANSWER}}\n"),
        ("inc/include/default/answer.h", "#define ANSWER {{ANSWER}}\n"),
        ("inc/submissions/accepted/uses.py", "from helper import ANSWER\nprint(ANSWER)\n"),
        (
            "inc/submissions/accepted/uses.c",
            "#include <stdio.h>\n#include \"answer.h\"\nint main(void) { printf(\"%d\\n\", ANSWER); return 0; }\n",
        ),
    ] {
        project.write(path, text);
    }
    let (rows, stdout) = verify_rows(&project, "inc", OK);
    assert_eq!(rows.len(), 2, "{stdout}");
    // BAPCtools does not copy `include/` (its `bt run` cannot compile `uses.c`: no
    // `answer.h`), so the spec alone is the reference here.
}

/// submissions.yaml's `use_for_time_limit` decides which submissions compute the time limit:
/// `false` on every glob that matches a slow accepted submission keeps it out, `lower` keeps
/// a fast one in (the spec's rule, and BAPCtools' `lower_time_limit` of any matching rule).
#[test]
fn use_for_time_limit_false_leaves_a_submission_out_of_the_time_limit() {
    let project = Project::new();
    let spin = "#include <stdio.h>\n#include <time.h>\nint main(void) {\n  int n;\n  if (scanf(\"%d\", &n) != 1) return 1;\n  volatile unsigned long x = 0;\n  while (clock() < CLOCKS_PER_SEC * 4 / 10) x++;\n  printf(\"%d\\n\", n);\n  return 0;\n}\n";
    for (path, text) in [
        (
            "tl/problem.yaml",
            format!(
                "problem_format_version: 2025-09\nname: Limit\nuuid: {}\n",
                fresh_uuid()
            ),
        ),
        ("tl/data/sample/1.in", "1\n".to_string()),
        ("tl/data/sample/1.ans", "1\n".to_string()),
        ("tl/data/secret/1.in", "2\n".to_string()),
        ("tl/data/secret/1.ans", "2\n".to_string()),
        (
            "tl/submissions/accepted/fast.c",
            "#include <stdio.h>\nint main(void) { int n; if (scanf(\"%d\", &n) != 1) return 1; printf(\"%d\\n\", n); return 0; }\n".to_string(),
        ),
        ("tl/submissions/accepted/slow.c", spin.to_string()),
    ] {
        project.write(path, &text);
    }
    let header = |project: &Project| {
        let assert = project
            .harness()
            .env("HARNESS_CACHE_DIR", project.join(".cache"))
            .args(["verify", "tl"])
            .assert()
            .code(OK);
        let output = assert.get_output();
        let said = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        said.lines()
            .find(|l| l.contains("computed as problemtools does"))
            .unwrap_or_else(|| panic!("no computed limit in: {said}"))
            .to_string()
    };
    let line = header(&project);
    assert!(line.contains("(tl/accepted/slow.c)"), "{line}");
    assert!(line.contains("slowest accepted"), "{line}");
    // The spec: to leave a submission out, every glob that matches it must say so; the
    // default `accepted` rule still counts it here.
    project.write(
        "tl/submissions/submissions.yaml",
        "accepted/slow.c:\n  use_for_time_limit: false\n",
    );
    let line = header(&project);
    assert!(line.contains("(tl/accepted/slow.c)"), "{line}");
    project.write(
        "tl/submissions/submissions.yaml",
        "accepted:\n  permitted: [AC]\n  use_for_time_limit: false\naccepted/fast.c:\n  use_for_time_limit: lower\n",
    );
    let line = header(&project);
    assert!(line.contains("(tl/accepted/fast.c)"), "{line}");
    // A wrong answer may not time out either (its default rule permits AC, WA, RTE): the
    // slowest of those bounds the limit, and is named for what it is, not as an accepted one.
    project.write("tl/submissions/submissions.yaml", "{}\n");
    project.write(
        "tl/submissions/wrong_answer/slow_wa.c",
        &spin.replace("printf(\"%d\\n\", n)", "printf(\"%d\\n\", n + 1)"),
    );
    std::fs::remove_file(project.join("tl/submissions/accepted/slow.c")).unwrap();
    let line = header(&project);
    assert!(line.contains("(tl/wrong_answer/slow_wa.c)"), "{line}");
    assert!(line.contains("slowest not permitted to time out"), "{line}");
}

/// submissions.yaml's bound on the patterns its globs stand for is one for the whole file:
/// 3,000 keys that each stand for 4,096 submissions (within the bound of one key) would be
/// 12 million glob matchers, gigabytes. The package is refused, naming the file and the
/// bound, before anything is judged.
#[test]
fn submissions_yaml_is_bounded_as_a_whole_not_per_key() {
    let project = Project::new();
    rules_package(&project);
    let octal = "{0,1,2,3,4,5,6,7}".repeat(4);
    let keys: String = (0..3000)
        .map(|i| format!("\"mixed/k{i}_{octal}.py\":\n  permitted: [AC, WA]\n"))
        .collect();
    project.write("rules/submissions/submissions.yaml", &keys);
    let assert = project
        .harness()
        .env("HARNESS_CACHE_DIR", project.join(".cache"))
        .args(["verify", "rules"])
        // Not a measure of speed: only that a judge which expands every key (hours, and
        // gigabytes) fails here instead of holding the suite.
        .timeout(std::time::Duration::from_secs(300))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains("submissions/submissions.yaml")
            && stderr.contains("its globs stand for more than 4096 patterns in all")
            && stderr.contains("reached at `mixed/k1_{0,1,2,3,4,5,6,7}"),
        "{stderr}"
    );
}
