//! `harness gen`: rebuild the generated cases, or check that they are reproducible.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use clap::Args;

use crate::author::gen::{self, GenEvent, Mode};
use crate::author::validate;
use crate::config::Problem;
use crate::exit;
use crate::report::author as author_report;
use crate::report::progress::Progress;

use super::{build_first, compile_sources, load_config, GlobalArgs};
use crate::author::program::Part;

#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    /// Only this problem (default: every problem with generators); or a problem package
    /// folder, whose `data/` is written from its `generators/generators.yaml` (BAPCtools'
    /// recipe).
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problem: Option<String>,
    /// For a package: overwrite or remove files of `data/` the harness did not write (they
    /// are moved to a trash folder first, which is named).
    #[arg(long)]
    pub force: bool,
    /// Regenerate in a temporary folder and report every case that differs from the committed
    /// one (exit 1 if any); writes nothing.
    #[arg(long)]
    pub check: bool,
    /// Cases to generate at once (default: the number of cores).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Skip judge.toml's build command (generators, validators and references are built).
    #[arg(long)]
    pub no_build: bool,
}

pub fn gen(global: &GlobalArgs, args: &GenArgs) -> Result<i32> {
    if let Some(dir) = args
        .problem
        .as_deref()
        .map(std::path::Path::new)
        .filter(|dir| crate::package::detect(dir).is_some())
    {
        return gen_package(global, args, dir);
    }
    let config = load_config(global)?;
    let problems: Vec<&Problem> = match &args.problem {
        Some(name) => vec![config.require_problem(name)?],
        None => config
            .problems
            .iter()
            .filter(|p| !p.generators.is_empty())
            .collect(),
    };
    // Every name is checked before anything is built or run.
    for problem in &problems {
        gen::plan(problem)?;
    }
    build_first(&config, args.no_build)?;
    let names: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let config = compile_sources(
        config,
        &names,
        &[Part::Generators, Part::Validator, Part::Reference],
    )?;
    let problems: Vec<&Problem> = names
        .iter()
        .map(|name| config.require_problem(name))
        .collect::<Result<_, _>>()?;
    let mode = if args.check { Mode::Check } else { Mode::Write };
    let jobs = args.jobs.unwrap_or_else(validate::default_jobs).max(1);
    super::warn_if_oversubscribed(jobs);

    let started = Instant::now();
    let mut stdout = anstream::stdout().lock();
    let mut reports = Vec::new();
    for problem in problems {
        let progress = std::sync::Mutex::new(Progress::stderr(0));
        progress
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .set_label(&problem.name);
        let on_event = |event: GenEvent| {
            let mut progress = progress
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match event {
                GenEvent::Started { cases, .. } => progress.set_total(cases),
                GenEvent::CaseDone => progress.tick(),
            }
        };
        let report = gen::generate(&config, problem, mode, jobs, &on_event);
        progress
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .finish();
        let report = report?;
        author_report::write_gen(&mut stdout, &report)?;
        reports.push(report);
    }
    let total: usize = reports.iter().map(|r| r.total).sum();
    let changed: usize = reports.iter().map(|r| r.changed.len()).sum();
    author_report::write_gen_summary(&mut stdout, mode, total, changed, started.elapsed())?;
    let code = match mode {
        Mode::Check if changed > 0 => exit::FAILED,
        _ => exit::OK,
    };
    stdout.flush()?;
    Ok(code)
}

/// `harness gen PKG_DIR`: the package's `data/` from its generators.yaml, or `--check`.
fn gen_package(global: &GlobalArgs, args: &GenArgs, dir: &std::path::Path) -> Result<i32> {
    use crate::package::generate;
    let root = dir
        .canonicalize()
        .map_err(|e| anyhow::anyhow!("cannot read `{}`: {e}", dir.display()))?;
    if !root.join(generate::RECIPE).is_file() {
        anyhow::bail!(
            "`{}` has no `{}` to generate its data from (hint: `harness gen` writes a package's `data/` from BAPCtools' recipe)",
            dir.display(),
            generate::RECIPE
        );
    }
    let languages = super::package::languages(global);
    let (constants, interactive) = generate::problem_settings(&root)?;
    let recipe = generate::read(&root, &constants)?;
    let started = Instant::now();
    let mut progress = Progress::stderr(recipe.cases.len());
    progress.set_label(&crate::package::file_name(&root));
    let context = generate::Context {
        languages: &languages,
        constants: &constants,
        interactive,
    };
    let generated = generate::generate(&recipe, &context, &mut |_| progress.tick());
    progress.finish();
    let generated = generated?;
    let mut stdout = anstream::stdout().lock();
    let name = crate::package::file_name(&root);
    let (diff, trash) = if args.check {
        (generate::compare(&root, &generated)?, None)
    } else {
        let applied = generate::apply(&root, &generated, args.force)?;
        (applied.diff, applied.trash)
    };
    crate::report::package::write_generated(
        &mut stdout,
        &name,
        &generated,
        &diff,
        args.check,
        trash.as_deref(),
        started.elapsed(),
    )?;
    stdout.flush()?;
    Ok(if args.check && !diff.is_empty() {
        exit::FAILED
    } else {
        exit::OK
    })
}
