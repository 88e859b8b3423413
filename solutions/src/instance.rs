//! One input of a problem as data: parsed from text, rendered back in the statement's exact
//! format, and measured so shrinking can promise to make progress.

use std::fmt::Write as _;

use crate::input::{self, InputError};
use crate::Problem;

/// An input of one of the problems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instance {
    /// queens-boards and checker-challenge: just n.
    N(usize),
    /// king-queens: board size and the king's 1-based row x and column y.
    King { n: usize, x: usize, y: usize },
    /// two-n-queens: `usable[r][c]`, 0-based; the board is square.
    Board(Vec<Vec<bool>>),
}

impl Instance {
    /// Parses an input of `problem` (leniently about whitespace, strictly about values).
    pub fn parse(problem: Problem, text: &[u8]) -> Result<Instance, InputError> {
        Ok(match problem {
            Problem::QueensBoards | Problem::CheckerChallenge => {
                let (lo, hi) = problem.n_bounds();
                Instance::N(input::read_n(text, lo, hi)?)
            }
            Problem::KingQueens => {
                let k = input::read_king(text)?;
                Instance::King {
                    n: k.n,
                    x: k.x,
                    y: k.y,
                }
            }
            Problem::TwoNQueens => Instance::Board(input::read_board(text)?.usable),
        })
    }

    pub fn n(&self) -> usize {
        match self {
            Instance::N(n) | Instance::King { n, .. } => *n,
            Instance::Board(rows) => rows.len(),
        }
    }

    /// The text of the input exactly as the statement lays it out.
    pub fn render(&self) -> String {
        match self {
            Instance::N(n) => format!("{n}\n"),
            Instance::King { n, x, y } => format!("{n} {x} {y}\n"),
            Instance::Board(rows) => {
                let mut s = format!("{}\n", rows.len());
                for row in rows {
                    let cells: Vec<&str> = row.iter().map(|&u| if u { "1" } else { "0" }).collect();
                    let _ = writeln!(s, "{}", cells.join(" "));
                }
                s
            }
        }
    }

    /// A size that every shrink step strictly decreases, compared lexicographically:
    /// n first, then the king's distance from the corner (x + y) or the usable squares.
    /// Both parts are bounded below, so repeated shrinking ends.
    pub fn measure(&self) -> (usize, usize) {
        match self {
            Instance::N(n) => (*n, 0),
            Instance::King { n, x, y } => (*n, x + y),
            Instance::Board(rows) => (rows.len(), rows.iter().flatten().filter(|&&u| u).count()),
        }
    }

    /// Whether the instance is within `problem`'s bounds (shrinking must not leave them).
    pub fn fits(&self, problem: Problem) -> bool {
        let (lo, hi) = problem.n_bounds();
        let n = self.n();
        let shape = match (problem, self) {
            (Problem::QueensBoards | Problem::CheckerChallenge, Instance::N(_)) => true,
            (Problem::KingQueens, Instance::King { n, x, y }) => {
                (1..=*n).contains(x) && (1..=*n).contains(y)
            }
            (Problem::TwoNQueens, Instance::Board(rows)) => rows.iter().all(|r| r.len() == n),
            _ => false,
        };
        shape && (lo as usize..=hi as usize).contains(&n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_parse_round_trip() {
        let cases = [
            (Problem::QueensBoards, Instance::N(9)),
            (Problem::KingQueens, Instance::King { n: 8, x: 2, y: 2 }),
            (
                Problem::TwoNQueens,
                Instance::Board(vec![vec![true, false], vec![false, true]]),
            ),
        ];
        for (p, inst) in cases {
            let text = inst.render();
            assert_eq!(Instance::parse(p, text.as_bytes()).unwrap(), inst);
            assert!(inst.fits(p));
        }
        assert_eq!(
            Instance::Board(vec![vec![true, false], vec![false, true]]).render(),
            "2\n1 0\n0 1\n"
        );
    }

    #[test]
    fn fits_checks_bounds() {
        assert!(!Instance::N(5).fits(Problem::CheckerChallenge));
        assert!(Instance::N(5).fits(Problem::QueensBoards));
        assert!(!Instance::King { n: 3, x: 4, y: 1 }.fits(Problem::KingQueens));
    }
}
