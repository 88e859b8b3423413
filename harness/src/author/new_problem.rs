//! `harness new`'s layout of a whole problem, as BAPCtools' `bt new_problem` lays one out: a
//! statement stub where `harness export` takes it, a sample case, a generator, an input
//! validator, a reference solution stored as accepted, the folders of the submissions that
//! must fail, and the judge.toml table wired to them, so that `gen`, `validate`, `run`,
//! `verify` and `export` work on it at once. The stubs are a sum of two numbers, in Python
//! (no compiler needed). A file already there is never replaced, whatever the flags.

use std::path::{Path, PathBuf};

use crate::atomic::{self, WriteError};
use crate::config::edit::{self, Added, EditError, IfExists, NewGenerator, NewProblem};
use crate::judge::verify;

const STATEMENT: &str = include_str!("new_problem/statement.md");
const GENERATOR: &str = include_str!("new_problem/generator.py");
const VALIDATOR: &str = include_str!("new_problem/validator.py");
const SOLUTION: &str = include_str!("new_problem/solution.py");
const GRADER: &str = include_str!("new_problem/grader.cpp");
const HEADER: &str = include_str!("new_problem/header.h");
const FUNCTION: &str = include_str!("new_problem/solution.cpp");
const REFERENCE: &str = include_str!("new_problem/reference.py");

