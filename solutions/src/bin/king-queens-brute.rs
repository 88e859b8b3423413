//! king-queens, reference: row by row, skipping the king's squares, each new queen checked
//! against every earlier one.

use solutions::input;

fn near_king(x: usize, y: usize, row: usize, col: usize) -> bool {
    // x, y are 1-based as in the statement; row, col 0-based.
    (row + 1).abs_diff(x) <= 1 && (col + 1).abs_diff(y) <= 1
}

fn safe(cols: &[usize], row: usize, col: usize) -> bool {
    (0..row).all(|r| cols[r] != col && cols[r].abs_diff(col) != row - r)
}

fn search(n: usize, x: usize, y: usize, row: usize, cols: &mut Vec<usize>) -> u64 {
    if row == n {
        return 1;
    }
    let mut count = 0;
    for col in 0..n {
        if !near_king(x, y, row, col) && safe(cols, row, col) {
            cols.push(col);
            count += search(n, x, y, row + 1, cols);
            cols.pop();
        }
    }
    count
}

fn main() {
    let k = input::parse_stdin(input::read_king);
    let count = search(k.n, k.x, k.y, 0, &mut Vec::new());
    input::write_stdout(format!("{count}\n").as_bytes());
}
