//! judge.toml's text to checked settings, one step per concern: the syntax, the languages, the
//! `[defaults]` checker, then per problem its limits, checker, interactor, generators,
//! reference, validator, file names, stress and scoring. Each step's errors name the problem
//! and sit at the line and column of the value they are about.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::commands::{Files, Missing};
use super::error::{syntax_error, ConfigError, Errors, Key};
use super::languages::{self, languages_of};
use super::names::{check_file_name, check_name};
use super::raw::{
    RawChecker, RawCommand, RawDefaults, RawFile, RawGenerator, RawProblem, RawStress,
};
use super::resolve::{check_command, checker_keys, resolve_checker, resolve_interactor};
use super::scoring;
use super::settings::{
    Communication, Config, FileIo, Generator, Graders, Interactor, InteractorProgram, PackageRef,
    Problem, Stress, MAX_PROCESSES,
};
use crate::check::Checker;
use crate::compile::languages::Language;
use crate::units;

/// The default output limit, when neither the problem nor `[defaults]` sets one.
const DEFAULT_OUTPUT_LIMIT: u64 = 64 << 20;
const DEFAULT_MEMORY_LIMIT: u64 = 256 << 20;
const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(1);

/// Parses judge.toml's text; `path` names the file in errors and anchors relative paths.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let raw: RawFile = toml::from_str(text).map_err(|error| syntax_error(text, path, &error))?;
    let root = root_of(path);
    let errors = Errors::new(text, path);
    let languages = languages_of(raw.languages, path)?;
    let defaults = raw.defaults;
    let sources = source_extensions(&languages);
    let files = Files {
        root: &root,
        built: defaults.build.is_some(),
        sources: &sources,
    };
    let default_checker = default_checker(defaults.checker.as_ref(), &files, &errors)?;
    let file = JudgeToml {
        text,
        shared_text: Arc::from(text),
        path,
        root: &root,
        errors,
        files,
        defaults: &defaults,
        default_checker,
        languages: &languages,
    };
    let mut problems: Vec<Problem> = Vec::new();
    for (name, problem) in raw.problems {
        let problem = file.problem(name, problem)?;
        file.check_label(&problem, &problems)?;
        problems.push(problem);
    }
    Ok(Config {
        root,
        path: path.to_path_buf(),
        build: defaults.build,
        problems,
        own_languages: languages.iter().map(|l| l.id.clone()).collect(),
        languages,
        sandbox: defaults.sandbox.unwrap_or_default(),
    })
}

/// judge.toml's folder, from which every relative path is taken (`.` for a bare file name).
pub fn root_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(root) if !root.as_os_str().is_empty() => root.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The extensions of every source file a command may name: the built-in languages' and the
/// file's own.
fn source_extensions(languages: &[Language]) -> Vec<String> {
    languages::builtin()
        .iter()
        .chain(languages)
        .flat_map(|language| language.extensions.iter().cloned())
        .collect()
}

/// `[defaults] checker`, or the tokens checker when it names none.
fn default_checker(
    checker: Option<&RawChecker>,
    files: &Files<'_>,
    errors: &Errors<'_>,
) -> Result<Checker, ConfigError> {
    match checker {
        Some(checker) => resolve_checker(checker, files).map_err(|(word, message)| {
            errors.at(
                &checker_keys(&[Key::Name("defaults")], word),
                format!("[defaults] checker: {message}"),
            )
        }),
        None => Ok(Checker::Tokens),
    }
}

/// What every problem table is read against: the text (for errors), judge.toml's folder and
/// files, and `[defaults]`.
struct JudgeToml<'a> {
    text: &'a str,
    /// The text again, shared with the scoring rules, which keep it for their own errors.
    shared_text: Arc<str>,
    path: &'a Path,
    root: &'a Path,
    errors: Errors<'a>,
    files: Files<'a>,
    defaults: &'a RawDefaults,
    default_checker: Checker,
    /// judge.toml's own languages (the built-in ones are known without it).
    languages: &'a [Language],
}

/// A problem's four limits, each from its table, else `[defaults]`, else the default.
struct ProblemLimits {
    time: Duration,
    wall: Duration,
    memory: u64,
    output: u64,
}

