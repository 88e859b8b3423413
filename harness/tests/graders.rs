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

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The shipped judge.toml's `checker-challenge-fn` table, with its cases, graders and stored
/// submissions, in a temporary project.
fn shipped_checker_challenge_fn() -> Project {
    let toml = std::fs::read_to_string(repo().join("judge.toml")).unwrap();
    let start = toml
        .find("[problems.checker-challenge-fn]")
        .expect("judge.toml ships checker-challenge-fn");
    let end = toml[start + 1..]
        .find("\n[")
        .map_or(toml.len(), |at| start + 1 + at);
    Project::new()
        .file("judge.toml", &toml[start..end])
        .tree(
            "cases/checker-challenge",
            &repo().join("cases/checker-challenge"),
        )
        .tree(
            "solutions/graders/checker-challenge-fn",
            &repo().join("solutions/graders/checker-challenge-fn"),
        )
        .tree(
            "solutions/submissions/checker-challenge-fn",
            &repo().join("solutions/submissions/checker-challenge-fn"),
        )
}

/// Its submissions are functions: without the graders compiled with them each is CE (C++, no
/// `main`) or does nothing (Python, a module that only defines `placements`).
#[test]
fn the_shipped_checker_challenge_fn_verifies_its_submissions_through_its_graders() {
    let project = shipped_checker_challenge_fn();
    let output = project
        .harness()
        .args([
            "verify",
            "checker-challenge-fn",
            "-j",
            "2",
            "--format",
            "json",
        ])
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
            ("accepted/bitmask.cpp".into(), "AC".into()),
            ("accepted/checker_challenge.py".into(), "AC".into()),
            ("wrong_answer/one_diagonal.cpp".into(), "WA".into()),
        ]),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

/// `add(a, b)` as a judge.toml problem: a C++ grader with its header, and a Python one.
fn add_project(grader_cpp: &str) -> Project {
    Project::new()
        .file(
            "judge.toml",
            r#"[problems.add]
time-limit = "2s"
grader = { cpp = "graders/grader.cpp", py = "graders/grader.py" }
grader-files = ["graders/add.h"]
"#,
        )
        .file("graders/add.h", ADD_H)
        .file("graders/grader.cpp", grader_cpp)
        .file(
            "graders/grader.py",
            "import solution\na, b = map(int, input().split())\nprint(solution.add(a, b))\n",
        )
        .case("add", "sample-1", "2 3\n", "5\n")
        .case("add", "02", "40 2\n", "42\n")
        .file("solutions/submissions/add/accepted/add.cpp", ADD_CPP)
        .file(
            "solutions/submissions/add/accepted/solution.py",
            "def add(a, b):\n    return a + b\n",
        )
        .file(
            "solutions/submissions/add/wrong_answer/sub.cpp",
            "#include \"add.h\"\nlong long add(long long a, long long b) { return a - b; }\n",
        )
}

