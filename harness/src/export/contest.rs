//! `harness export --contest`: the problems of judge.toml as a contest DOMjudge imports: a
//! folder with `contest.yaml`, `problems.yaml`, and each problem as `<id>.zip` (for the web
//! interface and the API's `POST contests/<cid>/problems`) and as the folder `<id>/`, which
//! DOMjudge's `import-contest` zips itself (misc-tools/import-contest.in, 8.3.2 lines
//! 205-233: a folder per problems.yaml `id` with problem.yaml in it, zipped as `.timelimit *`).

use std::path::Path;

use super::{short_name, yaml_string, ExportError, Exported, Options};
use crate::config::{Config, Problem};

/// contest.yaml's start: DOMjudge requires one (ImportExportService.php 8.3.2 lines 162-186),
/// and the export cannot know it. A placeholder years ahead, so that the contest is not live
/// the moment it is imported; the summary says to set it.
pub const START_PLACEHOLDER: &str = "2030-01-01T10:00:00+00:00";

/// What a contest export wrote: each problem's export, by its label.
#[derive(Debug, Clone)]
pub struct ContestExported {
    pub id: String,
    pub problems: Vec<ContestProblem>,
    /// Problems of judge.toml left out, and why.
    pub left_out: Vec<(String, String)>,
    /// contest.yaml's `start_time`, when it is the day's own rather than the placeholder.
    pub start_time: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ContestProblem {
    /// `A`, `B`, …
    pub label: String,
    /// The short name: the zip's and the folder's name, problems.yaml's `id`.
    pub id: String,
    pub problem: String,
    pub exported: Exported,
}

/// The contest's labels: `A` to `Z`, then `AA`, `AB`, …
pub fn label(index: usize) -> String {
    let mut label = String::new();
    let mut n = index + 1;
    while n > 0 {
        let digit = (n - 1) % 26;
        label.insert(0, char::from(b'A' + digit as u8));
        n = (n - 1) / 26;
    }
    label
}

/// The labels the contest gives `problems`: judge.toml's `label`s when every one has one,
/// else `A`, `B`, … in their order.
pub fn labels(problems: &[&Problem]) -> Vec<String> {
    match problems
        .iter()
        .map(|p| p.label.clone())
        .collect::<Option<Vec<_>>>()
    {
        Some(given) => given,
        None => (0..problems.len()).map(label).collect(),
    }
}

/// Exports `problems` into the new folder `out`. `listed`: the problems were named on the
/// command line, so one that cannot be exported is an error; otherwise it is left out with a
/// note. `day`: the day's teams and submissions, written beside them (every problem must
/// then be exported: the submissions are for them).
pub fn export_contest(
    config: &Config,
    problems: &[&Problem],
    listed: bool,
    submissions: &Path,
    out: &Path,
    options: &mut Options<'_>,
    day: Option<&super::handoff::HandOff>,
) -> Result<ContestExported, ExportError> {
    let listed = listed || day.is_some();
    let given = labels(problems);
    if !crate::atomic::is_free(out) {
        return Err(ExportError::Exists(out.to_path_buf()));
    }
    // The contest's own contest.yaml beside judge.toml (or the day's) names it and gives its
    // rules; otherwise judge.toml's folder names it.
    let own = match day {
        Some(day) => Some(day.info.clone()),
        None if config.root.join("contest.yaml").is_file() => Some(crate::contest::rules::read(
            &config.root,
            &contest_id(config),
            crate::contest::scoreboard::ScoreBy::default(),
        )?),
        None => None,
    };
    let id = match &own {
        Some(info) if super::handoff::is_identifier(&info.id) => info.id.clone(),
        Some(_) | None => contest_id(config),
    };
    let start_time = match day {
        Some(day) => day.start_time(),
        None => own
            .as_ref()
            .and_then(|info| info.start)
            .map(crate::contest::time::format_abstime),
    };
    // Written into a folder beside `out`, renamed at the end: nothing half-written.
    let staging = super::staging_beside(out, ".harness-contest-")?;
    let mut exported = ContestExported {
        id: id.clone(),
        problems: Vec::new(),
        left_out: Vec::new(),
        start_time: start_time.clone(),
    };
    let mut ids: Vec<String> = Vec::new();
    for (problem, given) in problems.iter().zip(&given) {
        let mut short = short_name(&problem.name);
        // Two problems whose ids differ only in punctuation get distinct short names.
        let mut n = 2;
        while ids.contains(&short) {
            short = format!("{}{n}", short_name(&problem.name));
            n += 1;
        }
        let folder = staging.path().join(&short);
        // A problem read from a package is that package: its own validators, cases and
        // submissions, as its tools wrote them, not a package made again from judge.toml.
        let prepared = match &problem.package {
            Some(reference) => as_it_is(&reference.path, problem),
            None => super::prepare(config, problem, submissions, options),
        };
        match prepared {
            Ok((files, package)) => {
                super::write_folder(&folder, &files)?;
                super::write_zip(&staging.path().join(format!("{short}.zip")), &files)?;
                ids.push(short.clone());
                // With a problem left out, the letters close up.
                let label = if exported.left_out.is_empty() {
                    given.clone()
                } else {
                    label(exported.problems.len())
                };
                exported.problems.push(ContestProblem {
                    label,
                    id: short,
                    problem: problem.name.clone(),
                    exported: package,
                });
            }
            Err(error) if !listed && leaves_out(&error) => {
                exported
                    .left_out
                    .push((problem.name.clone(), error.to_string()));
            }
            Err(error) => return Err(error),
        }
    }
    if exported.problems.is_empty() {
        // Nothing is placed: the staging folder goes, and `out` is never made.
        return Err(ExportError::NoProblems {
            left_out: exported
                .left_out
                .iter()
                .map(|(problem, why)| format!("{problem}: {why}"))
                .collect::<Vec<_>>()
                .join("; "),
        });
    }
    let contest_yaml = staging.path().join("contest.yaml");
    let text = match &own {
        Some(info) => day_contest_yaml(&id, info, start_time.as_deref()),
        None => contest_yaml_text(config, &id),
    };
    std::fs::write(&contest_yaml, text).map_err(super::write_error(&contest_yaml))?;
    if let Some(day) = day {
        let ids: Vec<String> = exported.problems.iter().map(|p| p.id.clone()).collect();
        let placeholder = crate::contest::time::parse_abstime(START_PLACEHOLDER).unwrap_or(0);
        day.write(staging.path(), &ids, placeholder)?;
    }
    let problems_yaml = staging.path().join("problems.yaml");
    std::fs::write(
        &problems_yaml,
        problems_yaml_text(&exported.problems, problems),
    )
    .map_err(super::write_error(&problems_yaml))?;
    super::place_folder(staging, out)?;
    Ok(exported)
}

/// The package folder `root` as it is, every file below it (links followed no further than
/// the package: one that leads out is an error, as the package reader says).
fn as_it_is(
    root: &Path,
    problem: &Problem,
) -> Result<(super::Files, super::Exported), ExportError> {
    let dialect = match crate::package::detect(root) {
        Some(crate::package::Format::KattisLegacy) => super::Dialect::Domjudge,
        Some(crate::package::Format::Kattis2025) => super::Dialect::Kattis,
        Some(
            crate::package::Format::Polygon
            | crate::package::Format::Cms
            | crate::package::Format::Tps,
        )
        | None => {
            return Err(ExportError::NotKattis {
                problem: problem.name.clone(),
                path: root.to_path_buf(),
            })
        }
    };
    let files = files_below(root)?;
    let notes = vec![format!(
        "the package `{}` as it is (its own validators, cases and submissions)",
        root.display()
    )];
    let written = files.entries.iter().map(|(p, _, _)| p.clone()).collect();
    Ok((
        files,
        super::Exported {
            dialect,
            files: written,
            notes,
            warnings: Vec::new(),
        },
    ))
}

/// Every file below `root`, by its path from there, with whether it is executable.
fn files_below(root: &Path) -> Result<super::Files, ExportError> {
    let mut files = super::Files {
        entries: Vec::new(),
    };
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let read = |source| ExportError::Read {
            path: folder.clone(),
            source,
        };
        let mut entries: Vec<_> = std::fs::read_dir(&folder)
            .map_err(read)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(read)?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let path = entry.path();
            let unreadable = |source| ExportError::Read {
                path: path.clone(),
                source,
            };
            crate::package::check_inside(root, &path)
                .map_err(|e| unreadable(std::io::Error::other(e.to_string())))?;
            let metadata = std::fs::metadata(&path).map_err(unreadable)?;
            if metadata.is_dir() {
                folders.push(path);
                continue;
            }
            if !metadata.is_file() {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(unreadable)?;
            let relative = path
                .strip_prefix(root)
                .expect("below the package")
                .to_string_lossy()
                .replace('\\', "/");
            let executable = {
                use std::os::unix::fs::PermissionsExt as _;
                metadata.permissions().mode() & 0o111 != 0
            };
            files.entries.push((relative, bytes, executable));
        }
    }
    files.entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(files)
}

