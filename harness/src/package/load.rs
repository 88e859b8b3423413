//! A package read whichever its format, and loaded to judge: its checker (or output
//! validator) and interactor built, the package turned into a one-problem config.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::check::package::{OutputValidator, PackageChecker};
use crate::check::Checker;
use crate::compile::Language;
use crate::config::{Config, Problem};

use super::{Format, Interaction, Package, PackageError, Validation};

/// Where packages keep their files and what a folder must hold to be one.
pub fn detect(dir: &Path) -> Option<Format> {
    if dir.join("problem.yaml").is_file() {
        Some(super::kattis::version(dir))
    } else if dir.join("problem.xml").is_file() {
        Some(Format::Polygon)
    } else if super::cms::is_task(dir) {
        Some(Format::Cms)
    } else if super::tps::is_task(dir) {
        Some(Format::Tps)
    } else if dir.join("domjudge-problem.ini").is_file() && dir.join("data").is_dir() {
        Some(Format::KattisLegacy)
    } else {
        None
    }
}

/// Reads the package in `dir`, whichever its format.
pub fn open(dir: &Path) -> Result<Package, PackageError> {
    match detect(dir) {
        Some(Format::Polygon) => super::polygon::open(dir),
        Some(Format::Cms) => super::cms::open(dir),
        Some(Format::Tps) => super::tps::open(dir),
        Some(format) => super::kattis::open(dir, format),
        None => Err(PackageError::NotAPackage(dir.to_path_buf())),
    }
}

/// A package built to judge: the problem (with its checker compiled) in a config of its own.
#[derive(Debug)]
pub struct Loaded {
    pub package: Package,
    pub config: Config,
    /// The interactor of an interactive package, ready to run beside each submission.
    pub interactor: Option<crate::check::interactor::Shared>,
}

impl Loaded {
    pub fn problem(&self) -> &Problem {
        &self.config.problems[0]
    }
}

/// The languages to judge a package's submissions with: the format's tools' own table (a
/// `.py` runs with PyPy where it is installed, Java and Kotlin as problemtools starts them),
/// then judge.toml's languages (or the judge's built-in ones) for the extensions that table
/// does not know, and by their id for `--lang`; a language judge.toml's own `[languages]`
/// table defines replaces the tools' entry of its id (`[languages.cpp]` with `-std=gnu++17`).
/// No time multiplier applies: the format has one time limit for every language, and
/// problemtools, BAPCtools and Kattis judge it so.
pub fn languages(extra: Option<&Config>) -> Vec<Language> {
    let python = super::languages::PackagePython::here();
    let mut table = super::languages::builtin(&python);
    let others = extra.map_or_else(crate::config::languages::builtin, |c| c.languages.clone());
    let own = extra
        .map(|c| c.own_languages.as_slice())
        .unwrap_or_default();
    for mut language in others {
        if let Some(slot) = table.iter_mut().find(|l| l.id == language.id) {
            if own.contains(&language.id) {
                *slot = language;
            }
            continue;
        }
        language.time_multiplier = 1.0;
        language
            .extensions
            .retain(|e| !table.iter().any(|l| l.extensions.contains(e)));
        table.push(language);
    }
    table
}

/// The package's scoring, with its custom grader built for the groups graded `custom` (a
/// grader that does not build is the package's error, as problemtools stops at it).
fn scoring_with_grader(
    package: &Package,
    languages: &[Language],
) -> Result<Option<std::sync::Arc<crate::score::Scoring>>, PackageError> {
    let (Some(rules), Some(source)) = (&package.scoring_rules, &package.grader) else {
        return Ok(package.scoring_rules.clone());
    };
    if !rules.has_custom_grading() {
        return Ok(Some(rules.clone()));
    }
    let built = super::build::build(source, languages, None)?;
    let grader = crate::check::grader::PackageGrader {
        program: built.package_program(&source.name),
    };
    Ok(Some(std::sync::Arc::new(
        (**rules).clone().with_grader(std::sync::Arc::new(grader)),
    )))
}

