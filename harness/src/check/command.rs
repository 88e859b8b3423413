//! The `command` checker: an external program with testlib's exit codes.

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::case_files::CaseFiles;
use crate::sandbox::collect::run_collecting;
use crate::sandbox::interrupt;
use crate::sandbox::run::{LimitHit, Limits, RunError, Termination};
use crate::text::{first_line, last_line, one_line};
use crate::units::format_size_limit;
use crate::verdict::Judgement;

/// Wall-clock time an external checker gets before it is killed and the case is a judge error.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
/// Memory of an external checker and what it starts: room for a checker that reads a large
/// output whole, and a bound for one that runs away.
const COMMAND_MEMORY: u64 = 4 << 30;

/// Characters of an external checker's message kept in a reason.
const MESSAGE_CHARS: usize = 200;
/// Bytes of an external checker's stdout/stderr kept (they go to files, so a chatty checker
/// never blocks on a full pipe).
const MESSAGE_BYTES: usize = 64 * 1024;

/// testlib's exit codes.
const EXIT_ACCEPTED: i32 = 0;
const EXIT_WRONG_ANSWER: i32 = 1;
const EXIT_PRESENTATION_ERROR: i32 = 2;
const EXIT_FAIL: i32 = 3;
/// testlib's `_points` (`quitp`): the checker gives a score, not a verdict.
const EXIT_POINTS: i32 = 7;

/// Runs `program` on the case; its messages call it `shown` when given (what judge.toml names,
/// where `program` is a build of it).
pub(super) fn command(
    program: &Path,
    shown: Option<&Path>,
    args: &[String],
    case: &CaseFiles<'_>,
    output: &[u8],
    timeout: Duration,
) -> Judgement {
    let name = shown.unwrap_or(program);
    let file = match output_file(output, name) {
        Ok(file) => file,
        Err(judgement) => return judgement,
    };

    let mut argv: Vec<OsString> = args.iter().map(OsString::from).collect();
    argv.extend([case.input, file.path(), case.answer].map(|path| path.as_os_str().to_owned()));
    // The checker runs where the harness runs, as it always has: its own arguments in
    // judge.toml (`checkers/x.py`) may be relative to here.
    let here = std::env::current_dir().ok();
    let limits = Limits {
        cpu_time: timeout,
        wall_time: timeout,
        memory_bytes: COMMAND_MEMORY,
        output_bytes: 0,
    };
    let ran = run_collecting(program, &argv, here.as_deref(), limits, MESSAGE_BYTES);
    drop(file);
    let collected = match ran {
        Ok(collected) => collected,
        Err(error) => return run_failed(name, error),
    };
    if interrupt::is_interrupted() {
        // Killed by our own Ctrl-C handler: whatever it shows is not the checker's decision.
        return Judgement::judge_error(RunError::Interrupted.to_string());
    }
    match collected.result.limit_hit {
        Some(LimitHit::WallTime | LimitHit::CpuTime) => Judgement::judge_error(format!(
            "checker `{}` did not finish within {}s and was killed",
            name.display(),
            timeout.as_secs_f64()
        )),
        Some(LimitHit::Memory) => Judgement::judge_error(format!(
            "checker `{}` used more than {} and was killed",
            name.display(),
            format_size_limit(COMMAND_MEMORY)
        )),
        Some(LimitHit::Output) | None => classify_command(
            name,
            collected.result.termination,
            &collected.stdout,
            &collected.stderr,
        ),
    }
}

/// The contestant's output in a temporary file the checker is given the path of; a judge error
/// naming the checker when it cannot be written.
fn output_file(output: &[u8], name: &Path) -> Result<tempfile::NamedTempFile, Judgement> {
    tempfile::Builder::new()
        .prefix("harness-output-")
        .tempfile()
        .and_then(|mut file| {
            file.write_all(output)?;
            file.flush()?;
            Ok(file)
        })
        .map_err(|err| {
            Judgement::judge_error(format!(
                "cannot write the output for checker `{}`: {err}",
                name.display()
            ))
        })
}

/// The judge error of a checker that did not start or could not run, with a hint when the
/// cause is a common one.
fn run_failed(name: &Path, error: RunError) -> Judgement {
    match error {
        RunError::Spawn { source, .. } => {
            let hint = match source.kind() {
                std::io::ErrorKind::PermissionDenied => " (hint: `chmod +x` it)",
                std::io::ErrorKind::NotFound => " (hint: check the path in judge.toml)",
                _ => "",
            };
            Judgement::judge_error(format!(
                "cannot start checker `{}`: {source}{hint}",
                name.display()
            ))
        }
        error => Judgement::judge_error(format!(
            "checker `{}` could not run: {error}",
            name.display()
        )),
    }
}

