//! queens-boards, benchmark baseline: the tutorial search, row by row with boolean arrays for
//! columns and both diagonals, printing each board as it is found.

use solutions::input;

struct Board {
    n: usize,
    grid: Vec<Vec<u8>>,
    col: Vec<bool>,
    dg: Vec<bool>,  // "/" diagonal: r + c
    udg: Vec<bool>, // "\" diagonal: r - c + n - 1
    out: Vec<u8>,
}

impl Board {
    fn dfs(&mut self, r: usize) {
        let n = self.n;
        if r == n {
            for row in &self.grid {
                self.out.extend_from_slice(row);
                self.out.push(b'\n');
            }
            self.out.push(b'\n');
            return;
        }
        for c in 0..n {
            if !self.col[c] && !self.dg[r + c] && !self.udg[r + n - 1 - c] {
                self.grid[r][c] = b'Q';
                self.col[c] = true;
                self.dg[r + c] = true;
                self.udg[r + n - 1 - c] = true;
                self.dfs(r + 1);
                self.grid[r][c] = b'.';
                self.col[c] = false;
                self.dg[r + c] = false;
                self.udg[r + n - 1 - c] = false;
            }
        }
    }
}

fn main() {
    let n = input::parse_stdin(|text| input::read_n(text, 1, 9));
    let mut b = Board {
        n,
        grid: vec![vec![b'.'; n]; n],
        col: vec![false; n],
        dg: vec![false; 2 * n],
        udg: vec![false; 2 * n],
        out: Vec::new(),
    };
    b.dfs(0);
    input::write_stdout(&b.out);
}
