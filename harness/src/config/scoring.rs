//! judge.toml's `scoring` and `expected-scores` keys of a problem: read by hand from the parsed
//! TOML value, so each mistake names its key's line and column. The rules are built over the
//! problem's cases only when it is judged (`ProblemScoring::build`): a glob that matches nothing
//! or a case in no group is known only then, and is still placed at its key.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::score::{
    Aggregation, CasePoints, CaseRef, ExpectedScore, GroupSpec, GroupsSpec, Place, PointsSpec,
    Scoring, ScoringError,
};

use super::error::{ConfigError, Errors, Key};

/// How a problem of judge.toml is scored.
#[derive(Debug, Clone, PartialEq)]
pub enum ScoringRules {
    /// Accepted or not (the default).
    PassFail,
    /// Luogu/Lanqiao test points.
    Points(PointsSpec),
    /// Subtasks.
    Groups(GroupsSpec),
}

/// A problem's scoring as judge.toml states it, with what is needed to place a mistake found
/// later (the file's text and path).
#[derive(Debug, Clone)]
pub struct ProblemScoring {
    pub rules: ScoringRules,
    /// The problem's id, for messages.
    problem: String,
    path: PathBuf,
    text: Arc<str>,
}

impl Default for ProblemScoring {
    fn default() -> Self {
        ProblemScoring {
            rules: ScoringRules::PassFail,
            problem: String::new(),
            path: PathBuf::new(),
            text: Arc::from(""),
        }
    }
}

impl ProblemScoring {
    /// Whether the problem is scored at all.
    pub fn is_scored(&self) -> bool {
        self.rules != ScoringRules::PassFail
    }

    /// The rules over `cases` (every case of the problem, in judge order); `None` for a
    /// pass-fail problem. A mistake names its key's line and column in judge.toml.
    pub fn build(&self, cases: &[String]) -> Result<Option<Arc<Scoring>>, ConfigError> {
        let refs: Vec<CaseRef> = cases
            .iter()
            .map(|name| CaseRef::new(name.clone(), crate::case::discover::is_sample(name)))
            .collect();
        let built = match &self.rules {
            ScoringRules::PassFail => return Ok(None),
            ScoringRules::Points(spec) => crate::score::points(&refs, spec),
            ScoringRules::Groups(spec) => crate::score::groups(&refs, spec),
        };
        built.map(|s| Some(Arc::new(s))).map_err(|e| self.error(&e))
    }

    fn error(&self, error: &ScoringError) -> ConfigError {
        let base = [
            Key::Name("problems"),
            Key::Name(&self.problem),
            Key::Name("scoring"),
        ];
        let mut keys = base.to_vec();
        match error.place {
            None => {}
            Some(Place::Total) => keys.push(Key::Name("total")),
            Some(Place::Group(i)) => {
                keys.extend([Key::Name("groups"), Key::Index(i), Key::Name("name")]);
            }
            Some(Place::GroupPoints(i)) => {
                keys.extend([Key::Name("groups"), Key::Index(i), Key::Name("points")]);
            }
            Some(Place::GroupCases { group, glob }) => keys.extend([
                Key::Name("groups"),
                Key::Index(group),
                Key::Name("cases"),
                Key::Index(glob),
            ]),
            Some(Place::GroupDependency { group, dependency }) => keys.extend([
                Key::Name("groups"),
                Key::Index(group),
                Key::Name("depends-on"),
                Key::Index(dependency),
            ]),
            Some(Place::CasePoints(i)) => {
                keys.extend([Key::Name("points"), Key::Index(i), Key::Name("cases")]);
            }
        }
        Errors::new(&self.text, &self.path).at(
            &keys,
            format!("problem `{}`, scoring: {error}", self.problem),
        )
    }
}

