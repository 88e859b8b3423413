//! Stored submissions with the verdict each must get, kept in the repository as BAPCtools and
//! Kattis problemtools keep them (`solutions/submissions/<problem>/<expected>/FILE`), and the
//! check that each still gets it. It never prints.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::case::discover::{self, Case};
use crate::case::partition::Partition;
use crate::compile::submit::{self, SubmitError};
use crate::config::{Config, UnknownProblem};
use crate::event::{Event, Finished};
use crate::judge::submission::{self, Plan, SubmissionError, SubmissionReport};
use crate::judge::Stop;
use crate::verdict::Verdict;

/// Where stored submissions live, from judge.toml's folder.
pub const DEFAULT_FOLDER: &str = "solutions/submissions";

/// The folder of stored submissions of a scored problem that score partially: more than 0,
/// less than the maximum (the verdict is any failure).
pub const PARTIALLY_ACCEPTED: &str = "partially_accepted";

/// What a `partially_accepted` submission of a scored problem must get: any verdict but a
/// compile or judge error (its grader may accept it, as problemtools' does oddecho's
/// `sol.py`), and a score strictly between 0 and the maximum, which is the real check.
pub fn partially_accepted() -> Expected {
    Expected::AnyOf {
        verdicts: vec![
            Verdict::Accepted,
            Verdict::WrongAnswer,
            Verdict::TimeLimitExceeded,
            Verdict::MemoryLimitExceeded,
            Verdict::RuntimeError,
            Verdict::OutputLimitExceeded,
        ],
        label: "partial".to_string(),
    }
}

