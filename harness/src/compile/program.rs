//! The one way from source to a runnable [`Program`], for everything the judge compiles:
//! submissions, solutions, references, generators, validators, checkers, interactors and a
//! package's own programs. A build is made once and kept in the shared cache
//! ([`super::cache`]) under a key of everything that decides it; a second run, or another
//! judge at the same time, starts the same binary without compiling.

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::cache::{self, KeyBuilder, Store};
use super::submit::{self, SubmitError};
use crate::compile::sanitizer::Sanitized;
use crate::compile::shown::ShownNames;
use crate::compile::{CompileLimits, Language};
use crate::sandbox::run;

/// The file `{exe}` names in a build folder.
const EXE_NAME: &str = "main.bin";
/// The compiler's messages (warnings) of a build, kept beside it so that a build taken from
/// the cache shows them as the first one did.
const MESSAGE_FILE: &str = ".message";
/// The path of the main source's copy as the compiler saw it, kept beside the build: the
/// build is made in a scratch folder renamed into place, so its debug information (the
/// frames of a sanitizer's report) names the scratch folder, not the one it is kept in.
const SOURCE_COPY_FILE: &str = ".source-copy";

/// A program to run: the executable and its arguments (an interpreter and a script, say).
#[derive(Debug, Clone)]
pub struct Program {
    /// What is started.
    pub executable: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Whether it runs under the sandbox's seccomp filter (its language's `sandbox` key).
    pub syscall_filter: bool,
    /// Built with sanitizers (`--sanitize`): run with their options and no address-space cap,
    /// and a crash's reason read from their report.
    pub sanitized: Option<Arc<Sanitized>>,
    /// The copies of its source, shown by the user's names in what it says on stderr (a
    /// traceback, an `assert`).
    pub shown: Arc<ShownNames>,
}

impl Program {
    /// An executable run without arguments.
    pub fn new(executable: impl Into<PathBuf>) -> Program {
        Program {
            executable: executable.into(),
            args: Vec::new(),
            syscall_filter: true,
            sanitized: None,
            shown: Arc::default(),
        }
    }

    /// The environment its runs get: a sanitizer's options, or nothing.
    pub(crate) fn env(&self) -> Vec<(OsString, OsString)> {
        self.sanitized
            .as_ref()
            .map(|s| s.toolchain.env())
            .unwrap_or_default()
    }

    /// Whether its runs keep the address-space cap (a sanitized build cannot).
    pub(crate) fn address_space_cap(&self) -> bool {
        self.sanitized
            .as_ref()
            .is_none_or(|s| s.toolchain.address_space_cap())
    }
}

/// What a build is made of.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The path the user knows the program by (a file or a folder): compile messages name it.
    pub path: &'a Path,
    /// Every file of the program (one for a single source file).
    pub files: &'a [PathBuf],
    /// The one of `files` that the language's commands name as `{source}`.
    pub main: Option<&'a Path>,
    /// Headers put beside the sources unless one of them has the name (`testlib.h`).
    pub headers: &'a [PathBuf],
    /// Files given by name (relative) and bytes, put in the build folder over the sources (a
    /// package's `include/` files, which win over a submission's file of their name, as
    /// problemtools copies them); those in the language are compiled with the sources.
    pub beside: &'a [(String, Vec<u8>)],
    /// The one of `beside` that the language's commands name as `{source}` instead of `main`
    /// (a package's `include/python3/main.py`, which imports the contestant's module).
    pub entry: Option<&'a str>,
    /// `{{name}}` sequences replaced in every text file (2025-09 validators' constants).
    pub constants: &'a [(String, String)],
}

/// How a build is made.
#[derive(Clone, Copy)]
pub enum Recipe<'a> {
    /// By a language's `compile` command (a syntax check for Python), run by its `run`.
    Language(&'a Language),
    /// A folder that brings its own `run` script, made by the step given (a package's `build`
    /// script, which its caller runs sandboxed) in the build folder.
    Scripts(&'a dyn Fn(&Path) -> Result<(), String>),
}

impl std::fmt::Debug for Recipe<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Recipe::Language(language) => write!(f, "Language({})", language.id),
            Recipe::Scripts(_) => f.write_str("Scripts"),
        }
    }
}

/// A build ready to run.
#[derive(Debug, Clone)]
pub struct Built {
    /// The program, its paths in `folder`.
    pub program: Program,
    /// The build folder in the cache: the copies of the sources and what the build made.
    pub folder: PathBuf,
    /// The main source's copy by the path the compiler was given (a sanitizer's frames name
    /// it), which need not be in `folder` any more.
    pub source_copy: PathBuf,
    /// The compiler's messages, warnings included (empty for most builds).
    pub message: String,
    /// Whether the build was taken from the cache.
    pub reused: bool,
}

