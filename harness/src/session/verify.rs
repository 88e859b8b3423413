//! `harness verify`: every stored submission judged against the verdict it is stored under,
//! from `solutions/submissions/` or from package folders.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::prepare::{build_checkers, compile_sources};
use super::{packages, stream, Output, Session};
use crate::author::program::Part;
use crate::case::partition::Partition;
use crate::event::{Command, Plan, Unit};
use crate::exit;
use crate::judge::verify::{self, Skipped, Stored};
use crate::report::human::HumanOptions;

/// Most stored submissions that fail do so on their first case, so every job runs one
/// program at its memory limit at once: a memory-hungry one on a 64-core machine must not
/// take 64 times the limit.
const DEFAULT_JOBS_MAX: usize = 4;

/// What `harness verify` is asked to check: the command's arguments themselves.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct VerifyRequest {
    /// Only the submissions of these problems (default: all); or problem package folders
    /// (Kattis/ICPC, Polygon, a CMS or TPS task), or a folder of packages, whose own submissions
    /// are verified.
    #[arg(value_name = "PROBLEM|PKG_DIR")]
    pub problems: Vec<String>,
    /// The folder of stored submissions, `<problem>/<expected>/FILE` below it
    /// [default: solutions/submissions beside judge.toml].
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<PathBuf>,
    /// Cases to run at once, per submission [default: the number of CPUs, at most 4]. The
    /// stored submissions are meant to be far from the limits, and verdicts use CPU time,
    /// which parallel runs barely disturb.
    #[arg(short, long, value_name = "N", value_parser = super::parse_jobs)]
    pub jobs: Option<usize>,
    /// Skip judge.toml's build command (only run when a checker is a program).
    #[arg(long)]
    pub no_build: bool,
    /// Verify only the K-th of N stable slices of the stored submissions (for a CI matrix).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<Partition>,
}

impl VerifyRequest {
    fn jobs(&self) -> usize {
        self.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, std::num::NonZeroUsize::get)
                .min(DEFAULT_JOBS_MAX)
        })
    }
}

impl Session {
    /// Judges the stored submissions; the exit code fails when one got another verdict.
    pub fn verify(&self, request: &VerifyRequest, output: &Output) -> Result<i32> {
        // A contest: its problems that are there are verified, those that are not are named.
        if let [one] = request.problems.as_slice() {
            if crate::package::contest::is_contest(Path::new(one)) {
                let (contest, missing) = crate::package::contest::open_partial(Path::new(one))?;
                if contest.problems.is_empty() {
                    let whys: Vec<String> = missing.iter().map(|m| m.why.clone()).collect();
                    anyhow::bail!(
                        "no problem of the contest `{one}` is there: {}",
                        whys.join("; ")
                    );
                }
                let dirs: Vec<PathBuf> = contest.problems.iter().map(|p| p.dir.clone()).collect();
                return self.verify_packages(request, output, &dirs, Some(&contest), &missing);
            }
        }
        if let Some(dirs) = packages::package_dirs(&request.problems)? {
            return self.verify_packages(request, output, &dirs, None, &[]);
        }
        if let Some(dirs) = self.named_packages(&request.problems)? {
            return self.verify_packages(request, output, &dirs, None, &[]);
        }
        let names: Vec<&str> = request.problems.iter().map(String::as_str).collect();
        let config = compile_sources(self.load_config_to_judge(&names)?, &names, &[Part::Checker])?;
        let folder = request
            .submissions
            .clone()
            .unwrap_or_else(|| config.root.join(verify::DEFAULT_FOLDER));
        let mut stored = verify::plan(&config, &folder, &request.problems)?;
        if let Some(partition) = request.partition {
            // A submission's verdict needs all its cases, so verify splits by submission.
            stored.retain(|s| s.in_partition(partition));
        }
        build_checkers(
            &config,
            stored.iter().map(|s| s.plan.problem),
            request.no_build,
        )?;
        judge_stored(&stored, Vec::new(), request, output, config.sandbox, None)
    }