/// Turns the checker's exit status and messages into a result (testlib's conventions).
pub(super) fn classify_command(
    program: &Path,
    status: Termination,
    stdout: &[u8],
    stderr: &[u8],
) -> Judgement {
    // testlib writes its verdict line first; a crashing checker's traceback ends with the error.
    // Checkers that print to stdout instead of stderr are common enough to fall back on.
    let message = |last: bool| {
        let pick = |bytes: &[u8]| {
            let text = String::from_utf8_lossy(bytes);
            let line = if last {
                last_line(&text)
            } else {
                first_line(&text)
            };
            line.map(|l| one_line(l, MESSAGE_CHARS))
        };
        pick(stderr).or_else(|| pick(stdout))
    };
    let code = match status {
        Termination::Exited(code) => Some(code),
        Termination::Signaled(_) => None,
    };
    // Python exits 1 on an uncaught exception, testlib's WA: a checker that crashed would
    // blame the team. Its traceback says it crashed.
    let traceback = crate::verdict::has_python_traceback(&String::from_utf8_lossy(stderr));
    match code {
        Some(EXIT_WRONG_ANSWER) if traceback => Judgement::judge_error(format!(
            "checker `{}` crashed (a Python traceback, exit 1){}",
            program.display(),
            message(true).map(|m| format!(": {m}")).unwrap_or_default()
        )),
        Some(EXIT_ACCEPTED) => Judgement::accepted(message(false).unwrap_or_default()),
        Some(EXIT_WRONG_ANSWER) => Judgement::wrong_answer(
            message(false).unwrap_or_else(|| "checker says wrong answer (no message)".into()),
        ),
        Some(EXIT_PRESENTATION_ERROR) => Judgement::wrong_answer(format!(
            "presentation error: {}",
            message(false).unwrap_or_else(|| "(no message)".into())
        )),
        // testlib's `quitp`: the case is accepted with these points, as Polygon reads them
        // (the first token of its message); the case's scoring rule decides what they are
        // worth, and a pass-fail problem refuses them.
        Some(EXIT_POINTS) => {
            let said = if stderr.iter().any(|b| !b.is_ascii_whitespace()) {
                stderr
            } else {
                stdout
            };
            match crate::score::testlib_points(said) {
                Ok(credit) => Judgement {
                    credit: Some(credit),
                    ..Judgement::accepted(message(true).unwrap_or_default())
                },
                Err(error) => Judgement::judge_error(format!(
                    "checker `{}` gave points (testlib `quitp`, exit 7) that cannot be used: {error}",
                    program.display()
                )),
            }
        }
        code => {
            let how = match code {
                Some(EXIT_FAIL) => "failed (exit 3)".to_string(),
                Some(code) => format!("exited with unknown code {code}"),
                None => format!("was killed by {}", status.describe()),
            };
            let detail = message(true).map(|m| format!(": {m}")).unwrap_or_default();
            Judgement::judge_error(format!("checker `{}` {how}{detail}", program.display()))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    use super::*;
    use crate::verdict::Verdict;
    use crate::verdict::Verdict::{Accepted as AC, JudgeError as JE, WrongAnswer as WA};

    /// Writes an executable `#!/bin/sh` script into `dir`.
    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    /// Runs a shell script `body` (named `name`) as the checker, with `args`.
    /// Time enough for any checker of these tests, on a busy machine.
    const TIMEOUT: Duration = Duration::from_secs(20);

    /// A script checker `name` with `body`, no arguments, run on the case.
    fn run_body(name: &str, body: &str) -> Judgement {
        run_script(name, body, &[], TIMEOUT)
    }

    fn run_script(name: &str, body: &str, args: &[&str], timeout: Duration) -> Judgement {
        let dir = tempfile::tempdir().expect("tempdir");
        run_command(&script(dir.path(), name, body), args, timeout)
    }

    fn run_command(program: &Path, args: &[&str], timeout: Duration) -> Judgement {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("case.in");
        let answer = dir.path().join("case.ans");
        std::fs::write(&input, "2 3\n").expect("write input");
        std::fs::write(&answer, "5\n").expect("write answer");
        let case = CaseFiles {
            input: &input,
            answer: &answer,
        };
        let args: Vec<String> = args.iter().map(std::string::ToString::to_string).collect();
        command(program, None, &args, &case, b"5\n", timeout)
    }

    #[test]
    #[rustfmt::skip] // One case per line reads as a table.
    fn command_exit_codes() {
        let rows: &[(&str, Verdict, &str)] = &[
            ("echo 'ok 1 number' >&2; exit 0", AC, "ok 1 number"),
            ("exit 0", AC, ""),
            ("echo >&2; echo 'wrong answer expected 5, found 6' >&2; echo 'more' >&2; exit 1", WA, "wrong answer expected 5, found 6"),
            ("exit 1", WA, "checker says wrong answer (no message)"),
            ("echo 'wrong answer on stdout'; exit 1", WA, "wrong answer on stdout"),
            ("echo 'extra spaces' >&2; exit 2", WA, "presentation error: extra spaces"),
            ("echo 'FAIL answer is wrong' >&2; exit 3", JE, "failed (exit 3): FAIL answer is wrong"),
            ("echo 'points 10.0 equal to the jury' >&2; exit 7", AC, "points 10.0 equal to the jury"),
            ("echo 'points many' >&2; exit 7", JE, "gave points (testlib `quitp`, exit 7) that cannot be used: testlib's `quitp` points is not a number: \"many\""),
            ("exit 9", JE, "exited with unknown code 9"),
            ("echo 'Traceback:' >&2; echo 'ValueError: x' >&2; exit 42", JE, "exited with unknown code 42: ValueError: x"),
            // Python's own exit on an uncaught exception is testlib's WA: the traceback tells.
            ("echo 'Traceback (most recent call last):' >&2; echo '  File \"c.py\", line 3' >&2; echo 'IndexError: list index out of range' >&2; exit 1", JE, "crashed (a Python traceback, exit 1): IndexError: list index out of range"),
            ("echo 'wrong answer: see the Traceback (most recent call last): line' >&2; exit 1", WA, "wrong answer: see the Traceback (most recent call last): line"),
            ("kill -SEGV $$", JE, "was killed by SIGSEGV"),
        ];
        for (i, (body, verdict, reason)) in rows.iter().enumerate() {
            let result = run_body(&format!("checker{i}.sh"), body);
            assert_eq!(result.verdict, *verdict, "{body}: {}", result.reason);
            assert!(
                result.reason.ends_with(reason),
                "{body}: reason {:?} should end with {reason:?}",
                result.reason
            );
        }
    }

    #[test]
    fn a_built_checker_is_named_as_judge_toml_names_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let program = script(dir.path(), "main.bin", "echo 'FAIL no' >&2; exit 3");
        let input = dir.path().join("case.in");
        std::fs::write(&input, "1\n").expect("write input");
        let case = CaseFiles {
            input: &input,
            answer: &input,
        };
        let shown = Path::new("checkers/boards.py");
        let result = command(&program, Some(shown), &[], &case, b"1\n", TIMEOUT);
        assert_eq!(result.verdict, JE, "{}", result.reason);
        assert_eq!(
            result.reason,
            "checker `checkers/boards.py` failed (exit 3): FAIL no"
        );
    }

    #[test]
    fn quitp_points_are_the_credit_of_an_accepted_case() {
        let result = run_body("quitp.sh", "echo 'points 2.5 half right' >&2; exit 7");
        assert_eq!(result.verdict, AC, "{}", result.reason);
        assert_eq!(
            result.credit,
            Some(crate::score::Credit {
                source: crate::score::CreditSource::Testlib,
                value: 2.5
            })
        );
    }

    #[test]
    fn command_gets_args_then_input_output_answer() {
        // Accepts only when given `--flag`, the input, the output (holding 5) and the answer.
        let result = run_script(
            "args.sh",
            r#"[ "$1" = --flag ] || { echo "bad flag $1" >&2; exit 3; }
[ "$(cat "$2")" = "2 3" ] || { echo "bad input" >&2; exit 3; }
[ "$(cat "$3")" = "$(cat "$4")" ] || { echo "wrong answer" >&2; exit 1; }
echo "ok" >&2"#,
            &["--flag"],
            TIMEOUT,
        );
        assert_eq!(result, Judgement::accepted("ok"));
    }

    #[test]
    fn command_that_cannot_start_is_a_judge_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("no-such-checker");
        let result = run_command(&missing, &[], TIMEOUT);
        assert_eq!(result.verdict, JE);
        assert!(
            result.reason.starts_with("cannot start checker"),
            "{}",
            result.reason
        );

        let not_executable = dir.path().join("plain.sh");
        std::fs::write(&not_executable, "#!/bin/sh\nexit 0\n").expect("write");
        let result = run_command(&not_executable, &[], TIMEOUT);
        result.assert_is(JE, "chmod +x");
    }

    #[test]
    fn command_message_is_one_line_and_cut() {
        let result = run_body("long.sh", "printf 'wrong\\tanswer %0300d\\n' 0 >&2; exit 1");
        assert_eq!(result.verdict, WA);
        assert!(
            result.reason.starts_with("wrong\\tanswer 000"),
            "{}",
            result.reason
        );
        assert_eq!(result.reason.chars().count(), MESSAGE_CHARS + 2);
        assert!(result.reason.ends_with('…'));
    }

    #[test]
    fn command_timeout_kills_the_checker_and_what_it_started() {
        // The background sleep holds stderr open: only killing the group lets the judge go on.
        let started = Instant::now();
        let result = run_script(
            "slow.sh",
            "sleep 30 & sleep 30",
            &[],
            Duration::from_millis(300),
        );
        result.assert_is(JE, "did not finish");
        assert!(started.elapsed() < Duration::from_secs(10));

        // A checker that exits but leaves a child holding the pipes must not hang the judge.
        let started = Instant::now();
        let result = run_body("leaves.sh", "sleep 30 & echo 'ok' >&2; exit 0");
        assert_eq!(result, Judgement::accepted("ok"));
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
