//! A program named on the command line (`--brute`, `--gen`, `--validator`): a source file,
//! compiled through the languages table; an executable; or a command line such as
//! `"python3 gen.py"`.

use std::path::{Path, PathBuf};

use crate::compile::submit::{self, Compiled, Prepared, SubmitError};
use crate::config::Config;

#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    #[error("`{0}` is neither a file nor a command (hint: give a source file, an executable, or a command line in quotes)")]
    Unknown(String),
    #[error("the {role} `{}` does not compile:\n{message}", path.display())]
    CompileError {
        role: &'static str,
        path: PathBuf,
        message: String,
    },
    #[error(transparent)]
    Submit(#[from] SubmitError),
}

/// A program ready to run as a command template (`{seed}` and the like still in it), and the
/// build folder of a compiled source, kept while the command is used.
#[derive(Debug)]
pub struct ResolvedProgram {
    pub command: Vec<String>,
    _build: Option<Prepared>,
}

/// `spec` as a program: a file whose extension is a known language is compiled (interpreted
/// languages run from a private copy), another file runs as it is, and anything else is a
/// command line split at whitespace. `role` names it in errors.
pub fn resolve(
    config: &Config,
    spec: &str,
    role: &'static str,
    memory_bytes: u64,
) -> Result<ResolvedProgram, ProgramError> {
    let path = Path::new(spec);
    if path.is_file() {
        if let Ok(language) = submit::detect_language(config, path, None) {
            submit::check_tools(language)?;
            return match submit::compile(language, path, memory_bytes)? {
                Compiled::Ready(prepared) => {
                    let mut command = vec![prepared.program.executable.display().to_string()];
                    command.extend(
                        prepared
                            .program
                            .args
                            .iter()
                            .map(|a| a.to_string_lossy().into_owned()),
                    );
                    Ok(ResolvedProgram {
                        command,
                        _build: Some(prepared),
                    })
                }
                Compiled::CompileError { message, .. } => Err(ProgramError::CompileError {
                    role,
                    path: path.to_path_buf(),
                    message,
                }),
            };
        }
        // An executable (or a script with a #! line).
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        return Ok(ResolvedProgram {
            command: vec![absolute.display().to_string()],
            _build: None,
        });
    }
    // Files named in the command line are made absolute: the command may run elsewhere (a
    // reference runs in a fresh folder).
    let command: Vec<String> = spec
        .split_whitespace()
        .map(|word| match Path::new(word).exists() {
            true => std::path::absolute(word)
                .map_or_else(|_| word.to_string(), |p| p.display().to_string()),
            false => word.to_string(),
        })
        .collect();
    match command.as_slice() {
        [] => Err(ProgramError::Unknown(spec.to_string())),
        // A lone path that is not there is a typo, not a program on PATH.
        [only] if only.contains('/') => Err(ProgramError::Unknown(spec.to_string())),
        _ => Ok(ResolvedProgram {
            command,
            _build: None,
        }),
    }
}
