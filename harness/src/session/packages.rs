//! Problems read from packages: telling a package folder from a problem id on the command
//! line, loading one with its time limit settled (computed from the accepted submissions when
//! the package has none), and judge.toml's problems that name a package.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::compile::Language;
use crate::config;
use crate::package::{self, limits::LimitOrigin, Loaded};
use crate::report::progress::Progress;

/// The package folders the arguments name: `None` when they name problems of judge.toml. A
/// folder that holds packages (a contest) stands for each of them.
pub fn package_dirs(args: &[String]) -> Result<Option<Vec<PathBuf>>> {
    let looks_like_path = |arg: &String| Path::new(arg).is_dir();
    if args.is_empty() || !args.iter().any(looks_like_path) {
        return Ok(None);
    }
    let mut dirs = Vec::new();
    for arg in args {
        let dir = PathBuf::from(arg);
        if package::detect(&dir).is_some() {
            dirs.push(dir);
            continue;
        }
        // A contest: its problems, in problems.yaml's order.
        if package::contest::is_contest(&dir) {
            let contest = package::contest::open(&dir)?;
            dirs.extend(contest.problems.into_iter().map(|p| p.dir));
            continue;
        }
        if !dir.is_dir() {
            anyhow::bail!("`{arg}` is not a package folder, and problem ids cannot be mixed with package folders (hint: give only package folders, or only problem ids)");
        }
        let mut inside: Vec<PathBuf> = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir() && package::detect(p).is_some())
            .collect();
        if inside.is_empty() {
            // Reading it names a format the harness knows of but does not read (TPS).
            return Err(match package::open(&dir) {
                Err(error) => error,
                Ok(_) => package::PackageError::NotAPackage(dir),
            }
            .into());
        }
        inside.sort();
        dirs.extend(inside);
    }
    Ok(Some(dirs))
}

/// Reads and builds the package in `dir`; when it gives no time limit, judges its accepted
/// submissions first and computes one as problemtools does. Says where the limit comes from
/// on stderr (when `tell`), so every report that follows can be read against it.
pub(super) fn load_for_judging(
    dir: &Path,
    languages: Vec<Language>,
    jobs: usize,
    tell: bool,
) -> Result<Loaded> {
    load_with_limit(dir, languages, jobs, tell, None)
}

/// [`load_for_judging`], with a time limit that wins over the package's (judge.toml's).
fn load_with_limit(
    dir: &Path,
    languages: Vec<Language>,
    jobs: usize,
    tell: bool,
    time_limit: Option<std::time::Duration>,
) -> Result<Loaded> {
    let mut opened = package::open(dir)?;
    if let Some(limit) = time_limit {
        opened.time_limit = package::TimeLimit::Given {
            limit,
            source: "judge.toml",
        };
    }
    let source = match &opened.time_limit {
        package::TimeLimit::Given { source, .. } => Some(*source),
        package::TimeLimit::Computed { .. } => None,
    };
    warn_unsandboxed(&opened, false);
    note_python(&opened);
    let loaded = package::load(opened, languages.clone(), None)?;
    let name = loaded.package.name.clone();
    let (loaded, origin) = match source {
        Some(source) => (loaded, LimitOrigin::Given(source)),
        None => {
            let runs = crate::judge::stored::accepted_runs(&loaded);
            let mut progress = Progress::stderr(runs);
            progress.set_label(&format!("{name}: accepted submissions, for the time limit"));
            let computed =
                crate::judge::stored::compute_time_limit(&loaded, jobs, &mut || progress.tick())?;
            progress.finish();
            let (limit, origin) = computed.expect("a package without a fixed limit computes one");
            let package = loaded.package.clone();
            (package::load(package, languages, Some(limit))?, origin)
        }
    };
    if tell {
        let limit = loaded.problem().time_limit;
        crate::report::package::write_loaded(
            &mut anstream::stderr().lock(),
            &loaded,
            limit,
            &origin,
        )?;
    }
    Ok(loaded)
}

/// Says once, when a package has Python submissions, that they run with CPython here rather
/// than the PyPy the format's tools run them with.
fn note_python(package: &package::Package) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let python = package
        .submissions
        .iter()
        .any(|s| s.path.extension().is_some_and(|e| e == "py" || e == "py3"));
    let Some(note) = python
        .then(package::languages::PackagePython::here)
        .and_then(|p| p.note())
    else {
        return;
    };
    if !SAID.swap(true, std::sync::atomic::Ordering::SeqCst) {
        let _ = writeln!(anstream::stderr(), "note: {}: {note}", package.name);
    }
}

/// Says once, before a package's own programs first run, that they will run without the
/// sandbox here, and why: they come from outside the project. `input_validators`: the command
/// runs those too.
pub(crate) fn warn_unsandboxed(package: &package::Package, input_validators: bool) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let mut programs: Vec<&str> = Vec::new();
    match &package.validation {
        package::Validation::Custom(program)
        | package::Validation::Testlib { program, .. }
        | package::Validation::Cms { program, .. } => {
            programs.push(&program.name);
        }
        package::Validation::Default | package::Validation::Builtin(_) => {}
    }
    if let package::Interaction::Testlib { program, .. } = &package.interaction {
        programs.push(&program.name);
    }
    if input_validators {
        programs.extend(package.input_validators.iter().map(|p| p.name.as_str()));
    }
    if programs.is_empty() {
        return;
    }
    #[cfg(target_os = "linux")]
    let why = crate::sandbox::plain_because();
    #[cfg(not(target_os = "linux"))]
    let why = Some("the sandbox needs Linux".to_owned());
    let Some(why) = why else {
        return;
    };
    if SAID.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    let names: Vec<String> = programs.iter().map(|p| format!("`{p}`")).collect();
    let _ = crate::report::notice::write_warning(
        &mut anstream::stderr(),
        format_args!(
            "{}: the package's own programs ({}) are not sandboxed here ({why}): they run with your rights, and can read and write your files and reach the network (hint: `harness doctor`)",
            package.name,
            names.join(", ")
        ),
    );
}

/// Replaces each problem of judge.toml that names a `package` by the package's problem (its
/// cases, limits and checker), keeping the table's id and `solution`: those of `names`, or
/// every one when `names` is empty. A package is read (and its time limit computed, which
/// judges its submissions) only when the command is about its problem.
pub(super) fn resolve_packages(config: &mut config::Config, names: &[&str]) -> Result<()> {
    let wanted = |problem: &config::Problem| {
        problem.package.is_some() && (names.is_empty() || names.contains(&problem.name.as_str()))
    };
    if !config.problems.iter().any(wanted) {
        return Ok(());
    }
    let languages = package::languages(Some(config));
    for problem in &mut config.problems {
        if !wanted(problem) {
            continue;
        }
        let Some(reference) = problem.package.clone() else {
            continue;
        };
        let loaded = load_with_limit(
            &reference.path,
            languages.clone(),
            2,
            true,
            reference.time_limit,
        )
        .map_err(|e| {
            e.context(format!(
                "problem `{}`: package `{}`",
                problem.name,
                reference.path.display()
            ))
        })?;
        let mut resolved = loaded.problem().clone();
        resolved.name = problem.name.clone();
        resolved.solution = problem.solution.clone();
        resolved.label = problem.label.clone();
        *problem = resolved;
    }
    Ok(())
}
