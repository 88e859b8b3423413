//! Hostile problem packages, built in a temporary folder and judged by the real `harness`:
//! paths that leave the package, symlink loops, YAML nested past reason, absurd limits, and
//! package programs (validators, checkers, interactors, build scripts) that try to write into
//! `$HOME` and the project and to reach a local server. Each is refused with exit 2 and a
//! message naming the file, or runs in the sandbox where its attempts fail while its honest
//! checks still judge.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;

const OK: i32 = 0;
const ERROR: i32 = 2;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The harness, run in `dir`, with its build cache and `$HOME` inside it.
fn harness(dir: &Path) -> Command {
    let mut command = Command::cargo_bin("harness").unwrap();
    command
        .current_dir(dir)
        .env("HARNESS_CACHE_DIR", dir.join(".cache"))
        .env("HOME", dir.join("home"))
        .env("NO_COLOR", "1")
        .timeout(Duration::from_secs(120));
    command
}

/// Runs the harness and returns (exit code, stdout, stderr).
fn run(command: &mut Command) -> (Option<i32>, String, String) {
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// An "echo" package (legacy Kattis): print the number read. Its submissions are one right
/// and one wrong, so honest checks must tell them apart.
fn echo_package(root: &Path) {
    write(root, "problem.yaml", "name: Echo\nlimits:\n  memory: 256\n");
    write(root, ".timelimit", "2\n");
    write(root, "data/sample/1.in", "5\n");
    write(root, "data/sample/1.ans", "5\n");
    write(root, "data/secret/2.in", "7\n");
    write(root, "data/secret/2.ans", "7\n");
    write(
        root,
        "submissions/accepted/echo.py",
        "print(int(input()))\n",
    );
    write(
        root,
        "submissions/wrong_answer/off.py",
        "print(int(input()) + 1)\n",
    );
}

/// Expects a refusal: exit 2 (never 101), and every one of `words` in the message.
fn refused(dir: &Path, args: &[&str], words: &[&str]) -> String {
    let started = Instant::now();
    let (code, stdout, stderr) = run(harness(dir).args(args));
    assert_eq!(
        code,
        Some(ERROR),
        "{args:?}\nstdout: {stdout}\nstderr: {stderr}"
    );
    for word in words {
        assert!(stderr.contains(word), "{args:?}: no `{word}` in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{args:?} took {:?}",
        started.elapsed()
    );
    stderr
}

/// A Polygon package "print a + b" with the std `wcmp` checker, its `<judging>` attributes and
/// testset patterns as given.
fn polygon_package(root: &Path, judging: &str, patterns: (&str, &str), limits: (&str, &str)) {
    write(
        root,
        "problem.xml",
        &format!(
            r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="1" short-name="sum">
    <names><name language="english" value="Sum"/></names>
    <judging {judging}>
        <testset name="tests">
            <time-limit>{}</time-limit>
            <memory-limit>{}</memory-limit>
            <test-count>1</test-count>
            <input-path-pattern>{}</input-path-pattern>
            <answer-path-pattern>{}</answer-path-pattern>
            <tests><test method="manual" sample="true"/></tests>
        </testset>
    </judging>
    <assets>
        <checker name="std::wcmp.cpp" type="testlib"><source path="files/check.cpp" type="cpp.g++17"/></checker>
        <solutions><solution tag="main"><source path="solutions/sum.py" type="python.3"/></solution></solutions>
    </assets>
</problem>
"#,
            limits.0, limits.1, patterns.0, patterns.1
        ),
    );
    write(root, "tests/01", "1 2\n");
    write(root, "tests/01.a", "3\n");
    write(
        root,
        "solutions/sum.py",
        "import os\nif os.path.exists('sum.in'):\n    a, b = map(int, open('sum.in').read().split())\n    open('sum.out', 'w').write('%d\\n' % (a + b))\nelse:\n    a, b = map(int, input().split())\n    print(a + b)\n",
    );
}

const PLAIN: (&str, &str) = ("tests/%02d", "tests/%02d.a");
const LIMITS: (&str, &str) = ("1000", "268435456");

#[test]
fn a_polygon_file_name_that_leaves_the_run_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("pwned");
    for name in [
        "../../pwned".to_string(),
        target.display().to_string(),
        "..".to_string(),
    ] {
        let root = dir.path().join("sum");
        polygon_package(
            &root,
            &format!("input-file=\"{name}\" output-file=\"sum.out\""),
            PLAIN,
            LIMITS,
        );
        refused(
            dir.path(),
            &["verify", "sum"],
            &["problem.xml", "input-file", "not a plain file name"],
        );
        polygon_package(
            &root,
            &format!("input-file=\"sum.in\" output-file=\"{name}\""),
            PLAIN,
            LIMITS,
        );
        refused(
            dir.path(),
            &["verify", "sum"],
            &["problem.xml", "output-file", "not a plain file name"],
        );
        assert!(
            !target.exists(),
            "{name}: the package wrote `{}`",
            target.display()
        );
    }
    // Plain names still work.
    let root = dir.path().join("sum");
    polygon_package(
        &root,
        "input-file=\"sum.in\" output-file=\"sum.out\"",
        PLAIN,
        LIMITS,
    );
    let (code, stdout, stderr) = run(harness(dir.path()).args(["verify", "sum"]));
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
}

#[test]
fn polygon_paths_that_leave_the_package_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "outside/01", "1 2\n");
    write(dir.path(), "outside/01.a", "3\n");
    let root = dir.path().join("sum");
    for (patterns, word) in [
        (("../outside/%02d", "tests/%02d.a"), "input-path-pattern"),
        (("tests/%02d", "../outside/%02d.a"), "answer-path-pattern"),
        (("tests/%02d", "/etc/passwd"), "answer-path-pattern"),
    ] {
        polygon_package(&root, "input-file=\"\" output-file=\"\"", patterns, LIMITS);
        refused(dir.path(), &["verify", "sum"], &["problem.xml", word]);
    }
    // A test file that is a symlink out of the package.
    polygon_package(&root, "input-file=\"\" output-file=\"\"", PLAIN, LIMITS);
    std::fs::remove_file(root.join("tests/01.a")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside/01.a"), root.join("tests/01.a")).unwrap();
    refused(
        dir.path(),
        &["verify", "sum"],
        &["tests/01.a", "outside the package"],
    );
}

