//! Reads a Kattis/ICPC problem package, legacy or 2025-09 (2023-07-draft): problem.yaml, the
//! test data with its groups' flags, the validators, the limits and the submissions.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_norway::Value;

use super::limits::{Bound, TimeLimit};
use super::FileError;
use super::{
    file_name, sorted_entries, submissions, DataCheck, DataCheckKind, Format, Group, Package,
    PackageError, SourceProgram, Validation,
};
use super::{invalid, yaml};
use crate::case::discover::Case;

const MIB: u64 = 1 << 20;
/// problemtools' defaults when problem.yaml says nothing.
const DEFAULT_MEMORY_MIB: u64 = 2048;
const DEFAULT_OUTPUT_MIB: u64 = 8;

/// The version problem.yaml declares: 2023-07-draft and 2025-09 read alike.
pub fn version(dir: &Path) -> Format {
    // Read within the same bounds as everything else; a file that cannot be read is refused
    // by `open` with the reason.
    let declared = super::yaml::read(&dir.join("problem.yaml"))
        .ok()
        .and_then(|v| {
            v.get("problem_format_version")
                .and_then(|v| v.as_str().map(str::to_string))
        })
        .unwrap_or_default();
    if declared.starts_with("2023-07") || declared.starts_with("2025-") || declared == "draft" {
        Format::Kattis2025
    } else {
        Format::KattisLegacy
    }
}

/// Scoring rules that cannot be used: at the line of the key in the group's
/// `test_group.yaml` when the error is about one key's value there, else at `data/`.
fn scoring_error(data: &Path, error: &crate::score::ScoringError) -> PackageError {
    let message = format!("its scoring cannot be used: {error}");
    if let crate::score::ScoringErrorKind::BadValue {
        key,
        group: Some(group),
        ..
    } = &error.kind
    {
        let file = data.join(group).join("test_group.yaml");
        let line = std::fs::read_to_string(&file).ok().and_then(|text| {
            text.lines().position(|l| {
                l.strip_prefix(key.as_str())
                    .is_some_and(|rest| rest.trim_start().starts_with(':'))
            })
        });
        if let Some(line) = line {
            return FileError::syntax(&file, line + 1, 1, message).into();
        }
    }
    invalid(data, message)
}

/// The first of `names` in `folder` that `found` accepts: the format's two spellings of a
/// folder or file, the first one there taken.
fn first_in(folder: &Path, names: &[&str], found: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    names
        .iter()
        .map(|name| folder.join(name))
        .find(|path| found(path))
}

/// A YAML number (integer or float) as f64.
fn number(value: &Value) -> Option<f64> {
    value
        .as_f64()
        .or_else(|| value.as_i64().map(|n| n as f64))
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
}

/// Flags written as one string (`float_tolerance 1e-6`) or as a list.
pub(crate) fn flags(value: Option<&Value>) -> Option<Vec<String>> {
    let value = value?;
    Some(match value {
        Value::String(text) => text.split_whitespace().map(str::to_string).collect(),
        Value::Sequence(items) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => s.clone(),
                other => serde_norway::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            })
            .collect(),
        Value::Null => Vec::new(),
        // A map of validator name to flags (input validators): all of them, as a package
        // with one input validator has.
        Value::Mapping(map) => map
            .values()
            .flat_map(|v| flags(Some(v)).unwrap_or_default())
            .collect(),
        other => vec![serde_norway::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_string()],
    })
}

/// Reads the Kattis/ICPC package in `root`, as `format` reads.
pub fn open(root: &Path, format: Format) -> Result<Package, PackageError> {
    let root = super::canonical(root)?;
    let yaml_path = root.join("problem.yaml");
    let yaml = read_problem_yaml(&root, &yaml_path)?;
    let name = file_name(&root);
    let title = title_of(&yaml, &name);
    let kind = kind_of(&yaml, &yaml_path)?;
    let constants = read_constants(yaml.get("constants"));
    let validation = output_validation(&root, &yaml_path, format, &kind, &constants)?;
    let limits = limits_of(
        &root,
        &yaml,
        &yaml_path,
        format,
        kind.multi_pass,
        &validation,
    )?;
    let DataRead {
        data,
        cases,
        groups,
        checks,
    } = test_data_of(&root, &yaml, &constants)?;
    let input_validators = input_validators_of(&root, &constants)?;

    let case_names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
    let (submissions, skipped) =
        submissions::kattis(&root, &case_names, format == Format::Kattis2025)?;
    let grader = grader_of(&root, &constants)?;
    let scoring_rules = if kind.scoring && data.is_dir() {
        let rules = scoring_of(
            &root,
            &yaml,
            &data,
            &cases,
            &groups,
            &constants,
            grader.is_some(),
        )?;
        Some(std::sync::Arc::new(rules))
    } else {
        None
    };
    Ok(Package {
        passes: limits.passes,
        root,
        format,
        name,
        title,
        scoring: kind.scoring,
        scoring_rules,
        interaction: if kind.interactive {
            super::Interaction::Validator
        } else {
            super::Interaction::None
        },
        cases,
        groups,
        checks,
        validation,
        input_validators,
        time_limit: answers_untimed(limits.time_limit, kind.submit_answer),
        memory_limit: limits.memory_limit,
        output_limit: limits.output_limit,
        submissions,
        skipped,
        testlib_validators: false,
        grader,
        output_only: kind.submit_answer,
        include: None,
        files: crate::config::FileIo::default(),
        communication: None,
        two_steps: false,
        graders: Default::default(),
    })
}

