//! `harness gen`: the generated cases of each problem made and written, or (`--check`) only
//! compared with the committed ones.

use anyhow::Result;

use super::prepare::{build_first, compile_sources, warn_if_oversubscribed};
use super::{stream, Output, Session};
use crate::author::gen::{self, Mode};
use crate::author::program::Part;
use crate::author::validate;
use crate::config::Problem;
use crate::event::{Command, Event, Finished, Plan, Unit};
use crate::exit;
use crate::report::human::HumanOptions;

/// What `harness gen` is asked to make.
#[derive(Debug, Clone, Default)]
pub struct GenRequest {
    /// Only this problem; by default every problem with generators.
    pub problem: Option<String>,
    /// Compare only; write nothing.
    pub check: bool,
    /// Cases made at once; the cores by default.
    pub jobs: Option<usize>,
    pub no_build: bool,
    /// For a package: overwrite files of `data/` the harness did not write.
    pub force: bool,
}

impl Session {
    /// Makes the cases; with `--check`, the exit code fails when one differs.
    pub fn gen(&self, request: &GenRequest) -> Result<i32> {
        if let Some(dir) = request
            .problem
            .as_deref()
            .map(std::path::Path::new)
            .filter(|dir| crate::package::detect(dir).is_some())
        {
            return self.gen_package(request, dir);
        }
        // judge.toml's generators: no package is read for them.
        let config = self.load_config_without_packages()?;
        let problems: Vec<&Problem> = match &request.problem {
            Some(name) => vec![config.require_problem(name)?],
            None => config
                .problems
                .iter()
                .filter(|p| !p.generators.is_empty())
                .collect(),
        };
        // Every name is checked before anything is built or run.
        let planned: Vec<_> = problems
            .iter()
            .map(|p| gen::plan(p))
            .collect::<Result<_, _>>()?;
        build_first(&config, request.no_build)?;
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
        let mode = if request.check {
            Mode::Check
        } else {
            Mode::Write
        };
        let jobs = request.jobs.unwrap_or_else(validate::default_jobs).max(1);
        warn_if_oversubscribed(jobs);
        let units = (problems.iter().zip(&planned))
            .map(|(problem, cases)| unit(&problem.name, cases.iter().map(|c| c.name.clone())))
            .collect();
        let command = Command::Gen {
            check: request.check,
        };
        let plan = Plan::new(command, units, jobs, config.sandbox);
        let reports = stream(
            &plan,
            &Output::default(),
            HumanOptions::default(),
            Vec::new(),
            |on_event| {
                (problems.iter().enumerate())
                    .map(|(unit, problem)| {
                        gen::generate(&config, problem, unit, mode, jobs, on_event)
                            .map_err(Into::into)
                    })
                    .collect::<Result<Vec<_>>>()
            },
        )?;
        let changed: usize = reports.iter().map(|r| r.changed.len()).sum();
        Ok(match mode {
            Mode::Check if changed > 0 => exit::FAILED,
            _ => exit::OK,
        })
    }
}

impl Session {
    /// `harness gen PKG_DIR`: the package's `data/` from its generators.yaml, or `--check`.
    fn gen_package(&self, request: &GenRequest, dir: &std::path::Path) -> Result<i32> {
        use crate::package::generate;
        use crate::results::author::PackageGenerated;
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
        let languages = self.languages();
        let (constants, interactive) = generate::problem_settings(&root)?;
        let recipe = generate::read(&root, &constants, interactive)?;
        let started = std::time::Instant::now();
        let name = crate::package::file_name(&root);
        let unit = unit(&name, recipe.cases.iter().map(|c| c.path.clone()));
        let command = Command::Gen {
            check: request.check,
        };
        let plan = Plan::new(command, vec![unit], 1, crate::sandbox::Mode::default());
        let options = HumanOptions::default();
        let report = stream(&plan, &Output::default(), options, Vec::new(), |on_event| {
            on_event(Event::Started {
                unit: 0,
                label: &name,
            });
            let validators = generate::input_validators(&root, &constants, &languages)?;
            let context = generate::Context {
                languages: &languages,
                constants: &constants,
                interactive,
                validators: &validators,
            };
            let on_case = &mut |_: &str| on_event(Event::Generated { unit: 0 });
            let generated = generate::generate(&recipe, &context, on_case)?;
            let (diff, trash) = if request.check {
                (generate::compare(&root, &generated)?, None)
            } else {
                let applied = generate::apply(&root, &generated, request.force)?;
                (applied.diff, applied.trash)
            };
            let report = PackageGenerated {
                package: name.clone(),
                generated,
                diff,
                check: request.check,
                trash,
                elapsed: started.elapsed(),
            };
            let result = Finished::PackageGenerated(&report);
            on_event(Event::UnitFinished { unit: 0, result });
            Ok(report)
        })?;
        let (generated, diff) = (report.generated, report.diff);
        if !generated.failed.is_empty() {
            // As `bt generate`: the rest is made (and written), the failed entries said, and
            // the run fails.
            return Err(generate::GenError::Failed {
                package: name,
                failed: generated.failed,
            }
            .into());
        }
        Ok(if request.check && !diff.is_empty() {
            exit::FAILED
        } else {
            exit::OK
        })
    }
}

/// The unit of `gen`'s plan that makes `name`'s `cases`.
fn unit(name: &str, cases: impl Iterator<Item = String>) -> Unit {
    let cases: Vec<String> = cases.collect();
    Unit {
        problem: name.to_string(),
        label: name.to_string(),
        runs: cases.len(),
        cases,
        ..Unit::default()
    }
}