/// Errors that say a problem cannot be a package, rather than that writing failed.
fn leaves_out(error: &ExportError) -> bool {
    matches!(
        error,
        ExportError::CommandChecker { .. }
            | ExportError::Interactor { .. }
            | ExportError::NotKattis { .. }
            | ExportError::OutputOnly { .. }
            | ExportError::Communication { .. }
            | ExportError::TwoSteps { .. }
    )
}

/// The contest's id: judge.toml's folder's name as a short name.
fn contest_id(config: &Config) -> String {
    let folder = super::folder_name(config).unwrap_or_default();
    let id = short_name(&folder);
    if id == "problem" {
        "contest".to_string()
    } else {
        id
    }
}

/// contest.yaml with the fields DOMjudge requires (one of `id`/`short_name`, `name`,
/// `start_time`, `duration`) and the usual rest, as BAPCtools' contest skeleton has them.
fn contest_yaml_text(config: &Config, id: &str) -> String {
    let name = super::folder_name(config).unwrap_or_else(|| id.to_string());
    format!(
        "# Exported by harness (`harness export --contest`) from judge.toml.\n\
         # start_time is a placeholder: set it before importing.\n\
         id: {id}\n\
         name: {}\n\
         start_time: {START_PLACEHOLDER}\n\
         duration: \"5:00:00\"\n\
         scoreboard_freeze_duration: \"1:00:00\"\n\
         penalty_time: 20\n",
        yaml_string(&name)
    )
}

