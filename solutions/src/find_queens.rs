//! Find the queens, the interactive problem: a hidden valid placement of n queens, made from a
//! seed; the query budget; the strict format of the interactor's input; and the dialogue's
//! lines, shared by the interactor and the fast solution so both read the protocol alike.
//!
//! It is kept apart from [`crate::Problem`], whose four problems have a brute-force reference
//! and an answer per input; this one has neither: the interactor judges every dialogue.

use std::fmt;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The problem's id, as in judge.toml and `cases/`.
pub const ID: &str = "find-the-queens";
/// Largest board of the statement.
pub const MAX_N: usize = standalone::MAX_N;

/// Whether the statement allows a board of size `n`: no placement exists for 2 and 3.
pub fn n_allowed(n: usize) -> bool {
    standalone::n_allowed(n)
}

/// Queries allowed on a board of size `n`: the sum of ⌊log₂ k⌋ for k = 1..=n. A search that
/// halves the columns still free in each row (k of them in the row with n − k + 1 queens
/// left to find) needs exactly that many in the worst case; one that halves all n columns
/// needs about n·log₂ n and runs out.
pub fn budget(n: usize) -> usize {
    (1..=n).map(|k| k.ilog2() as usize).sum()
}

/// Why an input breaks the statement, at a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for Invalid {}

/// A valid placement: `columns[r]` is the 1-based column of the queen in row r + 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub columns: Vec<usize>,
}

impl Placement {
    pub fn n(&self) -> usize {
        self.columns.len()
    }

    /// The interactor's input: n, then the columns row by row.
    pub fn render(&self) -> String {
        let columns: Vec<String> = self.columns.iter().map(usize::to_string).collect();
        format!("{}\n{}\n", self.n(), columns.join(" "))
    }

    /// The first pair of queens that attack each other, as 1-based rows.
    pub fn first_attack(&self) -> Option<(usize, usize)> {
        for (a, &ca) in self.columns.iter().enumerate() {
            for (b, &cb) in self.columns.iter().enumerate().skip(a + 1) {
                if ca == cb || ca.abs_diff(cb) == b - a {
                    return Some((a + 1, b + 1));
                }
            }
        }
        None
    }
}

/// The shipped input validator: one self-contained file that packages carry as source.
/// Included here so that the interactor checks its input with the very same code.
#[path = "bin/validate.rs"]
#[allow(
    dead_code,
    reason = "only the placement check is used here; the rest is the binary's"
)]
mod standalone;

/// Checks the interactor's input strictly, with the input validator's own check (`validate
/// find-the-queens`): `n` on line 1, then n columns separated by single spaces on line 2, a
/// final newline, a valid placement.
pub fn validate(text: &[u8]) -> Result<Placement, Invalid> {
    standalone::validate_placement(text)
        .map(|columns| Placement { columns })
        .map_err(|invalid| Invalid {
            line: invalid.line,
            reason: invalid.reason,
        })
}

/// The families of hidden placements, each with what its seed means.
pub const FAMILIES: [(&str, &str); 3] = [
    ("small", "seed = n, 1 or 4..=12"),
    ("random", "any seed: n uniform in 4..=100"),
    ("large", "any seed: n = 100"),
];

/// The hidden placement that `family` makes from `seed`, the same on every machine.
pub fn generate(family: &str, seed: u64) -> Result<Placement, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = match family {
        "small" => match usize::try_from(seed) {
            Ok(n) if n_allowed(n) && n <= 12 => n,
            _ => {
                return Err(format!(
                    "seed {seed} is not 1 or in 4..=12 for `{ID} small`"
                ))
            }
        },
        "random" => rng.random_range(4..=MAX_N as u32) as usize,
        "large" => MAX_N,
        _ => {
            let known: Vec<String> = FAMILIES
                .iter()
                .map(|(name, about)| format!("`{name}` ({about})"))
                .collect();
            return Err(format!(
                "unknown family `{family}` for `{ID}` (hint: families are {})",
                known.join(", ")
            ));
        }
    };
    Ok(random_placement(n, &mut rng))
}

