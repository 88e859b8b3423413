//! `harness export` on the repository's own problems: the package it writes judges every
//! stored submission as judge.toml does (a round trip), carries the input validator's source
//! and validates with it, is named by a short name problemtools accepts, and its zip has
//! problem.yaml at the root, as DOMjudge wants.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use predicates::prelude::PredicateBooleanExt;
use serde_json::Value;

use common::project::Project;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// What `verify --format json` says of each submission, by file name: verdict, score, the
/// verdict of its first failing case (`None`: none failed), and whether it met its
/// expectation.
type Results = BTreeMap<String, (String, Option<f64>, Option<String>, bool)>;

fn results(output: &[u8]) -> Results {
    let document: Value = serde_json::from_slice(output)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(output)));
    document["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let name = s["name"].as_str().unwrap();
            let file = name.rsplit('/').next().unwrap().to_string();
            let first_failure = s["cases"].as_array().and_then(|cases| {
                cases
                    .iter()
                    .map(|c| c["verdict"].as_str().unwrap_or("?"))
                    .find(|v| *v != "AC")
                    .map(str::to_string)
            });
            (
                file,
                (
                    s["verdict"].as_str().unwrap().to_string(),
                    s["score"].as_f64(),
                    first_failure,
                    s["ok"].as_bool().unwrap(),
                ),
            )
        })
        .collect()
}

/// The submissions that did not meet their expectation, as `verify --format json` says them.
fn mismatches(output: &[u8]) -> String {
    results(output)
        .into_iter()
        .filter(|(_, (.., ok))| !ok)
        .map(|(file, (verdict, score, ..))| format!("\n  {file}: {verdict} {score:?}"))
        .collect()
}

/// Verdicts by submission file name.
fn verdicts(output: &[u8]) -> BTreeMap<String, String> {
    results(output)
        .into_iter()
        .map(|(file, (verdict, ..))| (file, verdict))
        .collect()
}

/// The problems of the repository's judge.toml, in its order.
fn shipped_problems() -> Vec<String> {
    let toml = std::fs::read_to_string(repo().join("judge.toml")).unwrap();
    toml.lines()
        .filter_map(|line| line.strip_prefix("[problems.")?.strip_suffix(']'))
        .filter(|id| !id.contains('.'))
        .map(str::to_string)
        .collect()
}

/// `harness ARGS [CONFIG] -j 2 --format json`, which must exit 0 (every submission met its
/// expectation): its JSON. The mismatches are in the JSON, and the message says them (a
/// machine busier than the limits allow says TLE).
fn verified(dir: &Project, args: &[&str], config: Option<&Path>) -> Vec<u8> {
    let mut command = dir.harness();
    command.args(args);
    if let Some(config) = config {
        command.arg(config);
    }
    let output = command
        .args(["-j", "2", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&output.stderr),
        mismatches(&output.stdout)
    );
    output.stdout
}

/// Shipped problems the format cannot hold, and what the refusal says.
const REFUSED: [(&str, &str); 3] = [
    ("queens-any", "is output-only"),
    ("queens-relay", "is a communication task"),
    // Its interactor is a Rust program `build` makes, not a source the package could carry.
    (
        "find-the-queens",
        "not a source file the package could carry",
    ),
];

