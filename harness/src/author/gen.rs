//! Generated cases: run judge.toml's generators once per seed, validate each input, answer it
//! with the reference, and either move the whole set into place or compare it with the
//! committed one. Cases no generator names (samples, `harness add`) are never touched.
//!
//! Everything is produced in a scratch folder first; only when every case succeeded is anything
//! moved into the case folder, so a generator that fails halfway loses nothing.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use crate::author::validate::{self, Validator, Validity};
use crate::config::{Config, Problem};
use crate::event::{Event, Finished};
use crate::tool::{self, Role};

pub use crate::results::author::{CaseStatus, GenReport, Mode, Status};

/// Name prefixes of hand-added cases (the statement's samples, `harness add`'s own names): a
/// generator that produced one would overwrite a case it does not own.
pub const HAND_ADDED_PREFIXES: [&str; 2] = ["sample-", "added-"];

#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error("problem `{problem}` declares no generators (hint: add a [[problems.{problem}.generators]] table to judge.toml)")]
    NoGenerators { problem: String },
    #[error("problem `{problem}` has no reference to answer its generated cases (hint: set `reference` in [problems.{problem}])")]
    NoReference { problem: String },
    #[error("problem `{problem}`: generator name `{pattern}`: {message}")]
    BadPattern {
        problem: String,
        pattern: String,
        message: String,
    },
    #[error("problem `{problem}`: generators `{first}` and `{second}` both name a case `{name}` (hint: give them different names)")]
    Duplicate {
        problem: String,
        name: String,
        first: String,
        second: String,
    },
    #[error("problem `{problem}`: generator `{pattern}` names a case `{name}`, a name kept for hand-added cases (hint: rename the generator's cases)")]
    HandAddedName {
        problem: String,
        pattern: String,
        name: String,
    },
    #[error("problem `{problem}`: {} of {total} cases could not be generated, so nothing was written:{}", failures.len(), crate::package::generate::list_failures(failures, ""))]
    Failed {
        problem: String,
        total: usize,
        failures: Vec<CaseFailure>,
    },
    #[error("`{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A case that could not be generated, and why.
pub use crate::package::generate::Failure as CaseFailure;

/// One case a generator makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedCase {
    pub name: String,
    pub seed: u64,
    /// Index into the problem's generators.
    pub generator: usize,
}

/// `{seed}` becomes the seed, `{seed:03}` the seed padded with zeros to 3 digits.
pub fn case_name(pattern: &str, seed: u64) -> Result<String, String> {
    let mut name = String::new();
    let mut rest = pattern;
    while let Some(start) = rest.find('{') {
        name.push_str(&rest[..start]);
        let end = rest[start..].find('}').ok_or("`{` without a closing `}`")? + start;
        let placeholder = &rest[start + 1..end];
        match placeholder.strip_prefix("seed") {
            Some("") => name.push_str(&seed.to_string()),
            Some(format) => {
                let width = format
                    .strip_prefix(":0")
                    .and_then(|w| w.parse::<usize>().ok())
                    .ok_or_else(|| {
                        format!("`{{{placeholder}}}` is not `{{seed}}` or `{{seed:0N}}`")
                    })?;
                name.push_str(&format!("{seed:0width$}"));
            }
            None => return Err(format!("unknown placeholder `{{{placeholder}}}`")),
        }
        rest = &rest[end + 1..];
    }
    if rest.contains('}') {
        return Err("`}` without an opening `{`".to_string());
    }
    name.push_str(rest);
    Ok(name)
}

/// Every case the problem's generators make, in judge.toml's order, checked for names that
/// collide with each other or with hand-added cases.
pub fn plan(problem: &Problem) -> Result<Vec<PlannedCase>, GenError> {
    let mut planned = Vec::new();
    let mut owner: BTreeMap<String, usize> = BTreeMap::new();
    for (index, generator) in problem.generators.iter().enumerate() {
        for seed in generator.seeds.iter() {
            let bad = |message: String| GenError::BadPattern {
                problem: problem.name.clone(),
                pattern: generator.name.clone(),
                message,
            };
            let name = case_name(&generator.name, seed).map_err(bad)?;
            crate::case::discover::check_name(&name).map_err(|e| bad(e.clone()))?;
            if HAND_ADDED_PREFIXES.iter().any(|p| name.starts_with(p)) {
                return Err(GenError::HandAddedName {
                    problem: problem.name.clone(),
                    pattern: generator.name.clone(),
                    name,
                });
            }
            if let Some(&first) = owner.get(&name) {
                return Err(GenError::Duplicate {
                    problem: problem.name.clone(),
                    name,
                    first: problem.generators[first].name.clone(),
                    second: generator.name.clone(),
                });
            }
            owner.insert(name.clone(), index);
            planned.push(PlannedCase {
                name,
                seed,
                generator: index,
            });
        }
    }
    Ok(planned)
}

