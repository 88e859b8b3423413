//! Problem packages read as they are: the ICPC/Kattis format (legacy and 2025-09) and
//! Codeforces Polygon's `problem.xml`. A package becomes the same [`Problem`] judge.toml
//! describes, so `judge`, `verify` and `validate` work on it unchanged; what only packages
//! have (test groups with their own flags, stored submissions with sets of expected verdicts,
//! a time limit computed from the accepted submissions) lives here.

pub mod build;
pub mod cms;
pub mod contest;
pub mod expectations;
pub mod expected;
pub mod generate;
pub mod include;
pub mod kattis;
pub mod languages;
pub mod limits;
mod load;
pub mod polygon;
pub mod submissions;
pub mod tps;
pub mod validate;
pub(crate) mod yaml;

use std::path::{Path, PathBuf};

use crate::case::discover::Case;
use crate::check::Checker;

pub use crate::config::FileError;
pub use limits::TimeLimit;
pub use load::{detect, languages, load, open, Loaded};
pub use submissions::{PackageSubmission, Skipped};

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("`{}` is not a problem package (hint: a Kattis/ICPC package has `problem.yaml`, a Polygon package `problem.xml`, a CMS task `task.yaml`, a TPS task `problem.json`)", .0.display())]
    NotAPackage(PathBuf),
    #[error(transparent)]
    File(#[from] FileError),
    #[error("`{}`: {message}", path.display())]
    Unsupported { path: PathBuf, message: String },
    #[error("cannot build `{}`: {message}", path.display())]
    Build { path: PathBuf, message: String },
}

/// The two formats, and which version of the Kattis one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    KattisLegacy,
    /// 2023-07-draft, finished as 2025-09.
    Kattis2025,
    Polygon,
    /// A CMS `italy_yaml` task folder (`task.yaml`).
    Cms,
    /// A TPS task folder (`problem.json`).
    Tps,
}

impl Format {
    pub fn describe(self) -> &'static str {
        match self {
            Format::KattisLegacy => "Kattis/ICPC package (legacy)",
            Format::Kattis2025 => "Kattis/ICPC package (2025-09)",
            Format::Polygon => "Polygon package",
            Format::Cms => "CMS task (italy_yaml)",
            Format::Tps => "TPS task",
        }
    }
}

/// A source program of the package (a validator, a checker): one file or a folder of files.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceProgram {
    /// The file, or the folder whose files make the program.
    pub path: PathBuf,
    /// `output_validators/checker`, for messages.
    pub name: String,
    /// 2025-09 `constants` (`FIVE` and `FIVE.value`, `FIVE.word`, …) whose `{{…}}` sequences
    /// are replaced in the program's text when it is built.
    pub constants: Vec<(String, String)>,
}

impl SourceProgram {
    /// A program without constants, `name`d for messages.
    pub(crate) fn new(path: PathBuf, name: impl Into<String>) -> SourceProgram {
        SourceProgram {
            path,
            name: name.into(),
            constants: Vec::new(),
        }
    }

    /// A program of the package in `root`, named by its path there.
    pub(crate) fn in_package(
        root: &Path,
        path: PathBuf,
        constants: &[(String, String)],
    ) -> SourceProgram {
        SourceProgram {
            name: path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string(),
            path,
            constants: constants.to_vec(),
        }
    }
}

/// How outputs are checked, before anything is built.
#[derive(Debug, Clone, PartialEq)]
pub enum Validation {
    /// The default validator; the flags are per group (see [`Package::groups`]).
    Default,
    /// A Kattis output validator from source.
    Custom(SourceProgram),
    /// A testlib checker from source, with the folder holding the package's `testlib.h`.
    Testlib {
        program: SourceProgram,
        include: PathBuf,
    },
    /// One of the judge's own checkers (Polygon's `std::` checkers).
    Builtin(Checker),
    /// A CMS checker (`check/checker`): `checker INPUT ANSWER OUTPUT`, a score from 0 to 1 on
    /// stdout, its message on stderr.
    Cms {
        program: SourceProgram,
        /// The folder with the testlib it is built with (a TPS checker's `checker/`).
        include: Option<PathBuf>,
    },
}

/// How an interactive package's interactor is given.
#[derive(Debug, Clone, PartialEq)]
pub enum Interaction {
    /// Not interactive.
    None,
    /// Kattis `type: interactive`: the output validator is the interactor (kattis protocol).
    Validator,
    /// Polygon's `<interactor>`: a testlib interactor built with the package's `testlib.h`;
    /// its OUTPUT file then goes to the package's checker.
    Testlib {
        program: SourceProgram,
        include: PathBuf,
    },
}

