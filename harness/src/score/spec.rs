//! Scoring as judge.toml states it, over a problem's cases: Luogu/Lanqiao points (each case an
//! equal share of a total, or its own points by glob) and groups (subtasks: cases by glob,
//! points, `min` or `sum`, dependencies). Samples are worth nothing unless a glob names them.

use globset::{GlobBuilder, GlobMatcher};

use super::error::{Place, ScoringError, ScoringErrorKind};
use super::model::{CaseRule, CaseValue, Group, Item, Rule, Scoring};
use super::number::{at_most, format_score, same_score};

/// A case the rules are built over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRef {
    /// Its name (`07`, `sample-1`).
    pub name: String,
    /// Whether it is a sample: worth nothing unless a rule names it.
    pub sample: bool,
}

impl CaseRef {
    /// A case.
    pub fn new(name: impl Into<String>, sample: bool) -> Self {
        CaseRef {
            name: name.into(),
            sample,
        }
    }
}

/// `scoring = "points"`: each case not a sample an equal share of `total`, except those a
/// [`CasePoints`] gives their own points; the rest share what is left.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PointsSpec {
    /// The total (default: 100, or the sum of the points when every case has its own).
    pub total: Option<f64>,
    /// Cases with their own points, by glob.
    pub cases: Vec<CasePoints>,
}

/// Points for the cases a glob matches.
#[derive(Debug, Clone, PartialEq)]
pub struct CasePoints {
    /// A glob over case names (`*` does not cross `/`).
    pub glob: String,
    /// What each matching case is worth.
    pub points: f64,
}

/// Subtasks: each group its cases by glob, its points and how its cases combine.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupsSpec {
    /// The total the groups' points must add up to, if stated.
    pub total: Option<f64>,
    /// The groups, in the order they are judged.
    pub groups: Vec<GroupSpec>,
}

/// One subtask.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupSpec {
    /// Its name.
    pub name: String,
    /// Globs over case names; every one must match a case.
    pub cases: Vec<String>,
    /// What it is worth.
    pub points: f64,
    /// How its cases combine.
    pub aggregation: Aggregation,
    /// Groups that must pass entirely before this one counts (declared before it).
    pub depends_on: Vec<String>,
}

/// How a subtask's cases combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// The least of its cases' scores, each worth all the points: all must pass, as IOI and
    /// Luogu subtasks. Judging stops at the first failure.
    Min,
    /// Each case an equal share of the points.
    Sum,
}

fn glob(pattern: &str) -> Result<GlobMatcher, ScoringErrorKind> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| ScoringErrorKind::BadGlob {
            glob: pattern.to_string(),
            message: e.kind().to_string(),
        })
}

fn check_points(points: f64, place: Place) -> Result<(), ScoringError> {
    super::error::check_points(points).map_err(|kind| ScoringError::new(kind).at(place))
}

/// Luogu/Lanqiao points over `cases` (in judge order): the submission's score is the sum of
/// its cases' points.
pub fn points(cases: &[CaseRef], spec: &PointsSpec) -> Result<Scoring, ScoringError> {
    if let Some(total) = spec.total {
        check_points(total, Place::Total)?;
    }
    let mut globs = Vec::new();
    for (index, entry) in spec.cases.iter().enumerate() {
        check_points(entry.points, Place::CasePoints(index))?;
        globs.push(
            glob(&entry.glob).map_err(|k| ScoringError::new(k).at(Place::CasePoints(index)))?,
        );
    }
    let own = entry_of_each(cases, spec, &globs)?;
    let given: f64 = own.iter().flatten().map(|&i| spec.cases[i].points).sum();
    let sharing = cases
        .iter()
        .zip(&own)
        .filter(|(case, own)| own.is_none() && !case.sample)
        .count();
    let total = match (spec.total, sharing) {
        (Some(total), 0) => {
            check_adds_up(given, total)?;
            total
        }
        (None, 0) => given,
        (total, _) => {
            let total = total.unwrap_or(100.0);
            if !at_most(given, total) {
                return Err(ScoringError::new(ScoringErrorKind::PointsExceedTotal {
                    sum: format_score(given),
                    total: format_score(total),
                })
                .at(Place::Total));
            }
            total
        }
    };
    let share = if sharing == 0 {
        0.0
    } else {
        ((total - given) / sharing as f64).max(0.0)
    };
    let items = cases
        .iter()
        .zip(&own)
        .map(|(case, own)| {
            let value = match own {
                Some(i) => CaseValue::Bounded(spec.cases[*i].points),
                None if case.sample => CaseValue::Nothing,
                None => CaseValue::Bounded(share),
            };
            Item::Case(CaseRule::new(case.name.clone(), value))
        })
        .collect();
    Scoring::new(Group::new("", Rule::Sum, Some(total), items))
}

