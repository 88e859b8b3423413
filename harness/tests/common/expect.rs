//! A command of the real `harness` binary with what it must do, checked all at once (after
//! `just`'s `Test`): a test states the arguments, the exit code and the text it expects, and a
//! failed expectation shows the whole of both streams.
//!
//! ```ignore
//! project
//!     .args(["judge", "sum", "wrong.c"])
//!     .status(1)
//!     .stdout_contains("verdict: WA")
//!     .run();
//! ```

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;

/// The arguments of `harness` alone (which judges every problem of the project).
pub const NO_ARGUMENTS: [&str; 0] = [];

/// The command and its expectations; nothing runs until [`Run::run`].
#[must_use = "a `Run` does nothing until `.run()`"]
pub struct Run {
    command: Command,
    described: String,
    /// `None` accepts any exit code (a test that reads it from [`Ran::status`]).
    status: Option<i32>,
    stdout: Option<String>,
    stderr: Option<String>,
    contains: Vec<(Stream, String)>,
    lacks: Vec<(Stream, String)>,
}

#[derive(Clone, Copy, Debug)]
enum Stream {
    Stdout,
    Stderr,
}

/// What a command did, for the assertions a test adds after [`Run::run`].
#[derive(Debug)]
pub struct Ran {
    /// The exit code; `None` when a signal ended it.
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// `command` run with `args`, expected to exit 0 unless [`Run::status`] says otherwise.
    pub fn new<I, S>(mut command: Command, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let described = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        command.args(&args);
        Run {
            command,
            described: format!("harness {described}"),
            status: Some(0),
            stdout: None,
            stderr: None,
            contains: Vec::new(),
            lacks: Vec::new(),
        }
    }

    /// One more argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Run {
        let _ = write!(self.described, " {}", arg.as_ref().to_string_lossy());
        self.command.arg(arg);
        self
    }

    /// More arguments.
    pub fn args<I, S>(mut self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        for arg in args {
            self = self.arg(arg);
        }
        self
    }

    /// The variable `key` set to `value` for the command.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Run {
        self.command.env(key, value);
        self
    }

    /// The variable `key` left out of the command's environment.
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Run {
        self.command.env_remove(key);
        self
    }

    /// Run in `dir` instead of the project's folder.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Run {
        self.command.current_dir(dir);
        self
    }

    /// `text` as the command's standard input (else it reads an empty one).
    pub fn stdin(mut self, text: impl Into<Vec<u8>>) -> Run {
        self.command.write_stdin(text);
        self
    }

    /// The command is killed after `limit` (a backstop against a hung judge, never a timing
    /// assertion: a killed command fails every status expectation).
    pub fn timeout(mut self, limit: Duration) -> Run {
        self.command.timeout(limit);
        self
    }

    /// The exit code it must end with (0 unless told).
    pub fn status(mut self, code: i32) -> Run {
        self.status = Some(code);
        self
    }

    /// Any exit code will do; the test reads [`Ran::status`] itself.
    pub fn any_status(mut self) -> Run {
        self.status = None;
        self
    }

    /// Its whole standard output.
    pub fn stdout(mut self, text: &str) -> Run {
        self.stdout = Some(text.to_owned());
        self
    }

    /// Its whole standard error.
    pub fn stderr(mut self, text: &str) -> Run {
        self.stderr = Some(text.to_owned());
        self
    }

    /// Text its standard output must hold.
    pub fn stdout_contains(mut self, text: &str) -> Run {
        self.contains.push((Stream::Stdout, text.to_owned()));
        self
    }

    /// Text its standard error must hold.
    pub fn stderr_contains(mut self, text: &str) -> Run {
        self.contains.push((Stream::Stderr, text.to_owned()));
        self
    }

    /// Text its standard output must not hold.
    pub fn stdout_lacks(mut self, text: &str) -> Run {
        self.lacks.push((Stream::Stdout, text.to_owned()));
        self
    }

    /// Text its standard error must not hold.
    pub fn stderr_lacks(mut self, text: &str) -> Run {
        self.lacks.push((Stream::Stderr, text.to_owned()));
        self
    }

    /// Runs the command and checks every expectation, panicking with all that failed and the
    /// whole of both streams.
    pub fn run(mut self) -> Ran {
        let output = self
            .command
            .output()
            .unwrap_or_else(|error| panic!("cannot run `{}`: {error}", self.described));
        let ran = Ran {
            status: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        let failures = self.failures(&ran);
        if !failures.is_empty() {
            panic!(
                "`{}` did not do what the test expects:\n{}\n--- status: {}\n--- stdout:\n{}\n--- stderr:\n{}",
                self.described,
                failures.join("\n"),
                ran.status
                    .map_or_else(|| "killed by a signal".to_owned(), |c| c.to_string()),
                ran.stdout,
                ran.stderr,
            );
        }
        ran
    }

    fn failures(&self, ran: &Ran) -> Vec<String> {
        let mut failures = Vec::new();
        if let Some(code) = self.status {
            if ran.status != Some(code) {
                failures.push(format!("- exit code {code} expected"));
            }
        }
        let text = |stream| match stream {
            Stream::Stdout => &ran.stdout,
            Stream::Stderr => &ran.stderr,
        };
        for (stream, expected) in [
            (Stream::Stdout, &self.stdout),
            (Stream::Stderr, &self.stderr),
        ] {
            if let Some(expected) = expected {
                if text(stream) != expected {
                    failures.push(format!("- {stream:?} expected to be exactly:\n{expected}"));
                }
            }
        }
        for (stream, needle) in &self.contains {
            if !text(*stream).contains(needle.as_str()) {
                failures.push(format!("- {stream:?} expected to contain {needle:?}"));
            }
        }
        for (stream, needle) in &self.lacks {
            if text(*stream).contains(needle.as_str()) {
                failures.push(format!("- {stream:?} expected not to contain {needle:?}"));
            }
        }
        failures
    }
}
