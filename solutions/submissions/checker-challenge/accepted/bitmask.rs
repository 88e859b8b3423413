//! checker-challenge, accepted, in Rust: bit-mask search, lowest column first, so the
//! placements come in lexicographic order.
use std::io::{self, Read, Write};

struct Search {
    n: usize,
    full: u32,
    cols: Vec<usize>,
    found: u64,
    out: String,
}

impl Search {
    fn place(&mut self, row: usize, taken: u32, left: u32, right: u32) {
        if row == self.n {
            self.found += 1;
            if self.found <= 3 {
                let line: Vec<String> = self.cols.iter().map(|c| (c + 1).to_string()).collect();
                self.out.push_str(&line.join(" "));
                self.out.push('\n');
            }
            return;
        }
        let mut free = self.full & !(taken | left | right);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.cols[row] = bit.trailing_zeros() as usize;
            self.place(row + 1, taken | bit, (left | bit) << 1, (right | bit) >> 1);
        }
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let n: usize = input.trim().parse().unwrap();
    let mut search = Search {
        n,
        full: (1 << n) - 1,
        cols: vec![0; n],
        found: 0,
        out: String::new(),
    };
    search.place(0, 0, 0, 0);
    let mut out = search.out;
    out.push_str(&format!("{}\n", search.found));
    io::stdout().write_all(out.as_bytes()).unwrap();
}
