//! Every document the judging commands write, and their exit codes, as snapshots: the JSON of
//! `run`, `judge` (a problem of judge.toml, a folder of cases, a package), `verify`,
//! `calibrate` and `stress`, the JUnit files of those that write them, and the output of `gen`
//! and `validate` (which write no JSON). Times, memory and the machine's paths are redacted;
//! what is left (field names, verdicts, reasons, counts, limits) is what scripts rely on.
#![cfg(unix)]

mod common;

use std::path::Path;

use serde_json::Value;

use common::fixture;
use common::project::Project;

/// What a redacted measurement reads as.
const MEASURED: &str = "[measured]";

/// Keys whose values are measured (times, memory): they differ from run to run. A `limits`
/// object keeps its `time_ms`, which is a limit, not a measurement.
const MEASURED_KEYS: [&str; 14] = [
    "time_ms",
    "wall_ms",
    "memory_kib",
    "elapsed_ms",
    "interactor_time_ms",
    "interactor_memory_kib",
    "slowest_ms",
    "normalized_ms",
    // Which case and program are slowest is measured too: they all take a millisecond.
    "slowest_case",
    "slowest_program",
    // How noisy calibrate's runs were, and what follows from it.
    "slowest_case_runs_ms",
    "spread",
    "margin",
    "within_noise_ms",
];

/// Replaces measurements by [`MEASURED`], and whether a TLE case is near its limit (a
/// program stopped at the limit usually is, but a busy machine may stop it later).
fn redact(value: &mut Value) {
    match value {
        Value::Object(map) => {
            let tle = map.get("verdict").and_then(Value::as_str) == Some("TLE");
            for (key, child) in map.iter_mut() {
                if key == "limits" {
                    continue;
                }
                if MEASURED_KEYS.contains(&key.as_str())
                    || (tle && (key == "time_sensitive" || key == "time_sensitive_count"))
                {
                    *child = Value::String(MEASURED.to_string());
                } else if let (true, Value::String(reason)) = (tle && key == "reason", &*child) {
                    *child = Value::String(unmeasured_reason(reason));
                } else {
                    redact(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact),
        _ => {}
    }
}

/// A TLE's reason without the CPU time it measured: `CPU time [measured] over the limit 1000 ms`.
fn unmeasured_reason(reason: &str) -> String {
    match (reason.strip_prefix("CPU time "), reason.find(" ms over")) {
        (Some(_), Some(end)) => format!("CPU time {MEASURED}{}", &reason[end + " ms".len()..]),
        _ => reason.to_string(),
    }
}

/// The machine's paths in `text` as placeholders: the project and the compiled fixtures.
fn unpath(text: &str, project: &Path) -> String {
    let fixtures = fixture("echo-sum");
    let fixtures = fixtures.parent().unwrap();
    // A folder of cases judged without judge.toml is a problem named after its folder.
    let name = project.file_name().unwrap().to_string_lossy();
    text.replace(&project.display().to_string(), "[PROJECT]")
        .replace(&fixtures.display().to_string(), "[FIXTURES]")
        .replace(name.as_ref(), "[PROJECT-NAME]")
}

/// Snapshot settings for a JUnit file: its `time="…"` and the measurements in a failure.
fn junit() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r#"time="[0-9.]+""#, r#"time="[s]""#);
    settings.add_filter(
        r"CPU \d+ ms, wall \d+ ms, peak memory \d+ KiB",
        "CPU [measured]",
    );
    settings.add_filter(r"CPU time \d+ ms over", "CPU time [measured] over");
    settings.add_filter(
        r"near the time limit: CPU \d+ ms",
        "near the time limit: CPU [measured]",
    );
    settings
}

/// A problem scored by subtasks: `small` (01, 02) worth 40, `big` (03, 04) worth 60 after it.
fn scored_project() -> Project {
    let toml = format!(
        r#"[problems.sum]
solution = "{sum}"
[problems.sum.scoring]
[[problems.sum.scoring.groups]]
name = "small"
cases = ["01", "02"]
points = 40
[[problems.sum.scoring.groups]]
name = "big"
cases = ["03", "04"]
points = 60
depends-on = ["small"]
{LANGUAGES}"#,
        sum = fixture("echo-sum").display(),
    );
    Project::new()
        .file("judge.toml", &toml)
        .case("sum", "01", "1 2\n", "3\n")
        .case("sum", "02", "20 30\n", "50\n")
        .case("sum", "03", "2 2\n", "4\n")
        .case("sum", "04", "40 50\n", "90\n")
        .file("big-wrong.c", BIG_WRONG_C)
        .file("solutions/submissions/sum/accepted/sum.c", SUM_C)
        .file(
            "solutions/submissions/sum/partially_accepted/big-wrong.c",
            &format!("// @EXPECTED_SCORE@: 40\n{BIG_WRONG_C}"),
        )
}

#[test]
fn judge_and_verify_a_scored_problem() {
    let project = scored_project();
    let settings = junit();
    let judged = json_document(
        &project,
        &[
            "judge",
            "sum",
            "big-wrong.c",
            "--format",
            "json",
            "--junit",
            "judge.xml",
        ],
    );
    insta::assert_snapshot!("scored_judge_json", judged);
    settings.bind(|| insta::assert_snapshot!("scored_judge_junit", written(&project, "judge.xml")));
    let verified = json_document(
        &project,
        &[
            "verify",
            "--format",
            "json",
            "-j",
            "1",
            "--junit",
            "verify.xml",
        ],
    );
    insta::assert_snapshot!("scored_verify_json", verified);
    settings
        .bind(|| insta::assert_snapshot!("scored_verify_junit", written(&project, "verify.xml")));
}

/// Snapshot settings for a report for people: every time in it.
fn timed_text() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"\b\d+(\.\d+)? (ms|s)\b", "[measured]");
    settings
}

