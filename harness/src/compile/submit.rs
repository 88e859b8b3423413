//! Contest submissions in any configured language: pick the language, compile once into a
//! private temporary folder, and hand back the program to judge (or the compile error).

use std::ffi::OsString;
use std::io::{Read, Seek};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use crate::compile::languages;
use crate::compile::languages::{CompileLimits, Language};
use crate::sandbox::run::{self, LimitHit, Limits, Output, RunError, RunRequest, RunResult, Scope};
use crate::units::{format_size_limit, format_time_limit};
/// A compile message is cut to this many lines: the first errors are the ones to fix, and a
/// template error in C++ can run to thousands of lines.
const COMPILE_MESSAGE_LINES: usize = 30;
/// Characters kept of one line of a compile message (C++ template names are long).
const COMPILE_LINE_CHARS: usize = 300;
/// The largest source file read: far above any contest's limit (64 KiB on Codeforces), and
/// a bound on what a mistaken path (a disk image, a log) costs.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;
/// Bytes of the compiler's output read at most: far more than the lines that are kept.
const COMPILE_READ_BYTES: u64 = 256 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    #[error("cannot put the problem's grader files (`{}`) beside the submission: {why}", path.display())]
    Include { path: PathBuf, why: String },
    #[error("the problem's grader in `{}` does not compile on its own, so no submission can: a fault of the problem, not of the submission (hint: fix the grader, then verify again):\n{message}", path.display())]
    Grader { path: PathBuf, message: String },
    #[error("submission `{}` does not exist (hint: give the path of your source file, from the current folder)", .0.display())]
    MissingSource(PathBuf),
    #[error("submission `{}` is {kind}, not a regular file (hint: give the path of your source file)", path.display())]
    NotAFile { path: PathBuf, kind: &'static str },
    #[error("submission `{}` is {size} bytes, above the maximum of {max} for a source file", path.display(), max = MAX_SOURCE_BYTES)]
    TooLarge { path: PathBuf, size: u64 },
    #[error("cannot read submission `{}`: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no language `{name}`{where_} (hint: --lang takes a language's id{by_extension}; known: {known})")]
    UnknownLanguage {
        name: String,
        known: String,
        /// ` in judge.toml` when there is one.
        where_: &'static str,
        /// `: `c++` is an extension of cpp, --lang cpp`, when it is one.
        by_extension: String,
    },
    #[error("cannot tell the language of `{}` from its extension (hint: pass --lang, or add the extension to a [languages.*] table in judge.toml; known: {known})", path.display())]
    UnknownExtension { path: PathBuf, known: String },
    #[error("`{program}` is not installed or cannot run (needed for {language}: {source}; hint: {}, or change [languages.{id}] in judge.toml)", languages::install_hint(program).unwrap_or("install it"))]
    MissingTool {
        program: String,
        language: String,
        id: String,
        source: std::io::Error,
    },
    #[error("the compile command of {language} exited cleanly but did not write `{{exe}}` (hint: `compile` in [languages.{id}] of judge.toml must write the file named \"{{exe}}\")")]
    NoExecutable { language: String, id: String },
    #[error("cannot make a temporary folder: {0}")]
    TempDir(std::io::Error),
    #[error("compiling `{}` failed inside the judge: {source}", path.display())]
    Compiler { path: PathBuf, source: RunError },
    #[error("cannot keep a build in `{}`: {source}", path.display())]
    Cache {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot keep the compiler's messages: {0}")]
    Log(std::io::Error),
    #[error("--cmd is empty (hint: give the command that runs your program, as `--cmd \"python3 sol.py\"`)")]
    EmptyCommand,
    #[error("cannot split --cmd `{0}` into words: a quote is not closed")]
    CommandSyntax(String),
    #[error("{}", command_not_found(program, folder, *on_path))]
    CommandNotFound {
        program: String,
        folder: PathBuf,
        /// A bare name, looked up on PATH.
        on_path: bool,
    },
    #[error("the folder `{}` holds {why} to give to --cmd (hint: run --cmd from a folder holding only the program and the files it reads)", folder.display())]
    CommandFolder { folder: PathBuf, why: String },
    #[error("interrupted (Ctrl-C) while compiling `{}`: the compiler was killed", .0.display())]
    Interrupted(PathBuf),
}

/// Why `--cmd`'s program cannot be found, by how it was named.
fn command_not_found(program: &str, folder: &Path, on_path: bool) -> String {
    if on_path {
        let hint = match languages::install_hint(program) {
            Some(install) => format!("{install}, or `./{program}` for a file of this folder"),
            None => format!("`./{program}` for a file of this folder"),
        };
        format!("the program `{program}` of --cmd is not on PATH (hint: {hint})")
    } else {
        format!(
            "the program `{program}` of --cmd does not exist (hint: name a file of `{}` as `./NAME`, or give the program's path)",
            folder.display()
        )
    }
}

/// Checks that the programs a language's commands start are installed, so that a missing
/// compiler is one clear error before anything is judged. Programs that are placeholders
/// (`{exe}`) are built by the compile and cannot be checked yet.
pub fn check_tools(language: &Language) -> Result<(), SubmitError> {
    let commands = language
        .compile
        .iter()
        .chain(std::iter::once(&language.run));
    let named: Vec<String> = commands
        .filter_map(|command| command.first().cloned())
        .chain(language.tools.iter().cloned())
        .collect();
    for program in &named {
        if program.contains("{source}") || program.contains("{exe}") {
            continue;
        }
        run::find_program(Path::new(program)).map_err(|source| SubmitError::MissingTool {
            program: program.clone(),
            language: language.name.clone(),
            id: language.id.clone(),
            source,
        })?;
    }
    Ok(())
}

/// A source file's bytes, when it is a regular file of a sane size: a FIFO would block the
/// judge and `/dev/zero` would fill its memory.
pub fn read_source(source: &Path) -> Result<Vec<u8>, SubmitError> {
    if let Some(kind) = crate::file_kind::not_regular(source) {
        return Err(SubmitError::NotAFile {
            path: source.to_path_buf(),
            kind,
        });
    }
    let unreadable = |error| SubmitError::Unreadable {
        path: source.to_path_buf(),
        source: error,
    };
    let file = std::fs::File::open(source).map_err(unreadable)?;
    // The file may grow or be swapped between the check and the read: read one byte past
    // the maximum, never more.
    read_at_most(file, MAX_SOURCE_BYTES)
        .map_err(unreadable)?
        .ok_or_else(|| SubmitError::TooLarge {
            path: source.to_path_buf(),
            size: std::fs::metadata(source).map_or(MAX_SOURCE_BYTES + 1, |m| m.len()),
        })
}

/// What `reader` holds when it is at most `max` bytes (one byte past it is read, never more):
/// `None` when it holds more.
pub fn read_at_most(reader: impl std::io::Read, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader.take(max + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

/// What one compile did: how it ended, and what it said.
pub(super) struct CompilerRun {
    pub(super) result: RunResult,
    /// stdout and stderr interleaved as the compiler wrote them, from the start.
    pub(super) output: String,
}

impl CompilerRun {
    /// The line that says why the compile failed where the compiler's own words cannot: a
    /// limit (a killed compiler's message is cut short), or, when it said nothing, how it
    /// ended. `None` for a compile that failed and said why.
    pub(super) fn reason(&self, limits: CompileLimits) -> Option<String> {
        let result = &self.result;
        let time = || format_time_limit(limits.time);
        match (result.limit_hit, result.termination) {
            (Some(LimitHit::Memory), _) => Some(format!(
                "the compiler used more than {} (compile-memory-limit)",
                format_size_limit(limits.memory_bytes)
            )),
            (Some(LimitHit::WallTime), _) => Some(format!(
                "the compiler took longer than {} (compile-time-limit)",
                time()
            )),
            // The CPU backstop behind the time limit.
            (Some(LimitHit::CpuTime), _) | (_, run::Termination::Signaled(libc::SIGXCPU)) => {
                Some(format!(
                    "the compiler used more than {} of CPU time (compile-time-limit)",
                    time()
                ))
            }
            (_, ending) if self.output.trim().is_empty() => {
                Some(format!("the compiler stopped with {}", ending.describe()))
            }
            _ => None,
        }
    }
}

pub(super) enum CompilerError {
    Run(RunError),
    /// The file its messages go to could not be made or read.
    Log(std::io::Error),
}

/// Runs a compiler in `dir` with both output streams in one file, so the message starts with
/// the first error (the sandbox keeps only the tail of stderr, which is right for a crashing
/// program and wrong for a compiler). The sandbox holds the compiler and everything it starts
/// to `limits` as one group, and kills the group on Ctrl-C.
pub(super) fn run_compiler(
    program: &Path,
    args: &[OsString],
    dir: &Path,
    limits: CompileLimits,
) -> Result<CompilerRun, CompilerError> {
    let mut log = tempfile::tempfile().map_err(CompilerError::Log)?;
    let request = RunRequest::new(
        program,
        Limits {
            cpu_time: limits.time,
            wall_time: limits.time,
            memory_bytes: limits.memory_bytes,
            // Nothing is captured: the messages go to the log, whose size RLIMIT_FSIZE bounds.
            output_bytes: 0,
        },
    )
    .args(args)
    .workdir(Some(dir))
    .stdout(Output::Fd(log.as_fd()))
    .stderr(Output::Fd(log.as_fd()))
    .scope(Scope::Group);
    let result = run::run(&request).map_err(CompilerError::Run)?;
    log.rewind().map_err(CompilerError::Log)?;
    let mut bytes = Vec::new();
    log.take(COMPILE_READ_BYTES)
        .read_to_end(&mut bytes)
        .map_err(CompilerError::Log)?;
    Ok(CompilerRun {
        result,
        output: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

/// The name of the private copy: the source's own, so that compilers that care (a Rust crate,
/// a Java class) see it; but with the language's extension when the file has another (picked
/// by `--lang`), because compilers such as gcc choose the language by the extension.
pub(super) fn copy_name(language: &Language, source: &Path) -> PathBuf {
    let name = source
        .file_name()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("main"));
    let known = name.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        language
            .extensions
            .iter()
            .any(|x| x.eq_ignore_ascii_case(e))
    });
    match language.extensions.first() {
        Some(wanted) if !known => name.with_extension(wanted),
        _ => name,
    }
}

/// Whether a file of this name is a source of `language` (its extension is one of the
/// language's): what problemtools' `{files}` takes from a program's folder.
pub(crate) fn is_unit(language: &Language, name: &Path) -> bool {
    name.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| language.extensions.iter().any(|x| x == e))
}

/// Whether a file of this name is an entry point of `language`: a source of it named
/// `main.*` (any case), which problemtools runs as `{mainfile}` when a folder has one.
pub(crate) fn is_entry_name(language: &Language, name: &str) -> bool {
    let path = Path::new(name);
    is_unit(language, path)
        && path
            .file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| s.eq_ignore_ascii_case("main"))
}

/// Replaces `{source}` and `{exe}` in a command template.
pub(super) fn expand(template: &[String], source: &Path, exe: &Path) -> (PathBuf, Vec<OsString>) {
    let substitute = |part: &String| -> OsString {
        if part == "{source}" {
            source.as_os_str().to_owned()
        } else if part == "{exe}" {
            exe.as_os_str().to_owned()
        } else {
            OsString::from(
                part.replace("{source}", &source.to_string_lossy())
                    .replace("{exe}", &exe.to_string_lossy()),
            )
        }
    };
    let mut parts = template.iter().map(substitute);
    let program = PathBuf::from(parts.next().unwrap_or_default());
    (program, parts.collect())
}

/// The first lines of a compile message, each cut to a readable width.
pub(super) fn cut_message(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut cut: Vec<String> = lines
        .iter()
        .take(COMPILE_MESSAGE_LINES)
        .map(|line| cut_line(line, COMPILE_LINE_CHARS))
        .collect();
    if lines.len() > COMPILE_MESSAGE_LINES {
        cut.push(format!(
            "… {} more lines",
            lines.len() - COMPILE_MESSAGE_LINES
        ));
    }
    cut.join("\n")
}

fn cut_line(line: &str, max: usize) -> String {
    match line.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::submission::{compile, Compiled};
    use std::time::Duration;

    fn language(id: &str, compile: Option<&[&str]>, run: &[&str]) -> Language {
        Language {
            id: id.to_string(),
            name: id.to_string(),
            extensions: vec![id.to_string()],
            compile: compile.map(|c| c.iter().map(std::string::ToString::to_string).collect()),
            run: run.iter().map(std::string::ToString::to_string).collect(),
            time_multiplier: 1.0,
            compile_limits: CompileLimits::default(),
            sandbox: Default::default(),
            tools: Vec::new(),
        }
    }

    /// A source file `x.EXTENSION` holding `text`, in a folder that lives as long as the first.
    fn source(extension: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join(format!("x.{extension}"));
        std::fs::write(&source, text).unwrap();
        (dir, source)
    }

    /// The message of a compile that must fail.
    fn compile_error(language: &Language, source: &Path) -> String {
        match compile(language, source, 1 << 28).unwrap() {
            Compiled::CompileError { message, .. } => message,
            Compiled::Ready(_) => panic!("expected a compile error"),
        }
    }

    #[test]
    fn placeholders_expand_whole_and_inside_arguments() {
        let template: Vec<String> = ["cc", "-o", "{exe}", "{source}", "-DNAME={source}"]
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        let (program, args) = expand(&template, Path::new("/b/a.c"), Path::new("/b/main.bin"));
        assert_eq!(program, PathBuf::from("cc"));
        assert_eq!(args, ["-o", "/b/main.bin", "/b/a.c", "-DNAME=/b/a.c"]);
    }

    #[test]
    fn a_failing_compiler_is_a_compile_error_with_its_message() {
        let (_dir, source) = source("sh", "whatever");
        let failing = language(
            "sh",
            Some(&["sh", "-c", "echo 'x.sh:1: error: nope' >&2; exit 1"]),
            &["{exe}"],
        );
        assert!(compile_error(&failing, &source).contains("error: nope"));
    }

    #[test]
    fn a_compiler_past_its_limits_is_a_compile_error_that_says_so() {
        let (_dir, source) = source("sh", "");
        let limits = CompileLimits {
            time: Duration::from_secs(1),
            memory_bytes: 64 << 20,
        };
        let sleepy = Language {
            compile_limits: limits,
            sandbox: Default::default(),
            tools: Vec::new(),
            ..language(
                "sh",
                Some(&["sh", "-c", "echo thinking; sleep 30"]),
                &["{exe}"],
            )
        };
        let started = std::time::Instant::now();
        let message = compile_error(&sleepy, &source);
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_eq!(
            message,
            "the compiler took longer than 1 s (compile-time-limit)\nthinking"
        );

        // The shell stays the parent (`; exit`): the memory is its child's, counted all the same.
        let hungry = Language {
            compile_limits: CompileLimits {
                time: Duration::from_secs(60),
                ..limits
            },
            sandbox: Default::default(),
            tools: Vec::new(),
            ..language(
                "sh",
                Some(&["sh", "-c", "python3 -c 'b = b\"x\" * (1 << 30)'; exit 1"]),
                &["{exe}"],
            )
        };
        let message = compile_error(&hungry, &source);
        assert_eq!(
            message,
            "the compiler used more than 64 MiB (compile-memory-limit)"
        );
    }

    #[test]
    fn a_silent_failing_compiler_is_described_by_its_ending() {
        let (_dir, source) = source("sh", "");
        let silent = language("sh", Some(&["sh", "-c", "kill -SEGV $$"]), &["{exe}"]);
        let message = compile_error(&silent, &source);
        assert_eq!(message, "the compiler stopped with SIGSEGV");
    }

    #[test]
    fn a_missing_compiler_is_named() {
        let (_dir, source) = source("zz", "");
        let missing = language("zz", Some(&["no-such-compiler-zz", "{source}"]), &["{exe}"]);
        let error = compile(&missing, &source, 1 << 28).unwrap_err().to_string();
        assert!(
            error.contains("`no-such-compiler-zz` is not installed"),
            "{error}"
        );
    }

    #[test]
    fn a_missing_tool_its_commands_start_inside_a_script_is_named() {
        let mut scripted = language("zz", Some(&["sh", "-c", "inner {source}"]), &["{exe}"]);
        assert!(check_tools(&scripted).is_ok());
        scripted.tools = vec!["no-such-inner-tool-zz".to_string()];
        let error = check_tools(&scripted).unwrap_err().to_string();
        assert!(
            error.contains("`no-such-inner-tool-zz` is not installed"),
            "{error}"
        );
    }

    #[test]
    fn interpreted_sources_run_from_a_private_copy() {
        let (_dir, source) = source("sh", "echo hi");
        let shell = language("sh", None, &["sh", "{source}"]);
        let Compiled::Ready(prepared) = compile(&shell, &source, 1 << 28).unwrap() else {
            panic!("expected a program")
        };
        assert!(prepared.program.executable.ends_with("sh"));
        let script = PathBuf::from(&prepared.program.args[0]);
        assert_ne!(script, source);
        assert_eq!(std::fs::read_to_string(script).unwrap(), "echo hi");
    }

    #[test]
    fn the_copy_gets_the_languages_extension_when_the_file_has_another() {
        let cpp = Language {
            extensions: vec!["cpp".to_string(), "cc".to_string()],
            ..language("cpp", None, &["{exe}"])
        };
        let copy = |path: &str| copy_name(&cpp, Path::new(path));
        assert_eq!(copy("dir/a.cc"), PathBuf::from("a.cc"));
        assert_eq!(copy("A.CPP"), PathBuf::from("A.CPP"));
        assert_eq!(copy("sol.txt"), PathBuf::from("sol.cpp"));
        assert_eq!(copy("sol"), PathBuf::from("sol.cpp"));
    }

    #[test]
    fn long_messages_are_cut() {
        let text: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
        let cut = cut_message(&text.join("\n"));
        assert!(cut.starts_with("line 0\n"));
        assert!(cut.ends_with("… 70 more lines"));
        assert_eq!(cut.lines().count(), 31);
        let wide = cut_message(&"é".repeat(1000));
        assert_eq!(wide.chars().count(), COMPILE_LINE_CHARS + 1);
        assert!(wide.ends_with('…'));
    }

    #[test]
    fn the_message_starts_with_the_first_error_and_names_the_users_file() {
        let (_dir, source) = source("sh", "whatever");
        // 20 KiB of errors on stderr: more than the sandbox's stderr tail would keep.
        let noisy = language(
            "sh",
            Some(&[
                "sh",
                "-c",
                "echo \"$1:1: error: first\" >&2; i=0; while [ $i -lt 2000 ]; do echo \"note: padding line $i\" >&2; i=$((i+1)); done; exit 1",
                "sh",
                "{source}",
            ]),
            &["{exe}"],
        );
        let message = compile_error(&noisy, &source);
        let first = message.lines().next().unwrap();
        assert_eq!(first, format!("{}:1: error: first", source.display()));
        assert!(message.ends_with("… 1971 more lines"), "{message}");
    }

    #[test]
    fn a_compiler_that_writes_no_executable_is_a_configuration_error() {
        let (_dir, source) = source("sh", "");
        let lazy = language("sh", Some(&["true"]), &["{exe}"]);
        let error = compile(&lazy, &source, 1 << 28).unwrap_err().to_string();
        assert!(error.contains("did not write `{exe}`"), "{error}");
        assert!(error.contains("[languages.sh]"), "{error}");
    }

    #[test]
    fn a_missing_interpreter_is_named_before_compiling() {
        let (_dir, source) = source("zz", "");
        let missing = language(
            "zz",
            Some(&["true"]),
            &["no-such-interpreter-zz", "{source}"],
        );
        let error = compile(&missing, &source, 1 << 28).unwrap_err().to_string();
        assert!(
            error.contains("`no-such-interpreter-zz` is not installed"),
            "{error}"
        );
    }
}
