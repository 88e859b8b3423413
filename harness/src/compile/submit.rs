//! Contest submissions in any configured language: pick the language, compile once into a
//! private temporary folder, and hand back the program to judge (or the compile error).

use std::ffi::OsString;
use std::io::{Read, Seek};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::config::{Config, Language};
use crate::judge::Program;
use crate::sandbox::run;

/// Compilers get far more room than the programs they build: a slow compile is not the
/// contestant's fault, but a compiler that hangs must not hang the judge. No memory or CPU
/// rlimit: compilers are trusted, and a tight address-space limit breaks multi-threaded ones.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);
/// How often a running compiler is looked at; a compile takes far longer than this.
const COMPILE_TICK: Duration = Duration::from_millis(10);
/// A compile message is cut to this many lines: the first errors are the ones to fix, and a
/// template error in C++ can run to thousands of lines.
const COMPILE_MESSAGE_LINES: usize = 30;
/// Characters kept of one line of a compile message (C++ template names are long).
const COMPILE_LINE_CHARS: usize = 300;
/// Bytes of the compiler's output read at most: far more than the lines that are kept.
const COMPILE_READ_BYTES: u64 = 256 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    #[error("submission `{}` does not exist (hint: give the path of your source file, from the current folder)", .0.display())]
    MissingSource(PathBuf),
    #[error("cannot read submission `{}`: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no language `{name}` in judge.toml (hint: known languages: {known})")]
    UnknownLanguage { name: String, known: String },
    #[error("cannot tell the language of `{}` from its extension (hint: pass --lang, or add the extension to a [languages.*] table in judge.toml; known: {known})", path.display())]
    UnknownExtension { path: PathBuf, known: String },
    #[error("`{program}` is not installed or cannot run (needed for {language}: {source}; hint: install it, or change [languages.{id}] in judge.toml)")]
    MissingTool {
        program: String,
        language: String,
        id: String,
        source: std::io::Error,
    },
    #[error("the compile command of {language} exited cleanly but did not write `{{exe}}` (hint: `compile` in [languages.{id}] of judge.toml must write the file named \"{{exe}}\")")]
    NoExecutable { language: String, id: String },
    #[error("cannot make a temporary folder for the build: {0}")]
    TempDir(std::io::Error),
    #[error("compiling `{}` failed inside the judge: {source}", path.display())]
    Compiler {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A submission ready to judge: the program, and the folder that holds its build (removed
/// when this is dropped).
#[derive(Debug)]
pub struct Prepared {
    pub program: Program,
    /// Time limits are multiplied by this (interpreters).
    pub time_multiplier: f64,
    /// The compiler's messages, warnings included (empty for interpreters).
    pub compile_message: String,
    _build_dir: TempDir,
}

/// What compiling gave.
#[derive(Debug)]
pub enum Compiled {
    Ready(Prepared),
    CompileError { language: Language, message: String },
}

/// The language of `source`: `--lang` if given, else by the file's extension.
pub fn detect_language<'a>(
    config: &'a Config,
    source: &Path,
    lang: Option<&str>,
) -> Result<&'a Language, SubmitError> {
    let known = || {
        config
            .languages
            .iter()
            .map(|l| format!("{} (.{})", l.id, l.extensions.join(", .")))
            .collect::<Vec<_>>()
            .join("; ")
    };
    if let Some(name) = lang {
        return config
            .languages
            .iter()
            .find(|l| l.id == name)
            .ok_or_else(|| SubmitError::UnknownLanguage {
                name: name.to_string(),
                known: known(),
            });
    }
    let extension = source
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    config
        .languages
        .iter()
        .find(|l| l.extensions.contains(&extension))
        .ok_or_else(|| SubmitError::UnknownExtension {
            path: source.to_path_buf(),
            known: known(),
        })
}

/// Checks that the programs a language's commands start are installed, so that a missing
/// compiler is one clear error before anything is judged. Programs that are placeholders
/// (`{exe}`) are built by the compile and cannot be checked yet.
pub fn check_tools(language: &Language) -> Result<(), SubmitError> {
    let commands = language
        .compile
        .iter()
        .chain(std::iter::once(&language.run));
    for program in commands.filter_map(|command| command.first()) {
        if program.contains("{source}") || program.contains("{exe}") {
            continue;
        }
        resolve_on_path(Path::new(program)).map_err(|source| SubmitError::MissingTool {
            program: program.clone(),
            language: language.name.clone(),
            id: language.id.clone(),
            source,
        })?;
    }
    Ok(())
}

