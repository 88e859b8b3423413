//! The scoring model: a tree of groups over a problem's cases, each group with its rule for
//! combining what its items scored. Every format's scoring (pass-fail, Luogu points, judge.toml
//! subtasks, Kattis legacy and 2025-09, Polygon) is built into this one shape by its module.

use std::collections::HashMap;

use super::error::{ScoringError, ScoringErrorKind};
use super::grading::{KattisGrading, OnReject};
use super::number::{at_most, format_score};
use crate::verdict::credit::{Credit, CreditError};
use crate::verdict::Verdict;

/// What the judge learnt about one case: its verdict, and the checker's partial credit if it
/// gave one (testlib's `quitp`, a Kattis `score.txt`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CaseOutcome {
    /// The case's verdict.
    pub verdict: Verdict,
    /// The checker's credit, for an accepted case.
    pub credit: Option<Credit>,
}

impl CaseOutcome {
    /// A verdict and no credit.
    pub fn new(verdict: Verdict) -> Self {
        CaseOutcome {
            verdict,
            credit: None,
        }
    }

    /// A verdict with the checker's credit.
    pub fn with_credit(verdict: Verdict, credit: Credit) -> Self {
        CaseOutcome {
            verdict,
            credit: Some(credit),
        }
    }
}

/// The outcomes known so far, by case name.
#[derive(Debug, Clone, Default)]
pub struct Outcomes(HashMap<String, CaseOutcome>);

impl Outcomes {
    /// None known.
    pub fn new() -> Self {
        Outcomes::default()
    }

    /// Records a case's outcome (a later one replaces an earlier).
    pub fn insert(&mut self, case: impl Into<String>, outcome: CaseOutcome) {
        self.0.insert(case.into(), outcome);
    }

    /// The outcome of `case`, if known.
    pub fn get(&self, case: &str) -> Option<&CaseOutcome> {
        self.0.get(case)
    }
}

impl<S: Into<String>> FromIterator<(S, CaseOutcome)> for Outcomes {
    fn from_iter<I: IntoIterator<Item = (S, CaseOutcome)>>(iter: I) -> Self {
        Outcomes(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

/// What an accepted case is worth, and how a checker's credit changes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CaseValue {
    /// No score of its own: only its verdict counts (a pass-fail problem, a group scored all or
    /// nothing). A credit here is a judge error.
    VerdictOnly,
    /// Worth nothing, and a credit is ignored: samples (2025-09: "`score.txt` on a sample is
    /// not an error, but simply ignored").
    Nothing,
    /// Worth this much when accepted; a credit scores it instead: absolute points up to this,
    /// or a fraction of it.
    Bounded(f64),
    /// Worth what the validator's `score.txt` says, which it must write (2025-09 unbounded).
    Unbounded,
    /// Kattis legacy: `accept` when accepted, `reject` when not; a `score.txt` replaces
    /// `accept` (any finite number: the group's `range` bounds it).
    Kattis {
        /// `accept_score`.
        accept: f64,
        /// `reject_score`.
        reject: f64,
    },
}

/// One case of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseRule {
    /// Its name, as the judge names it (`secret/g1/03`).
    pub name: String,
    /// What it is worth.
    pub value: CaseValue,
}

impl CaseRule {
    /// A case.
    pub fn new(name: impl Into<String>, value: CaseValue) -> Self {
        CaseRule {
            name: name.into(),
            value,
        }
    }

    /// The most it can score; `None` for no score of its own, no bound or Kattis legacy.
    pub fn max_score(&self) -> Option<f64> {
        match self.value {
            CaseValue::Bounded(max) => Some(max),
            CaseValue::Nothing => Some(0.0),
            CaseValue::VerdictOnly | CaseValue::Unbounded | CaseValue::Kattis { .. } => None,
        }
    }