/// A package, read: everything needed to judge it, nothing built or run yet.
#[derive(Debug, Clone)]
pub struct Package {
    pub root: PathBuf,
    pub format: Format,
    /// The short name (the folder's name), as DOMjudge and problemtools call it.
    pub name: String,
    pub title: String,
    /// A scoring problem (`type: scoring`).
    pub scoring: bool,
    /// How it is scored, when it is a scoring problem: a legacy package's `testdata.yaml`
    /// tree, or 2025-09's `test_group.yaml` groups (a package neither reader can score is
    /// refused when it is read).
    pub scoring_rules: Option<std::sync::Arc<crate::score::Scoring>>,
    /// Whether a program talks with the submission, and which.
    pub interaction: Interaction,
    /// The submission is answer files, not a program (Kattis `type: submit-answer`).
    pub output_only: bool,
    /// A multi-pass problem: the most passes a case may run (`limits.validation_passes`); for
    /// a Polygon package, `Some(2)` when its solution runs twice (`run-count="2"`).
    pub passes: Option<u32>,
    pub cases: Vec<Case>,
    /// Flags of each test-data folder, inherited: the output validator's and the input
    /// validators'.
    pub groups: Vec<Group>,
    /// `data/invalid_input`, `invalid_output`, `valid_output` and the samples' `.out` files:
    /// what `harness validate` checks the validators against.
    pub checks: Vec<DataCheck>,
    pub validation: Validation,
    pub input_validators: Vec<SourceProgram>,
    /// A legacy Kattis package's custom grader (`graders/`), for its groups graded `custom`.
    pub grader: Option<SourceProgram>,
    pub time_limit: TimeLimit,
    pub memory_limit: u64,
    pub output_limit: u64,
    pub submissions: Vec<PackageSubmission>,
    /// Files in `submissions/` that are not judged, with why.
    pub skipped: Vec<Skipped>,
    /// Input validators speak testlib (exit 0 valid) rather than Kattis (exit 42).
    pub testlib_validators: bool,
    /// A folder with the package's `testlib.h`, for building its validators.
    pub include: Option<PathBuf>,
    /// File input and output (Polygon's `input-file`/`output-file`) instead of stdin/stdout.
    pub files: crate::config::FileIo,
    /// Graders compiled with each submission in their language, and the headers beside them
    /// (a CMS task's `sol/grader.%l` and `sol/*.h`, a Polygon package's resources marked for
    /// the solution's compile stage), as judge.toml's `grader` and `grader-files` say them; a
    /// Kattis package's `include/` is read when the submission is built instead.
    pub graders: crate::config::Graders,
    /// A communication task (CMS's `check/manager`, TPS's `"type": "Communication"`): its
    /// manager and how the contestant's processes talk with it; the stub they are compiled
    /// with is in [`Package::graders`].
    pub communication: Option<PackageCommunication>,
    /// A two-step task (CMS `TwoSteps`, TPS's `"type": "TwoSteps"`): the submission, built
    /// with the task's grader (CMS's `manager`), runs twice on each case, the first run
    /// writing into a FIFO the second reads (see `judge::two_steps`).
    pub two_steps: bool,
}

/// A package's communication task, before its manager is built.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageCommunication {
    /// The manager: a source to build, or the program itself (CMS's `check/manager`, a
    /// binary or a script with its `#!` line).
    pub manager: SourceProgram,
    /// How many user processes each case runs.
    pub processes: usize,
    pub user_io: crate::config::UserIo,
    /// The manager's stdout is judged by the package's checker (TPS's `has_checker`).
    pub checked: bool,
}

/// A test-data folder with the flags it has after inheritance; or a case's `.in`, when a
/// `.yaml` beside it sets its own (the deepest entry a case's input is in gives its flags).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Group {
    pub folder: PathBuf,
    pub output_flags: Vec<String>,
    /// `input_validator_args` as a list: every input validator's.
    pub input_flags: Vec<String>,
    /// `input_validator_args` as a map: the named validators' (others get none).
    pub input_by_validator: Vec<(String, Vec<String>)>,
    /// 2025-09 `args`: the submission's arguments on the cases here.
    pub args: Vec<String>,
    /// The scoring keys of this folder's own `test_group.yaml` (not inherited), as the score
    /// model takes them; `None` without one.
    pub scoring: Option<crate::score::TestGroupYaml>,
}

impl Group {
    /// The arguments the input validator `name` (`validate.py`, or a folder's name) gets.
    pub fn input_args(&self, name: &str) -> &[String] {
        if self.input_by_validator.is_empty() {
            return &self.input_flags;
        }
        let stem = name.split('.').next().unwrap_or(name);
        self.input_by_validator
            .iter()
            .find(|(key, _)| key == name || key == stem)
            .map_or(&[], |(_, args)| args.as_slice())
    }
}

/// The deepest entry of `groups` that `input` is in.
pub fn group_of<'a>(groups: &'a [Group], input: &Path) -> Option<&'a Group> {
    groups
        .iter()
        .filter(|g| input.starts_with(&g.folder))
        .max_by_key(|g| g.folder.components().count())
}

