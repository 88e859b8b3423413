//! The checked, absolute settings judge.toml describes: a problem's limits, programs and
//! files, as every other module reads them.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use super::scoring;
use crate::check::Checker;
use crate::compile::languages::Language;
use crate::sandbox::run::Limits;
use crate::verdict::InteractorProtocol;

/// Everything judge.toml says, with paths made absolute against its folder.
#[derive(Debug, Clone)]
pub struct Config {
    /// The folder holding judge.toml: every relative path is taken from here.
    pub root: PathBuf,
    /// judge.toml itself.
    pub path: PathBuf,
    /// Builds the solutions, references, generators and validators before judging.
    pub build: Option<Vec<String>>,
    /// The problems, in the file's order.
    pub problems: Vec<Problem>,
    /// The languages submissions may be written in.
    pub languages: Vec<Language>,
    /// The ids of the languages judge.toml's own `[languages]` table defines: these replace a
    /// package's table (its tools' flags) too, where the built-in ones only fill its gaps.
    pub own_languages: Vec<String>,
    /// Whether programs under test run in the sandbox (`[defaults] sandbox`).
    pub sandbox: crate::sandbox::Mode,
}

/// One `[problems.NAME]` table.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The table's key: what `-p` and `harness judge` take.
    pub name: String,
    /// The human title (the name when judge.toml gives none).
    pub title: String,
    /// Its label in a contest (`A`): judge.toml's problems with one are a contest that
    /// `harness contest` judges, in the labels' order.
    pub label: Option<String>,
    /// Where the problem comes from (its page on the judge), when known.
    pub url: Option<String>,
    /// The program `harness run` judges; a problem without one is judged with
    /// `harness judge PROBLEM FILE` only.
    pub solution: Option<PathBuf>,
    /// A trusted program that writes answers (`add`, `gen`, `stress`): a command whose
    /// program is absolute when judge.toml names a file (`reference = "brute.py"`, or a
    /// program with a `/`); a source file is compiled before it runs
    /// (`crate::author::program::prepare`).
    pub reference: Option<Vec<String>>,
    /// The folder of `.in`/`.ans` cases.
    pub cases: PathBuf,
    /// CPU time per case.
    pub time_limit: Duration,
    /// Wall-clock bound per case (about 2 × the time limit + 1 s).
    pub wall_limit: Duration,
    /// Peak memory per case, in bytes.
    pub memory_limit: u64,
    /// Output per case, in bytes.
    pub output_limit: u64,
    /// How outputs are compared with answers.
    pub checker: Checker,
    /// A command that accepts or rejects an input.
    pub validator: Option<Vec<String>>,
    /// The exit codes the validator answers with.
    pub validator_protocol: ValidatorProtocol,
    /// The commands that make generated cases.
    pub generators: Vec<Generator>,
    /// How `harness stress` makes and shrinks inputs.
    pub stress: Option<Stress>,
    /// For an interactive problem: the program that talks to the submission and judges it.
    pub interactor: Option<Interactor>,
    /// The program talks with an interactor instead of reading a whole input.
    pub interactive: bool,
    /// Each input holds several test cases (Competitive Companion's `multiNumber`). Recorded
    /// for the user; judging is the same.
    pub multi_test: bool,
    /// The contestant hands in one answer file per case instead of a program (IOI's
    /// output-only tasks, Kattis `submit-answer`): `harness judge PROBLEM ANSWERS` checks each.
    pub output_only: bool,
    /// Sources compiled with the contestant's (a grader with `main` that calls the
    /// contestant's functions), per language (`grader`, `grader-files`).
    pub graders: Graders,
    /// A communication task (CMS `Communication`): a manager talks with the contestant's
    /// processes through FIFOs and gives the score.
    pub communication: Option<Communication>,
    /// A two-step task (CMS `TwoSteps`): each case runs the submission twice, the first run's
    /// FIFO the second's source (`judge::two_steps`). Read from packages only.
    pub two_steps: bool,
    /// File I/O instead of stdin and stdout.
    pub files: FileIo,
    /// A problem package (Kattis/ICPC or Polygon folder) this problem is read from: its cases,
    /// limits and checker replace the table's (see `package`).
    pub package: Option<PackageRef>,
    /// How it is scored: pass-fail, test points or subtasks (`scoring`).
    pub scoring: scoring::ProblemScoring,
    /// A package's scoring rules, built when it was read (they replace `scoring`).
    pub package_scoring: Option<std::sync::Arc<crate::score::Scoring>>,
    /// The scores stored submissions must get, by their path below the problem's folder of
    /// stored submissions (`expected-scores`).
    pub expected_scores: Vec<(String, crate::score::ExpectedScore)>,
}

