//! king-queens, fast: the n-queens count by bit-mask search with a forbidden mask per row,
//! halved by the left-right mirror when the king's squares are symmetric under it.

use solutions::input::{self, KingInput};

/// Placements of the remaining rows `row..n`, given the columns and diagonals already taken
/// and, for the next row, the squares still free.
fn count_from(blocked: &[u32], row: usize, free: u32, taken: u32, left: u32, right: u32) -> u64 {
    let full = (1u32 << blocked.len()) - 1;
    let mut free = free;
    let mut total = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let taken = taken | bit;
        if taken == full {
            total += 1;
            continue;
        }
        let left = (left | bit) << 1;
        let right = (right | bit) >> 1;
        let next = full & !(taken | left | right | blocked[row + 1]);
        total += count_from(blocked, row + 1, next, taken, left, right);
    }
    total
}

/// The king's squares in each row, as column masks (bit c = column c + 1).
fn blocked_rows(n: usize, x: usize, y: usize) -> Vec<u32> {
    let (kx, ky) = (x as isize - 1, y as isize - 1);
    (0..n as isize)
        .map(|r| {
            if (r - kx).abs() > 1 {
                return 0;
            }
            (ky - 1..=ky + 1)
                .filter(|c| (0..n as isize).contains(c))
                .fold(0, |m, c| m | 1 << c)
        })
        .collect()
}

fn mirror_symmetric(blocked: &[u32]) -> bool {
    let n = blocked.len() as u32;
    blocked.iter().all(|&m| m.reverse_bits() >> (32 - n) == m)
}

fn count(k: KingInput) -> u64 {
    let n = k.n;
    // Transposing the board maps placements to placements and the king to (y, x): if the
    // king sits in the middle row, put it in the middle column so the mirror applies.
    let (mut x, mut y) = (k.x, k.y);
    if !mirror_symmetric(&blocked_rows(n, x, y)) {
        (x, y) = (y, x);
    }
    let blocked = blocked_rows(n, x, y);
    let full = (1u32 << n) - 1;
    let first = full & !blocked[0];
    if n == 1 || !mirror_symmetric(&blocked) {
        return count_from(&blocked, 0, first, 0, 0, 0);
    }
    // With symmetric forbidden squares a placement and its mirror are distinct placements:
    // count the first queen in the left half (or in the middle, second queen left) and double.
    let half = (1u32 << (n / 2)) - 1;
    let mut total = count_from(&blocked, 0, first & half, 0, 0, 0);
    let mid = 1u32 << (n / 2);
    if n % 2 == 1 && first & mid != 0 {
        let (left, right) = (mid << 1, mid >> 1);
        let next = half & !(left | right | blocked[1]);
        total += count_from(&blocked, 1, next, mid, left, right);
    }
    2 * total
}

fn main() {
    let k = input::parse_stdin(input::read_king);
    input::write_stdout(format!("{}\n", count(k)).as_bytes());
}
