//! Kattis 2025-09 scoring (the spec's "Result aggregation"): `secret` and its test data
//! groups, each with its `test_group.yaml` `max_score`, `score_aggregation`, `require_pass` and
//! `static_validation_score`; samples are judged but worth nothing.

use serde::Deserialize;
use serde_norway::Value;

use super::error::{ScoringError, ScoringErrorKind};
use super::model::{CaseRule, CaseValue, Group, Item, Rule, Scoring};
use super::number::{at_most, format_score};

/// The name, under its group, of a group's static validation test case: the judge supplies
/// its outcome (the static validator's verdict and `score.txt`) under
/// `<group>/(static validation)`. No file can be named so by the format's own rules.
pub const STATIC_VALIDATION_CASE: &str = "(static validation)";

/// The scoring keys of one `test_group.yaml`, as written; the readers check nothing else here.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct TestGroupYaml {
    /// A non-negative integer or `unbounded`.
    pub max_score: Option<Value>,
    /// `pass-fail`, `sum` or `min`.
    pub score_aggregation: Option<String>,
    /// A non-negative integer or `pass-fail`.
    pub static_validation_score: Option<Value>,
    /// A group's name (`sample`, `secret/group1`) or a list of them.
    pub require_pass: Option<Value>,
}

/// A test data group of `secret`.
#[derive(Debug, Clone, PartialEq)]
pub struct TestGroup {
    /// Its name, the path under `data/` (`secret/group1`).
    pub name: String,
    /// Its `test_group.yaml`.
    pub config: TestGroupYaml,
    /// Its cases, in judge order.
    pub cases: Vec<String>,
}

/// A 2025-09 package's test data, as its reader found it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TestData {
    /// The cases of `data/sample/`, in judge order.
    pub sample: Vec<String>,
    /// `data/sample/test_group.yaml` (its scoring keys are not permitted).
    pub sample_config: TestGroupYaml,
    /// `data/secret/test_group.yaml`.
    pub secret: TestGroupYaml,
    /// The cases directly in `secret` (and its folders that are not groups), in judge order.
    pub secret_cases: Vec<String>,
    /// The test data groups, in judge (lexicographic) order.
    pub groups: Vec<TestGroup>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Aggregation {
    PassFail,
    Sum,
    Min,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Static {
    Points(f64),
    PassFail,
}

/// One group's configuration, read and checked.
struct Config {
    max: Option<f64>,
    /// Whether `max_score` was written (a bounded secret needs it on every group).
    max_given: bool,
    aggregation: Aggregation,
    static_score: Option<Static>,
    require_pass: Vec<String>,
}

fn bad(key: &str, value: &Value, group: &str, expected: &str) -> ScoringError {
    ScoringError::new(ScoringErrorKind::BadValue {
        key: key.into(),
        value: show(value),
        group: Some(group.into()),
        expected: expected.into(),
    })
}

fn show(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => serde_norway::to_string(other)
            .map(|t| t.trim().to_string())
            .unwrap_or_default(),
    }
}

fn integer(value: &Value) -> Option<f64> {
    value.as_u64().map(|n| n as f64)
}

fn invalid(message: String) -> ScoringError {
    ScoringErrorKind::Invalid { message }.into()
}

fn read(config: &TestGroupYaml, group: &str, secret: bool) -> Result<Config, ScoringError> {
    let (max, max_given) = match &config.max_score {
        None => (secret.then_some(100.0), false),
        Some(Value::String(word)) if word == "unbounded" => (None, true),
        Some(value) => (
            Some(integer(value).ok_or_else(|| {
                bad(
                    "max_score",
                    value,
                    group,
                    "a non-negative integer or `unbounded`",
                )
            })?),
            true,
        ),
    };
    let aggregation = match config.score_aggregation.as_deref() {
        None if secret => Aggregation::Sum,
        None | Some("pass-fail") => Aggregation::PassFail,
        Some("sum") => Aggregation::Sum,
        Some("min") => Aggregation::Min,
        Some(other) => {
            return Err(bad(
                "score_aggregation",
                &Value::String(other.into()),
                group,
                "`pass-fail`, `sum` or `min`",
            ))
        }
    };
    let static_score = match &config.static_validation_score {
        None => None,
        Some(Value::String(word)) if word == "pass-fail" => Some(Static::PassFail),
        Some(value) => Some(Static::Points(integer(value).ok_or_else(|| {
            bad(
                "static_validation_score",
                value,
                group,
                "a non-negative integer or `pass-fail`",
            )
        })?)),
    };
    let require_pass = require_pass(config, group)?;
    if aggregation == Aggregation::PassFail && max.is_none() {
        return Err(invalid(format!(
            "`{group}` is scored pass-fail, so it needs a `max_score` (the points it gives when every case passes)"
        )));
    }
    match (static_score, aggregation) {
        (Some(Static::Points(_)), Aggregation::PassFail) => {
            return Err(invalid(format!(
                "`{group}` is scored pass-fail, so its `static_validation_score` must be `pass-fail`"
            )))
        }
        (Some(Static::PassFail), Aggregation::Sum | Aggregation::Min) => {
            return Err(invalid(format!(
                "`static_validation_score: pass-fail` needs `score_aggregation: pass-fail` (in `{group}`)"
            )))
        }
        (Some(Static::Points(points)), _) if max.is_some_and(|max| !at_most(points, max)) => {
            return Err(invalid(format!(
                "`{group}`'s `static_validation_score` {} is more than its `max_score` {}",
                format_score(points),
                format_score(max.unwrap_or(0.0))
            )))
        }
        _ => {}
    }
    Ok(Config {
        max,
        max_given,
        aggregation,
        static_score,
        require_pass,
    })
}

