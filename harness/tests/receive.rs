//! `harness listen` driven as Competitive Companion drives it: the real binary on a free port,
//! real HTTP requests written on a TcpStream, payloads in the extension's documented format.
//! Then what it wrote is judged with `harness judge` (its built-in C and C++), as a contestant
//! would right after.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
/// Far more than any step needs: a stuck server fails the test instead of hanging it.
const DEADLINE: Duration = Duration::from_secs(60);

/// A running `harness listen`, with what it printed collected as it comes.
struct Listener {
    child: Child,
    port: u16,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Listener {
    /// Starts `harness listen --port 0 --dir DIR ARGS…` and reads the port it chose. The
    /// user config is `DIR/.xdg/harness/config.toml`, if a test writes one.
    fn start(dir: &Path, args: &[&str]) -> Listener {
        let mut child = Command::new(HARNESS)
            .args(["listen", "--port", "0", "--dir"])
            .arg(dir)
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env("XDG_CONFIG_HOME", dir.join(".xdg"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the harness binary starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        let port = first
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no port in the first line: {first:?}"));
        let collected = Arc::new(Mutex::new(first));
        let sink = Arc::clone(&collected);
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stdout.read_to_string(&mut rest);
            sink.lock().unwrap().push_str(&rest);
        });
        let errors = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&errors);
        let mut stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            sink.lock().unwrap().push_str(&text);
        });
        Listener {
            child,
            port,
            stdout: collected,
            stderr: errors,
        }
    }

    fn post(&self, body: &[u8]) -> (u16, String) {
        post(self.port, body)
    }

    fn post_json(&self, payload: &serde_json::Value) -> (u16, String) {
        self.post(payload.to_string().as_bytes())
    }

    /// Waits for the server to end by itself; its exit status, stdout and stderr.
    fn wait(mut self) -> (ExitStatus, String, String) {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > DEADLINE {
                let _ = self.child.kill();
                panic!(
                    "harness listen did not stop; printed:\n{}",
                    self.stdout.lock().unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The reader threads finish once the pipes close.
        std::thread::sleep(Duration::from_millis(100));
        let stdout = self.stdout.lock().unwrap().clone();
        let stderr = self.stderr.lock().unwrap().clone();
        (status, stdout, stderr)
    }

    /// Ctrl-C, then wait.
    fn interrupt(self) -> (ExitStatus, String, String) {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
        self.wait()
    }
}

/// One HTTP/1.1 request, as the extension's XMLHttpRequest sends it; the status and body.
fn post(port: u16, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server accepts");
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {response:?}"));
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default();
    (status, body)
}

fn harness(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(HARNESS)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("XDG_CONFIG_HOME", dir.join(".xdg"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn read(path: impl AsRef<Path>) -> String {
    let path = path.as_ref();
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Codeforces 1900A as the extension sends it from the problem page.
fn codeforces_1900a() -> serde_json::Value {
    json!({
        "name": "A. Cover in Water",
        "group": "Codeforces - Codeforces Round 911 (Div. 2)",
        "url": "https://codeforces.com/contest/1900/problem/A",
        "interactive": false,
        "memoryLimit": 256,
        "timeLimit": 1000,
        "tests": [{
            "input": "5\n3\n...\n7\n##....#\n7\n..#.#..\n4\n####\n10\n#...#..#.#\n",
            "output": "2\n2\n5\n0\n2\n"
        }],
        "testType": "single",
        "input": {"type": "stdin"},
        "output": {"type": "stdout"},
        "languages": {"java": {"mainClass": "Main", "taskClass": "ACoverInWater"}},
        "batch": {"id": "0d5f5b5c-6c1b-4a3e-9f3e-1b2c3d4e5f60", "size": 1}
    })
}

const COVER_IN_WATER_CPP: &str = r#"#include <algorithm>
#include <iostream>
#include <string>
int main() {
    int t;
    std::cin >> t;
    while (t--) {
        int n;
        std::string s;
        std::cin >> n >> s;
        if (s.find("...") != std::string::npos) std::cout << 2 << '\n';
        else std::cout << std::count(s.begin(), s.end(), '.') << '\n';
    }
}
"#;

#[test]
fn a_codeforces_problem_is_received_and_judged_right_after() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(dir.path(), &["--once"]);
    let (status, body) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("received as `cf1900a`"), "{body}");
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "received `cf1900a` A. Cover in Water: 1 sample, 1s, 256MiB in `cases/cf1900a/`"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("judge it: harness judge cf1900a FILE"),
        "{stdout}"
    );

    let config = dir.path().join("judge.toml");
    let toml = read(&config);
    assert!(
        toml.ends_with(
            "[problems.cf1900a]\ntitle = \"A. Cover in Water\"\nurl = \"https://codeforces.com/contest/1900/problem/A\"\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\n"
        ),
        "{toml}"
    );
    assert_eq!(
        read(dir.path().join("cases/cf1900a/sample-1.ans")),
        "2\n2\n5\n0\n2\n"
    );

    std::fs::write(dir.path().join("sol.cpp"), COVER_IN_WATER_CPP).unwrap();
    let (code, stdout, stderr) = harness(dir.path(), &["judge", "cf1900a", "sol.cpp"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("AC"), "{stdout}");

    let wrong = COVER_IN_WATER_CPP.replace("std::cout << 2 << '\\n';", "std::cout << 3 << '\\n';");
    std::fs::write(dir.path().join("wrong.cpp"), wrong).unwrap();
    let (code, stdout, stderr) = harness(dir.path(), &["judge", "cf1900a", "wrong.cpp"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("WA"), "{stdout}");
}

/// USACO 2015 December Bronze, "Fence Painting": reads paint.in, writes paint.out.
fn usaco_paint() -> serde_json::Value {
    json!({
        "name": "Fence Painting",
        "group": "USACO 2015 December Contest, Bronze",
        "url": "http://www.usaco.org/index.php?page=viewproblem2&cpid=567",
        "interactive": false,
        "memoryLimit": 256,
        "timeLimit": 2000,
        "tests": [{"input": "7 10\n4 8\n", "output": "6\n"}],
        "testType": "single",
        "input": {"type": "file", "fileName": "paint.in"},
        "output": {"type": "file", "fileName": "paint.out"},
        "languages": {"java": {"mainClass": "Main", "taskClass": "FencePainting"}}
    })
}

const PAINT_C: &str = r#"#include <stdio.h>
int main(void) {
    FILE *in = fopen("paint.in", "r"), *out = fopen("paint.out", "w");
    int a, b, c, d;
    if (!in || !out || fscanf(in, "%d %d %d %d", &a, &b, &c, &d) != 4) return 1;
    int lo = a < c ? a : c, hi = b > d ? b : d;
    int overlap = (b < c || d < a) ? 0 : 1;
    fprintf(out, "%d\n", overlap ? hi - lo : (b - a) + (d - c));
    return 0;
}
"#;

#[test]
fn a_usaco_file_io_problem_judges_the_file_the_program_writes() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(dir.path(), &["--once"]);
    let (status, body) = listener.post_json(&usaco_paint());
    assert_eq!(status, 200, "{body}");
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("received `usaco567` Fence Painting"),
        "{stdout}"
    );
    assert!(
        stdout.contains("file I/O: reads paint.in, writes paint.out"),
        "{stdout}"
    );
    let config = dir.path().join("judge.toml");
    let toml = read(&config);
    assert!(
        toml.contains("input-file = \"paint.in\"\noutput-file = \"paint.out\"\n"),
        "{toml}"
    );

    std::fs::write(dir.path().join("paint.c"), PAINT_C).unwrap();
    let (code, stdout, stderr) = harness(dir.path(), &["judge", "usaco567", "paint.c"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("AC"), "{stdout}");

    // The right answer, but on stdout: the judge reads paint.out, which is not there.
    let to_stdout = PAINT_C.replace("fopen(\"paint.out\", \"w\")", "stdout");
    std::fs::write(dir.path().join("stdout.c"), to_stdout).unwrap();
    let (code, stdout, stderr) = harness(dir.path(), &["judge", "usaco567", "stdout.c"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("WA"), "{stdout}");
    assert!(
        stdout.contains("no output file `paint.out`: the program did not write it"),
        "{stdout}"
    );
    // Nothing the programs wrote lands in the workspace.
    assert!(!dir.path().join("paint.out").exists());
}

#[test]
fn an_atcoder_problem_with_windows_line_endings() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(dir.path(), &["--once"]);
    let payload = json!({
        "name": "A - First ABC",
        "group": "AtCoder - AtCoder Beginner Contest 311",
        "url": "https://atcoder.jp/contests/abc311/tasks/abc311_a",
        "interactive": false,
        "memoryLimit": 1024,
        "timeLimit": 2000,
        "tests": [
            {"input": "5\r\nACABB\r\n", "output": "4\r\n"},
            {"input": "4\r\nCABC\r\n", "output": "3\r\n"},
            {"input": "30\r\nAABABBBABABBABABCABACAABCBACCA\r\n", "output": "17"}
        ],
        "testType": "single",
        "input": {"type": "stdin"},
        "output": {"type": "stdout"},
        "languages": {"java": {"mainClass": "Main", "taskClass": "AFirstABC"}}
    });
    let (status, _) = listener.post_json(&payload);
    assert_eq!(status, 200);
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("received `abc311_a` A - First ABC: 3 samples, 2s, 1GiB"),
        "{stdout}"
    );
    let cases = dir.path().join("cases/abc311_a");
    assert_eq!(read(cases.join("sample-1.in")), "5\nACABB\n");
    assert_eq!(read(cases.join("sample-1.ans")), "4\n");
    // A missing final newline is added, as the judges' own files have one.
    assert_eq!(read(cases.join("sample-3.ans")), "17\n");
    let toml = read(dir.path().join("judge.toml"));
    assert!(toml.contains("memory-limit = \"1GiB\""), "{toml}");
}

/// Six problems of one contest, the extension's way: one request each, sharing batch.id.
fn contest_problem(letter: char, samples: usize, interactive: bool) -> serde_json::Value {
    let tests: Vec<_> = (1..=samples)
        .map(|i| json!({"input": format!("{i}\n{i} {i}\n"), "output": format!("{}\n", 2 * i)}))
        .collect();
    json!({
        "name": format!("{}. Problem {letter}", letter.to_ascii_uppercase()),
        "group": "Codeforces - Codeforces Round 900 (Div. 3)",
        "url": format!("https://codeforces.com/contest/1873/problem/{}", letter.to_ascii_uppercase()),
        "interactive": interactive,
        "memoryLimit": 256,
        "timeLimit": if letter == 'f' { 3000 } else { 1000 },
        "tests": tests,
        "testType": "single",
        "input": {"type": "stdin"},
        "output": {"type": "stdout"},
        "languages": {"java": {"mainClass": "Main", "taskClass": "Task"}},
        "batch": {"id": "4c8e8a4e-1f0b-4e61-9d2e-6a1f3b2c9d70", "size": 6}
    })
}

#[test]
fn a_contest_arriving_out_of_order_prints_one_table_in_contest_order() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(dir.path(), &["--once"]);
    // E has no samples; D is interactive.
    for (letter, samples, interactive) in [
        ('c', 2, false),
        ('a', 3, false),
        ('f', 1, false),
        ('e', 0, false),
        ('b', 2, false),
        ('d', 1, true),
    ] {
        let (status, body) = listener.post_json(&contest_problem(letter, samples, interactive));
        assert_eq!(status, 200, "{body}");
    }
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("[1/6]") && stdout.contains("[6/6]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("judge one: harness judge cf1873a FILE"),
        "{stdout}"
    );
    let table = stdout
        .split("Codeforces - Codeforces Round 900 (Div. 3): 6 of 6 problems\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no table: {stdout}"));
    let rows: Vec<&str> = table.lines().take(7).map(str::trim_end).collect();
    assert_eq!(
        rows,
        [
            "  id       title         time  memory  samples  interactive",
            "  cf1873a  A. Problem a  1s    256MiB  3        no",
            "  cf1873b  B. Problem b  1s    256MiB  2        no",
            "  cf1873c  C. Problem c  1s    256MiB  2        no",
            "  cf1873d  D. Problem d  1s    256MiB  1        yes",
            "  cf1873e  E. Problem e  1s    256MiB  0        no",
            "  cf1873f  F. Problem f  3s    256MiB  1        no",
        ]
        .map(ToString::to_string),
        "{stdout}"
    );
    assert!(
        stdout.contains("the page had no samples"),
        "the 0-sample problem is pointed out: {stdout}"
    );
    assert!(dir.path().join("cases/cf1873e").is_dir());

    // Judging the interactive one says it cannot, instead of giving a verdict.
    let config = dir.path().join("judge.toml");
    assert!(read(&config).contains("[problems.cf1873d]\ntitle = \"D. Problem d\"\nurl = \"https://codeforces.com/contest/1873/problem/D\"\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\ninteractive = true\n"));
    std::fs::write(dir.path().join("d.c"), "int main(void) { return 0; }\n").unwrap();
    let (code, stdout, stderr) = harness(dir.path(), &["judge", "cf1873d", "d.c"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "problem `cf1873d` is interactive but names no `interactor`, so no verdict can be given"
        ),
        "{stderr}"
    );
    // `harness run` has nothing to run: every problem lacks a solution, and says so.
    let (code, _, stderr) = harness(dir.path(), &["run"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("problem `cf1873a` has no `solution`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("problem `cf1873d` is interactive"),
        "{stderr}"
    );
}

#[test]
fn a_duplicate_gets_a_new_id_and_ctrl_c_stops_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    // The user's own files: a judge.toml with a comment, and a problem of the same id.
    let config = dir.path().join("judge.toml");
    let mine = "# my practice problems\n[problems.cf1900a]\ntitle = \"mine\"\n";
    std::fs::write(&config, mine).unwrap();
    std::fs::create_dir_all(dir.path().join("cases/cf1900a")).unwrap();
    std::fs::write(dir.path().join("cases/cf1900a/mine.in"), "1\n").unwrap();
    // A template for solutions, and a solution the user already started.
    std::fs::write(dir.path().join("template.cpp"), "// template\n").unwrap();
    std::fs::write(dir.path().join("cf1900a-3.cpp"), "// mine\n").unwrap();

    let listener = Listener::start(dir.path(), &["--template", "template.cpp"]);
    let (status, body) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("`cf1900a-2`"), "{body}");
    let (status, body) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("`cf1900a-3`"), "{body}");
    let (exit, stdout, stderr) = listener.interrupt();
    assert_eq!(exit.code(), Some(130), "{stdout}{stderr}");
    assert!(
        stdout.contains("`cf1900a` is taken, so this one is `cf1900a-2`"),
        "{stdout}"
    );
    assert!(stderr.contains("stopped: 2 problems received"), "{stderr}");
    assert!(
        !stderr.contains("every program the judge started"),
        "{stderr}"
    );

    let toml = read(&config);
    assert!(
        toml.starts_with(mine),
        "the user's table is untouched: {toml}"
    );
    assert!(toml.contains("[problems.cf1900a-2]") && toml.contains("[problems.cf1900a-3]"));
    assert_eq!(read(dir.path().join("cases/cf1900a/mine.in")), "1\n");
    assert!(!dir.path().join("cases/cf1900a/sample-1.in").exists());
    assert!(dir.path().join("cases/cf1900a-3/sample-1.in").is_file());
    assert_eq!(read(dir.path().join("cf1900a-2.cpp")), "// template\n");
    assert_eq!(read(dir.path().join("cf1900a-3.cpp")), "// mine\n");
    assert!(
        stdout.contains("solution `cf1900a-2.cpp` made from the template"),
        "{stdout}"
    );
    assert!(
        stdout.contains("`cf1900a-3.cpp` is there already: kept as it is"),
        "{stdout}"
    );
}

