//! `include/`: files copied onto every submission before it is built, as problemtools copies
//! them (`model/includes.py`): those of `include/default/`, then those of
//! `include/<language>/` (the format's language code: `cpp`, `python3`, `java`, …), which
//! win over a default file of the same name; `{{constants}}` (2025-09) in them replaced. The
//! build compiles the ones in the submission's language with it (`{files}`), so a
//! `grader.cpp` that has `main` links with the contestant's functions, and a language folder's
//! `main.*` is the program's entry point (a `main.py` that imports the contestant's module).

use std::path::{Path, PathBuf};

use crate::compile::Language;
use crate::config::Graders;

/// The format's code for one of the harness's languages (its `id` where they agree).
pub fn format_code(language: &Language) -> &str {
    language.format_code()
}

/// What `include/` puts onto a submission in one language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Included {
    /// Each file's name and its bytes (constants replaced), sorted by name.
    pub files: Vec<(String, Vec<u8>)>,
    /// The language folder's `main.*` in the language, when it has one: the program's entry
    /// point instead of the submission's own file (problemtools' `mainfile`).
    pub entry: Option<String>,
}

/// What `include/` puts onto a submission in `language` of the package in `root`. Empty when
/// the package has no `include/`.
pub fn files_for(root: &Path, language: &Language) -> Result<Included, String> {
    let include = root.join("include");
    if !include.is_dir() {
        return Ok(Included::default());
    }
    let canonical = root
        .canonicalize()
        .map_err(|e| format!("cannot read `{}`: {e}", root.display()))?;
    let constants = super::generate::problem_settings(&canonical)
        .map(|(constants, _)| constants)
        .unwrap_or_default();
    let mut included = Included::default();
    let folders = [
        (include.join("default"), false),
        (include.join(format_code(language)), true),
    ];
    for (folder, own) in folders {
        if !folder.is_dir() {
            continue;
        }
        for (name, bytes) in read_folder(&canonical, &folder, &constants)? {
            if own && crate::compile::submit::is_entry_name(language, &name) {
                included.entry.get_or_insert_with(|| name.clone());
            }
            // The language's file wins over a default one of its name, as problemtools
            // writes them in that order.
            included.files.retain(|(other, _)| *other != name);
            included.files.push((name, bytes));
        }
    }
    included.files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(included)
}

/// What judge.toml's `grader-files` and the grader of `language` put onto a submission in it,
/// as `include/default/` and `include/<language>/` would. Where the language runs its source
/// (Python), the grader is what runs: it imports the contestant's module by its name.
pub fn from_graders(graders: &Graders, language: &Language) -> Result<Included, String> {
    let mut included = Included::default();
    let source = graders.source_for(language);
    for path in graders.files.iter().map(PathBuf::as_path).chain(source) {
        included
            .files
            .push((super::file_name(path), read_source(path, &[])?));
    }
    let compiled_together = matches!(language.id.as_str(), "c" | "cpp");
    if let Some(source) = source.filter(|_| !compiled_together) {
        included.entry = Some(super::file_name(source));
    }
    included.files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(included)
}

/// The files of one `include/` folder, read and with their constants put in.
fn read_folder(
    canonical: &Path,
    folder: &Path,
    constants: &[(String, String)],
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files = Vec::new();
    for path in super::sorted_entries(folder).map_err(|e| e.to_string())? {
        super::check_inside(canonical, &path).map_err(|e| e.to_string())?;
        if !path.is_file() {
            continue;
        }
        let bytes = read_source(&path, constants)?;
        files.push((super::file_name(&path), bytes));
    }
    Ok(files)
}

/// One file's bytes, at most a source file's size before and after its constants are put in.
fn read_source(path: &Path, constants: &[(String, String)]) -> Result<Vec<u8>, String> {
    let max = crate::compile::submit::MAX_SOURCE_BYTES;
    let bytes = std::fs::File::open(path)
        .and_then(|file| crate::compile::submit::read_at_most(file, max))
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?
        .ok_or_else(|| {
            format!(
                "`{}` is larger than the {} MiB a source file may be",
                path.display(),
                max >> 20
            )
        })?;
    let bytes = match String::from_utf8(bytes) {
        Ok(text) if !constants.is_empty() => {
            crate::compile::program::substitute(&text, constants, max as usize)
                .ok_or_else(|| {
                    format!(
                        "`{}`: with its `{{{{constants}}}}` put in it is larger than the {} MiB a source file may be",
                        path.display(),
                        crate::compile::submit::MAX_SOURCE_BYTES >> 20
                    )
                })?
                .into_bytes()
        }
        Ok(text) => text.into_bytes(),
        Err(binary) => binary.into_bytes(),
    };
    Ok(bytes)
}
