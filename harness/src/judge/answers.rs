//! Output-only tasks: the contestant hands in one answer file per case (IOI's output-only
//! tasks, CMS `OutputOnly`, Kattis `submit-answer`), in a folder or a zip, and each is checked
//! with the problem's checker and scored as a program's output would be. Nothing runs. The
//! answers are the contestant's: a file is opened beneath the folder without following a link
//! and read only when it is a regular file, at most up to the output limit.

use std::collections::HashMap;
use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::case::discover::Case;
use crate::case::excerpt::InputExcerpt;
use crate::check::{self, CaseFiles, Judgement};
use crate::config::{Config, Problem};
use crate::results::case::CaseOutcome;
use crate::sandbox::beneath;
use crate::sandbox::run::OutputFileError;
use crate::verdict::Verdict;

use super::submission::{CompileOutcome, SubmissionError, SubmissionReport};

/// Most entries a zip of answers may list: far above any task's cases, and a bound on what
/// a mistaken archive (a whole disk's backup) costs to index.
const MAX_ZIP_ENTRIES: usize = 100_000;

#[derive(Debug, thiserror::Error)]
pub enum AnswersError {
    #[error("answers `{}` do not exist (hint: give the folder or the zip of your answer files, one `CASE.out` per case)", .0.display())]
    Missing(PathBuf),
    #[error("answers `{}` are {kind}: give a folder or a zip of answer files", path.display())]
    NotAnswers { path: PathBuf, kind: &'static str },
    #[error("cannot read answers `{}`: {why}", path.display())]
    Unreadable { path: PathBuf, why: String },
    #[error(transparent)]
    Plan(#[from] SubmissionError),
    #[error(transparent)]
    Package(#[from] crate::package::PackageError),
}

/// An output-only submission with everything resolved, before anything is checked.
#[derive(Debug, Clone)]
pub struct AnswersPlan<'a> {
    pub problem: &'a Problem,
    /// The folder or zip, as given.
    pub source: PathBuf,
    pub cases: Vec<Case>,
    /// A scored problem's rules, over all its cases.
    pub scoring: Option<std::sync::Arc<crate::score::Scoring>>,
}

/// The plan for the answers in `source` on `problem`'s cases (those matching `pattern`); the
/// answers themselves are opened when judged.
pub fn plan<'a>(
    config: &'a Config,
    problem: &str,
    source: &Path,
    pattern: Option<&str>,
) -> Result<AnswersPlan<'a>, AnswersError> {
    let problem = config
        .require_problem(problem)
        .map_err(SubmissionError::from)?;
    let all = match &problem.package {
        Some(package) => crate::package::open(&package.path)?.cases,
        None => crate::case::discover::discover_unanswered_too(&problem.cases)
            .map_err(SubmissionError::from)?,
    };
    let mut cases = super::submission::narrow(all.clone(), &problem.cases, pattern)?;
    // A package's own rules, or judge.toml's.
    let scoring = super::scoring::rules_for(problem, &all).map_err(SubmissionError::from)?;
    super::scoring::order_cases(scoring.as_deref(), &mut cases);
    Ok(AnswersPlan {
        problem,
        source: source.to_path_buf(),
        cases,
        scoring,
    })
}

/// The file names a case's answer is looked for under, first found wins: `NAME.out` (the
/// case's whole name, folders included: `secret/g1/03.out`), then by its last part alone
/// (`03.out`, CMS's `output_03.txt`) when no other case ends the same way.
pub fn names_for(case: &str, unique_last_part: bool) -> Vec<String> {
    let mut names = vec![format!("{case}.out")];
    let last = case.rsplit('/').next().unwrap_or(case);
    if unique_last_part {
        if last != case {
            names.push(format!("{last}.out"));
        }
        names.push(format!("output_{last}.txt"));
    }
    names
}

/// Where the answer files are.
enum Answers {
    /// A folder, held open: every name is walked beneath it without following a link.
    Folder(OwnedFd),
    /// A zip, indexed by entry name (a lone top folder the user zipped taken off).
    Zip {
        archive: zip::ZipArchive<std::fs::File>,
        index: HashMap<String, usize>,
    },
}

