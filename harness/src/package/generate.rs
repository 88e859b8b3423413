//! `generators/generators.yaml`, BAPCtools' recipe for a package's test data, read and run as
//! `bt generate` runs it (BAPCtools `generate.py`, `doc/generators.md`): the `data:` tree of
//! folders and cases, numbered lists, `generate:` commands with `{seed}`, `{name}` and
//! `{count}`, `count:`, `copy:`, files written in the recipe (`in:`, `ans:`, `yaml:` …),
//! `include:`, `solution:` for the answers, `random_salt`, `retries`. The seed is BAPCtools'
//! own (the SHA-512 of the salted command, modulo 2^31), so a generator given the same
//! command makes the same case under both tools. Generators and solutions are the package's
//! code: they run in the sandbox, in a folder of their own, like its validators, which check
//! each generated input before it is answered. A case that cannot be made (its entry is wrong,
//! its generator fails, its input is invalid) is that case's [`Failure`], and the others are
//! made, as bt reports an entry and goes on; a recipe wrong above its cases, or past a bound,
//! is refused whole. Nothing here writes `data/` but [`apply`].
//!
//! A recipe is downloaded with its package, so nothing in it is trusted: every name it gives
//! (a case, a folder, a generator, a file it copies or includes) is a plain path below the
//! package ([`check_path`](crate::case::discover::check_path), judge.toml's rule); every
//! write and removal, in `data/` and in the cache, goes beneath its folder without following a
//! link ([`Beneath`]); and what it expands to is bounded after each step: commands after their
//! constants ([`MAX_COMMAND`], [`MAX_EXPANDED`]), cases after `count:` and `include:`
//! ([`MAX_CASES`]), files a program writes ([`MAX_FILE`], kept on disk, never in memory).

use std::collections::BTreeMap;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_norway::Value;
use sha2::{Digest, Sha256, Sha512};

use super::validate::{Judgement, Validators};
use super::{PackageError, SourceProgram};
use crate::check::package::RunFolder;
use crate::compile::Language;
use crate::config::ValidatorProtocol;
use crate::sandbox::beneath::{self, Beneath, Entry};
use crate::sandbox::run::{Limits, OutputFileError, Scope, Stdin};
use crate::tool::{self, Role};

/// Where the recipe is, from the package's folder.
pub const RECIPE: &str = "generators/generators.yaml";

/// A generator or a solution writing one case: far more than a submission gets, since a large
/// case takes time to write, but a hung one is still stopped (BAPCtools: `generator_time`):
/// judge.toml's generators' limits, with what is kept of its stdout in memory bounded lower.
const GENERATOR_LIMITS: Limits = Limits {
    output_bytes: 512 << 20,
    ..tool::LIMITS
};

/// The most cases a recipe makes, each value of a `count:` and each case an `include:` links
/// counted: ten times the largest problems' test data, and few enough to list and write.
pub const MAX_CASES: usize = 100_000;
/// The longest `generate:` command once its `{{constants}}` are put in: Linux's own bound on
/// one argument (`MAX_ARG_STRLEN`), which a longer command could not be run with anyway.
pub const MAX_COMMAND: usize = 128 << 10;
/// All the recipe's commands (after constants and `count:`) and the texts it writes itself
/// (`in:`, `ans:`, … once for each case they are written for), together: what reading it may
/// hold in memory.
pub const MAX_EXPANDED: usize = 64 << 20;
/// The largest file generating makes (a generator's stdout or `testcase.*` file, a
/// solution's answer): a generator's output limit. It is kept on disk until it is written
/// into `data/`, never in memory.
pub const MAX_FILE: u64 = GENERATOR_LIMITS.output_bytes;

/// The files of a case the recipe writes and keeps (BAPCtools' `KNOWN_DATA_EXTENSIONS`): first
/// those it may write in the recipe itself, then the images.
const EXTENSIONS: [&str; 13] = [
    "in",
    "ans",
    "out",
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
    "interaction",
    "yaml",
    "png",
    "jpg",
    "svg",
    "pdf",
];
/// Those a case may write in the recipe itself (BAPCtools' `KNOWN_TEXT_DATA_EXTENSIONS`).
const TEXT_EXTENSIONS: &[&str] = EXTENSIONS.split_at(9).0;
/// The files only a sample may have, and those that may be links to the case's own
/// (BAPCtools' `KNOWN_SAMPLE_TESTCASE_EXTENSIONS`, `ALLOWED_LINK_KEYS`).
const SAMPLE_EXTENSIONS: &[&str] = EXTENSIONS.split_at(7).0.split_at(3).1;
/// The top folders of `data:`, in the order BAPCtools makes them.
const ROOT_FOLDERS: [&str; 8] = [
    "sample",
    "secret",
    "invalid_output",
    "invalid_answer",
    "invalid_input",
    "valid_output",
    "testing_tool_test",
    "fuzz",
];
/// Top folders whose cases get no answer from the solution.
const NO_SOLUTION: [&str; 5] = [
    "invalid_input",
    "invalid_answer",
    "invalid_output",
    "valid_output",
    "testing_tool_test",
];

#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error(transparent)]
    Package(#[from] PackageError),
    #[error("`{}`: {at}: {message}", path.display())]
    Recipe {
        path: PathBuf,
        /// Where in the recipe: `data.secret.data.03-big`.
        at: String,
        message: String,
    },
    /// A bound on what a recipe may make: the whole recipe is refused, never one entry.
    #[error("`{}`: {at}: {message}", path.display())]
    Bound {
        path: PathBuf,
        at: String,
        message: String,
    },
    #[error("case `{case}`: {message}")]
    Case { case: String, message: String },
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("`{}` is {what}: `harness gen` writes a package's `data/` only into its own folders, never through a link (hint: make it a plain folder of the package)", path.display())]
    LinkedFolder { path: PathBuf, what: String },
    #[error("{count} file(s) in `data/` would be overwritten, and the harness did not write them: {} (hint: `harness gen --force` moves them to `{}` first; `harness gen --check` shows what differs)", files.join(", "), trash.display())]
    WouldOverwrite {
        count: usize,
        files: Vec<String>,
        trash: PathBuf,
    },
    #[error("`{package}`: {} of generators.yaml's cases could not be made, and the rest were made:{}", failed.len(), list_failures(failed, "data/"))]
    Failed {
        package: String,
        failed: Vec<Failure>,
    },
}

/// A case that could not be made, and why: for a recipe, an error of that entry alone, as
/// `bt generate` reports it and goes on with the others (judge.toml's generators say theirs
/// with it too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Its name: for a recipe, its path below `data/` without extension.
    pub case: String,
    pub reason: String,
}

/// Failures as the lines of an error, each case's name after `folder`.
pub fn list_failures(failed: &[Failure], folder: &str) -> String {
    crate::text::listed(
        failed
            .iter()
            .map(|f| format!("`{folder}{}`: {}", f.case, f.reason)),
    )
}

/// Who writes a case's answer when the recipe gives none.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Solution {
    /// Not said: an accepted submission, as BAPCtools picks one.
    Default,
    /// `solution: /submissions/accepted/sol.py`, from the package's folder.
    Given(String),
    /// `solution:` left empty: no answers are made.
    Disabled,
}

/// What a folder hands down to what is in it.
#[derive(Debug, Clone)]
struct Inherited {
    solution: Solution,
    salt: String,
    retries: u32,
}

/// A `generate:` command, parsed.
#[derive(Debug, Clone, PartialEq)]
struct Invocation {
    /// The program, from the package's folder (`generators/gen.py`).
    program: String,
    /// Its arguments with `{name}` and `{seed}` replaced.
    args: Vec<String>,
    seed: u32,
    uses_seed: bool,
    /// The command as written, after constants and `{count}` (for messages).
    command: String,
}

/// One case of the recipe.
#[derive(Debug, Clone)]
pub struct CaseRule {
    /// Its path below `data/`, without extension: `secret/03-big`.
    pub path: String,
    generate: Option<Invocation>,
    /// `copy:`, from the package's folder, without extension.
    copy: Option<String>,
    /// Files written in the recipe: extension and text.
    written: Vec<(String, String)>,
    /// `in.download: {link: in}`: a file that is a link to another of the case's.
    links: Vec<(String, String)>,
    solution: Solution,
    retries: u32,
    /// A `count:` case that is the same rule as an earlier one (no `{seed}` or `{count}`):
    /// BAPCtools links its files to that one's.
    same_as: Option<String>,
}

/// One folder of the recipe, and the `test_group.yaml` it writes (`Some(None)`: the key is
/// there but empty, which removes the file).
#[derive(Debug, Clone)]
pub struct DirRule {
    pub path: String,
    test_group: Option<Option<Value>>,
}

/// The recipe, read.
#[derive(Debug, Clone)]
pub struct Recipe {
    pub root: PathBuf,
    pub dirs: Vec<DirRule>,
    pub cases: Vec<CaseRule>,
    /// `include:`: the case path made in a folder, and the case it is a link to.
    pub includes: Vec<(String, String)>,
    /// The `generators:` map: a name, and the files (from `generators/`) it is built from.
    generators: BTreeMap<String, Vec<String>>,
    /// What is said about parts the harness does not run (visualizers).
    pub notes: Vec<String>,
    /// The cases whose entries are wrong, in the recipe's order: the others are made.
    pub failed: Vec<Failure>,
}

/// One file `data/` should hold after generating: text the recipe writes itself, a file a
/// program made (waiting on disk), or a relative link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    Bytes(Vec<u8>),
    Staged(Staged),
    Link(PathBuf),
}

/// A file a generator or a solution made, kept in the [`Stage`] until it is compared with
/// `data/` or moved there: its name there, its size and its SHA-256, taken as it was copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staged {
    name: String,
    len: u64,
    digest: String,
}

/// Where the files programs make wait: a fresh folder in the cache, on disk (a run's own
/// folder may be a tmpfs, which is memory), removed when generating is done.
#[derive(Debug)]
pub struct Stage {
    folder: Beneath,
    _dir: tempfile::TempDir,
    next: usize,
}

impl Stage {
    fn new() -> Result<Stage, GenError> {
        let root = crate::compile::cache::cache_root().join("generating");
        std::fs::create_dir_all(&root).map_err(write_error(root.clone()))?;
        let dir = tempfile::Builder::new()
            .prefix("stage-")
            .tempdir_in(&root)
            .map_err(write_error(root.clone()))?;
        let folder = Beneath::open(dir.path()).map_err(write_error(dir.path().to_path_buf()))?;
        Ok(Stage {
            folder,
            _dir: dir,
            next: 0,
        })
    }

    /// Copies `from` in, at most [`MAX_FILE`] bytes.
    fn put(&mut self, from: &mut dyn Read) -> std::io::Result<Staged> {
        self.next += 1;
        let name = format!("{:06}", self.next);
        let mut hashing = Hashing {
            inner: from,
            hasher: Sha256::new(),
        };
        let len = self.folder.write(&name, &mut hashing, MAX_FILE, None)?;
        Ok(Staged {
            name,
            len,
            digest: format!("{:x}", hashing.hasher.finalize()),
        })
    }

    fn open(&self, staged: &Staged) -> std::io::Result<std::fs::File> {
        self.folder
            .open_file(&staged.name)
            .map_err(|error| std::io::Error::other(beneath::describe(&error)))
    }
}

