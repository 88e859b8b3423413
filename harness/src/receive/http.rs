//! The HTTP/1.1 both loopback servers of the harness speak: the receiver of `harness listen`
//! (and `harness serve --receive`) and the live page of `harness serve --http`. A request's
//! head read within a deadline and parsed with httparse, the Host check against DNS
//! rebinding, the answers' status lines, and what a failed accept(2) means. Each server keeps
//! its own rules of what it takes.

use std::io::{self, Read};
use std::net::{Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Binds 127.0.0.1:`port` (0: any free port): the listener and the port it got.
pub fn bind_loopback(port: u16) -> io::Result<(TcpListener, u16)> {
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
    let port = listener.local_addr()?.port();
    Ok((listener, port))
}

/// A connection, and when its request must have arrived.
pub type Accepted = (TcpStream, Instant);

/// Starts `workers` threads named `<name>-N`, each with its own `state()`, that read the
/// connections sent to the returned queue (of `queued` places) one at a time with `handle`.
/// Every thread is made here, before the first request.
pub fn start_workers<S: Send + 'static>(
    name: &str,
    workers: usize,
    queued: usize,
    state: impl Fn() -> S,
    handle: fn(TcpStream, Instant, &S),
) -> io::Result<SyncSender<Accepted>> {
    let (jobs, waiting) = mpsc::sync_channel::<Accepted>(queued);
    let waiting = Arc::new(Mutex::new(waiting));
    for number in 0..workers {
        let (waiting, state) = (Arc::clone(&waiting), state());
        std::thread::Builder::new()
            .name(format!("{name}-{number}"))
            .spawn(move || loop {
                // A worker that panicked while holding the lock left nothing half-done in it.
                let next = waiting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .recv();
                let Ok((stream, deadline)) = next else {
                    return;
                };
                handle(stream, deadline, &state);
            })?;
    }
    Ok(jobs)
}

/// A request head larger than this is refused (431): a browser's is under 2 KiB.
pub const MAX_HEAD_BYTES: usize = 64 << 10;
pub const MAX_HEADERS: usize = 64;

/// How long an answer may take to write: it is a line of text into a fresh socket.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a request may take to arrive, head and body, from the moment it is accepted.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(5);

/// What is read of a client that was refused before the connection closes.
const LINGER_BYTES: usize = 16 << 20;

/// A request answered with a status and a line saying why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub reason: String,
}

impl Refusal {
    pub fn new(status: u16, reason: impl Into<String>) -> Refusal {
        Refusal {
            status,
            reason: reason.into(),
        }
    }
}

/// Reads a request's head within `deadline`: the bytes read (the head and what came after
/// it) and where the head ends; `None` for a connection closed before it said anything.
pub fn read_head(
    stream: &mut TcpStream,
    deadline: Instant,
) -> Result<Option<(Vec<u8>, usize)>, Refusal> {
    let mut buffer = Vec::with_capacity(4096);
    loop {
        if let Some(end) = find_head_end(&buffer) {
            return Ok(Some((buffer, end)));
        }
        if buffer.len() > MAX_HEAD_BYTES {
            return Err(Refusal::new(
                431,
                format!(
                    "the request's head is larger than {} KiB",
                    MAX_HEAD_BYTES >> 10
                ),
            ));
        }
        match read_some(stream, &mut buffer, deadline)? {
            0 if buffer.is_empty() => return Ok(None),
            0 => return Err(closed_early()),
            _ => {}
        }
    }
}

/// Parses a head [`read_head`] read.
pub fn parse_head<'h, 'b>(
    request: &mut httparse::Request<'h, 'b>,
    head: &'b [u8],
) -> Result<(), Refusal> {
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => Ok(()),
        Ok(httparse::Status::Partial) => Err(Refusal::new(
            400,
            "not an HTTP request: its head is cut short",
        )),
        Err(httparse::Error::TooManyHeaders) => Err(Refusal::new(
            431,
            format!("the request has more than {MAX_HEADERS} headers"),
        )),
        Err(error) => Err(Refusal::new(400, format!("not an HTTP request: {error}"))),
    }
}

/// The values of every header `name` of the request, trimmed.
pub fn header_values(request: &httparse::Request<'_, '_>, name: &str) -> Vec<String> {
    request
        .headers
        .iter()
        .filter(|header| header.name.eq_ignore_ascii_case(name))
        .map(|header| String::from_utf8_lossy(header.value).trim().to_string())
        .collect()
}

/// The request's one Host (its values of `Host`), when it names this machine; why it is
/// refused when not. `then` ends the reason (what the refusal left undone).
pub fn check_host(hosts: &[String], then: &str) -> Result<String, Refusal> {
    match hosts {
        [host] if is_loopback_host(host) => Ok(host.clone()),
        [] => Err(Refusal::new(
            403,
            format!("no Host header: only requests to localhost, 127.0.0.1 or [::1] are taken;{then}"),
        )),
        [host] => Err(Refusal::new(
            403,
            format!(
                "Host `{}` is not localhost, 127.0.0.1 or [::1]: a web page that reached this port by DNS rebinding?{then}",
                crate::text::one_line(host, 80)
            ),
        )),
        _ => Err(Refusal::new(400, "more than one Host header")),
    }
}

