//! Editing a user's judge.toml: a new problem's table is appended after the last problem, a
//! problem's `time-limit` set in its table, the default project set in the user's own config
//! file, and every other byte (comments, order, spacing) stays as the user wrote it
//! (toml_edit).

use super::FileError;
use std::path::{Path, PathBuf};
use std::time::Duration;

use toml_edit::{value, DocumentMut, Item, Table, Value};

use super::error::ConfigError;
use super::parse::parse;
use crate::atomic::{self, WriteError};

/// The opening of a judge.toml the harness creates: enough to find one's way without the
/// README.
const NEW_FILE_HEADER: &str = r#"# judge.toml — the problems of this folder, for `harness` (see its README).
#
# Paths are relative to this file. Durations are written like "1s" or "500ms", sizes like
# "256MiB". One table per problem, [problems.<id>]; the id names it on the command line:
#   harness judge <id> solution.cpp
# Keys of a problem:
#   title, url:     where it comes from.
#   solution:       the program `harness run` judges (optional).
#   cases:          the folder of NAME.in + NAME.ans pairs (default "cases/<id>").
#   time-limit, memory-limit: CPU time and peak memory on one case.
#   checker:        "tokens" (default), "lines", "exact", "float", "unordered-blocks".
#   reference:      the program whose output is the answer of generated cases.
#   validator:      a command that reads an input and says whether it obeys the statement;
#   validator-protocol: "kattis" when it exits 42 for valid, 43 for invalid (else 0 is valid).
#   [[problems.<id>.generators]]: `command` prints one input for each seed of `seeds`
#                   ("{seed}" in it), written as the case `name`: `harness gen <id>`.
#   [problems.<id>.stress]: `generator` prints a random input for "{seed}": `harness stress`.
#   interactive:    the program talks with an interactor, named by `interactor` to judge it.
#   input-file, output-file: the program reads / writes these files instead of stdin / stdout.
#   multi-test:     each input holds several test cases.
"#;

#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("problem `{id}` is already in `{}` (hint: pick another id, or pass --force to replace its table)", path.display())]
    Exists { id: String, path: PathBuf },
    #[error("`{}`: `problems` is not a table of problems", path.display())]
    NotATable { path: PathBuf },
    #[error("problem `{id}` has no table of its own in `{}` to set `{key}` in", path.display())]
    NoTable {
        id: String,
        key: &'static str,
        path: PathBuf,
    },
    #[error("`{}`: `defaults` is not a table (hint: write it as a `[defaults]` table)", path.display())]
    DefaultsNotATable { path: PathBuf },
    #[error("cannot tell where your config file is: neither XDG_CONFIG_HOME nor HOME is set")]
    NoUserConfig,
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// A problem to add: what is not set is left out of the table (the defaults apply).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewProblem {
    pub id: String,
    pub title: Option<String>,
    pub url: Option<String>,
    pub solution: Option<String>,
    pub time_limit: Option<Duration>,
    pub memory_limit: Option<u64>,
    /// A checker name as judge.toml writes it (`"float"`); checked when the file is parsed.
    pub checker: Option<String>,
    pub interactive: bool,
    pub multi_test: bool,
    pub input_file: Option<String>,
    pub output_file: Option<String>,
    /// `reference = "brute.py"`: a file.
    pub reference: Option<String>,
    pub validator: Option<Vec<String>>,
    /// `validator-protocol`, as judge.toml writes it (`"kattis"`).
    pub validator_protocol: Option<String>,
    /// `grader = { cpp = "graders/x/grader.cpp" }`: a language's key and its grader's source.
    pub grader: Vec<(String, String)>,
    /// `grader-files`: the files put beside every submission (the header it includes).
    pub grader_files: Vec<String>,
    /// `[[problems.<id>.generators]]`, in this order.
    pub generators: Vec<NewGenerator>,
    /// `[problems.<id>.stress] generator`.
    pub stress_generator: Option<Vec<String>>,
    /// Lines of a comment put above the table, without their `# `.
    pub comment: Vec<String>,
}

/// One `[[problems.<id>.generators]]` table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewGenerator {
    pub name: String,
    pub command: Vec<String>,
    /// As judge.toml writes them: `"1..=10"`.
    pub seeds: String,
}

/// What to do when the problem's id is already in judge.toml.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IfExists {
    Refuse,
    /// Replace the problem's table (its place and the comment above it stay).
    Replace,
}

