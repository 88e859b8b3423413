//! The practice loop of a contestant in a plain folder (issue 25): `--sanitize` pointing at
//! the line of a bad access, hints on a near miss, `--input` with its answer beside it, cases
//! found beside the source, and the small frictions a new practiser hit.
#![cfg(unix)]

mod common;

use assert_cmd::assert::Assert;
use common::project::Project;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

fn stdout(assert: &Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn stderr(assert: &Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

/// A folder with no judge.toml above it; the builder gives it a user config home of its own, so
/// the tester's `~/.config/harness` plays no part.
fn folder() -> Project {
    Project::new()
}

fn harness(project: &Project, args: &[&str]) -> Assert {
    project.harness().args(args).assert()
}

/// Writes one element past a `new int[4]`: malloc's rounding leaves room, so a plain build
/// prints the right answer.
const OUT_OF_BOUNDS_CPP: &str = r#"#include <cstdio>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    int *a = new int[4];
    for (int i = 0; i <= n; i++) a[i] = i;
    printf("%d\n", a[0]);
    return 0;
}
"#;

/// Whether this machine's g++ builds with the sanitizers; says `skipped:` when it does not
/// (outside CI, which installs them).
fn sanitizers_or_skip(project: &Project, test: &str) -> bool {
    let assert = harness(project, &["judge", "a.cpp", "--sanitize"]);
    let said = stderr(&assert);
    if said.contains("cannot build with") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI has g++ with its sanitizers: {said}"
        );
        common::skipped(&format!("{test}: {}", said.trim()));
        return false;
    }
    true
}

#[test]
fn sanitize_catches_an_out_of_bounds_write_that_plain_judging_accepts() {
    let project = folder()
        .file("a.cpp", OUT_OF_BOUNDS_CPP)
        .file("test/four.in", "4\n")
        .file("test/four.out", "0\n")
        .file("test/two.in", "2\n")
        .file("test/two.out", "0\n");
    harness(&project, &["judge", "a.cpp"]).code(OK);
    if !sanitizers_or_skip(&project, "sanitize_catches_an_out_of_bounds_write") {
        return;
    }
    let assert = harness(&project, &["judge", "a.cpp", "--sanitize", "--all"]).code(FAILED);
    let text = stdout(&assert);
    assert!(text.contains("a.cpp (C++17, sanitized)"), "{text}");
    assert!(
        text.contains("no address-space cap") && text.contains("memory limit 768 MiB"),
        "the header says what is loosened: {text}"
    );
    assert!(
        text.contains("RE   four") && text.contains("heap-buffer-overflow at a.cpp:6"),
        "{text}"
    );
    assert!(
        !text.contains("Shadow bytes") && !text.contains("fa fa fa"),
        "the shadow dump is left out: {text}"
    );
    assert!(text.contains("1 AC, 1 RE"), "{text}");

    // The same reason in JSON.
    let assert = harness(
        &project,
        &["judge", "a.cpp", "--sanitize", "--format", "json"],
    )
    .code(FAILED);
    let json: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let text = json.to_string();
    assert!(
        text.contains("heap-buffer-overflow at a.cpp:6 (WRITE of size 4)"),
        "{text}"
    );

    // One input: the same reason.
    let assert = harness(
        &project,
        &["judge", "a.cpp", "--sanitize", "--input", "test/four.in"],
    );
    let text = stdout(&assert);
    assert!(text.contains("heap-buffer-overflow at a.cpp:6"), "{text}");
}

/// The lines of stderr a report shows of its failing cases, without their margin.
fn stderr_shown(report: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in report.lines() {
        if line.trim() == "stderr (end)" {
            inside = true;
        } else if let Some(said) = line.trim_start().strip_prefix("│ ").filter(|_| inside) {
            lines.push(said.to_string());
        } else if !line.trim_start().starts_with('│') {
            inside = false;
        }
    }
    lines
}

