//! A package's stored submissions and the verdicts each must get: by folder (`accepted`,
//! `wrong_answer`, `time_limit_exceeded`, `run_time_error`, and 2025-09's `rejected`,
//! `brute_force`, `partially_accepted`), overridden by DOMjudge's `@EXPECTED_RESULTS@:`
//! comment and by 2025-09's `submissions/submissions.yaml`.

use std::path::{Path, PathBuf};

use globset::GlobBuilder;
use serde_norway::Value;

use super::{file_name, sorted_entries, PackageError};
use crate::judge::verify::Expected;
use crate::verdict::Verdict;

/// One stored submission of a package, before its language is known.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageSubmission {
    /// The source file.
    pub path: PathBuf,
    /// `accepted/sol.cpp`, below `submissions/`.
    pub name: String,
    pub expected: Expected,
    /// The score it must get, when one is stated (`@EXPECTED_SCORE@`, submissions.yaml's
    /// `score`).
    pub expected_score: Option<crate::score::ExpectedScore>,
}

pub use crate::judge::verify::Skipped;

const FAILURES: [Verdict; 5] = [
    Verdict::WrongAnswer,
    Verdict::TimeLimitExceeded,
    Verdict::RuntimeError,
    Verdict::MemoryLimitExceeded,
    Verdict::OutputLimitExceeded,
];

/// The verdicts a folder of the format stands for. The format has no MLE or OLE: problemtools
/// and DOMjudge report them as run-time errors, so `run_time_error` takes them.
pub fn expected_of_folder(folder: &str) -> Expected {
    let any = |verdicts: &[Verdict], label: &str| Expected::AnyOf {
        verdicts: verdicts.to_vec(),
        label: label.to_string(),
    };
    match folder {
        "accepted" => Expected::One(Verdict::Accepted),
        "wrong_answer" => Expected::One(Verdict::WrongAnswer),
        "time_limit_exceeded" => Expected::One(Verdict::TimeLimitExceeded),
        "run_time_error" => any(
            &[
                Verdict::RuntimeError,
                Verdict::MemoryLimitExceeded,
                Verdict::OutputLimitExceeded,
            ],
            "RE",
        ),
        "rejected" => any(&FAILURES, "not AC"),
        "partially_accepted" => any(&FAILURES, "partial"),
        "brute_force" => any(
            &[
                Verdict::TimeLimitExceeded,
                Verdict::RuntimeError,
                Verdict::MemoryLimitExceeded,
                Verdict::OutputLimitExceeded,
            ],
            "TLE/RE",
        ),
        other => Expected::Unchecked {
            folder: other.to_string(),
        },
    }
}

/// DOMjudge's result names.
fn domjudge_verdicts(name: &str) -> Option<Vec<Verdict>> {
    Some(match name.trim().to_ascii_uppercase().as_str() {
        "CORRECT" | "ACCEPTED" => vec![Verdict::Accepted],
        "WRONG-ANSWER" | "WRONG_ANSWER" | "NO-OUTPUT" => vec![Verdict::WrongAnswer],
        "TIMELIMIT" | "TIME-LIMIT" => vec![Verdict::TimeLimitExceeded],
        "RUN-ERROR" | "RUN_TIME_ERROR" => vec![Verdict::RuntimeError, Verdict::MemoryLimitExceeded],
        "OUTPUT-LIMIT" => vec![Verdict::OutputLimitExceeded],
        "MEMORY-LIMIT" => vec![Verdict::MemoryLimitExceeded],
        "COMPILER-ERROR" => vec![Verdict::CompileError],
        _ => return None,
    })
}

/// The `@EXPECTED_RESULTS@: A, B` line of a source, if it has one.
pub fn expected_results(source: &Path) -> Option<Expected> {
    let text = std::fs::read(source).ok()?;
    let text = String::from_utf8_lossy(&text);
    let line = text.lines().find(|l| l.contains("@EXPECTED_RESULTS@:"))?;
    let list = line.split("@EXPECTED_RESULTS@:").nth(1)?;
    let names: Vec<&str> = list
        .split(',')
        .map(|n| n.trim().trim_end_matches("*/").trim())
        .filter(|n| !n.is_empty())
        .collect();
    let mut verdicts = Vec::new();
    for name in &names {
        for verdict in domjudge_verdicts(name)? {
            if !verdicts.contains(&verdict) {
                verdicts.push(verdict);
            }
        }
    }
    Some(match verdicts.as_slice() {
        [one] => Expected::One(*one),
        _ => Expected::AnyOf {
            verdicts,
            label: names.join(","),
        },
    })
}