/// Every shipped problem, exported, reads back as judge.toml verifies it: each stored
/// submission the same score and the same verdict (a scored package grades a submission that
/// scores on some group AC, as problemtools wants of `partially_accepted/`: its first failing
/// case has judge.toml's verdict then), and none a mismatch. Before the export wrote
/// `submissions.yaml`, a scored `wrong_answer/` submission right on some cases read back AC,
/// a mismatch; before it refused communication tasks, queens-relay exported as a batch
/// problem whose empty answers failed every submission.
#[test]
fn every_shipped_problem_exports_and_reads_back_as_judge_toml_verifies_it() {
    let dir = Project::new();
    let config = repo().join("judge.toml");
    let problems = shipped_problems();
    assert!(problems.len() >= 8, "{problems:?}");
    for id in &problems {
        let export = dir
            .harness()
            .args(["export", "--no-measure", id, "--out", id, "--config"])
            .arg(&config)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&export.stderr);
        if let Some((_, why)) = REFUSED.iter().find(|(p, _)| p == id) {
            assert_eq!(export.status.code(), Some(2), "{id}: {stderr}");
            assert!(stderr.contains(why), "{id}: {stderr}");
            continue;
        }
        assert_eq!(export.status.code(), Some(0), "{id}: {stderr}");
        let original = verified(&dir, &["verify", id, "--config"], Some(&config));
        let mut expected = results(&original);
        // The package format has no compile-error folder: those are not exported.
        expected.retain(|_, (verdict, ..)| verdict != "CE");
        assert!(!expected.is_empty(), "{id}");
        let got = results(&verified(&dir, &["verify", id], None));
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>(),
            "{id}"
        );
        for (file, (verdict, score, _, ok)) in &expected {
            let (read_verdict, read_score, read_first_failure, read_ok) = &got[file];
            assert!(*ok && *read_ok, "{id}/{file}");
            assert_eq!(read_score, score, "{id}/{file}: the score");
            let partial = score.is_some_and(|s| s > 0.0) && verdict != "AC";
            let read_as = if partial && read_verdict == "AC" {
                read_first_failure.as_deref()
            } else {
                Some(read_verdict.as_str())
            };
            assert_eq!(read_as, Some(verdict.as_str()), "{id}/{file}: the verdict");
        }
    }
}

#[test]
fn a_zip_has_problem_yaml_at_its_root_and_is_never_overwritten() {
    let dir = Project::new();
    let config = repo().join("judge.toml");
    dir.harness()
        .args([
            "export",
            "--no-measure",
            "checker-challenge",
            "--out",
            "cc.zip",
            "--config",
        ])
        .arg(&config)
        .assert()
        .success();
    let file = std::fs::File::open(dir.path().join("cc.zip")).unwrap();
    let mut archive = zip::ZipArchive::new(file).unwrap();
    let names: Vec<String> = archive
        .file_names()
        .map(|name| name.unwrap().into_owned())
        .collect();
    assert!(names.contains(&"problem.yaml".to_string()), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("data/sample/")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n.starts_with("submissions/accepted/")),
        "{names:?}"
    );
    // The flags as problemtools and DOMjudge read them: testdata.yaml, space-separated;
    // checker-challenge is scored by test points, so its scoring keys follow.
    let mut yaml = String::new();
    std::io::Read::read_to_string(
        &mut archive.by_name("data/testdata.yaml").unwrap(),
        &mut yaml,
    )
    .unwrap();
    assert_eq!(
        yaml,
        "output_validator_flags: \"case_sensitive\"\ninput_validator_flags: \"checker-challenge\"\non_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n"
    );

    dir.harness()
        .args([
            "export",
            "--no-measure",
            "checker-challenge",
            "--out",
            "cc.zip",
            "--config",
        ])
        .arg(&config)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("already exists"));
}

