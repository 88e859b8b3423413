//! `harness serve --http` and `--receive` over real TCP: the live page and its event stream
//! as a browser asks for them (and as a web page of another site, or a rebinding name, must
//! not), the catch-up by `Last-Event-ID`, readers that go away; and a Competitive Companion
//! POST told to every client as `problem.received`. The server is a real process driven on
//! its stdin (tests/common/serve.rs).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::project::Project;
use common::serve::{stdio_with, Client, Piped, PATIENCE};
use serde_json::{json, Value};

/// Right on `1 2`, wrong on `5 1` (one too many).
const OFF_BY_ONE: &str = "a, b = map(int, input().split())\nprint(a + b + (1 if a == 5 else 0))\n";

fn practice() -> Project {
    Project::new()
        .file("a.py", OFF_BY_ONE)
        .file("test/1.in", "1 2\n")
        .file("test/1.ans", "3\n")
        .file("test/2.in", "5 1\n")
        .file("test/2.ans", "6\n")
}

fn live(project: &Project) -> (Piped, u16) {
    let server = stdio_with(project, &["--http", "0"]);
    let port = server.port("live page on");
    (server, port)
}

/// Sends `head` as it is; the status, the headers and the body of the answer (the server
/// closes the connection after it).
fn request(port: u16, head: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the live page accepts");
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"));
    (status, head.to_string(), body.to_string())
}

fn get(port: u16, path: &str, headers: &str) -> (u16, String, String) {
    request(
        port,
        &format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Connection: close\r\n\r\n"
        ),
    )
}

/// The status of a `GET /events`, read without waiting for the stream (which does not end).
fn events_status(port: u16) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(
        stream,
        "GET /events?since=999999 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .unwrap();
    let mut status = String::new();
    BufReader::new(stream).read_line(&mut status).unwrap();
    status
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {status:?}"))
}

/// An open `GET /events`, read frame by frame.
struct Stream {
    reader: BufReader<TcpStream>,
}

impl Stream {
    fn open(port: u16, headers: &str, path: &str) -> Stream {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: localhost:{port}\r\nAccept: text/event-stream\r\n{headers}\r\n"
        )
        .unwrap();
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        let mut kind = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            if line.to_ascii_lowercase().starts_with("content-type:") {
                kind = line;
            }
        }
        assert!(kind.contains("text/event-stream"), "{kind}");
        Stream { reader }
    }

    /// The next event: its `id` and its data as JSON (comments and `retry` skipped).
    fn next(&mut self) -> (u64, Value) {
        let (mut id, mut data) = (None, None);
        loop {
            let mut line = String::new();
            let read = self.reader.read_line(&mut line).unwrap();
            assert!(read > 0, "the stream ended");
            let line = line.trim_end_matches('\n');
            if line.is_empty() {
                if let (Some(id), Some(data)) = (id, data.take()) {
                    return (id, data);
                }
                continue;
            }
            if let Some(value) = line.strip_prefix("id: ") {
                id = Some(value.parse().unwrap());
            } else if let Some(value) = line.strip_prefix("data: ") {
                data = Some(serde_json::from_str(value).unwrap());
            }
        }
    }
}

/// Judges `a.py` through the protocol; its events, the last its `task.finished`.
fn judge(client: &mut Client, project: &Project) -> Vec<Value> {
    let task = client.result(
        "judge",
        &json!({"source": project.join("a.py"), "all": true}),
    )["task"]
        .clone();
    client.until(&task, "task.finished");
    client.of_task(&task)
}

