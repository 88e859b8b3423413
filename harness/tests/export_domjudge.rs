//! `harness export`'s zips read the way DOMjudge 8.3.2 and 9.0.0 import them
//! (webapp/src/Service/ImportProblemService.php at those tags, with SubmissionService.php's
//! `@EXPECTED_RESULTS@` reading; the line numbers below are those files'): the time limit,
//! the default validator's flags, the cases, the output validator, the statement and the
//! expected results of the submissions, for both dialects. And `--contest`'s contest.yaml and
//! problems.yaml as DOMjudge's contest import reads them.
#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use common::project::Project;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    V8_3_2,
    V9_0_0,
}

/// What DOMjudge keeps of an imported problem.
#[derive(Debug, Default)]
struct Imported {
    externalid: String,
    name: String,
    timelimit: f64,
    special_compare_args: String,
    memlimit_kib: Option<u64>,
    outputlimit_kib: Option<u64>,
    /// The output validator's files (their names), and whether it runs with the submission
    /// (an interactor: `combined_run_compare`).
    validator: Option<(Vec<String>, bool)>,
    statement: Option<(String, Vec<u8>)>,
    /// (sample?, name) in rank order.
    testcases: Vec<(bool, String)>,
    /// Submission path → the results it is expected to get.
    expected: BTreeMap<String, Vec<String>>,
    /// The import's messages that are not errors.
    danger: Vec<String>,
}

fn entries(zip: &mut zip::ZipArchive<std::fs::File>) -> Vec<String> {
    zip.file_names().map(|n| n.unwrap().into_owned()).collect()
}

fn get(zip: &mut zip::ZipArchive<std::fs::File>, name: &str) -> Option<Vec<u8>> {
    let mut file = zip.by_name(name).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).unwrap();
    Some(bytes)
}

/// SubmissionService::normalizeExpectedResult (8.3.2 lines 718-725).
fn normalize(result: &str) -> String {
    let result = result.trim().to_uppercase();
    match result.as_str() {
        "ACCEPTED" => "CORRECT",
        "WRONG_ANSWER" => "WRONG-ANSWER",
        "TIME_LIMIT_EXCEEDED" => "TIMELIMIT",
        "RUN_TIME_ERROR" => "RUN-ERROR",
        "COMPILER_ERROR" => "COMPILER-ERROR",
        "NO_OUTPUT" => "NO-OUTPUT",
        "OUTPUT_LIMIT" => "OUTPUT-LIMIT",
        other => other,
    }
    .to_string()
}

/// SubmissionService::getExpectedResults (8.3.2 lines 673-713): the list after the one
/// `@EXPECTED_RESULTS@: ` (found case-insensitively), to the end of its line.
fn expected_results(source: &str) -> Option<Vec<String>> {
    let lower = source.to_lowercase();
    let pattern = "@expected_results@: ";
    let at = lower.find(pattern)?;
    assert!(
        !lower[at + 1..].contains(pattern),
        "two lists: DOMjudge reads none"
    );
    let rest = &source[at + pattern.len()..];
    let line = rest.split('\n').next().unwrap_or_default();
    Some(
        line.trim()
            .to_uppercase()
            .split(',')
            .map(normalize)
            .collect(),
    )
}