/// The id of the problem whose `url` is `url` in the judge.toml at `path`, if one is.
pub fn problem_with_url(path: &Path, url: &str) -> Result<Option<String>, EditError> {
    let Some(text) = read_if_exists(path)? else {
        return Ok(None);
    };
    let config = parse(&text, path)?;
    Ok(config
        .problems
        .into_iter()
        .find(|p| p.url.as_deref() == Some(url))
        .map(|p| p.name))
}

/// What adding did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Added {
    /// judge.toml did not exist and was created.
    pub created_file: bool,
    /// The problem existed and its table was replaced.
    pub replaced: bool,
}

/// The problem ids judge.toml declares; none when it does not exist yet.
pub fn problem_ids(path: &Path) -> Result<Vec<String>, EditError> {
    let Some(text) = read_if_exists(path)? else {
        return Ok(Vec::new());
    };
    let config = parse(&text, path)?;
    Ok(config.problems.into_iter().map(|p| p.name).collect())
}

/// Adds `problem` to the judge.toml at `path` (creating the file if there is none) in one
/// atomic write. The result is parsed as the harness will parse it before anything is written,
/// so a bad value (a checker name, a file name) is an error and the file stays as it was.
pub fn add_problem(
    path: &Path,
    problem: &NewProblem,
    if_exists: IfExists,
) -> Result<Added, EditError> {
    let original = read_if_exists(path)?;
    let (text, added) = match &original {
        None => (
            format!("{NEW_FILE_HEADER}\n{}", render_alone(problem)),
            Added {
                created_file: true,
                replaced: false,
            },
        ),
        Some(text) => {
            // A file the harness cannot read would stay broken after the edit: say so now,
            // with its line and column.
            parse(text, path)?;
            let (edited, replaced) = insert(text, path, problem, if_exists)?;
            (
                edited,
                Added {
                    created_file: false,
                    replaced,
                },
            )
        }
    };
    parse(&text, path)?;
    atomic::write(&edited_file(path), text.as_bytes())?;
    Ok(added)
}

/// `text` (which `config::parse` accepted, so toml_edit should too) as a document to edit; an
/// error is told the same way as judge.toml's own.
fn editable(text: &str, path: &Path) -> Result<DocumentMut, ConfigError> {
    text.parse().map_err(|error: toml_edit::TomlError| {
        FileError::Invalid {
            path: path.to_path_buf(),
            message: error.to_string(),
        }
        .into()
    })
}

/// Puts the tables of the problems `ids` (all in judge.toml) in that order, in the places
/// they hold between them: a contest's problems, stored as they arrived, in contest order.
/// The other tables, comments and spacing stay; one atomic write, only when the order changes.
pub fn order_problems(path: &Path, ids: &[String]) -> Result<(), EditError> {
    let Some(text) = read_if_exists(path)? else {
        return Ok(());
    };
    parse(&text, path)?;
    let mut document = editable(&text, path)?;
    let Some(problems) = document.get_mut("problems").and_then(Item::as_table_mut) else {
        return Ok(());
    };
    let position = |problems: &Table, id: &str| {
        problems
            .get(id)
            .and_then(Item::as_table)
            .and_then(Table::position)
    };
    let mut places: Vec<isize> = Vec::new();
    for id in ids {
        match position(problems, id) {
            Some(place) => places.push(place),
            // A table without a place of its own (or not a table): leave the order be.
            None => return Ok(()),
        }
    }
    let mut sorted = places.clone();
    sorted.sort_unstable();
    if sorted == places {
        return Ok(());
    }
    for (id, place) in ids.iter().zip(sorted) {
        if let Some(table) = problems.get_mut(id).and_then(Item::as_table_mut) {
            table.set_position(Some(place));
        }
    }
    let edited = document.to_string();
    parse(&edited, path)?;
    atomic::write(&edited_file(path), edited.as_bytes())?;
    Ok(())
}

/// Sets `time-limit` in the table of problem `id` to `limit`: the value is replaced where it
/// is, with the comment beside it, or added as the table's last key. One atomic write, none
/// when the table says so already (`Ok(false)`).
pub fn set_time_limit(path: &Path, id: &str, limit: Duration) -> Result<bool, EditError> {
    set_problem_value(path, id, "time-limit", &duration_value(limit))
}