/// 2025-09's verdict codes.
fn code_verdicts(code: &str) -> Vec<Verdict> {
    match code.trim() {
        "AC" => vec![Verdict::Accepted],
        "WA" => vec![Verdict::WrongAnswer],
        "TLE" => vec![Verdict::TimeLimitExceeded],
        "RTE" => vec![
            Verdict::RuntimeError,
            Verdict::MemoryLimitExceeded,
            Verdict::OutputLimitExceeded,
        ],
        _ => Vec::new(),
    }
}

/// One rule of submissions.yaml: the verdicts the whole submission may end with.
struct Rule {
    glob: globset::GlobMatcher,
    verdicts: Vec<Verdict>,
    label: String,
}

impl Rule {
    /// A key names a submission or a folder holding it: `mixed` covers `mixed/a.c`, as
    /// BAPCtools and the 2025-09 spec read keys (whole path components from the start).
    fn matches(&self, name: &str) -> bool {
        let path = Path::new(name);
        path.ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| self.glob.is_match(a))
    }
}

fn rules(root: &Path) -> Result<Vec<Rule>, PackageError> {
    let path = root.join("submissions/submissions.yaml");
    super::check_inside(root, &path)?;
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let yaml = super::kattis::read_yaml(&path)?;
    let Some(map) = yaml.as_mapping() else {
        return Ok(Vec::new());
    };
    let mut rules = Vec::new();
    for (key, value) in map {
        let Some(pattern) = key.as_str() else {
            continue;
        };
        // The overall verdict is the first failing case's: it must be one the submission is
        // required to get, or, with no requirement, one it is permitted.
        let list = |name: &str| -> Option<Vec<String>> {
            match value.get(name)? {
                Value::Sequence(items) => Some(
                    items
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                ),
                Value::String(one) => Some(vec![one.clone()]),
                _ => None,
            }
        };
        let Some(codes) = list("required").or_else(|| list("permitted")) else {
            continue;
        };
        // As the format's tools read a key: `*` stays within one folder, `{a,b}` is either.
        let glob = |pattern: &str| GlobBuilder::new(pattern).literal_separator(true).build();
        let glob = glob(pattern.trim_end_matches('/'))
            .or_else(|_| glob(&globset::escape(pattern)))
            .map_err(|e| PackageError::Invalid {
                path: path.clone(),
                message: format!("`{pattern}` is not a glob: {e}"),
            })?
            .compile_matcher();
        rules.push(Rule {
            glob,
            verdicts: codes.iter().flat_map(|c| code_verdicts(c)).collect(),
            label: codes.join("/"),
        });
    }
    Ok(rules)
}

