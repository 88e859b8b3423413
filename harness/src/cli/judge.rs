//! `harness judge PROBLEM FILE`: judge a contest submission as an online judge would; and
//! `harness judge FILE --cases DIR` anywhere, with no judge.toml (like `oj t`); a command line
//! instead of a file with `--cmd`.

use anyhow::Result;
use clap::Args;

use super::args::OutputArgs;
use super::GlobalArgs;
use crate::session::JudgeRequest;

#[derive(Args, Debug, Clone)]
#[command(
    override_usage = "harness judge [OPTIONS] PROBLEM SOURCE\n       harness judge [OPTIONS] CONTEST_DIR LABEL SOURCE\n       harness judge [OPTIONS] SOURCE [--cases DIR]\n       harness judge [OPTIONS] [PROBLEM] --cmd COMMAND"
)]
pub struct JudgeArgs {
    #[command(flatten)]
    pub request: JudgeRequest,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn judge(global: &GlobalArgs, args: &JudgeArgs) -> Result<i32> {
    global
        .session()
        .judge(&args.request, &(&args.output).into())
}
