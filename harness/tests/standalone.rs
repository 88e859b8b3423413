//! `harness judge SOURCE --cases DIR` in a folder with no judge.toml, as a contestant uses it
//! on a problem the project does not ship: built-in languages, oj's `test/` layout with `.out`
//! answers, the user's config, and failing cases shown with their input.
#![cfg(unix)]

mod common;

use std::path::Path;

use common::project::Project;

const OK: i32 = 0;
const FAILED: i32 = 1;
const ERROR: i32 = 2;

/// "Print YES if w splits into two even parts": samples as online-judge-tools downloads them.
const SAMPLES: [(&str, &str, &str); 2] =
    [("sample-1", "8\n", "YES\n"), ("sample-2", "3\n", "NO\n")];

const WATERMELON_CPP: &str = r#"#include <iostream>
int main() { int w; std::cin >> w; std::cout << (w % 2 == 0 && w > 2 ? "YES" : "NO") << "\n"; }
"#;

/// A folder with no judge.toml above it (the temp dir) and the samples in `test/`; the
/// builder gives it a user config home and a build cache of its own outside it (the judge must
/// leave nothing in it).
fn folder() -> Project {
    let mut project = Project::new();
    for (name, input, answer) in SAMPLES {
        project = project
            .file(&format!("test/{name}.in"), input)
            .file(&format!("test/{name}.out"), answer);
    }
    project
}

