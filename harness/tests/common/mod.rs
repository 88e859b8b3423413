//! Fixture programs for the integration tests: small C files in `tests/fixtures`, each
//! misbehaving in one way, compiled once per test binary with the system C compiler.
//!
//! Use from a test file with `mod common;` and `common::fixture("echo-sum")`; temporary
//! projects come from `common::project::Project`.
#![allow(
    dead_code,
    reason = "each test binary compiles this module on its own and uses only part of it"
)]

pub mod browser;
pub mod expect;
pub mod project;
pub mod serve;

use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const SOURCES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// The C and Python language tables of the submission tests' judge.toml files: the system C
/// compiler and python3, so the tests judge real sources without the repository's settings.
pub const C_AND_PYTHON: &str = r#"
[languages.c]
name = "C11"
extensions = ["c"]
compile = ["cc", "-O2", "-o", "{exe}", "{source}"]
run = ["{exe}"]

[languages.python]
name = "Python 3"
extensions = ["py"]
compile = ["python3", "-m", "py_compile", "{source}"]
run = ["python3", "{source}"]
"#;

/// The compiled fixture `name` (the stem of `tests/fixtures/<name>.c`).
///
/// Fixtures that are meant to be right print `3\n` for the input `1 2\n`.
pub fn fixture(name: &str) -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let path = BUILT.get_or_init(build_all).join(name);
    assert!(
        path.is_file(),
        "no fixture `{name}` (hint: add `tests/fixtures/{name}.c`)"
    );
    path
}

/// The C source of fixture `name`, for tests that hand it to the harness as a submission
/// (the harness compiles it itself).
pub fn fixture_source(name: &str) -> PathBuf {
    let path = Path::new(SOURCES).join(format!("{name}.c"));
    assert!(
        path.is_file(),
        "no fixture `{name}` (hint: add `tests/fixtures/{name}.c`)"
    );
    path
}

/// Compiles every fixture into the target folder, all at once: one compile per C file,
/// started together so the first test waits for the slowest compile, not their sum.
fn build_all() -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixtures");
    fs::create_dir_all(&out)
        .unwrap_or_else(|error| panic!("cannot make `{}`: {error}", out.display()));
    let cc = std::env::var_os("CC").unwrap_or_else(|| OsString::from("cc"));
    let mut sources: Vec<PathBuf> = fs::read_dir(SOURCES)
        .unwrap_or_else(|error| panic!("cannot list `{SOURCES}`: {error}"))
        .map(|entry| entry.expect("a readable fixtures folder").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    sources.sort();

    let compiles: Vec<_> = sources
        .iter()
        .map(|source| {
            let name = source.file_stem().expect("a fixture file name");
            // Other test binaries may be running these very programs: write elsewhere and
            // rename into place, so nobody execs a half-written file.
            let mut partial = name.to_os_string();
            partial.push(format!(".{}.partial", std::process::id()));
            let partial = out.join(partial);
            let child = Command::new(&cc)
                .arg("-O2")
                .arg("-o")
                .arg(&partial)
                .arg(source)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|error| match error.kind() {
                    ErrorKind::NotFound => panic!(
                        "no C compiler `{}`: the integration tests compile their fixture \
                         programs from C (hint: install gcc or clang, or set CC)",
                        cc.to_string_lossy()
                    ),
                    _ => panic!("cannot start `{}`: {error}", cc.to_string_lossy()),
                });
            (source, out.join(name), partial, child)
        })
        .collect();

    for (source, target, partial, child) in compiles {
        let output = child
            .wait_with_output()
            .expect("a C compiler that can be waited for");
        assert!(
            output.status.success(),
            "cannot compile fixture `{}` ({}):\n{}",
            source.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        fs::rename(&partial, &target).unwrap_or_else(|error| {
            panic!("cannot move `{}` into place: {error}", target.display())
        });
    }
    out
}

/// Process ids whose command line starts with `program`; a zombie (dead, waiting to be
/// reaped) does not count.
pub fn processes_running(program: &Path) -> Vec<u32> {
    let wanted = program.to_string_lossy().into_owned();
    fs::read_dir("/proc")
        .expect("a readable /proc")
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let state = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let zombie = state
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z'));
            !zombie && String::from_utf8_lossy(&cmdline).starts_with(&wanted)
        })
        .collect()
}

/// The peak resident size `/usr/bin/time -f %M` gives for `program` on `input`, in bytes: the
/// least of three runs (a run may be disturbed). `None` without GNU time.
pub fn time_max_rss(program: &Path, input: &str) -> Option<u64> {
    (0..3)
        .filter_map(|_| {
            let dir = tempfile::tempdir().unwrap();
            let report = dir.path().join("time");
            let input_file = dir.path().join("in");
            std::fs::write(&input_file, input).unwrap();
            let status = std::process::Command::new("/usr/bin/time")
                .arg("-f")
                .arg("%M")
                .arg("-o")
                .arg(&report)
                .arg(program)
                .stdin(std::fs::File::open(&input_file).unwrap())
                .stdout(std::process::Stdio::null())
                .status()
                .ok()?;
            let kib: u64 = std::fs::read_to_string(&report).ok()?.trim().parse().ok()?;
            status.success().then_some(kib * 1024)
        })
        .min()
}