/// What building gave.
#[derive(Debug)]
pub enum Outcome {
    /// The program, built now or before.
    Ready(Built),
    /// The compiler refused (never cached: the next run shows the message again).
    CompileError(String),
}

/// Builds `source` by `recipe` within `limits`, or takes the build from the cache;
/// `memory_bytes` fills `{memory-mib}` of the run command (a JVM's or V8's heap).
pub fn build(
    source: Source<'_>,
    recipe: Recipe<'_>,
    limits: CompileLimits,
    memory_bytes: u64,
) -> Result<Outcome, SubmitError> {
    let store = Store::from_env().map_err(|error| SubmitError::Cache {
        path: cache::cache_root(),
        source: std::io::Error::other(error.to_string()),
    })?;
    let texts = source
        .files
        .iter()
        .chain(source.headers)
        .map(|file| submit::read_source(file))
        .collect::<Result<Vec<_>, _>>()?;
    let (file_texts, header_texts) = texts.split_at(source.files.len());
    let names: Vec<PathBuf> = source
        .files
        .iter()
        .map(|file| copy_name(recipe, source, file))
        .collect();
    let key = key(source, recipe, &names, file_texts, header_texts);
    let dir = store.entry(&key);
    let cache_error = |path: &Path| {
        let path = path.to_path_buf();
        move |error| SubmitError::Cache {
            path,
            source: error,
        }
    };
    if dir.is_dir() {
        Store::touch(&dir);
        return ready(source, recipe, &names, &dir, memory_bytes, true);
    }
    std::fs::create_dir_all(&store.dir).map_err(cache_error(&store.dir))?;
    // Built aside and renamed into place, so that a build cut short (Ctrl-C, a full disk) or
    // two judges building at once never leave half a build under the key.
    let scratch = tempfile::Builder::new()
        .prefix(".building-")
        .tempdir_in(&store.dir)
        .map_err(cache_error(&store.dir))?;
    for ((name, text), file) in names.iter().zip(file_texts).zip(source.files) {
        let text = with_constants(text, source.constants).ok_or_else(|| {
            SubmitError::Unreadable {
                path: file.clone(),
                source: std::io::Error::other(format!(
                    "with its `{{{{constants}}}}` put in it is larger than the {} MiB a source file may be",
                    super::submit::MAX_SOURCE_BYTES >> 20
                )),
            }
        })?;
        let copy = scratch.path().join(name);
        std::fs::write(&copy, text).map_err(|error| SubmitError::Unreadable {
            path: file.clone(),
            source: error,
        })?;
    }
    for (name, bytes) in source.beside {
        let path = scratch.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(cache_error(parent))?;
        }
        std::fs::write(&path, bytes).map_err(|error| SubmitError::Unreadable {
            path,
            source: error,
        })?;
    }
    for (header, text) in source.headers.iter().zip(header_texts) {
        let name = header.file_name().unwrap_or_default();
        let copy = scratch.path().join(name);
        if !copy.exists() {
            std::fs::write(&copy, text).map_err(cache_error(&copy))?;
        }
    }
    let message = match recipe {
        Recipe::Language(language) => {
            match compile(source, language, &names, scratch.path(), limits)? {
                Ok(message) => message,
                Err(refused) => return Ok(Outcome::CompileError(refused)),
            }
        }
        Recipe::Scripts(step) => {
            if let Err(refused) = step(scratch.path()) {
                return Ok(Outcome::CompileError(refused));
            }
            use std::os::unix::fs::PermissionsExt;
            let run_script = scratch.path().join("run");
            let _ = std::fs::set_permissions(&run_script, std::fs::Permissions::from_mode(0o755));
            String::new()
        }
    };
    let message_file = scratch.path().join(MESSAGE_FILE);
    std::fs::write(&message_file, &message).map_err(cache_error(&message_file))?;
    let copy_file = scratch.path().join(SOURCE_COPY_FILE);
    let compiled_copy = main_copy(source, &names, scratch.path());
    std::fs::write(&copy_file, compiled_copy.as_os_str().as_bytes())
        .map_err(cache_error(&copy_file))?;
    let scratch = scratch.keep();
    if let Err(error) = std::fs::rename(&scratch, &dir) {
        let _ = std::fs::remove_dir_all(&scratch);
        // Another judge got there first with the same build.
        if !dir.is_dir() {
            return Err(cache_error(&dir)(error));
        }
    }
    store.sweep(&dir);
    ready(source, recipe, &names, &dir, memory_bytes, false)
}

