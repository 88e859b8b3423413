//! Shrinking a failing input to a small one: ask for smaller candidates, keep the first that
//! still fails, and repeat until none does; then bring each number the candidates name down by
//! bisection, to the smallest value that still fails, and start again while that changed
//! anything. Pure control flow over callbacks, so the strategy is tested without spawning
//! anything; the caller's `watch` sees each step and says when to stop (a budget, Ctrl-C).

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::verdict::Verdict;

/// Rounds after which shrinking stops even if candidates keep failing: a shrink command whose
/// candidates are not really smaller would otherwise go on forever.
pub const MAX_ROUNDS: usize = 1000;

/// Numbers up to this are tried at every smaller value rather than bisected: a bug that needs
/// n ≥ 5 and n odd (a board, a cycle) is found at 5, not stuck at 7 because 6 happens to pass.
pub const EVERY_VALUE_BELOW: u128 = 32;

/// A failing run, as far as shrinking cares.
pub trait Failure {
    fn input(&self) -> &[u8];
    fn verdict(&self) -> Verdict;
}

/// Where smaller inputs come from: rounds of candidates, and numbers to bisect.
pub trait Candidates<F, E> {
    /// Inputs smaller than `current`, most promising (smallest) first.
    fn round(&mut self, current: &F) -> Result<Vec<Vec<u8>>, E>;

    /// The `index`-th number of `current` to bisect, `None` past the last: a shrinker that
    /// knows where the numbers are lowers each in O(log v) runs rather than one by one.
    fn ladder(&mut self, _current: &F, _index: usize) -> Option<Ladder> {
        None
    }
}

/// A closure is a shrinker of rounds alone (a shrink command, the tests' shrinkers).
impl<F, E, C: FnMut(&F) -> Result<Vec<Vec<u8>>, E>> Candidates<F, E> for C {
    fn round(&mut self, current: &F) -> Result<Vec<Vec<u8>>, E> {
        self(current)
    }
}

/// One number of an input (or several equal ones, moved together), to bring down by
/// bisection: `at(x)` is the input with it set to `x` (its sign kept), for `x` below `top`,
/// the magnitude it has now.
pub struct Ladder {
    pub top: u128,
    pub at: Box<dyn Fn(u128) -> Vec<u8>>,
}

/// How far shrinking got, for the caller's `watch`: told before every run.
#[derive(Debug)]
pub struct Tally<'a, F> {
    /// The smallest failure so far.
    pub current: &'a F,
    /// Failures kept so far.
    pub steps: usize,
    /// Candidates run so far.
    pub tried: usize,
}

/// Why shrinking ended before no candidate failed any more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// [`MAX_ROUNDS`] rounds kept a failure each.
    Rounds,
    /// The caller's time budget ran out.
    Time,
    /// The caller's budget of candidates ran out.
    Candidates,
    /// Ctrl-C.
    Interrupted,
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
    /// Candidates met again (the same bytes), answered from memory rather than run.
    pub remembered: usize,
    /// Why it ended early; `None` when no smaller candidate failed.
    pub stopped: Option<Stopped>,
}