#[test]
fn the_page_and_its_events_are_served_to_loopback_names_and_nothing_else() {
    let project = practice();
    let (mut server, port) = live(&project);
    let hello = server.client.result("initialize", &json!({}));
    assert_eq!(
        hello["capabilities"]["live_page"],
        format!("http://127.0.0.1:{port}/")
    );
    let (status, head, page) = get(port, "/", "");
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("Content-Type: text/html"), "{head}");
    assert!(head.contains("connect-src 'self'"), "{head}");
    assert!(page.contains("<title>harness · live</title>"), "{page}");
    let by_name = |host: &str| {
        request(
            port,
            &format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        )
    };
    assert_eq!(by_name(&format!("localhost:{port}")).0, 200);
    assert_eq!(by_name(&format!("[::1]:{port}")).0, 200);
    // DNS rebinding: a site's own name, resolved to 127.0.0.1.
    let (status, _, said) = by_name(&format!("evil.example:{port}"));
    assert_eq!(status, 403, "{said}");
    assert!(said.contains("DNS rebinding"), "{said}");
    let (status, _, said) = request(port, "GET / HTTP/1.0\r\n\r\n");
    assert_eq!(status, 403, "{said}");
    // A page of another site reading the events across origins.
    let (status, _, said) = get(port, "/events", "Origin: https://evil.example\r\n");
    assert_eq!(status, 403, "{said}");
    assert!(said.contains("evil.example"), "{said}");
    let (status, _, said) = get(port, "/events", "Origin: null\r\n");
    assert_eq!(status, 403, "{said}");
    // Nothing over HTTP starts a task: a JSON-RPC request POSTed is refused, and so is
    // every other method and path.
    let judge_request = json!({"jsonrpc": "2.0", "id": 1, "method": "judge",
        "params": {"source": project.join("a.py")}})
    .to_string();
    for path in ["/", "/events", "/judge"] {
        let (status, head, said) = request(
            port,
            &format!(
                "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{judge_request}",
                judge_request.len()
            ),
        );
        assert_eq!(status, 405, "{path}: {said}");
        assert!(head.contains("Allow: GET"), "{head}");
    }
    for method in ["PUT", "DELETE", "OPTIONS"] {
        let (status, _, said) = request(
            port,
            &format!(
                "{method} /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
            ),
        );
        assert_eq!(status, 405, "{method}: {said}");
    }
    for path in ["/judge", "/events/1", "/index.html", "/../etc/passwd"] {
        let (status, _, said) = get(port, path, "");
        assert_eq!(status, 404, "{path}: {said}");
    }
    let (status, _, said) = get(port, "/events?since=soon", "");
    assert_eq!(status, 400, "{said}");
    let events = server.client.result("events", &json!({"since": 0}));
    assert_eq!(
        events["events"],
        json!([]),
        "an HTTP request started something"
    );
    assert_eq!(
        server.client.result("tasks", &json!({})),
        json!({"tasks": []})
    );
    // The page's own origin reads them.
    Stream::open(
        port,
        &format!("Origin: http://127.0.0.1:{port}\r\n"),
        "/events",
    );
}

#[test]
fn the_stream_catches_up_from_last_event_id_then_tells_each_event_as_it_comes() {
    let project = practice();
    let (mut server, port) = live(&project);
    let first = judge(&mut server.client, &project);
    let seqs: Vec<u64> = first.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert!(seqs.len() >= 4, "{first:?}");
    // A browser that had seen up to the second event reconnects.
    let mut stream = Stream::open(
        port,
        &format!("Last-Event-ID: {}\r\n", seqs[1]),
        "/events?since=0",
    );
    for event in &first[2..] {
        let (id, data) = stream.next();
        assert_eq!((id, &data), (event["seq"].as_u64().unwrap(), event));
    }
    // A new page asks from a number.
    let mut fresh = Stream::open(port, "", &format!("/events?since={}", seqs[0]));
    assert_eq!(fresh.next().1, first[1]);
    // Then live: the next task's events, as the protocol's clients get them.
    let second = judge(&mut server.client, &project);
    for event in &second {
        let (id, data) = stream.next();
        assert_eq!(id, event["seq"].as_u64().unwrap());
        assert_eq!(&data, event);
    }
    assert_eq!(second.last().unwrap()["verdict"], "WA");
    let wrong = second
        .iter()
        .find(|e| e["kind"] == "case.finished" && e["verdict"] == "WA")
        .unwrap();
    assert_eq!(
        (wrong["expected"].as_str(), wrong["received"].as_str()),
        (Some("6"), Some("7"))
    );
}