/// A random valid placement by min-conflicts: start from a random permutation, move a queen in
/// conflict to the least attacked column of its row, restart when stuck. Fast for every n
/// that has a placement; backtracking would stall on some n near 100.
fn random_placement(n: usize, rng: &mut ChaCha8Rng) -> Placement {
    loop {
        let mut columns: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            columns.swap(i, rng.random_range(0..=i as u32) as usize);
        }
        let mut board = Board::new(&columns);
        for _ in 0..50 * n.max(10) {
            let conflicted: Vec<usize> = (0..n).filter(|&r| board.attacks(r) > 0).collect();
            if conflicted.is_empty() {
                return Placement {
                    columns: board.columns.iter().map(|c| c + 1).collect(),
                };
            }
            let row = conflicted[rng.random_range(0..conflicted.len() as u32) as usize];
            board.lift(row);
            let least = (0..n).map(|c| board.count(row, c)).min().unwrap_or(0);
            let best: Vec<usize> = (0..n).filter(|&c| board.count(row, c) == least).collect();
            let column = best[rng.random_range(0..best.len() as u32) as usize];
            board.put(row, column);
        }
    }
}

/// Queens per column and diagonal, for min-conflicts.
struct Board {
    columns: Vec<usize>,
    per_column: Vec<u32>,
    per_sum: Vec<u32>,
    per_difference: Vec<u32>,
}

impl Board {
    fn new(columns: &[usize]) -> Board {
        let n = columns.len();
        let mut board = Board {
            columns: columns.to_vec(),
            per_column: vec![0; n],
            per_sum: vec![0; 2 * n],
            per_difference: vec![0; 2 * n],
        };
        for (row, &column) in columns.iter().enumerate() {
            board.put(row, column);
        }
        board
    }

    fn n(&self) -> usize {
        self.columns.len()
    }

    /// Queens on the lines through (row, column), the square's own queen excluded by lifting.
    fn count(&self, row: usize, column: usize) -> u32 {
        self.per_column[column]
            + self.per_sum[row + column]
            + self.per_difference[row + self.n() - column]
    }

    fn attacks(&self, row: usize) -> u32 {
        self.count(row, self.columns[row]) - 3
    }

    fn lift(&mut self, row: usize) {
        let (column, n) = (self.columns[row], self.n());
        self.per_column[column] -= 1;
        self.per_sum[row + column] -= 1;
        self.per_difference[row + n - column] -= 1;
    }

    fn put(&mut self, row: usize, column: usize) {
        let n = self.n();
        self.columns[row] = column;
        self.per_column[column] += 1;
        self.per_sum[row + column] += 1;
        self.per_difference[row + n - column] += 1;
    }
}

/// One line the submission may send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `? r c`: where is the queen of row r, compared with column c?
    Query { row: usize, column: usize },
    /// `! c1 c2 … cn`: the final answer.
    Answer(Vec<usize>),
}

/// The interactor's reply to a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The queen is in a column left of (smaller than) the one asked.
    Left,
    Here,
    Right,
}

impl Reply {
    pub fn of(queen: usize, asked: usize) -> Reply {
        match queen.cmp(&asked) {
            std::cmp::Ordering::Less => Reply::Left,
            std::cmp::Ordering::Equal => Reply::Here,
            std::cmp::Ordering::Greater => Reply::Right,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Reply::Left => "left",
            Reply::Here => "here",
            Reply::Right => "right",
        }
    }