    /// What `outcome` scores here: `Ok(None)` for a case with no score of its own, an error for
    /// a credit the case cannot take (the judge's checker misbehaved: the case is a judge
    /// error). The judge can call this as soon as the case is checked, so the case's event
    /// already shows the judge error.
    pub fn score(&self, outcome: &CaseOutcome) -> Result<Option<f64>, CreditError> {
        let accepted = outcome.verdict.is_accepted();
        let credit = outcome.credit;
        match (self.value, credit) {
            (CaseValue::Nothing, _) => Ok(Some(0.0)),
            (_, Some(credit)) if !accepted && self.value != CaseValue::VerdictOnly => {
                Err(CreditError::OnRejected {
                    from: credit.source,
                })
            }
            (CaseValue::VerdictOnly, Some(credit)) => Err(CreditError::InPassFailGroup {
                from: credit.source,
            }),
            (CaseValue::VerdictOnly, None) => Ok(None),
            (CaseValue::Kattis { reject, .. }, _) if !accepted => Ok(Some(reject)),
            (CaseValue::Kattis { accept, .. }, None) => Ok(Some(accept)),
            (CaseValue::Kattis { .. }, Some(credit)) if credit.is_fraction() => {
                Err(CreditError::MultiplierInLegacy)
            }
            (CaseValue::Bounded(_) | CaseValue::Unbounded, _) if !accepted => Ok(Some(0.0)),
            (CaseValue::Bounded(max), None) => Ok(Some(max)),
            (CaseValue::Bounded(max), Some(credit)) if credit.is_fraction() => {
                Ok(Some(credit.value * max))
            }
            (CaseValue::Bounded(max), Some(credit)) => {
                if at_most(credit.value, max) {
                    Ok(Some(credit.value.min(max)))
                } else {
                    Err(CreditError::OverMaximum {
                        from: credit.source,
                        value: format_score(credit.value),
                        max: format_score(max),
                    })
                }
            }
            (CaseValue::Unbounded, None) => Err(CreditError::MissingScore),
            (CaseValue::Unbounded, Some(credit)) if credit.is_fraction() => {
                Err(CreditError::MultiplierUnbounded)
            }
            (CaseValue::Kattis { .. } | CaseValue::Unbounded, Some(credit)) => {
                Ok(Some(credit.value))
            }
        }
    }
}

/// How a group combines what its items (cases and groups) scored.
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// No score at all, only a verdict: a pass-fail problem.
    Verdict,
    /// The group's maximum if every item is accepted, else 0 (IOI subtasks, 2025-09
    /// `pass-fail`, Polygon `complete-group`).
    AllOrNothing,
    /// The sum of the items' scores (Luogu points, 2025-09 `sum`, Polygon `each-test`).
    Sum,
    /// The least of the items' scores (judge.toml `min`, 2025-09 `min`).
    Min,
    /// problemtools' default grader with the group's `grader_flags` and `on_reject`.
    Kattis(KattisGrading),
}

/// A group: its items in judge order and its rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Its name (`secret/g1`; the top group's is empty).
    pub name: String,
    /// Cases and groups, in the order they are judged.
    pub items: Vec<Item>,
    /// How the items' scores combine.
    pub rule: Rule,
    /// The most the group can score; `None` for no score ([`Rule::Verdict`]) or no bound.
    pub max_score: Option<f64>,
    /// Groups every case of which must be accepted before this one counts; if one is not, this
    /// group is not judged and scores 0.
    pub depends_on: Vec<String>,
}

/// One item of a group.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A case.
    Case(CaseRule),
    /// A group inside it.
    Group(Group),
}

impl Item {
    /// The case's or group's name.
    pub fn name(&self) -> &str {
        match self {
            Item::Case(case) => &case.name,
            Item::Group(group) => &group.name,
        }
    }
}

impl Group {
    /// A group without dependencies.
    pub fn new(
        name: impl Into<String>,
        rule: Rule,
        max_score: Option<f64>,
        items: Vec<Item>,
    ) -> Self {
        Group {
            name: name.into(),
            items,
            rule,
            max_score,
            depends_on: Vec::new(),
        }
    }

    /// Whether the judge may stop this group at its first failure, leaving its other items
    /// unjudged: a group scored all or nothing, or by its minimum (a failed case scores 0), or
    /// a Kattis group with `on_reject: break`. A `sum` group cannot: every case counts.
    pub fn stops_at_first_failure(&self) -> bool {
        match &self.rule {
            Rule::AllOrNothing | Rule::Min => true,
            Rule::Kattis(grading) => grading.on_reject == OnReject::Break,
            Rule::Verdict | Rule::Sum => false,
        }
    }

    /// Whether a failure of `item` stops this group. A `min` group stops only at an item whose
    /// failure scores 0 (a case, or a group scored by its minimum or all or nothing): a failed
    /// `sum` group inside it may still have scored.
    pub(crate) fn stops_after(&self, item: &Item) -> bool {
        match &self.rule {
            Rule::Min => match item {
                Item::Case(_) => true,
                Item::Group(group) => matches!(group.rule, Rule::Min | Rule::AllOrNothing),
            },
            _ => self.stops_at_first_failure(),
        }
    }

