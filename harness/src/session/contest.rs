//! `harness contest CONTEST --submissions DIR`: every team's submissions judged once, in
//! parallel, each as `harness judge` judges one (the problem's package, its cases, limits,
//! checker, the sandbox and the build cache), those judged before with the same bytes taken
//! from the contest cache; then the scoreboard, on stdout, as CLICS JSON, or as an event feed.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{Context as _, Result};

use super::{packages, Format, Session};
use crate::atomic::{NamedFile, Report};
use crate::contest::cache::{self, Judgement, Run};
use crate::contest::scoreboard::{ScoreBy, View};
use crate::contest::submissions::{self, Context};
use crate::contest::{clics, rules, LanguageInfo, ProblemInfo, Record};
use crate::exit;
use crate::judge::submission::{self, Plan, SubmissionReport};
use crate::judge::Stop;
use crate::report::notice;
use crate::report::progress::Progress;

/// The event feed as a file the user names.
const FEED: Report = Report {
    what: "the event feed",
    option: "--event-feed",
    example: "event-feed.ndjson",
    marker: clics::FEED_MARKER,
};

/// What `harness contest` is asked to do.
#[derive(Debug, Clone, Default)]
pub struct ContestRequest {
    /// The contest folder (problems.yaml, contest.yaml, the packages).
    pub contest: PathBuf,
    /// The day's submissions: a CLICS package's or a folder per team.
    pub submissions: PathBuf,
    /// Submissions judged at once [default: the cores].
    pub jobs: Option<usize>,
    /// Judge every submission again, whatever the cache holds.
    pub rejudge: bool,
    /// How a score contest takes a problem's score from the tries.
    pub score_by: ScoreBy,
    pub format: Format,
    /// Show the board as it stood at the freeze.
    pub frozen: bool,
    /// Also write the CLICS event feed to this file.
    pub event_feed: Option<PathBuf>,
    /// Each team's tries, with their verdicts and first failing cases, under the board.
    pub debrief: bool,
    /// Write the event feed over a file that is not an earlier one.
    pub force: bool,
}

impl ContestRequest {
    fn jobs(&self) -> usize {
        self.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        })
    }
}

