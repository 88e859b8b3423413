//! `harness serve --http PORT`: the live page on 127.0.0.1, with the HTTP of the receiver
//! (`receive::http`: the head read within a deadline, the Host check against DNS rebinding).
//! `GET /` is the page, `GET /events` the server's events as server-sent events (caught up
//! from `Last-Event-ID` or `?since=N`, then live), and nothing else: no request over HTTP
//! starts or changes anything, since any page the machine's browser opens can send one.
//!
//! A fixed pool of threads reads requests, each within a deadline; a reader of the event
//! stream gets a thread of its own (at most [`MAX_WATCHERS`]), fed through a bounded queue
//! that the server never waits on: a reader that is slow or gone is let go.

use std::io::{self, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::receive::http::{
    accept_failure, bind_loopback, check_host, drain, header_values, is_loopback_host, linger,
    parse_head, read_head, reason_phrase, start_workers, AcceptFailure, Accepted, Refusal,
    MAX_HEADERS, REQUEST_DEADLINE, WRITE_TIMEOUT,
};

use super::server::Server;

/// Threads that read requests: a page load is two requests, and they are answered at once.
const WORKERS: usize = 4;
/// Connections accepted while every worker is busy; past these, 503 at once.
const QUEUED: usize = 32;
/// Readers of the event stream at once: a page open in a few browsers and editors' panels.
pub const MAX_WATCHERS: usize = 32;
/// A comment line sent to a quiet stream this often: a reader that went away is found out
/// by the write failing, and proxies keep the stream open.
const HEARTBEAT: Duration = Duration::from_secs(15);
/// How long one frame may take to write to a reader before it is let go.
const STREAM_WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the accept thread waits when the process is out of descriptors.
const TICK: Duration = Duration::from_millis(100);

/// What the browser reconnects after, when the stream ends (milliseconds).
const RETRY_MS: u64 = 1000;

#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("port {port} is in use: another program is listening there (hint: give another --http port, or 0 for any free one)")]
    PortInUse { port: u16 },
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind { port: u16, source: io::Error },
    #[error("cannot start the live page's threads: {0} (hint: the machine or this user is out of processes or memory)")]
    Threads(io::Error),
}

/// The live page's socket, bound: its port is known (also when 0 asked for any free one).
pub struct Live {
    listener: TcpListener,
    port: u16,
}

impl Live {
    pub fn port(&self) -> u16 {
        self.port
    }
}

/// Binds 127.0.0.1:`port` (0: any free port).
pub fn bind(port: u16) -> Result<Live, HttpError> {
    let (listener, port) = bind_loopback(port).map_err(|source| match source.kind() {
        io::ErrorKind::AddrInUse => HttpError::PortInUse { port },
        _ => HttpError::Bind { port, source },
    })?;
    Ok(Live { listener, port })
}

/// Serves the page on threads of its own until the process ends.
pub fn start(live: Live, server: &Arc<Server>) -> Result<(), HttpError> {
    let page: Arc<[u8]> = crate::report::live::page().into_bytes().into();
    let watchers = Arc::new(AtomicUsize::new(0));
    let context = || Context {
        server: server.clone(),
        port: live.port,
        page: page.clone(),
        watchers: watchers.clone(),
    };
    let jobs =
        start_workers("live", WORKERS, QUEUED, context, handle).map_err(HttpError::Threads)?;
    std::thread::Builder::new()
        .name("live-accept".into())
        .spawn(move || accept(&live.listener, &jobs))
        .map_err(HttpError::Threads)?;
    Ok(())
}

fn warn(message: std::fmt::Arguments<'_>) {
    let _ = crate::report::notice::write_warning(&mut anstream::stderr(), message);
}

