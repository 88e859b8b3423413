//! The languages a package's submissions and validators may be written in, when judge.toml
//! does not name them: the ones problemtools and DOMjudge judge, with their usual flags. A
//! language whose toolchain is not on this machine makes its submissions "skipped", never an
//! error.

use std::path::Path;

use crate::compile::Language;

fn language(
    id: &str,
    name: &str,
    extensions: &[&str],
    compile: Option<&[&str]>,
    run: &[&str],
) -> Language {
    let strings = |parts: &[&str]| parts.iter().map(ToString::to_string).collect::<Vec<_>>();
    Language {
        id: id.to_string(),
        name: name.to_string(),
        extensions: strings(extensions),
        compile: compile.map(strings),
        run: strings(run),
        time_multiplier: 1.0,
        compile_limits: crate::compile::CompileLimits::default(),
        sandbox: Default::default(),
    }
}

/// Java and Kotlin as problemtools starts them (problemtools/config/languages.yaml): javac
/// compiles the file as it is named, and the class run is the one named after the file
/// (`{mainclass}`: `Sol.java` runs `Sol`; a `public class Main` in it does not compile), with
/// `java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -Xss64m -Xms{memlim}m -Xmx{memlim}m`. The
/// sandbox shows a program only its own file, so the classes are packed into `{exe}` as a jar
/// whose manifest names that class, and `-jar {exe}` stands for `-cp {path} {mainclass}`.
/// problemtools runs the JVM with no address-space limit (`should_skip_memory_rlimit`); the
/// sandbox keeps one 2 GiB above the memory limit as a backstop, in which a JVM with its
/// default 1 GiB class space and 240 MiB code cache cannot start its threads: those two
/// reservations are kept small, which changes nothing a program sees.
const JAVA_COMPILE: &str = r#"set -e; dir=$(dirname "$2"); mkdir "$dir/classes"; javac -encoding UTF-8 -sourcepath "$dir" -d "$dir/classes" "$1"; jar --create --file "$2" --main-class "$(basename "$1" .java)" -C "$dir/classes" ."#;
/// Kotlin: problemtools compiles with `kotlinc -d {path}/ -- {files}` and runs `kotlin … -cp
/// {path}/ {Mainclass}Kt`; here kotlinc packs the classes with the Kotlin runtime into one jar
/// (its manifest names that main class), run by the JVM with the same options. problemtools
/// also passes `-language-version 1.3`, which kotlinc 2.x refuses; BAPCtools dropped it, and
/// so does this.
const KOTLIN_COMPILE: &str =
    r#"set -e; kotlinc -nowarn -include-runtime -d "$2.jar" -- "$1" 2>&1; mv "$2.jar" "$2""#;

/// The JVM as problemtools runs it, with the two reservations that fit the backstop.
fn jvm_run() -> Vec<&'static str> {
    vec![
        "java",
        "-Dfile.encoding=UTF-8",
        "-XX:+UseSerialGC",
        "-Xss64m",
        "-Xms{memory-mib}m",
        "-Xmx{memory-mib}m",
        "-XX:ReservedCodeCacheSize=64m",
        "-XX:CompressedClassSpaceSize=64m",
        "-jar",
        "{exe}",
    ]
}

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

