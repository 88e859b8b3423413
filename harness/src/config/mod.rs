//! judge.toml: finding it, reading it, and turning it into checked, absolute settings.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::check::Checker;
use crate::compile::languages::{self, CompileLimits, Language};
use crate::sandbox::run::Limits;
use crate::units;
use crate::verdict::InteractorProtocol;
use commands::Files;
mod commands;
mod detect;
pub(crate) mod scoring;
pub(crate) mod standalone;
pub(crate) mod user;

pub(crate) mod edit;

pub use detect::detect_language;

/// The configuration file's name, looked for from the current folder upwards.
pub const FILE_NAME: &str = "judge.toml";

/// The default output limit, when neither the problem nor `[defaults]` sets one.
const DEFAULT_OUTPUT_LIMIT: u64 = 64 << 20;
const DEFAULT_MEMORY_LIMIT: u64 = 256 << 20;
const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(1);

/// Why judge.toml could not be used; a syntax or value error names its line and column.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// No judge.toml in the folder or above it.
    #[error("no `{FILE_NAME}` in `{}` or any folder above it (hint: run the harness inside the project, or pass --config)", start.display())]
    NotFound {
        /// Where the search started.
        start: PathBuf,
    },
    /// It could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It is not valid TOML, or a key or value is wrong there.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line of the fault.
        line: usize,
        /// 1-based column of the fault.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// The settings do not fit together (a problem without cases, say).
    #[error("`{}`: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

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

// ---- the file as written ------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFile {
    #[serde(default)]
    defaults: RawDefaults,
    #[serde(default)]
    problems: BTreeMap<String, RawProblem>,
    #[serde(default)]
    languages: BTreeMap<String, RawLanguage>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawDefaults {
    build: Option<Vec<String>>,
    time_limit: Option<DurationValue>,
    wall_limit: Option<DurationValue>,
    memory_limit: Option<SizeValue>,
    output_limit: Option<OutputLimit>,
    checker: Option<RawChecker>,
    sandbox: Option<crate::sandbox::Mode>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawProblem {
    title: Option<String>,
    url: Option<String>,
    solution: Option<String>,
    package: Option<String>,
    reference: Option<RawCommand>,
    cases: Option<String>,
    time_limit: Option<DurationValue>,
    wall_limit: Option<DurationValue>,
    memory_limit: Option<SizeValue>,
    output_limit: Option<OutputLimit>,
    checker: Option<RawChecker>,
    validator: Option<Vec<String>>,
    validator_protocol: Option<ValidatorProtocol>,
    #[serde(default)]
    generators: Vec<RawGenerator>,
    stress: Option<RawStress>,
    interactor: Option<RawInteractor>,
    interactor_protocol: Option<InteractorProtocol>,
    #[serde(default)]
    interactive: bool,
    #[serde(default)]
    multi_test: bool,
    input_file: Option<String>,
    output_file: Option<String>,
    scoring: Option<toml::Value>,
    expected_scores: Option<toml::Value>,
}

/// `interactor = "source.cpp"` or `interactor = ["command", …]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawInteractor {
    Source(String),
    Command(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawGenerator {
    name: String,
    command: Vec<String>,
    seeds: SeedRange,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawStress {
    generator: Vec<String>,
    shrink: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLanguage {
    name: Option<String>,
    extensions: Vec<String>,
    compile: Option<Vec<String>>,
    run: Vec<String>,
    time_multiplier: Option<TimeMultiplier>,
    compile_time_limit: Option<DurationValue>,
    compile_memory_limit: Option<SizeValue>,
    sandbox: Option<crate::sandbox::LanguageSandbox>,
}

/// `reference = "brute.py"` (a file) or `reference = ["python3", "brute.py"]` (a command).
#[derive(Deserialize)]
#[serde(untagged)]
enum RawCommand {
    File(String),
    Command(Vec<String>),
}

/// `checker = "tokens"`, or a table for checkers that take options.
#[derive(Clone)]
enum RawChecker {
    Name(CheckerName),
    Table(CheckerTable),
}

/// By hand rather than `#[serde(untagged)]`, whose only message is "data did not match any
/// variant": a misspelt name must say which names there are.
impl<'de> Deserialize<'de> for RawChecker {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = RawChecker;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a checker name (\"tokens\") or a table ({ type = \"float\", … })")
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<RawChecker, E> {
                CheckerName::deserialize(serde::de::value::StrDeserializer::<E>::new(name))
                    .map(RawChecker::Name)
                    .map_err(|_| {
                        E::custom(format!(
                            "unknown checker `{name}` (known: tokens, tokens-ignore-case, lines, exact, float, unordered-blocks; a program is `{{ type = \"command\", command = [...] }}`)"
                        ))
                    })
            }

            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                map: M,
            ) -> Result<RawChecker, M::Error> {
                CheckerTable::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(RawChecker::Table)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum CheckerName {
    Tokens,
    TokensIgnoreCase,
    Lines,
    Exact,
    Float,
    UnorderedBlocks,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields, rename_all = "kebab-case", tag = "type")]
enum CheckerTable {
    #[serde(rename_all = "kebab-case")]
    Tokens {
        case_sensitive: Option<bool>,
    },
    Lines {},
    Exact {},
    #[serde(rename_all = "kebab-case")]
    Float {
        absolute: Option<f64>,
        relative: Option<f64>,
    },
    UnorderedBlocks {},
    Command {
        command: Vec<String>,
    },
}

/// Tolerance of the float checker when judge.toml names it without one.
const DEFAULT_FLOAT_TOLERANCE: f64 = 1e-6;

#[derive(Clone, Copy)]
pub(crate) struct DurationValue(Duration);

impl<'de> Deserialize<'de> for DurationValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        units::parse_duration(&text)
            .map(DurationValue)
            .map_err(serde::de::Error::custom)
    }
}

#[derive(Clone, Copy)]
pub(crate) struct SizeValue(u64);

impl<'de> Deserialize<'de> for SizeValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        units::parse_size(&text)
            .map(SizeValue)
            .map_err(serde::de::Error::custom)
    }
}