#[test]
fn a_judge_toml_grader_links_with_the_contestants_file_in_judge() {
    let project = add_project(GRADER_CPP);
    project
        .args(["judge", "add", "solutions/submissions/add/accepted/add.cpp"])
        .status(0)
        .run();
    project
        .args([
            "judge",
            "add",
            "solutions/submissions/add/accepted/solution.py",
        ])
        .status(0)
        .run();
    // The contestant's own mistake beside a good grader is still the contestant's CE.
    project.write(
        "broken.cpp",
        "#include \"add.h\"\nlong long add(long long a, long long b) { return a +; }\n",
    );
    let output = project
        .harness()
        .args(["judge", "add", "broken.cpp"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("CE"), "{stdout}");
}

#[test]
fn a_judge_toml_grader_that_does_not_compile_is_the_problems_error_not_a_ce() {
    let project = add_project(&GRADER_CPP.replace("std::printf", "std::prinft"));
    let output = project
        .harness()
        .args(["judge", "add", "solutions/submissions/add/accepted/add.cpp"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("graders/grader.cpp") && stderr.contains("does not compile on its own"),
        "{stderr}"
    );
    assert!(stderr.contains("prinft"), "{stderr}");
    assert!(!stdout.contains("CE"), "{stdout}");
}

#[test]
fn grader_keys_name_a_language_and_a_file_that_is_there() {
    for (table, says) in [
        (
            "[problems.add]\ngrader = { cobol = \"graders/grader.cpp\" }\n",
            "judge.toml:2:",
        ),
        (
            "[problems.add]\ngrader = { cpp = \"graders/missing.cpp\" }\n",
            "`graders/missing.cpp` is not a file",
        ),
        (
            "[problems.add]\ngrader-files = [\"graders/add.h\", \"other/add.h\"]\n",
            "two grader files are named `add.h`",
        ),
        (
            "[problems.add]\noutput-only = true\ngrader = { cpp = \"graders/grader.cpp\" }\n",
            "is output-only, so `grader` means nothing",
        ),
    ] {
        let project = add_project(GRADER_CPP)
            .file("judge.toml", table)
            .file("other/add.h", ADD_H);
        let output = project
            .harness()
            .args(["judge", "add", "solutions/submissions/add/accepted/add.cpp"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{table}\n{stderr}");
        assert!(stderr.contains(says), "{table}\n{stderr}");
    }
}

/// The export carries the graders as `include/` (the C++ one by its name, the Python one as
/// the `main.py` problemtools runs), the harness reads it back with the same verdicts, and
/// problemtools' verifyproblem, where installed, accepts it.
#[test]
fn export_writes_the_graders_as_include_and_reads_back_with_the_same_verdicts() {
    let project = add_project(GRADER_CPP);
    project
        .args(["export", "add", "--out", "out/add"])
        .status(0)
        .run();
    assert_eq!(project.read("out/add/include/cpp/grader.cpp"), GRADER_CPP);
    assert_eq!(project.read("out/add/include/default/add.h"), ADD_H);
    assert!(project
        .read("out/add/include/python3/main.py")
        .starts_with("import solution"));
    let output = project
        .harness()
        .args(["verify", "out/add", "--format", "json"])
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
            ("accepted/solution.py".into(), "AC".into()),
            ("wrong_answer/sub.cpp".into(), "WA".into()),
        ]),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(0), "{stderr}");

    if !(on_path("verifyproblem") && on_path("pypy3")) {
        assert!(
            std::env::var_os("CI").is_none(),
            "verifyproblem or pypy3 is not installed: CI runs .ci/install-tools, which installs them"
        );
        common::skipped(
            "export_writes_the_graders_as_include…: verifyproblem or pypy3 is not installed",
        );
        return;
    }
    // problemtools runs PyPy under an address-space limit it cannot start in (.ci/verify-export
    // says why): the judge host's configuration lifts it.
    project.write(
        "config/problemtools/languages.yaml",
        "python3:\n    run: \"/bin/sh -c 'ulimit -v $(( ({memlim} + 2048) * 1024 )) && exec pypy3 \\\"$0\\\" \\\"$@\\\"' \\\"{mainfile}\\\"\"\n",
    );
    let output = std::process::Command::new("verifyproblem")
        .args(["-p", "submissions", "--"])
        .arg(project.join("out/add"))
        .env("XDG_CONFIG_HOME", project.join("config"))
        .current_dir(project.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{text}");
    for (file, verdict) in [
        ("accepted/add.cpp", "OK: AC"),
        ("accepted/solution.py", "OK: AC"),
        ("wrong_answer/sub.cpp", "OK: WA"),
    ] {
        assert!(
            text.lines()
                .any(|line| line.contains(file) && line.contains(verdict)),
            "{file}: {text}"
        );
    }
    assert!(text.contains("0 errors"), "{text}");
}

/// A Luogu-style interaction library (`tests/fixtures/luogu-guess`, the book's example): a
/// header-only `interaction.h` in `grader-files`, no grader with `main`. The contestant's
/// program has `main` and calls the library's functions; the library reads the case's input
/// and prints what the checker compares.
#[test]
fn a_header_only_interaction_library_is_compiled_into_the_program() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/luogu-guess");
    let project = Project::new().tree("guess", &fixture);
    let folder = project.path().join("guess");
    project
        .args(["judge", "guess", "solutions/binary.cpp"])
        .current_dir(&folder)
        .status(0)
        .stdout_contains("verdict: AC")
        .run();
    // The library counts the questions: 777777 of them are too many.
    project
        .args(["judge", "guess", "solutions/linear.cpp", "--all"])
        .current_dir(&folder)
        .status(1)
        .stdout_contains("too many questions: 777777")
        .stdout_contains("2 AC, 2 WA")
        .run();
    // The same library as a header and its implementation: both in `grader-files`, the
    // `.cpp` compiled with the submission.
    std::fs::write(
        folder.join("interaction.h"),
        "#pragma once\nint guess(long long x);\nvoid answer(long long x);\n",
    )
    .unwrap();
    std::fs::write(folder.join("interaction.cpp"), INTERACTION_CPP).unwrap();
    let toml = std::fs::read_to_string(folder.join("judge.toml")).unwrap();
    std::fs::write(
        folder.join("judge.toml"),
        toml.replace(
            r#"grader-files = ["interaction.h"]"#,
            r#"grader-files = ["interaction.h", "interaction.cpp"]"#,
        ),
    )
    .unwrap();
    project
        .args(["judge", "guess", "solutions/binary.cpp"])
        .current_dir(&folder)
        .status(0)
        .run();
    project
        .args(["judge", "guess", "solutions/linear.cpp", "--all"])
        .current_dir(&folder)
        .status(1)
        .stdout_contains("2 AC, 2 WA")
        .run();
}

/// `interaction.h`'s functions in a file of their own.
const INTERACTION_CPP: &str = r#"#include "interaction.h"
#include <cstdio>
#include <cstdlib>
static long long hidden = -1;
static int questions = 0;
static void load() { if (hidden < 0 && std::scanf("%lld", &hidden) != 1) std::exit(0); }
int guess(long long x) { load(); ++questions; return x == hidden ? 0 : (x > hidden ? -1 : 1); }
void answer(long long x) { load(); std::puts(x == hidden && questions <= 20 ? "OK" : "NO"); std::exit(0); }
"#;

/// `add(a, b)` as Polygon writes a function-signature problem: `files/grader.cpp` (with
/// `main`) and `files/add.h` are resources compiled with the solution (`<stage
/// name="compile"/>`, `<asset name="solution"/>`); `files/olymp.sty` is a resource that is
/// not. `resources` replaces the `<resources>` block.
fn polygon_add(root: &Path, resources: Option<&str>) -> std::path::PathBuf {
    let package = root.join("padd");
    let write = |relative: &str, text: &str| {
        let path = package.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let compiled = |path: &str, kind: &str| {
        format!(
            "            <file path=\"{path}\" type=\"{kind}\">\n                <stages><stage name=\"compile\"/></stages>\n                <assets><asset name=\"solution\"/></assets>\n            </file>\n"
        )
    };
    let own = format!(
        "{}{}            <file path=\"files/olymp.sty\"/>\n",
        compiled("files/grader.cpp", "cpp.g++17"),
        compiled("files/add.h", "h.g++"),
    );
    write(
        "problem.xml",
        &format!(
            r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="3" short-name="padd">
    <names><name language="english" value="Add"/></names>
    <judging input-file="" output-file="">
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
{}        </resources>
    </files>
    <assets>
        <solutions>
            <solution tag="main"><source path="solutions/add.cpp" type="cpp.g++17"/></solution>
            <solution tag="wrong-answer"><source path="solutions/sub.cpp" type="cpp.g++17"/></solution>
        </solutions>
    </assets>
</problem>
"#,
            resources.unwrap_or(&own)
        ),
    );
    write("files/grader.cpp", GRADER_CPP);
    write("files/add.h", ADD_H);
    write("files/olymp.sty", "% not compiled\n");
    write("tests/01", "2 3\n");
    write("tests/01.a", "5\n");
    write("tests/02", "40 2\n");
    write("tests/02.a", "42\n");
    write("solutions/add.cpp", ADD_CPP);
    write(
        "solutions/sub.cpp",
        "#include \"add.h\"\nlong long add(long long a, long long b) { return a - b; }\n",
    );
    package
}

#[test]
fn a_polygon_packages_compile_resources_are_built_with_the_solution() {
    let project = Project::new();
    polygon_add(project.path(), None);
    project
        .args(["verify", "padd"])
        .status(0)
        .stdout_contains("all 2 submissions got their expected verdict")
        .run();
    project
        .args(["judge", "padd", "padd/solutions/add.cpp"])
        .status(0)
        .stdout_contains("verdict: AC")
        .run();
    // Without the resources, the solution has no `main`: what every submission got before.
    let package = polygon_add(project.path(), Some(""));
    project
        .args(["judge", "padd", "padd/solutions/add.cpp"])
        .status(1)
        .stdout_contains("CE")
        .run();
    // A resource the package does not hold is the package's error, naming problem.xml.
    std::fs::remove_file(package.join("files/add.h")).unwrap();
    polygon_add(project.path(), None);
    std::fs::remove_file(package.join("files/add.h")).unwrap();
    project
        .args(["verify", "padd"])
        .status(2)
        .stderr_contains("problem.xml")
        .stderr_contains(
            "the resource `files/add.h`, compiled with the solution, is not in the package",
        )
        .run();
}