    /// Every case under it, in judge order.
    pub fn cases(&self) -> Vec<&CaseRule> {
        self.walk().0
    }

    /// The groups inside it (not itself), parents before their children.
    pub fn groups(&self) -> Vec<&Group> {
        self.walk().1
    }

    /// The cases and the groups under it, in judge order.
    fn walk(&self) -> (Vec<&CaseRule>, Vec<&Group>) {
        fn walk<'a>(group: &'a Group, cases: &mut Vec<&'a CaseRule>, groups: &mut Vec<&'a Group>) {
            for item in &group.items {
                match item {
                    Item::Case(case) => cases.push(case),
                    Item::Group(inner) => {
                        groups.push(inner);
                        walk(inner, cases, groups);
                    }
                }
            }
        }
        let (mut cases, mut groups) = (Vec::new(), Vec::new());
        walk(self, &mut cases, &mut groups);
        (cases, groups)
    }
}

/// Where a group sits: its path of item indices from the top, and the span of tree positions
/// (pre-order over groups and cases) it covers.
#[derive(Debug, Clone)]
pub(crate) struct Seat {
    pub(crate) path: Vec<usize>,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// A problem's scoring: the tree, checked (names unique, dependencies known, earlier, not
/// circular). Build one with a format's builder ([`points`](super::points),
/// [`groups`](super::groups), [`kattis_legacy`](super::kattis_legacy),
/// [`kattis_2025`](super::kattis_2025), [`polygon`](super::polygon)) or [`Scoring::new`].
#[derive(Debug, Clone)]
pub struct Scoring {
    root: Group,
    seats: HashMap<String, Seat>,
    cases: HashMap<String, Vec<usize>>,
    /// The package's own grader, for the groups graded `custom`.
    grader: Option<std::sync::Arc<dyn super::grading::GroupGrader>>,
}

impl Scoring {
    /// Checks a tree and makes it a problem's scoring.
    pub fn new(root: Group) -> Result<Scoring, ScoringError> {
        let mut scoring = Scoring {
            root,
            seats: HashMap::new(),
            cases: HashMap::new(),
            grader: None,
        };
        let mut position = 0;
        let root = scoring.root.clone();
        scoring.seat(&root, Vec::new(), &mut position)?;
        scoring.check_dependencies()?;
        Ok(scoring)
    }

    /// The same scoring with the package's grader for its groups graded `custom`.
    pub fn with_grader(mut self, grader: std::sync::Arc<dyn super::grading::GroupGrader>) -> Self {
        self.grader = Some(grader);
        self
    }

    /// The package's grader, when it has one.
    pub fn grader(&self) -> Option<&dyn super::grading::GroupGrader> {
        self.grader.as_deref()
    }

    /// Whether a group is graded by the package's own grader (`grading: custom`).
    pub fn has_custom_grading(&self) -> bool {
        fn custom(group: &Group) -> bool {
            matches!(&group.rule, Rule::Kattis(g) if g.custom.is_some())
                || group.items.iter().any(|item| match item {
                    Item::Group(inner) => custom(inner),
                    Item::Case(_) => false,
                })
        }
        custom(&self.root)
    }

    /// A pass-fail problem: its cases in judge order, no score.
    pub fn pass_fail<S: Into<String>>(
        cases: impl IntoIterator<Item = S>,
    ) -> Result<Scoring, ScoringError> {
        let items = cases
            .into_iter()
            .map(|name| Item::Case(CaseRule::new(name, CaseValue::VerdictOnly)))
            .collect();
        Scoring::new(Group::new("", Rule::Verdict, None, items))
    }