/// A submit-answer package's limit: no program of the contestant's runs, so there is nothing
/// to time and no accepted submission to compute a limit from.
fn answers_untimed(limit: TimeLimit, submit_answer: bool) -> TimeLimit {
    match limit {
        TimeLimit::Computed { .. } if submit_answer => TimeLimit::Given {
            limit: Duration::from_secs(1),
            source: "submit-answer: no program runs",
        },
        given => given,
    }
}

/// problem.yaml as a mapping; a package without one reads as an empty one.
fn read_problem_yaml(root: &Path, yaml_path: &Path) -> Result<Value, PackageError> {
    super::check_inside(root, yaml_path)?;
    let yaml = if yaml_path.is_file() {
        yaml::read(yaml_path)?
    } else {
        Value::Mapping(Default::default())
    };
    if !yaml.is_mapping() {
        return Err(invalid(yaml_path, "problem.yaml must be a mapping of keys"));
    }
    Ok(yaml)
}

/// The English `name`, else the first, else the folder's name.
fn title_of(yaml: &Value, name: &str) -> String {
    match yaml.get("name") {
        Some(Value::String(title)) => title.clone(),
        Some(Value::Mapping(names)) => names
            .get("en")
            .or_else(|| names.values().next())
            .and_then(Value::as_str)
            .unwrap_or(name)
            .to_string(),
        _ => name.to_string(),
    }
}

/// What kind of problem a package is, from problem.yaml's `type` and (legacy) `validation`.
struct Kind {
    /// `validation` as written (`default` when it is not).
    validation: String,
    interactive: bool,
    multi_pass: bool,
    scoring: bool,
    /// `submit-answer`: the submission is the answers.
    submit_answer: bool,
}

