//! The reference's answers to the inputs a stress run has already seen. Random generators
//! repeat small inputs often (king-queens' gives 540 distinct inputs in 2,000 seeds), and
//! the reference, a brute force and usually the slowest of the three programs, is trusted to
//! answer an input the same way each time: an input seen before is answered from here. The
//! submission still runs on every input, repeats included, since it may not be so steady
//! (uninitialised memory, timing, randomness).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Inputs and answers kept in all: past it, new answers are not kept (the old ones stay).
const MAX_KEPT: usize = 64 << 20;
/// The largest input and answer kept together: large random inputs seldom repeat.
const MAX_PAIR: usize = 1 << 20;

/// Answers shared by every worker of one stress run.
#[derive(Debug, Default)]
pub struct Answers {
    kept: Mutex<Kept>,
    reused: AtomicU64,
    /// Keeps nothing: the reference answers every input (`stress --no-memo`).
    disabled: bool,
}

#[derive(Debug, Default)]
struct Kept {
    by_input: HashMap<Box<[u8]>, Arc<[u8]>>,
    bytes: usize,
}

impl Answers {
    pub fn disabled() -> Answers {
        Answers {
            disabled: true,
            ..Answers::default()
        }
    }

    /// The answer the reference gave to `input` before, if it did.
    pub fn get(&self, input: &[u8]) -> Option<Arc<[u8]>> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let answer = kept.by_input.get(input).cloned();
        if answer.is_some() {
            self.reused.fetch_add(1, Ordering::Relaxed);
        }
        answer
    }

    /// Keeps the reference's `answer` to `input`, while there is room.
    pub fn keep(&self, input: &[u8], answer: &[u8]) {
        let size = input.len() + answer.len();
        if self.disabled || size > MAX_PAIR {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.bytes + size > MAX_KEPT || kept.by_input.contains_key(input) {
            return;
        }
        kept.bytes += size;
        kept.by_input.insert(input.into(), answer.into());
    }

    /// How many inputs were answered from here.
    pub fn reused(&self) -> u64 {
        self.reused.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_seen_before_gets_its_answer_and_is_counted() {
        let answers = Answers::default();
        assert!(answers.get(b"3 4\n").is_none());
        answers.keep(b"3 4\n", b"7\n");
        assert_eq!(answers.get(b"3 4\n").as_deref(), Some(&b"7\n"[..]));
        assert!(answers.get(b"3 5\n").is_none());
        assert_eq!(answers.reused(), 1);
    }

    #[test]
    fn large_pairs_are_not_kept_and_the_total_is_bounded() {
        let answers = Answers::default();
        let big = vec![b'1'; MAX_PAIR];
        answers.keep(&big, b"x");
        assert!(answers.get(&big).is_none());
        // Fill to the bound with distinct pairs just under the pair limit.
        let pair = MAX_PAIR / 2;
        let mut n = 0u32;
        loop {
            let mut input = n.to_le_bytes().to_vec();
            input.resize(pair, b' ');
            answers.keep(&input, &[b'a'; 8]);
            if answers.get(&input).is_none() {
                break;
            }
            n += 1;
        }
        assert_eq!(n as usize, MAX_KEPT / (pair + 8));
        let kept = answers.kept.lock().unwrap();
        assert!(kept.bytes <= MAX_KEPT);
    }
}