#[test]
fn kattis_data_symlinks_out_of_the_package_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("echo");
    echo_package(&root);
    write(dir.path(), "secret.txt", "7\n");
    std::fs::remove_file(root.join("data/secret/2.ans")).unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("secret.txt"),
        root.join("data/secret/2.ans"),
    )
    .unwrap();
    refused(
        dir.path(),
        &["verify", "echo"],
        &["data/secret/2.ans", "outside the package"],
    );
    std::fs::remove_file(root.join("data/secret/2.ans")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", root.join("data/secret/2.ans")).unwrap();
    refused(
        dir.path(),
        &["judge", "echo", "echo/submissions/accepted/echo.py"],
        &["data/secret/2.ans", "outside the package"],
    );
    // A whole group linked from outside.
    std::fs::remove_file(root.join("data/secret/2.ans")).unwrap();
    write(&root, "data/secret/2.ans", "7\n");
    write(dir.path(), "elsewhere/3.in", "1\n");
    write(dir.path(), "elsewhere/3.ans", "1\n");
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), root.join("data/secret/g")).unwrap();
    refused(
        dir.path(),
        &["verify", "echo"],
        &["data/secret/g", "outside the package"],
    );
    // Inside the package, a group linked from another is fine (Kodsport includes groups so).
    std::fs::remove_file(root.join("data/secret/g")).unwrap();
    std::os::unix::fs::symlink("../sample", root.join("data/secret/again")).unwrap();
    let (code, stdout, stderr) = run(harness(dir.path()).args(["verify", "echo"]));
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
}

#[test]
fn symlink_loops_in_data_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("echo");
    echo_package(&root);
    std::fs::create_dir_all(root.join("data/secret/a")).unwrap();
    // Two links back up: walking them naively doubles at every level.
    std::os::unix::fs::symlink("..", root.join("data/secret/a/x")).unwrap();
    std::os::unix::fs::symlink("..", root.join("data/secret/a/y")).unwrap();
    refused(
        dir.path(),
        &["verify", "echo"],
        &["data/secret/a/x", "loop"],
    );
    // Links that lead to each other.
    std::fs::remove_file(root.join("data/secret/a/x")).unwrap();
    std::fs::remove_file(root.join("data/secret/a/y")).unwrap();
    std::os::unix::fs::symlink("y", root.join("data/secret/a/x")).unwrap();
    std::os::unix::fs::symlink("x", root.join("data/secret/a/y")).unwrap();
    refused(
        dir.path(),
        &["verify", "echo"],
        &["data/secret/a/x", "loop"],
    );
    // And with a generators.yaml, whose check looks into the data folders too.
    write(
        &root,
        "generators/generators.yaml",
        "data:\n  secret:\n    data:\n      - big: gen.py\n",
    );
    refused(
        dir.path(),
        &["verify", "echo"],
        &["data/secret/a/x", "loop"],
    );
}

