//! Everything the measurements need, built or found before any clock starts: the release
//! binaries, the two echo programs, and the folders under `target/bench`.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The benchmark's helper programs and scripts, kept beside it in the source tree.
pub const PROGRAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/programs");

pub struct Setup {
    /// The workspace: judge.toml, cases/.
    pub root: PathBuf,
    /// Where the release binaries are (`target/release`).
    pub release: PathBuf,
    /// `target/bench`: scratch folders, the oj venv, results.md.
    pub bench_dir: PathBuf,
    /// The `harness` binary, built by cargo for this bench with the release settings.
    pub harness: PathBuf,
    /// A static C program copying stdin to stdout (dynamic when static linking fails).
    pub echo_c: Program,
    /// The same in Rust.
    pub echo_rs: Program,
}

/// A program under test with the name tables show.
#[derive(Debug, Clone)]
pub struct Program {
    pub label: String,
    pub path: PathBuf,
}

impl Setup {
    pub fn prepare() -> Result<Setup, String> {
        let harness = PathBuf::from(env!("CARGO_BIN_EXE_harness"));
        let release = harness
            .parent()
            .ok_or("the harness binary has no folder")?
            .to_path_buf();
        let target = release.parent().ok_or("the release folder has no parent")?;
        let bench_dir = target.join("bench");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .ok_or("the harness crate has no parent folder")?
            .to_path_buf();
        fs::create_dir_all(bench_dir.join("bin")).map_err(|e| describe("target/bench", e))?;

        eprintln!("building the solutions (cargo build --release -p solutions)");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        run_quietly(
            Command::new(cargo)
                .args(["build", "--release", "--quiet", "-p", "solutions"])
                .current_dir(&root),
        )?;

        let echo_c = build_echo_c(&bench_dir.join("bin"))?;
        let echo_rs = build_echo_rs(&bench_dir.join("bin"))?;
        Ok(Setup {
            root,
            release,
            bench_dir,
            harness,
            echo_c,
            echo_rs,
        })
    }

    /// A solution binary by its name in the solutions crate.
    pub fn solution(&self, name: &str) -> Result<PathBuf, String> {
        let path = self.release.join(name);
        if path.is_file() {
            Ok(path)
        } else {
            Err(format!("no solution binary `{}`", path.display()))
        }
    }
}

fn build_echo_c(out: &Path) -> Result<Program, String> {
    let source = Path::new(PROGRAMS).join("echo.c");
    let path = out.join("echo-c");
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let compile = |extra: &[&str]| {
        run_quietly(
            Command::new(&cc)
                .args(["-O2"])
                .args(extra)
                .arg("-o")
                .arg(&path)
                .arg(&source),
        )
    };
    // Static: no dynamic loader, so its spawn is the kernel's cost alone.
    match compile(&["-static"]) {
        Ok(()) => Ok(Program {
            label: "echo (C, static)".into(),
            path,
        }),
        Err(_) => {
            compile(&[])?;
            Ok(Program {
                label: "echo (C, dynamic: static linking failed)".into(),
                path,
            })
        }
    }
}

fn build_echo_rs(out: &Path) -> Result<Program, String> {
    let path = out.join("echo-rs");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    run_quietly(
        Command::new(rustc)
            .args(["--edition", "2021", "-C", "opt-level=3", "-o"])
            .arg(&path)
            .arg(Path::new(PROGRAMS).join("echo.rs")),
    )?;
    Ok(Program {
        label: "echo (Rust)".into(),
        path,
    })
}

/// Runs a set-up command; its output is shown only when it fails.
pub fn run_quietly(command: &mut Command) -> Result<(), String> {
    let shown = format!(
        "{} {}",
        command.get_program().to_string_lossy(),
        command
            .get_args()
            .map(OsStr::to_string_lossy)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{shown}` failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

#[expect(
    clippy::needless_pass_by_value,
    reason = "the shape of a map_err callback: `.map_err(|e| describe(what, e))`"
)]
pub fn describe(what: &str, error: std::io::Error) -> String {
    format!("{what}: {error}")
}