/// The built-in table: the languages as problemtools' languages.yaml runs them, with no
/// time multiplier (the format has one time limit for every language). C and C++ take the
/// standards of problemtools' and BAPCtools' languages.yaml (`-std=gnu17`, `-std=gnu++23`:
/// valid C++20 such as `std::views` is CE under gnu++17), and, as their `{files}` does, every
/// file of the language in the submission's folder and the package's `include/` is compiled
/// with `{source}` (`compile::program`). `-static` and `-g` are left out: neither changes
/// what a program computes, and a static libstdc++ is often not installed. Python files are
/// Python 3, with PyPy when `python` says so, unless their first line names python2 (see
/// [`language_of`]).
pub fn builtin(python: &PackagePython) -> Vec<Language> {
    let python3 = match python {
        PackagePython::PyPy(_) => language(
            "python3",
            "Python 3 (PyPy)",
            &["py", "py3"],
            Some(&["pypy3", "-m", "py_compile", "{source}"]),
            &["pypy3", "{source}"],
        ),
        // The judge's own CPython entry (it links the real interpreter, so a version
        // manager's shim is not timed), without the judge's multiplier.
        PackagePython::CPython(_) | PackagePython::Missing => {
            let mut cpython = crate::compile::languages::builtin()
                .into_iter()
                .find(|l| l.id == "python")
                .expect("the judge has a Python entry");
            cpython.id = "python3".to_string();
            cpython.name = "Python 3 (CPython: pypy3 is not installed)".to_string();
            cpython.extensions = vec!["py".to_string(), "py3".to_string()];
            cpython.time_multiplier = 1.0;
            cpython
        }
    };
    vec![
        language(
            "c",
            "C",
            &["c"],
            Some(&["gcc", "-O2", "-std=gnu17", "-o", "{exe}", "{source}", "-lm"]),
            &["{exe}"],
        ),
        language(
            "cpp",
            "C++",
            &["cpp", "cc", "cxx", "c++", "C"],
            Some(&["g++", "-O2", "-std=gnu++23", "-o", "{exe}", "{source}"]),
            &["{exe}"],
        ),
        python3,
        language(
            "python2",
            "Python 2",
            &["py2"],
            None,
            &["python2", "{source}"],
        ),
        language(
            "java",
            "Java",
            &["java"],
            Some(&["sh", "-c", JAVA_COMPILE, "javac", "{source}", "{exe}"]),
            &jvm_run(),
        ),
        language(
            "kotlin",
            "Kotlin",
            &["kt"],
            Some(&["sh", "-c", KOTLIN_COMPILE, "kotlinc", "{source}", "{exe}"]),
            &jvm_run(),
        ),
        language(
            "go",
            "Go",
            &["go"],
            Some(&["go", "build", "-o", "{exe}", "{source}"]),
            &["{exe}"],
        ),
        // glibc sizes every new thread's stack by RLIMIT_STACK, which the runner raises to
        // the memory limit: Node's worker threads would then not fit in the address space,
        // and reading stdin (done on a worker) would wait for ever. Its own JS stack is set
        // by V8, not the rlimit, so a 64 MiB soft limit changes nothing else.
        language(
            "javascript",
            "JavaScript (Node.js)",
            &["js"],
            None,
            &[
                "sh",
                "-c",
                "ulimit -s 65536 && exec node \"$0\"",
                "{source}",
            ],
        ),
        // Kattis and BAPCtools judge Bash scripts (`.sh`); the script is its own program.
        language("bash", "Bash", &["sh", "bash"], None, &["bash", "{source}"]),
        language(
            "rust",
            "Rust",
            &["rs"],
            Some(&[
                "rustc",
                "-O",
                "--edition",
                "2021",
                "-o",
                "{exe}",
                "{source}",
            ]),
            &["{exe}"],
        ),
    ]
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

/// Programs a language needs that its commands do not start directly (they run through
/// `sh -c` or a launcher the build writes).
fn hidden_tools(id: &str) -> &'static [&'static str] {
    match id {
        "java" => &["javac", "jar"],
        "kotlin" => &["kotlinc"],
        "javascript" => &["node"],
        _ => &[],
    }
}

/// Whether the language's toolchain works on this machine: its programs are on PATH and
/// Python answers `--version` (a version manager's shim for an uninstalled Python does not).
pub fn available(language: &Language) -> Result<(), String> {
    crate::compile::submit::check_tools(language).map_err(|e| e.to_string())?;
    for tool in hidden_tools(&language.id) {
        crate::compile::submit::check_tools(&Language {
            compile: None,
            run: vec![tool.to_string()],
            ..language.clone()
        })
        .map_err(|e| e.to_string())?;
    }
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
