//! Receiving problems from the browser (Competitive Companion): the payload, the problem's id,
//! contests sent as batches, the HTTP server, and storing each problem in the workspace:
//! its samples as `cases/<id>/sample-N.in` + `.ans`, its table in judge.toml.

pub mod batch;
pub mod http;
pub mod naming;
pub mod payload;
pub mod server;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::atomic::{self, WriteError};
use crate::config::edit::{self, EditError, IfExists, NewProblem};
use payload::{Batch, InputKind, Payload, TestType};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Edit(#[from] EditError),
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error("cannot make `{}`: {source}", path.display())]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "harness listen is stopping (Ctrl-C): its samples were not all written, and none is kept"
    )]
    Interrupted,
}

/// A source file every received problem starts from, as `<id>.<extension>` beside judge.toml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub extension: String,
    pub text: Vec<u8>,
}

/// What happened to a problem's solution file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolutionFile {
    Created(PathBuf),
    /// A file of that name was there already: it is the user's and stays as it is.
    Kept(PathBuf),
}

/// A problem stored in the workspace.
#[derive(Debug, Clone, Default)]
pub struct Received {
    /// Its table in judge.toml: id, title, page, limits, checker, files.
    pub table: NewProblem,
    /// The id the problem would have had, when that one was taken.
    pub taken_id: Option<String>,
    /// Sent again (the same page): its samples replaced, its table and the user's files kept.
    pub updated: bool,
    /// The judge and contest (`Codeforces - Round 911 (Div. 2)`).
    pub group: String,
    pub samples: usize,
    /// The checker chosen from the samples, when the default would not do.
    pub checker: Option<InferredChecker>,
    /// The folder of its samples.
    pub cases: PathBuf,
    /// judge.toml did not exist and was created for it.
    pub created_config: bool,
    pub batch: Option<Batch>,
    /// The solution file made from the template, when there is one.
    pub solution_file: Option<SolutionFile>,
    /// What the user should know (an input file the judge cannot name, say).
    pub notes: Vec<String>,
}

impl Received {
    pub fn id(&self) -> &str {
        &self.table.id
    }

    /// The page's title (trimmed).
    pub fn title(&self) -> &str {
        self.table.title.as_deref().unwrap_or_default()
    }
}

/// Stores `payload` in the workspace of the judge.toml at `config` (created if missing): the
/// samples first, in a folder renamed into place once complete, then the table in one atomic
/// write. A problem whose id is taken (in judge.toml or as a case folder) gets the next free
/// suffix: nothing the user has is replaced. With a template, `<id>.<extension>` is created
/// from it unless that file exists.
pub fn store(
    config: &Path,
    payload: &Payload,
    template: Option<&Template>,
) -> Result<Received, StoreError> {
    let root = crate::config::root_of(config);
    let cases_root = root.join("cases");
    let ids = edit::problem_ids(config)?;
    let base = naming::base_id(&payload.url, &payload.name);
    // The same page sent again (to fetch it anew, or by a second click) is that problem.
    let resent = match payload.url.trim() {
        "" => None,
        url => edit::problem_with_url(config, url)?,
    };
    let id = resent.clone().unwrap_or_else(|| {
        naming::unique_id(&base, |id| {
            ids.iter().any(|taken| taken == id) || cases_root.join(id).exists()
        })
    });

    let checker = infer_checker(payload);
    let table = NewProblem {
        title: Some(payload.name.trim().to_string()),
        url: Some(payload.url.clone()).filter(|u| !u.is_empty()),
        time_limit: payload.time_limit(),
        memory_limit: payload.memory_limit(),
        checker: checker.map(|c| c.name().to_string()),
        interactive: payload.interactive,
        multi_test: payload.test_type == TestType::MultiNumber,
        input_file: payload.input_file().map(str::to_string),
        output_file: payload.output_file().map(str::to_string),
        ..NewProblem::default()
    };
    let mut received = Received {
        taken_id: (resent.is_none() && id != base).then_some(base),
        updated: resent.is_some(),
        group: payload.group.clone(),
        samples: payload.tests.len(),
        checker,
        cases: cases_root.join(&id),
        created_config: false,
        batch: payload.batch.clone(),
        solution_file: None,
        notes: Vec::new(),
        table: NewProblem { id, ..table },
    };
    if payload.input.kind == InputKind::Regex {
        received.notes.push(format!(
            "the input is a file matching `{}`: set `input-file` in judge.toml to the name your program opens",
            payload.input.pattern.as_deref().unwrap_or_default()
        ));
    }

    if received.updated {
        replace_samples(&cases_root, &received.cases, payload)?;
    } else {
        write_samples(&cases_root, &received.cases, payload)?;
        match edit::add_problem(config, &received.table, IfExists::Refuse) {
            Ok(added) => received.created_config = added.created_file,
            Err(error) => {
                // The samples are ours, written a moment ago: without the table they would
                // only take the id from the next try.
                let _ = std::fs::remove_dir_all(&received.cases);
                return Err(error.into());
            }
        }
    }
    if let Some(template) = template {
        received.solution_file = Some(solution_file(&root, received.id(), template)?);
    }
    Ok(received)
}

