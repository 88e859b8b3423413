//! Compiled author programs and solutions kept between runs under `target/harness/build/`,
//! one folder per build, named by a hash of the source's content and name and of the
//! language's commands: a second run compiles nothing, an edited source or a changed compile
//! command gets a new folder, and so does a compiler that changed (upgraded, or another one
//! first in `PATH`).

use std::fs;
use std::hash::{DefaultHasher, Hasher};
use std::path::Path;

use crate::compile::submit::{self, Built, SubmitError};
use crate::config::Language;
use crate::judge::Program;

/// Below judge.toml's folder, beside cargo's own build output.
pub const CACHE_DIR: &str = "target/harness/build";

/// What the cache gave.
#[derive(Debug)]
pub enum Cached {
    /// The program, built now or before.
    Ready(Program),
    /// The compiler refused it (never cached: the next run shows the message again).
    CompileError(String),
}

/// `source` compiled as `language` into the cache below `root`, or the build made before.
/// `memory_bytes` fills `{memory-mib}` of the run command.
pub fn compile(
    root: &Path,
    language: &Language,
    source: &Path,
    memory_bytes: u64,
) -> Result<Cached, SubmitError> {
    let text = submit::read_source(source)?;
    let cache = root.join(CACHE_DIR);
    let dir = cache.join(key(language, source, &text));
    if !dir.is_dir() {
        let cache_error = |error| SubmitError::Cache {
            path: cache.clone(),
            source: error,
        };
        fs::create_dir_all(&cache).map_err(cache_error)?;
        // Built aside and renamed into place, so that a build cut short (Ctrl-C, a full disk)
        // or two harnesses building at once never leave a half-built folder under the key.
        let scratch = tempfile::Builder::new()
            .prefix(".building-")
            .tempdir_in(&cache)
            .map_err(cache_error)?;
        if let Built::CompileError { message } =
            submit::compile_in(language, source, &text, scratch.path())?
        {
            return Ok(Cached::CompileError(message));
        }
        let scratch = scratch.keep();
        if let Err(error) = fs::rename(&scratch, &dir) {
            let _ = fs::remove_dir_all(&scratch);
            // Another harness got there first with the same build.
            if !dir.is_dir() {
                return Err(cache_error(error));
            }
        }
    }
    Ok(Cached::Ready(submit::built_program(
        language,
        source,
        &dir,
        memory_bytes,
    )?))
}

/// 128 bits from two differently seeded SipHashes of everything the build depends on that the
/// harness can see: the language's commands, the source's name (a Java class is named by its
/// file) and its content. std does not promise the same hash across Rust versions: a new
/// harness at worst compiles once more.
fn key(language: &Language, source: &Path, text: &[u8]) -> String {
    let name = source.file_name().unwrap_or_default().to_string_lossy();
    let parts = [language.id.as_str(), &name]
        .into_iter()
        .chain(language.compile.iter().flatten().map(String::as_str))
        .chain(["\0run"])
        .chain(language.run.iter().map(String::as_str));
    let compiler = compiler_identity(language);
    let mut halves = [DefaultHasher::new(), DefaultHasher::new()];
    for (seed, hasher) in halves.iter_mut().enumerate() {
        hasher.write_u64(seed as u64);
        for part in parts.clone() {
            hasher.write(part.as_bytes());
            hasher.write_u8(0);
        }
        hasher.write(compiler.as_bytes());
        hasher.write_u8(0);
        hasher.write(text);
    }
    format!(
        "{}-{:016x}{:016x}",
        language.id,
        halves[0].finish(),
        halves[1].finish()
    )
}

/// The compiler the language's compile command starts, as found now: its real path, size and
/// modification time (an upgrade changes them; running `--version` per build would cost more
/// than the build saved). Empty for a language that compiles nothing or a compiler not found,
/// whose run then says so.
fn compiler_identity(language: &Language) -> String {
    let Some(program) = language
        .compile
        .as_ref()
        .and_then(|command| command.first())
    else {
        return String::new();
    };
    let found = crate::sandbox::run::find_program(Path::new(program)).ok();
    let Some(real) = found.and_then(|path| fs::canonicalize(path).ok()) else {
        return String::new();
    };
    let Ok(meta) = fs::metadata(&real) else {
        return String::new();
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    format!("{}\0{}\0{modified}", real.display(), meta.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn language(compiler: &Path) -> Language {
        Language {
            id: "c".into(),
            name: "C".into(),
            extensions: vec!["c".into()],
            compile: Some(vec![
                compiler.display().to_string(),
                "{source}".into(),
                "-o".into(),
                "{exe}".into(),
            ]),
            run: vec!["{exe}".into()],
            time_multiplier: 1.0,
            compile_limits: crate::config::CompileLimits::default(),
            sandbox: Default::default(),
        }
    }

    #[test]
    fn a_changed_compiler_changes_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let compiler = dir.path().join("cc");
        fs::write(&compiler, "#!/bin/sh\n").unwrap();
        let source = Path::new("a.c");
        let before = key(&language(&compiler), source, b"int main(){}");
        assert_eq!(before, key(&language(&compiler), source, b"int main(){}"));
        // An upgrade: another size (and time).
        fs::write(&compiler, "#!/bin/sh\n# version 2\n").unwrap();
        let after = key(&language(&compiler), source, b"int main(){}");
        assert_ne!(before, after);
        // Another source, another key, as before.
        assert_ne!(after, key(&language(&compiler), source, b"int main(){ }"));
    }
}
