//! Function-signature packages: Kattis `include/default/` and `include/<language>/` copied
//! onto each submission and compiled with it (a `grader.cpp` with `main` links with the
//! contestant's functions; a `main.py` imports the contestant's module), scored as
//! problemtools' `verifyproblem` scores them; a grader that does not compile is the
//! package's error, never the contestant's CE.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::project::Project;
use serde_json::Value;

/// Verdict and score by submission path below the package, from `verify --format json`.
fn results(output: &[u8]) -> BTreeMap<String, (String, Option<f64>)> {
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
                (
                    s["verdict"].as_str().unwrap().to_string(),
                    s["score"].as_f64(),
                ),
            )
        })
        .collect()
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
}

/// The vendored IOI 2023 task (see `tests/fixtures/ioi2023/README.md`): every submission
/// is a function, the grader in `include/cpp/` has `main`. `verifyproblem` scores them 54, 6,
/// 6 and 0; before the grader was compiled with them, each was CE and the folder skipped.
#[test]
fn a_kattis_grader_links_with_each_submission_and_scores_as_verifyproblem_does() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ioi2023/soccer");
    let project = Project::new().tree("soccer", &fixture);
    let output = project
        .harness()
        .args(["verify", "soccer", "-j", "2", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let ac = |score: f64| ("AC".to_string(), Some(score));
    assert_eq!(
        results(&output.stdout),
        BTreeMap::from([
            ("accepted/sol.cpp".into(), ac(54.0)),
            ("partially_accepted/one_tree.cpp".into(), ac(6.0)),
            // A folder of two files and a header, one of them valid only from C++20 on.
            ("partially_accepted/split".into(), ac(6.0)),
            ("wrong_answer/zero.cpp".into(), ("WA".into(), Some(0.0))),
        ]),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

/// A one-case scoring package whose contestant writes `add(a, b)`, with `files` added
/// (path below the package, text).
fn add_package(files: &[(&str, &str)]) -> Project {
    let mut project = Project::new()
        .file(
            "add/problem.yaml",
            "name: add\nlimits:\n  time_limit: 2\n  memory: 256\n",
        )
        .file("add/data/sample/1.in", "2 3\n")
        .file("add/data/sample/1.ans", "5\n")
        .file("add/data/secret/1.in", "40 2\n")
        .file("add/data/secret/1.ans", "42\n");
    for (path, text) in files {
        project = project.file(&format!("add/{path}"), text);
    }
    project
}

const ADD_H: &str = "long long add(long long a, long long b);\n";
const GRADER_CPP: &str = "#include <cstdio>\n#include \"add.h\"\nint main() { long long a, b; if (std::scanf(\"%lld %lld\", &a, &b) != 2) return 1; std::printf(\"%lld\\n\", add(a, b)); }\n";
const ADD_CPP: &str =
    "#include \"add.h\"\nlong long add(long long a, long long b) { return a + b; }\n";

#[test]
fn include_default_and_the_languages_folder_both_go_onto_the_submission() {
    // The header in default/, the grader in cpp/: problemtools copies both.
    let project = add_package(&[
        ("include/default/add.h", ADD_H),
        ("include/cpp/grader.cpp", GRADER_CPP),
        ("submissions/accepted/add.cpp", ADD_CPP),
        (
            "submissions/wrong_answer/sub.cpp",
            "#include \"add.h\"\nlong long add(long long a, long long b) { return a - b; }\n",
        ),
    ]);
    let output = project
        .harness()
        .args(["verify", "add", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let verdicts: BTreeMap<String, String> = results(&output.stdout)
        .into_iter()
        .map(|(name, (verdict, _))| (name, verdict))
        .collect();
    assert_eq!(
        verdicts,
        BTreeMap::from([
            ("accepted/add.cpp".into(), "AC".into()),
            ("wrong_answer/sub.cpp".into(), "WA".into()),
        ]),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

#[test]
fn a_grader_that_does_not_compile_is_the_packages_error_not_a_ce() {
    let project = add_package(&[
        ("include/cpp/add.h", ADD_H),
        // A typo in the package's own grader: no submission can compile.
        (
            "include/cpp/grader.cpp",
            &GRADER_CPP.replace("std::printf", "std::prinft"),
        ),
        ("submissions/accepted/add.cpp", ADD_CPP),
    ]);
    let output = project.harness().args(["verify", "add"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("grader") && stderr.contains("does not compile on its own"),
        "{stderr}"
    );
    // The compiler's message names the package's file, not a scratch folder's.
    assert!(stderr.contains("grader.cpp:"), "{stderr}");
    assert!(!stdout.contains("CE"), "{stdout}");
}

#[test]
fn a_python_graders_main_imports_the_contestants_module() {
    if !on_path("pypy3") && !on_path("python3") {
        common::skipped("a_python_graders_main_imports_the_contestants_module: no Python");
        return;
    }
    let project = add_package(&[
        (
            "include/python3/main.py",
            "import solution\na, b = map(int, input().split())\nprint(solution.add(a, b))\n",
        ),
        (
            "submissions/accepted/solution.py",
            "def add(a, b):\n    return a + b\n",
        ),
        (
            "submissions/wrong_answer/solution.py",
            "def add(a, b):\n    return a * b\n",
        ),
    ]);
    let output = project
        .harness()
        .args(["verify", "add", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let verdicts: BTreeMap<String, String> = results(&output.stdout)
        .into_iter()
        .map(|(name, (verdict, _))| (name, verdict))
        .collect();
    assert_eq!(
        verdicts,
        BTreeMap::from([
            ("accepted/solution.py".into(), "AC".into()),
            ("wrong_answer/solution.py".into(), "WA".into()),
        ]),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}