/// A key of problem.yaml written as words: one string of them (`interactive scoring`), or a
/// list.
pub(super) fn words(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::String(t)) => t.split_whitespace().map(str::to_string).collect(),
        Some(Value::Sequence(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// What kind of problem: refused clearly when it needs what is not built.
fn kind_of(yaml: &Value, yaml_path: &Path) -> Result<Kind, PackageError> {
    let types = words(yaml.get("type"));
    let validation = yaml
        .get("validation")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .to_string();
    // An interactive problem's output validator is its interactor: it talks to the
    // submission through both pipes and gives 42 or 43 as it would for an output.
    let interactive =
        types.iter().any(|t| t == "interactive") || validation.contains("interactive");
    let multi_pass = types.iter().any(|t| t == "multi-pass") || validation.contains("multi-pass");
    let submit_answer =
        types.iter().any(|t| t == "submit-answer") || validation.contains("submit-answer");
    if submit_answer && (interactive || multi_pass) {
        return Err(invalid(
            yaml_path,
            "`submit-answer` cannot go with `interactive` or `multi-pass`: no program of the contestant's runs (the 2025-09 format says they are incompatible)",
        ));
    }
    if multi_pass && interactive {
        return Err(PackageError::Unsupported {
            path: yaml_path.to_path_buf(),
            message: "interactive multi-pass problems are not judged by this harness yet (multi-pass ones that are not interactive are)".to_string(),
        });
    }
    let scoring = types.iter().any(|t| t == "scoring") || validation.contains("score");
    Ok(Kind {
        validation,
        interactive,
        multi_pass,
        scoring,
        submit_answer,
    })
}

/// How outputs are validated: the package's output validator (an interactive problem's
/// interactor), or the default validator.
fn output_validation(
    root: &Path,
    yaml_path: &Path,
    format: Format,
    kind: &Kind,
    constants: &[(String, String)],
) -> Result<Validation, PackageError> {
    let custom_dir = first_in(root, &["output_validator", "output_validators"], |d| {
        d.is_dir() && sorted_entries(d).is_ok_and(|e| !e.is_empty())
    });
    let custom =
        kind.validation.contains("custom") || format == Format::Kattis2025 || kind.interactive;
    match custom_dir {
        Some(dir) if custom => {
            // Legacy: one subfolder (or file) per validator, and the first is used. 2025-09:
            // the folder itself is the program (a lone subfolder in it is taken as it).
            let mut program = dir.clone();
            if file_name(&dir) == "output_validators" {
                program = sorted_entries(&dir)?
                    .into_iter()
                    .next()
                    .expect("a non-empty folder");
            }
            loop {
                let entries = if program.is_dir() {
                    sorted_entries(&program)?
                } else {
                    Vec::new()
                };
                match entries.as_slice() {
                    [only] if only.is_dir() => program = only.clone(),
                    _ => break,
                }
            }
            super::check_program(root, &program)?;
            let name = program
                .strip_prefix(root)
                .unwrap_or(&program)
                .display()
                .to_string();
            Ok(Validation::Custom(SourceProgram {
                path: program,
                name,
                constants: constants.to_vec(),
            }))
        }
        None if kind.interactive => Err(invalid(
            yaml_path,
            "an interactive problem, but no interactor in `output_validators/` (hint: the output validator is the interactor: add its source there)",
        )),
        None if kind.validation.contains("custom") => Err(invalid(
            yaml_path,
            "`validation: custom` but no output validator in `output_validators/` (hint: add the validator's source there)",
        )),
        _ => Ok(Validation::Default),
    }
}

/// A package's limits, read from problem.yaml (and a legacy `.timelimit`).
struct Limits {
    memory_limit: u64,
    output_limit: u64,
    /// A multi-pass problem's most passes.
    passes: Option<u32>,
    time_limit: TimeLimit,
}

/// Limits: each one checked, so that a zero, a negative or an absurd value is an error
/// naming its key, never a panic or every case MLE.
fn limits_of(
    root: &Path,
    yaml: &Value,
    yaml_path: &Path,
    format: Format,
    multi_pass: bool,
    validation: &Validation,
) -> Result<Limits, PackageError> {
    let limits = match yaml.get("limits") {
        None | Some(Value::Null) => None,
        Some(map @ Value::Mapping(_)) => Some(map),
        Some(_) => return Err(invalid(yaml_path, "`limits` must be a mapping of keys")),
    };
    let limit = |keys: &[&str]| -> Result<Option<f64>, PackageError> {
        let mut value = limits;
        for key in keys {
            value = value.and_then(|v| v.get(*key));
        }
        match value {
            None | Some(Value::Null) => Ok(None),
            Some(given) => number(given).map(Some).ok_or_else(|| {
                invalid(
                    yaml_path,
                    format!(
                        "`limits.{}`: `{}` is not a number",
                        keys.join("."),
                        serde_norway::to_string(given).unwrap_or_default().trim()
                    ),
                )
            }),
        }
    };
    let checked = |keys: &[&str], bound: Bound| -> Result<Option<f64>, PackageError> {
        let Some(value) = limit(keys)? else {
            return Ok(None);
        };
        bound
            .check(value)
            .map(Some)
            .map_err(|why| invalid(yaml_path, format!("`limits.{}`: {why}", keys.join("."))))
    };
    let mib = |keys: &[&str], default: u64| -> Result<u64, PackageError> {
        Ok(checked(keys, Bound::MIB)?.map_or(default * MIB, |m| (m * MIB as f64) as u64))
    };
    let memory_limit = mib(&["memory"], DEFAULT_MEMORY_MIB)?;
    let output_limit = mib(&["output"], DEFAULT_OUTPUT_MIB)?;
    let multiplier = checked(&["time_multipliers", "ac_to_time_limit"], Bound::MULTIPLIER)?
        .or(checked(&["time_multiplier"], Bound::MULTIPLIER)?)
        .unwrap_or(if format == Format::KattisLegacy {
            5.0
        } else {
            2.0
        });
    let resolution = checked(&["time_resolution"], Bound::SECONDS)?.unwrap_or(1.0);
    let passes = if multi_pass {
        Some(passes_of(limits, yaml_path, validation)?)
    } else {
        None
    };
    let time_limit = given_time_limit(root, checked(&["time_limit"], Bound::SECONDS)?)?.unwrap_or(
        TimeLimit::Computed {
            multiplier,
            resolution,
        },
    );
    Ok(Limits {
        memory_limit,
        output_limit,
        passes,
        time_limit,
    })
}

/// A multi-pass problem's most passes (`limits.validation_passes`, 2 by default); it needs
/// an output validator, which writes each next pass's input.
fn passes_of(
    limits: Option<&Value>,
    yaml_path: &Path,
    validation: &Validation,
) -> Result<u32, PackageError> {
    let passes = match limits.and_then(|l| l.get("validation_passes")) {
        None | Some(Value::Null) => 2,
        Some(value) => value
            .as_u64()
            .filter(|n| (2..=1000).contains(n))
            .ok_or_else(|| {
                invalid(
                    yaml_path,
                    "`limits.validation_passes` must be an integer from 2 to 1000",
                )
            })? as u32,
    };
    if *validation == Validation::Default {
        return Err(invalid(
            yaml_path,
            "a multi-pass problem, but no output validator in `output_validator/` (hint: the output validator writes each next pass's input, `nextpass.in`)",
        ));
    }
    Ok(passes)
}

/// `data/` read: its cases, the flags of each folder, the validation data.
struct DataRead {
    data: PathBuf,
    cases: Vec<Case>,
    groups: Vec<Group>,
    checks: Vec<DataCheck>,
}

/// Walks `data/`: `sample` and `secret` give the cases, `invalid_input`, `invalid_output`
/// and `valid_output` the validation data; refused without a case.
fn test_data_of(
    root: &Path,
    yaml: &Value,
    constants: &[(String, String)],
) -> Result<DataRead, PackageError> {
    let base_output_flags = flags(yaml.get("validator_flags")).unwrap_or_default();
    let data = root.join("data");
    super::check_inside(root, &data)?;
    let mut walk = Walk {
        root,
        data: &data,
        base_output: &base_output_flags,
        constants,
        kind: None,
        ancestors: Vec::new(),
        entries: 0,
        cases: Vec::new(),
        groups: Vec::new(),
        checks: Vec::new(),
    };
    if data.is_dir() {
        let top = read_group(root, &data, &GroupFlags::default(), constants)?;
        walk.groups.push(walk.group_entry(&data, &top));
        walk.ancestors.push(super::canonical(&data)?);
        for (part, kind) in [
            ("sample", None),
            ("secret", None),
            ("invalid_input", Some(DataCheckKind::InvalidInput)),
            ("invalid_output", Some(DataCheckKind::InvalidOutput)),
            ("valid_output", Some(DataCheckKind::ValidOutput)),
        ] {
            let folder = data.join(part);
            if folder.is_dir() {
                walk.kind = kind;
                walk.group(&folder, &top)?;
            }
        }
    }
    let Walk {
        cases,
        groups,
        checks,
        ..
    } = walk;
    refuse_ungenerated(root, &data, &cases)?;
    if !data.is_dir() {
        return Err(invalid(
            root,
            "no `data/` folder: a package keeps its cases in `data/sample` and `data/secret`",
        ));
    }
    if cases.is_empty() {
        return Err(invalid(
            &data,
            "no cases: a case is `NAME.in` with `NAME.ans` in `data/sample` or `data/secret`",
        ));
    }
    Ok(DataRead {
        data,
        cases,
        groups,
        checks,
    })
}

/// The programs in `input_validators/` (2025-09: `input_validator/`).
pub(crate) fn input_validators_of(
    root: &Path,
    constants: &[(String, String)],
) -> Result<Vec<SourceProgram>, PackageError> {
    let Some(dir) = first_in(root, &["input_validators", "input_validator"], Path::is_dir) else {
        return Ok(Vec::new());
    };
    Ok(sorted_entries(&dir)?
        .into_iter()
        .map(|path| super::check_program(root, &path).map(|()| path))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .map(|path| SourceProgram::in_package(root, path, constants))
        .collect())
}

/// A scoring problem is scored as its format says: with 2025-09's `test_group.yaml` (or,
/// in a package that declares 2025-09, with none: `secret` then sums its cases to 100) by
/// the spec's result aggregation; with `testdata.yaml` files, or none in an older version,
/// as problemtools' default grader (or the package's own in `graders/`) scores them, folder
/// by folder (its own example oddecho is such a 2023-07-draft package, and problemtools reads
/// no 2025-09 keys).
fn scoring_of(
    root: &Path,
    yaml: &Value,
    data: &Path,
    cases: &[Case],
    groups: &[Group],
    constants: &[(String, String)],
    has_grader: bool,
) -> Result<crate::score::Scoring, PackageError> {
    let test_groups = groups.iter().any(|g| g.scoring.is_some());
    let testdata_yaml = groups
        .iter()
        .any(|g| g.folder.is_dir() && g.folder.join("testdata.yaml").is_file());
    let declares_2025 = yaml
        .get("problem_format_version")
        .and_then(Value::as_str)
        .is_some_and(|v| v.starts_with("2025-"));
    let rules = if test_groups || (declares_2025 && !testdata_yaml) {
        if has_grader {
            // 2025-09 has no custom grader: its groups combine by `score_aggregation`.
            return Err(PackageError::Unsupported {
                path: root.join("graders"),
                message: "a custom grader is a legacy package's (`grading: custom` in `testdata.yaml`); this package is scored by 2025-09's test groups, which have none (hint: `score_aggregation` in `test_group.yaml` says how a group combines its results)".to_string(),
            });
        }
        crate::score::kattis_2025(&test_data(data, cases, groups)?)
    } else {
        crate::score::kattis_legacy(&legacy_tree(root, data, data, cases, constants)?)
    };
    let rules = rules.map_err(|error| scoring_error(data, &error))?;
    if rules.has_custom_grading() && !has_grader {
        return Err(invalid(
            data,
            "a `testdata.yaml` here says `grading: custom`, but the package has no grader (hint: its program goes in `graders/`, as problemtools looks for it)",
        ));
    }
    Ok(rules)
}

/// problem.yaml's `constants` as the pairs a `{{name}}` or `{{name.variant}}` sequence is
/// replaced by: a scalar is its own `value`, a map gives `value` and its variants.
pub(crate) fn read_constants(value: Option<&Value>) -> Vec<(String, String)> {
    let text = |value: &Value| match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let mut pairs = Vec::new();
    let Some(Value::Mapping(map)) = value else {
        return pairs;
    };
    for (name, value) in map {
        let Some(name) = name.as_str() else {
            continue;
        };
        let variants: Vec<(String, String)> = match value {
            Value::Mapping(variants) => variants
                .iter()
                .filter_map(|(k, v)| Some((k.as_str()?.to_string(), text(v)?)))
                .collect(),
            scalar => text(scalar)
                .map(|v| vec![("value".to_string(), v)])
                .unwrap_or_default(),
        };
        for (variant, value) in variants {
            if variant == "value" {
                pairs.push((name.to_string(), value.clone()));
            }
            pairs.push((format!("{name}.{variant}"), value));
        }
    }
    pairs
}

/// BAPCtools writes a package's test data from `generators/generators.yaml` (`bt generate`)
/// and keeps only the recipe in the repository: such a package is not judged "as it is" until
/// the data is there. Judging its samples alone would pass submissions the secret data fails.
fn refuse_ungenerated(root: &Path, data: &Path, cases: &[Case]) -> Result<(), PackageError> {
    let recipe = root.join("generators/generators.yaml");
    super::check_inside(root, &recipe)?;
    if !recipe.is_file() {
        return Ok(());
    }
    let yaml = yaml::read(&recipe)?;
    // A folder of the recipe has cases when its `data` (cases and subfolders) or its
    // `include` (cases copied from elsewhere) is not empty; `secret: {data: []}` has none.
    let filled = |v: &Value| match v {
        Value::Mapping(m) => !m.is_empty(),
        Value::Sequence(s) => !s.is_empty(),
        Value::Null => false,
        _ => true,
    };
    let declared = |part: &str| {
        yaml.get("data")
            .and_then(|d| d.get(part))
            .is_some_and(|folder| {
                ["data", "include"]
                    .iter()
                    .any(|key| folder.get(*key).is_some_and(filled))
            })
    };
    for part in ["sample", "secret"] {
        let folder = data.join(part);
        if declared(part) && !cases.iter().any(|case| case.input.starts_with(&folder)) {
            return Err(PackageError::Unsupported {
                path: recipe,
                message: format!(
                    "the `data/{part}` cases are written from this file (BAPCtools' recipe) and are not in the package yet (hint: `harness gen {}` writes them, as `bt generate` does; then judge it)",
                    root.display()
                ),
            });
        }
    }
    Ok(())
}

/// The time limit the package writes down, by DOMjudge's priority: `domjudge-problem.ini`,
/// then `.timelimit`, then problem.yaml's `limits.time_limit`.
fn given_time_limit(root: &Path, yaml: Option<f64>) -> Result<Option<TimeLimit>, PackageError> {
    let seconds = |value: f64, path: &Path, key: &str| {
        super::limits::Bound::SECONDS
            .check(value)
            .map(Duration::from_secs_f64)
            .map_err(|why| invalid(path, format!("{key}{why}")))
    };
    let ini = root.join("domjudge-problem.ini");
    super::check_inside(root, &ini)?;
    if ini.is_file() {
        let text = super::read_text(&ini)?;
        for line in text.lines() {
            if let Some((key, value)) = line.split_once('=') {
                if key.trim() == "timelimit" {
                    let value = value.trim().trim_matches(['"', '\'']);
                    let value: f64 = value.parse().map_err(|_| {
                        invalid(&ini, format!("timelimit `{value}` is not a number"))
                    })?;
                    return Ok(Some(TimeLimit::Given {
                        limit: seconds(value, &ini, "`timelimit`: ")?,
                        source: "domjudge-problem.ini",
                    }));
                }
            }
        }
    }
    let dot = root.join(".timelimit");
    super::check_inside(root, &dot)?;
    if dot.is_file() {
        let text = super::read_text(&dot)?;
        let value: f64 = text.trim().parse().map_err(|_| {
            invalid(
                &dot,
                format!("`{}` is not a number of seconds", text.trim()),
            )
        })?;
        return Ok(Some(TimeLimit::Given {
            limit: seconds(value, &dot, "")?,
            source: ".timelimit",
        }));
    }
    match yaml {
        Some(value) => Ok(Some(TimeLimit::Given {
            limit: seconds(value, &root.join("problem.yaml"), "`limits.time_limit`: ")?,
            source: "problem.yaml",
        })),
        None => Ok(None),
    }
}

/// A group's (or a case's) settings after inheritance: a key a `test_group.yaml` or a case's
/// `.yaml` does not write is as in the folder above.
#[derive(Debug, Clone, Default)]
struct GroupFlags {
    /// The scoring keys of the folder's own test_group.yaml (never inherited).
    scoring: Option<crate::score::TestGroupYaml>,
    output: Vec<String>,
    input: Vec<String>,
    /// `input_validator_args` written as a map: validator name → its arguments (the others
    /// get none). Replaces `input` where given.
    input_by_validator: Vec<(String, Vec<String>)>,
    /// The submission's `args`.
    args: Vec<String>,
}

impl GroupFlags {
    /// These settings with the keys of `yaml` (a `test_group.yaml` or a case's `.yaml`) over
    /// them.
    fn with(&self, yaml: &Value, file: &Path) -> Result<GroupFlags, PackageError> {
        let mut merged = self.clone();
        if let Some(output) = flags_key(yaml, &["output_validator_args", "output_validator_flags"])
        {
            merged.output = output;
        }
        if let Some((input, by_validator)) = input_args_of(yaml, file)? {
            merged.input = input;
            merged.input_by_validator = by_validator;
        }
        if let Some(args) = flags_key(yaml, &["args"]) {
            merged.args = args;
        }
        Ok(merged)
    }
}

/// The `input_validator_args` of a `test_group.yaml` or a case's `.yaml` (at `file`): a list
/// for every input validator, or a map by validator name; `None` when it writes neither.
#[expect(
    clippy::type_complexity,
    reason = "the two halves of `Group`'s input flags"
)]
pub(crate) fn input_args_of(
    yaml: &Value,
    file: &Path,
) -> Result<Option<(Vec<String>, Vec<(String, Vec<String>)>)>, PackageError> {
    let Some((key, value)) = ["input_validator_args", "input_validator_flags"]
        .into_iter()
        .find_map(|key| Some((key, yaml.get(key)?)))
    else {
        return Ok(None);
    };
    let Value::Mapping(map) = value else {
        return Ok(Some((flags(Some(value)).unwrap_or_default(), Vec::new())));
    };
    let mut by_validator = Vec::new();
    for (name, value) in map {
        let Some(name) = name.as_str() else {
            return Err(invalid(
                file,
                format!("`{key}`: the keys of the map name input validators"),
            ));
        };
        by_validator.push((name.to_string(), flags(Some(value)).unwrap_or_default()));
    }
    Ok(Some((Vec::new(), by_validator)))
}