#[test]
fn a_source_and_oj_samples_are_all_it_takes() {
    let folder = folder();
    folder.write("a.cpp", WATERMELON_CPP);
    assert!(std::fs::read_dir(folder.path()).unwrap().count() == 2);
    let text = folder
        .args(["judge", "a.cpp", "--cases", "test"])
        .status(OK)
        .run()
        .stdout;
    assert!(text.contains("a.cpp (C++17), 2 cases"), "{text}");
    assert!(text.contains("verdict: AC"), "{text}");
    // The judge left nothing behind in the user's folder.
    let mut names: Vec<String> = std::fs::read_dir(folder.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.cpp", "test"]);
}

#[test]
fn test_is_the_default_folder_and_upper_case_c_is_cpp() {
    let folder = folder();
    folder.write("b.C", WATERMELON_CPP);
    folder
        .args(["judge", "b.C"])
        .status(OK)
        .stdout_contains("b.C (C++17)")
        .run();
}

#[test]
fn limits_and_checker_come_from_the_command_line() {
    let folder = folder();
    // Right, but in lower case: WA for tokens, AC for tokens-ignore-case.
    folder.write(
        "lower.py",
        "w = int(input())\nprint('yes' if w % 2 == 0 and w > 2 else 'no')\n",
    );
    folder
        .args([
            "judge",
            "lower.py",
            "--time-limit",
            "3s",
            "--memory-limit",
            "128MiB",
        ])
        .status(FAILED)
        .stdout_contains("limits 6000 ms CPU (3000 ms × 2 for Python 3), 128.0 MiB")
        .stdout_contains("expected YES, found yes")
        .run();
    folder
        .args(["judge", "lower.py", "--checker", "tokens-ignore-case"])
        .status(OK)
        .run();
    folder
        .args(["judge", "lower.py", "--checker", "tokenz"])
        .status(ERROR)
        .stderr_contains("unknown checker `tokenz`")
        .run();
}

#[test]
fn the_user_config_changes_compile_flags() {
    let folder = folder();
    // Prints the answer only when compiled with -DLOCAL_FLAG: the user's table is the one used.
    folder.write(
        "flag.cpp",
        "#include <cstdio>\nint main(){int w;scanf(\"%d\",&w);\n#ifdef LOCAL_FLAG\nputs(w%2==0&&w>2?\"YES\":\"NO\");\n#endif\n}\n",
    );
    folder
        .args(["judge", "flag.cpp"])
        .status(FAILED)
        .stdout_contains("output is empty")
        .run();
    folder.write_user_config(
        "[languages.cpp]\nname = \"My C++\"\nextensions = [\"cpp\"]\ncompile = [\"g++\", \"-DLOCAL_FLAG\", \"-o\", \"{exe}\", \"{source}\"]\nrun = [\"{exe}\"]\n",
    );
    folder
        .args(["judge", "flag.cpp"])
        .status(OK)
        .stdout_contains("(My C++)")
        .run();
    folder.write_user_config("[languages.cpp]\nextension = 1\n");
    let config = folder.config_home().join("harness/config.toml");
    folder
        .args(["judge", "flag.cpp"])
        .status(ERROR)
        .stderr_contains(&format!("{}:2:1", config.display()))
        .run();
}

#[test]
fn missing_cases_and_sources_are_clear_errors() {
    let folder = folder();
    folder
        .args(["judge", "nothing.cpp"])
        .status(ERROR)
        .stderr_contains("submission `nothing.cpp` does not exist")
        .run();
    folder.write("a.cpp", WATERMELON_CPP);
    folder
        .args(["judge", "a.cpp", "--cases", "tests"])
        .status(ERROR)
        .stderr_contains("case folder")
        .stderr_contains("does not exist")
        .run();
}

#[test]
fn a_wrong_answer_shows_the_cases_path_and_input() {
    let folder = folder();
    // A generated case after the samples: the samples pass, this one fails.
    let many: String = (1..=10).map(|i| format!("{}\n", i * 100)).collect();
    folder.write("test/random-07.in", &format!("10\n{many}"));
    folder.write(
        "first.py",
        "w = int(input())\nprint('YES' if w % 2 == 0 and w > 2 else 'NO')\n",
    );
    folder.write("test/random-07.out", "NO\n");
    let text = folder
        .args(["judge", "first.py"])
        .status(FAILED)
        .run()
        .stdout;
    insta::with_settings!({filters => vec![
        (r"\d+(\.\d+)? (ms|s)\b", "[time]"),
        // With its padding: how wide the number is depends on how memory is measured here.
        (r" +\d+(\.\d+)? (B|KiB|MiB|GiB)\b", " [memory]"),
        (r"^\S+: first.py", "[folder]: first.py"),
    ]}, {
        insta::assert_snapshot!(text, @r"
        [folder]: first.py (Python 3), 3 cases, limits [time] CPU ([time] × 2 for Python 3), [memory]
          WA   random-07    [time] [memory]  line 1, token 1: expected NO, found YES
                input test/random-07.in
                │ 10
                │ 100
                │ 200
                │ 300
                │ 400
                │ 500
                │ …
                --- expected (answer)
                +++ received (output)
                - 1   │ NO
                +   1 │ YES
        verdict: WA (first failing case: random-07) — 2 AC, 1 WA; max [time], [memory]
        ");
    });
    let ran = folder
        .args(["judge", "first.py", "--format", "json"])
        .status(FAILED)
        .run();
    let json: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    let case = &json["cases"][2];
    assert_eq!(case["name"], "random-07");
    // Absolute, for editors that open it whatever their own folder.
    let path = Path::new(case["input_path"].as_str().unwrap());
    assert_eq!(path, folder.path().join("test/random-07.in"));
    assert_eq!(case["input"], "10\n100\n200\n300\n400\n500");
    assert_eq!(case["input_truncated"], true);
    assert!(json["cases"][0].get("input").is_none());
}

/// One hello-world per built-in language: each must compile and run under the judge's
/// limits (a JVM under an address-space limit dies before `main` unless given heap flags).
/// C, C++, Rust and Python are what CI installs (`.ci/install-tools`), and Go where apt can;
/// the others are judged where their toolchain is on PATH and skipped, saying so, where it
/// is not (Kotlin has no Debian package: it is never downloaded).
#[test]
fn hello_world_in_every_language_found() {
    let hello: [(&str, &str, &str, &[&str], bool); 9] = [
        ("c", "hello.c", "#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}\n", &["gcc"], true),
        ("cpp", "hello.cpp", "#include <iostream>\nint main(){std::cout<<\"hello\\n\";}\n", &["g++"], true),
        ("rust", "hello.rs", "fn main() { println!(\"hello\"); }\n", &["rustc"], true),
        ("python", "hello.py", "print('hello')\n", &["python3"], true),
        ("pypy", "hello_pypy.py", "print('hello')\n", &["pypy3"], false),
        ("java", "hello.java", "public class Hello {\n  public static void main(String[] args) {\n    System.out.println(\"hello\");\n  }\n}\n", &["java", "javac", "jar"], false),
        ("kotlin", "hello.kt", "fun main() { println(\"hello\") }\n", &["kotlinc", "java"], false),
        ("go", "hello.go", "package main\nimport \"fmt\"\nfunc main() { fmt.Println(\"hello\") }\n", &["go"], false),
        ("javascript", "hello.js", "console.log('hello');\n", &["node"], false),
    ];
    let folder = folder();
    folder.write("hello/1.in", "");
    folder.write("hello/1.out", "hello\n");
    let mut judged = Vec::new();
    for (id, file, source, tools, required) in hello {
        if let Some(missing) = tools.iter().find(|tool| !on_path(tool)) {
            assert!(
                !required,
                "`{missing}` is needed for {id} (hint: .ci/install-tools installs it)"
            );
            common::skipped(&format!("{id}: `{missing}` is not on PATH"));
            continue;
        }
        folder.write(file, source);
        let text = folder
            .args([
                "judge",
                file,
                "--cases",
                "hello",
                "--lang",
                id,
                "--memory-limit",
                "256MiB",
            ])
            .status(OK)
            .run()
            .stdout;
        assert!(text.contains("verdict: AC"), "{id}: {text}");
        judged.push(id);
    }
    eprintln!("judged hello-world in: {}", judged.join(", "));
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

#[test]
fn failed_reruns_only_what_failed_last_time() {
    let folder = folder();
    folder.write("test/n-1.in", "2\n");
    folder.write("test/n-1.out", "NO\n");
    // Forgets that 2 cannot be split: only n-1 fails.
    folder.write(
        "a.py",
        "w = int(input())\nprint('YES' if w % 2 == 0 else 'NO')\n",
    );
    folder
        .args(["judge", "a.py"])
        .status(FAILED)
        .stdout_contains("3 cases")
        .run();
    // The list is kept in the cache folder, not in the user's folder.
    assert!(!folder.path().join("target").exists());
    folder
        .args(["judge", "a.py", "--failed"])
        .status(FAILED)
        .stdout_contains("1 case,")
        .stdout_contains("WA   n-1")
        .run();
    folder.write(
        "a.py",
        "w = int(input())\nprint('YES' if w % 2 == 0 and w > 2 else 'NO')\n",
    );
    folder
        .args(["judge", "a.py", "--failed"])
        .status(OK)
        .stdout_contains("verdict: AC — 1 AC")
        .run();
    folder
        .args(["judge", "a.py", "--failed"])
        .status(OK)
        .stdout_contains("nothing failed last time")
        .run();
}

#[test]
fn input_runs_the_submission_on_a_typed_input() {
    let folder = folder();
    folder.write("a.cpp", WATERMELON_CPP);
    folder
        .args(["judge", "a.cpp", "--input", "-"])
        .stdin("10\n")
        .stdout_contains("output:\n  YES\n")
        .stdout_contains("not checked: no reference to compare with")
        .run();
    folder.write("mine.in", "7\n");
    folder
        .args(["judge", "a.cpp", "--input", "mine.in"])
        .status(OK)
        .stdout_contains("output:\n  NO\n")
        .run();
    folder
        .args(["judge", "a.cpp", "--input", "gone.in"])
        .status(ERROR)
        .stderr_contains("input `gone.in` does not exist")
        .run();
}

#[test]
fn input_with_a_reference_shows_its_answer_and_the_verdict() {
    let folder = folder();
    folder.write(
        "judge.toml",
        "[problems.w]\nsolution = \"ref.sh\"\nreference = \"ref.sh\"\ncases = \"test\"\n",
    );
    folder.write("ref.sh", "#!/bin/sh\nread w\nif [ $((w % 2)) -eq 0 ] && [ $w -gt 2 ]; then echo YES; else echo NO; fi\n");
    let reference = folder.path().join("ref.sh");
    std::fs::set_permissions(
        &reference,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    folder.write(
        "a.py",
        "w = int(input())\nprint('YES' if w % 2 == 0 else 'NO')\n",
    );
    folder.write("two.in", "2\n");
    folder
        .args(["judge", "w", "a.py", "--input", "two.in"])
        .status(FAILED)
        .stdout_contains("output:\n  YES\nexpected (reference):\n  NO\n")
        .stdout_contains("WA ")
        .stdout_contains("expected NO, found YES")
        .run();
}

#[test]
fn watch_judges_again_when_the_source_changes() {
    use std::io::Read;
    use std::process::Stdio;

    let folder = folder();
    folder.write("a.py", "print('NO')\n");
    let mut child = folder
        .process()
        .args(["judge", "a.py", "--watch"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let watching = |child: &mut std::process::Child, times: usize| {
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
    };
    watching(&mut child, 1);
    folder.write(
        "a.py",
        "w = int(input())\nprint('YES' if w % 2 == 0 and w > 2 else 'NO')\n",
    );
    watching(&mut child, 1);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("verdict: WA"), "{stdout}");
    assert!(stdout.contains("verdict: AC"), "{stdout}");
    assert!(
        stdout.find("verdict: WA").unwrap() < stdout.find("verdict: AC").unwrap(),
        "{stdout}"
    );
}

/// A `harness judge … --watch` started in `folder`, its stderr read on a thread of its own so
/// that every wait is bounded (a watch that never reruns must fail the test, not hang it).
struct Watch {
    child: std::process::Child,
    stderr: std::sync::mpsc::Receiver<String>,
    seen: String,
}

impl Watch {
    fn start(folder: &Project, args: &[&str]) -> Watch {
        use std::io::Read;
        use std::process::Stdio;

        let mut child = folder
            .process()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 256];
            while let Ok(read @ 1..) = stderr.read(&mut buffer) {
                let _ = sender.send(String::from_utf8_lossy(&buffer[..read]).into_owned());
            }
        });
        Watch {
            child,
            stderr: receiver,
            seen: String::new(),
        }
    }

    /// Waits until the watch has said `times` times in all that it is watching.
    fn watching(&mut self, times: usize) {
        // Generous: the machine may be busy; the watch says so on stderr after each run.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
        while self.seen.matches("(Ctrl-C stops)").count() < times {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(text) => self.seen.push_str(&text),
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no rerun: {}", self.seen);
                }
            }
        }
    }

    /// Ctrl-C, then its stdout (killed if it does not stop in good time).
    fn stop(mut self) -> String {
        use std::io::Read;

        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(self.child.id() as i32),
            nix::sys::signal::Signal::SIGINT,
        )
        .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while self.child.try_wait().unwrap().is_none() {
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the watch did not stop on Ctrl-C: {}", self.seen);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let mut stdout = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut stdout)
            .unwrap();
        stdout
    }
}

