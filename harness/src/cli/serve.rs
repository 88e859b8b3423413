//! `harness serve`: the judge as a server for editors (JSON-RPC 2.0 a line, on stdin and
//! stdout or a Unix socket), with the live page (`--http`) and Competitive Companion's
//! receiver (`--receive`) beside it.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use super::GlobalArgs;
use crate::serve::{self, Receiving, ServeOptions};

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Listen on this Unix socket (made mode 0600; a stale one from a dead server is
    /// replaced) instead of stdin and stdout; several clients may connect at once.
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// Serve the live page on 127.0.0.1:PORT (0: any free port, printed on stderr): the
    /// tasks the editors start, live. Read-only: it starts nothing.
    #[arg(long, value_name = "PORT")]
    pub http: Option<u16>,
    /// Receive problems from Competitive Companion on 127.0.0.1:PORT (default 4244, as
    /// `harness listen`), store them as `harness listen` does and tell every client
    /// (`problem.received`).
    // 4244: receive::server::DEFAULT_PORT, which clap cannot take as a default's text.
    #[arg(long, value_name = "PORT", num_args = 0..=1, default_missing_value = "4244")]
    pub receive: Option<u16>,
    /// With --receive: the workspace (judge.toml in DIR, made if missing; default: the
    /// judge.toml found walking up from here, else a new one here).
    #[arg(long, value_name = "DIR", requires = "receive")]
    pub dir: Option<PathBuf>,
}

pub fn serve(global: &GlobalArgs, args: &ServeArgs) -> Result<i32> {
    let receive = match args.receive {
        Some(port) => {
            let config = global.session().workspace_file(args.dir.as_deref())?;
            Some(Receiving {
                port,
                config: std::path::absolute(&config).unwrap_or(config),
                template: super::listen::user_template()?,
                batch_quiet: Duration::from_secs(30),
            })
        }
        None => None,
    };
    serve::serve(&ServeOptions {
        socket: args.socket.clone(),
        config: global.config.clone(),
        http: args.http,
        receive,
    })
}