/// Runs the harness in `project` and returns `exit: N` followed by stdout parsed as one JSON
/// document, redacted.
fn json_document(project: &Project, args: &[&str]) -> String {
    let output = project.harness().args(args).output().unwrap();
    let mut json: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout of {args:?} is not one JSON document ({error}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    redact(&mut json);
    let text = serde_json::to_string_pretty(&json).unwrap();
    format!(
        "exit: {}\n{}",
        output.status.code().unwrap(),
        unpath(&text, project.path())
    )
}

/// `exit: N` and stdout as it is, for commands without JSON.
fn text_output(project: &Project, args: &[&str]) -> String {
    let output = project.harness().args(args).output().unwrap();
    format!(
        "exit: {}\n{}",
        output.status.code().unwrap(),
        unpath(&String::from_utf8_lossy(&output.stdout), project.path())
    )
}

/// A file the harness wrote, with the machine's paths replaced.
fn written(project: &Project, relative: &str) -> String {
    unpath(&project.read(relative), project.path())
}

/// Right for `a b`: prints a + b.
const SUM_C: &str = "#include <stdio.h>\nint main(void) { long long a, b; if (scanf(\"%lld %lld\", &a, &b) != 2) return 1; printf(\"%lld\\n\", a + b); return 0; }\n";
/// Wrong when a + b is above 50: prints one more.
const BIG_WRONG_C: &str = "#include <stdio.h>\nint main(void) { long long a, b; if (scanf(\"%lld %lld\", &a, &b) != 2) return 1; long long s = a + b; printf(\"%lld\\n\", s > 50 ? s + 1 : s); return 0; }\n";
/// Always one more than the sum.
const WRONG_C: &str = "#include <stdio.h>\nint main(void) { long long a, b; if (scanf(\"%lld %lld\", &a, &b) != 2) return 1; printf(\"%lld\\n\", a + b + 1); return 0; }\n";
/// Does not compile: a `.bad` file, whose "compiler" always fails with the same message (a real
/// compiler's words change with its version).
const BROKEN: &str = "nothing here compiles\n";
/// Prints lines until the output limit stops it.
const FLOOD_C: &str = "#include <stdio.h>\nint main(void) { for (;;) puts(\"yes\"); }\n";
/// Complains and exits 3.
const CRASH_C: &str =
    "#include <stdio.h>\nint main(void) { fprintf(stderr, \"giving up\\n\"); return 3; }\n";
/// Spins forever.
const SPIN_C: &str = "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n";

const LANGUAGES: &str = r#"
[languages.c]
name = "C11"
extensions = ["c"]
compile = ["cc", "-O1", "-o", "{exe}", "{source}"]
run = ["{exe}"]

[languages.bad]
name = "Broken"
extensions = ["bad"]
compile = ["sh", "-c", "echo \"{source}:1: this never compiles\" >&2; exit 1"]
run = ["{exe}"]
"#;

/// A project with a verdict of each cheap kind: `sum` (AC and one WA), `crash` (RE with a
/// message on stderr), `broken-checker` (JE) and `flood` (OLE); `sum` also has a validator,
/// generators, a stress table and a reference, for the authoring commands.
fn project() -> Project {
    let toml = format!(
        r#"[defaults]
time-limit = "1s"

[problems.sum]
title = "Sum"
solution = "{sum}"
reference = ["{sum}"]
validator = ["sh", "validate.sh"]

[[problems.sum.generators]]
name = "g{{seed:02}}"
command = ["sh", "gen.sh", "{{seed}}"]
seeds = "1..=3"

[problems.sum.stress]
generator = ["sh", "gen.sh", "{{seed}}"]

[problems.crash]
solution = "{crash}"

[problems.broken-checker]
solution = "{sum}"
checker = {{ type = "command", command = ["sh", "-c", "echo checker exploded >&2; exit 3"] }}

[problems.flood]
solution = "flood.c"
output-limit = "1MiB"
{LANGUAGES}"#,
        sum = fixture("echo-sum").display(),
        crash = fixture("exit-3").display(),
    );
    Project::new()
        .file("judge.toml", &toml)
        .file(
            "validate.sh",
            "read a b\nfor v in \"$a\" \"$b\"; do [ \"$v\" -le 100 ] || { echo \"$v is over 100\" >&2; exit 1; }; done\n",
        )
        .file("gen.sh", "echo \"$1 $(( $1 * 7 % 101 ))\"\n")
        .case("sum", "01", "1 2\n", "3\n")
        .case("sum", "02", "20 30\n", "50\n")
        .case("sum", "03", "2 2\n", "5\n")
        .case("sum", "04", "40 50\n", "90\n")
        .case("crash", "c1", "1 2\n", "3\n")
        .case("broken-checker", "only", "1 2\n", "3\n")
        .case("flood", "f1", "1 2\n", "3\n")
        .file("sum.c", SUM_C)
        .file("big-wrong.c", BIG_WRONG_C)
        .file("wrong.c", WRONG_C)
        .file("broken.bad", BROKEN)
        .file("flood.c", FLOOD_C)
}

#[test]
fn run_json_junit_and_failed() {
    let project = project();
    let settings = junit();
    let document = json_document(
        &project,
        &["run", "--format", "json", "--junit", "reports/run.xml"],
    );
    insta::assert_snapshot!("run_json", document);
    settings.bind(|| insta::assert_snapshot!("run_junit", written(&project, "reports/run.xml")));

    // Only what failed, then (after a fix) nothing.
    let document = json_document(
        &project,
        &[
            "run",
            "--failed",
            "--format",
            "json",
            "--junit",
            "reports/failed.xml",
        ],
    );
    insta::assert_snapshot!("run_failed_json", document);
    settings.bind(|| {
        insta::assert_snapshot!("run_failed_junit", written(&project, "reports/failed.xml"));
    });
    let document = json_document(
        &project,
        &["run", "-p", "sum", "--partition", "2/2", "--format", "json"],
    );
    insta::assert_snapshot!("run_partition_json", document);

    project.write("cases/sum/03.ans", "4\n");
    let fixed = json_document(
        &project,
        &["run", "-p", "sum", "--failed", "--format", "json"],
    );
    insta::assert_snapshot!("run_failed_after_a_fix_json", fixed);
    let nothing = json_document(
        &project,
        &[
            "run",
            "-p",
            "sum",
            "--failed",
            "--format",
            "json",
            "--junit",
            "reports/nothing.xml",
        ],
    );
    insta::assert_snapshot!("run_nothing_failed_json", nothing);
    settings.bind(|| {
        insta::assert_snapshot!(
            "run_nothing_failed_junit",
            written(&project, "reports/nothing.xml")
        );
    });
}

#[test]
fn judge_a_problem_of_judge_toml() {
    let project = project();
    let settings = junit();
    let wrong = json_document(
        &project,
        &[
            "judge",
            "sum",
            "big-wrong.c",
            "--format",
            "json",
            "--junit",
            "reports/judge.xml",
        ],
    );
    insta::assert_snapshot!("judge_wrong_json", wrong);
    settings.bind(|| {
        insta::assert_snapshot!("judge_wrong_junit", written(&project, "reports/judge.xml"));
    });

    let failed = json_document(
        &project,
        &[
            "judge",
            "sum",
            "big-wrong.c",
            "--failed",
            "--format",
            "json",
        ],
    );
    insta::assert_snapshot!("judge_failed_json", failed);

    let fail_fast = json_document(
        &project,
        &[
            "judge",
            "sum",
            "wrong.c",
            "--fail-fast",
            "--format",
            "json",
            "-j",
            "2",
        ],
    );
    insta::assert_snapshot!("judge_fail_fast_json", fail_fast);

    let compile_error = json_document(
        &project,
        &[
            "judge",
            "sum",
            "broken.bad",
            "--format",
            "json",
            "--junit",
            "reports/ce.xml",
        ],
    );
    insta::assert_snapshot!("judge_compile_error_json", compile_error);
    settings.bind(|| {
        insta::assert_snapshot!(
            "judge_compile_error_junit",
            written(&project, "reports/ce.xml")
        );
    });

    let limits = json_document(
        &project,
        &[
            "judge",
            "sum",
            "sum.c",
            "--time-limit",
            "3s",
            "--memory-limit",
            "64MiB",
            "--checker",
            "lines",
            "--case",
            "0[12]",
            "--partition",
            "1/2",
            "--format",
            "json",
        ],
    );
    insta::assert_snapshot!("judge_limits_json", limits);
}

#[test]
fn judge_a_folder_of_cases_without_judge_toml() {
    let project = Project::new()
        .file("test/sample-1.in", "1 2\n")
        .file("test/sample-1.out", "3\n")
        .file("test/sample-2.in", "40 50\n")
        .file("test/sample-2.out", "90\n")
        .file("big-wrong.c", BIG_WRONG_C)
        .file("crash.c", CRASH_C);
    let settings = junit();
    let document = json_document(
        &project,
        &[
            "judge",
            "big-wrong.c",
            "--format",
            "json",
            "--junit",
            "oj.xml",
        ],
    );
    insta::assert_snapshot!("judge_folder_json", document);
    settings.bind(|| insta::assert_snapshot!("judge_folder_junit", written(&project, "oj.xml")));
    let failed = json_document(
        &project,
        &["judge", "big-wrong.c", "--failed", "--format", "json"],
    );
    insta::assert_snapshot!("judge_folder_failed_json", failed);
    let crash = json_document(
        &project,
        &["judge", "crash.c", "--cases", "test", "--format", "json"],
    );
    insta::assert_snapshot!("judge_folder_crash_json", crash);
}

/// A Kattis package: "print a + b", with a time limit of its own and stored submissions.
fn package(project: &Project) {
    project.write(
        "plus/problem.yaml",
        "name: Plus\nsource: harness tests\nlicense: cc0\nlimits:\n  memory: 128\n",
    );
    project.write("plus/.timelimit", "1\n");
    project.write("plus/data/sample/1.in", "1 2\n");
    project.write("plus/data/sample/1.ans", "3\n");
    project.write("plus/data/secret/big.in", "40 50\n");
    project.write("plus/data/secret/big.ans", "90\n");
    project.write("plus/submissions/accepted/sum.c", SUM_C);
    project.write("plus/submissions/wrong_answer/big.c", BIG_WRONG_C);
    project.write("plus/submissions/wrong_answer/lucky.c", SUM_C);
    project.write("plus/submissions/run_time_error/crash.c", CRASH_C);
    project.write("plus/submissions/accepted/sum.scala", "object Sum\n");
}

#[test]
fn judge_and_verify_a_package() {
    let project = Project::new().file("big-wrong.c", BIG_WRONG_C);
    package(&project);
    let settings = junit();
    let judged = json_document(
        &project,
        &[
            "judge",
            "plus",
            "big-wrong.c",
            "--format",
            "json",
            "--junit",
            "plus.xml",
        ],
    );
    insta::assert_snapshot!("judge_package_json", judged);
    settings.bind(|| insta::assert_snapshot!("judge_package_junit", written(&project, "plus.xml")));
    let verified = json_document(
        &project,
        &[
            "verify",
            "plus",
            "--format",
            "json",
            "-j",
            "1",
            "--junit",
            "verify-plus.xml",
        ],
    );
    insta::assert_snapshot!("verify_package_json", verified);
    settings.bind(|| {
        insta::assert_snapshot!("verify_package_junit", written(&project, "verify-plus.xml"));
    });
}

/// The stored submissions of `sum`: each verdict, one that passes where it should not, and
/// one that does not compile.
fn stored(project: &Project) {
    project.write("solutions/submissions/sum/accepted/sum.c", SUM_C);
    project.write("solutions/submissions/sum/accepted/wrong.c", WRONG_C);
    project.write("solutions/submissions/sum/wrong_answer/big.c", BIG_WRONG_C);
    project.write("solutions/submissions/sum/wrong_answer/lucky.c", SUM_C);
    project.write("solutions/submissions/sum/run_time_error/crash.c", CRASH_C);
    project.write(
        "solutions/submissions/sum/time_limit_exceeded/spin.c",
        SPIN_C,
    );
    project.write("solutions/submissions/sum/compile_error/broken.bad", BROKEN);
}

#[test]
fn verify_stored_submissions() {
    let project = project();
    stored(&project);
    let settings = junit();
    let document = json_document(
        &project,
        &[
            "verify",
            "sum",
            "--format",
            "json",
            "-j",
            "2",
            "--junit",
            "verify.xml",
        ],
    );
    insta::assert_snapshot!("verify_json", document);
    settings.bind(|| insta::assert_snapshot!("verify_junit", written(&project, "verify.xml")));
    let slice = json_document(
        &project,
        &[
            "verify",
            "sum",
            "--format",
            "json",
            "-j",
            "1",
            "--partition",
            "1/2",
        ],
    );
    insta::assert_snapshot!("verify_partition_json", slice);
}

#[test]
fn calibrate_a_problem() {
    let project = project();
    // Every accepted program passes: the suggestion is made, and the slow one tried under it.
    project.write("cases/sum/03.ans", "4\n");
    project.write("solutions/submissions/sum/accepted/sum.c", SUM_C);
    project.write(
        "solutions/submissions/sum/time_limit_exceeded/spin.c",
        SPIN_C,
    );
    project.write("solutions/submissions/sum/accepted/broken.bad", BROKEN);
    let document = json_document(
        &project,
        &["calibrate", "sum", "--format", "json", "--repeat", "2"],
    );
    insta::assert_snapshot!("calibrate_json", document);
}

#[test]
fn stress_a_submission() {
    let project = project();
    // `stress sum SOURCE` from seed 1, one worker, then `extra`, as JSON.
    let stress = |source: &str, extra: &[&str]| {
        let mut args = vec!["stress", "sum", source, "--seed", "1", "-j", "1"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--format", "json"]);
        json_document(&project, &args)
    };
    let found = stress("big-wrong.c", &["-n", "40"]);
    insta::assert_snapshot!("stress_found_json", found);
    let unshrunk = stress("big-wrong.c", &["-n", "40", "--no-shrink"]);
    insta::assert_snapshot!("stress_unshrunk_json", unshrunk);
    let none = stress("sum.c", &["-n", "5"]);
    insta::assert_snapshot!("stress_none_found_json", none);
    let compile_error = stress("broken.bad", &["-n", "5"]);
    insta::assert_snapshot!("stress_compile_error_json", compile_error);
    let saved = stress("big-wrong.c", &["-n", "40", "--save", "tricky"]);
    insta::assert_snapshot!("stress_saved_json", saved);
}

#[test]
fn gen_and_validate() {
    let project = project();
    let settings = timed_text();
    settings.bind(|| {
        insta::assert_snapshot!("gen_write", text_output(&project, &["gen", "-j", "1"]));
        insta::assert_snapshot!(
            "gen_check_unchanged",
            text_output(&project, &["gen", "--check"])
        );
        project.write("cases/sum/g02.ans", "0\n");
        insta::assert_snapshot!(
            "gen_check_changed",
            text_output(&project, &["gen", "--check"])
        );
        insta::assert_snapshot!(
            "validate_valid",
            text_output(&project, &["validate", "sum"])
        );
        project.write("cases/sum/05.in", "101 2\n");
        project.write("cases/sum/05.ans", "103\n");
        insta::assert_snapshot!(
            "validate_invalid",
            text_output(&project, &["validate", "-j", "1"])
        );
    });
}

// ---- the reports for people ---------------------------------------------------------------
// Not a document scripts read, so these may change on purpose; they are here so that a change
// of the way results travel to the terminal shows in a diff.

/// Snapshot settings for a report for people: times and sizes with the padding before them,
/// which depends on their width.
fn human_text() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r" *\b\d+(\.\d+)? (ms|s)\b", " [t]");
    settings.add_filter(r" *\b\d+(\.\d+)? (B|KiB|MiB|GiB)\b", " [mem]");
    // Said only where the sandbox has no memory cgroup (without root).
    settings.add_filter(r"(?m)^ *memory without a cgroup: .*\n", "");
    settings
}