#[test]
fn watch_judges_again_when_a_case_is_added() {
    let folder = folder();
    // Right on the samples; wrong on 2 (two odd parts).
    folder.write(
        "a.py",
        "w = int(input())\nprint('YES' if w % 2 == 0 else 'NO')\n",
    );
    let mut watch = Watch::start(&folder, &["judge", "a.py", "--watch"]);
    watch.watching(1);
    assert!(watch.seen.contains("the cases in `test`"), "{}", watch.seen);
    folder.write("test/two.out", "NO\n");
    folder.write("test/two.in", "2\n");
    watch.watching(2);
    let stdout = watch.stop();
    let ac = stdout.find("verdict: AC").expect(&stdout);
    let wa = stdout.find("verdict: WA").expect(&stdout);
    assert!(ac < wa, "{stdout}");
    assert!(stdout[ac..].contains("two"), "{stdout}");
}

#[test]
fn watch_judges_again_when_a_case_changes_but_not_for_its_own_report() {
    let folder = folder();
    folder.write(
        "a.py",
        "w = int(input())\nprint('YES' if w % 2 == 0 and w > 2 else 'NO')\n",
    );
    // The page is rewritten on every run, inside the folder of cases: no rerun for that.
    let mut watch = Watch::start(
        &folder,
        &["judge", "a.py", "--watch", "--html", "test/live.html"],
    );
    watch.watching(1);
    folder.write("test/sample-2.out", "YES\n");
    watch.watching(2);
    // Long enough for a rerun the page's write would cause to have started and said so.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let stdout = watch.stop();
    assert_eq!(stdout.matches("verdict: ").count(), 2, "{stdout}");
    assert!(stdout.contains("verdict: AC"), "{stdout}");
    assert!(stdout.contains("verdict: WA"), "{stdout}");
}