/// ImportProblemService::importZippedProblem, the parts that decide how a problem is judged.
fn import(zip_path: &Path, version: Version) -> Result<Imported, String> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(zip_path).unwrap()).unwrap();
    let names = entries(&mut zip);
    let mut imported = Imported::default();
    // Lines 69-87: domjudge-problem.ini and/or problem.yaml at the root.
    let ini = get(&mut zip, "domjudge-problem.ini").map(|b| String::from_utf8(b).unwrap());
    let yaml = get(&mut zip, "problem.yaml").map(|b| String::from_utf8(b).unwrap());
    if ini.is_none() && yaml.is_none() {
        return Err("ZIP file contains neither domjudge-problem.ini nor problem.yaml".into());
    }
    // Lines 89-115: the ini's `timelimit`, else `.timelimit`, trimmed.
    let mut timelimit: Option<f64> = ini.as_deref().and_then(|ini| {
        ini.lines().find_map(|l| {
            let (key, value) = l.split_once('=')?;
            (key.trim() == "timelimit").then(|| value.trim().trim_matches('"').parse().unwrap())
        })
    });
    if timelimit.is_none() {
        if let Some(text) = get(&mut zip, ".timelimit") {
            timelimit = Some(String::from_utf8(text).unwrap().trim().parse().unwrap());
        }
    }
    // Line 119: the external id from the zip's name.
    imported.externalid = zip_path
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    // Lines 78, 157-159: 10 s when neither says.
    imported.timelimit = timelimit.unwrap_or(10.0);
    imported.name = imported.externalid.clone();

    // Lines 264-305 (8.3.2), parseYaml 1013-1096 (9.0.0).
    let mut validation = "default".to_string();
    if let Some(text) = &yaml {
        let data: serde_norway::Value = serde_norway::from_str(text).unwrap();
        match &data["name"] {
            serde_norway::Value::Mapping(names) => {
                // 8.3.2: the first; 9.0.0: English, else the first.
                let first = names.values().next().and_then(|v| v.as_str());
                let english = names
                    .get(serde_norway::Value::from("en"))
                    .and_then(|v| v.as_str());
                let name = match version {
                    Version::V8_3_2 => first,
                    Version::V9_0_0 => english.or(first),
                };
                imported.name = name.unwrap().to_string();
            }
            serde_norway::Value::String(name) => imported.name = name.clone(),
            _ => {}
        }
        if version == Version::V9_0_0 {
            // 9.0.0 lines 1045-1055: `explode(' ', type)`, which throws on a list.
            match &data["type"] {
                serde_norway::Value::Null => {}
                serde_norway::Value::String(types) => {
                    if types.split(' ').any(|t| t == "interactive") {
                        validation = "custom interactive".into();
                    }
                }
                other => return Err(format!("`type` is not a string: {other:?}")),
            }
        }
        if let Some(flags) = data["validator_flags"].as_str() {
            imported.special_compare_args = flags.to_string();
        }
        if let Some(mode) = data["validation"].as_str() {
            let known: &[&str] = match version {
                Version::V8_3_2 => &["custom", "custom interactive"],
                Version::V9_0_0 => &["custom", "custom interactive", "custom multi-pass"],
            };
            if known.contains(&mode) {
                validation = mode.to_string();
            }
        }
        imported.memlimit_kib = data["limits"]["memory"].as_u64().map(|m| m * 1024);
        imported.outputlimit_kib = data["limits"]["output"].as_u64().map(|m| m * 1024);
    }
    // 8.3.2 lines 284-290: a validator only with `validation: custom`; 9.0.0 always looks.
    if version == Version::V9_0_0 || validation != "default" {
        // searchAndAddValidator, 8.3.2 lines 910-937, 9.0.0 907-941.
        let prefixes: &[&str] = match version {
            Version::V8_3_2 => &["output_validators/"],
            Version::V9_0_0 => &["output_validators/", "output_validator"],
        };
        let files: Vec<&String> = names
            .iter()
            .filter(|n| prefixes.iter().any(|p| n.starts_with(p)) && !n.ends_with('/'))
            .collect();
        match files.first() {
            None if validation == "default" => {}
            None => return Err("Custom validator specified but not found.".into()),
            Some(first) => {
                let dir = format!("{}/", &first[..first.rfind('/').unwrap()]);
                if files.iter().any(|f| !f.starts_with(&dir)) {
                    return Err("Found multiple custom output validators.".into());
                }
                imported.validator = Some((
                    files.iter().map(|f| f[dir.len()..].to_string()).collect(),
                    validation == "custom interactive",
                ));
            }
        }
    }
    // Lines 307-322: problem.{pdf,html,txt}, in problem_statement/ first.
    'statement: for dir in ["problem_statement/", ""] {
        for kind in ["pdf", "html", "txt"] {
            if let Some(bytes) = get(&mut zip, &format!("{dir}problem.{kind}")) {
                imported.statement = Some((kind.to_string(), bytes));
                break 'statement;
            }
        }
    }
    // Lines 373-389: sample then secret, each `.in` that has its `.ans`, sorted.
    for kind in ["sample", "secret"] {
        let prefix = format!("data/{kind}/");
        let mut cases: Vec<String> = names
            .iter()
            .filter(|n| n.starts_with(&prefix) && n.ends_with(".in"))
            .filter(|n| names.contains(&format!("{}.ans", &n[..n.len() - 3])))
            .map(|n| n[prefix.len()..n.len() - 3].to_string())
            .collect();
        cases.sort();
        imported
            .testcases
            .extend(cases.into_iter().map(|c| (kind == "sample", c)));
    }
    // Lines 647-745: submissions/<folder>/<file>; the folder's result unless the source's
    // list leaves it out (then the list, with a message); a list with it is cut to it.
    for path in names.iter().filter(|n| n.starts_with("submissions/")) {
        let parts: Vec<&str> = path.split('/').collect();
        if parts.len() != 3 || parts[2].is_empty() {
            continue;
        }
        let folder = normalize(parts[1]);
        let source = String::from_utf8(get(&mut zip, path).unwrap()).unwrap();
        let results = match expected_results(&source) {
            Some(list) if !list.contains(&folder) => {
                imported.danger.push(format!(
                    "Annotated result '{}' does not match directory for {path}",
                    list.join(", ")
                ));
                list
            }
            // None, or a list with the folder's result in it: the folder's alone.
            _ => vec![folder],
        };
        imported.expected.insert(path.clone(), results);
    }
    Ok(imported)
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `harness export ID --for DIALECT --out DIR/SHORT.zip` on the repository's judge.toml.
fn export(project: &Project, config: &Path, id: &str, short: &str, dialect: &str) -> PathBuf {
    let out = project.join(dialect).join(format!("{short}.zip"));
    let output = project
        .harness()
        .args(["export", "--no-measure", id, "--for", dialect, "--out"])
        .arg(&out)
        .arg("--config")
        .arg(config)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let said = String::from_utf8_lossy(&output.stdout);
    let line = if dialect == "domjudge" {
        "(legacy, as DOMjudge 8.3 and 9.0 read it)"
    } else {
        "(2023-07-draft, as problemtools reads it)"
    };
    assert!(said.contains(line), "{said}");
    out
}

