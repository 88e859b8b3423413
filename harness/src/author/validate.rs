//! Input validation: runs a problem's validator on inputs, in parallel, and remembers the
//! inputs it accepted so that judging a thousand unchanged cases does not cost a thousand
//! spawns every time.
//!
//! The memory is a file under `target/harness/valid/`, one per validator, holding a hash of
//! every input that validator accepted. Its name carries the validator's identity (its
//! command, and the size and modification time of every file the command names), so a
//! rebuilt or edited validator starts with an empty memory. Only "valid" is remembered: a
//! rejected input is checked again each time, and its reason is always fresh.

use std::collections::HashSet;
use std::fs::{self, OpenOptions};
use std::hash::{DefaultHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;

use crate::case::discover::Case;
use crate::config::{Config, Problem, ValidatorProtocol};
use crate::sandbox::run::Termination;
use crate::tool::{self, Role, ToolError};

/// Where the memory of accepted inputs lives, below judge.toml's folder.
const CACHE_DIR: &str = "target/harness/valid";

#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    #[error("cannot read input `{}`: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("validating `{}`: {source}", input.display())]
    Tool { input: PathBuf, source: ToolError },
}

/// What the validator said about one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validity {
    Valid,
    /// With the validator's one-line reason (`line 1: n = 14 is out of [6, 13]`).
    Invalid {
        reason: String,
    },
}

/// A case whose input breaks the statement's constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidCase {
    pub case: String,
    pub input: PathBuf,
    pub reason: String,
}

/// A problem's validator, with its memory of accepted inputs.
#[derive(Debug)]
pub struct Validator {
    command: tool::Command,
    /// Which exit code means valid.
    protocol: ValidatorProtocol,
    root: PathBuf,
    cache: Option<Cache>,
}

impl Validator {
    /// The validator judge.toml declares for `problem`, or `None` when it declares none.
    pub fn for_problem(config: &Config, problem: &Problem) -> Option<Validator> {
        let template = problem.validator.as_ref()?;
        Some(Validator {
            command: tool::Command::new(Role::Validator, template, &config.root, &[]),
            protocol: problem.validator_protocol,
            root: config.root.clone(),
            cache: Cache::open(&config.root, template, problem.validator_protocol),
        })
    }

    /// A validator named on the command line (no cache: it has no project folder to keep one).
    pub fn from_command(command: &[String], root: &Path) -> Validator {
        Validator {
            command: tool::Command::new(Role::Validator, command, root, &[]),
            protocol: ValidatorProtocol::Testlib,
            root: root.to_path_buf(),
            cache: None,
        }
    }

    /// Validates one input file.
    pub fn check(&self, input: &Path) -> Result<Validity, ValidateError> {
        let key = match &self.cache {
            Some(cache) => {
                let bytes = fs::read(input).map_err(|source| ValidateError::Read {
                    path: input.to_path_buf(),
                    source,
                })?;
                let key = cache.key(&bytes);
                if cache.known.contains(&key) {
                    return Ok(Validity::Valid);
                }
                Some(key)
            }
            None => None,
        };
        // The validator runs in judge.toml's folder, so a script argument (`validators/x.py`)
        // is found there, as judge.toml's paths are.
        let rejected = self
            .command
            .validate(input, Some(&self.root), self.protocol.valid_exit())
            .map_err(|error| self.tool_error(input, self.command.error(error)))?;
        let Some(result) = rejected else {
            if let (Some(cache), Some(key)) = (&self.cache, key) {
                cache.remember(key);
            }
            return Ok(Validity::Valid);
        };
        match result.termination {
            Termination::Exited(code) if result.limit_hit.is_none() => Ok(Validity::Invalid {
                reason: tool::last_line(&result.stderr_tail)
                    .unwrap_or_else(|| format!("rejected (exit {code}) without a reason")),
            }),
            // A validator that crashes or hangs says nothing about the input: that is our
            // error, not a verdict on the case.
            _ => Err(self.tool_error(
                input,
                ToolError::Failed {
                    role: Role::Validator,
                    command: self.command.shown.clone(),
                    how: self.command.failure(&result).unwrap_or_default(),
                },
            )),
        }
    }

    /// Validates every case's input, `jobs` at a time; the invalid ones come back in case
    /// order. The first error (a validator that crashes) stops the lot.
    pub fn check_cases(
        &self,
        cases: &[Case],
        jobs: usize,
    ) -> Result<Vec<InvalidCase>, ValidateError> {
        let results = parallel_map(cases, jobs, |case| self.check(&case.input));
        self.save();
        let mut invalid = Vec::new();
        for (case, result) in cases.iter().zip(results) {
            if let Validity::Invalid { reason } = result? {
                invalid.push(InvalidCase {
                    case: case.name.clone(),
                    input: case.input.clone(),
                    reason,
                });
            }
        }
        Ok(invalid)
    }

