//! Hostile submissions against the sandbox, each judged by the real `harness` binary on a
//! temporary project: the verdict they get, and that the answers, the project, `$HOME` and the
//! machine are as they were afterwards. Needs user namespaces: where the kernel refuses them
//! (see `harness doctor`), each test says so and passes without judging.

mod common;

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

/// A project with one problem `p` whose solution is `fixture`, and one case `a` = `input`.
fn project(fixture: &str, input: &str, extra_defaults: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "[defaults]\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\noutput-limit = \"1MiB\"\n\
         sandbox = \"required\"\n{extra_defaults}\n\
         [problems.p]\nsolution = \"{}\"\ncases = \"cases/p\"\n",
        common::fixture(fixture).display()
    );
    std::fs::write(dir.path().join("judge.toml"), toml).unwrap();
    std::fs::write(dir.path().join("README.md"), "the project\n").unwrap();
    let cases = dir.path().join("cases/p");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(cases.join("a.in"), input).unwrap();
    std::fs::write(cases.join("a.ans"), "3\n").unwrap();
    dir
}

/// `harness doctor` says whether this machine can sandbox.
fn sandbox_available() -> bool {
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .arg("doctor")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let available = text.contains("namespaces: yes");
    if !available {
        eprintln!("no sandbox here, attack not tried:\n{text}");
    }
    available
}

/// Judges the project: the one case's JSON entry, and the whole output.
fn judge(dir: &Path) -> (Value, Output) {
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(["run", "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (report["problems"][0]["cases"][0].clone(), output)
}

fn verdict(case: &Value) -> &str {
    case["verdict"].as_str().unwrap_or_default()
}

#[test]
fn the_answer_cannot_be_read_or_overwritten_through_stdin() {
    if !sandbox_available() {
        return;
    }
    let dir = project("steal-answer", "1 2\n", "");
    let (case, _) = judge(dir.path());
    assert_eq!(verdict(&case), "WA", "{case}");
    let answer = std::fs::read_to_string(dir.path().join("cases/p/a.ans")).unwrap();
    assert_eq!(answer, "3\n");
    let input = std::fs::read_to_string(dir.path().join("cases/p/a.in")).unwrap();
    assert_eq!(input, "1 2\n");
}

#[test]
fn the_project_and_home_are_out_of_reach() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project_dir = dir.path().join("project");
    std::fs::create_dir(&project_dir).unwrap();
    let made = project("find-project", "", "");
    // Told exactly where the project is: it still finds nothing there.
    for entry in ["judge.toml", "README.md", "cases"] {
        std::fs::rename(made.path().join(entry), project_dir.join(entry)).unwrap();
    }
    let input = format!("{} 1 2\n", project_dir.display());
    std::fs::write(project_dir.join("cases/p/a.in"), &input).unwrap();
    let (case, output) = judge(&project_dir);
    assert_eq!(verdict(&case), "AC", "{case}");
    assert_eq!(
        std::fs::read_to_string(project_dir.join("README.md")).unwrap(),
        "the project\n"
    );
    assert!(!project_dir.join("cases/p/planted.in").exists());
    assert_eq!(
        std::fs::read_dir(project_dir.join("cases/p"))
            .unwrap()
            .count(),
        2,
        "{output:?}"
    );
    if let Some(home) = std::env::var_os("HOME") {
        assert!(!Path::new(&home).join(".harness-was-here").exists());
    }
}

#[test]
fn a_file_io_submission_is_sandboxed_too() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project_dir = dir.path().join("project");
    std::fs::create_dir(&project_dir).unwrap();
    let made = project("find-project-files", "", "");
    for entry in ["judge.toml", "README.md", "cases"] {
        std::fs::rename(made.path().join(entry), project_dir.join(entry)).unwrap();
    }
    let toml = std::fs::read_to_string(project_dir.join("judge.toml")).unwrap();
    let toml = format!("{toml}input-file = \"input.txt\"\noutput-file = \"output.txt\"\n");
    std::fs::write(project_dir.join("judge.toml"), toml).unwrap();
    // Told exactly where the project is, it reads its input from a file and still finds
    // nothing there: any success is a line before the sum, so WA.
    let input = format!("{} 1 2\n", project_dir.display());
    std::fs::write(project_dir.join("cases/p/a.in"), &input).unwrap();
    let (case, output) = judge(&project_dir);
    assert_eq!(verdict(&case), "AC", "{case}\n{output:?}");
    assert_eq!(
        std::fs::read_to_string(project_dir.join("README.md")).unwrap(),
        "the project\n"
    );
    assert_eq!(
        std::fs::read_to_string(project_dir.join("cases/p/a.ans")).unwrap(),
        "3\n"
    );
    assert!(!project_dir.join("cases/p/planted.in").exists());
}

