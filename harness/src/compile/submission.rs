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
    compile_with(language, source, memory_bytes, &[])
}

/// [`compile`] with `beside` (file names and bytes) in the build folder first: a package's
/// `include/` files, which a submission includes or imports (and part of the build's key).
pub fn compile_with(
    language: &Language,
    source: &Path,
    memory_bytes: u64,
    beside: &[(String, Vec<u8>)],
) -> Result<Compiled, SubmitError> {
    // A command's source is its folder.
    if super::command::is_command(language) {
        let (outcome, beside) = super::command::build(language, source, memory_bytes)?;
        return Ok(compiled(language, outcome, beside));
    }
    let files = [source.to_path_buf()];
    let headers: Vec<PathBuf> = source
        .parent()
        .map(|dir| dir.join("testlib.h"))
        .filter(|header| header.is_file())
        .into_iter()
        .collect();
    let outcome = program::build(
        Source {
            path: source,
            files: &files,
            main: Some(source),
            headers: &headers,
            beside,
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
