//! The build cache kept across runs: a second run compiles nothing, and a changed source,
//! compiler, flag or header never reuses a stale binary. The compiler is gcc behind a script
//! that logs every compile, so each test counts them; every project has its own cache.
#![cfg(unix)]

mod common;

use std::path::Path;

use common::project::Project;

const OK: i32 = 0;
const FAILED: i32 = 1;

/// Prints ANSWER, which the flags or a header define.
const ANSWER_C: &str =
    "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", ANSWER); return 0; }\n";

/// judge.toml with problem `answer` (one case, whose answer is 1) and language `c` compiled
/// by the logging compiler `cc` of the project with `flags`.
fn toml(root: &Path, flags: &str) -> String {
    format!(
        r#"
[defaults]
time-limit = "5s"
memory-limit = "256MiB"

[problems.answer]
solution = "sol.c"

[languages.c]
name = "C"
extensions = ["c"]
compile = ["{cc}", {flags}, "-o", "{{exe}}", "{{source}}"]
run = ["{{exe}}"]
"#,
        cc = root.join("cc").display()
    )
}

/// The logging compiler, as a script that `size` pads (another size: another compiler).
fn compiler(root: &Path, padding: &str) -> String {
    format!(
        "#!/bin/sh\necho \"$*\" >> '{}'\n# {padding}\nexec gcc \"$@\"\n",
        root.join("compiles.log").display()
    )
}

fn project(flags: &str) -> Project {
    let project = Project::new().case("answer", "01", "x\n", "1\n");
    project.write("judge.toml", &toml(project.path(), flags));
    let script = compiler(project.path(), "");
    project
        .executable("cc", &script)
        .file("a.c", ANSWER_C)
        .file("sol.c", "#include \"testlib.h\"\n#include <stdio.h>\nint main(void) { printf(\"%d\\n\", ANSWER); return 0; }\n")
        .file("testlib.h", "#define ANSWER 1\n")
}

/// The compiles logged: every call but the sanitized builds' questions of where a runtime is
/// (`-print-file-name=libasan.so`).
fn compiles(project: &Project) -> usize {
    std::fs::read_to_string(project.join("compiles.log")).map_or(0, |log| {
        log.lines()
            .filter(|line| !line.starts_with("-print-file-name="))
            .count()
    })
}

fn judge(project: &Project, expected: i32) {
    project
        .args(["judge", "answer", "a.c"])
        .status(expected)
        .run();
}

#[test]
fn a_second_run_compiles_nothing() {
    let project = project(r#""-DANSWER=1""#);
    judge(&project, OK);
    judge(&project, OK);
    assert_eq!(
        compiles(&project),
        1,
        "the second judge took the build kept"
    );
}

#[test]
fn a_changed_source_is_compiled_again() {
    let project = project(r#""-DANSWER=1""#);
    judge(&project, OK);
    project.write(
        "a.c",
        "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", ANSWER + 1); return 0; }\n",
    );
    judge(&project, FAILED);
    assert_eq!(compiles(&project), 2);
}

