//! A package's stored submissions and the verdicts each must get: by folder (`accepted`,
//! `wrong_answer`, `time_limit_exceeded`, `run_time_error`, and 2025-09's `rejected`,
//! `brute_force`, `partially_accepted`), overridden by DOMjudge's `@EXPECTED_RESULTS@:`
//! comment and by 2025-09's `submissions/submissions.yaml`.

use std::path::{Path, PathBuf};

use super::expectations::TimeLimitUse;
use super::{file_name, sorted_entries, PackageError};
use crate::package::expected::Expected;
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
    /// Whether its times bound the package's time limit from below (or above).
    pub for_time_limit: TimeLimitUse,
    /// The cases whose times bound it from below, when submissions.yaml says so for some
    /// cases only (`tle: {sample: {use_for_time_limit: lower}}`); empty: all.
    pub lower_bound_cases: Vec<super::expectations::Glob>,
}

impl PackageSubmission {
    /// A submission of a CMS, TPS or Polygon package: what it must get and score, its times
    /// bounding the limit from below when it must be accepted (every case's).
    pub(super) fn judged(
        name: String,
        path: PathBuf,
        expected: Expected,
        expected_score: Option<crate::score::ExpectedScore>,
    ) -> PackageSubmission {
        let for_time_limit = if expected == Expected::One(Verdict::Accepted) {
            TimeLimitUse::Lower
        } else {
            TimeLimitUse::Neither
        };
        PackageSubmission {
            path,
            name,
            expected,
            expected_score,
            for_time_limit,
            lower_bound_cases: Vec::new(),
        }
    }
}

pub use crate::package::expected::Skipped;

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

/// The stored submissions of a Kattis package, and the folders that cannot be judged.
/// `cases` are the package's case names (for submissions.yaml's rules over some of them);
/// `spec_2025`: the time limit is bounded as 2025-09 says (by every submission not permitted
/// to time out), else as problemtools does (by the accepted ones).
pub fn kattis(
    root: &Path,
    cases: &[String],
    spec_2025: bool,
) -> Result<(Vec<PackageSubmission>, Vec<Skipped>), PackageError> {
    kattis_in(root, &root.join("submissions"), cases, spec_2025)
}

/// [`kattis`] of a folder laid out as a package's `submissions/` (`<verdict>/<file>`, a
/// `submissions.yaml`), kept below `root`: `verify CONTEST --submissions DIR`'s own.
pub fn kattis_in(
    root: &Path,
    folder: &Path,
    cases: &[String],
    spec_2025: bool,
) -> Result<(Vec<PackageSubmission>, Vec<Skipped>), PackageError> {
    let folder = folder.to_path_buf();
    super::check_inside(root, &folder)?;
    let mut submissions = Vec::new();
    let mut skipped = Vec::new();
    if !folder.is_dir() {
        return Ok((submissions, skipped));
    }
    let entries = super::expectations::read_in(root, &folder)?;
    let cases: std::sync::Arc<[String]> = cases.into();
    for verdict_dir in sorted_entries(&folder)? {
        if !verdict_dir.is_dir() {
            continue;
        }
        super::check_inside(root, &verdict_dir)?;
        let verdict_name = file_name(&verdict_dir);
        for source in sorted_entries(&verdict_dir)? {
            super::check_inside(root, &source)?;
            let name = format!("{verdict_name}/{}", file_name(&source));
            // A folder is a submission of several files, compiled together.
            // A FIFO or a device would hold the reading of its first line for ever.
            if !source.is_file() && !source.is_dir() {
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
            let expectations = (&entries[..], &cases);
            submissions.push(submission_of(
                source,
                name,
                &verdict_name,
                expectations,
                spec_2025,
            )?);
        }
    }
    Ok((submissions, skipped))
}

/// One stored submission of a Kattis package: what its folder, its source's comments and
/// submissions.yaml (`entries`, over the package's `cases`) expect of it.
fn submission_of(
    source: PathBuf,
    name: String,
    verdict_name: &str,
    (entries, cases): (&[super::expectations::Entry], &std::sync::Arc<[String]>),
    spec_2025: bool,
) -> Result<PackageSubmission, PackageError> {
    let mut expected = expected_of_folder(verdict_name);
    if let Some(declared) = expected_results(&source) {
        expected = declared;
    }
    let mut for_time_limit = if expected == Expected::One(Verdict::Accepted) {
        TimeLimitUse::Lower
    } else {
        TimeLimitUse::Neither
    };
    if spec_2025 {
        if let Some(rule) = super::expectations::default_rule(verdict_name) {
            for_time_limit = rule.time_limit;
        }
    }
    let invalid = |message: String| super::invalid(&source, message);
    let mut expected_score = crate::package::expected::stated_score(&[], "", &source)
        .map_err(|e| invalid(e.to_string()))?;
    let mut lower_bound_cases = Vec::new();
    if let Some(rules) = super::expectations::for_submission(entries, verdict_name, &name, cases) {
        // submissions.yaml's `score` and an `@EXPECTED_SCORE@` comment must both hold.
        if let Some(stated) = rules.stated_score().map_err(&invalid)? {
            expected_score = match expected_score {
                None => Some(stated),
                Some(comment) => Some(comment.and(stated).ok_or_else(|| {
                    invalid(format!(
                        "its `@EXPECTED_SCORE@: {comment}` and submissions.yaml's `score` {stated} cannot both hold"
                    ))
                })?),
            };
        }
        for_time_limit = rules.time_limit_use();
        let lower = rules.lower_bound_cases();
        if !lower.iter().any(Option::is_none) {
            lower_bound_cases = lower.into_iter().flatten().collect();
        }
        expected = Expected::Rules {
            label: rules.label(),
            rules: std::sync::Arc::new(rules),
        };
    }
    Ok(PackageSubmission {
        path: source,
        name,
        expected,
        expected_score,
        for_time_limit,
        lower_bound_cases,
    })
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
        let (found, skipped) = kattis(root, &["sample/1".to_string()], true).unwrap();
        let names: Vec<(&str, String, TimeLimitUse)> = found
            .iter()
            .map(|s| {
                (
                    s.name.as_str(),
                    s.expected.as_str().to_string(),
                    s.for_time_limit,
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                ("accepted/a.py", "AC".to_string(), TimeLimitUse::Lower),
                (
                    "other/slow.py",
                    "AC/TLE, some TLE".to_string(),
                    TimeLimitUse::Upper
                ),
                // A key naming a default folder overrides the keys it writes (`required: WA`
                // stays); `*.py` does not reach into folders.
                (
                    "wrong_answer/w.py",
                    "AC/WA/TLE, some WA".to_string(),
                    TimeLimitUse::Neither
                ),
            ]
        );
        assert!(skipped.is_empty());
    }
}
