//! The HTTP side of receiving: a small HTTP/1.1 server on 127.0.0.1 (never IPv6 `localhost`
//! only: a receiver bound there loses problems the extension sends to 127.0.0.1), one problem
//! per `POST /`, answered 200 when stored and 4xx/5xx with the reason when not. It reports
//! through events and never prints.
//!
//! Only what Competitive Companion sends is taken: any web page can make the browser POST to
//! a port on this machine, so a request must come from a browser extension or no page at all
//! (`Origin`), carry JSON (`Content-Type`, which a page cannot send across origins without a
//! CORS preflight that is refused here), and be addressed to this machine by a loopback name
//! (`Host`, against DNS rebinding). Connections are served by a fixed pool of threads, each
//! request within a deadline, so a client that sends slowly or never holds one thread for a
//! while and never the server; and a server that cannot go on says why and stops.

use std::io::{self, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError, Sender, SyncSender, TrySendError};
use std::time::{Duration, Instant};

use super::batch::{Batches, Completed, Progress};
use super::http::{
    accept_failure, bind_loopback, check_host, closed_early, drain, header_values, linger,
    parse_head, read_head, read_some, reason_phrase, start_workers, AcceptFailure, Accepted,
    Refusal, MAX_HEADERS, WRITE_TIMEOUT,
};
use super::payload::Payload;
use super::{Received, StoreError, Template};
use crate::config::edit;

/// Competitive Companion sends to these ports without being told (its `src/hosts/hosts.ts`),
/// each the port of a tool that receives problems.
pub const BUILT_IN_PORTS: [(u16, &str); 8] = [
    (1327, "cpbooster"),
    (4243, "CHelper"),
    (4244, "Hightail"),
    (6174, "Mind Sport"),
    (10042, "acmX"),
    (10043, "Caide"),
    (10045, "CP Editor"),
    (27121, "Competitive Programming Helper (cph) or CompetiTest"),
];

/// The port `harness listen` uses by default: Hightail's, one the extension has sent to
/// since its first versions, and free on almost every machine since Hightail, a desktop
/// tool, is no longer developed. The ports of tools still in use (cph's 27121, CP Editor's
/// 10045, cpbooster's 1327) would clash with them.
pub const DEFAULT_PORT: u16 = 4244;

/// A body larger than this is refused: a problem page's samples are kilobytes, and a body
/// this large is not one.
pub const MAX_BODY_BYTES: u64 = 16 << 20;

/// What one `harness listen` writes in all: the samples of every problem, each rewrite of
/// judge.toml, the solution files. A whole contest is a few MiB; past this a client is
/// filling the disk, and is refused (507) until the server is started again.
pub const MAX_SESSION_BYTES: u64 = 1 << 30;

/// Threads that read requests. The extension sends at most 6 requests at once (to all its
/// ports together), one problem each.
pub const WORKERS: usize = 8;

/// Connections accepted while every worker is busy, waiting for one; a connection past these
/// is answered 503 at once. Room for a burst (the workers take connections one by one, and
/// on a loaded machine only after a while), bounded so that a flood cannot take every file
/// descriptor.
const QUEUED: usize = 64;

/// What one request may take to arrive, head and body, from the moment it is accepted (time
/// waiting for a worker counts). The extension sends one in milliseconds (and gives up
/// waiting for the answer after 500 ms); a client slower than this is answered 408 and its
/// thread freed.
pub const REQUEST_DEADLINE: Duration = super::http::REQUEST_DEADLINE;

/// How often the server looks at Ctrl-C and quiet batches while no request comes, and how
/// long the accept thread waits before it tries again when the process is out of descriptors.
const TICK: Duration = Duration::from_millis(100);

#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("port {port} is in use{} (hint: stop that program, or pick another port with --port and add it to Competitive Companion's custom ports)", tool.map(|t| format!(": another program is listening there ({port} is {t}'s port in Competitive Companion)")).unwrap_or_else(|| ": another program is listening there".to_string()))]
    PortInUse {
        port: u16,
        tool: Option<&'static str>,
    },
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind { port: u16, source: io::Error },
    #[error("cannot start the server's threads: {0} (hint: the machine or this user is out of processes or memory)")]
    Threads(io::Error),
    #[error("the server stopped: it cannot accept connections any more: {0}")]
    Accept(io::Error),
    #[error("the server stopped: its connection threads are gone")]
    WorkersGone,
}