    /// `harness verify PKG_DIR…`: each package's stored submissions, by the format's folders.
    fn verify_packages(
        &self,
        request: &VerifyRequest,
        output: &Output,
        dirs: &[PathBuf],
        contest: Option<&crate::package::contest::Contest>,
        missing: &[crate::package::contest::MissingProblem],
    ) -> Result<i32> {
        let languages = self.languages();
        let mut loaded = Vec::new();
        for dir in dirs {
            loaded.push(packages::load_for_judging(
                dir,
                languages.clone(),
                request.jobs(),
                output.is_human(),
            )?);
        }
        if let Some(dir) = &request.submissions {
            use_submissions_of(dir, &mut loaded, contest)?;
        }
        let mut stored = Vec::new();
        let mut skipped: Vec<Skipped> = missing
            .iter()
            .map(|m| Skipped {
                name: format!("{} ({})", m.id, m.label),
                reason: format!("the problem is not there: {}", m.why),
            })
            .collect();
        for package in &loaded {
            let (mut planned, mut not_judged) = crate::judge::stored::plan(package);
            stored.append(&mut planned);
            skipped.append(&mut not_judged);
        }
        if stored.is_empty() && skipped.is_empty() {
            let shown: Vec<String> = dirs.iter().map(|d| format!("`{}`", d.display())).collect();
            // An output-only task's contestants hand in answer files, which packages of CMS
            // and TPS do not store as submissions: say how to judge a set of them instead.
            let hint = match dirs.iter().zip(&loaded).find(|(_, l)| l.problem().output_only) {
                Some((dir, _)) => format!(
                    "`{}` is an output-only task: `harness judge {} ANSWERS` judges a folder or a zip of answer files",
                    dir.display(),
                    dir.display()
                ),
                None => "a package keeps them in `submissions/<verdict>/`".to_string(),
            };
            anyhow::bail!(
                "no stored submissions in {} (hint: {hint})",
                shown.join(", ")
            );
        }
        let sandbox = loaded
            .first()
            .map_or_else(crate::sandbox::Mode::default, |l| l.config.sandbox);
        let code = judge_stored(&stored, skipped, request, output, sandbox, contest)?;
        if !missing.is_empty() {
            let _ = crate::report::notice::write_warning(
                &mut anstream::stderr(),
                format_args!(
                    "{} of the contest's problems could not be verified, not being there: {}",
                    missing.len(),
                    missing
                        .iter()
                        .map(|m| format!("{} (`{}`)", m.label, m.id))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            return Ok(code.max(exit::FAILED));
        }
        Ok(code)
    }
}

/// `verify PKG… --submissions DIR`: each package's stored submissions are those of
/// `DIR/<package>/` (or `DIR/<label>/` in a contest; `DIR` itself for one package, when it
/// holds `accepted/`), laid out
/// as a package's `submissions/` is, instead of its own. A package with no folder there has
/// none to verify; none with one is an error, as is a Polygon package (its submissions are
/// listed in its own files).
fn use_submissions_of(
    dir: &Path,
    loaded: &mut [crate::package::Loaded],
    contest: Option<&crate::package::contest::Contest>,
) -> Result<()> {
    let base = dir.canonicalize().map_err(|e| {
        anyhow::anyhow!(
            "cannot read the folder of submissions `{}`: {e}",
            dir.display()
        )
    })?;
    // DIR itself stands for one package's `submissions/` only when it looks like one.
    let one = loaded.len() == 1 && contest.is_none() && base.join("accepted").is_dir();
    let mut found = 0;
    let mut names = Vec::new();
    for package in loaded.iter_mut() {
        let label = contest.and_then(|c| {
            c.problems
                .iter()
                .find(|p| p.dir.canonicalize().ok() == package.package.root.canonicalize().ok())
                .map(|p| p.label.clone())
        });
        let name = package.package.name.clone();
        names.push(match &label {
            Some(label) => format!("`{name}` or `{label}`"),
            None => format!("`{name}`"),
        });
        let folder = [Some(name.clone()), label]
            .into_iter()
            .flatten()
            .map(|n| base.join(n))
            .find(|f| f.is_dir())
            .or_else(|| one.then(|| base.clone()));
        let Some(folder) = folder else {
            package.package.submissions.clear();
            package.package.skipped.clear();
            continue;
        };
        if package.package.format == crate::package::Format::Polygon {
            anyhow::bail!(
                "`{}` is a Polygon package, whose stored submissions are the ones its own files list: --submissions cannot stand for them (hint: leave out --submissions)",
                package.package.root.display()
            );
        }
        let cases: Vec<String> = package
            .package
            .cases
            .iter()
            .map(|c| c.name.clone())
            .collect();
        let (submissions, skipped) = crate::package::submissions::kattis_in(
            &base,
            &folder,
            &cases,
            package.package.format == crate::package::Format::Kattis2025,
        )?;
        package.package.submissions = submissions;
        package.package.skipped = skipped;
        found += 1;
    }
    if found == 0 {
        anyhow::bail!(
            "`{}` has no folder of submissions for any of the problems (hint: `{}/<problem>/<verdict>/<file>`, the problem named {})",
            dir.display(),
            dir.display(),
            names.join(", ")
        );
    }
    Ok(())
}

/// Judges the planned submissions, each row reported as it is known, then the summary.
fn judge_stored(
    stored: &[Stored<'_>],
    skipped: Vec<Skipped>,
    request: &VerifyRequest,
    output: &Output,
    sandbox: crate::sandbox::Mode,
    contest: Option<&crate::package::contest::Contest>,
) -> Result<i32> {
    let units = stored
        .iter()
        .map(|s| Unit {
            expected: Some(s.expected.clone()),
            ..super::unit_of(&s.plan, &s.name)
        })
        .collect();
    let jobs = request.jobs().max(1);
    let mut plan = Plan::new(Command::Verify, units, jobs, sandbox);
    plan.partition = request.partition;
    let options = HumanOptions {
        detail: output.detail,
        ..HumanOptions::default()
    };
    let results = stream(&plan, output, options, skipped, |on_event| {
        Ok(verify::run(stored, jobs, on_event)?)
    })?;
    // A contest: one row per problem, under the summary.
    if let Some(contest) = contest.filter(|_| output.is_human()) {
        use std::io::Write;
        let mut stdout = anstream::stdout().lock();
        crate::report::package::write_contest_summary(&mut stdout, contest, &results)?;
        stdout.flush()?;
    }
    Ok(exit::for_verdicts(
        results
            .iter()
            .map(crate::judge::verify::Verified::as_outcome),
    ))
}
