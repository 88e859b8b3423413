//! Problem packages judged as they are, with no judge.toml: small Kattis/ICPC packages (a
//! default-validator one with flags per group, a 2025-09 one with a custom output validator)
//! and a Polygon one with a real testlib checker, each written in its format; a Polygon
//! problem whose solution runs twice (`run-count="2"`).
#![cfg(unix)]

mod common;

use std::path::Path;

use common::project::Project;
use predicates::prelude::*;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A legacy package: "print the average of the numbers" with `float_tolerance 1e-6` for the
/// whole problem, and a group `secret/words` whose answers are words compared
/// case-sensitively (its testdata.yaml adds `case_sensitive`).
fn average_package(root: &Path) {
    write(
        root,
        "problem.yaml",
        "name: Average\nsource: harness tests\nlicense: cc0\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  memory: 256\n",
    );
    write(root, ".timelimit", "2\n");
    write(root, "data/sample/1.in", "1 2\n");
    write(root, "data/sample/1.ans", "1.5\n");
    write(root, "data/secret/a/01.in", "1 2 3 4\n");
    write(root, "data/secret/a/01.ans", "2.5\n");
    write(
        root,
        "data/secret/words/testdata.yaml",
        "output_validator_flags: case_sensitive\n",
    );
    write(root, "data/secret/words/02.in", "word\n");
    write(root, "data/secret/words/02.ans", "Word\n");
    write(
        root,
        "input_validators/check.py",
        "import sys\nline = sys.stdin.readline().split()\nif not line:\n    print('empty input', file=sys.stderr)\n    sys.exit(43)\nsys.exit(42)\n",
    );
    // Right: prints the average with a rounding error well inside 1e-6, and "Word" for words.
    let right = "import sys\nt = sys.stdin.read().split()\ntry:\n    v = [float(x) for x in t]\n    print('%.9e' % (sum(v) / len(v) + 1e-9))\nexcept ValueError:\n    print(t[0].capitalize())\n";
    write(root, "submissions/accepted/avg.py", right);
    // Upper-case words: fine where case does not count, wrong in `secret/words`.
    let shouting = "import sys\nt = sys.stdin.read().split()\ntry:\n    v = [float(x) for x in t]\n    print(sum(v) / len(v))\nexcept ValueError:\n    print(t[0].upper())\n";
    write(root, "submissions/wrong_answer/shout.py", shouting);
    write(
        root,
        "submissions/wrong_answer/round.py",
        "import sys\nt = sys.stdin.read().split()\nprint(round(sum(map(float, t)) / len(t)))\n",
    );
    write(
        root,
        "submissions/run_time_error/crash.py",
        "raise SystemExit(3)\n",
    );
    // Eats memory: MLE, which the format counts as a run-time error.
    write(
        root,
        "submissions/run_time_error/hog.c",
        "#include <stdlib.h>\n#include <string.h>\nint main(void) { for (;;) { char *p = malloc(1 << 24); if (!p) return 1; memset(p, 1, 1 << 24); } }\n",
    );
    write(root, "submissions/accepted/Avg.scala", "object Avg\n");
    write(root, "submissions/accepted/off.py.disabled", "print(0)\n");
}

#[test]
fn verify_a_legacy_package_with_group_flags_and_folders_for_verdicts() {
    let project = Project::new();
    let root = project.path().join("average");
    average_package(&root);
    let output = project
        .harness()
        .args(["verify", "average"])
        .assert()
        .code(OK)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("time limit 2000 ms (from .timelimit)"),
        "{stderr}"
    );
    for row in [
        "average/accepted/avg.py",
        "average/wrong_answer/shout.py",
        "average/run_time_error/crash.py",
    ] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(row))
            .unwrap_or_else(|| panic!("no row {row}: {stdout}"));
        assert!(line.contains("OK"), "{line}");
    }
    let hog = stdout
        .lines()
        .find(|l| l.starts_with("average/run_time_error/hog.c"))
        .unwrap();
    assert!(
        hog.contains("RE ") && hog.contains("MLE") && hog.contains("OK"),
        "{hog}"
    );
    // `shout.py` fails only in the case-sensitive group, after passing the others.
    assert!(stdout.contains("(secret/words/02)"), "{stdout}");
    assert!(
        stdout.contains("average/accepted/Avg.scala  no language for `.scala` files here"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("off.py"),
        "a .disabled file is ignored: {stdout}"
    );
}

#[test]
fn judge_a_package_source_and_show_the_default_validator_reason() {
    let project = Project::new();
    let root = project.path().join("average");
    average_package(&root);
    write(project.path(), "mine.py", "print('1.5')\n");
    project
        .harness()
        .args(["judge", "average", "mine.py"])
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains("secret/a/01"))
        .stdout(predicate::str::contains("expected \"2.5\", found \"1.5\""));
}

