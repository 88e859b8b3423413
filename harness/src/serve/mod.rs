//! `harness serve`: the judge as a long-running JSON-RPC 2.0 server, one JSON object a line,
//! on stdin/stdout or a Unix socket, for editors. A `judge` or `stress` request is a task:
//! the session's own `judge` or `stress` on a thread of its own, its events turned into
//! `event` notifications by a reporter of the one event stream, numbered across the server
//! and kept for a client that reconnects. The protocol is docs/src/reference/protocol.md.

mod diagnostics;
mod http;
mod notify;
mod params;
mod problems;
mod received;
mod rpc;
mod server;
mod transport;

use std::path::PathBuf;

use anyhow::Result;

use crate::exit;

pub use received::Receiving;

/// How the server is reached.
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    /// A Unix socket instead of stdin and stdout.
    pub socket: Option<PathBuf>,
    /// The judge.toml of every request that names none.
    pub config: Option<PathBuf>,
    /// `--http PORT`: the live page on 127.0.0.1 (0: any free port).
    pub http: Option<u16>,
    /// `--receive`: Competitive Companion's problems, stored and told as `problem.received`.
    pub receive: Option<Receiving>,
}

/// Serves until stdin ends (stdio), `shutdown`, or SIGTERM/SIGINT.
pub fn serve(options: &ServeOptions) -> Result<i32> {
    let server = server::Server::new(options.config.clone());
    // Both ports are taken before anything is served, so that one in use is the command's
    // error, not a warning after the editor connected.
    let live = options.http.map(http::bind).transpose()?;
    let receiver = options.receive.as_ref().map(received::bind).transpose()?;
    server.open_doors(server::Doors {
        http: live.as_ref().map(http::Live::port),
        receive: receiver.as_ref().map(received::Bound::port),
    });
    // The doors' threads start once the socket is bound: binding it sets the process's
    // umask for a moment, which no other thread may see while making a file.
    let open = {
        let server = server.clone();
        move || -> Result<()> {
            if let Some(live) = live {
                say(format_args!(
                    "live page on http://127.0.0.1:{}/",
                    live.port()
                ));
                http::start(live, &server)?;
            }
            if let Some(receiver) = receiver {
                say(format_args!(
                    "receiving problems from Competitive Companion on http://127.0.0.1:{} into `{}`",
                    receiver.port(),
                    receiver.config().display()
                ));
                received::start(receiver, server)?;
            }
            Ok(())
        }
    };
    match &options.socket {
        Some(path) => transport::socket(&server, path, open)?,
        None => {
            open()?;
            transport::stdio(&server)?;
        }
    }
    Ok(if crate::sandbox::interrupt::is_interrupted() {
        exit::INTERRUPTED
    } else {
        exit::OK
    })
}

/// A line on stderr, where the server's own words go.
fn say(message: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(anstream::stderr(), "{message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_of_the_page_is_caught_up_then_let_go_when_it_falls_behind() {
        let server = server::Server::new(None);
        let event = |n: u64| {
            let mut fields = serde_json::Map::new();
            fields.insert("iteration".into(), n.into());
            fields
        };
        server.emit(1, "stress.progress", event(1));
        server.emit(1, "stress.progress", event(2));
        let (_, past, live) = server.watch(1);
        let text = |frame: &[u8]| String::from_utf8(frame.to_vec()).unwrap();
        assert_eq!(past.len(), 1);
        assert!(
            text(&past[0]).starts_with("id: 2\ndata: {"),
            "{}",
            text(&past[0])
        );
        server.emit(1, "stress.progress", event(3));
        assert!(text(&live.recv().unwrap()).starts_with("id: 3\n"));
        // It reads no more: once its queue is full it is let go, and the server goes on.
        for n in 0..5000 {
            server.emit(1, "stress.progress", event(n));
        }
        let kept = live.try_iter().count();
        assert!(kept > 0 && kept < 5000, "{kept}");
        assert!(live.recv().is_err(), "a reader that fell behind is let go");
        let (_, past, _) = server.watch(5000);
        assert_eq!(past.len(), 3, "the log has what it missed");
    }

    #[test]
    fn every_listed_method_is_served_and_no_other() {
        let server = server::Server::new(None);
        let (client, _outbox) = server.connect();
        use rpc::METHODS;
        for method in METHODS.iter().chain(&["nothing", "judge.x"]) {
            let code = server.call_for_test(client, method);
            let found = code != Some(rpc::METHOD_NOT_FOUND);
            assert_eq!(found, METHODS.contains(method), "{method}");
        }
    }
}
