//! The `[languages.*]` tables of judge.toml (and of the user's config), checked into the
//! languages table's entries.

use std::collections::BTreeMap;
use std::path::Path;

use super::error::ConfigError;
use super::names::check_name;
use super::raw::RawLanguage;
use crate::compile::languages::{CompileLimits, Language};

/// The `[languages.*]` tables of a file, checked.
pub(super) fn languages_of(
    raw: BTreeMap<String, RawLanguage>,
    path: &Path,
) -> Result<Vec<Language>, ConfigError> {
    let invalid = |message: String| ConfigError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    let mut languages = Vec::new();
    for (id, language) in raw {
        check_name(&id).map_err(invalid)?;
        if language.run.is_empty() {
            return Err(invalid(format!("language `{id}`: `run` is empty")));
        }
        let multiplier = language.time_multiplier.map_or(1.0, |m| m.0);
        let defaults = CompileLimits::default();
        let compile_limits = CompileLimits {
            time: language.compile_time_limit.map_or(defaults.time, |d| d.0),
            memory_bytes: language
                .compile_memory_limit
                .map_or(defaults.memory_bytes, |s| s.0),
        };
        languages.push(Language {
            name: language.name.unwrap_or_else(|| id.clone()),
            extensions: language
                .extensions
                .into_iter()
                // As written: `.C` (C++) and `.c` (C) are different languages.
                .map(|e| e.trim_start_matches('.').to_string())
                .collect(),
            compile: language.compile,
            run: language.run,
            time_multiplier: multiplier,
            compile_limits,
            sandbox: language.sandbox.unwrap_or_default(),
            id,
        });
    }

    // The extension picks the language: two tables claiming one would make the pick depend on
    // the tables' names.
    for (i, language) in languages.iter().enumerate() {
        for other in &languages[i + 1..] {
            if let Some(shared) = language
                .extensions
                .iter()
                .find(|e| other.extensions.contains(e))
            {
                return Err(invalid(format!(
                    "languages `{}` and `{}` both claim the extension `.{shared}` (hint: keep it in one table; the other can be picked with --lang, with `extensions = []`)",
                    language.id, other.id
                )));
            }
        }
    }
    Ok(languages)
}
