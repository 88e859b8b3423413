//! TPS task folders (ioi-2017/tps), read as TPS reads them: `problem.json` (name, title,
//! type, limits, `has_grader`, `has_checker`), `grader/<lang>/` compiled with the
//! contestant's source, `checker/checker.cpp` built with the testlib beside it (TPS's
//! testlib prints the score as a CMS checker does), `subtasks.json` with `gen/data` saying
//! which test is in which subtask (`@subtask`, `@include`, one test a line, named
//! `<subtask index>-<offset>` as TPS's `test_name.py` names them), `tests/*.in` + `*.out`
//! as `tps gen` writes them, and `solutions.json`'s verdicts for the submissions in
//! `solution/`. A subtask scores as CMS's GroupMin does. An `OutputOnly` task's tests are
//! `01`, `02`, … through `gen/data`, and its answers are judged as files (`output_01.txt`).
//! A `Communication` task runs its `grader/manager.cpp` with the grader as the stub (see
//! [`communication_of`]). A `TwoSteps` task is a Batch task with a grader whose program runs
//! twice on each case, as CMS runs the TwoSteps task TPS exports (`judge::two_steps`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::expected::Expected;
use super::invalid;
use super::{file_name, Format, Package, PackageError, SourceProgram};
use crate::case::discover::Case;
use crate::score::{CaseRule, CaseValue, ExpectedScore, Group as ScoreGroup, Item, Rule, Scoring};
use crate::verdict::Verdict;

/// The grader folders TPS has, by the format code the harness keys graders by, and the
/// grader file's extension.
const GRADERS: [(&str, &str, &str); 3] = [
    ("cpp", "cpp", "cpp"),
    ("c", "c", "c"),
    ("java", "java", "java"),
];

#[derive(Debug, Deserialize)]
struct ProblemJson {
    name: Option<String>,
    title: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    time_limit: Option<f64>,
    memory_limit: Option<f64>,
    has_grader: Option<bool>,
    has_checker: Option<bool>,
    has_manager: Option<bool>,
    grader_name: Option<String>,
    num_processes: Option<f64>,
    user_io: Option<String>,
}

#[derive(Debug, Deserialize)]
struct SubtasksJson {
    subtasks: BTreeMap<String, SubtaskJson>,
}

#[derive(Debug, Deserialize)]
struct SubtaskJson {
    index: usize,
    score: f64,
}

#[derive(Debug, Deserialize)]
struct SolutionJson {
    verdict: String,
    #[serde(default)]
    except: BTreeMap<String, String>,
}

/// Whether `dir` is a TPS task folder.
pub fn is_task(dir: &Path) -> bool {
    dir.join("problem.json").is_file()
}

/// A JSON file of the task, parsed, or where it is malformed.
fn read_json<T: for<'de> Deserialize<'de>>(root: &Path, path: &Path) -> Result<T, PackageError> {
    super::check_inside(root, path)?;
    let text = super::cms::read_small(path, "larger than a task's JSON file: not read")?;
    Ok(super::parse_json(path, &text)?)
}

/// The task's file `name`, which must be there and inside the task (`why`: what it is for).
fn required(root: &Path, name: &str, why: &str) -> Result<PathBuf, PackageError> {
    let path = root.join(name);
    if !path.is_file() {
        return Err(invalid(&path, format!("missing: {why}")));
    }
    super::check_inside(root, &path)?;
    Ok(path)
}

