//! The VS Code extension's client code (editors/vscode/) against the real `harness serve`:
//! the extension's sources are copied into a temporary project beside the fixtures it judges,
//! built there with its own `npm ci` and `npm run build` (tsc), and its node tests run with
//! `node --test`, given this build's `harness` as $HARNESS and the project as
//! $HARNESS_PROJECT. The extension's VS Code glue is compiled (tsc checks it against
//! @types/vscode) but not run: VS Code itself cannot be had on these machines.
//!
//! npm keeps its download cache where it always does (~/.npm), as cargo keeps crates; nothing
//! else is written outside the project, and node_modules/ never lands in the repository.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::project::Project;

const SUM: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

/// Sums a list: `n`, then n numbers; wrong when one is above 50 (the stress test's bug).
const WRONG_PY: &str = "n = int(input())\nv = list(map(int, input().split())) if n else []\n\
                        print(sum(x + 1 if x > 50 else x for x in v))\n";
const BRUTE_PY: &str = "n = int(input())\nprint(sum(map(int, input().split())) if n else 0)\n";
/// testlib-style: the seed is the last argument.
const GEN_PY: &str = "import random, sys\nr = random.Random(int(sys.argv[1]))\n\
                      n = r.randint(1, 8)\nprint(n)\nprint(*[r.randint(0, 60) for _ in range(n)])\n";

const CONTEST_TOML: &str = r#"[problems.sum]
title = "A plus B"
time-limit = "3s"
"#;

/// The extension's own files: what `npm ci` and `tsc` need, not what they made.
const EXTENSION_FILES: &[&str] = &["package.json", "package-lock.json", "tsconfig.json"];
const EXTENSION_FOLDERS: &[&str] = &["src", "test"];

fn extension_folder() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../editors/vscode"))
}

/// The fixtures the node tests judge (server.test.ts names them) and the extension's sources.
fn project() -> Project {
    let mut project = Project::new()
        .file("practice/a.py", SUM)
        .file("practice/sleep.py", "import time\ntime.sleep(600)\n")
        .file("practice/test/1.in", "1 2\n")
        .file("practice/test/1.ans", "3\n")
        .file("practice/test/2.in", "20 22\n")
        .file("practice/test/2.ans", "42\n")
        .file("practice/test/3.in", "2 2\n")
        .file("practice/test/3.ans", "5\n")
        .file(
            "practice/bad.cpp",
            "int main() {\n    int x = 1;\n    return y;\n}\n",
        )
        .file("practice/wrong.py", WRONG_PY)
        .file("practice/brute.py", BRUTE_PY)
        .file("practice/gen.py", GEN_PY)
        .file("watched/a.py", SUM)
        .file("watched/test/1.in", "1 2\n")
        .file("watched/test/1.ans", "3\n")
        .file("contest/judge.toml", CONTEST_TOML)
        .file("contest/sum.py", SUM)
        .file("contest/cases/sum/01.in", "1 1\n")
        .file("contest/cases/sum/01.ans", "2\n")
        .file("contest/cases/sum/02.in", "5 6\n")
        .file("contest/cases/sum/02.ans", "11\n");
    for file in EXTENSION_FILES {
        let text = std::fs::read_to_string(extension_folder().join(file))
            .unwrap_or_else(|e| panic!("editors/vscode/{file}: {e}"));
        project = project.file(&format!("vscode/{file}"), &text);
    }
    for folder in EXTENSION_FOLDERS {
        project = project.tree(
            &format!("vscode/{folder}"),
            &extension_folder().join(folder),
        );
    }
    project
}

/// node and npm, or a `skipped:` line; under CI their absence fails, since
/// `.ci/install-tools` installs them.
fn node_and_npm(test: &str) -> bool {
    let found = ["node", "npm"].iter().all(|tool| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    });
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "no node/npm: CI runs .ci/install-tools, which installs them"
        );
        common::skipped(&format!(
            "{test}: no node and npm on PATH (apt-get install nodejs npm)"
        ));
    }
    found
}

fn run(project: &Project, what: &str, program: &str, args: &[&str]) -> Output {
    let output = Command::new(program)
        .args(args)
        .current_dir(project.join("vscode"))
        .env("HARNESS", assert_cmd::cargo::cargo_bin("harness"))
        .env("HARNESS_PROJECT", project.path())
        .env("XDG_CACHE_HOME", project.cache_home())
        .env_remove("HARNESS_CACHE_DIR")
        .env("NO_COLOR", "1")
        // Node's temporary files (and npm's) inside the project too.
        .env("TMPDIR", project.path())
        .output()
        .unwrap_or_else(|e| panic!("`{program}` could not run: {e}"));
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
    output
}

/// `# NAME N` from node's TAP summary.
fn count(summary: &str, name: &str) -> usize {
    summary
        .lines()
        .find_map(|line| line.strip_prefix(&format!("# {name} ")))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no `# {name}` in node's summary:\n{summary}"))
}

#[test]
fn the_vscode_client_passes_its_node_tests_against_the_real_server() {
    if !node_and_npm("the_vscode_client_passes_its_node_tests_against_the_real_server") {
        return;
    }
    let project = project();
    run(
        &project,
        "npm ci",
        "npm",
        &["ci", "--no-audit", "--no-fund"],
    );
    run(&project, "npm run build (tsc)", "npm", &["run", "build"]);
    let tests = run(
        &project,
        "node --test",
        "node",
        &["--test", "--test-reporter=tap", "out/test/"],
    );
    let summary = String::from_utf8_lossy(&tests.stdout).into_owned();
    eprintln!("{summary}");
    assert_eq!(count(&summary, "fail"), 0, "{summary}");
    assert_eq!(
        count(&summary, "skipped"),
        0,
        "every server test ran: {summary}"
    );
    // Every `test(` of the suites ran: a file that stopped loading would lower the count.
    let written: usize = std::fs::read_dir(extension_folder().join("test"))
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .map(|text| text.lines().filter(|l| l.starts_with("test(")).count())
        .sum();
    assert!(written > 0);
    assert_eq!(count(&summary, "pass"), written, "{summary}");
}