/// The tool the extension knows by this port.
pub fn tool_of(port: u16) -> Option<&'static str> {
    BUILT_IN_PORTS
        .iter()
        .find(|(p, _)| *p == port)
        .map(|(_, tool)| *tool)
}

/// A bound server, before it serves: the port is known (also when 0 asked for any free one).
pub struct Server {
    listener: TcpListener,
    port: u16,
}

/// Binds 127.0.0.1:`port` (0: any free port).
pub fn bind(port: u16) -> Result<Server, ListenError> {
    let (listener, port) = bind_loopback(port).map_err(|source| {
        if source.kind() == io::ErrorKind::AddrInUse {
            ListenError::PortInUse {
                port,
                tool: tool_of(port),
            }
        } else {
            ListenError::Bind { port, source }
        }
    })?;
    Ok(Server { listener, port })
}

impl Server {
    pub fn port(&self) -> u16 {
        self.port
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    /// Stop after one problem, or after one whole batch.
    pub once: bool,
    /// A batch that hears nothing for this long is handed over with what came.
    pub batch_quiet: Duration,
    /// Each problem's solution file starts from this.
    pub template: Option<Template>,
}

/// What happened, as it happens.
#[derive(Debug)]
pub enum Event<'a> {
    Received {
        problem: &'a Received,
        progress: &'a Progress,
    },
    /// A request answered 4xx (or 5xx: the workspace could not be written, the server is
    /// busy, or it cannot accept connections for a while).
    Refused { status: u16, reason: &'a str },
    /// A batch that did not complete: what came, and how many never did.
    BatchTimedOut(&'a Completed),
}

/// Why serving ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// `--once` had its problem or batch.
    Done,
    /// Ctrl-C (or SIGTERM).
    Interrupted,
}

/// What the threads tell the serving thread.
enum Incoming {
    /// A problem to store, and the connection to answer once it is.
    Problem(Box<(TcpStream, Payload)>),
    /// Refused with this status and reason (the client is being answered).
    Refused(u16, String),
    /// The accept thread cannot go on.
    Failed(ListenError),
}

/// Serves until `options.once` is satisfied or the harness is interrupted, storing each
/// problem into the workspace of the judge.toml at `config`.
///
/// One thread accepts, [`WORKERS`] threads read and check requests, each within
/// [`REQUEST_DEADLINE`]; storing stays on this thread, one problem at a time, so two
/// problems never race for an id or for judge.toml. Every thread is made here, before the
/// first request: none is made later, so none can fail to be made while serving.
pub fn serve(
    server: &Server,
    config: &Path,
    options: &Options,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Stopped, ListenError> {
    let (sender, incoming) = mpsc::channel();
    let jobs = start_workers("listen", WORKERS, QUEUED, || sender.clone(), handle)
        .map_err(ListenError::Threads)?;
    let listener = server.listener.try_clone().map_err(ListenError::Threads)?;
    std::thread::Builder::new()
        .name("listen-accept".to_string())
        .spawn(move || accept(&listener, &jobs, &sender))
        .map_err(ListenError::Threads)?;

    let mut batches = Batches::new(options.batch_quiet);
    let mut stored = Stored::default();
    loop {
        if crate::sandbox::interrupt::is_interrupted() {
            for batch in batches.drain() {
                on_event(Event::BatchTimedOut(&batch));
            }
            return Ok(Stopped::Interrupted);
        }
        let message = match incoming.recv_timeout(TICK) {
            Ok(message) => Some(message),
            Err(RecvTimeoutError::Timeout) => None,
            // Every thread holds a sender until it ends: all of them are gone.
            Err(RecvTimeoutError::Disconnected) => return Err(ListenError::WorkersGone),
        };
        match message {
            None => {}
            Some(Incoming::Failed(error)) => return Err(error),
            Some(Incoming::Refused(status, reason)) => on_event(Event::Refused {
                status,
                reason: &reason,
            }),
            Some(Incoming::Problem(problem)) => {
                let (stream, payload) = *problem;
                let template = options.template.as_ref();
                // Storing writes its samples, judge.toml again and a solution file.
                let cost = |config_bytes: u64| {
                    payload.sample_bytes()
                        + config_bytes
                        + template.map_or(0, |t| t.text.len() as u64)
                };
                let admitted = stored.admit(&payload, cost(file_size(config)));
                let stored_now = admitted.map_err(|reason| (507, reason)).and_then(|()| {
                    super::store(config, &payload, template).map_err(|error| {
                        // Ctrl-C while its samples were written: the next turn stops.
                        let status = match error {
                            StoreError::Interrupted => 503,
                            _ => 500,
                        };
                        (status, store_failed(&payload, &error))
                    })
                });
                let mut received = match stored_now {
                    Ok(received) => received,
                    Err((status, reason)) => {
                        on_event(Event::Refused {
                            status,
                            reason: &reason,
                        });
                        answer(&stream, status, &reason);
                        continue;
                    }
                };
                stored.add(cost(file_size(config)));
                answer(&stream, 200, &format!("received as `{}`", received.id()));
                drop(stream);
                let progress = batches.add(received.clone(), Instant::now());
                if let Progress::Complete(batch) = &progress {
                    // Stored as they arrived (in parallel): judge.toml in contest order.
                    let ids: Vec<String> =
                        batch.problems.iter().map(|p| p.id().to_string()).collect();
                    if let Err(error) = edit::order_problems(config, &ids) {
                        received.notes.push(format!(
                            "judge.toml keeps the order they arrived in: {error}"
                        ));
                    }
                }
                on_event(Event::Received {
                    problem: &received,
                    progress: &progress,
                });
                let whole = matches!(progress, Progress::Single | Progress::Complete(_));
                if options.once && whole {
                    return Ok(Stopped::Done);
                }
            }
        }
        for batch in batches.expire(Instant::now()) {
            on_event(Event::BatchTimedOut(&batch));
            if options.once {
                return Ok(Stopped::Done);
            }
        }
    }
}

/// What this server has written, against [`MAX_SESSION_BYTES`].
#[derive(Debug, Default)]
struct Stored {
    bytes: u64,
}

impl Stored {
    /// Whether `payload`, whose storing writes `bytes`, may be stored too; why not, naming it
    /// and the bound.
    fn admit(&self, payload: &Payload, bytes: u64) -> Result<(), String> {
        if self.bytes.saturating_add(bytes) <= MAX_SESSION_BYTES {
            return Ok(());
        }
        Err(format!(
            "not storing {}: this `harness listen` has written {:.1} MiB, and {} MiB is all one writes (hint: start it again); nothing was written",
            payload.described(),
            self.bytes as f64 / (1u64 << 20) as f64,
            MAX_SESSION_BYTES >> 20
        ))
    }

    fn add(&mut self, bytes: u64) {
        self.bytes = self.bytes.saturating_add(bytes);
    }
}

/// The size of the file at `path`; 0 when there is none.
fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// The accept thread: hands each connection to a worker, or answers 503 when all are busy
/// and the queue is full. Running out of descriptors or memory is waited out (the held
/// connections' deadlines free them); any other failure stops the server.
fn accept(listener: &TcpListener, jobs: &SyncSender<Accepted>, server: &Sender<Incoming>) {
    let mut short_of_resources = false;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                short_of_resources = false;
                match jobs.try_send((stream, Instant::now() + REQUEST_DEADLINE)) {
                    Ok(()) => {}
                    Err(TrySendError::Full((stream, _))) => {
                        let reason = format!(
                            "busy: {} connections are being read already; try again",
                            WORKERS + QUEUED
                        );
                        let _ = server.send(Incoming::Refused(503, reason.clone()));
                        answer(&stream, 503, &reason);
                        drain(&stream);
                    }
                    Err(TrySendError::Disconnected(_)) => {
                        let _ = server.send(Incoming::Failed(ListenError::WorkersGone));
                        return;
                    }
                }
            }
            Err(error) => match accept_failure(&error) {
                AcceptFailure::Again => {}
                AcceptFailure::ShortOfResources => {
                    if !short_of_resources {
                        let reason = format!(
                            "cannot accept connections for now: {error}; waiting for open ones to end"
                        );
                        let _ = server.send(Incoming::Refused(503, reason));
                        short_of_resources = true;
                    }
                    std::thread::sleep(TICK);
                }
                AcceptFailure::ForGood => {
                    let _ = server.send(Incoming::Failed(ListenError::Accept(error)));
                    return;
                }
            },
        }
    }
}