/// Generates every case of `problem`'s generators, `jobs` at a time, and writes or checks
/// them: the `unit`-th of the plan.
pub fn generate(
    config: &Config,
    problem: &Problem,
    unit: usize,
    mode: Mode,
    jobs: usize,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<GenReport, GenError> {
    let started = Instant::now();
    if problem.generators.is_empty() {
        return Err(GenError::NoGenerators {
            problem: problem.name.clone(),
        });
    }
    // An interactive problem's cases are the interactor's inputs: without a reference their
    // answers are empty, as in Kattis packages.
    let reference = match (problem.reference.as_deref(), &problem.interactor) {
        (Some(reference), _) => Some(reference),
        (None, Some(_)) => None,
        (None, None) => {
            return Err(GenError::NoReference {
                problem: problem.name.clone(),
            })
        }
    };
    let planned = plan(problem)?;
    let folder = &problem.cases;
    let scratch = scratch_folder(folder, &problem.name, mode)?;
    let validator = Validator::for_problem(config, problem);

    on_event(Event::Started {
        unit,
        label: &problem.name,
    });
    // The workers say when a case is made; this thread passes it on, so that events arrive
    // on one thread, in order.
    let (made, done) = mpsc::channel();
    let results = std::thread::scope(|scope| {
        let workers = scope.spawn(|| {
            let made = made;
            validate::parallel_map(&planned, jobs, |case| {
                let result = make_case(
                    config,
                    problem,
                    reference,
                    validator.as_ref(),
                    case,
                    scratch.path(),
                );
                let _ = made.send(());
                result
            })
        });
        for () in done {
            on_event(Event::Generated { unit });
        }
        workers
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    if let Some(validator) = &validator {
        validator.save();
    }
    let failures: Vec<CaseFailure> = planned
        .iter()
        .zip(results)
        .filter_map(|(case, result)| {
            result.err().map(|reason| CaseFailure {
                case: case.name.clone(),
                reason,
            })
        })
        .collect();
    if !failures.is_empty() {
        return Err(GenError::Failed {
            problem: problem.name.clone(),
            total: planned.len(),
            failures,
        });
    }

    let mut changed = Vec::new();
    for case in &planned {
        let made = scratch.path().join(&case.name);
        let committed = folder.join(&case.name);
        let status = compare(&made, &committed)?;
        if status == Status::Unchanged {
            continue;
        }
        if mode == Mode::Write {
            install(&made, &committed)?;
        }
        changed.push(CaseStatus {
            case: case.name.clone(),
            status,
        });
    }
    let report = GenReport {
        problem: problem.name.clone(),
        cases_folder: folder.clone(),
        mode,
        total: planned.len(),
        changed,
        elapsed: started.elapsed(),
    };
    on_event(Event::UnitFinished {
        unit,
        result: Finished::Generated(&report),
    });
    Ok(report)
}

/// Where cases are made before they move. Written cases must be renamed into place, so their
/// scratch folder sits beside the case folder (the same file system), hidden, and outside it
/// (a leftover is never taken for cases).
fn scratch_folder(folder: &Path, problem: &str, mode: Mode) -> Result<tempfile::TempDir, GenError> {
    // The judge's pid in the name tells a leftover of a killed `gen` (its pid gone) from the
    // folder of a `gen` running beside this one.
    let prefix = scratch_prefix(problem);
    let owned = format!("{prefix}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&owned);
    let parent = folder
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    remove_leftovers(parent, &prefix);
    match mode {
        Mode::Check => builder.tempdir().map_err(io(Path::new("temporary folder"))),
        Mode::Write => {
            fs::create_dir_all(folder).map_err(io(folder))?;
            builder.tempdir_in(parent).map_err(io(parent))
        }
    }
}

fn scratch_prefix(problem: &str) -> String {
    format!(".harness-gen-{problem}-")
}

/// Removes the scratch folders of `gen`s that were killed (SIGKILL leaves no chance to clean
/// up): those in `parent` named with this problem's prefix whose judge no longer runs.
fn remove_leftovers(parent: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(prefix)) else {
            continue;
        };
        let stale = match leftover_owner(rest) {
            Owner::Judge(pid) => !Path::new(&format!("/proc/{pid}")).exists(),
            Owner::Unknown => true,
            Owner::NotOurs => false,
        };
        if stale && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Owner {
    /// `<pid>-<random>`: made by the judge with this pid.
    Judge(u32),
    /// `<random>`: named before the pid was part of the name, so a leftover.
    Unknown,
    /// Anything else, such as another problem whose name starts with this one's and a dash.
    NotOurs,
}

/// Who made a scratch folder, from its name after the problem's prefix.
fn leftover_owner(rest: &str) -> Owner {
    let random = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric());
    match rest.split_once('-') {
        None if random(rest) => Owner::Unknown,
        Some((pid, tail)) if random(tail) => pid.parse().map_or(Owner::NotOurs, Owner::Judge),
        _ => Owner::NotOurs,
    }
}

/// Generator, validator, reference: `Err` with a one-line reason when any of them fails.
fn make_case(
    config: &Config,
    problem: &Problem,
    reference: Option<&[String]>,
    validator: Option<&Validator>,
    case: &PlannedCase,
    scratch: &Path,
) -> Result<(), String> {
    let generator = &problem.generators[case.generator];
    let seed = case.seed.to_string();
    let command = tool::Command::new(
        Role::Generator,
        &generator.command,
        &config.root,
        &[("seed", &seed)],
    );
    // Generators run in judge.toml's folder, so their own file arguments resolve there.
    let input = command
        .output(None, Some(&config.root))
        .map_err(|e| e.to_string())?;
    let base = scratch.join(&case.name);
    if let Some(parent) = base.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create `{}`: {e}", parent.display()))?;
    }
    let input_path = with_suffix(&base, "in");
    fs::write(&input_path, &input)
        .map_err(|e| format!("cannot write `{}`: {e}", input_path.display()))?;
    if let Some(validator) = validator {
        match validator.check(&input_path).map_err(|e| e.to_string())? {
            Validity::Valid => {}
            Validity::Invalid { reason } => {
                return Err(format!(
                    "the generator `{}` made an invalid input: {reason}",
                    command.shown
                ))
            }
        }
    }
    let answer = match reference {
        Some(reference) => tool::Command::new(Role::Reference, reference, &config.root, &[])
            .output(Some(&input_path), None)
            .map_err(|e| e.to_string())?,
        None => Vec::new(),
    };
    let answer_path = with_suffix(&base, "ans");
    fs::write(&answer_path, &answer)
        .map_err(|e| format!("cannot write `{}`: {e}", answer_path.display()))
}

/// `base.in` for `base` = `cases/p/n1.5`: the case name may hold dots, so no `with_extension`.
pub(crate) fn with_suffix(base: &Path, suffix: &str) -> PathBuf {
    let mut path = base.as_os_str().to_owned();
    path.push(".");
    path.push(suffix);
    PathBuf::from(path)
}

fn compare(made: &Path, committed: &Path) -> Result<Status, GenError> {
    let read = |path: PathBuf| -> Result<Option<Vec<u8>>, GenError> {
        match fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(io(&path)(source)),
        }
    };
    let made_in = read(with_suffix(made, "in"))?;
    let made_ans = read(with_suffix(made, "ans"))?;
    let (Some(old_in), Some(old_ans)) = (
        read(with_suffix(committed, "in"))?,
        read(with_suffix(committed, "ans"))?,
    ) else {
        return Ok(Status::Missing);
    };
    let input = made_in.as_deref() != Some(&old_in[..]);
    let answer = made_ans.as_deref() != Some(&old_ans[..]);
    Ok(if input || answer {
        Status::Differs { input, answer }
    } else {
        Status::Unchanged
    })
}

/// A failure to read or write `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> GenError {
    let path = path.to_path_buf();
    move |source| GenError::Io { path, source }
}

