//! A contest day's submissions, in either of two layouts. The canonical one is a CLICS
//! contest package's: `teams.json`, `submissions.json` (each with `id`, `team_id`,
//! `problem_id`, `language_id`, `contest_time`) and each submission's files in
//! `submissions/<id>/files/` or `submissions/<id>/files.zip`. The other is what a coach makes
//! by hand: a folder per team, `<team>/<LABEL>.<ext>` for a first try, `<team>/<LABEL>-2.<ext>`
//! (or `<team>/<LABEL>/2.<ext>`) for the second; the times from a `times` file beside the team
//! folders (`alice/A-2.cpp 1:05:00`, or minutes: `alice/A-2.cpp 65`), else from each file's
//! modification time against contest.yaml's `start_time`. An empty team folder is a team that
//! sent nothing.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::ContestError;
use super::time::{self, Millis};
use crate::compile::Language;
use crate::package::contest::ContestProblem;
use crate::package::file_name;
use crate::package::FileError;

/// The most one submitted file may hold (DOMjudge's default `sourcesize_limit` is 256 KiB).
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// A team.
#[derive(Debug, Clone, PartialEq)]
pub struct Team {
    pub id: String,
    pub name: String,
}

/// One submission, found and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Submission {
    pub id: String,
    /// Its team's index.
    pub team: usize,
    /// Its problem's index in problems.yaml's order.
    pub problem: usize,
    /// The language's id in the package table (`cpp`, `python3`).
    pub language: String,
    /// When it was sent, in contest time.
    pub time: Millis,
    /// The source file to judge.
    pub source: PathBuf,
    /// Where it is, as the coach knows it (`alice/A-2.cpp`, `submissions/17/files/a.cpp`).
    pub shown: String,
}

/// Every team and its submissions, in submission order (by time).
#[derive(Debug)]
pub struct Day {
    pub teams: Vec<Team>,
    pub submissions: Vec<Submission>,
    /// The contest's start as the submissions' own `time`s tell it (CLICS), when they do.
    pub start: Option<Millis>,
    /// Where the sources of `files.zip` archives were unpacked, kept while they are judged.
    _unpacked: Option<tempfile::TempDir>,
}

/// What the reading needs of the contest.
pub struct Context<'a> {
    pub problems: &'a [ContestProblem],
    pub languages: &'a [Language],
    pub start: Option<Millis>,
    pub duration: Millis,
}

impl Context<'_> {
    fn problem(&self, key: &str) -> Option<usize> {
        self.problems.iter().position(|p| p.id == key).or_else(|| {
            self.problems
                .iter()
                .position(|p| p.label.eq_ignore_ascii_case(key))
        })
    }

    fn problems_hint(&self) -> String {
        let known: Vec<String> = self
            .problems
            .iter()
            .map(|p| format!("{} ({})", p.label, p.id))
            .collect();
        format!("hint: one of {}", known.join(", "))
    }

    fn check_time(&self, time: Millis) -> Result<(), String> {
        if time < 0 || time > self.duration {
            let hint = if time < 0 {
                "a try before the start is a time noted wrong, or a start_time in contest.yaml that is late"
            } else {
                "a try after the end does not count; leave it out"
            };
            return Err(format!(
                "its time {} is outside the contest ({} to {}) (hint: {hint})",
                time::format_reltime(time),
                time::format_reltime(0),
                time::format_reltime(self.duration)
            ));
        }
        Ok(())
    }
}

