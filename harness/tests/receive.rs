//! `harness listen` driven as Competitive Companion drives it: the real binary on a free port,
//! real HTTP requests written on a TcpStream, payloads in the extension's documented format.
//! Then what it wrote is judged with `harness judge` (its built-in C and C++), as a contestant
//! would right after.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::project::Project;
use nix::sys::resource::Resource;
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
    /// Starts `harness listen --port 0 --dir DIR ARGS…` in the project and reads the port it
    /// chose.
    fn start(project: &Project, args: &[&str]) -> Listener {
        Listener::start_with(project, args, |_| {})
    }

    /// The same, with the command changed by `configure` first (its limits, say).
    fn start_with(
        project: &Project,
        args: &[&str],
        configure: impl FnOnce(&mut Command),
    ) -> Listener {
        let mut command = project.process();
        command
            .args(["listen", "--port", "0", "--dir"])
            .arg(project.path())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        configure(&mut command);
        let mut child = command.spawn().expect("the harness binary starts");
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
        // Line by line, so a test can wait for a line while the server runs.
        let stderr = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in stderr.lines() {
                let Ok(line) = line else { break };
                let mut text = sink.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
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

/// A test that failed midway leaves no server behind, writing into its removed folder.
impl Drop for Listener {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One HTTP/1.1 request, with the headers the extension's fetch() sets; the status and body.
fn post(port: u16, body: &[u8]) -> (u16, String) {
    let head = format!(
        "POST / HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    request(port, &head, body)
}

/// `head` (the request line and headers, up to the blank line) and `body`, written as they
/// are; the status and body of the answer.
fn request(port: u16, head: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server accepts");
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    response(&mut stream)
}

/// Reads the answer to its end (the server closes the connection after it).
fn response(stream: &mut TcpStream) -> (u16, String) {
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

fn harness(project: &Project, args: &[&str]) -> (i32, String, String) {
    let ran = project.args(args).any_status().run();
    (ran.status.unwrap_or(-1), ran.stdout, ran.stderr)
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
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
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

    let config = project.path().join("judge.toml");
    let toml = read(&config);
    assert!(
        toml.ends_with(
            "[problems.cf1900a]\ntitle = \"A. Cover in Water\"\nurl = \"https://codeforces.com/contest/1900/problem/A\"\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\n"
        ),
        "{toml}"
    );
    assert_eq!(
        read(project.path().join("cases/cf1900a/sample-1.ans")),
        "2\n2\n5\n0\n2\n"
    );

    std::fs::write(project.path().join("sol.cpp"), COVER_IN_WATER_CPP).unwrap();
    let (code, stdout, stderr) = harness(&project, &["judge", "cf1900a", "sol.cpp"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("AC"), "{stdout}");

    let wrong = COVER_IN_WATER_CPP.replace("std::cout << 2 << '\\n';", "std::cout << 3 << '\\n';");
    std::fs::write(project.path().join("wrong.cpp"), wrong).unwrap();
    let (code, stdout, stderr) = harness(&project, &["judge", "cf1900a", "wrong.cpp"]);
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
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
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
    let config = project.path().join("judge.toml");
    let toml = read(&config);
    assert!(
        toml.contains("input-file = \"paint.in\"\noutput-file = \"paint.out\"\n"),
        "{toml}"
    );

    std::fs::write(project.path().join("paint.c"), PAINT_C).unwrap();
    let (code, stdout, stderr) = harness(&project, &["judge", "usaco567", "paint.c"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("AC"), "{stdout}");

    // The right answer, but on stdout: the judge reads paint.out, which is not there.
    let to_stdout = PAINT_C.replace("fopen(\"paint.out\", \"w\")", "stdout");
    std::fs::write(project.path().join("stdout.c"), to_stdout).unwrap();
    let (code, stdout, stderr) = harness(&project, &["judge", "usaco567", "stdout.c"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("WA"), "{stdout}");
    assert!(
        stdout.contains("no output file `paint.out`: the program did not write it"),
        "{stdout}"
    );
    // Nothing the programs wrote lands in the workspace.
    assert!(!project.path().join("paint.out").exists());
}

#[test]
fn an_atcoder_problem_with_windows_line_endings() {
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
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
    let cases = project.path().join("cases/abc311_a");
    assert_eq!(read(cases.join("sample-1.in")), "5\nACABB\n");
    assert_eq!(read(cases.join("sample-1.ans")), "4\n");
    // A missing final newline is added, as the judges' own files have one.
    assert_eq!(read(cases.join("sample-3.ans")), "17\n");
    let toml = read(project.path().join("judge.toml"));
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
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
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
    assert!(project.path().join("cases/cf1873e").is_dir());
    // judge.toml too lists them in contest order, not in the order they arrived.
    let toml = read(project.path().join("judge.toml"));
    let places: Vec<usize> = "abcdef"
        .chars()
        .map(|letter| {
            toml.find(&format!("[problems.cf1873{letter}]"))
                .unwrap_or_else(|| panic!("no cf1873{letter}: {toml}"))
        })
        .collect();
    assert!(places.is_sorted(), "{toml}");
    assert!(
        toml.contains("\n\n[problems.cf1873b]\n"),
        "spacing kept: {toml}"
    );

    // Judging the interactive one says it cannot, instead of giving a verdict.
    let config = project.path().join("judge.toml");
    assert!(read(&config).contains("[problems.cf1873d]\ntitle = \"D. Problem d\"\nurl = \"https://codeforces.com/contest/1873/problem/D\"\ntime-limit = \"1s\"\nmemory-limit = \"256MiB\"\ninteractive = true\n"));
    std::fs::write(project.path().join("d.c"), "int main(void) { return 0; }\n").unwrap();
    let (code, stdout, stderr) = harness(&project, &["judge", "cf1873d", "d.c"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "problem `cf1873d` is interactive but names no `interactor`, so no verdict can be given"
        ),
        "{stderr}"
    );
    // `harness run` has nothing to run: every problem lacks a solution, and says so.
    let (code, _, stderr) = harness(&project, &["run"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("problem `cf1873a` has no `solution`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("problem `cf1873d` is interactive"),
        "{stderr}"
    );

    // Sources named after the problems (as --template makes them) are what `run` judges on
    // the samples, the newest of each: an older wrong one of cf1873a is not the one.
    let sum = "a = input()\nb = input().split()\nprint(int(b[0]) + int(b[1]))\n";
    std::fs::write(
        project.path().join("cf1873a.c"),
        "int main(void) { return 1; }\n",
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(50));
    std::fs::write(project.path().join("cf1873a.py"), sum).unwrap();
    std::fs::write(
        project.path().join("cf1873b.py"),
        "input()\ninput()\nprint(0)\n",
    )
    .unwrap();
    let (code, stdout, stderr) = harness(&project, &["run", "-p", "cf1873a", "-p", "cf1873b"]);
    assert_eq!(code, 1, "cf1873b is wrong: {stdout}{stderr}");
    assert!(
        stderr.contains("problem `cf1873a` has no `solution`: judging `cf1873a.py`, the newest source named after it"),
        "{stderr}"
    );
    assert!(stdout.contains("cf1873a: 3/3 AC"), "{stdout}");
    assert!(stdout.contains("cf1873b: 0/2 AC"), "{stdout}");
}

#[test]
fn a_duplicate_gets_a_new_id_and_ctrl_c_stops_cleanly() {
    let project = Project::new();
    // The user's own files: a judge.toml with a comment, and a problem of the same id.
    let config = project.path().join("judge.toml");
    let mine = "# my practice problems\n[problems.cf1900a]\ntitle = \"mine\"\n";
    std::fs::write(&config, mine).unwrap();
    std::fs::create_dir_all(project.path().join("cases/cf1900a")).unwrap();
    std::fs::write(project.path().join("cases/cf1900a/mine.in"), "1\n").unwrap();
    // A template for solutions, and a solution the user already started.
    std::fs::write(project.path().join("template.cpp"), "// template\n").unwrap();
    std::fs::write(project.path().join("cf1900a-3.cpp"), "// mine\n").unwrap();

    let listener = Listener::start(&project, &["--template", "template.cpp"]);
    let (status, body) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("`cf1900a-2`"), "{body}");
    // The same page sent again updates the problem it made, rather than a copy.
    let (status, body) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("`cf1900a-2`"), "{body}");
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
    assert!(toml.contains("[problems.cf1900a-2]") && !toml.contains("[problems.cf1900a-3]"));
    assert_eq!(read(project.path().join("cases/cf1900a/mine.in")), "1\n");
    assert!(!project.path().join("cases/cf1900a/sample-1.in").exists());
    assert!(project.path().join("cases/cf1900a-2/sample-1.in").is_file());
    assert!(!project.path().join("cases/cf1900a-3").exists());
    assert!(
        stdout.contains("sent again: its samples replaced"),
        "{stdout}"
    );
    assert_eq!(read(project.path().join("cf1900a-2.cpp")), "// template\n");
    assert_eq!(read(project.path().join("cf1900a-3.cpp")), "// mine\n");
    assert!(
        stdout.contains("solution `cf1900a-2.cpp` made from the template"),
        "{stdout}"
    );
    assert!(
        stdout.contains("`cf1900a-2.cpp` is there already: kept as it is"),
        "{stdout}"
    );
}

#[test]
fn malformed_json_and_an_empty_body_are_refused_and_write_nothing() {
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
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
    assert!(!project.path().join("judge.toml").exists());
    assert!(!project.path().join("cases").exists());

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
    let project = Project::new();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, stdout, stderr) = harness(&project, &["listen", "--port", &port]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "port {port} is in use: another program is listening there"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("--port"), "{stderr}");
    assert!(!project.path().join("judge.toml").exists());
}

#[test]
fn a_problem_from_an_unknown_site_is_named_from_its_title() {
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
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
    let toml = read(project.path().join("judge.toml"));
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
    let project = Project::new();
    let listener = Listener::start(&project, &["--once", "--batch-timeout", "1s"]);
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
    let project = Project::new();
    let config = project.path().join("judge.toml");
    let broken = "[problems.a\ntitle = 1\n";
    std::fs::write(&config, broken).unwrap();
    let listener = Listener::start(&project, &[]);

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
    assert!(!project.path().join("cases/cf1900a").exists());
}

#[test]
fn a_codeforces_yes_no_problem_accepts_any_case() {
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
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
        project.path().join("w.py"),
        "w = int(input())\nprint('yes' if w > 2 and w % 2 == 0 else 'no')\n",
    )
    .unwrap();
    let (code, stdout, stderr) = harness(&project, &["judge", "cf4a", "w.py"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

#[test]
fn the_template_comes_from_the_user_config() {
    let project = Project::new();
    let config_dir = project.config_home().join("harness");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(
        config_dir.join("config.toml"),
        "[defaults]\ntemplate = \"main.py\"\n",
    )
    .unwrap();
    std::fs::write(config_dir.join("main.py"), "import sys\n").unwrap();
    let listener = Listener::start(&project, &["--once"]);
    let (status, _) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200);
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert_eq!(read(project.path().join("cf1900a.py")), "import sys\n");

    // A template the config names but that is not there stops listen before it binds.
    std::fs::remove_file(config_dir.join("main.py")).unwrap();
    let (code, _, stderr) = harness(&project, &["listen", "--port", "0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("cannot read template") && stderr.contains("named by `template` in"),
        "{stderr}"
    );
}

/// Codeforces 1900A again, at another problem's URL (so another id).
fn problem_at(url: &str) -> Vec<u8> {
    let mut problem = codeforces_1900a();
    problem["url"] = json!(url);
    problem["batch"] = serde_json::Value::Null;
    problem.to_string().into_bytes()
}

#[test]
fn competitive_companion_is_received_with_the_headers_chrome_and_firefox_send() {
    let project = Project::new();
    let listener = Listener::start(&project, &[]);
    let port = listener.port;
    // The extension's fetch() from its background (src/hosts/Host.ts, CustomHost.ts): POST
    // to http://localhost:PORT/ with Content-Type application/json; the browser adds the rest,
    // its extension Origin included.
    let chrome = |length: usize| {
        format!(
            "POST / HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: keep-alive\r\nContent-Length: {length}\r\nsec-ch-ua-platform: \"Linux\"\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36\r\nsec-ch-ua: \"Not)A;Brand\";v=\"8\", \"Chromium\";v=\"138\", \"Google Chrome\";v=\"138\"\r\nContent-Type: application/json\r\nsec-ch-ua-mobile: ?0\r\nAccept: */*\r\nOrigin: chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl\r\nSec-Fetch-Site: none\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Dest: empty\r\nAccept-Encoding: gzip, deflate, br, zstd\r\nAccept-Language: en-US,en;q=0.9\r\n\r\n"
        )
    };
    let firefox = |origin: &str, length: usize| {
        format!(
            "POST / HTTP/1.1\r\nHost: localhost:{port}\r\nUser-Agent: Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0\r\nAccept: */*\r\nAccept-Language: en-US,en;q=0.5\r\nAccept-Encoding: gzip, deflate, br, zstd\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n{origin}Connection: keep-alive\r\nSec-Fetch-Dest: empty\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Site: same-origin\r\nPriority: u=4\r\n\r\n"
        )
    };
    let a = problem_at("https://codeforces.com/contest/1900/problem/A");
    let (status, body) = request(port, &chrome(a.len()), &a);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("received as `cf1900a`"), "{body}");
    let b = problem_at("https://codeforces.com/contest/1900/problem/B");
    let origin = "Origin: moz-extension://1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d\r\n";
    let (status, body) = request(port, &firefox(origin, b.len()), &b);
    assert_eq!((status, body.trim()), (200, "received as `cf1900b`"));
    // Firefox may leave the Origin out (it no longer tells sites the extension's id).
    let c = problem_at("https://codeforces.com/contest/1900/problem/C");
    let (status, body) = request(port, &firefox("", c.len()), &c);
    assert_eq!((status, body.trim()), (200, "received as `cf1900c`"));
    // Any loopback name, with or without the port.
    for (host, letter) in [
        ("127.0.0.1:{port}", 'D'),
        ("[::1]", 'E'),
        ("localhost", 'F'),
    ] {
        let problem = problem_at(&format!(
            "https://codeforces.com/contest/1900/problem/{letter}"
        ));
        let head = format!(
            "POST / HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
            host.replace("{port}", &port.to_string()),
            problem.len()
        );
        let (status, body) = request(port, &head, &problem);
        assert_eq!(status, 200, "{host}: {body}");
    }
    // A browser pointed at the port is told what it is.
    let (status, body) = request(port, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", b"");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("listening for problems"), "{body}");
    let (exit, stdout, stderr) = listener.interrupt();
    assert_eq!(exit.code(), Some(130), "{stdout}{stderr}");
    assert!(!stderr.contains("refused"), "{stderr}");
    for id in [
        "cf1900a", "cf1900b", "cf1900c", "cf1900d", "cf1900e", "cf1900f",
    ] {
        assert!(
            project.path().join("cases").join(id).is_dir(),
            "{id}: {stdout}"
        );
    }
}

#[test]
fn a_web_page_cannot_send_problems_and_is_told_why() {
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
    let port = listener.port;
    let body = codeforces_1900a().to_string();
    let with = |headers: &str| {
        format!(
            "POST / HTTP/1.1\r\n{headers}Content-Length: {}\r\n\r\n",
            body.len()
        )
    };
    let host = format!("Host: localhost:{port}\r\n");
    let rows = [
        // A page's simple request: no preflight, so the browser sends it as it is.
        (
            format!(
                "{host}Origin: https://evil.example\r\nContent-Type: text/plain;charset=UTF-8\r\n"
            ),
            403,
            "Origin `https://evil.example` is a web page, not a browser extension",
        ),
        (
            format!("{host}Origin: https://evil.example\r\nContent-Type: application/json\r\n"),
            403,
            "Origin `https://evil.example`",
        ),
        // A sandboxed frame or a local file.
        (
            format!("{host}Origin: null\r\nContent-Type: application/json\r\n"),
            403,
            "Origin `null`",
        ),
        (
            format!("{host}Content-Type: text/plain;charset=UTF-8\r\n"),
            415,
            "Content-Type `text/plain;charset=UTF-8` is not application/json",
        ),
        (host.clone(), 415, "no Content-Type"),
        (
            format!("{host}Content-Type: application/x-www-form-urlencoded\r\n"),
            415,
            "is not application/json",
        ),
        // DNS rebinding: the page's own name, resolved to 127.0.0.1.
        (
            format!("Host: evil.example:{port}\r\nContent-Type: application/json\r\n"),
            403,
            "Host `evil.example:",
        ),
        (
            "Host: 127.0.0.1.evil.example\r\nContent-Type: application/json\r\n".to_string(),
            403,
            "is not localhost, 127.0.0.1 or [::1]",
        ),
    ];
    for (headers, expected_status, expected) in &rows {
        let (status, answer) = request(port, &with(headers), body.as_bytes());
        assert_eq!(status, *expected_status, "{headers:?}: {answer}");
        assert!(answer.contains(expected), "{headers:?}: {answer}");
        assert!(answer.contains("nothing was written"), "{answer}");
    }
    // A page's preflight for a JSON POST is refused, so the browser never sends the POST.
    let (status, _) = request(
        port,
        &format!("OPTIONS / HTTP/1.1\r\n{host}Origin: https://evil.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n\r\n"),
        b"",
    );
    assert_eq!(status, 403);
    assert!(!project.path().join("judge.toml").exists());
    assert!(!project.path().join("cases").exists());

    // The extension is still heard.
    let (status, _) = listener.post(body.as_bytes());
    assert_eq!(status, 200);
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    let refused: Vec<&str> = stderr.lines().filter(|l| l.contains("refused (")).collect();
    assert_eq!(refused.len(), rows.len() + 1, "{stderr}");
    assert!(
        stderr.contains("refused (403): Origin `https://evil.example` is a web page"),
        "{stderr}"
    );
    assert!(stderr.contains("refused (415): "), "{stderr}");
}

/// Opens a connection that sends the start of a head and then nothing.
fn slow_client(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    stream.write_all(b"POST / HTTP/1.1\r\nHost: loc").unwrap();
    stream
}

#[test]
fn slow_clients_are_cut_off_and_never_hold_up_the_server() {
    let project = Project::new();
    let listener = Listener::start(&project, &[]);
    let port = listener.port;
    // One slow client holds one connection thread, not the server.
    let started = Instant::now();
    let mut slow = slow_client(port);
    let (status, _) = listener.post(&problem_at("https://codeforces.com/contest/1/problem/A"));
    assert_eq!(status, 200);
    let (status, body) = response(&mut slow);
    assert_eq!(status, 408, "{body}");
    assert!(body.contains("did not arrive within 5 s"), "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );

    // Many: those past the pool (8) and its queue (64) are told at once that it is busy; the
    // others are cut off at their deadline, counted from when they came; then the server
    // takes problems again.
    let started = Instant::now();
    let mut slow: Vec<TcpStream> = (0..80).map(|_| slow_client(port)).collect();
    let statuses: Vec<u16> = slow.iter_mut().map(|stream| response(stream).0).collect();
    assert!(
        statuses.iter().all(|s| *s == 408 || *s == 503),
        "{statuses:?}"
    );
    assert!(
        statuses.contains(&503) && statuses.contains(&408),
        "{statuses:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let (status, _) = listener.post(&problem_at("https://codeforces.com/contest/1/problem/B"));
    assert_eq!(status, 200);
    let (exit, stdout, stderr) = listener.interrupt();
    assert_eq!(exit.code(), Some(130), "{stdout}{stderr}");
    assert!(stderr.contains("refused (503): busy"), "{stderr}");
    assert!(stderr.contains("refused (408)"), "{stderr}");
}

/// Starts `command` with `resource` limited to `value`.
fn limit(command: &mut Command, resource: Resource, value: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit(2) is async-signal-safe and nix's wrapper neither allocates nor
    // locks; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            nix::sys::resource::setrlimit(resource, value, value).map_err(std::io::Error::from)
        });
    }
}

#[test]
fn out_of_file_descriptors_the_server_waits_and_goes_on() {
    let project = Project::new();
    // Room for the harness's own descriptors and a few connections.
    let listener = Listener::start_with(&project, &[], |command| {
        limit(command, Resource::RLIMIT_NOFILE, 16);
    });
    let port = listener.port;
    let idle: Vec<TcpStream> = (0..24)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    let started = Instant::now();
    while !listener
        .stderr
        .lock()
        .unwrap()
        .contains("cannot accept connections for now")
    {
        assert!(
            started.elapsed() < DEADLINE,
            "no word of it: {}",
            listener.stderr.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(idle);
    // What waited in the kernel's queue comes in a burst now: a client told 503 tries again.
    let problem = problem_at("https://codeforces.com/contest/1/problem/A");
    let (mut status, mut body) = listener.post(&problem);
    for _ in 0..50 {
        if status != 503 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        (status, body) = listener.post(&problem);
    }
    assert_eq!(status, 200, "{body}");
    let (exit, stdout, stderr) = listener.interrupt();
    assert_eq!(exit.code(), Some(130), "{stdout}{stderr}");
    assert!(
        stderr.contains("refused (503): cannot accept connections for now: Too many open files"),
        "{stderr}"
    );
    assert!(stdout.contains("received `cf1a`"), "{stdout}");
}

#[test]
fn a_server_that_cannot_make_its_threads_says_why_and_stops() {
    // As a user other than root, whom RLIMIT_NPROC holds: one process, no thread more.
    // SAFETY: geteuid cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let nobody_can_run_it = root
        && Command::new("setpriv")
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--",
                "test",
                "-x",
                HARNESS,
            ])
            .status()
            .is_ok_and(|status| status.success());
    if !nobody_can_run_it {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: a_server_that_cannot_make_its_threads_says_why_and_stops: needs root, setpriv, and a harness binary that `nobody` may run"
        );
        return;
    }
    let project = Project::new();
    std::fs::set_permissions(
        project.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let mut command = Command::new("setpriv");
    command
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            HARNESS,
        ])
        .args(["listen", "--port", "0", "--dir"])
        .arg(project.path())
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .env("HOME", project.path())
        .env("XDG_CONFIG_HOME", project.path().join(".xdg"))
        .stdin(Stdio::null());
    limit(&mut command, Resource::RLIMIT_NPROC, 1);
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr
            .contains("error: cannot start the server's threads: Resource temporarily unavailable"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("internal error"),
        "{stderr}"
    );
}

#[test]
fn an_id_from_a_url_never_starts_with_a_dash() {
    let project = Project::new();
    let listener = Listener::start(&project, &["--once"]);
    let (status, body) = listener.post(&problem_at("https://open.kattis.com/problems/--help"));
    assert_eq!((status, body.trim()), (200, "received as `help`"));
    let (exit, stdout, stderr) = listener.wait();
    assert!(exit.success(), "{stdout}{stderr}");
    assert!(read(project.path().join("judge.toml")).contains("[problems.help]"));
    // A name every command takes as a problem, not as an option.
    std::fs::write(project.path().join("sol.cpp"), COVER_IN_WATER_CPP).unwrap();
    let (code, stdout, stderr) = harness(&project, &["judge", "help", "sol.cpp"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

#[test]
fn a_flood_of_samples_is_refused_at_once_writing_nothing_and_the_next_problem_is_received() {
    let project = Project::new();
    let listener = Listener::start(&project, &[]);
    // 6 MB: under the body's bound, and 400,000 files had it been taken (an old harness
    // wrote them on the serving thread for 17 minutes; DEADLINE cuts this test short).
    let mut flood = codeforces_1900a();
    flood["tests"] = json!(vec![json!({"input": "1\n", "output": "1\n"}); 200_000]);
    let (status, body) = listener.post_json(&flood);
    assert_eq!(status, 413, "{body}");
    assert!(
        body.contains("problem `A. Cover in Water` (https://codeforces.com/contest/1900/problem/A) has 200000 samples, more than the 1000 a problem may have"),
        "{body}"
    );
    assert!(body.contains("nothing was written"), "{body}");
    // One sample of 5 MiB: more than a problem's samples may hold.
    let mut large = codeforces_1900a();
    large["tests"] = json!([{"input": "7".repeat(5 << 20), "output": "1\n"}]);
    let (status, body) = listener.post_json(&large);
    assert_eq!(status, 413, "{body}");
    assert!(
        body.contains("5.0 MiB of samples, more than the 4 MiB"),
        "{body}"
    );
    assert!(!project.path().join("judge.toml").exists());
    assert!(!project.path().join("cases").exists());

    let (status, body) = listener.post_json(&codeforces_1900a());
    assert_eq!(status, 200, "{body}");
    let (exit, stdout, stderr) = listener.interrupt();
    assert_eq!(exit.code(), Some(130), "{stdout}{stderr}");
    assert!(stderr.contains("refused (413)"), "{stderr}");
    assert!(project.path().join("cases/cf1900a/sample-1.in").is_file());
    assert!(!project.path().join("cases/cf1900a/sample-2.in").exists());
}