#[test]
fn sanitize_keeps_the_reports_first_line_and_the_users_frame_in_stderr() {
    let project = folder()
        .file("a.cpp", OUT_OF_BOUNDS_CPP)
        .file("test/four.in", "4\n")
        .file("test/four.out", "0\n");
    if !sanitizers_or_skip(&project, "sanitize_keeps_the_reports_first_line") {
        return;
    }
    let assert = harness(&project, &["judge", "a.cpp", "--sanitize"]).code(FAILED);
    let text = stdout(&assert);
    let shown = stderr_shown(&text);
    assert!(
        shown[0].contains("ERROR: AddressSanitizer: heap-buffer-overflow on address"),
        "{text}"
    );
    assert!(shown[1].starts_with("WRITE of size 4"), "{text}");
    assert!(shown[2].ends_with(" in main a.cpp:6"), "the access: {text}");
    assert!(
        shown.iter().any(|l| l.ends_with(" in main a.cpp:5")),
        "the allocation: {text}"
    );
    assert!(
        !text.contains("__libc_start") && !text.contains("ABORTING"),
        "{text}"
    );
}

#[test]
fn a_failed_assert_shows_its_words_and_the_users_file_and_line() {
    let project = folder()
        .file(
            "a.cpp",
            "#include <cassert>\n#include <cstdio>\nint main() {\n    int x;\n    if (scanf(\"%d\", &x) != 1) return 0;\n    assert(x > 0);\n    printf(\"%d\\n\", x);\n}\n",
        )
        .file("test/zero.in", "0\n")
        .file("test/zero.out", "0\n");
    // Built as it is judged: the assertion names the user's file, not the build's copy.
    let assert = harness(&project, &["judge", "a.cpp"]).code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("SIGABRT: main.bin: a.cpp:6: int main(): Assertion `x > 0' failed."),
        "{text}"
    );
    assert!(!text.contains(".building-"), "{text}");
    if !sanitizers_or_skip(&project, "a_failed_assert_shows_its_words") {
        return;
    }
    let assert = harness(&project, &["judge", "a.cpp", "--sanitize"]).code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("RE   zero") && text.contains("assertion `x > 0` failed at a.cpp:6"),
        "{text}"
    );
    let shown = stderr_shown(&text);
    assert!(
        shown
            .iter()
            .any(|l| l == "main.bin: a.cpp:6: int main(): Assertion `x > 0' failed."),
        "{text}"
    );
    assert!(
        shown
            .iter()
            .any(|l| l.contains("ERROR: AddressSanitizer: ABRT")),
        "{text}"
    );
    assert!(
        shown.iter().any(|l| l.ends_with(" in main a.cpp:6")),
        "{text}"
    );
}

#[test]
fn a_python_traceback_names_the_users_file() {
    let project = folder()
        .file(
            "crash.py",
            "def solve(n):\n    return 10 // (n - 4)\n\n\nprint(solve(int(input())))\n",
        )
        .file("test/four.in", "4\n")
        .file("test/four.out", "0\n");
    for args in [
        &["judge", "crash.py"][..],
        &["judge", "crash.py", "--input", "test/four.in"][..],
    ] {
        let assert = harness(&project, args).code(FAILED);
        let text = stdout(&assert);
        assert!(
            text.contains("  File \"crash.py\", line 2, in solve\n"),
            "{text}"
        );
        assert!(
            !text.contains("/tmp/crash.py") && !text.contains("/build/"),
            "{text}"
        );
    }
}

#[test]
fn sanitize_names_a_signed_overflow_and_its_line() {
    let project = folder()
        .file(
            "a.cpp",
            "#include <cstdio>\n#include <climits>\nint main() {\n    int n;\n    if (scanf(\"%d\", &n) != 1) return 0;\n    int x = INT_MAX - 1;\n    x += n;\n    printf(\"%d\\n\", x > 0 ? 1 : 0);\n}\n",
        )
        .file("test/1.in", "5\n")
        .file("test/1.out", "1\n");
    if !sanitizers_or_skip(&project, "sanitize_names_a_signed_overflow") {
        return;
    }
    let assert = harness(&project, &["judge", "a.cpp", "--sanitize", "--all"]).code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("signed-integer-overflow at a.cpp:7 (signed integer overflow:"),
        "{text}"
    );
}

