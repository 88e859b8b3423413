//! The author's programs as sources: one named on the command line (`--brute`, `--gen`,
//! `--validator`: a source file, compiled through the languages table; an executable; or a
//! command line such as `"python3 gen.py"`), and judge.toml's reference, generators,
//! validator, stress generator and checker, whose program may be a source file, compiled
//! once into the project's build cache.

use std::path::{Path, PathBuf};

use crate::check::Checker;
use crate::compile::submission::{Compiled, Prepared};
use crate::compile::submit::{self, SubmitError};
use crate::config::{Config, Problem};
use crate::tool;

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
        if let Ok(language) = crate::config::detect_language(config, path, None) {
            let prepared = build(language, path, memory_bytes)?.map_err(|message| {
                ProgramError::CompileError {
                    role,
                    path: path.to_path_buf(),
                    message,
                }
            })?;
            return Ok(ResolvedProgram {
                command: command_of(&prepared),
                _build: Some(prepared),
            });
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

/// Which of a problem's author programs a command uses: only those are compiled, so that a
/// generator that does not compile yet does not stop `harness run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Reference,
    Validator,
    Generators,
    StressGenerator,
    Checker,
}

/// `problem` with the author programs of `parts` that are source files (`brute.py`,
/// `["gen.cpp", "{seed}"]`, a checker `check.cpp`) replaced by the command that runs its
/// build, compiled now or taken from the project's cache. Commands and executables stay as
/// they are. A compile error names the file and what the compiler said.
pub fn prepare(
    config: &Config,
    problem: &Problem,
    parts: &[Part],
) -> Result<Problem, ProgramError> {
    let memory = tool::LIMITS.memory_bytes;
    let mut prepared = problem.clone();
    let wants = |part| parts.contains(&part);
    // Each command of `parts`, and its role, in the order they are compiled.
    let mut commands: Vec<(&mut Vec<String>, &'static str)> = Vec::new();
    if wants(Part::Reference) {
        commands.extend(prepared.reference.as_mut().map(|c| (c, "reference")));
    }
    if wants(Part::Validator) {
        commands.extend(prepared.validator.as_mut().map(|c| (c, "validator")));
    }
    if wants(Part::Generators) {
        let generators = prepared.generators.iter_mut();
        commands.extend(generators.map(|g| (&mut g.command, "generator")));
    }
    if wants(Part::StressGenerator) {
        let stress = prepared.stress.as_mut();
        commands.extend(stress.map(|s| (&mut s.generator, "stress generator")));
    }
    for (command, role) in commands {
        *command = compiled_command(config, command, role, memory)?;
    }
    if !wants(Part::Checker) {
        return Ok(prepared);
    }
    if let Checker::Command { program, args, .. } = &problem.checker {
        let template: Vec<String> = std::iter::once(program.display().to_string())
            .chain(args.iter().cloned())
            .collect();
        let command = compiled_command(config, &template, "checker", memory)?;
        if command != template {
            prepared.checker = Checker::Command {
                program: command[0].clone().into(),
                args: command[1..].to_vec(),
                // Its messages name the source, not the build that runs.
                shown: Some(
                    program
                        .strip_prefix(&config.root)
                        .unwrap_or(program)
                        .display()
                        .to_string(),
                ),
            };
        }
    }
    Ok(prepared)
}

/// `template` with its program replaced by a cached build when it names a source file of a
/// known language (from judge.toml's folder); otherwise `template` itself.
fn compiled_command(
    config: &Config,
    template: &[String],
    role: &'static str,
    memory_bytes: u64,
) -> Result<Vec<String>, ProgramError> {
    let Some((program, rest)) = template.split_first() else {
        return Ok(template.to_vec());
    };
    let path = config.root.join(program);
    if !path.is_file() {
        return Ok(template.to_vec());
    }
    let Ok(language) = crate::config::detect_language(config, &path, None) else {
        return Ok(template.to_vec());
    };
    // The file as judge.toml names it, in the compiler's lines too.
    let built =
        build(language, &path, memory_bytes)?.map_err(|message| ProgramError::CompileError {
            role,
            path: PathBuf::from(program),
            message: message.replace(&*path.to_string_lossy(), program),
        })?;
    let mut command = command_of(&built);
    command.extend_from_slice(rest);
    Ok(command)
}

/// `path` compiled by `language` (or taken from the build cache), or what the compiler said.
fn build(
    language: &crate::compile::Language,
    path: &Path,
    memory_bytes: u64,
) -> Result<Result<Prepared, String>, ProgramError> {
    submit::check_tools(language)?;
    Ok(
        match crate::compile::submission::compile(language, path, memory_bytes)? {
            Compiled::Ready(prepared) => Ok(prepared),
            Compiled::CompileError { message, .. } => Err(message),
        },
    )
}

/// The words of the command that runs a build.
fn command_of(prepared: &Prepared) -> Vec<String> {
    let args = prepared.program.args.iter();
    std::iter::once(prepared.program.executable.display().to_string())
        .chain(args.map(|a| a.to_string_lossy().into_owned()))
        .collect()
}
