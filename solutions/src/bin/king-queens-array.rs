//! king-queens, benchmark baseline: the tutorial n-queens search with boolean arrays for
//! columns and diagonals, plus a test that the square is not beside the king.

use solutions::input;

struct Search {
    n: usize,
    king: (usize, usize), // 0-based
    col: Vec<bool>,
    dg: Vec<bool>,
    udg: Vec<bool>,
    count: u64,
}

impl Search {
    fn dfs(&mut self, r: usize) {
        let n = self.n;
        if r == n {
            self.count += 1;
            return;
        }
        for c in 0..n {
            let by_king = r.abs_diff(self.king.0) <= 1 && c.abs_diff(self.king.1) <= 1;
            if !by_king && !self.col[c] && !self.dg[r + c] && !self.udg[r + n - 1 - c] {
                self.col[c] = true;
                self.dg[r + c] = true;
                self.udg[r + n - 1 - c] = true;
                self.dfs(r + 1);
                self.col[c] = false;
                self.dg[r + c] = false;
                self.udg[r + n - 1 - c] = false;
            }
        }
    }
}

fn main() {
    let k = input::parse_stdin(input::read_king);
    let n = k.n;
    let mut s = Search {
        n,
        king: (k.x - 1, k.y - 1),
        col: vec![false; n],
        dg: vec![false; 2 * n],
        udg: vec![false; 2 * n],
        count: 0,
    };
    s.dfs(0);
    input::write_stdout(format!("{}\n", s.count).as_bytes());
}
