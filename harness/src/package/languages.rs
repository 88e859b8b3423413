//! The languages a package's submissions and validators may be written in, when judge.toml
//! does not name them: the ones problemtools and DOMjudge judge, with their usual flags. A
//! language whose toolchain is not on this machine makes its submissions "skipped", never an
//! error.

use std::path::Path;
use std::sync::LazyLock;

use crate::compile::Language;

/// The package formats' languages, in judge.toml's `[languages]` syntax.
const TABLE: &str = include_str!("languages.toml");

/// The interpreter a package's Python 3 runs with here: PyPy when `pypy3` is installed, as
/// problemtools, BAPCtools and Kattis run it (languages.yaml: python3 = "Python 3 (w/PyPy3)",
/// `pypy3 "{mainfile}"`), else CPython, which is several times slower on loops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackagePython {
    PyPy(std::path::PathBuf),
    CPython(std::path::PathBuf),
    /// Neither: Python submissions are skipped, saying why.
    Missing,
}

impl PackagePython {
    /// Looks the interpreters up on PATH.
    pub fn here() -> PackagePython {
        let find = |name: &str| crate::sandbox::run::find_program(Path::new(name)).ok();
        if let Some(path) = find("pypy3") {
            PackagePython::PyPy(path)
        } else if let Some(path) = find("python3") {
            PackagePython::CPython(path)
        } else {
            PackagePython::Missing
        }
    }

    /// The one-line note for when packages' Python cannot run as their tools run it.
    pub fn note(&self) -> Option<String> {
        match self {
            PackagePython::PyPy(_) => None,
            PackagePython::CPython(_) => Some(
                "packages' Python runs with CPython here: pypy3 is not installed, and problemtools, BAPCtools and Kattis run `.py` with PyPy, often several times faster (hint: apt install pypy3)"
                    .to_string(),
            ),
            PackagePython::Missing => Some(
                "packages' Python cannot run here: neither pypy3 nor python3 is installed (hint: apt install pypy3)".to_string(),
            ),
        }
    }
}

/// The built-in table (languages.toml beside this file says whose flags), with Python 3 as
/// `python` says: PyPy where it is installed, else the judge's own CPython entry (it links
/// the real interpreter, so a version manager's shim is not timed) without the judge's
/// multiplier. Python files are Python 3 unless their first line names python2 (see
/// [`language_of`]).
pub fn builtin(python: &PackagePython) -> Vec<Language> {
    static TABLE_READ: LazyLock<Vec<Language>> = LazyLock::new(|| {
        crate::config::languages::tables(TABLE, Path::new("package/languages.toml"))
            .expect("the package languages table is checked by its tests")
    });
    let mut table = TABLE_READ.clone();
    if !matches!(python, PackagePython::PyPy(_)) {
        let cpython = crate::config::languages::builtin()
            .into_iter()
            .find(|l| l.id == "python")
            .expect("the judge has a Python entry");
        if let Some(python3) = table.iter_mut().find(|l| l.id == "python3") {
            *python3 = Language {
                id: python3.id.clone(),
                name: "Python 3 (CPython: pypy3 is not installed)".to_string(),
                extensions: python3.extensions.clone(),
                time_multiplier: 1.0,
                ..cpython
            };
        }
    }
    table
}

/// Whether the file's first line asks for Python 2 (`#!/usr/bin/env python2`), the way
/// problemtools and DOMjudge tell the two apart.
pub fn is_python2(source: &Path) -> bool {
    let Ok(text) = std::fs::read(source) else {
        return false;
    };
    let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
    first.starts_with(b"#!") && String::from_utf8_lossy(first).contains("python2")
}

/// The language of a source file among `table`: by its extension, except that a `.py` whose
/// first line asks for python2 is Python 2. A folder's is the language most of its files are
/// in ([`language_of_folder`]). `Err` says why none fits.
pub fn language_of<'a>(table: &'a [Language], source: &Path) -> Result<&'a Language, String> {
    if source.is_dir() {
        return language_of_folder(table, source);
    }
    let extension = source
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    if extension == "py" && is_python2(source) {
        return table
            .iter()
            .find(|l| l.id == "python2" || l.id == "python")
            .filter(|l| l.id == "python2")
            .ok_or_else(|| {
                "Python 2 (its first line asks for python2): no such language here".to_string()
            });
    }
    let lower = extension.to_ascii_lowercase();
    table
        .iter()
        .find(|l| l.extensions.iter().any(|e| e == extension))
        .or_else(|| table.iter().find(|l| l.extensions.contains(&lower)))
        .ok_or_else(|| {
            if extension.is_empty() {
                "no extension to tell its language by".to_string()
            } else {
                format!("no language for `.{extension}` files here")
            }
        })
}

/// problemtools' `priority` of a language (config/languages.yaml): which of two languages with
/// as many files in a folder it is taken to be in.
fn priority(id: &str) -> u32 {
    match id {
        "cpp" => 1000,
        "c" => 950,
        "python2" => 860,
        "python3" => 850,
        "java" => 800,
        "javascript" => 500,
        "go" => 400,
        "kotlin" => 250,
        "rust" => 575,
        _ => 0,
    }
}

/// The language of a submission folder, as problemtools' `detect_language` picks it: the one
/// with the most files in the folder (its regular files, not below it), the higher priority
/// when two have as many (`.c` and `.cpp` files: C++).
pub fn language_of_folder<'a>(
    table: &'a [Language],
    folder: &Path,
) -> Result<&'a Language, String> {
    let entries = std::fs::read_dir(folder)
        .map_err(|e| format!("cannot read the folder `{}`: {e}", folder.display()))?;
    let mut counts: Vec<(&'a Language, usize)> = Vec::new();
    for entry in entries.flatten() {
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if hidden || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Ok(language) = language_of(table, &entry.path()) else {
            continue;
        };
        match counts.iter_mut().find(|(l, _)| l.id == language.id) {
            Some((_, count)) => *count += 1,
            None => counts.push((language, 1)),
        }
    }
    counts
        .into_iter()
        .max_by_key(|(language, count)| (*count, priority(&language.id)))
        .map(|(language, _)| language)
        .ok_or_else(|| "the folder has no source file of a language known here".to_string())
}

/// Whether the language's toolchain works on this machine: its programs are on PATH and
/// Python answers `--version` (a version manager's shim for an uninstalled Python does not).
pub fn available(language: &Language) -> Result<(), String> {
    crate::compile::submit::check_tools(language).map_err(|e| e.to_string())?;
    let interpreter = language
        .run
        .first()
        .filter(|p| p.starts_with("python") || p.starts_with("pypy"));
    if let Some(program) = interpreter {
        let args = [std::ffi::OsString::from("--version")];
        let limits = crate::sandbox::run::Limits {
            cpu_time: std::time::Duration::from_secs(10),
            wall_time: std::time::Duration::from_secs(20),
            memory_bytes: 1 << 30,
            output_bytes: 1 << 16,
        };
        let request = crate::sandbox::run::RunRequest::new(Path::new(program), limits)
            .args(&args)
            .scope(crate::sandbox::run::Scope::Group);
        let works = crate::sandbox::run::run(&request)
            .is_ok_and(|r| r.termination == crate::sandbox::run::Termination::Exited(0));
        if !works {
            return Err(format!(
                "`{program}` is on PATH but does not run (`{program} --version` failed)"
            ));
        }
    }
    Ok(())
}