#[test]
fn a_python_validator_is_carried_and_answers_as_kattis_wants() {
    let dir = Project::new();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export-sum/judge.toml");
    dir.harness()
        .args([
            "export",
            "--no-measure",
            "sumtwo",
            "--out",
            "sumtwo",
            "--config",
        ])
        .arg(&config)
        .assert()
        .success();
    assert!(dir
        .path()
        .join("sumtwo/input_validators/validate/validate.py")
        .is_file());
    assert!(dir.path().join("sumtwo/statement/problem.en.md").is_file());
    dir.harness()
        .args(["validate", "sumtwo"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("3 of 3 case checks valid"));
    // A case the project's validator rejects is rejected through the wrapper, with its reason.
    std::fs::write(dir.path().join("sumtwo/data/secret/03.in"), "007 1\n").unwrap();
    std::fs::write(dir.path().join("sumtwo/data/secret/03.ans"), "8\n").unwrap();
    dir.harness()
        .args(["validate", "sumtwo"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
        "INVALID secret/03 by input_validators/validate: exit 43: line 1: expected two integers",
    ));
}

#[test]
fn a_shipped_problem_carries_its_validator_source_under_a_short_name() {
    let dir = Project::new();
    let config = repo().join("judge.toml");
    // No --out: the zip is named by the short name, letters and digits only.
    dir.harness()
        .args(["export", "--no-measure", "queens-boards", "--config"])
        .arg(&config)
        .assert()
        .success()
        .stdout(predicates::str::contains("queensboards.zip"))
        .stdout(predicates::str::contains("an input validator"))
        .stdout(predicates::str::contains("is not a short name").not());
    assert!(dir.path().join("queensboards.zip").is_file());

    // A folder named otherwise is written, with a note saying what to name it.
    dir.harness()
        .args([
            "export",
            "--no-measure",
            "queens-boards",
            "--out",
            "queens-boards",
            "--config",
        ])
        .arg(&config)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "`queens-boards` is not a short name of lowercase letters and digits",
        ))
        .stdout(predicates::str::contains("name it `queensboards`"));
    let package = dir.path().join("queens-boards");
    // The validator judge.toml names, byte for byte, with its problem as the flag.
    let carried = std::fs::read(package.join("input_validators/validate/validate.rs")).unwrap();
    let source = std::fs::read(repo().join("solutions/src/bin/validate.rs")).unwrap();
    assert!(
        carried == source,
        "the exported validator differs from its source"
    );
    let testdata = std::fs::read_to_string(package.join("data/testdata.yaml")).unwrap();
    assert!(
        testdata.contains("input_validator_flags: \"queens-boards\""),
        "{testdata}"
    );
    // The OLE submission sits where problemtools' verdict (a crash at the file-size limit)
    // puts it, with the list DOMjudge and the harness read.
    let printer =
        std::fs::read_to_string(package.join("submissions/run_time_error/endless_printer.cpp"))
            .unwrap();
    assert!(
        printer.starts_with("// @EXPECTED_RESULTS@: OUTPUT-LIMIT\n"),
        "{printer}"
    );

    // The package's validator, built from that source, validates the package's cases.
    dir.harness()
        .args(["validate", "queens-boards"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("10 of 10 case checks valid"));
    std::fs::write(package.join("data/secret/n9.in"), "10\n").unwrap();
    dir.harness()
        .args(["validate", "queens-boards"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "INVALID secret/n9 by input_validators/validate: exit 43: line 1: n = 10 is out of [1, 9]",
        ));
}

#[test]
fn a_validator_the_package_cannot_carry_is_left_out_saying_why() {
    let dir = Project::new();
    let cases = dir.path().join("cases/p");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(cases.join("sample-1.in"), "1\n").unwrap();
    std::fs::write(cases.join("sample-1.ans"), "1\n").unwrap();
    std::fs::write(dir.path().join("val.cpp"), "int main() { return 0; }\n").unwrap();
    // A built program (judge.toml's commands name files that are there).
    std::fs::create_dir_all(dir.path().join("target/release")).unwrap();
    std::fs::write(dir.path().join("target/release/val"), "").unwrap();
    let table = [
        (
            "validator = [\"val.cpp\"]",
            "`val.cpp` answers 0 for a valid input, and only a Python one can be wrapped to answer Kattis' 42 (hint: make it exit 42 and 43, and set validator-protocol = \"kattis\")",
        ),
        (
            "validator = [\"target/release/val\"]\nvalidator-protocol = \"kattis\"",
            "`target/release/val` is a program, not a source file the package could carry",
        ),
        (
            "validator = [\"val.cpp\", \"two words\"]\nvalidator-protocol = \"kattis\"",
            "has the argument `two words`, which `input_validator_flags` (split at spaces) cannot carry",
        ),
    ];
    for (index, (validator, note)) in table.into_iter().enumerate() {
        std::fs::write(
            dir.path().join("judge.toml"),
            format!("[problems.p]\n{validator}\n"),
        )
        .unwrap();
        let out = format!("p{index}");
        dir.harness()
            .args(["export", "--no-measure", "p", "--out", &out])
            .assert()
            .success()
            .stdout(predicates::str::contains(note))
            .stdout(predicates::str::contains("an input validator").not());
        assert!(!dir.path().join(&out).join("input_validators").exists());
    }
}

