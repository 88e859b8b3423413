//! Kattis legacy scoring, as problemtools computes it: each folder of `data/` a group with its
//! `testdata.yaml` (`grading`, `grader_flags`, `accept_score`, `reject_score`, `range`,
//! `on_reject`), inherited down the folders, and the default grader combining a group's
//! results (problemtools' `support/default_grader` and `judge/submission_judge.py`), or the
//! package's own grader where a folder says `grading: custom`.

use serde::Deserialize;

use super::error::{ScoringError, ScoringErrorKind};
use super::grading::{KattisGrading, OnReject};
use super::model::{CaseRule, CaseValue, Group, Item, Rule, Scoring};

/// The scoring keys of one `testdata.yaml`, as written (a key left out is inherited). Other
/// keys (the validators' flags) are not read here.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct TestdataYaml {
    /// `break` or `continue`.
    pub on_reject: Option<String>,
    /// `default` or `custom`.
    pub grading: Option<String>,
    /// The default grader's flags.
    pub grader_flags: Option<String>,
    /// The score of an accepted case without `score.txt`.
    pub accept_score: Option<f64>,
    /// The score of a case not accepted.
    pub reject_score: Option<f64>,
    /// `"lo hi"`, with `inf`, `-inf`, `+inf` allowed.
    pub range: Option<String>,
}

impl TestdataYaml {
    /// The folder's own keys over its parent's (what neither says, problemtools' default).
    fn inherit(&self, parent: &TestdataYaml) -> Self {
        let or = |own: &Option<String>, up: &Option<String>| own.clone().or_else(|| up.clone());
        TestdataYaml {
            on_reject: or(&self.on_reject, &parent.on_reject),
            grading: or(&self.grading, &parent.grading),
            grader_flags: or(&self.grader_flags, &parent.grader_flags),
            accept_score: self.accept_score.or(parent.accept_score),
            reject_score: self.reject_score.or(parent.reject_score),
            range: or(&self.range, &parent.range),
        }
    }
}

/// A folder of a legacy package's `data/`, as its reader found it.
#[derive(Debug, Clone, PartialEq)]
pub struct KattisFolder {
    /// Its path under `data/` (`secret/subtask1`; `data/` itself is `""`).
    pub name: String,
    /// Its `testdata.yaml`, or the default for none.
    pub config: TestdataYaml,
    /// Its cases (by name) and subfolders, in the lexicographic order the format runs them.
    pub items: Vec<KattisItem>,
}

/// One entry of a [`KattisFolder`].
#[derive(Debug, Clone, PartialEq)]
pub enum KattisItem {
    /// A case, by its name (`secret/subtask1/03`).
    Case(String),
    /// A subfolder.
    Folder(KattisFolder),
}

/// The scoring of a legacy Kattis scoring problem (`type: scoring`) from its `data/` tree.
/// Scores are the ones problemtools' verifyproblem gives: a group's score is rounded to six
/// decimals as its grader prints it, and a submission whose verdict is not AC keeps the score
/// its grader gave (verifyproblem's "Pts"), though the format says Kattis then ignores it.
pub fn kattis_legacy(data: &KattisFolder) -> Result<Scoring, ScoringError> {
    let group = folder(data, &TestdataYaml::default())?;
    Scoring::new(group)
}

fn folder(data: &KattisFolder, parent: &TestdataYaml) -> Result<Group, ScoringError> {
    let settings = data.config.inherit(parent);
    // problemtools' defaults (`config/testdata.yaml`) for what no folder above says.
    let grading = settings.grading.as_deref().unwrap_or("default");
    let on_reject = settings.on_reject.as_deref().unwrap_or("break");
    let grader_flags = settings.grader_flags.as_deref().unwrap_or("");
    let range = settings.range.as_deref().unwrap_or("-inf +inf");
    let (accept, reject) = (
        settings.accept_score.unwrap_or(1.0),
        settings.reject_score.unwrap_or(0.0),
    );
    let bad = |key: &str, value: &str, expected: &str| {
        ScoringError::new(ScoringErrorKind::BadValue {
            key: key.into(),
            value: value.into(),
            group: Some(data.name.clone()),
            expected: expected.into(),
        })
    };
    let custom = match grading {
        "default" => false,
        "custom" => true,
        other => return Err(bad("grading", other, "`default` or `custom`")),
    };
    let on_reject = match on_reject {
        "break" => OnReject::Break,
        "continue" => OnReject::Continue,
        other => return Err(bad("on_reject", other, "`break` or `continue`")),
    };
    let range = parse_range(range).ok_or_else(|| {
        bad(
            "range",
            range,
            "two numbers `lo hi`, lo ≤ hi (`inf`, `-inf` allowed)",
        )
    })?;
    for (key, value) in [("accept_score", accept), ("reject_score", reject)] {
        if !value.is_finite() {
            return Err(bad(key, &value.to_string(), "a finite number"));
        }
    }
    // A custom grader's flags are its own business: they are its arguments.
    let grading = if custom {
        KattisGrading::custom(grader_flags, on_reject, range)
    } else {
        KattisGrading::from_flags(grader_flags, on_reject, range)
            .map_err(|message| bad("grader_flags", grader_flags, &message))?
    };
    let mut items = Vec::new();
    for item in &data.items {
        items.push(match item {
            KattisItem::Case(name) => Item::Case(CaseRule::new(
                name.clone(),
                CaseValue::Kattis { accept, reject },
            )),
            KattisItem::Folder(inner) => Item::Group(folder(inner, &settings)?),
        });
    }
    let max = range.1.is_finite().then_some(range.1);
    Ok(Group::new(
        data.name.clone(),
        Rule::Kattis(grading),
        max,
        items,
    ))
}