#[test]
fn readers_that_go_away_free_their_place_and_hold_nothing_up() {
    let project = practice();
    let (mut server, port) = live(&project);
    // As many readers as are served at once, none of which reads a byte after its head.
    let readers: Vec<Stream> = (0..32).map(|_| Stream::open(port, "", "/events")).collect();
    assert_eq!(events_status(port), 503);
    // The page itself is still served, and the protocol goes on.
    assert_eq!(get(port, "/", "").0, 200);
    drop(readers);
    // Their threads find out on the next writes: a task's events.
    let events = judge(&mut server.client, &project);
    assert_eq!(events.last().unwrap()["verdict"], "WA");
    let mut freed = false;
    for _ in 0..600 {
        if events_status(port) == 200 {
            freed = true;
            break;
        }
        // More events to write, for threads that have not written twice yet.
        judge(&mut server.client, &project);
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(freed, "readers that went away still hold their places");
}

/// Codeforces 1900A as Competitive Companion sends it.
fn codeforces_1900a() -> Value {
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
        "languages": {"java": {"mainClass": "Main", "taskClass": "ACoverInWater"}}
    })
}

#[test]
fn a_problem_competitive_companion_posts_is_stored_and_told_to_every_client() {
    let project = practice();
    let workspace = project.join("ws");
    let mut server = stdio_with(
        &project,
        &[
            "--http",
            "0",
            "--receive",
            "0",
            "--dir",
            workspace.to_str().unwrap(),
        ],
    );
    let http = server.port("live page on");
    let port = server.port("receiving problems");
    let hello = server.client.result("initialize", &json!({}));
    assert_eq!(hello["capabilities"]["problem_received"], true);
    assert_eq!(hello["capabilities"]["receive_port"], port);
    let mut page = Stream::open(http, "", "/events");
    let body = codeforces_1900a().to_string();
    let (status, _, said) = request(
        port,
        &format!(
            "POST / HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nOrigin: chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    assert_eq!(status, 200, "{said}");
    assert!(said.contains("received as `cf1900a`"), "{said}");
    let event = loop {
        let value = server.client.next();
        if value["method"] == "event" && value["params"]["kind"] == "problem.received" {
            break value["params"].clone();
        }
    };
    assert_eq!(event["problem"], "cf1900a");
    assert_eq!(event["title"], "A. Cover in Water");
    assert_eq!(
        event["url"],
        "https://codeforces.com/contest/1900/problem/A"
    );
    assert_eq!(event["samples"], 1);
    assert_eq!(event["time_limit_ms"], 1000);
    assert_eq!(event["memory_kib"], 256 * 1024);
    assert_eq!(event["task"], Value::Null);
    let cases = std::path::PathBuf::from(event["cases"].as_str().unwrap());
    assert_eq!(cases, workspace.join("cases/cf1900a"));
    assert_eq!(
        std::fs::read_to_string(cases.join("sample-1.ans")).unwrap(),
        "2\n2\n5\n0\n2\n"
    );
    assert_eq!(
        std::path::Path::new(event["config"].as_str().unwrap()),
        workspace.join("judge.toml")
    );
    assert!(std::fs::read_to_string(workspace.join("judge.toml"))
        .unwrap()
        .contains("cf1900a"));
    // Every field it sends is on the protocol page, under its kind or among every event's.
    let book = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/src/reference/protocol.md"),
    )
    .unwrap();
    let section = book
        .split("### `problem.received`")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a problem.received section on the protocol page");
    let common = book.split("### `task.started`").next().unwrap();
    for key in event.as_object().unwrap().keys() {
        let row = format!("| `{key}` |");
        assert!(
            section.contains(&row) || common.contains(&row),
            "problem.received sends `{key}`, which the protocol page does not name"
        );
    }
    // The page hears of it too, the same event.
    assert_eq!(page.next().1, event);
    // The problem received is judged by its id at once.
    std::fs::write(workspace.join("cf1900a.py"), "print(0)\n").unwrap();
    let task = server.client.result(
        "judge",
        &json!({"source": workspace.join("cf1900a.py"), "problem": "cf1900a"}),
    )["task"]
        .clone();
    assert_eq!(server.client.until(&task, "task.finished")["verdict"], "WA");
}

#[test]
fn a_port_in_use_is_the_command_s_error() {
    let project = practice();
    let taken = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = common::serve::server_command(&project)
        .args(["--http", &port])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains(&format!("port {port} is in use")), "{said}");
}
