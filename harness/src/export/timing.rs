//! The exported time limit against problemtools' rule: its accepted submissions, judged in the
//! exported package as problemtools judges them (a `.py` with PyPy, one limit for every
//! language), must be fast enough that slowest × `ac_to_time_limit` ≤ the limit, or
//! verifyproblem calls the limit too tight (`_compute_time_limit` in
//! problemtools/checks/submissions.py: an error when the limit comes from problem.yaml).

use std::path::Path;
use std::time::Duration;

use crate::judge::submission::{self, Options};
use crate::judge::Stop;
use crate::package::expected::Expected;
use crate::package::{self, TimeLimit};
use crate::units::format_duration;
use crate::verdict::Verdict;

/// problemtools' defaults for `limits.time_multipliers` (the export writes neither).
pub const AC_TO_TIME_LIMIT: f64 = 2.0;
pub const TIME_LIMIT_TO_TLE: f64 = 1.5;
/// `limits.time_resolution`'s default.
pub const TIME_RESOLUTION: f64 = 1.0;
/// How far another tool's measure of the same program on the same machine may differ: on a
/// shared 2-core machine, king-queens' slowest accepted (bitmask.py under PyPy) measured 421 and
/// 466 ms in the harness, 428 to 505 ms in verifyproblem and 435 ms in BAPCtools.
pub const NOISE: f64 = 0.25;

/// Why the exported package could not be judged: it could not be read or loaded
/// (a package error), or a submission could not be built (a submit error).
pub type TimingError = Box<dyn std::error::Error + Send + Sync>;

/// What the accepted submissions of an exported package measured.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeCheck {
    pub limit: Duration,
    /// The slowest accepted submission that passed, and its slowest case's CPU time.
    pub slowest: Option<(Duration, String)>,
    /// Accepted submissions that did not pass in the exported package: name and why.
    pub failed: Vec<(String, String)>,
    /// Accepted submissions that could not be judged here (no toolchain), with why.
    pub skipped: Vec<(String, String)>,
}

impl TimeCheck {
    /// Whether the limit keeps problemtools' rule (its check: slowest × multiplier > limit is
    /// the error; exactly equal passes).
    pub fn holds(&self) -> bool {
        self.slowest.as_ref().is_none_or(|(time, _)| {
            time.as_secs_f64() * AC_TO_TIME_LIMIT <= self.limit.as_secs_f64()
        })
    }

    /// Whether the rule holds with 25% to spare for the noise between this measurement and
    /// the next tool's.
    pub fn holds_with_room(&self) -> bool {
        self.slowest.as_ref().is_none_or(|(time, _)| {
            time.as_secs_f64() * AC_TO_TIME_LIMIT <= self.limit.as_secs_f64() * (1.0 - NOISE)
        })
    }

    /// When the rule does not hold with room: the largest `ac_to_time_limit` (in tenths, at
    /// least 1, the format's least) under which it does; `None` when it holds with room, or
    /// when even 1 does not fit.
    pub fn fitting_multiplier(&self) -> Option<f64> {
        if self.holds_with_room() {
            return None;
        }
        let (time, _) = self.slowest.as_ref()?;
        let room = self.limit.as_secs_f64() * (1.0 - NOISE) / time.as_secs_f64();
        let tenths = (room * 10.0).floor() / 10.0;
        (tenths >= 1.0).then_some(tenths)
    }

    /// The limit problemtools' rule gives: `max(1, ceil(slowest × 2 / 1 s)) × 1 s`.
    pub fn rule_limit(&self) -> Option<Duration> {
        self.slowest
            .as_ref()
            .map(|(time, _)| TimeLimit::compute(AC_TO_TIME_LIMIT, TIME_RESOLUTION, *time))
    }

    /// One line with the numbers: a note when the rule holds, the warning when it does not.
    pub fn describe(&self) -> Option<String> {
        let (time, name) = self.slowest.as_ref()?;
        let product = Duration::from_secs_f64(time.as_secs_f64() * AC_TO_TIME_LIMIT);
        let limit = format_duration(self.limit);
        Some(if self.holds_with_room() {
            format!(
                "time limit {limit} keeps problemtools' rule: slowest accepted {} ({name}) × ac_to_time_limit {AC_TO_TIME_LIMIT} = {} ≤ {limit}",
                format_duration(*time),
                format_duration(product),
            )
        } else if self.holds() {
            format!(
                "time limit {limit} keeps problemtools' rule by less than 25%: slowest accepted {} ({name}) × ac_to_time_limit {AC_TO_TIME_LIMIT} = {} ≤ {limit}, which another measure (verifyproblem's) may break (hint: raise `time-limit` in judge.toml to {}, or make {name} faster)",
                format_duration(*time),
                format_duration(product),
                format_duration(TimeLimit::compute(AC_TO_TIME_LIMIT, TIME_RESOLUTION, time.mul_f64(1.0 / (1.0 - NOISE)))),
            )
        } else {
            format!(
                "time limit {limit} is tighter than problemtools' rule: slowest accepted {} ({name}) × ac_to_time_limit {AC_TO_TIME_LIMIT} = {} > {limit}, which verifyproblem reports as an error (its rule gives {}; hint: raise `time-limit` in judge.toml, or make {name} faster)",
                format_duration(*time),
                format_duration(product),
                format_duration(self.rule_limit().unwrap_or(self.limit)),
            )
        })
    }
}

