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
