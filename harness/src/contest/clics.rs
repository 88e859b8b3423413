//! The CLICS outputs of a judged day (the Contest API's 2026-01 formats): `scoreboard.json`,
//! and `event-feed.ndjson`, the log the ICPC Resolver replays to reveal a frozen board.
//! Exporters: pure functions of the [`Record`].

use serde_json::{json, Value};

use super::scoreboard::{Board, Kind, View};
use super::time::{format_abstime, format_reltime, Millis};
use super::Record;
use crate::verdict::Verdict;

/// How every event feed the harness writes begins: an earlier one is known by it.
pub const FEED_MARKER: &str = "{\"type\":\"contest\"";

/// CLICS's judgement type of a verdict (RE is `RTE` there).
pub fn judgement_type(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::RuntimeError => "RTE",
        other => other.as_str(),
    }
}

/// The judgement types the harness gives, with CLICS's names and whether each costs a try.
fn judgement_types() -> Vec<Value> {
    Verdict::ALL
        .iter()
        .map(|&verdict| {
            let name = match verdict {
                Verdict::Accepted => "correct",
                Verdict::WrongAnswer => "wrong answer",
                Verdict::TimeLimitExceeded => "time limit exceeded",
                Verdict::MemoryLimitExceeded => "memory limit exceeded",
                Verdict::RuntimeError => "run-time error",
                Verdict::OutputLimitExceeded => "output limit exceeded",
                Verdict::CompileError => "compiler error",
                Verdict::JudgeError => "judging error",
            };
            let penalty = !matches!(
                verdict,
                Verdict::Accepted | Verdict::CompileError | Verdict::JudgeError
            );
            json!({
                "id": judgement_type(verdict),
                "name": name,
                "penalty": penalty,
                "solved": verdict == Verdict::Accepted,
            })
        })
        .collect()
}

/// The contest state of `view`: a final board is of a finished, finalized contest.
fn state(record: &Record<'_>, view: View) -> Value {
    let end = format_abstime(record.end());
    let frozen = record
        .info
        .rules
        .freeze_start()
        .map(|at| format_abstime(record.start + at));
    let finalized = (view == View::Final).then(|| end.clone());
    json!({
        "started": format_abstime(record.start),
        "frozen": frozen,
        "ended": end,
        "thawed": frozen.as_ref().and(finalized.clone()),
        "finalized": finalized,
        "end_of_updates": finalized,
    })
}

/// `scoreboard.json` of `board`.
pub fn scoreboard(record: &Record<'_>, board: &Board) -> Value {
    let kind = record.info.rules.kind;
    let rows: Vec<Value> = board
        .rows
        .iter()
        .map(|row| {
            let last = row.last.map(format_reltime);
            let score = match kind {
                Kind::PassFail => json!({
                    "num_solved": row.solved,
                    "total_time": format_reltime(row.total_minutes * 60_000),
                    "time": last,
                }),
                Kind::Score => json!({ "score": row.score, "time": last }),
            };
            let problems: Vec<Value> = row
                .cells
                .iter()
                .zip(&record.problems)
                .map(|(cell, problem)| {
                    let mut value = json!({
                        "problem_id": problem.id,
                        "num_judged": cell.judged,
                        "num_pending": cell.pending,
                    });
                    let timed = match kind {
                        Kind::PassFail => {
                            value["solved"] = json!(cell.solved);
                            cell.solved
                        }
                        Kind::Score => {
                            value["score"] = json!(cell.score);
                            cell.score > 0.0
                        }
                    };
                    if let (true, Some(time)) = (timed, cell.time) {
                        value["time"] = json!(format_reltime(time));
                    }
                    value
                })
                .collect();
            json!({
                "rank": row.rank,
                "team_id": record.teams[row.team].id,
                "score": score,
                "problems": problems,
            })
        })
        .collect();
    let contest_time = match board.view {
        View::Frozen => record
            .info
            .rules
            .freeze_start()
            .unwrap_or(record.info.rules.duration),
        View::Final => record.info.rules.duration,
    };
    json!({
        "time": format_abstime(record.start + contest_time),
        "contest_time": format_reltime(contest_time),
        "state": state(record, board.view),
        "rows": rows,
    })
}

fn event(kind: &str, id: Option<&str>, data: &Value) -> String {
    // Built by hand so that `type` comes first: the feed's marker depends on it.
    format!(
        "{{\"type\":{},\"id\":{},\"data\":{}}}\n",
        json!(kind),
        json!(id),
        data
    )
}

