//! `harness`: the command line lives in the library (`harness::cli`), as in `just`, so that
//! the library's public surface is what the command and the tests need, and nothing more.

fn main() -> std::process::ExitCode {
    harness::cli::main()
}
