//! A `harness serve` process driven as an editor drives it, for the tests of the server
//! (tests/serve.rs, tests/serve_http*.rs): the server is a long-running child with pipes,
//! which assert_cmd's one-shot `Command` cannot drive, so it is started by hand with the
//! same environment as `Project::harness` (its own build cache, no colors).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

use super::project::Project;

/// How long a test waits for any one message: far longer than any case here takes.
pub const PATIENCE: Duration = Duration::from_secs(120);

pub fn server_command(project: &Project) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("harness"));
    command
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .env_remove("HARNESS_CACHE_DIR")
        .env("XDG_CACHE_HOME", project.cache_home())
        .arg("serve");
    command
}

/// Lines read on a thread of their own, as JSON.
pub fn reader(input: impl std::io::Read + Send + 'static) -> Receiver<Value> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(input).lines() {
            let Ok(line) = line else { return };
            let value: Value = serde_json::from_str(&line).unwrap_or_else(|e| {
                panic!("the server wrote a line that is not JSON ({e}): {line}")
            });
            if sender.send(value).is_err() {
                return;
            }
        }
    });
    receiver
}

/// One connection to a server: where requests go and where its lines come from.
pub struct Client {
    pub to: Box<dyn Write + Send>,
    pub from: Receiver<Value>,
    pub next_id: u64,
    /// Every event seen, in the order it came.
    pub events: Vec<Value>,
    /// A socket's connection, closed when the client is dropped (its reading thread holds
    /// a copy that would keep it open).
    pub socket: Option<UnixStream>,
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(socket) = &self.socket {
            let _ = socket.shutdown(std::net::Shutdown::Both);
        }
    }
}

impl Client {
    pub fn new(
        to: impl Write + Send + 'static,
        from: impl std::io::Read + Send + 'static,
    ) -> Client {
        Client {
            to: Box::new(to),
            from: reader(from),
            next_id: 1,
            events: Vec::new(),
            socket: None,
        }
    }

    pub fn on_socket(path: &Path) -> Client {
        let stream = UnixStream::connect(path).expect("the server's socket");
        let mut client = Client::new(stream.try_clone().unwrap(), stream.try_clone().unwrap());
        client.socket = Some(stream);
        client
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.to.write_all(bytes).unwrap();
        self.to.flush().unwrap();
    }

    /// The next line, whatever it is.
    pub fn next(&mut self) -> Value {
        let value = self.from.recv_timeout(PATIENCE).unwrap_or_else(|_| {
            panic!("no line from the server; events so far: {:#?}", self.events)
        });
        if value["method"] == "event" {
            self.events.push(value["params"].clone());
        }
        value
    }

    /// The answer to the request of `id`, keeping the events met on the way.
    pub fn answer(&mut self, id: &Value) -> Value {
        loop {
            let value = self.next();
            if value.get("id") == Some(id) {
                return value;
            }
        }
    }

    /// Sends a request and returns its whole answer (`result` or `error`).
    pub fn call(&mut self, method: &str, params: &Value) -> Value {
        let id = json!(self.next_id);
        self.next_id += 1;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(format!("{line}\n").as_bytes());
        self.answer(&id)
    }

    pub fn result(&mut self, method: &str, params: &Value) -> Value {
        let answer = self.call(method, params);
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Events until one of `task` of `kind` comes (kept ones first); returns that one.
    pub fn until(&mut self, task: &Value, kind: &str) -> Value {
        let seen = |events: &[Value]| {
            events
                .iter()
                .find(|e| &e["task"] == task && e["kind"] == kind)
                .cloned()
        };
        loop {
            if let Some(event) = seen(&self.events) {
                return event;
            }
            self.next();
        }
    }

    pub fn of_task(&self, task: &Value) -> Vec<Value> {
        self.events
            .iter()
            .filter(|e| &e["task"] == task)
            .cloned()
            .collect()
    }
}

/// A server on stdin and stdout.
pub struct Piped {
    pub child: Child,
    pub client: Client,
    /// The server's stderr, line by line (each also written to the test's own stderr).
    pub said: Receiver<String>,
}

pub fn stdio(project: &Project) -> Piped {
    stdio_with(project, &[])
}

/// A server on stdin and stdout, with more arguments (`--http 0`).
pub fn stdio_with(project: &Project, args: &[&str]) -> Piped {
    let mut child = server_command(project)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("harness serve starts");
    let to: ChildStdin = child.stdin.take().unwrap();
    let from = child.stdout.take().unwrap();
    let said = lines_of(child.stderr.take().unwrap());
    Piped {
        child,
        client: Client::new(to, from),
        said,
    }
}

/// The lines of `input`, each also written to the test's stderr, on a thread of their own.
pub fn lines_of(input: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(input).lines() {
            let Ok(line) = line else { return };
            eprintln!("server: {line}");
            let _ = sender.send(line);
        }
    });
    receiver
}

impl Piped {
    /// The first line the server writes on stderr that holds `text`.
    pub fn said(&self, text: &str) -> String {
        loop {
            let line = self
                .said
                .recv_timeout(PATIENCE)
                .unwrap_or_else(|_| panic!("the server never said `{text}`"));
            if line.contains(text) {
                return line;
            }
        }
    }

    /// The port of `http://127.0.0.1:PORT/` in the server's line that holds `text`.
    pub fn port(&self, text: &str) -> u16 {
        let line = self.said(text);
        let digits: String = line
            .split("127.0.0.1:")
            .nth(1)
            .or_else(|| line.split("port ").nth(1))
            .unwrap_or_else(|| panic!("no port in `{line}`"))
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits
            .parse()
            .unwrap_or_else(|_| panic!("no port in `{line}`"))
    }
}

impl Drop for Piped {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn kinds(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect()
}

pub fn assert_seq_increases(events: &[Value]) {
    let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
}

/// A server on a socket in the project's folder.
pub struct Socketed {
    pub child: Child,
    pub path: PathBuf,
}

pub fn socket(project: &Project) -> Socketed {
    let path = project.join("harness.sock");
    let mut child = server_command(project)
        .arg("--socket")
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("harness serve starts");
    // It is there once it answers.
    for _ in 0..1200 {
        if UnixStream::connect(&path).is_ok() {
            return Socketed { child, path };
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the socket `{}` never answered", path.display());
}

impl Drop for Socketed {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