/// The verdicts a stored submission may be expected to get (a judge error never is).
pub const EXPECTED: [Verdict; 7] = [
    Verdict::Accepted,
    Verdict::WrongAnswer,
    Verdict::TimeLimitExceeded,
    Verdict::MemoryLimitExceeded,
    Verdict::RuntimeError,
    Verdict::OutputLimitExceeded,
    Verdict::CompileError,
];

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("no stored submissions: `{}` does not exist (hint: store each as `<problem>/<expected>/FILE` below it, e.g. `king-queens/accepted/bitmask.cpp`)", .0.display())]
    MissingFolder(PathBuf),
    #[error("no stored submissions in `{}` (hint: store each as `<problem>/<expected>/FILE`, e.g. `king-queens/accepted/bitmask.cpp`)", .0.display())]
    Empty(PathBuf),
    #[error("no stored submissions for problem `{problem}` in `{}`", folder.display())]
    NoneForProblem { problem: String, folder: PathBuf },
    #[error("cannot read `{}`: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("`{}` names no problem: {problem}", path.display())]
    UnknownProblemFolder {
        path: PathBuf,
        problem: UnknownProblem,
    },
    #[error("`{}`: `{name}` is not an expected verdict (hint: name the folder one of {})", path.display(), valid_names())]
    UnknownExpected { path: PathBuf, name: String },
    #[error("`{}` is not in an expected-verdict folder (hint: move it into `<problem>/<expected>/`, where <expected> is one of {})", path.display(), valid_names())]
    Misplaced { path: PathBuf },
    #[error("`{}` is a folder: a stored submission is one source file (hint: move its source up into `{}`)", path.display(), path.parent().unwrap_or(Path::new(".")).display())]
    NestedFolder { path: PathBuf },
    #[error(transparent)]
    UnknownProblem(#[from] UnknownProblem),
    #[error(transparent)]
    Submission(#[from] SubmissionError),
    #[error(transparent)]
    Submit(#[from] SubmitError),
    #[error("`{}`: {source}", path.display())]
    ExpectedScore {
        path: PathBuf,
        source: crate::score::ExpectedError,
    },
}

/// `accepted`, `wrong_answer`, … in backticks, for error messages.
fn valid_names() -> String {
    EXPECTED
        .iter()
        .map(|v| format!("`{}`", v.dir_name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a stored submission must get.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// The verdict its folder names.
    One(Verdict),
    /// Any of these: a package format's folder that takes several (Kattis'
    /// `run_time_error` takes MLE and OLE, which the format does not have; `rejected` takes
    /// any failure), or DOMjudge's `@EXPECTED_RESULTS@` list. `label` is what the report shows.
    AnyOf {
        verdicts: Vec<Verdict>,
        label: String,
    },
    /// A folder the format does not define (`slow_accepted`): judged and shown, never a
    /// mismatch.
    Unchecked { folder: String },
    /// 2025-09 `submissions.yaml` rules: verdict sets over the cases (or some of them), a
    /// judge message; met or not by the whole run, not by its verdict alone.
    Rules {
        rules: std::sync::Arc<crate::package::expectations::Expectations>,
        label: String,
    },
}

impl Expected {
    pub fn allows(&self, verdict: Verdict) -> bool {
        match self {
            Expected::One(expected) => *expected == verdict,
            Expected::AnyOf { verdicts, .. } => verdicts.contains(&verdict),
            Expected::Unchecked { .. } => true,
            Expected::Rules { rules, .. } => rules.may_end_with().contains(&verdict),
        }
    }

    /// Whether the judged submission meets what is expected of it, and why not.
    pub fn met_by(&self, report: &SubmissionReport) -> Result<(), String> {
        match self {
            Expected::Rules { rules, .. } => {
                let judged: Vec<crate::package::expectations::JudgedCase<'_>> = report
                    .outcomes
                    .iter()
                    .map(|o| crate::package::expectations::JudgedCase {
                        name: &o.case,
                        verdict: o.verdict,
                        message: &o.reason,
                    })
                    .collect();
                rules.check(report.compile.ok, &judged)
            }
            other if other.allows(report.verdict) => Ok(()),
            other => Err(format!("expected {}", other.as_str())),
        }
    }

    /// The short form shown in the report's "expected" column.
    pub fn as_str(&self) -> &str {
        match self {
            Expected::One(verdict) => verdict.as_str(),
            Expected::AnyOf { label, .. } | Expected::Rules { label, .. } => label,
            Expected::Unchecked { .. } => "any",
        }
    }

    pub fn is_checked(&self) -> bool {
        !matches!(self, Expected::Unchecked { .. })
    }

    /// Where it sorts: accepted first, then the ways to fail, then the unchecked.
    fn rank(&self) -> usize {
        match self {
            Expected::One(verdict) => EXPECTED.iter().position(|v| v == verdict).unwrap_or(0),
            Expected::AnyOf { verdicts, .. } => verdicts
                .iter()
                .filter_map(|v| EXPECTED.iter().position(|e| e == v))
                .min()
                .unwrap_or(EXPECTED.len()),
            Expected::Unchecked { .. } => EXPECTED.len() + 1,
            Expected::Rules { rules, .. } => rules
                .may_end_with()
                .iter()
                .filter_map(|v| EXPECTED.iter().position(|e| e == v))
                .min()
                .unwrap_or(EXPECTED.len()),
        }
    }
}

impl From<Verdict> for Expected {
    fn from(verdict: Verdict) -> Self {
        Expected::One(verdict)
    }
}

impl PartialEq<Verdict> for Expected {
    fn eq(&self, other: &Verdict) -> bool {
        *self == Expected::One(*other)
    }
}

/// One stored submission, planned.
#[derive(Debug, Clone)]
pub struct Stored<'a> {
    /// `<problem>/<expected>/FILE`, relative to the submissions folder.
    pub name: String,
    pub expected: Expected,
    pub plan: Plan<'a>,
    /// The score it must get, when one is stated.
    pub expected_score: Option<crate::score::ExpectedScore>,
    /// Stored as partially accepted: it must score more than 0 and less than the maximum.
    pub partial: bool,
}

/// The score a stored submission states: judge.toml's `expected-scores` (keyed by its path
/// below the problem's folder), else its `@EXPECTED_SCORE@: ` comment, as DOMjudge reads it.
pub fn stated_score(
    table: &[(String, crate::score::ExpectedScore)],
    key: &str,
    source: &Path,
) -> Result<Option<crate::score::ExpectedScore>, VerifyError> {
    if let Some((_, score)) = table.iter().find(|(file, _)| file == key) {
        return Ok(Some(*score));
    }
    let Ok(text) = std::fs::read(source) else {
        // Unreadable sources are named when they are compiled.
        return Ok(None);
    };
    match crate::score::expected_score_annotation(&String::from_utf8_lossy(&text)) {
        Ok(Some(crate::score::Annotation::Score(score))) => {
            Ok(Some(crate::score::ExpectedScore::Exactly(score)))
        }
        Ok(_) => Ok(None),
        Err(source_error) => Err(VerifyError::ExpectedScore {
            path: source.to_path_buf(),
            source: source_error,
        }),
    }
}

/// A stored submission that was not judged, and why (a language this machine lacks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub name: String,
    pub reason: String,
}

/// Finds the stored submissions below `folder` (of the given problems, or of all), checks the
/// layout and resolves each one's language and cases, before anything is compiled.
pub fn plan<'a>(
    config: &'a Config,
    folder: &Path,
    problems: &[String],
) -> Result<Vec<Stored<'a>>, VerifyError> {
    for name in problems {
        config.require_problem(name)?;
    }
    if !folder.is_dir() {
        return Err(VerifyError::MissingFolder(folder.to_path_buf()));
    }
    let mut cases_of: HashMap<String, (Vec<Case>, Option<std::sync::Arc<crate::score::Scoring>>)> =
        HashMap::new();
    // Compiled once per problem, shared by its submissions.
    let mut interactors_of: HashMap<String, Option<super::interactive::Shared>> = HashMap::new();
    let mut stored = Vec::new();
    for problem_dir in entries(folder)? {
        if !problem_dir.is_dir() {
            return Err(VerifyError::Misplaced { path: problem_dir });
        }
        let problem_name = file_name(&problem_dir);
        let problem = config.require_problem(&problem_name).map_err(|problem| {
            VerifyError::UnknownProblemFolder {
                path: problem_dir.clone(),
                problem,
            }
        })?;
        if !problems.is_empty() && !problems.contains(&problem_name) {
            continue;
        }
        for expected_dir in entries(&problem_dir)? {
            if !expected_dir.is_dir() {
                return Err(VerifyError::Misplaced { path: expected_dir });
            }
            let expected_name = file_name(&expected_dir);
            let partial = expected_name == PARTIALLY_ACCEPTED;
            let expected = if partial {
                partially_accepted()
            } else {
                Expected::One(
                    Verdict::from_dir_name(&expected_name)
                        .filter(|v| EXPECTED.contains(v))
                        .ok_or_else(|| VerifyError::UnknownExpected {
                            path: expected_dir.clone(),
                            name: expected_name.clone(),
                        })?,
                )
            };
            for source in entries(&expected_dir)? {
                if source.is_dir() {
                    return Err(VerifyError::NestedFolder { path: source });
                }
                let language = crate::config::detect_language(config, &source, None)?;
                submit::check_tools(language)?;
                let (cases, scoring) = match cases_of.get(&problem.name) {
                    Some(known) => known.clone(),
                    None => {
                        let mut cases =
                            discover::discover(&problem.cases).map_err(SubmissionError::from)?;
                        let scoring = super::scoring::rules_for(problem, &cases)
                            .map_err(SubmissionError::from)?;
                        super::scoring::order_cases(scoring.as_deref(), &mut cases);
                        cases_of.insert(problem.name.clone(), (cases.clone(), scoring.clone()));
                        (cases, scoring)
                    }
                };
                if cases.is_empty() {
                    return Err(SubmissionError::NoCases(problem.cases.clone()).into());
                }
                let interactor = match interactors_of.get(&problem.name) {
                    Some(interactor) => interactor.clone(),
                    None => {
                        let interactor = super::interactive::prepare(config, problem)
                            .map_err(SubmissionError::from)?;
                        interactors_of.insert(problem.name.clone(), interactor.clone());
                        interactor
                    }
                };
                let key = format!("{expected_name}/{}", file_name(&source));
                let expected_score = stated_score(&problem.expected_scores, &key, &source)?;
                stored.push(Stored {
                    name: format!("{problem_name}/{key}"),
                    expected: expected.clone(),
                    plan: Plan {
                        problem,
                        language,
                        source,
                        cases,
                        interactor,
                        scoring,
                    },
                    expected_score,
                    partial,
                });
            }
        }
    }
    if stored.is_empty() {
        return Err(match problems {
            [problem] => VerifyError::NoneForProblem {
                problem: problem.clone(),
                folder: folder.to_path_buf(),
            },
            _ => VerifyError::Empty(folder.to_path_buf()),
        });
    }
    // Problem by problem, accepted first, then the way each is expected to fail.
    stored.sort_by(|a, b| {
        (a.plan.problem.name.as_str(), a.expected.rank())
            .cmp(&(b.plan.problem.name.as_str(), b.expected.rank()))
            .then_with(|| discover::natural_cmp(&a.name, &b.name))
    });
    Ok(stored)
}

