//! `--html FILE` on a temporary project: the real binary writes one page, escapes what the
//! run gives it, rewrites its own earlier report, and never writes over a file of the user's
//! without `--force`; neither it nor `--junit FILE` ever writes over or through a link, a FIFO
//! or a device, `--force` or not.
#![cfg(unix)]

mod common;

use common::project::Project;
use common::{fixture, fixture_source};

const FAILED: i32 = 1;
const ERROR: i32 = 2;
/// What every report begins with (harness/src/report/html/file.rs).
const MARKER: &str = "<!DOCTYPE html><!-- a report written by harness";

/// `sum`: right on two cases, wrong on one, and a case whose name is markup.
fn project() -> Project {
    let toml = format!(
        "[problems.sum]\nsolution = \"{}\"\ntime-limit = \"2s\"\n",
        fixture("echo-sum").display()
    );
    Project::new()
        .file("judge.toml", &toml)
        .case("sum", "01", "1 2\n", "3\n")
        .case("sum", "02", "2 2\n", "4\n")
        .case("sum", "<img src=x onerror=alert(1)>", "0 0\n", "0\n")
        .case("sum", "wrong", "2 2\n", "5\n")
}

#[test]
fn run_writes_one_page_with_every_case_escaped() {
    let project = project();
    project
        .args(["run", "-p", "sum", "--html", "out/report.html"])
        .status(FAILED)
        .run();
    let html = project.read("out/report.html");
    assert!(html.starts_with(MARKER), "{html}");
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{html}"
    );
    assert!(!html.contains("<img"), "{html}");
    assert_eq!(html.matches("class=\"c v-").count(), 4, "a cell per case");
    assert!(
        html.contains("data-case=\"wrong\" data-verdict=\"WA\""),
        "{html}"
    );
    let left: Vec<_> = std::fs::read_dir(project.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["report.html"], "no temporary file is left");
}

#[test]
fn a_file_the_user_wrote_is_kept_unless_forced_and_an_earlier_report_replaced() {
    let project = project().file("notes.html", "<p>my notes</p>\n");
    let assert = project
        .harness()
        .args(["run", "-p", "sum", "--html", "notes.html"])
        .assert()
        .code(ERROR);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains("`notes.html` exists and is not a report harness wrote"),
        "{stderr}"
    );
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(
        assert.get_output().stdout.is_empty(),
        "nothing ran before the check"
    );
    assert_eq!(project.read("notes.html"), "<p>my notes</p>\n");

    project
        .args(["run", "-p", "sum", "--html", "notes.html", "--force"])
        .status(FAILED)
        .run();
    assert!(project.read("notes.html").starts_with(MARKER));
    // Now it is ours: the next run replaces it without being told.
    project.write("cases/sum/wrong.ans", "4\n");
    project
        .args(["run", "-p", "sum", "--html", "notes.html"])
        .status(0)
        .run();
    let html = project.read("notes.html");
    assert!(
        html.contains("data-case=\"wrong\" data-verdict=\"AC\""),
        "{html}"
    );
}

#[test]
fn judge_writes_it_too() {
    let project = project();
    project
        .args(["judge", "sum"])
        .arg(fixture_source("wrong-sum"))
        .args(["--html", "judge.html"])
        .status(FAILED)
        .run();
    let judged = project.read("judge.html");
    assert!(judged.starts_with(MARKER));
    assert!(judged.contains("<h1>harness judge</h1>"), "{judged}");
    assert!(judged.contains("<details class=\"failure\""), "{judged}");
}