/// The first of `keys` that `yaml` has, as flags.
fn flags_key(yaml: &Value, keys: &[&str]) -> Option<Vec<String>> {
    keys.iter().find_map(|key| flags(yaml.get(*key)))
}

fn read_group(
    root: &Path,
    folder: &Path,
    parent: &GroupFlags,
    constants: &[(String, String)],
) -> Result<GroupFlags, PackageError> {
    let Some(file) = first_in(folder, &["test_group.yaml", "testdata.yaml"], Path::is_file) else {
        return Ok(GroupFlags {
            scoring: None,
            ..parent.clone()
        });
    };
    super::check_inside(root, &file)?;
    let yaml = yaml::read_with_constants(&file, constants)?;
    let mut flags = parent.with(&yaml, &file)?;
    flags.scoring =
        if file_name(&file) == "test_group.yaml" {
            Some(serde_norway::from_value(yaml).map_err(|error| {
                invalid(&file, format!("its scoring keys cannot be read: {error}"))
            })?)
        } else {
            None
        };
    Ok(flags)
}

/// The package's custom grader: the one program in `graders/` (a source file or a folder),
/// as problemtools finds it; more than one is the package's error, as problemtools says.
fn grader_of(
    root: &Path,
    constants: &[(String, String)],
) -> Result<Option<SourceProgram>, PackageError> {
    let graders = root.join("graders");
    super::check_inside(root, &graders)?;
    if !graders.is_dir() {
        return Ok(None);
    }
    let programs: Vec<PathBuf> = sorted_entries(&graders)?
        .into_iter()
        .filter(|p| !file_name(p).starts_with('.'))
        .collect();
    match programs.as_slice() {
        [] => Ok(None),
        [program] => {
            super::check_program(root, program)?;
            Ok(Some(SourceProgram::in_package(
                root,
                program.clone(),
                constants,
            )))
        }
        several => Err(invalid(
            &graders,
            format!(
                "{} programs here, and a package has one custom grader (problemtools refuses more than one)",
                several.len()
            ),
        )),
    }
}