/// A reader that hashes what passes through it.
struct Hashing<'a> {
    inner: &'a mut dyn Read,
    hasher: Sha256,
}

impl Read for Hashing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

/// What generating made: every file below `data/`, by its path there, and the stage that
/// holds those programs made.
#[derive(Debug, Default)]
pub struct Generated {
    pub files: BTreeMap<PathBuf, Content>,
    pub notes: Vec<String>,
    /// The cases that could not be made (their entry, their generator, their validation).
    pub failed: Vec<Failure>,
    stage: Option<Stage>,
}

/// BAPCtools' seed: `int(sha512(salt + command).hexdigest(), 16) % 2**31`, which is the
/// digest's last 31 bits.
pub fn seed(salted_command: &str) -> u32 {
    let digest = Sha512::digest(salted_command.as_bytes());
    let tail = u32::from_be_bytes([digest[60], digest[61], digest[62], digest[63]]);
    tail & 0x7fff_ffff
}

fn recipe_error(path: &Path, at: &str, message: impl Into<String>) -> GenError {
    GenError::Recipe {
        path: path.to_path_buf(),
        // Keys below the top are joined as `.data.secret`: said without the first dot.
        at: match at.strip_prefix('.').unwrap_or(at) {
            "" => "the top level".to_string(),
            at => format!("`{at}`"),
        },
        message: message.into(),
    }
}

/// A bound of [`MAX_CASES`] or [`MAX_EXPANDED`] passed: said as [`recipe_error`] says it, but
/// of the whole recipe.
fn bound_error(path: &Path, at: &str, message: String) -> GenError {
    match recipe_error(path, at, message) {
        GenError::Recipe { path, at, message } => GenError::Bound { path, at, message },
        other => other,
    }
}

/// Whether a YAML value of `data:` is a case (a command, nothing, or a map with a case's key)
/// rather than a folder, as BAPCtools tells them apart.
fn is_case(value: &Value) -> bool {
    match value {
        Value::Null | Value::String(_) => true,
        Value::Mapping(map) => map.keys().filter_map(Value::as_str).any(|key| {
            matches!(key, "copy" | "generate" | "count" | "match") || TEXT_EXTENSIONS.contains(&key)
        }),
        _ => false,
    }
}

/// `count:` as the list of its values (`3` is `[1, 2, 3]`, `1..=3` too).
fn counts(value: &Value, path: &Path, at: &str) -> Result<Vec<i64>, GenError> {
    let Some(count) = value.get("count") else {
        return Ok(vec![1]);
    };
    let bad = |why: &str| recipe_error(path, at, format!("`count`: {why}"));
    let list: Vec<i64> = match count {
        Value::Number(n) => {
            let n = n.as_i64().ok_or_else(|| bad("not an integer"))?;
            if !(1..=100).contains(&n) {
                return Err(bad("must be between 1 and 100"));
            }
            (1..=n).collect()
        }
        Value::Sequence(items) => {
            let mut list = Vec::new();
            for item in items {
                let n = item.as_i64().ok_or_else(|| bad("a list of integers"))?;
                if list.contains(&n) {
                    return Err(bad(&format!("{n} twice")));
                }
                list.push(n);
            }
            list
        }
        Value::String(range) => {
            let (lo, hi) = range
                .split_once("..=")
                .and_then(|(lo, hi)| {
                    Some((
                        lo.trim().parse::<i64>().ok()?,
                        hi.trim().parse::<i64>().ok()?,
                    ))
                })
                .ok_or_else(|| bad("expected a range like `1..=5`"))?;
            if lo > hi || hi - lo >= 100 {
                return Err(bad("the range must go up and hold at most 100 values"));
            }
            (lo..=hi).collect()
        }
        _ => return Err(bad("an integer, a list of integers or a range `1..=5`")),
    };
    if list.is_empty() || list.len() > 100 {
        return Err(bad("between 1 and 100 values"));
    }
    Ok(list)
}

/// How many numbered cases the recipe has, for the width of their numbers (BAPCtools counts
/// every numbered case of the whole file, `count:` ones as many times).
fn numbered_cases(folder: &Value) -> usize {
    let (list, numbered) = match folder.get("data") {
        Some(Value::Sequence(items)) => (items.iter().collect::<Vec<_>>(), true),
        Some(map @ Value::Mapping(_)) => (vec![map], false),
        _ => return 0,
    };
    let entries = list.into_iter().filter_map(Value::as_mapping);
    (entries.flat_map(|entry| entry.values()))
        .map(|value| match (is_case(value), numbered) {
            // Without `count:`, one.
            (true, true) => counts(value, Path::new(""), "").map_or(1, |c| c.len()),
            (true, false) => 0,
            (false, _) => numbered_cases(value),
        })
        .sum()
}

/// What a key of the recipe made: cases, and links of `include:`, by their places in
/// [`Parser`]'s lists (a folder made every one in a range; it is never copied out, so a folder
/// that includes another twice costs what it names, not twice that).
#[derive(Debug, Clone)]
enum Made {
    Cases(Range<usize>),
    Includes(Range<usize>),
}

impl Made {
    fn len(&self) -> usize {
        match self {
            Made::Cases(range) | Made::Includes(range) => range.len(),
        }
    }
}

struct Parser<'a> {
    path: &'a Path,
    /// An interactive or multi-pass problem, whose samples may be `.interaction` files.
    interactive: bool,
    constants: &'a [(String, String)],
    dirs: Vec<DirRule>,
    cases: Vec<CaseRule>,
    includes: Vec<(String, String)>,
    /// Keys seen, with what each made (by place in `cases` and `includes`), for `include:`.
    known: BTreeMap<String, Vec<Made>>,
    /// The bytes of commands and written texts so far (see [`MAX_EXPANDED`]).
    expanded: usize,
    /// The rules made so far, by what they make ([`rule_key`]): a `count:` duplicate links to
    /// the first.
    rules: BTreeMap<[u8; 32], String>,
    /// Each included case's path, and the case it stands for (links lead to that one).
    canonical: BTreeMap<String, String>,
    next_case: usize,
    case_width: usize,
    failed: Vec<Failure>,
}