/// Reads `child`'s stderr until the watch has said it is watching `times` more times.
fn wait_for_watching(child: &mut std::process::Child, times: usize) {
    use std::io::Read;
    // Generous: the machine may be busy; the watch says so on stderr after each run.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let stderr = child.stderr.as_mut().unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 256];
    while seen.matches("watching `a.py`").count() < times {
        assert!(std::time::Instant::now() < deadline, "no rerun: {seen}");
        let read = stderr.read(&mut buffer).unwrap();
        assert!(read > 0, "the watch ended: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
    }
}

#[test]
fn judge_watch_rewrites_the_page_on_every_rejudge() {
    use std::process::Stdio;

    let project = Project::new()
        .file("a.py", "print(int(input()) + 1)\n")
        .file("test/01.in", "1\n")
        .file("test/01.out", "1\n");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"))
        .current_dir(project.path())
        .env("XDG_CONFIG_HOME", project.join("config"))
        .env("XDG_CACHE_HOME", project.join("cache"))
        .env("NO_COLOR", "1")
        .args(["judge", "a.py", "--watch", "--html", "live.html"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_watching(&mut child, 1);
    let first = project.read("live.html");
    assert!(first.starts_with(MARKER));
    assert!(
        first.contains("data-case=\"01\" data-verdict=\"WA\""),
        "{first}"
    );
    project.write("a.py", "print(int(input()))\n");
    wait_for_watching(&mut child, 1);
    let second = project.read("live.html");
    assert!(
        second.contains("data-case=\"01\" data-verdict=\"AC\""),
        "{second}"
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    child.wait().unwrap();
}

#[test]
fn judge_watch_refuses_a_file_of_the_user_before_it_watches() {
    let project = Project::new()
        .file("a.py", "print(int(input()))\n")
        .file("test/01.in", "1\n")
        .file("test/01.out", "1\n")
        .file("live.html", "mine\n");
    project
        .harness()
        .env("XDG_CONFIG_HOME", project.join("config"))
        .env("XDG_CACHE_HOME", project.join("cache"))
        .args(["judge", "a.py", "--watch", "--html", "live.html"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(ERROR)
        .stderr(predicates::str::contains("--force"));
    assert_eq!(project.read("live.html"), "mine\n");
}

#[test]
fn calibrate_draws_the_case_times_and_the_suggested_limit() {
    let project = project();
    project.write("cases/sum/wrong.ans", "4\n");
    project
        .args([
            "calibrate",
            "sum",
            "--repeat",
            "2",
            "--html",
            "calibrate.html",
        ])
        .status(0)
        .run();
    let html = project.read("calibrate.html");
    assert!(html.starts_with(MARKER));
    assert!(html.contains("<h1>harness calibrate</h1>"), "{html}");
    assert_eq!(
        html.matches("<line class=\"tick v-AC\"").count(),
        4,
        "a tick per case of the solution: {html}"
    );
    assert!(html.contains("class=\"suggested\""), "{html}");
    assert!(html.contains("suggested limit 100 ms (now 2 s)"), "{html}");
}

/// Whether `path` is (still) a FIFO, not followed if it is a link.
fn is_fifo(path: &std::path::Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

fn is_link(path: &std::path::Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// `harness run -p sum` with `args`, refused before anything runs: its stderr.
fn refused(project: &Project, args: &[&str]) -> String {
    let assert = project
        .harness()
        .args(["run", "-p", "sum"])
        .args(args)
        // An old harness opened a FIFO to write the JUnit file, which blocks without a reader.
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(ERROR);
    assert!(
        assert.get_output().stdout.is_empty(),
        "nothing ran before the check"
    );
    String::from_utf8_lossy(&assert.get_output().stderr).to_string()
}

#[test]
fn html_naming_a_fifo_or_a_link_to_one_is_refused_and_the_fifo_stays() {
    let project = project();
    let fifo = project.join("live.html");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    std::os::unix::fs::symlink(&fifo, project.join("link.html")).unwrap();

    let stderr = refused(&project, &["--html", "live.html", "--force"]);
    assert!(
        stderr.contains("`live.html` is a FIFO (named pipe), not a file: not writing the HTML report there (hint: leave out --html"),
        "{stderr}"
    );
    let stderr = refused(&project, &["--html", "link.html"]);
    assert!(
        stderr.contains("`link.html` is a symbolic link to a FIFO (named pipe), not a file: not writing the HTML report there (hint: leave out --html"),
        "{stderr}"
    );
    assert!(is_fifo(&fifo), "the FIFO is still a FIFO");
    assert!(
        is_link(&project.join("link.html")),
        "the link is still a link"
    );
}

#[test]
fn html_naming_a_link_to_a_file_outside_never_replaces_the_link_nor_writes_through_it() {
    let project = project();
    let outside = tempfile::tempdir().unwrap();
    for (name, text) in [("notes.html", "<p>mine</p>\n"), ("empty.html", "")] {
        let victim = outside.path().join(name);
        std::fs::write(&victim, text).unwrap();
        let link = project.join(name);
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let stderr = refused(&project, &["--html", name, "--force"]);
        assert!(
            stderr.contains(&format!("`{name}` is a symbolic link: not writing the HTML report through it or over it (hint: name the file it leads to")),
            "{stderr}"
        );
        assert!(is_link(&link), "the link is still a link");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), text);
    }
}

#[test]
fn html_naming_a_character_device_is_refused_with_force_too_and_the_device_stays() {
    use std::os::unix::fs::FileTypeExt;
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        common::skipped("html_naming_a_character_device: mknod needs root (CI runs as root)");
        return;
    }
    let project = project();
    // The null device's numbers, made in the project's own folder: the real /dev/null is
    // never named.
    let device = project.join("null");
    let made = nix::sys::stat::mknod(
        &device,
        nix::sys::stat::SFlag::S_IFCHR,
        nix::sys::stat::Mode::from_bits_truncate(0o666),
        nix::sys::stat::makedev(1, 3),
    );
    if let Err(error) = made {
        assert!(
            std::env::var_os("CI").is_none(),
            "mknod as root failed under CI: {error}"
        );
        common::skipped(&format!(
            "html_naming_a_character_device: mknod failed: {error}"
        ));
        return;
    }
    for args in [&["--html", "null"][..], &["--html", "null", "--force"][..]] {
        let stderr = refused(&project, args);
        assert!(
            stderr.contains("`null` is a character device, not a file: not writing the HTML report there (hint: leave out --html"),
            "{stderr}"
        );
        let kind = std::fs::symlink_metadata(&device).unwrap().file_type();
        assert!(kind.is_char_device(), "the device is still a device");
    }
}

#[test]
fn junit_never_truncates_a_file_of_the_user_nor_opens_a_fifo_and_replaces_an_earlier_report() {
    let project = project().file("notes.txt", "my notes\n");
    let fifo = project.join("junit.xml");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();

    let stderr = refused(&project, &["--junit", "notes.txt"]);
    assert!(
        stderr.contains("`notes.txt` exists and is not a report harness wrote: not overwriting it (hint: pass --force"),
        "{stderr}"
    );
    assert_eq!(project.read("notes.txt"), "my notes\n");
    let stderr = refused(&project, &["--junit", "junit.xml", "--force"]);
    assert!(
        stderr.contains("`junit.xml` is a FIFO (named pipe), not a file: not writing the JUnit report there (hint: leave out --junit"),
        "{stderr}"
    );
    assert!(is_fifo(&fifo), "the FIFO is still a FIFO");

    // A report of ours is replaced by the next run, as before.
    for _ in 0..2 {
        project
            .args(["run", "-p", "sum", "--junit", "reports/run.xml"])
            .status(FAILED)
            .run();
    }
    assert!(project.read("reports/run.xml").starts_with(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"harness run\""
    ));
}
