//! Polygon scoring (problem.xml `<groups>`): flat groups with points, `points-policy`
//! `each-test` (each passed test its points) or `complete-group` (the group's points when
//! every test passes), and dependencies (a group counts only when those pass entirely).

use std::collections::HashMap;

use super::error::{check_points, ScoringError, ScoringErrorKind};
use super::model::{CaseRule, CaseValue, Group, Item, Rule, Scoring};
use super::number::{format_score, same_score};

/// How a group's points are given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointsPolicy {
    /// Each passed test its own points.
    EachTest,
    /// The group's points when every test passes, else 0.
    CompleteGroup,
}

/// A `<group>` of problem.xml.
#[derive(Debug, Clone, PartialEq)]
pub struct PolygonGroup {
    /// Its `name`.
    pub name: String,
    /// Its `points`, if given.
    pub points: Option<f64>,
    /// Its `points-policy`.
    pub policy: PointsPolicy,
    /// Its `<dependency group=…>`s.
    pub dependencies: Vec<String>,
}

/// A `<test>` of problem.xml, as the judge names it.
#[derive(Debug, Clone, PartialEq)]
pub struct PolygonTest {
    /// The case's name.
    pub name: String,
    /// Its `group`.
    pub group: Option<String>,
    /// Its `points`.
    pub points: Option<f64>,
    /// `sample="true"`: a partial credit on it is ignored unless it has points.
    pub sample: bool,
}