/// Builds what judging needs (the output validator or checker) and turns the package into a
/// one-problem config. `time_limit` overrides the package's own (a computed one, say); without
/// either, the problem gets the placeholder limit problemtools uses until it knows better.
pub fn load(
    package: Package,
    languages: Vec<Language>,
    time_limit: Option<Duration>,
) -> Result<Loaded, PackageError> {
    let mut interactor = None;
    // A validator's `score.txt` is read as its package's version of the format says.
    let feedback = match package.format {
        super::Format::KattisLegacy => crate::score::FeedbackRules::Legacy,
        super::Format::Kattis2025
        | super::Format::Polygon
        | super::Format::Cms
        | super::Format::Tps => crate::score::FeedbackRules::Kattis2025,
    };
    let program_of = |built: &super::build::Built, name: &str| {
        let mut program = built.package_program(name);
        program.feedback = feedback;
        program
    };
    let judged_by = |passes, validator, groups| {
        Checker::Package(std::sync::Arc::new(PackageChecker {
            passes,
            validator,
            groups,
        }))
    };
    let checker = match &package.validation {
        Validation::Default => judged_by(
            package.passes,
            OutputValidator::Default,
            output_groups(&package),
        ),
        Validation::Custom(source) if package.interaction == Interaction::Validator => {
            let built = super::build::build(source, &languages, None)?;
            interactor = Some(package_interactor(
                program_of(&built, &source.name),
                crate::verdict::InteractorProtocol::Kattis,
                None,
            ));
            // Never consulted: the interactor's exit code is the judgement.
            judged_by(
                package.passes,
                OutputValidator::Default,
                output_groups(&package),
            )
        }
        Validation::Custom(source) => {
            let built = super::build::build(source, &languages, None)?;
            let validator = OutputValidator::Custom(program_of(&built, &source.name));
            judged_by(package.passes, validator, output_groups(&package))
        }
        Validation::Testlib { program, include } => {
            let built = super::build::build(program, &languages, Some(include))?;
            let validator = OutputValidator::Testlib(built.package_program(&program.name));
            judged_by(package.passes, validator, Vec::new())
        }
        Validation::Builtin(checker) => checker.clone(),
        Validation::Cms {
            program: source,
            include,
        } => {
            let checker = cms_checker(source, &languages, include.as_deref())?;
            judged_by(None, OutputValidator::Cms(checker), Vec::new())
        }
    };
    if let Interaction::Testlib { program, include } = &package.interaction {
        let built = super::build::build(program, &languages, Some(include))?;
        interactor = Some(package_interactor(
            built.package_program(&program.name),
            crate::verdict::InteractorProtocol::Testlib,
            Some(checker.clone()),
        ));
    }
    let package_scoring = scoring_with_grader(&package, &languages)?;
    let communication = match &package.communication {
        None => None,
        Some(task) => Some(crate::config::Communication {
            manager: crate::config::InteractorProgram::Package(manager(&task.manager, &languages)?),
            processes: task.processes,
            user_io: task.user_io,
            checked: task.checked,
        }),
    };
    let known = time_limit.or(package.time_limit.fixed());
    let time_limit = known.unwrap_or(super::limits::UNKNOWN_TIME_LIMIT);
    // While the limit is being computed, a program that waits must not hold the judge for
    // twice the 5-minute placeholder.
    let wall_limit = match known {
        Some(limit) => crate::sandbox::run::wall_limit(limit),
        None => super::limits::UNKNOWN_WALL_LIMIT,
    };
    let (interactor, ready) = interactor.unzip();
    let problem = Problem {
        name: package.name.clone(),
        title: package.title.clone(),
        label: None,
        // A package has no single solution; `harness run` judges its first accepted
        // submission instead (see `cli::run`).
        solution: None,
        url: None,
        interactive: interactor.is_some(),
        interactor,
        multi_test: false,
        output_only: package.output_only,
        graders: package.graders.clone(),
        communication,
        two_steps: package.two_steps,
        files: package.files.clone(),
        reference: None,
        cases: package.root.join(match package.format {
            Format::Cms => "input",
            Format::Tps => "tests",
            _ => "data",
        }),
        time_limit,
        wall_limit,
        memory_limit: package.memory_limit,
        output_limit: package.output_limit,
        checker,
        validator: None,
        validator_protocol: crate::config::ValidatorProtocol::default(),
        generators: Vec::new(),
        stress: None,
        scoring: Default::default(),
        package_scoring,
        expected_scores: Vec::new(),
        package: Some(crate::config::PackageRef {
            path: package.root.clone(),
            time_limit: known,
        }),
    };
    let config = Config {
        root: package.root.clone(),
        path: package.root.join(match package.format {
            Format::Polygon => "problem.xml",
            Format::Cms => "task.yaml",
            Format::Tps => "problem.json",
            _ => "problem.yaml",
        }),
        build: None,
        problems: vec![problem],
        languages,
        own_languages: Vec::new(),
        sandbox: crate::sandbox::Mode::default(),
    };
    Ok(Loaded {
        package,
        config,
        interactor: ready,
    })
}