#[test]
fn sanitize_turns_on_rusts_overflow_checks() {
    let project = folder()
        .file(
            "a.rs",
            "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let n: i32 = s.trim().parse().unwrap();\n    let x: i32 = i32::MAX - 1;\n    let y = x + n;\n    println!(\"{}\", if y > 0 { 1 } else { 0 });\n}\n",
        )
        .file("test/1.in", "5\n")
        .file("test/1.out", "1\n");
    if std::process::Command::new("rustc")
        .arg("--version")
        .output()
        .is_err()
    {
        common::skipped("sanitize_turns_on_rusts_overflow_checks: no rustc");
        return;
    }
    // Built with -O, the addition wraps: a wrong answer.
    harness(&project, &["judge", "a.rs"]).code(FAILED);
    let assert = harness(&project, &["judge", "a.rs", "--sanitize"]).code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("panic at a.rs:7 (attempt to add with overflow)"),
        "{text}"
    );
}

#[test]
fn sanitize_without_the_sanitizers_runtimes_is_a_clear_error() {
    // A g++ that cannot link the sanitizers, as on a machine without libasan.
    let project = folder()
        .executable(
            "bin/g++",
            "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in -fsanitize=*) echo '/usr/bin/ld: cannot find -lasan: No such file or directory' >&2; exit 1;; esac; done\nexec /usr/bin/g++ \"$@\"\n",
        )
        .file("a.cpp", OUT_OF_BOUNDS_CPP)
        .file("test/1.in", "2\n")
        .file("test/1.out", "0\n");
    let toml = format!(
        "[languages.cpp]\nname = \"C++17\"\nextensions = [\"cpp\"]\ncompile = [\"{}\", \"-O2\", \"-o\", \"{{exe}}\", \"{{source}}\"]\nrun = [\"{{exe}}\"]\n",
        project.join("bin/g++").display()
    );
    project.write("judge.toml", &toml);
    harness(&project, &["judge", "a.cpp"]).code(OK);
    let assert = harness(&project, &["judge", "a.cpp", "--sanitize"]).code(ERROR);
    let said = stderr(&assert);
    assert!(
        said.contains("cannot build with AddressSanitizer and UndefinedBehaviorSanitizer on this machine: /usr/bin/ld: cannot find -lasan")
            && said.contains("apt install libasan8"),
        "{said}"
    );
    assert!(!said.contains("panicked"), "{said}");

    // A language --sanitize does not know.
    let project = folder()
        .file("a.py", "print(0)\n")
        .file("test/1.in", "2\n")
        .file("test/1.out", "0\n");
    let assert = harness(&project, &["judge", "a.py", "--sanitize"]).code(ERROR);
    let said = stderr(&assert);
    assert!(
        said.contains("--sanitize builds C and C++ with gcc or clang, and Rust with rustc; Python 3 compiles with `python3`"),
        "{said}"
    );
}

#[test]
fn stress_sanitize_reruns_only_the_failing_input_sanitized() {
    // Wrong from n = 6 on, and writing past its array from n = 5 on.
    let project = folder()
        .file(
            "a.cpp",
            "#include <cstdio>\nint main() {\n    int n;\n    if (scanf(\"%d\", &n) != 1) return 0;\n    int *a = new int[4];\n    for (int i = 0; i < n; i++) a[i] = i;\n    printf(\"%d\\n\", n >= 6 ? a[5] : 0);\n}\n",
        )
        .file("gen.py", "import sys\nprint(int(sys.argv[1]) % 10)\n")
        .file("brute.py", "input()\nprint(0)\n")
        .file("test/1.in", "1\n")
        .file("test/1.out", "0\n");
    if !sanitizers_or_skip(&project, "stress_sanitize_reruns_only_the_failing_input") {
        return;
    }
    let args = [
        "stress", "a.cpp", "--gen", "gen.py", "--brute", "brute.py", "--seed", "1", "-j", "1",
    ];
    let plain = harness(&project, &args).code(FAILED);
    let text = stdout(&plain);
    assert!(text.contains("verdict: WA"), "{text}");
    assert!(!text.contains("sanitized:"), "{text}");

    let mut sanitized = args.to_vec();
    sanitized.push("--sanitize");
    let assert = harness(&project, &sanitized).code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("verdict: WA"),
        "the failure found is the same: {text}"
    );
    assert!(
        text.contains("sanitized: RE  heap-buffer-overflow at a.cpp:6 (WRITE of size 4)"),
        "{text}"
    );

    sanitized.extend(["--format", "json"]);
    let assert = harness(&project, &sanitized).code(FAILED);
    let json: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(json["sanitized"]["verdict"], "RE", "{json}");
    assert_eq!(
        json["sanitized"]["reason"],
        "heap-buffer-overflow at a.cpp:6 (WRITE of size 4)"
    );
}