#[test]
fn validate_a_package_with_its_input_validators() {
    let project = Project::new();
    let root = project.path().join("average");
    average_package(&root);
    project
        .harness()
        .args(["validate", "average"])
        .assert()
        .code(OK)
        .stdout(predicate::str::contains("3 of 3 case checks valid"));
    write(&root, "data/secret/a/03.in", "\n");
    write(&root, "data/secret/a/03.ans", "0\n");
    project
        .harness()
        .args(["validate", "average"])
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains(
            "INVALID secret/a/03 by input_validators/check.py: exit 43: empty input",
        ));
}

/// A 2025-09 package: "print any divisor of n other than 1 and n", checked by a custom output
/// validator, with no time limit written down (so it is computed).
fn divisor_package(root: &Path) {
    write(
        root,
        "problem.yaml",
        "problem_format_version: 2025-09\nname:\n  en: Divisor\ntype: pass-fail\nlimits:\n  memory: 256\n",
    );
    write(root, "data/sample/1.in", "6\n");
    write(root, "data/sample/1.ans", "2\n");
    write(root, "data/secret/1.in", "35\n");
    write(root, "data/secret/1.ans", "5\n");
    write(
        root,
        "output_validator/validate.py",
        r#"import sys
n = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
assert feedback.endswith('/')
team = sys.stdin.read().split()
def reject(why):
    open(feedback + 'judgemessage.txt', 'w').write(why)
    sys.exit(43)
if len(team) != 1 or not team[0].isdigit():
    reject('not one number')
d = int(team[0])
if d in (1, n) or n % d:
    reject('%d is not a proper divisor of %d' % (d, n))
sys.exit(42)
"#,
    );
    let smallest = "n = int(input())\nprint(next(d for d in range(2, n) if n % d == 0))\n";
    let largest = "n = int(input())\nprint(next(d for d in range(n - 1, 1, -1) if n % d == 0))\n";
    write(root, "submissions/accepted/smallest.py", smallest);
    write(root, "submissions/accepted/largest.py", largest);
    write(root, "submissions/rejected/one.py", "input()\nprint(1)\n");
    write(root, "submissions/slow_accepted/again.py", smallest);
    write(
        root,
        "submissions/submissions.yaml",
        "rejected/one.py:\n  required: [WA]\n",
    );
}

#[test]
fn a_custom_validator_judges_and_its_judgemessage_is_the_reason() {
    let project = Project::new();
    let root = project.path().join("divisor");
    divisor_package(&root);
    let output = project
        .harness()
        .args(["verify", "divisor"])
        .assert()
        .code(OK)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("time limit 1000 ms (computed as problemtools does: slowest accepted"),
        "{stderr}"
    );
    assert!(stderr.contains("× 2, rounded up to 1s"), "{stderr}");
    assert!(
        stdout.contains("unchecked: the format has no folder `slow_accepted`"),
        "{stdout}"
    );
    assert!(stdout.contains("1 unchecked"), "{stdout}");

    write(project.path(), "bad.py", "input()\nprint(4)\n");
    project
        .harness()
        .args(["judge", "divisor", "bad.py"])
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains("4 is not a proper divisor of 6"));
}

