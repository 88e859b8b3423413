//! two-n-queens, reference: all white queens row by row, then for each white placement all
//! black queens row by row on the usable squares the white queens left.

use solutions::input;

fn safe(cols: &[usize], row: usize, col: usize) -> bool {
    (0..row).all(|r| cols[r] != col && cols[r].abs_diff(col) != row - r)
}

fn black(usable: &[Vec<bool>], white: &[usize], row: usize, cols: &mut Vec<usize>) -> u64 {
    let n = usable.len();
    if row == n {
        return 1;
    }
    let mut count = 0;
    for col in 0..n {
        if usable[row][col] && white[row] != col && safe(cols, row, col) {
            cols.push(col);
            count += black(usable, white, row + 1, cols);
            cols.pop();
        }
    }
    count
}

fn white(usable: &[Vec<bool>], row: usize, cols: &mut Vec<usize>) -> u64 {
    let n = usable.len();
    if row == n {
        return black(usable, cols, 0, &mut Vec::new());
    }
    let mut count = 0;
    for col in 0..n {
        if usable[row][col] && safe(cols, row, col) {
            cols.push(col);
            count += white(usable, row + 1, cols);
            cols.pop();
        }
    }
    count
}

fn main() {
    let board = input::parse_stdin(input::read_board);
    let count = white(&board.usable, 0, &mut Vec::new());
    input::write_stdout(format!("{count}\n").as_bytes());
}
