//! A contestant's submission (or any one source in a language of the table) compiled: the
//! one build ([`program::build`]) with the language's recipe, and what it gave.

use std::path::{Path, PathBuf};

use super::languages::Language;
use super::program::{self, Outcome, Program, Recipe, Source};
use super::submit::SubmitError;

/// A submission ready to judge: the program, its build in the cache.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub program: Program,
    /// Time limits are multiplied by this (interpreters).
    pub time_multiplier: f64,
    /// The compiler's messages, warnings included (empty for interpreters).
    pub compile_message: String,
    /// The private copy of the source the compiler saw (a sanitizer's frames name it).
    pub source_copy: PathBuf,
    /// Files put in each run's folder beside the program, by name and path (a command's
    /// folder, `--cmd`: `java Main` reads `Main.class` there).
    pub beside: Vec<(String, PathBuf)>,
}

/// What compiling gave.
#[derive(Debug)]
pub enum Compiled {
    Ready(Prepared),
    CompileError { language: Language, message: String },
}

/// Builds the source as `language` (see [`program::build`]: a second run takes the build from
/// the cache). A testlib checker or interactor includes "testlib.h" from its own folder, as
/// Polygon keeps it: the header goes beside the copy and into the key. `memory_bytes`, the
/// limit the program will run under, fills `{memory-mib}` (a JVM's or V8's heap size).
pub fn compile(
    language: &Language,
    source: &Path,
    memory_bytes: u64,
) -> Result<Compiled, SubmitError> {
    compile_with(language, source, memory_bytes, &[], None)
}

/// [`compile`] with `beside` (file names and bytes) put onto the build folder: a package's
/// `include/` files, which a submission includes or imports, compiled with it where they are
/// in its language (a grader's `main`), and part of the build's key. `entry` names the one of
/// them that is the program's entry point, when one is (a grader `main.py`). A folder is a
/// submission of several files ([`folder_sources`]).
pub fn compile_with(
    language: &Language,
    source: &Path,
    memory_bytes: u64,
    beside: &[(String, Vec<u8>)],
    entry: Option<&str>,
) -> Result<Compiled, SubmitError> {
    // A command's source is its folder.
    if super::command::is_command(language) {
        let (outcome, beside) = super::command::build(language, source, memory_bytes)?;
        return Ok(compiled(language, outcome, beside));
    }
    let (files, main) = if source.is_dir() {
        folder_sources(language, source)?
    } else {
        (vec![source.to_path_buf()], source.to_path_buf())
    };
    let headers: Vec<PathBuf> = main
        .parent()
        .map(|dir| dir.join("testlib.h"))
        .filter(|header| header.is_file() && !files.contains(header))
        .into_iter()
        .collect();
    let outcome = program::build(
        Source {
            path: source,
            files: &files,
            main: Some(&main),
            headers: &headers,
            beside,
            entry,
            constants: &[],
        },
        Recipe::Language(language),
        language.compile_limits,
        memory_bytes,
    )?;
    Ok(compiled(language, outcome, Vec::new()))
}

/// What a build of `language` gave, as a submission.
fn compiled(language: &Language, outcome: Outcome, beside: Vec<(String, PathBuf)>) -> Compiled {
    match outcome {
        Outcome::Ready(built) => Compiled::Ready(Prepared {
            program: built.program,
            time_multiplier: language.time_multiplier,
            compile_message: built.message,
            source_copy: built.source_copy,
            beside,
        }),
        Outcome::CompileError(message) => Compiled::CompileError {
            language: language.clone(),
            message,
        },
    }
}

/// The most files a submission folder may hold: a program, not a repository.
const MAX_FOLDER_FILES: usize = 256;

/// The files of a submission folder (its regular files, sorted by name; hidden ones and
/// subfolders left out) and its main file, as problemtools picks `{mainfile}`: the source in
/// `language` named `main.*`, else the first source in it by name.
pub fn folder_sources(
    language: &Language,
    folder: &Path,
) -> Result<(Vec<PathBuf>, PathBuf), SubmitError> {
    let unreadable = |error| SubmitError::Unreadable {
        path: folder.to_path_buf(),
        source: error,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        // Links are followed by no one: a file of the folder is a file of it.
        if !hidden && entry.file_type().map_err(unreadable)?.is_file() {
            files.push(entry.path());
        }
        if files.len() > MAX_FOLDER_FILES {
            return Err(unreadable(std::io::Error::other(format!(
                "it holds more than {MAX_FOLDER_FILES} files: a submission is a program's sources"
            ))));
        }
    }
    files.sort();
    let name = |f: &PathBuf| {
        f.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    };
    let main = files
        .iter()
        .find(|f| super::submit::is_entry_name(language, &name(f)))
        .or_else(|| files.iter().find(|f| super::submit::is_unit(language, f)))
        .cloned()
        .ok_or_else(|| {
            unreadable(std::io::Error::other(format!(
                "it has no {} source file (`.{}`)",
                language.name,
                language.extensions.join("`, `.")
            )))
        })?;
    Ok((files, main))
}

/// Whether the `beside` files in `language` (a package's grader) compile on their own, in a
/// folder of their own: C and C++ ones checked without linking (they call the contestant's
/// functions), an entry point (a grader `main.py`) by the language's compile step. `Err` is
/// the compiler's message. Other languages, and none of them in the language, pass.
pub fn check_beside(
    language: &Language,
    beside: &[(String, Vec<u8>)],
    entry: Option<&str>,
) -> Result<(), String> {
    let Some(command) = &language.compile else {
        return Ok(());
    };
    let compiled = matches!(language.id.as_str(), "c" | "cpp");
    let units: Vec<&str> = beside
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| super::submit::is_unit(language, Path::new(name)))
        .collect();
    let main = match (compiled, entry) {
        (true, _) => units.first().copied(),
        (false, entry) => entry,
    };
    let Some(main) = main else {
        return Ok(());
    };
    let dir =
        tempfile::tempdir().map_err(|e| format!("cannot make a folder to check it in: {e}"))?;
    for (name, bytes) in beside {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write `{name}`: {e}"))?;
    }
    let exe = dir.path().join("check.bin");
    let (program, mut args) = super::submit::expand(command, &dir.path().join(main), &exe);
    if compiled {
        args.extend(
            units
                .iter()
                .filter(|unit| **unit != main)
                .map(|unit| dir.path().join(unit).into_os_string()),
        );
        args.push("-fsyntax-only".into());
    }
    let limits = language.compile_limits;
    let run =
        super::submit::run_compiler(&program, &args, dir.path(), limits).map_err(|error| {
            match error {
                super::submit::CompilerError::Run(error) => error.to_string(),
                super::submit::CompilerError::Log(error) => error.to_string(),
            }
        })?;
    if run.result.succeeded() {
        return Ok(());
    }
    // Its files are the package's: named without the scratch folder.
    let prefix = format!("{}/", dir.path().display());
    let mut message = super::submit::cut_message(run.output.replace(&prefix, "").trim_end());
    if let Some(why) = run.reason(limits) {
        message = format!("{why}\n{message}");
    }
    Err(message)
}
