//! 2025-09 `include/`: files copied beside every submission before it is built, from
//! `include/<language>/` (the format's language code: `cpp`, `python3`, `java`, …) or, for a
//! language without its own folder, `include/default/`; `{{constants}}` in them replaced.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::compile::Language;

/// The format's code for one of the harness's languages (its `id` where they agree).
pub fn format_code(language: &Language) -> &str {
    match language.id.as_str() {
        "python" | "pypy" | "cpython" => "python3",
        "gnu-cpp" => "cpp",
        other => other,
    }
}

/// The files to put beside a submission in `language` of the package in `root`: each file's
/// name and its bytes (constants replaced). Empty when the package has no `include/`.
pub fn files_for(root: &Path, language: &Language) -> Result<Vec<(String, Vec<u8>)>, String> {
    let include = root.join("include");
    if !include.is_dir() {
        return Ok(Vec::new());
    }
    let canonical = root
        .canonicalize()
        .map_err(|e| format!("cannot read `{}`: {e}", root.display()))?;
    let own = include.join(format_code(language));
    let folder: PathBuf = if own.is_dir() {
        own
    } else {
        include.join("default")
    };
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let constants = super::generate::problem_settings(&canonical)
        .map(|(constants, _)| constants)
        .unwrap_or_default();
    let mut files = Vec::new();
    for path in super::sorted_entries(&folder).map_err(|e| e.to_string())? {
        super::check_inside(&canonical, &path).map_err(|e| e.to_string())?;
        if !path.is_file() {
            continue;
        }
        // At most a source file's size, before and after its constants are put in.
        let max = crate::compile::submit::MAX_SOURCE_BYTES;
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .and_then(|file| file.take(max + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        if bytes.len() as u64 > max {
            return Err(format!(
                "`{}` is larger than the {} MiB a source file may be",
                path.display(),
                max >> 20
            ));
        }
        let bytes = match String::from_utf8(bytes) {
            Ok(text) if !constants.is_empty() => {
                crate::compile::program::substitute(&text, &constants, max as usize)
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
        files.push((super::file_name(&path), bytes));
    }
    Ok(files)
}