/// How a request that carries no problem is answered: its status and a line for the client
/// and (for a refusal) the log.
struct Reply {
    status: u16,
    reason: String,
    /// Said in the log too (a GET is answered but is nothing to report).
    logged: bool,
}

impl From<Refusal> for Reply {
    fn from(refusal: Refusal) -> Reply {
        Reply::refuse(refusal.status, refusal.reason)
    }
}

impl Reply {
    fn refuse(status: u16, reason: impl Into<String>) -> Reply {
        Reply {
            status,
            reason: reason.into(),
            logged: true,
        }
    }

    /// An answer the log need not hear of.
    fn note(status: u16, reason: &str) -> Reply {
        Reply {
            logged: false,
            ..Reply::refuse(status, reason)
        }
    }
}

/// Reads, checks and parses one request within its deadline: a problem goes to the serving
/// thread (which answers it once stored); anything else is answered here. The serving thread
/// hears of a refusal before the client does.
fn handle(mut stream: TcpStream, deadline: Instant, server: &Sender<Incoming>) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    match read_problem(&mut stream, deadline) {
        Ok(Some(payload)) => {
            // A send fails only when the server has stopped: then nobody is waiting.
            let _ = server.send(Incoming::Problem(Box::new((stream, payload))));
        }
        // The client went away before it said anything.
        Ok(None) => {}
        Err(reply) => {
            if reply.logged {
                let _ = server.send(Incoming::Refused(reply.status, reply.reason.clone()));
            }
            answer(&stream, reply.status, &reply.reason);
            linger(&mut stream);
        }
    }
}