/// Reads `scoring` of `[problems.<problem>]`.
pub(super) fn read(
    value: Option<&toml::Value>,
    problem: &str,
    text: &Arc<str>,
    path: &Path,
) -> Result<ProblemScoring, ConfigError> {
    let errors = Errors::new(text, path);
    let at = |keys: &[Key<'_>], message: String| {
        let mut all = vec![
            Key::Name("problems"),
            Key::Name(problem),
            Key::Name("scoring"),
        ];
        all.extend_from_slice(keys);
        errors.at(&all, format!("problem `{problem}`, scoring: {message}"))
    };
    let rules = match value {
        None => ScoringRules::PassFail,
        Some(toml::Value::String(name)) => match name.as_str() {
            "pass-fail" => ScoringRules::PassFail,
            "points" => ScoringRules::Points(PointsSpec::default()),
            other => {
                return Err(at(
                    &[],
                    format!("unknown scoring `{other}` (expected \"pass-fail\", \"points\", or a table with `points` or `groups`)"),
                ))
            }
        },
        Some(toml::Value::Table(table)) => {
            for key in table.keys() {
                if !["total", "points", "groups"].contains(&key.as_str()) {
                    return Err(at(
                        &[Key::Name(key)],
                        format!("unknown key `{key}` (expected `total`, `points` or `groups`)"),
                    ));
                }
            }
            let total = match table.get("total") {
                None => None,
                Some(value) => Some(number(value).ok_or_else(|| {
                    at(&[Key::Name("total")], "`total` must be a number".into())
                })?),
            };
            if table.contains_key("points") && table.contains_key("groups") {
                return Err(at(
                    &[Key::Name("groups")],
                    "give either `points` (test points) or `groups` (subtasks), not both".into(),
                ));
            }
            match table.get("groups") {
                Some(groups) => ScoringRules::Groups(GroupsSpec {
                    total,
                    groups: read_groups(groups, &at)?,
                }),
                None => ScoringRules::Points(PointsSpec {
                    total,
                    cases: match table.get("points") {
                        None => Vec::new(),
                        Some(points) => read_points(points, &at)?,
                    },
                }),
            }
        }
        Some(_) => {
            return Err(at(
                &[],
                "expected \"pass-fail\", \"points\", or a table with `points` or `groups`".into(),
            ))
        }
    };
    Ok(ProblemScoring {
        rules,
        problem: problem.to_string(),
        path: path.to_path_buf(),
        text: text.clone(),
    })
}

type At<'f> = dyn Fn(&[Key<'_>], String) -> ConfigError + 'f;

