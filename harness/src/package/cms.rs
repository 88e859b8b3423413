//! CMS `italy_yaml` task folders, read as CMS's own loader (`cmscontrib/loaders/italy_yaml.py`)
//! reads them: `task.yaml` (limits, `infile`/`outfile`, `n_input`, the score type),
//! `input/input%d.txt` with `output/output%d.txt`, `gen/GEN`'s `# ST: points` lines as
//! GroupMin subtasks, `sol/grader.%l` and `sol/*.h` compiled with the contestant's source,
//! `check/checker` or `cor/correttore` speaking CMS's checker protocol, `output_only`, and
//! Communication tasks (`check/manager` with `num_processes`, `user_io` and the stubs
//! `sol/stub.%l`, as the loader turns them into CMS's `Communication` task type). What CMS
//! has and this does not run is refused by name (GroupMul, subtasks given by regular
//! expression).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_norway::Value;

use super::invalid;
use super::{file_name, Format, Interaction, Package, PackageError, SourceProgram, TimeLimit};
use crate::case::discover::Case;
use crate::score::{CaseRule, CaseValue, Group as ScoreGroup, Item, Rule, Scoring};

/// The grader's languages, by the extension CMS gives `%l` and the format code the harness
/// keys graders by.
const GRADERS: [(&str, &str); 5] = [
    ("cpp", "cpp"),
    ("c", "c"),
    ("py", "python3"),
    ("java", "java"),
    ("pas", "pascal"),
];

/// The most cases `n_input` may name: far more than any task has.
const MAX_INPUTS: u64 = 10_000;

