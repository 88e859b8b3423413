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

use super::prepare::{build_checkers, compile_sources};
use super::{packages, Format, Session};
use crate::atomic::{NamedFile, Report};
use crate::author::program::Part;
use crate::case::discover::Case;
use crate::config::{Config, Problem};
use crate::contest::cache::{self, Judgement, Run};
use crate::contest::scoreboard::{ScoreBy, View};
use crate::contest::submissions::{self, Context};
use crate::contest::{clics, rules, LanguageInfo, ProblemInfo, Record};
use crate::exit;
use crate::judge::submission::{self, Plan, SubmissionReport};
use crate::judge::Stop;
use crate::package::contest::ContestProblem;
use crate::package::Loaded;
use crate::report::notice;
use crate::report::progress::Progress;
use crate::score::Scoring;
use std::sync::Arc;

/// The event feed as a file the user names.
const FEED: Report = Report {
    what: "the event feed",
    option: "--event-feed",
    example: "event-feed.ndjson",
    marker: clics::FEED_MARKER,
};

/// What `harness contest` is asked to do: the command's arguments themselves.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ContestRequest {
    /// The contest: a folder with problems.yaml (each problem's `id` is its package folder,
    /// with its `label`), or a judge.toml (or its folder) whose contest problems have a
    /// `label`; beside either, contest.yaml (`duration`, `scoreboard_type`, `penalty_time`,
    /// `scoreboard_freeze_duration`, `start_time`) [default: the judge.toml found from here].
    #[arg(value_name = "CONTEST")]
    pub contest: Option<PathBuf>,
    /// The day's submissions: a CLICS contest package's (`teams.json`, `submissions.json`,
    /// `submissions/<id>/files/`), or a folder per team (`alice/A.cpp`, `alice/A-2.cpp`) with
    /// a `times` file (`alice/A-2.cpp 1:05:00`) or the files' times against `start_time`.
    #[arg(long, value_name = "DIR")]
    pub submissions: PathBuf,
    /// Submissions judged at once [default: the number of CPUs]. Each runs its cases one at
    /// a time; verdicts use CPU time, which parallel runs barely disturb.
    #[arg(short, long, value_name = "N", value_parser = super::parse_jobs)]
    pub jobs: Option<usize>,
    /// Judge every submission again, also those the cache holds a judgement of (the same
    /// bytes on the same cases, limits and checker).
    #[arg(long)]
    pub rejudge: bool,
    /// How a score contest takes a problem's score from a team's tries.
    #[arg(long, value_enum, default_value_t = ScoreBy::MaxSubtask, value_name = "RULE")]
    pub score_by: ScoreBy,
    /// The board on stdout: for people, or CLICS `scoreboard.json`.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// The board as it stood at the freeze (`scoreboard_freeze_duration`): the results of the
    /// tries sent after it are pending.
    #[arg(long)]
    pub frozen: bool,
    /// Also write the CLICS event feed (event-feed.ndjson) to FILE, which the ICPC Resolver
    /// replays (a file that is not an earlier feed is never written over without --force).
    #[arg(long, value_name = "FILE")]
    pub event_feed: Option<PathBuf>,
    /// Under the board, each team's tries: time, problem, verdict, file, first failing case.
    #[arg(long)]
    pub debrief: bool,
    /// Also write the scoreboard as one self-contained HTML page to FILE: the board in ICPC
    /// colours (frozen with --frozen), and each team's tries with the first failing case.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the event feed or the page over a regular file that is not an earlier one.
    #[arg(long)]
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

/// Where the day's problems come from: a contest folder's packages, or the problems of a
/// judge.toml that have a `label`.
enum Problems {
    Packages(Vec<Loaded>),
    Table(Config),
}

/// One problem of the day, ready to plan submissions on: what every submission on it is
/// judged with.
struct Setup<'a> {
    /// The configuration its languages come from.
    config: &'a Config,
    problem: &'a Problem,
    cases: Vec<Case>,
    scoring: Option<Arc<Scoring>>,
    interactor: Option<crate::judge::interactive::Shared>,
    /// A communication task's manager, ready to run.
    communication: Option<Arc<crate::check::manager::Manager>>,
}

/// The contest a command names: its folder (whose contest.yaml has the rules, and which keys
/// the cache), its problems by label, and where they are read from.
struct Named {
    root: PathBuf,
    problems: Vec<ContestProblem>,
    /// The judge.toml, for a contest of judge.toml's problems.
    table: Option<PathBuf>,
}