/// The points given add up to the `total` the spec states.
fn check_adds_up(sum: f64, total: f64) -> Result<(), ScoringError> {
    if same_score(sum, total) {
        return Ok(());
    }
    Err(ScoringError::new(ScoringErrorKind::PointsDoNotAddUp {
        sum: format_score(sum),
        total: format_score(total),
        within: None,
    })
    .at(Place::Total))
}

/// The entry of `spec.cases` whose glob names each case (`None`: none does); a case two
/// name, or an entry that names none, is an error.
fn entry_of_each(
    cases: &[CaseRef],
    spec: &PointsSpec,
    globs: &[GlobMatcher],
) -> Result<Vec<Option<usize>>, ScoringError> {
    let mut own: Vec<Option<usize>> = Vec::with_capacity(cases.len());
    let mut used = vec![false; globs.len()];
    for case in cases {
        let mut matching = (0..globs.len()).filter(|&i| globs[i].is_match(&case.name));
        let first = matching.next();
        if let (Some(first), Some(second)) = (first, matching.next()) {
            return Err(ScoringError::new(ScoringErrorKind::CaseInTwoGroups {
                case: case.name.clone(),
                first: spec.cases[first].glob.clone(),
                second: spec.cases[second].glob.clone(),
            })
            .at(Place::CasePoints(second)));
        }
        if let Some(first) = first {
            used[first] = true;
        }
        own.push(first);
    }
    if let Some(unused) = used.iter().position(|u| !u) {
        return Err(ScoringError::new(ScoringErrorKind::GlobMatchesNothing {
            glob: spec.cases[unused].glob.clone(),
            group: None,
        })
        .at(Place::CasePoints(unused)));
    }
    Ok(own)
}

/// Subtasks over `cases` (in judge order). The cases are judged group by group, in the
/// order the groups are declared; samples no group names come first and are worth nothing.
/// Every other case must be in exactly one group.
pub fn groups(cases: &[CaseRef], spec: &GroupsSpec) -> Result<Scoring, ScoringError> {
    if let Some(total) = spec.total {
        check_points(total, Place::Total)?;
    }
    let matchers = group_matchers(spec)?;
    let (members, samples) = members_of(cases, spec, &matchers)?;
    let sum: f64 = spec.groups.iter().map(|g| g.points).sum();
    if let Some(total) = spec.total {
        check_adds_up(sum, total)?;
    }
    let mut items: Vec<Item> = samples
        .iter()
        .map(|case| Item::Case(CaseRule::new(case.name.clone(), CaseValue::Nothing)))
        .collect();
    for (group, cases) in spec.groups.iter().zip(&members) {
        let (rule, each) = match group.aggregation {
            Aggregation::Min => (Rule::Min, group.points),
            Aggregation::Sum => (Rule::Sum, group.points / cases.len() as f64),
        };
        let inner = cases
            .iter()
            .map(|case| Item::Case(CaseRule::new(case.name.clone(), CaseValue::Bounded(each))))
            .collect();
        let mut built = Group::new(group.name.clone(), rule, Some(group.points), inner);
        built.depends_on.clone_from(&group.depends_on);
        items.push(Item::Group(built));
    }
    let total = spec.total.unwrap_or(sum);
    Scoring::new(Group::new("", Rule::Sum, Some(total), items)).map_err(|error| {
        let place = dependency_place(spec, &error.kind);
        match place {
            Some(place) => error.at(place),
            None => error,
        }
    })
}

/// Each group's globs, the groups checked: named once each, with points and cases.
fn group_matchers(spec: &GroupsSpec) -> Result<Vec<Vec<GlobMatcher>>, ScoringError> {
    let mut matchers: Vec<Vec<GlobMatcher>> = Vec::new();
    for (index, group) in spec.groups.iter().enumerate() {
        if group.name.is_empty() {
            return Err(ScoringError::new(ScoringErrorKind::BadValue {
                key: "name".into(),
                value: String::new(),
                group: None,
                expected: "a group needs a name".into(),
            })
            .at(Place::Group(index)));
        }
        if spec.groups[..index].iter().any(|g| g.name == group.name) {
            return Err(ScoringError::new(ScoringErrorKind::DuplicateGroup {
                name: group.name.clone(),
            })
            .at(Place::Group(index)));
        }
        check_points(group.points, Place::GroupPoints(index))?;
        if group.cases.is_empty() {
            return Err(ScoringError::new(ScoringErrorKind::EmptyGroup {
                group: group.name.clone(),
            })
            .at(Place::Group(index)));
        }
        let globs = group.cases.iter().enumerate().map(|(at, pattern)| {
            let place = Place::GroupCases {
                group: index,
                glob: at,
            };
            glob(pattern).map_err(|k| ScoringError::new(k).at(place))
        });
        matchers.push(globs.collect::<Result<_, _>>()?);
    }
    Ok(matchers)
}