/// Everything that decides the build: the sources (names and bytes) and headers, the
/// constants, the recipe (a language's whole table entry, flags included), the identity of
/// the tools its compile command starts and of the sanitizers' runtimes it links.
fn key(
    source: Source<'_>,
    recipe: Recipe<'_>,
    names: &[PathBuf],
    files: &[Vec<u8>],
    headers: &[Vec<u8>],
) -> cache::Key {
    let mut key = KeyBuilder::new();
    let label = match recipe {
        Recipe::Language(language) => {
            key.part(format!("{language:?}").as_bytes());
            let tools = language
                .compile
                .iter()
                .filter_map(|command| command.first().map(String::as_str))
                .chain(language.tools.iter().map(String::as_str));
            for tool in tools {
                key.part(cache::tool_identity(tool).as_bytes());
            }
            // A sanitized build runs only with the runtimes it was linked against.
            if let Some(command) = &language.compile {
                key.part(super::runtimes::identity(command).as_bytes());
            }
            language.id.as_str()
        }
        Recipe::Scripts(_) => {
            key.part(b"scripts");
            "scripts"
        }
    };
    let main = source.main.and_then(|main| {
        let index = source.files.iter().position(|f| f == main)?;
        Some(names[index].as_os_str().as_encoded_bytes())
    });
    key.part(main.unwrap_or_default());
    for (name, text) in names.iter().zip(files) {
        key.part(name.as_os_str().as_encoded_bytes()).part(text);
    }
    key.part(b"\0headers");
    for (header, text) in source.headers.iter().zip(headers) {
        let name = header.file_name().unwrap_or_default();
        key.part(name.as_encoded_bytes()).part(text);
    }
    key.part(b"\0beside");
    for (name, bytes) in source.beside {
        key.part(name.as_bytes()).part(bytes);
    }
    key.part(b"\0entry")
        .part(source.entry.unwrap_or_default().as_bytes());
    key.part(b"\0constants");
    for (name, value) in source.constants {
        key.part(name.as_bytes()).part(value.as_bytes());
    }
    let stem = source
        .path
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy();
    key.finish(&format!("{stem}-{label}"))
}

/// The name a file of the program gets in the build folder: its own, except that the main
/// file of a language takes the language's extension when it has another (picked by
/// `--lang`), because compilers such as gcc choose the language by the extension.
fn copy_name(recipe: Recipe<'_>, source: Source<'_>, file: &Path) -> PathBuf {
    match recipe {
        Recipe::Language(language) if source.main == Some(file) => {
            submit::copy_name(language, file)
        }
        _ => PathBuf::from(file.file_name().unwrap_or_default()),
    }
}

/// `text` with the constants put in, when it is text and there are any; `None` when that
/// makes it larger than a source file may be ([`MAX_SOURCE_BYTES`](super::submit::MAX_SOURCE_BYTES),
/// or its own size if it was larger already).
fn with_constants<'a>(
    text: &'a [u8],
    constants: &[(String, String)],
) -> Option<std::borrow::Cow<'a, [u8]>> {
    match std::str::from_utf8(text) {
        Ok(text) if !constants.is_empty() => {
            let limit = (super::submit::MAX_SOURCE_BYTES as usize).max(text.len());
            substitute(text, constants, limit)
                .map(|text| std::borrow::Cow::Owned(text.into_bytes()))
        }
        _ => Some(std::borrow::Cow::Borrowed(text)),
    }
}