/// The `data/` tree as 2025-09 scores it: `sample`, `secret`, and the test data groups, the
/// folders right below `secret` that hold a `test_group.yaml`, each with all the cases below
/// it. A static validation test case is refused (no static validator is run here), and so is
/// scoring configuration where the format has none (deeper groups, `data/` itself).
fn test_data(
    data: &Path,
    cases: &[Case],
    groups: &[Group],
) -> Result<crate::score::TestData, PackageError> {
    use crate::score::{TestData, TestGroup};
    let secret = data.join("secret");
    let sample = data.join("sample");
    let file = |group: &Group| group.folder.join("test_group.yaml");
    let mut found = TestData::default();
    for group in groups.iter().filter(|g| g.folder.is_dir()) {
        let Some(config) = &group.scoring else {
            continue;
        };
        let has_scoring_keys = config.max_score.is_some()
            || config.score_aggregation.is_some()
            || config.require_pass.is_some()
            || config.static_validation_score.is_some();
        if config.static_validation_score.is_some() {
            return Err(PackageError::Unsupported {
                path: file(group),
                message: "`static_validation_score`: a static validation test case needs a static validator, which this harness does not run, so this package cannot be scored".to_string(),
            });
        }
        if group.folder == secret {
            found.secret = config.clone();
        } else if group.folder == sample {
            found.sample_config = config.clone();
        } else if group.folder.parent() == Some(secret.as_path()) {
            found.groups.push(TestGroup {
                name: group
                    .folder
                    .strip_prefix(data)
                    .unwrap_or(&group.folder)
                    .to_string_lossy()
                    .into_owned(),
                config: config.clone(),
                cases: Vec::new(),
            });
        } else if has_scoring_keys {
            return Err(invalid(
                &file(group),
                "scoring keys (`max_score`, `score_aggregation`, `require_pass`) are read only in `data/sample`, `data/secret` and the test data groups right below `data/secret` (hint: a test data group cannot hold another)",
            ));
        }
    }
    for case in cases {
        if case.input.starts_with(&sample) {
            found.sample.push(case.name.clone());
        } else if let Some(group) = found
            .groups
            .iter_mut()
            .find(|g| case.input.starts_with(data.join(&g.name)))
        {
            group.cases.push(case.name.clone());
        } else if case.input.starts_with(&secret) {
            found.secret_cases.push(case.name.clone());
        }
    }
    Ok(found)
}