/// What a folder of 2025-09's validation data asks of the package's validators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataCheckKind {
    /// `data/invalid_input`: some input validator must reject the `.in`.
    InvalidInput,
    /// `data/invalid_output`: the output validator must reject the `.out`.
    InvalidOutput,
    /// `data/valid_output` (and a sample's `.out`): the output validator must accept it.
    ValidOutput,
    /// A sample's `.interaction` (the `.out` field names it): well formed, and replayed
    /// against the interactor, or pass by pass against a multi-pass validator.
    Interaction,
}

/// One case of the validation data: its `.in` (and `.ans`), and the `.out` to check.
#[derive(Debug, Clone, PartialEq)]
pub struct DataCheck {
    pub kind: DataCheckKind,
    pub case: Case,
    pub output: Option<PathBuf>,
}

/// A communication task's number of processes (1 when it says none), as `path` states it;
/// `noun` names them in the error (`user processes`).
pub(crate) fn process_count(
    stated: Option<f64>,
    path: &Path,
    noun: &str,
) -> Result<usize, PackageError> {
    match stated {
        None => Ok(1),
        Some(n) if n.fract() == 0.0 && n >= 1.0 && n <= crate::config::MAX_PROCESSES as f64 => {
            Ok(n as usize)
        }
        Some(n) => Err(invalid(
            path,
            format!(
                "`num_processes` is {n}: a count of {noun}, 1 to {}",
                crate::config::MAX_PROCESSES
            ),
        )),
    }
}

/// `path` is not as the format wants it, and why.
pub(crate) fn invalid(path: &Path, message: impl Into<String>) -> PackageError {
    PackageError::File(FileError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    })
}

/// The JSON text of `path`, parsed, or where it is malformed.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<T, FileError> {
    serde_json::from_str(text)
        .map_err(|error| FileError::syntax(path, error.line(), error.column(), error.to_string()))
}

/// What `map_err` makes of a failure to read `path`.
pub(crate) fn cannot_read(path: &Path) -> impl Fn(std::io::Error) -> PackageError + Copy + '_ {
    move |source| {
        PackageError::File(FileError::Read {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// The text of the file `path`.
pub(crate) fn read_text(path: &Path) -> Result<String, PackageError> {
    std::fs::read_to_string(path).map_err(cannot_read(path))
}

/// `path` made canonical (absolute, no link), or why it cannot be.
pub(crate) fn canonical(path: &Path) -> Result<PathBuf, PackageError> {
    path.canonicalize().map_err(cannot_read(path))
}

/// Refuses a file or folder of the package that is a symbolic link leading out of it (`2.ans ->
/// /etc/passwd`) or in a loop; `root` is the package's canonical folder. A path that is not
/// there passes: whoever needs it says it is missing.
pub(crate) fn check_inside(root: &Path, path: &Path) -> Result<(), PackageError> {
    let invalid = |message: String| invalid(path, message);
    match std::fs::canonicalize(path) {
        Ok(real) if real.starts_with(root) => Ok(()),
        Ok(real) => Err(invalid(format!(
            "leads to `{}`, outside the package: a package's files stay inside its folder",
            real.display()
        ))),
        Err(error) if error.raw_os_error() == Some(libc::ELOOP) => Err(invalid(
            "is a symbolic link in a loop: a package's links must lead to a file or folder"
                .to_string(),
        )),
        Err(_) => Ok(()),
    }
}

/// [`check_inside`] for a program of the package: the file, or the folder and the files in it
/// that its build reads.
pub(crate) fn check_program(root: &Path, path: &Path) -> Result<(), PackageError> {
    check_inside(root, path)?;
    if path.is_dir() {
        for entry in sorted_entries(path)? {
            check_inside(root, &entry)?;
        }
    }
    Ok(())
}

/// A path the package writes down (a test's path pattern, a `<source path>`) as a path in
/// `root`: it must be relative and stay inside, with no `..`.
pub(crate) fn relative_inside(root: &Path, written: &str) -> Result<PathBuf, String> {
    let path = Path::new(written);
    let plain = !written.is_empty()
        && !written.contains('\0')
        && path.components().all(|part| {
            matches!(
                part,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
    if plain {
        Ok(root.join(path))
    } else {
        Err(format!(
            "`{written}` is not a relative path inside the package (hint: a package names its files from its own folder, without `..`)"
        ))
    }
}

/// The file name of a path, lossily, for names and messages.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Entries of a folder sorted by name (bytes, as the formats' tools sort them), hidden ones
/// and `*.disabled` ones left out (BAPCtools' convention for switching a file off).
pub(crate) fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, PackageError> {
    let read = cannot_read(dir);
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read)? {
        let path = entry.map_err(read)?.path();
        let name = file_name(&path);
        if name.starts_with('.') || name.ends_with(".disabled") {
            continue;
        }
        entries.push(path);
    }
    entries.sort_by_key(|p| file_name(p));
    Ok(entries)
}
