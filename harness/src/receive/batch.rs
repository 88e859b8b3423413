//! A whole contest arrives as one request per problem sharing a batch id: collect them until
//! all have come, or until the batch has been quiet too long, then hand the batch over once.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::Received;

/// A batch handed over: every problem that came, in contest order.
#[derive(Debug, Clone)]
pub struct Completed {
    pub id: String,
    pub problems: Vec<Received>,
    /// How many problems the contest has; more than `problems.len()` when it timed out.
    pub expected: usize,
}

impl Completed {
    pub fn missing(&self) -> usize {
        self.expected.saturating_sub(self.problems.len())
    }
}

/// What adding one problem gave.
#[derive(Debug, Clone)]
pub enum Progress {
    /// Not part of a contest (or a contest of one).
    Single,
    /// `received` of `expected` problems of its batch have come.
    Waiting {
        received: usize,
        expected: usize,
    },
    Complete(Completed),
}

#[derive(Debug)]
struct Open {
    expected: usize,
    problems: Vec<Received>,
    last_arrival: Instant,
}

/// The batches still waiting for problems.
#[derive(Debug)]
pub struct Batches {
    open: HashMap<String, Open>,
    /// A batch that hears nothing for this long is handed over with what it has.
    quiet: Duration,
}

impl Batches {
    pub fn new(quiet: Duration) -> Batches {
        Batches {
            open: HashMap::new(),
            quiet,
        }
    }

    pub fn add(&mut self, problem: Received, now: Instant) -> Progress {
        let Some(batch) = problem.batch.clone().filter(|b| b.size > 1) else {
            return Progress::Single;
        };
        let open = self.open.entry(batch.id.clone()).or_insert_with(|| Open {
            expected: batch.size,
            problems: Vec::new(),
            last_arrival: now,
        });
        open.problems.push(problem);
        open.last_arrival = now;
        if open.problems.len() < open.expected {
            return Progress::Waiting {
                received: open.problems.len(),
                expected: open.expected,
            };
        }
        let open = self
            .open
            .remove(&batch.id)
            .expect("the batch just added to");
        Progress::Complete(complete(batch.id, open))
    }

    /// Hands over the batches that have been quiet for too long.
    pub fn expire(&mut self, now: Instant) -> Vec<Completed> {
        let quiet: Vec<String> = self
            .open
            .iter()
            .filter(|(_, open)| now.duration_since(open.last_arrival) >= self.quiet)
            .map(|(id, _)| id.clone())
            .collect();
        let mut expired: Vec<Completed> = quiet
            .into_iter()
            .map(|id| {
                let open = self.open.remove(&id).expect("a batch listed as quiet");
                complete(id, open)
            })
            .collect();
        expired.sort_by(|a, b| a.id.cmp(&b.id));
        expired
    }

    /// Hands over every open batch (when the server stops).
    pub fn drain(&mut self) -> Vec<Completed> {
        let mut all: Vec<Completed> = self
            .open
            .drain()
            .map(|(id, open)| complete(id, open))
            .collect();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        all
    }
}

fn complete(id: String, open: Open) -> Completed {
    let mut problems = open.problems;
    // The extension sends a contest's problems in parallel: put them back in contest order,
    // which the judges' ids follow (cf1900a < cf1900b, abc311_a < abc311_b).
    problems.sort_by_key(|p| natural_key(p.id()));
    Completed {
        id,
        problems,
        expected: open.expected,
    }
}

/// Orders `a2` before `a10`: contest order for the judges' ids.
pub fn natural_key(id: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in id.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                key.push((
                    std::mem::take(&mut text),
                    digits.parse().unwrap_or(u64::MAX),
                ));
                digits.clear();
            }
            text.push(c);
        }
    }
    key.push((text, digits.parse().unwrap_or(0)));
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::receive::payload::Batch;

    fn problem(id: &str, batch: Option<(&str, usize)>) -> Received {
        Received {
            table: crate::config::edit::NewProblem {
                id: id.to_string(),
                ..Default::default()
            },
            batch: batch.map(|(id, size)| Batch {
                id: id.to_string(),
                size,
            }),
            ..Received::default()
        }
    }

    fn ids(completed: &Completed) -> Vec<&str> {
        completed.problems.iter().map(Received::id).collect()
    }

    #[test]
    fn a_batch_completes_in_contest_order_whatever_the_arrival() {
        let mut batches = Batches::new(Duration::from_secs(30));
        let now = Instant::now();
        for id in ["cf9c", "cf9a", "cf9b10", "cf9b2"] {
            let progress = batches.add(problem(id, Some(("x", 5))), now);
            assert!(matches!(progress, Progress::Waiting { expected: 5, .. }));
        }
        assert!(matches!(
            batches.add(problem("other", None), now),
            Progress::Single
        ));
        let Progress::Complete(done) = batches.add(problem("cf9d", Some(("x", 5))), now) else {
            panic!("five of five is complete");
        };
        assert_eq!(ids(&done), ["cf9a", "cf9b2", "cf9b10", "cf9c", "cf9d"]);
        assert_eq!(done.missing(), 0);
        assert!(batches.drain().is_empty());
    }

    #[test]
    fn a_quiet_batch_is_handed_over_with_what_came() {
        let mut batches = Batches::new(Duration::from_secs(30));
        let start = Instant::now();
        batches.add(problem("abc1_b", Some(("y", 3))), start);
        batches.add(
            problem("abc1_a", Some(("y", 3))),
            start + Duration::from_secs(20),
        );
        assert!(batches.expire(start + Duration::from_secs(49)).is_empty());
        let expired = batches.expire(start + Duration::from_secs(50));
        assert_eq!(expired.len(), 1);
        assert_eq!(ids(&expired[0]), ["abc1_a", "abc1_b"]);
        assert_eq!(expired[0].missing(), 1);
        assert!(batches.drain().is_empty());
    }
}