#[test]
fn a_near_miss_names_the_checker_that_would_accept_it() {
    let project = folder()
        .file(
            "a.py",
            "import sys\nprint({'1': 'yes', '2': '0.3333333', '3': '1  2', '4': 'NO'}[input()])\n",
        )
        .file("test/1.in", "1\n")
        .file("test/1.out", "YES\n")
        .file("test/2.in", "2\n")
        .file("test/2.out", "0.333333333\n")
        .file("test/3.in", "3\n")
        .file("test/3.out", "1 2\n")
        .file("test/4.in", "4\n")
        .file("test/4.out", "YES\n");
    let assert = harness(&project, &["judge", "a.py", "-a"]).code(FAILED);
    let text = stdout(&assert);
    let row = |case: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("  WA   {case} ")))
            .unwrap_or_else(|| panic!("no row of case {case}: {text}"))
            .to_string()
    };
    assert!(
        row("1").ends_with(
            "(hint: only the letter case differs: --checker tokens-ignore-case accepts it)"
        ),
        "{text}"
    );
    assert!(
        row("2").ends_with("(hint: the numbers are equal within 1e-6: --checker float accepts it)"),
        "{text}"
    );
    assert!(!row("4").contains("hint"), "{text}");
    // Under the folder default (tokens) spacing does not matter; under exact it is the miss.
    let assert = harness(&project, &["judge", "a.py", "-a", "--checker", "exact"]).code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("(hint: only the whitespace differs: --checker tokens accepts it)"),
        "{text}"
    );

    let assert = harness(&project, &["judge", "a.py", "--format", "json", "--all"]).code(FAILED);
    let json: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(
        cases[0]["hint"],
        "only the letter case differs: --checker tokens-ignore-case accepts it"
    );
    assert_eq!(
        cases[0]["reason"], "line 1, token 1: expected YES, found yes",
        "the reason itself is the checker's"
    );
    assert!(
        cases[3].get("hint").is_none(),
        "only when there is one: {json}"
    );

    // One input with its answer: the same hint in the reason.
    let assert = harness(&project, &["judge", "a.py", "--input", "test/1.in"]);
    let text = stdout(&assert);
    assert!(
        text.contains("--checker tokens-ignore-case accepts it"),
        "{text}"
    );
}

#[test]
fn input_takes_the_answer_beside_it() {
    let project = folder()
        .file(
            "a.py",
            "n = int(input())\nprint('YES' if n % 2 == 0 and n > 2 else 'NO')\n",
        )
        .file("test/random-1.in", "2\n")
        .file("test/random-1.out", "NO\n")
        .file("test/random-2.in", "4\n")
        .file("test/random-2.ans", "NO\n")
        .file("test/lone.in", "4\n");
    let assert = harness(&project, &["judge", "a.py", "--input", "test/random-1.in"]).code(OK);
    let text = stdout(&assert);
    assert!(
        text.contains("expected (test/random-1.out):\n  NO"),
        "{text}"
    );
    assert!(!text.contains("no reference"), "{text}");
    assert!(text.contains("AC  "), "{text}");

    // `.ans` too, and a wrong answer is WA.
    let assert = harness(&project, &["judge", "a.py", "--input", "test/random-2.in"]).code(FAILED);
    let text = stdout(&assert);
    assert!(text.contains("expected (test/random-2.ans):"), "{text}");
    assert!(
        text.contains("WA  ") && text.contains("expected NO, found YES"),
        "{text}"
    );

    // Without one, the run alone decides: it ran, and nothing checked it.
    let assert = harness(&project, &["judge", "a.py", "--input", "test/lone.in"]).code(OK);
    assert!(stdout(&assert).contains("not checked: no answer beside the input"));
}