/// Judges the accepted submissions of the exported package in `dir` under the limit ×
/// `time_limit_to_tle` (problemtools' high limit: a slower one is TLE there), with the package
/// table of languages (`languages`), and returns the slowest. `None` when the package has no
/// fixed limit to check.
pub fn check(
    dir: &Path,
    languages: Vec<crate::compile::Language>,
    jobs: usize,
    on_case: &mut dyn FnMut(),
) -> Result<Option<TimeCheck>, TimingError> {
    let opened = package::open(dir)?;
    let Some(limit) = opened.time_limit.fixed() else {
        return Ok(None);
    };
    let high = Duration::from_secs_f64(limit.as_secs_f64() * TIME_LIMIT_TO_TLE);
    let loaded = package::load(opened, languages, Some(high))?;
    let (stored, skipped) = crate::judge::stored::plan(&loaded);
    let accepted = |expected: &Expected| *expected == Expected::One(Verdict::Accepted);
    let mut check = TimeCheck {
        limit,
        slowest: None,
        failed: Vec::new(),
        skipped: skipped
            .into_iter()
            .filter(|s| s.name.contains("/accepted/"))
            .map(|s| (below_package(&s.name), s.reason))
            .collect(),
    };
    let options = Options {
        jobs: jobs.max(1),
        stop: Stop::AfterFirstFailure,
    };
    for entry in stored.iter().filter(|s| accepted(&s.expected)) {
        let name = below_package(&entry.name);
        let report = submission::judge(&entry.plan, &options, &mut |_| on_case())?;
        if let Some(failure) = report.first_failure() {
            check.failed.push((
                name,
                format!("{} on {}", failure.verdict.as_str(), failure.case),
            ));
            continue;
        }
        if !report.verdict.is_accepted() {
            check
                .failed
                .push((name, report.verdict.as_str().to_string()));
            continue;
        }
        let time = report.max_cpu_time();
        if check.slowest.as_ref().is_none_or(|(t, _)| time > *t) {
            check.slowest = Some((time, name));
        }
    }
    Ok(Some(check))
}

/// The cases [`check`] will run, for a progress bar.
pub fn planned_runs(dir: &Path, languages: &[crate::compile::Language]) -> usize {
    let Ok(opened) = package::open(dir) else {
        return 0;
    };
    let cases = opened.cases.len();
    let accepted = opened
        .submissions
        .iter()
        .filter(|s| s.expected == Expected::One(Verdict::Accepted))
        .filter(|s| {
            package::languages::language_of(languages, &s.path)
                .is_ok_and(|l| package::languages::available(l).is_ok())
        })
        .count();
    accepted * cases
}

/// `accepted/sol.py` from `<package>/accepted/sol.py`.
fn below_package(name: &str) -> String {
    name.split_once('/')
        .map_or(name, |(_, rest)| rest)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(limit_ms: u64, slowest_ms: u64) -> TimeCheck {
        TimeCheck {
            limit: Duration::from_millis(limit_ms),
            slowest: Some((
                Duration::from_millis(slowest_ms),
                "accepted/bitmask.py".into(),
            )),
            failed: Vec::new(),
            skipped: Vec::new(),
        }
    }

    #[test]
    fn the_rule_is_problemtools_own() {
        // (limit, slowest, holds, the rule's limit)
        for (limit, slowest, holds, rule) in [
            (1000, 505, false, 2000),
            (1000, 500, true, 1000),
            (1000, 428, true, 1000),
            (2000, 505, true, 2000),
            (1000, 10, true, 1000),
            (3000, 1600, false, 4000),
        ] {
            let c = check(limit, slowest);
            assert_eq!(c.holds(), holds, "{limit} {slowest}");
            assert_eq!(
                c.rule_limit(),
                Some(Duration::from_millis(rule)),
                "{limit} {slowest}"
            );
        }
    }

    #[test]
    fn a_margin_that_fits_is_offered_only_when_the_default_does_not() {
        // (limit, slowest, multiplier)
        for (limit, slowest, want) in [
            (1000, 300, None),
            (1000, 375, None),
            (1000, 421, Some(1.7)),
            (1000, 466, Some(1.6)),
            (1000, 509, Some(1.4)),
            (1000, 600, Some(1.2)),
            (1000, 750, Some(1.0)),
            (1000, 800, None),
            (2000, 1200, Some(1.2)),
        ] {
            assert_eq!(
                check(limit, slowest).fitting_multiplier(),
                want,
                "{limit} {slowest}"
            );
        }
    }

    #[test]
    fn the_warning_has_the_numbers() {
        let text = check(1000, 505).describe().unwrap();
        assert_eq!(
            text,
            "time limit 1000 ms is tighter than problemtools' rule: slowest accepted 505 ms (accepted/bitmask.py) × ac_to_time_limit 2 = 1010 ms > 1000 ms, which verifyproblem reports as an error (its rule gives 2000 ms; hint: raise `time-limit` in judge.toml, or make accepted/bitmask.py faster)"
        );
        assert!(check(1000, 300)
            .describe()
            .unwrap()
            .starts_with("time limit 1000 ms keeps problemtools' rule: slowest accepted 300 ms"));
        assert_eq!(
            check(1000, 466).describe().unwrap(),
            "time limit 1000 ms keeps problemtools' rule by less than 25%: slowest accepted 466 ms (accepted/bitmask.py) × ac_to_time_limit 2 = 932 ms ≤ 1000 ms, which another measure (verifyproblem's) may break (hint: raise `time-limit` in judge.toml to 2000 ms, or make accepted/bitmask.py faster)"
        );
    }
}
