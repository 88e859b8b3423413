//! One builder for the temporary projects of the integration tests (after `just`'s `Test`):
//! a test states its files, runs the real `harness` binary in the folder, and asserts.
//!
//! ```ignore
//! let project = Project::new()
//!     .file("judge.toml", TOML)
//!     .case("sum", "01", "1 2\n", "3\n");
//! project.args(["judge", "sum", "a.c"]).stdout_contains("verdict: AC").run();
//! ```

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

use super::expect::Run;

/// A temporary folder holding a project, and beside it a build cache of its own (its
/// `XDG_CACHE_HOME`, so that no test sees another's builds) and a user config home of its own
/// (`XDG_CONFIG_HOME`: empty unless [`Project::user_config`] writes it, so the tester's
/// `~/.config/harness` plays no part); removed when dropped.
pub struct Project {
    dir: tempfile::TempDir,
    cache: tempfile::TempDir,
    config: tempfile::TempDir,
}

impl Default for Project {
    fn default() -> Self {
        Project::new()
    }
}

impl Project {
    /// An empty folder.
    pub fn new() -> Project {
        Project {
            dir: tempfile::tempdir().expect("a temporary folder"),
            cache: tempfile::tempdir().expect("a temporary folder"),
            config: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    /// With `text` at `relative` (folders made as needed).
    pub fn file(self, relative: &str, text: &str) -> Project {
        self.write(relative, text);
        self
    }

    /// With an executable script at `relative`.
    pub fn executable(self, relative: &str, text: &str) -> Project {
        let path = self.write(relative, text);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|error| panic!("cannot chmod `{}`: {error}", path.display()));
        self
    }

    /// With `text` as the user's config file (`harness/config.toml` in the project's own
    /// config home, outside the project).
    pub fn user_config(self, text: &str) -> Project {
        self.write_user_config(text);
        self
    }

    /// Writes the user's config file now (see [`Project::user_config`]).
    pub fn write_user_config(&self, text: &str) {
        let path = self.config_home().join("harness/config.toml");
        fs::create_dir_all(path.parent().expect("a folder"))
            .unwrap_or_else(|error| panic!("cannot make `{}`: {error}", path.display()));
        fs::write(&path, text)
            .unwrap_or_else(|error| panic!("cannot write `{}`: {error}", path.display()));
    }

    /// With the case `cases/<problem>/<name>.in` and its `.ans`.
    pub fn case(self, problem: &str, name: &str, input: &str, answer: &str) -> Project {
        self.add_case(problem, name, input, Some(answer));
        self
    }

    /// With a copy of the folder `from` (a vendored package under `tests/fixtures/`) at
    /// `relative`: its files, folders and symbolic links as they are.
    pub fn tree(self, relative: &str, from: &Path) -> Project {
        copy_tree(from, &self.path().join(relative));
        self
    }

    /// Writes `text` to `relative` now and returns its path.
    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.path().join(relative);
        fs::create_dir_all(path.parent().expect("a file inside the project"))
            .unwrap_or_else(|error| panic!("cannot make the folder of `{relative}`: {error}"));
        fs::write(&path, text).unwrap_or_else(|error| panic!("cannot write `{relative}`: {error}"));
        path
    }

    /// Writes a case now; `answer: None` leaves the `.ans` out.
    pub fn add_case(&self, problem: &str, name: &str, input: &str, answer: Option<&str>) {
        write_case(self.path(), problem, name, input, answer);
    }

    /// The project's folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A path inside the project.
    pub fn join(&self, relative: &str) -> PathBuf {
        self.path().join(relative)
    }

    /// The text of a file inside the project.
    pub fn read(&self, relative: &str) -> String {
        fs::read_to_string(self.join(relative))
            .unwrap_or_else(|error| panic!("cannot read `{relative}`: {error}"))
    }

    /// The real `harness` binary, run in the project without colors, with the project's own
    /// build cache and config home.
    pub fn harness(&self) -> Command {
        Command::from_std(self.process())
    }

    /// The same as a `std::process::Command`, for a test that spawns it and talks to it while
    /// it runs (a server).
    pub fn process(&self) -> std::process::Command {
        let mut command = process_in(self.path());
        command
            .env("XDG_CACHE_HOME", self.cache_home())
            .env("XDG_CONFIG_HOME", self.config_home());
        command
    }

    /// `harness ARGS` in the project, with the expectations the test adds before `.run()`.
    pub fn args<I, S>(&self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        Run::new(self.harness(), args)
    }

    /// The project's `XDG_CONFIG_HOME`: the user's config is `harness/config.toml` below it.
    pub fn config_home(&self) -> &Path {
        self.config.path()
    }

    /// The project's `XDG_CACHE_HOME`: its builds are below `harness/build`.
    pub fn cache_home(&self) -> &Path {
        self.cache.path()
    }

    /// The folder itself, for tests that keep a `TempDir`.
    pub fn into_dir(self) -> tempfile::TempDir {
        self.dir
    }
}

/// Copies the folder `from` to `to`, links kept as links.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to)
        .unwrap_or_else(|error| panic!("cannot make `{}`: {error}", to.display()));
    let entries = fs::read_dir(from)
        .unwrap_or_else(|error| panic!("cannot list `{}`: {error}", from.display()));
    for entry in entries {
        let entry = entry.expect("a readable fixture folder");
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().expect("a fixture file's type");
        if kind.is_symlink() {
            let link = fs::read_link(&source).expect("a readable link");
            std::os::unix::fs::symlink(link, &target).expect("a link in the copy");
        } else if kind.is_dir() {
            copy_tree(&source, &target);
        } else {
            fs::copy(&source, &target)
                .unwrap_or_else(|error| panic!("cannot copy `{}`: {error}", source.display()));
        }
    }
}

/// Writes `cases/<problem>/<name>.in` under `root`, and its `.ans` unless `answer` is `None`.
pub fn write_case(root: &Path, problem: &str, name: &str, input: &str, answer: Option<&str>) {
    let folder = root.join("cases").join(problem);
    fs::create_dir_all(&folder)
        .unwrap_or_else(|error| panic!("cannot make `{}`: {error}", folder.display()));
    fs::write(folder.join(format!("{name}.in")), input).expect("a writable case folder");
    if let Some(answer) = answer {
        fs::write(folder.join(format!("{name}.ans")), answer).expect("a writable case folder");
    }
}

/// The real `harness` binary, run in `dir` without colors. Its builds go to one cache the
/// tests share in the temporary folder, never the user's (a test that must see its own
/// builds uses [`Project::harness`]); the tester's own config file (its languages, its default
/// project) plays no part: a test that wants one sets `XDG_CONFIG_HOME` after this.
pub fn harness_in(dir: &Path) -> Command {
    Command::from_std(process_in(dir))
}

/// [`harness_in`] as a `std::process::Command`.
fn process_in(dir: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_harness"));
    command
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("XDG_CONFIG_HOME", dir.join(".no-user-config"))
        .env_remove("HARNESS_CACHE_DIR")
        .env(
            "XDG_CACHE_HOME",
            std::env::temp_dir().join("harness-tests-cache"),
        );
    command
}