#[test]
fn an_input_with_nothing_to_compare_with_ran_and_is_not_ac() {
    let project = folder()
        .file("a.py", "print(input())\n")
        .file("in.txt", "7\n");
    // No answer beside it, no reference: it ran within the limits, and that is all.
    let assert = harness(&project, &["judge", "a.py", "--input", "in.txt"]).code(OK);
    let text = stdout(&assert);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("ran  ")
            && last.contains(
                "not checked: no answer beside the input (`in.ans` or `in.out`) and no reference"
            ),
        "{text}"
    );
    assert!(!text.contains("AC "), "{text}");
    // A run that fails its limits is still that failure.
    let project = project.file("a.py", "raise SystemExit(3)\n");
    let assert = harness(&project, &["judge", "a.py", "--input", "in.txt"]).code(FAILED);
    assert!(stdout(&assert).contains("RE  "), "{}", stdout(&assert));
}

#[test]
fn a_folder_where_one_case_has_no_answer_counts_it_apart() {
    let project = folder()
        .file("a.py", "print(input())\n")
        .file("test/1.in", "4\n")
        .file("test/1.out", "4\n")
        .file("test/2.in", "5\n");
    let assert = harness(&project, &["judge", "a.py"]).code(OK);
    let text = stdout(&assert);
    assert!(
        text.contains("ran  2") && text.contains("no answer to compare with"),
        "{text}"
    );
    assert!(
        text.contains("verdict: AC — 1 AC, 1 ran, not checked;"),
        "{text}"
    );

    let assert = harness(&project, &["judge", "a.py", "--format", "json"]).code(OK);
    let json: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(json["verdict"], "AC", "{json}");
    assert_eq!(
        json["counts"],
        serde_json::json!({"AC": 1, "ran": 1}),
        "{json}"
    );
    assert_eq!(json["cases"][0]["verdict"], "AC", "{json}");
    assert_eq!(json["cases"][1]["verdict"], "ran", "{json}");
}

#[test]
fn a_folder_where_no_case_has_an_answer_is_never_ac() {
    let project = folder()
        .file("a.py", "print(input())\n")
        .file("test/1.in", "4\n")
        .file("test/2.in", "5\n");
    let assert = harness(&project, &["judge", "a.py", "--junit", "cases.xml"]).code(OK);
    let text = stdout(&assert);
    assert!(
        text.contains(
            "verdict: ran, not checked (no answer to compare with) — 2 ran, not checked;"
        ),
        "{text}"
    );
    assert!(
        !text.contains("  AC ") && !text.contains("verdict: AC"),
        "{text}"
    );
    let junit = std::fs::read_to_string(project.join("cases.xml")).unwrap();
    assert!(
        junit.contains("skipped=\"2\"")
            && junit.contains("<skipped message=\"ran, not checked: no answer to compare with\"/>"),
        "CI does not count them as passed: {junit}"
    );

    let assert = harness(&project, &["judge", "a.py", "--format", "json"]).code(OK);
    let json: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(json["verdict"], "ran", "{json}");
    assert_eq!(json["counts"], serde_json::json!({"ran": 2}), "{json}");
}

#[test]
fn a_source_in_a_folder_finds_the_cases_beside_it() {
    let project = folder()
        .file(
            "4A/a.py",
            "n = int(input())\nprint('YES' if n % 2 == 0 and n > 2 else 'NO')\n",
        )
        .file("4A/test/sample-1.in", "8\n")
        .file("4A/test/sample-1.out", "YES\n")
        .file("4A/test/sample-2.in", "3\n")
        .file("4A/test/sample-2.out", "NO\n")
        .file("4B/b.py", "print(1)\n");
    let assert = harness(&project, &["judge", "4A/a.py"]).code(OK);
    let text = stdout(&assert);
    assert!(
        text.starts_with("4A: 4A/a.py (Python 3), 2 cases"),
        "named after its folder: {text}"
    );
    let assert = harness(&project, &["judge", "4B/b.py"]).code(ERROR);
    let said = stderr(&assert);
    assert!(
        said.contains("no `test/` folder beside `4B/b.py` nor here"),
        "{said}"
    );
}

