//! Reports for scripts and CI, on a temporary project: the JSON document and the JUnit file
//! agree with the run, colors follow the terminal and NO_COLOR, parallel runs give the same
//! verdicts, partitions split the cases, and `--failed` reruns only what failed.
#![cfg(unix)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use common::fixture;
use common::project::{write_case, Project};

const FAILED: i32 = 1;
const JUDGE_ERROR: i32 = 3;

/// A project with a verdict of each kind that is cheap to get:
/// - `sum`: right on most cases, one wrong answer, one case with a name XML must escape;
/// - `crash`: exits 3 with a message on stderr (RE);
/// - `broken-checker`: its checker fails (JE);
/// - `spin`: spins until the 300 ms limit (TLE), so the run lasts long enough that a
///   progress bar would have appeared.
fn project() -> Project {
    let project = Project::new();
    let toml = format!(
        r#"[defaults]
build = ["sh", "-c", "echo build-says-this-on-stdout; echo build-says-this-on-stderr >&2"]
time-limit = "1s"

[problems.sum]
solution = "{sum}"

[problems.crash]
solution = "{crash}"

[problems.broken-checker]
solution = "{sum}"
checker = {{ type = "command", command = ["sh", "-c", "echo checker exploded >&2; exit 3"] }}

[problems.spin]
solution = "{spin}"
time-limit = "300ms"
"#,
        sum = fixture("echo-sum").display(),
        crash = fixture("exit-3").display(),
        spin = fixture("spin").display(),
    );
    project.write("judge.toml", &toml);
    for (name, input, answer) in [
        ("sample-1", "1 2\n", "3\n"),
        ("sample-2", "2 2\n", "4\n"),
        ("big", "1000000 2000000\n", "3000000\n"),
        ("wrong", "2 2\n", "5\n"),
        ("odd&<name>\"", "0 0\n", "0\n"),
    ] {
        project.add_case("sum", name, input, Some(answer));
    }
    for n in 1..=4 {
        project.add_case("crash", &format!("c{n}"), "1 2\n", Some("3\n"));
    }
    project.add_case("broken-checker", "only", "1 2\n", Some("3\n"));
    project.add_case("spin", "forever", "1 2\n", Some("3\n"));
    project
}

fn case(root: &Path, problem: &str, name: &str, input: &str, answer: &str) {
    write_case(root, problem, name, input, Some(answer));
}

/// Colors are what some of these tests check: NO_COLOR is not set for them.
fn harness(project: &Project) -> Command {
    let mut command = project.harness();
    command.env_remove("NO_COLOR");
    command
}

/// Runs the harness with `args` and parses stdout as one JSON document: nothing else may
/// be on stdout.
fn json_run(project: &Project, args: &[&str]) -> (Value, i32) {
    let output = harness(project)
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout is not one JSON document ({error}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (json, output.status.code().unwrap())
}

/// `problem/case -> verdict` of a `harness run` JSON document.
fn verdicts(json: &Value) -> BTreeMap<String, String> {
    let mut verdicts = BTreeMap::new();
    for problem in json["problems"].as_array().unwrap() {
        for case in problem["cases"].as_array().unwrap() {
            verdicts.insert(
                format!(
                    "{}/{}",
                    problem["problem"].as_str().unwrap(),
                    case["name"].as_str().unwrap()
                ),
                case["verdict"].as_str().unwrap().to_string(),
            );
        }
    }
    verdicts
}

#[test]
fn json_is_the_only_thing_on_stdout_and_agrees_with_the_cases() {
    let dir = project();
    let output = harness(&dir).args(["--format", "json"]).output().unwrap();
    // The build step's stdout went to stderr: stdout parses as exactly one document.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("build-says-this-on-stdout"), "{stderr}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert_eq!(output.status.code(), Some(JUDGE_ERROR));

    let verdicts = verdicts(&json);
    assert_eq!(verdicts["sum/sample-1"], "AC");
    assert_eq!(verdicts["sum/wrong"], "WA");
    assert_eq!(verdicts["sum/odd&<name>\""], "AC");
    assert_eq!(verdicts["crash/c1"], "RE");
    assert_eq!(verdicts["broken-checker/only"], "JE");
    assert_eq!(verdicts["spin/forever"], "TLE");
    assert_eq!(json["case_count"], 11);
    assert_eq!(json["counts"]["AC"], 4);
    assert_eq!(json["counts"]["RE"], 4);
    assert_eq!(json["jobs"], 1);
    assert_eq!(json["partition"], Value::Null);
    let spin = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["problem"] == "spin")
        .unwrap();
    assert_eq!(spin["limits"]["time_ms"], 300);
    for field in [
        "time_ms",
        "wall_ms",
        "memory_kib",
        "reason",
        "time_sensitive",
    ] {
        assert!(spin["cases"][0].get(field).is_some(), "no `{field}`");
    }
}