/// `output-limit`: a size, at most `units::MAX_OUTPUT_LIMIT` (the output is kept in memory).
#[derive(Clone, Copy)]
struct OutputLimit(u64);

impl<'de> Deserialize<'de> for OutputLimit {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let SizeValue(bytes) = SizeValue::deserialize(deserializer)?;
        if bytes > units::MAX_OUTPUT_LIMIT {
            return Err(serde::de::Error::custom(format!(
                "{} is above the maximum output limit, 1GiB (the judge keeps the output in memory)",
                units::format_bytes(bytes)
            )));
        }
        Ok(OutputLimit(bytes))
    }
}

/// A language's `time-multiplier`, within the bounds in `units`.
#[derive(Clone, Copy)]
struct TimeMultiplier(f64);

impl<'de> Deserialize<'de> for TimeMultiplier {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = f64::deserialize(deserializer)?;
        if !(units::MIN_TIME_MULTIPLIER..=units::MAX_TIME_MULTIPLIER).contains(&value) {
            return Err(serde::de::Error::custom(format!(
                "{value} is not a time-multiplier between {} and {}",
                units::MIN_TIME_MULTIPLIER,
                units::MAX_TIME_MULTIPLIER
            )));
        }
        Ok(TimeMultiplier(value))
    }
}

/// The most seeds one generator may have: each is a case file written to the case folder.
pub const MAX_SEEDS: u64 = 100_000;

impl<'de> Deserialize<'de> for SeedRange {
    /// `seeds = 7` or `seeds = "1..=300"`.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(u64),
            Range(String),
        }
        match Raw::deserialize(deserializer)? {
            Raw::One(seed) => Ok(SeedRange {
                first: seed,
                last: seed,
            }),
            Raw::Range(text) => parse_seed_range(&text).map_err(serde::de::Error::custom),
        }
    }
}

/// `"1..=300"` or `"7"` as a seed range.
pub fn parse_seed_range(text: &str) -> Result<SeedRange, String> {
    let bad = || format!("`{text}` is not a seed range (write it like \"1..=300\" or a number)");
    let (first, last) = text.split_once("..=").ok_or_else(bad)?;
    let first: u64 = first.trim().parse().map_err(|_| bad())?;
    let last: u64 = last.trim().parse().map_err(|_| bad())?;
    if first > last {
        return Err(format!("seed range `{text}` is empty"));
    }
    let count = u128::from(last - first) + 1;
    if count > u128::from(MAX_SEEDS) {
        return Err(format!(
            "seed range `{text}` has {count} seeds, above the maximum of {MAX_SEEDS} \
             (each seed is a case file)"
        ));
    }
    Ok(SeedRange { first, last })
}

// ---- loading ------------------------------------------------------------------------------

/// Walks up from `start` to the first folder holding judge.toml, as cargo does for Cargo.toml.
pub fn find(start: &Path) -> Result<PathBuf, ConfigError> {
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| ConfigError::NotFound {
            start: start.to_path_buf(),
        })
}

/// Reads and checks judge.toml at `path`, making every path in it absolute, with the built-in
/// languages and the user's config beneath its own.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut config = parse(&text, path)?;
    let user = user::load()?;
    config.languages = languages::merged(&[&user.languages, &config.languages]);
    Ok(config)
}

