//! checker-challenge, fast: the first three placements and the count by bit-mask search, the
//! count halved by the left-right mirror.

use std::fmt::Write as _;

use solutions::input;

/// Collects up to `want` placements in lexicographic order: trying the lowest free column
/// first makes the search visit placements in that order, so it can stop early.
fn first_placements(n: usize, want: usize) -> Vec<Vec<usize>> {
    fn go(
        full: u32,
        taken: u32,
        left: u32,
        right: u32,
        cols: &mut Vec<usize>,
        want: usize,
        out: &mut Vec<Vec<usize>>,
    ) {
        if taken == full {
            out.push(cols.clone());
            return;
        }
        let mut free = full & !(taken | left | right);
        while free != 0 && out.len() < want {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            cols.push(bit.trailing_zeros() as usize);
            go(
                full,
                taken | bit,
                (left | bit) << 1,
                (right | bit) >> 1,
                cols,
                want,
                out,
            );
            cols.pop();
        }
    }
    let mut out = Vec::with_capacity(want);
    go(
        (1 << n) - 1,
        0,
        0,
        0,
        &mut Vec::with_capacity(n),
        want,
        &mut out,
    );
    out
}

/// Placements that extend a partial one with `rows` rows still to fill: `taken` columns,
/// `left`/`right` the diagonals attacking the next row, `free` its squares still allowed.
fn count_from(full: u32, rows: usize, free: u32, taken: u32, left: u32, right: u32) -> u64 {
    if rows == 1 {
        // One column is left; it is either free or attacked.
        return u64::from(free != 0);
    }
    let mut free = free;
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let taken = taken | bit;
        let left = (left | bit) << 1;
        let right = (right | bit) >> 1;
        let next = full & !(taken | left | right);
        // The next row is the last: test it instead of entering it, and do not enter a row
        // with no free square. Calls saved at the bottom of the tree are most of the time.
        if rows == 2 {
            total += u64::from(next != 0);
        } else if next != 0 {
            total += count_from(full, rows - 1, next, taken, left, right);
        }
    }
    total
}

/// Every placement's mirror is a different placement (n > 1), so count those whose first
/// queen is in the left half, plus (odd n) those with the first queen in the middle and the
/// second in the left half, and double.
fn count(n: usize) -> u64 {
    let full = (1u32 << n) - 1;
    let half = (1u32 << (n / 2)) - 1;
    let mut total = count_from(full, n, half, 0, 0, 0);
    if n % 2 == 1 {
        let mid = 1u32 << (n / 2);
        let (left, right) = (mid << 1, mid >> 1);
        total += count_from(full, n - 1, half & !(left | right), mid, left, right);
    }
    2 * total
}

fn main() {
    let n = input::parse_stdin(|text| input::read_n(text, 6, 13));
    let mut out = String::new();
    for cols in first_placements(n, 3) {
        let line: Vec<String> = cols.iter().map(|c| (c + 1).to_string()).collect();
        let _ = writeln!(out, "{}", line.join(" "));
    }
    let _ = writeln!(out, "{}", count(n));
    input::write_stdout(out.as_bytes());
}