/// Hands each connection to a worker, or answers 503 when all are busy and the queue is
/// full. A broken listening socket ends the page (the protocol goes on).
fn accept(listener: &TcpListener, jobs: &SyncSender<Accepted>) {
    loop {
        match listener.accept() {
            Ok((stream, _)) => match jobs.try_send((stream, Instant::now() + REQUEST_DEADLINE)) {
                Ok(()) => {}
                Err(TrySendError::Full((stream, _))) => {
                    respond(&stream, &Answer::text(503, "busy: try again"));
                    drain(&stream);
                }
                Err(TrySendError::Disconnected(_)) => return,
            },
            Err(error) => match accept_failure(&error) {
                AcceptFailure::Again => {}
                AcceptFailure::ShortOfResources => std::thread::sleep(TICK),
                AcceptFailure::ForGood => {
                    warn(format_args!(
                        "the live page stopped: it cannot accept connections: {error}"
                    ));
                    return;
                }
            },
        }
    }
}

/// What every worker shares.
struct Context {
    server: Arc<Server>,
    port: u16,
    page: Arc<[u8]>,
    watchers: Arc<AtomicUsize>,
}

/// What a request asks for.
#[derive(Debug, PartialEq, Eq)]
enum Route {
    Page,
    /// The events after this `seq`.
    Events {
        since: u64,
    },
}

fn handle(mut stream: TcpStream, deadline: Instant, context: &Context) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    match read_route(&mut stream, deadline, context.port) {
        Ok(None) => {}
        Ok(Some(Route::Page)) => respond(
            &stream,
            &Answer {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: &context.page,
                allow: false,
            },
        ),
        Ok(Some(Route::Events { since })) => {
            // Counted before the thread is made, so that a burst cannot pass the bound.
            if context.watchers.fetch_add(1, Ordering::SeqCst) >= MAX_WATCHERS {
                context.watchers.fetch_sub(1, Ordering::SeqCst);
                let reason =
                    format!("{MAX_WATCHERS} pages follow the events already: close one and reload");
                return respond(&stream, &Answer::text(503, &reason));
            }
            let (server, watchers) = (context.server.clone(), context.watchers.clone());
            let spawned = std::thread::Builder::new()
                .name("live-events".into())
                .spawn(move || {
                    stream_events(&stream, &server, since);
                    watchers.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                context.watchers.fetch_sub(1, Ordering::SeqCst);
            }
        }
        Err(refusal) => {
            let mut answer = Answer::text(refusal.status, &refusal.reason);
            answer.allow = refusal.status == 405;
            respond(&stream, &answer);
            linger(&mut stream);
        }
    }
}

/// Reads and checks one request: what it asks for, or how it is refused.
fn read_route(
    stream: &mut TcpStream,
    deadline: Instant,
    port: u16,
) -> Result<Option<Route>, Refusal> {
    let Some((buffer, head_length)) = read_head(stream, deadline)? else {
        return Ok(None);
    };
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    parse_head(&mut request, &buffer[..head_length])?;
    check_host(&header_values(&request, "Host"), "")?;
    if let Some(origin) = header_values(&request, "Origin")
        .iter()
        .find(|origin| !is_own_origin(origin, port))
    {
        return Err(Refusal::new(
            403,
            format!(
                "Origin `{}` is another site: the live page's events are for the page itself",
                crate::text::one_line(origin, 80)
            ),
        ));
    }
    let method = request.method.unwrap_or_default();
    if method != "GET" {
        return Err(Refusal::new(
            405,
            format!("method {method} is not allowed: the live page is read-only (GET / and GET /events)"),
        ));
    }
    let target = request.path.unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match path {
        "/" => Ok(Some(Route::Page)),
        "/events" => {
            let last = header_values(&request, "Last-Event-ID");
            let since = since(last.first().map(String::as_str), query)?;
            Ok(Some(Route::Events { since }))
        }
        _ => Err(Refusal::new(
            404,
            format!(
                "no `{}` here: the live page is GET / and its events GET /events",
                crate::text::one_line(path, 80)
            ),
        )),
    }
}

/// The `seq` to catch up from: the browser's `Last-Event-ID` when it reconnects, else
/// `?since=N`, else 0 (everything kept).
fn since(last_event_id: Option<&str>, query: &str) -> Result<u64, Refusal> {
    let number = |text: &str, what: &str| {
        text.trim().parse::<u64>().map_err(|_| {
            Refusal::new(
                400,
                format!(
                    "{what} `{}` is not an event's number",
                    crate::text::one_line(text, 40)
                ),
            )
        })
    };
    if let Some(id) = last_event_id.filter(|id| !id.trim().is_empty()) {
        return number(id, "Last-Event-ID");
    }
    for pair in query.split('&') {
        if let Some(value) = pair.strip_prefix("since=") {
            return number(value, "since");
        }
    }
    Ok(0)
}

