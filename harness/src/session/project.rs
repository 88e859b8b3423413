//! `harness project`: which judge.toml a command run here uses; and the default project, the
//! one used in any folder with no judge.toml above, kept in the user's config file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::Session;
use crate::config::{self, FILE_NAME};

impl Session {
    /// Names `dir` (a folder holding judge.toml, or that file) as the default project, or none;
    /// returns the folder written and the user's config file.
    pub fn set_default_project(&self, dir: Option<&Path>) -> Result<(Option<PathBuf>, PathBuf)> {
        let folder = match dir {
            Some(dir) => Some(project_folder(dir)?),
            None => None,
        };
        let written = config::edit::set_user_project(folder.as_deref())?;
        Ok((folder, written))
    }

    /// The default project, and the user's config file that names it.
    pub fn default_project(&self) -> Result<(Option<PathBuf>, PathBuf)> {
        let project = config::user::load()?.project;
        Ok((project, config::user::path().unwrap_or_default()))
    }
}

/// The absolute folder of the project `dir` names: the folder of judge.toml, or that file.
fn project_folder(dir: &Path) -> Result<PathBuf> {
    let absolute = std::fs::canonicalize(dir).with_context(|| {
        format!(
            "no folder `{}` (hint: give the folder of the project's {FILE_NAME})",
            dir.display()
        )
    })?;
    let folder = if absolute.is_file() && absolute.file_name() == Some(FILE_NAME.as_ref()) {
        absolute.parent().map(Path::to_path_buf).unwrap_or(absolute)
    } else {
        absolute
    };
    if !folder.join(FILE_NAME).is_file() {
        anyhow::bail!(
            "`{}` holds no {FILE_NAME} (hint: give the folder of the project's {FILE_NAME}, as `harness project --default .` in it)",
            folder.display()
        );
    }
    Ok(folder)
}
