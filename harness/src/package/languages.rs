//! The languages a package's submissions and validators may be written in, when judge.toml
//! does not name them: the ones problemtools and DOMjudge judge, with their usual flags. A
//! language whose toolchain is not on this machine makes its submissions "skipped", never an
//! error.

use std::path::Path;

use crate::config::Language;

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
        compile_limits: crate::config::CompileLimits::default(),
        sandbox: Default::default(),
    }
}

/// A JVM class runs from the folder javac wrote it to; the build writes `{exe}` as a
/// two-line launcher that `exec`s the JVM there, so the JVM is what the runner measures.
/// A JVM class runs from the folder javac wrote it to; the build writes `{exe}` as a small
/// launcher that `exec`s the JVM there, so the JVM is what the runner measures. A JVM reserves
/// far more address space than it uses and dies before `main` under the runner's address-space
/// backstop (problemtools #38): the launcher sizes the heap and the reservations to fit it.
const JAVA_COMPILE: &str = r#"set -e; dir=$(dirname "$2"); javac -encoding UTF-8 -d "$dir" "$1"; class=$(basename "$1" .java); printf '%s\n' '#!/bin/sh' "$(launcher "$dir" "$class")" > "$2"; chmod +x "$2""#;
const KOTLIN_COMPILE: &str = r#"set -e; dir=$(dirname "$2"); kotlinc -nowarn -include-runtime -d "$dir/k.jar" "$1" 2>&1; stem=$(basename "$1" .kt); class="$(printf '%s' "${stem%"${stem#?}"}" | tr a-z A-Z)${stem#?}Kt"; printf '%s\n' '#!/bin/sh' "$(launcher "$dir/k.jar" "$class")" > "$2"; chmod +x "$2""#;
/// Defines `launcher CLASSPATH CLASS`, which prints the launcher's command line.
const JVM_LAUNCHER: &str = r#"launcher() { printf 'limit=$(ulimit -v); heap=1024; if [ "$limit" != unlimited ]; then heap=$((limit / 1024 - 2048)); [ $heap -gt 64 ] || heap=64; fi; exec java -Xmx${heap}m -Xss64m -XX:ReservedCodeCacheSize=64m -XX:CompressedClassSpaceSize=64m -XX:+UseSerialGC -cp "%s" "%s"' "$1" "$2"; }; "#;

/// The built-in table. Python files are Python 3 unless their first line names python2
/// (see [`language_of`]).
pub fn builtin() -> Vec<Language> {
    vec![
        language(
            "c",
            "C",
            &["c"],
            Some(&["gcc", "-O2", "-std=gnu11", "-o", "{exe}", "{source}", "-lm"]),
            &["{exe}"],
        ),
        language(
            "cpp",
            "C++",
            &["cpp", "cc", "cxx", "c++", "C"],
            Some(&["g++", "-O2", "-std=gnu++17", "-o", "{exe}", "{source}"]),
            &["{exe}"],
        ),
        language(
            "python3",
            "Python 3",
            &["py", "py3"],
            Some(&["python3", "-m", "py_compile", "{source}"]),
            &["python3", "{source}"],
        ),
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
            Some(&[
                "sh",
                "-c",
                &format!("{JVM_LAUNCHER}{JAVA_COMPILE}"),
                "javac",
                "{source}",
                "{exe}",
            ]),
            &["{exe}"],
        ),
        language(
            "kotlin",
            "Kotlin",
            &["kt"],
            Some(&[
                "sh",
                "-c",
                &format!("{JVM_LAUNCHER}{KOTLIN_COMPILE}"),
                "kotlinc",
                "{source}",
                "{exe}",
            ]),
            &["{exe}"],
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
/// first line asks for python2 is Python 2. `Err` says why none fits.
pub fn language_of<'a>(table: &'a [Language], source: &Path) -> Result<&'a Language, String> {
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

/// Programs a language needs that its commands do not start directly (they run through
/// `sh -c` or a launcher the build writes).
fn hidden_tools(id: &str) -> &'static [&'static str] {
    match id {
        "java" => &["javac", "java"],
        "kotlin" => &["kotlinc", "java"],
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
    let interpreter = language.run.first().filter(|p| p.starts_with("python"));
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
