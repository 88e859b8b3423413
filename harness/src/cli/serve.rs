//! `harness serve`: the judge as a server for editors (JSON-RPC 2.0 a line, on stdin and
//! stdout or a Unix socket).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::GlobalArgs;
use crate::serve::{self, ServeOptions};

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Listen on this Unix socket (made mode 0600; a stale one from a dead server is
    /// replaced) instead of stdin and stdout; several clients may connect at once.
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
}

pub fn serve(global: &GlobalArgs, args: &ServeArgs) -> Result<i32> {
    serve::serve(&ServeOptions {
        socket: args.socket.clone(),
        config: global.config.clone(),
    })
}