/// A CMS task's checker: `check/checker` is the program itself (CMS runs the file it is
/// given, a binary or a script with its `#!` line); a `check/checker.cpp` is built.
fn cms_checker(
    source: &super::SourceProgram,
    languages: &[Language],
    include: Option<&Path>,
) -> Result<crate::check::package::PackageProgram, PackageError> {
    if source.path.extension().is_some() {
        return Ok(super::build::build(source, languages, include)?.package_program(&source.name));
    }
    if !is_executable(&source.path) {
        return Err(PackageError::Build {
            path: source.path.clone(),
            message: "the checker is not executable, and has no extension to build it by (hint: `chmod +x` it, or give its source as `checker.cpp`)".to_string(),
        });
    }
    Ok(as_is(source, source.path.clone(), Vec::new()))
}

/// Whether the file at `path` has an executable bit.
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// A package's program run as it is, not built: `program` with `args`, in its source's folder.
fn as_is(
    source: &super::SourceProgram,
    program: PathBuf,
    args: Vec<std::ffi::OsString>,
) -> crate::check::package::PackageProgram {
    crate::check::package::PackageProgram {
        program,
        args,
        folder: source
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
        name: source.name.clone(),
        feedback: crate::score::FeedbackRules::default(),
    }
}

/// A communication task's manager: a source is built (`check/manager.cpp`, TPS's
/// `grader/manager.cpp`); CMS's `check/manager` is the program itself, which CMS makes
/// executable when it copies it into the manager's sandbox, so a script without its
/// executable bit runs by its `#!` line as the kernel would start it.
fn manager(
    source: &super::SourceProgram,
    languages: &[Language],
) -> Result<crate::check::package::PackageProgram, PackageError> {
    if source.path.extension().is_some() {
        return Ok(super::build::build(source, languages, None)?.package_program(&source.name));
    }
    let (program, args) = if is_executable(&source.path) {
        (source.path.clone(), Vec::new())
    } else {
        let (interpreter, mut args) = shebang(&source.path).ok_or_else(|| PackageError::Build {
            path: source.path.clone(),
            message: "the manager is not executable, has no `#!` line and no extension to build it by (hint: give the built program, or its source as `manager.cpp`)".to_string(),
        })?;
        args.push(source.path.clone().into_os_string());
        (interpreter, args)
    };
    Ok(as_is(source, program, args))
}

/// A script's `#!` line: the interpreter, and the rest of the line as its one argument, as
/// Linux passes it.
fn shebang(path: &Path) -> Option<(PathBuf, Vec<std::ffi::OsString>)> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let read = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .ok()?;
    let line = head[..read].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|b| *b == b'\n')?];
    let line = std::str::from_utf8(line).ok()?.trim();
    let (interpreter, rest) = line.split_once([' ', '\t']).unwrap_or((line, ""));
    if interpreter.is_empty() {
        return None;
    }
    let rest = rest.trim();
    let args = if rest.is_empty() {
        Vec::new()
    } else {
        vec![rest.into()]
    };
    Some((PathBuf::from(interpreter), args))
}

/// A package's interactor, built: as the problem names it, and ready to run.
fn package_interactor(
    program: crate::check::package::PackageProgram,
    protocol: crate::verdict::InteractorProtocol,
    checker: Option<Checker>,
) -> (crate::config::Interactor, crate::check::interactor::Shared) {
    let ready =
        crate::check::interactor::ReadyInteractor::of_package(&program, protocol, checker.clone());
    let interactor = crate::config::Interactor {
        program: crate::config::InteractorProgram::Package(program),
        protocol,
        checker,
    };
    (interactor, std::sync::Arc::new(ready))
}

fn output_groups(package: &Package) -> Vec<(PathBuf, Vec<String>)> {
    package
        .groups
        .iter()
        .map(|g| (g.folder.clone(), g.output_flags.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_extension_the_formats_use_names_a_language() {
        let table = languages(None);
        for (file, id) in [
            ("a.py", "python3"),
            ("a.py3", "python3"),
            ("a.sh", "bash"),
            ("a.bash", "bash"),
            ("a.cc", "cpp"),
            ("A.java", "java"),
        ] {
            let found = super::super::languages::language_of(&table, Path::new(file))
                .map(|l| l.id.as_str());
            assert_eq!(found, Ok(id), "{file}");
        }
    }
}