#[test]
fn junit_counts_match_the_run() {
    let dir = project();
    let junit = dir.path().join("reports/junit.xml");
    let (json, _) = json_run(&dir, &["--junit", junit.to_str().unwrap(), "-j", "2"]);
    let text = std::fs::read_to_string(&junit).unwrap();
    let xml = roxmltree::Document::parse(&text).expect("well-formed XML");
    let root = xml.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");

    let counts = &json["counts"];
    let count = |code: &str| counts[code].as_u64().unwrap_or(0);
    let not_ac = json["case_count"].as_u64().unwrap() - count("AC");
    assert_eq!(root.attribute("tests"), Some("11"));
    assert_eq!(
        root.attribute("errors"),
        Some(count("JE").to_string().as_str())
    );
    assert_eq!(
        root.attribute("failures"),
        Some((not_ac - count("JE")).to_string().as_str())
    );

    let verdicts = verdicts(&json);
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 4, "one testsuite per problem");
    let mut seen = 0;
    for suite in suites {
        let problem = suite.attribute("name").unwrap();
        let properties: BTreeMap<&str, &str> = suite
            .descendants()
            .filter(|n| n.has_tag_name("property"))
            .map(|n| (n.attribute("name").unwrap(), n.attribute("value").unwrap()))
            .collect();
        assert_eq!(properties["jobs"], "2");
        assert_eq!(properties["parallel"], "true");
        assert!(properties.contains_key("time-limit-ms"));
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(
            suite.attribute("tests"),
            Some(cases.len().to_string().as_str())
        );
        for case in cases {
            seen += 1;
            assert_eq!(case.attribute("classname"), Some(problem));
            let name = case.attribute("name").unwrap();
            let verdict = &verdicts[&format!("{problem}/{name}")];
            let failure = case
                .children()
                .find(|n| n.has_tag_name("failure") || n.has_tag_name("error"));
            match (verdict.as_str(), failure) {
                ("AC", None) => {}
                ("JE", Some(node)) => {
                    assert!(node.has_tag_name("error"));
                    assert_eq!(node.attribute("type"), Some("JE"));
                }
                (verdict, Some(node)) => {
                    assert!(node.has_tag_name("failure"), "{problem}/{name}");
                    assert_eq!(node.attribute("type"), Some(verdict));
                    assert!(!node.attribute("message").unwrap().is_empty());
                }
                (verdict, None) => panic!("{problem}/{name} is {verdict} but has no failure"),
            }
            let time: f64 = case.attribute("time").unwrap().parse().unwrap();
            assert!(time >= 0.0);
        }
    }
    assert_eq!(seen, 11);
    // The RE's stderr is there for CI to show.
    assert!(text.contains("<system-err>exit-3: giving up on purpose</system-err>"));
}

