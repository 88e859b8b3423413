//! The `--failed` store: where the failures of the last run are kept and under which key, read
//! before a run and written after it. A project's are in its `target/harness/`; those of a
//! folder of cases judged without judge.toml in the user's cache folder (no `target/` is made
//! in a folder of downloaded cases).

use std::path::{Path, PathBuf};

use super::failures::{self, FailedCases, FailuresError};
use crate::report::notice;

/// One store of failed cases.
#[derive(Debug, Clone)]
pub struct FailedStore {
    path: PathBuf,
}

impl FailedStore {
    /// The project's, beside its build output.
    pub fn of_project(root: &Path) -> FailedStore {
        FailedStore {
            path: failures::store_path(root),
        }
    }

    /// The user's, for folders of cases outside a project: `$XDG_CACHE_HOME/harness`, else
    /// `~/.cache/harness`, else the temporary folder.
    pub fn of_user() -> FailedStore {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
            .unwrap_or_else(std::env::temp_dir);
        FailedStore {
            path: cache.join("harness").join("failed.json"),
        }
    }

    /// What failed last time. A store that cannot be read is an error only when `--failed`
    /// (`needed`) asks for it; any other run says so and starts a new one.
    pub fn load(&self, needed: bool) -> Result<FailedCases, FailuresError> {
        match FailedCases::load(&self.path) {
            Ok(failed) => Ok(failed),
            Err(error) if !needed => {
                let _ = notice::write_warning(&mut anstream::stderr(), &error);
                Ok(FailedCases::default())
            }
            Err(error) => Err(error),
        }
    }

    /// Keeps `failed` for the next `--failed`. Losing it is not worth failing a run over (a
    /// read-only checkout, say): the user is told and the verdicts stand. A project that
    /// never failed gets no store at all.
    pub fn save(&self, failed: &FailedCases) {
        if failed.is_empty() && !self.path.exists() {
            return;
        }
        if let Err(error) = failed.save(&self.path) {
            let _ = notice::write_warning(
                &mut anstream::stderr(),
                format_args!("{error} (`--failed` will not know this run)"),
            );
        }
    }
}
