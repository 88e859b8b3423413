//! The harness's exit codes, one per outcome class (documented in the book,
//! docs/src/reference/exit-codes.md), and the one
//! mapping from verdicts to them.

use crate::verdict::Verdict;

/// Every case judged was accepted (or the command did what it was asked).
pub const OK: i32 = 0;
/// Something was judged and not accepted: a verdict other than AC, an invalid case, a
/// stress test that found a failing input, a regenerated case that differs.
pub const FAILED: i32 = 1;
/// The harness could not do its job: bad judge.toml, unknown problem, missing files, a build
/// that failed, bad command-line arguments.
pub const ERROR: i32 = 2;
/// The judge itself failed on a case (a problem's checker crashed): not the program's fault.
pub const JUDGE_ERROR: i32 = 3;
/// Stopped by Ctrl-C (SIGINT) or a kill: 128 + SIGINT, as shells report it.
pub const INTERRUPTED: i32 = 130;

/// The exit code for a set of verdicts: 0 when all are AC; a judge error outranks a
/// contestant's failure, since it means the verdicts cannot be trusted.
pub fn for_verdicts(verdicts: impl IntoIterator<Item = Verdict>) -> i32 {
    let mut code = OK;
    for verdict in verdicts {
        match verdict {
            Verdict::Accepted => {}
            Verdict::JudgeError => return JUDGE_ERROR,
            _ => code = FAILED,
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judge_errors_outrank_failures() {
        use Verdict::{Accepted as AC, JudgeError as JE, WrongAnswer as WA};
        assert_eq!(for_verdicts([]), OK);
        assert_eq!(for_verdicts([AC, AC]), OK);
        assert_eq!(for_verdicts([AC, WA, AC]), FAILED);
        assert_eq!(for_verdicts([WA, JE, WA]), JUDGE_ERROR);
    }
}