/// The problem a request carries (`None` for a connection closed before a request began), or
/// how it is answered instead.
fn read_problem(stream: &mut TcpStream, deadline: Instant) -> Result<Option<Payload>, Reply> {
    let Some((mut buffer, head_length)) = read_head(stream, deadline)? else {
        return Ok(None);
    };
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    parse_head(&mut request, &buffer[..head_length])?;
    let head = Head::of(&request);
    head.check_sender()?;
    match request.method.unwrap_or_default() {
        "POST" => {}
        // A browser pointed at the port sees what this is.
        "GET" => {
            return Err(Reply::note(
                200,
                "harness is listening for problems from Competitive Companion (POST them as JSON)",
            ))
        }
        other => {
            return Err(Reply::refuse(
                405,
                format!("method {other} is not allowed: POST a problem as JSON"),
            ))
        }
    }
    head.check_json()?;
    let length = head.content_length()?;
    if length > MAX_BODY_BYTES {
        return Err(Reply::refuse(413, too_large()));
    }
    if head.expects_continue {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let length = length as usize;
    let mut body = buffer.split_off(head_length);
    while body.len() < length {
        if read_some(stream, &mut body, deadline)? == 0 {
            return Err(closed_early().into());
        }
    }
    body.truncate(length);
    Payload::parse(&body)
        .map(Some)
        .map_err(|error| Reply::refuse(error.status(), format!("{error}; nothing was written")))
}

/// The headers that decide whether a request is taken.
struct Head {
    hosts: Vec<String>,
    origins: Vec<String>,
    content_types: Vec<String>,
    content_lengths: Vec<String>,
    chunked: bool,
    expects_continue: bool,
}

impl Head {
    fn of(request: &httparse::Request<'_, '_>) -> Head {
        let values = |name: &str| header_values(request, name);
        Head {
            hosts: values("Host"),
            origins: values("Origin"),
            content_types: values("Content-Type"),
            content_lengths: values("Content-Length"),
            chunked: !values("Transfer-Encoding").is_empty(),
            expects_continue: values("Expect")
                .iter()
                .any(|value| value.eq_ignore_ascii_case("100-continue")),
        }
    }

    /// Addressed to this machine by name, from a browser extension or from no page.
    fn check_sender(&self) -> Result<(), Reply> {
        check_host(&self.hosts, " nothing was written")?;
        if let Some(origin) = self.origins.iter().find(|o| !is_extension_origin(o)) {
            return Err(Reply::refuse(
                403,
                format!(
                    "Origin `{}` is a web page, not a browser extension: only Competitive Companion may send problems; nothing was written",
                    crate::text::one_line(origin, 80)
                ),
            ));
        }
        Ok(())
    }

    /// The body is said to be JSON, as the extension says it.
    fn check_json(&self) -> Result<(), Reply> {
        match self.content_types.as_slice() {
            [kind] if is_json(kind) => Ok(()),
            [] => Err(Reply::refuse(
                415,
                "no Content-Type: send the problem as application/json, as Competitive Companion does; nothing was written",
            )),
            [kind] => Err(Reply::refuse(
                415,
                format!(
                    "Content-Type `{}` is not application/json (Competitive Companion sends JSON); nothing was written",
                    crate::text::one_line(kind, 80)
                ),
            )),
            _ => Err(Reply::refuse(400, "more than one Content-Type header")),
        }
    }

    fn content_length(&self) -> Result<u64, Reply> {
        let needed = || {
            Reply::refuse(
                411,
                "send the body with a Content-Length (as browsers do); nothing was written",
            )
        };
        if self.chunked {
            return Err(needed());
        }
        match self.content_lengths.as_slice() {
            [length] => length.parse().map_err(|_| {
                Reply::refuse(400, format!("Content-Length `{length}` is not a number"))
            }),
            [] => Err(needed()),
            _ => Err(Reply::refuse(400, "more than one Content-Length header")),
        }
    }
}

/// The origin of a browser extension's own pages and scripts: Chrome's and Edge's, Firefox's,
/// Safari's. A web page's is `http(s)://…`, a sandboxed or local one's `null`.
fn is_extension_origin(origin: &str) -> bool {
    [
        "chrome-extension://",
        "moz-extension://",
        "safari-web-extension://",
    ]
    .iter()
    .any(|scheme| {
        origin.strip_prefix(scheme).is_some_and(|id| {
            !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        })
    })
}

/// `application/json`, with or without parameters (`; charset=utf-8`).
fn is_json(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("application/json"))
}

