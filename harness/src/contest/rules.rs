//! A contest's rules as its `contest.yaml` states them (the CLICS contest package's keys:
//! `id`, `name`, `start_time`, `duration`, `scoreboard_type`, `penalty_time`,
//! `scoreboard_freeze_duration`); what it leaves out takes DOMjudge's defaults (pass-fail, a
//! 5-hour contest, 20 minutes a rejected try, no freeze). Other keys are left alone.

use std::path::Path;

use serde::Deserialize;

use super::error::ContestError;
use super::scoreboard::{Kind, Rules, ScoreBy};
use super::time::{self, Millis};
use crate::package::FileError;

/// DOMjudge's `penalty_time`.
pub const DEFAULT_PENALTY_MINUTES: i64 = 20;
/// A contest with no `duration`: five hours, as an ICPC regional.
pub const DEFAULT_DURATION: Millis = 5 * 3_600_000;

/// The contest: who it is, when, and how it is scored.
#[derive(Debug, Clone, PartialEq)]
pub struct ContestInfo {
    /// `id`, else the folder's name.
    pub id: String,
    pub name: String,
    /// `start_time`, milliseconds since 1970 UTC.
    pub start: Option<Millis>,
    pub rules: Rules,
}

/// A number (minutes) or a RELTIME, as `penalty_time` has been written in the package
/// formats' versions.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Span {
    Minutes(i64),
    Text(String),
}

#[derive(Debug, Deserialize, Default)]
struct Raw {
    id: Option<String>,
    name: Option<String>,
    formal_name: Option<String>,
    title: Option<String>,
    start_time: Option<String>,
    duration: Option<Span>,
    scoreboard_freeze_duration: Option<Span>,
    scoreboard_type: Option<String>,
    penalty_time: Option<Span>,
}

/// The line and column of `key:` at the start of a line of `text` (1, 1 when not found).
fn key_position(text: &str, key: &str) -> (usize, usize) {
    text.lines()
        .enumerate()
        .find_map(|(number, line)| {
            let trimmed = line.trim_start();
            let rest = trimmed.strip_prefix(key)?;
            rest.trim_start()
                .starts_with(':')
                .then(|| (number + 1, line.len() - trimmed.len() + 1))
        })
        .unwrap_or((1, 1))
}

/// The contest of the folder `dir` (its `contest.yaml`, when there is one), `folder_name`
/// naming it otherwise; `score_by` says how a score contest sums its tries.
pub fn read(dir: &Path, folder_name: &str, score_by: ScoreBy) -> Result<ContestInfo, ContestError> {
    let path = dir.join("contest.yaml");
    let text = if path.is_file() {
        // Bounded as every YAML file of a package is.
        crate::package::yaml::read(&path)?;
        std::fs::read_to_string(&path).map_err(|e| ContestError::read(&path, e))?
    } else {
        String::new()
    };
    parse(&path, &text, folder_name, score_by)
}