/// What a failed accept(2) means for the server.
#[derive(Debug, PartialEq, Eq)]
pub enum AcceptFailure {
    /// One connection went wrong (it was reset before it was accepted, a signal came).
    Again,
    /// The process or the machine is out of descriptors, buffers or memory for now.
    ShortOfResources,
    /// The listening socket itself is broken.
    ForGood,
}

pub fn accept_failure(error: &io::Error) -> AcceptFailure {
    match error.raw_os_error() {
        Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM | libc::EAGAIN) => {
            AcceptFailure::ShortOfResources
        }
        Some(
            libc::ECONNABORTED
            | libc::EINTR
            | libc::EPROTO
            | libc::EPERM
            | libc::ENETDOWN
            | libc::ENOPROTOOPT
            | libc::EHOSTDOWN
            | libc::ENONET
            | libc::EHOSTUNREACH
            | libc::EOPNOTSUPP
            | libc::ENETUNREACH,
        ) => AcceptFailure::Again,
        _ if error.kind() == io::ErrorKind::Interrupted => AcceptFailure::Again,
        _ => AcceptFailure::ForGood,
    }
}

/// `localhost`, `127.0.0.1` or `[::1]`, with or without a port.
pub fn is_loopback_host(host: &str) -> bool {
    let (name, port) = if host.starts_with('[') {
        match host.find(']') {
            Some(end) => host.split_at(end + 1),
            None => return false,
        }
    } else {
        host.split_at(host.find(':').unwrap_or(host.len()))
    };
    let port_ok = match port.strip_prefix(':') {
        Some(digits) => {
            (1..=5).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
        }
        None => port.is_empty(),
    };
    port_ok && (name.eq_ignore_ascii_case("localhost") || name == "127.0.0.1" || name == "[::1]")
}

/// Where the head ends (after its blank line), if it has.
pub fn find_head_end(buffer: &[u8]) -> Option<usize> {
    buffer
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .map(|at| at + 4)
}

/// Reads what has come, appending it; 0 at the end of the stream. A client that sends nothing
/// until the deadline is refused 408.
pub fn read_some(
    stream: &mut TcpStream,
    buffer: &mut Vec<u8>,
    deadline: Instant,
) -> Result<usize, Refusal> {
    let too_slow = || {
        Refusal::new(
            408,
            format!(
                "the request did not arrive within {} s",
                REQUEST_DEADLINE.as_secs()
            ),
        )
    };
    let mut chunk = [0; 16 << 10];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(too_slow());
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|error| Refusal::new(400, format!("cannot read the request: {error}")))?;
        match stream.read(&mut chunk) {
            Ok(read) => {
                buffer.extend_from_slice(&chunk[..read]);
                return Ok(read);
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Err(too_slow())
            }
            Err(error) => {
                return Err(Refusal::new(
                    400,
                    format!("cannot read the request: {error}"),
                ))
            }
        }
    }
}

pub fn closed_early() -> Refusal {
    Refusal::new(
        400,
        "the client closed the connection before the request ended",
    )
}

/// After a refusal, the rest of what the client sends is read and dropped for a moment
/// before the connection closes: closing with unread data resets it, and the client may lose
/// the answer.
pub fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let until = Instant::now() + Duration::from_millis(500);
    let mut drained = 0;
    let mut chunk = [0; 16 << 10];
    while drained < LINGER_BYTES {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(read) => drained += read,
        }
    }
}

/// Reads what the client has sent already, without waiting: a connection closed with unread
/// data is reset, and the client may lose the answer written just before.
pub fn drain(mut stream: &TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    if stream.set_nonblocking(true).is_err() {
        return;
    }
    let mut chunk = [0; 16 << 10];
    for _ in 0..16 {
        match stream.read(&mut chunk) {
            Ok(read) if read > 0 => {}
            _ => return,
        }
    }
}

pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        507 => "Insufficient Storage",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_with_or_without_a_port() {
        for host in [
            "localhost",
            "localhost:4244",
            "LocalHost:1",
            "127.0.0.1",
            "127.0.0.1:27121",
            "[::1]",
            "[::1]:4244",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:4244",
            "localhost.evil.example",
            "127.0.0.1.nip.io:4244",
            "localhost:",
            "localhost:42x",
            "localhost:4244:1",
            "[::1",
            "[::1]x",
            "[::2]:4244",
            "127.0.0.2",
            "",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn accept_failures_are_told_apart() {
        let of = |code| accept_failure(&io::Error::from_raw_os_error(code));
        assert_eq!(of(libc::EMFILE), AcceptFailure::ShortOfResources);
        assert_eq!(of(libc::ENFILE), AcceptFailure::ShortOfResources);
        assert_eq!(of(libc::ECONNABORTED), AcceptFailure::Again);
        assert_eq!(of(libc::EINTR), AcceptFailure::Again);
        assert_eq!(of(libc::EBADF), AcceptFailure::ForGood);
        assert_eq!(of(libc::EINVAL), AcceptFailure::ForGood);
    }
}
