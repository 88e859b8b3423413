//! `harness verify [PROBLEM…]`: judge every stored submission and check it gets the verdict
//! its folder names.

use anyhow::Result;
use clap::Args;

use super::args::OutputArgs;
use super::GlobalArgs;
use crate::session::VerifyRequest;

#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub request: VerifyRequest,
    /// With `-q`, only the submissions that MISMATCH; with `-v`, every case each one was
    /// judged on under its row; `--junit` writes a test per stored submission.
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn verify(global: &GlobalArgs, args: &VerifyArgs) -> Result<i32> {
    global
        .session()
        .verify(&args.request, &(&args.output).into())
}