#[test]
fn domjudge_reads_the_limit_flags_cases_statement_and_expected_results_of_its_dialect() {
    let dir = Project::new();
    let config = repo().join("judge.toml");
    for (id, short, flags, validator, cases, ole) in [
        // Default-validator flags, 651 cases.
        (
            "king-queens",
            "kingqueens",
            "case_sensitive",
            None,
            651,
            None,
        ),
        // The exporter's own output validator; an OLE submission.
        (
            "queens-boards",
            "queensboards",
            "",
            Some("validate.py"),
            10,
            Some("submissions/run_time_error/endless_printer.cpp"),
        ),
    ] {
        let zip = export(&dir, &config, id, short, "domjudge");
        for version in [Version::V8_3_2, Version::V9_0_0] {
            let imported = import(&zip, version).unwrap();
            let context = format!("{id} {version:?}");
            assert_eq!(imported.externalid, short, "{context}");
            assert_ne!(imported.name, short, "{context}: the title, not the id");
            // judge.toml's limits, not DOMjudge's 10 s default.
            assert_eq!(imported.timelimit, 1.0, "{context}");
            assert!(imported.memlimit_kib.is_some(), "{context}");
            assert_eq!(imported.special_compare_args, flags, "{context}");
            assert_eq!(
                imported.validator.as_ref().map(|(files, interactive)| {
                    assert!(!interactive, "{context}");
                    files.join(" ")
                }),
                validator.map(String::from),
                "{context}"
            );
            assert_eq!(imported.testcases.len(), cases, "{context}");
            assert!(imported.testcases[0].0, "{context}: a sample first");
            let (kind, statement) = imported.statement.as_ref().expect("a statement");
            assert!(kind == "html" || kind == "txt", "{context}: {kind}");
            assert!(!statement.is_empty(), "{context}");
            assert!(
                imported
                    .expected
                    .iter()
                    .any(|(p, r)| p.starts_with("submissions/accepted/") && r == &["CORRECT"]),
                "{context}: {:?}",
                imported.expected
            );
            if let Some(path) = ole {
                assert_eq!(
                    imported.expected[path],
                    ["OUTPUT-LIMIT"],
                    "{context}: DOMjudge expects what it will say"
                );
                assert_eq!(imported.danger.len(), 1, "{context}: {:?}", imported.danger);
            } else {
                assert!(
                    imported.danger.is_empty(),
                    "{context}: {:?}",
                    imported.danger
                );
            }
        }
    }
}