#[test]
fn a_broken_custom_validator_is_a_judge_error() {
    let project = Project::new();
    let root = project.path().join("divisor");
    divisor_package(&root);
    write(
        &root,
        "output_validator/validate.py",
        "import sys\nsys.exit(0)\n",
    );
    write(&root, ".timelimit", "1\n");
    project
        .harness()
        .args([
            "judge",
            "divisor",
            "divisor/submissions/accepted/smallest.py",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("exited with 0, not 42 or 43"));
}

/// A legacy interactive package, "guess the number in 1..=1000 with at most 10 guesses": its
/// output validator (`validation: custom interactive`) is the interactor, speaking the Kattis
/// protocol through both pipes.
fn guess_package(root: &Path) {
    write(
        root,
        "problem.yaml",
        "name: Guess\nsource: harness tests\nlicense: cc0\nvalidation: custom interactive\nlimits:\n  memory: 256\n",
    );
    write(root, ".timelimit", "1\n");
    write(root, "data/sample/1.in", "17\n");
    write(root, "data/sample/1.ans", "17\n");
    // For the statement only: a sample shown as a dialogue is not a case.
    write(root, "data/sample/1.interaction", ">500\n<lower\n");
    write(root, "data/secret/01.in", "1000\n");
    write(root, "data/secret/01.ans", "1000\n");
    write(root, "data/secret/02.in", "333\n");
    write(root, "data/secret/02.ans", "333\n");
    write(
        root,
        "output_validators/guess/validate.py",
        r#"import sys
hidden = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
def judge(code, why):
    open(feedback + 'judgemessage.txt', 'w').write(why)
    sys.exit(code)
for guesses in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        judge(43, 'no guess %d' % guesses)
    guess = int(line)
    if guess == hidden:
        print('correct', flush=True)
        judge(42, 'found in %d guesses' % guesses)
    print('lower' if guess > hidden else 'higher', flush=True)
judge(43, 'not found in 10 guesses')
"#,
    );
    write(
        root,
        "submissions/accepted/search.py",
        "lo, hi = 1, 1000\nwhile True:\n    mid = (lo + hi) // 2\n    print(mid, flush=True)\n    reply = input()\n    if reply == 'correct':\n        break\n    if reply == 'lower':\n        hi = mid - 1\n    else:\n        lo = mid + 1\n",
    );
    // Counts up from 1: right for small numbers, over the budget for the rest.
    write(
        root,
        "submissions/wrong_answer/count.py",
        "n = 1\nwhile True:\n    print(n, flush=True)\n    if input() == 'correct':\n        break\n    n += 1\n",
    );
    // Forgets to flush: its guess waits in stdio's buffer (a pipe's is a full one) while it
    // waits for a reply. In C, since Python's `input()` flushes and PYTHONUNBUFFERED may be set.
    write(
        root,
        "submissions/time_limit_exceeded/no_flush.c",
        "#include <stdio.h>\nint main(void) { char reply[16]; printf(\"500\\n\"); return scanf(\"%15s\", reply) == 1 ? 0 : 1; }\n",
    );
}

#[test]
fn an_interactive_package_is_judged_with_its_validator_as_the_interactor() {
    let project = Project::new();
    let root = project.path().join("guess");
    guess_package(&root);
    let output = project
        .harness()
        .args(["verify", "guess"])
        .assert()
        .code(OK)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&output.stdout);
    for (row, got) in [
        ("guess/accepted/search.py", " AC "),
        ("guess/wrong_answer/count.py", " WA "),
        ("guess/time_limit_exceeded/no_flush.c", " TLE "),
    ] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(row))
            .unwrap_or_else(|| panic!("no row {row}: {stdout}"));
        assert!(line.contains(got) && line.contains(" OK"), "{line}");
    }
    assert!(stdout.contains("all 3 submissions"), "{stdout}");

    // The validator's judgemessage.txt is the reason, and the transcript shows the dialogue.
    project
        .harness()
        .args(["judge", "guess", "guess/submissions/wrong_answer/count.py"])
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains("not found in 10 guesses"))
        .stdout(predicate::str::contains(">10\n"));
}

#[test]
fn an_interactive_package_without_its_interactor_is_refused_with_the_reason() {
    let project = Project::new();
    let root = project.path().join("guess");
    guess_package(&root);
    std::fs::remove_dir_all(root.join("output_validators")).unwrap();
    write(
        &root,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Guess\ntype: interactive\n",
    );
    project
        .harness()
        .args(["verify", "guess"])
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains(
            "no interactor in `output_validators/`",
        ));
}

#[test]
fn a_malformed_problem_yaml_names_its_line_and_column() {
    let project = Project::new();
    let root = project.path().join("divisor");
    divisor_package(&root);
    write(&root, "problem.yaml", "name: Divisor\nlimits: [1,\n");
    project
        .harness()
        .args(["verify", "divisor"])
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("problem.yaml:3:1"));
}

