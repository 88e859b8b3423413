//! two-n-queens, fast: each colour's placements on the usable squares enumerated once by
//! bit-mask search, then ordered pairs counted that share no square.

use solutions::input::{self, BoardInput};

/// Every n-queens placement using only usable squares, as a 64-bit set of squares
/// (bit 8·row + column), so two placements share a square exactly when their masks meet.
fn placements(usable: &[u32]) -> Vec<u64> {
    fn go(
        usable: &[u32],
        row: usize,
        taken: u32,
        left: u32,
        right: u32,
        squares: u64,
        out: &mut Vec<u64>,
    ) {
        if row == usable.len() {
            out.push(squares);
            return;
        }
        let mut free = usable[row] & !(taken | left | right);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let square = u64::from(bit) << (8 * row);
            go(
                usable,
                row + 1,
                taken | bit,
                (left | bit) << 1,
                (right | bit) >> 1,
                squares | square,
                out,
            );
        }
    }
    let mut out = Vec::new();
    go(usable, 0, 0, 0, 0, 0, &mut out);
    out
}

fn main() {
    let BoardInput { usable, .. } = input::parse_stdin(input::read_board);
    let rows: Vec<u32> = usable
        .iter()
        .map(|row| {
            row.iter()
                .enumerate()
                .fold(0, |m, (c, &u)| m | u32::from(u) << c)
        })
        .collect();
    let all = placements(&rows);
    // Black and white are told apart, so (a, b) and (b, a) are two placements.
    let pairs: u64 = all
        .iter()
        .map(|&a| all.iter().filter(|&&b| a & b == 0).count() as u64)
        .sum();
    input::write_stdout(format!("{pairs}\n").as_bytes());
}
