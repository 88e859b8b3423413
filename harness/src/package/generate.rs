//! `generators/generators.yaml`, BAPCtools' recipe for a package's test data, read and run as
//! `bt generate` runs it (BAPCtools `generate.py`, `doc/generators.md`): the `data:` tree of
//! folders and cases, numbered lists, `generate:` commands with `{seed}`, `{name}` and
//! `{count}`, `count:`, `copy:`, files written in the recipe (`in:`, `ans:`, `yaml:` …),
//! `include:`, `solution:` for the answers, `random_salt`, `retries`. The seed is BAPCtools'
//! own (the SHA-512 of the salted command, modulo 2^31), so a generator given the same
//! command makes the same case under both tools. Generators and solutions are the package's
//! code: they run in the sandbox, in a folder of their own, like its validators. Nothing here
//! writes `data/` (see [`apply`]).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_norway::Value;
use sha2::{Digest, Sha256, Sha512};

use super::{PackageError, SourceProgram};
use crate::check::package::{read_left, RunFolder};
use crate::compile::Language;
use crate::sandbox::run::{self, Isolation, Limits, RunRequest, Scope, Stdin, Termination};

/// Where the recipe is, from the package's folder.
pub const RECIPE: &str = "generators/generators.yaml";

/// A generator or a solution writing one case: far more than a submission gets, since a large
/// case takes time to write, but a hung one is still stopped (BAPCtools: `generator_time`).
const GENERATOR_LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(60),
    wall_time: Duration::from_secs(120),
    memory_bytes: 4 << 30,
    output_bytes: 512 << 20,
};

/// The files of a case the recipe writes and keeps (BAPCtools' `KNOWN_DATA_EXTENSIONS`).
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
const TEXT_EXTENSIONS: [&str; 9] = [
    "in",
    "ans",
    "out",
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
    "interaction",
    "yaml",
];
/// The files only a sample may have, and those that may be links to the case's own
/// (BAPCtools' `KNOWN_SAMPLE_TESTCASE_EXTENSIONS`, `ALLOWED_LINK_KEYS`).
const SAMPLE_EXTENSIONS: [&str; 4] = [
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
];
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
    #[error("case `{case}`: {message}")]
    Case { case: String, message: String },
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{count} file(s) in `data/` would be overwritten or removed, and the harness did not write them: {} (hint: `harness gen --force` moves them to `{}` first; `harness gen --check` shows what differs)", files.join(", "), trash.display())]
    WouldOverwrite {
        count: usize,
        files: Vec<String>,
        trash: PathBuf,
    },
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
}

/// One file `data/` should hold after generating: its bytes, or a relative link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    Bytes(Vec<u8>),
    Link(PathBuf),
}

/// What generating made: every file below `data/`, by its path there.
#[derive(Debug, Clone, Default)]
pub struct Generated {
    pub files: BTreeMap<PathBuf, Content>,
    pub notes: Vec<String>,
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
        at: if at.is_empty() {
            "the top level".to_string()
        } else {
            format!("`{at}`")
        },
        message: message.into(),
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
    let mut total = 0;
    for entry in list {
        let Some(entry) = entry.as_mapping() else {
            continue;
        };
        for value in entry.values() {
            if is_case(value) {
                if numbered {
                    total += value.get("count").map_or(1, |_| {
                        counts(value, Path::new(""), "").map_or(1, |c| c.len())
                    });
                }
            } else if value.is_mapping() {
                total += numbered_cases(value);
            }
        }
    }
    total
}

struct Parser<'a> {
    path: &'a Path,
    /// An interactive or multi-pass problem, whose samples may be `.interaction` files.
    interactive: bool,
    constants: &'a [(String, String)],
    dirs: Vec<DirRule>,
    cases: Vec<CaseRule>,
    includes: Vec<(String, String)>,
    /// Keys seen, with the cases each names, for `include:`.
    known: BTreeMap<String, Vec<String>>,
    /// The rules made so far, by what they make: a `count:` duplicate links to the first.
    rules: BTreeMap<String, String>,
    /// Each included case's path, and the case it stands for (links lead to that one).
    canonical: BTreeMap<String, String>,
    next_case: usize,
    case_width: usize,
}