#[derive(Debug, thiserror::Error)]
pub enum NewError {
    #[error("{} (hint: pick another id, or pass --force to replace its table and write only the files that are missing: no file is replaced)", describe_exists(.id, .config, *.in_table, .files))]
    Exists {
        id: String,
        config: PathBuf,
        in_table: bool,
        files: Vec<PathBuf>,
    },
    #[error("cannot make the folder `{}`: {source}", path.display())]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Edit(#[from] EditError),
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Files named in the error before the rest are counted.
const FILES_NAMED: usize = 3;

fn describe_exists(id: &str, config: &Path, in_table: bool, files: &[PathBuf]) -> String {
    let mut named: Vec<String> = files
        .iter()
        .take(FILES_NAMED)
        .map(|f| format!("`{}`", f.display()))
        .collect();
    if files.len() > FILES_NAMED {
        named.push(format!("{} more", files.len() - FILES_NAMED));
    }
    let files = named.join(", ");
    match (in_table, files.is_empty()) {
        (true, true) => format!("problem `{id}` is already in `{}`", config.display()),
        (true, false) => format!(
            "problem `{id}` is already in `{}`, and its layout has files already: {files}",
            config.display()
        ),
        (false, _) => format!("the layout of problem `{id}` has files already: {files}"),
    }
}

/// One file of the layout.
#[derive(Debug, Clone)]
pub struct Stub {
    /// From judge.toml's folder.
    pub path: PathBuf,
    pub text: String,
    /// What it is for, as the report says it.
    pub role: String,
}

/// What laying out did: judge.toml's edit, and each file of the layout, written or kept.
#[derive(Debug, Clone)]
pub struct LaidOut {
    pub added: Added,
    /// From judge.toml's folder, with what each is for and whether it was written now
    /// (`false`: it was there, and is kept).
    pub files: Vec<(PathBuf, String, bool)>,
}

/// The files of the layout of problem `id`, titled `title`; `grader`: a function-signature
/// problem, whose submissions implement a function the grader's `main` calls.
pub fn stubs(id: &str, title: &str, grader: bool) -> Vec<Stub> {
    let fill = |text: &str| text.replace("@ID@", id).replace("@TITLE@", title);
    let submissions = Path::new(verify::DEFAULT_FOLDER).join(id);
    let stub = |path: PathBuf, text: String, role: String| Stub { path, text, role };
    vec![
        stub(
            statement_path(id),
            fill(STATEMENT),
            format!("the statement (`harness export {id}` takes it from here)"),
        ),
        stub(
            format!("cases/{id}/sample-1.in").into(),
            "1 2\n".to_string(),
            "a sample case's input".to_string(),
        ),
        stub(
            format!("cases/{id}/sample-1.ans").into(),
            "3\n".to_string(),
            "its answer".to_string(),
        ),
        stub(
            format!("generators/{id}.py").into(),
            fill(GENERATOR),
            format!("the generator (`harness gen {id}`)"),
        ),
        stub(
            format!("input_validators/{id}.py").into(),
            fill(VALIDATOR),
            format!("the input validator (`harness validate {id}`)"),
        ),
    ]
    .into_iter()
    .chain(if grader {
        vec![
            stub(
                grader_path(id),
                fill(GRADER),
                "the grader, with `main`, compiled with every C++ submission".to_string(),
            ),
            stub(
                header_path(id),
                fill(HEADER),
                "the header the submissions include, put beside each".to_string(),
            ),
            stub(
                accepted_path(id, "cpp"),
                fill(FUNCTION),
                format!("the reference solution, the function, stored as accepted (`harness verify {id}`)"),
            ),
            stub(
                reference_path(id),
                fill(REFERENCE),
                format!("the whole-program reference that answers generated cases (`harness gen {id}`)"),
            ),
        ]
    } else {
        vec![stub(
            accepted_path(id, "py"),
            fill(SOLUTION),
            format!("the reference solution, stored as accepted (`harness verify {id}`)"),
        )]
    })
    .chain([
        stub(
            submissions.join("wrong_answer/.gitkeep"),
            String::new(),
            "keeps the folder of submissions that must get WA".to_string(),
        ),
        stub(
            submissions.join("time_limit_exceeded/.gitkeep"),
            String::new(),
            "and of those that must get TLE".to_string(),
        ),
    ])
    .collect()
}

/// A function-signature problem's grader (`main`), header and whole-program reference.
fn grader_path(id: &str) -> PathBuf {
    Path::new("graders").join(id).join("grader.cpp")
}

fn header_path(id: &str) -> PathBuf {
    Path::new("graders").join(id).join(format!("{id}.h"))
}

fn reference_path(id: &str) -> PathBuf {
    Path::new("references").join(format!("{id}.py"))
}

/// The reference solution, stored as accepted, in `extension`'s language.
fn accepted_path(id: &str, extension: &str) -> PathBuf {
    Path::new(verify::DEFAULT_FOLDER)
        .join(id)
        .join("accepted")
        .join(format!("{id}.{extension}"))
}

/// Where `harness export` takes a problem's statement from.
fn statement_path(id: &str) -> PathBuf {
    Path::new("docs/problems").join(format!("{id}.md"))
}

/// `problem`'s table wired to the layout's files: its reference solution is the `solution`
/// and the `reference`; the validator speaks Kattis' protocol, so an export carries it. With
/// `grader`, the grader and its header are the table's `grader` and `grader-files`, and there
/// is no `solution` (the function is no program alone): the reference is the whole program.
pub fn wired(problem: &NewProblem, grader: bool) -> NewProblem {
    let id = &problem.id;
    let shown = |path: PathBuf| path.display().to_string();
    let solution = shown(accepted_path(id, "py"));
    let generator = format!("generators/{id}.py");
    let (solution, reference, graders, grader_files) = if grader {
        (
            None,
            shown(reference_path(id)),
            vec![("cpp".to_string(), shown(grader_path(id)))],
            vec![shown(header_path(id))],
        )
    } else {
        (Some(solution.clone()), solution, Vec::new(), Vec::new())
    };
    NewProblem {
        solution,
        reference: Some(reference),
        grader: graders,
        grader_files,
        validator: Some(vec![format!("input_validators/{id}.py")]),
        validator_protocol: Some("kattis".to_string()),
        generators: vec![NewGenerator {
            name: "random-{seed:02}".to_string(),
            command: vec![generator.clone(), "{seed}".to_string()],
            seeds: "1..=10".to_string(),
        }],
        stress_generator: Some(vec![generator, "{seed}".to_string()]),
        comment: vec![format!(
            "{id}: laid out by `harness new` (statement in {}): replace the stubs.",
            statement_path(id).display()
        )],
        ..problem.clone()
    }
}

/// Lays out `problem` beside the judge.toml at `config` (made if there is none): the files
/// first, since judge.toml's table names them and is checked against them, then the table. A
/// file or a table already there stops it before anything is written, unless `force`: then
/// the table is replaced and only the missing files are written. When the table cannot be
/// written (a bad value), the files just written are taken back.
pub fn lay_out(
    config: &Path,
    problem: &NewProblem,
    force: bool,
    grader: bool,
) -> Result<LaidOut, NewError> {
    let root = match config.parent() {
        Some(root) if !root.as_os_str().is_empty() => root.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // A judge.toml that does not read is said now, before any file is written.
    let in_table = edit::problem_ids(config)?.contains(&problem.id);
    let title = problem.title.as_deref().unwrap_or(&problem.id);
    let stubs = stubs(&problem.id, title, grader);
    let there: Vec<PathBuf> = stubs
        .iter()
        .filter(|stub| !atomic::is_free(&root.join(&stub.path)))
        .map(|stub| stub.path.clone())
        .collect();
    if !force && (in_table || !there.is_empty()) {
        return Err(NewError::Exists {
            id: problem.id.clone(),
            config: config.to_path_buf(),
            in_table,
            files: there,
        });
    }
    let mut undo = Undo::default();
    let files: Result<Vec<_>, NewError> = stubs
        .iter()
        .map(|stub| {
            let written = write_stub(&root.join(&stub.path), &stub.text, &mut undo)?;
            Ok((stub.path.clone(), stub.role.clone(), written))
        })
        .collect();
    let if_exists = if force {
        IfExists::Replace
    } else {
        IfExists::Refuse
    };
    let laid = files.and_then(|files| {
        let added = edit::add_problem(config, &wired(problem, grader), if_exists)?;
        Ok(LaidOut { added, files })
    });
    if laid.is_err() {
        undo.run();
    }
    laid
}

/// Writes `path` unless something is there (`Ok(false)`), making its folders; what it made
/// is noted in `undo`.
fn write_stub(path: &Path, text: &str, undo: &mut Undo) -> Result<bool, NewError> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut missing: Vec<&Path> = folder.ancestors().take_while(|a| !a.exists()).collect();
    missing.reverse();
    for made in missing {
        std::fs::create_dir(made).map_err(|source| NewError::Folder {
            path: made.to_path_buf(),
            source,
        })?;
        undo.folders.push(made.to_path_buf());
    }
    let written = atomic::write_new(path, text.as_bytes())?;
    if written {
        undo.files.push(path.to_path_buf());
    }
    Ok(written)
}

/// What a layout wrote, to take back when its table cannot be written.
#[derive(Default)]
struct Undo {
    files: Vec<PathBuf>,
    folders: Vec<PathBuf>,
}

impl Undo {
    /// Removes the files, then the folders, newest first; a folder someone filled meanwhile
    /// stays.
    fn run(self) {
        for file in self.files.iter().rev() {
            let _ = std::fs::remove_file(file);
        }
        for folder in self.folders.iter().rev() {
            let _ = std::fs::remove_dir(folder);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FILE_NAME;

    fn problem(id: &str) -> NewProblem {
        NewProblem {
            id: id.to_string(),
            ..NewProblem::default()
        }
    }

    #[test]
    fn a_layout_is_written_and_its_table_reads() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join(FILE_NAME);
        let laid = lay_out(&config, &problem("sum"), false, false).unwrap();
        assert!(laid.added.created_file);
        assert!(laid.files.iter().all(|(_, _, written)| *written));
        for stub in stubs("sum", "sum", false) {
            assert!(dir.path().join(&stub.path).is_file(), "{:?}", stub.path);
        }
        let loaded = crate::config::load(&config).unwrap();
        let sum = loaded.problem("sum").unwrap();
        assert!(sum.solution.as_ref().unwrap().ends_with("accepted/sum.py"));
        assert_eq!(sum.generators.len(), 1);
        assert!(sum.validator.is_some() && sum.stress.is_some());
    }

    #[test]
    fn a_file_there_stops_it_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join(FILE_NAME);
        std::fs::create_dir_all(dir.path().join("generators")).unwrap();
        std::fs::write(dir.path().join("generators/sum.py"), "mine").unwrap();
        let error = lay_out(&config, &problem("sum"), false, false).unwrap_err();
        assert!(error.to_string().contains("`generators/sum.py`"), "{error}");
        assert!(!config.exists() && !dir.path().join("cases").exists());
        // Forced: the rest is written, the user's file kept.
        let laid = lay_out(&config, &problem("sum"), true, false).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("generators/sum.py")).unwrap(),
            "mine"
        );
        let kept: Vec<_> = laid.files.iter().filter(|(_, _, w)| !w).collect();
        assert_eq!(kept.len(), 1, "{kept:?}");
    }

    #[test]
    fn a_bad_value_takes_back_the_files_written() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join(FILE_NAME);
        let bad = NewProblem {
            checker: Some("tokenz".to_string()),
            ..problem("sum")
        };
        assert!(lay_out(&config, &bad, false, false).is_err());
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