/// Renames both files over the committed ones: each file is replaced whole, never half-written.
fn install(made: &Path, committed: &Path) -> Result<(), GenError> {
    if let Some(parent) = committed.parent() {
        fs::create_dir_all(parent).map_err(io(parent))?;
    }
    for suffix in ["in", "ans"] {
        let from = with_suffix(made, suffix);
        let to = with_suffix(committed, suffix);
        // A case is replaced, never a link, a device or a FIFO that stands where one would be.
        if let Some(kind) = fs::symlink_metadata(&to)
            .ok()
            .and_then(|found| crate::file_kind::of_type(found.file_type()))
        {
            return Err(GenError::Io {
                path: to,
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("it is {kind}, not a file: not replacing it with the generated case"),
                ),
            });
        }
        fs::rename(&from, &to).map_err(io(&to))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config;

    #[test]
    fn leftovers_name_their_judge() {
        let table = [
            ("123-abcdef", Owner::Judge(123)),
            ("9-x", Owner::Judge(9)),
            ("abcdef", Owner::Unknown),
            ("12-", Owner::NotOurs),
            ("x-1", Owner::NotOurs),
            // Problem `p-12`'s folder, seen with problem `p`'s prefix.
            ("12-345-abcdef", Owner::NotOurs),
        ];
        for (rest, expected) in table {
            assert_eq!(leftover_owner(rest), expected, "{rest}");
        }
    }

    #[test]
    fn a_killed_gens_folder_goes_and_a_running_ones_stays() {
        let dir = tempfile::tempdir().unwrap();
        let prefix = scratch_prefix("p");
        // No process has pid u32::MAX - 1 (pid_max is at most 2^22).
        let dead = dir.path().join(format!("{prefix}{}-aaaaaa", u32::MAX - 1));
        let alive = dir
            .path()
            .join(format!("{prefix}{}-bbbbbb", std::process::id()));
        let old_style = dir.path().join(format!("{prefix}cccccc"));
        let other_problem = dir.path().join(".harness-gen-q-1-dddddd");
        let longer_name = dir
            .path()
            .join(format!("{prefix}x-{}-eeeeee", u32::MAX - 1));
        for folder in [&dead, &alive, &old_style, &other_problem, &longer_name] {
            fs::create_dir_all(folder.join("sub")).unwrap();
        }
        remove_leftovers(dir.path(), &prefix);
        assert!(!dead.exists());
        assert!(!old_style.exists());
        assert!(alive.exists());
        assert!(other_problem.exists());
        assert!(longer_name.exists());
    }

    #[test]
    fn names_fill_and_pad_the_seed() {
        assert_eq!(case_name("all-{seed:03}", 7).unwrap(), "all-007");
        assert_eq!(case_name("all-{seed:03}", 1234).unwrap(), "all-1234");
        assert_eq!(case_name("n{seed}", 12).unwrap(), "n12");
        assert_eq!(case_name("big", 3).unwrap(), "big");
        assert_eq!(case_name("s/{seed:02}-{seed}", 5).unwrap(), "s/05-5");
        assert!(case_name("n{seed", 1).is_err());
        assert!(case_name("n{size}", 1)
            .unwrap_err()
            .contains("unknown placeholder"));
        assert!(case_name("n{seed:3}", 1).is_err());
        assert!(case_name("n}", 1).is_err());
    }

    fn problem(generators: &str) -> Problem {
        let text = format!("[problems.p]\nsolution = \"s\"\n{generators}");
        let config = config::parse(&text, Path::new("/x/judge.toml")).unwrap();
        config.problem("p").unwrap().clone()
    }

    #[test]
    fn plan_lists_every_seed_in_order() {
        let p = problem(
            "[[problems.p.generators]]\nname = \"a-{seed}\"\ncommand = [\"g\"]\nseeds = \"1..=2\"\n[[problems.p.generators]]\nname = \"b\"\ncommand = [\"g\"]\nseeds = 9\n",
        );
        let names: Vec<String> = plan(&p).unwrap().into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["a-1", "a-2", "b"]);
    }

    #[test]
    fn colliding_names_are_refused() {
        let p = problem(
            "[[problems.p.generators]]\nname = \"n{seed}\"\ncommand = [\"g\"]\nseeds = \"1..=3\"\n[[problems.p.generators]]\nname = \"n{seed}\"\ncommand = [\"h\"]\nseeds = \"3..=4\"\n",
        );
        let error = plan(&p).unwrap_err().to_string();
        assert!(error.contains("both name a case `n3`"), "{error}");

        let p = problem(
            "[[problems.p.generators]]\nname = \"sample-{seed}\"\ncommand = [\"g\"]\nseeds = \"1..=3\"\n",
        );
        let error = plan(&p).unwrap_err().to_string();
        assert!(error.contains("kept for hand-added cases"), "{error}");

        let p = problem(
            "[[problems.p.generators]]\nname = \"../{seed}\"\ncommand = [\"g\"]\nseeds = \"1..=3\"\n",
        );
        assert!(plan(&p).is_err());
    }
}
