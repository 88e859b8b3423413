//! Headless Chromium for the tests of pages: where it is (or why the test skips), and a
//! page driven live through the DevTools protocol over a pipe (`--remote-debugging-pipe`:
//! JSON messages ended by NUL on descriptors 3 and 4), so that a test can read the page's
//! tree again and again while it changes. No WebSocket client and no npm are needed.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long one DevTools answer, or one awaited change of the page, may take: Chromium
/// starts in a second or two; a loaded machine gets far more.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// The browser, or `None` (with a `skipped:` line) where there is none; under CI its absence
/// fails the test, since `.ci/install-tools` installs it.
pub fn chromium(test: &str) -> Option<PathBuf> {
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
        assert!(
            std::env::var_os("CI").is_none(),
            "no chromium: CI runs .ci/install-tools, which installs it"
        );
        super::skipped(&format!(
            "{test}: no chromium on PATH (apt-get install chromium, or set HARNESS_CHROMIUM)"
        ));
    }
    found
}

/// A headless Chromium showing one page, and the DevTools session attached to it.
pub struct Browser {
    child: Child,
    to: std::fs::File,
    from: Receiver<Value>,
    session: String,
    next_id: u64,
    _profile: tempfile::TempDir,
}

fn pipe() -> (OwnedFd, OwnedFd) {
    // Close-on-exec, so that no other child started meanwhile holds them open; dup2 gives
    // Chromium its copies without the flag.
    let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).expect("a pipe");
    (read, write)
}

impl Browser {
    /// Opens `url` in a fresh profile.
    pub fn open(browser: &Path, url: &str) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        // Chromium reads commands on descriptor 3 and writes answers on 4.
        let (commands_read, commands_write) = pipe();
        let (answers_read, answers_write) = pipe();
        let (theirs_in, theirs_out) = (commands_read.as_raw_fd(), answers_write.as_raw_fd());
        let mut command = Command::new(browser);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                "--window-size=1200,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0);
        // SAFETY: only fcntl and dup2 between fork and exec, both async-signal-safe; the
        // descriptors stay open in the parent until the child is spawned.
        unsafe {
            command.pre_exec(move || {
                // Copied above 4 first: either may be 3 or 4 itself, which the other's
                // dup2 would close (and a dup2 onto itself keeps close-on-exec).
                let high_in = libc::fcntl(theirs_in, libc::F_DUPFD, 10);
                let high_out = libc::fcntl(theirs_out, libc::F_DUPFD, 10);
                if high_in < 0
                    || high_out < 0
                    || libc::dup2(high_in, 3) < 0
                    || libc::dup2(high_out, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start `{}`: {error}", browser.display()));
        drop((commands_read, answers_write));
        let from = messages(std::fs::File::from(answers_read));
        let mut browser = Browser {
            child,
            to: std::fs::File::from(commands_write),
            from,
            session: String::new(),
            next_id: 1,
            _profile: profile,
        };
        let page = browser.wait_for(|b| {
            let targets = b.call("Target.getTargets", &json!({}), false);
            targets["targetInfos"]
                .as_array()
                .and_then(|all| all.iter().find(|t| t["type"] == "page").cloned())
        });
        let attached = browser.call(
            "Target.attachToTarget",
            &json!({"targetId": page["targetId"], "flatten": true}),
            false,
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        browser
    }

    /// Calls a DevTools method, on the page's session or the browser's; its result.
    pub fn call(&mut self, method: &str, params: &Value, on_page: bool) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({"id": id, "method": method, "params": params});
        if on_page {
            message["sessionId"] = json!(self.session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        let started = Instant::now();
        loop {
            let left = PATIENCE.saturating_sub(started.elapsed());
            let answer = self
                .from
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("chromium did not answer {method}"));
            if answer["id"] == id {
                assert!(answer.get("error").is_none(), "{method}: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            &json!({"expression": expression, "returnByValue": true}),
            true,
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "`{expression}` threw: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Waits until `check` gives something; it.
    pub fn wait_for<T>(&mut self, mut check: impl FnMut(&mut Browser) -> Option<T>) -> T {
        let started = Instant::now();
        loop {
            if let Some(found) = check(self) {
                return found;
            }
            assert!(
                started.elapsed() < PATIENCE,
                "the page never got there in {PATIENCE:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the expression is true in the page.
    pub fn wait_until(&mut self, expression: &str) {
        let started = Instant::now();
        loop {
            let last = self.eval(expression);
            if last == Value::Bool(true) {
                return;
            }
            if started.elapsed() > PATIENCE {
                let body = self.eval("document.body.innerText");
                panic!("`{expression}` never became true ({last}); the page says:\n{body}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A PNG of the page as it is now.
    pub fn screenshot(&mut self, path: &Path) {
        let shot = self.call(
            "Page.captureScreenshot",
            &json!({"format": "png", "captureBeyondViewport": true}),
            true,
        );
        let data = shot["data"].as_str().unwrap();
        std::fs::write(path, base64_decode(data)).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The whole group: Chromium's renderer and GPU processes too.
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(self.child.id() as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
        let _ = self.child.wait();
    }
}

/// The NUL-ended JSON messages Chromium writes, on a thread of their own.
fn messages(mut input: std::fs::File) -> Receiver<Value> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut pending = Vec::new();
        let mut chunk = [0; 1 << 16];
        loop {
            let read = match input.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(read) => read,
            };
            pending.extend_from_slice(&chunk[..read]);
            while let Some(end) = pending.iter().position(|&b| b == 0) {
                let message: Vec<u8> = pending.drain(..=end).collect();
                let value = serde_json::from_slice(&message[..end]).expect("a DevTools message");
                if sender.send(value).is_err() {
                    return;
                }
            }
        }
    });
    receiver
}

/// Standard base64, as DevTools sends a screenshot.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for group in digits.chunks(4) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..group.len()]);
    }
    out
}