/// The contest `contest` names: a contest folder (problems.yaml), a judge.toml file or a
/// folder holding one; with none, the judge.toml of `session`.
fn named(session: &Session, contest: Option<&Path>) -> Result<Named> {
    let table = match contest {
        Some(dir) if crate::package::contest::is_contest(dir) => {
            let contest = crate::package::contest::open(dir)?;
            return Ok(Named {
                root: contest.root,
                problems: contest.problems,
                table: None,
            });
        }
        Some(file) if file.is_file() => file.to_path_buf(),
        Some(dir) if dir.join(crate::config::FILE_NAME).is_file() => {
            dir.join(crate::config::FILE_NAME)
        }
        Some(other) => anyhow::bail!(
            "`{}` is not a contest: it has neither problems.yaml nor judge.toml (hint: `harness export --contest` writes a contest folder; in a judge.toml, give each problem of the contest its `label = \"A\"`)",
            other.display()
        ),
        None => session.config_path()?,
    };
    let config = crate::config::load(&table)?;
    let mut problems: Vec<ContestProblem> = config
        .problems
        .iter()
        .filter_map(|p| {
            Some(ContestProblem {
                label: p.label.clone()?,
                id: p.name.clone(),
                dir: p.cases.clone(),
            })
        })
        .collect();
    if problems.is_empty() {
        anyhow::bail!(
            "`{}` has no problem with a `label`, so it holds no contest (hint: `label = \"A\"` in each [problems.ID] table the contest has; its rules go in contest.yaml beside it)",
            table.display()
        );
    }
    // `B` before `AA`, as the columns of a board go.
    problems.sort_by(|a, b| {
        (a.label.len(), a.label.to_ascii_uppercase())
            .cmp(&(b.label.len(), b.label.to_ascii_uppercase()))
    });
    Ok(Named {
        root: config.root.canonicalize().unwrap_or(config.root),
        problems,
        table: Some(table),
    })
}

impl Problems {
    /// Reads and prepares the problems of `named`: each package built (its time limit
    /// settled), or judge.toml's problems with their checkers compiled and built.
    fn load(
        named: &Named,
        session: &Session,
        languages: &[crate::compile::Language],
        jobs: usize,
        human: bool,
    ) -> Result<Problems> {
        let Some(table) = &named.table else {
            let mut loaded = Vec::new();
            for problem in &named.problems {
                loaded.push(
                    packages::load_for_judging(&problem.dir, languages.to_vec(), jobs, human)
                        .with_context(|| format!("problem {} (`{}`)", problem.label, problem.id))?,
                );
            }
            return Ok(Problems::Packages(loaded));
        };
        let names: Vec<&str> = named.problems.iter().map(|p| p.id.as_str()).collect();
        let own = if session.config.as_deref() == Some(table.as_path()) {
            session.fresh()
        } else {
            Session::new(Some(table.clone()))
        };
        let config = compile_sources(own.load_config_to_judge(&names)?, &names, &[Part::Checker])?;
        build_checkers(
            &config,
            config
                .problems
                .iter()
                .filter(|p| names.contains(&p.name.as_str())),
            false,
        )?;
        Ok(Problems::Table(config))
    }

    /// Each problem of `named`, in its order, set up.
    fn setups(&self, named: &Named) -> Result<Vec<Setup<'_>>> {
        match self {
            Problems::Packages(loaded) => loaded
                .iter()
                .map(|package| {
                    let problem = package.problem();
                    Ok(Setup {
                        config: &package.config,
                        problem,
                        cases: package.package.cases.clone(),
                        scoring: problem.package_scoring.clone(),
                        interactor: crate::judge::interactive::prepare(&package.config, problem)?,
                        communication: crate::judge::communication::prepare(
                            &package.config,
                            problem,
                        )?,
                    })
                })
                .collect(),
            Problems::Table(config) => named
                .problems
                .iter()
                .map(|p| {
                    let problem = config.require_problem(&p.id)?;
                    if problem.interactive && problem.interactor.is_none() {
                        anyhow::bail!(
                            "problem {} (`{}`) is interactive and has no `interactor` to judge it with (hint: `interactor = \"interactor.cpp\"` in its table)",
                            p.label,
                            p.id
                        );
                    }
                    let (cases, scoring) = table_cases(problem)
                        .with_context(|| format!("problem {} (`{}`)", p.label, p.id))?;
                    Ok(Setup {
                        config,
                        problem,
                        cases,
                        scoring,
                        interactor: crate::judge::interactive::prepare(config, problem)?,
                        communication: crate::judge::communication::prepare(config, problem)?,
                    })
                })
                .collect(),
        }
    }
}

/// A judge.toml problem's own cases in judge order, and its scoring rules: a package's when it
/// names one, else its folder's and its table's.
fn table_cases(problem: &Problem) -> Result<(Vec<Case>, Option<Arc<Scoring>>)> {
    if let Some(reference) = &problem.package {
        let cases = crate::package::open(&reference.path)?.cases;
        return Ok((cases, problem.package_scoring.clone()));
    }
    let mut cases = submission::select_cases(&problem.cases, None)?;
    let all = crate::case::discover::discover_unanswered_too(&problem.cases)?;
    let scoring = crate::judge::scoring::rules_for(problem, &all)?;
    crate::judge::scoring::order_cases(scoring.as_deref(), &mut cases);
    Ok((cases, scoring))
}