/// Copies the source into a fresh folder and compiles it there, so that nothing (object
/// files, `__pycache__`) lands beside the user's file.
pub fn compile(language: &Language, source: &Path) -> Result<Compiled, SubmitError> {
    let missing_tool = |program: &Path, error: std::io::Error| SubmitError::MissingTool {
        program: program.display().to_string(),
        language: language.name.clone(),
        id: language.id.clone(),
        source: error,
    };
    let text = std::fs::read(source).map_err(|error| SubmitError::Unreadable {
        path: source.to_path_buf(),
        source: error,
    })?;
    let build_dir = tempfile::Builder::new()
        .prefix("harness-build-")
        .tempdir()
        .map_err(SubmitError::TempDir)?;
    let copied = build_dir.path().join(copy_name(language, source));
    std::fs::write(&copied, text).map_err(|error| SubmitError::Unreadable {
        path: copied.clone(),
        source: error,
    })?;
    let exe = build_dir.path().join("main.bin");

    // An interpreter that is missing is named before compiling, not after a compile that
    // needed it anyway.
    let (executable, args) = expand(&language.run, &copied, &exe);
    let built_here = executable.starts_with(build_dir.path());
    if !built_here {
        resolve_on_path(&executable).map_err(|error| missing_tool(&executable, error))?;
    }

    let mut compile_message = String::new();
    if let Some(command) = &language.compile {
        let (program, compile_args) = expand(command, &copied, &exe);
        let compiled = run_compiler(&program, &compile_args, build_dir.path()).map_err(
            |error| match error {
                CompilerError::Spawn(error) => missing_tool(&program, error),
                CompilerError::Io(error) => SubmitError::Compiler {
                    path: source.to_path_buf(),
                    source: error,
                },
            },
        )?;
        // The compiler saw the private copy; the user knows the file by the name they gave.
        let shown = compiled
            .output
            .replace(&*copied.to_string_lossy(), &source.to_string_lossy());
        compile_message = cut_message(shown.trim_end());
        if !compiled.succeeded() {
            if compile_message.is_empty() {
                compile_message = format!("the compiler stopped with {}", compiled.ending());
            }
            return Ok(Compiled::CompileError {
                language: language.clone(),
                message: compile_message,
            });
        }
    }

    let executable = if built_here {
        if !executable.is_file() {
            return Err(SubmitError::NoExecutable {
                language: language.name.clone(),
                id: language.id.clone(),
            });
        }
        executable
    } else {
        resolve_on_path(&executable).map_err(|error| missing_tool(&executable, error))?
    };
    Ok(Compiled::Ready(Prepared {
        program: Program { executable, args },
        time_multiplier: language.time_multiplier,
        compile_message,
        _build_dir: build_dir,
    }))
}

/// What one compile did: how it ended (`None`: killed at the timeout) and what it said.
struct CompilerRun {
    status: Option<ExitStatus>,
    /// stdout and stderr interleaved as the compiler wrote them, from the start.
    output: String,
}

impl CompilerRun {
    fn succeeded(&self) -> bool {
        self.status.is_some_and(|status| status.success())
    }

    fn ending(&self) -> String {
        match self.status {
            None => format!(
                "no result after {} (killed)",
                crate::config::units::format_duration(COMPILE_TIMEOUT)
            ),
            Some(status) => match (status.code(), status.signal()) {
                (Some(code), _) => format!("exit {code}"),
                (None, Some(signal)) => run::signal_name(signal),
                (None, None) => status.to_string(),
            },
        }
    }
}

enum CompilerError {
    /// The compiler could not be started: usually, it is not installed.
    Spawn(std::io::Error),
    Io(std::io::Error),
}