/// Shrinks `start`. `test` runs one candidate and returns its failure, or `None` when it
/// passes; `watch` is told how far it got before each run and stops it by returning why.
///
/// Among a round's candidates the first that fails with the starting verdict wins, so a WA
/// stays a WA and the diagnosis does not drift; when none does, the first failure of any kind
/// is kept rather than stopping early. Bisection keeps only the starting verdict. A candidate
/// is run once: the same bytes again are answered from memory, and an input kept before is
/// never taken back (a shrinker that goes round in circles ends).
pub fn shrink<F: Failure + Clone, E>(
    start: F,
    candidates: &mut dyn Candidates<F, E>,
    test: impl FnMut(&[u8]) -> Result<Option<F>, E>,
    watch: impl FnMut(&Tally<'_, F>) -> Option<Stopped>,
) -> Result<Shrunk<F>, E> {
    let mut search = Search {
        target: start.verdict(),
        visited: HashSet::from([key(start.input())]),
        current: start,
        steps: Vec::new(),
        tried: 0,
        remembered: 0,
        memo: HashMap::new(),
        test,
        watch,
    };
    let stopped = search.run(candidates)?;
    Ok(Shrunk {
        minimal: search.current,
        steps: search.steps,
        tried: search.tried,
        remembered: search.remembered,
        stopped,
    })
}

/// A candidate's bytes, as the memo knows them: a hash rather than the bytes, so that
/// thousands of candidates of a large input are not all kept. Two inputs of one length with
/// one 64-bit hash are a chance of about 2^-64 per pair; a failure from memory is taken only
/// if its bytes are the candidate's, so the worst a collision does is skip a candidate.
type Key = (usize, u64);

fn key(bytes: &[u8]) -> Key {
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    (bytes.len(), hasher.finish())
}

struct Search<F, T, W> {
    target: Verdict,
    current: F,
    steps: Vec<F>,
    /// The inputs kept so far, the start included.
    visited: HashSet<Key>,
    tried: usize,
    remembered: usize,
    memo: HashMap<Key, Option<F>>,
    test: T,
    watch: W,
}

/// What one candidate gave.
enum Tried<F> {
    Passed,
    Failed(F),
    Stopped(Stopped),
}

impl<F, E, T, W> Search<F, T, W>
where
    F: Failure + Clone,
    T: FnMut(&[u8]) -> Result<Option<F>, E>,
    W: FnMut(&Tally<'_, F>) -> Option<Stopped>,
{
    /// Rounds until none keeps a failure, then every number bisected; again while the numbers
    /// moved, since a smaller number can make a line or a token droppable.
    fn run(&mut self, candidates: &mut dyn Candidates<F, E>) -> Result<Option<Stopped>, E> {
        let mut rounds = 0;
        loop {
            loop {
                if rounds == MAX_ROUNDS {
                    return Ok(Some(Stopped::Rounds));
                }
                match self.round(candidates)? {
                    Tried::Passed => break,
                    Tried::Failed(()) => rounds += 1,
                    Tried::Stopped(why) => return Ok(Some(why)),
                }
            }
            let mut moved = false;
            for index in 0.. {
                let Some(ladder) = candidates.ladder(&self.current, index) else {
                    break;
                };
                match self.bisect(&ladder)? {
                    Tried::Passed => {}
                    Tried::Failed(()) => moved = true,
                    Tried::Stopped(why) => return Ok(Some(why)),
                }
            }
            if !moved {
                return Ok(None);
            }
        }
    }

    /// One round: `Failed` when it kept a failure.
    fn round(&mut self, candidates: &mut dyn Candidates<F, E>) -> Result<Tried<()>, E> {
        let mut other_verdict = None;
        for candidate in candidates.round(&self.current)? {
            match self.try_one(&candidate)? {
                Tried::Passed => {}
                Tried::Failed(failure) if failure.verdict() == self.target => {
                    return Ok(self.keep(failure));
                }
                Tried::Failed(failure) => {
                    other_verdict.get_or_insert(failure);
                }
                Tried::Stopped(why) => return Ok(Tried::Stopped(why)),
            }
        }
        Ok(other_verdict.map_or(Tried::Passed, |failure| self.keep(failure)))
    }

    /// The smallest value below `ladder.top` that still fails with the starting verdict.
    /// Up to [`EVERY_VALUE_BELOW`], every value, smallest first. Above, on the assumption
    /// that the failures of one number start at a threshold: 0 first (a number that does not
    /// matter goes in one run), then one less (a number at its threshold already stays in
    /// one more), then 1, then halving the gap between the largest value that passed and the
    /// smallest that failed. `Failed` when the number moved. Where the failures do not start
    /// at a threshold the result still fails, and one less passes.
    fn bisect(&mut self, ladder: &Ladder) -> Result<Tried<()>, E> {
        let top = ladder.top;
        if top == 0 {
            return Ok(Tried::Passed);
        }
        if top <= EVERY_VALUE_BELOW {
            for value in 0..top {
                match self.probe(ladder, value)? {
                    Tried::Passed => {}
                    moved_or_stopped => return Ok(moved_or_stopped),
                }
            }
            return Ok(Tried::Passed);
        }
        // Invariant: `high` fails (it is the current input), `low` passed, if tested.
        let mut high = top;
        let mut low = None;
        for probe in [0, top - 1, 1] {
            if probe >= high || low.is_some_and(|low| probe <= low) {
                continue;
            }
            match self.probe(ladder, probe)? {
                Tried::Failed(()) => high = probe,
                Tried::Passed if probe == top - 1 => return Ok(Tried::Passed),
                Tried::Passed => low = Some(probe),
                Tried::Stopped(why) => return Ok(Tried::Stopped(why)),
            }
        }
        let mut low = low.unwrap_or(0);
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            match self.probe(ladder, middle)? {
                Tried::Failed(()) => high = middle,
                Tried::Passed => low = middle,
                Tried::Stopped(why) => return Ok(Tried::Stopped(why)),
            }
        }
        Ok(if high < top {
            Tried::Failed(())
        } else {
            Tried::Passed
        })
    }

    /// The ladder's number set to `value`: `Failed` (and kept) when it fails the same way.
    fn probe(&mut self, ladder: &Ladder, value: u128) -> Result<Tried<()>, E> {
        Ok(match self.try_one(&(ladder.at)(value))? {
            Tried::Failed(failure) if failure.verdict() == self.target => self.keep(failure),
            Tried::Failed(_) | Tried::Passed => Tried::Passed,
            Tried::Stopped(why) => Tried::Stopped(why),
        })
    }

    /// Runs `candidate`, or answers from memory; an input kept before is no progress.
    fn try_one(&mut self, candidate: &[u8]) -> Result<Tried<F>, E> {
        let key = key(candidate);
        if candidate == self.current.input() || self.visited.contains(&key) {
            return Ok(Tried::Passed);
        }
        match self.memo.get(&key) {
            Some(None) => {
                self.remembered += 1;
                return Ok(Tried::Passed);
            }
            Some(Some(failure)) if failure.input() == candidate => {
                self.remembered += 1;
                return Ok(Tried::Failed(failure.clone()));
            }
            // Not run yet, or another input of the same hash: run this one.
            _ => {}
        }
        let tally = Tally {
            current: &self.current,
            steps: self.steps.len(),
            tried: self.tried,
        };
        if let Some(why) = (self.watch)(&tally) {
            return Ok(Tried::Stopped(why));
        }
        self.tried += 1;
        let result = (self.test)(candidate)?;
        self.memo.insert(key, result.clone());
        Ok(result.map_or(Tried::Passed, Tried::Failed))
    }

    /// Keeps `failure` as the smallest so far: `Failed`, for the caller to pass on.
    fn keep(&mut self, failure: F) -> Tried<()> {
        self.visited.insert(key(failure.input()));
        self.steps.push(failure.clone());
        self.current = failure;
        Tried::Failed(())
    }
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

    /// Never stops.
    fn unbounded(_: &Tally<'_, Fails>) -> Option<Stopped> {
        None
    }

    /// The whole input is one number to bisect, and rounds offer nothing.
    struct OneNumber;

    impl Candidates<Fails, ()> for OneNumber {
        fn round(&mut self, _: &Fails) -> Result<Vec<Vec<u8>>, ()> {
            Ok(Vec::new())
        }
        fn ladder(&mut self, current: &Fails, index: usize) -> Option<Ladder> {
            (index == 0).then(|| Ladder {
                top: u128::from(number(&current.input)),
                at: Box::new(|x| x.to_string().into_bytes()),
            })
        }
    }

    /// Shrinks `start` by bisection alone ([`OneNumber`]), with no budget.
    fn bisected(
        start: Fails,
        test: impl FnMut(&[u8]) -> Result<Option<Fails>, ()>,
    ) -> Shrunk<Fails> {
        shrink(start, &mut OneNumber, test, unbounded).unwrap()
    }

    #[test]
    fn reaches_the_smallest_failing_input() {
        // Fails from 7 on: the smallest failing input is 7.
        let shrunk = shrink(
            fails(100, Verdict::WrongAnswer),
            &mut smaller::<()>,
            |input| Ok((number(input) >= 7).then(|| fails(number(input), Verdict::WrongAnswer))),
            unbounded,
        )
        .unwrap();
        assert_eq!(number(&shrunk.minimal.input), 7);
        assert_eq!(shrunk.steps.len(), 1);
        assert_eq!(shrunk.stopped, None);
    }

    #[test]
    fn an_already_minimal_input_stays() {
        let shrunk = shrink(
            fails(3, Verdict::RuntimeError),
            &mut smaller::<()>,
            |_| Ok(None),
            unbounded,
        )
        .unwrap();
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
        let mut candidates = |f: &Fails| -> Result<Vec<Vec<u8>>, ()> {
            let n = number(&f.input);
            Ok((1..n)
                .chain([0])
                .map(|m| m.to_string().into_bytes())
                .collect())
        };
        let shrunk = shrink(
            fails(50, Verdict::WrongAnswer),
            &mut candidates,
            test,
            unbounded,
        )
        .unwrap();
        let steps: Vec<u64> = shrunk.steps.iter().map(|f| number(&f.input)).collect();
        assert_eq!(steps, [2, 0]);
        assert_eq!(shrunk.minimal.verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn another_verdict_is_kept_when_none_has_the_same() {
        let shrunk = shrink(
            fails(5, Verdict::WrongAnswer),
            &mut smaller::<()>,
            |input| Ok((number(input) == 4).then(|| fails(4, Verdict::TimeLimitExceeded))),
            unbounded,
        )
        .unwrap();
        assert_eq!(shrunk.minimal, fails(4, Verdict::TimeLimitExceeded));
    }

    #[test]
    fn a_candidate_equal_to_the_input_is_not_progress() {
        let mut calls = 0;
        let shrunk = shrink(
            fails(5, Verdict::WrongAnswer),
            &mut |f: &Fails| Ok::<_, ()>(vec![f.input.clone()]),
            |input| {
                calls += 1;
                Ok(Some(fails(number(input), Verdict::WrongAnswer)))
            },
            unbounded,
        )
        .unwrap();
        assert_eq!(calls, 0);
        assert!(shrunk.steps.is_empty());
    }

    #[test]
    fn a_shrinker_that_goes_round_in_circles_ends() {
        // Candidates alternate between two failing inputs: the one kept before is not
        // taken back.
        let shrunk = shrink(
            fails(1, Verdict::WrongAnswer),
            &mut |f: &Fails| {
                let other = if number(&f.input) == 1 { 2 } else { 1 };
                Ok::<_, ()>(vec![other.to_string().into_bytes()])
            },
            |input| Ok(Some(fails(number(input), Verdict::WrongAnswer))),
            unbounded,
        )
        .unwrap();
        assert_eq!(shrunk.stopped, None);
        assert_eq!(shrunk.steps.len(), 1);
    }

    #[test]
    fn a_shrinker_that_never_shrinks_is_given_up_on() {
        // Every round offers a new, larger input that fails.
        let shrunk = shrink(
            fails(1, Verdict::WrongAnswer),
            &mut |f: &Fails| Ok::<_, ()>(vec![(number(&f.input) + 1).to_string().into_bytes()]),
            |input| Ok(Some(fails(number(input), Verdict::WrongAnswer))),
            unbounded,
        )
        .unwrap();
        assert_eq!(shrunk.stopped, Some(Stopped::Rounds));
        assert_eq!(shrunk.steps.len(), MAX_ROUNDS);
    }

    #[test]
    fn errors_stop_shrinking() {
        let result = shrink(
            fails(5, Verdict::WrongAnswer),
            &mut smaller,
            |_| Err("broken"),
            unbounded,
        );
        assert_eq!(result.unwrap_err(), "broken");
    }

    #[test]
    fn bisection_finds_a_threshold_in_logarithmic_runs() {
        let threshold = 123_456_789_u64;
        let shrunk = bisected(fails(1_000_000_000_000, Verdict::WrongAnswer), |input| {
            let n = number(input);
            Ok((n >= threshold).then(|| fails(n, Verdict::WrongAnswer)))
        });
        assert_eq!(number(&shrunk.minimal.input), threshold);
        // log2(10^12) is 40: the probes 0, one less and 1, then about 40 halvings.
        assert!(shrunk.tried <= 45, "{} runs", shrunk.tried);
        assert_eq!(shrunk.stopped, None);
    }

    #[test]
    fn bisection_keeps_only_the_starting_verdict_and_ends_where_one_less_passes() {
        // From 10 up: WA; below: TLE (another verdict, so it passes for the bisection);
        // 0 is a WA too, and is found at once.
        let test = |input: &[u8]| {
            let n = number(input);
            let verdict = if n >= 10 {
                Verdict::WrongAnswer
            } else {
                Verdict::TimeLimitExceeded
            };
            Ok::<_, ()>(Some(fails(n, verdict)))
        };
        let shrunk = bisected(fails(1000, Verdict::WrongAnswer), test);
        assert_eq!(number(&shrunk.minimal.input), 10);
        let zero_fails = |input: &[u8]| {
            let n = number(input);
            Ok::<_, ()>((n == 0 || n >= 10).then(|| fails(n, Verdict::WrongAnswer)))
        };
        let shrunk = bisected(fails(1000, Verdict::WrongAnswer), zero_fails);
        assert_eq!(number(&shrunk.minimal.input), 0);
        assert_eq!(shrunk.tried, 1);
    }

    #[test]
    fn a_small_number_tries_every_smaller_value() {
        // Fails at 5 and 7, not at 6: bisection would stop at 7, since 6 passes.
        let shrunk = bisected(fails(7, Verdict::WrongAnswer), |input| {
            let n = number(input);
            Ok::<_, ()>((n >= 5 && n % 2 == 1).then(|| fails(n, Verdict::WrongAnswer)))
        });
        assert_eq!(number(&shrunk.minimal.input), 5);
        assert_eq!(
            shrunk.tried, 6,
            "0 to 4, then 5 fails; 0 to 4 again from memory"
        );
    }

    #[test]
    fn a_number_already_at_its_threshold_costs_two_runs() {
        let shrunk = bisected(fails(1000, Verdict::WrongAnswer), |input| {
            let n = number(input);
            Ok::<_, ()>((n >= 1000).then(|| fails(n, Verdict::WrongAnswer)))
        });
        assert!(shrunk.steps.is_empty());
        assert_eq!(shrunk.tried, 2, "0, then 999");
    }

    #[test]
    fn the_same_candidate_is_run_once() {
        // Every round offers 0..n again: after the first, only new inputs run.
        let mut runs = Vec::new();
        let shrunk = shrink(
            fails(20, Verdict::WrongAnswer),
            &mut |f: &Fails| {
                let n = number(&f.input);
                Ok::<_, ()>(
                    (0..20)
                        .filter(|m| *m != n)
                        .map(|m| m.to_string().into_bytes())
                        .collect(),
                )
            },
            |input| {
                let n = number(input);
                runs.push(n);
                // Only 15 fails, and the round after it offers 0..20 again.
                Ok((n == 15).then(|| fails(n, Verdict::WrongAnswer)))
            },
            unbounded,
        )
        .unwrap();
        assert_eq!(number(&shrunk.minimal.input), 15);
        let mut sorted = runs.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), runs.len(), "run twice: {runs:?}");
        // 0..=15 in the first round; 16..=19 in the second, 0..15 from memory.
        assert_eq!(runs.len(), 20);
        assert_eq!(shrunk.remembered, 15);
    }

    #[test]
    fn the_watch_sees_the_current_failure_and_stops_it() {
        let mut seen = Vec::new();
        let shrunk = shrink(
            fails(1000, Verdict::WrongAnswer),
            &mut OneNumber,
            |input| {
                let n = number(input);
                Ok::<_, ()>((n >= 7).then(|| fails(n, Verdict::WrongAnswer)))
            },
            |tally: &Tally<'_, Fails>| {
                seen.push((number(&tally.current.input), tally.steps, tally.tried));
                (tally.tried == 5).then_some(Stopped::Candidates)
            },
        )
        .unwrap();
        assert_eq!(shrunk.stopped, Some(Stopped::Candidates));
        assert_eq!(shrunk.tried, 5);
        // 0 passes, 999 fails, 1 passes, then halving 1..999: 500 and 250 fail, and the
        // budget of 5 runs is met before 125.
        assert_eq!(
            seen,
            [
                (1000, 0, 0),
                (1000, 0, 1),
                (999, 1, 2),
                (999, 1, 3),
                (500, 2, 4),
                (250, 3, 5)
            ]
        );
        // What it had when stopped is the smallest failure so far.
        assert_eq!(number(&shrunk.minimal.input), 250);
    }
}
