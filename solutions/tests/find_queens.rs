//! The interactive problem end to end: committed inputs valid and reproduced by casegen, the
//! samples' `.interaction` dialogues replayed against the real interactor, the fast solution
//! accepted within the budget on every case in both protocols, and the interactor's verdicts
//! on broken dialogues.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{bin, cases_dir, run, TempDir};
use solutions::find_queens;

fn inputs() -> Vec<(String, PathBuf)> {
    let dir = cases_dir().join(find_queens::ID);
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name()?.to_str()?.strip_suffix(".in")?.to_string();
            Some((name, path))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn committed_inputs_are_valid_and_reproduced() {
    let cases = inputs();
    assert_eq!(cases.len(), 2 + 9 + 20 + 3);
    for (name, path) in &cases {
        let text = std::fs::read(path).unwrap();
        let out = run("validate", &[find_queens::ID], &text);
        assert!(
            out.status.code() == Some(42),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let Some((family, seed)) = name.rsplit_once('-') else {
            panic!("{name}");
        };
        if family == "sample" {
            continue;
        }
        let again = common::run_ok(
            "casegen",
            &[find_queens::ID, family, seed.trim_start_matches('0')],
            b"",
        );
        assert_eq!(again.as_bytes(), text, "{name}");
    }
}

/// What the interactor said and how it ended.
struct Dialogue {
    code: i32,
    message: String,
}

/// Runs the interactor (Kattis protocol) against `submission`'s lines, given up front:
/// the interactor's replies are returned in place of the submission's reading.
fn replay(input: &Path, submission: &str) -> (Dialogue, String) {
    let feedback = TempDir::new("feedback");
    let mut child = Command::new(bin("find-the-queens-interactor"))
        .arg(input)
        .arg("/dev/null")
        .arg(&feedback.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(submission.as_bytes());
    let out = child.wait_with_output().unwrap();
    let message = std::fs::read_to_string(feedback.0.join("judgemessage.txt")).unwrap_or_default();
    (
        Dialogue {
            code: out.status.code().unwrap_or(-1),
            message,
        },
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn sample_interactions_are_what_the_interactor_says() {
    for (name, input) in inputs().iter().filter(|(n, _)| n.starts_with("sample")) {
        let interaction = std::fs::read_to_string(input.with_extension("interaction")).unwrap();
        let (mut ours, mut theirs) = (String::new(), String::new());
        for line in interaction.lines() {
            match line.split_at(1) {
                (">", rest) => ours.push_str(&format!("{rest}\n")),
                ("<", rest) => theirs.push_str(&format!("{rest}\n")),
                _ => panic!("{name}: line `{line}` starts with neither `<` nor `>`"),
            }
        }
        let (dialogue, replies) = replay(input, &ours);
        assert_eq!(dialogue.code, 42, "{name}: {}", dialogue.message);
        assert_eq!(replies, theirs, "{name}");
    }
}

/// Connects the fast solution and the interactor pipe to pipe.
fn solve(input: &Path, kattis: bool) -> Dialogue {
    let scratch = TempDir::new("solve");
    let mut interactor = Command::new(bin("find-the-queens-interactor"));
    interactor.arg(input);
    if kattis {
        interactor.arg("/dev/null").arg(&scratch.0);
    } else {
        interactor.arg(scratch.0.join("output"));
    }
    let mut interactor = interactor
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut solution = Command::new(bin("find-the-queens"))
        .stdin(Stdio::from(interactor.stdout.take().unwrap()))
        .stdout(Stdio::from(interactor.stdin.take().unwrap()))
        .spawn()
        .unwrap();
    let out = interactor.wait_with_output().unwrap();
    assert!(solution.wait().unwrap().success());
    let message = if kattis {
        std::fs::read_to_string(scratch.0.join("judgemessage.txt")).unwrap()
    } else {
        String::from_utf8(out.stderr).unwrap()
    };
    Dialogue {
        code: out.status.code().unwrap_or(-1),
        message,
    }
}

#[test]
fn the_fast_solution_is_accepted_within_the_budget() {
    for (name, input) in inputs() {
        let kattis = solve(&input, true);
        assert_eq!(kattis.code, 42, "{name}: {}", kattis.message);
        assert!(
            kattis.message.starts_with("found the"),
            "{name}: {}",
            kattis.message
        );
        let testlib = solve(&input, false);
        assert_eq!(testlib.code, 0, "{name}: {}", testlib.message);
        assert!(
            testlib.message.starts_with("ok found the"),
            "{name}: {}",
            testlib.message
        );
    }
}

#[test]
fn broken_dialogues_are_wrong_answers() {
    let dir = TempDir::new("broken");
    let input = dir.0.join("4.in");
    std::fs::write(&input, "4\n2 4 1 3\n").unwrap();
    let table = [
        ("! 2 4 1 3\n", 42, "found the 4 queens with 0 of 4 queries"),
        (
            "! 2 4 3 1\n",
            43,
            "row 3: answered column 3, the queen is in column 1",
        ),
        (
            "? 1 1\n? 1 1\n? 1 1\n? 1 1\n? 1 1\n! 2 4 1 3\n",
            43,
            "more than 4 queries",
        ),
        (
            "debug: n = 4\n",
            43,
            "line 1: expected `? r c` or `! c1 … c4`, found `debug: n = 4`",
        ),
        ("? 0 2\n", 43, "line 1: row `0` is not in 1..=4"),
        ("? 1 2\n", 43, "ended without an answer after 1 queries"),
        ("! 2 4 1 3\n? 1 1\n", 43, "output after the answer: `? 1 1`"),
    ];
    for (lines, code, reason) in table {
        let (dialogue, _) = replay(&input, lines);
        assert_eq!(dialogue.code, code, "{lines:?}: {}", dialogue.message);
        assert!(
            dialogue.message.contains(reason),
            "{lines:?}: {}",
            dialogue.message
        );
    }
    // A broken input is the interactor's own failure: neither 42 nor 43.
    std::fs::write(&input, "4\n1 2 3 4\n").unwrap();
    let (dialogue, _) = replay(&input, "! 1 2 3 4\n");
    assert_eq!(dialogue.code, 3);
    assert!(
        dialogue.message.contains("attack each other"),
        "{}",
        dialogue.message
    );
}