/// A Kattis interactor that sends the case's input and accepts a first line of `3`.
const SAYS_INPUT: &str = "#!/bin/sh\ncat \"$1\"\nread -r line\n[ \"$line\" = 3 ] && exit 42\n\
                          echo \"first line: $line\" > \"$3judgemessage.txt\"\nexit 43\n";

#[test]
fn an_interactive_submission_is_sandboxed_too() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project_dir = dir.path().join("project");
    std::fs::create_dir(&project_dir).unwrap();
    let made = project("find-project", "", "");
    for entry in ["judge.toml", "README.md", "cases"] {
        std::fs::rename(made.path().join(entry), project_dir.join(entry)).unwrap();
    }
    let toml = std::fs::read_to_string(project_dir.join("judge.toml")).unwrap();
    let toml = format!(
        "{toml}interactor = [\"interactors/says-input\"]\ninteractor-protocol = \"kattis\"\n"
    );
    std::fs::write(project_dir.join("judge.toml"), toml).unwrap();
    let interactor = project_dir.join("interactors/says-input");
    std::fs::create_dir_all(interactor.parent().unwrap()).unwrap();
    std::fs::write(&interactor, SAYS_INPUT).unwrap();
    std::fs::set_permissions(
        &interactor,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    // Told by the interactor where the project is, it still finds nothing there (any success
    // is a first line other than the sum: WA), though its parent is the judge outside.
    let input = format!("{} 1 2\n", project_dir.display());
    std::fs::write(project_dir.join("cases/p/a.in"), &input).unwrap();
    let (case, output) = judge(&project_dir);
    assert_eq!(verdict(&case), "AC", "{case}\n{output:?}");
    assert_eq!(
        std::fs::read_to_string(project_dir.join("README.md")).unwrap(),
        "the project\n"
    );
    assert!(!project_dir.join("cases/p/planted.in").exists());
    if let Some(home) = std::env::var_os("HOME") {
        assert!(!Path::new(&home).join(".harness-was-here").exists());
    }
}

#[test]
fn childrens_cpu_time_counts() {
    if !sandbox_available() {
        return;
    }
    let dir = project("children-spin", "1 2\n", "");
    let (case, _) = judge(dir.path());
    assert_eq!(verdict(&case), "TLE", "{case}");
}

#[test]
fn childrens_memory_counts() {
    if !sandbox_available() {
        return;
    }
    let dir = project("children-memory", "1 2\n", "");
    let (case, _) = judge(dir.path());
    assert_eq!(verdict(&case), "MLE", "{case}");
}

