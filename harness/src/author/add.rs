//! Adding one case by hand: validate the input, answer it with the reference (or take the
//! given answer and compare it with the reference's), and write `NAME.in` + `NAME.ans`
//! atomically, never over an existing case unless told to.

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::author::gen::{self, with_suffix, GenError};
use crate::author::validate::{ValidateError, Validator, Validity};
use crate::case::discover::check_name;
use crate::check::{self, CaseFiles};
use crate::config::{Config, Problem};
use crate::tool::{self, Role, ToolError};

pub use crate::results::author::{Added, AnswerSource, Warning};

/// `harness add` without a name picks the first free `added-N`.
pub const AUTO_NAME_PREFIX: &str = "added-";

#[derive(Debug, thiserror::Error)]
pub enum AddError {
    #[error("the input is not valid for `{problem}`: {reason} (hint: fix the input, or pass --no-validate to add it anyway)")]
    Invalid { problem: String, reason: String },
    #[error("problem `{problem}` already has a case `{name}` (hint: pick another name; `harness add --force` replaces a case)")]
    Exists { problem: String, name: String },
    #[error("`{name}` is a case of the generator `{pattern}`, so `harness gen` would overwrite it (hint: pick another name)")]
    Generated { name: String, pattern: String },
    #[error("`{name}` is not a case name: {message}")]
    BadName { name: String, message: String },
    #[error("problem `{problem}` has no reference to answer the input (hint: pass --answer FILE, or set `reference` in [problems.{problem}])")]
    NoAnswer { problem: String },
    #[error(transparent)]
    Reference(ToolError),
    #[error(transparent)]
    Validate(#[from] ValidateError),
    #[error(transparent)]
    Gen(#[from] GenError),
    #[error("`{}` is {kind}, not a file: not replacing it with the case, --force or not (hint: remove it, or pick another name)", path.display())]
    NotAFile { path: PathBuf, kind: &'static str },
    #[error("`{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A case to add.
#[derive(Debug, Clone, Default)]
pub struct NewCase<'a> {
    /// The case name (`big-1`, `secret/07`); `None` picks the first free `added-N`.
    pub name: Option<&'a str>,
    pub input: &'a [u8],
    /// The answer; `None` asks the reference.
    pub answer: Option<&'a [u8]>,
    /// Replace an existing case of that name.
    pub force: bool,
    /// Skip the validator.
    pub no_validate: bool,
}

/// Adds one case to `problem`'s case folder.
pub fn add(config: &Config, problem: &Problem, new: &NewCase<'_>) -> Result<Added, AddError> {
    let plan = gen::plan(problem)?;
    let generated: HashSet<String> = plan.iter().map(|c| c.name.clone()).collect();
    let name = match new.name {
        Some(name) => {
            check_name(name).map_err(|message| AddError::BadName {
                name: name.to_string(),
                message,
            })?;
            if let Some(case) = plan.iter().find(|c| c.name == name) {
                return Err(AddError::Generated {
                    name: name.to_string(),
                    pattern: problem.generators[case.generator].name.clone(),
                });
            }
            name.to_string()
        }
        None => next_free_name(&problem.cases, &generated),
    };
    let base = problem.cases.join(&name);
    let (input_path, answer_path) = (with_suffix(&base, "in"), with_suffix(&base, "ans"));
    let existed = input_path.exists() || answer_path.exists();
    let exists = || AddError::Exists {
        problem: problem.name.clone(),
        name: name.clone(),
    };
    if existed && !new.force {
        return Err(exists());
    }
    // `--force` replaces a case, never a link, a device or a FIFO where one would be.
    for path in [&input_path, &answer_path] {
        if let Some(kind) = fs::symlink_metadata(path)
            .ok()
            .and_then(|found| crate::file_kind::of_type(found.file_type()))
        {
            return Err(AddError::NotAFile {
                path: path.clone(),
                kind,
            });
        }
    }
    let folder = input_path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    fs::create_dir_all(&folder).map_err(io(&folder))?;

    // The input is written beside its final place first: the validator and the reference
    // read it from there, and it becomes the case by a rename.
    let input_file = temp_with(&folder, new.input)?;
    if !new.no_validate {
        if let Some(validator) = Validator::for_problem(config, problem) {
            if let Validity::Invalid { reason } = validator.check(input_file.path())? {
                return Err(AddError::Invalid {
                    problem: problem.name.clone(),
                    reason,
                });
            }
        }
    }
    let reference = problem.reference.as_deref().map(|command| {
        tool::Command::new(Role::Reference, command, &config.root, &[])
            .output(Some(input_file.path()), None)
    });

    let (answer, answer_source, warning) = match (new.answer, reference) {
        (None, None) if problem.interactor.is_some() => (Vec::new(), AnswerSource::Empty, None),
        (None, None) => {
            return Err(AddError::NoAnswer {
                problem: problem.name.clone(),
            })
        }
        (None, Some(reference)) => (
            reference.map_err(AddError::Reference)?,
            AnswerSource::Reference,
            None,
        ),
        (Some(given), None) => (given.to_vec(), AnswerSource::Given, None),
        (Some(given), Some(Err(error))) => (
            given.to_vec(),
            AnswerSource::Given,
            Some(Warning::ReferenceFailed {
                reason: error.to_string(),
            }),
        ),
        (Some(given), Some(Ok(expected))) => {
            let warning = compare_with_reference(problem, input_file.path(), given, &expected)?;
            (given.to_vec(), AnswerSource::Given, warning)
        }
    };
    let answer_file = temp_with(&folder, &answer)?;

    if new.force {
        persist(input_file, &input_path, true)?;
        persist(answer_file, &answer_path, true)?;
    } else {
        // No-clobber renames: a case written meanwhile by someone else is not replaced.
        persist(input_file, &input_path, false)?.ok_or_else(exists)?;
        if persist(answer_file, &answer_path, false)?.is_none() {
            // Take back our half of the case.
            let _ = fs::remove_file(&input_path);
            return Err(exists());
        }
    }
    Ok(Added {
        name,
        input: input_path,
        answer: answer_path,
        input_bytes: new.input.len(),
        answer_bytes: answer.len(),
        answer_source,
        replaced: existed,
        warning,
    })
}

/// The first `added-N` that is neither a case nor a generator's name.
pub fn next_free_name(folder: &Path, generated: &HashSet<String>) -> String {
    (1u64..)
        .map(|n| format!("{AUTO_NAME_PREFIX}{n}"))
        .find(|name| {
            let base = folder.join(name);
            !generated.contains(name)
                && !with_suffix(&base, "in").exists()
                && !with_suffix(&base, "ans").exists()
        })
        .expect("some added-N is free")
}

/// The given answer, checked as if it were an output against the reference's answer.
fn compare_with_reference(
    problem: &Problem,
    input: &Path,
    given: &[u8],
    expected: &[u8],
) -> Result<Option<Warning>, AddError> {
    // An external checker reads the answer from a file.
    let mut expected_file = NamedTempFile::new().map_err(io(Path::new("temporary file")))?;
    expected_file
        .write_all(expected)
        .map_err(io(expected_file.path()))?;
    let files = CaseFiles {
        input,
        answer: expected_file.path(),
    };
    let checked = check::check(&problem.checker, &files, given, expected);
    Ok(
        (!checked.verdict.is_accepted()).then_some(Warning::Disagrees {
            verdict: checked.verdict,
            reason: checked.reason,
        }),
    )
}

fn temp_with(folder: &Path, bytes: &[u8]) -> Result<NamedTempFile, AddError> {
    // Named without `.in`/`.ans`, so a judge running meanwhile never takes it for a case.
    let mut file = tempfile::Builder::new()
        .prefix(".harness-add-")
        .tempfile_in(folder)
        .map_err(io(folder))?;
    file.write_all(bytes).map_err(io(file.path()))?;
    file.as_file().sync_all().map_err(io(file.path()))?;
    Ok(file)
}

/// Renames `file` to `to`; `None` when `to` exists and may not be replaced.
fn persist(file: NamedTempFile, to: &Path, overwrite: bool) -> Result<Option<()>, AddError> {
    let result = if overwrite {
        file.persist(to).map(drop)
    } else {
        file.persist_noclobber(to).map(drop)
    };
    match result {
        Ok(()) => Ok(Some(())),
        Err(error) if error.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(None),
        Err(error) => Err(io(to)(error.error)),
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> AddError {
    let path = path.to_path_buf();
    move |source| AddError::Io {
        path: path.clone(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for good in ["big", "secret/07", "n1.5", "a-b_c"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "", "/abs", "../up", "a/../b", "a//b", ".hidden", "x/.y", "x.in", "y.ans", "dir/",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn next_free_name_skips_cases_and_generated_names() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("added-1.in"), "").unwrap();
        fs::write(dir.path().join("added-2.ans"), "").unwrap();
        let generated: HashSet<String> = ["added-3".to_string()].into();
        assert_eq!(next_free_name(dir.path(), &generated), "added-4");
        assert_eq!(
            next_free_name(&dir.path().join("none"), &HashSet::new()),
            "added-1"
        );
    }
}