/// Runs the language's compile command in `dir`, where the sources are: the compiler's
/// messages when it built, its first lines (or why it was stopped) when it refused.
fn compile(
    source: Source<'_>,
    language: &Language,
    names: &[PathBuf],
    dir: &Path,
    limits: CompileLimits,
) -> Result<Result<String, String>, SubmitError> {
    let missing_tool = |program: &Path, error: std::io::Error| SubmitError::MissingTool {
        program: program.display().to_string(),
        language: language.name.clone(),
        id: language.id.clone(),
        source: error,
    };
    let main = main_copy(source, names, dir);
    let exe = dir.join(EXE_NAME);
    // An interpreter that is missing is named before compiling, not after a compile that
    // needed it anyway.
    let (executable, _) = submit::expand(&language.run, &main, &exe);
    if !executable.starts_with(dir) {
        run::find_program(&executable).map_err(|error| missing_tool(&executable, error))?;
    }
    let mut message = String::new();
    if let Some(command) = &language.compile {
        let (program, mut args) = submit::expand(command, &main, &exe);
        let units = other_units(source, language, names, dir, &main);
        if !units.is_empty() {
            args.extend(units.into_iter().map(PathBuf::into_os_string));
            args.push(OsString::from("-I"));
            args.push(dir.as_os_str().to_owned());
        }
        let shown = source.path;
        let run_compiler = |args: &[OsString]| {
            submit::run_compiler(&program, args, dir, limits).map_err(|error| match error {
                submit::CompilerError::Run(run::RunError::Spawn { source: error, .. }) => {
                    missing_tool(&program, error)
                }
                submit::CompilerError::Run(run::RunError::Interrupted) => {
                    SubmitError::Interrupted(shown.to_path_buf())
                }
                submit::CompilerError::Run(error) => SubmitError::Compiler {
                    path: shown.to_path_buf(),
                    source: error,
                },
                submit::CompilerError::Log(error) => SubmitError::Log(error),
            })
        };
        let pch = super::pch::include_dir(command, &program, &main, limits);
        let compiled = compile_with_pch(pch.as_deref(), &args, &run_compiler)?;
        if crate::sandbox::interrupt::is_interrupted() {
            // Killed by our own Ctrl-C handler: not a compile error of the program.
            return Err(SubmitError::Interrupted(shown.to_path_buf()));
        }
        // The compiler saw the private copies; the user knows the files by their own names.
        let output =
            ShownNames::of_build(dir, None, names, source.files, None).show(&compiled.output);
        message = submit::cut_message(output.trim_end());
        if !compiled.result.succeeded() {
            if let Some(why) = compiled.reason(limits) {
                message = if message.is_empty() {
                    why
                } else {
                    format!("{why}\n{message}")
                };
            }
            return Ok(Err(message));
        }
    }
    if executable.starts_with(dir) && !executable.is_file() {
        return Err(SubmitError::NoExecutable {
            language: language.name.clone(),
            id: language.id.clone(),
        });
    }
    Ok(Ok(message))
}

/// Compiles with the precompiled header in `pch` when there is one. A compile that fails
/// with the PCH is compiled again without it: the verdict and the message are those of the
/// compile without (the same, but for a PCH file cut short, which is then thrown away). One
/// stopped by a limit is not: it would only be slower without.
fn compile_with_pch(
    pch: Option<&Path>,
    args: &[OsString],
    run_compiler: &dyn Fn(&[OsString]) -> Result<submit::CompilerRun, SubmitError>,
) -> Result<submit::CompilerRun, SubmitError> {
    let Some(pch) = pch else {
        return run_compiler(args);
    };
    let with = run_compiler(&super::pch::with_include(pch, args))?;
    let retry = !with.result.succeeded()
        && with.result.limit_hit.is_none()
        && !crate::sandbox::interrupt::is_interrupted();
    if !retry {
        return Ok(with);
    }
    let without = run_compiler(args)?;
    if without.result.succeeded() {
        super::pch::discard(pch);
    }
    Ok(without)
}

/// The C and C++ files compiled with `main`, as problemtools' `{files}` takes every file of
/// the language: the program's other sources and the `beside` ones in the language (a
/// grader with `main`), each once; its headers are found beside them.
fn other_units(
    source: Source<'_>,
    language: &Language,
    names: &[PathBuf],
    dir: &Path,
    main: &Path,
) -> Vec<PathBuf> {
    if !matches!(language.id.as_str(), "c" | "cpp") {
        return Vec::new();
    }
    let mut units: Vec<PathBuf> = Vec::new();
    let candidates = names.iter().map(PathBuf::as_path).chain(
        source
            .beside
            .iter()
            .map(|(name, _)| Path::new(name.as_str())),
    );
    for name in candidates {
        let copy = dir.join(name);
        if copy != main && submit::is_unit(language, name) && !units.contains(&copy) {
            units.push(copy);
        }
    }
    units
}

/// The main file's copy in `dir` (the `beside` entry point, when there is one).
fn main_copy(source: Source<'_>, names: &[PathBuf], dir: &Path) -> PathBuf {
    if let Some(entry) = source.entry {
        return dir.join(entry);
    }
    let index = source
        .main
        .and_then(|main| source.files.iter().position(|f| f == main))
        .unwrap_or(0);
    dir.join(names.get(index).map_or(Path::new("main"), PathBuf::as_path))
}