const GUESS_INTERACTOR: &str = r#"import sys
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
for number in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        open(feedback + "judgemessage.txt", "w").write("ended before guess %d\n" % number)
        sys.exit(43)
    if int(line) == secret:
        print("correct", flush=True)
        sys.exit(42)
    print("higher" if int(line) < secret else "lower", flush=True)
open(feedback + "judgemessage.txt", "w").write("no correct guess in 10\n")
sys.exit(43)
"#;

const BINARY_SEARCH: &str = r#"low, high = 1, 100
while True:
    mid = (low + high) // 2
    print(mid, flush=True)
    reply = input()
    if reply == "correct":
        break
    if reply == "higher":
        low = mid + 1
    else:
        high = mid - 1
"#;

/// An interactive problem whose Kattis-protocol interactor is a Python source.
fn interactive_project(protocol: &str) -> Project {
    let mut project = Project::new()
        .file(
            "judge.toml",
            &format!(
                "[problems.guess]\ncases = \"cases/guess\"\ninteractor = \"interactor.py\"\n\
                 interactor-protocol = \"{protocol}\"\n"
            ),
        )
        .file("interactor.py", GUESS_INTERACTOR);
    for (name, secret) in [("sample-1", "37"), ("2", "1"), ("3", "100")] {
        project = project.case("guess", name, secret, secret);
    }
    project
        .file(
            "solutions/submissions/guess/accepted/binary.py",
            BINARY_SEARCH,
        )
        .file(
            "solutions/submissions/guess/wrong_answer/stubborn.py",
            "while True:\n    print(1, flush=True)\n    input()\n",
        )
}

