//! `harness export --contest --with-submissions DIR`: a contest day handed to DOMjudge. The
//! day's teams and submissions (either layout `harness contest` reads) go into the exported
//! contest as a CLICS contest package holds them: `groups.json`, `teams.json`,
//! `accounts.json` (what DOMjudge's `import-contest` reads), `submissions.json` with each
//! submission's original id, team, language and time, and `submissions/<id>/files.zip`, which
//! an admin `PUT`s to DOMjudge's API at that id and time (its admin-submit path). The day is
//! read and checked before anything is written.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::ExportError;
use crate::config::{Config, Problem};
use crate::contest::error::ContestError;
use crate::contest::rules::{self, ContestInfo};
use crate::contest::scoreboard::ScoreBy;
use crate::contest::submissions::{self, Context, Day};
use crate::contest::time::{format_abstime, format_reltime};
use crate::package::contest::ContestProblem;

/// The one group every team is put in: DOMjudge shows a team on its scoreboard by its
/// category, and the CLICS package's `groups.json` is what makes one.
const GROUP: &str = "participants";

/// A day read for the hand-off.
pub struct HandOff {
    pub info: ContestInfo,
    /// The folder it was read from, as the coach named it.
    pub dir: PathBuf,
    day: Day,
    /// When the contest starts, when the day says: contest.yaml's, or the submissions' own.
    start: Option<i64>,
}

/// Whether `id` is a CLICS identifier (`common.json#/identifier`): what DOMjudge takes as
/// an external id.
pub(crate) fn is_identifier(id: &str) -> bool {
    let bytes = id.as_bytes();
    let inner = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-');
    match bytes {
        [] => false,
        [only] => only.is_ascii_alphanumeric() || *only == b'_',
        [first, middle @ .., last] => {
            (first.is_ascii_alphanumeric() || *first == b'_')
                && bytes.len() <= 36
                && middle.iter().all(inner)
                && (last.is_ascii_alphanumeric() || matches!(last, b'_' | b'-'))
        }
    }
}

/// Reads the day in `dir` for `problems`, labelled `labels` (the export's), with the rules of
/// contest.yaml beside judge.toml (when there is one).
pub fn read(
    config: &Config,
    problems: &[&Problem],
    labels: &[String],
    dir: &Path,
) -> Result<HandOff, ExportError> {
    let folder = super::folder_name(config).unwrap_or_else(|| "contest".to_string());
    let info = rules::read(&config.root, &folder, ScoreBy::default())?;
    let contest_problems: Vec<ContestProblem> = problems
        .iter()
        .zip(labels)
        .map(|(p, label)| ContestProblem {
            label: label.clone(),
            id: p.name.clone(),
            dir: p.cases.clone(),
        })
        .collect();
    // The package table: the languages, and their ids, that the exported problems are judged
    // with (`python3`, `cpp`), which are DOMjudge's too.
    let languages = crate::package::languages(Some(config));
    let day = submissions::read(
        dir,
        &Context {
            problems: &contest_problems,
            languages: &languages,
            start: info.start,
            duration: info.rules.duration,
        },
    )?;
    for team in &day.teams {
        if !is_identifier(&team.id) {
            return Err(ContestError::invalid(
                dir.join(&team.id),
                format!(
                    "team `{}` cannot keep its id in a CLICS package, whose ids are letters, digits, `_`, `.` and `-` (at most 36) (hint: rename its folder, `{}`)",
                    team.id,
                    team.id.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
                ),
            )
            .into());
        }
    }
    for submission in &day.submissions {
        if !is_identifier(&submission.id) {
            return Err(ContestError::invalid(
                dir,
                format!("submission `{}`: not an id a CLICS package can keep (letters, digits, `_`, `.` and `-`, at most 36)", submission.id),
            )
            .into());
        }
    }
    let start = info.start.or(day.start);
    Ok(HandOff {
        info,
        dir: dir.to_path_buf(),
        day,
        start,
    })
}

impl HandOff {
    /// What makes DOMjudge (and `harness contest` on the export) rank the day otherwise than
    /// `harness contest` on judge.toml: in a pass-fail contest, a scored problem's package
    /// accepts a partial try with its score, as Kattis judges one.
    pub fn warnings(&self, problems: &[&Problem], labels: &[String]) -> Vec<String> {
        if self.info.rules.kind != crate::contest::scoreboard::Kind::PassFail {
            return Vec::new();
        }
        problems
            .iter()
            .zip(labels)
            .filter(|(p, _)| p.scoring.is_scored())
            .map(|(p, label)| {
                format!(
                    "problem {label} (`{}`) is scored, and its package accepts a try that scores anything, with its score (as Kattis judges a scoring problem), where judge.toml's pass-fail contest rejects it: the exported day's board can differ (hint: `scoreboard_type: score` in contest.yaml, or no `scoring` for an ICPC day)",
                    p.name
                )
            })
            .collect()
    }