/// `package = "path"` in a problem's table, with the time limit the table sets, which wins
/// over the package's own (and spares computing one).
#[derive(Debug, Clone, PartialEq)]
pub struct PackageRef {
    /// The package's folder.
    pub path: PathBuf,
    /// judge.toml's `time-limit` for the problem, if it sets one.
    pub time_limit: Option<Duration>,
}

/// `grader = { cpp = "graders/grader.cpp" }` and `grader-files = ["graders/queens.h"]`: what
/// goes onto a submission before it is built, as a package's `include/` does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Graders {
    /// Each grader by the format code of its language (`cpp`, `python3`: a package's
    /// `include/<code>/`, which PyPy and CPython share) and its file.
    pub sources: Vec<(String, PathBuf)>,
    /// Files put beside a submission in any language (headers): a package's
    /// `include/default/`.
    pub files: Vec<PathBuf>,
}

impl Graders {
    /// The grader of `language`, when the problem has one.
    pub fn source_for(&self, language: &Language) -> Option<&std::path::Path> {
        let code = language.format_code();
        self.sources
            .iter()
            .find(|(other, _)| other == code)
            .map(|(_, path)| path.as_path())
    }

    /// Whether the problem names no grader and no grader file.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty() && self.files.is_empty()
    }
}

/// `communication = { manager = …, processes = N }`: the manager, the judge's own program,
/// reads the case's input and talks with `processes` copies of the contestant's program.
#[derive(Debug, Clone)]
pub struct Communication {
    /// The manager: a source file compiled through the languages table, or a command.
    pub manager: InteractorProgram,
    /// How many user processes run at once (1 to [`MAX_PROCESSES`]).
    pub processes: usize,
    /// How each user process reaches its FIFOs.
    pub user_io: UserIo,
    /// The manager's stdout is an output the problem's checker judges (TPS's `has_checker`),
    /// not a score.
    pub checked: bool,
}

/// Kept with the manager it is told to (the check layer is below this one).
pub use crate::check::manager::UserIo;

/// The most user processes of one communication case: CMS's tasks have one or two.
pub const MAX_PROCESSES: usize = 16;

/// The interactor of an interactive problem.
#[derive(Debug, Clone)]
pub struct Interactor {
    /// What runs.
    pub program: InteractorProgram,
    /// How it is called and what its exit code means.
    pub protocol: InteractorProtocol,
    /// testlib only: the checker that judges the interactor's OUTPUT file against the answer
    /// once the interactor accepted, when the problem names one (as Codeforces does).
    pub checker: Option<Checker>,
}

/// `interactor = "path/source.cpp"` or `interactor = ["program", "arg"…]`.
#[derive(Debug, Clone)]
pub enum InteractorProgram {
    /// A source file, compiled through the languages table like a submission.
    Source(PathBuf),
    /// A command; the protocol's arguments are appended.
    Command {
        /// The executable (a path from judge.toml's folder, or a name on PATH).
        program: PathBuf,
        /// Its own arguments, before the protocol's.
        args: Vec<String>,
    },
    /// A problem package's own interactor, built: it runs in the sandbox.
    Package(crate::check::package::PackageProgram),
}