impl Parser<'_> {
    /// An error of the recipe at `at` (see [`recipe_error`]).
    fn error(&self, at: &str, message: impl Into<String>) -> GenError {
        recipe_error(self.path, at, message)
    }

    fn inherit(&self, parent: &Inherited, yaml: &Value, at: &str) -> Result<Inherited, GenError> {
        let mut config = parent.clone();
        if let Some(solution) = yaml.get("solution") {
            config.solution = match solution {
                Value::Null => Solution::Disabled,
                Value::String(s) if s.trim().is_empty() => Solution::Disabled,
                Value::String(s) if s.starts_with('/') => {
                    self.check_path(at, "`solution:`", &s[1..])?;
                    Solution::Given(s.clone())
                }
                Value::String(s) => {
                    return Err(self.error(
                        at,
                        format!("`solution: {s}` must be a path from the package's folder, starting with `/` (`/submissions/accepted/sol.py`)"),
                    ))
                }
                _ => return Err(self.error(at, "`solution` must be a path")),
            };
        }
        if let Some(salt) = yaml.get("random_salt") {
            config.salt = match salt {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Null => String::new(),
                _ => return Err(self.error(at, "`random_salt` must be a string")),
            };
        }
        if let Some(retries) = yaml.get("retries") {
            config.retries = retries
                .as_u64()
                .filter(|r| *r > 0)
                .ok_or_else(|| self.error(at, "`retries` must be an integer > 0"))?
                as u32;
        }
        Ok(config)
    }

    fn folder(
        &mut self,
        path: &str,
        key: &str,
        yaml: &Value,
        parent: &Inherited,
        at: &str,
    ) -> Result<(), GenError> {
        let config = self.inherit(parent, yaml, at)?;
        let test_group = yaml
            .get("test_group.yaml")
            .map(|v| (!v.is_null()).then(|| v.clone()));
        self.dirs.push(DirRule {
            path: path.to_string(),
            test_group,
        });
        self.known.entry(key.to_string()).or_default();
        let included = self.included(yaml, at)?;
        let numbered = matches!(yaml.get("data"), Some(Value::Sequence(_)));
        let entries = self.data_entries(yaml, at)?;
        let groups_here = entries
            .iter()
            .flat_map(|m| m.values())
            .filter(|v| !is_case(v))
            .count();
        let mut next_group = 0;
        for entry in entries {
            if numbered && entry.len() != 1 {
                return Err(self.error(
                    at,
                    "each item of a numbered `data` list is a map of one key (hint: indent a case's keys one more level)",
                ));
            }
            for (name, value) in self.entry_keys(entry, path, at)? {
                let child_at = format!("{at}.data.{name}");
                let case = is_case(value);
                if !case && !value.is_mapping() {
                    return Err(self.error(&child_at, "neither a case nor a folder"));
                }
                if !numbered && name.is_empty() {
                    return Err(self.error(&child_at, "a case or folder needs a name"));
                }
                if case {
                    self.cases_of(path, &name, value, &config, &child_at, numbered)?;
                } else {
                    let folder_name = if numbered {
                        next_group += 1;
                        numbered_name(next_group, groups_here.to_string().len(), &name)
                    } else {
                        name.clone()
                    };
                    let folder_path = join(path, &folder_name);
                    let before = self.cases.len();
                    let includes_before = self.includes.len();
                    self.folder(&folder_path, &name, value, &config, &child_at)?;
                    let made = [
                        Made::Cases(before..self.cases.len()),
                        Made::Includes(includes_before..self.includes.len()),
                    ];
                    self.known.entry(name.clone()).or_default().extend(made);
                }
            }
        }
        self.link_included(path, &included);
        Ok(())
    }

    /// What a folder's `include` names: earlier keys, whose cases are linked here.
    fn included(&self, yaml: &Value, at: &str) -> Result<Vec<Made>, GenError> {
        let mut included: Vec<Made> = Vec::new();
        let Some(list) = yaml.get("include") else {
            return Ok(included);
        };
        let Some(list) = list.as_sequence() else {
            return Err(self.error(at, "`include` must be a list of keys"));
        };
        for item in list {
            let Some(name) = item.as_str() else {
                return Err(self.error(at, "`include` lists keys (strings)"));
            };
            self.check_key(at, "`include:`", name)?;
            let made = self.known.get(name).ok_or_else(|| {
                self.error(
                    at,
                    format!("`include: {name}` names no earlier case or folder"),
                )
            })?;
            included.extend(made.iter().cloned());
            let naming: usize = included.iter().map(Made::len).sum();
            self.check_cases(at, naming)?;
        }
        Ok(included)
    }

    /// A folder's `data`: one map, or a numbered list of one-key maps.
    fn data_entries<'y>(
        &self,
        yaml: &'y Value,
        at: &str,
    ) -> Result<Vec<&'y serde_norway::Mapping>, GenError> {
        match yaml.get("data") {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Mapping(map)) => Ok(vec![map]),
            Some(Value::Sequence(items)) => items
                .iter()
                .map(|item| {
                    item.as_mapping()
                        .ok_or_else(|| self.error(at, "a numbered `data` list holds one-key maps"))
                })
                .collect(),
            Some(_) => Err(self.error(at, "`data` must be a map or a list")),
        }
    }

    /// The names and values of one map of `data`, checked, in the order they are made.
    fn entry_keys<'y>(
        &self,
        entry: &'y serde_norway::Mapping,
        path: &str,
        at: &str,
    ) -> Result<Vec<(String, &'y Value)>, GenError> {
        let mut keys: Vec<(String, &Value)> = Vec::new();
        for (k, v) in entry {
            let name = match k {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                Value::Number(n) => n.to_string(),
                _ => return Err(self.error(at, "keys of `data` are names")),
            };
            if !name.is_empty() {
                self.check_key(&format!("{at}.data.{name}"), "the name", &name)?;
            }
            keys.push((name, v));
        }
        if path.is_empty() {
            // The top folders, in BAPCtools' order.
            let unknown = keys
                .iter()
                .find(|(name, _)| !ROOT_FOLDERS.contains(&name.as_str()));
            if let Some((name, _)) = unknown {
                return Err(self.error(
                    at,
                    format!(
                        "`{name}` is not a folder of `data/` (hint: one of {})",
                        ROOT_FOLDERS.join(", ")
                    ),
                ));
            }
            keys.sort_by_key(|(name, _)| ROOT_FOLDERS.iter().position(|r| r == name));
        } else {
            keys.sort_by(|a, b| a.0.cmp(&b.0));
        }
        Ok(keys)
    }

    /// The cases one key of `data` makes: one, or one per `count`.
    fn cases_of(
        &mut self,
        path: &str,
        name: &str,
        value: &Value,
        config: &Inherited,
        at: &str,
        numbered: bool,
    ) -> Result<(), GenError> {
        let values = match counts(value, self.path, at) {
            Ok(values) => values,
            Err(error) => return self.entry_failed(join(path, name), error),
        };
        let consecutive = values.iter().max().copied().unwrap_or(1)
            - values.iter().min().copied().unwrap_or(1)
            == values.len() as i64 - 1;
        let padding = if consecutive {
            values
                .iter()
                .map(|v| v.to_string().len())
                .max()
                .unwrap_or(1)
        } else {
            0
        };
        let first_case = self.cases.len();
        for &count in &values {
            let mut case_name = if numbered {
                self.next_case += 1;
                numbered_name(self.next_case, self.case_width, name)
            } else {
                name.to_string()
            };
            if value.get("count").is_some() {
                case_name.push_str(&format!("-{count:0padding$}"));
            }
            let case_path = join(path, &case_name);
            if let Err(error) = self.case(&case_path, value, config, count, at) {
                self.entry_failed(case_path, error)?;
            }
        }
        self.known
            .entry(name.to_string())
            .or_default()
            .push(Made::Cases(first_case..self.cases.len()));
        Ok(())
    }

    /// A case's entry that is wrong is that case's failure (bt: "a parse error of a test case
    /// is handled locally"); any other error, a bound passed among them, is the recipe's.
    fn entry_failed(&mut self, case: String, error: GenError) -> Result<(), GenError> {
        match error {
            GenError::Recipe { .. } => {
                self.failed.push(Failure {
                    case,
                    reason: error.to_string(),
                });
                Ok(())
            }
            other => Err(other),
        }
    }

    /// Links what the folder at `path` includes into it.
    fn link_included(&mut self, path: &str, included: &[Made]) {
        // A case included twice (or by two names) is linked once, to the last it names, as
        // BAPCtools keeps a folder's includes by name.
        let mut placed: BTreeMap<String, usize> = BTreeMap::new();
        let sources: Vec<String> = included
            .iter()
            .flat_map(|made| match made {
                Made::Cases(range) => self.cases[range.clone()]
                    .iter()
                    .map(|case| case.path.clone())
                    .collect::<Vec<_>>(),
                Made::Includes(range) => self.includes[range.clone()]
                    .iter()
                    .map(|(made, _)| made.clone())
                    .collect(),
            })
            .collect();
        for source in sources {
            let file = source.rsplit('/').next().unwrap_or(&source).to_string();
            let source = self.canonical.get(&source).cloned().unwrap_or(source);
            let made = join(path, &file);
            self.canonical.insert(made.clone(), source.clone());
            match placed.get(&made) {
                Some(&index) => self.includes[index].1 = source,
                None => {
                    placed.insert(made.clone(), self.includes.len());
                    self.includes.push((made, source));
                }
            }
        }
    }

    /// The recipe's `generators`: each named generator's files.
    fn generators(&self, yaml: &Value) -> Result<BTreeMap<String, Vec<String>>, GenError> {
        let mut generators = BTreeMap::new();
        let Some(Value::Mapping(map)) = yaml.get("generators") else {
            return Ok(generators);
        };
        for (name, deps) in map {
            let (Some(name), Some(deps)) = (name.as_str(), deps.as_sequence()) else {
                return Err(self.error("generators", "a map of names to lists of files"));
            };
            let at = format!("generators.{name}");
            self.check_key(&at, "the generator", name)?;
            let deps: Vec<String> = deps
                .iter()
                .filter_map(Value::as_str)
                .map(|dep| from_here(dep).to_string())
                .collect();
            for dep in &deps {
                self.check_path(&at, "the file", dep)?;
            }
            if !deps.is_empty() {
                generators.insert(name.to_string(), deps);
            }
        }
        Ok(generators)
    }

    /// A name the recipe gives, as judge.toml's are checked: a plain path below its folder.
    fn check_path(&self, at: &str, what: &str, name: &str) -> Result<(), GenError> {
        crate::case::discover::check_path(name).map_err(|why| {
            self.error(
                at,
                format!("{what} `{name}` is not a plain path inside the package: {why}"),
            )
        })
    }

    /// A key of the recipe (a case, a folder, a generator, an include): one plain name, as
    /// BAPCtools' `FILE_NAME_REGEX` has it.
    fn check_key(&self, at: &str, what: &str, name: &str) -> Result<(), GenError> {
        self.check_path(at, what, name)?;
        if name.contains('/') {
            return Err(self.error(
                at,
                format!(
                    "{what} `{name}` is a path: a key of generators.yaml is one name, without `/`"
                ),
            ));
        }
        Ok(())
    }

    /// Refuses a recipe that would make more than [`MAX_CASES`] with `more` cases to come.
    fn check_cases(&self, at: &str, more: usize) -> Result<(), GenError> {
        if self.cases.len() + self.includes.len() + more > MAX_CASES {
            return Err(bound_error(
                self.path,
                at,
                format!("the recipe makes more than {MAX_CASES} cases (each value of a `count:` and each case an `include:` links counted), more than a problem's test data holds: not run"),
            ));
        }
        Ok(())
    }

    /// Counts `bytes` more of commands and texts against [`MAX_EXPANDED`].
    fn expand(&mut self, at: &str, bytes: usize) -> Result<(), GenError> {
        self.expanded += bytes;
        if self.expanded > MAX_EXPANDED {
            return Err(bound_error(
                self.path,
                at,
                format!("the recipe's commands and texts come to more than {} MiB once `{{{{constants}}}}` and `count:` are put in, more than a recipe holds: not run", MAX_EXPANDED >> 20),
            ));
        }
        Ok(())
    }

    fn case(
        &mut self,
        path: &str,
        yaml: &Value,
        parent: &Inherited,
        count: i64,
        at: &str,
    ) -> Result<(), GenError> {
        self.check_cases(at, 1)?;
        crate::case::discover::check_name(path).map_err(|why| {
            self.error(
                at,
                format!("the case `{path}` is not a plain path inside the package: {why}"),
            )
        })?;
        let name = path.rsplit('/').next().unwrap_or(path);
        if name == "test_group" {
            return Err(self.error(at, "a case may not be named `test_group`"));
        }
        let config = match yaml {
            Value::Mapping(_) => self.inherit(parent, yaml, at)?,
            _ => parent.clone(),
        };
        let (command, copy) = self.case_source(yaml, at)?;
        let (written, links) = match yaml {
            Value::Mapping(map) => self.case_files(map, at)?,
            _ => (Vec::new(), Vec::new()),
        };
        let generate = match command {
            Some(command) => Some(self.invocation(&command, yaml, &config, count, at)?),
            None => None,
        };
        let makes = generate.is_some() || copy.is_some();
        self.check_case_needs(path, at, makes, &written, &links)?;
        let rule_key = rule_key(generate.as_ref(), copy.as_deref(), &written);
        let same_as = match self.rules.get(&rule_key) {
            Some(first) if yaml.get("count").is_some() => Some(first.clone()),
            Some(_) => None,
            None => {
                self.rules.insert(rule_key, path.to_string());
                None
            }
        };
        self.cases.push(CaseRule {
            path: path.to_string(),
            generate,
            copy,
            written,
            links,
            solution: config.solution.clone(),
            retries: config.retries,
            same_as,
        });
        Ok(())
    }

    /// What makes a case's input: a generator's command, or a file of `generators/` to copy.
    fn case_source(
        &self,
        yaml: &Value,
        at: &str,
    ) -> Result<(Option<String>, Option<String>), GenError> {
        let (command, copy) = match yaml {
            Value::Null => {
                return Err(self.error(
                    at,
                    "an empty case (hint: a case is a command, or a map with `generate`, `copy` or `in`)",
                ))
            }
            Value::String(command) if command.ends_with(".in") => (
                None,
                Some(from_here(&command[..command.len() - 3]).to_string()),
            ),
            Value::String(command) => (Some(command.clone()), None),
            map => (
                map.get("generate").and_then(Value::as_str).map(str::to_string),
                map.get("copy")
                    .and_then(Value::as_str)
                    .map(|copy| from_here(copy).to_string()),
            ),
        };
        if let Some(copy) = &copy {
            crate::case::discover::check_name(copy).map_err(|why| {
                self.error(
                    at,
                    format!("`copy: {copy}` is not a plain path inside `generators/`: {why}"),
                )
            })?;
        }
        Ok((command, copy))
    }

    /// The files a case's map writes out as text, and the links between its own files.
    #[expect(clippy::type_complexity, reason = "the two lists a CaseRule holds")]
    fn case_files(
        &mut self,
        map: &serde_norway::Mapping,
        at: &str,
    ) -> Result<(Vec<(String, String)>, Vec<(String, String)>), GenError> {
        let mut written = Vec::new();
        let mut links = Vec::new();
        for &extension in TEXT_EXTENSIONS {
            let Some(value) = map.get(extension) else {
                continue;
            };
            // BAPCtools' links between a case's own files (`in.download: {link: in}`).
            if let Some(target) = value
                .as_mapping()
                .filter(|m| m.len() == 1)
                .and_then(|m| m.get("link"))
                .and_then(Value::as_str)
            {
                let same_kind = extension.split('.').next() == target.split('.').next();
                if !SAMPLE_EXTENSIONS.contains(&extension)
                    || !(SAMPLE_EXTENSIONS.contains(&target) || target == "in" || target == "ans")
                    || !same_kind
                {
                    return Err(self.error(
                        at,
                        format!("`{extension}` cannot link to `{target}` (BAPCtools links a statement or download file to the case's own `.in`/`.ans` kind)"),
                    ));
                }
                links.push((extension.to_string(), target.to_string()));
                continue;
            }
            let mut text = match value {
                Value::String(text) => text.clone(),
                Value::Mapping(_) if extension == "yaml" => {
                    serde_norway::to_string(value).unwrap_or_default()
                }
                Value::Number(n) => n.to_string(),
                _ => return Err(self.error(at, format!("`{extension}` must be the file's text"))),
            };
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            self.expand(at, text.len())?;
            written.push((extension.to_string(), text));
        }
        Ok((written, links))
    }

    /// What a case needs, in the order bt checks it (`required_in`): an input, or for a
    /// sample what is shown and downloaded in its place. `makes` says a generator or a copy
    /// makes the input.
    fn check_case_needs(
        &self,
        path: &str,
        at: &str,
        makes: bool,
        written: &[(String, String)],
        links: &[(String, String)],
    ) -> Result<(), GenError> {
        let sample = path.split('/').next() == Some("sample");
        let has = |key: &str| {
            written.iter().any(|(e, _)| e == key) || links.iter().any(|(e, _)| e == key)
        };
        if !makes && !has_input(path, self.interactive, has) {
            return Err(self.error(
                at,
                if sample {
                    "a case needs `generate`, `copy` or `in` to make its input (a sample may have `in.statement` and `in.download` instead)"
                } else {
                    "a case needs `generate`, `copy` or `in` to make its input"
                },
            ));
        }
        if has("interaction") && !self.interactive {
            return Err(self.error(
                at,
                "`interaction` is only for an interactive or multi-pass problem",
            ));
        }
        if !sample {
            if let Some(key) = SAMPLE_EXTENSIONS.iter().find(|key| has(key)) {
                return Err(self.error(
                    at,
                    format!("`{key}` is only for a sample (BAPCtools shows and offers only the samples' files)"),
                ));
            }
        }
        for (extension, target) in links {
            if links.iter().any(|(e, _)| e == target) {
                return Err(self.error(
                    at,
                    format!("`{extension}` links to `{target}`, which is itself a link (BAPCtools forbids links to links)"),
                ));
            }
        }
        Ok(())
    }

    fn invocation(
        &mut self,
        command: &str,
        yaml: &Value,
        config: &Inherited,
        count: i64,
        at: &str,
    ) -> Result<Invocation, GenError> {
        if command.trim().is_empty() {
            return Err(self.error(at, "`generate` must not be empty"));
        }
        // As BAPCtools: constants first, then `{count}` (only with `count:`).
        let too_long = || {
            self.error(
                at,
                format!("the command is longer than {} KiB once its `{{{{constants}}}}` are put in, longer than a command may be: not run", MAX_COMMAND >> 10),
            )
        };
        let mut command = crate::compile::program::substitute(command, self.constants, MAX_COMMAND)
            .ok_or_else(too_long)?;
        if yaml.get("count").is_some() {
            command = command.replace("{count}", &count.to_string());
            if command.len() > MAX_COMMAND {
                return Err(too_long());
            }
        }
        self.expand(at, command.len())?;
        let mut salted = config.salt.clone();
        if count != 1 {
            salted.push_str(&format!(":{}", count - 1));
        }
        salted.push_str(command.trim());
        let seed = seed(&salted);
        let words = shlex::split(&command).ok_or_else(|| {
            self.error(
                at,
                format!("cannot split `{command}` into words (an unclosed quote?)"),
            )
        })?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| self.error(at, "`generate` must name a program"))?;
        if program.starts_with('/') {
            return Err(self.error(
                at,
                format!("`{program}`: a generator is named from `generators/`, not with an absolute path"),
            ));
        }
        // `./gen.py` is `gen.py`, as BAPCtools' paths read it.
        let program = from_here(program);
        self.check_path(at, "the generator", program)?;
        let seeds: usize = args.iter().map(|a| seed_spans(a).len()).sum();
        if seeds > 1 {
            return Err(self.error(at, "`{seed}` may appear at most once"));
        }
        let args = args
            .iter()
            .map(|arg| {
                let arg = arg.replace("{name}", "testcase");
                replace_seed(&arg, seed)
            })
            .collect();
        Ok(Invocation {
            program: format!("generators/{program}"),
            args,
            seed,
            uses_seed: seeds == 1,
            command,
        })
    }
}

