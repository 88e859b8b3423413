//! Copies stdin to stdout: the least a Rust solution can do, so its spawn cost is that of any
//! Rust binary (dynamic loader, std's start-up).

use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).expect("stdin");
    io::stdout().write_all(&input).expect("stdout");
}