#[test]
fn human_reports_of_run_and_judge() {
    let project = project();
    project.write("crash.c", CRASH_C);
    human_text().bind(|| {
        insta::assert_snapshot!("human_run", text_output(&project, &["run"]));
        insta::assert_snapshot!("human_run_verbose", text_output(&project, &["run", "-v"]));
        insta::assert_snapshot!("human_run_quiet", text_output(&project, &["run", "-q"]));
        insta::assert_snapshot!(
            "human_judge",
            text_output(&project, &["judge", "sum", "big-wrong.c"])
        );
        insta::assert_snapshot!(
            "human_judge_crash",
            text_output(&project, &["judge", "sum", "crash.c"])
        );
        insta::assert_snapshot!(
            "human_judge_verbose",
            text_output(&project, &["judge", "sum", "big-wrong.c", "-v"])
        );
        insta::assert_snapshot!(
            "human_judge_compile_error",
            text_output(&project, &["judge", "sum", "broken.bad"])
        );
        insta::assert_snapshot!(
            "human_judge_failed",
            text_output(&project, &["judge", "sum", "big-wrong.c", "--failed", "-q"])
        );
    });
}

#[test]
fn human_reports_of_verify_calibrate_and_stress() {
    let project = project();
    stored(&project);
    // Whether a TLE is near its limit depends on the machine: the table would say.
    std::fs::remove_file(project.join("solutions/submissions/sum/time_limit_exceeded/spin.c"))
        .unwrap();
    human_text().bind(|| {
        insta::assert_snapshot!(
            "human_verify",
            text_output(&project, &["verify", "sum", "-j", "1"])
        );
        insta::assert_snapshot!(
            "human_verify_verbose",
            text_output(&project, &["verify", "sum", "-j", "1", "-v"])
        );
        insta::assert_snapshot!(
            "human_verify_quiet",
            text_output(&project, &["verify", "sum", "-j", "1", "-q"])
        );
        insta::assert_snapshot!(
            "human_stress",
            text_output(
                &project,
                &[
                    "stress",
                    "sum",
                    "big-wrong.c",
                    "--seed",
                    "1",
                    "-n",
                    "40",
                    "-j",
                    "1"
                ]
            )
        );
        project.write("cases/sum/03.ans", "4\n");
        std::fs::remove_file(project.join("solutions/submissions/sum/accepted/wrong.c")).unwrap();
        // Which case and program are slowest is measured too.
        let mut settings = insta::Settings::clone_current();
        settings.add_filter(r"(?m)^(  \S+) \[t\]  \S+", "$1 [t]  [slowest case]");
        settings.add_filter(
            r"\((\d+\.\d × )?\[t\] of \S+:",
            "([m] × [t] of [the slowest]:",
        );
        settings.bind(|| {
            insta::assert_snapshot!(
                "human_calibrate",
                text_output(&project, &["calibrate", "sum", "--repeat", "1"])
            );
        });
    });
}

#[test]
fn judge_a_near_miss_json() {
    // `yes` for `YES`: a wrong answer with the checker that accepts it as its hint.
    let project = Project::new()
        .file("test/sample-1.in", "1\n")
        .file("test/sample-1.out", "YES\n")
        .file("test/sample-2.in", "2\n")
        .file("test/sample-2.out", "NO\n")
        .file(
            "lower.c",
            "#include <stdio.h>\nint main(void) { int n; if (scanf(\"%d\", &n) != 1) return 1; puts(n == 1 ? \"yes\" : \"YES\"); return 0; }\n",
        );
    let document = json_document(&project, &["judge", "lower.c", "--format", "json"]);
    insta::assert_snapshot!("judge_near_miss_json", document);
}
