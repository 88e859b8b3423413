//! `harness`: parses the command line, calls the library, turns the result into an exit code.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use harness::exit;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            let code = if error.use_stderr() {
                exit::ERROR
            } else {
                exit::OK
            };
            return ExitCode::from(code as u8);
        }
    };
    match cli::dispatch(cli) {
        Ok(code) => ExitCode::from(code as u8),
        Err(error) => {
            let mut stderr = anstream::stderr();
            let style = anstyle::Style::new()
                .fg_color(Some(anstyle::AnsiColor::Red.into()))
                .bold();
            let _ = writeln!(stderr, "{style}error{style:#}: {error:#}");
            ExitCode::from(exit::ERROR as u8)
        }
    }
}