/// A full Polygon package: "print a + b, give or take one", with a testlib checker that
/// accepts that, compiled against the package's own testlib.h.
fn polygon_package(root: &Path, testlib: &Path) {
    write(
        root,
        "problem.xml",
        r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="3" short-name="near-sum" url="https://polygon.codeforces.com/p/x/near-sum">
    <names>
        <name language="english" value="Near Sum"/>
    </names>
    <judging cpu-name="Intel(R) Core(TM) i3-8100 CPU @ 3.60GHz" cpu-speed="3600" input-file="" output-file="">
        <testset name="tests">
            <time-limit>2000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>2</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
                <test method="manual" sample="true"/>
                <test method="manual"/>
            </tests>
        </testset>
    </judging>
    <files>
        <resources>
            <file path="files/testlib.h" type="h.g++"/>
        </resources>
    </files>
    <assets>
        <checker name="check.cpp" type="testlib">
            <source path="files/check.cpp" type="cpp.g++17"/>
        </checker>
        <solutions>
            <solution tag="main"><source path="solutions/sum.c" type="c.gcc"/></solution>
            <solution tag="accepted"><source path="solutions/plus-one.py" type="python.3"/></solution>
            <solution tag="wrong-answer"><source path="solutions/plus-two.py" type="python.3"/></solution>
            <solution tag="time-limit-exceeded"><source path="solutions/spin.c" type="c.gcc"/></solution>
        </solutions>
    </assets>
</problem>
"#,
    );
    write(
        root,
        "files/testlib.h",
        &std::fs::read_to_string(testlib).unwrap(),
    );
    write(
        root,
        "files/check.cpp",
        r#"#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long expected = ans.readLong();
    long long found = ouf.readLong();
    if (found < expected - 1 || found > expected + 1)
        quitf(_wa, "expected %lld give or take one, found %lld", expected, found);
    quitf(_ok, "%lld is near %lld", found, expected);
}
"#,
    );
    write(root, "tests/01", "1 2\n");
    write(root, "tests/01.a", "3\n");
    write(root, "tests/02", "40 2\n");
    write(root, "tests/02.a", "42\n");
    write(root, "solutions/sum.c", "#include <stdio.h>\nint main(void) { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", a + b); return 0; }\n");
    write(
        root,
        "solutions/plus-one.py",
        "a, b = map(int, input().split())\nprint(a + b + 1)\n",
    );
    write(
        root,
        "solutions/plus-two.py",
        "a, b = map(int, input().split())\nprint(a + b + 2)\n",
    );
    write(
        root,
        "solutions/spin.c",
        "int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n",
    );
}

#[test]
fn a_polygon_package_with_a_testlib_checker() {
    let Some(testlib) = common::testlib_h_or_skip("a_polygon_package_with_a_testlib_checker")
    else {
        return;
    };
    let project = Project::new();
    let root = project.path().join("near-sum");
    polygon_package(&root, &testlib);
    let output = project
        .harness()
        .args(["verify", "near-sum"])
        .assert()
        .code(OK)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "Near Sum (Polygon package), time limit 2000 ms (from problem.xml), memory 256.0 MiB"
        ),
        "{stderr}"
    );
    for row in [
        "near-sum/solutions/sum.c (main)",
        "near-sum/solutions/plus-one.py (accepted)",
        "near-sum/solutions/plus-two.py (wrong-answer)",
        "near-sum/solutions/spin.c (time-limit-exceeded)",
    ] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(row))
            .unwrap_or_else(|| panic!("no row {row}: {stdout}"));
        assert!(line.contains("OK"), "{line}");
    }
    write(project.path(), "far.py", "print(100)\n");
    project
        .harness()
        .args(["judge", "near-sum", "far.py"])
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains(
            "expected 3 give or take one, found 100",
        ));
}

#[test]
fn a_standard_polygon_package_is_refused_with_the_reason() {
    let project = Project::new();
    let root = project.path().join("near-sum");
    polygon_package(&root, Path::new("/dev/null"));
    std::fs::remove_file(root.join("tests/02")).unwrap();
    std::fs::remove_file(root.join("tests/02.a")).unwrap();
    let xml = std::fs::read_to_string(root.join("problem.xml")).unwrap();
    write(
        &root,
        "problem.xml",
        &xml.replace(
            "<test method=\"manual\"/>",
            "<test cmd=\"gen 2\" method=\"generated\"/>",
        ),
    );
    write(&root, "doall.sh", "#!/bin/sh\n");
    project
        .harness()
        .args(["verify", "near-sum"])
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains(
            "a \"standard\" Polygon package: 1 generated tests",
        ))
        .stderr(predicate::str::contains("doall.sh"));
}