/// What decides a case's files, as a digest: its command (program and arguments), `copy:` and
/// written texts. Each part is length-prefixed, so no two rules share one.
fn rule_key(
    generate: Option<&Invocation>,
    copy: Option<&str>,
    written: &[(String, String)],
) -> [u8; 32] {
    let mut hasher = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    match generate {
        Some(invocation) => {
            part(b"generate");
            part(invocation.program.as_bytes());
            part(&(invocation.args.len() as u64).to_le_bytes());
            for arg in &invocation.args {
                part(arg.as_bytes());
            }
        }
        None => part(b"no command"),
    }
    match copy {
        Some(copy) => {
            part(b"copy");
            part(copy.as_bytes());
        }
        None => part(b"no copy"),
    }
    part(&(written.len() as u64).to_le_bytes());
    for (extension, text) in written {
        part(extension.as_bytes());
        part(text.as_bytes());
    }
    hasher.finalize().into()
}

/// A path of the recipe without its leading `./`s, which name the folder it is in (BAPCtools
/// reads its paths with `pathlib`, which drops them).
fn from_here(path: &str) -> &str {
    path.trim_start_matches("./")
}

/// The `{seed}` and `{seed:N}` spans of an argument.
fn seed_spans(arg: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(start) = arg[from..].find("{seed").map(|i| i + from) {
        let rest = &arg[start + 5..];
        let end = if rest.starts_with('}') {
            Some(start + 6)
        } else if let Some(digits) = rest.strip_prefix(':') {
            let n = digits.bytes().take_while(u8::is_ascii_digit).count();
            (n > 0 && digits[n..].starts_with('}')).then(|| start + 7 + n)
        } else {
            None
        };
        match end {
            Some(end) => {
                spans.push((start, end));
                from = end;
            }
            None => from = start + 5,
        }
    }
    spans
}

fn replace_seed(arg: &str, seed: u32) -> String {
    let mut out = String::new();
    let mut at = 0;
    for (start, end) in seed_spans(arg) {
        out.push_str(&arg[at..start]);
        out.push_str(&seed.to_string());
        at = end;
    }
    out.push_str(&arg[at..]);
    out
}

/// The name of the `number`th item of a numbered `data` list, `width` digits wide.
fn numbered_name(number: usize, width: usize, name: &str) -> String {
    let prefix = format!("{number:0width$}");
    if name.is_empty() {
        prefix
    } else {
        format!("{prefix}-{name}")
    }
}

fn join(folder: &str, name: &str) -> String {
    if folder.is_empty() {
        name.to_string()
    } else {
        format!("{folder}/{name}")
    }
}

/// Reads the package's recipe. `constants` are problem.yaml's; `interactive` says the problem
/// is interactive or multi-pass (see [`problem_settings`]).
pub fn read(
    root: &Path,
    constants: &[(String, String)],
    interactive: bool,
) -> Result<Recipe, GenError> {
    let path = root.join(RECIPE);
    super::check_inside(root, &path)?;
    let yaml = super::yaml::read(&path)?;
    if !yaml.is_mapping() || is_case(&yaml) {
        return Err(recipe_error(
            &path,
            "",
            "the recipe must be a map with `data:`",
        ));
    }
    let mut parser = Parser {
        path: &path,
        interactive,
        constants,
        dirs: Vec::new(),
        cases: Vec::new(),
        includes: Vec::new(),
        known: BTreeMap::new(),
        expanded: 0,
        rules: BTreeMap::new(),
        canonical: BTreeMap::new(),
        next_case: 0,
        case_width: numbered_cases(&yaml).to_string().len(),
        failed: Vec::new(),
    };
    let generators = parser.generators(&yaml)?;
    let mut notes = Vec::new();
    if yaml.get("visualizer").is_some()
        || root.join("input_visualizer").is_dir()
        || root.join("output_visualizer").is_dir()
    {
        notes.push(
            "visualizers are not run: no `.png`/`.svg` images are made (bt generate makes them)"
                .to_string(),
        );
    }
    let top = Inherited {
        solution: Solution::Default,
        salt: String::new(),
        retries: 1,
    };
    if matches!(yaml.get("data"), Some(Value::Sequence(_))) {
        return Err(recipe_error(
            &path,
            "data",
            "the top `data` is a map of folders, not a numbered list",
        ));
    }
    parser.folder("", "", &yaml, &top, "")?;
    Ok(Recipe {
        root: root.to_path_buf(),
        dirs: parser.dirs,
        cases: parser.cases,
        includes: parser.includes,
        generators,
        notes,
        failed: parser.failed,
    })
}

/// problem.yaml's constants, and whether the problem is interactive or multi-pass (its cases
/// then get an empty `.ans` rather than a solution's output).
pub fn problem_settings(root: &Path) -> Result<(Vec<(String, String)>, bool), GenError> {
    let path = root.join("problem.yaml");
    super::check_inside(root, &path)?;
    let yaml = if path.is_file() {
        super::yaml::read(&path)?
    } else {
        Value::Mapping(Default::default())
    };
    let constants = super::kattis::read_constants(yaml.get("constants"));
    let interactive = ["type", "validation"]
        .iter()
        .flat_map(|key| super::kattis::words(yaml.get(*key)))
        .any(|w| w.contains("interactive") || w.contains("multi-pass"));
    Ok((constants, interactive))
}

/// The package's input validators, built to check what its generators make (one that cannot
/// be built is said in a note and not run, as `validate` says it).
pub fn input_validators(
    root: &Path,
    constants: &[(String, String)],
    languages: &[Language],
) -> Result<Validators, GenError> {
    let sources = super::kattis::input_validators_of(root, constants)?;
    Ok(super::validate::build_sources(&sources, languages, None))
}

/// What generating needs beyond the recipe.
pub struct Context<'a> {
    pub languages: &'a [Language],
    pub constants: &'a [(String, String)],
    /// Interactive and multi-pass problems get an empty `.ans` where none is made.
    pub interactive: bool,
    /// The package's input validators, run on each generated `.in` as bt runs them.
    pub validators: &'a Validators,
}

/// The programs built so far, by their path from the package's folder.
#[derive(Default)]
struct Built {
    generators: BTreeMap<String, super::build::Built>,
    /// Programs that could not be built, and why: tried once, each case that needs one fails.
    broken: BTreeMap<String, String>,
    solutions: BTreeMap<String, crate::compile::submission::Prepared>,
    default_solution: Option<Option<String>>,
}

/// Runs the recipe: every case's files, the folders' `test_group.yaml`, the links of
/// `include:` and of repeated `count:` cases. `on_case` is told each case done. A folder of
/// `data/` that is a link is refused before any program runs.
pub fn generate(
    recipe: &Recipe,
    context: &Context<'_>,
    on_case: &mut dyn FnMut(&str),
) -> Result<Generated, GenError> {
    check_folders(recipe)?;
    let mut out = begin(recipe, context);
    let mut stage = Stage::new()?;
    let mut built = Built::default();
    // The extensions each case was given, so that a link to it looks up only those.
    let mut made: std::collections::HashMap<String, Vec<String>> = Default::default();
    for case in &recipe.cases {
        if crate::sandbox::interrupt::is_interrupted() {
            return Err(case_error(&case.path, "interrupted"));
        }
        if let Some(first) = case
            .same_as
            .as_ref()
            .filter(|first| made.contains_key(*first))
        {
            link_case(&mut out.files, &made, &case.path, first);
            // Its links are files of its own, which an `include:` of it links to in turn.
            let exts = made.get(first).cloned().unwrap_or_default();
            made.insert(case.path.clone(), exts);
            on_case(&case.path);
            continue;
        }
        let made_case = match &case.same_as {
            // As bt: "See {first}. SKIPPED."
            Some(first) => Err(case_error(
                &case.path,
                format!("the same rule as `{first}`, which could not be made"),
            )),
            None => generate_case(
                recipe,
                context,
                case,
                &mut built,
                &mut stage,
                &mut out.notes,
            ),
        };
        match made_case {
            Ok(files) => place(&mut out.files, &mut made, case, files),
            Err(error) => out.failed.push(entry_failure(case, error)?),
        }
        on_case(&case.path);
    }
    for (include, source) in &recipe.includes {
        link_case(&mut out.files, &made, include, source);
    }
    out.stage = Some(stage);
    Ok(out)
}

