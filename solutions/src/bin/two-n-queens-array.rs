//! two-n-queens, benchmark baseline: the Lanqiao tutorial search, white queens row by row with
//! boolean arrays, then black queens with their own arrays and the white queen's square barred.

use solutions::input;

/// One colour's column and diagonal arrays and its queen column per row.
struct Colour {
    pos: Vec<usize>,
    col: Vec<bool>,
    dg: Vec<bool>,
    udg: Vec<bool>,
}

impl Colour {
    fn new(n: usize) -> Colour {
        Colour {
            pos: vec![0; n],
            col: vec![false; n],
            dg: vec![false; 2 * n],
            udg: vec![false; 2 * n],
        }
    }

    fn free(&self, n: usize, r: usize, c: usize) -> bool {
        !self.col[c] && !self.dg[r + c] && !self.udg[r + n - 1 - c]
    }

    fn set(&mut self, n: usize, r: usize, c: usize, on: bool) {
        self.pos[r] = c;
        self.col[c] = on;
        self.dg[r + c] = on;
        self.udg[r + n - 1 - c] = on;
    }
}

struct Search {
    n: usize,
    board: Vec<Vec<bool>>,
    white: Colour,
    black: Colour,
    count: u64,
}

impl Search {
    fn black_dfs(&mut self, r: usize) {
        let n = self.n;
        if r == n {
            self.count += 1;
            return;
        }
        for c in 0..n {
            if self.board[r][c] && self.white.pos[r] != c && self.black.free(n, r, c) {
                self.black.set(n, r, c, true);
                self.black_dfs(r + 1);
                self.black.set(n, r, c, false);
            }
        }
    }

    fn white_dfs(&mut self, r: usize) {
        let n = self.n;
        if r == n {
            self.black_dfs(0);
            return;
        }
        for c in 0..n {
            if self.board[r][c] && self.white.free(n, r, c) {
                self.white.set(n, r, c, true);
                self.white_dfs(r + 1);
                self.white.set(n, r, c, false);
            }
        }
    }
}

fn main() {
    let b = input::parse_stdin(input::read_board);
    let n = b.n;
    let mut s = Search {
        n,
        board: b.usable,
        white: Colour::new(n),
        black: Colour::new(n),
        count: 0,
    };
    s.white_dfs(0);
    input::write_stdout(format!("{}\n", s.count).as_bytes());
}