    pub fn parse(word: &str) -> Option<Reply> {
        [Reply::Left, Reply::Here, Reply::Right]
            .into_iter()
            .find(|r| r.as_str() == word.trim())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads one line of the submission on a board of size `n`, leniently about spacing (any run
/// of blanks), strictly about everything else. The error is the reason a judge would give.
pub fn parse_request(line: &str, n: usize) -> Result<Request, String> {
    let mut tokens = line.split_ascii_whitespace();
    let shown = shorten(line.trim_end());
    match tokens.next() {
        Some("?") => {
            let numbers: Vec<&str> = tokens.collect();
            let [row, column] = numbers.as_slice() else {
                return Err(format!("expected `? r c`, found `{shown}`"));
            };
            let row = in_board(row, n, "row", &shown)?;
            let column = in_board(column, n, "column", &shown)?;
            Ok(Request::Query { row, column })
        }
        Some("!") => {
            let columns: Vec<&str> = tokens.collect();
            if columns.len() != n {
                return Err(format!(
                    "expected `!` and {n} columns, found {} in `{shown}`",
                    columns.len()
                ));
            }
            let columns = columns
                .iter()
                .map(|c| in_board(c, n, "column", &shown))
                .collect::<Result<_, _>>()?;
            Ok(Request::Answer(columns))
        }
        _ => Err(format!(
            "expected `? r c` or `! c1 … c{n}`, found `{shown}`"
        )),
    }
}

fn in_board(token: &str, n: usize, what: &str, shown: &str) -> Result<usize, String> {
    match token.parse::<usize>() {
        Ok(v) if (1..=n).contains(&v) => Ok(v),
        _ => Err(format!(
            "{what} `{}` is not in 1..={n} in `{shown}`",
            shorten(token)
        )),
    }
}

/// Long lines are cut so a reason stays one readable line.
fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_is_the_free_column_search() {
        let table = [(1, 0), (4, 1 + 1 + 2), (8, 13), (12, 25), (100, 480)];
        for (n, expected) in table {
            assert_eq!(budget(n), expected, "n = {n}");
        }
    }

    #[test]
    fn every_family_makes_valid_placements() {
        for (family, _) in FAMILIES {
            for seed in 0..30 {
                let Ok(placement) = generate(family, seed) else {
                    continue;
                };
                let text = placement.render();
                assert_eq!(validate(text.as_bytes()), Ok(placement), "{family} {seed}");
            }
        }
        assert_eq!(generate("large", 7).unwrap().n(), 100);
        assert_eq!(generate("small", 4).unwrap().n(), 4);
        assert!(generate("small", 3).is_err());
        assert!(generate("huge", 1)
            .unwrap_err()
            .contains("unknown family `huge`"));
    }

    #[test]
    fn generation_depends_on_the_seed_only() {
        assert_eq!(generate("random", 5), generate("random", 5));
        assert_ne!(generate("large", 1), generate("large", 2));
    }

    #[test]
    fn an_invalid_placement_keeps_the_validators_line_and_reason() {
        // The table of cases is validate.rs's `find_the_queens_table`: one check for both.
        let error = validate(b"4\n1 2 3 4\n").unwrap_err();
        assert_eq!(error.line, 2);
        assert_eq!(error.reason, "the queens of rows 1 and 2 attack each other");
    }

    #[test]
    fn requests_table() {
        use Request::*;
        assert_eq!(parse_request("? 2 3", 4), Ok(Query { row: 2, column: 3 }));
        assert_eq!(
            parse_request("  !  2 4 1 3 \r", 4),
            Ok(Answer(vec![2, 4, 1, 3]))
        );
        let errors = [
            ("? 0 1", "row `0` is not in 1..=4"),
            ("? 1 5", "column `5` is not in 1..=4"),
            ("? 1", "expected `? r c`"),
            ("! 1 2", "expected `!` and 4 columns, found 2"),
            (
                "guess 3",
                "expected `? r c` or `! c1 … c4`, found `guess 3`",
            ),
            ("", "expected `? r c` or `! c1 … c4`"),
        ];
        for (line, reason) in errors {
            let got = parse_request(line, 4).unwrap_err();
            assert!(got.contains(reason), "{line:?}: {got}");
        }
    }

    #[test]
    fn replies_compare_the_queen_with_the_column() {
        assert_eq!(Reply::of(2, 5), Reply::Left);
        assert_eq!(Reply::of(5, 5), Reply::Here);
        assert_eq!(Reply::of(7, 5), Reply::Right);
        assert_eq!(Reply::parse("right\n"), Some(Reply::Right));
        assert_eq!(Reply::parse("up"), None);
    }
}