/// The stored submissions of a Kattis package, and the folders that cannot be judged.
pub fn kattis(root: &Path) -> Result<(Vec<PackageSubmission>, Vec<Skipped>), PackageError> {
    let folder = root.join("submissions");
    super::check_inside(root, &folder)?;
    let mut submissions = Vec::new();
    let mut skipped = Vec::new();
    if !folder.is_dir() {
        return Ok((submissions, skipped));
    }
    let rules = rules(root)?;
    for verdict_dir in sorted_entries(&folder)? {
        if !verdict_dir.is_dir() {
            continue;
        }
        super::check_inside(root, &verdict_dir)?;
        let verdict_name = file_name(&verdict_dir);
        for source in sorted_entries(&verdict_dir)? {
            super::check_inside(root, &source)?;
            let name = format!("{verdict_name}/{}", file_name(&source));
            if source.is_dir() {
                skipped.push(Skipped {
                    name: format!("{name}/"),
                    reason: "a submission of several files (a folder) is not judged yet"
                        .to_string(),
                });
                continue;
            }
            // A FIFO or a device would hold the reading of its first line for ever.
            if !source.is_file() {
                skipped.push(Skipped {
                    name,
                    reason: "not a regular file (a FIFO or a device)".to_string(),
                });
                continue;
            }
            let lower = file_name(&source).to_ascii_lowercase();
            if lower.starts_with("readme") || lower.ends_with(".md") || lower.ends_with(".txt") {
                continue;
            }
            let mut expected = expected_of_folder(&verdict_name);
            if let Some(declared) = expected_results(&source) {
                expected = declared;
            }
            let matching: Vec<&Rule> = rules.iter().filter(|r| r.matches(&name)).collect();
            if !matching.is_empty() {
                let mut verdicts: Vec<Verdict> = matching[0].verdicts.clone();
                for rule in &matching[1..] {
                    verdicts.retain(|v| rule.verdicts.contains(v));
                }
                let label = matching
                    .iter()
                    .map(|r| r.label.as_str())
                    .collect::<Vec<_>>()
                    .join("&");
                expected = match verdicts.as_slice() {
                    [one] => Expected::One(*one),
                    _ => Expected::AnyOf { verdicts, label },
                };
            }
            let expected_score =
                crate::judge::verify::stated_score(&[], "", &source).map_err(|e| {
                    PackageError::Invalid {
                        path: source.clone(),
                        message: e.to_string(),
                    }
                })?;
            submissions.push(PackageSubmission {
                path: source,
                name,
                expected,
                expected_score,
            });
        }
    }
    Ok((submissions, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_stand_for_verdicts() {
        let allows = |folder: &str, verdict: Verdict| expected_of_folder(folder).allows(verdict);
        assert!(allows("accepted", Verdict::Accepted));
        assert!(!allows("accepted", Verdict::TimeLimitExceeded));
        assert!(allows("run_time_error", Verdict::MemoryLimitExceeded));
        assert!(allows("run_time_error", Verdict::OutputLimitExceeded));
        assert!(!allows("run_time_error", Verdict::WrongAnswer));
        assert!(allows("rejected", Verdict::WrongAnswer));
        assert!(!allows("rejected", Verdict::Accepted));
        assert!(allows("brute_force", Verdict::TimeLimitExceeded));
        assert!(!allows("brute_force", Verdict::WrongAnswer));
        assert!(!allows("brute_force", Verdict::Accepted));
        assert!(!expected_of_folder("slow_accepted").is_checked());
    }

    #[test]
    fn expected_results_comments() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.c");
        std::fs::write(
            &file,
            "/* @EXPECTED_RESULTS@: TIMELIMIT, WRONG-ANSWER */\nint main(){}\n",
        )
        .unwrap();
        let expected = expected_results(&file).unwrap();
        assert!(expected.allows(Verdict::TimeLimitExceeded));
        assert!(expected.allows(Verdict::WrongAnswer));
        assert!(!expected.allows(Verdict::Accepted));
        assert_eq!(expected.as_str(), "TIMELIMIT,WRONG-ANSWER");
        std::fs::write(&file, "# @EXPECTED_RESULTS@: CORRECT\n").unwrap();
        assert_eq!(
            expected_results(&file),
            Some(Expected::One(Verdict::Accepted))
        );
        std::fs::write(&file, "print(1)\n").unwrap();
        assert_eq!(expected_results(&file), None);
    }

    #[test]
    fn submissions_yaml_overrides_folders() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for file in [
            "accepted/a.py",
            "other/slow.py",
            "wrong_answer/w.py",
            "x.disabled/z.py",
            "accepted/b.py.disabled",
        ] {
            let path = root.join("submissions").join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "print(1)\n").unwrap();
        }
        std::fs::write(
            root.join("submissions/submissions.yaml"),
            "other/*:\n  permitted: [AC, TLE]\n  required: [TLE]\nwrong_answer:\n  permitted: [AC, WA, TLE]\n\"*.py\":\n  permitted: [AC]\n",
        )
        .unwrap();
        let (found, skipped) = kattis(root).unwrap();
        let names: Vec<(&str, String)> = found
            .iter()
            .map(|s| (s.name.as_str(), s.expected.as_str().to_string()))
            .collect();
        assert_eq!(
            names,
            [
                ("accepted/a.py", "AC".to_string()),
                ("other/slow.py", "TLE".to_string()),
                // A folder key covers what is in it; `*.py` does not reach into folders.
                ("wrong_answer/w.py", "AC/WA/TLE".to_string())
            ]
        );
        assert!(skipped.is_empty());
    }
}
