//! find-the-queens-interactor: holds the hidden placement and answers the submission's
//! queries; its exit code is the verdict. It speaks both interactor protocols:
//!
//!   kattis:  find-the-queens-interactor INPUT ANSWER FEEDBACK_DIR/
//!            exit 42 accepted, 43 wrong answer; the reason goes to FEEDBACK_DIR/judgemessage.txt
//!   testlib: find-the-queens-interactor INPUT OUTPUT [ANSWER]
//!            exit 0 OK, 1 WA, 3 FAIL; the reason goes to stderr, the final answer to OUTPUT
//!
//! told apart by the third argument: a folder is Kattis's feedback folder. The submission's
//! output arrives on stdin; what the submission reads is written to stdout, flushed per line.

use std::fs;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use solutions::find_queens::{self, Placement, Reply, Request};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Kattis,
    Testlib,
}

/// How a dialogue ended.
enum Outcome {
    Accepted(String),
    WrongAnswer(String),
}

struct Args {
    protocol: Protocol,
    input: PathBuf,
    /// Kattis: the feedback folder; testlib: the OUTPUT file.
    report: PathBuf,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    match args {
        [input, _answer, feedback] if Path::new(feedback).is_dir() => Ok(Args {
            protocol: Protocol::Kattis,
            input: input.into(),
            report: feedback.into(),
        }),
        [input, output] | [input, output, _] => Ok(Args {
            protocol: Protocol::Testlib,
            input: input.into(),
            report: output.into(),
        }),
        _ => Err(format!(
            "usage: {0} INPUT ANSWER FEEDBACK_DIR/ (kattis)\n       {0} INPUT OUTPUT [ANSWER] (testlib)",
            find_queens::ID
        )),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&args) {
        Ok(args) => args,
        Err(usage) => {
            eprintln!("{usage}");
            return ExitCode::from(3);
        }
    };
    let placement = match fs::read(&args.input)
        .map_err(|e| e.to_string())
        .and_then(|text| find_queens::validate(&text).map_err(|e| e.to_string()))
    {
        Ok(placement) => placement,
        Err(error) => {
            return fail(
                &args,
                &format!("bad input `{}`: {error}", args.input.display()),
            )
        }
    };
    let stdin = io::stdin().lock();
    let stdout = io::stdout().lock();
    let (outcome, answer) = converse(&placement, stdin, stdout);
    finish(&args, outcome, answer.as_deref())
}

/// The dialogue: n, then one reply per query, until the answer, a broken rule or the end.
/// Returns the outcome and the final answer line, if one came.
fn converse(
    placement: &Placement,
    mut from: impl BufRead,
    mut to: impl Write,
) -> (Outcome, Option<String>) {
    let n = placement.n();
    let budget = find_queens::budget(n);
    let mut queries = 0;
    if writeln!(to, "{n}").and_then(|()| to.flush()).is_err() {
        return (
            Outcome::WrongAnswer("the submission closed its input before reading n".into()),
            None,
        );
    }
    let mut line = String::new();
    for number in 1.. {
        line.clear();
        match from.read_line(&mut line) {
            Ok(0) => {
                let reason =
                    format!("the submission ended without an answer after {queries} queries");
                return (Outcome::WrongAnswer(reason), None);
            }
            Ok(_) => {}
            Err(error) => {
                return (
                    Outcome::WrongAnswer(format!("line {number}: unreadable: {error}")),
                    None,
                )
            }
        }
        match find_queens::parse_request(&line, n) {
            Err(reason) => {
                return (
                    Outcome::WrongAnswer(format!("line {number}: {reason}")),
                    None,
                )
            }
            Ok(Request::Query { row, column }) => {
                queries += 1;
                if queries > budget {
                    let reason = format!("more than {budget} queries (the budget for n = {n})");
                    return (Outcome::WrongAnswer(reason), None);
                }
                let reply = Reply::of(placement.columns[row - 1], column);
                if writeln!(to, "{reply}").and_then(|()| to.flush()).is_err() {
                    let reason = format!("the submission stopped reading after query {queries}");
                    return (Outcome::WrongAnswer(reason), None);
                }
            }
            Ok(Request::Answer(columns)) => {
                let answer = line.trim().to_string();
                let outcome = judge_answer(placement, &columns, queries, budget, &mut from);
                return (outcome, Some(answer));
            }
        }
    }
    unreachable!("the loop returns")
}

fn judge_answer(
    placement: &Placement,
    columns: &[usize],
    queries: usize,
    budget: usize,
    from: &mut impl BufRead,
) -> Outcome {
    if let Some(row) = (0..columns.len()).find(|&r| columns[r] != placement.columns[r]) {
        return Outcome::WrongAnswer(format!(
            "row {}: answered column {}, the queen is in column {}",
            row + 1,
            columns[row],
            placement.columns[row]
        ));
    }
    // Anything after the answer is a broken protocol, as on Kattis.
    let mut rest = String::new();
    if from.read_to_string(&mut rest).is_ok() && !rest.trim().is_empty() {
        let first = rest.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        return Outcome::WrongAnswer(format!("output after the answer: `{}`", first.trim()));
    }
    Outcome::Accepted(format!(
        "found the {} queens with {queries} of {budget} queries",
        placement.n()
    ))
}

fn finish(args: &Args, outcome: Outcome, answer: Option<&str>) -> ExitCode {
    let (accepted, reason) = match outcome {
        Outcome::Accepted(reason) => (true, reason),
        Outcome::WrongAnswer(reason) => (false, reason),
    };
    let written = match args.protocol {
        Protocol::Kattis => fs::write(args.report.join("judgemessage.txt"), format!("{reason}\n")),
        Protocol::Testlib => {
            eprintln!(
                "{}",
                if accepted {
                    format!("ok {reason}")
                } else {
                    format!("wrong answer {reason}")
                }
            );
            fs::write(&args.report, format!("{}\n", answer.unwrap_or("")))
        }
    };
    if let Err(error) = written {
        return fail(
            args,
            &format!("cannot write `{}`: {error}", args.report.display()),
        );
    }
    let code = match (args.protocol, accepted) {
        (Protocol::Kattis, true) => 42,
        (Protocol::Kattis, false) => 43,
        (Protocol::Testlib, true) => 0,
        (Protocol::Testlib, false) => 1,
    };
    ExitCode::from(code)
}

/// The interactor's own failure: a judge error in either protocol (Kattis: anything but 42
/// and 43; testlib: 3, FAIL).
fn fail(args: &Args, reason: &str) -> ExitCode {
    eprintln!("FAIL {reason}");
    if args.protocol == Protocol::Kattis {
        let _ = fs::write(args.report.join("judgemessage.txt"), format!("{reason}\n"));
    }
    ExitCode::from(3)
}
