//! A submission's score in the judge: what each case scored as soon as it is checked (the
//! checker's credit read by the case's rule), which cases are still needed while judging (a
//! group that stopped at its first failure needs no more), and the score sheet of the whole
//! submission once its cases are judged. The rules themselves are `crate::score`'s, pure.

use crate::score::{Outcomes, Scoring};
use crate::verdict::Verdict;

pub use crate::results::submission::SubmissionScore;

/// A judged case's outcome, as the score model reads it.
pub fn model(outcome: &crate::results::case::CaseOutcome) -> crate::score::CaseOutcome {
    crate::score::CaseOutcome {
        verdict: outcome.verdict,
        credit: outcome.credit,
    }
}

/// The outcomes of judged cases, as the score model reads them.
pub fn outcomes(cases: &[crate::results::case::CaseOutcome]) -> Outcomes {
    cases.iter().map(|o| (o.case.clone(), model(o))).collect()
}

/// Scores a case as soon as it is checked: its score and what it is worth, from the checker's
/// credit. A credit the case cannot take (more than it is worth, a score for a case of a
/// pass-fail group, a problem that is not scored at all) is the checker's fault: the case
/// becomes a judge error that says why.
pub fn score_case(outcome: &mut crate::results::case::CaseOutcome, scoring: Option<&Scoring>) {
    let rule = scoring.and_then(|s| s.case(&outcome.case));
    let Some(rule) = rule else {
        // A case the rules do not know (judged from another folder) has no score.
        if let (Some(credit), None) = (outcome.credit, scoring) {
            // Scored only where the problem says how: elsewhere points are not a verdict.
            outcome.verdict = Verdict::JudgeError;
            outcome.reason = format!(
                "the checker gave points ({} {}), but the problem is scored pass-fail (hint: give it `scoring` in judge.toml, or make the checker accept with `quitf(_ok, …)`){}",
                credit.source,
                crate::score::format_score(credit.value),
                reason_after(&outcome.reason)
            );
        }
        return;
    };
    outcome.max_score = rule.max_score();
    match rule.score(&model(outcome)) {
        Ok(score) => outcome.score = score,
        Err(error) => {
            outcome.verdict = Verdict::JudgeError;
            outcome.reason = format!("{error}{}", reason_after(&outcome.reason));
            outcome.score = rule.max_score().map(|_| 0.0);
        }
    }
}

/// `: the checker's own words`, when it said something.
fn reason_after(reason: &str) -> String {
    if reason.is_empty() {
        String::new()
    } else {
        format!(": {reason}")
    }
}

/// The score of a submission judged on `cases`, by `scoring`: the sheet, or why there is none.
pub fn score_submission(
    scoring: &Scoring,
    cases: &[crate::results::case::CaseOutcome],
) -> SubmissionScore {
    match scoring.aggregate(&outcomes(cases)) {
        Ok(sheet) => SubmissionScore::Sheet(sheet),
        Err(missing) => SubmissionScore::Incomplete {
            max_score: scoring.max_score(),
            reason: missing.to_string(),
        },
    }
}

/// The rules `problem` is scored by, over all its cases (in judge order): a package's own, or
/// judge.toml's `scoring`; `None` for a pass-fail problem. A mistake in judge.toml's rules
/// names its line and column.
pub fn rules_for(
    problem: &crate::config::Problem,
    cases: &[crate::case::discover::Case],
) -> Result<Option<std::sync::Arc<Scoring>>, crate::config::ConfigError> {
    if let Some(scoring) = &problem.package_scoring {
        return Ok(Some(scoring.clone()));
    }
    let names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
    problem.scoring.build(&names)
}

/// The rules `problem` scores the cases of another folder (`--cases`) by: judge.toml's
/// groups and points applied by case name, when every case of the folder is in a group and
/// every glob matches one of them; a package's own rules, when the folder holds exactly the
/// package's cases. `Ok(None)` for a pass-fail problem; otherwise why the folder's cases do
/// not fit, for a note (they are then judged pass-fail).
pub fn rules_for_folder(
    problem: &crate::config::Problem,
    cases: &[crate::case::discover::Case],
) -> Result<Option<std::sync::Arc<Scoring>>, String> {
    let names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
    if let Some(scoring) = &problem.package_scoring {
        let theirs: std::collections::BTreeSet<&str> =
            scoring.cases().iter().map(|c| c.name.as_str()).collect();
        let ours: std::collections::BTreeSet<&str> = names.iter().map(String::as_str).collect();
        return match theirs.symmetric_difference(&ours).next() {
            None => Ok(Some(scoring.clone())),
            Some(case) => Err(format!(
                "the package's scoring is over its own cases, and `{case}` is in only one of the two folders"
            )),
        };
    }
    problem.scoring.build(&names).map_err(|error| {
        let text = error.to_string();
        let first = text.lines().next().unwrap_or_default();
        // The error names judge.toml's place; the note needs only what does not fit.
        let what = first
            .split_once("scoring: ")
            .map_or(first, |(_, what)| what);
        what.to_string()
    })
}

/// Puts `cases` in the order the scoring judges them (group by group, as declared), so that a
/// group's dependencies are judged before it and a failed one spares its cases. Cases the
/// rules do not know keep their place after those it does.
pub fn order_cases(scoring: Option<&Scoring>, cases: &mut [crate::case::discover::Case]) {
    let Some(scoring) = scoring else {
        return;
    };
    let order: std::collections::HashMap<&str, usize> = scoring
        .cases()
        .iter()
        .enumerate()
        .map(|(index, rule)| (rule.name.as_str(), index))
        .collect();
    cases.sort_by_key(|case| order.get(case.name.as_str()).copied().unwrap_or(usize::MAX));
}