fn unsupported(path: &Path, message: impl Into<String>) -> PackageError {
    PackageError::Unsupported {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Whether `dir` is an italy_yaml task folder.
pub fn is_task(dir: &Path) -> bool {
    dir.join("task.yaml").is_file()
}

/// Reads the task folder `root`.
pub fn open(root: &Path) -> Result<Package, PackageError> {
    let root = super::canonical(root)?;
    let yaml_path = root.join("task.yaml");
    super::check_inside(&root, &yaml_path)?;
    let task = super::yaml::read(&yaml_path)?;
    let key = |name: &str| task.get(name).filter(|v| !v.is_null());
    let name = match key("name") {
        Some(Value::String(name)) => name.clone(),
        Some(_) => return Err(invalid(&yaml_path, "`name` should be a string")),
        None => file_name(&root),
    };
    let title = match key("title") {
        Some(Value::String(title)) => title.clone(),
        _ => name.clone(),
    };
    let output_only = match key("output_only") {
        None => false,
        Some(Value::Bool(flag)) => *flag,
        Some(_) => return Err(invalid(&yaml_path, "`output_only` should be true or false")),
    };
    let manager = if output_only {
        None
    } else {
        program_in(&root, &[("check", "manager"), ("cor", "manager")])?
    };
    let seconds = number(&task, &yaml_path, &["time_limit", "timeout"])?;
    let megabytes = number(&task, &yaml_path, &["memory_limit", "memlimit"])?;
    let (time_limit, memory_limit) = limits(&yaml_path, seconds, megabytes)?;
    let files = file_io(&task, &yaml_path)?;
    let subtasks = gen_subtasks(&root)?;
    let n_input = case_count(&task, &yaml_path, subtasks.as_deref())?;
    let cases = cases_of(&root, n_input)?;
    let scoring = scoring_of(&task, &yaml_path, subtasks, &cases)?;
    let validation = checker_of(&root)?;
    let (graders, communication) = match manager {
        None => (graders_of(&root, "grader")?, None),
        Some(manager) => communication_of(&root, &task, &yaml_path, manager)?,
    };
    let submissions = reference_of(&root, &name)?;
    Ok(Package {
        output_only,
        // A communication task's processes talk through their FIFOs, never files.
        files: if communication.is_some() {
            crate::config::FileIo::default()
        } else {
            files
        },
        communication,
        two_steps: false,
        ..scored_task(
            Task {
                root,
                format: Format::Cms,
                name,
                title,
                limits: (time_limit, memory_limit, "task.yaml"),
            },
            scoring,
            cases,
            validation,
            (submissions, graders),
        )
    })
}

/// How many cases the task has: task.yaml's `n_input`, which must agree with what `gen/GEN`
/// lists (`subtasks`) when both are there.
fn case_count(
    task: &Value,
    yaml_path: &Path,
    subtasks: Option<&[(f64, usize)]>,
) -> Result<usize, PackageError> {
    let n_input = match number(task, yaml_path, &["n_input"])? {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= MAX_INPUTS as f64 => Some(n as usize),
        Some(n) => {
            return Err(invalid(
                yaml_path,
                format!("`n_input` is {n}: a count of cases"),
            ))
        }
        None => None,
    };
    match (n_input, subtasks) {
        (Some(n), Some(st)) if st.iter().map(|s| s.1).sum::<usize>() != n => Err(invalid(
            yaml_path,
            format!(
                "`n_input` is {n}, and `gen/GEN` lists {} cases",
                st.iter().map(|s| s.1).sum::<usize>()
            ),
        )),
        (Some(n), _) => Ok(n),
        (None, Some(st)) => Ok(st.iter().map(|s| s.1).sum()),
        (None, None) => Err(invalid(
            yaml_path,
            "no `n_input` and no `gen/GEN`: CMS cannot tell how many cases the task has",
        )),
    }
}

/// What names an olympiad task and bounds its runs.
pub(super) struct Task {
    pub root: std::path::PathBuf,
    pub format: Format,
    pub name: String,
    pub title: String,
    /// The time limit, the memory limit and the file that gives them.
    pub limits: (Duration, u64, &'static str),
}

/// A CMS or TPS task as a package: scored, a batch task (stdin and stdout, as the caller
/// may change), judged by `validation`, its submissions and graders given.
pub(super) fn scored_task(
    task: Task,
    scoring: Scoring,
    cases: Vec<Case>,
    validation: super::Validation,
    (submissions, graders): (Vec<super::PackageSubmission>, crate::config::Graders),
) -> Package {
    let (limit, memory_limit, source) = task.limits;
    Package {
        root: task.root,
        format: task.format,
        name: task.name,
        title: task.title,
        scoring: true,
        scoring_rules: Some(std::sync::Arc::new(scoring)),
        interaction: Interaction::None,
        output_only: false,
        passes: None,
        cases,
        groups: Vec::new(),
        checks: Vec::new(),
        validation,
        input_validators: Vec::new(),
        grader: None,
        time_limit: TimeLimit::Given { limit, source },
        memory_limit,
        output_limit: 64 << 20,
        submissions,
        skipped: Vec::new(),
        testlib_validators: false,
        include: None,
        files: crate::config::FileIo::default(),
        graders,
        communication: None,
        two_steps: false,
    }
}

/// An olympiad task's limits, in seconds and MiB as CMS and TPS give them (1 s and 256 MiB
/// when not given), checked.
pub(super) fn limits(
    path: &Path,
    seconds: Option<f64>,
    megabytes: Option<f64>,
) -> Result<(Duration, u64), PackageError> {
    let seconds = seconds.unwrap_or(1.0);
    if !(seconds > 0.0 && seconds <= 3600.0) {
        return Err(invalid(
            path,
            format!("`time_limit` is {seconds}: seconds, more than 0 and at most 3600"),
        ));
    }
    let megabytes = megabytes.unwrap_or(256.0);
    if !(1.0..=f64::from(1 << 20)).contains(&megabytes) {
        return Err(invalid(
            path,
            format!("`memory_limit` is {megabytes}: MiB, at least 1"),
        ));
    }
    Ok((
        Duration::from_secs_f64(seconds),
        (megabytes * f64::from(1 << 20)) as u64,
    ))
}

/// The first of `keys` task.yaml has, as a number.
fn number(task: &Value, path: &Path, keys: &[&str]) -> Result<Option<f64>, PackageError> {
    for key in keys {
        match task.get(*key) {
            None | Some(Value::Null) => continue,
            Some(Value::Number(n)) => return Ok(n.as_f64()),
            Some(_) => return Err(invalid(path, format!("`{key}` should be a number"))),
        }
    }
    Ok(None)
}

/// `infile`/`outfile`: a file name, or empty for stdin/stdout; CMS's default is the files
/// `input.txt` and `output.txt`.
fn file_io(task: &Value, path: &Path) -> Result<crate::config::FileIo, PackageError> {
    let file = |key: &str, default: &str| -> Result<Option<String>, PackageError> {
        let name = match task.get(key) {
            None | Some(Value::Null) => default.to_string(),
            Some(Value::String(name)) => name.clone(),
            Some(_) => return Err(invalid(path, format!("`{key}` should be a file name"))),
        };
        if name.is_empty() {
            return Ok(None);
        }
        crate::config::check_file_name(&name)
            .map_err(|why| invalid(path, format!("`{key}`: {why}")))?;
        Ok(Some(name))
    };
    Ok(crate::config::FileIo {
        input: file("infile", "input.txt")?,
        output: file("outfile", "output.txt")?,
    })
}

/// `gen/GEN`'s subtasks as CMS's loader counts them: each `# ST: points` line starts one, and
/// every other line with a test (or a `# COPY:` line) is a case of the current one. `None`
/// without a `gen/GEN` or without `ST:` lines.
fn gen_subtasks(root: &Path) -> Result<Option<Vec<(f64, usize)>>, PackageError> {
    let path = root.join("gen/GEN");
    if !path.is_file() {
        return Ok(None);
    }
    super::check_inside(root, &path)?;
    let text = read_small(&path, "larger than a task's text file: not read")?;
    let mut subtasks: Vec<(f64, usize)> = Vec::new();
    let mut points: Option<f64> = None;
    let mut count = 0;
    for (at, line) in text.lines().enumerate() {
        let line = line.trim();
        let (test, comment) = match line.split_once('#') {
            None => (line, ""),
            Some((test, comment)) => (test.trim(), comment.trim()),
        };
        let copy = comment.starts_with("COPY:");
        let subtask = comment.strip_prefix("ST:");
        if [!test.is_empty(), copy, subtask.is_some()]
            .iter()
            .filter(|f| **f)
            .count()
            > 1
        {
            return Err(invalid(
                &path,
                format!(
                    "line {}: a case and a command on one line (CMS refuses them too)",
                    at + 1
                ),
            ));
        }
        if !test.is_empty() || copy {
            count += 1;
        }
        if let Some(value) = subtask {
            let value: f64 = value.trim().parse().map_err(|_| {
                invalid(
                    &path,
                    format!(
                        "line {}: `# ST:` should give the subtask's points, and gives `{}`",
                        at + 1,
                        value.trim()
                    ),
                )
            })?;
            match points {
                None if count > 0 => {
                    return Err(invalid(
                        &path,
                        format!(
                            "line {}: {count} cases come before the first `# ST:` line",
                            at + 1
                        ),
                    ))
                }
                None => {}
                Some(previous) => subtasks.push((previous, count)),
            }
            count = 0;
            points = Some(value);
        }
    }
    let Some(last) = points else {
        return Ok(None);
    };
    subtasks.push((last, count));
    Ok(Some(subtasks))
}

/// The text of the file `path`, refused with `too_large` when it is over
/// [`super::yaml::MAX_BYTES`] (a task's own files are small: a larger one is not read).
pub(super) fn read_small(path: &Path, too_large: &str) -> Result<String, PackageError> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() > super::yaml::MAX_BYTES) {
        return Err(invalid(path, too_large));
    }
    super::read_text(path)
}

/// The cases `input/input%d.txt` and `output/output%d.txt`, named `%03d` as CMS names them.
fn cases_of(root: &Path, n_input: usize) -> Result<Vec<Case>, PackageError> {
    let missing = || {
        let hint = if root.join("gen/GEN").is_file() {
            " (hint: the task's data is made by `gen/GEN`, which the harness does not run: generate `input/` and `output/` with the task's own tools, CMS's `cmsMake`)"
        } else {
            ""
        };
        format!("missing: task.yaml's cases are 0 to {}{hint}", n_input - 1)
    };
    (0..n_input)
        .map(|index| {
            let input = root.join(format!("input/input{index}.txt"));
            let answer = root.join(format!("output/output{index}.txt"));
            case_in(root, format!("{index:03}"), input, answer, missing)
        })
        .collect()
}

/// The case `name` of a CMS or TPS task, whose files (inside the task) must be there: why
/// one is not is `missing`'s to say.
pub(super) fn case_in(
    root: &Path,
    name: String,
    input: PathBuf,
    answer: PathBuf,
    missing: impl Fn() -> String,
) -> Result<Case, PackageError> {
    for file in [&input, &answer] {
        super::check_inside(root, file)?;
        if !file.is_file() {
            return Err(invalid(file, missing()));
        }
    }
    Ok(Case {
        name,
        input,
        answer,
        args: Vec::new(),
    })
}

/// The scoring CMS gives the task: task.yaml's `score_type` and `score_type_parameters` when
/// it has both (and `n_input`), else `gen/GEN`'s subtasks (GroupMin), else each case
/// `total_value / n_input` (Sum).
fn scoring_of(
    task: &Value,
    path: &Path,
    subtasks: Option<Vec<(f64, usize)>>,
    cases: &[Case],
) -> Result<Scoring, PackageError> {
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    let given = task
        .get("score_type")
        .zip(task.get("score_type_parameters"));
    let fail = |e: crate::score::ScoringError| invalid(path, e.to_string());
    if let Some((kind, parameters)) = given.filter(|_| task.get("n_input").is_some()) {
        let kind = kind
            .as_str()
            .ok_or_else(|| invalid(path, "`score_type` should be Sum, GroupMin or GroupMul"))?;
        return match kind {
            "Sum" => {
                let each = parameters.as_f64().ok_or_else(|| {
                    invalid(path, "`score_type_parameters` of Sum should be each case's points")
                })?;
                sum(&names, each).map_err(fail)
            }
            "GroupMin" => {
                let groups = group_parameters(parameters, path, names.len())?;
                group_min(&names, &groups).map_err(fail)
            }
            "GroupMul" => Err(unsupported(
                path,
                "`score_type: GroupMul` (a subtask's points times the product of its cases' scores) is not scored here yet (hint: GroupMin and Sum are)",
            )),
            other => Err(invalid(
                path,
                format!("`score_type` is `{other}`: CMS knows Sum, GroupMin, GroupMul and GroupThreshold"),
            )),
        };
    }
    if let Some(groups) = subtasks {
        let total: f64 = groups.iter().map(|g| g.0).sum();
        if total != 100.0 {
            return Err(invalid(
                path,
                format!(
                    "`gen/GEN`'s subtasks add up to {total} points, and CMS's loader wants 100"
                ),
            ));
        }
        return group_min(&names, &groups).map_err(fail);
    }
    let total = match task.get("total_value") {
        None | Some(Value::Null) => 100.0,
        Some(value) => value
            .as_f64()
            .ok_or_else(|| invalid(path, "`total_value` should be a number"))?,
    };
    let each = if names.is_empty() {
        0.0
    } else {
        total / names.len() as f64
    };
    sum(&names, each).map_err(fail)
}

/// GroupMin's parameters: `[[points, cases], …]`, cases a count of consecutive cases.
fn group_parameters(
    parameters: &Value,
    path: &Path,
    n_input: usize,
) -> Result<Vec<(f64, usize)>, PackageError> {
    let shape = "`score_type_parameters` of GroupMin should be a list of `[points, cases]`";
    let list = parameters
        .as_sequence()
        .ok_or_else(|| invalid(path, shape))?;
    let mut groups = Vec::new();
    for entry in list {
        let pair = entry
            .as_sequence()
            .filter(|p| p.len() == 2)
            .ok_or_else(|| invalid(path, shape))?;
        let points = pair[0].as_f64().ok_or_else(|| invalid(path, shape))?;
        let count = match &pair[1] {
            Value::Number(n) => n.as_u64().ok_or_else(|| invalid(path, shape))? as usize,
            Value::String(_) => {
                return Err(unsupported(
                    path,
                    "GroupMin subtasks given by a regular expression over the case names are not read yet (hint: give each subtask's count of consecutive cases)",
                ))
            }
            _ => return Err(invalid(path, shape)),
        };
        groups.push((points, count));
    }
    let listed: usize = groups.iter().map(|g| g.1).sum();
    if listed != n_input {
        return Err(invalid(
            path,
            format!("the subtasks take {listed} cases, and `n_input` is {n_input}"),
        ));
    }
    Ok(groups)
}

/// CMS's Sum: each case `each` times its score.
fn sum(names: &[&str], each: f64) -> Result<Scoring, crate::score::ScoringError> {
    let items = names
        .iter()
        .map(|n| Item::Case(CaseRule::new(*n, CaseValue::Bounded(each))))
        .collect();
    Scoring::new(ScoreGroup::new(
        "",
        Rule::Sum,
        Some(each * names.len() as f64),
        items,
    ))
}

/// CMS's GroupMin: each subtask its points times the least of its cases' scores, the
/// subtasks `[points, count]` taking consecutive cases.
fn group_min(
    names: &[&str],
    groups: &[(f64, usize)],
) -> Result<Scoring, crate::score::ScoringError> {
    let mut rest = names;
    let mut items = Vec::new();
    for (index, (points, count)) in groups.iter().enumerate() {
        let (these, after) = rest.split_at((*count).min(rest.len()));
        rest = after;
        let cases = these
            .iter()
            .map(|n| Item::Case(CaseRule::new(*n, CaseValue::Bounded(*points))))
            .collect();
        items.push(Item::Group(ScoreGroup::new(
            format!("subtask{}", index + 1),
            Rule::Min,
            Some(*points),
            cases,
        )));
    }
    let total = groups.iter().map(|g| g.0).sum();
    Scoring::new(ScoreGroup::new("", Rule::Sum, Some(total), items))
}

/// `check/checker` or `cor/correttore` (a program, or its source beside it), else CMS's diff
/// (white space ignored, as the harness's token checker compares).
fn checker_of(root: &Path) -> Result<super::Validation, PackageError> {
    let found = program_in(root, &[("check", "checker"), ("cor", "correttore")])?;
    Ok(match found {
        Some(program) => super::Validation::Cms {
            program,
            include: None,
        },
        None => super::Validation::Builtin(crate::check::Checker::Tokens),
    })
}

/// The first of `places` (`folder`, `stem`) the task has: the program `folder/stem` itself
/// (as CMS's loader takes it), or its source `folder/stem.<ext>` (as `cmsMake` builds it).
fn program_in(root: &Path, places: &[(&str, &str)]) -> Result<Option<SourceProgram>, PackageError> {
    for (folder, stem) in places {
        let exact = root.join(folder).join(stem);
        let source = super::sorted_entries(&root.join(folder))
            .unwrap_or_default()
            .into_iter()
            .find(|p| p.file_stem().is_some_and(|s| s == *stem) && p.extension().is_some());
        let found = if exact.is_file() { Some(exact) } else { source };
        if let Some(path) = found {
            super::check_program(root, &path)?;
            let name = format!("{folder}/{}", file_name(&path));
            return Ok(Some(SourceProgram::new(path, name)));
        }
    }
    Ok(None)
}

/// A communication task as CMS's loader reads it (`check/manager`): `num_processes` (1 by
/// default), the stubs `sol/stub.%l` compiled with the contestant's source (and `sol/*.h`
/// beside them), `user_io` `std_io` or `fifo_io`, by default `fifo_io` with a stub and
/// `std_io` without, as the loader sets it.
fn communication_of(
    root: &Path,
    task: &Value,
    yaml_path: &Path,
    manager: SourceProgram,
) -> Result<(crate::config::Graders, Option<super::PackageCommunication>), PackageError> {
    let processes = super::process_count(
        number(task, yaml_path, &["num_processes"])?,
        yaml_path,
        "user processes",
    )?;
    let stubs = graders_of(root, "stub")?;
    let user_io = match task.get("user_io") {
        None | Some(Value::Null) if stubs.sources.is_empty() => crate::config::UserIo::Std,
        None | Some(Value::Null) => crate::config::UserIo::Fifo,
        Some(Value::String(io)) if io == "std_io" => crate::config::UserIo::Std,
        Some(Value::String(io)) if io == "fifo_io" => crate::config::UserIo::Fifo,
        Some(_) => {
            return Err(invalid(
                yaml_path,
                "`user_io` should be `std_io` (the FIFOs are the process's stdin and stdout) or `fifo_io` (their paths are its arguments)",
            ))
        }
    };
    Ok((
        stubs,
        Some(super::PackageCommunication {
            manager,
            processes,
            user_io,
            checked: false,
        }),
    ))
}

/// `sol/<stem>.%l` (`grader`, or a communication task's `stub`) for each language it is
/// given in, and `sol/*.h` beside them.
fn graders_of(root: &Path, stem: &str) -> Result<crate::config::Graders, PackageError> {
    let mut graders = crate::config::Graders::default();
    let header = |entry: &Path| {
        matches!(
            entry.extension().and_then(|e| e.to_str()),
            Some("h" | "hpp" | "hh")
        ) || file_name(entry).ends_with("lib.pas")
    };
    graders_in(
        root,
        &root.join("sol"),
        stem,
        &GRADERS,
        header,
        &mut graders,
    )?;
    Ok(graders)
}

/// Adds `dir/<stem>.<extension>` for each of `languages` (extension, format code) that is
/// there to `graders`, and, when one is, the headers beside it (`header`), each name once:
/// CMS's and TPS's graders are found alike.
pub(super) fn graders_in(
    root: &Path,
    dir: &Path,
    stem: &str,
    languages: &[(&str, &str)],
    header: impl Fn(&Path) -> bool,
    graders: &mut crate::config::Graders,
) -> Result<(), PackageError> {
    let before = graders.sources.len();
    for (extension, code) in languages {
        let path = dir.join(format!("{stem}.{extension}"));
        if path.is_file() {
            super::check_inside(root, &path)?;
            graders.sources.push((code.to_string(), path));
        }
    }
    if graders.sources.len() == before {
        return Ok(());
    }
    for entry in super::sorted_entries(dir)? {
        let known = graders
            .files
            .iter()
            .any(|f| file_name(f) == file_name(&entry));
        if header(&entry) && entry.is_file() && !known {
            super::check_inside(root, &entry)?;
            graders.files.push(entry);
        }
    }
    Ok(())
}

/// The task's reference solutions: `sol/<name>.%l` or `sol/soluzione.%l`, which must score
/// in full. Graders, stubs and headers are not submissions.
fn reference_of(root: &Path, name: &str) -> Result<Vec<super::PackageSubmission>, PackageError> {
    let sol = root.join("sol");
    let mut submissions = Vec::new();
    if !sol.is_dir() {
        return Ok(submissions);
    }
    for entry in super::sorted_entries(&sol)? {
        let stem = entry.file_stem().map(|s| s.to_string_lossy().into_owned());
        let reference = stem
            .as_deref()
            .is_some_and(|s| s == name || s == "soluzione");
        if !reference || !entry.is_file() || entry.extension().is_none() {
            continue;
        }
        super::check_inside(root, &entry)?;
        submissions.push(super::PackageSubmission::judged(
            format!("sol/{}", file_name(&entry)),
            entry,
            super::expected::Expected::One(crate::verdict::Verdict::Accepted),
            None,
        ));
    }
    Ok(submissions)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(dir: &Path, yaml: &str, cases: usize) {
        std::fs::write(dir.join("task.yaml"), yaml).unwrap();
        std::fs::create_dir_all(dir.join("input")).unwrap();
        std::fs::create_dir_all(dir.join("output")).unwrap();
        for i in 0..cases {
            std::fs::write(dir.join(format!("input/input{i}.txt")), "1\n").unwrap();
            std::fs::write(dir.join(format!("output/output{i}.txt")), "1\n").unwrap();
        }
    }

    #[test]
    fn gen_subtasks_are_group_min_as_cms_counts_them() {
        let dir = tempfile::tempdir().unwrap();
        task(dir.path(), "name: t\ninfile: ''\noutfile: ''\n", 3);
        std::fs::create_dir_all(dir.path().join("gen")).unwrap();
        std::fs::write(
            dir.path().join("gen/GEN"),
            "# comment\n# ST: 40\n1 2\n# COPY: a.txt\n# ST: 60\n3 4\n",
        )
        .unwrap();
        let package = open(dir.path()).unwrap();
        assert_eq!(package.cases.len(), 3);
        assert!(package.files.is_none());
        let scoring = package.scoring_rules.unwrap();
        let groups = scoring.root().groups();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].max_score, Some(40.0));
        assert_eq!(groups[0].cases().len(), 2);
        assert_eq!(groups[1].cases()[0].name, "002");
    }

    #[test]
    fn sum_by_default_and_files_by_default() {
        let dir = tempfile::tempdir().unwrap();
        task(dir.path(), "name: t\nn_input: 4\n", 4);
        let package = open(dir.path()).unwrap();
        assert_eq!(package.files.input.as_deref(), Some("input.txt"));
        let scoring = package.scoring_rules.unwrap();
        assert_eq!(scoring.max_score(), Some(100.0));
        assert_eq!(scoring.cases()[3].value, CaseValue::Bounded(25.0));
    }

    #[test]
    fn a_missing_case_a_bad_type_and_group_mul_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        task(dir.path(), "name: t\nn_input: 3\n", 2);
        let error = open(dir.path()).unwrap_err().to_string();
        assert!(
            error.contains("input2.txt") && error.contains("missing"),
            "{error}"
        );
        task(
            dir.path(),
            "name: t\nn_input: 2\nscore_type: GroupMul\nscore_type_parameters: [[100, 2]]\n",
            2,
        );
        let error = open(dir.path()).unwrap_err();
        assert!(matches!(error, PackageError::Unsupported { .. }), "{error}");
        task(dir.path(), "name: t\nn_input: 2\ntime_limit: fast\n", 2);
        let error = open(dir.path()).unwrap_err().to_string();
        assert!(error.contains("`time_limit` should be a number"), "{error}");
    }

    #[test]
    fn a_manager_makes_a_communication_task_as_cms_loader_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        task(dir.path(), "name: t\nn_input: 1\n", 1);
        std::fs::create_dir_all(dir.path().join("check")).unwrap();
        std::fs::write(dir.path().join("check/manager"), "#!/bin/sh\n").unwrap();
        let package = open(dir.path()).unwrap();
        let communication = package.communication.unwrap();
        assert_eq!(communication.manager.name, "check/manager");
        assert_eq!(
            (communication.processes, communication.user_io),
            (1, crate::config::UserIo::Std)
        );
        assert!(package.files.is_none() && package.graders.is_empty());
        // A stub makes `fifo_io` the default, as the loader sets it.
        std::fs::create_dir_all(dir.path().join("sol")).unwrap();
        std::fs::write(dir.path().join("sol/stub.c"), "int main(){}\n").unwrap();
        std::fs::write(dir.path().join("sol/grader.c"), "int main(){}\n").unwrap();
        task(dir.path(), "name: t\nn_input: 1\nnum_processes: 2\n", 1);
        let package = open(dir.path()).unwrap();
        let communication = package.communication.unwrap();
        assert_eq!(
            (communication.processes, communication.user_io),
            (2, crate::config::UserIo::Fifo)
        );
        assert_eq!(package.graders.sources.len(), 1);
        assert!(package.graders.sources[0].1.ends_with("sol/stub.c"));
        for (yaml, says) in [
            ("num_processes: 0\n", "`num_processes` is 0"),
            ("user_io: pipes\n", "`user_io` should be"),
        ] {
            task(dir.path(), &format!("name: t\nn_input: 1\n{yaml}"), 1);
            let error = open(dir.path()).unwrap_err().to_string();
            assert!(error.contains(says), "{error}");
        }
    }

    #[test]
    fn malformed_task_yaml_names_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        task(dir.path(), "name: t\nn_input: [1\n", 0);
        let error = open(dir.path()).unwrap_err();
        assert!(
            matches!(
                error,
                PackageError::File(crate::package::FileError::Syntax { line: 2 | 3, .. })
            ),
            "{error}"
        );
    }
}
