//! The HTTP side of receiving: a tiny_http server on 127.0.0.1 (never IPv6 `localhost` only:
//! a receiver bound there loses problems the extension sends to 127.0.0.1), one problem per
//! `POST /`, answered 200 when stored and 400 with the reason when not. It reports through
//! events and never prints.

use std::io::Read;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tiny_http::{Header, Method, Request, Response};

use super::batch::{Batches, Completed, Progress};
use super::payload::Payload;
use super::{Received, StoreError, Template};

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

/// How often the server looks at Ctrl-C and quiet batches while no request comes.
const TICK: Duration = Duration::from_millis(100);

#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("port {port} is in use{} (hint: stop that program, or pick another port with --port and add it to Competitive Companion's custom ports)", tool.map(|t| format!(": another program is listening there ({port} is {t}'s port in Competitive Companion)")).unwrap_or_else(|| ": another program is listening there".to_string()))]
    PortInUse {
        port: u16,
        tool: Option<&'static str>,
    },
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind { port: u16, source: std::io::Error },
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
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
    http: tiny_http::Server,
    port: u16,
}

/// Binds 127.0.0.1:`port` (0: any free port).
pub fn bind(port: u16) -> Result<Server, ListenError> {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let listener = TcpListener::bind(address).map_err(|source| {
        if source.kind() == std::io::ErrorKind::AddrInUse {
            ListenError::PortInUse {
                port,
                tool: tool_of(port),
            }
        } else {
            ListenError::Bind { port, source }
        }
    })?;
    let port = listener
        .local_addr()
        .map_err(|source| ListenError::Bind { port, source })?
        .port();
    let http =
        tiny_http::Server::from_listener(listener, None).map_err(|error| ListenError::Bind {
            port,
            source: std::io::Error::other(error.to_string()),
        })?;
    Ok(Server { http, port })
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
    /// A request answered 4xx (or 500 when the workspace could not be written).
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

/// A request after its body was read on its own thread.
enum Incoming {
    /// A problem to store; the request is answered once it is.
    Problem(Box<(Request, Payload)>),
    /// Refused with this status and reason (the client is being answered).
    Refused(u16, String),
}

/// Serves until `options.once` is satisfied or the harness is interrupted, storing each
/// problem into the workspace of the judge.toml at `config`.
///
/// Each request's body is read on a thread of its own: a client that announces more than it
/// sends (or never finishes) ties up that thread only, never the server. Storing stays on
/// this thread, one problem at a time, so two problems never race for an id or for judge.toml.
pub fn serve(
    server: &Server,
    config: &Path,
    options: &Options,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Stopped, ListenError> {
    let mut batches = Batches::new(options.batch_quiet);
    let (sender, incoming) = mpsc::channel();
    loop {
        if crate::sandbox::interrupt::is_interrupted() {
            for batch in batches.drain() {
                on_event(Event::BatchTimedOut(&batch));
            }
            return Ok(Stopped::Interrupted);
        }
        if let Some(request) = server.http.recv_timeout(TICK).map_err(ListenError::Serve)? {
            let sender = sender.clone();
            std::thread::spawn(move || read(request, &sender));
        }
        while let Ok(message) = incoming.try_recv() {
            let (request, payload) = match message {
                Incoming::Problem(problem) => *problem,
                Incoming::Refused(status, reason) => {
                    on_event(Event::Refused {
                        status,
                        reason: &reason,
                    });
                    continue;
                }
            };
            let template = options.template.as_ref();
            let received = match super::store(config, &payload, template) {
                Ok(received) => received,
                Err(error) => {
                    let reason = store_failed(&payload, &error);
                    on_event(Event::Refused {
                        status: 500,
                        reason: &reason,
                    });
                    respond(request, 500, &reason);
                    continue;
                }
            };
            respond(request, 200, &format!("received as `{}`", received.id));
            let progress = batches.add(received.clone(), Instant::now());
            on_event(Event::Received {
                problem: &received,
                progress: &progress,
            });
            let whole = matches!(progress, Progress::Single | Progress::Complete(_));
            if options.once && whole {
                return Ok(Stopped::Done);
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

/// Reads and parses one request's body, answering it at once when it is no problem. The
/// server hears of a refusal before it is answered: answering drops the request, which reads
/// whatever body is left, and a client may never send it.
fn read(mut request: Request, server: &mpsc::Sender<Incoming>) {
    // A send fails only when the server has stopped: then nobody is waiting.
    let refuse = |request: Request, status: u16, reason: String| {
        let _ = server.send(Incoming::Refused(status, reason.clone()));
        respond(request, status, &reason);
    };
    match request.method() {
        Method::Post => {}
        // A browser pointed at the port sees what this is.
        Method::Get | Method::Head => {
            respond(
                request,
                200,
                "harness is listening for problems from Competitive Companion (POST them as JSON)",
            );
            return;
        }
        other => {
            let reason = format!("method {other} is not allowed: POST a problem as JSON");
            return refuse(request, 405, reason);
        }
    }
    if request
        .body_length()
        .is_some_and(|length| length as u64 > MAX_BODY_BYTES)
    {
        return refuse(request, 413, too_large());
    }
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY_BYTES + 1)
        .read_to_end(&mut body);
    if let Err(error) = read {
        return refuse(request, 400, format!("cannot read the body: {error}"));
    }
    if body.len() as u64 > MAX_BODY_BYTES {
        return refuse(request, 413, too_large());
    }
    match Payload::parse(&body) {
        Ok(payload) => {
            let _ = server.send(Incoming::Problem(Box::new((request, payload))));
        }
        Err(error) => refuse(request, 400, format!("{error}; nothing was written")),
    }
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

fn respond(request: Request, status: u16, text: &str) {
    let header = Header::from_bytes(&b"Content-Type"[..], &b"text/plain; charset=utf-8"[..])
        .expect("a valid header");
    let response = Response::from_string(format!("{text}\n"))
        .with_status_code(status)
        .with_header(header);
    // The extension ignores the answer and may have given up waiting (500 ms): a client that
    // went away is no error of the server's.
    let _ = request.respond(response);
}
