//! Helpers shared by the integration tests: binary paths, running a binary on an input, the
//! committed cases and the generator table that rebuilds them.

#![allow(
    dead_code,
    reason = "each test file uses a different part; `expect` would fail in some of them"
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use solutions::Problem;

/// Path of one of the crate's binaries, known at compile time.
pub fn bin(name: &str) -> &'static str {
    match name {
        "queens-boards" => env!("CARGO_BIN_EXE_queens-boards"),
        "queens-boards-brute" => env!("CARGO_BIN_EXE_queens-boards-brute"),
        "queens-boards-array" => env!("CARGO_BIN_EXE_queens-boards-array"),
        "checker-challenge" => env!("CARGO_BIN_EXE_checker-challenge"),
        "checker-challenge-brute" => env!("CARGO_BIN_EXE_checker-challenge-brute"),
        "checker-challenge-array" => env!("CARGO_BIN_EXE_checker-challenge-array"),
        "king-queens" => env!("CARGO_BIN_EXE_king-queens"),
        "king-queens-brute" => env!("CARGO_BIN_EXE_king-queens-brute"),
        "king-queens-array" => env!("CARGO_BIN_EXE_king-queens-array"),
        "two-n-queens" => env!("CARGO_BIN_EXE_two-n-queens"),
        "two-n-queens-brute" => env!("CARGO_BIN_EXE_two-n-queens-brute"),
        "two-n-queens-array" => env!("CARGO_BIN_EXE_two-n-queens-array"),
        "casegen" => env!("CARGO_BIN_EXE_casegen"),
        "validate" => env!("CARGO_BIN_EXE_validate"),
        "find-the-queens" => env!("CARGO_BIN_EXE_find-the-queens"),
        "find-the-queens-interactor" => env!("CARGO_BIN_EXE_find-the-queens-interactor"),
        _ => panic!("no binary `{name}`"),
    }
}

/// The three solvers of a problem: fast, reference, array baseline.
pub fn solvers(problem: Problem) -> [String; 3] {
    let id = problem.id();
    [id.to_string(), format!("{id}-brute"), format!("{id}-array")]
}

/// Runs binary `name` with `args`, feeding `input` on stdin.
pub fn run(name: &str, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(bin(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start `{name}`: {e}"));
    // A program that refuses its input may exit before reading it: ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

/// Stdout of a run that must succeed.
pub fn run_ok(name: &str, args: &[&str], input: &[u8]) -> String {
    let out = run(name, args, input);
    assert!(
        out.status.success(),
        "`{name} {}` on {:?} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(input),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// One casegen input: `casegen <problem> <family> <seed>`.
pub fn generate(problem: Problem, family: &str, seed: u64) -> String {
    run_ok("casegen", &[problem.id(), family, &seed.to_string()], b"")
}

/// A queens-boards output split into its boards, sorted; panics if it is malformed, so
/// comparing two of these compares sets and still catches duplicates.
pub fn boards(n: usize, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.split_inclusive('\n').peekable();
    while lines.peek().is_some() {
        let mut board: String = lines.by_ref().take(n).collect();
        let rows: Vec<&str> = board.lines().collect();
        assert_eq!(rows.len(), n, "short board in {text:?}");
        for row in &rows {
            assert!(
                row.len() == n && row.bytes().filter(|&b| b == b'Q').count() == 1,
                "bad row {row:?}"
            );
            assert!(
                row.bytes().all(|b| b == b'Q' || b == b'.'),
                "bad row {row:?}"
            );
        }
        assert_eq!(
            lines.next(),
            Some("\n"),
            "board not followed by an empty line"
        );
        board.push('\n');
        out.push(board);
    }
    out.sort();
    out
}

pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases")
}

/// A generated case family as judge.toml declares it.
pub struct Generator {
    pub problem: Problem,
    pub family: &'static str,
    pub seeds: (u64, u64),
    pub pattern: &'static str,
}

const fn g(
    problem: Problem,
    family: &'static str,
    seeds: (u64, u64),
    pattern: &'static str,
) -> Generator {
    Generator {
        problem,
        family,
        seeds,
        pattern,
    }
}

/// The generator table behind `cases/` (the same table goes into judge.toml).
pub const GENERATORS: &[Generator] = &[
    g(Problem::QueensBoards, "exhaustive", (1, 9), "n{seed}"),
    g(
        Problem::CheckerChallenge,
        "exhaustive",
        (6, 13),
        "n{seed:02}",
    ),
    g(Problem::KingQueens, "exhaustive", (0, 649), "all-{seed:03}"),
    g(Problem::TwoNQueens, "full", (1, 8), "full-{seed}"),
    g(Problem::TwoNQueens, "empty", (1, 8), "empty-{seed}"),
    g(Problem::TwoNQueens, "one-row", (1, 16), "one-row-{seed:02}"),
    g(Problem::TwoNQueens, "one-col", (1, 16), "one-col-{seed:02}"),
    g(Problem::TwoNQueens, "random", (1, 200), "random-{seed:03}"),
    g(Problem::TwoNQueens, "holes", (1, 60), "holes-{seed:02}"),
];

/// Case names that are not generated: the statements' samples.
pub fn samples(problem: Problem) -> &'static [&'static str] {
    match problem {
        Problem::TwoNQueens => &["sample-1", "sample-2"],
        _ => &["sample-1"],
    }
}

/// Expands `{seed}` or `{seed:0W}` in a name pattern.
pub fn case_name(pattern: &str, seed: u64) -> String {
    let start = pattern.find("{seed").expect("pattern has {seed}");
    let end = start + pattern[start..].find('}').expect("closed brace");
    let spec = &pattern[start + "{seed".len()..end];
    let seed = match spec.strip_prefix(":0") {
        Some(width) => format!("{seed:0w$}", w = width.parse().unwrap()),
        None if spec.is_empty() => seed.to_string(),
        None => panic!("unsupported spec {spec:?}"),
    };
    format!("{}{seed}{}", &pattern[..start], &pattern[end + 1..])
}

/// Every committed case of `problem`: (name, input, answer).
pub fn committed(problem: Problem) -> Vec<(String, String, String)> {
    let dir = cases_dir().join(problem.id());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".in").map(str::to_string)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let read = |ext: &str| {
                let path = dir.join(format!("{name}.{ext}"));
                std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("cannot read `{}`: {e}", path.display()))
            };
            let (input, answer) = (read("in"), read("ans"));
            (name, input, answer)
        })
        .collect()
}

/// A fresh empty directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "solutions-test-{}-{tag}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
