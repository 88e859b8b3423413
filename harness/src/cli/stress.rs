//! `harness stress`: judge a submission on random inputs until one fails, shrink it, and
//! show the small failing input with the expected and received outputs.

use anyhow::Result;
use clap::Args;

use super::args::Format;
use super::GlobalArgs;
use crate::session::{Output, StressRequest};

#[derive(Args, Debug, Clone)]
#[command(
    override_usage = "harness stress [OPTIONS] PROBLEM SUBMISSION\n       harness stress [OPTIONS] SUBMISSION --gen GEN [--brute BRUTE]"
)]
pub struct StressArgs {
    #[command(flatten)]
    pub request: StressRequest,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

pub fn stress(global: &GlobalArgs, args: &StressArgs) -> Result<i32> {
    global
        .session()
        .stress(&args.request, &Output::format(args.format))
}
