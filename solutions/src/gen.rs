//! Case generation: every family turns a seed into one input, deterministically. The harness
//! reruns these to rebuild `cases/`, so an output may only depend on (problem, family, seed):
//! randomness comes from ChaCha8 seeded with the seed, which is portable and reproducible.

use std::fmt;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Instance, Problem};

/// Why a (problem, family, seed) triple names no input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenError {
    UnknownFamily {
        problem: Problem,
        family: String,
    },
    SeedOutOfRange {
        problem: Problem,
        family: &'static str,
        seed: u64,
        lo: u64,
        hi: u64,
    },
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::UnknownFamily { problem, family } => write!(
                f,
                "unknown family `{family}` for `{problem}` (hint: families are {})",
                families(*problem)
                    .iter()
                    .map(|(name, about)| format!("`{name}` ({about})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            GenError::SeedOutOfRange {
                problem,
                family,
                seed,
                lo,
                hi,
            } => write!(
                f,
                "seed {seed} is out of [{lo}, {hi}] for `{problem} {family}`"
            ),
        }
    }
}

impl std::error::Error for GenError {}

/// The families of a problem, each with what its seed means.
pub fn families(problem: Problem) -> &'static [(&'static str, &'static str)] {
    match problem {
        Problem::QueensBoards => &[
            ("exhaustive", "seed = n, 1..=9"),
            ("random", "any seed: n uniform in 1..=9"),
        ],
        Problem::CheckerChallenge => &[
            ("exhaustive", "seed = n, 6..=13"),
            ("random", "any seed: n uniform in 6..=13"),
        ],
        Problem::KingQueens => &[
            (
                "exhaustive",
                "seed = index 0..=649 of (n, x, y) in lexicographic order",
            ),
            ("random", "any seed: n uniform in 1..=12, king uniform"),
        ],
        Problem::TwoNQueens => &[
            ("full", "seed = n, 1..=8: every square usable"),
            ("empty", "seed = n, 1..=8: no square usable"),
            ("one-row", "any seed: only one row has usable squares"),
            ("one-col", "any seed: only one column has usable squares"),
            ("random", "any seed: n in 1..=8, density from empty to full"),
            (
                "holes",
                "any seed: n in 4..=8, full but for 1 to 3 unusable squares",
            ),
        ],
    }
}

/// The input that `family` makes from `seed`.
pub fn generate(problem: Problem, family: &str, seed: u64) -> Result<Instance, GenError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let in_range = |family: &'static str, lo: u64, hi: u64| {
        if (lo..=hi).contains(&seed) {
            Ok(seed)
        } else {
            Err(GenError::SeedOutOfRange {
                problem,
                family,
                seed,
                lo,
                hi,
            })
        }
    };
    let (lo, hi) = problem.n_bounds();
    let instance = match (problem, family) {
        (Problem::QueensBoards | Problem::CheckerChallenge, "exhaustive") => {
            Instance::N(in_range("exhaustive", lo.into(), hi.into())? as usize)
        }
        (Problem::QueensBoards | Problem::CheckerChallenge, "random") => {
            Instance::N(rng.random_range(lo..=hi) as usize)
        }
        (Problem::KingQueens, "exhaustive") => {
            king_by_index(in_range("exhaustive", 0, KING_INPUTS - 1)?)
        }
        (Problem::KingQueens, "random") => {
            let n = rng.random_range(1..=12u32);
            Instance::King {
                n: n as usize,
                x: rng.random_range(1..=n) as usize,
                y: rng.random_range(1..=n) as usize,
            }
        }
        (Problem::TwoNQueens, "full") => {
            let n = in_range("full", 1, 8)? as usize;
            Instance::Board(vec![vec![true; n]; n])
        }
        (Problem::TwoNQueens, "empty") => {
            let n = in_range("empty", 1, 8)? as usize;
            Instance::Board(vec![vec![false; n]; n])
        }
        (Problem::TwoNQueens, "one-row") => Instance::Board(one_line(&mut rng)),
        (Problem::TwoNQueens, "one-col") => Instance::Board(transpose(&one_line(&mut rng))),
        (Problem::TwoNQueens, "random") => {
            let n = rng.random_range(1..=8u32) as usize;
            // Density in steps of 5%, from 0% (all zero) to 100% (all one).
            let per_mille = rng.random_range(0..=20u32) * 50;
            let rows = (0..n)
                .map(|_| {
                    (0..n)
                        .map(|_| rng.random_range(0..1000u32) < per_mille)
                        .collect()
                })
                .collect();
            Instance::Board(rows)
        }
        (Problem::TwoNQueens, "holes") => {
            let n = rng.random_range(4..=8u32) as usize;
            let mut rows = vec![vec![true; n]; n];
            for _ in 0..rng.random_range(1..=3u32) {
                let r = rng.random_range(0..n as u32) as usize;
                let c = rng.random_range(0..n as u32) as usize;
                rows[r][c] = false;
            }
            Instance::Board(rows)
        }
        _ => {
            return Err(GenError::UnknownFamily {
                problem,
                family: family.to_string(),
            })
        }
    };
    Ok(instance)
}

