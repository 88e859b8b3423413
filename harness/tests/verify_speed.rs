//! What makes a first `harness verify` fast without changing a verdict: the stored
//! submissions compiled while the built ones are judged (in the plan's order, a compile error
//! among them), and C++ that includes `<bits/stdc++.h>` compiled against a precompiled header
//! in the build cache, judged as without it, and compiled without it when the cached one is
//! broken.
#![cfg(unix)]

mod common;

use std::path::PathBuf;

use serde_json::Value;

use common::project::Project;

const TOML: &str = r#"
[defaults]
time-limit = "5s"
memory-limit = "256MiB"

[problems.sum]
solution = "/bin/cat"
"#;

const AC_CPP: &str = "#include <bits/stdc++.h>
using namespace std;
int main() { long long a, b; cin >> a >> b; cout << a + b << \"\\n\"; }
";

/// Right on small inputs only: case 02 catches it.
const WA_CPP: &str = "#include <bits/stdc++.h>
int main() { long long a, b; std::cin >> a >> b; std::cout << a + b + (a > 3) << \"\\n\"; }
";

/// Fine but for a missing semicolon, which only the compile says.
const CE_CPP: &str = "#include <bits/stdc++.h>
int main() { std::vector<int> v{1, 2} return 0; }
";

/// A `#define` ahead of the header changes what it means: g++ must not take the PCH.
const DEBUG_AC_CPP: &str = "#define _GLIBCXX_DEBUG
#include <bits/stdc++.h>
int main() { std::vector<long long> v(2); std::cin >> v[0] >> v[1]; std::cout << v[0] + v[1] << \"\\n\"; }
";

fn project() -> Project {
    Project::new()
        .file("judge.toml", TOML)
        .case("sum", "01", "1 2\n", "3\n")
        .case("sum", "02", "5 7\n", "12\n")
}

fn store(project: &Project, relative: &str, text: &str) {
    project.write(&format!("solutions/submissions/sum/{relative}"), text);
}

/// g++, or why the test cannot run.
fn gxx_or_skip(test: &str) -> bool {
    let found = std::process::Command::new("g++")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        common::skipped(&format!("{test}: g++ not found"));
    }
    found
}

/// Each submission of `verify --format json`, in the order they came: its name, expected
/// and got verdicts, and its compile message with the project's folder put as `<project>`.
fn rows(project: &Project, json: &Value) -> Vec<(String, String)> {
    let folder = project.path().display().to_string();
    json["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .map(|s| {
            (
                format!(
                    "{} {} {}",
                    s["name"].as_str().unwrap(),
                    s["expected"],
                    s["verdict"]
                )
                .replace('"', ""),
                s["compile"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .replace(&folder, "<project>"),
            )
        })
        .collect()
}

fn names(rows: &[(String, String)]) -> Vec<&str> {
    rows.iter().map(|(name, _)| name.as_str()).collect()
}

/// The PCH files of the project's build cache.
fn pch_files(project: &Project) -> Vec<PathBuf> {
    let root = project.cache_home().join("harness/pch");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .map(|e| e.path().join("bits/stdc++.h.gch"))
        .filter(|gch| gch.is_file())
        .collect()
}

fn verify(project: &Project, pch: bool) -> Vec<(String, String)> {
    let mut command = project.harness();
    command.args(["verify", "-j", "2", "--format", "json"]);
    if !pch {
        command.env("HARNESS_PCH", "off");
    }
    let output = command.output().expect("harness runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    rows(
        project,
        &serde_json::from_str(&stdout).expect("one JSON document"),
    )
}

#[test]
fn sources_including_bits_stdcxx_get_the_same_verdicts_with_the_pch() {
    if !gxx_or_skip("sources_including_bits_stdcxx_get_the_same_verdicts_with_the_pch") {
        return;
    }
    let stored = |project: &Project| {
        store(project, "accepted/bits.cpp", AC_CPP);
        store(project, "accepted/debug.cpp", DEBUG_AC_CPP);
        store(project, "wrong_answer/off_by_one.cpp", WA_CPP);
        store(project, "compile_error/semicolon.cpp", CE_CPP);
    };
    let with = project();
    stored(&with);
    let without = project();
    stored(&without);

    let rows_without = verify(&without, false);
    assert!(pch_files(&without).is_empty(), "HARNESS_PCH=off makes none");
    let rows_with = verify(&with, true);
    // The same verdicts, and the compile error's message word for word.
    assert_eq!(rows_with, rows_without);
    assert_eq!(
        names(&rows_with),
        [
            "sum/accepted/bits.cpp AC AC",
            "sum/accepted/debug.cpp AC AC",
            "sum/wrong_answer/off_by_one.cpp WA WA",
            "sum/compile_error/semicolon.cpp CE CE",
        ]
    );
    assert!(
        rows_with[3]
            .1
            .contains("<project>/solutions/submissions/sum/compile_error/semicolon.cpp:2:"),
        "{}",
        rows_with[3].1
    );
    assert_eq!(
        pch_files(&with).len(),
        1,
        "one PCH, for the C++ entry's flags"
    );
}

#[test]
fn a_broken_pch_in_the_cache_falls_back_to_compiling_without_it() {
    if !gxx_or_skip("a_broken_pch_in_the_cache_falls_back_to_compiling_without_it") {
        return;
    }
    let project = project();
    store(&project, "accepted/bits.cpp", AC_CPP);
    verify(&project, true);
    let [gch] = pch_files(&project).try_into().expect("one PCH");
    // Cut short, as a full disk would leave it: g++ fails on it instead of ignoring it.
    let bytes = std::fs::read(&gch).unwrap();
    std::fs::write(&gch, &bytes[..4096.min(bytes.len())]).unwrap();

    // A new source, so that the build is not taken from the cache.
    store(
        &project,
        "accepted/again.cpp",
        &format!("{AC_CPP}// again\n"),
    );
    assert_eq!(
        names(&verify(&project, true)),
        [
            "sum/accepted/again.cpp AC AC",
            "sum/accepted/bits.cpp AC AC"
        ]
    );
    // The broken one is gone (or made again, whole).
    let size = std::fs::metadata(&gch).map_or(0, |m| m.len());
    assert!(
        size == 0 || size > 4096,
        "{} is {size} bytes",
        gch.display()
    );
}

/// A compiler that finishes only once both submissions' compiles have started: verify must
/// compile them at once, while the other waits (here: for a minute, then it fails, a CE).
fn handshake_language(project: &Project) -> String {
    let marks = project.join("marks");
    std::fs::create_dir_all(&marks).unwrap();
    let script = project.write(
        "handshake.sh",
        &format!(
            r#"name=$(basename "$1" .hs)
: > "{marks}/$name"
i=0
while [ ! -e "{marks}/first" ] || [ ! -e "{marks}/second" ]; do
  i=$((i + 1)); [ "$i" -gt 600 ] && {{ echo "alone for a minute"; exit 1; }}
  sleep 0.1
done
grep -q broken "$1" && {{ echo "$1: broken"; exit 1; }}
printf '#!/bin/sh\nread a b; echo $((a + b))\n' > "$2"
chmod +x "$2"
"#,
            marks = marks.display()
        ),
    );
    format!(
        "\n[languages.hs]\nname = \"Handshake\"\nextensions = [\"hs\"]\ncompile = [\"/bin/sh\", \"{}\", \"{{source}}\", \"{{exe}}\"]\nrun = [\"{{exe}}\"]\n",
        script.display()
    )
}

#[test]
fn verify_compiles_the_next_submissions_while_it_judges_in_the_plans_order() {
    let project = project();
    let language = handshake_language(&project);
    project.write("judge.toml", &format!("{TOML}{language}"));
    store(&project, "accepted/first.hs", "fine\n");
    store(&project, "compile_error/second.hs", "broken\n");
    // Compiled after them (the two compilers are busy), and a CE of its own.
    store(&project, "compile_error/third.hs", "broken\n");
    let rows = verify(&project, true);
    assert_eq!(
        names(&rows),
        [
            "sum/accepted/first.hs AC AC",
            "sum/compile_error/second.hs CE CE",
            "sum/compile_error/third.hs CE CE",
        ]
    );
    assert!(rows[1].1.contains("second.hs: broken"), "{rows:?}");
}
