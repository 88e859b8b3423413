//! `harness judge PROBLEM FILE`: judge a contest submission as an online judge would; and
//! `harness judge FILE --cases DIR` anywhere, with no judge.toml (like `oj t`); a command line
//! instead of a file with `--cmd`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::args::{InteractorProtocolArg, LimitArgs, OutputArgs};
use super::GlobalArgs;
use crate::case::partition::Partition;
use crate::session::JudgeRequest;

#[derive(Args, Debug, Clone)]
#[command(
    override_usage = "harness judge [OPTIONS] PROBLEM SOURCE\n       harness judge [OPTIONS] CONTEST_DIR LABEL SOURCE\n       harness judge [OPTIONS] SOURCE [--cases DIR]\n       harness judge [OPTIONS] [PROBLEM] --cmd COMMAND"
)]
pub struct JudgeArgs {
    /// The problem, by its id in judge.toml, or a problem package folder (Kattis/ICPC,
    /// Polygon, a CMS or TPS task) judged as it is; or, alone, the source file to judge on the cases of `--cases`
    /// (default `test/`, as online-judge-tools downloads them), no judge.toml needed. With
    /// `--cmd`, the problem alone, or nothing (the cases of `--cases`, default `test/`).
    #[arg(value_name = "PROBLEM|PKG_DIR", required_unless_present = "cmd")]
    pub problem: Option<String>,
    /// The source file to judge; its extension picks the language. After a contest folder
    /// (one with problems.yaml), the problem's label (`A`) or short name instead.
    #[arg(value_name = "SOURCE")]
    pub source: Option<PathBuf>,
    /// After a contest folder and a problem's label: the source file.
    #[arg(value_name = "CONTEST_SOURCE", hide = true)]
    pub contest_source: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The language, by its id in judge.toml (`[languages.<id>]`), whatever the extension.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Judge this command line instead of a source (`--cmd "java Main"`, `--cmd "python3
    /// sol.py"`), run with the current folder's files (not its cases) in its own folder. Its
    /// program is found on PATH, or is a path (`./a.out`).
    #[arg(
        long,
        value_name = "COMMAND",
        conflicts_with_all = ["source", "lang", "sanitize", "input", "watch", "interactor"]
    )]
    pub cmd: Option<String>,
    /// Judge on the `.in`/`.ans` pairs of this folder (a downloaded test set) instead.
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,
    /// Judge only the cases whose name matches (a name or a glob such as `all-0*`).
    #[arg(short, long, value_name = "NAME|GLOB")]
    pub case: Option<String>,
    /// Cases to run at once. One by default: the times are what you read.
    #[arg(short, long, default_value_t = 1, value_name = "N", value_parser = super::args::parse_jobs)]
    pub jobs: usize,
    /// Stop at the first failing case (in case order), as most online judges do. A pass-fail
    /// problem stops there anyway (its verdict is settled); this stops a scored one too.
    #[arg(long)]
    pub fail_fast: bool,
    /// Skip judge.toml's build command (only run when the problem's checker is a program).
    #[arg(long)]
    pub no_build: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Rerun only the cases that failed the last time this source was judged on this problem
    /// (or folder of cases).
    #[arg(long)]
    pub failed: bool,
    /// Run on this input instead of the cases (`-` reads it from stdin): print the output, the
    /// time and memory, and with the problem's reference its answer and the checker's verdict.
    #[arg(long, value_name = "FILE|-")]
    pub input: Option<PathBuf>,
    /// Judge again whenever the source file or a case changes (a case added, edited or
    /// removed; Ctrl-C stops), clearing the screen between runs.
    #[arg(long)]
    pub watch: bool,
    /// Judge only the K-th of N stable slices of the cases (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
    /// Build C and C++ with AddressSanitizer and UndefinedBehaviorSanitizer (Rust with debug
    /// assertions and overflow checks): a bad access or an overflow is an RE naming its line.
    #[arg(long)]
    pub sanitize: bool,
    /// The interactor of an interactive problem: a source file (compiled like a submission)
    /// or a program with its arguments; each case's input and answer go to it.
    #[arg(long, value_name = "PROGRAM")]
    pub interactor: Option<String>,
    /// How `--interactor` is called.
    #[arg(long, value_enum, value_name = "PROTOCOL", requires = "interactor")]
    pub interactor_protocol: Option<InteractorProtocolArg>,
}

pub fn judge(global: &GlobalArgs, args: &JudgeArgs) -> Result<i32> {
    let request = JudgeRequest {
        problem: args.problem.clone().unwrap_or_default(),
        cmd: args.cmd.clone(),
        source: args.source.clone(),
        limits: (&args.limits).into(),
        lang: args.lang.clone(),
        cases: args.cases.clone(),
        case: args.case.clone(),
        jobs: args.jobs,
        fail_fast: args.fail_fast,
        no_build: args.no_build,
        failed: args.failed,
        input: args.input.clone(),
        watch: args.watch,
        partition: args.partition,
        contest_source: args.contest_source.clone(),
        sanitize: args.sanitize,
        interactor: args.interactor.clone(),
        interactor_protocol: args.interactor_protocol.map(Into::into),
    };
    global.session().judge(&request, &(&args.output).into())
}
