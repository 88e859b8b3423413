//! The `[languages.*]` tables of judge.toml (and of the user's config), checked into the
//! languages table's entries; the built-in table, which is one such file (languages.toml
//! beside this one), and how the layers lay over it.

use super::FileError;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;

use serde::Deserialize;

use super::error::{syntax_error, ConfigError};
use super::names::check_name;
use super::raw::RawLanguage;
use crate::compile::languages::{CompileLimits, Language};

/// The judge's own languages, in judge.toml's `[languages]` syntax.
const BUILTIN: &str = include_str!("languages.toml");

/// A file that holds `[languages.*]` tables and nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Tables {
    languages: BTreeMap<String, RawLanguage>,
}

/// The `[languages.*]` tables of `text` (a file of them alone, named `path` in errors),
/// checked, in the order the file has them.
pub fn tables(text: &str, path: &Path) -> Result<Vec<Language>, ConfigError> {
    let raw: Tables = toml::from_str(text).map_err(|error| syntax_error(text, path, &error))?;
    let mut languages = languages_of(raw.languages, path)?;
    // The parser's map is sorted by id; the file's order is the one reports list.
    let document: toml_edit::DocumentMut = text.parse().map_err(|_| FileError::Invalid {
        path: path.to_path_buf(),
        message: "not a TOML document".to_string(),
    })?;
    let order: Vec<&str> = document["languages"]
        .as_table()
        .map(|table| table.iter().map(|(id, _)| id).collect())
        .unwrap_or_default();
    languages.sort_by_key(|l| order.iter().position(|id| *id == l.id));
    Ok(languages)
}

/// The built-in table, in the order `--lang` errors list it.
pub fn builtin() -> Vec<Language> {
    static TABLE: LazyLock<Vec<Language>> = LazyLock::new(|| {
        tables(BUILTIN, Path::new("config/languages.toml"))
            .expect("the built-in languages table is checked by its tests")
    });
    TABLE.clone()
}

/// The built-in table, then each layer's tables on top: a table with a built-in's id replaces
/// it, a new id adds a language, and an extension a later table claims is taken from the
/// tables before it (so a user's `[languages.gnu-cpp]` claiming `cpp` wins over the built-in).
pub fn merged(layers: &[&[Language]]) -> Vec<Language> {
    let mut languages = builtin();
    for layer in layers {
        for language in *layer {
            for other in &mut languages {
                other
                    .extensions
                    .retain(|e| !language.extensions.contains(e));
            }
            match languages.iter_mut().find(|l| l.id == language.id) {
                Some(slot) => *slot = language.clone(),
                None => languages.push(language.clone()),
            }
        }
    }
    languages
}

/// The `[languages.*]` tables of a file, checked.
pub(super) fn languages_of(
    raw: BTreeMap<String, RawLanguage>,
    path: &Path,
) -> Result<Vec<Language>, ConfigError> {
    let invalid = |message: String| -> ConfigError {
        FileError::Invalid {
            path: path.to_path_buf(),
            message,
        }
        .into()
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
            tools: language.tools,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(languages: &'a [Language], id: &str) -> &'a Language {
        languages.iter().find(|l| l.id == id).unwrap()
    }

    #[test]
    fn the_builtin_table_reads_in_its_files_order() {
        let languages = tables(BUILTIN, Path::new("languages.toml")).unwrap();
        let ids: Vec<&str> = languages.iter().map(|l| l.id.as_str()).collect();
        let order = [
            "c",
            "cpp",
            "rust",
            "python",
            "pypy",
            "java",
            "kotlin",
            "go",
            "exe",
            "javascript",
        ];
        assert_eq!(ids, order);
        assert_eq!(find(&languages, "python").time_multiplier, 2.0);
        assert_eq!(find(&languages, "java").tools, ["javac", "jar"]);
        assert!(find(&languages, "pypy").compile.is_none());
        let cpp = &find(&languages, "cpp").extensions;
        assert!(cpp.contains(&"C".to_string()), "{cpp:?}");
        assert!(find(&languages, "c").extensions == ["c"]);
    }

    #[test]
    fn the_jvm_runs_with_the_options_a_command_gets() {
        let languages = builtin();
        for id in ["java", "kotlin"] {
            let run = &find(&languages, id).run;
            let options = crate::compile::languages::JVM_OPTIONS;
            assert_eq!(run[0], "java");
            assert_eq!(run[1..=options.len()], options, "{id}");
            assert_eq!(run[options.len() + 1..], ["-jar", "{exe}"], "{id}");
        }
    }

    #[test]
    fn a_table_names_the_tools_its_scripts_start() {
        let text = "[languages.x]\nextensions = []\nrun = [\"x\"]\ntools = [\"y\", \"z\"]\n";
        let languages = tables(text, Path::new("mine.toml")).unwrap();
        assert_eq!(languages[0].tools, ["y", "z"]);
    }

    #[test]
    fn a_table_file_with_an_unknown_key_is_refused_with_its_line() {
        let text = "[languages.x]\nextensions = []\nrun = [\"x\"]\ntool = [\"y\"]\n";
        let error = tables(text, Path::new("mine.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("mine.toml") && error.contains(":4:"),
            "{error}"
        );
    }

    #[test]
    fn later_layers_replace_by_id_and_take_extensions() {
        let mine = Language {
            id: "gnu-cpp".to_string(),
            name: "GNU C++20".to_string(),
            extensions: vec!["cpp".to_string()],
            compile: None,
            run: vec!["{exe}".to_string()],
            time_multiplier: 1.0,
            compile_limits: CompileLimits::default(),
            sandbox: Default::default(),
            tools: Vec::new(),
        };
        let python = Language {
            id: "python".to_string(),
            name: "My Python".to_string(),
            ..mine.clone()
        };
        let languages = merged(&[&[mine], &[python]]);
        assert_eq!(find(&languages, "python").name, "My Python");
        // `cpp` moved to gnu-cpp, then python (a later layer) claimed it too.
        assert_eq!(find(&languages, "python").extensions, ["cpp"]);
        assert!(find(&languages, "gnu-cpp").extensions.is_empty());
        let cpp = &find(&languages, "cpp").extensions;
        assert!(!cpp.contains(&"cpp".to_string()));
        assert!(cpp.contains(&"cc".to_string()));
    }
}
