//! The aggregation: a pure function from a problem's scoring and its cases' outcomes to the
//! score of every group and of the submission, each group's verdict and first failing case;
//! and, while a submission is being judged, whether a case is still needed (a group that stops
//! at its first failure, or whose dependency failed, needs no more of its cases).

use std::collections::HashMap;

use super::grading::{grade, GroupGrader, KattisGrading, OnReject, VerdictMode};
use super::model::{CaseOutcome, CaseRule, CaseValue, Group, Item, Outcomes, Rule, Scoring};
use super::number::{at_most, format_score};
use crate::verdict::credit::CreditError;
use crate::verdict::Verdict;

/// A submission's scores: the total and every group's.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreSheet {
    /// The submission's score; `None` for a pass-fail problem.
    pub score: Option<f64>,
    /// The most it could score; `None` for a pass-fail problem or an unbounded one.
    pub max_score: Option<f64>,
    /// The submission's verdict by the scoring's rules: JE when a group broke its own bounds
    /// (see [`ScoreSheet::faults`]).
    pub verdict: Verdict,
    /// The case that decided a verdict other than AC.
    pub first_failure: Option<String>,
    /// Every group but the top one, parents before their children.
    pub groups: Vec<GroupScore>,
    /// Every case whose outcome counted, in judge order.
    pub cases: Vec<CaseScore>,
    /// What the package or the checker got wrong in scoring (a group over its maximum or out
    /// of its range): judge errors, each naming the group.
    pub faults: Vec<String>,
}

/// Why a group has the result it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupState {
    /// Its items were judged.
    Judged,
    /// Not judged: the group it depends on (directly, or through a group holding it) did not
    /// pass. It scores 0.
    Blocked {
        /// The dependency that failed.
        by: String,
    },
    /// Not judged: the group holding it stopped at an earlier failure.
    NotReached,
    /// It has no case (a Kattis folder without cases does not count).
    Empty,
}

/// One group's result.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupScore {
    /// Its name.
    pub name: String,
    /// How deep it is: 0 for a group of the top group.
    pub depth: usize,
    /// What it scored; `None` for no score, or when it was not judged.
    pub score: Option<f64>,
    /// The most it can score.
    pub max_score: Option<f64>,
    /// Its verdict; `None` when it was not judged.
    pub verdict: Option<Verdict>,
    /// The case that decided a verdict other than AC.
    pub first_failure: Option<String>,
    /// Judged or why not.
    pub state: GroupState,
    /// A judge error in its scoring (over its maximum, out of its range).
    pub fault: Option<String>,
}

/// One case's part in the score.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseScore {
    /// Its name.
    pub name: String,
    /// Its verdict: JE when the checker's credit could not be used.
    pub verdict: Verdict,
    /// What it scored; `None` for a case with no score of its own.
    pub score: Option<f64>,
    /// What it is worth.
    pub max_score: Option<f64>,
    /// Why its credit could not be used.
    pub error: Option<CreditError>,
}

/// A case the score needs, with no outcome (the judge did not run it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no outcome for case `{case}`, which the score needs (hint: judge every case to get a score)"
)]
pub struct MissingOutcome {
    /// The case.
    pub case: String,
}

/// A failing case and its verdict.
type Failure = Option<(Verdict, String)>;

/// What an item hands up to its group.
#[derive(Debug, Clone)]
struct Eval {
    /// Its verdict; `None` when it was not judged.
    verdict: Option<Verdict>,
    /// The case behind a verdict other than AC (for a group not judged: the failure that
    /// kept it from being judged).
    failure: Failure,
    /// Its score.
    score: Option<f64>,
    /// Every case in it accepted: what a dependency on it asks.
    passed: bool,
}

impl ScoreSheet {
    /// The total's own fault (over its maximum, out of its range, not a finite number), which
    /// no group's line shows: recorded last, after every group's.
    pub fn total_fault(&self) -> Option<&str> {
        let in_groups = self.groups.iter().filter(|g| g.fault.is_some()).count();
        (self.faults.len() > in_groups)
            .then(|| self.faults.last().map(String::as_str))
            .flatten()
    }
}

impl Scoring {
    /// The scores of a submission with these outcomes. Every case the rules need must have
    /// one: a case after a group's first failure, or in a group whose dependency failed, is not
    /// needed (and is not read even if given, as problemtools reads no result after an
    /// `on_reject: break`).
    pub fn aggregate(&self, outcomes: &Outcomes) -> Result<ScoreSheet, MissingOutcome> {
        let mut run = Evaluation::new(outcomes, self.grader());
        let root = self.root();
        let top = run.group(root, 0)?;
        let top = top.unwrap_or(Eval {
            verdict: Some(Verdict::Accepted),
            failure: None,
            score: self.is_scored().then_some(0.0),
            passed: true,
        });
        let mut verdict = top.verdict.unwrap_or(Verdict::JudgeError);
        let mut first_failure = top.failure.map(|(_, case)| case);
        if !run.faults.is_empty() {
            verdict = Verdict::JudgeError;
            first_failure = None;
        }
        Ok(ScoreSheet {
            score: top.score,
            max_score: root.max_score,
            verdict,
            first_failure,
            groups: run.groups,
            cases: run.cases,
            faults: run.faults,
        })
    }

    /// Whether the judge still needs `case`'s outcome, given those known so far: false when a
    /// group holding it has already stopped at an earlier failure (a group that
    /// [stops at its first failure](Group::stops_at_first_failure)) or a dependency of one has
    /// already failed. Never false for a case the score needs; it may be true for one that
    /// turns out not to matter, while what decides it is still running.
    pub fn needs(&self, case: &str, known: &Outcomes) -> bool {
        let Some(path) = self.case_path(case) else {
            return true;
        };
        let path = path.to_vec();
        let mut check = Check {
            scoring: self,
            known,
            failed: HashMap::new(),
        };
        let chain = self.groups_holding(case);
        for (group, &index) in chain.iter().zip(&path) {
            if group
                .depends_on
                .iter()
                .any(|d| check.dependency_failed(d, 0))
            {
                return false;
            }
            for item in &group.items[..index] {
                if group.stops_after(item) && check.item_failed(item, 0) {
                    return false;
                }
            }
        }
        true
    }
}

struct Evaluation<'a> {
    outcomes: &'a Outcomes,
    /// The package's grader, for groups graded `custom`.
    grader: Option<&'a dyn GroupGrader>,
    /// Why the package's grader failed on the group just graded: its fault, taken by it.
    grader_fault: Option<String>,
    groups: Vec<GroupScore>,
    cases: Vec<CaseScore>,
    faults: Vec<String>,
    /// The groups evaluated so far: whether every case passed, and the failure if not.
    done: HashMap<String, (bool, Failure)>,
}