fn too_large() -> String {
    format!(
        "the body is larger than {} MiB: not a problem; nothing was written",
        MAX_BODY_BYTES >> 20
    )
}

fn store_failed(payload: &Payload, error: &StoreError) -> String {
    format!("cannot store `{}`: {error}", payload.name.trim())
}

/// Writes the answer, a line of text, and ends the connection's sending side. The extension
/// ignores the answer and may have given up waiting (500 ms): a client that went away is no
/// error of the server's.
fn answer(mut stream: &TcpStream, status: u16, text: &str) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let body = format!("{text}\n");
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reason_phrase(status),
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    let _ = stream.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_extensions_origins() {
        for origin in [
            "chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl",
            "moz-extension://0f0c6c8e-6a84-4b3e-9a58-3c1d6b0e8e21",
            "safari-web-extension://5E1A0B8C-1234-4A5B-9C6D-7E8F9A0B1C2D",
        ] {
            assert!(is_extension_origin(origin), "{origin}");
        }
        for origin in [
            "https://evil.example",
            "http://localhost:4244",
            "null",
            "",
            "chrome-extension://",
            "chrome-extension://id/path",
            "file://",
        ] {
            assert!(!is_extension_origin(origin), "{origin}");
        }
    }

    #[test]
    fn json_by_its_media_type() {
        assert!(is_json("application/json"));
        assert!(is_json("Application/JSON; charset=utf-8"));
        assert!(!is_json("text/plain;charset=UTF-8"));
        assert!(!is_json("application/x-www-form-urlencoded"));
        assert!(!is_json("multipart/form-data; boundary=x"));
    }

    #[test]
    fn a_session_writes_at_most_its_bound_and_says_so_naming_the_problem() {
        let problem = Payload::parse(
            br#"{"name": "B. Big", "url": "https://codeforces.com/contest/1/problem/B"}"#,
        )
        .unwrap();
        let mut stored = Stored::default();
        let each = 4 << 20;
        for _ in 0..MAX_SESSION_BYTES / each {
            stored.admit(&problem, each).unwrap();
            stored.add(each);
        }
        let reason = stored.admit(&problem, 1).unwrap_err();
        assert_eq!(
            reason,
            "not storing problem `B. Big` (https://codeforces.com/contest/1/problem/B): this `harness listen` has written 1024.0 MiB, and 1024 MiB is all one writes (hint: start it again); nothing was written"
        );
        stored.admit(&problem, 0).unwrap();
    }
}