impl Session {
    /// Judges the day and prints its scoreboard; the exit code is a judge error's when one
    /// of the judge's own parts failed on a submission (its board cannot be trusted), else 0.
    pub fn contest(&self, request: &ContestRequest) -> Result<i32> {
        let named = named(self, request.contest.as_deref())?;
        let info = rules::read(&named.root, &folder_name(&named.root), request.score_by)?;
        // A file that may not be written stops the command before anything runs.
        let feed_file = match &request.event_feed {
            Some(path) => Some(NamedFile::new(path, FEED, request.force)?),
            None => None,
        };
        let page_file = match &request.html {
            Some(path) => Some(NamedFile::new(
                path,
                crate::report::html::board::BOARD_PAGE,
                request.force,
            )?),
            None => None,
        };
        let human = request.format == Format::Human;
        let jobs = request.jobs().max(1);
        // The submissions are read (and bad ones named) before anything is built.
        let table_languages = match &named.table {
            Some(table) => Some(crate::config::load(table)?.languages),
            None => None,
        };
        let languages = table_languages.unwrap_or_else(|| self.languages());
        let day = submissions::read(
            &request.submissions,
            &Context {
                problems: &named.problems,
                languages: &languages,
                start: info.start,
                duration: info.rules.duration,
            },
        )?;
        let loaded = Problems::load(&named, self, &languages, jobs, human)?;
        let setups = loaded.setups(&named)?;
        let mut problem_keys = Vec::new();
        for setup in &setups {
            problem_keys.push(
                cache::problem_key(setup.problem, &setup.cases, setup.scoring.as_deref())
                    .with_context(|| {
                        format!("cannot read the cases of problem `{}`", setup.problem.name)
                    })?,
            );
        }
        // Each submission planned, and keyed by what decides its judgement.
        let mut plans = Vec::new();
        let mut keys = Vec::new();
        let mut checked: Vec<String> = Vec::new();
        for submission in &day.submissions {
            let setup = &setups[submission.problem];
            let problem = setup.problem;
            let language = setup
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
                cases: setup.cases.clone(),
                interactor: setup.interactor.clone(),
                communication: setup.communication.clone(),
                scoring: setup.scoring.clone(),
                unscored: None,
            });
        }
        let store = cache::Store::open(
            &crate::compile::cache::cache_root(),
            &named.root,
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
        // A judge error is no judgement of the try: as DOMjudge gives such a judging back,
        // the next run judges it again (the checker mended, or the fault passed).
        let kept: HashMap<String, Judgement> = keys
            .iter()
            .cloned()
            .zip(judgements.iter().cloned())
            .filter(|(_, j)| j.verdict() != crate::verdict::Verdict::JudgeError)
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
        let problems = named
            .problems
            .iter()
            .zip(&setups)
            .map(|(p, setup)| ProblemInfo {
                label: p.label.clone(),
                id: p.id.clone(),
                name: setup.problem.title.clone(),
                cases: setup.cases.len(),
                time_limit_ms: u64::try_from(setup.problem.time_limit.as_millis())
                    .unwrap_or(u64::MAX),
                max_score: match setup.scoring.as_deref().filter(|s| s.is_scored()) {
                    Some(scoring) => scoring.max_score(),
                    None => Some(crate::contest::PASS_FAIL_SCORE),
                },
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
        if let Some(file) = &page_file {
            let page = crate::report::html::board::page(&record, &record.board(view));
            file.write(page.as_bytes())?;
        }
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
        let broken: Vec<&submissions::Submission> = day
            .submissions
            .iter()
            .zip(&record.judgements)
            .filter(|(_, j)| j.verdict() == crate::verdict::Verdict::JudgeError)
            .map(|(s, _)| s)
            .collect();
        let Some(first) = broken.first() else {
            return Ok(exit::OK);
        };
        // The command that judges the first of them alone, with the judge's own words.
        let problem = &named.problems[first.problem];
        // A source unpacked from a CLICS `files.zip` is gone by now.
        let source = if first.source.starts_with(&request.submissions) {
            shell_word(&first.source)
        } else {
            "SOURCE".to_string()
        };
        let how = match (&request.contest, &named.table) {
            (_, Some(_)) => format!("harness judge {} {}", problem.id, source),
            (Some(dir), None) => format!(
                "harness judge {} {} {}",
                shell_word(dir),
                problem.label,
                source
            ),
            (None, None) => format!("harness judge CONTEST {} {}", problem.label, source),
        };
        let _ = notice::write_warning(
            &mut anstream::stderr(),
            format_args!(
                "the judge failed on {} submission(s) ({}): not the teams' fault, and not counted against them; they are pending on the board, and judged again on the next run (hint: `{how}` shows why)",
                broken.len(),
                broken.iter().take(5).map(|s| format!("`{}`", s.shown)).collect::<Vec<_>>().join(", "),
            ),
        );
        Ok(exit::JUDGE_ERROR)
    }
}

/// `path` as a word for a command line to copy: as it is when it needs no quoting.
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c));
    if plain {
        text
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
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
