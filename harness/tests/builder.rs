//! The shared test builder's expectations themselves: a command that does what the test says
//! passes, one that does not fails with every broken expectation and both streams shown.
#![cfg(unix)]

mod common;

use std::panic;

use common::project::Project;

const MISSING: &str = "submission `missing.c` does not exist";

/// The panic message of `f`, which must panic.
fn failure_of(f: impl FnOnce() + panic::UnwindSafe) -> String {
    let payload = panic::catch_unwind(f).expect_err("the expectation must fail");
    payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_else(|| payload.downcast_ref::<&str>().unwrap().to_string())
}

#[test]
fn met_expectations_pass_and_return_what_the_command_did() {
    let project = Project::new();
    let ran = project
        .args(["judge", "missing.c"])
        .status(2)
        .stderr_contains(MISSING)
        .stderr_lacks("panicked")
        .stdout("")
        .run();
    assert_eq!(ran.status, Some(2));
    assert!(ran.stderr.starts_with("error: "), "{}", ran.stderr);
    project.args(["--version"]).stdout("harness 0.1.0\n").run();
}

#[test]
fn every_broken_expectation_is_named_with_both_streams() {
    let message = failure_of(|| {
        let project = Project::new();
        let _ = project
            .args(["judge", "missing.c"])
            .stdout_contains("verdict: AC")
            .stderr_lacks("does not exist")
            .run();
    });
    assert!(message.contains("`harness judge missing.c`"), "{message}");
    assert!(message.contains("- exit code 0 expected"), "{message}");
    assert!(
        message.contains("Stdout expected to contain \"verdict: AC\""),
        "{message}"
    );
    assert!(
        message.contains("Stderr expected not to contain"),
        "{message}"
    );
    assert!(message.contains("--- status: 2"), "{message}");
    assert!(message.contains(MISSING), "{message}");
}

#[test]
fn the_user_config_is_the_projects_own() {
    // A config the harness cannot read names its own path: the project's config home.
    let project = Project::new()
        .file("a.py", "")
        .file("test/1.in", "")
        .file("test/1.out", "")
        .user_config("[languages.python]\nextension = 1\n");
    let config = project.config_home().join("harness/config.toml");
    project
        .args(["judge", "a.py"])
        .status(2)
        .stderr_contains(&format!("{}:2:1", config.display()))
        .run();
    project.write_user_config("");
    project
        .args(["judge", "a.py"])
        .stderr_lacks("config.toml")
        .stdout_contains("verdict: AC")
        .run();
}