/// The name of a folder, for a contest that does not give one.
fn folder_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || "contest".to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl Session {
    /// Judges the day and prints its scoreboard; the exit code is a judge error's when one
    /// of the judge's own parts failed on a submission (its board cannot be trusted), else 0.
    pub fn contest(&self, request: &ContestRequest) -> Result<i32> {
        let dir = &request.contest;
        if !crate::package::contest::is_contest(dir) {
            anyhow::bail!(
                "`{}` is not a contest folder: it has no problems.yaml (hint: `harness export --contest` writes one; each problem is `- id: <folder>` with its `label: A`)",
                dir.display()
            );
        }
        let contest = crate::package::contest::open(dir)?;
        let info = rules::read(&contest.root, &folder_name(&contest.root), request.score_by)?;
        // A file that may not be written stops the command before anything runs.
        let feed_file = match &request.event_feed {
            Some(path) => Some(NamedFile::new(path, FEED, request.force)?),
            None => None,
        };
        let languages = self.languages();
        let day = submissions::read(
            &request.submissions,
            &Context {
                problems: &contest.problems,
                languages: &languages,
                start: info.start,
                duration: info.rules.duration,
            },
        )?;
        let human = request.format == Format::Human;
        let jobs = request.jobs().max(1);
        let mut loaded = Vec::new();
        for problem in &contest.problems {
            loaded.push(
                packages::load_for_judging(&problem.dir, languages.clone(), jobs, human)
                    .with_context(|| format!("problem {} (`{}`)", problem.label, problem.id))?,
            );
        }
        let mut problem_keys = Vec::new();
        let mut interactors = Vec::new();
        for package in &loaded {
            let problem = package.problem();
            problem_keys.push(
                cache::problem_key(problem, &package.package.cases).with_context(|| {
                    format!(
                        "cannot read the cases of `{}`",
                        package.package.root.display()
                    )
                })?,
            );
            interactors.push(crate::judge::interactive::prepare(
                &package.config,
                problem,
            )?);
        }
        // Each submission planned, and keyed by what decides its judgement.
        let mut plans = Vec::new();
        let mut keys = Vec::new();
        let mut checked: Vec<String> = Vec::new();
        for submission in &day.submissions {
            let package = &loaded[submission.problem];
            let problem = package.problem();
            let language = package
                .config
                .languages
                .iter()
                .find(|l| l.id == submission.language)
                .with_context(|| {
                    format!(
                        "`{}`: no language `{}`",
                        submission.shown, submission.language
                    )
                })?;
            if !checked.contains(&language.id) {
                crate::package::languages::available(language).map_err(|why| {
                    anyhow::anyhow!(
                        "cannot judge `{}` ({}): {why}",
                        submission.shown,
                        language.name
                    )
                })?;
                checked.push(language.id.clone());
            }
            let bytes = std::fs::read(&submission.source)
                .with_context(|| format!("cannot read `{}`", submission.source.display()))?;
            keys.push(cache::submission_key(
                &problem_keys[submission.problem],
                language,
                &bytes,
            ));
            plans.push(Plan {
                problem,
                language,
                source: submission.source.clone(),
                cases: package.package.cases.clone(),
                interactor: interactors[submission.problem].clone(),
                communication: None,
                scoring: problem.package_scoring.clone(),
                unscored: None,
            });
        }
        let store = cache::Store::open(
            &crate::compile::cache::cache_root(),
            &contest.root,
            &request.submissions,
        );
        let mut judgements: Vec<Option<Judgement>> = keys
            .iter()
            .map(|key| {
                if request.rejudge {
                    None
                } else {
                    store.get(key).cloned()
                }
            })
            .collect();
        let queue: Vec<usize> = (0..plans.len())
            .filter(|&i| judgements[i].is_none())
            .collect();
        let cached = plans.len() - queue.len();
        if human && cached > 0 {
            let _ = writeln!(
                anstream::stderr(),
                "note: {cached} of {} submissions were judged before with the same bytes, cases and limits: their judgements are reused (hint: --rejudge judges them again)",
                plans.len()
            );
        }
        for (index, judgement) in judge_all(&plans, &queue, jobs)? {
            judgements[index] = Some(judgement);
        }
        let judgements: Vec<Judgement> = judgements
            .into_iter()
            .map(|j| j.expect("every submission judged"))
            .collect();
        let kept: HashMap<String, Judgement> = keys
            .iter()
            .cloned()
            .zip(judgements.iter().cloned())
            .collect();
        if let Err(error) = store.save(kept) {
            let _ = notice::write_warning(
                &mut anstream::stderr(),
                format_args!("{error} (the next run will judge every submission again)"),
            );
        }
        let mut used: Vec<LanguageInfo> = Vec::new();
        for plan in &plans {
            if !used.iter().any(|l| l.id == plan.language.id) {
                used.push(LanguageInfo {
                    id: plan.language.id.clone(),
                    name: plan.language.name.clone(),
                    extensions: plan.language.extensions.clone(),
                });
            }
        }
        let problems = contest
            .problems
            .iter()
            .zip(&loaded)
            .map(|(p, package)| ProblemInfo {
                label: p.label.clone(),
                id: p.id.clone(),
                name: package.problem().title.clone(),
                cases: package.package.cases.len(),
                time_limit_ms: u64::try_from(package.problem().time_limit.as_millis())
                    .unwrap_or(u64::MAX),
                max_score: package
                    .problem()
                    .package_scoring
                    .as_ref()
                    .and_then(|s| s.max_score()),
            })
            .collect();
        let record = Record {
            info: &info,
            start: info.start.or(day.start).unwrap_or(0),
            problems,
            teams: &day.teams,
            languages: used,
            submissions: &day.submissions,
            judgements,
        };
        if let Some(file) = &feed_file {
            file.write(clics::event_feed(&record).as_bytes())?;
        }
        let view = if request.frozen && info.rules.freeze.is_some() {
            View::Frozen
        } else {
            View::Final
        };
        let mut stdout = anstream::stdout().lock();
        match request.format {
            Format::Json => {
                let board = record.board(view);
                serde_json::to_writer_pretty(&mut stdout, &clics::scoreboard(&record, &board))?;
                std::io::Write::write_all(&mut stdout, b"\n")?;
            }
            Format::Human => {
                crate::report::scoreboard::write_board(&mut stdout, &record, &record.board(view))?;
                if request.debrief {
                    crate::report::scoreboard::write_debrief(&mut stdout, &record)?;
                }
            }
        }
        std::io::Write::flush(&mut stdout)?;
        let broken: Vec<&str> = day
            .submissions
            .iter()
            .zip(&record.judgements)
            .filter(|(_, j)| j.verdict() == crate::verdict::Verdict::JudgeError)
            .map(|(s, _)| s.shown.as_str())
            .collect();
        if broken.is_empty() {
            return Ok(exit::OK);
        }
        let _ = notice::write_warning(
            &mut anstream::stderr(),
            format_args!(
                "the judge failed on {} submission(s) ({}): not the teams' fault, and not counted against them; the board may change once it is fixed (hint: `harness judge {} LABEL SOURCE` shows why)",
                broken.len(),
                broken.iter().take(5).map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", "),
                dir.display()
            ),
        );
        Ok(exit::JUDGE_ERROR)
    }
}

