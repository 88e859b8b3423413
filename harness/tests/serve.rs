//! `harness serve` driven as an editor drives it: a real server process, real requests on its
//! stdin or its Unix socket, the answers and events read back line by line. Each test makes
//! its project with the shared builder; the server is a long-running child with pipes, which
//! assert_cmd's one-shot `Command` cannot drive, so it is started by hand with the same
//! environment as `Project::harness` (its own build cache, no colors).

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::project::Project;
use common::serve::{assert_seq_increases, kinds, server_command, socket, stdio, Client};
use serde_json::{json, Value};

const SUM: &str = "a, b = map(int, input().split())\nprint(a + b)\n";
const SLEEPER: &str = "import time\ntime.sleep(600)\n";

/// A folder of cases beside the sources, as `oj` downloads them: three cases, the third of
/// which `SUM` gets wrong.
fn practice() -> Project {
    Project::new()
        .file("a.py", SUM)
        .file("sleep.py", SLEEPER)
        .file("test/1.in", "1 2\n")
        .file("test/1.ans", "3\n")
        .file("test/2.in", "20 22\n")
        .file("test/2.ans", "42\n")
        .file("test/3.in", "2 2\n")
        .file("test/3.ans", "5\n")
}

#[test]
fn stdio_judges_a_source_and_tells_each_case_in_order() {
    let project = practice();
    let mut server = stdio(&project);
    let client = &mut server.client;
    let hello = client.result("initialize", &json!({"client": "tests"}));
    assert_eq!(hello["protocol"], "harness-serve");
    assert_eq!(hello["version"], 1);
    let source = project.join("a.py");
    let task = client.result("judge", &json!({"source": source, "all": true}))["task"].clone();
    let finished = client.until(&task, "task.finished");
    let events = client.of_task(&task);
    assert_eq!(
        kinds(&events),
        [
            "task.started",
            "compile.finished",
            "case.finished",
            "case.finished",
            "case.finished",
            "task.finished"
        ]
    );
    assert_seq_increases(&events);
    assert_eq!(events[0]["cases"], json!(["1", "2", "3"]));
    assert_eq!(events[1]["ok"], true);
    let cases: Vec<(&str, &str)> = events[2..5]
        .iter()
        .map(|e| (e["case"].as_str().unwrap(), e["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(cases, [("1", "AC"), ("2", "AC"), ("3", "WA")]);
    let wrong = &events[4];
    assert_eq!(wrong["expected"], "5");
    assert_eq!(wrong["received"], "4");
    assert_eq!(wrong["input"], "2 2");
    assert!(
        wrong["diff"].as_str().unwrap().contains("- 1   │ 5"),
        "{wrong}"
    );
    assert!(
        wrong["time_ms"].is_u64() && wrong["memory_kib"].is_u64(),
        "{wrong}"
    );
    assert_eq!(finished["verdict"], "WA");
    assert_eq!(finished["counts"], json!({"AC": 2, "WA": 1}));
    assert_eq!(finished["done"], true);
    assert_eq!(client.result("shutdown", &json!({})), json!({}));
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_compile_error_comes_with_where_the_compiler_pointed() {
    let project = practice().file(
        "bad.cpp",
        "int main() {\n    int x = 1;\n    return y;\n}\n",
    );
    let mut server = stdio(&project);
    let client = &mut server.client;
    let task = client.result("judge", &json!({"source": project.join("bad.cpp")}))["task"].clone();
    let compiled = client.until(&task, "compile.finished");
    let finished = client.until(&task, "task.finished");
    assert_eq!(compiled["ok"], false);
    let diagnostic = &compiled["diagnostics"][0];
    assert!(
        diagnostic["file"].as_str().unwrap().ends_with("bad.cpp"),
        "{compiled}"
    );
    assert_eq!(
        (diagnostic["line"].as_u64(), diagnostic["severity"].as_str()),
        (Some(3), Some("error"))
    );
    assert!(diagnostic["column"].as_u64().unwrap() > 0, "{compiled}");
    assert!(
        diagnostic["text"].as_str().unwrap().contains('y'),
        "{compiled}"
    );
    assert_eq!(finished["verdict"], "CE");
    assert!(client
        .of_task(&task)
        .iter()
        .all(|e| e["kind"] != "case.finished"));
}

#[test]
fn bad_lines_are_answered_and_the_next_one_is_served() {
    let project = practice();
    let mut server = stdio(&project);
    let client = &mut server.client;
    client.send_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \n");
    assert_eq!(client.next()["error"]["code"], -32700);
    client.send_raw(b"[1, 2]\n");
    assert_eq!(client.next()["error"]["code"], -32600);
    let unknown = client.call("judge.everything", &json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    let wrong_type = client.call("judge", &json!({"source": 5}));
    assert_eq!(wrong_type["error"]["code"], -32602);
    assert_eq!(wrong_type["error"]["data"]["field"], "source");
    let missing = client.call("judge", &json!({}));
    assert_eq!(missing["error"]["data"]["field"], "source");
    let extra = client.call("events", &json!({"since": 0, "sinse": 1}));
    assert_eq!(extra["error"]["data"]["field"], "sinse");
    let bad_limit = client.call("judge", &json!({"source": "a.py", "time_limit": "soon"}));
    assert_eq!(bad_limit["error"]["data"]["field"], "time_limit");
    // Two MiB on one line, twice the bound: refused, and the server reads on.
    let mut long =
        b"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"initialize\",\"params\":{\"client\":\""
            .to_vec();
    long.extend(std::iter::repeat_n(b'x', 2 << 20));
    long.extend(b"\"}}\n");
    client.send_raw(&long);
    let refused = client.next();
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("refused"));
    assert_eq!(
        client.result("initialize", &json!({}))["protocol"],
        "harness-serve"
    );
    let cancel = client.call("cancel", &json!({"task": 12345}));
    assert_eq!(cancel["error"]["code"], -32001);
}

#[test]
fn cancel_ends_a_sleeping_task_cancelled_without_a_verdict() {
    let project = practice();
    let mut server = stdio(&project);
    let client = &mut server.client;
    let task = client.result(
        "judge",
        &json!({"source": project.join("sleep.py"), "time_limit": "60s"}),
    )["task"]
        .clone();
    client.until(&task, "compile.finished");
    // Its first case is running (or about to): the sleeper is killed, not waited for.
    assert_eq!(
        client.result("cancel", &json!({"task": task})),
        json!({"cancelled": true})
    );
    let finished = client.until(&task, "task.finished");
    assert_eq!(finished["cancelled"], true, "{finished}");
    assert_eq!(finished["verdict"], Value::Null);
    assert_eq!(finished["done"], true);
    assert!(client
        .of_task(&task)
        .iter()
        .all(|e| e["kind"] != "case.finished"));
    assert_eq!(client.result("tasks", &json!({})), json!({"tasks": []}));
    // Cancelling what has ended says so, and is no error.
    assert_eq!(
        client.result("cancel", &json!({"task": task})),
        json!({"cancelled": false})
    );
}

#[test]
fn two_clients_share_a_socket_and_one_that_comes_back_catches_up() {
    let project = practice();
    let server = socket(&project);
    let mode = std::fs::metadata(&server.path)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let mut first = Client::on_socket(&server.path);
    let mut second = Client::on_socket(&server.path);
    let task = first.result(
        "judge",
        &json!({"source": project.join("a.py"), "all": true, "keep": true}),
    )["task"]
        .clone();
    // The first window goes away at once; its task was asked to outlive it.
    drop(first);
    let finished = second.until(&task, "task.finished");
    assert_eq!(finished["verdict"], "WA");
    let watched = second.of_task(&task);
    // A window opened later asks what it missed.
    let mut third = Client::on_socket(&server.path);
    let caught = third.result("events", &json!({"since": 0, "task": task}));
    assert_eq!(caught["complete"], true);
    let caught = caught["events"].as_array().unwrap().clone();
    assert_eq!(caught, watched);
    assert_seq_increases(&caught);
    let last = caught.last().unwrap()["seq"].as_u64().unwrap();
    let since = third.result("events", &json!({"since": last - 2}));
    assert_eq!(since["events"].as_array().unwrap().len(), 2);
    assert_eq!(since["next"], last + 1);
}

#[test]
fn a_client_that_goes_cancels_only_its_own_tasks() {
    let project = practice();
    let server = socket(&project);
    let mut leaving = Client::on_socket(&server.path);
    let mut staying = Client::on_socket(&server.path);
    let sleep = json!({"source": project.join("sleep.py"), "time_limit": "60s"});
    let theirs = leaving.result("judge", &sleep)["task"].clone();
    let mine = staying.result("judge", &sleep)["task"].clone();
    staying.until(&theirs, "compile.finished");
    staying.until(&mine, "compile.finished");
    drop(leaving);
    let finished = staying.until(&theirs, "task.finished");
    assert_eq!(finished["cancelled"], true, "{finished}");
    let running = staying.result("tasks", &json!({}));
    assert_eq!(
        running["tasks"],
        json!([{"task": mine, "yours": true, "keep": false}])
    );
    staying.result("cancel", &json!({"task": mine}));
    assert_eq!(staying.until(&mine, "task.finished")["cancelled"], true);
}

#[test]
fn the_socket_replaces_a_stale_file_refuses_a_live_one_and_goes_on_shutdown_and_sigterm() {
    let project = practice();
    let path = project.join("harness.sock");
    // A server that died left its socket file behind.
    drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    assert!(path.exists());
    let server = socket(&project);
    let second = server_command(&project)
        .arg("--socket")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(said.contains("already listening"), "{said}");
    let mut client = Client::on_socket(&server.path);
    assert_eq!(client.result("shutdown", &json!({})), json!({}));
    let mut server = server;
    assert!(server.child.wait().unwrap().success());
    assert!(!path.exists(), "the socket file is removed on shutdown");

    let mut server = socket(&project);
    let pid = nix::unistd::Pid::from_raw(server.child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let status = server.child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert!(!path.exists(), "the socket file is removed on SIGTERM");
}

/// The protocol page, read into what it names: the methods (`### \`name\`` under
/// `## Methods`), the event kinds with the fields of each (the table under each `###` of
/// `## Events`; the first table there holds the fields every event has), the error codes.
struct Page {
    methods: Vec<String>,
    kinds: Vec<String>,
    common_fields: Vec<String>,
    fields: std::collections::BTreeMap<String, Vec<String>>,
    codes: Vec<i64>,
}

fn read_page() -> Page {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/src/reference/protocol.md");
    let text = std::fs::read_to_string(&path).expect("docs/src/reference/protocol.md");
    let mut page = Page {
        methods: Vec::new(),
        kinds: Vec::new(),
        common_fields: Vec::new(),
        fields: Default::default(),
        codes: Vec::new(),
    };
    let mut part = "";
    let mut heading: Option<String> = None;
    let first_cell = |line: &str| -> Option<String> {
        let cell = line.strip_prefix("| ")?.split(" |").next()?.trim();
        Some(cell.strip_prefix('`')?.strip_suffix('`')?.to_string())
    };
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            part = match title {
                "Methods" => "methods",
                "Events" => "events",
                "Errors" => "errors",
                _ => "",
            };
            heading = None;
        } else if let Some(title) = line.strip_prefix("### ") {
            let name = title.trim_matches('`').to_string();
            match part {
                "methods" => page.methods.push(name.clone()),
                "events" => page.kinds.push(name.clone()),
                _ => {}
            }
            heading = Some(name);
        } else if part == "events" {
            if let Some(field) = first_cell(line) {
                match &heading {
                    None => page.common_fields.push(field),
                    Some(kind) => page.fields.entry(kind.clone()).or_default().push(field),
                }
            }
        } else if part == "errors" {
            if let Some(code) = line
                .strip_prefix("| ")
                .and_then(|l| l.split(" |").next())
                .and_then(|c| c.trim().parse::<i64>().ok())
            {
                page.codes.push(code);
            }
        }
    }
    page
}

#[test]
fn the_protocol_page_names_what_the_server_serves_and_every_field_it_sends() {
    let page = read_page();
    let project = practice().file("bad.cpp", "int main() { return y; }\n");
    let mut server = stdio(&project);
    let client = &mut server.client;
    let hello = client.result("initialize", &json!({}));
    let listed = |key: &str| -> Vec<String> {
        hello["capabilities"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let sorted = |mut names: Vec<String>| {
        names.sort();
        names
    };
    assert_eq!(sorted(page.methods.clone()), sorted(listed("methods")));
    assert_eq!(sorted(page.kinds.clone()), sorted(listed("events")));
    let mut codes: Vec<i64> = hello["capabilities"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_i64().unwrap())
        .collect();
    codes.sort();
    let mut documented = page.codes.clone();
    documented.sort();
    assert_eq!(documented, codes);
    // Every field of every event sent is on the page under its kind.
    let judged = client.result(
        "judge",
        &json!({"source": project.join("a.py"), "all": true}),
    )["task"]
        .clone();
    let failed =
        client.result("judge", &json!({"source": project.join("bad.cpp")}))["task"].clone();
    client.until(&judged, "task.finished");
    client.until(&failed, "task.finished");
    for event in &client.events {
        let kind = event["kind"].as_str().unwrap();
        let fields = page
            .fields
            .get(kind)
            .unwrap_or_else(|| panic!("no section for `{kind}`"));
        for key in event.as_object().unwrap().keys() {
            assert!(
                page.common_fields.contains(key) || fields.contains(key),
                "`{kind}` sends `{key}`, which docs/src/reference/protocol.md does not name: {event}"
            );
        }
    }
}
