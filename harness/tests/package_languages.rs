//! A package's programs run as the package's own tools run them: `.py` with PyPy (as
//! problemtools, BAPCtools and Kattis do) where it is installed and CPython with a note where
//! not, Java as problemtools starts it, and no time multiplier from judge.toml.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;

use common::project::Project;
use serde_json::Value;

/// A 2023-07 package with one sample whose answer is `answer`, and `submissions`
/// (path below `submissions/`, text).
fn package(project: Project, answer: &str, submissions: &[(&str, &str)]) -> Project {
    let mut project = project
        .file(
            "pkg/problem.yaml",
            "problem_format_version: 2023-07-draft\nname: languages\nlimits:\n  time_limit: 1\n  memory: 128\n",
        )
        .file("pkg/data/sample/1.in", "\n")
        .file("pkg/data/sample/1.ans", answer);
    for (path, text) in submissions {
        project = project.file(&format!("pkg/submissions/{path}"), text);
    }
    project
}

/// Verdicts by submission path below the package, from `verify --format json`.
fn verdicts(output: &[u8]) -> BTreeMap<String, String> {
    let document: Value = serde_json::from_slice(output).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}", String::from_utf8_lossy(output));
    });
    document["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let name = s["name"].as_str().unwrap();
            let below = name.split_once('/').map_or(name, |(_, rest)| rest);
            (
                below.to_string(),
                s["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
}

const IMPLEMENTATION: &str = "import sys\nprint(sys.implementation.name)\n";

#[test]
fn a_packages_python_runs_with_pypy() {
    if !on_path("pypy3") {
        common::skipped("a_packages_python_runs_with_pypy: pypy3 is not installed");
        return;
    }
    let project = package(
        Project::new(),
        "pypy\n",
        &[("accepted/implementation.py", IMPLEMENTATION)],
    );
    let output = project
        .harness()
        .args(["verify", "pkg", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        verdicts(&output.stdout),
        BTreeMap::from([("accepted/implementation.py".into(), "AC".into())]),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("CPython"),
        "no note when PyPy runs it"
    );
}

#[test]
fn without_pypy_a_packages_python_runs_with_cpython_saying_so() {
    // A PATH with the real CPython and nothing else: no pypy3.
    let real = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    let real = String::from_utf8(real.stdout).unwrap();
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(real.trim(), bin.path().join("python3")).unwrap();
    let project = package(
        Project::new(),
        "cpython\n",
        &[("accepted/implementation.py", IMPLEMENTATION)],
    );
    let output = project
        .harness()
        .env("PATH", bin.path())
        .args(["verify", "pkg", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        verdicts(&output.stdout),
        BTreeMap::from([("accepted/implementation.py".into(), "AC".into())]),
        "{stderr}"
    );
    assert_eq!(
        stderr
            .lines()
            .filter(
                |l| l.contains("packages' Python runs with CPython here: pypy3 is not installed")
            )
            .count(),
        1,
        "{stderr}"
    );
}

#[test]
fn judge_toml_time_multipliers_do_not_apply_to_packages() {
    // The program reads the CPU-time rlimit it runs under: the limit (1 s) plus the sandbox's
    // second, or five times that under judge.toml's multiplier.
    let project = package(
        Project::new().file(
            "judge.toml",
            "[languages.slow]\nname = \"Slow shell\"\nextensions = [\"slow\"]\nrun = [\"sh\", \"{source}\"]\ntime-multiplier = 5\n",
        ),
        "2\n",
        &[("accepted/limit.slow", "ulimit -t\n")],
    );
    let output = project
        .harness()
        .args(["verify", "pkg", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        verdicts(&output.stdout),
        BTreeMap::from([("accepted/limit.slow".into(), "AC".into())]),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn java_runs_as_problemtools_starts_it() {
    if !on_path("javac") || !on_path("java") {
        common::skipped("java_runs_as_problemtools_starts_it: no JDK here");
        return;
    }
    // problemtools runs the class named after the file, with -Xms and -Xmx at the memory
    // limit: the heap is that big from the start.
    let heap = r#"class Heap {
    public static void main(String[] args) {
        long total = Runtime.getRuntime().totalMemory() >> 20;
        System.out.println(total >= 100 && total <= 128 ? "heap" : "heap " + total + " MiB");
    }
}
"#;
    let public_main = "public class Main { public static void main(String[] a) { System.out.println(\"heap\"); } }\n";
    let project = package(
        Project::new(),
        "heap\n",
        &[
            ("accepted/Heap.java", heap),
            // A public class in a file of another name does not compile there.
            ("compile_error/solution.java", public_main),
        ],
    );
    let output = project
        .harness()
        .args(["verify", "pkg", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        verdicts(&output.stdout),
        BTreeMap::from([
            ("accepted/Heap.java".into(), "AC".into()),
            ("compile_error/solution.java".into(), "CE".into()),
        ]),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
