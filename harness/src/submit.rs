//! Contest submissions in any configured language: pick the language, compile once into a
//! private temporary folder, and hand back the program to judge (or the compile error).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tempfile::TempDir;

use crate::config::{Config, Language};
use crate::judge::Program;
use crate::run::{self, Limits, RunError, RunRequest, Termination};

/// Compilers get far more room than the programs they build: a slow compile is not the
/// contestant's fault, but a compiler that hangs must not hang the judge.
const COMPILE_LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(60),
    wall_time: Duration::from_secs(120),
    memory_bytes: 4 << 30,
    output_bytes: 1 << 20,
};

/// A compile error message is cut to this many lines: the first errors are the ones to fix.
const COMPILE_MESSAGE_LINES: usize = 30;

#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
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
    #[error("cannot make a temporary folder for the build: {0}")]
    TempDir(std::io::Error),
    #[error("compiling failed inside the judge: {0}")]
    Run(RunError),
}

/// A submission ready to judge: the program, and the folder that holds its build (removed
/// when this is dropped).
#[derive(Debug)]
pub struct Prepared {
    pub program: Program,
    pub language: Language,
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

/// Copies the source into a fresh folder and compiles it there, so that nothing (object
/// files, `__pycache__`) lands beside the user's file.
pub fn compile(language: &Language, source: &Path) -> Result<Compiled, SubmitError> {
    let text = std::fs::read(source).map_err(|error| SubmitError::Unreadable {
        path: source.to_path_buf(),
        source: error,
    })?;
    let build_dir = tempfile::Builder::new()
        .prefix("harness-build-")
        .tempdir()
        .map_err(SubmitError::TempDir)?;
    let file_name = source
        .file_name()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("main"));
    let copied = build_dir.path().join(file_name);
    std::fs::write(&copied, text).map_err(|error| SubmitError::Unreadable {
        path: copied.clone(),
        source: error,
    })?;
    let exe = build_dir.path().join("main.bin");

    let mut compile_message = String::new();
    if let Some(command) = &language.compile {
        let (program, args) = expand(command, &copied, &exe);
        let request = RunRequest {
            program: &program,
            args: &args,
            stdin: None,
            limits: COMPILE_LIMITS,
            workdir: Some(build_dir.path()),
        };
        let result = run::run(&request).map_err(|error| match error {
            RunError::Spawn { program, source } => SubmitError::MissingTool {
                program: program.display().to_string(),
                language: language.name.clone(),
                id: language.id.clone(),
                source,
            },
            other => SubmitError::Run(other),
        })?;
        let mut message = String::from_utf8_lossy(&result.stdout).into_owned();
        message.push_str(&String::from_utf8_lossy(&result.stderr_tail));
        compile_message = cut_lines(message.trim_end(), COMPILE_MESSAGE_LINES);
        if result.termination != Termination::Exited(0) || result.limit_hit.is_some() {
            if compile_message.is_empty() {
                compile_message = format!(
                    "the compiler stopped with {}",
                    match result.termination {
                        Termination::Exited(code) => format!("exit {code}"),
                        Termination::Signaled(signal) => run::signal_name(signal),
                    }
                );
            }
            return Ok(Compiled::CompileError {
                language: language.clone(),
                message: compile_message,
            });
        }
    }

    let (executable, args) = expand(&language.run, &copied, &exe);
    let executable = resolve_on_path(&executable).map_err(|source| SubmitError::MissingTool {
        program: executable.display().to_string(),
        language: language.name.clone(),
        id: language.id.clone(),
        source,
    })?;
    Ok(Compiled::Ready(Prepared {
        program: Program { executable, args },
        language: language.clone(),
        time_multiplier: language.time_multiplier,
        compile_message,
        _build_dir: build_dir,
    }))
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

fn cut_lines(text: &str, max: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= max {
        return text.to_string();
    }
    format!(
        "{}\n… {} more lines",
        lines[..max].join("\n"),
        lines.len() - max
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn language(id: &str, compile: Option<&[&str]>, run: &[&str]) -> Language {
        Language {
            id: id.to_string(),
            name: id.to_string(),
            extensions: vec![id.to_string()],
            compile: compile.map(|c| c.iter().map(|s| s.to_string()).collect()),
            run: run.iter().map(|s| s.to_string()).collect(),
            time_multiplier: 1.0,
        }
    }

    #[test]
    fn placeholders_expand_whole_and_inside_arguments() {
        let template: Vec<String> = ["cc", "-o", "{exe}", "{source}", "-DNAME={source}"]
            .iter()
            .map(|s| s.to_string())
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
    fn long_messages_are_cut() {
        let text: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
        let cut = cut_lines(&text.join("\n"), 30);
        assert!(cut.ends_with("… 70 more lines"));
        assert_eq!(cut.lines().count(), 31);
    }
}