fn set_problem_value(
    path: &Path,
    id: &str,
    key: &'static str,
    text: &str,
) -> Result<bool, EditError> {
    let original = read_if_exists(path)?.ok_or_else(|| EditError::Read {
        path: path.to_path_buf(),
        source: std::io::ErrorKind::NotFound.into(),
    })?;
    parse(&original, path)?;
    let mut document = editable(&original, path)?;
    let no_table = || EditError::NoTable {
        id: id.to_string(),
        key,
        path: path.to_path_buf(),
    };
    let problem = document
        .get_mut("problems")
        .and_then(Item::as_table_like_mut)
        .and_then(|problems| problems.get_mut(id))
        .ok_or_else(no_table)?;
    // `c = { solution = "c" }` is respaced as a whole once a key is added, so that the new
    // key does not land after the last one's trailing space.
    let inline = problem.is_inline_table();
    let table = problem.as_table_like_mut().ok_or_else(no_table)?;
    match table.get_mut(key) {
        Some(Item::Value(old)) => {
            if old.as_str() == Some(text) {
                return Ok(false);
            }
            let mut new = Value::from(text);
            *new.decor_mut() = old.decor().clone();
            *old = new;
        }
        _ => {
            table.insert(key, value(text));
            if inline {
                if let Some(inline) = problem.as_inline_table_mut() {
                    inline.fmt();
                }
            }
        }
    }
    let edited = document.to_string();
    parse(&edited, path)?;
    atomic::write(&edited_file(path), edited.as_bytes())?;
    Ok(true)
}

/// Writes `project` (a folder's absolute path) as `project` of `[defaults]` in the user's
/// config file, or takes the key out (`None`); every other line stays as the user wrote it.
/// The file is made if there is none; returns its path.
pub fn set_user_project(project: Option<&Path>) -> Result<PathBuf, EditError> {
    let path = super::user::path().ok_or(EditError::NoUserConfig)?;
    set_default_project(&path, project)?;
    Ok(path)
}

/// [`set_user_project`] in the config file at `path` (see [`super::user`]); the file is made,
/// with its folder, if there is none. A file the harness cannot read is left as it is, and
/// said.
pub(crate) fn set_default_project(path: &Path, project: Option<&Path>) -> Result<(), EditError> {
    let text = read_if_exists(path)?.unwrap_or_default();
    super::user::parse(&text, path)?;
    let mut document = editable(&text, path)?;
    let defaults = document
        .entry("defaults")
        .or_insert_with(|| Item::Table(Table::new()));
    let Some(defaults) = defaults.as_table_like_mut() else {
        return Err(EditError::DefaultsNotATable {
            path: path.to_path_buf(),
        });
    };
    match project {
        Some(folder) => {
            defaults.insert("project", value(folder.to_string_lossy().into_owned()));
        }
        None => {
            defaults.remove("project");
        }
    }
    let edited = document.to_string();
    super::user::parse(&edited, path)?;
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|source| WriteError {
            path: folder.to_path_buf(),
            source,
        })?;
    }
    atomic::write(&edited_file(path), edited.as_bytes())?;
    Ok(())
}

