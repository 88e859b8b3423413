//! queens-boards, fast: every n-queens board by a bit-mask search, mirrored boards for free.

use solutions::input;

/// Depth-first search over rows. Free squares of the current row are a mask; the lowest set
/// bit is tried first. Every complete placement is passed to `found` as its column list.
struct Search<F: FnMut(&[usize])> {
    full: u32,
    cols: Vec<usize>,
    found: F,
}

impl<F: FnMut(&[usize])> Search<F> {
    fn place(&mut self, free_here: u32, taken: u32, left: u32, right: u32) {
        let mut free = free_here;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.cols.push(bit.trailing_zeros() as usize);
            let taken = taken | bit;
            if taken == self.full {
                (self.found)(&self.cols);
            } else {
                let left = (left | bit) << 1;
                let right = (right | bit) >> 1;
                self.place(self.full & !(taken | left | right), taken, left, right);
            }
            self.cols.pop();
        }
    }
}

fn main() {
    let n = input::parse_stdin(|text| input::read_n(text, 1, 9));
    if n == 1 {
        // The lone board is its own mirror; the halving below would print it twice.
        input::write_stdout(b"Q\n\n");
        return;
    }
    let full = (1u32 << n) - 1;
    // One row text per queen column, so a board is n copies, no per-square work.
    let rows: Vec<Vec<u8>> = (0..n)
        .map(|c| {
            let mut row = vec![b'.'; n + 1];
            row[c] = b'Q';
            row[n] = b'\n';
            row
        })
        .collect();
    let mut out = Vec::with_capacity(1 << 15);
    let mut write_board = |cols: &[usize], mirrored: bool| {
        for &c in cols {
            out.extend_from_slice(&rows[if mirrored { n - 1 - c } else { c }]);
        }
        out.push(b'\n');
    };
    // A board and its left-right mirror are both solutions and distinct (for n > 1): search
    // only those with the first queen in the left half, or in the middle column with the
    // second queen in the left half, and print each board found together with its mirror.
    let half = (1u32 << (n / 2)) - 1;
    let mut search = Search {
        full,
        cols: Vec::with_capacity(n),
        found: |cols: &[usize]| {
            write_board(cols, false);
            write_board(cols, true);
        },
    };
    search.place(half, 0, 0, 0);
    if n % 2 == 1 {
        let mid = 1u32 << (n / 2);
        search.cols.push(n / 2);
        let (left, right) = (mid << 1, mid >> 1);
        search.place(half & !(left | right), mid, left, right);
    }
    drop(search); // gives `out` back from the closure that writes into it
    input::write_stdout(&out);
}