/// The problem's solution file from `template`, written unless one is there already.
fn solution_file(root: &Path, id: &str, template: &Template) -> Result<SolutionFile, StoreError> {
    let path = root.join(format!("{id}.{}", template.extension));
    Ok(if atomic::write_new(&path, &template.text)? {
        SolutionFile::Created(path)
    } else {
        SolutionFile::Kept(path)
    })
}

/// The error of a folder operation on `path`.
fn folder_error(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError {
    let path = path.to_path_buf();
    move |source| StoreError::Folder { path, source }
}

/// The payload's samples written into a hidden folder of ours in `cases_root`, to be moved
/// into place once complete.
fn stage_samples(cases_root: &Path, payload: &Payload) -> Result<tempfile::TempDir, StoreError> {
    let staging = tempfile::Builder::new()
        .prefix(".receiving-")
        .tempdir_in(cases_root)
        .map_err(folder_error(cases_root))?;
    write_sample_files(
        staging.path(),
        payload,
        &crate::sandbox::interrupt::is_interrupted,
    )?;
    Ok(staging)
}

/// Writes the samples into a hidden folder beside `target`, then renames it into place, so a
/// crash never leaves half a problem under its real name.
fn write_samples(cases_root: &Path, target: &Path, payload: &Payload) -> Result<(), StoreError> {
    std::fs::create_dir_all(cases_root).map_err(folder_error(cases_root))?;
    let staging = stage_samples(cases_root, payload)?;
    atomic::rename_folder_new(staging.path(), target)?;
    Ok(())
}

/// `sample-N.in` and `.ans` of every test of the payload, in `dir`, a fresh folder of ours
/// renamed into place whole afterwards (so no file needs a rename of its own). Stops when
/// `stop` says so (Ctrl-C): a signal never waits for the rest.
fn write_sample_files(
    dir: &Path,
    payload: &Payload,
    stop: &dyn Fn() -> bool,
) -> Result<(), StoreError> {
    for (index, test) in payload.tests.iter().enumerate() {
        if stop() {
            return Err(StoreError::Interrupted);
        }
        let stem = format!("sample-{}", index + 1);
        for (extension, text) in [("in", &test.input), ("ans", &test.output)] {
            let path = dir.join(format!("{stem}.{extension}"));
            let written = std::fs::File::create_new(&path)
                .and_then(|mut file| file.write_all(normalize(text).as_bytes()));
            written.map_err(|source| WriteError { path, source })?;
        }
    }
    Ok(())
}

/// The samples of a problem sent again: the old `sample-N` files of `target` replaced by the
/// new ones (written beside it first); any other case there (the user's own) stays.
fn replace_samples(cases_root: &Path, target: &Path, payload: &Payload) -> Result<(), StoreError> {
    let staging = stage_samples(cases_root, payload)?;
    std::fs::create_dir_all(target).map_err(folder_error(target))?;
    let old_samples = std::fs::read_dir(target)
        .map_err(folder_error(target))?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| is_sample_file(path));
    for path in old_samples.collect::<Vec<_>>() {
        std::fs::remove_file(&path).map_err(folder_error(&path))?;
    }
    for entry in std::fs::read_dir(staging.path())
        .map_err(folder_error(staging.path()))?
        .flatten()
    {
        let to = target.join(entry.file_name());
        std::fs::rename(entry.path(), &to).map_err(folder_error(&to))?;
    }
    Ok(())
}

/// `sample-3.in`, `sample-3.ans`, `sample-3.out`: the files a receive writes.
fn is_sample_file(path: &Path) -> bool {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    stem.strip_prefix("sample-")
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        && matches!(extension, "in" | "ans" | "out")
}