    /// Writes down the inputs accepted since the last save. A cache that cannot be written
    /// costs only speed, so its errors are ignored.
    pub fn save(&self) {
        if let Some(cache) = &self.cache {
            let _ = cache.save();
        }
    }

    fn tool_error(&self, input: &Path, source: ToolError) -> ValidateError {
        ValidateError::Tool {
            input: input.to_path_buf(),
            source,
        }
    }
}

impl Drop for Validator {
    fn drop(&mut self) {
        self.save();
    }
}

/// `f` over `items`, `jobs` threads at a time; results in item order.
pub(crate) fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let jobs = jobs.clamp(1, items.len().max(1));
    if jobs == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { break };
                let result = f(item);
                *results[index]
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(result);
            });
        }
    });
    results
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .expect("every item was mapped")
        })
        .collect()
}

/// The number of cores: validators and generators are short, independent runs.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Hashes of the inputs one validator (in one build) accepted.
#[derive(Debug)]
struct Cache {
    file: PathBuf,
    /// Files of earlier builds of the same validator, removed at the first save.
    stale: Vec<PathBuf>,
    identity: u64,
    known: HashSet<u128>,
    fresh: Mutex<Vec<u128>>,
}

impl Cache {
    /// `None` when the program is a bare name missing from PATH: then nothing is remembered,
    /// and the run itself reports the missing program. A program not built yet gets an
    /// identity without a size and mtime, which its build then changes.
    fn open(root: &Path, template: &[String], protocol: ValidatorProtocol) -> Option<Cache> {
        let mut slot = DefaultHasher::new();
        slot.write(root.to_string_lossy().as_bytes());
        let mut identity = DefaultHasher::new();
        // The same program read with other exit codes accepts other inputs.
        identity.write(protocol.as_str().as_bytes());
        for (index, part) in template.iter().enumerate() {
            slot.write(part.as_bytes());
            slot.write_u8(0);
            identity.write(part.as_bytes());
            let file = if index == 0 {
                program_file(part, root)?
            } else {
                root.join(part)
            };
            // An argument that names a file (a script) is part of the validator too.
            if let Ok(metadata) = fs::metadata(&file) {
                let modified = metadata.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
                identity.write_u64(metadata.len());
                identity.write_u128(modified.as_nanos());
            }
        }
        let slot = slot.finish();
        let identity = identity.finish();
        let dir = root.join(CACHE_DIR);
        let prefix = format!("{slot:016x}-");
        let file = dir.join(format!("{prefix}{identity:016x}"));
        let stale = fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| {
                path != &file
                    && path
                        .file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(&prefix))
            })
            .collect();
        let known = fs::read_to_string(&file)
            .unwrap_or_default()
            .lines()
            // A line torn by two harnesses writing at once is skipped, not trusted.
            .filter(|line| line.len() == 32)
            .filter_map(|line| u128::from_str_radix(line, 16).ok())
            .collect();
        Some(Cache {
            file,
            stale,
            identity,
            known,
            fresh: Mutex::new(Vec::new()),
        })
    }

    /// 128 bits from two differently seeded SipHashes. std does not promise the same hash
    /// across Rust releases: a toolchain update only makes the cache forget.
    fn key(&self, input: &[u8]) -> u128 {
        let half = |seed: u64| {
            let mut hasher = DefaultHasher::new();
            hasher.write_u64(seed);
            hasher.write_u64(self.identity);
            hasher.write(input);
            hasher.finish()
        };
        (u128::from(half(0x5eed_0001)) << 64) | u128::from(half(0x5eed_0002))
    }

    fn remember(&self, key: u128) {
        self.fresh
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(key);
    }

    fn save(&self) -> std::io::Result<()> {
        let fresh = std::mem::take(
            &mut *self
                .fresh
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        if fresh.is_empty() {
            return Ok(());
        }
        for stale in &self.stale {
            let _ = fs::remove_file(stale);
        }
        if let Some(dir) = self.file.parent() {
            fs::create_dir_all(dir)?;
        }
        let text: String = fresh.iter().map(|key| format!("{key:032x}\n")).collect();
        // One append of whole lines: another harness appending at the same time cannot split
        // a line on a local file system.
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.file)?
            .write_all(text.as_bytes())
    }
}