#[test]
fn run_compiles_a_source_solution() {
    let folder = folder();
    folder.write(
        "judge.toml",
        "[problems.w]\nsolution = \"sol.cpp\"\ncases = \"test\"\n",
    );
    folder.write("sol.cpp", WATERMELON_CPP);
    folder
        .args(["run"])
        .status(OK)
        .stdout_contains("w: 2/2 AC")
        .run();
    folder.write("sol.cpp", "int main( {\n");
    folder
        .args(["run"])
        .status(ERROR)
        .stderr_contains("problem `w`: solution `")
        .stderr_contains("does not compile as C++17")
        .run();
}

#[test]
fn a_runtime_that_cannot_start_shows_its_own_message() {
    if !on_path("javac") || !on_path("java") || !on_path("jar") {
        common::skipped("no JDK on PATH");
        return;
    }
    let folder = folder();
    folder.write(
        "NoMain.java",
        "public class NoMain {\n  static int x = 1;\n}\n",
    );
    let text = folder
        .args(["judge", "NoMain.java"])
        .status(FAILED)
        .run()
        .stdout;
    assert!(text.contains("RE "), "{text}");
    // The JVM's own words, not a bare exit code.
    assert!(text.to_lowercase().contains("main method"), "{text}");
}

/// Kattis and BAPCtools run a Java file whose class is not public by the class named after
/// the file (DOMjudge's own test set has `TestHello.java` with `class TestHello`).
#[test]
fn a_java_class_that_is_not_public_runs_by_the_file_name() {
    if !on_path("javac") || !on_path("java") || !on_path("jar") {
        common::skipped("no JDK on PATH");
        return;
    }
    let folder = folder();
    folder.write("hello/1.in", "");
    folder.write("hello/1.out", "hello\n");
    folder.write(
        "TestHello.java",
        "class Helper {}\nclass TestHello {\n  public static void main(String[] a) {\n    System.out.println(\"hello\");\n  }\n}\n",
    );
    folder
        .args(["judge", "TestHello.java", "--cases", "hello"])
        .status(OK)
        .run();
}

