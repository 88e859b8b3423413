//! What judging one case gave: its verdict, times, memory, reason and whatever the report
//! shows of it (a diff, a transcript, an excerpt of the input), and sums over many.

use std::time::Duration;

use crate::case::excerpt::InputExcerpt;
use crate::verdict::Verdict;

/// The outcome of one case.
#[derive(Debug, Clone)]
pub struct CaseOutcome {
    /// The case's name.
    pub case: String,
    /// What the judge answers for it.
    pub verdict: Verdict,
    /// One line: why the verdict (for AC, what the checker compared, such as `92 blocks`).
    pub reason: String,
    /// User + system time.
    pub cpu_time: Duration,
    /// From start to end.
    pub wall_time: Duration,
    /// Peak resident size, in bytes, as `/usr/bin/time` shows it (the run's
    /// [`run::RunResult::resident_peak_bytes`]); MLE is decided on the run's own measure.
    pub peak_memory_bytes: u64,
    /// CPU time within 10% of the limit, either side: another machine could flip the verdict.
    pub time_sensitive: bool,
    /// The end of what the program wrote on stderr.
    pub stderr_tail: String,
    /// For wrong answers: what the program printed and what was expected, for the diff.
    pub mismatch: Option<Mismatch>,
    /// For interactive problems: the transcript and the interactor's message and numbers.
    pub interaction: Option<Interaction>,
    /// A case with no answer file (a downloaded folder often has inputs alone): what the
    /// program printed, shown since nothing could judge it.
    pub unanswered: Option<Vec<u8>>,
    /// For a case not accepted: where its input is and how it begins.
    pub input: Option<InputExcerpt>,
    /// The checker's partial credit, as it gave it: testlib's `quitp` points, a Kattis
    /// validator's `score.txt` or `score_multiplier.txt`.
    pub credit: Option<crate::score::Credit>,
    /// In a scored problem, what the case scored; `None` in a pass-fail problem, or for a case
    /// with no score of its own (in a group scored all or nothing, whose points are the
    /// group's).
    pub score: Option<f64>,
    /// In a scored problem, what the case is worth at most, when it has a bound of its own.
    pub max_score: Option<f64>,
}

impl CaseOutcome {
    /// A case with this verdict and reason and nothing measured, shown or scored: what a
    /// judge error reports, and what the reporters' tests start from.
    pub fn new(case: impl Into<String>, verdict: Verdict, reason: impl Into<String>) -> Self {
        CaseOutcome {
            case: case.into(),
            verdict,
            reason: reason.into(),
            cpu_time: Duration::ZERO,
            wall_time: Duration::ZERO,
            peak_memory_bytes: 0,
            time_sensitive: false,
            stderr_tail: String::new(),
            mismatch: None,
            interaction: None,
            unanswered: None,
            input: None,
            credit: None,
            score: None,
            max_score: None,
        }
    }
}

/// What reports call a case that ran within its limits with nothing to check its output
/// against (no answer, no reference): never `AC`, which would say the output is right. Its
/// [`Verdict`] stays `Accepted` (nothing failed, and nothing that counts failures counts
/// it); [`CaseOutcome::checked`] tells it apart.
pub const RAN: &str = "ran";

/// [`RAN`] in a sentence, as summaries count it (`1 ran, not checked`).
pub const RAN_NOT_CHECKED: &str = "ran, not checked";

impl CaseOutcome {
    /// Whether its output was checked: not for a case with no answer that ran within its
    /// limits (one that failed them got its verdict without an answer).
    pub fn checked(&self) -> bool {
        self.unanswered.is_none()
    }

    /// Its verdict's code as reports show it: `AC`, `WA`, …; [`RAN`] when not checked.
    pub fn code(&self) -> &'static str {
        if self.checked() {
            self.verdict.as_str()
        } else {
            RAN
        }
    }
}

/// The code of a submission's verdict as reports show it: [`RAN`] when it is AC but no case
/// was checked (every one had no answer), else the verdict's.
pub fn verdict_code(verdict: Verdict, outcomes: &[CaseOutcome]) -> &'static str {
    let ran_only = !outcomes.is_empty() && outcomes.iter().all(|o| !o.checked());
    if verdict.is_accepted() && ran_only {
        RAN
    } else {
        verdict.as_str()
    }
}