/// The `data/` tree as legacy Kattis scores it: each folder with its own `testdata.yaml`
/// scoring keys (the model inherits them), its cases and subfolders in the lexicographic order
/// of their file names, as the walk ran them; `data/` holds only `sample` and `secret`.
fn legacy_tree(
    root: &Path,
    data: &Path,
    folder: &Path,
    cases: &[Case],
    constants: &[(String, String)],
) -> Result<crate::score::KattisFolder, PackageError> {
    use crate::score::{KattisFolder, KattisItem};
    let testdata = folder.join("testdata.yaml");
    let config = if testdata.is_file() {
        super::check_inside(root, &testdata)?;
        let yaml = yaml::read_with_constants(&testdata, constants)?;
        serde_norway::from_value(yaml)
            .map_err(|e| invalid(&testdata, format!("its scoring keys cannot be read: {e}")))?
    } else {
        crate::score::TestdataYaml::default()
    };
    let name = folder
        .strip_prefix(data)
        .unwrap_or(folder)
        .to_string_lossy()
        .into_owned();
    // (file name, item): subfolders that hold cases, and the cases right in this folder.
    let mut entries: Vec<(String, KattisItem)> = Vec::new();
    let children: Vec<PathBuf> = if folder == data {
        ["sample", "secret"]
            .iter()
            .map(|p| data.join(p))
            .filter(|p| p.is_dir())
            .collect()
    } else {
        sorted_entries(folder)?
            .into_iter()
            .filter(|p| p.is_dir() && p.extension().and_then(|e| e.to_str()) != Some("files"))
            .collect()
    };
    for child in children {
        let holds_cases = cases.iter().any(|c| c.input.starts_with(&child));
        if holds_cases {
            entries.push((
                file_name(&child),
                KattisItem::Folder(legacy_tree(root, data, &child, cases, constants)?),
            ));
        }
    }
    for case in cases.iter().filter(|c| c.input.parent() == Some(folder)) {
        entries.push((file_name(&case.input), KattisItem::Case(case.name.clone())));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(KattisFolder {
        name,
        config,
        items: entries.into_iter().map(|(_, item)| item).collect(),
    })
}

/// Groups nested deeper than this are refused: the formats' packages nest a few.
const MAX_GROUP_DEPTH: usize = 32;
/// Files and folders `data/` may hold: many times the largest package's, and a bound on a
/// walk that symbolic links could otherwise make exponential.
const MAX_DATA_ENTRIES: usize = 200_000;

/// The walk over `data/`: every link checked to stay inside the package and not to lead back
/// to a folder that holds it, and bounded in depth and size.
struct Walk<'a> {
    root: &'a Path,
    data: &'a Path,
    base_output: &'a [String],
    constants: &'a [(String, String)],
    /// What the folder being walked holds: cases to judge, or data that checks validators.
    kind: Option<DataCheckKind>,
    /// The canonical folders from `data/` down to the one being read.
    ancestors: Vec<PathBuf>,
    entries: usize,
    cases: Vec<Case>,
    groups: Vec<Group>,
    checks: Vec<DataCheck>,
}