/// Unix line endings and a final newline: what the judges' own test files have, whatever
/// the page's text gave (Windows line endings, a missing last newline).
fn normalize(text: &str) -> String {
    let mut text = text.replace("\r\n", "\n").replace('\r', "\n");
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// A checker chosen for a received problem from its samples and its judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InferredChecker {
    /// A sample's answer holds a decimal number: such problems accept answers within a
    /// tolerance, and the sample's exact digits are rarely the only right ones.
    Float,
    /// A Codeforces answer that starts with YES or NO: Codeforces statements nearly always
    /// accept those "in any case". (AtCoder wants `Yes` exactly, so only Codeforces.)
    IgnoreCase,
}

impl InferredChecker {
    /// As judge.toml writes it.
    pub fn name(self) -> &'static str {
        match self {
            InferredChecker::Float => "float",
            InferredChecker::IgnoreCase => "tokens-ignore-case",
        }
    }

    /// Why it was chosen, for the user.
    pub fn why(self) -> &'static str {
        match self {
            InferredChecker::Float => "the samples' answers hold decimal numbers",
            InferredChecker::IgnoreCase => {
                "a Codeforces answer of YES or NO, which it accepts in any case"
            }
        }
    }
}

/// The checker the samples call for; `None` keeps the default (tokens).
fn infer_checker(payload: &Payload) -> Option<InferredChecker> {
    let decimal = |token: &str| {
        let digits = token.strip_prefix('-').unwrap_or(token);
        let Some((whole, fraction)) = digits.split_once('.') else {
            return false;
        };
        !whole.is_empty()
            && !fraction.is_empty()
            && whole.chars().all(|c| c.is_ascii_digit())
            && fraction.chars().all(|c| c.is_ascii_digit())
    };
    let answers = || {
        payload
            .tests
            .iter()
            .flat_map(|test| test.output.split_ascii_whitespace())
    };
    if answers().any(decimal) {
        return Some(InferredChecker::Float);
    }
    let codeforces = payload.url.contains("codeforces.") || payload.group.starts_with("Codeforces");
    let yes_or_no =
        |token: &str| token.eq_ignore_ascii_case("yes") || token.eq_ignore_ascii_case("no");
    let starts_with_yes_or_no = payload.tests.iter().any(|test| {
        test.output
            .split_ascii_whitespace()
            .next()
            .is_some_and(yes_or_no)
    });
    (codeforces && starts_with_yes_or_no).then_some(InferredChecker::IgnoreCase)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// `<id>.cpp`, from a one-line template.
    fn cpp_template() -> Template {
        Template {
            extension: "cpp".to_string(),
            text: b"// template\n".to_vec(),
        }
    }

    #[test]
    fn writing_samples_stops_at_a_signal_between_two_samples() {
        let dir = tempfile::tempdir().unwrap();
        let test = serde_json::json!({"input": "1\n", "output": "2\n"});
        let body = serde_json::json!({"name": "x", "tests": vec![test; 10]}).to_string();
        let payload = Payload::parse(body.as_bytes()).unwrap();
        let asked = std::cell::Cell::new(0);
        // The signal comes while the third sample is being written.
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 3
        };
        let error = write_sample_files(dir.path(), &payload, &stop).unwrap_err();
        assert!(matches!(error, StoreError::Interrupted), "{error}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 6);
    }

    #[test]
    fn samples_are_normalized() {
        let rows = [
            ("1 2\r\n3 4\r\n", "1 2\n3 4\n"),
            ("5", "5\n"),
            ("", ""),
            ("a\rb\n", "a\nb\n"),
        ];
        for (text, expected) in rows {
            assert_eq!(normalize(text), expected, "{text:?}");
        }
    }

    #[test]
    fn the_checker_follows_the_samples_and_the_judge() {
        let with = |url: &str, answers: &[&str]| {
            let tests = answers
                .iter()
                .map(|a| payload::Test {
                    input: String::new(),
                    output: a.to_string(),
                })
                .collect();
            infer_checker(&Payload {
                tests,
                url: url.to_string(),
                ..Payload::parse(br#"{"name":"x"}"#).unwrap()
            })
        };
        let cf = "https://codeforces.com/contest/1/problem/A";
        let atcoder = "https://atcoder.jp/contests/abc1/tasks/abc1_a";
        let rows = [
            (cf, &["3\n", "0.500000\n"][..], Some(InferredChecker::Float)),
            (atcoder, &["-1.5 2\n"], Some(InferredChecker::Float)),
            (cf, &["3\n", "7\n"], None),
            (
                cf,
                &["YES\n1 2\n", "NO\n"],
                Some(InferredChecker::IgnoreCase),
            ),
            (cf, &["no\n"], Some(InferredChecker::IgnoreCase)),
            (atcoder, &["Yes\n"], None),
            (cf, &["1 YES\n"], None),
            (cf, &["1.2.3\n", "v1.0x\n", ".5\n"], None),
            (cf, &[], None),
        ];
        for (url, answers, expected) in rows {
            assert_eq!(with(url, answers), expected, "{url} {answers:?}");
        }
    }

    #[test]
    fn a_taken_id_gets_a_suffix_and_nothing_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("judge.toml");
        let body = br#"{"name":"A. Sum","url":"https://codeforces.com/contest/1/problem/A","tests":[{"input":"1 2\r\n","output":"3"}],"timeLimit":2000,"memoryLimit":256}"#;
        let payload = Payload::parse(body).unwrap();
        let first = store(&config, &payload, None).unwrap();
        assert_eq!(first.id(), "cf1a");
        assert!(first.created_config);
        // A folder the user made by hand takes the id too.
        std::fs::create_dir_all(dir.path().join("cases/cf1a-2")).unwrap();
        // Another page whose id would be the same.
        let payload = Payload {
            url: "https://codeforces.com/gym/1/problem/A".to_string(),
            ..payload
        };
        let second = store(&config, &payload, None).unwrap();
        assert_eq!(second.id(), "cf1a-3");
        assert_eq!(second.taken_id.as_deref(), Some("cf1a"));
        let input = std::fs::read_to_string(dir.path().join("cases/cf1a/sample-1.in")).unwrap();
        assert_eq!(input, "1 2\n");
        let config = crate::config::load(&config).unwrap();
        let problem = config.problem("cf1a-3").unwrap();
        assert_eq!(problem.time_limit, Duration::from_secs(2));
        assert_eq!(
            problem.url.as_deref(),
            Some("https://codeforces.com/gym/1/problem/A")
        );
        // No staging folder is left behind.
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("cases"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.starts_with('.'))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn a_problem_sent_again_gets_its_samples_replaced_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("judge.toml");
        let template = cpp_template();
        let first = br#"{"name":"A. Sum","url":"https://codeforces.com/contest/1/problem/A","tests":[{"input":"1 2","output":"3"},{"input":"2 2","output":"4"}]}"#;
        let again = br#"{"name":"A. Sum","url":"https://codeforces.com/contest/1/problem/A","tests":[{"input":"5 5","output":"10"}]}"#;
        store(&config, &Payload::parse(first).unwrap(), Some(&template)).unwrap();
        let source = dir.path().join("cf1a.cpp");
        std::fs::write(&source, "// mine\n").unwrap();
        let cases = dir.path().join("cases/cf1a");
        std::fs::write(cases.join("mine.in"), "7 7\n").unwrap();
        std::fs::write(cases.join("mine.ans"), "14\n").unwrap();
        let toml = std::fs::read_to_string(&config).unwrap();
        let second = store(&config, &Payload::parse(again).unwrap(), Some(&template)).unwrap();
        assert_eq!(second.id(), "cf1a");
        assert!(second.updated && second.taken_id.is_none());
        assert_eq!(
            second.solution_file,
            Some(SolutionFile::Kept(source.clone()))
        );
        assert_eq!(std::fs::read_to_string(&source).unwrap(), "// mine\n");
        assert_eq!(std::fs::read_to_string(&config).unwrap(), toml);
        let mut names: Vec<String> = std::fs::read_dir(&cases)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["mine.ans", "mine.in", "sample-1.ans", "sample-1.in"]
        );
        assert_eq!(
            std::fs::read_to_string(cases.join("sample-1.in")).unwrap(),
            "5 5\n"
        );
        assert!(!dir.path().join("cases/cf1a-2").exists());
    }

    #[test]
    fn a_template_makes_a_solution_file_but_never_replaces_one() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("judge.toml");
        let template = cpp_template();
        let a = br#"{"name":"A","url":"https://codeforces.com/contest/1/problem/A"}"#;
        let b = br#"{"name":"B","url":"https://codeforces.com/contest/1/problem/B"}"#;
        let mine = dir.path().join("cf1b.cpp");
        std::fs::write(&mine, "// mine\n").unwrap();
        let first = store(&config, &Payload::parse(a).unwrap(), Some(&template)).unwrap();
        let made = dir.path().join("cf1a.cpp");
        assert_eq!(
            first.solution_file,
            Some(SolutionFile::Created(made.clone()))
        );
        assert_eq!(std::fs::read_to_string(&made).unwrap(), "// template\n");
        let second = store(&config, &Payload::parse(b).unwrap(), Some(&template)).unwrap();
        assert_eq!(second.solution_file, Some(SolutionFile::Kept(mine.clone())));
        assert_eq!(std::fs::read_to_string(&mine).unwrap(), "// mine\n");
    }
}
