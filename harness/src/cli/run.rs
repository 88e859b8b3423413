//! `harness run`: build, then judge every selected problem's solution on its cases.

use anyhow::Result;
use clap::Args;

use super::args::OutputArgs;
use super::GlobalArgs;
use crate::session::RunRequest;

#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct RunArgs {
    #[command(flatten)]
    pub request: RunRequest,
    #[command(flatten)]
    pub output: OutputArgs,
}

impl RunArgs {
    /// The options as parsed from an empty command line: what "no option given" looks like.
    pub fn from_nothing() -> RunArgs {
        use clap::FromArgMatches;
        let command = <RunArgs as Args>::augment_args(clap::Command::new("run"));
        let matches = command.get_matches_from(["run"]);
        RunArgs::from_arg_matches(&matches).expect("empty arguments always parse")
    }
}

pub fn run(global: &GlobalArgs, args: &RunArgs) -> Result<i32> {
    global.session().run(&args.request, &(&args.output).into())
}
