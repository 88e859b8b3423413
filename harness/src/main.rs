//! `harness`: parses the command line, calls the library, turns the result into an exit code.

mod cli;

use std::process::ExitCode;

use clap::Parser;

use harness::exit;
use harness::report::notice;

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
    harness::sandbox::interrupt::install();
    let result = cli::dispatch(cli);
    if harness::sandbox::interrupt::is_interrupted() {
        let _ = notice::write_interrupted(&mut anstream::stderr());
        return ExitCode::from(exit::INTERRUPTED as u8);
    }
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(error) => {
            let _ = notice::write_error(&mut anstream::stderr(), error_chain(&error));
            ExitCode::from(exit::ERROR as u8)
        }
    }
}

/// The error and its causes, `outer: inner`, leaving out a cause whose text the message before
/// it already quotes (library errors name their cause in their own words, hint included).
fn error_chain(error: &anyhow::Error) -> String {
    let mut message = error.to_string();
    for cause in error.chain().skip(1) {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
    }
    message
}
