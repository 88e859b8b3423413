//! Finding judge.toml and loading it with the user's config beneath it.

use super::FileError;
use std::path::{Path, PathBuf};

use super::error::ConfigError;
use super::languages;
use super::names::FILE_NAME;
use super::parse::parse;
use super::settings::Config;
use super::user;

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

/// Where the judge.toml a command uses came from, when no `--config` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Found walking up from the current folder.
    Above,
    /// The user's default project (`project` in this config file), where none is above.
    DefaultProject {
        /// The user's config file.
        config: PathBuf,
    },
}

/// judge.toml for a command run in `start`: the first found walking up ([`find`]), else the
/// user's default project's (`project` in their config file), so that a project's problems
/// are reached from any folder.
pub fn locate(start: &Path) -> Result<(PathBuf, Origin), ConfigError> {
    let not_found = match find(start) {
        Ok(path) => return Ok((path, Origin::Above)),
        Err(error) => error,
    };
    let Some(project) = user::load()?.project else {
        return Err(not_found);
    };
    let config = user::path().unwrap_or_default();
    let file = if project.is_dir() {
        project.join(FILE_NAME)
    } else {
        project.clone()
    };
    if !file.is_file() {
        return Err(ConfigError::NoDefaultProject { project, config });
    }
    Ok((file, Origin::DefaultProject { config }))
}

/// Reads and checks judge.toml at `path`, making every path in it absolute, with the built-in
/// languages and the user's config beneath its own.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| FileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut config = parse(&text, path)?;
    let user = user::load()?;
    config.languages = languages::merged(&[&user.languages, &config.languages]);
    Ok(config)
}