/// The entries of a folder that matter, sorted: hidden files (`.gitkeep`) and READMEs are
/// skipped, so a folder can be kept in git and explained.
fn entries(folder: &Path) -> Result<Vec<PathBuf>, VerifyError> {
    let unreadable = |source| VerifyError::Unreadable {
        path: folder.to_path_buf(),
        source,
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        let name = file_name(&path);
        if name.starts_with('.') || name.to_ascii_lowercase().starts_with("readme") {
            continue;
        }
        paths.push(path);
    }
    paths.sort_by(|a, b| discover::natural_cmp(&file_name(a), &file_name(b)));
    Ok(paths)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl Stored<'_> {
    /// Whether this submission belongs to the slice: a submission's verdict needs all its
    /// cases, so `verify --partition` slices submissions, keyed by problem and file name.
    pub fn in_partition(&self, partition: Partition) -> bool {
        let problem = self.plan.problem.name.as_str();
        let file = self
            .name
            .strip_prefix(problem)
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(&self.name);
        partition.contains(problem, file)
    }
}

/// One stored submission, judged.
#[derive(Debug, Clone)]
pub struct Verified {
    pub name: String,
    pub expected: Expected,
    pub report: SubmissionReport,
    /// The score it must get, when one is stated (`@EXPECTED_SCORE@`, judge.toml's
    /// `expected-scores`, submissions.yaml's `score`).
    pub expected_score: Option<crate::score::ExpectedScore>,
    /// Whether its score is the one expected (and, for a `partially_accepted` one, strictly
    /// between 0 and the maximum).
    pub score_check: crate::score::ScoreCheck,
}