/// What generating makes before any program runs: the notes, the entries already failed, and
/// each folder's `test_group.yaml`.
fn begin(recipe: &Recipe, context: &Context<'_>) -> Generated {
    let mut out = Generated {
        notes: recipe.notes.clone(),
        failed: recipe.failed.clone(),
        ..Generated::default()
    };
    for (source, why) in &context.validators.skipped {
        // A compiler's whole output is `harness validate PKG`'s to show; a note is one line.
        let said = why
            .lines()
            .find(|line| line.contains("error"))
            .or_else(|| crate::text::first_line(why))
            .unwrap_or_default()
            .trim();
        let more = if why.trim_end().contains('\n') {
            " (`harness validate` shows all it said)"
        } else {
            ""
        };
        out.notes.push(format!(
            "the input validator `{}` is not run on the generated inputs: {said}{more}",
            source.name
        ));
    }
    for dir in &recipe.dirs {
        if let Some(Some(yaml)) = &dir.test_group {
            let text = serde_norway::to_string(yaml).unwrap_or_default();
            out.files.insert(
                Path::new(&dir.path).join("test_group.yaml"),
                Content::Bytes(text.into_bytes()),
            );
        }
    }
    out
}

/// A case that could not be made (its program, its run, its validation) is that case's
/// failure, and the others go on; any other error (a write, Ctrl-C) stops generating.
fn entry_failure(case: &CaseRule, error: GenError) -> Result<Failure, GenError> {
    let reason = match error {
        GenError::Case {
            case: named,
            message,
        } if named == case.path => message,
        error @ (GenError::Case { .. } | GenError::Package(_)) => error.to_string(),
        other => return Err(other),
    };
    Ok(Failure {
        case: case.path.clone(),
        reason,
    })
}

/// Puts a case's files, and the links between them, among what `data/` should hold.
fn place(
    out: &mut BTreeMap<PathBuf, Content>,
    made: &mut std::collections::HashMap<String, Vec<String>>,
    case: &CaseRule,
    files: BTreeMap<String, Content>,
) {
    let name = case.path.rsplit('/').next().unwrap_or(&case.path);
    for (ext, target) in &case.links {
        out.insert(
            PathBuf::from(format!("{}.{ext}", case.path)),
            Content::Link(PathBuf::from(format!("{name}.{target}"))),
        );
    }
    let exts = made.entry(case.path.clone()).or_default();
    exts.extend(case.links.iter().map(|(ext, _)| ext.clone()));
    for (ext, content) in files {
        out.insert(PathBuf::from(format!("{}.{ext}", case.path)), content);
        exts.push(ext);
    }
}

/// Links each file the case `source` was given to the case `made` (both paths below
/// `data/`, without extension). Its extensions are looked up, never every file made so far: a
/// recipe of 40,000 repeated cases is linked in a moment, not in minutes.
fn link_case(
    files: &mut BTreeMap<PathBuf, Content>,
    exts: &std::collections::HashMap<String, Vec<String>>,
    made: &str,
    source: &str,
) {
    for ext in exts.get(source).into_iter().flatten() {
        files.insert(
            PathBuf::from(format!("{made}.{ext}")),
            Content::Link(relative_link(made, &format!("{source}.{ext}"))),
        );
    }
}

/// Refuses a `data/` that is a link, or a folder in it the recipe writes into that is one (a
/// package's `data/secret -> /home/me`): before any program runs, as `judge` refuses a
/// package whose data leads out of it. The writes are beneath `data/` and follow no link
/// anyway; this says so before the work is done rather than after.
fn check_folders(recipe: &Recipe) -> Result<(), GenError> {
    let package = open_package(&recipe.root)?;
    let mut folders: Vec<String> = vec!["data".to_string()];
    folders.extend(
        recipe
            .dirs
            .iter()
            .filter(|dir| !dir.path.is_empty())
            .map(|dir| format!("data/{}", dir.path)),
    );
    for folder in folders {
        // Each part on the way, so the message names the link itself.
        let ways = folder.match_indices('/').map(|(end, _)| &folder[..end]);
        for at in ways.chain([folder.as_str()]) {
            let what = match package.entry(at) {
                Ok(None) => break,
                Ok(Some(Entry::Folder)) => continue,
                Ok(Some(Entry::Link(target))) => {
                    let real = std::fs::canonicalize(recipe.root.join(at));
                    match real {
                        Ok(real) if !real.starts_with(&recipe.root) => format!(
                            "a symbolic link out of the package (to `{}`)",
                            real.display()
                        ),
                        _ => format!("a symbolic link (to `{}`)", target.display()),
                    }
                }
                Ok(Some(_)) => "not a folder".to_string(),
                Err(error) => error.to_string(),
            };
            return Err(GenError::LinkedFolder {
                path: recipe.root.join(at),
                what,
            });
        }
    }
    Ok(())
}

/// The link from the file `from` (a path below `data/`, without extension) to `to`, relative
/// to `from`'s folder, as BAPCtools makes it (`../sample/1.in`).
fn relative_link(from: &str, to: &str) -> PathBuf {
    let from_dir: Vec<&str> =
        from.split('/').collect::<Vec<_>>()[..from.matches('/').count()].to_vec();
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count()
        .min(to_parts.len() - 1);
    std::iter::repeat_n("..", from_dir.len() - common)
        .chain(to_parts[common..].iter().copied())
        .collect()
}

/// One case's files, by extension.
fn generate_case(
    recipe: &Recipe,
    context: &Context<'_>,
    case: &CaseRule,
    built: &mut Built,
    stage: &mut Stage,
    notes: &mut Vec<String>,
) -> Result<BTreeMap<String, Content>, GenError> {
    let fail = |message: String| case_error(&case.path, message);
    let mut files: BTreeMap<String, Content> = match &case.generate {
        Some(invocation) => run_with_retries(recipe, context, case, invocation, built, stage)?,
        None => BTreeMap::new(),
    };
    if let Some(copy) = &case.copy {
        copy_case(recipe, case, copy, stage, &mut files)?;
    }
    for (ext, text) in &case.written {
        files.insert(ext.clone(), Content::Bytes(text.clone().into_bytes()));
    }
    // The links of the case's files, each to one it has (bt: "link … is invalid since … was
    // not generated"): those of the input now, those of the answer once it is made.
    let linked = |files: &BTreeMap<String, Content>, kind: &str| {
        for (extension, target) in &case.links {
            if extension.starts_with(kind) && !files.contains_key(target) {
                return Err(fail(format!(
                    "`{extension}` links to `{target}`, which the case does not have (nothing made its `.{target}`)"
                )));
            }
        }
        Ok(())
    };
    linked(&files, "in")?;
    let has = |ext: &str| files.contains_key(ext) || case.links.iter().any(|(e, _)| e == ext);
    if !has_input(&case.path, context.interactive, has) {
        return Err(fail(
            "no `.in` was made (the generator wrote no `testcase.in` and nothing on stdout)"
                .to_string(),
        ));
    }
    let top = case.path.split('/').next().unwrap_or_default();
    if files.contains_key("in") {
        validate_input(recipe, context, case, &files, stage)?;
    }
    if !files.contains_key("ans") && !NO_SOLUTION.contains(&top) {
        if context.interactive {
            files.insert("ans".to_string(), Content::Bytes(Vec::new()));
        } else if let Some(input) = files.get("in") {
            let answer = answer_of(recipe, context, case, input, built, stage, notes)?;
            files.insert("ans".to_string(), Content::Staged(answer));
        }
    }
    linked(&files, "ans")?;
    Ok(files)
}

/// Runs the package's input validators on a generated `.in`, as `bt generate` does before it
/// answers it: each must accept it, with the flags its folders' `test_group.yaml` give; in
/// `invalid_input` one must reject it; a `testing_tool_test` input is not validated.
fn validate_input(
    recipe: &Recipe,
    context: &Context<'_>,
    case: &CaseRule,
    files: &BTreeMap<String, Content>,
    stage: &mut Stage,
) -> Result<(), GenError> {
    let top = case.path.split('/').next().unwrap_or_default();
    if context.validators.built.is_empty() || top == "testing_tool_test" {
        return Ok(());
    }
    let Some(input) = files.get("in") else {
        return Ok(());
    };
    let staged = match input {
        Content::Staged(staged) => staged.clone(),
        Content::Bytes(bytes) => stage.put(&mut bytes.as_slice()).map_err(|e| {
            case_error(
                &case.path,
                format!("cannot stage its input to validate it: {e}"),
            )
        })?,
        Content::Link(_) => return Ok(()),
    };
    let path = stage.folder.join(&staged.name);
    let mut group = input_group(recipe, &case.path);
    // The case's own `.yaml` (written, copied or generated) says its flags last, as 2025-09
    // reads a case's `.yaml` over its folders'.
    if let Some(yaml) = files
        .get("yaml")
        .and_then(|own| read_case_yaml(own, Some(stage)))
    {
        input_flags_of(&mut group, &yaml);
    }
    let expect_rejection = top == "invalid_input";
    // A recipe is BAPCtools', whose validators exit 42 for a valid input.
    let judge = |source: &SourceProgram, built: &super::build::Built| {
        let args = group.input_args(&super::validate::validator_key(source));
        super::validate::judge_input(built, &source.name, &path, args, ValidatorProtocol::Kattis)
    };
    let why = match super::validate::first_rejection(context.validators, judge) {
        Some((_, Judgement::Invalid(_))) if expect_rejection => return Ok(()),
        Some((source, Judgement::Invalid(why))) => format!(
            "the generated input is invalid: `{}` rejects it ({why})",
            source.name
        ),
        Some((source, Judgement::Failed(why))) => {
            format!("the input validator `{}` could not run: {why}", source.name)
        }
        None if expect_rejection => "every input validator accepts this `invalid_input` case (bt: \"All validators accepted.\")".to_string(),
        Some((_, Judgement::Valid)) | None => return Ok(()),
    };
    Err(case_error(&case.path, why))
}

/// The input validator flags a case gets from the `test_group.yaml` of the recipe's folders
/// it is in, the deepest that says `input_validator_args` winning, as 2025-09 inherits them.
fn input_group(recipe: &Recipe, case: &str) -> super::Group {
    let mut group = super::Group::default();
    let mut dirs: Vec<&DirRule> = recipe
        .dirs
        .iter()
        .filter(|dir| dir.path.is_empty() || case.starts_with(&format!("{}/", dir.path)))
        .collect();
    dirs.sort_by_key(|dir| dir.path.matches('/').count() + usize::from(!dir.path.is_empty()));
    for dir in dirs {
        if let Some(Some(yaml)) = &dir.test_group {
            input_flags_of(&mut group, yaml);
        }
    }
    group
}