#[test]
fn malformed_json_and_an_empty_body_are_refused_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(dir.path(), &["--once"]);
    let (status, body) =
        listener.post(br#"{"name": "A. Cover in Water", "tests": [{"input": "1\n"#);
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("not a Competitive Companion problem"),
        "{body}"
    );
    let (status, body) = listener.post(b"");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("empty body"), "{body}");
    let (status, body) = listener.post(br#"{"tests": []}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("missing field `name`"), "{body}");
    assert!(!dir.path().join("judge.toml").exists());
    assert!(!dir.path().join("cases").exists());

    // The server is still there for the next, good problem.
    let (status, _) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200);
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert!(
        stderr.contains("refused (400): not a Competitive Companion problem: EOF while parsing"),
        "{stderr}"
    );
    assert!(stderr.contains("refused (400): empty body"), "{stderr}");
}

#[test]
fn a_port_in_use_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, stdout, stderr) = harness(dir.path(), &["listen", "--port", &port]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "port {port} is in use: another program is listening there"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("--port"), "{stderr}");
    assert!(!dir.path().join("judge.toml").exists());
}

#[test]
fn a_problem_from_an_unknown_site_is_named_from_its_title() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(dir.path(), &["--once"]);
    let payload = json!({
        "name": "Snakes & Ladders (hard version)",
        "group": "Some Judge - Round 1",
        "url": "https://judge.example.org/p/42",
        "tests": [{"input": "1\n", "output": "0.500000\n"}],
        "testType": "multiNumber"
    });
    let (status, body) = listener.post_json(&payload);
    assert_eq!(status, 200, "{body}");
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    let toml = read(dir.path().join("judge.toml"));
    assert!(
        toml.contains("[problems.snakes-ladders-hard-version]\n"),
        "{toml}"
    );
    // The extension's defaults when the page gives no limits; decimals choose the float
    // checker.
    assert!(toml.contains("time-limit = \"1s\"\nmemory-limit = \"1GiB\"\nchecker = \"float\"\nmulti-test = true\n"), "{toml}");
}