impl<'a> Evaluation<'a> {
    fn new(outcomes: &'a Outcomes, grader: Option<&'a dyn GroupGrader>) -> Self {
        Evaluation {
            outcomes,
            grader,
            grader_fault: None,
            groups: Vec::new(),
            cases: Vec::new(),
            faults: Vec::new(),
            done: HashMap::new(),
        }
    }

    /// Records a group of the sheet, not judged (yet): `state` says why.
    fn push_group(&mut self, group: &Group, depth: usize, state: GroupState) {
        self.groups.push(GroupScore {
            name: group.name.clone(),
            depth: depth.saturating_sub(1),
            score: None,
            max_score: group.max_score,
            verdict: None,
            first_failure: None,
            state,
            fault: None,
        });
    }

    fn case(&mut self, case: &CaseRule) -> Result<Eval, MissingOutcome> {
        let outcome: CaseOutcome =
            *self
                .outcomes
                .get(&case.name)
                .ok_or_else(|| MissingOutcome {
                    case: case.name.clone(),
                })?;
        let (verdict, score, error) = match case.score(&outcome) {
            Ok(score) => (outcome.verdict, score, None),
            Err(error) => {
                // The checker's credit is unusable: the case is the judge's error, and scores
                // what a case not accepted scores.
                let score = match case.value {
                    CaseValue::Kattis { reject, .. } => Some(reject),
                    CaseValue::VerdictOnly => None,
                    _ => Some(0.0),
                };
                (Verdict::JudgeError, score, Some(error))
            }
        };
        self.cases.push(CaseScore {
            name: case.name.clone(),
            verdict,
            score,
            max_score: case.max_score(),
            error,
        });
        let passed = verdict.is_accepted();
        Ok(Eval {
            verdict: Some(verdict),
            failure: (!passed).then(|| (verdict, case.name.clone())),
            score,
            passed,
        })
    }

    /// A group's result, recorded in the sheet (the top group at depth 0 is not). `None` for a
    /// Kattis group without cases, which does not count.
    fn group(&mut self, group: &Group, depth: usize) -> Result<Option<Eval>, MissingOutcome> {
        let top = depth == 0 && group.name.is_empty();
        let slot = self.groups.len();
        if !top {
            self.push_group(group, depth, GroupState::Judged);
        }
        let blocker = group.depends_on.iter().find_map(|dependency| {
            match self.done.get(dependency) {
                Some((true, _)) => None,
                Some((false, failure)) => Some((dependency.clone(), failure.clone())),
                // Checked to come earlier, so evaluated; a group never evaluated did not pass.
                None => Some((dependency.clone(), None)),
            }
        });
        if let Some((by, failure)) = blocker {
            let score = (group.rule != Rule::Verdict).then_some(0.0);
            if !top {
                let entry = &mut self.groups[slot];
                entry.score = score;
                entry.state = GroupState::Blocked { by: by.clone() };
            }
            self.skip_inside(group, depth, &GroupState::Blocked { by }, &failure);
            self.done
                .insert(group.name.clone(), (false, failure.clone()));
            return Ok(Some(Eval {
                verdict: None,
                failure,
                score,
                passed: false,
            }));
        }
        let eval = match &group.rule {
            Rule::Kattis(_) => self.kattis_items(group, depth)?,
            _ => Some(self.items(group, depth)?),
        };
        let Some(mut eval) = eval else {
            if !top {
                let entry = &mut self.groups[slot];
                entry.state = GroupState::Empty;
                entry.verdict = Some(Verdict::Accepted);
            }
            self.done.insert(group.name.clone(), (true, None));
            return Ok(None);
        };
        let fault = self
            .grader_fault
            .take()
            .or_else(|| self.fault(group, eval.score));
        if let Some(fault) = &fault {
            self.faults.push(fault.clone());
            eval.passed = false;
        }
        // A sum of finite scores may overflow (two cases of 1e308): no score, and never one
        // that a report or a parent group could not use. It scores what a judge error does.
        if eval.score.is_some_and(|s| !s.is_finite()) {
            eval.score = Some(0.0);
        }
        if !top {
            let entry = &mut self.groups[slot];
            entry.score = eval.score;
            entry.verdict = eval.verdict;
            entry.first_failure = eval.failure.as_ref().map(|(_, case)| case.clone());
            entry.fault = fault;
        }
        self.done
            .insert(group.name.clone(), (eval.passed, eval.failure.clone()));
        Ok(Some(eval))
    }

    /// A score over the group's maximum, or out of its Kattis range, or not a finite number:
    /// the package's or its checker's fault.
    fn fault(&self, group: &Group, score: Option<f64>) -> Option<String> {
        let score = score?;
        let name = if group.name.is_empty() {
            "the total".to_string()
        } else {
            format!("group `{}`", group.name)
        };
        if !score.is_finite() {
            return Some(format!(
                "{name} has no score: its parts' scores add up to more than a number holds ({}), which no checker should give",
                format_score(f64::MAX)
            ));
        }
        if let Rule::Kattis(grading) = &group.rule {
            let (lo, hi) = grading.range;
            if !(at_most(lo, score) && at_most(score, hi)) {
                return Some(format!(
                    "{name} scored {}, outside its range {} {}",
                    format_score(score),
                    format_score(lo),
                    format_score(hi)
                ));
            }
            return None;
        }
        let max = group.max_score?;
        (!at_most(score, max)).then(|| {
            format!(
                "{name} scored {}, more than its maximum {}",
                format_score(score),
                format_score(max)
            )
        })
    }

    /// Items combined by an all-or-nothing, sum, min or verdict-only rule.
    fn items(&mut self, group: &Group, depth: usize) -> Result<Eval, MissingOutcome> {
        let mut stopped: Option<Failure> = None;
        let mut first_failure: Failure = None;
        let mut judge_error: Failure = None;
        let mut passed = true;
        let mut scores = Vec::new();
        for item in &group.items {
            if let Some(failure) = &stopped {
                self.skip(item, depth + 1, &GroupState::NotReached, failure);
                passed = false;
                continue;
            }
            let Some(eval) = self.item(item, depth + 1)? else {
                continue;
            };
            scores.push(eval.score.unwrap_or(0.0));
            if eval.passed {
                continue;
            }
            passed = false;
            if first_failure.is_none() {
                first_failure.clone_from(&eval.failure);
            }
            if judge_error.is_none() && matches!(eval.failure, Some((Verdict::JudgeError, _))) {
                judge_error.clone_from(&eval.failure);
            }
            if group.stops_after(item) {
                stopped = Some(eval.failure.clone());
            }
        }
        let failure = judge_error.or(first_failure);
        let verdict = match (&failure, passed) {
            (Some((verdict, _)), _) => *verdict,
            (None, true) => Verdict::Accepted,
            // Failed without a known case: only a group whose dependency was never evaluated,
            // which the checks on the tree rule out.
            (None, false) => Verdict::JudgeError,
        };
        let score = match group.rule {
            Rule::Verdict | Rule::Kattis(_) => None,
            Rule::AllOrNothing => Some(if passed {
                group.max_score.unwrap_or(0.0)
            } else {
                0.0
            }),
            Rule::Sum => Some(scores.iter().sum()),
            Rule::Min => Some(if scores.is_empty() {
                0.0
            } else {
                scores.iter().copied().fold(f64::INFINITY, f64::min)
            }),
        };
        Ok(Eval {
            verdict: Some(verdict),
            failure,
            score,
            passed,
        })
    }