/// `"lo hi"` as Python's `float` reads each (`inf`, `+inf`, `-inf` too); `None` unless it is
/// two numbers, not NaN, lo ≤ hi.
fn parse_range(text: &str) -> Option<(f64, f64)> {
    let mut parts = text.split_whitespace().map(str::parse::<f64>);
    let (Some(Ok(lo)), Some(Ok(hi)), None) = (parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    (!lo.is_nan() && !hi.is_nan() && lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
impl KattisFolder {
    /// A folder named `name` whose `testdata.yaml` is `config` (none when empty).
    pub(crate) fn for_test(name: &str, config: &str, items: Vec<KattisItem>) -> KattisFolder {
        KattisFolder {
            name: name.into(),
            config: if config.is_empty() {
                TestdataYaml::default()
            } else {
                yaml(config)
            },
            items,
        }
    }
}

/// `testdata.yaml`'s text, read.
#[cfg(test)]
pub(crate) fn yaml(text: &str) -> TestdataYaml {
    serde_norway::from_str(text).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::grading::grade;
    use crate::verdict::Verdict;
    use Verdict::{
        Accepted as AC, JudgeError as JE, RuntimeError as RTE, TimeLimitExceeded as TLE,
        WrongAnswer as WA,
    };

    fn grading(flags: &str) -> KattisGrading {
        KattisGrading::from_flags(
            flags,
            OnReject::Continue,
            (f64::NEG_INFINITY, f64::INFINITY),
        )
        .unwrap()
    }

    /// Flags, the results handed to the grader, what it gives.
    type GraderRow<'a> = (&'a str, &'a [(Verdict, f64)], (Verdict, f64));

    /// The default grader, flag by flag, on hand-made results.
    #[test]
    fn the_default_grader() {
        let rows: &[GraderRow] = &[
            ("", &[(AC, 1.0), (AC, 1.0)], (AC, 2.0)),
            ("", &[(AC, 1.0), (WA, 0.0), (TLE, 0.0)], (TLE, 1.0)),
            // worst_error: RTE is worse than TLE, TLE than WA, whatever their order.
            ("", &[(WA, 0.0), (RTE, 0.0), (TLE, 0.0)], (RTE, 0.0)),
            ("worst_error", &[(WA, 0.0), (TLE, 0.0)], (TLE, 0.0)),
            ("no_errors", &[(WA, 0.0), (TLE, 0.0)], (TLE, 0.0)),
            (
                "first_error",
                &[(AC, 1.0), (WA, 0.0), (TLE, 0.0)],
                (WA, 1.0),
            ),
            ("always_accept", &[(WA, 0.0), (TLE, 0.0)], (AC, 0.0)),
            ("min", &[(AC, 50.0), (AC, 20.0), (AC, 30.0)], (AC, 20.0)),
            ("max", &[(AC, 50.0), (WA, 0.0)], (WA, 50.0)),
            ("avg", &[(AC, 1.0), (AC, 0.0), (AC, 0.0)], (AC, 0.333333)),
            (
                "sum",
                &[(AC, 100.0 / 3.0), (AC, 100.0 / 3.0)],
                (AC, 66.666667),
            ),
            // The last of conflicting modes wins.
            ("min sum max", &[(AC, 1.0), (AC, 5.0)], (AC, 5.0)),
            (
                "first_error worst_error",
                &[(WA, 0.0), (TLE, 0.0)],
                (TLE, 0.0),
            ),
            (
                "accept_if_any_accepted",
                &[(WA, 0.0), (AC, 50.0)],
                (AC, 50.0),
            ),
            (
                "accept_if_any_accepted",
                &[(WA, 0.0), (TLE, 0.0)],
                (TLE, 0.0),
            ),
            (
                "first_error accept_if_any_accepted",
                &[(WA, 0.0), (TLE, 0.0)],
                (WA, 0.0),
            ),
            ("ignore_sample", &[(WA, 0.0), (AC, 50.0)], (AC, 50.0)),
            ("ignore_sample", &[(AC, 7.0)], (AC, 7.0)),
            (
                "ignore_sample",
                &[(AC, 0.0), (AC, 1.0), (AC, 2.0)],
                (JE, 0.0),
            ),
            ("ignore_sample min", &[(AC, 0.0), (WA, 3.0)], (WA, 3.0)),
        ];
        for &(flags, results, expected) in rows {
            assert_eq!(
                grade(&grading(flags), results),
                expected,
                "{flags:?} {results:?}"
            );
        }
    }

    #[test]
    fn flags_and_ranges_are_read_strictly() {
        assert!(KattisGrading::from_flags("min  first_error", OnReject::Break, (0.0, 1.0)).is_ok());
        let error = KattisGrading::from_flags("minimum", OnReject::Break, (0.0, 1.0)).unwrap_err();
        assert!(error.contains("`minimum` is not a flag"), "{error}");
        assert_eq!(parse_range("0 100"), Some((0.0, 100.0)));
        assert_eq!(
            parse_range("-inf +inf"),
            Some((f64::NEG_INFINITY, f64::INFINITY))
        );
        assert_eq!(parse_range(" 0.5   1e2 "), Some((0.5, 100.0)));
        for bad in ["", "0", "0 1 2", "1 0", "a b", "nan 1"] {
            assert_eq!(parse_range(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn settings_are_inherited_down_the_folders() {
        let top = yaml("on_reject: continue\naccept_score: 5\n").inherit(&TestdataYaml::default());
        let inner = yaml("grader_flags: min\ninput_validator_flags: x\n").inherit(&top);
        assert_eq!(inner.on_reject.as_deref(), Some("continue"));
        assert_eq!(inner.accept_score, Some(5.0));
        assert_eq!(inner.reject_score, None, "problemtools' default applies");
        assert_eq!(inner.grader_flags.as_deref(), Some("min"));
        assert_eq!(inner.range, None, "problemtools' default applies");
        let reset = yaml("on_reject: break\ngrader_flags: ''\n").inherit(&inner);
        assert_eq!(reset.on_reject.as_deref(), Some("break"));
        assert_eq!(reset.grader_flags.as_deref(), Some(""));
    }

    fn folder(name: &str, config: &str, items: Vec<KattisItem>) -> KattisFolder {
        KattisFolder::for_test(name, config, items)
    }

    #[test]
    fn a_tree_of_folders_becomes_groups() {
        let data = folder(
            "",
            "range: 0 100\ngrader_flags: ignore_sample\non_reject: continue",
            vec![
                KattisItem::Folder(folder(
                    "sample",
                    "accept_score: 0",
                    vec![KattisItem::Case("sample/1".into())],
                )),
                KattisItem::Folder(folder(
                    "secret",
                    "accept_score: 25",
                    vec![KattisItem::Case("secret/1".into())],
                )),
            ],
        );
        let scoring = kattis_legacy(&data).unwrap();
        assert_eq!(scoring.max_score(), Some(100.0));
        let sample = scoring.case("sample/1").unwrap();
        assert_eq!(
            sample.value,
            CaseValue::Kattis {
                accept: 0.0,
                reject: 0.0
            }
        );
        let secret = scoring.group("secret").unwrap();
        // Inherited from the top: `continue` and the range.
        assert!(!secret.stops_at_first_failure());
        assert_eq!(secret.max_score, Some(100.0));
        let Rule::Kattis(grading) = &scoring.root().rule else {
            panic!("{:?}", scoring.root().rule)
        };
        assert!(grading.ignore_sample);
    }

    #[test]
    fn bad_settings_name_the_folder_and_key() {
        let bad = |config: &str| {
            kattis_legacy(&folder(
                "",
                "",
                vec![KattisItem::Folder(folder("secret", config, vec![]))],
            ))
            .unwrap_err()
            .to_string()
        };
        assert_eq!(
            bad("on_reject: stop"),
            "`on_reject: stop` (in group `secret`): `break` or `continue`"
        );
        assert!(bad("range: 100 0").starts_with("`range: 100 0` (in group `secret`)"));
        assert!(bad("grader_flags: mim").contains("`mim` is not a flag"));
        assert_eq!(
            bad("grading: cusstom"),
            "`grading: cusstom` (in group `secret`): `default` or `custom`"
        );
        // A custom grader's flags are not the default grader's.
        let custom = kattis_legacy(&folder(
            "",
            "grading: custom\ngrader_flags: first_error  mim",
            vec![],
        ))
        .unwrap();
        let Rule::Kattis(grading) = &custom.root().rule else {
            panic!("{:?}", custom.root().rule)
        };
        assert_eq!(
            grading.custom.as_deref(),
            Some(&["first_error".to_string(), "mim".to_string()][..])
        );
        assert!(custom.has_custom_grading());
    }
}