    pub fn teams(&self) -> usize {
        self.day.teams.len()
    }

    pub fn submissions(&self) -> usize {
        self.day.submissions.len()
    }

    /// The contest's start, when the day says it (contest.yaml or the submissions).
    pub fn start_time(&self) -> Option<String> {
        self.start.map(format_abstime)
    }

    /// One entry per team, as `entry` writes it.
    fn per_team(&self, entry: impl Fn(&str, &str) -> Value) -> Value {
        Value::Array(
            self.day
                .teams
                .iter()
                .map(|team| entry(&team.id, &team.name))
                .collect(),
        )
    }

    fn teams_json(&self) -> Value {
        self.per_team(|id, name| {
            json!({"id": id, "label": id, "name": name, "display_name": name, "group_ids": [GROUP]})
        })
    }

    /// An account per team, of type `team`, with no password: the hand-off is for re-judging
    /// (an admin submits the tries); DOMjudge can generate passwords should teams log in.
    fn accounts_json(&self) -> Value {
        self.per_team(|id, name| {
            json!({"id": id, "username": id, "name": name, "type": "team", "team_id": id})
        })
    }

    /// `problem_ids`: the exported problems' ids, by the day's problem index; `start`: the
    /// contest's start the times are counted from.
    fn submissions_json(&self, problem_ids: &[String], start: i64) -> Value {
        Value::Array(
            self.day
                .submissions
                .iter()
                .map(|s| {
                    let entry_point = if s.language == "java" || s.language == "kotlin" {
                        json!(s
                            .source
                            .file_stem()
                            .map(|stem| stem.to_string_lossy().into_owned()))
                    } else {
                        Value::Null
                    };
                    json!({
                        "id": s.id,
                        "language_id": s.language,
                        "problem_id": problem_ids[s.problem],
                        "team_id": self.day.teams[s.team].id,
                        "time": format_abstime(start + s.time),
                        "contest_time": format_reltime(s.time),
                        "entry_point": entry_point,
                        "files": [{
                            "href": format!("submissions/{}/files.zip", s.id),
                            "filename": "files.zip",
                            "mime": "application/zip",
                        }],
                    })
                })
                .collect(),
        )
    }

    /// Writes the day into the contest folder `root` (the export's, not yet in its place);
    /// `placeholder`: the start contest.yaml is given when the day does not say one.
    pub fn write(
        &self,
        root: &Path,
        problem_ids: &[String],
        placeholder: i64,
    ) -> Result<(), ExportError> {
        let write = |relative: &str, bytes: &[u8]| -> Result<(), ExportError> {
            let path = root.join(relative);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(super::write_error(parent))?;
            }
            std::fs::write(&path, bytes).map_err(super::write_error(&path))
        };
        let pretty = |value: &Value| {
            let mut text = serde_json::to_string_pretty(value).expect("JSON serializes");
            text.push('\n');
            text
        };
        write(
            "groups.json",
            pretty(&json!([{ "id": GROUP, "name": "Participants" }])).as_bytes(),
        )?;
        write("teams.json", pretty(&self.teams_json()).as_bytes())?;
        write("accounts.json", pretty(&self.accounts_json()).as_bytes())?;
        write(
            "submissions.json",
            pretty(&self.submissions_json(problem_ids, self.start.unwrap_or(placeholder)))
                .as_bytes(),
        )?;
        for submission in &self.day.submissions {
            let relative = format!("submissions/{}/files.zip", submission.id);
            let bytes = super::read(&submission.source)?;
            let name = submission.source.file_name().map_or_else(
                || "source".to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            write(&relative, &zip_of(&name, &bytes, &root.join(&relative))?)?;
        }
        Ok(())
    }
}

/// A zip holding one file.
fn zip_of(name: &str, bytes: &[u8], shown: &Path) -> Result<Vec<u8>, ExportError> {
    let zip_error = |error: &dyn std::fmt::Display| ExportError::Zip {
        path: shown.to_path_buf(),
        message: error.to_string(),
    };
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    writer
        .start_file(name, zip::write::SimpleFileOptions::default())
        .map_err(|e| zip_error(&e))?;
    writer.write_all(bytes).map_err(|e| zip_error(&e))?;
    let cursor = writer.finish().map_err(|e| zip_error(&e))?;
    Ok(cursor.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_clics_identifiers() {
        for good in ["t1", "ada", "_x", "a.b-c", "A", "team-", &"x".repeat(36)] {
            assert!(is_identifier(good), "{good}");
        }
        for bad in ["", "a b", ".x", "x.", "-x", "é", &"x".repeat(37), "a/b"] {
            assert!(!is_identifier(bad), "{bad}");
        }
    }
}