impl Verified {
    /// It got the verdict it is stored under (an unchecked one always has), and the score
    /// expected of it.
    pub fn ok(&self) -> bool {
        self.expected.met_by(&self.report).is_ok()
            && self.score_check == crate::score::ScoreCheck::Ok
    }

    /// What the row means for the exit code: AC when it got its expected verdict, a judge
    /// error when the judge failed, otherwise the verdict it got (WA if it passed unexpectedly).
    pub fn as_outcome(&self) -> Verdict {
        match self.report.verdict {
            Verdict::JudgeError => Verdict::JudgeError,
            _ if self.ok() => Verdict::Accepted,
            Verdict::Accepted => Verdict::WrongAnswer,
            other => other,
        }
    }
}

/// Judges each planned submission, the `unit`-th of the plan being the `unit`-th stored
/// one. Each stops at its first failing case: the overall verdict is that case's verdict
/// whatever comes after, so no expectation needs more.
pub fn run(
    stored: &[Stored<'_>],
    jobs: usize,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Verified>, SubmitError> {
    let mut results = Vec::new();
    for (unit, entry) in stored.iter().enumerate() {
        // A score needs more than the first failure: each group is judged until it stops.
        let options = submission::Options {
            jobs: jobs.max(1),
            stop: if entry.plan.scoring.is_some() {
                Stop::Unneeded
            } else {
                Stop::AfterFirstFailure
            },
        };
        on_event(Event::Started {
            unit,
            label: &entry.name,
        });
        let report = submission::judge(&entry.plan, &options, &mut |outcome| {
            on_event(Event::CaseFinished { unit, outcome });
        })?;
        let score_check = check_entry_score(entry, &report);
        let result = Verified {
            name: entry.name.clone(),
            expected: entry.expected.clone(),
            report,
            expected_score: entry.expected_score,
            score_check,
        };
        on_event(Event::UnitFinished {
            unit,
            result: Finished::Verified(&result),
        });
        results.push(result);
    }
    Ok(results)
}

/// Whether a judged stored submission got the score expected of it. A submission that did
/// not compile is judged by its verdict alone.
pub fn check_entry_score(
    entry: &Stored<'_>,
    report: &SubmissionReport,
) -> crate::score::ScoreCheck {
    if !report.compile.ok {
        return crate::score::ScoreCheck::Ok;
    }
    match &report.score {
        Some(super::scoring::SubmissionScore::Incomplete { reason, .. })
            if entry.expected_score.is_some() || entry.partial =>
        {
            crate::score::ScoreCheck::Mismatch(format!("no score: {reason}"))
        }
        score => crate::score::check_score(
            entry.expected_score.as_ref(),
            entry.partial,
            score
                .as_ref()
                .and_then(super::scoring::SubmissionScore::score),
            score
                .as_ref()
                .and_then(super::scoring::SubmissionScore::max_score),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = r#"
[problems.sum]
solution = "/bin/cat"
[languages.sh]
extensions = ["sh"]
run = ["sh", "{source}"]
"#;

    fn project(files: &[&str]) -> (tempfile::TempDir, Config) {
        let dir = tempfile::tempdir().unwrap();
        let config = crate::config::parse(CONFIG, &dir.path().join("judge.toml")).unwrap();
        std::fs::create_dir_all(dir.path().join("cases/sum")).unwrap();
        std::fs::write(dir.path().join("cases/sum/1.in"), "1 2\n").unwrap();
        std::fs::write(dir.path().join("cases/sum/1.ans"), "3\n").unwrap();
        for file in files {
            let path = dir.path().join("subs").join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "echo 3\n").unwrap();
        }
        (dir, config)
    }

    fn plan_error(files: &[&str]) -> String {
        let (dir, config) = project(files);
        plan(&config, &dir.path().join("subs"), &[])
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn submissions_come_by_problem_then_expected_verdict() {
        let (dir, config) = project(&[
            "sum/wrong_answer/b.sh",
            "sum/accepted/z10.sh",
            "sum/accepted/z9.sh",
            "sum/accepted/.gitkeep",
            "sum/README.md",
            "sum/compile_error/a.sh",
        ]);
        let stored = plan(&config, &dir.path().join("subs"), &[]).unwrap();
        let names: Vec<_> = stored.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "sum/accepted/z9.sh",
                "sum/accepted/z10.sh",
                "sum/wrong_answer/b.sh",
                "sum/compile_error/a.sh"
            ]
        );
        assert_eq!(stored[2].expected, Verdict::WrongAnswer);
        assert_eq!(stored[0].plan.cases.len(), 1);
    }

    #[test]
    fn layout_errors_name_the_path_and_the_fix() {
        let error = plan_error(&["sum/acepted/a.sh"]);
        assert!(error.contains("subs/sum/acepted`"), "{error}");
        assert!(
            error.contains("`acepted` is not an expected verdict"),
            "{error}"
        );
        assert!(error.contains("`accepted`, `wrong_answer`"), "{error}");
        assert!(error.contains("`compile_error`"), "{error}");

        let error = plan_error(&["sum/judge_error/a.sh"]);
        assert!(error.contains("not an expected verdict"), "{error}");

        let error = plan_error(&["summ/accepted/a.sh"]);
        assert!(error.contains("subs/summ`"), "{error}");
        assert!(error.contains("unknown problem `summ`"), "{error}");

        let error = plan_error(&["sum/a.sh"]);
        assert!(error.contains("subs/sum/a.sh"), "{error}");
        assert!(
            error.contains("not in an expected-verdict folder"),
            "{error}"
        );

        let error = plan_error(&["sum/accepted/multi/a.sh"]);
        assert!(error.contains("is a folder"), "{error}");

        let error = plan_error(&["sum/accepted/a.zz"]);
        assert!(error.contains("cannot tell the language"), "{error}");
    }

    #[test]
    fn nothing_stored_is_an_error() {
        let (dir, config) = project(&[]);
        let error = plan(&config, &dir.path().join("subs"), &[])
            .unwrap_err()
            .to_string();
        assert!(error.contains("does not exist"), "{error}");
        std::fs::create_dir(dir.path().join("subs")).unwrap();
        let error = plan(&config, &dir.path().join("subs"), &["sum".to_string()])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("no stored submissions for problem `sum`"),
            "{error}"
        );
    }
}