impl JudgeToml<'_> {
    /// A contest label is a short word (`A`, `B2`) no other problem has: the scoreboard's
    /// column and the name a coach's files are given.
    fn check_label(&self, problem: &Problem, before: &[Problem]) -> Result<(), ConfigError> {
        let Some(label) = &problem.label else {
            return Ok(());
        };
        let at = |message: String| {
            self.errors.at(
                &[
                    Key::Name("problems"),
                    Key::Name(&problem.name),
                    Key::Name("label"),
                ],
                message,
            )
        };
        if label.is_empty() || label.len() > 16 || !label.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(at(format!(
                "problem `{}`: label `{label}` is not a short word of letters and digits (hint: `label = \"A\"`)",
                problem.name
            )));
        }
        if let Some(other) = before.iter().find(|p| {
            p.label
                .as_deref()
                .is_some_and(|l| l.eq_ignore_ascii_case(label))
        }) {
            return Err(at(format!(
                "problem `{}` has the label `{label}` of problem `{}` (hint: each problem of a contest has its own)",
                problem.name, other.name
            )));
        }
        Ok(())
    }

    /// One `[problems.NAME]` table, checked, with its paths made absolute.
    fn problem(&self, name: String, problem: RawProblem) -> Result<Problem, ConfigError> {
        check_name(&name).map_err(|message| {
            self.errors
                .at(&[Key::Name("problems"), Key::Name(&name)], message)
        })?;
        let table = Table {
            file: self,
            name: &name,
        };
        let limits = table.limits(&problem)?;
        table.output_only(&problem)?;
        let graders = table.graders(&problem)?;
        let communication = table.communication(&problem)?;
        let checker = table.checker(problem.checker.as_ref())?;
        let interactor = table.interactor(&problem)?;
        let generators = table.generators(problem.generators)?;
        let reference = table.reference(problem.reference)?;
        table.validator(
            problem.validator.as_deref(),
            problem.validator_protocol.is_some(),
        )?;
        table.file_names(&problem.input_file, &problem.output_file)?;
        let stress = table.stress(problem.stress)?;
        let scoring = scoring::read(
            problem.scoring.as_ref(),
            &name,
            &self.shared_text,
            self.path,
        )?;
        let expected_scores = scoring::read_expected(
            problem.expected_scores.as_ref(),
            &name,
            self.text,
            self.path,
        )?;
        let root = self.root;
        Ok(Problem {
            scoring,
            package_scoring: None,
            expected_scores,
            title: problem.title.unwrap_or_else(|| name.clone()),
            label: problem.label,
            url: problem.url,
            solution: problem.solution.map(|s| root.join(s)),
            package: problem.package.map(|p| PackageRef {
                path: root.join(p),
                time_limit: problem.time_limit.map(|d| d.0),
            }),
            reference,
            cases: root.join(problem.cases.unwrap_or_else(|| format!("cases/{name}"))),
            time_limit: limits.time,
            wall_limit: limits.wall,
            memory_limit: limits.memory,
            output_limit: limits.output,
            checker,
            validator: problem.validator,
            validator_protocol: problem.validator_protocol.unwrap_or_default(),
            generators,
            stress,
            interactor,
            interactive: problem.interactive,
            multi_test: problem.multi_test,
            output_only: problem.output_only,
            graders,
            communication,
            two_steps: false,
            files: FileIo {
                input: problem.input_file,
                output: problem.output_file,
            },
            name,
        })
    }
}

/// One problem's table while it is read: its errors name the problem.
struct Table<'a> {
    file: &'a JudgeToml<'a>,
    name: &'a str,
}