/// `input_validator_args` of a `test_group.yaml` or a case's `.yaml` over `group`'s, as
/// reading the package takes them (one that is wrong is said when it is read).
fn input_flags_of(group: &mut super::Group, yaml: &Value) {
    if let Ok(Some((input, by_validator))) = super::kattis::input_args_of(yaml, Path::new(RECIPE)) {
        group.input_flags = input;
        group.input_by_validator = by_validator;
    }
}

/// A case's `.yaml` as it was made, read (at most as much as a package's YAML may be); `None`
/// when it is not YAML, which `validate` then says.
fn read_case_yaml(own: &Content, stage: Option<&Stage>) -> Option<Value> {
    let bytes = match own {
        Content::Bytes(bytes) => bytes.clone(),
        Content::Staged(staged) if staged.len <= super::yaml::MAX_BYTES => {
            let mut bytes = Vec::new();
            stage?.open(staged).ok()?.read_to_end(&mut bytes).ok()?;
            bytes
        }
        _ => return None,
    };
    parse_yaml(&bytes)
}

fn parse_yaml(bytes: &[u8]) -> Option<Value> {
    serde_norway::from_str(std::str::from_utf8(bytes).ok()?).ok()
}

/// Whether the case at `path` (below `data/`), with the files `has` says, has an input: an
/// `.in`, or for a sample what is shown and downloaded in its place (an interactive one's
/// `.interaction`), as bt's `required_in` has it.
fn has_input(path: &str, interactive: bool, has: impl Fn(&str) -> bool) -> bool {
    let sample = path.split('/').next() == Some("sample");
    has("in")
        || (sample && has("in.statement") && has("in.download"))
        || (sample && interactive && has("interaction") && has("in.download"))
}

/// A failure of the case at `case`.
fn case_error(case: &str, message: impl Into<String>) -> GenError {
    GenError::Case {
        case: case.to_string(),
        message: message.into(),
    }
}

/// The files the case's generator makes, run again with the next seed up to the case's
/// `retries` while it fails.
fn run_with_retries(
    recipe: &Recipe,
    context: &Context<'_>,
    case: &CaseRule,
    invocation: &Invocation,
    built: &mut Built,
    stage: &mut Stage,
) -> Result<BTreeMap<String, Content>, GenError> {
    let program = generator(recipe, context, &invocation.program, built)?;
    let mut last_error = String::new();
    for attempt in 0..case.retries.max(1) {
        let seed = (u64::from(invocation.seed) + u64::from(attempt)) % (1 << 31);
        let args: Vec<String> = if attempt == 0 || !invocation.uses_seed {
            invocation.args.clone()
        } else {
            invocation
                .args
                .iter()
                .map(|a| a.replace(&invocation.seed.to_string(), &seed.to_string()))
                .collect()
        };
        match run_generator(program, &invocation.program, &args, stage) {
            Ok(made) => return Ok(made),
            Err(error) => last_error = error,
        }
    }
    Err(case_error(
        &case.path,
        format!(
            "the generator `{}` failed: {last_error}",
            invocation.command
        ),
    ))
}

/// The files of `generators/{copy}.*`, staged into `files`.
fn copy_case(
    recipe: &Recipe,
    case: &CaseRule,
    copy: &str,
    stage: &mut Stage,
    files: &mut BTreeMap<String, Content>,
) -> Result<(), GenError> {
    let base = recipe.root.join("generators").join(copy);
    let mut copied = false;
    for ext in EXTENSIONS {
        let source = PathBuf::from(format!("{}.{ext}", base.display()));
        super::check_inside(&recipe.root, &source)?;
        if source.is_file() {
            let staged = std::fs::File::open(&source)
                .and_then(|mut file| stage.put(&mut file))
                .map_err(|e| {
                    case_error(
                        &case.path,
                        format!("cannot copy `{}`: {}", source.display(), too_large(&e)),
                    )
                })?;
            files.insert(ext.to_string(), Content::Staged(staged));
            copied = true;
        }
    }
    if !copied {
        return Err(case_error(
            &case.path,
            format!(
                "`copy: {copy}` copies nothing: no `generators/{copy}.in` (or another of its files)"
            ),
        ));
    }
    Ok(())
}

/// The answer the case's solution writes for `input`.
fn answer_of(
    recipe: &Recipe,
    context: &Context<'_>,
    case: &CaseRule,
    input: &Content,
    built: &mut Built,
    stage: &mut Stage,
    notes: &mut Vec<String>,
) -> Result<Staged, GenError> {
    let solution = match &case.solution {
        Solution::Disabled => None,
        Solution::Given(path) => Some(path.clone()),
        Solution::Default => default_solution(recipe, built, notes)?,
    };
    let Some(solution) = solution else {
        return Err(case_error(
            &case.path,
            "no `.ans` was made and there is no solution to write it (hint: `solution: /submissions/accepted/sol.py` in generators.yaml)".to_string(),
        ));
    };
    run_solution(recipe, context, &solution, input, built, stage)
        .map_err(|m| case_error(&case.path, m))
}

/// The accepted submission that answers cases when the recipe names no `solution:`: the
/// first in name order (BAPCtools picks one at random and writes it into the recipe; here it
/// is said instead).
fn default_solution(
    recipe: &Recipe,
    built: &mut Built,
    notes: &mut Vec<String>,
) -> Result<Option<String>, GenError> {
    if let Some(known) = &built.default_solution {
        return Ok(known.clone());
    }
    let folder = recipe.root.join("submissions/accepted");
    let first = if folder.is_dir() {
        super::sorted_entries(&folder)?
            .into_iter()
            .find(|p| p.is_file())
            .map(|p| format!("/submissions/accepted/{}", super::file_name(&p)))
    } else {
        None
    };
    if let Some(path) = &first {
        notes.push(format!(
            "no `solution:` in generators.yaml: the answers are written by `{path}` (hint: name one with `solution: {path}`)"
        ));
    }
    built.default_solution = Some(first.clone());
    Ok(first)
}

/// The generator `program` (from the package's folder), built once.
fn generator<'b>(
    recipe: &Recipe,
    context: &Context<'_>,
    program: &str,
    built: &'b mut Built,
) -> Result<&'b super::build::Built, GenError> {
    if let Some(why) = built.broken.get(program) {
        return Err(case_error(program, why.clone()));
    }
    if !built.generators.contains_key(program) {
        // Its own failure (its files, its build) is remembered; a write's is not its own.
        let made = build_generator(recipe, context, program).inspect_err(|error| {
            let why = match error {
                GenError::Case { message, .. } => message.clone(),
                GenError::Package(error) => error.to_string(),
                _ => return,
            };
            built.broken.insert(program.to_string(), why);
        })?;
        built.generators.insert(program.to_string(), made);
    }
    Ok(&built.generators[program])
}

/// Builds the generator `program` (from the package's folder): one file, or the files the
/// recipe's `generators:` names, copied into a folder of its own in the cache.
fn build_generator(
    recipe: &Recipe,
    context: &Context<'_>,
    program: &str,
) -> Result<super::build::Built, GenError> {
    // A program in `generators/generators/` is not the generator of another name.
    let (named, name) = match program.strip_prefix("generators/") {
        Some(name) => (true, name),
        None => (false, program),
    };
    let source = match recipe.generators.get(name).filter(|_| named) {
        // A generator of several files: they are copied into a folder of their own, in
        // the cache, by a name checked when the recipe was read (one plain name).
        Some(deps) => {
            let cache_root = crate::compile::cache::cache_root();
            let cache = Beneath::create(&cache_root).map_err(write_error(cache_root.clone()))?;
            let relative = format!(
                "generator-sources/{:016x}/{name}",
                hash_of(&[recipe.root.display().to_string(), name.to_string()])
            );
            cache
                .remove_all(&relative)
                .map_err(write_error(cache.join(&relative)))?;
            let folder = cache
                .make_folders(&relative)
                .map_err(write_error(cache.join(&relative)))?;
            for dep in deps {
                let from = recipe.root.join("generators").join(dep);
                super::check_inside(&recipe.root, &from)?;
                let file_name = super::file_name(&from);
                let to = folder.join(&file_name);
                if let Some(kind) = crate::file_kind::not_regular(&from) {
                    let why = format!(
                        "`{}` is {kind}, not a file of the generator",
                        from.display()
                    );
                    return Err(case_error(program, why));
                }
                std::fs::File::open(&from)
                    .and_then(|mut file| {
                        let mode = file.metadata()?.permissions();
                        let mode = std::os::unix::fs::PermissionsExt::mode(&mode);
                        folder.write(&file_name, &mut file, u64::MAX, Some(mode))
                    })
                    .map_err(write_error(to))?;
            }
            folder.path().to_path_buf()
        }
        None => {
            let source = recipe.root.join(program);
            super::check_program(&recipe.root, &source)?;
            source
        }
    };
    if !source.exists() {
        let why = format!("no generator `{program}` in the package");
        return Err(case_error(program, why));
    }
    let made = super::build::build(
        &SourceProgram {
            path: source,
            name: program.to_string(),
            constants: context.constants.to_vec(),
        },
        context.languages,
        None,
    )?;
    Ok(made)
}

