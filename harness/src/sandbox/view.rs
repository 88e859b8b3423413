//! What a sandboxed program sees of the machine: which host folders are shown read-only, and
//! which install prefixes (interpreters outside the system folders, such as pyenv's Pythons
//! under `$HOME`) may be added without showing the project or `$HOME` itself.

use std::path::{Path, PathBuf};

/// Top-level host entries shown read-only (folders bound, symlinks copied), when present.
pub(crate) const SYSTEM_ENTRIES: [&str; 10] = [
    "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "opt", "nix",
];

/// Device files the program may open: a judge's usual set.
pub(crate) const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// Whether `path` (absolute, canonical) is inside the read-only system view.
pub(crate) fn is_system(path: &Path) -> bool {
    let mut components = path.components();
    components.next(); // the root
    match components.next() {
        Some(std::path::Component::Normal(first)) => {
            SYSTEM_ENTRIES.iter().any(|entry| first == *entry) && components.next().is_some()
        }
        _ => false,
    }
}

/// The install prefix of an interpreter at `executable` (canonical), when it has the usual
/// `PREFIX/bin/NAME` + `PREFIX/lib` shape and showing it reveals none of `hidden` (the project,
/// `$HOME`): `/root/.pyenv/versions/3.12.3` for `/root/.pyenv/versions/3.12.3/bin/python3.12`.
pub(crate) fn install_prefix(executable: &Path, hidden: &[PathBuf]) -> Option<PathBuf> {
    let bin = executable.parent()?;
    if bin.file_name()? != "bin" {
        return None;
    }
    let prefix = bin.parent()?;
    if prefix.parent().is_none() || !prefix.join("lib").is_dir() {
        return None;
    }
    // Showing a folder shows everything under it.
    let reveals = hidden.iter().any(|hidden| hidden.starts_with(prefix));
    (!reveals).then(|| prefix.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_paths() {
        let table = [
            ("/usr/bin/python3", true),
            ("/bin/sh", true),
            ("/etc/passwd", true),
            ("/usr", false),
            ("/usrx/bin", false),
            ("/root/.pyenv/versions/3.12.3/bin/python3", false),
            ("/work/main/target/release/sol", false),
            ("/tmp/x", false),
            ("/", false),
        ];
        for (path, expected) in table {
            assert_eq!(is_system(Path::new(path)), expected, "{path}");
        }
    }

    #[test]
    fn prefixes_never_reveal_hidden_folders() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        let python = home.join(".pyenv/versions/3.12.3");
        std::fs::create_dir_all(python.join("bin")).unwrap();
        std::fs::create_dir_all(python.join("lib")).unwrap();
        let project = home.join("project");
        std::fs::create_dir_all(project.join("bin")).unwrap();
        std::fs::create_dir_all(project.join("lib")).unwrap();
        let hidden = [home.clone(), project.clone()];

        let exe = python.join("bin/python3.12");
        assert_eq!(install_prefix(&exe, &hidden), Some(python.clone()));
        // The project itself has the shape of a prefix: never shown.
        assert_eq!(install_prefix(&project.join("bin/tool"), &hidden), None);
        // Not a `bin` folder, or no `lib` beside it.
        assert_eq!(install_prefix(&project.join("target/sol"), &hidden), None);
        assert_eq!(install_prefix(&home.join("bin/x"), &hidden), None);
    }
}