/// Parses judge.toml's text; `path` names the file in errors and anchors relative paths.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let raw: RawFile = toml::from_str(text).map_err(|error| syntax_error(text, path, &error))?;
    let root = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let root = if root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        root
    };
    let errors = Errors::new(text, path);
    let invalid = |message: String| errors.invalid(message);
    let shared_text: std::sync::Arc<str> = std::sync::Arc::from(text);

    let languages = languages_of(raw.languages, path)?;
    let defaults = raw.defaults;
    let sources: Vec<String> = languages::builtin()
        .iter()
        .chain(&languages)
        .flat_map(|language| language.extensions.iter().cloned())
        .collect();
    let files = Files {
        root: &root,
        built: defaults.build.is_some(),
        sources: &sources,
    };
    let default_checker = match &defaults.checker {
        Some(checker) => resolve_checker(checker, &files).map_err(|(word, message)| {
            errors.at(
                &checker_keys(&[Key::Name("defaults")], word),
                format!("[defaults] checker: {message}"),
            )
        })?,
        None => Checker::Tokens,
    };

    let mut problems = Vec::new();
    for (name, problem) in raw.problems {
        check_name(&name)
            .map_err(|message| errors.at(&[Key::Name("problems"), Key::Name(&name)], message))?;
        let table = [Key::Name("problems"), Key::Name(&name)];
        // A command's word that names no file: the error points at that word.
        let missing = |keys: &[Key<'_>], what: &str, missing: commands::Missing| {
            let mut keys = keys.to_vec();
            keys.push(Key::Index(missing.index));
            errors.at(
                &keys,
                format!("problem `{name}`, {what}: {}", missing.message),
            )
        };
        let time_limit = problem
            .time_limit
            .or(defaults.time_limit)
            .map_or(DEFAULT_TIME_LIMIT, |d| d.0);
        let wall_limit = problem
            .wall_limit
            .or(defaults.wall_limit)
            .map_or_else(|| crate::sandbox::run::wall_limit(time_limit), |d| d.0);
        if wall_limit < time_limit {
            return Err(invalid(format!(
                "problem `{name}`: wall-limit ({}) is below time-limit ({})",
                units::format_duration(wall_limit),
                units::format_duration(time_limit)
            )));
        }
        let checker = match &problem.checker {
            Some(checker) => resolve_checker(checker, &files).map_err(|(word, message)| {
                errors.at(
                    &checker_keys(&table, word),
                    format!("problem `{name}`, checker: {message}"),
                )
            })?,
            None => default_checker.clone(),
        };
        let interactor = resolve_interactor(&problem, &files).map_err(|(keys, message)| {
            let mut at = table.to_vec();
            at.extend(keys);
            errors.at(&at, format!("problem `{name}`: {message}"))
        })?;
        let mut generators = Vec::new();
        for (index, generator) in problem.generators.into_iter().enumerate() {
            check_command(&generator.command).map_err(|m| {
                invalid(format!(
                    "problem `{name}`, generator `{}`: {m}",
                    generator.name
                ))
            })?;
            let keys = [
                Key::Name("problems"),
                Key::Name(&name),
                Key::Name("generators"),
                Key::Index(index),
                Key::Name("command"),
            ];
            files
                .check(&generator.command)
                .map_err(|m| missing(&keys, &format!("generator `{}`", generator.name), m))?;
            if !generator.name.contains("{seed") && generator.seeds.first != generator.seeds.last {
                return Err(invalid(format!(
                    "problem `{name}`: generator name `{}` needs `{{seed}}` to tell its {} cases apart",
                    generator.name,
                    generator.seeds.last - generator.seeds.first + 1
                )));
            }
            generators.push(Generator {
                name: generator.name,
                command: generator.command,
                seeds: generator.seeds,
            });
        }
        // The reference runs in a fresh folder: the files it names (`brute.py`) are made
        // absolute, from judge.toml's folder.
        let reference_keys = [
            Key::Name("problems"),
            Key::Name(&name),
            Key::Name("reference"),
        ];
        let reference = match problem.reference {
            None => None,
            Some(RawCommand::File(file)) => Some(vec![files.file_only(&file).map_err(|m| {
                errors.at(
                    &reference_keys,
                    format!("problem `{name}`, reference: {}", m.message),
                )
            })?]),
            Some(RawCommand::Command(command)) => {
                check_command(&command)
                    .map_err(|m| invalid(format!("problem `{name}`, reference: {m}")))?;
                Some(
                    files
                        .resolve(&command)
                        .map_err(|m| missing(&reference_keys, "reference", m))?,
                )
            }
        };
        if let Some(validator) = &problem.validator {
            check_command(validator)
                .map_err(|m| invalid(format!("problem `{name}`, validator: {m}")))?;
            let keys = [
                Key::Name("problems"),
                Key::Name(&name),
                Key::Name("validator"),
            ];
            files
                .check(validator)
                .map_err(|m| missing(&keys, "validator", m))?;
        } else if problem.validator_protocol.is_some() {
            return Err(invalid(format!(
                "problem `{name}`: `validator-protocol` is set but `validator` is not"
            )));
        }
        for (key, file) in [
            ("input-file", &problem.input_file),
            ("output-file", &problem.output_file),
        ] {
            if let Some(file) = file {
                check_file_name(file)
                    .map_err(|m| invalid(format!("problem `{name}`, {key}: {m}")))?;
            }
        }
        let stress_keys = [Key::Name("problems"), Key::Name(&name), Key::Name("stress")];
        let stress = match problem.stress {
            None => None,
            Some(stress) => {
                for (key, command) in [
                    ("generator", Some(&stress.generator)),
                    ("shrink", stress.shrink.as_ref()),
                ] {
                    let Some(command) = command else { continue };
                    let mut keys = stress_keys.to_vec();
                    keys.push(Key::Name(key));
                    files
                        .check(command)
                        .map_err(|m| missing(&keys, &format!("stress {key}"), m))?;
                }
                Some(Stress {
                    generator: stress.generator,
                    shrink: stress.shrink,
                })
            }
        };
        let scoring = scoring::read(problem.scoring.as_ref(), &name, &shared_text, path)?;
        let expected_scores =
            scoring::read_expected(problem.expected_scores.as_ref(), &name, text, path)?;
        problems.push(Problem {
            scoring,
            package_scoring: None,
            expected_scores,
            title: problem.title.unwrap_or_else(|| name.clone()),
            url: problem.url,
            solution: problem.solution.map(|s| root.join(s)),
            package: problem.package.map(|p| PackageRef {
                path: root.join(p),
                time_limit: problem.time_limit.map(|d| d.0),
            }),
            reference,
            cases: root.join(problem.cases.unwrap_or_else(|| format!("cases/{name}"))),
            time_limit,
            wall_limit,
            memory_limit: problem
                .memory_limit
                .or(defaults.memory_limit)
                .map_or(DEFAULT_MEMORY_LIMIT, |s| s.0),
            output_limit: problem
                .output_limit
                .or(defaults.output_limit)
                .map_or(DEFAULT_OUTPUT_LIMIT, |s| s.0),
            checker,
            validator: problem.validator,
            validator_protocol: problem.validator_protocol.unwrap_or_default(),
            generators,
            stress,
            interactor,
            interactive: problem.interactive,
            multi_test: problem.multi_test,
            files: FileIo {
                input: problem.input_file,
                output: problem.output_file,
            },
            name,
        });
    }

    Ok(Config {
        root,
        path: path.to_path_buf(),
        build: defaults.build,
        problems,
        languages,
        sandbox: defaults.sandbox.unwrap_or_default(),
    })
}