/// `event-feed.ndjson`: the contest and its fixed parts, then every submission with its
/// judgement and runs at the time it was sent, the freeze where it falls, and the end.
pub fn event_feed(record: &Record<'_>) -> String {
    let info = record.info;
    let rules = &info.rules;
    let mut feed = String::new();
    let mut contest = json!({
        "id": info.id,
        "name": info.name,
        "formal_name": info.name,
        "start_time": format_abstime(record.start),
        "duration": format_reltime(rules.duration),
        "scoreboard_freeze_duration": rules.freeze.map(format_reltime),
        "scoreboard_type": rules.kind.as_str(),
    });
    if rules.kind == Kind::PassFail {
        contest["penalty_time"] = json!(format_reltime(rules.penalty_minutes * 60_000));
    }
    feed += &event("contest", Some(&info.id), &contest);
    for judgement_type in judgement_types() {
        let id = judgement_type["id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        feed += &event("judgement-types", Some(&id), &judgement_type);
    }
    for language in &record.languages {
        let entry_point = language.id == "java" || language.id == "kotlin";
        let mut data = json!({
            "id": language.id,
            "name": language.name,
            "entry_point_required": entry_point,
            "extensions": language.extensions,
        });
        // Given only when one is required: the schema refuses it (even null) otherwise.
        if entry_point {
            data["entry_point_name"] = json!("Main class");
        }
        feed += &event("languages", Some(&language.id), &data);
    }
    for (ordinal, problem) in record.problems.iter().enumerate() {
        let mut data = json!({
            "id": problem.id,
            "label": problem.label,
            "name": problem.name,
            "ordinal": ordinal,
            "time_limit": problem.time_limit_ms as f64 / 1000.0,
            "test_data_count": problem.cases,
        });
        if let (Kind::Score, Some(max)) = (rules.kind, problem.max_score) {
            data["max_score"] = json!(max);
        }
        feed += &event("problems", Some(&problem.id), &data);
    }
    for team in record.teams {
        feed += &event(
            "teams",
            Some(&team.id),
            &json!({
                "id": team.id,
                "label": team.id,
                "name": team.name,
                "display_name": team.name,
            }),
        );
    }
    let started = json!({
        "started": format_abstime(record.start),
        "frozen": null,
        "ended": null,
        "thawed": null,
        "finalized": null,
        "end_of_updates": null,
    });
    feed += &event("state", None, &started);
    let freeze = rules.freeze_start();
    let frozen_at = |at: Millis| {
        let mut state = started.clone();
        state["frozen"] = json!(format_abstime(record.start + at));
        event("state", None, &state)
    };
    let mut froze = false;
    for (submission, judgement) in record.submissions.iter().zip(&record.judgements) {
        if let Some(at) = freeze.filter(|&at| !froze && submission.time >= at) {
            froze = true;
            feed += &frozen_at(at);
        }
        let at = |offset: Millis| format_abstime(record.start + submission.time + offset);
        let mut data = json!({
            "id": submission.id,
            "language_id": submission.language,
            "problem_id": record.problems[submission.problem].id,
            "team_id": record.teams[submission.team].id,
            "time": at(0),
            "contest_time": format_reltime(submission.time),
            "files": [{
                "href": format!("contests/{}/submissions/{}/files", info.id, submission.id),
                "filename": "files.zip",
                "mime": "application/zip",
            }],
        });
        // The schema wants Java's entry point, and a C or C++ one present as null.
        data["entry_point"] = if submission.language == "java" || submission.language == "kotlin" {
            json!(submission
                .source
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned()))
        } else {
            Value::Null
        };
        feed += &event("submissions", Some(&submission.id), &data);
        let started_judging = json!({
            "id": submission.id,
            "submission_id": submission.id,
            "start_time": at(0),
            "start_contest_time": format_reltime(submission.time),
        });
        feed += &event("judgements", Some(&submission.id), &started_judging);
        for (ordinal, run) in judgement.runs.iter().enumerate() {
            let id = format!("{}-{}", submission.id, ordinal + 1);
            let verdict = Verdict::from_code(&run.verdict).unwrap_or(Verdict::JudgeError);
            feed += &event(
                "runs",
                Some(&id),
                &json!({
                    "id": id,
                    "judgement_id": submission.id,
                    "ordinal": ordinal + 1,
                    "judgement_type_id": judgement_type(verdict),
                    "time": at(0),
                    "contest_time": format_reltime(submission.time),
                    "run_time": run.cpu_ms as f64 / 1000.0,
                }),
            );
        }
        let mut done = started_judging;
        done["judgement_type_id"] = json!(judgement_type(judgement.verdict()));
        done["end_time"] = json!(at(0));
        done["end_contest_time"] = json!(format_reltime(submission.time));
        done["max_run_time"] = json!(judgement.max_cpu_ms() as f64 / 1000.0);
        if let Some(score) = judgement.score {
            done["score"] = json!(score.max(0.0));
        }
        feed += &event("judgements", Some(&submission.id), &done);
    }
    if let Some(at) = freeze.filter(|_| !froze) {
        feed += &frozen_at(at);
    }
    let mut ended = state(record, View::Frozen);
    // The resolver thaws the board itself: the feed ends finalized, still frozen.
    ended["finalized"] = ended["ended"].clone();
    ended["end_of_updates"] = ended["ended"].clone();
    feed += &event("state", None, &ended);
    feed
}