#[test]
fn a_case_without_an_answer_is_run_and_shown_while_the_others_are_judged() {
    let project = folder()
        .file(
            "a.py",
            "n = int(input())\nprint('YES' if n % 2 == 0 and n > 2 else 'NO')\n",
        )
        .file("test/sample-1.in", "8\n")
        .file("test/sample-1.out", "YES\n")
        .file("test/random-1.in", "3\n")
        .file("test/random-2.in", "2\n")
        .file("test/random-2.ans", "YES\n");
    let assert = harness(&project, &["judge", "a.py"]).code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("ran  random-1") && text.contains("no answer to compare with"),
        "{text}"
    );
    assert!(
        text.contains("output\n        │ NO"),
        "what it printed is shown: {text}"
    );
    assert!(
        text.contains("WA   random-2"),
        "the others are judged: {text}"
    );
    assert!(text.contains("verdict: WA"), "{text}");

    // `run` on a project's cases still wants every answer: a missing one is a mistake there.
    let project = Project::new()
        .file(
            "judge.toml",
            &format!(
                "[problems.p]\nsolution = \"{}\"\n",
                common::fixture("echo-sum").display()
            ),
        )
        .case("p", "01", "1 2\n", "3\n");
    project.add_case("p", "02", "1 2\n", None);
    let assert = harness(&project, &["run", "-p", "p"]).code(ERROR);
    assert!(
        stderr(&assert).contains("missing answer"),
        "{}",
        stderr(&assert)
    );
}

#[test]
fn the_messages_a_new_practiser_met_are_right() {
    let project = folder()
        .file("a.cpp", "int main() {}\n")
        .file("test/1.in", "1\n")
        .file("test/1.out", "\n");
    // -j 0 would judge nothing.
    let assert = harness(&project, &["judge", "a.cpp", "-j", "0"]).code(ERROR);
    assert!(
        stderr(&assert).contains("must be at least 1"),
        "{}",
        stderr(&assert)
    );
    for command in [
        &["stress", "a.cpp", "--gen", "g.py", "-j", "0"][..],
        &["run", "-j", "0"],
    ] {
        let assert = harness(&project, command).code(ERROR);
        assert!(
            stderr(&assert).contains("must be at least 1"),
            "{command:?}"
        );
    }

    // No judge.toml here: none is mentioned; the id `c++` is an extension of.
    let assert = harness(&project, &["judge", "a.cpp", "--lang", "c++"]).code(ERROR);
    let said = stderr(&assert);
    assert!(!said.contains("judge.toml"), "{said}");
    assert!(
        said.contains("`c++` is an extension of cpp, --lang cpp"),
        "{said}"
    );
    // pypy has no extension of its own.
    assert!(said.contains("; pypy;"), "{said}");
    assert!(!said.contains("pypy (.)"), "{said}");

    // A file given as the folder of cases.
    let assert = harness(&project, &["judge", "a.cpp", "--cases", "test/1.in"]).code(ERROR);
    let said = stderr(&assert);
    assert!(
        said.contains("is a file, not a folder of cases") && said.contains("--input FILE"),
        "{said}"
    );
    assert!(!said.contains("does not exist"), "{said}");
}

/// A guessing game's testlib interactor: the secret from INPUT, `<`, `>` or `=` to each guess.
const GUESS_INTERACTOR_PY: &str = r#"import sys
secret = int(open(sys.argv[1]).read())
for turn in range(20):
    line = sys.stdin.readline()
    if not line:
        sys.stderr.write("no guess\n"); sys.exit(1)
    g = int(line)
    if g == secret:
        print("=", flush=True); sys.exit(0)
    print("<" if g > secret else ">", flush=True)
sys.stderr.write("too many guesses\n"); sys.exit(1)
"#;

const BINARY_SEARCH_PY: &str = "lo, hi = 1, 100\nwhile True:\n    mid = (lo + hi) // 2\n    print(mid, flush=True)\n    r = input()\n    if r == '=': break\n    if r == '<': hi = mid - 1\n    else: lo = mid + 1\n";

