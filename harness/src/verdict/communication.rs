//! Who is blamed for a communication task's case (CMS `Communication`): the user processes'
//! runs, their CPU time summed against the limit, and what the manager said, as CMS reads a
//! manager (a score from 0 to 1 on stdout, the message on stderr). Pure functions of the
//! measurements.

use super::credit::{Credit, CreditSource};
use super::{classify, with_line, Judgement, Verdict};
use crate::sandbox::run::{LimitHit, Limits, RunResult, Termination};

/// What the manager's run says.
#[derive(Debug, Clone, PartialEq)]
pub enum ManagerSaid {
    /// Its score, 0 to 1, and its message.
    Score(f64, String),
    /// The manager itself failed: crashed, broke its limits, or wrote no score: the judge's
    /// fault, never the contestant's.
    Failed(String),
    /// The problem's checker judged what the manager wrote (TPS's `has_checker`).
    Checked(Judgement),
}

/// CMS's messages for its managers' `translate:` texts.
const TRANSLATED: [(&str, &str); 3] = [
    ("translate:success", "Output is correct"),
    ("translate:wrong", "Output isn't correct"),
    ("translate:partial", "Output is partially correct"),
];

/// Reads a manager that ended: exit 0 with a score from 0 to 1 as its stdout's first token,
/// its stderr's first line the message (CMS's `extract_outcome_and_text`).
pub fn manager_said(run: &RunResult, stdout: &[u8], stderr: &[u8]) -> ManagerSaid {
    let stderr = String::from_utf8_lossy(stderr);
    let first_line = stderr.lines().next().unwrap_or_default().trim();
    if let Some(failed) = manager_failed(run, first_line) {
        return failed;
    }
    let text = String::from_utf8_lossy(stdout);
    let token = text.split_whitespace().next().unwrap_or_default();
    let score = match token.parse::<f64>() {
        Ok(score) if score.is_finite() && (0.0..=1.0).contains(&score) => score,
        _ => {
            return ManagerSaid::Failed(format!(
                "the manager's stdout should be a score from 0.0 to 1.0, and is `{}`",
                crate::text::cut(token, 40)
            ))
        }
    };
    let message = TRANSLATED
        .iter()
        .find(|(code, _)| *code == first_line)
        .map_or(first_line, |(_, text)| text);
    ManagerSaid::Score(score, message.to_string())
}

/// What a manager whose output the problem's checker judges said: its failure, or what
/// `check` makes of its stdout.
pub fn manager_checked(
    run: &RunResult,
    stderr: &[u8],
    check: impl FnOnce() -> Judgement,
) -> ManagerSaid {
    let stderr = String::from_utf8_lossy(stderr);
    let first_line = stderr.lines().next().unwrap_or_default().trim();
    manager_failed(run, first_line).unwrap_or_else(|| ManagerSaid::Checked(check()))
}

/// The manager's own failure (stopped, non-zero exit, killed), if it failed.
fn manager_failed(run: &RunResult, first_line: &str) -> Option<ManagerSaid> {
    if let Some(hit) = run.limit_hit {
        let why = match hit {
            LimitHit::WallTime => "it ran on for longer than a process's wall limit and 2 s while no user process ran (stuck, or waiting for one whose FIFOs it had not opened)",
            LimitHit::CpuTime => "it used more CPU time than the judge gives it",
            LimitHit::Memory => "it used more memory than the judge gives it",
            LimitHit::Output => "it wrote more than the judge reads of it",
        };
        return Some(ManagerSaid::Failed(format!(
            "the manager was stopped: {why}"
        )));
    }
    match run.termination {
        Termination::Exited(0) => None,
        Termination::Exited(code) => Some(ManagerSaid::Failed(with_line(
            format!("the manager exited with {code}"),
            first_line,
        ))),
        Termination::Signaled(signal) => Some(ManagerSaid::Failed(with_line(
            format!(
                "the manager was killed by {}",
                crate::sandbox::run::signal_name(signal)
            ),
            first_line,
        ))),
    }
}