/// Reads the submissions in `dir`, in whichever layout it has.
pub fn read(dir: &Path, context: &Context<'_>) -> Result<Day, ContestError> {
    if !dir.is_dir() {
        return Err(ContestError::invalid(
            dir,
            "no such folder of submissions (hint: a CLICS package's `submissions.json` and `teams.json`, or a folder per team holding `A.cpp`, `A-2.cpp`, …)",
        ));
    }
    if dir.join("submissions.json").is_file() {
        read_clics(dir, context)
    } else {
        read_folders(dir, context)
    }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ContestError> {
    let text = std::fs::read_to_string(path).map_err(|e| ContestError::read(path, e))?;
    Ok(crate::package::parse_json(path, &text)?)
}

#[derive(Deserialize)]
struct RawTeam {
    id: Identifier,
    name: Option<String>,
    display_name: Option<String>,
}

#[derive(Deserialize)]
struct RawSubmission {
    id: Identifier,
    team_id: Identifier,
    problem_id: Identifier,
    language_id: String,
    contest_time: Option<String>,
    time: Option<String>,
}

/// An id, which some tools write as a number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Identifier {
    Text(String),
    Number(i64),
}

impl Identifier {
    fn text(&self) -> String {
        match self {
            Identifier::Text(text) => text.clone(),
            Identifier::Number(n) => n.to_string(),
        }
    }
}

fn read_clics(dir: &Path, context: &Context<'_>) -> Result<Day, ContestError> {
    let teams_path = dir.join("teams.json");
    if !teams_path.is_file() {
        return Err(ContestError::invalid(
            &teams_path,
            "missing: a CLICS package's submissions name their teams there (hint: `[{\"id\": \"1\", \"name\": \"Alice\"}]`)",
        ));
    }
    let raw_teams: Vec<RawTeam> = read_json(&teams_path)?;
    let mut teams: Vec<Team> = Vec::new();
    for raw in raw_teams {
        let id = raw.id.text();
        if teams.iter().any(|t| t.id == id) {
            return Err(ContestError::invalid(
                &teams_path,
                format!("team `{id}` is listed twice"),
            ));
        }
        let name = raw.display_name.or(raw.name).unwrap_or_else(|| id.clone());
        teams.push(Team { id, name });
    }
    let path = dir.join("submissions.json");
    let raw: Vec<RawSubmission> = read_json(&path)?;
    let unpacked = tempfile::tempdir().map_err(|e| ContestError::read(dir, e))?;
    let mut submissions = Vec::new();
    let mut start = None;
    let mut seen = HashSet::new();
    for entry in raw {
        let id = entry.id.text();
        let fail = |message: String| ContestError::Submission {
            path: path.clone(),
            id: id.clone(),
            message,
        };
        if !seen.insert(id.clone()) {
            return Err(fail("its id is used twice".to_string()));
        }
        let team_id = entry.team_id.text();
        let team = teams.iter().position(|t| t.id == team_id).ok_or_else(|| {
            fail(format!(
                "team `{team_id}` is not in `{}` (hint: add it there)",
                teams_path.display()
            ))
        })?;
        let problem_id = entry.problem_id.text();
        let problem = context.problem(&problem_id).ok_or_else(|| {
            fail(format!(
                "no problem `{problem_id}` in the contest ({})",
                context.problems_hint()
            ))
        })?;
        let language = language_by_id(context.languages, &entry.language_id).map_err(fail)?;
        let absolute = match &entry.time {
            Some(text) => {
                Some(time::parse_abstime(text).map_err(|why| fail(format!("`time`: {why}")))?)
            }
            None => None,
        };
        let time = match (&entry.contest_time, absolute, context.start) {
            (Some(text), _, _) => {
                time::parse_reltime(text).map_err(|why| fail(format!("`contest_time`: {why}")))?
            }
            (None, Some(at), Some(begin)) => at - begin,
            _ => {
                return Err(fail(
                    "no `contest_time` (hint: `\"contest_time\": \"1:05:00\"`)".to_string(),
                ))
            }
        };
        if let (None, Some(at)) = (start, absolute) {
            start = Some(at - time);
        }
        context.check_time(time).map_err(fail)?;
        let folder = dir.join("submissions").join(&id);
        let source = clics_source(&folder, language, &unpacked.path().join(&id)).map_err(fail)?;
        let shown = source.strip_prefix(dir).map_or_else(
            |_| format!("submissions/{id}/files.zip"),
            |p| p.display().to_string(),
        );
        submissions.push(Submission {
            id,
            team,
            problem,
            language: language.id.clone(),
            time,
            source,
            shown,
        });
    }
    submissions.sort_by_key(|s| s.time);
    Ok(Day {
        teams,
        submissions,
        start,
        _unpacked: Some(unpacked),
    })
}

