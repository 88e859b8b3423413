//! Builds a package's own programs (output validators, input validators, testlib checkers)
//! from source, once: the build is kept in a cache folder named by a hash of the sources and
//! the compile command, so judging a package again does not compile its validator again.

use std::ffi::OsString;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{languages, PackageError, SourceProgram};
use crate::check::package::{PackageProgram, RunFolder};
use crate::config::Language;
use crate::judge::Program;
use crate::sandbox::run::{self, Isolation, Limits, RunRequest, Scope, Termination};

/// Compilers are trusted and may be slow (a testlib checker takes seconds with -O2).
const COMPILE_LIMITS: Limits = Limits {
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
        }
    }
}

/// Where builds are kept: `$HARNESS_CACHE_DIR`, else `$XDG_CACHE_HOME/harness`, else
/// `~/.cache/harness`, else the temporary folder.
pub fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("HARNESS_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("harness");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(home).join(".cache/harness");
    }
    std::env::temp_dir().join("harness-cache")
}

/// The source files of a program: the file itself, or the files of its folder (sorted).
fn sources(program: &SourceProgram) -> Result<Vec<PathBuf>, PackageError> {
    if program.path.is_file() {
        return Ok(vec![program.path.clone()]);
    }
    let mut files = Vec::new();
    for entry in super::sorted_entries(&program.path)? {
        if entry.is_file() {
            files.push(entry);
        }
    }
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

    let mut hasher = DefaultHasher::new();
    for file in &files {
        super::file_name(file).hash(&mut hasher);
        std::fs::read(file)
            .map_err(|source| PackageError::Read {
                path: file.clone(),
                source,
            })?
            .hash(&mut hasher);
    }
    program.constants.hash(&mut hasher);
    if let Some(include) = include {
        std::fs::read(include.join("testlib.h"))
            .ok()
            .hash(&mut hasher);
    }
    if let Some(language) = language {
        (&language.compile, &language.run).hash(&mut hasher);
    }
    let dir = cache_root().join("builds").join(format!(
        "{}-{:016x}",
        sanitize(&program.name),
        hasher.finish()
    ));
    let exe = dir.join("main.bin");
    let main_copy = main.as_ref().map(|m| dir.join(super::file_name(m)));

    let program_of = |dir: &Path| -> Program {
        if scripts {
            return Program::new(dir.join("run"));
        }
        let language = language.expect("a language when there is no run script");
        let source = main_copy.clone().unwrap_or_default();
        let (executable, args) = expand(&language.run, &source, &exe);
        Program {
            executable: if executable.components().count() > 1 {
                executable
            } else {
                crate::sandbox::run::find_program(&executable).unwrap_or(executable)
            },
            args,
            syscall_filter: language.sandbox.syscall_filter(),
        }
    };
    if dir.join(".built").is_file() {
        return Ok(Built {
            program: program_of(&dir),
            folder: dir,
        });
    }

    // Build in a fresh folder beside the final one, then move it in place: two judges
    // building the same validator at once never see half a build.
    let parent = dir.parent().expect("a cache folder has a parent");
    std::fs::create_dir_all(parent)
        .map_err(|e| fail(format!("cannot make `{}`: {e}", parent.display())))?;
    let scratch = tempfile::Builder::new()
        .prefix(".building-")
        .tempdir_in(parent)
        .map_err(|e| fail(format!("cannot make a build folder: {e}")))?;
    for file in &files {
        let copy = scratch.path().join(super::file_name(file));
        std::fs::copy(file, &copy)
            .map_err(|e| fail(format!("cannot copy `{}`: {e}", file.display())))?;
        if !program.constants.is_empty() {
            let text = std::fs::read(&copy)
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            if let Some(text) = text {
                std::fs::write(&copy, substitute(&text, &program.constants))
                    .map_err(|e| fail(format!("cannot write `{}`: {e}", copy.display())))?;
            }
        }
    }
    if let Some(include) = include {
        let header = include.join("testlib.h");
        if header.is_file() && !scratch.path().join("testlib.h").exists() {
            std::fs::copy(&header, scratch.path().join("testlib.h"))
                .map_err(|e| fail(format!("cannot copy `{}`: {e}", header.display())))?;
        }
    }
    if scripts && scratch.path().join("build").is_file() {
        run_build_script(scratch.path()).map_err(fail)?;
    }
    if scripts && !scratch.path().join("run").is_file() {
        return Err(fail(
            "its `build` script made no `run` (the format runs a program folder by its `run`)"
                .to_string(),
        ));
    }
    let compile: Option<(PathBuf, Vec<OsString>)> = if scripts {
        None
    } else {
        let language = language.expect("a language");
        language.compile.as_ref().map(|command| {
            let source = scratch
                .path()
                .join(super::file_name(main.as_ref().unwrap()));
            let scratch_exe = scratch.path().join("main.bin");
            let (program, mut args) = expand(command, &source, &scratch_exe);
            // C and C++ sources of one folder are compiled together, with its headers.
            if matches!(language.id.as_str(), "c" | "cpp") {
                for other in &code {
                    let name = super::file_name(other);
                    if Some(&name) != main.as_ref().map(|m| super::file_name(m)).as_ref() {
                        args.push(scratch.path().join(name).into_os_string());
                    }
                }
                args.push(OsString::from("-I"));
                args.push(scratch.path().as_os_str().to_owned());
            }
            (program, args)
        })
    };
    if let Some((compiler, args)) = compile {
        let request = RunRequest::new(&compiler, COMPILE_LIMITS)
            .args(&args)
            .scope(Scope::Group)
            .workdir(Some(scratch.path()));
        let result = run::run(&request).map_err(|e| fail(e.to_string()))?;
        if result.termination != Termination::Exited(0) {
            let mut message = String::from_utf8_lossy(&result.stderr_tail).into_owned();
            if message.trim().is_empty() {
                message = String::from_utf8_lossy(&result.stdout).into_owned();
            }
            let message: Vec<&str> = message.lines().take(20).collect();
            return Err(fail(format!(
                "the compile failed ({}):\n{}",
                match result.termination {
                    Termination::Exited(code) => format!("exit {code}"),
                    Termination::Signaled(signal) => run::signal_name(signal),
                },
                message.join("\n")
            )));
        }
    }
    if scripts {
        use std::os::unix::fs::PermissionsExt;
        let run_script = scratch.path().join("run");
        let _ = std::fs::set_permissions(&run_script, std::fs::Permissions::from_mode(0o755));
    }
    std::fs::write(scratch.path().join(".built"), b"")
        .map_err(|e| fail(format!("cannot finish the build: {e}")))?;
    let kept = scratch.keep();
    if std::fs::rename(&kept, &dir).is_err() {
        // Another judge finished the same build first: use theirs.
        let _ = std::fs::remove_dir_all(&kept);
    }
    Ok(Built {
        program: program_of(&dir),
        folder: dir,
    })
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
    let request = RunRequest::new(Path::new("sh"), COMPILE_LIMITS)
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

/// Replaces each `{{name}}` or `{{name.variant}}` whose name is a constant by its value, as
/// 2025-09 asks for validators' sources; any other `{{…}}` stays as written.
pub fn substitute(text: &str, constants: &[(String, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
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
    out.push_str(rest);
    out
}

/// The longest name part of a build folder: the name is for people reading the cache; the
/// hash beside it tells builds apart.
const NAME_CHARS: usize = 64;

/// A program's name as a folder name: letters, digits and `-` kept, and a long one cut to
/// its start and a hash of the whole (a legal 250-character validator folder plus the hash
/// was more than a file name may be).
fn sanitize(name: &str) -> String {
    let plain: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if plain.len() <= NAME_CHARS {
        return plain;
    }
    let mut hasher = DefaultHasher::new();
    name.hash(&mut hasher);
    format!(
        "{}-{:08x}",
        &plain[..NAME_CHARS - 9],
        hasher.finish() as u32
    )
}

/// Replaces `{source}` and `{exe}` in a command template.
fn expand(template: &[String], source: &Path, exe: &Path) -> (PathBuf, Vec<OsString>) {
    let substitute = |part: &String| -> OsString {
        OsString::from(
            part.replace("{source}", &source.to_string_lossy())
                .replace("{exe}", &exe.to_string_lossy())
                // A validator's memory is not the contestant's: a JVM one gets room.
                .replace("{memory-mib}", &VALIDATOR_MEMORY_MIB.to_string()),
        )
    };
    let mut parts = template.iter().map(substitute);
    let program = PathBuf::from(parts.next().unwrap_or_default());
    (program, parts.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_fit_a_file_name() {
        assert_eq!(sanitize("output_validators/v"), "output_validators_v");
        let long = format!("output_validators/{}", "v".repeat(250));
        let short = sanitize(&long);
        assert_eq!(short.len(), NAME_CHARS);
        assert!(short.starts_with("output_validators_vvv"), "{short}");
        assert_ne!(short, sanitize(&format!("{long}w")));
    }

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
            assert_eq!(substitute(text, &constants), expected, "{text}");
        }
    }
}