#[test]
fn judge_toml_reads_a_problem_from_a_package_by_its_id() {
    let project = Project::new();
    average_package(&project.path().join("pkgs/average"));
    write(
        project.path(),
        "judge.toml",
        "[problems.avg]\npackage = \"pkgs/average\"\nsolution = \"avg.sh\"\ntime-limit = \"3s\"\n",
    );
    // `harness run` judges the table's solution on the package's cases, with its checker:
    // "2.5000000001" is within the package's float tolerance, and "word" is wrong only where
    // the group is case-sensitive.
    write(
        project.path(),
        "avg.sh",
        "#!/bin/sh\nread line\ncase \"$line\" in\n  word) echo word ;;\n  \"1 2\") echo 1.5 ;;\n  *) echo 2.5000000001 ;;\nesac\n",
    );
    std::fs::set_permissions(
        project.path().join("avg.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    project
        .harness()
        .arg("run")
        .assert()
        .code(FAILED)
        .stderr(predicate::str::contains(
            "time limit 3000 ms (from judge.toml)",
        ))
        .stdout(predicate::str::contains("secret/words/02"))
        .stdout(predicate::str::contains("2/3 AC"));
    project
        .harness()
        .args(["verify", "avg"])
        .assert()
        .code(OK)
        .stdout(predicate::str::contains("average/accepted/avg.py"));
}

#[test]
fn a_polygon_package_with_file_input_and_output() {
    let project = Project::new();
    let root = project.path().join("near-sum");
    polygon_package(&root, Path::new("/dev/null"));
    let xml = std::fs::read_to_string(root.join("problem.xml")).unwrap();
    // A std:: checker, so no testlib.h is needed; the program reads and writes files.
    let xml = xml
        .replace(
            "input-file=\"\" output-file=\"\"",
            "input-file=\"sum.in\" output-file=\"sum.out\"",
        )
        .replace(
            "<checker name=\"check.cpp\" type=\"testlib\">",
            "<checker name=\"std::wcmp.cpp\" type=\"testlib\">",
        );
    write(&root, "problem.xml", &xml);
    write(
        project.path(),
        "files.c",
        "#include <stdio.h>\nint main(void) { long long a, b; FILE *in = fopen(\"sum.in\", \"r\"), *out = fopen(\"sum.out\", \"w\"); if (!in || !out || fscanf(in, \"%lld %lld\", &a, &b) != 2) return 1; fprintf(out, \"%lld\\n\", a + b); return 0; }\n",
    );
    project
        .harness()
        .args(["judge", "near-sum", "files.c"])
        .assert()
        .code(OK)
        .stdout(predicate::str::contains("verdict: AC"));
}

/// A Polygon interactive package: guess the number with a testlib interactor (its OUTPUT, the
/// number found, then checked by `std::wcmp` against the answer), as Polygon writes them.
fn polygon_guess_package(root: &Path, testlib: &Path) {
    write(
        root,
        "problem.xml",
        r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="2" short-name="guess" url="https://polygon.codeforces.com/p/x/guess">
    <names>
        <name language="english" value="Guess"/>
    </names>
    <judging cpu-name="Intel(R) Core(TM) i3-8100 CPU @ 3.60GHz" cpu-speed="3600" input-file="" output-file="">
        <testset name="tests">
            <time-limit>1000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>2</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
                <test method="manual" sample="true"/>
                <test method="manual"/>
            </tests>
        </testset>
    </judging>
    <files>
        <resources>
            <file path="files/testlib.h" type="h.g++"/>
        </resources>
    </files>
    <assets>
        <checker name="std::wcmp.cpp" type="testlib">
            <source path="files/check.cpp" type="cpp.g++17"/>
        </checker>
        <interactor>
            <source path="files/interactor.cpp" type="cpp.g++17"/>
        </interactor>
        <solutions>
            <solution tag="main"><source path="solutions/search.c" type="c.gcc"/></solution>
            <solution tag="wrong-answer"><source path="solutions/stubborn.c" type="c.gcc"/></solution>
        </solutions>
    </assets>
</problem>
"#,
    );
    write(
        root,
        "files/testlib.h",
        &std::fs::read_to_string(testlib).unwrap(),
    );
    write(
        root,
        "files/check.cpp",
        "// std::wcmp: mapped to the judge's own\n",
    );
    write(root, "files/interactor.cpp", common::GUESS_TESTLIB_CPP);
    write(root, "tests/01", "37\n");
    write(root, "tests/01.a", "37\n");
    write(root, "tests/02", "1000\n");
    write(root, "tests/02.a", "1000\n");
    write(
        root,
        "solutions/search.c",
        "#include <stdio.h>\n#include <string.h>\nint main(void) { int lo = 1, hi = 1000; char reply[16]; for (;;) { int mid = (lo + hi) / 2; printf(\"%d\\n\", mid); fflush(stdout); if (scanf(\"%15s\", reply) != 1) return 1; if (!strcmp(reply, \"correct\")) return 0; if (!strcmp(reply, \"lower\")) hi = mid - 1; else lo = mid + 1; } }\n",
    );
    write(
        root,
        "solutions/stubborn.c",
        "#include <stdio.h>\nint main(void) { char reply[16]; for (;;) { printf(\"1\\n\"); fflush(stdout); if (scanf(\"%15s\", reply) != 1) return 0; } }\n",
    );
}

#[test]
fn a_polygon_package_with_a_testlib_interactor() {
    let Some(testlib) = common::testlib_h_or_skip("a_polygon_package_with_a_testlib_interactor")
    else {
        return;
    };
    let project = Project::new();
    let root = project.path().join("guess");
    polygon_guess_package(&root, &testlib);
    let output = project
        .harness()
        .args(["verify", "guess"])
        .assert()
        .code(OK)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&output.stdout);
    for (row, got) in [
        ("guess/solutions/search.c (main)", " AC "),
        ("guess/solutions/stubborn.c (wrong-answer)", " WA "),
    ] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(row))
            .unwrap_or_else(|| panic!("no row {row}: {stdout}"));
        assert!(line.contains(got) && line.contains(" OK"), "{line}");
    }
    project
        .harness()
        .args(["judge", "guess", "guess/solutions/stubborn.c"])
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains("no correct guess in 10 guesses"));
}