/// Each outcome by its case's name.
pub fn by_case(outcomes: &[CaseOutcome]) -> std::collections::HashMap<&str, &CaseOutcome> {
    outcomes.iter().map(|o| (o.case.as_str(), o)).collect()
}

/// Cases of `outcomes` whose output was not checked.
pub fn unchecked(outcomes: &[CaseOutcome]) -> usize {
    outcomes.iter().filter(|o| !o.checked()).count()
}

/// `640 AC`, `11 WA`, … in the verdicts' order, verdicts with none left out; then the cases
/// nothing checked (`1 ran, not checked`).
pub fn counted(outcomes: &[CaseOutcome]) -> Vec<String> {
    let mut counts: Vec<String> = Verdict::ALL
        .into_iter()
        .filter_map(|verdict| {
            let count = outcomes
                .iter()
                .filter(|o| o.verdict == verdict && o.checked())
                .count();
            (count > 0).then(|| format!("{count} {verdict}"))
        })
        .collect();
    let unchecked = unchecked(outcomes);
    if unchecked > 0 {
        counts.push(format!("{unchecked} {RAN_NOT_CHECKED}"));
    }
    counts
}

/// What the report shows of an interactive case.
#[derive(Debug, Clone, Default)]
pub struct Interaction {
    /// What was said, bounded.
    pub transcript: crate::sandbox::transcript::Transcript,
    /// The interactor's own reason (judgemessage.txt, or testlib's stderr), one line.
    pub message: String,
    /// The interactor's numbers, shown apart: they are never the submission's.
    pub interactor_cpu_time: Duration,
    /// The interactor's peak memory, in bytes.
    pub interactor_peak_memory_bytes: u64,
}

/// A wrong output and its answer, each cut to a few MiB, for the diff.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// What the program printed.
    pub output: Vec<u8>,
    /// What the answer file holds.
    pub answer: Vec<u8>,
    /// A looser built-in checker that would accept it, and why (a near miss).
    pub hint: Option<String>,
}

/// The verdict a submission gets, as online judges report it: AC when every case is AC,
/// otherwise the verdict of the first failing case in case order.
pub fn overall_verdict(outcomes: &[CaseOutcome]) -> Verdict {
    outcomes
        .iter()
        .map(|o| o.verdict)
        .find(|v| !v.is_accepted())
        .unwrap_or(Verdict::Accepted)
}

/// The slowest case's CPU time (zero when nothing ran).
pub fn max_cpu_time(outcomes: &[CaseOutcome]) -> Duration {
    outcomes
        .iter()
        .map(|o| o.cpu_time)
        .max()
        .unwrap_or_default()
}

/// The largest peak memory of any case, in bytes.
pub fn max_memory(outcomes: &[CaseOutcome]) -> u64 {
    outcomes
        .iter()
        .map(|o| o.peak_memory_bytes)
        .max()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(verdict: Verdict, answered: bool) -> CaseOutcome {
        let mut outcome = CaseOutcome::new("c", verdict, "");
        if !answered {
            outcome.unanswered = Some(b"5\n".to_vec());
        }
        outcome
    }

    #[test]
    fn a_run_nothing_checked_is_never_ac() {
        let ac = || outcome(Verdict::Accepted, true);
        let ran = || outcome(Verdict::Accepted, false);
        let wa = || outcome(Verdict::WrongAnswer, true);
        assert_eq!(ran().code(), "ran");
        assert_eq!(ac().code(), "AC");
        assert_eq!(wa().code(), "WA");
        for (outcomes, code, not_checked) in [
            (vec![ran()], "ran", 1),
            (vec![ran(), ran()], "ran", 2),
            // Some case was checked: its verdict, the others counted apart.
            (vec![ac(), ran()], "AC", 1),
            (vec![ran(), wa()], "WA", 1),
            (vec![ac()], "AC", 0),
            (vec![], "AC", 0),
        ] {
            let verdict = overall_verdict(&outcomes);
            assert_eq!(verdict_code(verdict, &outcomes), code, "{outcomes:?}");
            assert_eq!(unchecked(&outcomes), not_checked);
        }
        // A compile error is one whatever the cases.
        assert_eq!(verdict_code(Verdict::CompileError, &[ran()]), "CE");
    }
}