    fn seat(
        &mut self,
        group: &Group,
        path: Vec<usize>,
        position: &mut usize,
    ) -> Result<(), ScoringError> {
        let start = *position;
        *position += 1;
        if group.max_score.is_some_and(|m| !m.is_finite()) {
            let what = match group.name.as_str() {
                "" => "the total".to_string(),
                name => format!("group `{name}`"),
            };
            return Err(ScoringErrorKind::NotFinite { what }.into());
        }
        for (index, item) in group.items.iter().enumerate() {
            let mut inner = path.clone();
            inner.push(index);
            match item {
                Item::Case(case) => {
                    *position += 1;
                    let finite = match case.value {
                        CaseValue::Bounded(max) => max.is_finite(),
                        CaseValue::Kattis { accept, reject } => {
                            accept.is_finite() && reject.is_finite()
                        }
                        CaseValue::VerdictOnly | CaseValue::Nothing | CaseValue::Unbounded => true,
                    };
                    if !finite {
                        return Err(ScoringErrorKind::NotFinite {
                            what: format!("case `{}`", case.name),
                        }
                        .into());
                    }
                    if self.cases.insert(case.name.clone(), inner).is_some() {
                        return Err(ScoringErrorKind::DuplicateCase {
                            case: case.name.clone(),
                        }
                        .into());
                    }
                }
                Item::Group(child) => self.seat(child, inner, position)?,
            }
        }
        let seat = Seat {
            path,
            start,
            end: *position,
        };
        if self.seats.insert(group.name.clone(), seat).is_some() {
            return Err(ScoringErrorKind::DuplicateGroup {
                name: group.name.clone(),
            }
            .into());
        }
        Ok(())
    }

    fn check_dependencies(&self) -> Result<(), ScoringError> {
        let mut all: Vec<&Group> = vec![&self.root];
        all.extend(self.root.groups());
        let known: Vec<String> = all
            .iter()
            .map(|g| g.name.clone())
            .filter(|n| !n.is_empty())
            .collect();
        for group in &all {
            for dependency in &group.depends_on {
                if !self.seats.contains_key(dependency) {
                    return Err(ScoringErrorKind::UnknownDependency {
                        group: group.name.clone(),
                        dependency: dependency.clone(),
                        known: known.clone(),
                    }
                    .into());
                }
            }
        }
        if let Some(cycle) = find_cycle(&all) {
            return Err(ScoringErrorKind::CircularDependency { cycle }.into());
        }
        for group in &all {
            let seat = &self.seats[&group.name];
            for dependency in &group.depends_on {
                let other = &self.seats[dependency];
                let holds = seat.start <= other.start && other.end <= seat.end;
                let held = other.start <= seat.start && seat.end <= other.end;
                if holds || held {
                    return Err(ScoringErrorKind::DependsOnItsOwnTree {
                        group: group.name.clone(),
                        dependency: dependency.clone(),
                        contains: holds,
                    }
                    .into());
                }
                if other.end > seat.start {
                    return Err(ScoringErrorKind::DependsOnLater {
                        group: group.name.clone(),
                        dependency: dependency.clone(),
                    }
                    .into());
                }
            }
        }
        Ok(())
    }

    /// The top group: its score is the submission's.
    pub fn root(&self) -> &Group {
        &self.root
    }

    /// Whether submissions get a score (not a pass-fail problem).
    pub fn is_scored(&self) -> bool {
        self.root.rule != Rule::Verdict
    }

    /// The most a submission can score, if bounded.
    pub fn max_score(&self) -> Option<f64> {
        self.root.max_score
    }

    /// Every case, in the order the judge runs them (group by group).
    pub fn cases(&self) -> Vec<&CaseRule> {
        self.root.cases()
    }

    /// The case named `name`.
    pub fn case(&self, name: &str) -> Option<&CaseRule> {
        let path = self.cases.get(name)?;
        match self.item_at(path)? {
            Item::Case(case) => Some(case),
            Item::Group(_) => None,
        }
    }

    /// The group named `name` (the top group is `""`).
    pub fn group(&self, name: &str) -> Option<&Group> {
        let seat = self.seats.get(name)?;
        if seat.path.is_empty() {
            return Some(&self.root);
        }
        match self.item_at(&seat.path)? {
            Item::Group(group) => Some(group),
            Item::Case(_) => None,
        }
    }

    fn item_at(&self, path: &[usize]) -> Option<&Item> {
        let (last, upper) = path.split_last()?;
        let mut group = &self.root;
        for &index in upper {
            match group.items.get(index)? {
                Item::Group(inner) => group = inner,
                Item::Case(_) => return None,
            }
        }
        group.items.get(*last)
    }

    /// The item indices from the top group down to the case `name`.
    pub(crate) fn case_path(&self, name: &str) -> Option<&[usize]> {
        self.cases.get(name).map(Vec::as_slice)
    }

