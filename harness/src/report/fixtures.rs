//! Hand-built results the exporters' tests share: a case with its measurements, the limits, a
//! judged submission.

use std::path::PathBuf;
use std::time::Duration;

use crate::judge::submission::{CompileOutcome, SubmissionReport};
use crate::judge::{CaseOutcome, Mismatch};
use crate::sandbox::run::Limits;
use crate::verdict::Verdict;

/// A case that took `cpu_ms` of CPU (a millisecond more of wall time) and 2 MiB.
pub fn outcome(case: &str, verdict: Verdict, reason: &str, cpu_ms: u64) -> CaseOutcome {
    CaseOutcome {
        cpu_time: Duration::from_millis(cpu_ms),
        wall_time: Duration::from_millis(cpu_ms + 1),
        peak_memory_bytes: 2 << 20,
        ..CaseOutcome::new(case, verdict, reason)
    }
}

/// `outcome` with what the program printed and what was expected, for the diff.
pub fn with_mismatch(outcome: CaseOutcome, output: &[u8], answer: &[u8]) -> CaseOutcome {
    CaseOutcome {
        mismatch: Some(Mismatch {
            output: output.to_vec(),
            answer: answer.to_vec(),
            hint: None,
        }),
        ..outcome
    }
}

/// 1 s of CPU, 3 s of wall time, 256 MiB, 64 MiB of output.
pub fn limits() -> Limits {
    Limits {
        cpu_time: Duration::from_secs(1),
        wall_time: Duration::from_secs(3),
        memory_bytes: 256 << 20,
        output_bytes: 64 << 20,
    }
}

/// `source` (no language) judged on `problem`'s cases, of which `planned` were to run.
pub fn report(
    problem: &str,
    source: &str,
    outcomes: Vec<CaseOutcome>,
    planned: usize,
) -> SubmissionReport {
    SubmissionReport {
        problem: problem.to_string(),
        title: format!("Title of {problem}"),
        source: PathBuf::from(source),
        language: None,
        limits: limits(),
        compile: CompileOutcome {
            ok: true,
            message: String::new(),
        },
        verdict: crate::judge::overall_verdict(&outcomes),
        planned_cases: planned,
        outcomes,
        elapsed: Duration::from_millis(10),
        jobs: 1,
        score: None,
    }
}
