//! Which language a source file is in: `--lang` if given, else its extension, looked up in
//! the problem's languages table (built-ins, the user's config, judge.toml).

use std::path::Path;

use super::settings::Config;
use crate::compile::submit::SubmitError;
use crate::compile::Language;

/// The language of `source`: `--lang` if given, else by the file's extension.
pub fn detect_language<'a>(
    config: &'a Config,
    source: &Path,
    lang: Option<&str>,
) -> Result<&'a Language, SubmitError> {
    let known = || {
        config
            .languages
            .iter()
            .map(|l| match l.extensions.is_empty() {
                // Picked by --lang only (pypy: `.py` is python's).
                true => l.id.clone(),
                false => format!("{} (.{})", l.id, l.extensions.join(", .")),
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    if let Some(name) = lang {
        return config
            .languages
            .iter()
            .find(|l| l.id == name)
            .ok_or_else(|| SubmitError::UnknownLanguage {
                name: name.to_string(),
                known: known(),
                where_: if config.path.is_file() {
                    " in judge.toml"
                } else {
                    ""
                },
                by_extension: config
                    .languages
                    .iter()
                    .find(|l| {
                        l.extensions
                            .iter()
                            .any(|e| e.eq_ignore_ascii_case(name.trim_start_matches('.')))
                    })
                    .map(|l| format!(": `{name}` is an extension of {id}, --lang {id}", id = l.id))
                    .unwrap_or_default(),
            });
    }
    // The exact spelling first (`.C` is C++, `.c` is C), then any case (`A.CPP`).
    let extension = source
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    let exact = config
        .languages
        .iter()
        .find(|l| l.extensions.iter().any(|e| e == extension));
    exact
        .or_else(|| {
            config.languages.iter().find(|l| {
                l.extensions
                    .iter()
                    .any(|e| e.eq_ignore_ascii_case(extension))
            })
        })
        .filter(|_| !extension.is_empty())
        .ok_or_else(|| SubmitError::UnknownExtension {
            path: source.to_path_buf(),
            known: known(),
        })
}

/// The language of a submission to judge: as [`detect_language`], and, where no extension
/// says, a program the user already built or a script that names its interpreter is judged as
/// it is (`harness judge ./a.out`). The author's programs and a problem's solution keep
/// running in place instead (a script beside the files it reads keeps them).
pub fn detect_submission_language<'a>(
    config: &'a Config,
    source: &Path,
    lang: Option<&str>,
) -> Result<&'a Language, SubmitError> {
    detect_language(config, source, lang).or_else(|error| {
        let prebuilt = lang.is_none() && is_prebuilt(source);
        prebuilt
            .then(|| {
                config
                    .languages
                    .iter()
                    .find(|l| l.id == crate::compile::languages::EXECUTABLE)
            })
            .flatten()
            .ok_or(error)
    })
}

/// Whether `path` is a file the user can run as it is: executable, and an ELF binary or a
/// script with a `#!` line (a text file that happens to be executable is not).
fn is_prebuilt(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::io::Read;
        use std::os::unix::fs::PermissionsExt;
        let Ok(meta) = std::fs::metadata(path) else {
            return false;
        };
        if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
            return false;
        }
        let mut start = [0u8; 4];
        let read = std::fs::File::open(path).and_then(|mut file| file.read(&mut start));
        matches!(read, Ok(n) if n >= 2 && (start.starts_with(b"#!") || (n == 4 && &start == b"\x7fELF")))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}
