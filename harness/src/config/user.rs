//! The user's own config file, `$XDG_CONFIG_HOME/harness/config.toml` (by default
//! `~/.config/harness/config.toml`): personal compile flags and languages, the limits a
//! judge without judge.toml uses, and the project used outside any project (`project`,
//! written by `harness project --default DIR`). judge.toml's settings win over it.

use super::FileError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::commands::Files;
use super::error::{syntax_error, ConfigError, Errors, Key};
use super::languages::languages_of;
use super::raw::{RawChecker, RawLanguage};
use super::resolve::{checker_keys, resolve_checker};
use super::values::{DurationValue, SizeValue};
use crate::check::Checker;
use crate::compile::languages::Language;

/// What the user's config says; empty when there is no file.
#[derive(Debug, Clone, Default)]
pub struct UserConfig {
    pub languages: Vec<Language>,
    pub time_limit: Option<std::time::Duration>,
    pub memory_limit: Option<u64>,
    pub checker: Option<Checker>,
    /// The file `harness listen` starts each received problem's solution from.
    pub template: Option<PathBuf>,
    /// The folder of the judge.toml used where none is found above the current folder.
    pub project: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawUser {
    #[serde(default)]
    defaults: RawUserDefaults,
    #[serde(default)]
    languages: BTreeMap<String, RawLanguage>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawUserDefaults {
    time_limit: Option<DurationValue>,
    memory_limit: Option<SizeValue>,
    checker: Option<RawChecker>,
    template: Option<String>,
    project: Option<String>,
}

/// Where the file is looked for, as the XDG base-directory spec says.
pub fn path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".config")))?;
    Some(base.join("harness").join("config.toml"))
}

/// Reads the user's config; no file is no settings, a broken one is an error naming it.
pub fn load() -> Result<UserConfig, ConfigError> {
    let Some(path) = path() else {
        return Ok(UserConfig::default());
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(UserConfig::default())
        }
        Err(source) => return Err(FileError::Read { path, source }.into()),
    };
    parse(&text, &path)
}

pub fn parse(text: &str, path: &Path) -> Result<UserConfig, ConfigError> {
    let raw: RawUser = toml::from_str(text).map_err(|error| syntax_error(text, path, &error))?;
    let root = path.parent().unwrap_or(Path::new("."));
    let languages = languages_of(raw.languages, path)?;
    let sources: Vec<String> = super::languages::builtin()
        .iter()
        .chain(&languages)
        .flat_map(|language| language.extensions.iter().cloned())
        .collect();
    // A checker command's files are named from this file's folder.
    let files = Files {
        root,
        built: false,
        sources: &sources,
    };
    let checker = match &raw.defaults.checker {
        Some(checker) => Some(resolve_checker(checker, &files).map_err(|(word, message)| {
            Errors::new(text, path).at(
                &checker_keys(&[Key::Name("defaults")], word),
                format!("[defaults] checker: {message}"),
            )
        })?),
        None => None,
    };
    Ok(UserConfig {
        languages,
        time_limit: raw.defaults.time_limit.map(|d| d.0),
        memory_limit: raw.defaults.memory_limit.map(|s| s.0),
        checker,
        template: raw.defaults.template.map(|t| config_path(&t, root)),
        project: raw.defaults.project.map(|p| config_path(&p, root)),
    })
}

/// `~/…` from the home folder, a relative path from the config file's folder.
fn config_path(text: &str, root: &Path) -> PathBuf {
    if let Some(rest) = text.strip_prefix("~/") {
        if let Some(home) = std::env::var_os("HOME") {
            return Path::new(&home).join(rest);
        }
    }
    root.join(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_and_defaults() {
        let config = parse(
            "[defaults]\ntime-limit = \"3s\"\nchecker = \"lines\"\n[languages.cpp]\nextensions = [\"cpp\"]\ncompile = [\"clang++\", \"-O2\", \"-o\", \"{exe}\", \"{source}\"]\nrun = [\"{exe}\"]\n",
            Path::new("/home/me/.config/harness/config.toml"),
        )
        .unwrap();
        assert_eq!(config.time_limit, Some(std::time::Duration::from_secs(3)));
        assert_eq!(config.checker, Some(Checker::Lines));
        assert_eq!(config.languages[0].compile.as_ref().unwrap()[0], "clang++");
        assert_eq!(config.template, None);
        let config = parse(
            "[defaults]\ntemplate = \"templates/main.cpp\"\n",
            Path::new("/home/me/.config/harness/config.toml"),
        )
        .unwrap();
        assert_eq!(
            config.template.as_deref(),
            Some(Path::new("/home/me/.config/harness/templates/main.cpp"))
        );
    }

    #[test]
    fn unknown_keys_name_the_file_and_line() {
        let error = parse(
            "[defaults]\ntime-limt = \"3s\"\n",
            Path::new("/home/me/.config/harness/config.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.starts_with("/home/me/.config/harness/config.toml:2:1"),
            "{error}"
        );
    }
}