/// The `[languages.*]` tables of a file, checked.
fn languages_of(
    raw: BTreeMap<String, RawLanguage>,
    path: &Path,
) -> Result<Vec<Language>, ConfigError> {
    let invalid = |message: String| ConfigError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    let mut languages = Vec::new();
    for (id, language) in raw {
        check_name(&id).map_err(invalid)?;
        if language.run.is_empty() {
            return Err(invalid(format!("language `{id}`: `run` is empty")));
        }
        let multiplier = language.time_multiplier.map_or(1.0, |m| m.0);
        let defaults = CompileLimits::default();
        let compile_limits = CompileLimits {
            time: language.compile_time_limit.map_or(defaults.time, |d| d.0),
            memory_bytes: language
                .compile_memory_limit
                .map_or(defaults.memory_bytes, |s| s.0),
        };
        languages.push(Language {
            name: language.name.unwrap_or_else(|| id.clone()),
            extensions: language
                .extensions
                .into_iter()
                // As written: `.C` (C++) and `.c` (C) are different languages.
                .map(|e| e.trim_start_matches('.').to_string())
                .collect(),
            compile: language.compile,
            run: language.run,
            time_multiplier: multiplier,
            compile_limits,
            sandbox: language.sandbox.unwrap_or_default(),
            id,
        });
    }

    // The extension picks the language: two tables claiming one would make the pick depend on
    // the tables' names.
    for (i, language) in languages.iter().enumerate() {
        for other in &languages[i + 1..] {
            if let Some(shared) = language
                .extensions
                .iter()
                .find(|e| other.extensions.contains(e))
            {
                return Err(invalid(format!(
                    "languages `{}` and `{}` both claim the extension `.{shared}` (hint: keep it in one table; the other can be picked with --lang, with `extensions = []`)",
                    language.id, other.id
                )));
            }
        }
    }
    Ok(languages)
}

/// Where a checker's error is: its key under `table`, or the word of its command.
fn checker_keys<'a>(table: &[Key<'a>], word: Option<usize>) -> Vec<Key<'a>> {
    let mut keys = table.to_vec();
    keys.push(Key::Name("checker"));
    if let Some(word) = word {
        keys.extend([Key::Name("command"), Key::Index(word)]);
    }
    keys
}

/// The checker `raw` names; an error says which word of its command it is about, if one.
fn resolve_checker(
    raw: &RawChecker,
    files: &Files<'_>,
) -> Result<Checker, (Option<usize>, String)> {
    let float = |absolute: Option<f64>, relative: Option<f64>| Checker::Float {
        absolute: absolute.unwrap_or(DEFAULT_FLOAT_TOLERANCE),
        relative: relative.unwrap_or(DEFAULT_FLOAT_TOLERANCE),
    };
    Ok(match raw {
        RawChecker::Name(CheckerName::Tokens)
        | RawChecker::Table(CheckerTable::Tokens {
            case_sensitive: None | Some(true),
        }) => Checker::Tokens,
        RawChecker::Name(CheckerName::TokensIgnoreCase)
        | RawChecker::Table(CheckerTable::Tokens {
            case_sensitive: Some(false),
        }) => Checker::TokensIgnoreCase,
        RawChecker::Name(CheckerName::Lines) | RawChecker::Table(CheckerTable::Lines {}) => {
            Checker::Lines
        }
        RawChecker::Name(CheckerName::Exact) | RawChecker::Table(CheckerTable::Exact {}) => {
            Checker::Exact
        }
        RawChecker::Name(CheckerName::UnorderedBlocks)
        | RawChecker::Table(CheckerTable::UnorderedBlocks {}) => Checker::UnorderedBlocks,
        RawChecker::Name(CheckerName::Float) => float(None, None),
        RawChecker::Table(CheckerTable::Float { absolute, relative }) => {
            for tolerance in [absolute, relative].into_iter().flatten() {
                if !(tolerance.is_finite() && *tolerance >= 0.0) {
                    return Err((
                        None,
                        format!("float tolerance {tolerance} must be a non-negative number"),
                    ));
                }
            }
            float(*absolute, *relative)
        }
        RawChecker::Table(CheckerTable::Command { command }) => {
            check_command(command).map_err(|message| (None, message))?;
            // The checker does not run in judge.toml's folder: its files are made absolute.
            let mut command = files
                .resolve(command)
                .map_err(|missing| (Some(missing.index), missing.message))?;
            let program = PathBuf::from(command.remove(0));
            Checker::Command {
                program,
                args: command,
            }
        }
    })
}