/// Reads the task folder `root`.
pub fn open(root: &Path) -> Result<Package, PackageError> {
    let root = super::canonical(root)?;
    let json_path = root.join("problem.json");
    let problem: ProblemJson = read_json(&root, &json_path)?;
    let kind = problem.kind.as_deref().unwrap_or("Batch");
    let output_only = is_output_only(kind, &json_path)?;
    let name = problem.name.clone().unwrap_or_else(|| file_name(&root));
    let title = problem.title.clone().unwrap_or_else(|| name.clone());
    let (time_limit, memory_limit) =
        super::cms::limits(&json_path, problem.time_limit, problem.memory_limit)?;
    let (cases, subtasks) = tests_of(&root, output_only)?;
    let scoring = scoring_of(&root, &subtasks)?;
    let task = super::cms::Task {
        root: root.clone(),
        format: Format::Tps,
        name,
        title,
        limits: (time_limit, memory_limit, "problem.json"),
    };
    if output_only {
        let validation = checker_of(&root, problem.has_checker)?;
        return Ok(output_only_task(task, scoring, cases, validation));
    }
    let communication = match kind {
        "Communication" => communication_of(&root, &json_path, &problem)?,
        _ => None,
    };
    let has_checker = match &communication {
        Some(task) => Some(task.checked),
        None => problem.has_checker,
    };
    let validation = checker_of(&root, has_checker)?;
    let grader_name = problem.grader_name.as_deref().unwrap_or("grader");
    let graders = graders_of(&root, problem.has_grader, grader_name)?;
    let two_steps = kind == "TwoSteps";
    if two_steps && graders.sources.is_empty() {
        // CMS's TwoSteps compiles the contestant's code with the task's `manager.%l`, which
        // TPS exports from the grader: without one, nothing runs the two steps.
        return Err(invalid(
            &root.join("grader"),
            format!("a TwoSteps task needs its grader (`grader/cpp/{grader_name}.cpp`, `c/{grader_name}.c` or `java/{grader_name}.java`), compiled with the contestant's code and run twice"),
        ));
    }
    let submissions = solutions_of(&root, &subtasks)?;
    let package = super::cms::scored_task(task, scoring, cases, validation, (submissions, graders));
    Ok(Package {
        communication,
        two_steps,
        ..package
    })
}

/// Whether the task of type `kind` (problem.json's `type`) is output-only; an error for a type
/// not read from TPS folders.
fn is_output_only(kind: &str, json_path: &Path) -> Result<bool, PackageError> {
    match kind {
        "Batch" | "Communication" | "TwoSteps" => Ok(false),
        "OutputOnly" => Ok(true),
        _ => Err(PackageError::Unsupported {
            path: json_path.to_path_buf(),
            message: format!(
                "a TPS `{kind}` task: only Batch (with or without a grader), OutputOnly, Communication and TwoSteps tasks are read from TPS folders (hint: CMS italy_yaml tasks, Kattis and Polygon packages are read as packages)"
            ),
        }),
    }
}

/// A Communication task as TPS lays it out and exports it to CMS: the manager
/// `grader/manager.cpp` (`has_manager`, true by default), `num_processes` (1), `user_io`
/// (`fifo_io` unless given, as its CMS exporter sets it), the grader compiled with the
/// contestant's source being the stub. `has_checker` says whether `checker/` judges the
/// manager's stdout (`check_test.sh`) or that stdout is the score; without it, the checker
/// judges when the task has one, as TPS did before `has_checker` (its Communication
/// sample, scripts v1.6, is such a task).
fn communication_of(
    root: &Path,
    json_path: &Path,
    problem: &ProblemJson,
) -> Result<Option<super::PackageCommunication>, PackageError> {
    if problem.has_manager == Some(false) {
        return Err(PackageError::Unsupported {
            path: json_path.to_path_buf(),
            message: "a Communication task with `has_manager: false`: nothing would talk with the contestant's processes".to_string(),
        });
    }
    let path = required(
        root,
        "grader/manager.cpp",
        "a TPS Communication task's manager (hint: TPS builds `grader/manager.cpp` into `manager.exe`)",
    )?;
    let processes = super::process_count(problem.num_processes, json_path, "processes")?;
    let user_io = match problem.user_io.as_deref() {
        None | Some("fifo_io") => crate::config::UserIo::Fifo,
        Some("std_io") => crate::config::UserIo::Std,
        Some(other) => {
            return Err(invalid(
                json_path,
                format!("`user_io` is `{other}`: `fifo_io` or `std_io`"),
            ))
        }
    };
    let checked = problem
        .has_checker
        .unwrap_or_else(|| root.join("checker/checker.cpp").is_file());
    Ok(Some(super::PackageCommunication {
        manager: SourceProgram::new(path, "grader/manager.cpp"),
        processes,
        user_io,
        checked,
    }))
}

