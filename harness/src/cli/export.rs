//! `harness export PROBLEM [--for kattis|domjudge] [--out DIR | FILE.zip]`: write a problem as
//! an ICPC/Kattis package; `harness export --contest [PROBLEM…]`: the problems as a contest.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};

use crate::exit;
use crate::export::{self, contest, Dialect, Measure, Options};
use crate::judge::verify;
use crate::report::progress::Progress;

use super::GlobalArgs;

/// The tool the package is for, where one package cannot please both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum For {
    /// The 2023-07-draft (2025-09) format as problemtools' verifyproblem and Kattis read it,
    /// with DOMjudge's `.timelimit` and a statement it shows.
    Kattis,
    /// The legacy format with the keys DOMjudge 8.3 and 9.0 read (`validator_flags`,
    /// `validation`, `output_validators/`), as BAPCtools' `bt zip --legacy` writes it.
    Domjudge,
}

#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// The problem, by its id in judge.toml; with --contest, the problems, labelled A, B, … in
    /// this order (all of them by id when none is named).
    pub problems: Vec<String>,
    /// Write a contest: a folder with contest.yaml, problems.yaml, and each problem as a zip
    /// and as a folder, as DOMjudge's contest import takes them.
    #[arg(long)]
    pub contest: bool,
    /// The dialect.
    #[arg(long = "for", value_enum, default_value_t = For::Kattis, value_name = "TOOL")]
    pub for_tool: For,
    /// Where to write it: a folder, or a zip when the name ends in `.zip` (problem.yaml at
    /// its root, as DOMjudge wants) [default: the problem's short name, its letters and
    /// digits, as a zip in the current folder: `queensboards.zip` for `queens-boards`; with
    /// --contest, the folder `contest`].
    #[arg(long, value_name = "DIR|FILE.zip")]
    pub out: Option<PathBuf>,
    /// With --contest: also hand off a contest day, the teams and submissions of DIR (a
    /// coach's folder per team or a CLICS package's, as `harness contest` reads them), as a
    /// CLICS contest package holds them: groups.json, teams.json, accounts.json,
    /// submissions.json at their original ids and times, submissions/<id>/files.zip. The
    /// problems are judge.toml's with a `label` (or those named), its contest.yaml the rules.
    #[arg(long, value_name = "DIR", requires = "contest")]
    pub with_submissions: Option<PathBuf>,
    /// The folder of stored submissions [default: solutions/submissions beside judge.toml].
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<PathBuf>,
    /// Do not judge the accepted submissions in the exported package to check the time limit
    /// against problemtools' rule (slowest × 2 ≤ limit).
    #[arg(long)]
    pub no_measure: bool,
    /// Cases to run at once while measuring [default: the number of CPUs, at most 4].
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
}

pub fn export(global: &GlobalArgs, args: &ExportArgs) -> Result<i32> {
    let names: Vec<&str> = args.problems.iter().map(String::as_str).collect();
    let config = global.session().load_config(&names)?;
    let submissions = args
        .submissions
        .clone()
        .unwrap_or_else(|| config.root.join(verify::DEFAULT_FOLDER));
    let dialect = match args.for_tool {
        For::Kattis => Dialect::Kattis,
        For::Domjudge => Dialect::Domjudge,
    };
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(4)
    });
    let mut bar: Option<Progress> = None;
    let mut progress = |label: &str, total: Option<usize>| match total {
        Some(total) => {
            if let Some(done) = bar.take() {
                done.finish();
            }
            let mut next = Progress::stderr(total);
            next.set_label(&format!(
                "{label}: accepted submissions, for the time limit"
            ));
            bar = Some(next);
        }
        None => {
            if let Some(bar) = bar.as_mut() {
                bar.tick();
            }
        }
    };
    let mut options = Options {
        dialect,
        measure: (!args.no_measure).then(|| Measure {
            languages: crate::package::languages(Some(&config)),
            jobs,
            progress: &mut progress,
        }),
    };
    let mut stdout = anstream::stdout().lock();
    if args.contest {
        let labelled = || {
            let mut labelled: Vec<&crate::config::Problem> = config
                .problems
                .iter()
                .filter(|p| p.label.is_some())
                .collect();
            labelled.sort_by_key(|p| {
                let label = p.label.as_deref().unwrap_or_default();
                (label.len(), label.to_ascii_uppercase())
            });
            labelled
        };
        let problems: Vec<&crate::config::Problem> = if args.problems.is_empty() {
            // A judge.toml that has a contest (problems with a label) exports that contest.
            match labelled() {
                labelled if labelled.is_empty() => config.problems.iter().collect(),
                labelled => labelled,
            }
        } else {
            args.problems
                .iter()
                .map(|id| config.require_problem(id))
                .collect::<Result<_, _>>()?
        };
        let out = args.out.clone().unwrap_or_else(|| PathBuf::from("contest"));
        // The day is read, and what is wrong with it named, before anything is written.
        let day = match &args.with_submissions {
            Some(dir) => Some(export::handoff::read(
                &config,
                &problems,
                &contest::labels(&problems),
                dir,
            )?),
            None => None,
        };
        let exported = contest::export_contest(
            &config,
            &problems,
            !args.problems.is_empty(),
            &submissions,
            &out,
            &mut options,
            day.as_ref(),
        )?;
        drop(options);
        if let Some(bar) = bar.take() {
            bar.finish();
        }
        crate::report::package::write_contest_exported(&mut stdout, &out, &exported)?;
        if let Some(day) = &day {
            writeln!(
                stdout,
                "with the day of {}: {} teams (groups.json, teams.json, accounts.json) and {} submissions at their ids and times (submissions.json, submissions/<id>/files.zip)",
                crate::report::shown_path(&day.dir),
                day.teams(),
                day.submissions()
            )?;
            for warning in day.warnings(&problems, &contest::labels(&problems)) {
                crate::report::notice::write_warning(&mut stdout, &warning)?;
            }
        }
        stdout.flush()?;
        return Ok(if exported.problems.is_empty() {
            exit::ERROR
        } else {
            exit::OK
        });
    }
    let [id] = args.problems.as_slice() else {
        anyhow::bail!(
            "`harness export` writes one problem: name one (hint: --contest writes several)"
        );
    };
    let problem = config.require_problem(id)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.zip", export::short_name(&problem.name))));
    let exported = export::export(&config, problem, &submissions, &out, &mut options)?;
    drop(options);
    if let Some(bar) = bar.take() {
        bar.finish();
    }
    crate::report::package::write_exported(&mut stdout, &problem.name, &out, &exported)?;
    stdout.flush()?;
    Ok(exit::OK)
}
