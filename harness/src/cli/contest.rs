//! `harness contest CONTEST --submissions DIR`: judge a contest day's submissions and print
//! the scoreboard.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};

use super::args::Format;
use super::GlobalArgs;
use crate::contest::scoreboard::ScoreBy;
use crate::session::ContestRequest;

/// How a score (IOI) contest takes a problem's score from a team's tries.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum ScoreByArg {
    /// Each subtask's best across the tries, summed (CMS `max_subtask`, IOI since 2017).
    #[default]
    MaxSubtask,
    /// The best single try.
    BestSubmission,
}

#[derive(Args, Debug, Clone)]
pub struct ContestArgs {
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
    #[arg(short, long, value_name = "N", value_parser = super::args::parse_jobs)]
    pub jobs: Option<usize>,
    /// Judge every submission again, also those the cache holds a judgement of (the same
    /// bytes on the same cases, limits and checker).
    #[arg(long)]
    pub rejudge: bool,
    /// How a score contest takes a problem's score from a team's tries.
    #[arg(long, value_enum, default_value_t = ScoreByArg::MaxSubtask, value_name = "RULE")]
    pub score_by: ScoreByArg,
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

pub fn contest(global: &GlobalArgs, args: &ContestArgs) -> Result<i32> {
    let request = ContestRequest {
        contest: args.contest.clone(),
        submissions: args.submissions.clone(),
        jobs: args.jobs,
        rejudge: args.rejudge,
        score_by: match args.score_by {
            ScoreByArg::MaxSubtask => ScoreBy::MaxSubtask,
            ScoreByArg::BestSubmission => ScoreBy::BestSubmission,
        },
        format: args.format.into(),
        frozen: args.frozen,
        event_feed: args.event_feed.clone(),
        debrief: args.debrief,
        html: args.html.clone(),
        force: args.force,
    };
    global.session().contest(&request)
}
