//! checker-challenge, benchmark baseline: the classic USACO search, row by row with boolean
//! arrays for columns and both diagonals, printing the first three placements it meets.

use solutions::input;

struct Search {
    n: usize,
    pos: Vec<usize>,
    col: Vec<bool>,
    dg: Vec<bool>,
    udg: Vec<bool>,
    count: u64,
    out: String,
}

impl Search {
    fn dfs(&mut self, r: usize) {
        let n = self.n;
        if r == n {
            self.count += 1;
            if self.count <= 3 {
                let words: Vec<String> = self.pos.iter().map(|c| (c + 1).to_string()).collect();
                self.out.push_str(&words.join(" "));
                self.out.push('\n');
            }
            return;
        }
        for c in 0..n {
            if !self.col[c] && !self.dg[r + c] && !self.udg[r + n - 1 - c] {
                self.pos[r] = c;
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
    let n = input::parse_stdin(|text| input::read_n(text, 6, 13));
    let mut s = Search {
        n,
        pos: vec![0; n],
        col: vec![false; n],
        dg: vec![false; 2 * n],
        udg: vec![false; 2 * n],
        count: 0,
        out: String::new(),
    };
    s.dfs(0);
    s.out.push_str(&format!("{}\n", s.count));
    input::write_stdout(s.out.as_bytes());
}