/// A package laid out as BAPCtools writes one (2025-09): `submissions/submissions.yaml` whose
/// keys name folders, `.py3` and `.sh` submissions, a DOMjudge `@EXPECTED_RESULTS@` comment
/// that submissions.yaml overrides.
fn bapctools_style_package(root: &Path) {
    write(
        root,
        "problem.yaml",
        "problem_format_version: 2025-09\ntype: pass-fail\nname:\n  en: Echo\nuuid: 6f1c2b7e-0000-4000-8000-000000000001\nlimits:\n  time_limit: 2.0\n",
    );
    write(root, "data/sample/1.in", "5\n");
    write(root, "data/sample/1.ans", "5\n");
    write(root, "data/secret/02.in", "7\n");
    write(root, "data/secret/02.ans", "7\n");
    let echo = "import sys\nprint(sys.stdin.read().strip())\n";
    write(root, "submissions/accepted/echo.py3", echo);
    write(
        root,
        "submissions/accepted/echo.sh",
        "#!/bin/sh\nread x\necho \"$x\"\n",
    );
    // The whole folder `mixed` may be AC or WA, whatever the comment says.
    write(
        root,
        "submissions/mixed/five.py",
        "# @EXPECTED_RESULTS@: CORRECT\nprint(5)\n",
    );
    // `*` stays inside a folder: this key is no rule for `mixed/echo.py`.
    write(root, "submissions/mixed/echo.py", echo);
    write(
        root,
        "submissions/submissions.yaml",
        "mixed:\n  permitted: [AC, WA]\n\"*.py\":\n  permitted: [TLE]\n",
    );
}

#[test]
fn a_bapctools_style_package_reads_folder_keys_and_every_script_extension() {
    let project = Project::new();
    bapctools_style_package(&project.path().join("echo"));
    let assert = project.harness().args(["verify", "echo"]).assert().code(OK);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    for (row, expected, got) in [
        ("echo/accepted/echo.py3", "AC", "AC"),
        ("echo/accepted/echo.sh", "AC", "AC"),
        ("echo/mixed/echo.py", "AC/WA", "AC"),
        ("echo/mixed/five.py", "AC/WA", "WA"),
    ] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(row))
            .unwrap_or_else(|| panic!("no row {row}: {stdout}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[1..4], [expected, got, words[3]], "{line}");
        assert!(line.contains("OK"), "{line}");
    }
}

/// BAPCtools keeps only the recipe of its test data (`generators/generators.yaml`); until `bt
/// generate` has written the cases, judging the samples alone would pass wrong submissions.
#[test]
fn a_package_whose_data_bapctools_must_generate_is_refused_with_the_reason() {
    let project = Project::new();
    let root = project.path().join("echo");
    bapctools_style_package(&root);
    std::fs::remove_dir_all(root.join("data/secret")).unwrap();
    write(
        &root,
        "generators/generators.yaml",
        "solution: /submissions/accepted/echo.py3\ndata:\n  sample:\n    data: []\n  secret:\n    data:\n      - big: gen.py 1000\n",
    );
    project
        .harness()
        .args(["verify", "echo"])
        .assert()
        .code(ERROR)
        .stderr(predicate::str::contains("generators/generators.yaml"))
        .stderr(predicate::str::contains(
            "the `data/secret` cases are written from this file",
        ))
        .stderr(predicate::str::contains("harness gen"))
        .stderr(predicate::str::contains("bt generate"));
    // Once generated, the package is judged as it is.
    write(&root, "data/secret/big.in", "1000\n");
    write(&root, "data/secret/big.ans", "1000\n");
    project.harness().args(["verify", "echo"]).assert().code(OK);
}