#[test]
fn a_changed_flag_is_compiled_again() {
    let project = project(r#""-DANSWER=1""#);
    judge(&project, OK);
    project.write("judge.toml", &toml(project.path(), r#""-DANSWER=2""#));
    judge(&project, FAILED);
    assert_eq!(compiles(&project), 2);
}

#[test]
fn a_changed_compiler_is_compiled_again() {
    let project = project(r#""-DANSWER=1""#);
    judge(&project, OK);
    // An upgrade: the same path, another binary.
    project.write("cc", &compiler(project.path(), "version 2"));
    judge(&project, OK);
    assert_eq!(compiles(&project), 2);
}

#[test]
fn a_changed_header_is_compiled_again() {
    // The solution includes the testlib.h beside it, as a Polygon checker does.
    let project = project(r#""-O0""#);
    project.args(["run"]).status(OK).run();
    project.args(["run"]).status(OK).run();
    assert_eq!(compiles(&project), 1);
    project.write("testlib.h", "#define ANSWER 2\n");
    project.args(["run"]).status(FAILED).run();
    assert_eq!(compiles(&project), 2);
}

#[test]
fn the_cache_is_shown_and_cleared() {
    let project = project(r#""-DANSWER=1""#);
    judge(&project, OK);
    let shown = project.harness().arg("cache").assert().success();
    let text = String::from_utf8_lossy(&shown.get_output().stdout).into_owned();
    let folder = project.cache_home().join("harness/build");
    assert!(
        text.contains(&format!("build cache: {}", folder.display())),
        "{text}"
    );
    assert!(text.contains("holds: 1 builds"), "{text}");
    let cleared = project
        .harness()
        .args(["cache", "--clear"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&cleared.get_output().stdout).into_owned();
    assert!(text.contains("removed: 1 builds"), "{text}");
    judge(&project, OK);
    assert_eq!(compiles(&project), 2, "a cleared cache builds again");
}

#[test]
fn two_judges_at_once_share_one_build() {
    let project = project(r#""-DANSWER=1""#);
    let start = || {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("harness"));
        command
            .current_dir(project.path())
            .env("XDG_CACHE_HOME", project.cache_home())
            .env_remove("HARNESS_CACHE_DIR")
            .args(["judge", "answer", "a.c"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        command.spawn().expect("the harness starts")
    };
    let (mut first, mut second) = (start(), start());
    assert_eq!(first.wait().unwrap().code(), Some(OK));
    assert_eq!(second.wait().unwrap().code(), Some(OK));
    let builds: Vec<String> = std::fs::read_dir(project.cache_home().join("harness/build"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(builds.len(), 1, "one build, nothing half made: {builds:?}");
    assert!(builds[0].starts_with("a-c-"), "{builds:?}");
}

/// Writes one int past the end of a heap block: inside malloc's padding, so a plain build
/// prints 1 and passes, while AddressSanitizer stops it at line 5.
const OVERFLOW_C: &str = "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n    int *p = malloc(4 * sizeof *p);\n    p[4] = 1;\n    printf(\"%d\\n\", p[4]);\n    return 0;\n}\n";

#[test]
fn a_sanitized_build_and_a_plain_one_share_no_binary() {
    let project = project(r#""-O0""#).file("a.c", OVERFLOW_C);
    let sanitized = || {
        project
            .harness()
            .args(["judge", "answer", "a.c", "--sanitize"])
            .assert()
    };
    judge(&project, OK);
    assert_eq!(compiles(&project), 1);
    let first = sanitized();
    let said = String::from_utf8_lossy(&first.get_output().stderr).into_owned();
    if said.contains("cannot build with") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI has gcc with its sanitizers: {said}"
        );
        common::skipped(&format!(
            "a_sanitized_build_and_a_plain_one_share_no_binary: {}",
            said.trim()
        ));
        return;
    }
    // The plain build, taken from the cache, would pass: this one is the sanitized build.
    let text = String::from_utf8_lossy(&first.get_output().stdout).into_owned();
    first.code(FAILED);
    assert!(text.contains("heap-buffer-overflow at a.c:5"), "{text}");
    let log = std::fs::read_to_string(project.join("compiles.log")).unwrap();
    let sanitizing: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("-fsanitize=address"))
        .collect();
    // The empty program that checks the sanitizers link, and the submission.
    assert_eq!(sanitizing.len(), 2, "{log}");
    assert_eq!(compiles(&project), 3, "{log}");
    // Each is kept under its own key: neither run builds again, nor takes the other's binary.
    judge(&project, OK);
    let again = sanitized();
    let text = String::from_utf8_lossy(&again.get_output().stdout).into_owned();
    again.code(FAILED);
    // A build from the cache still maps the sanitizer's frames back to the source, though it
    // was compiled in a scratch folder since renamed.
    assert!(text.contains("heap-buffer-overflow at a.c:5"), "{text}");
    assert_eq!(compiles(&project), 3, "{log}");
}

/// A gcc whose AddressSanitizer runtime is the file `rt/libasan.so` of the project, so a test
/// can remove it: it resolves `-print-file-name=libasan.so` to that file while it is there
/// (the bare name when not, as gcc does), refuses to link a sanitized build without it, and
/// otherwise builds with the real gcc, the sanitizer flags left out (so that this test needs
/// no sanitizers on the machine).
fn gcc_with_a_runtime(root: &Path) -> String {
    format!(
        r#"#!/bin/sh
rt='{rt}'
for arg; do
  case "$arg" in
    -print-file-name=*) lib="${{arg#-print-file-name=}}"
      if [ -e "$rt/$lib" ]; then echo "$rt/$lib"; else echo "$lib"; fi
      exit 0;;
  esac
done
echo "$*" >> '{log}'
first=1
for arg; do
  if [ $first = 1 ]; then set --; first=0; fi
  case "$arg" in
    -fsanitize=*|-fno-sanitize*)
      if [ ! -e "$rt/libasan.so" ]; then echo "/usr/bin/ld: cannot find -lasan" >&2; exit 1; fi;;
    *) set -- "$@" "$arg";;
  esac
done
exec gcc "$@"
"#,
        rt = root.join("rt").display(),
        log = root.join("compiles.log").display()
    )
}

#[test]
fn a_sanitizer_runtime_removed_after_a_build_is_named_not_judged_from_the_cache() {
    let project = Project::new().case("answer", "01", "x\n", "1\n");
    project.write(
        "judge.toml",
        &toml(project.path(), r#""-O2", "-DANSWER=1""#),
    );
    let script = gcc_with_a_runtime(project.path());
    let project = project
        .executable("cc", &script)
        .file("rt/libasan.so", "the runtime, version 1")
        .file("a.c", ANSWER_C);
    let sanitized = || {
        project
            .harness()
            .args(["judge", "answer", "a.c", "--sanitize"])
            .assert()
    };
    let first = sanitized();
    let said = String::from_utf8_lossy(&first.get_output().stdout).into_owned();
    first.code(OK);
    assert!(said.contains("sanitized"), "{said}");
    // The probe and the submission.
    assert_eq!(compiles(&project), 2);
    sanitized().code(OK);
    assert_eq!(compiles(&project), 2, "both from the cache");
    // An upgraded runtime: built again.
    project.write("rt/libasan.so", "the runtime, version 2, longer");
    sanitized().code(OK);
    assert_eq!(compiles(&project), 4, "built against the new runtime");
    // Removed: the probe is built again and refused, naming the sanitizers, before anything
    // is judged (from the cache, the program would no longer start: an RE).
    std::fs::remove_file(project.join("rt/libasan.so")).unwrap();
    let gone = sanitized();
    let said = String::from_utf8_lossy(&gone.get_output().stderr).into_owned();
    gone.code(2);
    assert!(
        said.contains("cannot build with AddressSanitizer") && said.contains("cannot find -lasan"),
        "{said}"
    );
}