/// Busy loops beside a test, `per_core` for each core this process may use, stopped (by
/// their pids) when dropped: a machine as loaded as a stress run or other jobs make it.
pub struct Load(Vec<std::process::Child>);

impl Load {
    pub fn new(per_core: usize) -> Load {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let spin = fixture("spin");
        let hogs = (0..per_core * cores)
            .map(|_| {
                Command::new(&spin)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap_or_else(|error| panic!("cannot start `{}`: {error}", spin.display()))
            })
            .collect();
        Load(hogs)
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for hog in &mut self.0 {
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}

/// testlib.h for a test that compiles against it: the file `HARNESS_TESTLIB_H` names, else
/// `target/testlib/testlib.h`, which `.ci/install-testlib` (the script `.ci/install-tools`
/// runs) fetches here on a fresh clone. Where it cannot be had, the test fails under CI; on a
/// developer's machine it says `skipped: …` on the test command's own output and gets
/// `None`, so that a test that did not run never passes unseen.
pub fn testlib_h_or_skip(test: &str) -> Option<PathBuf> {
    match testlib_h() {
        Ok(path) => Some(path),
        Err(why) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "testlib.h not found ({why}): CI runs .ci/install-tools, which installs it"
            );
            skipped(&format!("{test}: testlib.h not found ({why})"));
            None
        }
    }
}

/// testlib.h, fetched once per test binary when it is missing; why not, when it cannot be.
fn testlib_h() -> Result<PathBuf, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            if let Some(path) = std::env::var_os("HARNESS_TESTLIB_H") {
                let path = PathBuf::from(path);
                if path.is_file() {
                    return Ok(path);
                }
                return Err(format!("HARNESS_TESTLIB_H names `{}`", path.display()));
            }
            let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let path = repo.join("target/testlib/testlib.h");
            if path.is_file() {
                return Ok(path);
            }
            let script = repo.join(".ci/install-testlib");
            let output = Command::new("bash")
                .arg(&script)
                .stdin(Stdio::null())
                .output()
                .map_err(|error| format!("cannot run `{}`: {error}", script.display()))?;
            let said = String::from_utf8_lossy(&output.stderr);
            match (output.status.success(), path.is_file()) {
                (true, true) => Ok(path),
                _ => Err(format!(
                    "{}; run .ci/install-tools, or set HARNESS_TESTLIB_H",
                    said.trim().lines().last().unwrap_or("no message")
                )),
            }
        })
        .clone()
}

/// Says that a test did not run, where `cargo test` shows it: on stderr itself, which the
/// test harness does not capture (it captures `eprintln!`, which only `--nocapture` shows).
pub fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// A real testlib interactor, as Codeforces writes them: the secret from `inf` (read with its
/// range, so a bad input is testlib's own FAIL), guesses from `ouf`, the number found to
/// `tout` for the checker.
pub const GUESS_TESTLIB_CPP: &str = r#"#include "testlib.h"
#include <iostream>

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    int secret = inf.readInt(1, 1000, "secret");
    for (int guesses = 1; guesses <= 10; guesses++) {
        int guess = ouf.readInt(1, 1000, "guess");
        if (guess == secret) {
            std::cout << "correct" << std::endl;
            tout << guess << std::endl;
            quitf(_ok, "found %d in %d guesses", secret, guesses);
        }
        std::cout << (guess < secret ? "higher" : "lower") << std::endl;
    }
    quitf(_wa, "no correct guess in 10 guesses");
}
"#;

/// problemtools' example packages (`oddecho`, its scoring example), which
/// `.ci/install-problemtools-examples` (run by `.ci/install-tools`) puts at
/// `target/problemtools-examples/` from problemtools' sdist. Where they cannot be had, the
/// test fails under CI; elsewhere it says `skipped: …` and gets `None`.
pub fn problemtools_examples_or_skip(test: &str) -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let examples = repo.join("target/problemtools-examples");
    if !examples.join("oddecho/data").is_dir() {
        let script = repo.join(".ci/install-problemtools-examples");
        let output = Command::new("bash")
            .arg(&script)
            .stdin(Stdio::null())
            .output();
        let why = match &output {
            Ok(output) => String::from_utf8_lossy(&output.stderr).trim().to_string(),
            Err(error) => format!("cannot run `{}`: {error}", script.display()),
        };
        if !examples.join("oddecho/data").is_dir() {
            assert!(
                std::env::var_os("CI").is_none(),
                "problemtools' examples not found ({why}): CI runs .ci/install-tools, which installs them"
            );
            skipped(&format!("{test}: problemtools' examples not found ({why})"));
            return None;
        }
    }
    Some(examples)
}