/// 2025-09 `constants`: `{{name}}` and `{{name.variant}}` in a validator's source are replaced
/// when it is built; a submission's text is left as written, as BAPCtools judges it.
#[test]
fn constants_are_replaced_in_validators_but_not_in_submissions() {
    let project = Project::new();
    let root = project.path().join("answer");
    write(
        &root,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Answer\nlimits:\n  time_limit: 2\nconstants:\n  ANSWER:\n    value: 42\n    word: forty-two\n",
    );
    write(&root, "data/sample/1.in", "?\n");
    write(&root, "data/sample/1.ans", "42\n");
    write(
        &root,
        "output_validator/validate.py",
        "import sys\nteam = sys.stdin.read().split()\nsys.exit(42 if team in (['{{ANSWER}}'], ['{{ANSWER.word}}']) else 43)\n",
    );
    write(&root, "submissions/accepted/number.py", "print(42)\n");
    write(
        &root,
        "submissions/accepted/word.py",
        "print('forty-two')\n",
    );
    write(
        &root,
        "submissions/wrong_answer/literal.py",
        "print('{{ANSWER}}')\n",
    );
    let assert = project
        .harness()
        .args(["verify", "answer"])
        .assert()
        .code(OK);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        stdout.contains("all 3 submissions got their expected verdict"),
        "{stdout}"
    );
}

/// A Windows Polygon package carries its tests with CRLF line ends, which a strict validator
/// on Linux rejects: the rejection says so.
#[test]
fn a_rejected_input_with_crlf_line_ends_gets_the_hint() {
    let project = Project::new();
    let root = project.path().join("strict");
    write(
        &root,
        "problem.yaml",
        "name: Strict\nlimits:\n  time_limit: 1\n",
    );
    write(&root, "data/sample/1.in", "6\r\n");
    write(&root, "data/sample/1.ans", "6\n");
    write(&root, "data/secret/2.in", "7\n");
    write(&root, "data/secret/2.ans", "7\n");
    write(
        &root,
        "input_validators/strict.py",
        "import sys\ndata = sys.stdin.buffer.read()\nif b'\\r' in data:\n    print('expected EOLN', file=sys.stderr)\n    sys.exit(43)\nsys.exit(42)\n",
    );
    let assert = project
        .harness()
        .args(["validate", "strict"])
        .assert()
        .code(FAILED);
    let out = String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
        + &String::from_utf8_lossy(&assert.get_output().stderr);
    let line = out
        .lines()
        .find(|l| l.contains("sample/1"))
        .unwrap_or_else(|| panic!("no line for sample/1: {out}"));
    assert!(line.contains("expected EOLN"), "{line}");
    assert!(line.contains("ends its lines with CRLF"), "{line}");
    assert!(!out.contains("INVALID secret/2"), "{out}");
}

/// A Polygon problem whose solution runs twice, as Polygon writes it: run 1 reads `first` and
/// a number and writes a binary code; the checker accepts a code and writes run 2's input
/// (`second` and the code) on stdout; run 2 decodes it, and the checker compares that with
/// the answer. `run-count` is the only thing that differs from a one-run package.
fn run_twice_package(testlib: &Path, run_count: &str) -> Project {
    let xml = r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="4" short-name="twice" url="https://polygon.codeforces.com/p/x/twice">
    <names>
        <name language="english" value="Binary Twice"/>
    </names>
    <judging cpu-name="Intel(R) Core(TM) i3-8100 CPU @ 3.60GHz" cpu-speed="3600" input-file="" output-file="" run-count="RUNS">
        <testset name="tests">
            <time-limit>2000</time-limit>
            <memory-limit>268435456</memory-limit>
            <test-count>2</test-count>
            <input-path-pattern>tests/%02d</input-path-pattern>
            <answer-path-pattern>tests/%02d.a</answer-path-pattern>
            <tests>
                <test method="manual" sample="true"/>
                <test method="manual"/>
            </tests>
        </testset>
    </judging>
    <files>
        <resources>
            <file path="files/testlib.h" type="h.g++"/>
        </resources>
    </files>
    <assets>
        <checker name="check.cpp" type="testlib">
            <source path="files/check.cpp" type="cpp.g++17"/>
        </checker>
        <solutions>
            <solution tag="main"><source path="solutions/binary.py" type="python.3"/></solution>
            <solution tag="wrong-answer"><source path="solutions/decimal.py" type="python.3"/></solution>
            <solution tag="wrong-answer"><source path="solutions/off-by-one.py" type="python.3"/></solution>
        </solutions>
    </assets>
</problem>
"#;
    let checker = r#"#include "testlib.h"
#include <iostream>

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    std::string run = inf.readToken();
    if (run == "first") {
        std::string code = ouf.readToken();
        if (code.size() > 62 || code.find_first_not_of("01") != std::string::npos)
            quitf(_wa, "`%s` is not a binary code", code.c_str());
        std::cout << "second\n" << code << std::endl;
        quitf(_ok, "a code of %d bits", (int) code.size());
    }
    long long expected = ans.readLong();
    long long found = ouf.readLong();
    if (found != expected)
        quitf(_wa, "decoded %lld, the number was %lld", found, expected);
    quitf(_ok, "decoded %lld", found);
}
"#;
    Project::new()
        .file("twice/problem.xml", &xml.replace("RUNS", run_count))
        .file(
            "twice/files/testlib.h",
            &std::fs::read_to_string(testlib).unwrap(),
        )
        .file("twice/files/check.cpp", checker)
        .file("twice/tests/01", "first\n5\n")
        .file("twice/tests/01.a", "5\n")
        .file("twice/tests/02", "first\n12\n")
        .file("twice/tests/02.a", "12\n")
        .file(
            "twice/solutions/binary.py",
            "if input() == 'first':\n    print(bin(int(input()))[2:])\nelse:\n    print(int(input(), 2))\n",
        )
        .file(
            "twice/solutions/decimal.py",
            "if input() == 'first':\n    print(int(input()))\nelse:\n    print(int(input()))\n",
        )
        .file(
            "twice/solutions/off-by-one.py",
            "if input() == 'first':\n    print(bin(int(input()))[2:])\nelse:\n    print(int(input(), 2) + 1)\n",
        )
}