/// Processes still running the program `exe`.
fn running(exe: &Path) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|entry| {
            std::fs::read_link(entry.path().join("exe")).is_ok_and(|target| target == exe)
        })
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn children_that_leave_the_group_are_gone_with_the_verdict() {
    if !sandbox_available() {
        return;
    }
    let dir = project("escape", "1 2\n", "");
    let (case, _) = judge(dir.path());
    assert_eq!(verdict(&case), "AC", "{case}");
    let left = running(&common::fixture("escape"));
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn a_run_finds_nothing_of_the_runs_before_it() {
    if !sandbox_available() {
        return;
    }
    // One worker (`-j 1`) judges the cases one after another, in the same namespaces: each
    // run must start as if it were the first.
    let dir = project("leave-traces", "1 2\n", "");
    for name in ["b", "c", "d"] {
        std::fs::write(dir.path().join(format!("cases/p/{name}.in")), "1 2\n").unwrap();
        std::fs::write(dir.path().join(format!("cases/p/{name}.ans")), "3\n").unwrap();
    }
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args(["run", "--format", "json", "-j", "1"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let cases = report["problems"][0]["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        assert_eq!(verdict(case), "AC", "{case}");
    }
    let left = running(&common::fixture("leave-traces"));
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn a_fork_bomb_is_tle_and_gone_with_the_verdict() {
    // Only where a `pids` cgroup holds the tree (root with cgroup v1, as on CI): elsewhere a
    // fork bomb would meet only the user's process limit, shared with everything else.
    let doctor = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .arg("doctor")
        .output()
        .unwrap();
    if !sandbox_available() || !String::from_utf8_lossy(&doctor.stdout).contains("`pids` limit") {
        eprintln!("no pids cgroup here: fork bomb not tried");
        return;
    }
    let dir = project("fork-bomb", "1 2\n", "");
    // Each task of the bomb is charged its kernel memory (0.2 to 0.5 MiB on the machines
    // measured): with room for all of them, it is the CPU limit that stops it.
    let toml = dir.path().join("judge.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("\"256MiB\"", "\"1GiB\"")).unwrap();
    let (case, output) = judge(dir.path());
    assert_eq!(verdict(&case), "TLE", "{case}");
    assert!(
        case["reason"].as_str().unwrap().contains("CPU time"),
        "{case}"
    );
    if String::from_utf8_lossy(&doctor.stdout).contains("`cpuacct`") {
        // Stopped once its processes together used what one process may (2 s for a 1 s
        // limit), read from the tree's `cpuacct` counter, and killed at once by the init
        // (2.7 s here): without either it went on to the wall bound, the judge one runnable
        // task among hundreds, using 13 to 29 s of CPU.
        let cpu = case["time_ms"].as_u64().unwrap();
        assert!(cpu < 6000, "{cpu} ms of CPU: {case}");
    }
    assert_eq!(output.status.code(), Some(1), "{case}");
    let left = running(&common::fixture("fork-bomb"));
    assert!(left.is_empty(), "still running: {}", left.len());
}

/// Runs the harness as `nobody` (from a root test): a user without root, as most users
/// are, with no cgroups to make. `None` where that cannot be done here.
fn as_nobody(dir: &Path, args: &[&str]) -> Option<Output> {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let output = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(assert_cmd::cargo::cargo_bin("harness"))
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("NO_COLOR", "1")
        .output()
        .ok()?;
    output.status.code()?;
    Some(output)
}

/// A project of `fixture` that `nobody` may judge, where it is sandboxed without cgroups
/// (from a root test on a machine with user namespaces); `None`, having said why, elsewhere.
fn project_for_nobody(fixture: &str) -> Option<tempfile::TempDir> {
    use std::os::unix::fs::PermissionsExt;
    let dir = project(fixture, "1 2\n", "");
    for folder in [
        dir.path(),
        &dir.path().join("cases"),
        &dir.path().join("cases/p"),
    ] {
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let doctor = as_nobody(dir.path(), &["doctor"]);
    let doctor = doctor.map(|output| String::from_utf8_lossy(&output.stdout).into_owned());
    // The fixture must be readable by `nobody` too (a checkout under /root is not).
    let readable = std::process::Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            "test",
            "-r",
        ])
        .arg(common::fixture(fixture))
        .status()
        .is_ok_and(|status| status.success());
    if !readable
        || !doctor
            .as_ref()
            .is_some_and(|text| text.contains("namespaces: yes") && !text.contains("cgroup v1"))
    {
        common::skipped(&format!(
            "{fixture} without root: no sandbox without root here ({doctor:?})"
        ));
        return None;
    }
    Some(dir)
}

#[test]
fn a_fork_bomb_without_root_is_tle_and_gone_too() {
    let Some(dir) = project_for_nobody("fork-bomb") else {
        return;
    };
    let output = as_nobody(dir.path(), &["run", "--format", "json"]).unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {output:?}");
    });
    let case = &report["problems"][0]["cases"][0];
    assert_eq!(verdict(case), "TLE", "{case}");
    assert!(
        case["reason"].as_str().unwrap().contains("CPU time"),
        "{case}"
    );
    // Held by RLIMIT_NPROC, which the kernel counts in the sandbox's user namespace, to 258
    // tasks (the user's other processes do not count), and stopped when its live processes'
    // CPU time, summed from /proc, passed 2 s: 4.3-4.8 s of CPU here. With the user's limit
    // of 4096 processes and the tree summed only at the wall bound: 89-99 s, 53-57 s of wall.
    let cpu = case["time_ms"].as_u64().unwrap();
    assert!(cpu < 20_000, "{cpu} ms of CPU: {case}");
    let left = running(&common::fixture("fork-bomb"));
    assert!(left.is_empty(), "still running: {}", left.len());
}

#[test]
fn the_memory_shown_is_the_programs_own_without_root_too() {
    // No cgroup: the figure is the samples and the processes' `ru_maxrss`, the program's own
    // in place of the init's it was cloned from (2.8 MiB shown for this C program before,
    // where /usr/bin/time says 1.2-1.5 MiB).
    let Some(time) = common::time_max_rss(&common::fixture("echo-sum"), "1 2\n") else {
        common::skipped("the memory shown without root: no /usr/bin/time to compare it with");
        return;
    };
    let Some(dir) = project_for_nobody("echo-sum") else {
        return;
    };
    let output = as_nobody(dir.path(), &["run", "--format", "json"]).unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {output:?}");
    });
    let case = &report["problems"][0]["cases"][0];
    assert_eq!(verdict(case), "AC", "{case}");
    let shown = case["memory_kib"].as_u64().unwrap() * 1024;
    assert!(
        shown.abs_diff(time) <= 512 << 10,
        "shown {shown} bytes, /usr/bin/time says {time}: {case}"
    );
}