#[test]
fn yaml_nested_past_reason_or_too_large_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("echo");
    echo_package(&root);
    let deep = 200_000;
    let nested = format!(
        "name: Echo\nlimits: {}{}\n",
        "[".repeat(deep),
        "]".repeat(deep)
    );
    write(&root, "problem.yaml", &nested);
    refused(dir.path(), &["verify", "echo"], &["problem.yaml", "nested"]);
    // Block sequences nest too, two characters a level.
    let dashes = format!("name: Echo\nx:\n{}1\n", "- ".repeat(deep));
    write(&root, "problem.yaml", &dashes);
    refused(dir.path(), &["verify", "echo"], &["problem.yaml", "nested"]);
    // In a group's testdata.yaml, the same.
    write(&root, "problem.yaml", "name: Echo\n");
    write(&root, "data/secret/testdata.yaml", &nested);
    refused(
        dir.path(),
        &["verify", "echo"],
        &["data/secret/testdata.yaml", "nested"],
    );
    std::fs::remove_file(root.join("data/secret/testdata.yaml")).unwrap();
    // A file far larger than any package's YAML.
    let huge = format!("name: Echo\n# {}\n", "x".repeat(20 << 20));
    write(&root, "problem.yaml", &huge);
    refused(dir.path(), &["verify", "echo"], &["problem.yaml", "MiB"]);
    // Ordinary nesting is read as before.
    write(
        &root,
        "problem.yaml",
        "name: Echo\nlimits:\n  memory: 256\nkeywords: [[a, [b, {c: [d]}]]]\n",
    );
    let (code, stdout, stderr) = run(harness(dir.path()).args(["verify", "echo"]));
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
}

#[test]
fn every_limit_is_validated_with_its_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("echo");
    echo_package(&root);
    std::fs::remove_file(root.join(".timelimit")).unwrap();
    for (limits, key) in [
        ("time_limit: 1e30", "limits.time_limit"),
        ("time_limit: 0", "limits.time_limit"),
        ("time_limit: -1", "limits.time_limit"),
        ("time_limit: .nan", "limits.time_limit"),
        ("time_limit: .inf", "limits.time_limit"),
        ("time_limit: soon", "limits.time_limit"),
        ("time_resolution: 0", "limits.time_resolution"),
        ("time_resolution: 1e300", "limits.time_resolution"),
        ("time_resolution: -0.5", "limits.time_resolution"),
        ("time_multiplier: 1e308", "limits.time_multiplier"),
        ("time_multiplier: 0", "limits.time_multiplier"),
        (
            "time_multipliers:\n    ac_to_time_limit: -2",
            "limits.time_multipliers.ac_to_time_limit",
        ),
        ("memory: 0", "limits.memory"),
        ("memory: -5", "limits.memory"),
        ("memory: 1e30", "limits.memory"),
        ("output: 0", "limits.output"),
        ("output: -1", "limits.output"),
    ] {
        write(
            &root,
            "problem.yaml",
            &format!("name: Echo\nlimits:\n  {limits}\n"),
        );
        refused(dir.path(), &["verify", "echo"], &["problem.yaml", key]);
    }
    write(&root, "problem.yaml", "name: Echo\n");
    write(&root, ".timelimit", "1e30\n");
    refused(dir.path(), &["verify", "echo"], &[".timelimit"]);
    std::fs::remove_file(root.join(".timelimit")).unwrap();
    write(&root, "domjudge-problem.ini", "timelimit='1e30'\n");
    refused(
        dir.path(),
        &["verify", "echo"],
        &["domjudge-problem.ini", "timelimit"],
    );
    std::fs::remove_file(root.join("domjudge-problem.ini")).unwrap();

    let root = dir.path().join("sum");
    for (limits, key) in [
        (("0", "268435456"), "time-limit"),
        (("99999999999999999999", "268435456"), "time-limit"),
        (("1000", "0"), "memory-limit"),
        (("1000", "-1"), "memory-limit"),
        (("1000", "1e30"), "memory-limit"),
    ] {
        polygon_package(&root, "input-file=\"\" output-file=\"\"", PLAIN, limits);
        refused(dir.path(), &["verify", "sum"], &["problem.xml", key]);
    }
}

#[test]
fn a_long_validator_folder_name_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("echo");
    echo_package(&root);
    write(
        &root,
        "problem.yaml",
        "name: Echo\nvalidation: custom\nlimits:\n  memory: 256\n",
    );
    let name = "v".repeat(250);
    write(
        &root,
        &format!("output_validators/{name}/validate.py"),
        "import sys\nteam = sys.stdin.read().split()\njudge = open(sys.argv[2]).read().split()\nsys.exit(42 if team == judge else 43)\n",
    );
    let (code, stdout, stderr) = run(harness(dir.path()).args(["verify", "echo"]));
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    assert!(stdout.contains("all 2 submissions"), "{stdout}");
}