/// The one place a communication case's verdict is decided, once every process has ended and
/// in CMS's order (`Communication.py`), so that which end the judge noticed first never
/// matters (a stub that asserts on the end of file of a manager that answered and closed is
/// the same RE however the two ends were seen):
///
/// 1. the manager failed: judge error, whatever the users did (CMS's `success` is false);
/// 2. a user process failed: broke its own limits (OLE, MLE, TLE) or crashed (RE), the first
///    in index order; CMS's outcome 0 with that process's failure as its text;
/// 3. the user processes' CPU time summed is over the limit: TLE;
/// 4. the manager's score: 1 AC, 0 WA; between, the fraction as the case's credit on a scored
///    problem (AC, as CMS's partial outcome), WA on a pass-fail one.
pub fn blame(
    users: &[RunResult],
    limits: &Limits,
    manager: &ManagerSaid,
    scored: bool,
) -> Judgement {
    if let ManagerSaid::Failed(why) = manager {
        return Judgement::judge_error(why.clone());
    }
    let many = users.len() > 1;
    for (index, run) in users.iter().enumerate() {
        if let Some(mut judgement) = classify(run, limits) {
            if many {
                judgement.reason = format!("process {index}: {}", judgement.reason);
            }
            return judgement;
        }
    }
    let summed: std::time::Duration = users.iter().map(|run| run.cpu_time).sum();
    if summed > limits.cpu_time {
        return Judgement::new(
            Verdict::TimeLimitExceeded,
            format!(
                "CPU time of the {} processes summed {} over the limit {}",
                users.len(),
                crate::units::format_duration(summed),
                crate::units::format_duration(limits.cpu_time)
            ),
        );
    }
    scored_by(manager, scored)
}