/// An OutputOnly task: the contestant hands in one answer file a test (`output_01.txt`, as
/// CMS's TPS loader names them), each checked by the task's checker and scored by subtask as
/// a Batch task's outputs are. `solution/` holds the programs the authors wrote the answers
/// with (TPS runs them as Batch solutions, with the task's time limit): not the contestant's
/// submissions, so not read; nor are graders, which an OutputOnly task cannot have.
fn output_only_task(
    task: super::cms::Task,
    scoring: Scoring,
    cases: Vec<Case>,
    validation: super::Validation,
) -> Package {
    Package {
        output_only: true,
        ..super::cms::scored_task(
            task,
            scoring,
            cases,
            validation,
            (Vec::new(), crate::config::Graders::default()),
        )
    }
}

/// The name TPS gives a test (`templates/test_name.py`): an OutputOnly task's tests are
/// numbered through the whole of `gen/data` (`01`, `02`, …, the number the answer file
/// carries), any other task's by subtask and place in it (`1-03`).
fn test_name(output_only: bool, subtask_index: usize, test_index: usize, offset: usize) -> String {
    if output_only {
        format!("{test_index:02}")
    } else {
        format!("{subtask_index}-{offset:02}")
    }
}

/// One subtask as `gen/data` and `subtasks.json` give it.
#[derive(Debug, Clone)]
struct Subtask {
    name: String,
    score: f64,
    /// Its own tests, in `gen/data`'s order.
    tests: Vec<String>,
    /// The subtasks whose tests it includes, directly or through another.
    includes: Vec<String>,
}

/// `gen/data` read as TPS's `gen_data_parser.py` reads it, each subtask given its score by
/// `subtasks.json`, and the tests it names found in `tests/`.
fn tests_of(root: &Path, output_only: bool) -> Result<(Vec<Case>, Vec<Subtask>), PackageError> {
    let subtasks_path = root.join("subtasks.json");
    let declared: SubtasksJson = read_json(root, &subtasks_path)?;
    let data_path = required(
        root,
        "gen/data",
        "it says which test is in which subtask (TPS writes `tests/` from it)",
    )?;
    let text = super::read_text(&data_path)?;
    let mut subtasks: Vec<Subtask> = Vec::new();
    let mut tests_seen = 0;
    for (at, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or_default();
        let at_line = |message: String| invalid(&data_path, format!("line {}: {message}", at + 1));
        match command {
            "@subtask" => {
                let name = words
                    .next()
                    .ok_or_else(|| at_line("`@subtask` names no subtask".to_string()))?;
                let score = declared
                    .subtasks
                    .get(name)
                    .ok_or_else(|| {
                        at_line(format!("subtask `{name}` is not in `subtasks.json`"))
                    })?
                    .score;
                subtasks.push(Subtask {
                    name: name.to_string(),
                    score,
                    tests: Vec::new(),
                    includes: Vec::new(),
                });
            }
            "@include" => {
                let current = subtasks.len();
                let Some(subtask) = subtasks.last() else {
                    return Err(at_line("`@include` before any `@subtask`".to_string()));
                };
                let mut includes = subtask.includes.clone();
                for included in words {
                    let Some(other) = subtasks[..current - 1].iter().find(|s| s.name == included)
                    else {
                        return Err(at_line(format!(
                            "`@include {included}`: no earlier subtask of that name"
                        )));
                    };
                    includes.extend(other.includes.iter().cloned());
                    includes.push(included.to_string());
                }
                includes.sort();
                includes.dedup();
                subtasks[current - 1].includes = includes;
            }
            other if other.starts_with('@') => {
                return Err(at_line(format!(
                    "`{other}`: TPS's gen/data knows `@subtask` and `@include` (a `@testset` is not read yet)"
                )))
            }
            _ => {
                let index = subtasks.len();
                let Some(subtask) = subtasks.last_mut() else {
                    return Err(at_line("a test before any `@subtask`".to_string()));
                };
                tests_seen += 1;
                let offset = subtask.tests.len() + 1;
                subtask
                    .tests
                    .push(test_name(output_only, index - 1, tests_seen, offset));
            }
        }
    }
    // TPS's verify.py: indices count from 0 when a Batch task has a `samples` subtask, from
    // 1 otherwise (an OutputOnly task has no samples to judge).
    let first = usize::from(output_only || !declared.subtasks.contains_key("samples"));
    for (position, subtask) in subtasks.iter().enumerate() {
        let index = declared.subtasks[&subtask.name].index;
        if index != position + first {
            return Err(invalid(
                &subtasks_path,
                format!(
                    "subtask `{}` has index {index}, and is subtask {} of `gen/data` (TPS counts from {first})",
                    subtask.name,
                    position + first
                ),
            ));
        }
    }
    let missing = || {
        "missing: `gen/data` names this test (hint: `tps gen` writes `tests/`; the harness does not run TPS's generators)".to_string()
    };
    let cases = (subtasks.iter().flat_map(|s| &s.tests))
        .map(|name| {
            let input = root.join(format!("tests/{name}.in"));
            let answer = root.join(format!("tests/{name}.out"));
            super::cms::case_in(root, name.clone(), input, answer, missing)
        })
        .collect::<Result<_, _>>()?;
    Ok((cases, subtasks))
}