#[test]
fn the_default_dialect_keeps_the_limit_and_says_what_domjudge_loses() {
    let dir = Project::new();
    let config = repo().join("judge.toml");
    let zip = export(
        &dir,
        &config,
        "checker-challenge",
        "checkerchallenge",
        "kattis",
    );
    for version in [Version::V8_3_2, Version::V9_0_0] {
        let imported = import(&zip, version).unwrap();
        // .timelimit: the limit survives.
        assert_eq!(imported.timelimit, 1.0, "{version:?}");
        // The flags do not: the format forbids `validator_flags` (the export warned).
        assert_eq!(imported.special_compare_args, "", "{version:?}");
        assert!(imported.statement.is_some(), "{version:?}");
    }
    // An output validator: 9.0 finds `output_validator/`, 8.3 does not look there.
    let zip = export(&dir, &config, "queens-boards", "queensboards", "kattis");
    assert!(import(&zip, Version::V8_3_2).unwrap().validator.is_none());
    assert_eq!(
        import(&zip, Version::V9_0_0).unwrap().validator,
        Some((vec!["validate.py".to_string()], false))
    );
}

#[test]
fn an_interactive_problem_is_a_run_validator_for_domjudge() {
    let project = common::project::Project::new()
        .file(
            "judge.toml",
            "[problems.guess]\ncases = \"cases/guess\"\ninteractor = \"interactor.py\"\ninteractor-protocol = \"kattis\"\n",
        )
        .file("interactor.py", "import sys\nsys.exit(42)\n")
        .case("guess", "sample-1", "5\n", "5\n")
        .file("solutions/submissions/guess/accepted/a.py", "print(5)\n");
    let config = project.join("judge.toml");
    for (dialect, versions) in [
        ("domjudge", &[Version::V8_3_2, Version::V9_0_0][..]),
        // `type: interactive` as one string: 9.0 splits it on spaces.
        ("kattis", &[Version::V9_0_0][..]),
    ] {
        let zip = export(&project, &config, "guess", "guess", dialect);
        for version in versions {
            let imported = import(&zip, *version).unwrap();
            assert_eq!(
                imported.validator,
                Some((vec!["interactor.py".to_string()], true)),
                "{dialect} {version:?}"
            );
        }
    }
}

#[test]
fn a_contest_is_what_domjudges_contest_import_takes() {
    let dir = Project::new();
    let config = repo().join("judge.toml");
    let out = dir.path().join("contest");
    let output = dir
        .harness()
        .args([
            "export",
            "--no-measure",
            "--contest",
            "--for",
            "domjudge",
            "queens-boards",
            "king-queens",
            "--out",
        ])
        .arg(&out)
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(said.contains("A: exported queens-boards"), "{said}");
    assert!(said.contains("B: exported king-queens"), "{said}");
    // ImportExportService::importContestData (8.3.2 lines 162-186): these are required.
    let contest: serde_norway::Value =
        serde_norway::from_str(&std::fs::read_to_string(out.join("contest.yaml")).unwrap())
            .unwrap();
    for key in ["id", "name", "start_time", "duration"] {
        assert!(!contest[key].is_null(), "contest.yaml has no {key}");
    }
    // importProblemsData (lines 329-365): id, label, name, time_limit.
    let problems: serde_norway::Value =
        serde_norway::from_str(&std::fs::read_to_string(out.join("problems.yaml")).unwrap())
            .unwrap();
    let problems = problems.as_sequence().unwrap();
    let rows: Vec<(String, String, f64)> = problems
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_string(),
                p["label"].as_str().unwrap().to_string(),
                p["time_limit"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("queensboards".to_string(), "A".to_string(), 1.0),
            ("kingqueens".to_string(), "B".to_string(), 1.0)
        ]
    );
    for (id, _, limit) in &rows {
        // The zip the web interface and the API take, named by the id…
        let imported = import(&out.join(format!("{id}.zip")), Version::V9_0_0).unwrap();
        assert_eq!(&imported.externalid, id);
        assert_eq!(imported.timelimit, *limit);
        // …and the folder import-contest zips itself (8.3.2 lines 224-227).
        assert!(out.join(id).join("problem.yaml").is_file());
        assert!(out.join(id).join(".timelimit").is_file());
    }
}