    /// The groups holding the case `name`, from the top group down to its own.
    pub(crate) fn groups_holding(&self, name: &str) -> Vec<&Group> {
        self.cases
            .get(name)
            .map_or_else(Vec::new, |path| self.groups_along(path))
    }

    /// The groups holding the group `name` (not itself), from the top down.
    pub(crate) fn ancestors(&self, name: &str) -> Vec<&Group> {
        self.seats
            .get(name)
            .map_or_else(Vec::new, |seat| self.groups_along(&seat.path))
    }

    /// The groups an item path passes through, from the top group down (not the item at its
    /// end).
    fn groups_along(&self, path: &[usize]) -> Vec<&Group> {
        let mut groups = Vec::new();
        let mut group = &self.root;
        for &index in path {
            groups.push(group);
            match group.items.get(index) {
                Some(Item::Group(inner)) => group = inner,
                _ => break,
            }
        }
        groups
    }
}

/// The first circle of dependencies, as a path that ends where it starts.
fn find_cycle(groups: &[&Group]) -> Option<Vec<String>> {
    let index: HashMap<&str, usize> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| (g.name.as_str(), i))
        .collect();
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; groups.len()];
    let mut path: Vec<usize> = Vec::new();
    fn visit(
        at: usize,
        groups: &[&Group],
        index: &HashMap<&str, usize>,
        state: &mut [u8],
        path: &mut Vec<usize>,
    ) -> Option<Vec<String>> {
        state[at] = 1;
        path.push(at);
        for dependency in &groups[at].depends_on {
            let Some(&next) = index.get(dependency.as_str()) else {
                continue;
            };
            match state[next] {
                1 => {
                    let from = path.iter().position(|&p| p == next).unwrap_or(0);
                    let mut cycle: Vec<String> = path[from..]
                        .iter()
                        .map(|&p| groups[p].name.clone())
                        .collect();
                    cycle.push(groups[next].name.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(cycle) = visit(next, groups, index, state, path) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state[at] = 2;
        None
    }
    for start in 0..groups.len() {
        if state[start] == 0 {
            if let Some(cycle) = visit(start, groups, &index, &mut state, &mut path) {
                return Some(cycle);
            }
        }
    }
    None
}

/// The outcomes the tests of every format's scoring build.
#[cfg(test)]
impl Scoring {
    /// Every case accepted, but those `changes` name.
    pub(crate) fn accepted_but(&self, changes: &[(&str, CaseOutcome)]) -> Outcomes {
        self.cases()
            .iter()
            .map(|case| {
                let outcome = changes
                    .iter()
                    .find(|(name, _)| *name == case.name)
                    .map_or(CaseOutcome::new(Verdict::Accepted), |(_, o)| *o);
                (case.name.clone(), outcome)
            })
            .collect()
    }

    /// Those of `all` a judge gets that runs, in order, only the cases [`Scoring::needs`]
    /// asks for; and how many it ran.
    pub(crate) fn judged_as_needed(&self, all: &Outcomes) -> (Outcomes, usize) {
        let mut known = Outcomes::new();
        let mut run = 0;
        for case in self.cases() {
            if self.needs(&case.name, &known) {
                known.insert(case.name.clone(), *all.get(&case.name).unwrap());
                run += 1;
            }
        }
        (known, run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::credit::CreditSource;

    fn credit(source: CreditSource, value: f64) -> Credit {
        Credit { source, value }
    }

    #[test]
    fn a_case_scores_by_its_value_and_the_credit() {
        use CaseValue::*;
        use CreditSource::{ScoreMultiplierTxt as Multiplier, ScoreTxt, Testlib};
        use Verdict::{Accepted as AC, WrongAnswer as WA};
        type Row = (
            CaseValue,
            Verdict,
            Option<Credit>,
            Result<Option<f64>, CreditError>,
        );
        let rows: Vec<Row> = vec![
            (VerdictOnly, AC, None, Ok(None)),
            (VerdictOnly, WA, None, Ok(None)),
            (
                VerdictOnly,
                AC,
                Some(credit(ScoreTxt, 3.0)),
                Err(CreditError::InPassFailGroup { from: ScoreTxt }),
            ),
            (Nothing, AC, None, Ok(Some(0.0))),
            // A sample's score.txt is ignored, not an error.
            (Nothing, AC, Some(credit(ScoreTxt, 30.0)), Ok(Some(0.0))),
            (Nothing, WA, Some(credit(ScoreTxt, 30.0)), Ok(Some(0.0))),
            (Bounded(10.0), AC, None, Ok(Some(10.0))),
            (Bounded(10.0), WA, None, Ok(Some(0.0))),
            (Bounded(10.0), AC, Some(credit(Testlib, 4.5)), Ok(Some(4.5))),
            (
                Bounded(10.0),
                AC,
                Some(credit(Testlib, 10.0)),
                Ok(Some(10.0)),
            ),
            // Float noise over the maximum is the maximum.
            (
                Bounded(100.0 / 3.0),
                AC,
                Some(credit(ScoreTxt, 33.3333333)),
                Ok(Some(33.3333333)),
            ),
            (
                Bounded(100.0 / 3.0),
                AC,
                Some(credit(ScoreTxt, 33.33333334)),
                Ok(Some(100.0 / 3.0)),
            ),
            (
                Bounded(10.0),
                AC,
                Some(credit(Testlib, 10.5)),
                Err(CreditError::OverMaximum {
                    from: Testlib,
                    value: "10.5".into(),
                    max: "10".into(),
                }),
            ),
            (
                Bounded(20.0),
                AC,
                Some(credit(Multiplier, 0.25)),
                Ok(Some(5.0)),
            ),
            (
                Bounded(20.0),
                WA,
                Some(credit(ScoreTxt, 1.0)),
                Err(CreditError::OnRejected { from: ScoreTxt }),
            ),
            (
                Unbounded,
                AC,
                Some(credit(ScoreTxt, 1234.0)),
                Ok(Some(1234.0)),
            ),
            (Unbounded, AC, None, Err(CreditError::MissingScore)),
            (Unbounded, WA, None, Ok(Some(0.0))),
            (
                Unbounded,
                AC,
                Some(credit(Multiplier, 0.5)),
                Err(CreditError::MultiplierUnbounded),
            ),
            (
                Kattis {
                    accept: 50.0,
                    reject: 0.0,
                },
                AC,
                None,
                Ok(Some(50.0)),
            ),
            (
                Kattis {
                    accept: 50.0,
                    reject: -1.0,
                },
                WA,
                None,
                Ok(Some(-1.0)),
            ),
            (
                Kattis {
                    accept: 50.0,
                    reject: 0.0,
                },
                AC,
                Some(credit(ScoreTxt, -7.0)),
                Ok(Some(-7.0)),
            ),
            (
                Kattis {
                    accept: 50.0,
                    reject: 0.0,
                },
                WA,
                Some(credit(ScoreTxt, 7.0)),
                Err(CreditError::OnRejected { from: ScoreTxt }),
            ),
            (
                Kattis {
                    accept: 1.0,
                    reject: 0.0,
                },
                AC,
                Some(credit(Multiplier, 0.5)),
                Err(CreditError::MultiplierInLegacy),
            ),
        ];
        for (value, verdict, credit, expected) in rows {
            let case = CaseRule::new("c", value);
            let outcome = CaseOutcome { verdict, credit };
            assert_eq!(
                case.score(&outcome),
                expected,
                "{value:?} {verdict} {credit:?}"
            );
        }
    }

    fn case(name: &str) -> Item {
        Item::Case(CaseRule::new(name, CaseValue::Bounded(10.0)))
    }

    fn group(name: &str, depends_on: &[&str], items: Vec<Item>) -> Item {
        let mut group = Group::new(name, Rule::Min, Some(10.0), items);
        group.depends_on = depends_on.iter().map(ToString::to_string).collect();
        Item::Group(group)
    }

    fn tree(items: Vec<Item>) -> Result<Scoring, ScoringError> {
        Scoring::new(Group::new("", Rule::Sum, Some(30.0), items))
    }

    #[test]
    fn the_tree_is_checked() {
        let kinds = |items| tree(items).map(|_| ()).map_err(|e| e.kind);
        assert_eq!(
            kinds(vec![
                group("a", &[], vec![case("1")]),
                group("b", &["a"], vec![case("2")])
            ]),
            Ok(())
        );
        assert_eq!(
            kinds(vec![
                group("a", &[], vec![case("1")]),
                group("a", &[], vec![case("2")])
            ]),
            Err(ScoringErrorKind::DuplicateGroup { name: "a".into() })
        );
        assert_eq!(
            kinds(vec![
                group("a", &[], vec![case("1")]),
                group("b", &[], vec![case("1")])
            ]),
            Err(ScoringErrorKind::DuplicateCase { case: "1".into() })
        );
        assert_eq!(
            kinds(vec![
                group("a", &[], vec![case("1")]),
                group("b", &["c"], vec![case("2")])
            ]),
            Err(ScoringErrorKind::UnknownDependency {
                group: "b".into(),
                dependency: "c".into(),
                known: vec!["a".into(), "b".into()],
            })
        );
        assert_eq!(
            kinds(vec![group("a", &["a"], vec![case("1")])]),
            Err(ScoringErrorKind::CircularDependency {
                cycle: vec!["a".into(), "a".into()]
            })
        );
        assert_eq!(
            kinds(vec![
                group("a", &["c"], vec![case("1")]),
                group("b", &["a"], vec![case("2")]),
                group("c", &["b"], vec![case("3")]),
            ]),
            Err(ScoringErrorKind::CircularDependency {
                cycle: vec!["a".into(), "c".into(), "b".into(), "a".into()]
            })
        );
        assert_eq!(
            kinds(vec![
                group("a", &["b"], vec![case("1")]),
                group("b", &[], vec![case("2")])
            ]),
            Err(ScoringErrorKind::DependsOnLater {
                group: "a".into(),
                dependency: "b".into()
            })
        );
        assert_eq!(
            kinds(vec![group(
                "a",
                &[],
                vec![group("a/x", &["a"], vec![case("1")])]
            )]),
            Err(ScoringErrorKind::DependsOnItsOwnTree {
                group: "a/x".into(),
                dependency: "a".into(),
                contains: false,
            })
        );
        assert_eq!(
            kinds(vec![group(
                "a",
                &["a/x"],
                vec![group("a/x", &[], vec![case("1")])]
            )]),
            Err(ScoringErrorKind::DependsOnItsOwnTree {
                group: "a".into(),
                dependency: "a/x".into(),
                contains: true,
            })
        );
    }

    #[test]
    fn maxima_are_finite() {
        let error = |root: Group| Scoring::new(root).map(|_| ()).map_err(|e| e.kind);
        let huge = Item::Case(CaseRule::new("1", CaseValue::Bounded(f64::INFINITY)));
        assert_eq!(
            error(Group::new("", Rule::Sum, None, vec![huge])),
            Err(ScoringErrorKind::NotFinite {
                what: "case `1`".into()
            })
        );
        // Two cases of 1e308 each: a total past the largest float.
        let sum = 1e308 + 1e308;
        assert_eq!(
            error(Group::new("", Rule::Sum, Some(sum), vec![case("1")])),
            Err(ScoringErrorKind::NotFinite {
                what: "the total".into()
            })
        );
        let message = ScoringErrorKind::NotFinite {
            what: "the total".into(),
        }
        .to_string();
        assert!(message.contains("past 1.797693e308"), "{message}");
    }

    #[test]
    fn cycles_are_named_in_the_message() {
        let error = tree(vec![
            group("a", &["b"], vec![case("1")]),
            group("b", &["a"], vec![case("2")]),
        ])
        .unwrap_err();
        assert_eq!(error.to_string(), "circular dependency: `a` → `b` → `a`");
    }

    #[test]
    fn lookups_by_name() {
        let scoring = tree(vec![
            case("s"),
            group(
                "a",
                &[],
                vec![case("1"), group("a/x", &[], vec![case("2")])],
            ),
        ])
        .unwrap();
        let names: Vec<&str> = scoring.cases().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["s", "1", "2"]);
        assert_eq!(scoring.case("2").map(|c| c.name.as_str()), Some("2"));
        assert!(scoring.case("a").is_none());
        assert_eq!(scoring.group("a/x").map(|g| g.name.as_str()), Some("a/x"));
        assert_eq!(scoring.group("").map(|g| g.name.as_str()), Some(""));
        let holding: Vec<&str> = scoring
            .groups_holding("2")
            .iter()
            .map(|g| g.name.as_str())
            .collect();
        assert_eq!(holding, ["", "a", "a/x"]);
        let above: Vec<&str> = scoring
            .ancestors("a/x")
            .iter()
            .map(|g| g.name.as_str())
            .collect();
        assert_eq!(above, ["", "a"]);
        assert!(scoring.is_scored());
        assert!(!Scoring::pass_fail(["1", "2"]).unwrap().is_scored());
    }
}