fn hash_of(parts: &[String]) -> u64 {
    let digest = Sha256::digest(parts.join("\0").as_bytes());
    u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// Runs a generator in a folder of its own in the sandbox: the files it leaves there
/// (`testcase.in`, `testcase.ans`, …) are the case's; its stdout is the `.in` when it wrote
/// none. Each is copied to the stage, never into memory, and one larger than [`MAX_FILE`] is
/// an error (its size is read first: a sparse file of a gigabyte costs nothing to refuse).
fn run_generator(
    program: &super::build::Built,
    name: &str,
    args: &[String],
    stage: &mut Stage,
) -> Result<BTreeMap<String, Content>, String> {
    let (folder, command) =
        (program.package_program(name)).in_run_folder(Role::Generator, args, GENERATOR_LIMITS)?;
    let result = command.finish(Stdin::Null, Some(folder.path()))?;
    let left = Beneath::open(folder.path()).map_err(|e| format!("cannot read its folder: {e}"))?;
    let mut made = Vec::new();
    for ext in EXTENSIONS {
        let file_name = format!("testcase.{ext}");
        let file = match left.open_file(&file_name) {
            Ok(file) => file,
            Err(OutputFileError::Missing) => continue,
            Err(error) => {
                return Err(format!(
                    "its `{file_name}` is not taken: {}",
                    beneath::describe(&error)
                ))
            }
        };
        let len = file.metadata().map_err(|e| e.to_string())?.len();
        if len > MAX_FILE {
            return Err(format!(
                "it wrote `{file_name}` of {}, more than the {} a generated file may be",
                crate::units::format_bytes(len),
                crate::units::format_size_limit(MAX_FILE)
            ));
        }
        made.push((ext, file));
    }
    let mut files = BTreeMap::new();
    for (ext, mut file) in made {
        let staged = stage.put(&mut file).map_err(|e| too_large(&e))?;
        files.insert(ext.to_string(), Content::Staged(staged));
    }
    if !files.contains_key("in") && !result.stdout.is_empty() {
        let staged = stage
            .put(&mut result.stdout.as_slice())
            .map_err(|e| too_large(&e))?;
        files.insert("in".to_string(), Content::Staged(staged));
    }
    Ok(files)
}

/// An error of copying a generated file, in words: one that grew past [`MAX_FILE`] while it
/// was copied says the bound.
fn too_large(error: &std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::FileTooLarge {
        format!(
            "larger than the {} a generated file may be",
            crate::units::format_size_limit(MAX_FILE)
        )
    } else {
        error.to_string()
    }
}

/// Runs the solution (a submission of the package, `/submissions/accepted/sol.py`) on an
/// input: its stdout is the answer.
fn run_solution(
    recipe: &Recipe,
    context: &Context<'_>,
    solution: &str,
    input: &Content,
    built: &mut Built,
    stage: &mut Stage,
) -> Result<Staged, String> {
    let staged_path;
    let stdin = match input {
        Content::Bytes(bytes) => Stdin::Bytes(bytes),
        Content::Staged(staged) => {
            staged_path = stage.folder.join(&staged.name);
            Stdin::File(&staged_path)
        }
        Content::Link(_) => return Err("the input is a link".to_string()),
    };
    let relative = super::relative_inside(&recipe.root, solution.trim_start_matches('/'))?;
    super::check_inside(&recipe.root, &relative).map_err(|e| e.to_string())?;
    let (folder, command) = if relative.is_dir() {
        // A program of several files, built as the package's other programs are.
        let program = solution.trim_start_matches('/').to_string();
        let made = generator(recipe, context, &program, built).map_err(|e| e.to_string())?;
        let (folder, command) = (made.package_program(&program)).in_run_folder(
            Role::Solution,
            &[],
            GENERATOR_LIMITS,
        )?;
        (Some(folder), command)
    } else {
        let prepared = prepared_solution(context, solution, &relative, built)?;
        let laid_out = (prepared.executable.clone(), prepared.args.clone());
        let command =
            tool::Command::sandboxed(Role::Solution, solution, laid_out, GENERATOR_LIMITS);
        (
            None,
            tool::Command {
                scope: Scope::Process,
                ..command
            },
        )
    };
    let result = command
        .finish(stdin, folder.as_ref().map(RunFolder::path))
        .map_err(|why| format!("the solution `{solution}` failed: {why}"))?;
    stage
        .put(&mut result.stdout.as_slice())
        .map_err(|e| too_large(&e))
}

/// The solution at `relative` (`solution` as the recipe names it), compiled once.
fn prepared_solution<'b>(
    context: &Context<'_>,
    solution: &str,
    relative: &Path,
    built: &'b mut Built,
) -> Result<&'b crate::compile::Program, String> {
    if !built.solutions.contains_key(solution) {
        if !relative.is_file() {
            return Err(format!("the solution `{solution}` is not in the package"));
        }
        let language = super::languages::language_of(context.languages, relative)
            .map_err(|why| format!("the solution `{solution}`: {why}"))?;
        super::languages::available(language)
            .map_err(|why| format!("the solution `{solution}`: {why}"))?;
        match crate::compile::submission::compile(language, relative, GENERATOR_LIMITS.memory_bytes)
            .map_err(|e| e.to_string())?
        {
            crate::compile::submission::Compiled::Ready(prepared) => {
                built.solutions.insert(solution.to_string(), prepared);
            }
            crate::compile::submission::Compiled::CompileError { message, .. } => {
                return Err(format!(
                    "the solution `{solution}` does not compile:\n{message}"
                ))
            }
        }
    }
    Ok(&built.solutions[solution].program)
}

/// How `data/` compares with what generating made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// Made, not in `data/` yet.
    pub new: Vec<PathBuf>,
    /// In `data/` with other bytes (or another link).
    pub changed: Vec<PathBuf>,
    /// In `data/`, not made by the recipe.
    pub removed: Vec<PathBuf>,
    /// Made and already there as made.
    pub same: usize,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.new.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }
}

/// Whether a file of `data/` is one a recipe makes (a case's file or a `test_group.yaml`):
/// others (a README, hidden files) are left alone.
fn is_data_file(relative: &Path) -> bool {
    let name = relative
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if name.starts_with('.') {
        return false;
    }
    name == "test_group.yaml"
        || EXTENSIONS
            .iter()
            .any(|ext| name.ends_with(&format!(".{ext}")))
}

/// A file `data/` holds now: a regular file by its size and SHA-256 (read as a stream, never
/// held), or a link by where it leads.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Present {
    File { digest: String },
    Link(PathBuf),
}

/// The package's folder, opened to read and write beneath it.
fn open_package(root: &Path) -> Result<Beneath, GenError> {
    Beneath::open(root).map_err(write_error(root.to_path_buf()))
}

