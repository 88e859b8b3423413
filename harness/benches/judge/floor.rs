//! The spawn floor: the least any judge must do per case. This bench binary, started again
//! as `judge floor PROGRAM LIST`, runs PROGRAM on each listed case with stdin from its `.in`,
//! waits for it and reads its output (std's `Command::output`), and checks nothing.

use std::fs::{self, File};
use std::process::{Command, ExitCode};

/// The first argument that turns this binary into the floor spawner.
pub const COMMAND: &str = "floor";

pub fn main(args: &[String]) -> ExitCode {
    let [program, list] = args else {
        eprintln!("usage: judge floor PROGRAM LIST");
        return ExitCode::from(2);
    };
    let stems = match fs::read_to_string(list) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("cannot read `{list}`: {error}");
            return ExitCode::from(2);
        }
    };
    for stem in stems.lines() {
        let output = File::open(format!("{stem}.in"))
            .and_then(|input| Command::new(program).stdin(input).output());
        match output {
            Ok(output) if output.status.success() => {
                std::hint::black_box(output.stdout);
            }
            Ok(output) => {
                eprintln!("`{program}` on `{stem}.in`: {}", output.status);
                return ExitCode::FAILURE;
            }
            Err(error) => {
                eprintln!("cannot run `{program}` on `{stem}.in`: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