/// Judges the submissions of `queue`, `jobs` at once (one case at a time each: the times
/// are the contest's), with a progress bar on stderr.
fn judge_all(plans: &[Plan<'_>], queue: &[usize], jobs: usize) -> Result<Vec<(usize, Judgement)>> {
    if queue.is_empty() {
        return Ok(Vec::new());
    }
    let mut progress = Progress::stderr_counting(Some(queue.len()), "submissions");
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut done = Vec::new();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(queue.len()) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || loop {
                let at = next.fetch_add(1, Ordering::SeqCst);
                let Some(&index) = queue.get(at) else {
                    break;
                };
                let options = submission::Options {
                    jobs: 1,
                    stop: Stop::Unneeded,
                };
                let result = submission::judge(&plans[index], &options, &mut |_| {});
                let stop = result.is_err();
                if sender.send((index, result)).is_err() || stop {
                    break;
                }
            });
        }
        drop(sender);
        for (index, result) in receiver {
            match result {
                Ok(report) => {
                    if !report.verdict.is_accepted() {
                        progress.add_failure();
                    }
                    progress.tick();
                    done.push((index, judgement_of(&report)));
                }
                Err(error) => {
                    // The others finish what they run; nothing more is taken.
                    next.store(queue.len(), Ordering::SeqCst);
                    failure.get_or_insert(error);
                }
            }
        }
    });
    progress.finish();
    match failure {
        Some(error) => Err(error.into()),
        None => Ok(done),
    }
}

/// What the board, the feed and the debrief keep of a report.
fn judgement_of(report: &SubmissionReport) -> Judgement {
    // The subtasks are the groups with no groups inside (`secret/group1`, … and `sample`);
    // where the problem's total is not their sum (a `min` above them), there are none to
    // take the best of one by one, and the try counts as a whole.
    let score = report
        .score
        .as_ref()
        .and_then(crate::results::submission::SubmissionScore::score);
    let subtasks: Vec<f64> = report
        .score
        .as_ref()
        .map(|sheet| {
            let groups = sheet.groups();
            groups
                .iter()
                .filter(|g| {
                    let inner = format!("{}/", g.name);
                    !groups.iter().any(|o| o.name.starts_with(&inner))
                })
                .map(|g| g.score.unwrap_or(0.0))
                .collect()
        })
        .unwrap_or_default();
    let sums = score.is_some_and(|total| (subtasks.iter().sum::<f64>() - total).abs() < 1e-6);
    let subtasks = if sums { subtasks } else { Vec::new() };
    Judgement {
        verdict: report.verdict.as_str().to_string(),
        score,
        subtasks,
        failing: report
            .first_failure()
            .map(|o| (o.case.clone(), o.reason.clone())),
        runs: report
            .outcomes
            .iter()
            .map(|o| Run {
                case: o.case.clone(),
                verdict: o.verdict.as_str().to_string(),
                cpu_ms: u64::try_from(o.cpu_time.as_millis()).unwrap_or(u64::MAX),
            })
            .collect(),
    }
}
