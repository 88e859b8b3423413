//! Stored submissions with the verdict each must get, kept in the repository as BAPCtools and
//! Kattis problemtools keep them (`solutions/submissions/<problem>/<expected>/FILE`), and the
//! check that each still gets it. It never prints.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Mutex;

use crate::case::discover::{self, Case};
use crate::case::partition::Partition;
use crate::compile::submit::{self, SubmitError};
use crate::config::{Config, UnknownProblem};
use crate::event::{Event, Finished};
use crate::judge::submission::{self, Plan, SubmissionError, SubmissionReport};
use crate::judge::Stop;
use crate::package::file_name;
use crate::verdict::Verdict;

pub use crate::package::expected::{
    partially_accepted, stated_score, Expected, Skipped, EXPECTED, PARTIALLY_ACCEPTED,
};
pub use crate::results::verify::Verified;

/// Where stored submissions live, from judge.toml's folder.
pub const DEFAULT_FOLDER: &str = "solutions/submissions";

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
    #[error(transparent)]
    ExpectedScore(#[from] crate::package::expected::StatedScoreError),
}

/// `accepted`, `wrong_answer`, … in backticks, for error messages.
fn valid_names() -> String {
    EXPECTED
        .iter()
        .map(|v| format!("`{}`", v.dir_name()))
        .collect::<Vec<_>>()
        .join(", ")
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
                // Built once: the build cache makes the next submissions' call cheap.
                let communication = super::communication::prepare(config, problem)
                    .map_err(SubmissionError::from)?;
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
                        communication,
                        scoring,
                        unscored: None,
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

fn entries(folder: &Path) -> Result<Vec<PathBuf>, VerifyError> {
    listed(folder).map_err(|source| VerifyError::Unreadable {
        path: folder.to_path_buf(),
        source,
    })
}

/// The entries of a folder that matter, sorted: hidden files (`.gitkeep`) and READMEs are
/// skipped, so a folder can be kept in git and explained (stored submissions, a contest's
/// team folders).
pub(crate) fn listed(folder: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let path = entry?.path();
        let name = file_name(&path);
        if name.starts_with('.') || name.to_ascii_lowercase().starts_with("readme") {
            continue;
        }
        paths.push(path);
    }
    paths.sort_by(|a, b| discover::natural_cmp(&file_name(a), &file_name(b)));
    Ok(paths)
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

/// Judges each planned submission, the `unit`-th of the plan being the `unit`-th stored
/// one. Each stops at its first failing case: the overall verdict is that case's verdict
/// whatever comes after, so no expectation needs more.
///
/// A first verify is mostly compiling: up to `jobs` compilers build the next submissions
/// (in [`compile_order`]) while the ones already built are judged (`jobs` cases at once) in
/// the plan's order, so the report comes in the same order as if each were compiled just
/// before it is judged.
pub fn run(
    stored: &[Stored<'_>],
    jobs: usize,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Verified>, SubmitError> {
    let jobs = jobs.max(1);
    // Each taken by the compiler of its submission, so that one that dies drops it.
    let (senders, receivers): (Vec<_>, Vec<_>) = stored
        .iter()
        .map(|_| {
            let (sender, receiver) = std::sync::mpsc::channel();
            (Mutex::new(Some(sender)), receiver)
        })
        .unzip();
    let bits: Vec<bool> = stored
        .iter()
        .map(|entry| crate::compile::pch::includes_the_header(&entry.plan.source))
        .collect();
    let order = compile_order(&bits);
    let next = AtomicUsize::new(0);
    // Set when the judging stops early (an error): the compilers take no more.
    let stopped = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(stored.len()) {
            scope.spawn(|| loop {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let Some(&index) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    break;
                };
                let (Some(entry), Some(sender)) = (stored.get(index), senders.get(index)) else {
                    break;
                };
                let sender = sender.lock().ok().and_then(|mut s| s.take());
                if let Some(sender) = sender {
                    let _ = sender.send(submission::build(&entry.plan));
                }
            });
        }
        let judged = judge_built(stored, receivers, jobs, on_event);
        stopped.store(true, Ordering::Relaxed);
        judged
    })
}

/// The order the submissions are compiled in: the plan's, but for the sources that include
/// `<bits/stdc++.h>`. The first of them goes first: it makes the precompiled header when it
/// is not in the cache, the longest compile of a cold verify. The others go last, as they
/// would wait for it ([`crate::compile::pch`]): meanwhile the other compilers build the
/// sources that go without it.
/// `bits` says of each submission whether it includes the header.
fn compile_order(bits: &[bool]) -> Vec<usize> {
    let first = bits.iter().position(|&b| b);
    let mut order: Vec<usize> = (0..bits.len()).collect();
    order.sort_by_key(|&index| match (Some(index) == first, bits[index]) {
        (true, _) => 0,
        (false, false) => 1,
        (false, true) => 2,
    });
    order
}

/// The judging half of [`run`]: each submission in order, as its build arrives.
fn judge_built(
    stored: &[Stored<'_>],
    builds: Vec<Receiver<Result<submission::Build, SubmitError>>>,
    jobs: usize,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Verified>, SubmitError> {
    let mut results = Vec::new();
    for (unit, (entry, build)) in stored.iter().zip(builds).enumerate() {
        // A score needs more than the first failure: each group is judged until it stops.
        let options = submission::Options {
            jobs,
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
        // A compiler thread that died sends nothing: that submission is compiled here.
        let built = match build.recv() {
            Ok(built) => built?,
            Err(_) => submission::build(&entry.plan)?,
        };
        let report = submission::judge_built(&entry.plan, built, &options, None, &mut |p| {
            if let submission::Progress::Case(outcome) = p {
                on_event(Event::CaseFinished { unit, outcome });
            }
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
    // submissions.yaml's `score` for test data groups.
    if let Expected::Rules { rules, .. } = &entry.expected {
        let groups = match &report.score {
            Some(super::scoring::SubmissionScore::Sheet(sheet)) => Ok(sheet.groups.as_slice()),
            Some(super::scoring::SubmissionScore::Incomplete { reason, .. }) => {
                Err(reason.as_str())
            }
            None => Err("the problem is not scored"),
        };
        if let Err(why) = rules.check_group_scores(groups) {
            return crate::score::ScoreCheck::Mismatch(why);
        }
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

    #[test]
    fn the_first_source_with_bits_stdcxx_is_compiled_first_and_the_others_last() {
        for (bits, expected) in [
            (&[][..], &[][..]),
            (&[false, false], &[0, 1]),
            (&[true, true, true], &[0, 1, 2]),
            (&[false, true, false, true, false], &[1, 0, 2, 4, 3]),
            (&[true, true, false], &[0, 2, 1]),
        ] {
            assert_eq!(compile_order(bits), expected, "{bits:?}");
        }
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
