//! The four problems by id, with the bounds their statements give.

use std::fmt;

/// One of the judge's problems; the id is the folder name under `cases/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Problem {
    QueensBoards,
    CheckerChallenge,
    KingQueens,
    TwoNQueens,
}

impl Problem {
    pub const ALL: [Problem; 4] = [
        Problem::QueensBoards,
        Problem::CheckerChallenge,
        Problem::KingQueens,
        Problem::TwoNQueens,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Problem::QueensBoards => "queens-boards",
            Problem::CheckerChallenge => "checker-challenge",
            Problem::KingQueens => "king-queens",
            Problem::TwoNQueens => "two-n-queens",
        }
    }

    pub fn from_id(id: &str) -> Option<Problem> {
        Problem::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The inclusive range of n the statement allows.
    pub fn n_bounds(self) -> (u32, u32) {
        match self {
            Problem::QueensBoards => (1, 9),
            Problem::CheckerChallenge => (6, 13),
            Problem::KingQueens => (1, 12),
            Problem::TwoNQueens => (1, 8),
        }
    }

    /// The ids joined for a hint in an error message.
    pub fn known_ids() -> String {
        Problem::ALL.map(|p| format!("`{}`", p.id())).join(", ")
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for p in Problem::ALL {
            assert_eq!(Problem::from_id(p.id()), Some(p));
        }
        assert_eq!(Problem::from_id("n-queens"), None);
    }
}