    /// Items graded by problemtools' default grader, reading no result after a break. `None`
    /// when no item counts (no case in it).
    fn kattis_items(
        &mut self,
        group: &Group,
        depth: usize,
    ) -> Result<Option<Eval>, MissingOutcome> {
        let Rule::Kattis(grading) = &group.rule else {
            return Ok(None);
        };
        let mut results: Vec<Eval> = Vec::new();
        let mut stopped: Option<Failure> = None;
        for item in &group.items {
            if let Some(failure) = &stopped {
                self.skip(item, depth + 1, &GroupState::NotReached, failure);
                continue;
            }
            let Some(eval) = self.item(item, depth + 1)? else {
                continue;
            };
            let accepted = eval.verdict == Some(Verdict::Accepted);
            results.push(eval);
            if !accepted && grading.on_reject == OnReject::Break {
                stopped = Some(results.last().and_then(|e| e.failure.clone()));
            }
        }
        if results.is_empty() {
            return Ok(None);
        }
        let passed = stopped.is_none() && results.iter().all(|e| e.passed);
        // A judge error is passed up as it is, before any grader sees it.
        if let Some(error) = results
            .iter()
            .find(|e| e.verdict == Some(Verdict::JudgeError))
        {
            return Ok(Some(Eval {
                passed: false,
                ..error.clone()
            }));
        }
        let graded: Vec<(Verdict, f64)> = results
            .iter()
            .map(|e| {
                (
                    e.verdict.unwrap_or(Verdict::JudgeError),
                    e.score.unwrap_or(0.0),
                )
            })
            .collect();
        let (verdict, score) = match self.graded(group, grading, &graded) {
            Ok(graded) => graded,
            Err(fault) => {
                self.grader_fault = Some(fault);
                return Ok(Some(Eval {
                    verdict: Some(Verdict::JudgeError),
                    failure: None,
                    score: Some(0.0),
                    passed: false,
                }));
            }
        };
        let failure = if verdict.is_accepted() {
            None
        } else {
            // The grader does not say which item decided; the first with its verdict did.
            results
                .iter()
                .find(|e| e.verdict == Some(verdict))
                .and_then(|e| e.failure.clone())
                .or_else(|| results.iter().find_map(|e| e.failure.clone()))
        };
        Ok(Some(Eval {
            verdict: Some(verdict),
            failure,
            score: Some(score),
            passed,
        }))
    }

    /// A Kattis group's results graded: by the default grader, or by the package's own,
    /// whose failure is the group's judge error (the reason, naming the group).
    fn graded(
        &self,
        group: &Group,
        grading: &KattisGrading,
        results: &[(Verdict, f64)],
    ) -> Result<(Verdict, f64), String> {
        let Some(flags) = &grading.custom else {
            return Ok(grade(grading, results));
        };
        let name = if group.name.is_empty() {
            "`data/`".to_string()
        } else {
            format!("group `{}`", group.name)
        };
        let grader = self.grader.ok_or_else(|| {
            format!("{name} is graded by a custom grader (`grading: custom`), and the package has none (hint: its program goes in `graders/`)")
        })?;
        grader
            .grade(flags, results)
            .map_err(|why| format!("the custom grader failed on {name}: {why}"))
    }

    fn item(&mut self, item: &Item, depth: usize) -> Result<Option<Eval>, MissingOutcome> {
        match item {
            Item::Case(case) => self.case(case).map(Some),
            Item::Group(group) => self.group(group, depth),
        }
    }

    /// Records an item that was not judged (and everything in it), and that it did not pass.
    fn skip(&mut self, item: &Item, depth: usize, state: &GroupState, failure: &Failure) {
        if let Item::Group(group) = item {
            self.push_group(group, depth, state.clone());
            self.done
                .insert(group.name.clone(), (false, failure.clone()));
            self.skip_inside(group, depth, state, failure);
        }
    }

    fn skip_inside(&mut self, group: &Group, depth: usize, state: &GroupState, failure: &Failure) {
        for item in &group.items {
            self.skip(item, depth + 1, state, failure);
        }
    }
}

/// What is already certain from the outcomes known while judging, for [`Scoring::needs`]:
/// "failed" only when no outcome still to come can change it.
struct Check<'a> {
    scoring: &'a Scoring,
    known: &'a Outcomes,
    failed: HashMap<String, bool>,
}

/// Deeper than any checked tree goes: a bound on the recursion through dependencies, so that
/// even an unchecked tree cannot loop.
const DEPTH: usize = 256;