/// Each subtask its score times the least of its tests' scores (CMS's GroupMin), its own
/// tests in its group; the tests it includes, judged in their own subtask, are a dependency:
/// the subtask scores only if they all pass, as they would in its minimum.
fn scoring_of(root: &Path, subtasks: &[Subtask]) -> Result<Scoring, PackageError> {
    let mut items = Vec::new();
    for subtask in subtasks {
        if subtask.tests.is_empty() {
            return Err(invalid(
                &root.join("gen/data"),
                format!(
                    "subtask `{}` has no tests of its own: a subtask made only of `@include`s is not read yet",
                    subtask.name
                ),
            ));
        }
        let cases = subtask
            .tests
            .iter()
            .map(|t| Item::Case(CaseRule::new(t.clone(), CaseValue::Bounded(subtask.score))))
            .collect();
        let mut group =
            ScoreGroup::new(subtask.name.clone(), Rule::Min, Some(subtask.score), cases);
        group.depends_on = subtask.includes.clone();
        items.push(Item::Group(group));
    }
    let total = subtasks.iter().map(|s| s.score).sum();
    Scoring::new(ScoreGroup::new("", Rule::Sum, Some(total), items))
        .map_err(|e| invalid(&root.join("subtasks.json"), e.to_string()))
}

/// `checker/checker.cpp` with the testlib beside it; without one (or `has_checker: false`),
/// TPS compares the output with the answer token by token.
fn checker_of(root: &Path, has_checker: Option<bool>) -> Result<super::Validation, PackageError> {
    let path = root.join("checker/checker.cpp");
    if has_checker == Some(false) || !path.is_file() {
        return Ok(super::Validation::Builtin(crate::check::Checker::Tokens));
    }
    super::check_program(root, &path)?;
    Ok(super::Validation::Cms {
        program: SourceProgram::new(path, "checker/checker.cpp"),
        include: Some(root.join("checker")),
    })
}

/// `grader/<lang>/<grader_name>.*` (`grader`, or a Communication task's `stub`) and the
/// headers beside it, for each language the task has.
fn graders_of(
    root: &Path,
    has_grader: Option<bool>,
    grader_name: &str,
) -> Result<crate::config::Graders, PackageError> {
    let mut graders = crate::config::Graders::default();
    if has_grader == Some(false) {
        return Ok(graders);
    }
    let header = |entry: &Path| {
        matches!(
            entry.extension().and_then(|e| e.to_str()),
            Some("h" | "hpp")
        )
    };
    for (folder, code, extension) in GRADERS {
        let dir = root.join("grader").join(folder);
        let language = [(extension, code)];
        super::cms::graders_in(root, &dir, grader_name, &language, header, &mut graders)?;
    }
    if has_grader == Some(true) && graders.sources.is_empty() {
        return Err(invalid(
            &root.join("problem.json"),
            format!("`has_grader` is true, and `grader/` has no `cpp/{grader_name}.cpp`, `c/{grader_name}.c` or `java/{grader_name}.java`"),
        ));
    }
    Ok(graders)
}

