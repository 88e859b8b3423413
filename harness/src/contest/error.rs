//! What can be wrong with a contest day's input, each naming the file (and the line, or the
//! submission) where it is.

use std::path::PathBuf;

use crate::package::FileError;

/// Why a contest or its submissions cannot be judged.
#[derive(Debug, thiserror::Error)]
pub enum ContestError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("`{}`: submission `{id}`: {message}", path.display())]
    Submission {
        path: PathBuf,
        id: String,
        message: String,
    },
    #[error(transparent)]
    Package(#[from] crate::package::PackageError),
}

impl ContestError {
    pub(crate) fn invalid(path: impl Into<PathBuf>, message: impl Into<String>) -> ContestError {
        ContestError::File(FileError::Invalid {
            path: path.into(),
            message: message.into(),
        })
    }

    pub(crate) fn read(path: impl Into<PathBuf>, source: std::io::Error) -> ContestError {
        ContestError::File(FileError::Read {
            path: path.into(),
            source,
        })
    }
}