/// contest.yaml of a contest with rules of its own (contest.yaml beside judge.toml, or the
/// defaults `harness contest` judged its day by), its start when known.
fn day_contest_yaml(
    id: &str,
    info: &crate::contest::rules::ContestInfo,
    start: Option<&str>,
) -> String {
    let rules = &info.rules;
    let mut text = format!(
        "# Exported by harness (`harness export --contest`), with the rules `harness contest` judges the day by.\n\
         id: {}\n\
         name: {}\n\
         start_time: {}\n\
         duration: \"{}\"\n\
         scoreboard_type: {}\n\
         penalty_time: {}\n",
        id,
        yaml_string(&info.name),
        start.unwrap_or(START_PLACEHOLDER),
        crate::contest::time::format_reltime(rules.duration),
        rules.kind.as_str(),
        rules.penalty_minutes,
    );
    if let Some(freeze) = rules.freeze {
        text.push_str(&format!(
            "scoreboard_freeze_duration: \"{}\"\n",
            crate::contest::time::format_reltime(freeze)
        ));
    }
    text
}

/// problems.yaml as DOMjudge's `importProblemsData` reads it (ImportExportService.php 8.3.2
/// lines 329-365): `id` (the zip's name, which its problem import takes as the external id),
/// `label`, `name`, and `time_limit` (its default is 10 s there too).
fn problems_yaml_text(exported: &[ContestProblem], problems: &[&Problem]) -> String {
    let mut text =
        String::from("# Exported by harness (`harness export --contest`) from judge.toml.\n");
    for entry in exported {
        let problem = problems
            .iter()
            .find(|p| p.name == entry.problem)
            .expect("an exported problem is one of the problems");
        text.push_str(&format!(
            "- id: {}\n  label: {}\n  name: {}\n  time_limit: {}\n",
            entry.id,
            entry.label,
            yaml_string(&problem.title),
            super::seconds(problem.time_limit)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_go_on_past_z() {
        let labels: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
            .into_iter()
            .map(label)
            .collect();
        assert_eq!(labels, ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]);
    }
}
