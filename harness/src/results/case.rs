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