/// The language of `id`: the package table's own ids (`c`, `cpp`, `python3`, `java`, …).
fn language_by_id<'a>(languages: &'a [Language], id: &str) -> Result<&'a Language, String> {
    languages.iter().find(|l| l.id == id).ok_or_else(|| {
        let known: Vec<&str> = languages.iter().map(|l| l.id.as_str()).collect();
        format!(
            "unknown language `{id}` (hint: one of {})",
            known.join(", ")
        )
    })
}

/// The one source file of a CLICS submission: in `files/`, or unpacked from `files.zip` into
/// `unpack_to`.
fn clics_source(folder: &Path, language: &Language, unpack_to: &Path) -> Result<PathBuf, String> {
    let files = folder.join("files");
    let zip = folder.join("files.zip");
    let candidates: Vec<PathBuf> = if files.is_dir() {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&files)
            .map_err(|e| format!("cannot read `{}`: {e}", files.display()))?
        {
            let path = entry.map_err(|e| e.to_string())?.path();
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                found.push(path);
            }
        }
        found
    } else if zip.is_file() {
        unzip(&zip, unpack_to)?
    } else {
        return Err(format!(
            "its files are missing: no `{}` nor `{}`",
            files.display(),
            zip.display()
        ));
    };
    let mut sources: Vec<PathBuf> = candidates
        .into_iter()
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| language.extensions.iter().any(|x| x == e))
        })
        .collect();
    sources.sort();
    match sources.len() {
        1 => Ok(sources.remove(0)),
        0 => Err(format!(
            "no {} source (`.{}`) among its files in `{}`",
            language.name,
            language.extensions.join("`, `."),
            folder.display()
        )),
        _ => Err(format!(
            "several {} sources in `{}`: the harness judges one-file submissions",
            language.name,
            folder.display()
        )),
    }
}

/// The regular files at the top of the archive, written into `to`; names that would leave it
/// and files larger than a source may be are refused.
fn unzip(zip: &Path, to: &Path) -> Result<Vec<PathBuf>, String> {
    let file =
        std::fs::File::open(zip).map_err(|e| format!("cannot read `{}`: {e}", zip.display()))?;
    let mut archive = zip::ZipArchive::new(file)
        .map_err(|e| format!("`{}` is not a zip archive: {e}", zip.display()))?;
    std::fs::create_dir_all(to).map_err(|e| format!("cannot unpack `{}`: {e}", zip.display()))?;
    let mut written = Vec::new();
    for index in 0..archive.len() {
        let mut entry = archive
            .by_index(index)
            .map_err(|e| format!("`{}`: {e}", zip.display()))?;
        if entry.is_dir() {
            continue;
        }
        let Some(name) = entry
            .enclosed_name()
            .filter(|n| n.components().count() == 1)
        else {
            continue;
        };
        if entry.size() > MAX_SOURCE_BYTES {
            return Err(format!(
                "`{}`: `{}` is larger than {} MiB",
                zip.display(),
                name.display(),
                MAX_SOURCE_BYTES >> 20
            ));
        }
        let mut bytes = Vec::new();
        (&mut entry)
            .take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("`{}`: {e}", zip.display()))?;
        let path = to.join(&name);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot unpack `{}`: {e}", zip.display()))?;
        written.push(path);
    }
    Ok(written)
}

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, ContestError> {
    crate::judge::verify::listed(dir).map_err(|e| ContestError::read(dir, e))
}

/// The name of the times file of the folder layout.
pub const TIMES: &str = "times";

/// A try found in a team's folder, before its time and id are known.
struct Found {
    attempt: u64,
    submission: Submission,
}