/// The file an edit replaces: judge.toml itself, or, when `path` is a symbolic link (a
/// judge.toml kept elsewhere), the file it leads to, which the harness has just read through
/// it; the link stays. A link to anything but a regular file is refused by the write.
fn edited_file(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

fn read_if_exists(path: &Path) -> Result<Option<String>, EditError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(EditError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The edited text, and whether an existing table was replaced.
fn insert(
    text: &str,
    path: &Path,
    problem: &NewProblem,
    if_exists: IfExists,
) -> Result<(String, bool), EditError> {
    let mut document = editable(text, path)?;
    let problems = document
        .entry("problems")
        .or_insert_with(|| {
            // `[problems.x]` headers only: no `[problems]` line of its own.
            let mut table = Table::new();
            table.set_implicit(true);
            Item::Table(table)
        })
        .as_table_mut()
        .ok_or_else(|| EditError::NotATable {
            path: path.to_path_buf(),
        })?;
    let mut table = problem_table(problem);
    let replaced = match problems.get_mut(&problem.id) {
        Some(existing) => {
            if if_exists == IfExists::Refuse {
                return Err(EditError::Exists {
                    id: problem.id.clone(),
                    path: path.to_path_buf(),
                });
            }
            if let Some(old) = existing.as_table() {
                table.set_position(old.position());
                *table.decor_mut() = old.decor().clone();
            }
            *existing = Item::Table(table);
            true
        }
        None => {
            // With no position of its own, the table is written right after the one before it
            // in the document's order: the last problem's last sub-table. A blank line sets it
            // apart, as the tables around it are.
            table
                .decor_mut()
                .set_prefix(format!("\n{}", comment_lines(problem)));
            problems.insert(&problem.id, Item::Table(table));
            false
        }
    };
    Ok((document.to_string(), replaced))
}

/// The problem as the only table of a document, for a new file.
fn render_alone(problem: &NewProblem) -> String {
    let mut problems = Table::new();
    problems.set_implicit(true);
    let mut table = problem_table(problem);
    table.decor_mut().set_prefix(comment_lines(problem));
    problems.insert(&problem.id, Item::Table(table));
    let mut document = DocumentMut::new();
    document.insert("problems", Item::Table(problems));
    document.to_string()
}

fn problem_table(problem: &NewProblem) -> Table {
    let mut table = Table::new();
    let mut put = |key: &str, item: Option<Item>| {
        if let Some(item) = item {
            table.insert(key, item);
        }
    };
    put("title", problem.title.as_deref().map(value));
    put("url", problem.url.as_deref().map(value));
    put("solution", problem.solution.as_deref().map(value));
    put(
        "time-limit",
        problem.time_limit.map(|d| value(duration_value(d))),
    );
    put(
        "memory-limit",
        problem.memory_limit.map(|s| value(size_value(s))),
    );
    put("checker", problem.checker.as_deref().map(value));
    put("interactive", problem.interactive.then(|| value(true)));
    put("multi-test", problem.multi_test.then(|| value(true)));
    put("input-file", problem.input_file.as_deref().map(value));
    put("output-file", problem.output_file.as_deref().map(value));
    put("reference", problem.reference.as_deref().map(value));
    put("validator", problem.validator.as_deref().map(words));
    put(
        "validator-protocol",
        problem.validator_protocol.as_deref().map(value),
    );
    put(
        "grader",
        (!problem.grader.is_empty()).then(|| {
            let mut graders = toml_edit::InlineTable::new();
            for (language, source) in &problem.grader {
                graders.insert(language, source.as_str().into());
            }
            value(graders)
        }),
    );
    put(
        "grader-files",
        (!problem.grader_files.is_empty()).then(|| words(&problem.grader_files)),
    );
    // Sub-tables after the keys, each set apart by a blank line.
    if !problem.generators.is_empty() {
        let mut generators = toml_edit::ArrayOfTables::new();
        for generator in &problem.generators {
            let mut entry = Table::new();
            entry.insert("name", value(generator.name.as_str()));
            entry.insert("command", words(&generator.command));
            entry.insert("seeds", value(generator.seeds.as_str()));
            entry.decor_mut().set_prefix("\n");
            generators.push(entry);
        }
        table.insert("generators", Item::ArrayOfTables(generators));
    }
    if let Some(generator) = &problem.stress_generator {
        let mut stress = Table::new();
        stress.insert("generator", words(generator));
        stress.decor_mut().set_prefix("\n");
        table.insert("stress", Item::Table(stress));
    }
    table
}

/// `["gen.py", "{seed}"]`.
fn words(words: &[String]) -> Item {
    value(
        words
            .iter()
            .map(String::as_str)
            .collect::<toml_edit::Array>(),
    )
}

/// The comment above a problem's table, each line `# `-prefixed.
fn comment_lines(problem: &NewProblem) -> String {
    problem
        .comment
        .iter()
        .map(|line| format!("# {line}\n"))
        .collect()
}

/// A duration as judge.toml writes it: `2s`, `2.5s`, `250ms`, `1250ms`.
pub fn duration_value(duration: Duration) -> String {
    let ms = duration.as_millis();
    if ms < 1000 || !ms.is_multiple_of(100) {
        format!("{ms}ms")
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{}.{}s", ms / 1000, (ms % 1000) / 100)
    }
}

/// A size as judge.toml writes it: `256MiB`, `1GiB`, `1500KiB`.
pub fn size_value(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{}{name}", bytes / unit);
        }
    }
    format!("{bytes}B")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FILE_NAME;

    const COMMENTED: &str = r#"# My problems.
#   keep this comment

[defaults]
time-limit = "2s"   # a trailing comment

# The first one.
[problems.first]
solution = "a.out"

[[problems.first.generators]]
name   =  "g{seed}"   # odd spacing kept
command = ["gen", "{seed}"]
seeds = "1..=3"

# Languages below.
[languages.c]
extensions = ["c"]
compile = ["cc", "-o", "{exe}", "{source}"]
run = ["{exe}"]
"#;

    fn problem(id: &str) -> NewProblem {
        NewProblem {
            id: id.to_string(),
            title: Some("Second \"one\"".to_string()),
            time_limit: Some(Duration::from_millis(2500)),
            memory_limit: Some(256 << 20),
            ..NewProblem::default()
        }
    }

    fn edit(text: &str, problem: &NewProblem, if_exists: IfExists) -> Result<String, EditError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, text).unwrap();
        add_problem(&path, problem, if_exists)?;
        Ok(std::fs::read_to_string(&path).unwrap())
    }

    #[test]
    fn the_default_project_is_written_with_every_other_line_kept() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join("harness/config.toml");
        set_default_project(&path, Some(Path::new("/repo"))).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            super::super::user::parse(&text, &path)
                .unwrap()
                .project
                .as_deref(),
            Some(Path::new("/repo"))
        );
        let mine = "# mine\n[defaults]\ntime-limit = \"3s\" # kept\n\n[languages.cpp]\nextensions = [\"cpp\"]\nrun = [\"{exe}\"]\ncompile = [\"g++\", \"-o\", \"{exe}\", \"{source}\"]\n";
        std::fs::write(&path, mine).unwrap();
        set_default_project(&path, Some(Path::new("/other"))).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# mine\n[defaults]\ntime-limit = \"3s\" # kept\n"),
            "{text}"
        );
        assert!(text.contains("project = \"/other\""), "{text}");
        assert!(text.contains("[languages.cpp]"), "{text}");
        set_default_project(&path, None).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), mine);
        // A broken file stays as it is, and the error names its line.
        std::fs::write(&path, "[defaults\n").unwrap();
        let error = set_default_project(&path, Some(Path::new("/repo"))).unwrap_err();
        assert!(error.to_string().contains("config.toml:1:"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[defaults\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_judge_toml_that_is_a_link_is_edited_where_it_leads_and_the_link_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dotfiles/judge.toml");
        std::fs::create_dir_all(real.parent().unwrap()).unwrap();
        std::fs::write(&real, COMMENTED).unwrap();
        let link = dir.path().join(FILE_NAME);
        std::os::unix::fs::symlink(&real, &link).unwrap();
        add_problem(&link, &problem("second"), IfExists::Refuse).unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(std::fs::read_to_string(&real)
            .unwrap()
            .contains("[problems.second]"));
        // A link that leads nowhere is not replaced by a new judge.toml.
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(dir.path().join("missing.toml"), &link).unwrap();
        let error = add_problem(&link, &problem("third"), IfExists::Refuse)
            .unwrap_err()
            .to_string();
        assert!(error.contains("symbolic link"), "{error}");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn the_table_goes_after_the_last_problem_and_nothing_else_moves() {
        let edited = edit(COMMENTED, &problem("second"), IfExists::Refuse).unwrap();
        let split = COMMENTED.find("\n\n# Languages below.").unwrap();
        let expected = format!(
            "{}\n[problems.second]\ntitle = 'Second \"one\"'\ntime-limit = \"2.5s\"\nmemory-limit = \"256MiB\"\n{}",
            &COMMENTED[..split + 1],
            &COMMENTED[split + 1..]
        );
        assert_eq!(edited, expected);
    }

    #[test]
    fn problems_are_put_in_the_order_given_in_the_places_they_hold() {
        let text = "# mine\n[problems.keep]\ntitle = \"k\"\n\n[problems.c]\ntitle = \"c\"\n\n[problems.a]\ntitle = \"a\"\n\n[problems.b]\ntitle = \"b\"\n\n[languages.c]\nextensions = [\"c\"]\ncompile = [\"cc\", \"-o\", \"{exe}\", \"{source}\"]\nrun = [\"{exe}\"]\n";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, text).unwrap();
        let ids = ["a", "b", "c"].map(String::from);
        order_problems(&path, &ids).unwrap();
        let ordered = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            ordered,
            "# mine\n[problems.keep]\ntitle = \"k\"\n\n[problems.a]\ntitle = \"a\"\n\n[problems.b]\ntitle = \"b\"\n\n[problems.c]\ntitle = \"c\"\n\n[languages.c]\nextensions = [\"c\"]\ncompile = [\"cc\", \"-o\", \"{exe}\", \"{source}\"]\nrun = [\"{exe}\"]\n"
        );
        // In order already: nothing is written.
        order_problems(&path, &ids).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), ordered);
    }

    #[test]
    fn an_existing_problem_is_refused_unless_replacing() {
        let error = edit(COMMENTED, &problem("first"), IfExists::Refuse).unwrap_err();
        assert!(
            error.to_string().contains("problem `first` is already in"),
            "{error}"
        );
        let edited = edit(COMMENTED, &problem("first"), IfExists::Replace).unwrap();
        assert!(
            edited.contains("# The first one.\n[problems.first]\ntitle"),
            "{edited}"
        );
        assert!(!edited.contains("a.out"), "{edited}");
        assert!(edited.contains("# Languages below."), "{edited}");
    }

    #[test]
    fn a_missing_file_is_created_with_a_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let added = add_problem(&path, &problem("a"), IfExists::Refuse).unwrap();
        assert!(added.created_file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# judge.toml"), "{text}");
        assert!(text.ends_with("\n[problems.a]\ntitle = 'Second \"one\"'\ntime-limit = \"2.5s\"\nmemory-limit = \"256MiB\"\n"), "{text}");
        let config = super::super::load(&path).unwrap();
        let a = config.problem("a").unwrap();
        assert_eq!(a.solution, None);
        assert_eq!(a.time_limit, Duration::from_millis(2500));
        assert_eq!(problem_ids(&path).unwrap(), ["a"]);
    }

    #[test]
    fn a_bad_value_or_a_broken_file_writes_nothing() {
        let bad = NewProblem {
            checker: Some("tokenz".to_string()),
            ..problem("second")
        };
        assert!(edit(COMMENTED, &bad, IfExists::Refuse).is_err());
        let broken = "[problems.a\nsolution = 1\n";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, broken).unwrap();
        let error = add_problem(&path, &problem("b"), IfExists::Refuse).unwrap_err();
        assert!(error.to_string().contains(":1:"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
    }

    #[test]
    fn a_time_limit_is_set_in_place_with_its_comment_or_added_last() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let text = "# mine\n[defaults]\ntime-limit = \"2s\"\n\n[problems.a]\ntime-limit   = \"1s\"  # from the statement\nsolution = \"a.out\"\n\n[problems.b]\nsolution = \"b.out\" # b\n\n[[problems.b.generators]]\nname = \"g{seed}\"\ncommand = [\"gen\", \"{seed}\"]\nseeds = \"1..=3\"\n\n[problems]\nc = { solution = \"c.out\" }\n";
        std::fs::write(&path, text).unwrap();
        assert!(set_time_limit(&path, "a", Duration::from_millis(300)).unwrap());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text.replace("= \"1s\"  #", "= \"300ms\"  #")
        );
        assert!(!set_time_limit(&path, "a", Duration::from_millis(300)).unwrap());
        assert!(set_time_limit(&path, "b", Duration::from_millis(1500)).unwrap());
        let edited = std::fs::read_to_string(&path).unwrap();
        assert!(
            edited.contains(
                "solution = \"b.out\" # b\ntime-limit = \"1.5s\"\n\n[[problems.b.generators]]"
            ),
            "{edited}"
        );
        assert!(set_time_limit(&path, "c", Duration::from_secs(2)).unwrap());
        let edited = std::fs::read_to_string(&path).unwrap();
        assert!(
            edited.ends_with("c = { solution = \"c.out\", time-limit = \"2s\" }\n"),
            "{edited}"
        );
        let error = set_time_limit(&path, "zz", Duration::from_secs(1)).unwrap_err();
        assert!(
            error.to_string().contains("problem `zz` has no table"),
            "{error}"
        );
    }

    #[test]
    fn values_as_judge_toml_writes_them() {
        let cases = [
            (Duration::from_secs(1), "1s"),
            (Duration::from_millis(1500), "1.5s"),
            (Duration::from_millis(250), "250ms"),
            (Duration::from_millis(1250), "1250ms"),
        ];
        for (duration, text) in cases {
            assert_eq!(duration_value(duration), text);
        }
        let sizes = [
            (256 << 20, "256MiB"),
            (1 << 30, "1GiB"),
            (1536 << 10, "1536KiB"),
            (100, "100B"),
        ];
        for (size, text) in sizes {
            assert_eq!(size_value(size), text);
        }
    }
}