#[test]
fn an_interactor_on_the_command_line_judges_a_plain_folder() {
    let project = folder()
        .file("interactor.py", GUESS_INTERACTOR_PY)
        .file("a.py", BINARY_SEARCH_PY)
        .file("wrong.py", "print(1, flush=True)\ninput()\n")
        .file("test/sample-1.in", "37\n")
        .file("test/sample-1.ans", "\n")
        .file("test/sample-2.in", "99\n")
        .file("test/sample-2.ans", "\n");
    let assert = harness(
        &project,
        &["judge", "a.py", "--interactor", "interactor.py"],
    )
    .code(OK);
    assert!(
        stdout(&assert).contains("verdict: AC — 2 AC"),
        "{}",
        stdout(&assert)
    );
    let assert = harness(
        &project,
        &[
            "judge",
            "wrong.py",
            "--interactor",
            "interactor.py",
            "--interactor-protocol",
            "testlib",
        ],
    )
    .code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("the interactor said wrong answer: no guess"),
        "{text}"
    );
    assert!(text.contains("dialogue"), "{text}");
    let assert = harness(&project, &["judge", "a.py", "--interactor", "./nowhere"]).code(ERROR);
    assert!(stderr(&assert).contains("interactor `./nowhere` does not exist"));
}

#[test]
fn an_interactive_problem_received_from_the_browser_is_judged_with_interactor() {
    // As `listen` stores an interactive problem: `interactive = true`, no interactor, the
    // samples the extension sent.
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.cf1a]\ntitle = \"Guess\"\ninteractive = true\n\n[languages.python]\nname = \"Python 3\"\nextensions = [\"py\"]\nrun = [\"python3\", \"{source}\"]\n",
        )
        .case("cf1a", "sample-1", "50\n", "\n")
        .file("interactor.py", GUESS_INTERACTOR_PY)
        .file("a.py", BINARY_SEARCH_PY);
    let assert = harness(&project, &["judge", "cf1a", "a.py"]).code(ERROR);
    assert!(
        stderr(&assert).contains("pass --interactor PROGRAM"),
        "{}",
        stderr(&assert)
    );
    let assert = harness(
        &project,
        &["judge", "cf1a", "a.py", "--interactor", "interactor.py"],
    )
    .code(OK);
    assert!(
        stdout(&assert).contains("verdict: AC — 1 AC"),
        "{}",
        stdout(&assert)
    );
}

#[test]
fn the_shrinker_shrinks_a_count_and_its_items_together() {
    // "n, then n numbers": wrong as soon as one number is 5 or more.
    let project = folder()
        .file(
            "gen.py",
            "import random, sys\nr = random.Random(int(sys.argv[1]))\nn = r.randint(6, 9)\nprint(n)\nprint(*[r.randint(0, 9) for _ in range(n)])\n",
        )
        .file(
            "val.py",
            "import sys\nlines = sys.stdin.read().split('\\n')\nn = int(lines[0])\nitems = lines[1].split()\nif n < 1 or len(items) != n:\n    sys.exit('the count says %d, the line has %d' % (n, len(items)))\n",
        )
        .file("brute.py", "input()\nprint(sum(map(int, input().split())))\n")
        .file(
            "a.py",
            "input()\nv = list(map(int, input().split()))\nprint(sum(v) + (1 if max(v) >= 5 else 0))\n",
        );
    let assert = harness(
        &project,
        &[
            "stress",
            "a.py",
            "--gen",
            "gen.py",
            "--brute",
            "brute.py",
            "--validator",
            "val.py",
            "--seed",
            "1",
            "-j",
            "1",
        ],
    )
    .code(FAILED);
    let text = stdout(&assert);
    assert!(
        text.contains("minimal failing input:\n  1\n  5\n"),
        "the count and the items shrink together: {text}"
    );
    assert!(
        text.contains(", count "),
        "a step says the count changed: {text}"
    );
    assert!(
        text.contains("  WA  removed `"),
        "each step says what it removed: {text}"
    );
}