/// The interactor of a problem table, with its protocol (testlib unless it says otherwise)
/// and, for testlib, the problem's own checker for the interactor's OUTPUT file. An error
/// says under which keys of the table it is.
fn resolve_interactor(
    problem: &RawProblem,
    files: &Files<'_>,
) -> Result<Option<Interactor>, (Vec<Key<'static>>, String)> {
    let interactor = || vec![Key::Name("interactor")];
    let Some(raw) = &problem.interactor else {
        if problem.interactor_protocol.is_some() {
            return Err((
                vec![Key::Name("interactor-protocol")],
                "`interactor-protocol` is set but `interactor` is not".to_string(),
            ));
        }
        return Ok(None);
    };
    let program = match raw {
        RawInteractor::Source(source) if source.trim().is_empty() => {
            return Err((interactor(), "`interactor` is empty".to_string()))
        }
        RawInteractor::Source(source) => InteractorProgram::Source(
            files
                .file_only(source)
                .map_err(|missing| (interactor(), format!("interactor: {}", missing.message)))?
                .into(),
        ),
        RawInteractor::Command(command) => {
            check_command(command).map_err(|m| (interactor(), format!("interactor: {m}")))?;
            // It runs in a scratch folder: its files are made absolute.
            let mut command = files.resolve(command).map_err(|missing| {
                (
                    vec![Key::Name("interactor"), Key::Index(missing.index)],
                    format!("interactor: {}", missing.message),
                )
            })?;
            InteractorProgram::Command {
                program: PathBuf::from(command.remove(0)),
                args: command,
            }
        }
    };
    let protocol = problem
        .interactor_protocol
        .unwrap_or(InteractorProtocol::Testlib);
    let checker = match (&problem.checker, protocol) {
        (None, _) => None,
        (Some(_), InteractorProtocol::Kattis) => {
            return Err((vec![Key::Name("checker")], "a Kattis interactor judges the dialogue itself, so `checker` has nothing to check (hint: remove `checker`, or use interactor-protocol = \"testlib\", whose OUTPUT file goes to the checker)".to_string()))
        }
        (Some(checker), InteractorProtocol::Testlib) => {
            Some(resolve_checker(checker, files).map_err(|(word, message)| {
                (checker_keys(&[], word), format!("checker: {message}"))
            })?)
        }
    };
    Ok(Some(Interactor {
        program,
        protocol,
        checker,
    }))
}

fn check_command(command: &[String]) -> Result<(), String> {
    match command.first() {
        Some(program) if !program.trim().is_empty() => Ok(()),
        _ => Err("the command is empty".to_string()),
    }
}

/// Problem and language names become folder names and command-line arguments.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return Err(format!(
            "`{name}` is not a valid name (use letters, digits, `-` and `_`)"
        ));
    }
    if name.starts_with('-') {
        return Err(format!(
            "`{name}` is not a valid name: it starts with `-`, so every command would take it for an option (hint: start it with a letter or digit)"
        ));
    }
    Ok(())
}

/// A step from a table of judge.toml to the value an error is about.
#[derive(Debug, Clone, Copy)]
enum Key<'a> {
    Name(&'a str),
    Index(usize),
}

/// Errors found after the text parsed, placed at their value's line and column when it can
/// be found (the file is parsed again, with spans, only when an error needs them).
struct Errors<'a> {
    text: &'a str,
    path: &'a Path,
}

impl<'a> Errors<'a> {
    fn new(text: &'a str, path: &'a Path) -> Errors<'a> {
        Errors { text, path }
    }

    fn invalid(&self, message: String) -> ConfigError {
        ConfigError::Invalid {
            path: self.path.to_path_buf(),
            message,
        }
    }

    /// An error at the value `keys` lead to (or, when it is not there, the nearest above it).
    fn at(&self, keys: &[Key<'_>], message: String) -> ConfigError {
        let Ok(document) = toml_edit::Document::parse(self.text) else {
            return self.invalid(message);
        };
        let mut item = document.as_item();
        let mut span = None;
        for key in keys {
            let next = match key {
                Key::Name(name) => item.get(*name),
                Key::Index(index) => item.get(*index),
            };
            let Some(next) = next else { break };
            item = next;
            span = item.span().or(span);
        }
        match span {
            Some(span) => {
                let (line, column) = line_and_column(self.text, span.start);
                ConfigError::Syntax {
                    path: self.path.to_path_buf(),
                    line,
                    column,
                    message,
                }
            }
            None => self.invalid(message),
        }
    }
}

/// A file-I/O name is made inside the program's working folder: a plain file name only.
pub(crate) fn check_file_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.contains('\\')
        && !name.contains('\0');
    if plain {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not a plain file name (hint: write it as the statement does, like `input.txt`)"
        ))
    }
}

