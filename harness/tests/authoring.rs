//! Authoring cases on a temporary project whose tools are tiny shell scripts: `validate`
//! and `run` refusing invalid inputs.
//!
//! The problem is "sum": the input is `a b` with 0 ≤ a, b ≤ 100, the answer a + b.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

const FAILED: i32 = 1;

const JUDGE_TOML: &str = r#"
[problems.sum]
solution = "sum.sh"
reference = "sum.sh"
validator = ["sh", "validate.sh"]
"#;

const VALIDATE: &str = r#"read a b
for v in "$a" "$b"; do
  if [ "$v" -gt 100 ]; then echo "line 1: $v is out of [0, 100]" >&2; exit 1; fi
done
"#;

const SUM: &str = "#!/bin/sh\nread a b\necho $((a + b))\n";

struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let project = Project { dir };
        project.write("judge.toml", JUDGE_TOML);
        project.write("validate.sh", VALIDATE);
        project.write("sum.sh", SUM);
        fs::set_permissions(project.path("sum.sh"), fs::Permissions::from_mode(0o755)).unwrap();
        project.write("cases/sum/sample-1.in", "1 2\n");
        project.write("cases/sum/sample-1.ans", "3\n");
        project
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.path(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn harness(&self) -> Command {
        let mut command = Command::cargo_bin("harness").unwrap();
        command.current_dir(self.dir.path()).env("NO_COLOR", "1");
        command
    }
}

fn no_panic() -> impl Predicate<str> {
    predicate::str::contains("panicked").not()
}

// ---- validate, and run refusing invalid inputs ----------------------------------------------

#[test]
fn validate_lists_each_invalid_case_with_its_reason() {
    let project = Project::new();
    project
        .harness()
        .arg("validate")
        .assert()
        .success()
        .stdout(predicate::str::contains("sum: 1 inputs valid"));

    project.write("cases/sum/big.in", "500 1\n");
    project.write("cases/sum/big.ans", "501\n");
    project
        .harness()
        .arg("validate")
        .assert()
        .code(FAILED)
        .stdout(predicate::str::contains(
            "INVALID  cases/sum/big.in: line 1: 500 is out of [0, 100]",
        ))
        .stdout(predicate::str::contains("sum: 1 of 2 inputs invalid"))
        .stderr(no_panic());
}

#[test]
fn run_refuses_invalid_inputs_unless_told_not_to() {
    let project = Project::new();
    project.write("cases/sum/big.in", "500 1\n");
    project.write("cases/sum/big.ans", "501\n");
    project
        .harness()
        .arg("run")
        .assert()
        .code(FAILED)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "cases/sum/big.in: line 1: 500 is out of [0, 100]",
        ))
        .stderr(predicate::str::contains("nothing was judged"))
        .stderr(predicate::str::contains("--no-validate"));

    project
        .harness()
        .args(["run", "--no-validate"])
        .assert()
        .success()
        .stdout(predicate::str::contains("all 2 cases AC"));
}
