//! Shrinking a failing stress-test input: candidate inputs that are strictly smaller by
//! [`Instance::measure`], smallest first, so a driver that keeps the first still-failing
//! candidate and repeats always stops.

use crate::{Instance, Problem};

/// Smaller valid inputs of `problem` derived from `input`, smallest measure first, without
/// duplicates. Empty when `input` is already minimal.
pub fn candidates(problem: Problem, input: &Instance) -> Vec<Instance> {
    let raw = match input {
        Instance::N(n) => (1..*n).map(Instance::N).collect(),
        Instance::King { n, x, y } => king(*n, *x, *y),
        Instance::Board(rows) => board(rows),
    };
    let limit = input.measure();
    let mut out: Vec<Instance> = Vec::new();
    for c in raw {
        if c.fits(problem) && c.measure() < limit && !out.contains(&c) {
            out.push(c);
        }
    }
    // Stable: among equal measures the order of construction (most drastic first) stays.
    out.sort_by_key(Instance::measure);
    out
}

fn king(n: usize, x: usize, y: usize) -> Vec<Instance> {
    let mut out = Vec::new();
    // Smaller boards, with the king clamped to stay inside.
    for m in 1..n {
        out.push(Instance::King {
            n: m,
            x: x.min(m),
            y: y.min(m),
        });
    }
    // Same board, king moved toward the (1, 1) corner: all the way, halfway, one step.
    out.push(Instance::King { n, x: 1, y: 1 });
    out.push(Instance::King {
        n,
        x: x.div_ceil(2),
        y: y.div_ceil(2),
    });
    if x > 1 {
        out.push(Instance::King { n, x: x - 1, y });
    }
    if y > 1 {
        out.push(Instance::King { n, x, y: y - 1 });
    }
    out
}

fn board(rows: &[Vec<bool>]) -> Vec<Instance> {
    let n = rows.len();
    let mut out = Vec::new();
    // Top-left crops to every smaller size.
    for m in 1..n {
        out.push(Instance::Board(
            rows[..m].iter().map(|r| r[..m].to_vec()).collect(),
        ));
    }
    // Drop one row and one column anywhere.
    for dr in 0..n {
        for dc in 0..n {
            if n > 1 {
                out.push(Instance::Board(
                    rows.iter()
                        .enumerate()
                        .filter(|&(r, _)| r != dr)
                        .map(|(_, row)| {
                            row.iter()
                                .enumerate()
                                .filter(|&(c, _)| c != dc)
                                .map(|(_, &u)| u)
                                .collect()
                        })
                        .collect(),
                ));
            }
        }
    }
    // Same size, fewer usable squares: a whole row, a whole column, one square.
    for r in 0..n {
        let mut b = rows.to_vec();
        b[r].fill(false);
        out.push(Instance::Board(b));
    }
    for c in 0..n {
        let mut b = rows.to_vec();
        for row in &mut b {
            row[c] = false;
        }
        out.push(Instance::Board(b));
    }
    for r in 0..n {
        for c in 0..n {
            if rows[r][c] {
                let mut b = rows.to_vec();
                b[r][c] = false;
                out.push(Instance::Board(b));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_inputs_have_no_candidates() {
        assert!(candidates(Problem::CheckerChallenge, &Instance::N(6)).is_empty());
        assert!(candidates(Problem::QueensBoards, &Instance::N(1)).is_empty());
        let king = Instance::King { n: 1, x: 1, y: 1 };
        assert!(candidates(Problem::KingQueens, &king).is_empty());
        let empty = Instance::Board(vec![vec![false]]);
        assert!(candidates(Problem::TwoNQueens, &empty).is_empty());
    }

    #[test]
    fn n_shrinks_within_bounds() {
        let got = candidates(Problem::CheckerChallenge, &Instance::N(8));
        assert_eq!(got, vec![Instance::N(6), Instance::N(7)]);
    }

    #[test]
    fn king_candidates_are_smaller_and_inside() {
        let input = Instance::King { n: 5, x: 5, y: 3 };
        let got = candidates(Problem::KingQueens, &input);
        assert_eq!(got[0], Instance::King { n: 1, x: 1, y: 1 });
        assert!(got.contains(&Instance::King { n: 4, x: 4, y: 3 }));
        assert!(got.contains(&Instance::King { n: 5, x: 4, y: 3 }));
        for c in &got {
            assert!(c.fits(Problem::KingQueens) && c.measure() < input.measure());
        }
    }

    #[test]
    fn repeated_shrinking_ends() {
        let mut input = Instance::Board(vec![vec![true; 4]; 4]);
        let mut steps = 0;
        // Always take the last (largest) candidate: the slowest possible descent.
        while let Some(next) = candidates(Problem::TwoNQueens, &input).pop() {
            assert!(next.measure() < input.measure());
            input = next;
            steps += 1;
        }
        assert_eq!(input, Instance::Board(vec![vec![false]]));
        assert!(steps > 4);
    }
}
