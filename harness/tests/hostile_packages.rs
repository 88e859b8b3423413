//! Hostile problem packages, built in a temporary folder and judged by the real `harness`:
//! paths that leave the package, symlink loops, YAML nested past reason, absurd limits, and
//! package programs (validators, checkers, interactors, build scripts) that try to write into
//! `$HOME` and the project and to reach a local server. Each is refused with exit 2 and a
//! message naming the file, or runs in the sandbox where its attempts fail while its honest
//! checks still judge.
#![cfg(unix)]

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::project::Project;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn executable(root: &Path, relative: &str, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    write(root, relative, text);
    std::fs::set_permissions(root.join(relative), std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `harness ARGS` in the project with `$HOME` inside it (where a hostile program plants
/// files) and a backstop against a hung judge; returns (exit code, stdout, stderr).
fn harness(project: &Project, args: &[&str]) -> (Option<i32>, String, String) {
    let ran = project
        .args(args)
        .env("HOME", project.join("home"))
        .timeout(Duration::from_secs(120))
        .any_status()
        .run();
    (ran.status, ran.stdout, ran.stderr)
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
fn refused(project: &Project, args: &[&str], words: &[&str]) -> String {
    let started = Instant::now();
    let (code, stdout, stderr) = harness(project, args);
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
    let project = Project::new();
    let target = project.path().join("pwned");
    for name in [
        "../../pwned".to_string(),
        target.display().to_string(),
        "..".to_string(),
    ] {
        let root = project.path().join("sum");
        polygon_package(
            &root,
            &format!("input-file=\"{name}\" output-file=\"sum.out\""),
            PLAIN,
            LIMITS,
        );
        refused(
            &project,
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
            &project,
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
    let root = project.path().join("sum");
    polygon_package(
        &root,
        "input-file=\"sum.in\" output-file=\"sum.out\"",
        PLAIN,
        LIMITS,
    );
    let (code, stdout, stderr) = harness(&project, &["verify", "sum"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
}

#[test]
fn polygon_paths_that_leave_the_package_are_refused() {
    let project = Project::new();
    write(project.path(), "outside/01", "1 2\n");
    write(project.path(), "outside/01.a", "3\n");
    let root = project.path().join("sum");
    for (patterns, word) in [
        (("../outside/%02d", "tests/%02d.a"), "input-path-pattern"),
        (("tests/%02d", "../outside/%02d.a"), "answer-path-pattern"),
        (("tests/%02d", "/etc/passwd"), "answer-path-pattern"),
    ] {
        polygon_package(&root, "input-file=\"\" output-file=\"\"", patterns, LIMITS);
        refused(&project, &["verify", "sum"], &["problem.xml", word]);
    }
    // A test file that is a symlink out of the package.
    polygon_package(&root, "input-file=\"\" output-file=\"\"", PLAIN, LIMITS);
    std::fs::remove_file(root.join("tests/01.a")).unwrap();
    std::os::unix::fs::symlink(project.path().join("outside/01.a"), root.join("tests/01.a"))
        .unwrap();
    refused(
        &project,
        &["verify", "sum"],
        &["tests/01.a", "outside the package"],
    );
}

#[test]
fn kattis_data_symlinks_out_of_the_package_are_refused() {
    let project = Project::new();
    let root = project.path().join("echo");
    echo_package(&root);
    write(project.path(), "secret.txt", "7\n");
    std::fs::remove_file(root.join("data/secret/2.ans")).unwrap();
    std::os::unix::fs::symlink(
        project.path().join("secret.txt"),
        root.join("data/secret/2.ans"),
    )
    .unwrap();
    refused(
        &project,
        &["verify", "echo"],
        &["data/secret/2.ans", "outside the package"],
    );
    std::fs::remove_file(root.join("data/secret/2.ans")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", root.join("data/secret/2.ans")).unwrap();
    refused(
        &project,
        &["judge", "echo", "echo/submissions/accepted/echo.py"],
        &["data/secret/2.ans", "outside the package"],
    );
    // A whole group linked from outside.
    std::fs::remove_file(root.join("data/secret/2.ans")).unwrap();
    write(&root, "data/secret/2.ans", "7\n");
    write(project.path(), "elsewhere/3.in", "1\n");
    write(project.path(), "elsewhere/3.ans", "1\n");
    std::os::unix::fs::symlink(project.path().join("elsewhere"), root.join("data/secret/g"))
        .unwrap();
    refused(
        &project,
        &["verify", "echo"],
        &["data/secret/g", "outside the package"],
    );
    // Inside the package, a group linked from another is fine (Kodsport includes groups so).
    std::fs::remove_file(root.join("data/secret/g")).unwrap();
    std::os::unix::fs::symlink("../sample", root.join("data/secret/again")).unwrap();
    let (code, stdout, stderr) = harness(&project, &["verify", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
}

#[test]
fn fifos_in_a_package_never_hold_the_judge() {
    let project = Project::new();
    let root = project.path().join("echo");
    echo_package(&root);
    let fifo = |path: &Path| {
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success());
    };
    fifo(&root.join("submissions/accepted/fifo.py"));
    let (code, stdout, stderr) = harness(&project, &["verify", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    assert!(stdout.contains("not a regular file"), "{stdout}");
    write(&root, "data/secret/3.ans", "1\n");
    fifo(&root.join("data/secret/3.in"));
    refused(
        &project,
        &["verify", "echo"],
        &["data/secret/3.in", "not a regular file"],
    );
}

#[test]
fn symlink_loops_in_data_are_refused_at_once() {
    let project = Project::new();
    let root = project.path().join("echo");
    echo_package(&root);
    std::fs::create_dir_all(root.join("data/secret/a")).unwrap();
    // Two links back up: walking them naively doubles at every level.
    std::os::unix::fs::symlink("..", root.join("data/secret/a/x")).unwrap();
    std::os::unix::fs::symlink("..", root.join("data/secret/a/y")).unwrap();
    refused(&project, &["verify", "echo"], &["data/secret/a/x", "loop"]);
    // Links that lead to each other.
    std::fs::remove_file(root.join("data/secret/a/x")).unwrap();
    std::fs::remove_file(root.join("data/secret/a/y")).unwrap();
    std::os::unix::fs::symlink("y", root.join("data/secret/a/x")).unwrap();
    std::os::unix::fs::symlink("x", root.join("data/secret/a/y")).unwrap();
    refused(&project, &["verify", "echo"], &["data/secret/a/x", "loop"]);
    // And with a generators.yaml, whose check looks into the data folders too.
    write(
        &root,
        "generators/generators.yaml",
        "data:\n  secret:\n    data:\n      - big: gen.py\n",
    );
    refused(&project, &["verify", "echo"], &["data/secret/a/x", "loop"]);
}

#[test]
fn yaml_nested_past_reason_or_too_large_is_refused_at_once() {
    let project = Project::new();
    let root = project.path().join("echo");
    echo_package(&root);
    let deep = 200_000;
    let nested = format!(
        "name: Echo\nlimits: {}{}\n",
        "[".repeat(deep),
        "]".repeat(deep)
    );
    write(&root, "problem.yaml", &nested);
    refused(&project, &["verify", "echo"], &["problem.yaml", "nested"]);
    // Block sequences nest too, two characters a level.
    let dashes = format!("name: Echo\nx:\n{}1\n", "- ".repeat(deep));
    write(&root, "problem.yaml", &dashes);
    refused(&project, &["verify", "echo"], &["problem.yaml", "nested"]);
    // In a group's testdata.yaml, the same.
    write(&root, "problem.yaml", "name: Echo\n");
    write(&root, "data/secret/testdata.yaml", &nested);
    refused(
        &project,
        &["verify", "echo"],
        &["data/secret/testdata.yaml", "nested"],
    );
    std::fs::remove_file(root.join("data/secret/testdata.yaml")).unwrap();
    // A file far larger than any package's YAML.
    let huge = format!("name: Echo\n# {}\n", "x".repeat(20 << 20));
    write(&root, "problem.yaml", &huge);
    refused(&project, &["verify", "echo"], &["problem.yaml", "MiB"]);
    // Ordinary nesting is read as before.
    write(
        &root,
        "problem.yaml",
        "name: Echo\nlimits:\n  memory: 256\nkeywords: [[a, [b, {c: [d]}]]]\n",
    );
    let (code, stdout, stderr) = harness(&project, &["verify", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
}

#[test]
fn every_limit_is_validated_with_its_file_and_key() {
    let project = Project::new();
    let root = project.path().join("echo");
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
        refused(&project, &["verify", "echo"], &["problem.yaml", key]);
    }
    write(&root, "problem.yaml", "name: Echo\n");
    write(&root, ".timelimit", "1e30\n");
    refused(&project, &["verify", "echo"], &[".timelimit"]);
    std::fs::remove_file(root.join(".timelimit")).unwrap();
    write(&root, "domjudge-problem.ini", "timelimit='1e30'\n");
    refused(
        &project,
        &["verify", "echo"],
        &["domjudge-problem.ini", "timelimit"],
    );
    std::fs::remove_file(root.join("domjudge-problem.ini")).unwrap();

    let root = project.path().join("sum");
    for (limits, key) in [
        (("0", "268435456"), "time-limit"),
        (("99999999999999999999", "268435456"), "time-limit"),
        (("1000", "0"), "memory-limit"),
        (("1000", "-1"), "memory-limit"),
        (("1000", "1e30"), "memory-limit"),
    ] {
        polygon_package(&root, "input-file=\"\" output-file=\"\"", PLAIN, limits);
        refused(&project, &["verify", "sum"], &["problem.xml", key]);
    }
}

#[test]
fn a_long_validator_folder_name_is_built() {
    let project = Project::new();
    let root = project.path().join("echo");
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
    let (code, stdout, stderr) = harness(&project, &["verify", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    assert!(stdout.contains("all 2 submissions"), "{stdout}");
}

/// `harness doctor` says whether this machine can sandbox.
fn sandbox_available() -> bool {
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .arg("doctor")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    text.contains("namespaces: yes")
}

/// What a hostile package program does before its honest work: plant a file in `$HOME` and in
/// the project (by their real paths, which an attacker can guess), and connect to a server on
/// the loopback.
struct Target {
    project: Project,
    listener: TcpListener,
}

impl Target {
    fn new() -> Target {
        let project = Project::new();
        std::fs::create_dir_all(project.join("home")).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        Target { project, listener }
    }

    fn path(&self) -> &Path {
        self.project.path()
    }

    /// `attack.py`: `attack(tag)` tries each, quietly.
    fn attack_py(&self) -> String {
        format!(
            r#"import os, socket
def attack(tag):
    for folder in ({home:?}, {project:?}):
        try:
            with open(os.path.join(folder, 'planted-by-' + tag), 'w') as f:
                f.write('x')
        except OSError:
            pass
    try:
        socket.create_connection(('127.0.0.1', {port}), timeout=1).close()
    except OSError:
        pass
"#,
            home = self.path().join("home").display().to_string(),
            project = self.path().display().to_string(),
            port = self.listener.local_addr().unwrap().port()
        )
    }

    /// The same in C, for a testlib checker.
    fn attack_c(&self) -> String {
        format!(
            r#"#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
static void attack(const char *tag) {{
    const char *folders[] = {{"{home}", "{project}"}};
    for (int i = 0; i < 2; i++) {{
        char path[4096];
        snprintf(path, sizeof path, "%s/planted-by-%s", folders[i], tag);
        FILE *f = fopen(path, "w");
        if (f) {{ fputs("x", f); fclose(f); }}
    }}
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in at;
    memset(&at, 0, sizeof at);
    at.sin_family = AF_INET;
    at.sin_port = htons({port});
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s >= 0) {{ connect(s, (struct sockaddr *)&at, sizeof at); close(s); }}
}}
"#,
            home = self.path().join("home").display(),
            project = self.path().display(),
            port = self.listener.local_addr().unwrap().port()
        )
    }

    /// Nothing was planted by `tag`, and nobody connected.
    fn assert_held(&self, tag: &str) {
        for folder in [self.path().join("home"), self.path().to_path_buf()] {
            let planted: PathBuf = folder.join(format!("planted-by-{tag}"));
            assert!(
                !planted.exists(),
                "the package's {tag} wrote `{}`",
                planted.display()
            );
        }
        match self.listener.accept() {
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {}
            other => panic!("the package's {tag} reached the local server: {other:?}"),
        }
    }
}

/// Whether the test can run here; says why not.
fn can_sandbox() -> bool {
    if sandbox_available() {
        return true;
    }
    common::skipped("no sandbox on this machine (`harness doctor`), package code not tried");
    false
}

#[test]
fn a_hostile_output_validator_is_held_and_still_judges() {
    if !can_sandbox() {
        return;
    }
    let target = Target::new();
    let root = target.path().join("echo");
    echo_package(&root);
    write(
        &root,
        "problem.yaml",
        "name: Echo\nvalidation: custom\nlimits:\n  memory: 256\n",
    );
    // A folder of two Python files: the validator imports its own module.
    write(
        &root,
        "output_validators/hostile/attack.py",
        &target.attack_py(),
    );
    write(
        &root,
        "output_validators/hostile/validate.py",
        r#"import sys
from attack import attack
if __name__ == '__main__':
    attack('validator')
    team = sys.stdin.read().split()
    judge = open(sys.argv[2]).read().split()
    if team != judge:
        open(sys.argv[3] + 'judgemessage.txt', 'w').write('%s is not %s' % (team, judge))
        sys.exit(43)
    sys.exit(42)
"#,
    );
    let (code, stdout, stderr) = harness(&target.project, &["verify", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    assert!(stdout.contains("all 2 submissions"), "{stdout}");
    target.assert_held("validator");
    // Its judgemessage.txt is still the reason.
    write(target.path(), "wrong.py", "print(1)\n");
    let (code, stdout, stderr) = harness(&target.project, &["judge", "echo", "wrong.py"]);
    assert_eq!(code, Some(FAILED), "{stdout}\n{stderr}");
    assert!(stdout.contains("['1'] is not ['5']"), "{stdout}");
    target.assert_held("validator");
}

#[test]
fn a_hostile_judgemessage_link_is_not_followed() {
    if !can_sandbox() {
        return;
    }
    let target = Target::new();
    let root = target.path().join("echo");
    echo_package(&root);
    write(target.path(), "home/secret.txt", "the user's secret\n");
    write(
        &root,
        "problem.yaml",
        "name: Echo\nvalidation: custom\nlimits:\n  memory: 256\n",
    );
    write(
        &root,
        "output_validators/v/validate.py",
        &format!(
            "import os, sys\nos.symlink({:?}, sys.argv[3] + 'judgemessage.txt')\nsys.exit(43)\n",
            target.path().join("home/secret.txt").display().to_string()
        ),
    );
    write(target.path(), "mine.py", "print(int(input()))\n");
    let (code, stdout, stderr) = harness(&target.project, &["judge", "echo", "mine.py"]);
    assert_eq!(code, Some(FAILED), "{stdout}\n{stderr}");
    assert!(!stdout.contains("the user's secret"), "{stdout}");
}

#[test]
fn a_hostile_input_validator_is_held_and_still_validates() {
    if !can_sandbox() {
        return;
    }
    let target = Target::new();
    let root = target.path().join("echo");
    echo_package(&root);
    write(
        &root,
        "input_validators/hostile/attack.py",
        &target.attack_py(),
    );
    write(
        &root,
        "input_validators/hostile/check.py",
        "import sys\nfrom attack import attack\nif __name__ == '__main__':\n    attack('input-validator')\n    sys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n",
    );
    let (code, stdout, stderr) = harness(&target.project, &["validate", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    assert!(stdout.contains("2 of 2 case checks valid"), "{stdout}");
    target.assert_held("input-validator");
    write(&root, "data/secret/3.in", "seven\n");
    write(&root, "data/secret/3.ans", "7\n");
    let (code, stdout, stderr) = harness(&target.project, &["validate", "echo"]);
    assert_eq!(code, Some(FAILED), "{stdout}\n{stderr}");
    assert!(stdout.contains("INVALID secret/3"), "{stdout}");
}

#[test]
fn a_hostile_interactor_is_held_and_still_judges() {
    if !can_sandbox() {
        return;
    }
    let target = Target::new();
    let root = target.path().join("echo");
    echo_package(&root);
    write(
        &root,
        "problem.yaml",
        "name: Echo\nvalidation: custom interactive\nlimits:\n  memory: 256\n",
    );
    // The interactor sends the number, and accepts it said back.
    write(
        &root,
        "output_validators/hostile/attack.py",
        &target.attack_py(),
    );
    write(
        &root,
        "output_validators/hostile/interact.py",
        r#"import sys
from attack import attack
if __name__ == '__main__':
    attack('interactor')
    n = open(sys.argv[1]).read().strip()
    print(n, flush=True)
    said = sys.stdin.readline().strip()
    if said != n:
        open(sys.argv[3] + 'judgemessage.txt', 'w').write('said %s for %s' % (said, n))
        sys.exit(43)
    sys.exit(42)
"#,
    );
    let (code, stdout, stderr) = harness(&target.project, &["verify", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    assert!(stdout.contains("all 2 submissions"), "{stdout}");
    target.assert_held("interactor");
    write(target.path(), "wrong.py", "input()\nprint(0)\n");
    let (code, stdout, stderr) = harness(&target.project, &["judge", "echo", "wrong.py"]);
    assert_eq!(code, Some(FAILED), "{stdout}\n{stderr}");
    assert!(stdout.contains("said 0 for 5"), "{stdout}");
}

#[test]
fn hostile_build_and_run_scripts_are_held_and_still_judge() {
    if !can_sandbox() {
        return;
    }
    let target = Target::new();
    let root = target.path().join("echo");
    echo_package(&root);
    write(
        &root,
        "problem.yaml",
        "name: Echo\nvalidation: custom\nlimits:\n  memory: 256\n",
    );
    write(
        &root,
        "output_validators/scripts/attack.py",
        &target.attack_py(),
    );
    // `build` compiles nothing: it attacks, then writes the validator `run` starts.
    write(
        &root,
        "output_validators/scripts/build",
        "#!/bin/sh\nset -e\npython3 -c 'from attack import attack; attack(\"build\")'\nprintf '%s\\n' 'import sys' 'from attack import attack' 'attack(\"run\")' 'team = sys.stdin.read().split()' 'judge = open(sys.argv[2]).read().split()' 'sys.exit(42 if team == judge else 43)' > built.py\n",
    );
    executable(
        &root,
        "output_validators/scripts/run",
        "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/built.py\" \"$@\"\n",
    );
    let (code, stdout, stderr) = harness(&target.project, &["verify", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    assert!(stdout.contains("all 2 submissions"), "{stdout}");
    target.assert_held("build");
    target.assert_held("run");
}

#[test]
fn a_hostile_generator_and_solution_are_held_and_still_generate() {
    if !can_sandbox() {
        return;
    }
    let target = Target::new();
    let root = target.path().join("echo");
    echo_package(&root);
    std::fs::remove_dir_all(root.join("data")).unwrap();
    write(
        &root,
        "generators/generators.yaml",
        "solution: /submissions/accepted/hostile.py\ndata:\n  sample:\n    data:\n      - '':\n          in: \"5\"\n  secret:\n    data:\n      - big: gen.py {seed}\n",
    );
    write(
        &root,
        "generators/gen.py",
        &format!("{}\nattack('generator')\nprint(7)\n", target.attack_py()),
    );
    write(
        &root,
        "submissions/accepted/hostile.py",
        &format!(
            "{}\nattack('solution')\nprint(int(input()))\n",
            target.attack_py()
        ),
    );
    let (code, stdout, stderr) = harness(&target.project, &["gen", "echo"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    target.assert_held("generator");
    target.assert_held("solution");
    assert_eq!(
        std::fs::read_to_string(root.join("data/secret/2-big.in")).unwrap(),
        "7\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("data/secret/2-big.ans")).unwrap(),
        "7\n"
    );
}

#[test]
fn a_hostile_testlib_checker_is_held_and_still_judges() {
    if !can_sandbox() {
        return;
    }
    let Some(testlib) =
        common::testlib_h_or_skip("a_hostile_testlib_checker_is_held_and_still_judges")
    else {
        return;
    };
    let target = Target::new();
    let root = target.path().join("sum");
    polygon_package(&root, "input-file=\"\" output-file=\"\"", PLAIN, LIMITS);
    let xml = std::fs::read_to_string(root.join("problem.xml"))
        .unwrap()
        .replace("std::wcmp.cpp", "check.cpp");
    write(&root, "problem.xml", &xml);
    write(
        &root,
        "files/testlib.h",
        &std::fs::read_to_string(testlib).unwrap(),
    );
    write(
        &root,
        "files/check.cpp",
        &format!(
            "{}#include \"testlib.h\"\nint main(int argc, char* argv[]) {{\n    registerTestlibCmd(argc, argv);\n    attack(\"checker\");\n    long long expected = ans.readLong(), found = ouf.readLong();\n    if (found != expected) quitf(_wa, \"expected %lld, found %lld\", expected, found);\n    quitf(_ok, \"%lld\", found);\n}}\n",
            target.attack_c()
        ),
    );
    let (code, stdout, stderr) = harness(&target.project, &["verify", "sum"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    target.assert_held("checker");
    write(target.path(), "far.py", "print(100)\n");
    let (code, stdout, stderr) = harness(&target.project, &["judge", "sum", "far.py"]);
    assert_eq!(code, Some(FAILED), "{stdout}\n{stderr}");
    assert!(stdout.contains("expected 3, found 100"), "{stdout}");
    target.assert_held("checker");
}

#[test]
fn package_code_without_the_sandbox_is_said_before_it_runs() {
    let project = Project::new();
    let root = project.path().join("echo");
    echo_package(&root);
    write(
        &root,
        "problem.yaml",
        "name: Echo\nvalidation: custom\nlimits:\n  memory: 256\n",
    );
    write(
        &root,
        "output_validators/v/validate.py",
        "import sys\nteam = sys.stdin.read().split()\njudge = open(sys.argv[2]).read().split()\nsys.exit(42 if team == judge else 43)\n",
    );
    write(
        project.path(),
        "judge.toml",
        "[defaults]\nsandbox = \"off\"\n\n[problems.e]\npackage = \"echo\"\n",
    );
    let (code, stdout, stderr) = harness(&project, &["verify", "e"]);
    assert_eq!(code, Some(OK), "{stdout}\n{stderr}");
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("not sandboxed"))
        .collect();
    assert_eq!(said.len(), 1, "said once: {stderr}");
    assert!(said[0].contains("output_validators/v"), "{stderr}");
}