/// Runs a compiler in `dir` with both output streams in one file, so the message starts with
/// the first error (the sandbox keeps only the tail of stderr, which is right for a crashing
/// program and wrong for a compiler). A compiler still running at the timeout is killed with
/// its process group.
fn run_compiler(
    program: &Path,
    args: &[OsString],
    dir: &Path,
) -> Result<CompilerRun, CompilerError> {
    let mut log = tempfile::tempfile().map_err(CompilerError::Io)?;
    let stdout = log.try_clone().map_err(CompilerError::Io)?;
    let stderr = log.try_clone().map_err(CompilerError::Io)?;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .process_group(0)
        .spawn()
        .map_err(CompilerError::Spawn)?;
    let deadline = Instant::now() + COMPILE_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(CompilerError::Io)? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            // Killed before it is reaped, so the group id cannot belong to anyone else yet.
            let group = nix::unistd::Pid::from_raw(child.id() as libc::pid_t);
            let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
            child.wait().map_err(CompilerError::Io)?;
            break None;
        }
        std::thread::sleep(COMPILE_TICK);
    };
    log.rewind().map_err(CompilerError::Io)?;
    let mut bytes = Vec::new();
    log.take(COMPILE_READ_BYTES)
        .read_to_end(&mut bytes)
        .map_err(CompilerError::Io)?;
    Ok(CompilerRun {
        status,
        output: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

/// The name of the private copy: the source's own, so that compilers that care (a Rust crate,
/// a Java class) see it; but with the language's extension when the file has another (picked
/// by `--lang`), because compilers such as gcc choose the language by the extension.
fn copy_name(language: &Language, source: &Path) -> PathBuf {
    let name = source
        .file_name()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("main"));
    let known = name
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| language.extensions.contains(&e.to_ascii_lowercase()));
    match language.extensions.first() {
        Some(wanted) if !known => name.with_extension(wanted),
        _ => name,
    }
}

/// Replaces `{source}` and `{exe}` in a command template.
fn expand(template: &[String], source: &Path, exe: &Path) -> (PathBuf, Vec<OsString>) {
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

/// Finds a bare program name on PATH now, so that a missing interpreter is one clear error
/// before judging instead of a judge error on every case.
fn resolve_on_path(program: &Path) -> Result<PathBuf, std::io::Error> {
    if program.components().count() > 1 {
        return if program.is_file() {
            Ok(program.to_path_buf())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such file",
            ))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "not found on PATH"))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The first lines of a compile message, each cut to a readable width.
fn cut_message(text: &str) -> String {
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

    fn language(id: &str, compile: Option<&[&str]>, run: &[&str]) -> Language {
        Language {
            id: id.to_string(),
            name: id.to_string(),
            extensions: vec![id.to_string()],
            compile: compile.map(|c| c.iter().map(std::string::ToString::to_string).collect()),
            run: run.iter().map(std::string::ToString::to_string).collect(),
            time_multiplier: 1.0,
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
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("x.sh");
        std::fs::write(&source, "whatever").unwrap();
        let failing = language(
            "sh",
            Some(&["sh", "-c", "echo 'x.sh:1: error: nope' >&2; exit 1"]),
            &["{exe}"],
        );
        match compile(&failing, &source).unwrap() {
            Compiled::CompileError { message, .. } => assert!(message.contains("error: nope")),
            Compiled::Ready(_) => panic!("expected a compile error"),
        }
    }

    #[test]
    fn a_missing_compiler_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("x.zz");
        std::fs::write(&source, "").unwrap();
        let missing = language("zz", Some(&["no-such-compiler-zz", "{source}"]), &["{exe}"]);
        let error = compile(&missing, &source).unwrap_err().to_string();
        assert!(
            error.contains("`no-such-compiler-zz` is not installed"),
            "{error}"
        );
    }

    #[test]
    fn interpreted_sources_run_from_a_private_copy() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("x.sh");
        std::fs::write(&source, "echo hi").unwrap();
        let shell = language("sh", None, &["sh", "{source}"]);
        let Compiled::Ready(prepared) = compile(&shell, &source).unwrap() else {
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
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("x.sh");
        std::fs::write(&source, "whatever").unwrap();
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
        let Compiled::CompileError { message, .. } = compile(&noisy, &source).unwrap() else {
            panic!("expected a compile error")
        };
        let first = message.lines().next().unwrap();
        assert_eq!(first, format!("{}:1: error: first", source.display()));
        assert!(message.ends_with("… 1971 more lines"), "{message}");
    }

    #[test]
    fn a_compiler_that_writes_no_executable_is_a_configuration_error() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("x.sh");
        std::fs::write(&source, "").unwrap();
        let lazy = language("sh", Some(&["true"]), &["{exe}"]);
        let error = compile(&lazy, &source).unwrap_err().to_string();
        assert!(error.contains("did not write `{exe}`"), "{error}");
        assert!(error.contains("[languages.sh]"), "{error}");
    }

    #[test]
    fn a_missing_interpreter_is_named_before_compiling() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("x.zz");
        std::fs::write(&source, "").unwrap();
        let missing = language(
            "zz",
            Some(&["true"]),
            &["no-such-interpreter-zz", "{source}"],
        );
        let error = compile(&missing, &source).unwrap_err().to_string();
        assert!(
            error.contains("`no-such-interpreter-zz` is not installed"),
            "{error}"
        );
    }
}
