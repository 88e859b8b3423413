//! `harness project`'s report: the judge.toml a command run here uses and why, and the default
//! project used where no judge.toml is above.

use std::io::{self, Write};
use std::path::Path;

use crate::config::Origin;

/// Writes which judge.toml a command here reads (`origin` `None`: named by `--config`).
pub fn write_located(out: &mut impl Write, path: &Path, origin: Option<&Origin>) -> io::Result<()> {
    let why = match origin {
        None => "named by --config".to_string(),
        Some(Origin::Above) => "found above this folder".to_string(),
        Some(Origin::DefaultProject { config }) => {
            format!("the default project, `project` in {}", config.display())
        }
    };
    writeln!(out, "judge.toml: {} ({why})", path.display())
}

/// Writes the default project, or that there is none and how to name one; with `set`, what
/// `--default` or `--no-default` changed.
pub fn write_default(
    out: &mut impl Write,
    project: Option<&Path>,
    config: &Path,
    set: bool,
) -> io::Result<()> {
    match (project, set) {
        (Some(project), false) => writeln!(
            out,
            "default project: {} (`project` in {}), used in any folder with no judge.toml above",
            project.display(),
            config.display()
        ),
        (Some(project), true) => writeln!(
            out,
            "default project: {} (written to {}): `harness judge PROBLEM SOURCE` finds its problems from any folder with no judge.toml above",
            project.display(),
            config.display()
        ),
        (None, false) => writeln!(
            out,
            "default project: none (hint: `harness project --default DIR` reaches DIR's problems from any folder)"
        ),
        (None, true) => writeln!(out, "default project: none (removed from {})", config.display()),
    }
}