impl Check<'_> {
    fn item_failed(&mut self, item: &Item, depth: usize) -> bool {
        match item {
            Item::Case(case) => self.case_failed(case),
            Item::Group(group) => self.group_failed(group, depth + 1),
        }
    }

    fn case_failed(&self, case: &CaseRule) -> bool {
        self.known
            .get(&case.name)
            .is_some_and(|outcome| !outcome.verdict.is_accepted() || case.score(outcome).is_err())
    }

    fn group_failed(&mut self, group: &Group, depth: usize) -> bool {
        if depth > DEPTH {
            return false;
        }
        if let Some(&failed) = self.failed.get(&group.name) {
            return failed;
        }
        let failed = match &group.rule {
            Rule::Kattis(grading) => {
                if group.cases().iter().any(|c| self.case_judge_error(c)) {
                    true
                } else if grading.custom.is_some() {
                    // Only the package's grader tells, once every result is in.
                    false
                } else if grading.verdict == VerdictMode::AlwaysAccept && !grading.ignore_sample {
                    false
                } else if grading.accept_if_any_accepted || grading.ignore_sample {
                    // Whether it fails depends on items after a failure: only its whole result
                    // tells.
                    let mut run = Evaluation::new(self.known, None);
                    matches!(run.kattis_items(group, 1), Ok(Some(eval)) if eval.verdict != Some(Verdict::Accepted))
                } else {
                    group.items.iter().any(|item| self.item_failed(item, depth))
                }
            }
            _ => {
                group
                    .depends_on
                    .iter()
                    .any(|d| self.dependency_failed(d, depth))
                    || group.items.iter().any(|item| self.item_failed(item, depth))
            }
        };
        self.failed.insert(group.name.clone(), failed);
        failed
    }

    fn case_judge_error(&self, case: &CaseRule) -> bool {
        self.known.get(&case.name).is_some_and(|outcome| {
            outcome.verdict == Verdict::JudgeError || case.score(outcome).is_err()
        })
    }

    /// Whether the group `name` has surely not passed: a case of it failed, or it (or a group
    /// holding it) is blocked by a dependency that surely failed.
    fn dependency_failed(&mut self, name: &str, depth: usize) -> bool {
        if depth > DEPTH {
            return false;
        }
        let scoring = self.scoring;
        let Some(group) = scoring.group(name) else {
            return false;
        };
        if self.group_failed(group, depth + 1) {
            return true;
        }
        scoring.ancestors(name).iter().any(|above| {
            above
                .depends_on
                .iter()
                .any(|d| self.dependency_failed(d, depth + 1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::kattis::{kattis_legacy, KattisFolder, KattisItem};
    use crate::score::number::format_score;
    use crate::verdict::credit::{Credit, CreditSource};
    use Verdict::{
        Accepted as AC, JudgeError as JE, RuntimeError as RTE, TimeLimitExceeded as TLE,
        WrongAnswer as WA,
    };

    fn bounded(name: &str, max: f64) -> Item {
        Item::Case(CaseRule::new(name, CaseValue::Bounded(max)))
    }

    fn verdict_only(name: &str) -> Item {
        Item::Case(CaseRule::new(name, CaseValue::VerdictOnly))
    }

    fn sample(name: &str) -> Item {
        Item::Case(CaseRule::new(name, CaseValue::Nothing))
    }

    fn group(name: &str, rule: Rule, max: f64, depends_on: &[&str], items: Vec<Item>) -> Item {
        let mut group = Group::new(name, rule, Some(max), items);
        group.depends_on = depends_on.iter().map(ToString::to_string).collect();
        Item::Group(group)
    }

    /// A subtask problem: a sample, `a` (min, 30: three cases worth 30 each), `b` (sum, 40:
    /// four cases worth 10), `c` (all or nothing, 30, needs `a`).
    fn subtasks() -> Scoring {
        let root = Group::new(
            "",
            Rule::Sum,
            Some(100.0),
            vec![
                sample("s1"),
                group(
                    "a",
                    Rule::Min,
                    30.0,
                    &[],
                    (1..=3).map(|i| bounded(&format!("a{i}"), 30.0)).collect(),
                ),
                group(
                    "b",
                    Rule::Sum,
                    40.0,
                    &[],
                    (1..=4).map(|i| bounded(&format!("b{i}"), 10.0)).collect(),
                ),
                group(
                    "c",
                    Rule::AllOrNothing,
                    30.0,
                    &["a"],
                    (1..=2).map(|i| verdict_only(&format!("c{i}"))).collect(),
                ),
            ],
        );
        Scoring::new(root).unwrap()
    }

    fn all_cases(scoring: &Scoring) -> Vec<String> {
        scoring.cases().iter().map(|c| c.name.clone()).collect()
    }

    /// Every case AC except those listed.
    fn outcomes(scoring: &Scoring, changes: &[(&str, CaseOutcome)]) -> Outcomes {
        scoring.accepted_but(changes)
    }

    /// The sheet a judge gets that runs, in order, only the cases [`Scoring::needs`] asks for:
    /// it must be the sheet of every outcome.
    fn assert_needs_suffice(scoring: &Scoring, all: &Outcomes, what: &str) {
        let (known, _) = scoring.judged_as_needed(all);
        assert_eq!(scoring.aggregate(&known), scoring.aggregate(all), "{what}");
    }

    fn v(verdict: Verdict) -> CaseOutcome {
        CaseOutcome::new(verdict)
    }

    fn points(verdict: Verdict, value: f64) -> CaseOutcome {
        CaseOutcome::with_credit(
            verdict,
            Credit {
                source: CreditSource::Testlib,
                value,
            },
        )
    }

    fn multiplier(value: f64) -> CaseOutcome {
        CaseOutcome::with_credit(
            AC,
            Credit {
                source: CreditSource::ScoreMultiplierTxt,
                value,
            },
        )
    }

    /// The sheet in one line: `total verdict first-failure | group score verdict failure …`.
    fn line(sheet: &ScoreSheet) -> String {
        let score = |s: Option<f64>| s.map_or("-".to_string(), format_score);
        let mut text = format!(
            "{} {} {}",
            score(sheet.score),
            sheet.verdict,
            sheet.first_failure.as_deref().unwrap_or("-")
        );
        for group in &sheet.groups {
            let state = match &group.state {
                GroupState::Judged => String::new(),
                GroupState::Blocked { by } => format!(" blocked-by-{by}"),
                GroupState::NotReached => " not-reached".to_string(),
                GroupState::Empty => " empty".to_string(),
            };
            text += &format!(
                " | {} {} {} {}{state}",
                group.name,
                score(group.score),
                group.verdict.map_or("-".to_string(), |v| v.to_string()),
                group.first_failure.as_deref().unwrap_or("-"),
            );
        }
        text
    }

    /// What is tried, the outcomes that are not AC, and the sheet's [`line`].
    type Row<'a> = (&'a str, Vec<(&'a str, CaseOutcome)>, &'a str);
    /// The same, on one of several scorings.
    type KattisRow<'a> = (&'a str, &'a Scoring, Vec<(&'a str, CaseOutcome)>, &'a str);

    #[test]
    fn subtask_table() {
        let scoring = subtasks();
        let rows: Vec<Row> = vec![
            (
                "all pass",
                vec![],
                "100 AC - | a 30 AC - | b 40 AC - | c 30 AC -",
            ),
            (
                "a sample fails: no points lost",
                vec![("s1", v(WA))],
                "100 WA s1 | a 30 AC - | b 40 AC - | c 30 AC -",
            ),
            (
                "min group fails first",
                vec![("a1", v(WA))],
                "40 WA a1 | a 0 WA a1 | b 40 AC - | c 0 - - blocked-by-a",
            ),
            (
                "min group fails last",
                vec![("a3", v(TLE))],
                "40 TLE a3 | a 0 TLE a3 | b 40 AC - | c 0 - - blocked-by-a",
            ),
            (
                "sum group loses a share",
                vec![("b2", v(WA)), ("b4", v(RTE))],
                "80 WA b2 | a 30 AC - | b 20 WA b2 | c 30 AC -",
            ),
            (
                "all-or-nothing fails last",
                vec![("c2", v(WA))],
                "70 WA c2 | a 30 AC - | b 40 AC - | c 0 WA c2",
            ),
            (
                "partial points in min: the least counts",
                vec![("a1", points(AC, 20.0)), ("a2", points(AC, 12.5))],
                "82.5 AC - | a 12.5 AC - | b 40 AC - | c 30 AC -",
            ),
            (
                "a fraction in sum",
                vec![("b1", multiplier(0.5))],
                "95 AC - | a 30 AC - | b 35 AC - | c 30 AC -",
            ),
            (
                "a credit over the maximum is a judge error",
                vec![("b1", points(AC, 11.0))],
                "90 JE b1 | a 30 AC - | b 30 JE b1 | c 30 AC -",
            ),
            (
                "a judge error outranks an earlier failure",
                vec![("b1", v(WA)), ("b3", v(JE))],
                "80 JE b3 | a 30 AC - | b 20 JE b3 | c 30 AC -",
            ),
            (
                "a credit in an all-or-nothing group",
                vec![("c1", points(AC, 1.0))],
                "70 JE c1 | a 30 AC - | b 40 AC - | c 0 JE c1",
            ),
            (
                "a credit on a rejected case",
                vec![("b1", points(WA, 1.0))],
                "90 JE b1 | a 30 AC - | b 30 JE b1 | c 30 AC -",
            ),
            (
                "a sample's credit is ignored",
                vec![("s1", points(AC, 50.0))],
                "100 AC - | a 30 AC - | b 40 AC - | c 30 AC -",
            ),
        ];
        for (what, changes, expected) in rows {
            let all = outcomes(&scoring, &changes);
            let sheet = scoring.aggregate(&all).unwrap();
            assert_eq!(line(&sheet), expected, "{what}");
            assert_needs_suffice(&scoring, &all, what);
            assert_eq!(sheet.max_score, Some(100.0), "{what}");
        }
    }

    #[test]
    fn a_stopped_group_reads_no_later_case() {
        let scoring = subtasks();
        let mut known = outcomes(&scoring, &[("a1", v(WA))]);
        // a2, a3 and c's cases were never run: the score does not need them.
        let mut sparse = Outcomes::new();
        for name in ["s1", "a1", "b1", "b2", "b3", "b4"] {
            sparse.insert(name, *known.get(name).unwrap());
        }
        let full = scoring.aggregate(&known).unwrap();
        assert_eq!(scoring.aggregate(&sparse).unwrap(), full);
        // A case it does need, missing, is an error naming it.
        known = sparse.clone();
        let mut without_b3 = Outcomes::new();
        for name in ["s1", "a1", "b1", "b2", "b4"] {
            without_b3.insert(name, *known.get(name).unwrap());
        }
        assert_eq!(
            scoring.aggregate(&without_b3),
            Err(MissingOutcome { case: "b3".into() })
        );
    }

    #[test]
    fn cases_are_needed_until_their_group_stops() {
        let scoring = subtasks();
        let mut known = Outcomes::new();
        let all = all_cases(&scoring);
        assert!(all.iter().all(|c| scoring.needs(c, &known)));
        known.insert("a2", v(WA));
        // `a` is a min group: a2 failed, a3 is not needed; a1, before it, still is (it may be
        // the first failure); `c` needs `a`, which failed.
        let needed: Vec<&str> = all
            .iter()
            .map(String::as_str)
            .filter(|c| scoring.needs(c, &known))
            .collect();
        assert_eq!(needed, ["s1", "a1", "a2", "b1", "b2", "b3", "b4"]);
        // A sum group needs every case, whatever failed in it.
        known.insert("b1", v(WA));
        assert!(scoring.needs("b4", &known));
        // An accepted case with a credit it cannot take is a failure too.
        let mut known = Outcomes::new();
        known.insert("a1", points(AC, 99.0));
        assert!(!scoring.needs("a2", &known));
        assert!(!scoring.needs("c1", &known));
        assert!(scoring.needs("b1", &known));
        assert!(Group::new("", Rule::Min, None, vec![]).stops_at_first_failure());
        assert!(!Group::new("", Rule::Sum, None, vec![]).stops_at_first_failure());
    }

    #[test]
    fn dependencies_are_transitive_and_through_holding_groups() {
        let root = Group::new(
            "",
            Rule::Sum,
            Some(60.0),
            vec![
                group(
                    "sample",
                    Rule::AllOrNothing,
                    0.0,
                    &[],
                    vec![verdict_only("sample/1")],
                ),
                group(
                    "secret",
                    Rule::Sum,
                    60.0,
                    &["sample"],
                    vec![
                        group(
                            "secret/1",
                            Rule::AllOrNothing,
                            20.0,
                            &[],
                            vec![verdict_only("secret/1/a")],
                        ),
                        group(
                            "secret/2",
                            Rule::AllOrNothing,
                            40.0,
                            &["secret/1"],
                            vec![verdict_only("secret/2/a")],
                        ),
                    ],
                ),
            ],
        );
        let scoring = Scoring::new(root).unwrap();
        let sheet = |changes: &[(&str, CaseOutcome)]| {
            line(&scoring.aggregate(&outcomes(&scoring, changes)).unwrap())
        };
        assert_eq!(
            sheet(&[]),
            "60 AC - | sample 0 AC - | secret 60 AC - | secret/1 20 AC - | secret/2 40 AC -"
        );
        assert_eq!(sheet(&[("secret/1/a", v(WA))]), "0 WA secret/1/a | sample 0 AC - | secret 0 WA secret/1/a | secret/1 0 WA secret/1/a | secret/2 0 - - blocked-by-secret/1");
        assert_eq!(
            sheet(&[("sample/1", v(WA))]),
            "0 WA sample/1 | sample 0 WA sample/1 | secret 0 - - blocked-by-sample | secret/1 - - - blocked-by-sample | secret/2 - - - blocked-by-sample"
        );
        let mut known = Outcomes::new();
        known.insert("sample/1", v(TLE));
        assert!(!scoring.needs("secret/2/a", &known));
        assert!(!scoring.needs("secret/1/a", &known));
    }

    #[test]
    fn a_group_over_its_maximum_is_a_fault() {
        // Maxima that the builders would reject: the sum of the cases exceeds the group's.
        let root = Group::new(
            "",
            Rule::Sum,
            Some(10.0),
            vec![group(
                "g",
                Rule::Sum,
                10.0,
                &[],
                vec![bounded("1", 6.0), bounded("2", 6.0)],
            )],
        );
        let scoring = Scoring::new(root).unwrap();
        let sheet = scoring.aggregate(&outcomes(&scoring, &[])).unwrap();
        assert_eq!(sheet.verdict, JE);
        assert_eq!(sheet.score, Some(12.0));
        assert_eq!(
            sheet.faults,
            [
                "group `g` scored 12, more than its maximum 10",
                "the total scored 12, more than its maximum 10"
            ]
        );
        assert_eq!(
            sheet.groups[0].fault.as_deref(),
            Some("group `g` scored 12, more than its maximum 10")
        );
        // Float noise is not a fault: three thirds of 100.
        let third = 100.0 / 3.0;
        let root = Group::new(
            "",
            Rule::Sum,
            Some(100.0),
            vec![
                bounded("1", third),
                bounded("2", third),
                bounded("3", third),
            ],
        );
        let scoring = Scoring::new(root).unwrap();
        let sheet = scoring.aggregate(&outcomes(&scoring, &[])).unwrap();
        assert_eq!((sheet.verdict, sheet.faults.len()), (AC, 0));
    }

    #[test]
    fn scores_that_overflow_are_a_fault_and_no_infinity() {
        let huge = |name: &'static str| (name, points(AC, 1e308));
        let unbounded = |name: &str| Item::Case(CaseRule::new(name, CaseValue::Unbounded));
        // The total itself overflows: a judge error, and a score that is a number.
        let root = Group::new("", Rule::Sum, None, vec![unbounded("1"), unbounded("2")]);
        let scoring = Scoring::new(root).unwrap();
        let sheet = scoring
            .aggregate(&outcomes(&scoring, &[huge("1"), huge("2")]))
            .unwrap();
        assert_eq!((sheet.verdict, sheet.score), (JE, Some(0.0)));
        let fault = sheet.total_fault().unwrap();
        assert!(fault.starts_with("the total has no score"), "{fault}");
        // A group overflows: it scores 0 with its fault, and its parent sums what is left.
        let root = Group::new(
            "",
            Rule::Sum,
            None,
            vec![
                unbounded("0"),
                Item::Group(Group::new(
                    "g",
                    Rule::Sum,
                    None,
                    vec![unbounded("1"), unbounded("2")],
                )),
            ],
        );
        let scoring = Scoring::new(root).unwrap();
        let sheet = scoring
            .aggregate(&outcomes(
                &scoring,
                &[("0", points(AC, 5.0)), huge("1"), huge("2")],
            ))
            .unwrap();
        assert_eq!((sheet.verdict, sheet.score), (JE, Some(5.0)));
        assert_eq!(sheet.groups[0].score, Some(0.0));
        assert!(sheet.groups[0]
            .fault
            .as_deref()
            .unwrap()
            .starts_with("group `g` has no score"));
        assert_eq!(sheet.total_fault(), None);
        // problemtools' grader sums a legacy group the same way.
        let legacy = |name: &str| {
            Item::Case(CaseRule::new(
                name,
                CaseValue::Kattis {
                    accept: 1.0,
                    reject: 0.0,
                },
            ))
        };
        let grading = crate::score::KattisGrading::from_flags(
            "sum",
            OnReject::Continue,
            (0.0, f64::INFINITY),
        )
        .unwrap();
        let root = Group::new(
            "",
            Rule::Kattis(grading),
            None,
            vec![legacy("1"), legacy("2")],
        );
        let scoring = Scoring::new(root).unwrap();
        let sheet = scoring
            .aggregate(&outcomes(&scoring, &[huge("1"), huge("2")]))
            .unwrap();
        assert_eq!((sheet.verdict, sheet.score), (JE, Some(0.0)));
        assert!(sheet.score.is_some_and(f64::is_finite));
    }

    #[test]
    fn a_pass_fail_problem_has_no_score() {
        let scoring = Scoring::pass_fail(["1", "2", "3"]).unwrap();
        let sheet = scoring
            .aggregate(&outcomes(&scoring, &[("2", v(TLE)), ("3", v(WA))]))
            .unwrap();
        assert_eq!(
            (sheet.score, sheet.max_score, sheet.verdict),
            (None, None, TLE)
        );
        assert_eq!(sheet.first_failure.as_deref(), Some("2"));
        // It runs every case, as the judge always has.
        let mut known = Outcomes::new();
        known.insert("1", v(WA));
        assert!(scoring.needs("3", &known));
        // A checker's points in a pass-fail problem are a judge error.
        let sheet = scoring
            .aggregate(&outcomes(&scoring, &[("1", points(AC, 1.0))]))
            .unwrap();
        assert_eq!(sheet.verdict, JE);
        assert_eq!(
            sheet.cases[0].error,
            Some(CreditError::InPassFailGroup {
                from: CreditSource::Testlib
            })
        );
    }

    fn folder(name: &str, config: &str, items: Vec<KattisItem>) -> KattisItem {
        KattisItem::Folder(KattisFolder::for_test(name, config, items))
    }

    fn cases(prefix: &str, count: usize) -> Vec<KattisItem> {
        (1..=count)
            .map(|i| KattisItem::Case(format!("{prefix}/{i}")))
            .collect()
    }

    fn kattis(config: &str, items: Vec<KattisItem>) -> Scoring {
        let KattisItem::Folder(data) = folder("", config, items) else {
            unreachable!()
        };
        kattis_legacy(&data).unwrap()
    }

    /// Kattis legacy: `on_reject` break and continue, scores by `accept_score`, nested groups
    /// with their ranges, worked by hand from problemtools' submission_judge and default grader.
    #[test]
    fn kattis_legacy_table() {
        let scoring = |secret: &str, group: &str| {
            kattis(
                "grader_flags: ignore_sample\non_reject: continue\nrange: 0 100",
                vec![
                    folder(
                        "sample",
                        "accept_score: 0\ngrader_flags: first_error",
                        cases("sample", 2),
                    ),
                    folder(
                        "secret",
                        secret,
                        vec![
                            folder("secret/g1", group, cases("secret/g1", 3)),
                            folder("secret/g2", group, cases("secret/g2", 3)),
                        ],
                    ),
                ],
            )
        };
        let min_break = scoring(
            "grader_flags: sum\non_reject: break\naccept_score: 50",
            "grader_flags: min\non_reject: break",
        );
        // The secret inherits `on_reject: continue` from the top.
        let sum_continue = scoring(
            "grader_flags: sum\naccept_score: 10\nrange: 0 60",
            "on_reject: continue",
        );
        let sum_break = scoring(
            "grader_flags: sum\naccept_score: 10\nrange: 0 60\non_reject: break",
            "on_reject: break",
        );
        let rows: Vec<KattisRow> = vec![
            ("all pass", &min_break, vec![], "100 AC - | sample 0 AC - | secret 100 AC - | secret/g1 50 AC - | secret/g2 50 AC -"),
            // The top group ignores the sample.
            ("sample fails", &min_break, vec![("sample/1", v(WA))], "100 AC - | sample 0 WA sample/1 | secret 100 AC - | secret/g1 50 AC - | secret/g2 50 AC -"),
            // The secret breaks at its first failing group.
            ("g1 fails: secret breaks", &min_break, vec![("secret/g1/2", v(TLE))], "0 TLE secret/g1/2 | sample 0 AC - | secret 0 TLE secret/g1/2 | secret/g1 0 TLE secret/g1/2 | secret/g2 - - - not-reached"),
            ("g2 fails last", &min_break, vec![("secret/g2/3", v(WA))], "50 WA secret/g2/3 | sample 0 AC - | secret 50 WA secret/g2/3 | secret/g1 50 AC - | secret/g2 0 WA secret/g2/3"),
            ("score.txt counts in min", &min_break, vec![("secret/g2/2", CaseOutcome::with_credit(AC, Credit { source: CreditSource::ScoreTxt, value: 12.5 }))], "62.5 AC - | sample 0 AC - | secret 62.5 AC - | secret/g1 50 AC - | secret/g2 12.5 AC -"),
            // continue: every case counts, and worst_error picks RTE over an earlier WA.
            ("continue sums the rest", &sum_continue, vec![("secret/g1/1", v(WA)), ("secret/g1/3", v(RTE))], "40 RE secret/g1/3 | sample 0 AC - | secret 40 RE secret/g1/3 | secret/g1 10 RE secret/g1/3 | secret/g2 30 AC -"),
            ("break stops at the first failure", &sum_break, vec![("secret/g1/1", v(WA)), ("secret/g1/3", v(RTE))], "0 WA secret/g1/1 | sample 0 AC - | secret 0 WA secret/g1/1 | secret/g1 0 WA secret/g1/1 | secret/g2 - - - not-reached"),
            ("break after accepted cases", &sum_break, vec![("secret/g2/2", v(WA))], "40 WA secret/g2/2 | sample 0 AC - | secret 40 WA secret/g2/2 | secret/g1 30 AC - | secret/g2 10 WA secret/g2/2"),
            // A judge error is passed up as it is, with its own score, past every grader.
            ("a judge error goes up as it is", &sum_continue, vec![("secret/g2/1", v(JE))], "0 JE secret/g2/1 | sample 0 AC - | secret 0 JE secret/g2/1 | secret/g1 30 AC - | secret/g2 0 JE secret/g2/1"),
        ];
        for (what, scoring, changes, expected) in rows {
            let all = outcomes(scoring, &changes);
            let sheet = scoring.aggregate(&all).unwrap();
            assert_eq!(line(&sheet), expected, "{what}");
            assert_needs_suffice(scoring, &all, what);
        }
    }

    #[test]
    fn kattis_ranges_and_empty_folders() {
        let scoring = kattis(
            "range: 0 10\non_reject: continue",
            vec![
                folder("sample", "", vec![]),
                folder("secret", "accept_score: 4", cases("secret", 3)),
            ],
        );
        let sheet = scoring.aggregate(&outcomes(&scoring, &[])).unwrap();
        // The empty sample folder does not count; the secret's 12 is over the top's range.
        assert_eq!(
            line(&sheet),
            "12 JE - | sample - AC - empty | secret 12 AC -"
        );
        assert_eq!(
            sheet.groups[1].fault.as_deref(),
            Some("group `secret` scored 12, outside its range 0 10")
        );
        // The secret inherits the range.
        assert_eq!(
            sheet.faults,
            [
                "group `secret` scored 12, outside its range 0 10",
                "the total scored 12, outside its range 0 10"
            ]
        );
        let sheet = scoring
            .aggregate(&outcomes(&scoring, &[("secret/2", v(WA))]))
            .unwrap();
        assert_eq!(
            line(&sheet),
            "8 WA secret/2 | sample - AC - empty | secret 8 WA secret/2"
        );
        // Negative reject scores, and the avg grader's six decimals.
        let scoring = kattis(
            "on_reject: continue",
            vec![folder(
                "secret",
                "grader_flags: avg\nreject_score: -1",
                cases("secret", 3),
            )],
        );
        let sheet = scoring
            .aggregate(&outcomes(&scoring, &[("secret/3", v(WA))]))
            .unwrap();
        assert_eq!(
            line(&sheet),
            "0.333333 WA secret/3 | secret 0.333333 WA secret/3"
        );
    }

    #[test]
    fn kattis_groups_hand_up_their_printed_score() {
        // Each group's grader prints `%f`: three thirds add up to 0.999999, not 1, as in
        // problemtools.
        let third = |name: &str| folder(name, "grader_flags: avg", cases(name, 3));
        let scoring = kattis(
            "on_reject: continue",
            vec![folder(
                "secret",
                "",
                vec![third("secret/a"), third("secret/b"), third("secret/c")],
            )],
        );
        let wrong = [
            "secret/a/2",
            "secret/a/3",
            "secret/b/2",
            "secret/b/3",
            "secret/c/2",
            "secret/c/3",
        ];
        let changes: Vec<(&str, CaseOutcome)> = wrong.iter().map(|&c| (c, v(WA))).collect();
        let sheet = scoring.aggregate(&outcomes(&scoring, &changes)).unwrap();
        assert_eq!(sheet.score, Some(0.999999));
    }

    #[test]
    fn kattis_needs_follow_on_reject() {
        let scoring = kattis(
            "on_reject: continue\ngrader_flags: ignore_sample",
            vec![
                folder("sample", "on_reject: break", cases("sample", 2)),
                folder(
                    "secret",
                    "accept_score: 5\ngrader_flags: accept_if_any_accepted\non_reject: break",
                    vec![
                        folder("secret/a", "grader_flags: sum", cases("secret/a", 3)),
                        folder(
                            "secret/b",
                            "grader_flags: sum\non_reject: continue",
                            cases("secret/b", 3),
                        ),
                    ],
                ),
            ],
        );
        let mut known = Outcomes::new();
        known.insert("sample/1", v(WA));
        // The sample folder breaks; the top continues.
        assert!(!scoring.needs("sample/2", &known));
        assert!(scoring.needs("secret/a/1", &known));
        known.insert("secret/a/1", v(WA));
        // `a` breaks (inherited from the secret), and so does the secret after `a`.
        assert!(!scoring.needs("secret/a/2", &known));
        assert!(!scoring.needs("secret/b/1", &known));
        let mut fresh = Outcomes::new();
        fresh.insert("secret/b/1", v(WA));
        assert!(
            scoring.needs("secret/b/3", &fresh),
            "continue needs every case"
        );
        assert!(scoring.needs("secret/a/1", &fresh));
    }

    #[test]
    fn kattis_accept_if_any_waits_for_an_accepted_item() {
        let scoring = kattis(
            "on_reject: break",
            vec![
                folder(
                    "first",
                    "grader_flags: accept_if_any_accepted\non_reject: continue",
                    cases("first", 3),
                ),
                folder("second", "", cases("second", 1)),
            ],
        );
        let mut known = Outcomes::new();
        known.insert("first/1", v(WA));
        // `first` may still be accepted by a later case: the top has not stopped.
        assert!(scoring.needs("second/1", &known));
        known.insert("first/2", v(AC));
        assert!(scoring.needs("second/1", &known));
        known.insert("first/2", v(WA));
        known.insert("first/3", v(TLE));
        // None accepted: `first` failed (TLE, the worst), and the top breaks there.
        assert!(!scoring.needs("second/1", &known));
        let sheet = scoring.aggregate(&known).unwrap();
        assert_eq!(
            line(&sheet),
            "0 TLE first/3 | first 0 TLE first/3 | second - - - not-reached"
        );
    }

    /// A grader as a package would write one: the lowest score of the group, WA when any
    /// result is not AC; it records what it was given. `fail` makes it fail as a crashed one.
    /// A grader's call: the flags and the results.
    type Call = (Vec<String>, Vec<(Verdict, f64)>);

    #[derive(Debug, Default)]
    struct MinGrader {
        calls: std::sync::Mutex<Vec<Call>>,
        fail: bool,
    }

    impl GroupGrader for MinGrader {
        fn grade(
            &self,
            flags: &[String],
            results: &[(Verdict, f64)],
        ) -> Result<(Verdict, f64), String> {
            self.calls
                .lock()
                .unwrap()
                .push((flags.to_vec(), results.to_vec()));
            if self.fail {
                return Err("it crashed".into());
            }
            let verdict = if results.iter().all(|(v, _)| v.is_accepted()) {
                AC
            } else {
                WA
            };
            Ok((
                verdict,
                results.iter().map(|r| r.1).fold(f64::INFINITY, f64::min),
            ))
        }
    }

    fn custom_scoring(grader: Option<std::sync::Arc<MinGrader>>) -> Scoring {
        let scoring = kattis(
            "on_reject: continue\nrange: 0 100",
            vec![
                folder("sample", "accept_score: 0", cases("sample", 1)),
                folder(
                    "secret",
                    "grading: custom\ngrader_flags: lowest  x",
                    vec![
                        folder("secret/g1", "accept_score: 30", cases("secret/g1", 2)),
                        folder("secret/g2", "accept_score: 70", cases("secret/g2", 2)),
                    ],
                ),
            ],
        );
        match grader {
            Some(grader) => scoring.with_grader(grader),
            None => scoring,
        }
    }

    /// Groups graded `custom` are graded by the package's grader, each group on its own
    /// children's results, with its flags; the default grader grades the others (the top).
    #[test]
    fn a_custom_grader_grades_its_groups() {
        let grader = std::sync::Arc::new(MinGrader::default());
        let scoring = custom_scoring(Some(grader.clone()));
        let sheet = scoring
            .aggregate(&outcomes(&scoring, &[("secret/g2/2", v(WA))]))
            .unwrap();
        let calls = grader.calls.lock().unwrap().clone();
        let flags = vec!["lowest".to_string(), "x".to_string()];
        assert_eq!(
            calls,
            vec![
                (flags.clone(), vec![(AC, 30.0), (AC, 30.0)]),
                (flags.clone(), vec![(AC, 70.0), (WA, 0.0)]),
                (flags, vec![(AC, 30.0), (WA, 0.0)]),
            ]
        );
        // The top sums sample (0) and secret (the grader's min, 0), worst verdict WA.
        assert_eq!((sheet.verdict, sheet.score), (WA, Some(0.0)));
        assert_eq!(sheet.first_failure.as_deref(), Some("secret/g2/2"));
        let all_ac = scoring.aggregate(&outcomes(&scoring, &[])).unwrap();
        assert_eq!((all_ac.verdict, all_ac.score), (AC, Some(30.0)));
        assert_needs_suffice(
            &scoring,
            &outcomes(&scoring, &[("secret/g1/1", v(TLE))]),
            "custom",
        );
    }

    /// A grader that fails, or none at all, is a judge error of the group it grades, never the
    /// submission's WA; a score it gives out of the group's range is the package's fault.
    #[test]
    fn a_failing_grader_is_a_judge_error() {
        let failing = std::sync::Arc::new(MinGrader {
            fail: true,
            ..MinGrader::default()
        });
        let scoring = custom_scoring(Some(failing));
        let sheet = scoring.aggregate(&outcomes(&scoring, &[])).unwrap();
        assert_eq!(sheet.verdict, JE);
        let g1 = sheet.groups.iter().find(|g| g.name == "secret/g1").unwrap();
        assert_eq!(g1.verdict, Some(JE));
        assert_eq!(
            g1.fault.as_deref(),
            Some("the custom grader failed on group `secret/g1`: it crashed")
        );
        assert_eq!(sheet.total_fault(), None);
        let none = custom_scoring(None);
        let sheet = none.aggregate(&outcomes(&none, &[])).unwrap();
        assert_eq!(sheet.verdict, JE);
        assert!(
            sheet.faults[0].contains("the package has none"),
            "{:?}",
            sheet.faults
        );
        // 30 + 70 is fine for the range 0 100; a grader answering 130 is not.
        #[derive(Debug)]
        struct Over;
        impl GroupGrader for Over {
            fn grade(&self, _: &[String], _: &[(Verdict, f64)]) -> Result<(Verdict, f64), String> {
                Ok((AC, 130.0))
            }
        }
        let over = custom_scoring(None).with_grader(std::sync::Arc::new(Over));
        let sheet = over.aggregate(&outcomes(&over, &[])).unwrap();
        assert_eq!(sheet.verdict, JE);
        assert!(
            sheet
                .faults
                .iter()
                .any(|f| f.contains("scored 130, outside its range 0 100")),
            "{:?}",
            sheet.faults
        );
    }
}