/// The scoring of a Polygon problem: its tests in order, and its groups. Without groups, a
/// problem whose tests have points is scored by the sum of the passed tests' points; one
/// without points is pass-fail. With groups, every test is in one, and groups are judged in
/// the order of their first test.
pub fn polygon(groups: &[PolygonGroup], tests: &[PolygonTest]) -> Result<Scoring, ScoringError> {
    let worth = |test: &PolygonTest, points: f64| {
        if test.sample && points == 0.0 {
            CaseValue::Nothing
        } else {
            CaseValue::Bounded(points)
        }
    };
    for points in tests.iter().filter_map(|t| t.points) {
        check_points(points)?;
    }
    if groups.is_empty() {
        if tests.iter().all(|t| t.points.is_none()) {
            return Scoring::pass_fail(tests.iter().map(|t| t.name.clone()));
        }
        let items = tests
            .iter()
            .map(|t| {
                Item::Case(CaseRule::new(
                    t.name.clone(),
                    worth(t, t.points.unwrap_or(0.0)),
                ))
            })
            .collect();
        let total = tests.iter().filter_map(|t| t.points).sum();
        return Scoring::new(Group::new("", Rule::Sum, Some(total), items));
    }
    let mut index = HashMap::new();
    for (at, group) in groups.iter().enumerate() {
        if index.insert(group.name.as_str(), at).is_some() {
            return Err(ScoringErrorKind::DuplicateGroup {
                name: group.name.clone(),
            }
            .into());
        }
        if let Some(points) = group.points {
            check_points(points)?;
        }
    }
    let mut members: Vec<Vec<&PolygonTest>> = vec![Vec::new(); groups.len()];
    let mut first_test: Vec<usize> = vec![usize::MAX; groups.len()];
    for (position, test) in tests.iter().enumerate() {
        let Some(name) = &test.group else {
            return Err(ScoringErrorKind::CaseInNoGroup {
                case: test.name.clone(),
            }
            .into());
        };
        let Some(&at) = index.get(name.as_str()) else {
            return Err(ScoringErrorKind::Invalid {
                message: format!(
                    "test `{}` is in group `{name}`, which problem.xml does not declare",
                    test.name
                ),
            }
            .into());
        };
        members[at].push(test);
        first_test[at] = first_test[at].min(position);
    }
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&at| first_test[at]);
    let mut items = Vec::new();
    let mut total = 0.0;
    for at in order {
        let group = &groups[at];
        let tests = &members[at];
        if tests.is_empty() {
            return Err(ScoringErrorKind::EmptyGroup {
                group: group.name.clone(),
            }
            .into());
        }
        let given: f64 = tests.iter().filter_map(|t| t.points).sum();
        let any_points = tests.iter().any(|t| t.points.is_some());
        let disagree = |sum: f64, points: f64| {
            ScoringError::new(ScoringErrorKind::PointsDoNotAddUp {
                sum: format_score(sum),
                total: format_score(points),
                within: Some(group.name.clone()),
            })
        };
        let (rule, max, cases): (Rule, f64, Vec<Item>) = match group.policy {
            PointsPolicy::EachTest => {
                let share = match (any_points, group.points) {
                    (false, Some(points)) => Some(points / tests.len() as f64),
                    (true, Some(points)) if !same_score(given, points) => {
                        return Err(disagree(given, points))
                    }
                    _ => None,
                };
                let cases = tests
                    .iter()
                    .map(|t| {
                        let points = share.unwrap_or(t.points.unwrap_or(0.0));
                        Item::Case(CaseRule::new(t.name.clone(), worth(t, points)))
                    })
                    .collect();
                (Rule::Sum, group.points.unwrap_or(given), cases)
            }
            PointsPolicy::CompleteGroup => {
                if let Some(points) = group.points {
                    if given > 0.0 && !same_score(given, points) {
                        return Err(disagree(given, points));
                    }
                }
                let cases = tests
                    .iter()
                    .map(|t| {
                        let value = if t.sample {
                            CaseValue::Nothing
                        } else {
                            CaseValue::VerdictOnly
                        };
                        Item::Case(CaseRule::new(t.name.clone(), value))
                    })
                    .collect();
                (Rule::AllOrNothing, group.points.unwrap_or(given), cases)
            }
        };
        total += max;
        let mut built = Group::new(group.name.clone(), rule, Some(max), cases);
        built.depends_on.clone_from(&group.dependencies);
        items.push(Item::Group(built));
    }
    Scoring::new(Group::new("", Rule::Sum, Some(total), items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::model::{CaseOutcome, Outcomes};
    use crate::verdict::credit::{Credit, CreditSource};
    use crate::verdict::Verdict::{self, Accepted as AC, WrongAnswer as WA};

    fn group(
        name: &str,
        points: Option<f64>,
        policy: PointsPolicy,
        dependencies: &[&str],
    ) -> PolygonGroup {
        PolygonGroup {
            name: name.into(),
            points,
            policy,
            dependencies: dependencies.iter().map(ToString::to_string).collect(),
        }
    }

    fn test(name: &str, group: &str, points: Option<f64>) -> PolygonTest {
        PolygonTest {
            name: name.into(),
            group: Some(group.into()),
            points,
            sample: group == "samples",
        }
    }

    fn score(scoring: &Scoring, verdicts: &[Verdict]) -> String {
        let outcomes: Outcomes = scoring
            .cases()
            .iter()
            .zip(verdicts)
            .map(|(c, &v)| (c.name.clone(), CaseOutcome::new(v)))
            .collect();
        format_score(scoring.aggregate(&outcomes).unwrap().score.unwrap())
    }

    /// The groups of CMS's Polygon loader tests: samples (0), s1-OO and s2-OO (each test 5),
    /// s3 (20, complete, needs s1-OO), s4 (65, complete, needs s3).
    fn mixed() -> Scoring {
        use PointsPolicy::{CompleteGroup, EachTest};
        let groups = [
            group("samples", Some(0.0), CompleteGroup, &[]),
            group("s1-OO", None, EachTest, &[]),
            group("s2-OO", None, EachTest, &[]),
            group("s3", Some(20.0), CompleteGroup, &["s1-OO"]),
            group("s4", Some(65.0), CompleteGroup, &["s3"]),
        ];
        let tests = [
            test("01", "samples", Some(0.0)),
            test("02", "s1-OO", Some(5.0)),
            test("03", "s2-OO", Some(5.0)),
            test("04", "s2-OO", Some(5.0)),
            test("05", "s3", Some(20.0)),
            test("06", "s3", Some(0.0)),
            test("07", "s4", Some(65.0)),
        ];
        polygon(&groups, &tests).unwrap()
    }

    #[test]
    fn each_test_and_complete_group_with_dependencies() {
        let scoring = mixed();
        assert_eq!(scoring.max_score(), Some(100.0));
        assert_eq!(score(&scoring, &[AC; 7]), "100");
        assert_eq!(score(&scoring, &[AC, AC, WA, AC, AC, AC, AC]), "95");
        assert_eq!(score(&scoring, &[AC, AC, AC, AC, AC, WA, AC]), "15");
        // s1-OO failing blocks s3, and through it s4.
        assert_eq!(score(&scoring, &[AC, WA, AC, AC, AC, AC, AC]), "10");
        assert_eq!(score(&scoring, &[WA, AC, AC, AC, AC, AC, AC]), "100");
        // A checker's points on a sample of a complete group are ignored.
        let mut outcomes: Outcomes = scoring
            .cases()
            .iter()
            .map(|c| (c.name.clone(), CaseOutcome::new(AC)))
            .collect();
        outcomes.insert(
            "01",
            CaseOutcome::with_credit(
                AC,
                Credit {
                    source: CreditSource::Testlib,
                    value: 1.0,
                },
            ),
        );
        assert_eq!(scoring.aggregate(&outcomes).unwrap().verdict, AC);
        // …and a complete group's other tests have no points of their own to give.
        outcomes.insert(
            "05",
            CaseOutcome::with_credit(
                AC,
                Credit {
                    source: CreditSource::Testlib,
                    value: 1.0,
                },
            ),
        );
        assert_eq!(
            scoring.aggregate(&outcomes).unwrap().verdict,
            Verdict::JudgeError
        );
    }

    #[test]
    fn test_points_without_groups_or_points() {
        let plain = |points: [Option<f64>; 3]| {
            let tests: Vec<PolygonTest> = points
                .iter()
                .enumerate()
                .map(|(i, &p)| PolygonTest {
                    name: format!("{}", i + 1),
                    group: None,
                    points: p,
                    sample: false,
                })
                .collect();
            polygon(&[], &tests).unwrap()
        };
        let scoring = plain([Some(10.0), Some(30.0), Some(60.0)]);
        assert_eq!(score(&scoring, &[AC, WA, AC]), "70");
        assert!(!plain([None, None, None]).is_scored());
        // Group points and no test points: the group's points shared out.
        let shared = polygon(
            &[group("main", Some(100.0), PointsPolicy::EachTest, &[])],
            &[
                test("1", "main", None),
                test("2", "main", None),
                test("3", "main", None),
                test("4", "main", None),
            ],
        )
        .unwrap();
        assert_eq!(score(&shared, &[AC, AC, WA, AC]), "75");
    }

    #[test]
    fn bad_groups_are_errors() {
        use PointsPolicy::{CompleteGroup, EachTest};
        let error = |groups: &[PolygonGroup], tests: &[PolygonTest]| {
            polygon(groups, tests).unwrap_err().to_string()
        };
        assert_eq!(
            error(&[group("a", Some(30.0), EachTest, &[])], &[test("1", "a", Some(10.0)), test("2", "a", Some(10.0))]),
            "the points of group `a` add up to 20, not the stated total 30 (hint: change the points or the total so they agree)"
        );
        assert_eq!(
            error(&[group("a", None, EachTest, &[])], &[test("1", "b", None)]),
            "test `1` is in group `b`, which problem.xml does not declare"
        );
        let mut lone = test("2", "a", None);
        lone.group = None;
        assert_eq!(
            error(
                &[group("a", None, EachTest, &[])],
                &[test("1", "a", None), lone]
            ),
            "case `2` is in no group (hint: add a glob that matches it to one of the groups)"
        );
        assert_eq!(
            error(
                &[
                    group("a", None, EachTest, &[]),
                    group("b", None, CompleteGroup, &[])
                ],
                &[test("1", "a", None)]
            ),
            "group `b` has no case"
        );
        assert_eq!(
            error(
                &[
                    group("a", None, EachTest, &["b"]),
                    group("b", None, EachTest, &["a"])
                ],
                &[test("1", "a", None), test("2", "b", None)]
            ),
            "circular dependency: `a` → `b` → `a`"
        );
        assert_eq!(
            error(
                &[group("a", Some(-1.0), EachTest, &[])],
                &[test("1", "a", None)]
            ),
            "points must be a number not below 0, not -1"
        );
    }
}