/// A verdict of `solutions.json`: the verdicts it allows, and whether the subtask it is given
/// for scores in full.
fn tps_verdict(word: &str) -> Option<(Vec<Verdict>, bool)> {
    Some(match word {
        "model_solution" | "correct" => (vec![Verdict::Accepted], true),
        "incorrect" => (vec![Verdict::WrongAnswer], false),
        "time_limit" => (vec![Verdict::TimeLimitExceeded], false),
        "memory_limit" => (
            vec![Verdict::MemoryLimitExceeded, Verdict::RuntimeError],
            false,
        ),
        "runtime_error" => (vec![Verdict::RuntimeError], false),
        // Some of the subtask's points: a case a checker gives a fraction is AC with partial
        // credit here (CMS's partial outcome), one it gives nothing WA.
        "partially_correct" => (vec![Verdict::Accepted, Verdict::WrongAnswer], false),
        "time_limit_and_runtime_error" => (
            vec![Verdict::TimeLimitExceeded, Verdict::RuntimeError],
            false,
        ),
        "failed" => (
            vec![
                Verdict::WrongAnswer,
                Verdict::TimeLimitExceeded,
                Verdict::RuntimeError,
                Verdict::MemoryLimitExceeded,
            ],
            false,
        ),
        _ => return None,
    })
}

/// `solutions.json`'s submissions in `solution/`, read as TPS's own samples use it: `verdict`
/// is the solution's verdict, and `except` names the subtasks where it does otherwise; the
/// solution must get that verdict, and a score of at least the points of the subtasks it
/// is said to solve (all of them for `correct` and `model_solution`). A file
/// `solutions.json` does not list is judged and never a mismatch.
fn solutions_of(
    root: &Path,
    subtasks: &[Subtask],
) -> Result<Vec<super::PackageSubmission>, PackageError> {
    let folder = root.join("solution");
    let json_path = root.join("solutions.json");
    let listed: BTreeMap<String, SolutionJson> = if json_path.is_file() {
        read_json(root, &json_path)?
    } else {
        BTreeMap::new()
    };
    let mut submissions = Vec::new();
    if !folder.is_dir() {
        return Ok(submissions);
    }
    for entry in super::sorted_entries(&folder)? {
        if !entry.is_file() {
            continue;
        }
        super::check_inside(root, &entry)?;
        let file = file_name(&entry);
        let (expected, expected_score) = match listed.get(&file) {
            None => (
                Expected::Unchecked {
                    folder: "solution".to_string(),
                },
                None,
            ),
            Some(solution) => expected_of(solution, subtasks, &json_path, &file)?,
        };
        submissions.push(super::PackageSubmission::judged(
            format!("solution/{file}"),
            entry,
            expected,
            expected_score,
        ));
    }
    Ok(submissions)
}