/// The page's own origin: `http://` and a loopback name with this server's port. A browser
/// sends no Origin with the page's own GETs; one that is there and is anything else is a
/// page of another site reading across origins.
fn is_own_origin(origin: &str, port: u16) -> bool {
    origin.strip_prefix("http://").is_some_and(|host| {
        is_loopback_host(host) && host.rsplit_once(':').map(|(_, p)| p) == Some(&port.to_string())
    })
}

/// Writes the stream's head, the kept events after `since`, then each event as it comes,
/// until the reader goes, is let go for being slow, or the server ends.
fn stream_events(mut stream: &TcpStream, server: &Server, since: u64) {
    let (watcher, past, live) = server.watch(since);
    let _ = stream.set_write_timeout(Some(STREAM_WRITE_TIMEOUT));
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\nretry: {RETRY_MS}\n\n"
    );
    let mut ok = stream.write_all(head.as_bytes()).is_ok();
    for frame in &past {
        ok = ok && stream.write_all(frame).is_ok();
    }
    ok = ok && stream.flush().is_ok();
    while ok {
        ok = match live.recv_timeout(HEARTBEAT) {
            Ok(frame) => stream
                .write_all(&frame)
                .and_then(|()| stream.flush())
                .is_ok(),
            Err(RecvTimeoutError::Timeout) => stream.write_all(b": still here\n\n").is_ok(),
            // Let go by the server (too slow to read).
            Err(RecvTimeoutError::Disconnected) => false,
        };
    }
    server.unwatch(watcher);
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// One whole answer.
struct Answer<'a> {
    status: u16,
    content_type: &'static str,
    body: &'a [u8],
    /// Says which method is allowed (405).
    allow: bool,
}

impl<'a> Answer<'a> {
    fn text(status: u16, text: &'a str) -> Answer<'a> {
        Answer {
            status,
            content_type: "text/plain; charset=utf-8",
            body: text.as_bytes(),
            allow: false,
        }
    }
}

/// The page fetches nothing and runs only its own inline script and style; its events come
/// from here.
const CSP: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'";

fn respond(mut stream: &TcpStream, answer: &Answer<'_>) {
    let newline = if answer.content_type.starts_with("text/plain") {
        "\n"
    } else {
        ""
    };
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: {CSP}\r\nReferrer-Policy: no-referrer\r\n{}Connection: close\r\n\r\n",
        answer.status,
        reason_phrase(answer.status),
        answer.content_type,
        answer.body.len() + newline.len(),
        if answer.allow { "Allow: GET\r\n" } else { "" },
    );
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(answer.body))
        .and_then(|()| stream.write_all(newline.as_bytes()))
        .and_then(|()| stream.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catch_up_starts_from_last_event_id_then_since() {
        assert_eq!(since(None, ""), Ok(0));
        assert_eq!(since(None, "since=7"), Ok(7));
        assert_eq!(since(None, "x=1&since=12"), Ok(12));
        assert_eq!(since(Some("30"), "since=7"), Ok(30));
        assert_eq!(since(Some(" "), "since=7"), Ok(7));
        assert_eq!(since(Some("abc"), "").unwrap_err().status, 400);
        assert_eq!(since(None, "since=-1").unwrap_err().status, 400);
    }

    #[test]
    fn only_the_page_own_origin_reads_its_events() {
        for origin in [
            "http://127.0.0.1:8123",
            "http://localhost:8123",
            "http://[::1]:8123",
        ] {
            assert!(is_own_origin(origin, 8123), "{origin}");
        }
        for origin in [
            "http://127.0.0.1:8124",
            "http://127.0.0.1",
            "https://127.0.0.1:8123",
            "http://evil.example:8123",
            "http://127.0.0.1:8123.evil.example",
            "null",
            "",
            "chrome-extension://abc",
        ] {
            assert!(!is_own_origin(origin, 8123), "{origin}");
        }
    }
}