fn syntax_error(text: &str, path: &Path, error: &toml::de::Error) -> ConfigError {
    let (line, column) = match error.span() {
        Some(span) => line_and_column(text, span.start),
        None => (1, 1),
    };
    ConfigError::Syntax {
        path: path.to_path_buf(),
        line,
        column,
        message: name_the_key(
            text,
            error.span(),
            error.message().trim().replace('\n', " "),
        ),
    }
}

/// A value's error names its key: the message of a bad value (`\`0.0000001ms\` is shorter than
/// 1ms…`) is about the value, and the line `time-limit = "0.0000001ms"` says which key it is.
fn name_the_key(text: &str, span: Option<std::ops::Range<usize>>, message: String) -> String {
    let Some(span) = span else {
        return message;
    };
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    let Some((key, _)) = before.split_once('=') else {
        return message;
    };
    let key = key.trim().trim_matches('"');
    let is_key = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !is_key || message.contains(&format!("`{key}`")) {
        return message;
    }
    format!("`{key}`: {message}")
}

/// 1-based line and column (in characters) of a byte offset.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Config, ConfigError> {
        parse(text, Path::new("/project/judge.toml"))
    }

    /// Parses `text` as the judge.toml of a folder that holds `files` (empty ones).
    fn parse_with(text: &str, files: &[&str]) -> (tempfile::TempDir, Config) {
        let dir = tempfile::tempdir().unwrap();
        for file in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let config = parse(text, &dir.path().join(FILE_NAME)).unwrap();
        (dir, config)
    }

    const MINIMAL: &str = r#"
[defaults]
time-limit = "2s"
memory-limit = "128MiB"