impl Walk<'_> {
    fn group_entry(&self, folder: &Path, flags: &GroupFlags) -> Group {
        Group {
            folder: folder.to_path_buf(),
            output_flags: [self.base_output.to_vec(), flags.output.clone()].concat(),
            input_flags: flags.input.clone(),
            input_by_validator: flags.input_by_validator.clone(),
            args: flags.args.clone(),
            scoring: flags.scoring.clone(),
        }
    }

    /// Collects the cases of `folder` and its subgroups, in the lexicographic order the format
    /// runs them in.
    fn group(&mut self, folder: &Path, parent: &GroupFlags) -> Result<(), PackageError> {
        super::check_inside(self.root, folder)?;
        let canonical = super::canonical(folder)?;
        if let Some(holder) = self.ancestors.iter().find(|a| **a == canonical) {
            return Err(invalid(
                folder,
                format!(
                    "is a symbolic link to `{}`, a folder that holds it: a loop (hint: a group may link to another beside it, never to one above it)",
                    holder.strip_prefix(self.root).unwrap_or(holder).display()
                ),
            ));
        }
        if self.ancestors.len() > MAX_GROUP_DEPTH {
            return Err(invalid(
                folder,
                format!("test groups nested more than {MAX_GROUP_DEPTH} deep: not read"),
            ));
        }
        self.ancestors.push(canonical);
        let flags = read_group(self.root, folder, parent, self.constants)?;
        self.groups.push(self.group_entry(folder, &flags));
        for entry in sorted_entries(folder)? {
            self.entries += 1;
            if self.entries > MAX_DATA_ENTRIES {
                return Err(invalid(
                    self.data,
                    format!("more than {MAX_DATA_ENTRIES} files and folders: not read"),
                ));
            }
            super::check_inside(self.root, &entry)?;
            if entry.is_dir() {
                // `NAME.files/` belongs to the case `NAME`, not a group.
                if entry.extension().and_then(|e| e.to_str()) != Some("files") {
                    self.group(&entry, &flags)?;
                }
                continue;
            }
            if entry.extension().and_then(|e| e.to_str()) != Some("in") {
                continue;
            }
            self.case(&entry, &flags)?;
        }
        self.ancestors.pop();
        Ok(())
    }

    /// One `.in` of the walk, with the files beside it its kind of data needs, and its own
    /// `.yaml` over its group's settings.
    /// A case's flags: its group's, with its own `.yaml` over them (which makes the case
    /// its own entry among the groups).
    fn case_flags(&mut self, entry: &Path, group: &GroupFlags) -> Result<GroupFlags, PackageError> {
        let Some(yaml_file) = beside(self.root, entry, "yaml")? else {
            return Ok(group.clone());
        };
        let yaml = yaml::read_with_constants(&yaml_file, self.constants)?;
        if !yaml.is_mapping() {
            return Err(invalid(
                &yaml_file,
                "a case's `.yaml` must be a mapping of keys",
            ));
        }
        let mut flags = group.with(&yaml, &yaml_file)?;
        flags.scoring = None;
        // The case's own entry: its path is the deepest "folder" its input is in.
        self.groups.push(self.group_entry(entry, &flags));
        Ok(flags)
    }

    fn case(&mut self, entry: &Path, group: &GroupFlags) -> Result<(), PackageError> {
        if !entry.is_file() {
            // A FIFO would hold the judge, which opens the input, for ever.
            return Err(invalid(
                entry,
                "is not a regular file (a FIFO or a device): a case's input is a file",
            ));
        }
        let flags = self.case_flags(entry, group)?;
        let root = self.root;
        let beside = |extension: &str| beside(root, entry, extension);
        let needs = |extension: &str, why: &str| -> Result<PathBuf, PackageError> {
            beside(extension)?.ok_or_else(|| {
                invalid(
                    entry,
                    format!(
                        "has no `{}` beside it (hint: {why})",
                        file_name(&entry.with_extension(extension))
                    ),
                )
            })
        };
        let relative = entry
            .strip_prefix(self.data)
            .unwrap_or(entry)
            .with_extension("");
        let name = relative.to_string_lossy().into_owned();
        match self.kind {
            None => {
                let answer = needs("ans", "every `.in` needs its `.ans`")?;
                let case = Case {
                    name,
                    input: entry.to_path_buf(),
                    answer,
                    args: flags.args.clone(),
                };
                // A `.interaction` is replayed against the interactor; a `.out` shown in the
                // statement must pass the output validator.
                let shown = [
                    ("interaction", DataCheckKind::Interaction),
                    ("out", DataCheckKind::ValidOutput),
                ];
                for (extension, kind) in shown {
                    if let Some(output) = beside(extension)? {
                        let case = case.clone();
                        let output = Some(output);
                        self.checks.push(DataCheck { kind, case, output });
                    }
                }
                self.cases.push(case);
            }
            Some(DataCheckKind::InvalidInput) => self.checks.push(DataCheck {
                kind: DataCheckKind::InvalidInput,
                case: Case {
                    name,
                    input: entry.to_path_buf(),
                    answer: entry.with_extension("ans"),
                    args: flags.args.clone(),
                },
                output: None,
            }),
            Some(kind) => {
                let why = "an `invalid_output` or `valid_output` case is `.in`, `.ans` and `.out`";
                let answer = needs("ans", why)?;
                let output = needs("out", why)?;
                self.checks.push(DataCheck {
                    kind,
                    case: Case {
                        name,
                        input: entry.to_path_buf(),
                        answer,
                        args: flags.args.clone(),
                    },
                    output: Some(output),
                });
            }
        }
        Ok(())
    }
}

