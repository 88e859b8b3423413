//! `harness serve`: the judge as a long-running JSON-RPC 2.0 server, one JSON object a line,
//! on stdin/stdout or a Unix socket, for editors. A `judge` or `stress` request is a task:
//! the session's own `judge` or `stress` on a thread of its own, its events turned into
//! `event` notifications by a reporter of the one event stream, numbered across the server
//! and kept for a client that reconnects. The protocol is docs/src/reference/protocol.md.

mod diagnostics;
mod notify;
mod params;
mod problems;
mod rpc;
mod server;
mod transport;

use std::path::PathBuf;

use anyhow::Result;

use crate::exit;

/// How the server is reached.
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    /// A Unix socket instead of stdin and stdout.
    pub socket: Option<PathBuf>,
    /// The judge.toml of every request that names none.
    pub config: Option<PathBuf>,
}

/// Serves until stdin ends (stdio), `shutdown`, or SIGTERM/SIGINT.
pub fn serve(options: &ServeOptions) -> Result<i32> {
    let server = server::Server::new(options.config.clone());
    match &options.socket {
        Some(path) => transport::socket(&server, path)?,
        None => transport::stdio(&server)?,
    }
    Ok(if crate::sandbox::interrupt::is_interrupted() {
        exit::INTERRUPTED
    } else {
        exit::OK
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