#[test]
fn a_contest_that_goes_quiet_prints_what_came_and_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(dir.path(), &["--once", "--batch-timeout", "1s"]);
    for letter in ['b', 'a'] {
        let mut problem = contest_problem(letter, 1, false);
        problem["batch"]["size"] = json!(3);
        let (status, _) = listener.post_json(&problem);
        assert_eq!(status, 200);
    }
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("2 of 3 problems (1 did not arrive: send them again from their pages)"),
        "{stdout}"
    );
    assert!(stdout.contains("[2/3]"), "{stdout}");
}

#[test]
fn an_oversized_body_or_a_broken_judge_toml_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("judge.toml");
    let broken = "[problems.a\ntitle = 1\n";
    std::fs::write(&config, broken).unwrap();
    let listener = Listener::start(dir.path(), &[]);

    // Refused from its Content-Length alone, before a byte of the body is read.
    let mut stream = TcpStream::connect(("127.0.0.1", listener.port)).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    stream
        .write_all(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 17000000\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(response.contains("larger than 16 MiB"), "{response}");

    let (status, body) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("cannot store `A. Cover in Water`"), "{body}");
    assert!(body.contains("judge.toml:1:"), "{body}");
    let (exit, _, stderr) = listener.interrupt();
    assert_eq!(exit.code(), Some(130));
    assert!(
        stderr.contains("refused (413)") && stderr.contains("refused (500)"),
        "{stderr}"
    );
    assert_eq!(read(&config), broken);
    assert!(!dir.path().join("cases/cf1900a").exists());
}