fn expected_of(
    solution: &SolutionJson,
    subtasks: &[Subtask],
    json_path: &Path,
    file: &str,
) -> Result<(Expected, Option<ExpectedScore>), PackageError> {
    let unknown = |word: &str| {
        invalid(
            json_path,
            format!("`{file}`: verdict `{word}` is not one TPS gives (model_solution, correct, incorrect, time_limit, memory_limit, runtime_error, failed, time_limit_and_runtime_error, partially_correct)"),
        )
    };
    let (verdicts, full) =
        tps_verdict(&solution.verdict).ok_or_else(|| unknown(&solution.verdict))?;
    let mut solved = 0.0;
    for subtask in subtasks {
        let scores = match solution.except.get(&subtask.name) {
            Some(word) => tps_verdict(word).ok_or_else(|| unknown(word))?.1,
            None => full,
        };
        if scores {
            solved += subtask.score;
        }
    }
    let total: f64 = subtasks.iter().map(|s| s.score).sum();
    let score = if full {
        ExpectedScore::Exactly(total)
    } else {
        ExpectedScore::Between(solved, total)
    };
    for name in solution.except.keys() {
        if !subtasks.iter().any(|s| &s.name == name) {
            return Err(invalid(
                json_path,
                format!(
                    "`{file}`: `except` names subtask `{name}`, which `gen/data` does not have"
                ),
            ));
        }
    }
    let expected = match verdicts.as_slice() {
        [one] => Expected::One(*one),
        _ => Expected::AnyOf {
            label: solution.verdict.clone(),
            verdicts,
        },
    };
    Ok((expected, Some(score)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(dir: &Path, data: &str) {
        std::fs::write(
            dir.join("problem.json"),
            "{\"name\": \"t\", \"time_limit\": 1}\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("subtasks.json"),
            r#"{"subtasks": {"samples": {"index": 0, "score": 0}, "a": {"index": 1, "score": 40}, "b": {"index": 2, "score": 60}}}"#,
        )
        .unwrap();
        std::fs::create_dir_all(dir.join("gen")).unwrap();
        std::fs::write(dir.join("gen/data"), data).unwrap();
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        for name in ["0-01", "1-01", "1-02", "2-01"] {
            std::fs::write(dir.join(format!("tests/{name}.in")), "1\n").unwrap();
            std::fs::write(dir.join(format!("tests/{name}.out")), "1\n").unwrap();
        }
    }

    #[test]
    fn gen_data_names_the_tests_and_includes_are_dependencies() {
        let dir = tempfile::tempdir().unwrap();
        task(
            dir.path(),
            "@subtask samples\nmanual a.in\n\n# note\n@subtask a\ng 1\ng 2\n@subtask b\n@include a samples\ng 3\n",
        );
        let package = open(dir.path()).unwrap();
        let names: Vec<&str> = package.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["0-01", "1-01", "1-02", "2-01"]);
        let scoring = package.scoring_rules.unwrap();
        let b = scoring.group("b").unwrap();
        assert_eq!(b.depends_on, ["a", "samples"]);
        assert_eq!(b.max_score, Some(60.0));
    }

    #[test]
    fn an_output_only_tasks_tests_are_numbered_through_gen_data_and_counted_from_one() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("problem.json"),
            r#"{"name": "o", "type": "OutputOnly", "time_limit": 1}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("subtasks.json"),
            r#"{"subtasks": {"a": {"index": 1, "score": 40}, "b": {"index": 2, "score": 60}}}"#,
        )
        .unwrap();
        std::fs::create_dir_all(root.join("gen")).unwrap();
        std::fs::write(
            root.join("gen/data"),
            "@subtask a
g 1
g 2
@subtask b
g 3
",
        )
        .unwrap();
        std::fs::create_dir_all(root.join("tests")).unwrap();
        for name in ["01", "02", "03"] {
            std::fs::write(root.join(format!("tests/{name}.in")), "1\n").unwrap();
            std::fs::write(root.join(format!("tests/{name}.out")), "1\n").unwrap();
        }
        let package = open(root).unwrap();
        assert!(package.output_only);
        assert!(package.submissions.is_empty());
        let names: Vec<&str> = package.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["01", "02", "03"]);
        // Indices from 0, as a Batch task with samples has them, are not TPS's for this task.
        std::fs::write(
            root.join("subtasks.json"),
            r#"{"subtasks": {"a": {"index": 0, "score": 40}, "b": {"index": 1, "score": 60}}}"#,
        )
        .unwrap();
        let error = open(root).unwrap_err().to_string();
        assert!(error.contains("TPS counts from 1"), "{error}");
    }

    #[test]
    fn a_communication_task_as_tps_lays_it_out() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        task(
            root,
            "@subtask samples\nm\n@subtask a\ng 1\ng 2\n@subtask b\ng 3\n",
        );
        let problem = |extra: &str| {
            std::fs::write(
                root.join("problem.json"),
                format!("{{\"name\": \"t\", \"type\": \"Communication\"{extra}}}\n"),
            )
            .unwrap();
        };
        problem("");
        let error = open(root).unwrap_err().to_string();
        assert!(
            error.contains("grader/manager.cpp") && error.contains("missing"),
            "{error}"
        );
        std::fs::create_dir_all(root.join("grader/cpp")).unwrap();
        std::fs::create_dir_all(root.join("checker")).unwrap();
        std::fs::write(root.join("grader/manager.cpp"), "int main(){}\n").unwrap();
        std::fs::write(root.join("grader/cpp/stub.cpp"), "int main(){}\n").unwrap();
        std::fs::write(root.join("checker/checker.cpp"), "int main(){}\n").unwrap();
        // fifo_io by default; the checker judges the manager's output when there is one.
        problem(", \"grader_name\": \"stub\", \"num_processes\": 2");
        let package = open(root).unwrap();
        let communication = package.communication.unwrap();
        assert_eq!(communication.manager.name, "grader/manager.cpp");
        assert_eq!(
            (
                communication.processes,
                communication.user_io,
                communication.checked
            ),
            (2, crate::config::UserIo::Fifo, true)
        );
        assert!(matches!(
            package.validation,
            super::super::Validation::Cms { .. }
        ));
        assert!(package.graders.sources[0]
            .1
            .ends_with("grader/cpp/stub.cpp"));
        problem(", \"grader_name\": \"stub\", \"has_checker\": false, \"user_io\": \"std_io\"");
        let communication = open(root).unwrap().communication.unwrap();
        assert_eq!(
            (communication.user_io, communication.checked),
            (crate::config::UserIo::Std, false)
        );
        problem(", \"num_processes\": 0");
        let error = open(root).unwrap_err().to_string();
        assert!(error.contains("`num_processes` is 0"), "{error}");
    }

    #[test]
    fn solutions_json_gives_the_verdict_and_the_score() {
        let subtasks = vec![
            Subtask {
                name: "a".into(),
                score: 40.0,
                tests: vec![],
                includes: vec![],
            },
            Subtask {
                name: "b".into(),
                score: 60.0,
                tests: vec![],
                includes: vec![],
            },
        ];
        let solution = SolutionJson {
            verdict: "time_limit".into(),
            except: BTreeMap::from([("a".to_string(), "correct".to_string())]),
        };
        let (expected, score) =
            expected_of(&solution, &subtasks, Path::new("s.json"), "x.cpp").unwrap();
        assert_eq!(expected, Expected::One(Verdict::TimeLimitExceeded));
        assert_eq!(score, Some(ExpectedScore::Between(40.0, 100.0)));
        let bad = SolutionJson {
            verdict: "great".into(),
            except: BTreeMap::new(),
        };
        assert!(expected_of(&bad, &subtasks, Path::new("s.json"), "x.cpp").is_err());
    }

    #[test]
    fn malformed_problem_json_names_line_and_column_and_other_types_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        task(dir.path(), "@subtask samples\nm\n");
        std::fs::write(
            dir.path().join("problem.json"),
            "{\n  \"name\": \"t\",\n  \"type\" \"Batch\"\n}\n",
        )
        .unwrap();
        let error = open(dir.path()).unwrap_err();
        assert!(
            matches!(
                error,
                PackageError::File(crate::package::FileError::Syntax { line: 3, .. })
            ),
            "{error}"
        );
        std::fs::write(dir.path().join("problem.json"), "{\"type\": \"Notice\"}").unwrap();
        let error = open(dir.path()).unwrap_err();
        assert!(matches!(error, PackageError::Unsupported { .. }), "{error}");
        assert!(error.to_string().contains("`Notice`"), "{error}");
        // A TwoSteps task runs its grader twice: without one it is the task's error, named.
        std::fs::write(dir.path().join("problem.json"), "{\"type\": \"TwoSteps\"}").unwrap();
        let error = open(dir.path()).unwrap_err().to_string();
        assert!(
            error.contains("a TwoSteps task needs its grader"),
            "{error}"
        );
    }
}