#[test]
fn an_interactive_problem_exports_its_interactor_as_the_output_validator() {
    let dir = interactive_project("kattis");
    let original = dir
        .harness()
        .args(["verify", "guess", "--format", "json"])
        .output()
        .unwrap();
    let expected = verdicts(&original.stdout);
    assert_eq!(
        expected,
        BTreeMap::from([
            ("binary.py".to_string(), "AC".to_string()),
            ("stubborn.py".to_string(), "WA".to_string())
        ]),
        "{}",
        String::from_utf8_lossy(&original.stderr)
    );

    let out = Project::new();
    let package = out.path().join("guess");
    dir.harness()
        .args(["export", "--no-measure", "guess", "--out"])
        .arg(&package)
        .assert()
        .success();
    let yaml = std::fs::read_to_string(package.join("problem.yaml")).unwrap();
    assert!(yaml.contains("\ntype: interactive\n"), "{yaml}");
    assert_eq!(
        std::fs::read_to_string(package.join("output_validator/interactor.py")).unwrap(),
        GUESS_INTERACTOR
    );
    // The package, read as a package, judges the submissions as judge.toml did.
    let exported = out
        .harness()
        .args(["verify", "guess", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        verdicts(&exported.stdout),
        expected,
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );

    // DOMjudge's dialect: the legacy keys, the interactor where DOMjudge 8.3 looks; read back,
    // the same verdicts.
    let out = Project::new();
    let package = out.path().join("guess");
    dir.harness()
        .args([
            "export",
            "--no-measure",
            "guess",
            "--for",
            "domjudge",
            "--out",
        ])
        .arg(&package)
        .assert()
        .success();
    let yaml = std::fs::read_to_string(package.join("problem.yaml")).unwrap();
    assert!(
        yaml.contains("\nvalidation: custom interactive\n"),
        "{yaml}"
    );
    assert!(!yaml.contains("problem_format_version"), "{yaml}");
    assert_eq!(
        std::fs::read_to_string(package.join("output_validators/interactor/interactor.py"))
            .unwrap(),
        GUESS_INTERACTOR
    );
    let exported = out
        .harness()
        .args(["verify", "guess", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        verdicts(&exported.stdout),
        expected,
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
}

#[test]
fn an_interactor_the_format_cannot_run_is_refused_saying_why() {
    let dir = interactive_project("testlib");
    let out = Project::new();
    dir.harness()
        .args(["export", "--no-measure", "guess", "--out"])
        .arg(out.path().join("guess"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "problem `guess` is interactive, and its interactor speaks testlib's protocol",
        ));
    assert!(!out.path().join("guess").exists(), "nothing half-written");

    // A source that is not there is named as missing (when judge.toml is read), not as a
    // program.
    let dir = interactive_project("kattis");
    std::fs::remove_file(dir.path().join("interactor.py")).unwrap();
    dir.harness()
        .args(["export", "--no-measure", "guess", "--out"])
        .arg(out.path().join("guess"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "problem `guess`: interactor: no file `interactor.py`",
        ));
}

/// A C program that uses `seconds` of CPU time, then prints the sum of two numbers.
fn spinning_sum(seconds: f64) -> String {
    format!(
        "#include <stdio.h>\n#include <time.h>\nint main(void) {{ long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1; volatile unsigned long x = 0; while ((double)clock() / CLOCKS_PER_SEC < {seconds}) x++; printf(\"%ld\\n\", a + b); return 0; }}\n"
    )
}

#[test]
fn the_time_limit_is_checked_against_problemtools_rule() {
    // The accepted submission's CPU time is its own doing (a clock() loop), not the machine's:
    // 0.6 s × 2 > 1 s breaks the rule; 0.2 s × 2 keeps it with room.
    for (seconds, want) in [
        (
            0.6,
            "warning: time limit 1000 ms is tighter than problemtools' rule: slowest accepted",
        ),
        (
            0.2,
            "note: time limit 1000 ms keeps problemtools' rule: slowest accepted",
        ),
    ] {
        let project = Project::new()
            .file(
                "judge.toml",
                "[problems.sum]\ncases = \"cases/sum\"\ntime-limit = \"1s\"\n",
            )
            .case("sum", "sample-1", "1 2\n", "3\n")
            .file(
                "solutions/submissions/sum/accepted/spin.c",
                &spinning_sum(seconds),
            );
        let root = project.path();
        let output = project
            .harness()
            .args(["export", "sum", "--out", "sum"])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{said}");
        assert!(said.contains(want), "{said}");
        assert!(
            said.contains("(accepted/spin.c) × ac_to_time_limit 2 = "),
            "{said}"
        );
        let yaml = std::fs::read_to_string(root.join("sum/problem.yaml")).unwrap();
        if seconds > 0.5 {
            assert!(said.contains("its rule gives 2000 ms"), "{said}");
            // The margin the limit leaves, with 25% to spare: 0.75 s over the slowest (0.6 s
            // and a little), in tenths.
            let said_multiplier = said
                .split("so problem.yaml says `ac_to_time_limit: ")
                .nth(1)
                .and_then(|rest| rest.split('`').next())
                .unwrap_or_else(|| panic!("no multiplier written: {said}"));
            let multiplier: f64 = said_multiplier.parse().unwrap();
            assert!((1.0..=1.2).contains(&multiplier), "{said}");
            assert!(
                yaml.contains(&format!(
                    "  time_limit: 1.0\n  time_multipliers:\n    ac_to_time_limit: {said_multiplier}\n"
                )),
                "{yaml}"
            );
        } else {
            assert!(!yaml.contains("time_multipliers"), "{yaml}");
        }
        // The package is written either way, with judge.toml's limit.
        assert_eq!(
            std::fs::read_to_string(root.join("sum/.timelimit")).unwrap(),
            "1.0\n"
        );
    }
}