/// What a CMS manager's or checker's score makes of a case: 1 AC, 0 WA; between, the
/// fraction as the case's credit on a scored problem (AC, as CMS's partial outcome), WA on a
/// pass-fail one; its failure a judge error.
pub fn scored_by(manager: &ManagerSaid, scored: bool) -> Judgement {
    let (score, message) = match manager {
        ManagerSaid::Failed(why) => return Judgement::judge_error(why.clone()),
        ManagerSaid::Checked(judgement) => return judgement.clone(),
        ManagerSaid::Score(score, message) => (*score, message),
    };
    let said = |fallback: &str| {
        if message.is_empty() {
            fallback.to_string()
        } else {
            message.clone()
        }
    };
    if score >= 1.0 {
        return Judgement::accepted(said("the manager's score 1"));
    }
    if score <= 0.0 {
        return Judgement::wrong_answer(said("the manager's score 0"));
    }
    if !scored {
        return Judgement::wrong_answer(format!(
            "partially correct (the manager's score {score}) on a pass-fail problem: {}",
            said("no message")
        ));
    }
    let mut judgement = Judgement::accepted(format!("score {score}: {}", said("partial")));
    judgement.credit = Some(Credit {
        source: CreditSource::Manager,
        value: score,
    });
    judgement
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(1),
            wall_time: Duration::from_secs(3),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
        }
    }

    fn run(termination: Termination, cpu_ms: u64, hit: Option<LimitHit>) -> RunResult {
        RunResult {
            termination,
            limit_hit: hit,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_millis(cpu_ms + 5),
            peak_memory_bytes: 1 << 20,
            resident_peak_bytes: 1 << 20,
            stdout: Vec::new(),
            stdout_truncated: false,
            stderr_tail: Vec::new(),
            output_file: None,
            scratch_bytes: 0,
            socket_bytes: 0,
        }
    }

    const OK: Termination = Termination::Exited(0);

    #[test]
    fn a_manager_is_read_as_cms_reads_it() {
        let ok = run(OK, 1, None);
        let table: &[(&RunResult, &str, &str, ManagerSaid)] = &[
            (
                &ok,
                "1.0\n",
                "translate:success\n",
                ManagerSaid::Score(1.0, "Output is correct".into()),
            ),
            (
                &ok,
                "0.25",
                "half of it\nmore",
                ManagerSaid::Score(0.25, "half of it".into()),
            ),
            (&ok, "0", "", ManagerSaid::Score(0.0, String::new())),
        ];
        for (run, stdout, stderr, expected) in table {
            assert_eq!(
                manager_said(run, stdout.as_bytes(), stderr.as_bytes()),
                *expected,
                "{stdout:?}"
            );
        }
        for (run, stdout, says) in [
            (&ok, "1.5", "is `1.5`"),
            (&ok, "nan", "is `nan`"),
            (&ok, "", "is ``"),
            (&ok, "yes", "is `yes`"),
            (
                &run(Termination::Exited(3), 1, None),
                "1.0",
                "exited with 3",
            ),
            (
                &run(Termination::Signaled(libc::SIGSEGV), 1, None),
                "1.0",
                "SIGSEGV",
            ),
            (
                &run(OK, 1, Some(LimitHit::WallTime)),
                "1.0",
                "no user process ran",
            ),
        ] {
            match manager_said(run, stdout.as_bytes(), b"") {
                ManagerSaid::Failed(why) => assert!(why.contains(says), "{stdout:?}: {why}"),
                other => panic!("{stdout:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_manager_then_the_users_are_blamed_and_their_time_is_summed() {
        let [one, zero, half] = [1.0, 0.0, 0.5].map(|s| ManagerSaid::Score(s, "msg".into()));
        let failed = ManagerSaid::Failed("the manager exited with 1".into());
        let ok = |ms| run(OK, ms, None);
        let crashed = run(Termination::Signaled(libc::SIGSEGV), 1, None);
        let piped = run(Termination::Signaled(libc::SIGPIPE), 1, None);
        let slept = run(
            Termination::Signaled(libc::SIGKILL),
            1,
            Some(LimitHit::WallTime),
        );
        type Row<'a> = (Vec<RunResult>, &'a ManagerSaid, bool, Verdict);
        let table: Vec<Row> = vec![
            (vec![ok(1), ok(1)], &one, false, Verdict::Accepted),
            (vec![ok(1)], &zero, false, Verdict::WrongAnswer),
            (vec![ok(1)], &half, false, Verdict::WrongAnswer),
            (vec![ok(1)], &half, true, Verdict::Accepted),
            // The manager's fault is never the contestant's.
            (vec![ok(1), ok(1)], &failed, false, Verdict::JudgeError),
            // A failed manager first, as on CMS, though a user crashed too.
            (
                vec![ok(1), crashed.clone()],
                &failed,
                false,
                Verdict::JudgeError,
            ),
            // A user's crash, whenever it came (SIGPIPE or an assert on the end of file of a
            // manager that answered and closed): CMS's outcome 0 with the user's failure.
            (
                vec![ok(1), crashed.clone()],
                &one,
                false,
                Verdict::RuntimeError,
            ),
            (vec![piped.clone()], &one, false, Verdict::RuntimeError),
            (vec![piped], &zero, false, Verdict::RuntimeError),
            (vec![slept], &zero, false, Verdict::TimeLimitExceeded),
            // Each within the limit, together over it.
            (
                vec![ok(600), ok(600)],
                &one,
                false,
                Verdict::TimeLimitExceeded,
            ),
        ];
        for (users, manager, scored, expected) in table {
            let judgement = blame(&users, &limits(), manager, scored);
            assert_eq!(
                judgement.verdict, expected,
                "{users:?} {manager:?}: {judgement:?}"
            );
        }
        let partial = blame(&[ok(1)], &limits(), &half, true);
        assert_eq!(
            partial.credit.map(|c| (c.value, c.is_fraction())),
            Some((0.5, true))
        );
        let summed = blame(&[ok(600), ok(600)], &limits(), &one, false);
        assert!(
            summed.reason.contains("summed 1200 ms"),
            "{}",
            summed.reason
        );
    }
}