/// The cases of each group, and the samples no group names; a case in two groups, a case
/// in none, or a glob that names no case is an error.
fn members_of<'a>(
    cases: &'a [CaseRef],
    spec: &GroupsSpec,
    matchers: &[Vec<GlobMatcher>],
) -> Result<(Vec<Vec<&'a CaseRef>>, Vec<&'a CaseRef>), ScoringError> {
    let mut members: Vec<Vec<&'a CaseRef>> = vec![Vec::new(); spec.groups.len()];
    let mut used: Vec<Vec<bool>> = matchers.iter().map(|g| vec![false; g.len()]).collect();
    let mut samples = Vec::new();
    for case in cases {
        let mut owner: Option<usize> = None;
        for (index, globs) in matchers.iter().enumerate() {
            let Some(at) = globs.iter().position(|g| g.is_match(&case.name)) else {
                continue;
            };
            used[index][at] = true;
            if let Some(first) = owner {
                return Err(ScoringError::new(ScoringErrorKind::CaseInTwoGroups {
                    case: case.name.clone(),
                    first: spec.groups[first].name.clone(),
                    second: spec.groups[index].name.clone(),
                })
                .at(Place::GroupCases {
                    group: index,
                    glob: at,
                }));
            }
            owner = Some(index);
        }
        match owner {
            Some(index) => members[index].push(case),
            None if case.sample => samples.push(case),
            None => {
                return Err(ScoringErrorKind::CaseInNoGroup {
                    case: case.name.clone(),
                }
                .into())
            }
        }
    }
    for (index, globs) in used.iter().enumerate() {
        if let Some(at) = globs.iter().position(|u| !u) {
            return Err(ScoringError::new(ScoringErrorKind::GlobMatchesNothing {
                glob: spec.groups[index].cases[at].clone(),
                group: Some(spec.groups[index].name.clone()),
            })
            .at(Place::GroupCases {
                group: index,
                glob: at,
            }));
        }
    }
    Ok((members, samples))
}