#[test]
fn signalling_the_parent_does_nothing() {
    if !sandbox_available() {
        return;
    }
    let dir = project("signal-parent", "1 2\n", "");
    let (case, output) = judge(dir.path());
    assert_eq!(verdict(&case), "AC", "{case}");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_loopback_connection_fails() {
    if !sandbox_available() {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let dir = project("loopback", &format!("{port}\n"), "");
    let (case, _) = judge(dir.path());
    assert_eq!(verdict(&case), "AC", "{case}");
    assert!(listener.accept().is_err(), "the program connected");
}

#[test]
fn abort_is_a_runtime_error_under_the_init() {
    if !sandbox_available() {
        return;
    }
    let dir = project("abort", "1 2\n", "");
    let (case, _) = judge(dir.path());
    assert_eq!(verdict(&case), "RE", "{case}");
    assert!(case.to_string().contains("SIGABRT"), "{case}");
}

/// Runs `harness run` where no user namespace can be made: inside a user namespace whose
/// `max_user_namespaces` is 0 (a per-namespace limit, so the machine is untouched). `None`
/// where `unshare` itself cannot do that here.
fn judge_without_namespaces(dir: &Path) -> Option<Output> {
    let script = format!(
        "echo 0 > /proc/sys/user/max_user_namespaces || exit 99; exec '{}' run",
        assert_cmd::cargo::cargo_bin("harness").display()
    );
    let output = std::process::Command::new("unshare")
        .args(["--user", "--map-root-user", "sh", "-c", &script])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .ok()?;
    let refused = output.stderr.starts_with(b"unshare");
    if output.status.code() == Some(99) || refused {
        eprintln!("cannot take user namespaces away here: {output:?}");
        return None;
    }
    Some(output)
}

#[test]
fn a_required_sandbox_that_cannot_be_made_stops_the_command_once() {
    let dir = project("abort", "1 2\n", "");
    // Two cases: the error must not repeat per case.
    std::fs::write(dir.path().join("cases/p/b.in"), "1 2\n").unwrap();
    std::fs::write(dir.path().join("cases/p/b.ans"), "3\n").unwrap();
    let Some(output) = judge_without_namespaces(dir.path()) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_eq!(
        stderr.matches("sandbox = \"required\"").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("judge.toml`"), "{stderr}");
    assert!(stderr.contains("harness doctor"), "{stderr}");
    assert!(output.stdout.is_empty(), "nothing was judged: {output:?}");
}

#[test]
fn without_namespaces_auto_judges_and_warns_once() {
    let dir = project("abort", "1 2\n", "");
    let toml = std::fs::read_to_string(dir.path().join("judge.toml")).unwrap();
    std::fs::write(
        dir.path().join("judge.toml"),
        toml.replace("sandbox = \"required\"", "sandbox = \"auto\""),
    )
    .unwrap();
    std::fs::write(dir.path().join("cases/p/b.in"), "1 2\n").unwrap();
    std::fs::write(dir.path().join("cases/p/b.ans"), "3\n").unwrap();
    let Some(output) = judge_without_namespaces(dir.path()) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    // abort() is still a runtime error without the init.
    let runtime_errors = stdout
        .lines()
        .filter(|line| line.trim_start().starts_with("RE "))
        .count();
    assert_eq!(runtime_errors, 2, "{stdout}\n{stderr}");
    assert_eq!(
        stderr.matches("no sandbox on this machine").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn more_jobs_than_cores_warn_once() {
    let dir = project("abort", "1 2\n", "");
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args(["run", "-j", &(cores * 4).to_string()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.matches("runs more programs at once than").count(),
        1,
        "{stderr}"
    );
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args(["run", "-j", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("runs more programs at once than"),
        "{stderr}"
    );
}

/// A file-I/O project whose solution is the `output-trick` fixture, with one case per
/// `(name, input)`, each answered `3`.
fn output_trick_project(cases: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = project("output-trick", "", "");
    let toml = std::fs::read_to_string(dir.path().join("judge.toml")).unwrap();
    // The judge reads the file itself, sandbox or not.
    let toml = toml.replace("sandbox = \"required\"", "sandbox = \"auto\"");
    let toml = format!("{toml}input-file = \"input.txt\"\noutput-file = \"out.txt\"\n");
    std::fs::write(dir.path().join("judge.toml"), toml).unwrap();
    let folder = dir.path().join("cases/p");
    std::fs::remove_file(folder.join("a.in")).unwrap();
    std::fs::remove_file(folder.join("a.ans")).unwrap();
    for (name, input) in cases {
        std::fs::write(folder.join(format!("{name}.in")), input).unwrap();
        std::fs::write(folder.join(format!("{name}.ans")), "3\n").unwrap();
    }
    dir
}

#[test]
fn an_output_file_that_is_a_link_is_wa_and_never_followed() {
    let dir = output_trick_project(&[
        // Through the judge's own /proc/self/cwd, the project: the case's answer.
        ("answer", "link /proc/self/cwd/cases/p/answer.ans\n"),
        ("environ", "link /proc/self/environ\n"),
        ("passwd", "link /etc/passwd\n"),
        // The judge's stdin, which says `3`.
        ("stdin", "link /proc/self/fd/0\n"),
        ("folder", "folder\n"),
    ]);
    let secret = "harness-test-secret-5f3a9c";
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env("HARNESS_TEST_SECRET", secret)
        .args(["run", "--format", "json", "-j", "1"])
        .write_stdin("3\n")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {output:?}"));
    let cases = report["problems"][0]["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 5, "{stdout}");
    for case in cases {
        let name = case["name"].as_str().unwrap_or_default();
        assert_eq!(verdict(case), "WA", "{case}");
        let reason = case["reason"].as_str().unwrap_or_default();
        let expected = if name == "folder" {
            "is not a regular file (a folder)"
        } else {
            "`out.txt` is a symbolic link"
        };
        assert!(reason.contains(expected), "{case}");
    }
    // Nothing of what the links lead to reached the report.
    assert!(
        !stdout.contains(secret),
        "the judge's environment leaked: {stdout}"
    );
    assert!(!stdout.contains("root:x:0"), "/etc/passwd leaked: {stdout}");
}

#[test]
fn an_output_file_that_is_a_fifo_is_wa_at_once() {
    use std::time::{Duration, Instant};
    let dir = output_trick_project(&[("fifo", "fifo\n")]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args(["run", "--format", "json"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Opening a FIFO to read blocks until someone writes: a judge that does hangs for ever.
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            // Its group: the judge and the helpers it started.
            let _ = child.kill();
            let _ = child.wait();
            panic!("the judge hung on a FIFO as the output file");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    let report: Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {output:?}"));
    let case = &report["problems"][0]["cases"][0];
    assert_eq!(verdict(case), "WA", "{case}");
    assert!(
        case["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("not a regular file (a FIFO)"),
        "{case}"
    );
}

/// keyctl(2) and add_key(2), for the keyring tests.
mod keys {
    const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;
    const KEYCTL_SEARCH: libc::c_long = 10;
    const KEY_SPEC_SESSION_KEYRING: libc::c_long = -3;

    /// Gives this thread (and what it starts) a session keyring of its own, holding one key
    /// `harness-test-secret`: the user's secret the program must not see.
    pub fn own_session_with_a_secret() {
        // SAFETY: keyctl and add_key with NUL-terminated strings and integer arguments.
        unsafe {
            let joined = libc::syscall(
                libc::SYS_keyctl,
                KEYCTL_JOIN_SESSION_KEYRING,
                c"harness-test-session".as_ptr(),
            );
            assert!(joined >= 0, "{}", std::io::Error::last_os_error());
            let key = libc::syscall(
                libc::SYS_add_key,
                c"user".as_ptr(),
                c"harness-test-secret".as_ptr(),
                c"hunter2".as_ptr(),
                7usize,
                KEY_SPEC_SESSION_KEYRING,
            );
            assert!(key >= 0, "{}", std::io::Error::last_os_error());
        }
        assert!(in_session("harness-test-secret"));
    }

    /// Whether this thread's session keyring holds a user key named `name`.
    pub fn in_session(name: &str) -> bool {
        let name = std::ffi::CString::new(name).unwrap();
        // SAFETY: keyctl with NUL-terminated strings and integer arguments.
        let key = unsafe {
            libc::syscall(
                libc::SYS_keyctl,
                KEYCTL_SEARCH,
                KEY_SPEC_SESSION_KEYRING,
                c"user".as_ptr(),
                name.as_ptr(),
                0,
            )
        };
        key >= 0
    }
}

/// C, with the seccomp filter lifted (`sandbox = "no-syscall-filter"`): for the tests of
/// what the rest of the sandbox holds (the filter alone refuses keyctl, for one).
const C_WITHOUT_FILTER: &str = "\n[languages.c]\nname = \"C11\"\nextensions = [\"c\"]\n\
                                compile = [\"cc\", \"-O2\", \"-o\", \"{exe}\", \"{source}\"]\n\
                                run = [\"{exe}\"]\nsandbox = \"no-syscall-filter\"\n";

/// A project judging the `keyring` fixture's source on two cases, one after the other on one
/// worker, without the seccomp filter (which refuses keyctl): the keyrings alone must hold.
fn keyring_project() -> tempfile::TempDir {
    let dir = project("keyring", "1 2\n", C_WITHOUT_FILTER);
    std::fs::write(dir.path().join("cases/p/b.in"), "1 2\n").unwrap();
    std::fs::write(dir.path().join("cases/p/b.ans"), "3\n").unwrap();
    dir
}

/// Both cases AC (the program found no key: neither the session's secret nor what the run
/// before it planted), and nothing it planted reached the test's session.
fn assert_keys_out_of_reach(output: &Output) {
    let cases = verdicts_and_output(output);
    assert_eq!(cases.len(), 2, "{output:?}");
    for (_, verdict, case) in &cases {
        assert_eq!(verdict, "AC", "{case}");
    }
    assert!(
        !keys::in_session("harness-planted"),
        "a key the program planted is in the user's session"
    );
}

#[test]
fn the_users_session_keyring_is_out_of_reach() {
    if !sandbox_available() {
        common::skipped("no sandbox here");
        return;
    }
    keys::own_session_with_a_secret();
    let dir = keyring_project();
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .arg("judge")
        .arg("p")
        .arg(common::fixture_source("keyring"))
        .args(["--format", "json", "-j", "1"])
        .output()
        .unwrap();
    assert_keys_out_of_reach(&output);
}

#[test]
fn the_users_session_keyring_is_out_of_reach_without_root_too() {
    use std::os::unix::fs::PermissionsExt;
    let dir = keyring_project();
    for folder in [
        dir.path(),
        &dir.path().join("cases"),
        &dir.path().join("cases/p"),
    ] {
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let readable = std::process::Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            "test",
            "-r",
        ])
        .arg(common::fixture_source("keyring"))
        .status()
        .is_ok_and(|status| status.success());
    let doctor = as_nobody(dir.path(), &["doctor"])
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned());
    if !readable || !doctor.is_some_and(|text| text.contains("namespaces: yes")) {
        common::skipped("no sandbox without root here (or the fixture is not readable)");
        return;
    }
    // The session keyring is the test's (root's): `nobody` possesses it through its session.
    keys::own_session_with_a_secret();
    let source = common::fixture_source("keyring");
    let source = source.to_str().unwrap();
    let output = as_nobody(
        dir.path(),
        &["judge", "p", source, "--format", "json", "-j", "1"],
    )
    .unwrap();
    assert_keys_out_of_reach(&output);
}

/// The calls the seccomp filter refuses, one case each of the `refused-call` fixture.
const REFUSED_CALLS: [&str; 35] = [
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "unshare",
    "setns",
    "clone",
    "clone3",
    "keyctl",
    "add_key",
    "request_key",
    "ptrace",
    "bpf",
    "perf_event_open",
    "open_tree",
    "mount_setattr",
    "mount",
    "umount2",
    "pivot_root",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "move_mount",
    // Sockets of a family no namespace isolates.
    "socket",
    "socketpair",
    "netlink",
    // Kernel memory no cgroup counts without root; System V IPC and message queues also
    // outlive the run.
    "setsockopt",
    "fcntl",
    "vmsplice",
    "memfd_create",
    "memfd_secret",
    "shmget",
    "semget",
    "msgget",
    "mq_open",
];

/// A project with one case per refused call; `language` is a `[languages.c]` table to judge
/// the fixture's source with, or empty to judge the built fixture.
fn refused_calls_project(language: &str) -> tempfile::TempDir {
    let dir = project("refused-call", "", language);
    let folder = dir.path().join("cases/p");
    std::fs::remove_file(folder.join("a.in")).unwrap();
    std::fs::remove_file(folder.join("a.ans")).unwrap();
    for call in REFUSED_CALLS {
        std::fs::write(folder.join(format!("{call}.in")), format!("{call} 1 2\n")).unwrap();
        std::fs::write(folder.join(format!("{call}.ans")), "3\n").unwrap();
    }
    dir
}

/// Each case's verdict and what the program printed, by case name.
fn verdicts_and_output(output: &Output) -> Vec<(String, String, String)> {
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {output:?}"));
    // `harness run` reports problems; `harness judge` one submission's cases.
    let cases = if report["problems"].is_array() {
        &report["problems"][0]["cases"]
    } else {
        &report["cases"]
    };
    cases
        .as_array()
        .unwrap_or_else(|| panic!("{report}"))
        .iter()
        .map(|case| {
            (
                case["name"].as_str().unwrap_or_default().to_owned(),
                verdict(case).to_owned(),
                case.to_string(),
            )
        })
        .collect()
}

#[test]
fn the_syscall_filter_refuses_each_call_with_an_error() {
    if !sandbox_available() {
        common::skipped("no sandbox here");
        return;
    }
    let dir = refused_calls_project("");
    let (_, output) = judge(dir.path());
    let cases = verdicts_and_output(&output);
    assert_eq!(cases.len(), REFUSED_CALLS.len(), "{output:?}");
    // AC: the call failed with EPERM (ENOSYS for clone3), which only the filter answers
    // with the arguments given, and the program went on to print the sum.
    for (name, verdict, case) in &cases {
        assert_eq!(verdict, "AC", "{name} was not refused: {case}");
    }
}

#[test]
fn a_language_may_lift_the_syscall_filter() {
    if !sandbox_available() {
        common::skipped("no sandbox here");
        return;
    }
    let dir = refused_calls_project(C_WITHOUT_FILTER);
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .arg("judge")
        .arg("p")
        .arg(common::fixture_source("refused-call"))
        // Every call is a case of its own: all of them, past the first WA.
        .args(["--format", "json", "--all"])
        .output()
        .unwrap();
    let cases = verdicts_and_output(&output);
    assert_eq!(cases.len(), REFUSED_CALLS.len(), "{output:?}");
    // The kernel answers these itself: a new user namespace, a keyring id, a bad address.
    for call in ["unshare", "keyctl", "io_uring_setup", "clone3", "mount"] {
        let (_, verdict, case) = cases.iter().find(|(name, ..)| name == call).unwrap();
        assert_eq!(verdict, "WA", "{call} was refused: {case}");
    }
}

/// A project judging the `fill-tmp` fixture, which writes 512 MiB of files, under 64 MiB.
fn fill_tmp_project() -> tempfile::TempDir {
    let dir = project("fill-tmp", "1 2\n", "");
    let toml = dir.path().join("judge.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("\"256MiB\"", "\"64MiB\"")).unwrap();
    dir
}

/// MLE, for the files: killed as its memory and files together passed the limit, or once
/// they had filled its folder.
fn assert_folder_filled(case: &Value) {
    assert_eq!(verdict(case), "MLE", "{case}");
    let reason = case["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("files it wrote in its folder") || reason.contains("filled its folder"),
        "{case}"
    );
}

#[test]
fn files_written_in_the_folder_are_memory_and_bounded() {
    if !sandbox_available() {
        common::skipped("no sandbox here");
        return;
    }
    let dir = fill_tmp_project();
    let (case, _) = judge(dir.path());
    assert_folder_filled(&case);
}

#[test]
fn files_written_in_the_folder_are_bounded_without_root_too() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fill_tmp_project();
    for folder in [
        dir.path(),
        &dir.path().join("cases"),
        &dir.path().join("cases/p"),
    ] {
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let readable = std::process::Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            "test",
            "-r",
        ])
        .arg(common::fixture("fill-tmp"))
        .status()
        .is_ok_and(|status| status.success());
    let doctor = as_nobody(dir.path(), &["doctor"])
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned());
    if !readable || !doctor.is_some_and(|text| text.contains("namespaces: yes")) {
        common::skipped("no sandbox without root here (or the fixture is not readable)");
        return;
    }
    // Without root there is no cgroup to charge the files to: 512 MiB under a 64 MiB limit
    // was AC, the memory held in /dev/shm while the run went on.
    let output = as_nobody(dir.path(), &["run", "--format", "json"]).unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {output:?}"));
    assert_folder_filled(&report["problems"][0]["cases"][0]);
}

#[test]
fn a_vsock_port_cannot_be_taken() {
    if !sandbox_available() {
        common::skipped("no sandbox here");
        return;
    }
    let dir = project("vsock", "1 2\n", "");
    let (case, _) = judge(dir.path());
    // AC: `socket(AF_VSOCK, …)` failed with EPERM, the filter's answer. Before, it bound a
    // port of the machine's (WA, "bound vsock port …"), past the network namespace.
    assert_eq!(verdict(&case), "AC", "{case}");
}

/// Bytes the `socket-buffers` fixture is held to: the memory limit of its project.
const SOCKET_BUFFERS_LIMIT: u64 = 64 << 20;

/// A project of the `socket-buffers` fixture under a 64 MiB limit, filling socket pairs in
/// `processes` processes at once, that `nobody` may judge; `None` (having said why) where
/// that cannot be done here.
fn socket_buffers_project(processes: u32) -> Option<tempfile::TempDir> {
    let dir = project_for_nobody("socket-buffers")?;
    let toml = dir.path().join("judge.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("\"256MiB\"", "\"64MiB\"")).unwrap();
    let input = format!("1 2 {SOCKET_BUFFERS_LIMIT} {processes}\n");
    std::fs::write(dir.path().join("cases/p/a.in"), input).unwrap();
    Some(dir)
}

/// The case of a `socket-buffers` project judged by `nobody`: MLE, or AC when it could not
/// queue as much as the limit (the fixture prints the sum only then).
fn assert_socket_buffers_bounded(dir: &Path) -> Value {
    let output = as_nobody(dir, &["run", "--format", "json"]).unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {output:?}"));
    let case = report["problems"][0]["cases"][0].clone();
    assert!(
        ["MLE", "AC"].contains(&verdict(&case)),
        "it queued more than the limit in socket buffers, uncounted: {case}"
    );
    case
}

#[test]
fn socket_buffers_are_bounded_without_root() {
    // Without root no cgroup charges socket buffers: 8,000 filled pairs were AC at 1.4 MiB
    // under a 64 MiB limit while the kernel held 1.2-1.8 GB for them (the fixture stops at
    // 1 GiB). Now 64 descriptors a process make 31 pairs at most.
    let Some(dir) = socket_buffers_project(1) else {
        return;
    };
    assert_socket_buffers_bounded(dir.path());
}

#[test]
fn socket_buffers_of_many_processes_are_memory_without_root() {
    // Descriptors are a process's: 64 processes of 31 pairs each would hold 900 MB. Every
    // socket in the sandbox's network namespace counts in the run's memory instead, whoever
    // holds it (a process, a message in flight, none once closed with data still queued).
    let Some(dir) = socket_buffers_project(64) else {
        return;
    };
    let case = assert_socket_buffers_bounded(dir.path());
    assert_eq!(verdict(&case), "MLE", "{case}");
    let reason = case["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("sockets it held"), "{case}");
}

/// One worker (`-j 1`) judges a program whose language lifts the filter, then one under it,
/// then the first again: the init installs the filter once, on the thread that starts the
/// filtered programs, and starts the others from a thread without it. Each must get its own.
#[test]
fn the_filter_holds_on_a_worker_that_also_ran_a_program_without_it() {
    if !sandbox_available() {
        common::skipped("no sandbox here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let lifted = common::fixture_source("refused-call");
    let filtered = common::fixture("refused-call");
    let toml = format!(
        "[defaults]\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\nsandbox = \"required\"\n\
         {C_WITHOUT_FILTER}\n\
         [problems.a-lifted]\nsolution = \"{lifted}\"\ncases = \"cases/p\"\n\
         [problems.b-filtered]\nsolution = \"{filtered}\"\ncases = \"cases/p\"\n\
         [problems.c-lifted-again]\nsolution = \"{lifted}\"\ncases = \"cases/p\"\n",
        lifted = lifted.display(),
        filtered = filtered.display(),
    );
    std::fs::write(dir.path().join("judge.toml"), toml).unwrap();
    let cases = dir.path().join("cases/p");
    std::fs::create_dir_all(&cases).unwrap();
    // Calls the kernel answers itself without the filter, and the filter refuses.
    let calls = ["keyctl", "unshare", "mount", "io_uring_setup"];
    for call in calls {
        std::fs::write(cases.join(format!("{call}.in")), format!("{call} 1 2\n")).unwrap();
        std::fs::write(cases.join(format!("{call}.ans")), "3\n").unwrap();
    }
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args(["run", "--format", "json", "--all", "-j", "1"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {output:?}"));
    let problems = report["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 3, "{report}");
    for problem in problems {
        let name = problem["problem"].as_str().unwrap_or_default();
        // Refused: the program goes on to print the sum (AC); answered: it prints nothing.
        let expected = if name == "b-filtered" { "AC" } else { "WA" };
        let cases = problem["cases"].as_array().unwrap();
        assert_eq!(cases.len(), calls.len(), "{problem}");
        for case in cases {
            assert_eq!(verdict(case), expected, "{name}: {case}");
        }
    }
}

/// One worker (`-j 1`): a program whose language lifts the filter plants a key in each keyring
/// it reaches, its user's among them (kept per user namespace, the worker's); then a program
/// under the filter, which refuses it every key call, looks for it in /proc/keys. The init
/// empties the user's keyrings after a run without the filter and masks /proc/keys (where a
/// dead session keyring's key shows until it is collected), so nothing planted reaches a
/// later run.
#[test]
fn a_key_a_program_without_the_filter_planted_is_gone_for_the_next_run() {
    if !sandbox_available() {
        common::skipped("no sandbox here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let planter = common::fixture_source("keyring");
    let looker = common::fixture("proc-keys");
    let toml = format!(
        "[defaults]\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\nsandbox = \"required\"\n\
         {C_WITHOUT_FILTER}\n\
         [problems.a-plants]\nsolution = \"{planter}\"\ncases = \"cases/p\"\n\
         [problems.b-looks]\nsolution = \"{looker}\"\ncases = \"cases/p\"\n",
        planter = planter.display(),
        looker = looker.display(),
    );
    std::fs::write(dir.path().join("judge.toml"), toml).unwrap();
    let cases = dir.path().join("cases/p");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(cases.join("1.in"), "1 2\n").unwrap();
    std::fs::write(cases.join("1.ans"), "3\n").unwrap();
    let output = Command::cargo_bin("harness")
        .unwrap()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args(["run", "--format", "json", "--all", "-j", "1"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {output:?}"));
    let problems = report["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{report}");
    for problem in problems {
        for case in problem["cases"].as_array().unwrap() {
            assert_eq!(verdict(case), "AC", "{}: {case}", problem["problem"]);
        }
    }
}