impl Parser<'_> {
    fn inherit(&self, parent: &Inherited, yaml: &Value, at: &str) -> Result<Inherited, GenError> {
        let mut config = parent.clone();
        if let Some(solution) = yaml.get("solution") {
            config.solution = match solution {
                Value::Null => Solution::Disabled,
                Value::String(s) if s.trim().is_empty() => Solution::Disabled,
                Value::String(s) if s.starts_with('/') => Solution::Given(s.clone()),
                Value::String(s) => {
                    return Err(recipe_error(
                        self.path,
                        at,
                        format!("`solution: {s}` must be a path from the package's folder, starting with `/` (`/submissions/accepted/sol.py`)"),
                    ))
                }
                _ => return Err(recipe_error(self.path, at, "`solution` must be a path")),
            };
        }
        if let Some(salt) = yaml.get("random_salt") {
            config.salt = match salt {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Null => String::new(),
                _ => {
                    return Err(recipe_error(
                        self.path,
                        at,
                        "`random_salt` must be a string",
                    ))
                }
            };
        }
        if let Some(retries) = yaml.get("retries") {
            config.retries =
                retries.as_u64().filter(|r| *r > 0).ok_or_else(|| {
                    recipe_error(self.path, at, "`retries` must be an integer > 0")
                })? as u32;
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
        // Includes name earlier keys: their cases are linked here.
        let mut included = Vec::new();
        if let Some(list) = yaml.get("include") {
            let Some(list) = list.as_sequence() else {
                return Err(recipe_error(
                    self.path,
                    at,
                    "`include` must be a list of keys",
                ));
            };
            for item in list {
                let Some(name) = item.as_str() else {
                    return Err(recipe_error(
                        self.path,
                        at,
                        "`include` lists keys (strings)",
                    ));
                };
                let cases = self.known.get(name).cloned().ok_or_else(|| {
                    recipe_error(
                        self.path,
                        at,
                        format!("`include: {name}` names no earlier case or folder"),
                    )
                })?;
                included.extend(cases);
            }
        }
        let numbered = matches!(yaml.get("data"), Some(Value::Sequence(_)));
        let entries: Vec<&serde_norway::Mapping> = match yaml.get("data") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Mapping(map)) => vec![map],
            Some(Value::Sequence(items)) => items
                .iter()
                .map(|item| {
                    item.as_mapping().ok_or_else(|| {
                        recipe_error(self.path, at, "a numbered `data` list holds one-key maps")
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(recipe_error(
                    self.path,
                    at,
                    "`data` must be a map or a list",
                ))
            }
        };
        let groups_here = entries
            .iter()
            .flat_map(|m| m.values())
            .filter(|v| !is_case(v))
            .count();
        let mut next_group = 0;
        for entry in entries {
            if numbered && entry.len() != 1 {
                return Err(recipe_error(
                    self.path,
                    at,
                    "each item of a numbered `data` list is a map of one key (hint: indent a case's keys one more level)",
                ));
            }
            let mut keys: Vec<(String, &Value)> = Vec::new();
            for (k, v) in entry {
                let name = match k {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    Value::Number(n) => n.to_string(),
                    _ => return Err(recipe_error(self.path, at, "keys of `data` are names")),
                };
                keys.push((name, v));
            }
            if path.is_empty() {
                // The top folders, in BAPCtools' order.
                for (name, _) in &keys {
                    if !ROOT_FOLDERS.contains(&name.as_str()) {
                        return Err(recipe_error(
                            self.path,
                            at,
                            format!(
                                "`{name}` is not a folder of `data/` (hint: one of {})",
                                ROOT_FOLDERS.join(", ")
                            ),
                        ));
                    }
                }
                keys.sort_by_key(|(name, _)| ROOT_FOLDERS.iter().position(|r| r == name));
            } else {
                keys.sort_by(|a, b| a.0.cmp(&b.0));
            }
            for (name, value) in keys {
                let child_at = format!("{at}.data.{name}");
                let case = is_case(value);
                if !case && !value.is_mapping() {
                    return Err(recipe_error(
                        self.path,
                        &child_at,
                        "neither a case nor a folder",
                    ));
                }
                if !numbered && name.is_empty() {
                    return Err(recipe_error(
                        self.path,
                        &child_at,
                        "a case or folder needs a name",
                    ));
                }
                let numbered_name = |number: usize, width: usize| {
                    let prefix = format!("{number:0width$}");
                    if name.is_empty() {
                        prefix
                    } else {
                        format!("{prefix}-{name}")
                    }
                };
                if case {
                    let values = counts(value, self.path, &child_at)?;
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
                    for &count in &values {
                        let mut case_name = if numbered {
                            self.next_case += 1;
                            numbered_name(self.next_case, self.case_width)
                        } else {
                            name.clone()
                        };
                        if value.get("count").is_some() {
                            case_name.push_str(&format!("-{count:0padding$}"));
                        }
                        let case_path = join(path, &case_name);
                        self.case(&case_path, value, &config, count, &child_at)?;
                        self.known
                            .entry(name.clone())
                            .or_default()
                            .push(case_path.clone());
                    }
                } else {
                    let folder_name = if numbered {
                        next_group += 1;
                        numbered_name(next_group, groups_here.to_string().len())
                    } else {
                        name.clone()
                    };
                    let folder_path = join(path, &folder_name);
                    let before = self.cases.len();
                    let includes_before = self.includes.len();
                    self.folder(&folder_path, &name, value, &config, &child_at)?;
                    let made: Vec<String> = self.cases[before..]
                        .iter()
                        .map(|c| c.path.clone())
                        .chain(
                            self.includes[includes_before..]
                                .iter()
                                .map(|(made, _)| made.clone()),
                        )
                        .collect();
                    self.known.entry(name.clone()).or_default().extend(made);
                }
            }
        }
        for source in included {
            let file = source.rsplit('/').next().unwrap_or(&source).to_string();
            let source = self.canonical.get(&source).cloned().unwrap_or(source);
            let made = join(path, &file);
            self.canonical.insert(made.clone(), source.clone());
            self.includes.push((made, source));
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
        let name = path.rsplit('/').next().unwrap_or(path);
        if name == "test_group" {
            return Err(recipe_error(
                self.path,
                at,
                "a case may not be named `test_group`",
            ));
        }
        let config = match yaml {
            Value::Mapping(_) => self.inherit(parent, yaml, at)?,
            _ => parent.clone(),
        };
        let (command, copy) = match yaml {
            Value::Null => {
                return Err(recipe_error(
                    self.path,
                    at,
                    "an empty case (hint: a case is a command, or a map with `generate`, `copy` or `in`)",
                ))
            }
            Value::String(command) if command.ends_with(".in") => {
                (None, Some(command.trim_end_matches(".in").to_string()))
            }
            Value::String(command) => (Some(command.clone()), None),
            map => (
                map.get("generate").and_then(Value::as_str).map(str::to_string),
                map.get("copy").and_then(Value::as_str).map(str::to_string),
            ),
        };
        let mut written = Vec::new();
        let mut links = Vec::new();
        if let Value::Mapping(map) = yaml {
            for extension in TEXT_EXTENSIONS {
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
                        || !(SAMPLE_EXTENSIONS.contains(&target)
                            || target == "in"
                            || target == "ans")
                        || !same_kind
                    {
                        return Err(recipe_error(
                            self.path,
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
                    _ => {
                        return Err(recipe_error(
                            self.path,
                            at,
                            format!("`{extension}` must be the file's text"),
                        ))
                    }
                };
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                written.push((extension.to_string(), text));
            }
        }
        let generate = match command {
            Some(command) => Some(self.invocation(&command, yaml, &config, count, at)?),
            None => None,
        };
        // What a case needs, in the order bt checks it (`required_in`): an input, or for a
        // sample what is shown and downloaded in its place.
        let sample = path.split('/').next() == Some("sample");
        let has = |key: &str| {
            written.iter().any(|(e, _)| e == key) || links.iter().any(|(e, _)| e == key)
        };
        let makes_input = generate.is_some()
            || copy.is_some()
            || has("in")
            || (sample && has("in.statement") && has("in.download"))
            || (sample && self.interactive && has("interaction") && has("in.download"));
        if !makes_input {
            return Err(recipe_error(
                self.path,
                at,
                if sample {
                    "a case needs `generate`, `copy` or `in` to make its input (a sample may have `in.statement` and `in.download` instead)"
                } else {
                    "a case needs `generate`, `copy` or `in` to make its input"
                },
            ));
        }
        if has("interaction") && !self.interactive {
            return Err(recipe_error(
                self.path,
                at,
                "`interaction` is only for an interactive or multi-pass problem",
            ));
        }
        if !sample {
            if let Some(key) = SAMPLE_EXTENSIONS.iter().find(|key| has(key)) {
                return Err(recipe_error(
                    self.path,
                    at,
                    format!("`{key}` is only for a sample (BAPCtools shows and offers only the samples' files)"),
                ));
            }
        }
        for (extension, target) in &links {
            if links.iter().any(|(e, _)| e == target) {
                return Err(recipe_error(
                    self.path,
                    at,
                    format!("`{extension}` links to `{target}`, which is itself a link (BAPCtools forbids links to links)"),
                ));
            }
        }
        let rule_key = format!(
            "{:?}|{:?}|{:?}",
            generate.as_ref().map(|g| (&g.program, &g.args)),
            copy,
            written
        );
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

    fn invocation(
        &self,
        command: &str,
        yaml: &Value,
        config: &Inherited,
        count: i64,
        at: &str,
    ) -> Result<Invocation, GenError> {
        if command.trim().is_empty() {
            return Err(recipe_error(self.path, at, "`generate` must not be empty"));
        }
        // As BAPCtools: constants first, then `{count}` (only with `count:`).
        let mut command = substitute_constants(command, self.constants);
        if yaml.get("count").is_some() {
            command = command.replace("{count}", &count.to_string());
        }
        let mut salted = config.salt.clone();
        if count != 1 {
            salted.push_str(&format!(":{}", count - 1));
        }
        salted.push_str(command.trim());
        let seed = seed(&salted);
        let words = shlex::split(&command).ok_or_else(|| {
            recipe_error(
                self.path,
                at,
                format!("cannot split `{command}` into words (an unclosed quote?)"),
            )
        })?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| recipe_error(self.path, at, "`generate` must name a program"))?;
        if program.starts_with('/') {
            return Err(recipe_error(
                self.path,
                at,
                format!("`{program}`: a generator is named from `generators/`, not with an absolute path"),
            ));
        }
        let seeds: usize = args.iter().map(|a| seed_spans(a).len()).sum();
        if seeds > 1 {
            return Err(recipe_error(
                self.path,
                at,
                "`{seed}` may appear at most once",
            ));
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

/// `{{name}}` constants in a command, as BAPCtools replaces them in generators.yaml.
fn substitute_constants(text: &str, constants: &[(String, String)]) -> String {
    crate::compile::program::substitute(text, constants)
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
    let mut generators = BTreeMap::new();
    if let Some(Value::Mapping(map)) = yaml.get("generators") {
        for (name, deps) in map {
            let (Some(name), Some(deps)) = (name.as_str(), deps.as_sequence()) else {
                return Err(recipe_error(
                    &path,
                    "generators",
                    "a map of names to lists of files",
                ));
            };
            let deps: Vec<String> = deps
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
            if !deps.is_empty() {
                generators.insert(name.to_string(), deps);
            }
        }
    }
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
    let mut parser = Parser {
        path: &path,
        interactive,
        constants,
        dirs: Vec::new(),
        cases: Vec::new(),
        includes: Vec::new(),
        known: BTreeMap::new(),
        rules: BTreeMap::new(),
        canonical: BTreeMap::new(),
        next_case: 0,
        case_width: numbered_cases(&yaml).to_string().len(),
    };
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
    let words: Vec<String> = ["type", "validation"]
        .iter()
        .filter_map(|key| match yaml.get(*key) {
            Some(Value::String(text)) => Some(vec![text.clone()]),
            Some(Value::Sequence(items)) => Some(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
            ),
            _ => None,
        })
        .flatten()
        .collect();
    let interactive = words
        .iter()
        .any(|w| w.contains("interactive") || w.contains("multi-pass"));
    Ok((constants, interactive))
}

/// What generating needs beyond the recipe.
pub struct Context<'a> {
    pub languages: &'a [Language],
    pub constants: &'a [(String, String)],
    /// Interactive and multi-pass problems get an empty `.ans` where none is made.
    pub interactive: bool,
}

/// The programs built so far, by their path from the package's folder.
struct Built {
    generators: BTreeMap<String, super::build::Built>,
    solutions: BTreeMap<String, crate::compile::submission::Prepared>,
    default_solution: Option<Option<String>>,
}

/// Runs the recipe: every case's files, the folders' `test_group.yaml`, the links of
/// `include:` and of repeated `count:` cases. `on_case` is told each case done.
pub fn generate(
    recipe: &Recipe,
    context: &Context<'_>,
    on_case: &mut dyn FnMut(&str),
) -> Result<Generated, GenError> {
    let mut out = Generated {
        notes: recipe.notes.clone(),
        ..Generated::default()
    };
    let mut built = Built {
        generators: BTreeMap::new(),
        solutions: BTreeMap::new(),
        default_solution: None,
    };
    for dir in &recipe.dirs {
        if let Some(Some(yaml)) = &dir.test_group {
            let text = serde_norway::to_string(yaml).unwrap_or_default();
            out.files.insert(
                Path::new(&dir.path).join("test_group.yaml"),
                Content::Bytes(text.into_bytes()),
            );
        }
    }
    for case in &recipe.cases {
        if crate::sandbox::interrupt::is_interrupted() {
            return Err(GenError::Case {
                case: case.path.clone(),
                message: "interrupted".to_string(),
            });
        }
        if let Some(first) = &case.same_as {
            let made: Vec<(PathBuf, PathBuf)> = out
                .files
                .keys()
                .filter_map(|file| {
                    let ext = extension_of(file, first)?;
                    Some((
                        PathBuf::from(format!("{}.{ext}", case.path)),
                        relative_link(&case.path, &format!("{first}.{ext}")),
                    ))
                })
                .collect();
            for (file, target) in made {
                out.files.insert(file, Content::Link(target));
            }
            on_case(&case.path);
            continue;
        }
        let files = generate_case(recipe, context, case, &mut built, &mut out.notes)?;
        let name = case.path.rsplit('/').next().unwrap_or(&case.path);
        for (ext, target) in &case.links {
            out.files.insert(
                PathBuf::from(format!("{}.{ext}", case.path)),
                Content::Link(PathBuf::from(format!("{name}.{target}"))),
            );
        }
        for (ext, bytes) in files {
            out.files.insert(
                PathBuf::from(format!("{}.{ext}", case.path)),
                Content::Bytes(bytes),
            );
        }
        on_case(&case.path);
    }
    for (made, source) in &recipe.includes {
        let source_files: Vec<(String, PathBuf)> = out
            .files
            .keys()
            .filter_map(|file| Some((extension_of(file, source)?, file.clone())))
            .collect();
        for (ext, _) in source_files {
            out.files.insert(
                PathBuf::from(format!("{made}.{ext}")),
                Content::Link(relative_link(made, &format!("{source}.{ext}"))),
            );
        }
    }
    Ok(out)
}

/// The extension of `file` when it is a file of the case `case` (`secret/1` → `in`).
fn extension_of(file: &Path, case: &str) -> Option<String> {
    let text = file.to_str()?;
    let ext = text.strip_prefix(case)?.strip_prefix('.')?;
    EXTENSIONS.contains(&ext).then(|| ext.to_string())
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
    let mut link = PathBuf::new();
    for _ in common..from_dir.len() {
        link.push("..");
    }
    for part in &to_parts[common..] {
        link.push(part);
    }
    link
}

/// One case's files, by extension.
fn generate_case(
    recipe: &Recipe,
    context: &Context<'_>,
    case: &CaseRule,
    built: &mut Built,
    notes: &mut Vec<String>,
) -> Result<BTreeMap<String, Vec<u8>>, GenError> {
    let fail = |message: String| GenError::Case {
        case: case.path.clone(),
        message,
    };
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    if let Some(invocation) = &case.generate {
        let program = generator(recipe, context, &invocation.program, built)?;
        let mut last_error = String::new();
        let mut done = false;
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
            match run_generator(program, &invocation.program, &args) {
                Ok(made) => {
                    files = made;
                    done = true;
                    break;
                }
                Err(error) => last_error = error,
            }
        }
        if !done {
            return Err(fail(format!(
                "the generator `{}` failed: {last_error}",
                invocation.command
            )));
        }
    }
    if let Some(copy) = &case.copy {
        let base = recipe.root.join("generators").join(copy);
        let mut copied = false;
        for ext in EXTENSIONS {
            let source = PathBuf::from(format!("{}.{ext}", base.display()));
            super::check_inside(&recipe.root, &source)?;
            if source.is_file() {
                let bytes = std::fs::read(&source)
                    .map_err(|e| fail(format!("cannot read `{}`: {e}", source.display())))?;
                files.insert(ext.to_string(), bytes);
                copied = true;
            }
        }
        if !copied {
            return Err(fail(format!(
                "`copy: {copy}` copies nothing: no `generators/{copy}.in` (or another of its files)"
            )));
        }
    }
    for (ext, text) in &case.written {
        files.insert(ext.clone(), text.clone().into_bytes());
    }
    // The links of the case's files, each to one it has (bt: "link … is invalid since … was
    // not generated"): those of the input now, those of the answer once it is made.
    let linked = |files: &BTreeMap<String, Vec<u8>>, kind: &str| {
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
    let sample = case.path.split('/').next() == Some("sample");
    let has = |files: &BTreeMap<String, Vec<u8>>, ext: &str| {
        files.contains_key(ext) || case.links.iter().any(|(e, _)| e == ext)
    };
    let has_input = has(&files, "in")
        || (sample && has(&files, "in.statement") && has(&files, "in.download"))
        || (sample
            && context.interactive
            && has(&files, "interaction")
            && has(&files, "in.download"));
    if !has_input {
        return Err(fail(
            "no `.in` was made (the generator wrote no `testcase.in` and nothing on stdout)"
                .to_string(),
        ));
    }
    let top = case.path.split('/').next().unwrap_or_default();
    if !files.contains_key("ans") && !NO_SOLUTION.contains(&top) {
        if context.interactive {
            files.insert("ans".to_string(), Vec::new());
        } else if let Some(input) = files.get("in") {
            let solution = match &case.solution {
                Solution::Disabled => None,
                Solution::Given(path) => Some(path.clone()),
                Solution::Default => default_solution(recipe, built, notes)?,
            };
            let Some(solution) = solution else {
                return Err(fail(
                    "no `.ans` was made and there is no solution to write it (hint: `solution: /submissions/accepted/sol.py` in generators.yaml)".to_string(),
                ));
            };
            let answer = run_solution(recipe, context, &solution, input, built).map_err(fail)?;
            files.insert("ans".to_string(), answer);
        }
    }
    linked(&files, "ans")?;
    Ok(files)
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
    if !built.generators.contains_key(program) {
        let name = program.trim_start_matches("generators/");
        let named = program.starts_with("generators/");
        let source = match recipe.generators.get(name).filter(|_| named) {
            // A generator of several files: they are copied into a folder of their own.
            Some(deps) => {
                let folder = crate::compile::cache::cache_root()
                    .join("generator-sources")
                    .join(format!(
                        "{:016x}",
                        hash_of(&[recipe.root.display().to_string(), name.to_string()])
                    ))
                    .join(name);
                let _ = std::fs::remove_dir_all(&folder);
                std::fs::create_dir_all(&folder).map_err(|source| GenError::Write {
                    path: folder.clone(),
                    source,
                })?;
                for dep in deps {
                    let from = recipe.root.join("generators").join(dep);
                    super::check_inside(&recipe.root, &from)?;
                    let to = folder.join(super::file_name(&from));
                    std::fs::copy(&from, &to)
                        .map_err(|source| GenError::Write { path: to, source })?;
                }
                folder
            }
            None => {
                let source = recipe.root.join(program);
                super::check_program(&recipe.root, &source)?;
                source
            }
        };
        if !source.exists() {
            return Err(GenError::Case {
                case: program.to_string(),
                message: format!("no generator `{program}` in the package"),
            });
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
        built.generators.insert(program.to_string(), made);
    }
    Ok(&built.generators[program])
}

fn hash_of(parts: &[String]) -> u64 {
    let digest = Sha256::digest(parts.join("\0").as_bytes());
    u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// Runs a generator in a folder of its own in the sandbox: the files it leaves there
/// (`testcase.in`, `testcase.ans`, …) are the case's; its stdout is the `.in` when it wrote
/// none.
fn run_generator(
    program: &super::build::Built,
    name: &str,
    args: &[String],
) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let folder = RunFolder::new().map_err(|e| format!("cannot make a run folder: {e}"))?;
    let (executable, mut all_args) = program
        .package_program(name)
        .laid_out(folder.path())
        .map_err(|e| format!("cannot lay out the generator: {e}"))?;
    all_args.extend(args.iter().map(OsString::from));
    let request = RunRequest::new(&executable, GENERATOR_LIMITS)
        .args(&all_args)
        .stdin(Stdin::Null)
        .scope(Scope::Group)
        .workdir(Some(folder.path()))
        .isolation(Isolation::Sandbox);
    let result = run::run(&request).map_err(|e| e.to_string())?;
    check_ended(&result)?;
    let mut files = BTreeMap::new();
    for ext in EXTENSIONS {
        if let Some(bytes) = read_left(
            folder.path(),
            &format!("testcase.{ext}"),
            GENERATOR_LIMITS.output_bytes as usize,
        ) {
            files.insert(ext.to_string(), bytes);
        }
    }
    if !files.contains_key("in") && !result.stdout.is_empty() {
        files.insert("in".to_string(), result.stdout);
    }
    Ok(files)
}

/// Why a generator's or solution's run failed, if it did.
fn check_ended(result: &run::RunResult) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&result.stderr_tail);
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| format!(": {}", crate::text::one_line(l.trim(), 200)))
        .unwrap_or_default();
    if let Some(hit) = result.limit_hit {
        return Err(format!("stopped at a limit ({hit:?}){last}"));
    }
    match result.termination {
        Termination::Exited(0) => Ok(()),
        ending => Err(format!("{}{last}", ending.describe())),
    }
}

/// Runs the solution (a submission of the package, `/submissions/accepted/sol.py`) on an
/// input: its stdout is the answer.
fn run_solution(
    recipe: &Recipe,
    context: &Context<'_>,
    solution: &str,
    input: &[u8],
    built: &mut Built,
) -> Result<Vec<u8>, String> {
    if !built.solutions.contains_key(solution) {
        let relative = super::relative_inside(&recipe.root, solution.trim_start_matches('/'))?;
        super::check_inside(&recipe.root, &relative).map_err(|e| e.to_string())?;
        if relative.is_dir() {
            // A program of several files, built as the package's other programs are.
            let program = solution.trim_start_matches('/').to_string();
            let made = generator(recipe, context, &program, built).map_err(|e| e.to_string())?;
            let folder = RunFolder::new().map_err(|e| format!("cannot make a run folder: {e}"))?;
            let (executable, args) = made
                .package_program(&program)
                .laid_out(folder.path())
                .map_err(|e| format!("cannot lay out the solution: {e}"))?;
            let request = RunRequest::new(&executable, GENERATOR_LIMITS)
                .args(&args)
                .stdin(Stdin::Bytes(input))
                .scope(Scope::Group)
                .workdir(Some(folder.path()))
                .isolation(Isolation::Sandbox);
            let result = run::run(&request).map_err(|e| e.to_string())?;
            check_ended(&result)
                .map_err(|why| format!("the solution `{solution}` failed: {why}"))?;
            return Ok(result.stdout);
        }
        if !relative.is_file() {
            return Err(format!("the solution `{solution}` is not in the package"));
        }
        let language = super::languages::language_of(context.languages, &relative)
            .map_err(|why| format!("the solution `{solution}`: {why}"))?;
        super::languages::available(language)
            .map_err(|why| format!("the solution `{solution}`: {why}"))?;
        match crate::compile::submission::compile(
            language,
            &relative,
            GENERATOR_LIMITS.memory_bytes,
        )
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
    let prepared = &built.solutions[solution];
    let request = RunRequest::new(&prepared.program.executable, GENERATOR_LIMITS)
        .args(&prepared.program.args)
        .stdin(Stdin::Bytes(input))
        .isolation(Isolation::Sandbox);
    let result = run::run(&request).map_err(|e| e.to_string())?;
    check_ended(&result).map_err(|why| format!("the solution `{solution}` failed: {why}"))?;
    Ok(result.stdout)
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

/// What `data/` holds now, as [`Content`], by path below it.
fn present(data: &Path) -> Result<BTreeMap<PathBuf, Content>, GenError> {
    let mut found = BTreeMap::new();
    if !data.is_dir() {
        return Ok(found);
    }
    for entry in walkdir::WalkDir::new(data).follow_links(false) {
        let entry = entry.map_err(|e| GenError::Write {
            path: data.to_path_buf(),
            source: std::io::Error::other(e.to_string()),
        })?;
        let relative = entry
            .path()
            .strip_prefix(data)
            .unwrap_or(entry.path())
            .to_path_buf();
        if relative
            .components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
            || !is_data_file(&relative)
        {
            continue;
        }
        let kind = entry.file_type();
        let read_error = |source| GenError::Write {
            path: entry.path().to_path_buf(),
            source,
        };
        if kind.is_symlink() {
            found.insert(
                relative,
                Content::Link(std::fs::read_link(entry.path()).map_err(read_error)?),
            );
        } else if kind.is_file() {
            found.insert(
                relative,
                Content::Bytes(std::fs::read(entry.path()).map_err(read_error)?),
            );
        }
    }
    Ok(found)
}

/// Compares what generating made with the package's `data/`.
pub fn compare(root: &Path, generated: &Generated) -> Result<Diff, GenError> {
    let now = present(&root.join("data"))?;
    let mut diff = Diff::default();
    for (path, content) in &generated.files {
        match now.get(path) {
            None => diff.new.push(path.clone()),
            Some(existing) if same(root, path, existing, content) => diff.same += 1,
            Some(_) => diff.changed.push(path.clone()),
        }
    }
    // A sample's `.interaction` that the recipe does not write is left alone: BAPCtools makes
    // them by running the solution, which the harness does not.
    diff.removed = now
        .keys()
        .filter(|p| !generated.files.contains_key(*p))
        .filter(|p| p.extension().is_none_or(|e| e != "interaction"))
        .cloned()
        .collect();
    Ok(diff)
}

/// Two versions of a file are the same when their bytes are (YAML written by another tool
/// counts as the same when it reads as the same values).
fn same(_root: &Path, path: &Path, existing: &Content, made: &Content) -> bool {
    if existing == made {
        return true;
    }
    match (existing, made) {
        (Content::Bytes(a), Content::Bytes(b)) if path.extension().is_some_and(|e| e == "yaml") => {
            let parse = |bytes: &[u8]| {
                std::str::from_utf8(bytes)
                    .ok()
                    .and_then(|t| serde_norway::from_str::<Value>(t).ok())
            };
            parse(a).is_some() && parse(a) == parse(b)
        }
        _ => false,
    }
}

/// The record of what the harness wrote into a package's `data/`: the SHA-256 of each file
/// (or link target) as written, so a file changed since (by hand, or by another tool) is
/// known not to be the harness's to overwrite. It lives in the cache, not in the package.
fn manifest_path(root: &Path) -> PathBuf {
    crate::compile::cache::cache_root()
        .join("generated")
        .join(format!(
            "{}-{:016x}.json",
            super::file_name(root),
            hash_of(&[root.display().to_string()])
        ))
}

fn digest_of(content: &Content) -> String {
    let bytes: Vec<u8> = match content {
        Content::Bytes(bytes) => bytes.clone(),
        Content::Link(target) => format!("link:{}", target.display()).into_bytes(),
    };
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn read_manifest(root: &Path) -> BTreeMap<String, String> {
    std::fs::read(manifest_path(root))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
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
/// would be overwritten or removed and that the harness did not write (by hand, or another
/// tool's output that differs) stops it before anything is written, unless `force`, which
/// moves such files into a trash folder first, as BAPCtools does.
pub fn apply(root: &Path, generated: &Generated, force: bool) -> Result<Applied, GenError> {
    let data = root.join("data");
    let diff = compare(root, generated)?;
    let manifest = read_manifest(root);
    let now = present(&data)?;
    let ours = |path: &PathBuf| {
        let key = path.display().to_string();
        now.get(path)
            .is_some_and(|content| manifest.get(&key) == Some(&digest_of(content)))
    };
    let theirs: Vec<&PathBuf> = diff
        .changed
        .iter()
        .chain(&diff.removed)
        .filter(|p| !ours(p))
        .collect();
    let trash_dir = crate::compile::cache::cache_root()
        .join("trash")
        .join(format!(
            "{}-{}",
            super::file_name(root),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        ));
    if !theirs.is_empty() && !force {
        return Err(GenError::WouldOverwrite {
            count: theirs.len(),
            files: theirs
                .iter()
                .take(10)
                .map(|p| format!("`data/{}`", p.display()))
                .collect(),
            trash: trash_dir,
        });
    }
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GenError::Write { path, source }
    };
    let mut trash = None;
    for path in &theirs {
        let from = data.join(path);
        let to = trash_dir.join(path);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(write_error(parent))?;
        }
        if std::fs::rename(&from, &to).is_err() {
            std::fs::copy(&from, &to).map_err(write_error(&to))?;
            std::fs::remove_file(&from).map_err(write_error(&from))?;
        }
        trash = Some(trash_dir.clone());
    }
    for path in &diff.removed {
        let file = data.join(path);
        if file.symlink_metadata().is_ok() {
            std::fs::remove_file(&file).map_err(write_error(&file))?;
        }
    }
    let mut record = manifest;
    for path in diff.new.iter().chain(&diff.changed) {
        let file = data.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(write_error(parent))?;
        }
        if file.symlink_metadata().is_ok() {
            std::fs::remove_file(&file).map_err(write_error(&file))?;
        }
        match &generated.files[path] {
            Content::Bytes(bytes) => {
                crate::atomic::write(&file, bytes).map_err(|e| GenError::Write {
                    path: e.path,
                    source: e.source,
                })?;
            }
            Content::Link(target) => {
                std::os::unix::fs::symlink(target, &file).map_err(write_error(&file))?;
            }
        }
    }
    for path in &diff.removed {
        record.remove(&path.display().to_string());
    }
    for (path, content) in &generated.files {
        record.insert(path.display().to_string(), digest_of(content));
    }
    let manifest_file = manifest_path(root);
    if let Some(parent) = manifest_file.parent() {
        std::fs::create_dir_all(parent).map_err(write_error(parent))?;
    }
    let json = serde_json::to_vec_pretty(&record).unwrap_or_default();
    crate::atomic::write(&manifest_file, &json).map_err(|e| GenError::Write {
        path: e.path,
        source: e.source,
    })?;
    Ok(Applied { diff, trash })
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
}