/// What `data/` holds now, by path below it. Only regular files and links count, each read
/// beneath the package without following a link.
fn present(package: &Beneath) -> Result<BTreeMap<PathBuf, Present>, GenError> {
    let mut found = BTreeMap::new();
    let data = package.join("data");
    let folder = package
        .folder("data")
        .map_err(|error| GenError::LinkedFolder {
            path: data.clone(),
            what: error.to_string(),
        })?;
    if folder.is_none() {
        return Ok(found);
    }
    for entry in walkdir::WalkDir::new(&data)
        .follow_links(false)
        .follow_root_links(false)
    {
        let entry = entry.map_err(|e| GenError::Write {
            path: data.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        let relative = entry
            .path()
            .strip_prefix(&data)
            .unwrap_or(entry.path())
            .to_path_buf();
        if relative
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
            || !is_data_file(&relative)
        {
            continue;
        }
        let Some(name) = relative.to_str().map(|r| format!("data/{r}")) else {
            continue;
        };
        let read_error = |source| GenError::Write {
            path: entry.path().to_path_buf(),
            source,
        };
        match package.entry(&name).map_err(read_error)? {
            Some(Entry::Link(target)) => {
                found.insert(relative, Present::Link(target));
            }
            Some(Entry::File { .. }) => {
                let mut file = package.open_file(&name).map_err(|error| {
                    read_error(std::io::Error::other(beneath::describe(&error)))
                })?;
                let mut hasher = Sha256::new();
                std::io::copy(&mut file, &mut hasher).map_err(read_error)?;
                found.insert(
                    relative,
                    Present::File {
                        digest: format!("{:x}", hasher.finalize()),
                    },
                );
            }
            _ => {}
        }
    }
    Ok(found)
}

/// Compares what generating made with the package's `data/`.
pub fn compare(root: &Path, generated: &Generated) -> Result<Diff, GenError> {
    let package = open_package(root)?;
    let now = present(&package)?;
    Ok(differences(&package, &now, generated))
}

fn differences(package: &Beneath, now: &BTreeMap<PathBuf, Present>, generated: &Generated) -> Diff {
    let mut diff = Diff::default();
    for (path, content) in &generated.files {
        match now.get(path) {
            None => diff.new.push(path.clone()),
            Some(existing) if same(package, generated, path, existing, content) => {
                diff.same += 1;
            }
            Some(_) => diff.changed.push(path.clone()),
        }
    }
    // A sample's `.interaction` that the recipe does not write is left alone: BAPCtools makes
    // them by running the solution, which the harness does not. So are the files of a case
    // that could not be made this time: it is the recipe's, and its old files are kept.
    diff.removed = now
        .keys()
        .filter(|p| !generated.files.contains_key(*p))
        .filter(|p| p.extension().is_none_or(|e| e != "interaction"))
        .filter(|p| !of_failed_case(p, &generated.failed))
        .cloned()
        .collect();
    diff
}

/// Whether `path` (below `data/`) is a file of one of the cases that could not be made.
fn of_failed_case(path: &Path, failed: &[Failure]) -> bool {
    let path = path.to_string_lossy();
    failed.iter().any(|failure| {
        path.strip_prefix(failure.case.as_str())
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(|ext| EXTENSIONS.contains(&ext))
    })
}

/// Two versions of a file are the same when their bytes are (YAML written by another tool
/// counts as the same when it reads as the same values).
fn same(
    package: &Beneath,
    generated: &Generated,
    path: &Path,
    existing: &Present,
    made: &Content,
) -> bool {
    if digest_of_present(existing) == digest_of(made) {
        return true;
    }
    if path.extension().is_none_or(|e| e != "yaml") || matches!(made, Content::Link(_)) {
        return false;
    }
    let limit = super::yaml::MAX_BYTES;
    let existing = match existing {
        Present::File { .. } => path.to_str().and_then(|p| {
            let file = package.open_file(&format!("data/{p}")).ok()?;
            parse_yaml(&crate::compile::submit::read_at_most(file, limit).ok()??)
        }),
        Present::Link(_) => None,
    };
    let made = read_case_yaml(made, generated.stage.as_ref());
    existing.is_some() && existing == made
}

/// The record of what the harness wrote into a package's `data/`: the SHA-256 of each file
/// (or link target) as written, so a file changed since (by hand, or by another tool) is
/// known not to be the harness's to overwrite. It lives in the cache, not in the package, at
/// this path below the cache.
fn manifest_name(root: &Path) -> String {
    format!(
        "generated/{}-{:016x}.json",
        super::file_name(root),
        hash_of(&[root.display().to_string()])
    )
}

fn digest_of(content: &Content) -> String {
    match content {
        Content::Bytes(bytes) => format!("{:x}", Sha256::digest(bytes)),
        Content::Staged(staged) => staged.digest.clone(),
        Content::Link(target) => link_digest(target),
    }
}

fn digest_of_present(present: &Present) -> String {
    match present {
        Present::File { digest, .. } => digest.clone(),
        Present::Link(target) => link_digest(target),
    }
}

fn link_digest(target: &Path) -> String {
    let link = format!("link:{}", target.display());
    format!("{:x}", Sha256::digest(link.as_bytes()))
}

fn read_manifest(cache: &Beneath, root: &Path) -> BTreeMap<String, String> {
    let mut bytes = Vec::new();
    cache
        .open_file(&manifest_name(root))
        .ok()
        .and_then(|file| file.take(1 << 30).read_to_end(&mut bytes).ok())
        .and_then(|_| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// What writing did.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    pub diff: Diff,
    /// Where files the harness had not written went (with `--force`).
    pub trash: Option<PathBuf>,
}

/// Writes what generating made into `data/`: new files, changed ones and removals. A file that
/// would be overwritten and that the harness did not write (by hand, or another tool's output
/// that differs) stops it before anything is written, unless `force`, which moves such files
/// into a trash folder first, as BAPCtools does; one the recipe does not make (nor a case of it
/// that failed) is moved there always, as `bt generate` cleans up, and the run names the
/// folder. Every write, move and
/// removal is beneath the package's `data/` or the cache, and follows no link: a link on the
/// way is an error, a link at a file's name is replaced, never written through.
pub fn apply(root: &Path, generated: &Generated, force: bool) -> Result<Applied, GenError> {
    let package = open_package(root)?;
    let now = present(&package)?;
    let diff = differences(&package, &now, generated);
    let cache_root = crate::compile::cache::cache_root();
    let cache = Beneath::create(&cache_root).map_err(write_error(cache_root.clone()))?;
    let manifest = read_manifest(&cache, root);
    let ours = |path: &PathBuf| {
        let key = path.display().to_string();
        now.get(path)
            .is_some_and(|present| manifest.get(&key) == Some(&digest_of_present(present)))
    };
    // As bt, a file the recipe does not make goes to the trash, and the run says so; one it
    // makes otherwise than the user's file is overwritten only when told.
    let overwritten: Vec<&PathBuf> = diff.changed.iter().filter(|p| !ours(p)).collect();
    let theirs: Vec<&PathBuf> = overwritten
        .iter()
        .copied()
        .chain(diff.removed.iter().filter(|p| !ours(p)))
        .collect();
    let trash_name = format!(
        "trash/{}-{}",
        super::file_name(root),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    );
    let trash_dir = cache.join(&trash_name);
    if !overwritten.is_empty() && !force {
        return Err(GenError::WouldOverwrite {
            count: overwritten.len(),
            files: overwritten
                .iter()
                .take(10)
                .map(|p| format!("`data/{}`", p.display()))
                .collect(),
            trash: trash_dir,
        });
    }
    if generated.files.is_empty() && now.is_empty() {
        // Nothing made and nothing there: no `data/` is made for nothing.
        return Ok(Applied { diff, trash: None });
    }
    let data = package
        .make_folders("data")
        .map_err(write_error(root.join("data")))?;
    let mut trash = None;
    for path in &theirs {
        let bin = cache
            .make_folders(&trash_name)
            .map_err(write_error(trash_dir.clone()))?;
        let (folder, file) = folder_of(&bin, path)?;
        data.move_to(&name_of(path), folder.as_ref().unwrap_or(&bin), &file)
            .map_err(write_error(root.join("data").join(path)))?;
        trash = Some(trash_dir.clone());
    }
    for path in &diff.removed {
        data.remove(&name_of(path))
            .map_err(write_error(root.join("data").join(path)))?;
    }
    write_generated(root, &data, generated, &diff)?;
    let mut record = manifest;
    for path in &diff.removed {
        record.remove(&path.display().to_string());
    }
    for (path, content) in &generated.files {
        record.insert(path.display().to_string(), digest_of(content));
    }
    let json = serde_json::to_vec_pretty(&record).unwrap_or_default();
    let manifest_name = manifest_name(root);
    let (folder, file) = folder_of(&cache, Path::new(&manifest_name))?;
    folder
        .as_ref()
        .unwrap_or(&cache)
        .write(&file, &mut json.as_slice(), u64::MAX, None)
        .map_err(write_error(cache.join(&manifest_name)))?;
    Ok(Applied { diff, trash })
}

/// A failure to write `path`.
fn write_error(path: PathBuf) -> impl FnOnce(std::io::Error) -> GenError {
    move |source| GenError::Write { path, source }
}

fn name_of(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The folder below `base` that holds `path`, made where missing, and `path`'s file name.
fn folder_of(base: &Beneath, path: &Path) -> Result<(Option<Beneath>, String), GenError> {
    let file = super::file_name(path);
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => {
            let folder = base
                .make_folders(&name_of(parent))
                .map_err(write_error(base.join(&name_of(parent))))?;
            Ok((Some(folder), file))
        }
        None => Ok((None, file)),
    }
}

/// Writes the new and changed files of `diff` into `data`.
fn write_generated(
    root: &Path,
    data: &Beneath,
    generated: &Generated,
    diff: &Diff,
) -> Result<(), GenError> {
    // The folders of `data/` written into, each opened once (a recipe's 40,000 cases are in a
    // handful of folders).
    let mut opened: BTreeMap<PathBuf, Beneath> = BTreeMap::new();
    for path in diff.new.iter().chain(&diff.changed) {
        let parent = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let file = super::file_name(path);
        let folder = if parent.as_os_str().is_empty() {
            data
        } else {
            if !opened.contains_key(&parent) {
                let (folder, _) = folder_of(data, path)?;
                opened.insert(parent.clone(), folder.expect("a file below a folder"));
            }
            &opened[&parent]
        };
        let error = write_error(root.join("data").join(path));
        match &generated.files[path] {
            Content::Bytes(bytes) => folder
                .write(&file, &mut bytes.as_slice(), u64::MAX, None)
                .map(|_| ()),
            Content::Staged(staged) => match &generated.stage {
                Some(stage) => stage.folder.move_to(&staged.name, folder, &file),
                None => Err(std::io::Error::other("the generated file is gone")),
            },
            Content::Link(target) => folder.symlink(&file, target),
        }
        .map_err(error)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_bapctools_own() {
        // int(hashlib.sha512(s.encode()).hexdigest(), 16) % 2**31, computed with Python.
        for (text, expected) in [("gen.py {seed}", 217_127_397u32), ("", 2_032_654_910)] {
            assert_eq!(seed(text), expected, "{text:?}");
        }
    }

    #[test]
    fn seed_placeholders_are_found_and_replaced() {
        assert_eq!(replace_seed("{seed}", 7), "7");
        assert_eq!(replace_seed("s={seed:12}x", 7), "s=7x");
        assert_eq!(replace_seed("{seed:}", 7), "{seed:}");
        assert_eq!(replace_seed("{seedy}", 7), "{seedy}");
        assert_eq!(seed_spans("{seed} {seed:2}").len(), 2);
    }

    #[test]
    fn links_climb_out_of_the_case_folder() {
        assert_eq!(
            relative_link("secret/1", "sample/1.in"),
            Path::new("../sample/1.in")
        );
        assert_eq!(
            relative_link("secret/g/1", "sample/1.in"),
            Path::new("../../sample/1.in")
        );
        assert_eq!(relative_link("secret/2", "secret/1.in"), Path::new("1.in"));
        assert_eq!(
            relative_link("secret/2-general/2-zero", "secret/1-small/1-pos/2-zero.in"),
            Path::new("../1-small/1-pos/2-zero.in")
        );
    }

    /// Every name a recipe gives goes through one check: a table of recipes, each with the
    /// key its error must name.
    #[test]
    fn every_name_a_recipe_gives_is_a_plain_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("generators")).unwrap();
        // A name is refused: the whole recipe, or (a case's own) that case alone.
        let read_recipe = |text: &str| {
            std::fs::write(root.join(RECIPE), text).unwrap();
            match read(&root, &[], false) {
                Ok(recipe) => match recipe.failed.first() {
                    Some(failure) => Err(failure.reason.clone()),
                    None => Ok(recipe),
                },
                Err(error) => Err(error.to_string()),
            }
        };
        let case = |key: &str, body: &str| {
            format!("data:\n  secret:\n    data:\n      {key}:\n        {body}\n")
        };
        let table = [
            (case("'../../x'", "in: '1'"), "`data.secret.data.../../x`"),
            (
                case("'a/b'", "in: '1'"),
                "a key of generators.yaml is one name",
            ),
            (case("'.hidden'", "in: '1'"), "`.hidden`"),
            (case("'x.in'", "in: '1'"), "leave out `.in`"),
            (case("a", "copy: /etc/passwd"), "copy: /etc/passwd"),
            (case("a", "copy: ../../x"), "copy: ../../x"),
            (
                case("a", "generate: generators//etc/x"),
                "generators//etc/x",
            ),
            (case("a", "generate: ../x.py"), "`../x.py`"),
            (case("a", "generate: /x.py"), "not with an absolute path"),
            (
                "solution: //etc/x\ndata:\n  secret:\n    data: {}\n".to_string(),
                "`solution:` `/etc/x`",
            ),
            (
                "generators:\n  /abs: [gen.py]\ndata: {}\n".to_string(),
                "`generators./abs`",
            ),
            (
                "generators:\n  gen: [../../x.py]\ndata: {}\n".to_string(),
                "the file `../../x.py`",
            ),
            (
                "data:\n  secret:\n    include: [a/b]\n    data: {}\n".to_string(),
                "`include:` `a/b`",
            ),
        ];
        for (text, words) in table {
            let error = read_recipe(&text).unwrap_err();
            assert!(error.contains(words), "{text}\n{error}");
            assert!(error.contains("generators.yaml"), "{error}");
        }
        // Honest names pass: a program in a folder, a numbered case, a copy from a folder.
        read_recipe(&case("a", "copy: manual/big")).unwrap();
        read_recipe(&case("b", "generate: sub/gen.py {seed}")).unwrap();
        read_recipe(&case("c", "generate: ./gen.py {seed}")).unwrap();
        read_recipe(&case("d", "copy: ./manual/big")).unwrap();
        read_recipe("data:\n  secret:\n    data:\n      - '': {in: '1'}\n").unwrap();
    }

    /// A case's input validator flags are its deepest folder's that says any, as a list for
    /// every validator or a map by validator name; a wrong case is that case's failure.
    #[test]
    fn input_flags_come_down_the_folders_and_a_wrong_case_fails_alone() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("generators")).unwrap();
        std::fs::write(
            root.join(RECIPE),
            "data:\n  secret:\n    test_group.yaml:\n      input_validator_args: --max 5\n    data:\n      top: {in: '1'}\n      empty:\n      deep:\n        test_group.yaml:\n          input_validator_args:\n            check: [--big]\n        data:\n          a: {in: '1'}\n      plain:\n        data:\n          b: {in: '1'}\n",
        )
        .unwrap();
        let recipe = read(&root, &[], false).unwrap();
        let failed: Vec<&str> = recipe.failed.iter().map(|f| f.case.as_str()).collect();
        assert_eq!(failed, ["secret/empty"]);
        assert!(recipe.failed[0].reason.contains("an empty case"));
        let flags =
            |case: &str, validator: &str| input_group(&recipe, case).input_args(validator).to_vec();
        assert_eq!(flags("secret/top", "check.py"), ["--max", "5"]);
        assert_eq!(flags("secret/plain/b", "check.py"), ["--max", "5"]);
        assert_eq!(flags("secret/deep/a", "check.py"), ["--big"]);
        assert!(flags("secret/deep/a", "other.py").is_empty());
        assert!(of_failed_case(Path::new("secret/empty.in"), &recipe.failed));
        assert!(!of_failed_case(
            Path::new("secret/empty2.in"),
            &recipe.failed
        ));
    }

    #[test]
    fn expansions_are_bounded_in_total() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("generators")).unwrap();
        let read_recipe = |text: &str, constants: &[(String, String)]| {
            std::fs::write(root.join(RECIPE), text).unwrap();
            read(&root, constants, false).map_err(|e| e.to_string())
        };
        // `count:` multiplies what a case writes: 100 times 1 MiB.
        let text = "x".repeat(1 << 20);
        let written = |count: usize| {
            format!("data:\n  secret:\n    data:\n      a:\n        in: {text}\n        count: {count}\n")
        };
        let error = read_recipe(&written(100), &[]).unwrap_err();
        assert!(
            error.contains(
                "`data.secret.data.a`: the recipe's commands and texts come to more than 64 MiB"
            ),
            "{error}"
        );
        // Commands count too, after their constants: 63 MiB of text, then ten of 120 KiB.
        let big = [("BIG".to_string(), "x".repeat(120 << 10))];
        let mut recipe = written(63);
        for key in 0..10 {
            recipe.push_str(&format!("      b{key}: gen.py {{{{BIG}}}}\n"));
        }
        let error = read_recipe(&recipe, &big).unwrap_err();
        assert!(error.contains("`data.secret.data.b"), "{error}");
        assert!(error.contains("more than 64 MiB"), "{error}");
    }
}