/// The program a build in `dir` runs as: its language's `run` command filled in, or its
/// `run` script.
fn ready(
    source: Source<'_>,
    recipe: Recipe<'_>,
    names: &[PathBuf],
    dir: &Path,
    memory_bytes: u64,
    reused: bool,
) -> Result<Outcome, SubmitError> {
    let message = std::fs::read_to_string(dir.join(MESSAGE_FILE)).unwrap_or_default();
    let source_copy = std::fs::read(dir.join(SOURCE_COPY_FILE)).map_or_else(
        |_| main_copy(source, names, dir),
        |bytes| PathBuf::from(OsString::from_vec(bytes)),
    );
    let main = main_copy(source, names, dir);
    let shown = Arc::new(ShownNames::of_build(
        dir,
        source_copy.parent(),
        names,
        source.files,
        Some((&main, source.main.unwrap_or(source.path))),
    ));
    let mut program = match recipe {
        Recipe::Scripts(_) => Program::new(dir.join("run")),
        Recipe::Language(language) => {
            let memory = (memory_bytes >> 20).max(1).to_string();
            let template: Vec<String> = language
                .run
                .iter()
                .map(|part| part.replace("{memory-mib}", &memory))
                .collect();
            let (executable, args) = submit::expand(&template, &main, &dir.join(EXE_NAME));
            let executable = if executable.starts_with(dir) {
                executable
            } else {
                run::find_program(&executable).map_err(|error| SubmitError::MissingTool {
                    program: executable.display().to_string(),
                    language: language.name.clone(),
                    id: language.id.clone(),
                    source: error,
                })?
            };
            Program {
                executable,
                args,
                syscall_filter: language.sandbox.syscall_filter(),
                sanitized: None,
                shown: Arc::default(),
            }
        }
    };
    program.shown = shown;
    Ok(Outcome::Ready(Built {
        program,
        folder: dir.to_path_buf(),
        source_copy,
        message,
        reused,
    }))
}

/// Replaces each `{{name}}` or `{{name.variant}}` whose name is a constant by its value, as
/// 2025-09 asks for validators' sources; any other `{{…}}` stays as written. `None` when the
/// result would be longer than `limit` bytes: a constant of a megabyte named a million times
/// is a terabyte, so the bound is checked as the text grows, never after.
pub fn substitute(text: &str, constants: &[(String, String)], limit: usize) -> Option<String> {
    let mut out = String::with_capacity(text.len().min(limit));
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        if out.len() + start > limit {
            return None;
        }
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(after.len());
        let name = &after[..name_len];
        let value = after[name_len..]
            .starts_with("}}")
            .then(|| constants.iter().find(|(n, _)| n == name))
            .flatten();
        match value {
            Some((_, value)) => {
                if out.len() + value.len() > limit {
                    return None;
                }
                out.push_str(value);
                rest = &after[name_len + 2..];
            }
            // One brace at a time: `{{{FIVE}}}` still holds `{{FIVE}}`.
            None => {
                out.push('{');
                rest = &rest[start + 1..];
            }
        }
    }
    if out.len() + rest.len() > limit {
        return None;
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_replace_their_sequences_only() {
        let constants = [
            ("FIVE".to_string(), "5".to_string()),
            ("FIVE.value".to_string(), "5".to_string()),
            ("FIVE.word".to_string(), "five".to_string()),
        ];
        for (text, expected) in [
            ("read({{FIVE}}, {{FIVE.value}})", "read(5, 5)"),
            ("say {{FIVE.word}}!", "say five!"),
            (
                "{{SIX}} and {{FIVE.roman}} stay",
                "{{SIX}} and {{FIVE.roman}} stay",
            ),
            ("{{ FIVE }} {{FIVE", "{{ FIVE }} {{FIVE"),
            ("{{{FIVE}}}", "{5}"),
            ("no braces", "no braces"),
        ] {
            assert_eq!(
                substitute(text, &constants, 100).as_deref(),
                Some(expected),
                "{text}"
            );
        }
        // The bound holds on the result, however small the text.
        assert_eq!(
            substitute("{{FIVE.word}}", &constants, 4).as_deref(),
            Some("five")
        );
        assert_eq!(substitute("{{FIVE.word}}", &constants, 3), None);
        assert_eq!(substitute(&"{{FIVE}}".repeat(1000), &constants, 999), None);
        assert_eq!(substitute("no braces", &constants, 8), None);
    }
}