fn read_folders(dir: &Path, context: &Context<'_>) -> Result<Day, ContestError> {
    let mut teams = Vec::new();
    let mut found = Vec::new();
    for entry in sorted_entries(dir)? {
        let name = file_name(&entry);
        if !entry.is_dir() {
            if name == TIMES {
                continue;
            }
            return Err(ContestError::invalid(
                &entry,
                "not a team's folder (hint: put each team's files in a folder named after the team, `alice/A.cpp`; the times go in `times`)",
            ));
        }
        let team = teams.len();
        teams.push(Team {
            id: name.clone(),
            name: name.clone(),
        });
        for item in sorted_entries(&entry)? {
            let item_name = file_name(&item);
            if item.is_dir() {
                // `<team>/<LABEL>/<n>.<ext>`.
                let problem = context.problem(&item_name).ok_or_else(|| {
                    ContestError::invalid(
                        &item,
                        format!(
                            "no problem `{item_name}` in the contest ({})",
                            context.problems_hint()
                        ),
                    )
                })?;
                for file in sorted_entries(&item)? {
                    let stem = stem(&file);
                    let attempt = stem.parse::<u64>().map_err(|_| {
                        ContestError::invalid(&file, format!("in a problem's folder a try is named by its number (`1.cpp`, `2.cpp`), not `{}`", file_name(&file)))
                    })?;
                    found.push(try_of(dir, context, team, problem, attempt, &file)?);
                }
                continue;
            }
            let stem = stem(&item);
            let (key, attempt) = match stem.rsplit_once('-') {
                Some((key, n)) if context.problem(key).is_some() && n.parse::<u64>().is_ok() => {
                    (key.to_string(), n.parse::<u64>().unwrap_or(1))
                }
                _ => (stem.clone(), 1),
            };
            let problem = context.problem(&key).ok_or_else(|| {
                ContestError::invalid(
                    &item,
                    format!("no problem `{key}` in the contest: a try is named `<LABEL>.<ext>` or `<LABEL>-<n>.<ext>` ({})", context.problems_hint()),
                )
            })?;
            found.push(try_of(dir, context, team, problem, attempt, &item)?);
        }
    }
    if teams.is_empty() {
        return Err(ContestError::invalid(
            dir,
            "no teams: neither `submissions.json` (a CLICS package) nor team folders (hint: `alice/A.cpp`, `alice/A-2.cpp`, `bob/B.py`)",
        ));
    }
    for (i, a) in found.iter().enumerate() {
        if let Some(b) = found[..i].iter().find(|b| {
            (b.submission.team, b.submission.problem, b.attempt)
                == (a.submission.team, a.submission.problem, a.attempt)
        }) {
            return Err(ContestError::invalid(
                &a.submission.source,
                format!(
                    "the same try as `{}` (hint: number the tries `A.cpp`, `A-2.cpp`, …)",
                    b.submission.shown
                ),
            ));
        }
    }
    let times = times_of(dir, context, &found)?;
    let mut found: Vec<Found> = found
        .into_iter()
        .zip(times)
        .map(|(mut f, time)| {
            f.submission.time = time;
            f
        })
        .collect();
    found.sort_by_key(|f| {
        (
            f.submission.time,
            f.submission.team,
            f.submission.problem,
            f.attempt,
        )
    });
    let submissions = found
        .into_iter()
        .enumerate()
        .map(|(i, f)| Submission {
            id: (i + 1).to_string(),
            ..f.submission
        })
        .collect();
    Ok(Day {
        teams,
        submissions,
        start: None,
        _unpacked: None,
    })
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn try_of(
    dir: &Path,
    context: &Context<'_>,
    team: usize,
    problem: usize,
    attempt: u64,
    file: &Path,
) -> Result<Found, ContestError> {
    if !std::fs::symlink_metadata(file).is_ok_and(|m| m.is_file()) {
        return Err(ContestError::invalid(
            file,
            "not a regular file: a try is one source file",
        ));
    }
    let language =
        crate::package::languages::language_of(context.languages, file).map_err(|why| {
            ContestError::invalid(
                file,
                format!(
                    "{why} (hint: the extension names the language: `.cpp`, `.py`, `.java`, …)"
                ),
            )
        })?;
    Ok(Found {
        attempt,
        submission: Submission {
            id: String::new(),
            team,
            problem,
            language: language.id.clone(),
            time: 0,
            source: file.to_path_buf(),
            shown: file.strip_prefix(dir).unwrap_or(file).display().to_string(),
        },
    })
}

/// Each try's contest time: from `times` when there is one, else from its file's time.
fn times_of(
    dir: &Path,
    context: &Context<'_>,
    found: &[Found],
) -> Result<Vec<Millis>, ContestError> {
    let path = dir.join(TIMES);
    if path.is_file() {
        let text = std::fs::read_to_string(&path).map_err(|e| ContestError::read(&path, e))?;
        let mut given: HashMap<String, (Millis, usize)> = HashMap::new();
        for (number, line) in text.lines().enumerate() {
            let line_no = number + 1;
            let content = line.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let column = line.len() - line.trim_start().len() + 1;
            let syntax = |message: String| {
                ContestError::from(FileError::syntax(&path, line_no, column, message))
            };
            let Some((file, when)) = content.rsplit_once(char::is_whitespace) else {
                return Err(syntax(
                    "a line is `<team>/<file> <time>` (`alice/A-2.cpp 1:05:00`, or minutes: `65`)"
                        .to_string(),
                ));
            };
            let file = file.trim();
            let when = when.trim();
            let ms = match when.parse::<u64>() {
                Ok(minutes) => i64::try_from(minutes)
                    .ok()
                    .and_then(|m| m.checked_mul(60_000)),
                Err(_) => time::parse_reltime(when).ok(),
            }
            .ok_or_else(|| {
                syntax(format!(
                    "`{when}` is not a contest time (hint: `1:05:00`, or minutes: `65`)"
                ))
            })?;
            if !found.iter().any(|f| f.submission.shown == file) {
                return Err(syntax(format!(
                    "`{file}` is not a try in `{}`",
                    dir.display()
                )));
            }
            if given.insert(file.to_string(), (ms, line_no)).is_some() {
                return Err(syntax(format!("`{file}` is given a time twice")));
            }
        }
        return found
            .iter()
            .map(|f| {
                let (ms, line) = given.get(&f.submission.shown).copied().ok_or_else(|| {
                    ContestError::invalid(
                        &path,
                        format!(
                            "no time for `{}` (hint: add a line `{} 1:05:00`)",
                            f.submission.shown, f.submission.shown
                        ),
                    )
                })?;
                context.check_time(ms).map_err(|why| {
                    FileError::syntax(&path, line, 1, format!("`{}`: {why}", f.submission.shown))
                })?;
                Ok(ms)
            })
            .collect();
    }
    let Some(start) = context.start else {
        return Err(ContestError::invalid(
            dir,
            format!("no `{TIMES}` file, and contest.yaml has no `start_time` to read the files' times against (hint: write `{TIMES}` with a line `<team>/<file> <time>` per try, or give contest.yaml a `start_time`)"),
        ));
    };
    found
        .iter()
        .map(|f| {
            let modified = std::fs::metadata(&f.submission.source)
                .and_then(|m| m.modified())
                .map_err(|e| ContestError::read(&f.submission.source, e))?;
            let since_epoch = match modified.duration_since(std::time::UNIX_EPOCH) {
                Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
                Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
            };
            let ms = since_epoch - start;
            context.check_time(ms).map_err(|why| {
                ContestError::invalid(
                    &f.submission.source,
                    format!("modified at {}: {why}", time::format_abstime(since_epoch)),
                )
            })?;
            Ok(ms)
        })
        .collect()
}
