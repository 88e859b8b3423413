//! queens-boards, reference: row by row, each new queen checked against every earlier one;
//! boards printed sorted by their text, the order of the committed answers.

use solutions::input;

/// Whether a queen at (row, col) is safe from the queens in rows 0..row (`cols[r]` each).
fn safe(cols: &[usize], row: usize, col: usize) -> bool {
    (0..row).all(|r| cols[r] != col && cols[r].abs_diff(col) != row - r)
}

fn search(n: usize, row: usize, cols: &mut Vec<usize>, boards: &mut Vec<String>) {
    if row == n {
        let mut board = String::new();
        for &c in cols.iter() {
            for col in 0..n {
                board.push(if col == c { 'Q' } else { '.' });
            }
            board.push('\n');
        }
        board.push('\n');
        boards.push(board);
        return;
    }
    for col in 0..n {
        if safe(cols, row, col) {
            cols.push(col);
            search(n, row + 1, cols, boards);
            cols.pop();
        }
    }
}

fn main() {
    let n = input::parse_stdin(|text| input::read_n(text, 1, 9));
    let mut boards = Vec::new();
    search(n, 0, &mut Vec::new(), &mut boards);
    boards.sort();
    input::write_stdout(boards.concat().as_bytes());
}
