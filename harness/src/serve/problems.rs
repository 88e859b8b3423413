//! `problems` and `cases.add`: what a judge.toml holds (each problem's limits and cases),
//! and a case written into a problem's folder of cases, or into any folder of cases (a
//! stress counterexample kept as a case).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::params::{invalid, Params};
use super::rpc::{Error, FAILED};
use crate::author::add::{self, AddError, NewCase};
use crate::author::program::Part;
use crate::session::{build_first, compile_sources, Session};

fn failed(error: impl std::fmt::Display) -> Error {
    Error::new(FAILED, error.to_string())
}

fn failed_chain(error: &anyhow::Error) -> Error {
    Error::new(FAILED, crate::report::notice::error_chain(error))
}

/// The problems of the judge.toml at `config` (none: found from the server's folder), with
/// their packages read, as `harness run` reads them.
pub fn list(config: Option<PathBuf>) -> Result<Value, Error> {
    let session = Session::new(config);
    let config = session.load_config(&[]).map_err(|e| failed_chain(&e))?;
    let problems: Vec<Value> = config
        .problems
        .iter()
        .map(|problem| {
            let cases = match &problem.package {
                Some(reference) => crate::package::open(&reference.path)
                    .map(|package| package.cases.len())
                    .map_err(|e| e.to_string()),
                None => crate::case::discover::discover_unanswered_too(&problem.cases)
                    .map(|cases| cases.len())
                    .map_err(|e| e.to_string()),
            };
            json!({
                "id": problem.name,
                "title": problem.title,
                "time_limit_ms": problem.time_limit.as_millis() as u64,
                "memory_kib": problem.memory_limit / 1024,
                "cases_folder": problem.cases.display().to_string(),
                "cases": cases.as_ref().ok(),
                "cases_error": cases.as_ref().err(),
                "interactive": problem.interactive,
                "package": problem.package.as_ref().map(|p| p.path.display().to_string()),
                "scored": problem.package_scoring.is_some() || problem.scoring.is_scored(),
            })
        })
        .collect();
    Ok(json!({ "config": config.path.display().to_string(), "problems": problems }))
}

/// `cases.add {problem | folder, input, answer?, name?, config?}`.
pub fn add_case(mut params: Params, server_config: Option<PathBuf>) -> Result<Value, Error> {
    let problem = params.opt_string("problem")?;
    let folder = params.opt_path("folder")?;
    let input = params.string("input")?;
    let answer = params.opt_string("answer")?;
    let name = params.opt_string("name")?;
    let config = params.opt_path("config")?.or(server_config);
    params.finish()?;
    if let Some(name) = &name {
        crate::case::discover::check_path(name).map_err(|why| invalid("name", why))?;
    }
    match (problem, folder) {
        (Some(_), Some(_)) => Err(invalid("folder", "give `problem` or `folder`, not both")),
        (None, None) => Err(invalid("problem", "missing: give `problem` or `folder`")),
        (None, Some(folder)) => {
            let Some(answer) = answer else {
                return Err(invalid(
                    "answer",
                    "missing: a folder of cases has no reference to answer the input",
                ));
            };
            let (input_path, answer_path) =
                write_pair(&folder, name.as_deref(), &input, &answer).map_err(failed)?;
            Ok(json!({
                "name": input_path.file_stem().map(|s| s.to_string_lossy().into_owned()),
                "input": input_path.display().to_string(),
                "answer": answer_path.display().to_string(),
                "answer_from": "given",
            }))
        }
        (Some(problem), None) => {
            let session = Session::new(config);
            let config = session
                .load_config(&[&problem])
                .map_err(|e| failed_chain(&e))?;
            config.require_problem(&problem).map_err(failed)?;
            build_first(&config, false).map_err(|e| failed_chain(&e))?;
            let config = compile_sources(
                config,
                &[&problem],
                &[Part::Validator, Part::Reference, Part::Checker],
            )
            .map_err(|e| failed_chain(&e))?;
            let found = config.require_problem(&problem).map_err(failed)?;
            let new = NewCase {
                name: name.as_deref(),
                input: input.as_bytes(),
                answer: answer.as_deref().map(str::as_bytes),
                force: false,
                no_validate: false,
            };
            match add::add(&config, found, &new) {
                Ok(added) => Ok(json!({
                    "name": added.name,
                    "input": added.input.display().to_string(),
                    "answer": added.answer.display().to_string(),
                    "answer_from": if answer.is_some() { "given" } else { "reference" },
                })),
                Err(error @ AddError::Invalid { .. }) => Err(invalid("input", error)),
                Err(error) => Err(failed(error)),
            }
        }
    }
}

/// Writes `NAME.in` and `NAME.ans` into `folder` (made if missing), never over a file that
/// is there: the first free `added-N` when no name is given.
fn write_pair(
    folder: &Path,
    name: Option<&str>,
    input: &str,
    answer: &str,
) -> Result<(PathBuf, PathBuf), String> {
    std::fs::create_dir_all(folder)
        .map_err(|e| format!("cannot make `{}`: {e}", folder.display()))?;
    let name = match name {
        Some(name) => name.to_string(),
        None => add::next_free_name(folder, &Default::default()),
    };
    let input_path = folder.join(format!("{name}.in"));
    let answer_path = folder.join(format!("{name}.ans"));
    if let Some(parent) = input_path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot make `{}`: {e}", parent.display()))?;
    }
    let create = |path: &Path, text: &str| -> Result<(), String> {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => format!(
                    "`{}` is there already (hint: another `name`, or none for the first free one)",
                    path.display()
                ),
                _ => format!("cannot write `{}`: {e}", path.display()),
            })?;
        file.write_all(text.as_bytes())
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))
    };
    if answer_path.exists() {
        return Err(format!(
            "`{}` is there already (hint: another `name`, or none for the first free one)",
            answer_path.display()
        ));
    }
    create(&input_path, input)?;
    if let Err(error) = create(&answer_path, answer) {
        // Not half a case: the input just written goes.
        let _ = std::fs::remove_file(&input_path);
        return Err(error);
    }
    Ok((input_path, answer_path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_written_beside_nothing_and_never_over_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("cases");
        let (input, answer) = write_pair(&folder, None, "1 2\n", "3\n").unwrap();
        assert_eq!(input.file_name().unwrap(), "added-1.in");
        assert_eq!(std::fs::read_to_string(&answer).unwrap(), "3\n");
        let (input, _) = write_pair(&folder, None, "2 2\n", "4\n").unwrap();
        assert_eq!(input.file_name().unwrap(), "added-2.in");
        std::fs::write(folder.join("mine.ans"), "keep").unwrap();
        let error = write_pair(&folder, Some("mine"), "x", "y").unwrap_err();
        assert!(error.contains("mine.ans` is there already"), "{error}");
        assert!(!folder.join("mine.in").exists());
        assert_eq!(
            std::fs::read_to_string(folder.join("mine.ans")).unwrap(),
            "keep"
        );
    }
}
