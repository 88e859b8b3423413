//! validate: checks one input on stdin strictly against a problem's statement.
//!
//! Usage: `validate <problem> < input`. Exit 0 when valid; 1 with `line N: reason` on stderr
//! when not; 2 when the problem is unknown. For `find-the-queens` the input is the
//! interactor's: the hidden placement.

use std::io::Read;
use std::process::ExitCode;

use solutions::{exit, find_queens, validate, Problem};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let problem = match args.as_slice() {
        [id] if id == find_queens::ID => None,
        [id] => match Problem::from_id(id) {
            Some(p) => Some(p),
            None => {
                eprintln!(
                    "validate: unknown problem `{id}` (hint: problems are {}, `{}`)",
                    Problem::known_ids(),
                    find_queens::ID
                );
                return ExitCode::from(exit::USAGE as u8);
            }
        },
        _ => {
            eprintln!("validate: usage: validate <problem> < input");
            return ExitCode::from(exit::USAGE as u8);
        }
    };
    let mut text = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut text) {
        eprintln!("validate: cannot read stdin: {e}");
        return ExitCode::from(exit::USAGE as u8);
    }
    let checked = match problem {
        Some(problem) => validate::validate(problem, &text),
        None => find_queens::validate(&text).map(|_| ()),
    };
    match checked {
        Ok(()) => ExitCode::SUCCESS,
        Err(invalid) => {
            eprintln!("{invalid}");
            ExitCode::from(exit::INVALID_INPUT as u8)
        }
    }
}
