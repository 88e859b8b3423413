//! checker-challenge, reference: row by row trying columns in increasing order, each new
//! checker checked against every earlier one; keeps the first three placements found.

use solutions::input;

fn safe(cols: &[usize], row: usize, col: usize) -> bool {
    (0..row).all(|r| cols[r] != col && cols[r].abs_diff(col) != row - r)
}

fn search(n: usize, row: usize, cols: &mut Vec<usize>, first: &mut Vec<Vec<usize>>) -> u64 {
    if row == n {
        if first.len() < 3 {
            first.push(cols.clone());
        }
        return 1;
    }
    let mut count = 0;
    for col in 0..n {
        if safe(cols, row, col) {
            cols.push(col);
            count += search(n, row + 1, cols, first);
            cols.pop();
        }
    }
    count
}

fn main() {
    let n = input::parse_stdin(|text| input::read_n(text, 6, 13));
    let mut first = Vec::new();
    let count = search(n, 0, &mut Vec::new(), &mut first);
    let mut out = String::new();
    for cols in &first {
        let words: Vec<String> = cols.iter().map(|c| (c + 1).to_string()).collect();
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out.push_str(&format!("{count}\n"));
    input::write_stdout(out.as_bytes());
}