/// Each case's verdict and reason from `harness judge twice SOURCE --format json`.
fn run_twice_rows(project: &Project, source: &str, code: i32) -> Vec<(String, String)> {
    let output = project
        .harness()
        .args(["judge", "twice", source, "--all", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    let document: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stderr}"));
    document["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            (
                case["verdict"].as_str().unwrap().to_string(),
                case["reason"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_polygon_run_twice_problem_runs_the_solution_twice_and_blames_the_run() {
    let Some(testlib) = common::testlib_h_or_skip("a_polygon_run_twice_problem") else {
        return;
    };
    let project = run_twice_package(&testlib, "2");
    // Run 2 reads what the checker wrote after run 1, never the test's own input: the
    // solution that decodes right is accepted on both tests.
    let rows = run_twice_rows(&project, "twice/solutions/binary.py", OK);
    assert_eq!(rows.len(), 2);
    for (verdict, reason) in &rows {
        assert_eq!(verdict, "AC");
        assert!(reason.starts_with("run 2: ok decoded"), "{rows:?}");
    }
    let rows = run_twice_rows(&project, "twice/solutions/decimal.py", FAILED);
    assert_eq!(
        rows[0],
        (
            "WA".to_string(),
            "run 1: wrong answer `5` is not a binary code".to_string()
        )
    );
    let rows = run_twice_rows(&project, "twice/solutions/off-by-one.py", FAILED);
    assert_eq!(
        rows[1],
        (
            "WA".to_string(),
            "run 2: wrong answer decoded 13, the number was 12".to_string()
        )
    );
    // The package's own expectations hold: main accepted, the other two wrong answers.
    project
        .args(["verify", "twice"])
        .status(OK)
        .stderr_contains("Binary Twice (Polygon package)")
        .run();
    // A checker that crashes judging run 1 is the package's fault: a judge error, never the
    // contestant's WA, and run 2 is not started on what it half wrote.
    project.write(
        "twice/files/check.cpp",
        "#include <cstdlib>\nint main() { std::abort(); }\n",
    );
    let rows = run_twice_rows(&project, "twice/solutions/binary.py", 3);
    assert!(rows.iter().all(|(verdict, _)| verdict == "JE"), "{rows:?}");
    assert!(
        !rows.iter().any(|(_, reason)| reason.starts_with("run 2")),
        "{rows:?}"
    );
}

#[test]
fn a_run_count_the_harness_does_not_read_is_refused_naming_problem_xml() {
    let project = run_twice_package(Path::new("/dev/null"), "3");
    project
        .args(["verify", "twice"])
        .status(ERROR)
        .stderr_contains("problem.xml")
        .stderr_contains("run-count=\"3\"")
        .run();
    // Twice with a `std::` checker: nothing would write run 2's input.
    let xml = project
        .read("twice/problem.xml")
        .replace("run-count=\"3\"", "run-count=\"2\"");
    project.write(
        "twice/problem.xml",
        &xml.replace(
            "<checker name=\"check.cpp\"",
            "<checker name=\"std::wcmp.cpp\"",
        ),
    );
    project
        .args(["judge", "twice", "twice/solutions/binary.py"])
        .status(ERROR)
        .stderr_contains("problem.xml")
        .stderr_contains("without a checker of the problem's own")
        .run();
}
