//! `harness verify`: every stored submission judged against the verdict it is stored under,
//! from `solutions/submissions/` or from package folders.

use std::path::PathBuf;

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

/// What `harness verify` is asked to check.
#[derive(Debug, Clone, Default)]
pub struct VerifyRequest {
    /// Problem ids, or package folders (or folders of packages); none means every problem.
    pub problems: Vec<String>,
    /// The folder of stored submissions, instead of `solutions/submissions`.
    pub submissions: Option<PathBuf>,
    /// Cases run at once per submission; by default the cores, at most 4.
    pub jobs: Option<usize>,
    pub no_build: bool,
    /// Only this slice of the stored submissions.
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
        if let Some(dirs) = packages::package_dirs(&request.problems)? {
            return self.verify_packages(request, output, &dirs);
        }
        if let Some(dirs) = self.named_packages(&request.problems)? {
            return self.verify_packages(request, output, &dirs);
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
        let mut stored = Vec::new();
        let mut skipped = Vec::new();
        for package in &loaded {
            let (mut planned, mut not_judged) = crate::judge::stored::plan(package);
            stored.append(&mut planned);
            skipped.append(&mut not_judged);
        }
        if stored.is_empty() && skipped.is_empty() {
            anyhow::bail!(
                "no stored submissions in {} (hint: a package keeps them in `submissions/<verdict>/`)",
                dirs.iter()
                    .map(|d| format!("`{}`", d.display()))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let sandbox = loaded
            .first()
            .map_or_else(crate::sandbox::Mode::default, |l| l.config.sandbox);
        let contest = packages::contest_of(&request.problems)?;
        judge_stored(&stored, skipped, request, output, sandbox, contest.as_ref())
    }
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
