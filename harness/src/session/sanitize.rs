//! `--sanitize`: the submission's language swapped for its sanitized build in the session's
//! configuration, the problem's memory limit loosened as the sanitizers need, and the compiler
//! tried once on an empty program so that a machine without the sanitizers' runtimes says so
//! before anything is judged.

use std::path::Path;

use anyhow::{Context, Result};

use crate::compile::sanitizer::{self, SanitizeError, Toolchain};
use crate::compile::submission::Compiled;
use crate::compile::submit;
use crate::compile::Language;
use crate::config::{Config, Problem};
use crate::sandbox::run::Limits;

/// A program every C and C++ compiler accepts.
const PROBE: &[u8] = b"int main(void) { return 0; }\n";

/// What the session judges with once `--sanitize` is laid over its configuration.
#[derive(Debug, Clone)]
pub struct Sanitizing {
    pub toolchain: Toolchain,
    /// The line the header adds: how it is built, and what is loosened.
    pub note: String,
}

/// Swaps the language `source` is judged in (`lang`, else its extension; a package's own
/// choice for a package's problem) for its sanitized build, and loosens `problem`'s memory
/// limit.
pub fn apply(
    config: &mut Config,
    problem: &str,
    source: &Path,
    lang: Option<&str>,
    package_cases: bool,
) -> Result<Sanitizing> {
    if !source.exists() {
        return Err(submit::SubmitError::MissingSource(source.to_path_buf()).into());
    }
    let package = package_cases
        && lang.is_none()
        && config.problem(problem).is_some_and(|p| p.package.is_some());
    let language = if package {
        crate::package::languages::language_of(&config.languages, source)
            .map_err(|why| anyhow::anyhow!("cannot judge `{}`: {why}", source.display()))?
    } else {
        crate::config::detect_language(config, source, lang)?
    };
    let id = language.id.clone();
    let (sanitized, toolchain) = build(language)?;
    for language in config.languages.iter_mut().filter(|l| l.id == id) {
        *language = sanitized.clone();
    }
    let problem = config
        .problems
        .iter_mut()
        .find(|p| p.name == problem)
        .context("the problem to sanitize is not in the configuration")?;
    let note = toolchain.note(problem.memory_limit);
    problem.memory_limit = toolchain.memory_limit(problem.memory_limit);
    Ok(Sanitizing { toolchain, note })
}

/// The sanitized build of `language`, tried once on an empty program.
pub fn build(language: &Language) -> Result<(Language, Toolchain)> {
    let (sanitized, toolchain) = sanitizer::language(language)?;
    if matches!(toolchain, Toolchain::Native { .. }) {
        probe(&sanitized, toolchain)?;
    }
    Ok((sanitized, toolchain))
}

/// The limits of a sanitized run of `language` (already sanitized) on `problem`.
pub fn limits(problem: &Problem, language: &Language, toolchain: Toolchain) -> Limits {
    let mut limits = problem.limits(language.time_multiplier);
    limits.memory_bytes = toolchain.memory_limit(problem.memory_limit);
    limits
}

/// Compiles an empty program with the sanitized command: a compiler without the sanitizers
/// (no `libasan`, an old compiler) is refused here, by name, rather than as the submission's
/// compile error. It is built as everything is, through the cache: a second `--sanitize` run
/// with the same compiler does not link it again.
fn probe(language: &Language, toolchain: Toolchain) -> Result<()> {
    submit::check_tools(language)?;
    let dir = tempfile::Builder::new()
        .prefix("harness-sanitize-")
        .tempdir()
        .context("cannot make a temporary folder to try the sanitizers")?;
    let extension = language.extensions.first().map_or("c", String::as_str);
    let source = dir.path().join("probe").with_extension(extension);
    std::fs::write(&source, PROBE)
        .with_context(|| format!("cannot write `{}`", source.display()))?;
    match crate::compile::submission::compile(language, &source, 0)? {
        Compiled::Ready(_) => Ok(()),
        Compiled::CompileError { message, .. } => {
            let compiler = language
                .compile
                .as_ref()
                .and_then(|c| c.first())
                .cloned()
                .unwrap_or_default();
            let first = message
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("it failed and said nothing");
            Err(SanitizeError::Missing {
                hint: sanitizer::install_hint(toolchain, &compiler),
                compiler,
                what: toolchain.describe(),
                message: crate::text::cut(first.trim(), 200),
            }
            .into())
        }
    }
}
