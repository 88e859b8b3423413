//! Shrinking a failing input to a small one: ask for smaller candidates, keep the first that
//! still fails, and repeat until none does. Pure control flow over two callbacks, so the
//! strategy is tested without spawning anything.

use crate::verdict::Verdict;

/// Rounds after which shrinking stops even if candidates keep failing: a shrink command whose
/// candidates are not really smaller would otherwise go on forever.
pub const MAX_ROUNDS: usize = 1000;

/// A failing run, as far as shrinking cares.
pub trait Failure {
    fn input(&self) -> &[u8];
    fn verdict(&self) -> Verdict;
}

/// The smallest failure found, and the way there.
#[derive(Debug, Clone)]
pub struct Shrunk<F> {
    pub minimal: F,
    /// Every failure kept along the way, the last being `minimal`; empty when the start was
    /// already minimal.
    pub steps: Vec<F>,
    /// Candidates run.
    pub tried: usize,
    /// Stopped by [`MAX_ROUNDS`] rather than by running out of failing candidates.
    pub gave_up: bool,
}

/// Shrinks `start`. `candidates` lists smaller inputs derived from a failure, most promising
/// (smallest) first; `test` runs one and returns its failure, or `None` when it passes.
///
/// Among a round's candidates the first that fails with the starting verdict wins, so a WA
/// stays a WA and the diagnosis does not drift; when none does, the first failure of any kind
/// is kept rather than stopping early.
pub fn shrink<F: Failure + Clone, E>(
    start: F,
    mut candidates: impl FnMut(&F) -> Result<Vec<Vec<u8>>, E>,
    mut test: impl FnMut(&[u8]) -> Result<Option<F>, E>,
) -> Result<Shrunk<F>, E> {
    let target = start.verdict();
    let mut current = start;
    let mut steps = Vec::new();
    let mut tried = 0;
    for _ in 0..MAX_ROUNDS {
        let mut other_verdict = None;
        let mut same_verdict = None;
        for candidate in candidates(&current)? {
            if candidate == current.input() {
                continue;
            }
            tried += 1;
            let Some(failure) = test(&candidate)? else {
                continue;
            };
            if failure.verdict() == target {
                same_verdict = Some(failure);
                break;
            }
            other_verdict.get_or_insert(failure);
        }
        let Some(next) = same_verdict.or(other_verdict) else {
            return Ok(Shrunk {
                minimal: current,
                steps,
                tried,
                gave_up: false,
            });
        };
        steps.push(next.clone());
        current = next;
    }
    Ok(Shrunk {
        minimal: current,
        steps,
        tried,
        gave_up: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure of a number: inputs are decimal numbers.
    #[derive(Debug, Clone, PartialEq)]
    struct Fails {
        input: Vec<u8>,
        verdict: Verdict,
    }

    impl Failure for Fails {
        fn input(&self) -> &[u8] {
            &self.input
        }
        fn verdict(&self) -> Verdict {
            self.verdict
        }
    }

    fn number(input: &[u8]) -> u64 {
        std::str::from_utf8(input).unwrap().parse().unwrap()
    }

    fn fails(n: u64, verdict: Verdict) -> Fails {
        Fails {
            input: n.to_string().into_bytes(),
            verdict,
        }
    }

    /// Candidates of n: every smaller number, smallest first.
    #[expect(
        clippy::unnecessary_wraps,
        reason = "the shape of a candidates callback, which may fail"
    )]
    fn smaller<E>(failure: &Fails) -> Result<Vec<Vec<u8>>, E> {
        Ok((0..number(&failure.input))
            .map(|m| m.to_string().into_bytes())
            .collect())
    }

    #[test]
    fn reaches_the_smallest_failing_input() {
        // Fails from 7 on: the smallest failing input is 7.
        let shrunk = shrink(fails(100, Verdict::WrongAnswer), smaller::<()>, |input| {
            Ok((number(input) >= 7).then(|| fails(number(input), Verdict::WrongAnswer)))
        })
        .unwrap();
        assert_eq!(number(&shrunk.minimal.input), 7);
        assert_eq!(shrunk.steps.len(), 1);
        assert!(!shrunk.gave_up);
    }

    #[test]
    fn an_already_minimal_input_stays() {
        let shrunk = shrink(fails(3, Verdict::RuntimeError), smaller::<()>, |_| Ok(None)).unwrap();
        assert_eq!(shrunk.minimal, fails(3, Verdict::RuntimeError));
        assert!(shrunk.steps.is_empty());
        assert_eq!(shrunk.tried, 3);
    }

    #[test]
    fn the_same_verdict_is_preferred_over_an_earlier_other_one() {
        // Below 10 everything fails, but only the even numbers with the starting WA.
        let test = |input: &[u8]| {
            let n = number(input);
            let verdict = if n.is_multiple_of(2) {
                Verdict::WrongAnswer
            } else {
                Verdict::RuntimeError
            };
            Ok::<_, ()>((n < 10 || n == 50).then(|| fails(n, verdict)))
        };
        // Candidates 1, 2, …: 1 fails with RE, 2 with WA: 2 is kept, then 0 (WA).
        let candidates = |f: &Fails| -> Result<Vec<Vec<u8>>, ()> {
            let n = number(&f.input);
            Ok((1..n)
                .chain([0])
                .map(|m| m.to_string().into_bytes())
                .collect())
        };
        let shrunk = shrink(fails(50, Verdict::WrongAnswer), candidates, test).unwrap();
        let steps: Vec<u64> = shrunk.steps.iter().map(|f| number(&f.input)).collect();
        assert_eq!(steps, [2, 0]);
        assert_eq!(shrunk.minimal.verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn another_verdict_is_kept_when_none_has_the_same() {
        let shrunk = shrink(fails(5, Verdict::WrongAnswer), smaller::<()>, |input| {
            Ok((number(input) == 4).then(|| fails(4, Verdict::TimeLimitExceeded)))
        })
        .unwrap();
        assert_eq!(shrunk.minimal, fails(4, Verdict::TimeLimitExceeded));
    }

    #[test]
    fn a_candidate_equal_to_the_input_is_not_progress() {
        let mut calls = 0;
        let shrunk = shrink(
            fails(5, Verdict::WrongAnswer),
            |f: &Fails| Ok::<_, ()>(vec![f.input.clone()]),
            |input| {
                calls += 1;
                Ok(Some(fails(number(input), Verdict::WrongAnswer)))
            },
        )
        .unwrap();
        assert_eq!(calls, 0);
        assert!(shrunk.steps.is_empty());
    }

    #[test]
    fn a_shrinker_that_never_shrinks_is_given_up_on() {
        // Candidates alternate between two failing inputs forever.
        let shrunk = shrink(
            fails(1, Verdict::WrongAnswer),
            |f: &Fails| {
                let other = if number(&f.input) == 1 { 2 } else { 1 };
                Ok::<_, ()>(vec![other.to_string().into_bytes()])
            },
            |input| Ok(Some(fails(number(input), Verdict::WrongAnswer))),
        )
        .unwrap();
        assert!(shrunk.gave_up);
        assert_eq!(shrunk.steps.len(), MAX_ROUNDS);
    }

    #[test]
    fn errors_stop_shrinking() {
        let result = shrink(fails(5, Verdict::WrongAnswer), smaller, |_| Err("broken"));
        assert_eq!(result.unwrap_err(), "broken");
    }
}