fn parse(
    path: &Path,
    text: &str,
    folder_name: &str,
    score_by: ScoreBy,
) -> Result<ContestInfo, ContestError> {
    let raw: Raw = if text.trim().is_empty() {
        Raw::default()
    } else {
        serde_norway::from_str::<Option<Raw>>(text)
            .map_err(|error| FileError::yaml(path, &error, ""))?
            .unwrap_or_default()
    };
    let at = |key: &str, message: String| {
        let (line, column) = key_position(text, key);
        ContestError::from(FileError::syntax(
            path,
            line,
            column,
            format!("`{key}`: {message}"),
        ))
    };
    let span = |key: &str,
                value: &Option<Span>,
                minutes_unit: bool|
     -> Result<Option<Millis>, ContestError> {
        match value {
            None => Ok(None),
            Some(Span::Minutes(n)) if minutes_unit && *n >= 0 => Ok(Some(n * 60_000)),
            Some(Span::Minutes(n)) => Err(at(
                key,
                format!("`{n}` is not a time like `1:00:00` (hint: hours:minutes:seconds)"),
            )),
            Some(Span::Text(text)) => match time::parse_reltime(text) {
                Ok(ms) if ms >= 0 => Ok(Some(ms)),
                Ok(_) => Err(at(key, format!("`{text}` is negative"))),
                Err(why) => Err(at(key, why)),
            },
        }
    };
    let kind = match raw.scoreboard_type.as_deref() {
        None | Some("pass-fail") => Kind::PassFail,
        Some("score") => Kind::Score,
        Some(other) => {
            return Err(at(
                "scoreboard_type",
                format!("`{other}` is neither `pass-fail` (ICPC) nor `score` (IOI)"),
            ))
        }
    };
    let duration = span("duration", &raw.duration, false)?.unwrap_or(DEFAULT_DURATION);
    if duration == 0 {
        return Err(at(
            "duration",
            "a contest lasts longer than 0:00:00".to_string(),
        ));
    }
    let freeze = span(
        "scoreboard_freeze_duration",
        &raw.scoreboard_freeze_duration,
        false,
    )?
    .filter(|&f| f > 0);
    if freeze.is_some_and(|f| f > duration) {
        return Err(at(
            "scoreboard_freeze_duration",
            format!(
                "longer than the contest (`duration` {})",
                time::format_reltime(duration)
            ),
        ));
    }
    let penalty = span("penalty_time", &raw.penalty_time, true)?
        .map_or(DEFAULT_PENALTY_MINUTES, |ms| ms / 60_000);
    let start = match &raw.start_time {
        Some(text) => Some(time::parse_abstime(text).map_err(|why| at("start_time", why))?),
        None => None,
    };
    Ok(ContestInfo {
        id: raw.id.unwrap_or_else(|| folder_name.to_string()),
        name: raw
            .name
            .or(raw.formal_name)
            .or(raw.title)
            .unwrap_or_else(|| folder_name.to_string()),
        start,
        rules: Rules {
            kind,
            penalty_minutes: penalty,
            duration,
            freeze,
            score_by,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<ContestInfo, String> {
        parse(Path::new("c/contest.yaml"), text, "c", ScoreBy::MaxSubtask)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_are_domjudges() {
        let info = parsed("").unwrap();
        assert_eq!(info.rules.kind, Kind::PassFail);
        assert_eq!(info.rules.penalty_minutes, 20);
        assert_eq!(info.rules.duration, DEFAULT_DURATION);
        assert_eq!(info.rules.freeze, None);
        assert_eq!((info.id.as_str(), info.name.as_str()), ("c", "c"));
    }

    #[test]
    fn keys_are_read_in_either_form() {
        let info = parsed(
            "id: club\nname: Club Training\nstart_time: 2026-12-03T10:00:00+01:00\nduration: 2:30:00\nscoreboard_freeze_duration: 0:30:00\npenalty_time: 10\nscoreboard_type: score\nbanner: x\n",
        )
        .unwrap();
        assert_eq!(info.id, "club");
        assert_eq!(info.rules.duration, 150 * 60_000);
        assert_eq!(info.rules.freeze_start(), Some(120 * 60_000));
        assert_eq!(info.rules.penalty_minutes, 10);
        assert_eq!(info.rules.kind, Kind::Score);
        assert_eq!(
            info.start,
            Some(time::parse_abstime("2026-12-03T09:00:00Z").unwrap())
        );
        assert_eq!(
            parsed("penalty_time: 0:15:00\n")
                .unwrap()
                .rules
                .penalty_minutes,
            15
        );
    }

    #[test]
    fn bad_values_are_named_with_line_and_column() {
        let table = [
            (
                "name: x\nduration: 5 hours\n",
                "c/contest.yaml:2:1: `duration`: `5 hours` is not a time",
            ),
            (
                "scoreboard_type: icpc\n",
                ":1:1: `scoreboard_type`: `icpc` is neither",
            ),
            (
                "duration: 1:00:00\nscoreboard_freeze_duration: 2:00:00\n",
                ":2:1: `scoreboard_freeze_duration`: longer than the contest",
            ),
            (
                "  start_time: noon\n",
                ":1:3: `start_time`: `noon` is not a date",
            ),
            ("penalty_time: [1]\n", "c/contest.yaml:1:"),
        ];
        for (text, expected) in table {
            let error = parsed(text).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