impl Answers {
    fn open(path: &Path) -> Result<Answers, AnswersError> {
        let unreadable = |why: String| AnswersError::Unreadable {
            path: path.to_path_buf(),
            why,
        };
        let meta = match std::fs::symlink_metadata(path) {
            Ok(meta) => meta,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(AnswersError::Missing(path.to_path_buf()))
            }
            Err(error) => return Err(unreadable(error.to_string())),
        };
        // The path the user typed may be a link they made: it is followed, as any argument
        // is. What is below it is the contestant's, and never followed.
        let meta = if meta.file_type().is_symlink() {
            std::fs::metadata(path).map_err(|e| unreadable(e.to_string()))?
        } else {
            meta
        };
        if meta.is_dir() {
            let target = std::fs::canonicalize(path).map_err(|e| unreadable(e.to_string()))?;
            return beneath::open_folder(&target)
                .map(Answers::Folder)
                .map_err(|e| unreadable(e.to_string()));
        }
        if let Some(kind) = crate::file_kind::not_regular(path) {
            return Err(AnswersError::NotAnswers {
                path: path.to_path_buf(),
                kind,
            });
        }
        let file = std::fs::File::open(path).map_err(|e| unreadable(e.to_string()))?;
        let archive = zip::ZipArchive::new(file).map_err(|error| AnswersError::NotAnswers {
            path: path.to_path_buf(),
            kind: match error {
                zip::result::ZipError::InvalidArchive(_) => "a file that is not a zip",
                _ => "a zip that cannot be read",
            },
        })?;
        if archive.len() > MAX_ZIP_ENTRIES {
            return Err(unreadable(format!(
                "it lists {} entries, above the {MAX_ZIP_ENTRIES} an answer zip may have",
                archive.len()
            )));
        }
        let names: Vec<String> = archive
            .file_names()
            .filter_map(|name| name.ok().map(std::borrow::Cow::into_owned))
            .collect();
        // `zip -r answers.zip answers/` puts every file under `answers/`.
        let top = names
            .first()
            .and_then(|n| n.split_once('/'))
            .map(|(top, _)| format!("{top}/"));
        let strip = top.filter(|top| names.iter().all(|n| n.starts_with(top.as_str())));
        let mut index = HashMap::new();
        for (at, name) in names.iter().enumerate() {
            let name = strip
                .as_deref()
                .and_then(|top| name.strip_prefix(top))
                .unwrap_or(name);
            index.entry(name.to_string()).or_insert(at);
        }
        Ok(Answers::Zip { archive, index })
    }

    /// The answer stored as `name`, at most `limit` bytes.
    fn read(&mut self, name: &str, limit: u64) -> Result<Vec<u8>, OutputFileError> {
        match self {
            Answers::Folder(folder) => beneath::read_regular(folder.as_fd(), name, limit),
            Answers::Zip { archive, index } => {
                let Some(&at) = index.get(name) else {
                    return Err(OutputFileError::Missing);
                };
                let entry = archive
                    .by_index(at)
                    .map_err(|error| OutputFileError::Unreadable(error.to_string()))?;
                if entry.is_symlink() {
                    return Err(OutputFileError::SymbolicLink(name.to_string()));
                }
                if entry.is_dir() {
                    return Err(OutputFileError::NotRegular("a folder".to_string()));
                }
                // The size the zip declares may lie: read one byte past the limit, never more.
                let mut bytes = Vec::new();
                entry
                    .take(limit.saturating_add(1))
                    .read_to_end(&mut bytes)
                    .map_err(|error| OutputFileError::Unreadable(error.to_string()))?;
                if bytes.len() as u64 > limit {
                    return Err(OutputFileError::TooLarge);
                }
                Ok(bytes)
            }
        }
    }
}

