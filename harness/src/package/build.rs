//! A package's own programs (output validators, input validators, testlib checkers,
//! interactors) as the formats lay them out: which of a folder's files is the main one, which
//! language it is, and the folder's own `build` script, run sandboxed. The build itself, and
//! the cache that keeps it across runs, is `compile::program`'s, as for every program.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{languages, PackageError, SourceProgram};
use crate::check::package::{PackageProgram, RunFolder};
use crate::compile;
use crate::compile::program::{Outcome, Program, Recipe, Source};
use crate::compile::Language;
use crate::sandbox::run::{self, Isolation, Limits, RunRequest, Scope, Termination};

/// A package's `build` script is the package's code, not a trusted compiler: it runs
/// sandboxed, bounded like a slow compile (a testlib checker takes seconds with -O2).
const SCRIPT_LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(120),
    wall_time: Duration::from_secs(240),
    memory_bytes: 4 << 30,
    output_bytes: 1 << 20,
};

/// The heap a JVM-based validator or checker gets (`{memory-mib}` in a language's command).
const VALIDATOR_MEMORY_MIB: u64 = 2048;

/// A built program.
#[derive(Debug, Clone)]
pub struct Built {
    pub program: Program,
    /// The build folder, in the cache.
    pub folder: PathBuf,
}

impl Built {
    /// The program as a package's own, run in the sandbox (see `check::package`).
    pub fn package_program(&self, name: &str) -> PackageProgram {
        PackageProgram {
            program: self.program.executable.clone(),
            args: self.program.args.clone(),
            folder: self.folder.clone(),
            name: name.to_string(),
            feedback: crate::score::FeedbackRules::default(),
        }
    }
}

/// The source files of a program: the file itself, or the files of its folder (sorted).
fn sources(program: &SourceProgram) -> Result<Vec<PathBuf>, PackageError> {
    if program.path.is_file() {
        return Ok(vec![program.path.clone()]);
    }
    let files: Vec<PathBuf> = super::sorted_entries(&program.path)?
        .into_iter()
        .filter(|entry| entry.is_file())
        .collect();
    if files.is_empty() {
        return Err(PackageError::Build {
            path: program.path.clone(),
            message: "the folder has no files".to_string(),
        });
    }
    Ok(files)
}

/// Builds `program` with the languages of `table`; `include` is an extra header folder
/// (the package's `testlib.h`).
pub fn build(
    program: &SourceProgram,
    table: &[Language],
    include: Option<&Path>,
) -> Result<Built, PackageError> {
    let fail = |message: String| PackageError::Build {
        path: program.path.clone(),
        message,
    };
    let files = sources(program)?;
    // A folder with `build`/`run` scripts is built as the format allows; otherwise the
    // language of its source files decides.
    // (A `build` alone must make the `run`, as the spec says.)
    let scripts = program.path.is_dir()
        && (program.path.join("run").is_file() || program.path.join("build").is_file());
    let code: Vec<&PathBuf> = files
        .iter()
        .filter(|f| {
            !matches!(
                f.extension().and_then(|e| e.to_str()),
                Some("h" | "hpp" | "hh" | "txt" | "md")
            )
        })
        .collect();
    let main = match code.as_slice() {
        _ if scripts => None,
        [] => return Err(fail("no source file in it".to_string())),
        [one] => Some((*one).clone()),
        several => {
            // Several sources of one language: the one with the entry point is the main one
            // for interpreted languages; compiled ones are compiled together.
            // `main.*` first, as problemtools takes it; else the file with the entry point.
            let named_main = several
                .iter()
                .find(|f| super::file_name(f).starts_with("main."));
            let entry = named_main.or_else(|| {
                several.iter().find(|f| {
                    std::fs::read_to_string(f).is_ok_and(|t| {
                        t.contains("int main")
                            || t.contains("__main__")
                            || t.contains("static void main")
                    })
                })
            });
            Some((*entry.unwrap_or(&several[0])).clone())
        }
    };
    let language = match &main {
        Some(main) => Some(languages::language_of(table, main).map_err(|why| {
            fail(format!(
                "cannot tell how to build `{}`: {why}",
                super::file_name(main)
            ))
        })?),
        None => None,
    };
    if let Some(language) = language {
        languages::available(language).map_err(fail)?;
    }

    let include_header: Vec<PathBuf> = include
        .map(|include| include.join("testlib.h"))
        .filter(|header| header.is_file())
        .into_iter()
        .collect();
    let source = Source {
        path: &program.path,
        files: &files,
        main: main.as_deref(),
        headers: &include_header,
        beside: &[],
        entry: None,
        constants: &program.constants,
    };
    let outcome = match language {
        Some(language) => compile::program::build(
            source,
            Recipe::Language(language),
            language.compile_limits,
            VALIDATOR_MEMORY_MIB << 20,
        ),
        None => compile::program::build(
            source,
            Recipe::Scripts(&|folder| {
                if folder.join("build").is_file() {
                    run_build_script(folder)?;
                }
                if !folder.join("run").is_file() {
                    return Err(
                        "its `build` script made no `run` (the format runs a program \
                                folder by its `run`)"
                            .to_string(),
                    );
                }
                Ok(())
            }),
            crate::compile::CompileLimits::default(),
            VALIDATOR_MEMORY_MIB << 20,
        ),
    }
    .map_err(|error| fail(error.to_string()))?;
    match outcome {
        Outcome::Ready(built) => Ok(Built {
            program: built.program,
            folder: built.folder,
        }),
        Outcome::CompileError(message) if language.is_some() => {
            Err(fail(format!("the compile failed:\n{message}")))
        }
        Outcome::CompileError(message) => Err(fail(message)),
    }
}

/// Runs a package's `build` script on the files in `folder`, in the sandbox like any of the
/// package's programs: in a run folder of its own holding a copy of them, whose regular files
/// and folders (no links) are what the build made.
fn run_build_script(folder: &Path) -> Result<(), String> {
    let run_folder = RunFolder::new().map_err(|e| format!("cannot make a build folder: {e}"))?;
    let work = run_folder.path();
    crate::check::package::copy_tree(folder, work, 0)
        .map_err(|e| format!("cannot copy the sources to build: {e}"))?;
    // It runs in that folder (its /tmp): the script is named from there.
    let args = [work.join("build").into_os_string()];
    let request = RunRequest::new(Path::new("sh"), SCRIPT_LIMITS)
        .args(&args)
        .scope(Scope::Group)
        .workdir(Some(work))
        .isolation(Isolation::Sandbox);
    let result = run::run(&request).map_err(|e| e.to_string())?;
    if result.termination != Termination::Exited(0) || result.limit_hit.is_some() {
        let mut message = String::from_utf8_lossy(&result.stderr_tail).into_owned();
        if message.trim().is_empty() {
            message = String::from_utf8_lossy(&result.stdout).into_owned();
        }
        let message: Vec<&str> = message.lines().take(20).collect();
        return Err(format!(
            "the `build` script failed ({}):\n{}",
            match result.limit_hit {
                Some(hit) => format!("{hit:?}"),
                None => result.termination.describe(),
            },
            message.join("\n")
        ));
    }
    // What it made replaces the sources it was given.
    std::fs::remove_dir_all(folder)
        .and_then(|()| crate::check::package::copy_tree(work, folder, 0))
        .map_err(|e| format!("cannot keep what `build` made: {e}"))
}