/// The file a command's program names: a path from judge.toml's folder, or a bare name found
/// on PATH as the run will find it.
fn program_file(program: &str, root: &Path) -> Option<PathBuf> {
    crate::sandbox::run::find_program(&crate::tool::resolve_program(program, root)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config;

    fn validator_in(root: &Path, script: &str) -> Validator {
        fs::write(root.join("check.sh"), script).unwrap();
        let config = config::parse(
            "[problems.sum]\nsolution = \"s\"\nvalidator = [\"sh\", \"check.sh\"]\n",
            &root.join("judge.toml"),
        )
        .unwrap();
        let problem = config.problem("sum").unwrap();
        Validator::for_problem(&config, problem).unwrap()
    }

    /// What `check` gives an input the validator refuses with `reason` on stderr.
    fn invalid(reason: &str) -> Validity {
        Validity::Invalid {
            reason: reason.to_string(),
        }
    }

    fn input(root: &Path, name: &str, text: &str) -> PathBuf {
        let path = root.join(name);
        fs::write(&path, text).unwrap();
        path
    }

    const SMALL_ONLY: &str = "read n; if [ \"$n\" -gt 9 ]; then echo \"line 1: n = $n is out of [1, 9]\" >&2; exit 1; fi\n";

    #[test]
    fn reasons_come_from_stderr() {
        let dir = tempfile::tempdir().unwrap();
        let validator = validator_in(dir.path(), SMALL_ONLY);
        let good = input(dir.path(), "good.in", "3\n");
        let bad = input(dir.path(), "bad.in", "14\n");
        assert_eq!(validator.check(&good).unwrap(), Validity::Valid);
        let reason = "line 1: n = 14 is out of [1, 9]";
        assert_eq!(validator.check(&bad).unwrap(), invalid(reason));
    }

    #[test]
    fn valid_inputs_are_remembered_until_the_validator_changes() {
        let dir = tempfile::tempdir().unwrap();
        let good = input(dir.path(), "good.in", "3\n");
        let validator = validator_in(dir.path(), SMALL_ONLY);
        assert_eq!(validator.check(&good).unwrap(), Validity::Valid);
        drop(validator);

        // A validator that now rejects everything, but with the same size and mtime, is
        // trusted to be the same program: the remembered answer stands.
        let script = dir.path().join("check.sh");
        let modified = fs::metadata(&script).unwrap().modified().unwrap();
        let rejecting = "echo no >&2; exit 1;".to_string();
        let same_size = format!("{rejecting:<width$}\n", width = SMALL_ONLY.len() - 1);
        fs::write(&script, &same_size).unwrap();
        fs::File::options()
            .write(true)
            .open(&script)
            .unwrap()
            .set_modified(modified)
            .unwrap();
        let config = config::parse(
            "[problems.sum]\nsolution = \"s\"\nvalidator = [\"sh\", \"check.sh\"]\n",
            &dir.path().join("judge.toml"),
        )
        .unwrap();
        let again = Validator::for_problem(&config, config.problem("sum").unwrap()).unwrap();
        assert_eq!(again.check(&good).unwrap(), Validity::Valid);
        drop(again);

        // Edited (new mtime): the validator runs again and its new verdict counts.
        fs::write(&script, "echo no >&2; exit 1\n").unwrap();
        let edited = Validator::for_problem(&config, config.problem("sum").unwrap()).unwrap();
        assert_eq!(edited.check(&good).unwrap(), invalid("no"));
    }

    #[test]
    fn cases_in_parallel_keep_their_order() {
        let dir = tempfile::tempdir().unwrap();
        let validator = validator_in(dir.path(), SMALL_ONLY);
        let cases: Vec<Case> = (5..15)
            .map(|n| Case {
                name: format!("c{n}"),
                input: input(dir.path(), &format!("c{n}.in"), &format!("{n}\n")),
                answer: dir.path().join(format!("c{n}.ans")),
                args: Vec::new(),
            })
            .collect();
        let invalid = validator.check_cases(&cases, 4).unwrap();
        let names: Vec<&str> = invalid.iter().map(|c| c.case.as_str()).collect();
        assert_eq!(names, ["c10", "c11", "c12", "c13", "c14"]);
    }

    #[test]
    fn a_crashing_validator_is_an_error_not_a_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let validator = validator_in(dir.path(), "kill -SEGV $$\n");
        let any = input(dir.path(), "x.in", "1\n");
        let error = validator.check(&any).unwrap_err().to_string();
        assert!(error.contains("SIGSEGV"), "{error}");
        assert!(error.contains("x.in"), "{error}");
    }
}