/// The file beside a case's input with `extension`, if there is one inside the package.
fn beside(root: &Path, entry: &Path, extension: &str) -> Result<Option<PathBuf>, PackageError> {
    let path = entry.with_extension(extension);
    super::check_inside(root, &path)?;
    Ok(path.is_file().then_some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A group's scoring keys are kept as the score model reads them, its own only.
    #[test]
    fn test_group_scoring_keys_are_kept_for_the_score_model() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("scored");
        for (path, text) in [
            ("problem.yaml", "problem_format_version: 2025-09\ntype: scoring\nname: S\nlimits:\n  time_limit: 1\n"),
            ("data/secret/test_group.yaml", "max_score: 100\n"),
            ("data/secret/g1/test_group.yaml", "max_score: 40\nscore_aggregation: min\nrequire_pass: sample\nargs: [x]\n"),
            ("data/secret/g1/1.in", "1\n"),
            ("data/secret/g1/1.ans", "1\n"),
            ("data/secret/g1/deeper/2.in", "2\n"),
            ("data/secret/g1/deeper/2.ans", "2\n"),
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let package = open(&root, Format::Kattis2025).unwrap();
        let group = |end: &str| {
            package
                .groups
                .iter()
                .find(|g| g.folder.ends_with(end))
                .unwrap()
                .clone()
        };
        let g1 = group("secret/g1").scoring.unwrap();
        assert_eq!(g1.max_score, Some(Value::from(40)));
        assert_eq!(g1.score_aggregation.as_deref(), Some("min"));
        assert_eq!(g1.require_pass, Some(Value::from("sample")));
        assert!(group("g1/deeper").scoring.is_none());
        assert_eq!(group("g1/deeper").args, ["x"]);
        assert_eq!(
            group("data/secret").scoring.unwrap().max_score,
            Some(Value::from(100))
        );
    }
}