impl<'a> Table<'a> {
    /// The keys of `path` inside this problem's table.
    fn keys(&self, path: &[Key<'a>]) -> Vec<Key<'a>> {
        let mut keys = vec![Key::Name("problems"), Key::Name(self.name)];
        keys.extend_from_slice(path);
        keys
    }

    fn invalid(&self, message: String) -> ConfigError {
        self.file.errors.invalid(message)
    }

    /// A command's word that names no file: the error points at that word.
    fn missing(&self, keys: &[Key<'_>], what: &str, missing: &Missing) -> ConfigError {
        let mut keys = keys.to_vec();
        keys.push(Key::Index(missing.index));
        self.file.errors.at(
            &keys,
            format!("problem `{}`, {what}: {}", self.name, missing.message),
        )
    }

    fn limits(&self, problem: &RawProblem) -> Result<ProblemLimits, ConfigError> {
        let name = self.name;
        let defaults = self.file.defaults;
        let time = problem
            .time_limit
            .or(defaults.time_limit)
            .map_or(DEFAULT_TIME_LIMIT, |d| d.0);
        let wall = problem
            .wall_limit
            .or(defaults.wall_limit)
            .map_or_else(|| crate::sandbox::run::wall_limit(time), |d| d.0);
        if wall < time {
            return Err(self.invalid(format!(
                "problem `{name}`: wall-limit ({}) is below time-limit ({})",
                units::format_duration(wall),
                units::format_duration(time)
            )));
        }
        Ok(ProblemLimits {
            time,
            wall,
            memory: problem
                .memory_limit
                .or(defaults.memory_limit)
                .map_or(DEFAULT_MEMORY_LIMIT, |s| s.0),
            output: problem
                .output_limit
                .or(defaults.output_limit)
                .map_or(DEFAULT_OUTPUT_LIMIT, |s| s.0),
        })
    }

    /// The table's checker, else `[defaults]`'s.
    fn checker(&self, checker: Option<&RawChecker>) -> Result<Checker, ConfigError> {
        let Some(checker) = checker else {
            return Ok(self.file.default_checker.clone());
        };
        resolve_checker(checker, &self.file.files).map_err(|(word, message)| {
            self.file.errors.at(
                &checker_keys(&self.keys(&[]), word),
                format!("problem `{}`, checker: {message}", self.name),
            )
        })
    }

    fn interactor(&self, problem: &RawProblem) -> Result<Option<Interactor>, ConfigError> {
        resolve_interactor(problem, &self.file.files).map_err(|(keys, message)| {
            self.file.errors.at(
                &self.keys(&keys),
                format!("problem `{}`: {message}", self.name),
            )
        })
    }

    fn generators(&self, raw: Vec<RawGenerator>) -> Result<Vec<Generator>, ConfigError> {
        let name = self.name;
        let mut generators = Vec::new();
        for (index, generator) in raw.into_iter().enumerate() {
            check_command(&generator.command).map_err(|m| {
                self.invalid(format!(
                    "problem `{name}`, generator `{}`: {m}",
                    generator.name
                ))
            })?;
            let keys = self.keys(&[
                Key::Name("generators"),
                Key::Index(index),
                Key::Name("command"),
            ]);
            self.file
                .files
                .check(&generator.command)
                .map_err(|m| self.missing(&keys, &format!("generator `{}`", generator.name), &m))?;
            if !generator.name.contains("{seed") && generator.seeds.first != generator.seeds.last {
                return Err(self.invalid(format!(
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
        Ok(generators)
    }

    /// The reference runs in a fresh folder: the files it names (`brute.py`) are made
    /// absolute, from judge.toml's folder.
    fn reference(&self, raw: Option<RawCommand>) -> Result<Option<Vec<String>>, ConfigError> {
        let name = self.name;
        let keys = self.keys(&[Key::Name("reference")]);
        let files = &self.file.files;
        Ok(match raw {
            None => None,
            Some(RawCommand::File(file)) => Some(vec![files.file_only(&file).map_err(|m| {
                self.file
                    .errors
                    .at(&keys, format!("problem `{name}`, reference: {}", m.message))
            })?]),
            Some(RawCommand::Command(command)) => {
                check_command(&command)
                    .map_err(|m| self.invalid(format!("problem `{name}`, reference: {m}")))?;
                Some(
                    files
                        .resolve(&command)
                        .map_err(|m| self.missing(&keys, "reference", &m))?,
                )
            }
        })
    }

    fn validator(
        &self,
        validator: Option<&[String]>,
        has_protocol: bool,
    ) -> Result<(), ConfigError> {
        let name = self.name;
        if let Some(validator) = validator {
            check_command(validator)
                .map_err(|m| self.invalid(format!("problem `{name}`, validator: {m}")))?;
            let keys = self.keys(&[Key::Name("validator")]);
            self.file
                .files
                .check(validator)
                .map_err(|m| self.missing(&keys, "validator", &m))?;
        } else if has_protocol {
            return Err(self.invalid(format!(
                "problem `{name}`: `validator-protocol` is set but `validator` is not"
            )));
        }
        Ok(())
    }

    /// `input-file` and `output-file`: plain names in the program's working folder.
    fn file_names(
        &self,
        input: &Option<String>,
        output: &Option<String>,
    ) -> Result<(), ConfigError> {
        let name = self.name;
        for (key, file) in [("input-file", input), ("output-file", output)] {
            if let Some(file) = file {
                check_file_name(file)
                    .map_err(|m| self.invalid(format!("problem `{name}`, {key}: {m}")))?;
            }
        }
        Ok(())
    }

    /// An output-only problem runs no program of the contestant's: a key that says how one
    /// runs would be ignored, so it is an error at `output-only`.
    fn output_only(&self, problem: &RawProblem) -> Result<(), ConfigError> {
        if !problem.output_only {
            return Ok(());
        }
        let runs = [
            ("solution", problem.solution.is_some()),
            ("interactive", problem.interactive),
            ("interactor", problem.interactor.is_some()),
            ("input-file", problem.input_file.is_some()),
            ("output-file", problem.output_file.is_some()),
            ("grader", problem.grader.is_some()),
            ("grader-files", problem.grader_files.is_some()),
        ];
        match runs.iter().find(|(_, set)| *set) {
            Some((key, _)) => Err(self.file.errors.at(
                &self.keys(&[Key::Name("output-only")]),
                format!(
                    "problem `{}` is output-only, so `{key}` means nothing: the contestant hands in answer files, not a program (hint: remove `{key}`; `harness judge {} ANSWERS/` judges a folder of answers)",
                    self.name, self.name
                ),
            )),
            None => Ok(()),
        }
    }

    /// `grader` and `grader-files`: each key a language (its id or an extension of it), each
    /// file one that exists, and no two files of one name, as they all go into one folder.
    fn graders(&self, problem: &RawProblem) -> Result<Graders, ConfigError> {
        let mut graders = Graders::default();
        if problem.grader.is_none() && problem.grader_files.is_none() {
            return Ok(graders);
        }
        let name = self.name;
        if problem.package.is_some() {
            let key = if problem.grader.is_some() {
                "grader"
            } else {
                "grader-files"
            };
            return Err(self.file.errors.at(
                &self.keys(&[Key::Name(key)]),
                format!("problem `{name}` is read from a package, whose `include/` holds its graders, so `{key}` would not be used (hint: put the grader in the package's `include/<language>/`)"),
            ));
        }
        let builtin = languages::builtin();
        let known: Vec<&Language> = self.file.languages.iter().chain(&builtin).collect();
        let mut names: Vec<String> = Vec::new();
        let mut take = |keys: Vec<Key<'_>>, file: &str| -> Result<PathBuf, ConfigError> {
            let path = self.file.root.join(file);
            if !path.is_file() {
                return Err(self.file.errors.at(
                    &keys,
                    format!("problem `{name}`: grader file `{file}` is not a file here (hint: paths are from judge.toml's folder)"),
                ));
            }
            let base = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if names.contains(&base) {
                return Err(self.file.errors.at(
                    &keys,
                    format!("problem `{name}`: two grader files are named `{base}`, and they go into one folder beside the submission (hint: rename one)"),
                ));
            }
            names.push(base);
            Ok(std::path::absolute(&path).unwrap_or(path))
        };
        for (index, file) in problem.grader_files.iter().flatten().enumerate() {
            let keys = self.keys(&[Key::Name("grader-files"), Key::Index(index)]);
            graders.files.push(take(keys, file)?);
        }
        for (key, file) in problem.grader.iter().flatten() {
            let keys = self.keys(&[Key::Name("grader"), Key::Name(key)]);
            // Judge.toml's own table first: it replaces a built-in language of its id.
            let Some(language) = known
                .iter()
                .find(|l| l.id == *key || l.extensions.iter().any(|e| e == key))
            else {
                let mut ids: Vec<&str> = known.iter().map(|l| l.id.as_str()).collect();
                ids.dedup();
                return Err(self.file.errors.at(
                    &keys,
                    format!("problem `{name}`: grader for `{key}`, which is no language (hint: a key is a language's id or extension; known: {})", ids.join(", ")),
                ));
            };
            let code = language.format_code().to_string();
            if graders.sources.iter().any(|(other, _)| *other == code) {
                return Err(self.file.errors.at(
                    &keys,
                    format!(
                        "problem `{name}`: two graders for {} (hint: keep one)",
                        language.name
                    ),
                ));
            }
            let path = take(keys, file)?;
            graders.sources.push((code, path));
        }
        Ok(graders)
    }

    /// `communication`: its manager a source file here or a command, its number of processes
    /// in range, and nothing beside it that says how another kind of problem runs.
    fn communication(&self, problem: &RawProblem) -> Result<Option<Communication>, ConfigError> {
        let Some(raw) = &problem.communication else {
            return Ok(None);
        };
        let name = self.name;
        let keys = |key: &'static str| self.keys(&[Key::Name("communication"), Key::Name(key)]);
        let others = [
            ("solution", problem.solution.is_some()),
            ("interactive", problem.interactive),
            ("interactor", problem.interactor.is_some()),
            ("output-only", problem.output_only),
            ("input-file", problem.input_file.is_some()),
            ("output-file", problem.output_file.is_some()),
            ("checker", problem.checker.is_some()),
            ("package", problem.package.is_some()),
        ];
        if let Some((key, _)) = others.iter().find(|(_, set)| *set) {
            return Err(self.file.errors.at(
                &self.keys(&[Key::Name("communication")]),
                format!("problem `{name}` is a communication task, so `{key}` means nothing: its manager talks with the contestant's processes and gives the verdict (hint: remove `{key}`; stored submissions under solutions/submissions/{name}/ are judged by `harness verify {name}`)"),
            ));
        }
        let processes = raw.processes.unwrap_or(1);
        if !(1..=MAX_PROCESSES).contains(&processes) {
            return Err(self.file.errors.at(
                &keys("processes"),
                format!("problem `{name}`: communication `processes` is {processes}, not from 1 to {MAX_PROCESSES}"),
            ));
        }
        let manager = match &raw.manager {
            RawCommand::File(source) => InteractorProgram::Source(
                self.file
                    .files
                    .file_only(source)
                    .map_err(|m| {
                        self.file.errors.at(
                            &keys("manager"),
                            format!("problem `{name}`, manager: {}", m.message),
                        )
                    })?
                    .into(),
            ),
            RawCommand::Command(command) => {
                check_command(command)
                    .map_err(|m| self.invalid(format!("problem `{name}`, manager: {m}")))?;
                let mut command = self
                    .file
                    .files
                    .resolve(command)
                    .map_err(|m| self.missing(&keys("manager"), "manager", &m))?;
                InteractorProgram::Command {
                    program: PathBuf::from(command.remove(0)),
                    args: command,
                }
            }
        };
        Ok(Some(Communication {
            manager,
            processes,
            user_io: crate::config::UserIo::Std,
            checked: false,
        }))
    }

    fn stress(&self, raw: Option<RawStress>) -> Result<Option<Stress>, ConfigError> {
        let Some(stress) = raw else {
            return Ok(None);
        };
        let stress_keys = self.keys(&[Key::Name("stress")]);
        for (key, command) in [
            ("generator", Some(&stress.generator)),
            ("shrink", stress.shrink.as_ref()),
        ] {
            let Some(command) = command else { continue };
            let mut keys = stress_keys.clone();
            keys.push(Key::Name(key));
            self.file
                .files
                .check(command)
                .map_err(|m| self.missing(&keys, &format!("stress {key}"), &m))?;
        }
        Ok(Some(Stress {
            generator: stress.generator,
            shrink: stress.shrink,
        }))
    }
}