/// Number of king-queens inputs: the sum of n² for n in 1..=12.
pub const KING_INPUTS: u64 = 650;

/// The `index`-th (n, x, y) in lexicographic order.
fn king_by_index(mut index: u64) -> Instance {
    for n in 1..=12u64 {
        if index < n * n {
            return Instance::King {
                n: n as usize,
                x: (index / n + 1) as usize,
                y: (index % n + 1) as usize,
            };
        }
        index -= n * n;
    }
    unreachable!("index checked against KING_INPUTS")
}

/// A board whose usable squares all lie in one row (at least one of them).
fn one_line(rng: &mut ChaCha8Rng) -> Vec<Vec<bool>> {
    let n = rng.random_range(1..=8u32) as usize;
    let r = rng.random_range(0..n as u32) as usize;
    let mut rows = vec![vec![false; n]; n];
    // Half the time the whole row, otherwise a random part of it.
    let whole = rng.random_bool(0.5);
    for cell in &mut rows[r] {
        *cell = whole || rng.random_bool(0.5);
    }
    let c = rng.random_range(0..n as u32) as usize;
    rows[r][c] = true;
    rows
}

fn transpose(rows: &[Vec<bool>]) -> Vec<Vec<bool>> {
    let n = rows.len();
    (0..n)
        .map(|c| (0..n).map(|r| rows[r][c]).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_index_enumerates_every_input_once() {
        let all: Vec<Instance> = (0..KING_INPUTS).map(king_by_index).collect();
        assert_eq!(all[0], Instance::King { n: 1, x: 1, y: 1 });
        assert_eq!(all[1], Instance::King { n: 2, x: 1, y: 1 });
        assert_eq!(all[4], Instance::King { n: 2, x: 2, y: 2 });
        assert_eq!(
            all[649],
            Instance::King {
                n: 12,
                x: 12,
                y: 12
            }
        );
        let mut sorted = all.clone();
        sorted.sort_by_key(|i| match i {
            Instance::King { n, x, y } => (*n, *x, *y),
            _ => unreachable!(),
        });
        sorted.dedup();
        assert_eq!(sorted, all);
    }

    #[test]
    fn every_family_fits_its_problem() {
        for p in Problem::ALL {
            for (family, _) in families(p) {
                for seed in 0..50 {
                    if let Ok(inst) = generate(p, family, seed) {
                        assert!(inst.fits(p), "{p} {family} {seed}: {inst:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn one_line_boards_use_one_line() {
        for seed in 0..100 {
            let Instance::Board(rows) = generate(Problem::TwoNQueens, "one-row", seed).unwrap()
            else {
                unreachable!()
            };
            let used_rows = rows.iter().filter(|r| r.contains(&true)).count();
            assert_eq!(used_rows, 1);
        }
    }

    #[test]
    fn errors_explain() {
        let e = generate(Problem::QueensBoards, "exhaustive", 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "seed 10 is out of [1, 9] for `queens-boards exhaustive`"
        );
        let e = generate(Problem::KingQueens, "full", 1).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("unknown family `full` for `king-queens`"));
    }
}