/// `require_pass`: one group's name, or a list of them.
fn require_pass(config: &TestGroupYaml, group: &str) -> Result<Vec<String>, ScoringError> {
    Ok(match &config.require_pass {
        None => Vec::new(),
        Some(Value::String(one)) => vec![one.clone()],
        Some(Value::Sequence(items)) => items
            .iter()
            .map(|item| {
                item.as_str().map(str::to_string).ok_or_else(|| {
                    bad(
                        "require_pass",
                        item,
                        group,
                        "group names (`sample`, `secret/group1`)",
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        Some(value) => {
            return Err(bad(
                "require_pass",
                value,
                group,
                "a group's name or a list of them",
            ))
        }
    })
}

/// The scoring of a 2025-09 scoring problem from its test data.
pub fn kattis_2025(data: &TestData) -> Result<Scoring, ScoringError> {
    for (key, given) in [
        ("max_score", data.sample_config.max_score.is_some()),
        (
            "score_aggregation",
            data.sample_config.score_aggregation.is_some(),
        ),
        ("require_pass", data.sample_config.require_pass.is_some()),
    ] {
        if given {
            return Err(invalid(format!("`{key}` is not permitted in `sample`")));
        }
    }
    if data.sample_config.static_validation_score.is_some() {
        return Err(ScoringErrorKind::Unsupported {
            what: "a static validation test case".into(),
            group: Some("sample".into()),
        }
        .into());
    }
    if !data.secret_cases.is_empty() && !data.groups.is_empty() {
        return Err(invalid(
            "`secret` has both test cases and test data groups; it may have one or the other"
                .into(),
        ));
    }
    let secret = read(&data.secret, "secret", true)?;
    if secret.require_pass.iter().any(|name| name != "sample") {
        return Err(invalid(format!(
            "`secret` may only require `sample` to pass, not {}",
            super::error::Names(&secret.require_pass)
        )));
    }
    let mut secret_items = Vec::new();
    if data.groups.is_empty() {
        secret_items = cases("secret", &data.secret_cases, &secret);
    } else {
        let mut sum = 0.0;
        for group in &data.groups {
            let config = read(&group.config, &group.name, false)?;
            if secret.aggregation == Aggregation::PassFail
                && config.aggregation != Aggregation::PassFail
            {
                return Err(invalid(format!(
                    "`secret` is scored pass-fail, so `{}` must be too",
                    group.name
                )));
            }
            if secret.max.is_some() && !config.max_given {
                return Err(invalid(format!(
                    "`{}` needs a `max_score`: `secret` has a maximum ({}), so every group must say its own",
                    group.name,
                    format_score(secret.max.unwrap_or(0.0))
                )));
            }
            if secret.max.is_some() && config.max.is_none() {
                return Err(invalid(format!(
                    "`{}` is unbounded, which only a group of an unbounded `secret` may be",
                    group.name
                )));
            }
            for dependency in &config.require_pass {
                let pass_fail = dependency == "sample"
                    || data.groups.iter().any(|g| {
                        &g.name == dependency
                            && read(&g.config, &g.name, false)
                                .is_ok_and(|c| c.aggregation == Aggregation::PassFail)
                    });
                let known =
                    dependency == "sample" || data.groups.iter().any(|g| &g.name == dependency);
                if known && !pass_fail {
                    return Err(invalid(format!(
                        "`{}` requires `{dependency}` to pass, which must then be scored pass-fail",
                        group.name
                    )));
                }
            }
            sum += config.max.unwrap_or(0.0);
            let items = cases(&group.name, &group.cases, &config);
            if items.is_empty() {
                return Err(ScoringErrorKind::EmptyGroup {
                    group: group.name.clone(),
                }
                .into());
            }
            let built = Group::new(
                group.name.clone(),
                rule(config.aggregation),
                config.max,
                items,
            );
            secret_items.push(Item::Group(requiring(built, config.require_pass, data)));
        }
        if let (Aggregation::Sum, Some(max)) = (secret.aggregation, secret.max) {
            if !at_most(sum, max) {
                return Err(ScoringErrorKind::PointsExceedTotal {
                    sum: format_score(sum),
                    total: format_score(max),
                }
                .into());
            }
        }
    }
    let secret_group = Group::new("secret", rule(secret.aggregation), secret.max, secret_items);
    let secret_group = requiring(secret_group, secret.require_pass, data);
    let mut top = Vec::new();
    if !data.sample.is_empty() {
        let samples = data
            .sample
            .iter()
            .map(|name| Item::Case(CaseRule::new(name.clone(), CaseValue::Nothing)))
            .collect();
        top.push(Item::Group(Group::new(
            "sample",
            Rule::AllOrNothing,
            Some(0.0),
            samples,
        )));
    }
    top.push(Item::Group(secret_group));
    Scoring::new(Group::new("", Rule::Sum, secret.max, top))
}

/// `group` depending on the groups of its `require_pass`; a submission passes every case of an
/// empty `sample`, so that one is left out.
fn requiring(mut group: Group, mut require_pass: Vec<String>, data: &TestData) -> Group {
    if data.sample.is_empty() {
        require_pass.retain(|name| name != "sample");
    }
    group.depends_on = require_pass;
    group
}

fn rule(aggregation: Aggregation) -> Rule {
    match aggregation {
        Aggregation::PassFail => Rule::AllOrNothing,
        Aggregation::Sum => Rule::Sum,
        Aggregation::Min => Rule::Min,
    }
}

/// A group's cases, with what each is worth: in a `min` group its maximum, in a `sum` group
/// `(max_score − static_validation_score) / N`, in a pass-fail group nothing of its own. The
/// static validation case, if any, comes first.
fn cases(group: &str, names: &[String], config: &Config) -> Vec<Item> {
    let static_points = match config.static_score {
        Some(Static::Points(points)) => points,
        _ => 0.0,
    };
    let value = match (config.aggregation, config.max) {
        (Aggregation::PassFail, _) => CaseValue::VerdictOnly,
        (_, None) => CaseValue::Unbounded,
        (Aggregation::Min, Some(max)) => CaseValue::Bounded(max),
        (Aggregation::Sum, Some(max)) => {
            CaseValue::Bounded(((max - static_points) / names.len().max(1) as f64).max(0.0))
        }
    };
    let mut items = Vec::new();
    if let Some(static_score) = config.static_score {
        let value = match static_score {
            Static::Points(points) => CaseValue::Bounded(points),
            Static::PassFail => CaseValue::VerdictOnly,
        };
        items.push(Item::Case(CaseRule::new(
            format!("{group}/{STATIC_VALIDATION_CASE}"),
            value,
        )));
    }
    items.extend(
        names
            .iter()
            .map(|name| Item::Case(CaseRule::new(name.clone(), value))),
    );
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::model::{CaseOutcome, Outcomes};
    use crate::verdict::credit::{Credit, CreditSource};
    use crate::verdict::Verdict::{self, Accepted as AC, WrongAnswer as WA};

    fn yaml(text: &str) -> TestGroupYaml {
        if text.is_empty() {
            return TestGroupYaml::default();
        }
        serde_norway::from_str(text).unwrap()
    }

    fn names(prefix: &str, count: usize) -> Vec<String> {
        (1..=count).map(|i| format!("{prefix}/{i:02}")).collect()
    }

    fn data(secret: &str, groups: &[(&str, &str, usize)]) -> TestData {
        TestData {
            sample: names("sample", 1),
            sample_config: TestGroupYaml::default(),
            secret: yaml(secret),
            secret_cases: if groups.is_empty() {
                names("secret", 4)
            } else {
                Vec::new()
            },
            groups: groups
                .iter()
                .map(|&(name, config, count)| TestGroup {
                    name: name.into(),
                    config: yaml(config),
                    cases: names(name, count),
                })
                .collect(),
        }
    }

    fn score(scoring: &Scoring, changes: &[(&str, CaseOutcome)]) -> (String, Verdict) {
        let sheet = scoring.aggregate(&scoring.accepted_but(changes)).unwrap();
        (format_score(sheet.score.unwrap()), sheet.verdict)
    }

    fn ratio(value: f64) -> CaseOutcome {
        CaseOutcome::with_credit(
            AC,
            Credit {
                source: CreditSource::ScoreMultiplierTxt,
                value,
            },
        )
    }

    fn absolute(value: f64) -> CaseOutcome {
        CaseOutcome::with_credit(
            AC,
            Credit {
                source: CreditSource::ScoreTxt,
                value,
            },
        )
    }

    #[test]
    fn secret_alone_sums_its_cases() {
        // The defaults: secret `sum` of 100, four cases worth 25.
        let scoring = kattis_2025(&data("", &[])).unwrap();
        assert_eq!(scoring.max_score(), Some(100.0));
        assert_eq!(score(&scoring, &[]), ("100".into(), AC));
        assert_eq!(
            score(&scoring, &[("secret/02", CaseOutcome::new(WA))]),
            ("75".into(), WA)
        );
        assert_eq!(
            score(&scoring, &[("secret/02", ratio(0.5))]),
            ("87.5".into(), AC)
        );
        assert_eq!(
            score(&scoring, &[("secret/02", absolute(10.0))]),
            ("85".into(), AC)
        );
        // score.txt over the case's 25 is a judge error; on a sample it is ignored.
        assert_eq!(
            score(&scoring, &[("secret/02", absolute(30.0))]).1,
            Verdict::JudgeError
        );
        assert_eq!(
            score(&scoring, &[("sample/01", absolute(30.0))]),
            ("100".into(), AC)
        );
        // A failed sample costs nothing but is the verdict.
        assert_eq!(
            score(&scoring, &[("sample/01", CaseOutcome::new(WA))]),
            ("100".into(), WA)
        );
        let min = kattis_2025(&data("score_aggregation: min\nmax_score: 60", &[])).unwrap();
        assert_eq!(
            score(&min, &[("secret/03", ratio(0.25))]),
            ("15".into(), AC)
        );
        let unbounded = kattis_2025(&data("max_score: unbounded", &[])).unwrap();
        assert_eq!(unbounded.max_score(), None);
        let all = (1..=4)
            .map(|i| (format!("secret/{i:02}"), absolute(i as f64 * 100.0)))
            .collect::<Vec<_>>();
        let refs: Vec<(&str, CaseOutcome)> = all.iter().map(|(n, o)| (n.as_str(), *o)).collect();
        assert_eq!(score(&unbounded, &refs), ("1000".into(), AC));
        // Unbounded: an accepted case without score.txt is a judge error.
        assert_eq!(score(&unbounded, &refs[1..]).1, Verdict::JudgeError);
    }

    #[test]
    fn groups_pass_fail_by_default_with_dependencies() {
        let scoring = kattis_2025(&data(
            "",
            &[
                ("secret/group1", "max_score: 20", 2),
                ("secret/group2", "max_score: 30\nscore_aggregation: sum", 3),
                (
                    "secret/group3",
                    "max_score: 50\nrequire_pass: [sample, secret/group1]",
                    2,
                ),
            ],
        ))
        .unwrap();
        assert_eq!(score(&scoring, &[]), ("100".into(), AC));
        assert_eq!(
            score(&scoring, &[("secret/group2/02", CaseOutcome::new(WA))]),
            ("90".into(), WA)
        );
        assert_eq!(
            score(&scoring, &[("secret/group1/02", CaseOutcome::new(WA))]),
            ("30".into(), WA)
        );
        // A failed sample blocks group3, which requires it.
        assert_eq!(
            score(&scoring, &[("sample/01", CaseOutcome::new(WA))]),
            ("50".into(), WA)
        );
        // A score file in a pass-fail group is a judge error.
        assert_eq!(
            score(&scoring, &[("secret/group1/01", ratio(0.5))]).1,
            Verdict::JudgeError
        );
        let mut known = Outcomes::new();
        known.insert("secret/group1/01", CaseOutcome::new(WA));
        assert!(!scoring.needs("secret/group1/02", &known));
        assert!(scoring.needs("secret/group2/01", &known));
        assert!(!scoring.needs("secret/group3/01", &known));
    }

    #[test]
    fn requiring_an_empty_sample_requires_nothing() {
        let mut no_sample = data(
            "require_pass: sample",
            &[("secret/g", "max_score: 100\nrequire_pass: sample", 2)],
        );
        no_sample.sample.clear();
        let scoring = kattis_2025(&no_sample).unwrap();
        assert_eq!(score(&scoring, &[]), ("100".into(), AC));
    }

    #[test]
    fn static_validation_takes_its_share() {
        let scoring = kattis_2025(&data(
            "",
            &[(
                "secret/g",
                "max_score: 100\nscore_aggregation: sum\nstatic_validation_score: 40",
                3,
            )],
        ))
        .unwrap();
        let case = scoring.case("secret/g/(static validation)").unwrap();
        assert_eq!(case.value, CaseValue::Bounded(40.0));
        assert_eq!(
            scoring.case("secret/g/01").unwrap().value,
            CaseValue::Bounded(20.0)
        );
        assert_eq!(
            score(
                &scoring,
                &[
                    ("secret/g/(static validation)", ratio(0.5)),
                    ("secret/g/03", CaseOutcome::new(WA))
                ]
            ),
            ("60".into(), WA)
        );
    }

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn rules_of_the_format_are_errors() {
        // A group: its name, its config and how many cases it has.
        type Group<'a> = (&'a str, &'a str, usize);
        let error = |secret: &str, groups: &[Group<'_>]| {
            kattis_2025(&data(secret, groups)).unwrap_err().to_string()
        };
        // `secret`'s testdata, its groups, the error.
        let rows: &[(&str, &[Group<'_>], &str)] = &[
            ("", &[("secret/g", "", 1)], "`secret/g` is scored pass-fail, so it needs a `max_score` (the points it gives when every case passes)"),
            ("", &[("secret/g", "score_aggregation: sum", 1)], "`secret/g` needs a `max_score`: `secret` has a maximum (100), so every group must say its own"),
            ("", &[("secret/g", "max_score: unbounded\nscore_aggregation: sum", 1)], "`secret/g` is unbounded, which only a group of an unbounded `secret` may be"),
            ("score_aggregation: pass-fail", &[("secret/g", "max_score: 100\nscore_aggregation: sum", 1)], "`secret` is scored pass-fail, so `secret/g` must be too"),
            ("", &[("secret/a", "max_score: 60", 1), ("secret/b", "max_score: 60", 1)], "the points given add up to 120, more than the total 100"),
            ("max_score: 12.5", &[], "`max_score: 12.5` (in group `secret`): a non-negative integer or `unbounded`"),
            ("max_score: -3", &[], "`max_score: -3` (in group `secret`): a non-negative integer or `unbounded`"),
            ("score_aggregation: avg", &[], "`score_aggregation: avg` (in group `secret`): `pass-fail`, `sum` or `min`"),
            ("require_pass: secret/x", &[], "`secret` may only require `sample` to pass, not `secret/x`"),
            ("", &[("secret/a", "max_score: 50\nscore_aggregation: sum", 1), ("secret/b", "max_score: 50\nrequire_pass: secret/a", 1)], "`secret/b` requires `secret/a` to pass, which must then be scored pass-fail"),
            ("", &[("secret/a", "max_score: 50\nrequire_pass: secret/b", 1), ("secret/b", "max_score: 50", 1)], "group `secret/a` depends on `secret/b`, which is judged after it (hint: put `secret/b` first; a group can only depend on earlier ones)"),
            ("", &[("secret/a", "max_score: 100", 0)], "group `secret/a` has no case"),
            ("", &[("secret/g", "max_score: 10\nstatic_validation_score: 5", 1)], "`secret/g` is scored pass-fail, so its `static_validation_score` must be `pass-fail`"),
            ("", &[("secret/g", "max_score: 10\nscore_aggregation: sum\nstatic_validation_score: 15", 1)], "`secret/g`'s `static_validation_score` 15 is more than its `max_score` 10"),
        ];
        for (secret, groups, expected) in rows {
            assert_eq!(error(secret, groups), *expected, "{secret:?} {groups:?}");
        }
        assert!(error("", &[("secret/a", "max_score: 50\nrequire_pass: secret/c", 1)])
            .starts_with("group `secret/a` depends on `secret/c`, which is no group"));
        let mut both = data("", &[("secret/g", "max_score: 100", 1)]);
        both.secret_cases = names("secret", 1);
        assert!(kattis_2025(&both)
            .unwrap_err()
            .to_string()
            .contains("both test cases and test data groups"));
        let mut sample = data("", &[]);
        sample.sample_config = yaml("max_score: 10");
        assert_eq!(
            kattis_2025(&sample).unwrap_err().to_string(),
            "`max_score` is not permitted in `sample`"
        );
    }
}
