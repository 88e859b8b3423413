//! `harness calibrate`: measure the accepted programs and suggest a time limit per problem.

use anyhow::Result;
use clap::Args;

use super::args::{Format, HtmlArgs};
use super::GlobalArgs;
use crate::session::{CalibrateRequest, Output};

#[derive(Args, Debug, Clone)]
pub struct CalibrateArgs {
    #[command(flatten)]
    pub request: CalibrateRequest,
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    #[command(flatten)]
    pub html: HtmlArgs,
}

pub fn calibrate(global: &GlobalArgs, args: &CalibrateArgs) -> Result<i32> {
    let output = Output {
        html: args.html.html.clone(),
        force: args.html.force,
        ..Output::format(args.format)
    };
    global.session().calibrate(&args.request, &output)
}