/// What an input validator's exit code means.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ValidatorProtocol {
    /// Exit 0 for a valid input, anything else for an invalid one (testlib's validators and
    /// most hand-written ones).
    #[default]
    Testlib,
    /// The Kattis/ICPC format's: exit 42 for a valid input, 43 (or anything else) for an
    /// invalid one; such a validator goes into an exported package as it is.
    Kattis,
}

impl ValidatorProtocol {
    /// The name judge.toml uses.
    pub fn as_str(self) -> &'static str {
        match self {
            ValidatorProtocol::Testlib => "testlib",
            ValidatorProtocol::Kattis => "kattis",
        }
    }

    /// The exit code of a valid input.
    pub fn valid_exit(self) -> i32 {
        match self {
            ValidatorProtocol::Testlib => 0,
            ValidatorProtocol::Kattis => 42,
        }
    }
}

/// A problem that reads its input from a file and writes its output to one (old Codeforces
/// rounds, USACO, many olympiads), named as in its statement (`input.txt`, `paint.in`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileIo {
    /// The case's input is put under this name in the program's working folder.
    pub input: Option<String>,
    /// The program's answer is read from this file in its working folder, not from stdout.
    pub output: Option<String>,
}

impl FileIo {
    /// Neither file: stdin and stdout.
    pub fn is_none(&self) -> bool {
        self.input.is_none() && self.output.is_none()
    }
}

impl Problem {
    /// The limits for a program whose speed is scaled by `time_multiplier` (interpreters).
    pub fn limits(&self, time_multiplier: f64) -> Limits {
        let cpu_time = self.time_limit.mul_f64(time_multiplier);
        let wall_time = self.wall_limit.mul_f64(time_multiplier);
        Limits {
            cpu_time,
            wall_time,
            memory_bytes: self.memory_limit,
            output_bytes: self.output_limit,
        }
    }
}

/// A generator: a command run once per seed, each run printing one case's input.
#[derive(Debug, Clone)]
pub struct Generator {
    /// The case name, with `{seed}` or `{seed:03}` (zero-padded) replaced.
    pub name: String,
    /// Prints one input for `{seed}`.
    pub command: Vec<String>,
    /// The seeds to run it with.
    pub seeds: SeedRange,
}

/// `first..=last`, never empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedRange {
    /// The first seed.
    pub first: u64,
    /// The last seed, included.
    pub last: u64,
}

impl SeedRange {
    /// Each seed in order, one at a time (a range may be huge: it is never collected).
    pub fn iter(self) -> impl Iterator<Item = u64> {
        self.first..=self.last
    }
}

/// How `harness stress` makes random inputs and shrinks failing ones.
#[derive(Debug, Clone)]
pub struct Stress {
    /// Prints one input for `{seed}`.
    pub generator: Vec<String>,
    /// Writes smaller candidate inputs for `{input}` into the folder `{dir}`.
    pub shrink: Option<Vec<String>>,
}

impl Config {
    /// The problem named `name`, if any.
    pub fn problem(&self, name: &str) -> Option<&Problem> {
        self.problems.iter().find(|p| p.name == name)
    }

    /// The problem named `name`, or an error that lists the known ones.
    pub fn require_problem(&self, name: &str) -> Result<&Problem, UnknownProblem> {
        self.problem(name).ok_or_else(|| UnknownProblem {
            name: name.to_string(),
            known: self.problems.iter().map(|p| p.name.clone()).collect(),
            config: self.path.clone(),
        })
    }
}

/// A problem name judge.toml does not have; the message lists the ones it has.
#[derive(Debug, thiserror::Error)]
pub struct UnknownProblem {
    /// The name asked for.
    pub name: String,
    /// The names judge.toml has.
    pub known: Vec<String>,
    /// judge.toml.
    pub config: PathBuf,
}

impl fmt::Display for UnknownProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown problem `{}` (hint: `{}` declares {})",
            self.name,
            self.config.display(),
            if self.known.is_empty() {
                "no problems".to_string()
            } else {
                self.known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        )
    }
}