/// A project whose judge.toml names a package: `harness judge a.c --cases test/` is about the
/// folder of cases, so the package is never read, built or judged. Its accepted submission
/// does not compile and it states no time limit, so reading it would compile and judge its
/// submissions to compute one (and here fail): the old load did that before every command.
#[test]
fn a_judge_of_a_folder_of_cases_never_reads_the_projects_packages() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.slow]\npackage = \"pkgs/slow\"\n",
        )
        .file("pkgs/slow/problem.yaml", "name: Slow To Load\n")
        .file("pkgs/slow/data/secret/1.in", "1\n")
        .file("pkgs/slow/data/secret/1.ans", "1\n")
        .file("pkgs/slow/submissions/accepted/broken.c", "int main( {\n")
        .file("test/1.in", "8\n")
        .file("test/1.ans", "8\n")
        .file(
            "a.c",
            "#include <stdio.h>\nint main(void) { int x; scanf(\"%d\", &x); printf(\"%d\\n\", x); }\n",
        );
    // The package was never read: nothing about it on stderr.
    project
        .args(["judge", "a.c", "--cases", "test"])
        .stderr_lacks("slow")
        .stderr_lacks("Slow To Load")
        .stdout_contains("AC")
        .run();
}

/// The same project, judged on its own problem and asked `doctor`: neither is about the
/// package, so neither reads it.
#[test]
fn a_command_about_another_problem_never_reads_the_projects_packages() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.slow]\npackage = \"pkgs/slow\"\n\n[problems.echo]\ntime-limit = \"2s\"\n",
        )
        .file("pkgs/slow/problem.yaml", "name: Slow To Load\n")
        .file("pkgs/slow/data/secret/1.in", "1\n")
        .file("pkgs/slow/data/secret/1.ans", "1\n")
        .file("pkgs/slow/submissions/accepted/broken.c", "int main( {\n")
        .case("echo", "1", "8\n", "8\n")
        .file(
            "a.c",
            "#include <stdio.h>\nint main(void) { int x; scanf(\"%d\", &x); printf(\"%d\\n\", x); }\n",
        );
    for args in [&["judge", "echo", "a.c"][..], &["doctor"][..]] {
        let assert = project.harness().args(args).assert();
        let output = assert.get_output();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            !stderr.contains("Slow To Load") && !stderr.contains("slow:"),
            "`harness {}` read the package: {stderr}",
            args.join(" ")
        );
        assert_eq!(output.status.code(), Some(OK), "{args:?}: {stderr}");
    }
}