/// Where in the spec a dependency error of the tree is.
fn dependency_place(spec: &GroupsSpec, kind: &ScoringErrorKind) -> Option<Place> {
    let at = |group: &str, dependency: &str| {
        let index = spec.groups.iter().position(|g| g.name == group)?;
        let dep = spec.groups[index]
            .depends_on
            .iter()
            .position(|d| d == dependency)?;
        Some(Place::GroupDependency {
            group: index,
            dependency: dep,
        })
    };
    match kind {
        ScoringErrorKind::UnknownDependency {
            group, dependency, ..
        }
        | ScoringErrorKind::DependsOnLater { group, dependency }
        | ScoringErrorKind::DependsOnItsOwnTree {
            group, dependency, ..
        } => at(group, dependency),
        ScoringErrorKind::CircularDependency { cycle } => match cycle.as_slice() {
            [first, second, ..] => at(first, second),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::model::{CaseOutcome, Outcomes};
    use crate::score::number::format_score;
    use crate::verdict::Verdict::{self, Accepted as AC, WrongAnswer as WA};

    fn cases(names: &[&str]) -> Vec<CaseRef> {
        names
            .iter()
            .map(|n| CaseRef::new(*n, n.starts_with("sample")))
            .collect()
    }

    fn outcomes(rows: &[(&str, Verdict)]) -> Outcomes {
        rows.iter()
            .map(|&(n, v)| (n, CaseOutcome::new(v)))
            .collect()
    }

    fn total(scoring: &Scoring, rows: &[(&str, Verdict)]) -> String {
        let sheet = scoring.aggregate(&outcomes(rows)).unwrap();
        format!(
            "{}/{}",
            format_score(sheet.score.unwrap()),
            format_score(sheet.max_score.unwrap())
        )
    }

    #[test]
    fn luogu_points_are_equal_shares_of_100() {
        let all = cases(&[
            "sample-1", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10",
        ]);
        let scoring = points(&all, &PointsSpec::default()).unwrap();
        let mut rows: Vec<(&str, Verdict)> = all.iter().map(|c| (c.name.as_str(), AC)).collect();
        assert_eq!(total(&scoring, &rows), "100/100");
        // Seven of ten: 70, as Luogu shows it; a failed sample costs nothing.
        for row in rows
            .iter_mut()
            .filter(|r| ["sample-1", "03", "07", "10"].contains(&r.0))
        {
            row.1 = WA;
        }
        assert_eq!(total(&scoring, &rows), "70/100");
        let three = points(&cases(&["1", "2", "3"]), &PointsSpec::default()).unwrap();
        assert_eq!(
            total(&three, &[("1", AC), ("2", WA), ("3", AC)]),
            "66.666667/100"
        );
        assert_eq!(
            total(&three, &[("1", AC), ("2", WA), ("3", WA)]),
            "33.333333/100"
        );
    }

    #[test]
    fn luogu_points_by_glob() {
        let all = cases(&["sample-1", "a1", "a2", "b1", "b2"]);
        let spec = |total, globs: &[(&str, f64)]| PointsSpec {
            total,
            cases: globs
                .iter()
                .map(|&(g, p)| CasePoints {
                    glob: g.into(),
                    points: p,
                })
                .collect(),
        };
        // `a*` worth 10 each; the rest share what is left of 100.
        let scoring = points(&all, &spec(None, &[("a*", 10.0)])).unwrap();
        assert_eq!(
            total(
                &scoring,
                &[
                    ("sample-1", AC),
                    ("a1", AC),
                    ("a2", WA),
                    ("b1", AC),
                    ("b2", WA)
                ]
            ),
            "50/100"
        );
        // Every case has its own: the total is their sum, unless stated.
        let scoring = points(&all, &spec(None, &[("a*", 10.0), ("b*", 15.0)])).unwrap();
        assert_eq!(
            total(
                &scoring,
                &[
                    ("sample-1", WA),
                    ("a1", AC),
                    ("a2", AC),
                    ("b1", AC),
                    ("b2", WA)
                ]
            ),
            "35/50"
        );
        // A sample named by a glob counts.
        let scoring = points(&all, &spec(Some(100.0), &[("sample-*", 20.0)])).unwrap();
        assert_eq!(
            total(
                &scoring,
                &[
                    ("sample-1", AC),
                    ("a1", AC),
                    ("a2", WA),
                    ("b1", WA),
                    ("b2", WA)
                ]
            ),
            "40/100"
        );

        let error = |spec: PointsSpec| points(&all, &spec).unwrap_err();
        let e = error(spec(Some(60.0), &[("a*", 10.0), ("b*", 15.0)]));
        assert_eq!(e.place, Some(Place::Total));
        assert_eq!(e.to_string(), "the points add up to 50, not the stated total 60 (hint: change the points or the total so they agree)");
        let e = error(spec(None, &[("a*", 60.0)]));
        assert_eq!(
            e.to_string(),
            "the points given add up to 120, more than the total 100"
        );
        let e = error(spec(None, &[("a*", 10.0), ("*1", 5.0)]));
        assert_eq!(e.place, Some(Place::CasePoints(1)));
        assert_eq!(
            e.to_string(),
            "case `a1` is in both `a*` and `*1` (hint: make the globs exclusive)"
        );
        let e = error(spec(None, &[("c*", 10.0)]));
        assert_eq!(e.place, Some(Place::CasePoints(0)));
        assert_eq!(e.to_string(), "`c*` matches no case");
        let e = error(spec(None, &[("a[", 10.0)]));
        assert!(matches!(e.kind, ScoringErrorKind::BadGlob { .. }), "{e}");
        let e = error(spec(None, &[("a*", -1.0)]));
        assert_eq!(e.place, Some(Place::CasePoints(0)));
        let e = error(spec(Some(f64::NAN), &[]));
        assert_eq!(e.place, Some(Place::Total));
    }

    fn group(
        name: &str,
        globs: &[&str],
        points: f64,
        aggregation: Aggregation,
        depends_on: &[&str],
    ) -> GroupSpec {
        GroupSpec {
            name: name.into(),
            cases: globs.iter().map(ToString::to_string).collect(),
            points,
            aggregation,
            depends_on: depends_on.iter().map(ToString::to_string).collect(),
        }
    }

    fn two_n_queens() -> (Vec<CaseRef>, GroupsSpec) {
        let all = cases(&[
            "sample-1", "small-1", "small-2", "mid-1", "mid-2", "big-1", "big-2",
        ]);
        let spec = GroupsSpec {
            total: Some(100.0),
            groups: vec![
                group("small", &["small-*"], 20.0, Aggregation::Min, &[]),
                group("mid", &["mid-*"], 30.0, Aggregation::Sum, &[]),
                group("big", &["big-*"], 50.0, Aggregation::Min, &["small"]),
            ],
        };
        (all, spec)
    }

    #[test]
    fn subtasks_score_by_min_and_sum() {
        let (all, spec) = two_n_queens();
        let scoring = groups(&all, &spec).unwrap();
        let ac: Vec<(&str, Verdict)> = all.iter().map(|c| (c.name.as_str(), AC)).collect();
        assert_eq!(total(&scoring, &ac), "100/100");
        let with = |wrong: &[&str]| -> Vec<(&str, Verdict)> {
            ac.iter()
                .map(|&(n, v)| (n, if wrong.contains(&n) { WA } else { v }))
                .collect()
        };
        assert_eq!(total(&scoring, &with(&["big-2"])), "50/100");
        assert_eq!(total(&scoring, &with(&["mid-1"])), "85/100");
        // `big` depends on `small`: a failed small case costs both.
        assert_eq!(total(&scoring, &with(&["small-2"])), "30/100");
        assert_eq!(total(&scoring, &with(&["sample-1"])), "100/100");
        // Samples no group names are judged first.
        let order: Vec<&str> = scoring.cases().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            order,
            ["sample-1", "small-1", "small-2", "mid-1", "mid-2", "big-1", "big-2"]
        );
    }

    #[test]
    fn bad_subtasks_say_where() {
        let (all, spec) = two_n_queens();
        let error = |change: &dyn Fn(&mut GroupsSpec)| {
            let mut spec = spec.clone();
            change(&mut spec);
            groups(&all, &spec).unwrap_err()
        };
        let e = error(&|s| s.total = Some(90.0));
        assert_eq!((e.place, e.to_string()), (Some(Place::Total), "the points add up to 100, not the stated total 90 (hint: change the points or the total so they agree)".into()));
        let e = error(&|s| s.groups[1].cases.push("small-1".into()));
        assert_eq!(e.place, Some(Place::GroupCases { group: 1, glob: 1 }));
        assert_eq!(
            e.to_string(),
            "case `small-1` is in both `small` and `mid` (hint: make the globs exclusive)"
        );
        let e = error(&|s| s.groups[2].cases = vec!["big-1".into()]);
        assert_eq!((e.place, e.to_string()), (None, "case `big-2` is in no group (hint: add a glob that matches it to one of the groups)".into()));
        let e = error(&|s| s.groups[0].cases.push("tiny-*".into()));
        assert_eq!(e.place, Some(Place::GroupCases { group: 0, glob: 1 }));
        assert_eq!(e.to_string(), "`tiny-*` matches no case (in group `small`)");
        let e = error(&|s| s.groups[2].depends_on = vec!["small".into(), "huge".into()]);
        assert_eq!(
            e.place,
            Some(Place::GroupDependency {
                group: 2,
                dependency: 1
            })
        );
        assert_eq!(
            e.to_string(),
            "group `big` depends on `huge`, which is no group (the groups: `small`, `mid`, `big`)"
        );
        let e = error(&|s| {
            s.groups[0].depends_on = vec!["big".into()];
        });
        assert_eq!(
            e.place,
            Some(Place::GroupDependency {
                group: 0,
                dependency: 0
            })
        );
        assert_eq!(
            e.to_string(),
            "circular dependency: `small` → `big` → `small`"
        );
        let e = error(&|s| s.groups[0].depends_on = vec!["mid".into()]);
        assert!(
            matches!(e.kind, ScoringErrorKind::DependsOnLater { .. }),
            "{e}"
        );
        assert_eq!(
            e.place,
            Some(Place::GroupDependency {
                group: 0,
                dependency: 0
            })
        );
        let e = error(&|s| s.groups[1].name = "small".into());
        assert_eq!(
            (e.place, e.to_string()),
            (Some(Place::Group(1)), "two groups are named `small`".into())
        );
        let e = error(&|s| s.groups[1].points = -5.0);
        assert_eq!(e.place, Some(Place::GroupPoints(1)));
        let e = error(&|s| s.groups[1].cases.clear());
        assert_eq!(e.to_string(), "group `mid` has no case");
    }
}