[problems.sum]
solution = "target/release/sum"
"#;

    #[test]
    fn defaults_fill_in_and_paths_are_absolute() {
        let config = parse_str(MINIMAL).unwrap();
        let sum = config.problem("sum").unwrap();
        assert_eq!(
            sum.solution.as_deref(),
            Some(Path::new("/project/target/release/sum"))
        );
        assert_eq!(sum.cases, Path::new("/project/cases/sum"));
        assert_eq!(sum.time_limit, Duration::from_secs(2));
        assert_eq!(sum.wall_limit, Duration::from_secs(5));
        assert_eq!(sum.memory_limit, 128 << 20);
        assert_eq!(sum.output_limit, 64 << 20);
        assert_eq!(sum.checker, Checker::Tokens);
        assert_eq!(sum.title, "sum");
    }

    #[test]
    fn checkers_by_name_and_table() {
        let (dir, config) = parse_with(
            r#"
[problems.a]
solution = "a"
checker = "unordered-blocks"
[problems.b]
solution = "b"
checker = { type = "float", absolute = 1e-9 }
[problems.c]
solution = "c"
checker = { type = "command", command = ["checkers/c", "--strict"] }
"#,
            &["checkers/c"],
        );
        assert_eq!(
            config.problem("a").unwrap().checker,
            Checker::UnorderedBlocks
        );
        assert_eq!(
            config.problem("b").unwrap().checker,
            Checker::Float {
                absolute: 1e-9,
                relative: 1e-6
            }
        );
        assert_eq!(
            config.problem("c").unwrap().checker,
            Checker::Command {
                program: dir.path().join("checkers/c"),
                args: vec!["--strict".to_string()]
            }
        );
    }

    #[test]
    fn a_problem_read_from_a_package_needs_no_solution() {
        let config = parse_str(
            "[problems.p]\npackage = \"pkgs/p\"\ntime-limit = \"3s\"\n[problems.q]\npackage = \"pkgs/q\"\n",
        )
        .unwrap();
        assert_eq!(
            config.problem("p").unwrap().package,
            Some(PackageRef {
                path: PathBuf::from("/project/pkgs/p"),
                time_limit: Some(Duration::from_secs(3)),
            })
        );
        assert_eq!(
            config
                .problem("q")
                .unwrap()
                .package
                .as_ref()
                .unwrap()
                .time_limit,
            None
        );
    }

    fn syntax(text: &str) -> (usize, usize, String) {
        match parse_str(text) {
            Err(ConfigError::Syntax {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn interactors_as_source_or_command_with_their_protocol() {
        let (_dir, config) = parse_with(
            r#"
[problems.a]
solution = "a"
interactor = "checkers/interactor.cpp"
[problems.b]
solution = "b"
interactor = ["bin/interact", "--strict"]
interactor-protocol = "kattis"
[problems.c]
solution = "c"
interactor = ["interact"]
checker = "lines"
"#,
            &["checkers/interactor.cpp", "bin/interact"],
        );
        let a = config.problem("a").unwrap().interactor.as_ref().unwrap();
        assert!(
            matches!(&a.program, InteractorProgram::Source(p) if p.ends_with("checkers/interactor.cpp"))
        );
        assert_eq!(a.protocol, InteractorProtocol::Testlib);
        assert!(a.checker.is_none());
        let b = config.problem("b").unwrap().interactor.as_ref().unwrap();
        assert!(
            matches!(&b.program, InteractorProgram::Command { args, .. } if args == &["--strict"])
        );
        assert_eq!(b.protocol, InteractorProtocol::Kattis);
        let c = config.problem("c").unwrap().interactor.as_ref().unwrap();
        assert_eq!(c.checker, Some(Checker::Lines));
        assert!(config.problem("c").is_some_and(|p| p.interactor.is_some()));
    }

    #[test]
    fn validator_protocol_is_read_and_needs_a_validator() {
        let (_dir, config) = parse_with(
            r#"
[problems.a]
validator = ["val.rs", "a"]
validator-protocol = "kattis"
[problems.b]
validator = ["val"]
"#,
            &["val.rs"],
        );
        let protocol = |id: &str| config.problem(id).unwrap().validator_protocol;
        assert_eq!(protocol("a"), ValidatorProtocol::Kattis);
        assert_eq!(protocol("b"), ValidatorProtocol::Testlib);
        let invalid = |text: &str| parse_str(text).unwrap_err().to_string();
        let error = invalid("[problems.a]\nvalidator-protocol = \"kattis\"\n");
        assert!(
            error.contains("problem `a`: `validator-protocol` is set but `validator` is not"),
            "{error}"
        );
        let error =
            invalid("[problems.a]\nvalidator = [\"v\"]\nvalidator-protocol = \"polygon\"\n");
        assert!(error.contains("polygon"), "{error}");
    }

    #[test]
    fn interactor_mistakes_are_named() {
        let invalid = |text: &str| parse_str(text).unwrap_err().to_string();
        let error = invalid("[problems.a]\nsolution = \"a\"\ninteractor-protocol = \"kattis\"\n");
        assert!(
            error.contains("`interactor-protocol` is set but `interactor` is not"),
            "{error}"
        );
        let error = invalid(
            "[problems.a]\nsolution = \"a\"\ninteractor = [\"i\"]\ninteractor-protocol = \"kattis\"\nchecker = \"lines\"\n",
        );
        assert!(
            error.contains("problem `a`: a Kattis interactor judges the dialogue itself"),
            "{error}"
        );
        let error = invalid("[problems.a]\nsolution = \"a\"\ninteractor = []\n");
        assert!(
            error.contains("interactor: the command is empty"),
            "{error}"
        );
        let (line, _, message) = syntax(
            "[problems.a]\nsolution = \"a\"\ninteractor = \"i\"\ninteractor-protocol = \"polygon\"\n",
        );
        assert_eq!(line, 4);
        assert!(message.contains("polygon"), "{message}");
    }

    #[test]
    fn a_file_a_command_names_is_found_from_judge_toml_or_named_where_it_is_missing() {
        let text = r#"
[problems.a]
interactor = ["python3", "inter.py", "--strict"]
checker = { type = "command", command = ["python3", "check.py"] }
reference = ["python3", "brute.py"]
"#;
        let (dir, config) = parse_with(text, &["inter.py", "check.py", "brute.py"]);
        let problem = config.problem("a").unwrap();
        let at = |file: &str| dir.path().join(file).display().to_string();
        let Some(InteractorProgram::Command { program, args }) =
            problem.interactor.as_ref().map(|i| &i.program)
        else {
            panic!("a command interactor")
        };
        assert_eq!(program, Path::new("python3"));
        assert_eq!(args, &[at("inter.py"), "--strict".to_string()]);
        assert_eq!(
            problem.checker,
            Checker::Command {
                program: PathBuf::from("python3"),
                args: vec![at("check.py")],
            }
        );
        assert_eq!(
            problem.reference.as_deref(),
            Some(&["python3".to_string(), at("brute.py")][..])
        );

        // Each missing file is an error at its own word.
        let rows = [
            (
                &["check.py", "brute.py"][..],
                (3, 26),
                "interactor: no file `inter.py`",
            ),
            (
                &["inter.py", "brute.py"],
                (4, 53),
                "checker: no file `check.py`",
            ),
            (
                &["inter.py", "check.py"],
                (5, 25),
                "reference: no file `brute.py`",
            ),
        ];
        for (files, place, expected) in rows {
            let dir = tempfile::tempdir().unwrap();
            for file in files {
                std::fs::write(dir.path().join(file), "").unwrap();
            }
            match parse(text, &dir.path().join(FILE_NAME)) {
                Err(ConfigError::Syntax {
                    line,
                    column,
                    message,
                    ..
                }) => {
                    assert_eq!((line, column), place, "{message}");
                    assert!(message.contains(expected), "{message}");
                    assert!(message.starts_with("problem `a`"), "{message}");
                }
                other => panic!("{expected}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_name_may_not_start_with_a_dash() {
        let (line, _, message) = syntax(
            "[problems.ok]
[problems.-help]
solution = \"a\"
",
        );
        assert_eq!(line, 2, "{message}");
        assert!(message.contains("starts with `-`"), "{message}");
        assert!(check_name("a-b").is_ok() && check_name("-a").is_err());
    }

    #[test]
    fn unknown_key_names_line_and_column() {
        let (line, column, message) =
            syntax("[problems.sum]\nsolution = \"x\"\ntime-limt = \"1s\"\n");
        assert_eq!((line, column), (3, 1));
        assert!(message.contains("time-limt"), "{message}");
    }

    #[test]
    fn bad_duration_names_the_value() {
        let (line, column, message) =
            syntax("[problems.sum]\nsolution = \"x\"\ntime-limit = \"1\"\n");
        assert_eq!((line, column), (3, 14));
        assert!(message.contains("no unit"), "{message}");
    }

    #[test]
    fn bad_size_and_broken_toml() {
        let (line, _, message) = syntax("[defaults]\nmemory-limit = \"lots\"\n");
        assert_eq!(line, 2);
        assert!(message.contains("not a size"), "{message}");
        let (line, _, _) = syntax("[problems.sum\nsolution = 1\n");
        assert_eq!(line, 1);
    }

    #[test]
    fn error_display_is_path_line_column() {
        let error = parse_str("[problems.sum]\nsolution = 3\n").unwrap_err();
        let shown = error.to_string();
        assert!(shown.starts_with("/project/judge.toml:2:12: "), "{shown}");
    }

    #[test]
    fn a_misspelt_checker_lists_the_known_ones() {
        let error = parse_str("[problems.sum]\nsolution = \"s\"\nchecker = \"tokenz\"\n")
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("/project/judge.toml:3:11: "), "{error}");
        assert!(error.contains("unknown checker `tokenz`"), "{error}");
        assert!(error.contains("tokens-ignore-case"), "{error}");
        let error = parse_str("[problems.sum]\nsolution = \"s\"\nchecker = { type = \"flot\" }\n")
            .unwrap_err()
            .to_string();
        assert!(error.contains("unknown variant `flot`"), "{error}");
        let config = parse_str(
            "[problems.sum]\nsolution = \"s\"\nchecker = { type = \"float\", absolute = 1e-3 }\n",
        )
        .unwrap();
        assert!(matches!(
            config.problem("sum").unwrap().checker,
            Checker::Float { .. }
        ));
    }

    #[test]
    fn seeds_and_generators() {
        // The build makes the generator: it need not be there before.
        let config = parse_str(
            r#"
[defaults]
build = ["make"]
[problems.sum]
solution = "s"
[[problems.sum.generators]]
name = "random-{seed:03}"
command = ["target/release/gen", "{seed}"]
seeds = "1..=300"
[[problems.sum.generators]]
name = "big"
command = ["target/release/gen", "big"]
seeds = 7
"#,
        )
        .unwrap();
        let generators = &config.problem("sum").unwrap().generators;
        assert_eq!(
            generators[0].seeds,
            SeedRange {
                first: 1,
                last: 300
            }
        );
        assert_eq!(generators[1].seeds, SeedRange { first: 7, last: 7 });
        assert!(parse_seed_range("5..=1").is_err());
        assert!(parse_seed_range("1..5").is_err());
    }

    #[test]
    fn generator_names_must_tell_seeds_apart() {
        let error = parse_str(
            "[problems.sum]\nsolution = \"s\"\n[[problems.sum.generators]]\nname = \"r\"\ncommand = [\"g\"]\nseeds = \"1..=3\"\n",
        )
        .unwrap_err();
        assert!(error.to_string().contains("needs `{seed}`"), "{error}");
    }

    #[test]
    fn unknown_problem_lists_known_ones() {
        let config = parse_str(MINIMAL).unwrap();
        let error = config.require_problem("summ").unwrap_err().to_string();
        assert!(error.contains("unknown problem `summ`"), "{error}");
        assert!(error.contains("`sum`"), "{error}");
    }

    #[test]
    fn an_extension_belongs_to_one_language() {
        let error = parse_str(
            "[languages.python]\nextensions = [\"py\"]\nrun = [\"python3\", \"{source}\"]\n[languages.pypy]\nextensions = [\".py\"]\nrun = [\"pypy3\", \"{source}\"]\n",
        )
        .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("languages `pypy` and `python` both claim the extension `.py`"),
            "{error}"
        );
        let config = parse_str(
            "[languages.python]\nextensions = [\"py\"]\nrun = [\"python3\", \"{source}\"]\n[languages.pypy]\nextensions = []\nrun = [\"pypy3\", \"{source}\"]\n",
        )
        .unwrap();
        assert_eq!(config.languages.len(), 2);
    }

    #[test]
    fn compile_limits_default_and_can_be_set_per_language() {
        let config = parse_str(
            "[languages.c]\nextensions = [\"c\"]\ncompile = [\"cc\", \"{source}\"]\nrun = [\"{exe}\"]\n\
             [languages.big]\nextensions = [\"big\"]\nrun = [\"{exe}\"]\n\
             compile-time-limit = \"5m\"\ncompile-memory-limit = \"8GiB\"\n",
        )
        .unwrap();
        let limits = |id: &str| {
            let language = config.languages.iter().find(|l| l.id == id).unwrap();
            language.compile_limits
        };
        assert_eq!(limits("c"), CompileLimits::default());
        assert_eq!(limits("c").time, Duration::from_secs(120));
        assert_eq!(limits("c").memory_bytes, 2 << 30);
        assert_eq!(limits("big").time, Duration::from_secs(300));
        assert_eq!(limits("big").memory_bytes, 8 << 30);

        let error = parse_str(
            "[languages.c]\nextensions = [\"c\"]\nrun = [\"{exe}\"]\ncompile-memory-limit = \"0MiB\"\n",
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("must be a positive size"),
            "{error}"
        );
    }

    #[test]
    fn wall_limit_below_time_limit_is_refused() {
        let error = parse_str(
            "[problems.sum]\nsolution = \"s\"\ntime-limit = \"2s\"\nwall-limit = \"1s\"\n",
        )
        .unwrap_err();
        assert!(error.to_string().contains("below time-limit"), "{error}");
    }
}