/// `harness judge ./a.out`: a program the user built (or a script with a `#!` line) is judged
/// as it is, under the same limits and checkers as a source: AC, WA, and TLE for one that
/// spins; a file that is neither says which languages there are.
#[test]
fn a_prebuilt_executable_or_script_is_judged_as_it_is() {
    let project = Project::new()
        .file("test/1.in", "8\n")
        .file("test/1.ans", "8\n")
        .file(
            "echo.c",
            "#include <stdio.h>\nint main(void) { int x; scanf(\"%d\", &x); printf(\"%d\\n\", x); }\n",
        )
        .file("spin.c", "int main(void) { for (volatile int i = 0;; i++) {} }\n")
        .executable("echo.sh", "#!/bin/sh\nread x\necho \"$x\"\n")
        .executable("wrong", "#!/bin/sh\necho 7\n")
        .file("notes", "not a program\n");
    for (source, binary) in [("echo.c", "a.out"), ("spin.c", "spin")] {
        let built = std::process::Command::new("cc")
            .args(["-O2", "-o", binary, source])
            .current_dir(project.path())
            .status()
            .expect("cc runs");
        assert!(built.success());
    }
    let judge = |args: &[&str]| {
        let assert = project.harness().arg("judge").args(args).assert();
        let output = assert.get_output().clone();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let (code, text) = judge(&["./a.out"]);
    assert_eq!(code, Some(OK), "{text}");
    assert!(
        text.contains("(prebuilt executable)") && text.contains("verdict: AC"),
        "{text}"
    );
    let (code, text) = judge(&["echo.sh"]);
    assert_eq!(code, Some(OK), "{text}");
    let (code, text) = judge(&["./wrong"]);
    assert_eq!(code, Some(FAILED), "{text}");
    assert!(text.contains("verdict: WA"), "{text}");
    let (code, text) = judge(&["./spin", "--time-limit", "200ms"]);
    assert_eq!(code, Some(FAILED), "{text}");
    assert!(text.contains("verdict: TLE"), "{text}");
    let (code, text) = judge(&["notes"]);
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(text.contains("exe"), "the languages are listed: {text}");
}

/// `harness judge --cmd "python3 sol.py"`: a command line is judged as a source is, under the
/// same limits and checkers, run with the folder's files (a module it imports) but not its
/// answers: AC, WA, TLE for one that spins; a program that is nowhere is a clear error (exit 2),
/// before anything runs.
#[test]
fn a_command_line_is_judged_with_the_files_of_its_folder() {
    let project = Project::new()
        .file("test/1.in", "8\n")
        .file("test/1.ans", "8\n")
        .file("secret.ans", "8\n")
        .file("helper.py", "def answer(x):\n    return x\n")
        .file(
            "sol.py",
            "import os\nfrom helper import answer\nassert not os.path.exists('secret.ans'), 'an answer is visible'\nprint(answer(int(input())))\n",
        )
        .file("wrong.py", "input()\nprint(7)\n")
        .file("spin.py", "while True:\n    pass\n")
        // Named as `oj t -c ./a.out` names it, its mode not executable: judged from its copy.
        .file("a.out", "#!/bin/sh\nread x\necho $x\n");
    let judge = |args: &[&str]| {
        let assert = project.harness().arg("judge").args(args).assert();
        let output = assert.get_output().clone();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let (code, text) = judge(&["--cmd", "python3 sol.py"]);
    assert_eq!(code, Some(OK), "{text}");
    assert!(
        text.contains("python3 sol.py (command)") && text.contains("verdict: AC"),
        "{text}"
    );
    let (code, text) = judge(&["--cmd", "./a.out"]);
    assert_eq!(code, Some(OK), "{text}");
    assert!(text.contains("verdict: AC"), "{text}");
    let (code, text) = judge(&["--cmd", "python3 wrong.py"]);
    assert_eq!(code, Some(FAILED), "{text}");
    assert!(text.contains("verdict: WA"), "{text}");
    let (code, text) = judge(&["--cmd", "python3 spin.py", "--time-limit", "200ms"]);
    assert_eq!(code, Some(FAILED), "{text}");
    assert!(text.contains("verdict: TLE"), "{text}");
    let (code, text) = judge(&["--cmd", "no-such-program-here sol.py"]);
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(
        text.contains("the program `no-such-program-here` of --cmd is not on PATH"),
        "{text}"
    );
    let (code, text) = judge(&["--cmd", "./missing.bin"]);
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(
        text.contains("`./missing.bin` of --cmd does not exist"),
        "{text}"
    );
}

/// `harness judge PROBLEM --cmd COMMAND`: a problem of judge.toml, its limits and checker
/// (here `float`, which accepts 0.5000001 for 0.5) apply to a command as to a source; an
/// interactive problem is refused with a hint, before anything runs.
#[test]
fn a_command_line_is_judged_on_a_problem_of_judge_toml() {
    let project = Project::new()
        .file(
            "judge.toml",
            "[problems.half]\nchecker = \"float\"\ntime-limit = \"5s\"\n\n[problems.talk]\ninteractive = true\ninteractor = \"talk.py\"\n",
        )
        .case("half", "1", "1\n", "0.5\n")
        .file("half.py", "input()\nprint('0.5000001')\n")
        .file("talk.py", "print(1)\n");
    let judge = |args: &[&str]| {
        let output = project.harness().arg("judge").args(args).output().unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let (code, text) = judge(&["half", "--cmd", "python3 half.py"]);
    assert_eq!(code, Some(OK), "{text}");
    assert!(text.contains("verdict: AC"), "{text}");
    let (code, text) = judge(&["talk", "--cmd", "python3 half.py"]);
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(
        text.contains("problem `talk` is interactive, and --cmd judges batch problems only"),
        "{text}"
    );
}

/// `harness judge --cmd "java Main"` in a folder holding the classes javac wrote: the JVM finds
/// them in its own folder. Skipped (and said) where there is no JDK.
#[test]
fn a_java_command_finds_its_classes() {
    if std::process::Command::new("javac")
        .arg("-version")
        .output()
        .is_err()
    {
        println!("skipped: javac not found");
        return;
    }
    let project = Project::new()
        .file("test/1.in", "8\n")
        .file("test/1.ans", "8\n")
        .file(
            "Main.java",
            "public class Main { public static void main(String[] a) { java.util.Scanner s = new java.util.Scanner(System.in); System.out.println(Twice.half(2 * s.nextInt())); } }\nclass Twice { static int half(int x) { return x / 2; } }\n",
        );
    let built = std::process::Command::new("javac")
        .arg("Main.java")
        .current_dir(project.path())
        .status()
        .expect("javac runs");
    assert!(built.success());
    let assert = project
        .harness()
        .args(["judge", "--cmd", "java Main"])
        .assert();
    let output = assert.get_output();
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(OK), "{text}");
    assert!(text.contains("verdict: AC"), "{text}");
}

/// `harness project --default DIR`: a project's problems are judged from a folder outside it
/// (no judge.toml above), through `project` in the user's config; a judge.toml above still
/// wins; `--no-default` ends it; a default project with no judge.toml is named in the error.
#[test]
fn a_default_project_is_reached_from_any_folder() {
    let project = Project::new()
        .file("judge.toml", "[problems.echo]\ntime-limit = \"5s\"\n")
        .case("echo", "1", "8\n", "8\n");
    let outside = Project::new().file("sol.py", "print(input())\n");
    let elsewhere = Project::new()
        .file("judge.toml", "[problems.other]\n")
        .file("sol.py", "print(input())\n");
    let config = tempfile::tempdir().unwrap();
    let harness = |dir: &Project, args: &[&str]| {
        let output = dir
            .harness()
            .env("XDG_CONFIG_HOME", config.path())
            .args(args)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let (code, text) = harness(&outside, &["judge", "echo", "sol.py"]);
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(text.contains("harness project --default DIR"), "{text}");

    let folder = std::fs::canonicalize(project.path()).unwrap();
    let (code, text) = harness(
        &outside,
        &["project", "--default", &project.path().to_string_lossy()],
    );
    assert_eq!(code, Some(OK), "{text}");
    let written = std::fs::read_to_string(config.path().join("harness/config.toml")).unwrap();
    assert!(
        written.contains(&format!("project = \"{}\"", folder.display())),
        "{written}"
    );
    let (code, text) = harness(&outside, &["judge", "echo", "sol.py"]);
    assert_eq!(code, Some(OK), "{text}");
    assert!(text.contains("verdict: AC"), "{text}");
    let (code, text) = harness(&outside, &["project"]);
    assert_eq!(code, Some(OK), "{text}");
    assert!(text.contains("(the default project"), "{text}");

    // A judge.toml above the folder is the one used.
    let (code, text) = harness(&elsewhere, &["judge", "echo", "sol.py"]);
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(text.contains("echo"), "{text}");

    let (code, text) = harness(&outside, &["project", "--no-default"]);
    assert_eq!(code, Some(OK), "{text}");
    let (code, text) = harness(&outside, &["judge", "echo", "sol.py"]);
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(text.contains("harness project --default DIR"), "{text}");

    std::fs::write(
        config.path().join("harness/config.toml"),
        format!("[defaults]\nproject = \"{}\"\n", outside.path().display()),
    )
    .unwrap();
    let (code, text) = harness(&outside, &["judge", "echo", "sol.py"]);
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(text.contains("has no `judge.toml`"), "{text}");
    let (code, text) = harness(
        &outside,
        &["project", "--default", &outside.path().to_string_lossy()],
    );
    assert_eq!(code, Some(ERROR), "{text}");
    assert!(text.contains("holds no judge.toml"), "{text}");
}

/// Issue 35: a source judged on a folder of cases inside a project whose judge.toml names a
/// package loads nothing of that package. Loading it compiles its accepted submission to
/// compute the time limit as problemtools does, and says so on a `pkg:` line; that submission
/// does not even compile, so a load cannot pass unseen.
#[test]
fn a_source_on_a_folder_of_cases_never_loads_a_package_of_the_project() {
    let project = Project::new()
        .file("judge.toml", "[problems.slow]\npackage = \"pkg\"\n")
        .file("pkg/problem.yaml", "name: slow\n")
        .file("pkg/data/secret/1.in", "1\n")
        .file("pkg/data/secret/1.ans", "1\n")
        .file(
            "pkg/submissions/accepted/broken.cpp",
            "#error this package is loaded\n",
        )
        .file("watermelon.cpp", WATERMELON_CPP)
        .file("test/sample-1.in", "8\n")
        .file("test/sample-1.out", "YES\n");
    let out = project
        .harness()
        .args(["judge", "watermelon.cpp", "--cases", "test/"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(OK), "{stdout}\n{stderr}");
    assert!(stdout.contains("verdict: AC"), "{stdout}");
    for text in [&stdout, &stderr] {
        assert!(
            !text.contains("pkg:") && !text.contains("pkg/"),
            "the package was read:\n{stdout}\n{stderr}"
        );
    }
    // Judged on the package, the same source loads it, and that shows.
    let loaded = project
        .harness()
        .args(["judge", "slow", "watermelon.cpp"])
        .output()
        .unwrap();
    let loaded = format!(
        "{}{}",
        String::from_utf8_lossy(&loaded.stdout),
        String::from_utf8_lossy(&loaded.stderr)
    );
    assert!(
        loaded.contains("pkg: slow") && loaded.contains("no accepted submission passing"),
        "{loaded}"
    );
}
