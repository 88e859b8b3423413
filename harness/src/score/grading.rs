//! How a Kattis legacy group grades its items (problemtools' default grader): its
//! `grader_flags`, `on_reject` and `range`, and the grader itself on a group's results. The
//! scoring model holds a grading as a group's rule; the Kattis reader builds it.

use super::number::quantize;
use crate::verdict::Verdict;

/// What `on_reject` says a group does after an item that is not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnReject {
    /// Grade at once: the rest of the group is not judged (the default).
    Break,
    /// Judge the rest of the group too.
    Continue,
}

/// The default grader's verdict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictMode {
    /// The worst verdict of the items, in the order JE, RTE, MLE, TLE, OLE, WA (the default;
    /// `no_errors` is the same).
    WorstError,
    /// The first verdict that is not AC.
    FirstError,
    /// Always AC.
    AlwaysAccept,
}

/// The default grader's score mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMode {
    /// The sum of the items' scores (the default).
    Sum,
    /// Their mean.
    Avg,
    /// The least.
    Min,
    /// The greatest.
    Max,
}

/// How a Kattis legacy group grades its items: its `grader_flags`, `on_reject` and `range`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KattisGrading {
    /// How the verdict is combined.
    pub verdict: VerdictMode,
    /// How the score is combined.
    pub score: ScoreMode,
    /// `ignore_sample`: the group's result is its last item's (at the top: `secret`'s).
    pub ignore_sample: bool,
    /// `accept_if_any_accepted`: AC when any item is.
    pub accept_if_any_accepted: bool,
    /// Whether the group stops at its first item not accepted.
    pub on_reject: OnReject,
    /// The scores the group may get; a score outside is the package's fault.
    pub range: (f64, f64),
}

impl KattisGrading {
    /// The grading of `grader_flags` (space-separated; when modes conflict the last wins, as in
    /// the default grader). An unknown flag is an error here, where the default grader would
    /// ignore it: a misspelt `min` would otherwise silently score by `sum`.
    pub fn from_flags(flags: &str, on_reject: OnReject, range: (f64, f64)) -> Result<Self, String> {
        let mut grading = KattisGrading {
            verdict: VerdictMode::WorstError,
            score: ScoreMode::Sum,
            ignore_sample: false,
            accept_if_any_accepted: false,
            on_reject,
            range,
        };
        for flag in flags.split_whitespace() {
            match flag {
                "sum" => grading.score = ScoreMode::Sum,
                "avg" => grading.score = ScoreMode::Avg,
                "min" => grading.score = ScoreMode::Min,
                "max" => grading.score = ScoreMode::Max,
                "worst_error" | "no_errors" => grading.verdict = VerdictMode::WorstError,
                "first_error" => grading.verdict = VerdictMode::FirstError,
                "always_accept" => grading.verdict = VerdictMode::AlwaysAccept,
                "ignore_sample" => grading.ignore_sample = true,
                "accept_if_any_accepted" => grading.accept_if_any_accepted = true,
                other => {
                    return Err(format!(
                        "`{other}` is not a flag of the default grader (its flags: sum, avg, min, max, worst_error, first_error, always_accept, ignore_sample, accept_if_any_accepted)"
                    ))
                }
            }
        }
        Ok(grading)
    }
}

/// The rank of a verdict in `worst_error`: lower is worse (problemtools' order JE, IF, RTE,
/// MLE, TLE, OLE, WA, PE, AC; a compile error, which no case gets, as bad as JE).
fn badness(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::JudgeError | Verdict::CompileError => 0,
        Verdict::RuntimeError => 2,
        Verdict::MemoryLimitExceeded => 3,
        Verdict::TimeLimitExceeded => 4,
        Verdict::OutputLimitExceeded => 5,
        Verdict::WrongAnswer => 6,
        Verdict::Accepted => 8,
    }
}

/// The default grader on a group's results (verdict and score of each item judged, in
/// order); none of them JE, which the caller passes up unchanged as problemtools does. The
/// score is rounded as the grader prints it (`%f`).
pub(crate) fn grade(grading: &KattisGrading, results: &[(Verdict, f64)]) -> (Verdict, f64) {
    let mut results = results;
    if grading.ignore_sample {
        // The grader asserts one or two results (sample, secret) and prints `JE 0` otherwise.
        if results.is_empty() || results.len() > 2 {
            return (Verdict::JudgeError, 0.0);
        }
        results = &results[results.len() - 1..];
    }
    let Some(&(first, _)) = results.first() else {
        return (Verdict::Accepted, 0.0);
    };
    let any_accepted = results.iter().any(|(v, _)| v.is_accepted());
    let verdict = if grading.accept_if_any_accepted && any_accepted {
        Verdict::Accepted
    } else {
        match grading.verdict {
            VerdictMode::AlwaysAccept => Verdict::Accepted,
            VerdictMode::FirstError => results
                .iter()
                .map(|&(v, _)| v)
                .find(|v| !v.is_accepted())
                .unwrap_or(Verdict::Accepted),
            VerdictMode::WorstError => results
                .iter()
                .map(|&(v, _)| v)
                .min_by_key(|&v| badness(v))
                .unwrap_or(first),
        }
    };
    let scores = results.iter().map(|&(_, s)| s);
    let score = match grading.score {
        ScoreMode::Sum => scores.sum(),
        ScoreMode::Avg => scores.sum::<f64>() / results.len() as f64,
        ScoreMode::Min => scores.fold(f64::INFINITY, f64::min),
        ScoreMode::Max => scores.fold(f64::NEG_INFINITY, f64::max),
    };
    (verdict, quantize(score))
}