#[test]
fn no_escape_codes_when_piped_or_with_no_color() {
    let dir = project();
    let has_escape = |bytes: &[u8]| bytes.contains(&0x1b);
    // Piped (assert_cmd captures both streams), NO_COLOR unset.
    let piped = harness(&dir).arg("--no-build").output().unwrap();
    assert!(
        !has_escape(&piped.stdout),
        "{}",
        String::from_utf8_lossy(&piped.stdout)
    );
    assert!(!has_escape(&piped.stderr));
    // No progress bar either: the run lasts long enough for one, but stderr is no terminal.
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );

    let no_color = harness(&dir)
        .args(["--no-build", "-p", "sum"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!has_escape(&no_color.stdout));

    let forced = harness(&dir)
        .args(["--no-build", "-p", "sum", "--color", "always"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&forced.stdout);
    assert!(stdout.contains("\u{1b}["), "{stdout}");
    // A wrong answer is in red, and the plain text is still all there.
    assert!(stdout.contains("\u{1b}[31m"), "{stdout}");

    // An explicit `--color always` outranks NO_COLOR, as with cargo.
    let forced_over_no_color = harness(&dir)
        .args(["--no-build", "-p", "sum", "--color", "always"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(has_escape(&forced_over_no_color.stdout));

    let never = harness(&dir)
        .args(["--no-build", "-p", "sum", "--color", "never"])
        .output()
        .unwrap();
    assert!(!has_escape(&never.stdout));
}

#[test]
fn run_shows_the_end_of_a_crashs_stderr_as_judge_does() {
    let dir = project();
    let output = harness(&dir)
        .args(["run", "--no-build", "-p", "crash"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Each of the first failing cases gets its detail: the input, then what the program said.
    assert!(
        stdout.contains(
            "        │ 1 2\n        stderr (end)\n        │ exit-3: giving up on purpose\n"
        ),
        "{stdout}"
    );
    assert_eq!(stdout.matches("stderr (end)").count(), 4, "{stdout}");
}

#[test]
fn parallel_runs_give_the_same_verdicts() {
    let dir = project();
    let (one, code_one) = json_run(&dir, &["--no-build", "-j", "1"]);
    let (two, code_two) = json_run(&dir, &["--no-build", "-j", "2"]);
    assert_eq!(verdicts(&one), verdicts(&two));
    assert_eq!(code_one, code_two);
    assert_eq!((&one["jobs"], &one["parallel"]), (&1.into(), &false.into()));
    assert_eq!((&two["jobs"], &two["parallel"]), (&2.into(), &true.into()));
}

#[test]
fn partitions_split_the_cases_without_overlap() {
    let dir = project();
    let (whole, _) = json_run(&dir, &["--no-build", "-p", "sum", "-p", "crash"]);
    let whole: BTreeSet<String> = verdicts(&whole).into_keys().collect();
    let mut union = BTreeSet::new();
    for index in 1..=3 {
        let slice = format!("{index}/3");
        let (json, _) = json_run(
            &dir,
            &[
                "--no-build",
                "-p",
                "sum",
                "-p",
                "crash",
                "--partition",
                &slice,
            ],
        );
        assert_eq!(json["partition"], slice.as_str());
        for case in verdicts(&json).into_keys() {
            assert!(union.insert(case.clone()), "{case} is in two slices");
        }
    }
    assert_eq!(union, whole);

    harness(&dir)
        .args(["--no-build", "--partition", "4/3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`4/3` is not a partition"));
}

#[test]
fn failed_reruns_only_what_failed_last_time() {
    let dir = project();
    let store = dir.path().join("target/harness/failed.json");
    harness(&dir)
        .args(["--failed", "-p", "sum"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nothing failed last time"));

    harness(&dir)
        .args(["--no-build", "-p", "sum", "-p", "crash"])
        .assert()
        .code(FAILED);
    assert!(store.is_file(), "kept under target/harness");

    let (json, code) = json_run(&dir, &["--no-build", "--failed"]);
    assert_eq!(code, FAILED);
    let rerun: Vec<String> = verdicts(&json).into_keys().collect();
    assert_eq!(
        rerun,
        ["crash/c1", "crash/c2", "crash/c3", "crash/c4", "sum/wrong"]
    );

    // Fix the wrong answer: the rerun passes for `sum`, and `sum` is forgotten.
    case(dir.path(), "sum", "wrong", "2 2\n", "4\n");
    let (json, _) = json_run(&dir, &["--no-build", "--failed", "-p", "sum"]);
    assert_eq!(json["verdict"], "AC");
    assert_eq!(json["case_count"], 1);
    harness(&dir)
        .args(["--no-build", "--failed", "-p", "sum"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nothing failed last time"));
    // `crash` was not judged by the reruns of `sum`: still remembered.
    let (json, _) = json_run(&dir, &["--no-build", "--failed"]);
    assert_eq!(json["case_count"], 4);
}

/// A stored submission: `solutions/submissions/<problem>/<expected>/<file>`.
fn submission(root: &Path, problem: &str, expected: &str, file: &str, source: &str) {
    let folder = root
        .join("solutions/submissions")
        .join(problem)
        .join(expected);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(file), source).unwrap();
}

#[test]
fn calibrate_suggests_a_limit_and_catches_a_slow_submission_that_passes() {
    let dir = Project::new();
    let root = dir.path();
    let toml = format!(
        r#"[problems.sum]
solution = "{sum}"
reference = "{sum}"
time-limit = "2s"

# No stored submissions, no reference: the solution alone sets the suggestion.
[problems.alone]
solution = "{sum}"

[languages.c]
extensions = ["c"]
compile = ["cc", "-O2", "-o", "{{exe}}", "{{source}}"]
run = ["{{exe}}"]
"#,
        sum = fixture("echo-sum").display()
    );
    std::fs::write(root.join("judge.toml"), toml).unwrap();
    case(root, "sum", "1", "1 2\n", "3\n");
    case(root, "sum", "2", "5 5\n", "10\n");
    case(root, "alone", "1", "2 2\n", "4\n");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let echo_sum = std::fs::read_to_string(fixtures.join("echo-sum.c")).unwrap();
    let spin = std::fs::read_to_string(fixtures.join("spin.c")).unwrap();
    submission(root, "sum", "accepted", "plain.c", &echo_sum);
    submission(root, "sum", "time_limit_exceeded", "spin.c", &spin);
    // Burns 20 ms of CPU, then answers: meant to be too slow, but a 100 ms limit lets it
    // through, which is what calibrate must warn about.
    submission(
        root,
        "sum",
        "time_limit_exceeded",
        "sluggish.c",
        "#include <stdio.h>\n#include <time.h>\nint main(void) {\n  while (clock() < CLOCKS_PER_SEC / 50) {}\n  long long a, b;\n  if (scanf(\"%lld %lld\", &a, &b) != 2) return 1;\n  printf(\"%lld\\n\", a + b);\n  return 0;\n}\n",
    );

    let output = harness(&dir)
        .args(["calibrate", "--repeat", "2", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(FAILED),
        "a warning fails the command"
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    let alone = &json["problems"][0];
    assert_eq!(alone["problem"], "alone");
    assert_eq!(alone["suggested_time_limit_ms"], 100);
    assert_eq!(alone["slowest_program"], "solution");
    let problem = &json["problems"][1];
    assert_eq!(problem["problem"], "sum");
    assert_eq!(problem["time_limit_ms"], 2000);
    assert_eq!(problem["suggested_time_limit_ms"], 100);
    let programs: Vec<&str> = problem["programs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["program"].as_str().unwrap())
        .collect();
    assert_eq!(programs, ["solution", "reference", "accepted/plain.c"]);
    let checks = problem["time_limit_exceeded"].as_array().unwrap();
    let check = |name: &str| {
        checks
            .iter()
            .find(|c| c["program"] == name)
            .unwrap_or_else(|| panic!("no check of {name}: {checks:?}"))
    };
    assert_eq!(check("time_limit_exceeded/spin.c")["verdict"], "TLE");
    assert_eq!(check("time_limit_exceeded/spin.c")["passes"], false);
    assert_eq!(check("time_limit_exceeded/sluggish.c")["passes"], true);
    let warnings = problem["warnings"].to_string();
    assert!(
        warnings.contains("sluggish.c passes within the suggested limit"),
        "{warnings}"
    );

    // The human report prints a suggestion per problem, in judge.toml's words.
    let output = harness(&dir)
        .args(["calibrate", "--repeat", "1"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(FAILED));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.matches("suggest: time-limit = \"100ms\"").count(),
        2,
        "{stdout}"
    );
    assert!(
        stdout.contains("warning: time_limit_exceeded/sluggish.c passes"),
        "{stdout}"
    );
}

/// A project with stored submissions of `sum`, compiled from the fixtures' C sources: a
/// right one, a wrong one stored as wrong, a crashing one stored as accepted (a mismatch).
fn project_with_submissions() -> Project {
    let dir = Project::new();
    let root = dir.path();
    let toml = format!(
        r#"[problems.sum]
solution = "{sum}"

[languages.c]
extensions = ["c"]
compile = ["cc", "-O2", "-o", "{{exe}}", "{{source}}"]
run = ["{{exe}}"]
"#,
        sum = fixture("echo-sum").display()
    );
    std::fs::write(root.join("judge.toml"), toml).unwrap();
    for n in 1..=6 {
        case(
            root,
            "sum",
            &format!("{n:02}"),
            &format!("{n} {n}\n"),
            &format!("{}\n", 2 * n),
        );
    }
    for (folder, fixture_name) in [
        ("accepted", "echo-sum"),
        ("wrong_answer", "wrong-sum"),
        ("accepted", "exit-3"),
    ] {
        let source = std::fs::read_to_string(common::fixture_source(fixture_name)).unwrap();
        submission(root, "sum", folder, &format!("{fixture_name}.c"), &source);
    }
    dir
}

fn junit_file(path: &Path) -> (String, BTreeMap<String, String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&text).expect("well-formed XML");
    let root = document.root_element();
    let attributes = ["tests", "failures", "errors"]
        .into_iter()
        .map(|name| (name.to_string(), root.attribute(name).unwrap().to_string()))
        .collect();
    (text, attributes)
}

#[test]
fn judge_json_and_junit_agree() {
    let dir = project_with_submissions();
    let root = dir.path();
    let source = root.join("solutions/submissions/sum/wrong_answer/wrong-sum.c");
    let junit = root.join("judge.xml");
    let (json, code) = json_run(
        &dir,
        &[
            "judge",
            "sum",
            source.to_str().unwrap(),
            "-j",
            "2",
            "--junit",
            junit.to_str().unwrap(),
            "--all",
        ],
    );
    assert_eq!(code, FAILED);
    assert_eq!(
        (&json["jobs"], &json["parallel"]),
        (&2.into(), &true.into())
    );
    assert_eq!(json["partition"], Value::Null);
    assert!(json["time_sensitive_count"].is_u64());
    let cases = json["cases"].as_array().unwrap();
    let not_ac = cases.iter().filter(|c| c["verdict"] != "AC").count();
    assert!(not_ac > 0);
    let (text, counts) = junit_file(&junit);
    assert_eq!(counts["tests"], cases.len().to_string());
    assert_eq!(counts["failures"], not_ac.to_string());
    assert_eq!(counts["errors"], "0");
    assert!(
        text.contains("<property name=\"verdict\" value=\"WA\"/>"),
        "{text}"
    );

    // Slices of one submission's cases cover them once.
    let mut union = BTreeSet::new();
    for slice in ["1/2", "2/2"] {
        let (json, _) = json_run(
            &dir,
            &[
                "judge",
                "sum",
                source.to_str().unwrap(),
                "--partition",
                slice,
                "--all",
            ],
        );
        assert_eq!(json["partition"], slice);
        for case in json["cases"].as_array().unwrap() {
            assert!(union.insert(case["name"].as_str().unwrap().to_string()));
        }
    }
    assert_eq!(union.len(), 6);
}

#[test]
fn judge_verbose_lists_every_case_and_quiet_only_failures() {
    let dir = project_with_submissions();
    let root = dir.path();
    let source = root.join("solutions/submissions/sum/accepted/exit-3.c");
    let verbose = harness(&dir)
        .args(["judge", "sum", source.to_str().unwrap(), "-v"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&verbose.stdout);
    assert!(
        stdout.contains("stderr | exit-3: giving up on purpose"),
        "{stdout}"
    );
    let right = root.join("solutions/submissions/sum/accepted/echo-sum.c");
    harness(&dir)
        .args(["judge", "sum", right.to_str().unwrap(), "-v"])
        .assert()
        .success()
        .stdout(predicate::str::contains("AC   06"));
    // `-a` says the same as `-v`, and saying both is no error.
    for all in [&["-a"][..], &["--all", "-v"], &["-v", "-a"]] {
        harness(&dir)
            .args(["judge", "sum", right.to_str().unwrap()])
            .args(all)
            .assert()
            .success()
            .stdout(predicate::str::contains("AC   06"));
    }
    harness(&dir)
        .args(["judge", "sum", right.to_str().unwrap(), "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains("AC   06").not())
        .stdout(predicate::str::contains("verdict: AC"));
}

#[test]
fn verify_json_and_junit_agree_and_quiet_shows_only_mismatches() {
    let dir = project_with_submissions();
    let root = dir.path();
    let junit = root.join("target/junit/verify.xml");
    let (json, code) = json_run(&dir, &["verify", "--junit", junit.to_str().unwrap()]);
    assert_eq!(code, FAILED);
    assert_eq!(json["mismatches"], 1);
    assert_eq!(json["partition"], Value::Null);
    assert!(json["parallel"].is_boolean());
    let (text, counts) = junit_file(&junit);
    assert_eq!(counts["tests"], "3", "a test per stored submission");
    assert_eq!(counts["failures"], "1");
    assert!(text.contains("name=\"accepted/exit-3.c\""), "{text}");
    assert!(
        text.contains("message=\"expected AC, got RE on `01`"),
        "{text}"
    );

    let quiet = harness(&dir).args(["verify", "-q"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&quiet.stdout);
    assert!(stdout.contains("sum/accepted/exit-3.c"), "{stdout}");
    assert!(!stdout.contains("sum/accepted/echo-sum.c"), "{stdout}");
    assert!(
        stdout.contains("verify: 1 of 3 submissions MISMATCH"),
        "{stdout}"
    );

    let verbose = harness(&dir)
        .args(["verify", "-v", "-j", "1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&verbose.stdout);
    assert!(
        stdout.contains("AC   06"),
        "every case of the accepted one: {stdout}"
    );

    // Slices split the stored submissions, each in exactly one.
    let mut names = BTreeSet::new();
    for slice in ["1/2", "2/2"] {
        let (json, _) = json_run(&dir, &["verify", "--partition", slice]);
        assert_eq!(json["partition"], slice);
        for entry in json["submissions"].as_array().unwrap() {
            assert!(names.insert(entry["name"].as_str().unwrap().to_string()));
        }
    }
    assert_eq!(names.len(), 3);
}

#[test]
fn calibrate_compiles_a_source_solution_as_run_does() {
    let dir = Project::new();
    let root = dir.path();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(fixtures.join("echo-sum.c"), root.join("sol.c")).unwrap();
    std::fs::write(
        root.join("judge.toml"),
        "[problems.sum]\nsolution = \"sol.c\"\n",
    )
    .unwrap();
    case(root, "sum", "1", "1 2\n", "3\n");

    let output = harness(&dir)
        .args(["calibrate", "--repeat", "1", "--format", "json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let problem = &json["problems"][0];
    assert_eq!(problem["programs"][0]["program"], "solution", "{problem}");
    assert_eq!(problem["suggested_time_limit_ms"], 100, "{problem}");
    assert_eq!(output.status.code(), Some(0), "{problem}");
}

/// `calibrate --write` changes the problem's `time-limit` value and nothing else (the comment
/// on its line, the other problem's limit, every other byte stay); a second calibration of
/// the same programs agrees, keeps the limit and writes nothing; the noise is reported. The
/// fixture answers in about a millisecond: twice that is far below the 100 ms step.
#[test]
fn calibrate_write_sets_the_limit_in_judge_toml_and_a_second_run_agrees() {
    let toml = format!(
        r#"# Limits to be calibrated.
[defaults]
time-limit = "3s"   # the default

[problems.sum]
solution = "{sum}"
time-limit   =   "2s"   # a guess, for now

[problems.other]
solution = "{sum}"
time-limit = "2s"   # not calibrated
"#,
        sum = fixture("echo-sum").display()
    );
    let project = Project::new()
        .file("judge.toml", &toml)
        .case("sum", "1", "1 2\n", "3\n")
        .case("sum", "2", "5 5\n", "10\n")
        .case("other", "1", "1 2\n", "3\n");
    let calibrate = || {
        let output = project
            .harness()
            .args(["calibrate", "sum", "--write"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert_eq!(output.status.code(), Some(0), "{stdout}");
        stdout
    };
    let first = calibrate();
    assert!(
        first.contains("suggest: time-limit = \"100ms\"")
            && first.contains("wrote time-limit = \"100ms\" for problem `sum` in `judge.toml`"),
        "{first}"
    );
    assert!(first.contains("noise: 3 runs of "), "{first}");
    assert!(first.contains("limits within it: "), "{first}");
    let written = toml.replace(
        "time-limit   =   \"2s\"   # a guess",
        "time-limit   =   \"100ms\"   # a guess",
    );
    assert_ne!(written, toml);
    assert_eq!(project.read("judge.toml"), written);

    let second = calibrate();
    assert!(
        second.contains("keep: time-limit = \"100ms\"")
            && second.contains("`judge.toml` says time-limit = \"100ms\" already; nothing written"),
        "{second}"
    );
    assert_eq!(project.read("judge.toml"), written);

    // As JSON, the report on stdout stays one document, and says how noisy the runs were.
    let output = project
        .harness()
        .args(["calibrate", "sum", "--write", "--format", "json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    let problem = &json["problems"][0];
    assert_eq!(problem["suggested_time_limit_ms"], 100, "{problem}");
    assert_eq!(problem["keeps_time_limit"], true, "{problem}");
    assert_eq!(
        problem["programs"][0]["slowest_case_runs_ms"]
            .as_array()
            .map(Vec::len),
        Some(3),
        "{problem}"
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("nothing written"));
    assert_eq!(project.read("judge.toml"), written);
}

/// judge.toml's build command shows what it prints as it runs, between a line saying it starts
/// and, for one that takes a while, a line saying how long it took: a log with no terminal (CI)
/// shows where the minutes went, never a silent build.
#[test]
fn a_build_says_when_it_starts_and_how_long_it_took() {
    let project = Project::new()
        .file(
            "judge.toml",
            &format!(
                "[defaults]\nbuild = [\"sh\", \"-c\", \"echo compiling-a-step >&2; sleep 1.5\"]\n[problems.sum]\nsolution = \"{}\"\n",
                fixture("echo-sum").display()
            ),
        )
        .case("sum", "1", "1 2\n", "3\n");
    let output = project.harness().output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let at = |text: &str| {
        stderr
            .find(text)
            .unwrap_or_else(|| panic!("no `{text}` in: {stderr}"))
    };
    assert!(at("building: sh -c") < at("compiling-a-step"), "{stderr}");
    assert!(at("compiling-a-step") < at("built in "), "{stderr}");
}
