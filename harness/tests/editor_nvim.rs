//! The Neovim client (editors/nvim) in real headless Neovim against the real `harness serve`:
//! `:HarnessJudge` on a wrong answer fills the quickfix list with the failing case and the
//! results split with its diff; on a compile error, with where the compiler pointed. Skipped,
//! saying why, where Neovim is not installed (failing under CI) (`.ci/install-tools` installs Debian's `neovim`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::project::Project;
use serde_json::Value;

fn nvim() -> Option<PathBuf> {
    let found = Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "no nvim: CI runs .ci/install-tools, which installs it"
        );
        common::skipped(
            "editor_nvim: nvim is not installed (apt-get install neovim; .ci/install-tools does)",
        );
        return None;
    }
    Some(PathBuf::from("nvim"))
}

/// Runs the judge script on `source` in `project`; the JSON it wrote.
fn judged_in_nvim(nvim: &Path, project: &Project, source: &str) -> Value {
    in_nvim(
        nvim,
        project,
        "judge.lua",
        &[("SOURCE", project.join(source))],
    )
}

/// Runs `script` (in tests/fixtures/nvim) in headless Neovim in `project`, with `env`; the
/// JSON it wrote.
fn in_nvim(nvim: &Path, project: &Project, script: &str, env: &[(&str, PathBuf)]) -> Value {
    let plugin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/nvim");
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/nvim")
        .join(script);
    let out = project.join("nvim-out.json");
    let output = Command::new(nvim)
        .current_dir(project.path())
        .env("HARNESS", assert_cmd::cargo::cargo_bin("harness"))
        .envs(env.iter().map(|(k, v)| (*k, v)))
        .env("OUT", &out)
        .env("XDG_CACHE_HOME", project.cache_home())
        .env("NO_COLOR", "1")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "--cmd"])
        .arg(format!("set rtp+={}", plugin.display()))
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .output()
        .expect("nvim runs");
    let text = std::fs::read_to_string(&out).unwrap_or_else(|error| {
        panic!(
            "nvim wrote no results ({error}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let value: Value = serde_json::from_str(&text).expect("the script writes JSON");
    assert_eq!(value["done"], true, "the task never finished: {value:#}");
    value
}

#[test]
fn harness_judge_fills_the_quickfix_list_with_the_failing_case() {
    let Some(nvim) = nvim() else { return };
    let project = Project::new()
        .file(
            "sol.py",
            "a, b = map(int, input().split())\nprint(a + b if a < 2 else a * b + 1)\n",
        )
        .file("test/1.in", "1 2\n")
        .file("test/1.ans", "3\n")
        .file("test/2.in", "2 2\n")
        .file("test/2.ans", "4\n");
    let result = judged_in_nvim(&nvim, &project, "sol.py");
    let quickfix = result["quickfix"].as_array().expect("a list");
    assert_eq!(quickfix.len(), 1, "{result:#}");
    assert_eq!(quickfix[0]["file"], "test/2.in", "{result:#}");
    assert_eq!(
        quickfix[0]["text"], "case 2: WA line 1, token 1: expected 4, found 5",
        "{result:#}"
    );
    let task = &result["tasks"][0];
    assert_eq!(task["verdict"], "WA", "{result:#}");
    let lines: Vec<&str> = task["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(lines[0].starts_with("judging sol.py"), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("1 ") && l.contains(" AC ")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.trim_start().starts_with("+   1 │ 5")),
        "{lines:#?}"
    );
    assert_eq!(
        lines.last(),
        Some(&"result: WA  (AC 1, WA 1)"),
        "{lines:#?}"
    );
}

#[test]
fn a_compile_error_lands_where_the_compiler_pointed() {
    let Some(nvim) = nvim() else { return };
    let project = Project::new()
        .file(
            "bad.cpp",
            "#include <cstdio>\nint main() {\n    int x = ;\n    printf(\"%d\\n\", x);\n}\n",
        )
        .file("test/1.in", "1 2\n")
        .file("test/1.ans", "3\n");
    let result = judged_in_nvim(&nvim, &project, "bad.cpp");
    let quickfix = result["quickfix"].as_array().expect("a list");
    let error = quickfix
        .iter()
        .find(|item| item["type"] == "E")
        .unwrap_or_else(|| panic!("no error in the quickfix list: {result:#}"));
    assert!(
        error["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("bad.cpp")),
        "{result:#}"
    );
    assert_eq!(error["lnum"], 3, "{result:#}");
    assert!(error["col"].as_u64().is_some_and(|c| c > 0), "{result:#}");
    assert_eq!(result["tasks"][0]["verdict"], "CE", "{result:#}");
}

#[test]
fn harness_stress_shows_the_shrunk_counterexample_and_saves_it_as_a_case() {
    let Some(nvim) = nvim() else { return };
    let project = Project::new()
        .file(
            "sol.py",
            "a, b = map(int, input().split())\nprint(a + b if a < 2 else a * b + 1)\n",
        )
        .file("brute.py", "a, b = map(int, input().split())\nprint(a + b)\n")
        .file(
            "gen.py",
            "import random, sys\nrandom.seed(int(sys.argv[-1]))\nprint(random.randint(1, 9), random.randint(1, 9))\n",
        );
    let result = in_nvim(
        &nvim,
        &project,
        "stress.lua",
        &[
            ("SOURCE", project.join("sol.py")),
            ("REFERENCE", project.join("brute.py")),
            ("GENERATOR", project.join("gen.py")),
        ],
    );
    assert_eq!(result["done"], true, "{result:#}");
    let lines: Vec<&str> = result["tasks"][0]["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // One block for the smallest input, redrawn as it shrinks, not one per candidate.
    let blocks = lines
        .iter()
        .filter(|l| l.starts_with("smallest failing input so far"))
        .count();
    assert!(blocks <= 1, "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("stress: WA on this input")),
        "{lines:#?}"
    );
    let quickfix = result["quickfix"].as_array().expect("a list");
    assert!(
        quickfix.iter().any(|q| q["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("stress: "))),
        "{result:#}"
    );
    // The counterexample became a case beside the source, never over another file.
    assert_eq!(result["saved"], true, "{result:#}");
    let input = project.read("test/added-1.in");
    let answer = project.read("test/added-1.ans");
    let (a, b) = input.trim().split_once(' ').expect("two numbers");
    let sum: i64 = a.parse::<i64>().unwrap() + b.parse::<i64>().unwrap();
    assert_eq!(answer.trim(), sum.to_string(), "{input} {answer}");
}

/// A Competitive Companion POST to `port`, retried while the server is not listening yet.
fn post_problem(port: u16) {
    use std::io::{Read, Write};
    let body = serde_json::json!({
        "name": "A. Cover in Water",
        "group": "Codeforces - Round 911",
        "url": "https://codeforces.com/contest/1900/problem/A",
        "memoryLimit": 256,
        "timeLimit": 1000,
        "tests": [{"input": "1\n3\n...\n", "output": "2\n"}],
        "testType": "single",
        "input": {"type": "stdin"},
        "output": {"type": "stdout"}
    })
    .to_string();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            write!(
                stream,
                "POST / HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nOrigin: chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            let mut answer = String::new();
            let _ = stream.read_to_string(&mut answer);
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "nothing listened on {port}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn a_received_problem_opens_in_its_workspace_and_is_judged_by_its_id() {
    let Some(nvim) = nvim() else { return };
    let project = Project::new().file("ws/.keep", "");
    let workspace = project.join("ws");
    // A free port, given back for the server to take.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let plugin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/nvim");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nvim/receive.lua");
    let out = project.join("nvim-out.json");
    let mut child = Command::new(&nvim)
        .current_dir(project.path())
        .env("HARNESS", assert_cmd::cargo::cargo_bin("harness"))
        .env("PORT", port.to_string())
        .env("WORKSPACE", &workspace)
        .env("OUT", &out)
        .env("XDG_CACHE_HOME", project.cache_home())
        .env("XDG_CONFIG_HOME", project.join("config"))
        .args(["--headless", "-u", "NONE", "-i", "NONE", "--cmd"])
        .arg(format!("set rtp+={}", plugin.display()))
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("nvim runs");
    post_problem(port);
    let status = child.wait().expect("nvim ends");
    assert!(status.success(), "{status}");
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("results")).expect("JSON");
    assert_eq!(result["received"], true, "{result:#}");
    assert_eq!(result["problem"], "cf1900a", "{result:#}");
    // A tab page of its own, in the workspace, on the folder of its samples.
    assert_eq!(result["tabs"], 2, "{result:#}");
    assert_eq!(
        Path::new(result["cwd"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        workspace.canonicalize().unwrap(),
        "{result:#}"
    );
    assert!(
        result["buffer"]
            .as_str()
            .is_some_and(|b| b.ends_with("cases/cf1900a") || b.ends_with("cases/cf1900a/")),
        "{result:#}"
    );
    assert!(workspace.join("cases/cf1900a/sample-1.in").is_file());
}
