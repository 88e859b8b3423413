//! Finding judge.toml and loading it with the user's config beneath it.

use std::path::{Path, PathBuf};

use super::error::ConfigError;
use super::names::FILE_NAME;
use super::parse::parse;
use super::settings::Config;
use super::user;
use crate::compile::languages;

/// Walks up from `start` to the first folder holding judge.toml, as cargo does for Cargo.toml.
pub fn find(start: &Path) -> Result<PathBuf, ConfigError> {
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| ConfigError::NotFound {
            start: start.to_path_buf(),
        })
}

/// Reads and checks judge.toml at `path`, making every path in it absolute, with the built-in
/// languages and the user's config beneath its own.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut config = parse(&text, path)?;
    let user = user::load()?;
    config.languages = languages::merged(&[&user.languages, &config.languages]);
    Ok(config)
}