/// Checks the answer file of each planned case, handing each outcome to `on_case` as it is
/// judged; every case is judged (there is nothing to spare by stopping).
pub fn judge(
    plan: &AnswersPlan<'_>,
    on_case: &mut dyn FnMut(&CaseOutcome),
) -> Result<SubmissionReport, AnswersError> {
    let started = Instant::now();
    let problem = plan.problem;
    let mut answers = Answers::open(&plan.source)?;
    let mut last_parts: HashMap<&str, usize> = HashMap::new();
    for case in &plan.cases {
        let last = case.name.rsplit('/').next().unwrap_or(&case.name);
        *last_parts.entry(last).or_default() += 1;
    }
    let limits = problem.limits(1.0);
    let mut outcomes = Vec::with_capacity(plan.cases.len());
    for case in &plan.cases {
        if crate::sandbox::interrupt::is_interrupted() {
            break;
        }
        let last = case.name.rsplit('/').next().unwrap_or(&case.name);
        let names = names_for(&case.name, last_parts.get(last) == Some(&1));
        let mut outcome = judge_case(&mut answers, &names, case, problem);
        super::scoring::score_case(&mut outcome, plan.scoring.as_deref());
        on_case(&outcome);
        outcomes.push(outcome);
    }
    let mut report = SubmissionReport {
        problem: problem.name.clone(),
        title: problem.title.clone(),
        source: plan.source.clone(),
        language: None,
        limits,
        compile: CompileOutcome {
            ok: true,
            message: String::new(),
        },
        planned_cases: plan.cases.len(),
        verdict: crate::judge::overall_verdict(&outcomes),
        outcomes,
        elapsed: Duration::ZERO,
        jobs: 1,
        score: None,
    };
    if let Some(scoring) = plan.scoring.as_deref() {
        let score = super::scoring::score_submission(scoring, &report.outcomes);
        if let Some(sheet) = score.sheet() {
            report.verdict = sheet.verdict;
        }
        report.score = Some(score);
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

/// One case: its answer file found under the first of `names` there is, and checked.
fn judge_case(
    answers: &mut Answers,
    names: &[String],
    case: &Case,
    problem: &Problem,
) -> CaseOutcome {
    let mut found = None;
    for name in names {
        match answers.read(name, problem.output_limit) {
            Err(OutputFileError::Missing) => continue,
            read => {
                found = Some((name, read));
                break;
            }
        }
    }
    let judgement = match found {
        None => Judgement::wrong_answer(format!(
            "no answer file: looked for {}",
            crate::score::Names(names)
        )),
        Some((name, Err(why))) => refused(name, &why, problem.output_limit),
        Some((_, Ok(output))) => return checked(case, problem, output),
    };
    let mut outcome = CaseOutcome::new(case.name.clone(), judgement.verdict, judgement.reason);
    outcome.input = Some(InputExcerpt::read(&case.input));
    outcome
}

/// The verdict of an answer file that was not read: the contestant's doing (WA, or OLE for
/// one above the output limit), except a failure on the judge's side.
fn refused(name: &str, why: &OutputFileError, limit: u64) -> Judgement {
    match why {
        OutputFileError::TooLarge => Judgement::new(
            Verdict::OutputLimitExceeded,
            format!(
                "the answer file `{name}` is larger than the output limit ({}): it is not read",
                crate::units::format_bytes(limit)
            ),
        ),
        OutputFileError::Io(why) => {
            Judgement::judge_error(format!("cannot read the answer file `{name}`: {why}"))
        }
        other => Judgement::wrong_answer(format!(
            "the answer file `{name}` is not read: {}",
            beneath::describe(other)
        )),
    }
}

/// An answer file read: checked against the case's answer as a program's output would be.
fn checked(case: &Case, problem: &Problem, output: Vec<u8>) -> CaseOutcome {
    let mut outcome = CaseOutcome::new(case.name.clone(), Verdict::Accepted, String::new());
    if case.unanswered() {
        outcome.reason = super::NO_ANSWER.to_string();
        outcome.unanswered = Some(output);
        outcome.input = Some(InputExcerpt::read(&case.input));
        return outcome;
    }
    let answer = match std::fs::read(&case.answer) {
        Ok(answer) => answer,
        Err(error) => {
            outcome.verdict = Verdict::JudgeError;
            outcome.reason = format!(
                "cannot read answer file `{}`: {error}",
                case.answer.display()
            );
            return outcome;
        }
    };
    let files = CaseFiles {
        input: &case.input,
        answer: &case.answer,
    };
    let judgement = check::check(&problem.checker, &files, &output, &answer);
    outcome.verdict = judgement.verdict;
    outcome.reason = judgement.reason;
    outcome.credit = judgement.credit;
    if outcome.verdict == Verdict::WrongAnswer {
        outcome.mismatch = Some(super::plain::mismatch(&problem.checker, output, answer));
    }
    if !outcome.verdict.is_accepted() {
        outcome.input = Some(InputExcerpt::read(&case.input));
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_looked_for_by_its_whole_name_then_by_its_last_part_when_unique() {
        assert_eq!(names_for("07", true), ["07.out", "output_07.txt"]);
        assert_eq!(
            names_for("secret/g1/07", true),
            ["secret/g1/07.out", "07.out", "output_07.txt"]
        );
        // Two groups with a case `07`: only the whole name tells them apart.
        assert_eq!(names_for("secret/g1/07", false), ["secret/g1/07.out"]);
    }
}