#[test]
fn a_codeforces_yes_no_problem_accepts_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::start(dir.path(), &["--once"]);
    // Codeforces 4A, "Watermelon": YES if w splits into two even parts.
    let payload = json!({
        "name": "A. Watermelon",
        "group": "Codeforces - Codeforces Beta Round 4 (Div. 2 Only)",
        "url": "https://codeforces.com/problemset/problem/4/A",
        "memoryLimit": 64,
        "timeLimit": 1000,
        "tests": [{"input": "8\n", "output": "YES\n"}, {"input": "5\n", "output": "NO\n"}],
        "testType": "single",
        "input": {"type": "stdin"},
        "output": {"type": "stdout"}
    });
    let (status, _) = listener.post_json(&payload);
    assert_eq!(status, 200);
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("checker `tokens-ignore-case`: a Codeforces answer of YES or NO"),
        "{stdout}"
    );
    std::fs::write(
        dir.path().join("w.py"),
        "w = int(input())\nprint('yes' if w > 2 and w % 2 == 0 else 'no')\n",
    )
    .unwrap();
    let (code, stdout, stderr) = harness(dir.path(), &["judge", "cf4a", "w.py"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

#[test]
fn the_template_comes_from_the_user_config() {
    let dir = tempfile::tempdir().unwrap();
    let config_dir = dir.path().join(".xdg/harness");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(
        config_dir.join("config.toml"),
        "[defaults]\ntemplate = \"main.py\"\n",
    )
    .unwrap();
    std::fs::write(config_dir.join("main.py"), "import sys\n").unwrap();
    let listener = Listener::start(dir.path(), &["--once"]);
    let (status, _) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200);
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert_eq!(read(dir.path().join("cf1900a.py")), "import sys\n");

    // A template the config names but that is not there stops listen before it binds.
    std::fs::remove_file(config_dir.join("main.py")).unwrap();
    let (code, _, stderr) = harness(dir.path(), &["listen", "--port", "0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("cannot read template") && stderr.contains("named by `template` in"),
        "{stderr}"
    );
}