fn number(value: &toml::Value) -> Option<f64> {
    match value {
        toml::Value::Integer(n) => Some(*n as f64),
        toml::Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn tables<'v>(
    value: &'v toml::Value,
    key: &'static str,
    at: &At<'_>,
) -> Result<Vec<&'v toml::map::Map<String, toml::Value>>, ConfigError> {
    let Some(items) = value.as_array() else {
        return Err(at(
            &[Key::Name(key)],
            format!("`{key}` must be a list of tables (`[[…{key}]]`)"),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.as_table().ok_or_else(|| {
                at(
                    &[Key::Name(key), Key::Index(i)],
                    format!("each of `{key}` must be a table"),
                )
            })
        })
        .collect()
}

fn check_keys(
    table: &toml::map::Map<String, toml::Value>,
    known: &[&str],
    list: &'static str,
    index: usize,
    at: &At<'_>,
) -> Result<(), ConfigError> {
    for key in table.keys() {
        if !known.contains(&key.as_str()) {
            return Err(at(
                &[Key::Name(list), Key::Index(index), Key::Name(key)],
                format!(
                    "unknown key `{key}` in `{list}` (expected {})",
                    known
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    Ok(())
}

fn read_points(value: &toml::Value, at: &At<'_>) -> Result<Vec<CasePoints>, ConfigError> {
    let mut points = Vec::new();
    for (i, table) in tables(value, "points", at)?.into_iter().enumerate() {
        check_keys(table, &["cases", "points"], "points", i, at)?;
        let here = |key: &'static str, message: &str| {
            at(
                &[Key::Name("points"), Key::Index(i), Key::Name(key)],
                message.to_string(),
            )
        };
        let glob = match table.get("cases") {
            Some(toml::Value::String(glob)) => glob.clone(),
            Some(_) => return Err(here("cases", "`cases` must be a glob over case names")),
            None => return Err(here("cases", "each of `points` needs `cases` (a glob)")),
        };
        let value = match table.get("points") {
            Some(value) => {
                number(value).ok_or_else(|| here("points", "`points` must be a number"))?
            }
            None => return Err(here("cases", "each of `points` needs `points`")),
        };
        points.push(CasePoints {
            glob,
            points: value,
        });
    }
    Ok(points)
}

fn read_groups(value: &toml::Value, at: &At<'_>) -> Result<Vec<GroupSpec>, ConfigError> {
    let mut groups = Vec::new();
    let known = ["name", "cases", "points", "aggregation", "depends-on"];
    for (i, table) in tables(value, "groups", at)?.into_iter().enumerate() {
        check_keys(table, &known, "groups", i, at)?;
        let here = |key: &'static str, message: String| {
            at(
                &[Key::Name("groups"), Key::Index(i), Key::Name(key)],
                message,
            )
        };
        let name = match table.get("name") {
            Some(toml::Value::String(name)) => name.clone(),
            Some(_) => return Err(here("name", "`name` must be a string".into())),
            None => return Err(here("name", "each group needs a `name`".into())),
        };
        let strings = |key: &'static str| -> Result<Vec<String>, ConfigError> {
            match table.get(key) {
                None => Ok(Vec::new()),
                Some(toml::Value::String(one)) => Ok(vec![one.clone()]),
                Some(toml::Value::Array(items)) => items
                    .iter()
                    .map(|item| {
                        item.as_str().map(str::to_string).ok_or_else(|| {
                            here(
                                key,
                                format!("group `{name}`: `{key}` must be a list of strings"),
                            )
                        })
                    })
                    .collect(),
                Some(_) => Err(here(
                    key,
                    format!("group `{name}`: `{key}` must be a string or a list of strings"),
                )),
            }
        };
        let cases = strings("cases")?;
        if !table.contains_key("cases") {
            return Err(here(
                "name",
                format!("group `{name}` needs `cases` (globs over case names)"),
            ));
        }
        let points = match table.get("points") {
            Some(value) => number(value).ok_or_else(|| {
                here(
                    "points",
                    format!("group `{name}`: `points` must be a number"),
                )
            })?,
            None => return Err(here("name", format!("group `{name}` needs `points`"))),
        };
        let aggregation = match table.get("aggregation").map(toml::Value::as_str) {
            None | Some(Some("min")) => Aggregation::Min,
            Some(Some("sum")) => Aggregation::Sum,
            Some(_) => {
                return Err(here(
                    "aggregation",
                    format!("group `{name}`: `aggregation` is \"min\" (every case must pass) or \"sum\" (each case its share)"),
                ))
            }
        };
        groups.push(GroupSpec {
            depends_on: strings("depends-on")?,
            name,
            cases,
            points,
            aggregation,
        });
    }
    Ok(groups)
}

/// Reads `expected-scores` of `[problems.<problem>]`: the score each stored submission must
/// get, by its path below the problem's folder of stored submissions
/// (`"partially_accepted/small.py" = 40`, or `[30, 50]` for a range).
pub(super) fn read_expected(
    value: Option<&toml::Value>,
    problem: &str,
    text: &str,
    path: &Path,
) -> Result<Vec<(String, ExpectedScore)>, ConfigError> {
    let errors = Errors::new(text, path);
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let base = [
        Key::Name("problems"),
        Key::Name(problem),
        Key::Name("expected-scores"),
    ];
    let Some(table) = value.as_table() else {
        return Err(errors.at(
            &base,
            format!("problem `{problem}`, expected-scores: a table of stored submissions' paths and their scores (`\"partially_accepted/small.py\" = 40`)"),
        ));
    };
    let mut expected = Vec::new();
    for (file, score) in table {
        let bad = || {
            let mut keys = base.to_vec();
            keys.push(Key::Name(file));
            errors.at(
                &keys,
                format!("problem `{problem}`, expected-scores: `{file}` must be a score or a range `[low, high]`, low not above high"),
            )
        };
        let parsed = match score {
            toml::Value::Array(items) => match items.as_slice() {
                [lo, hi] => match (number(lo), number(hi)) {
                    (Some(lo), Some(hi)) if lo <= hi && lo.is_finite() && hi.is_finite() => {
                        ExpectedScore::Between(lo, hi)
                    }
                    _ => return Err(bad()),
                },
                _ => return Err(bad()),
            },
            other => match number(other) {
                Some(n) if n.is_finite() => ExpectedScore::Exactly(n),
                _ => return Err(bad()),
            },
        };
        expected.push((file.clone(), parsed));
    }
    Ok(expected)
}
