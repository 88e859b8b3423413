//! A package's time limit: given (by problem.yaml, `.timelimit`, `domjudge-problem.ini` or
//! problem.xml), or computed from the slowest accepted submission as problemtools computes it.

use std::fmt;
use std::time::Duration;

/// The limit accepted submissions run under while the real one is not known yet:
/// problemtools' own placeholder (5 minutes).
pub const UNKNOWN_TIME_LIMIT: Duration = Duration::from_secs(300);
/// The wall-clock bound meanwhile: an accepted submission that takes longer gives no
/// useful limit anyway, and one that waits for input must not hold the judge for minutes.
pub const UNKNOWN_WALL_LIMIT: Duration = Duration::from_secs(30);

/// The range a limit a package writes down must be in: finite, more than 0, at most `max`.
/// Beyond it a value is a mistake (or an attack): a time limit of 1e30 s panicked in the
/// duration arithmetic, a memory limit of 0 made every case MLE.
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    pub max: f64,
    pub unit: &'static str,
}

impl Bound {
    /// Time limits and their resolution: an hour.
    pub const SECONDS: Bound = Bound {
        max: 3600.0,
        unit: "s",
    };
    /// Memory and output: 1 TiB.
    pub const MIB: Bound = Bound {
        max: (1u64 << 20) as f64,
        unit: "MiB",
    };
    /// `time_multiplier`, `ac_to_time_limit`.
    pub const MULTIPLIER: Bound = Bound {
        max: 100.0,
        unit: "(times the slowest accepted)",
    };

    /// `value` when it is in range, else why not.
    pub fn check(self, value: f64) -> Result<f64, String> {
        if value.is_finite() && value > 0.0 && value <= self.max {
            return Ok(value);
        }
        let shown = if value.is_finite() && value.abs() >= 1e9 {
            format!("{value:e}")
        } else {
            value.to_string()
        };
        Err(format!(
            "{shown} is out of range: it must be more than 0 and at most {} {}",
            self.max, self.unit
        ))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum TimeLimit {
    /// Written in the package; `source` names where (`problem.yaml`, `.timelimit`, …).
    Given {
        limit: Duration,
        source: &'static str,
    },
    /// Not written: computed from the slowest accepted submission.
    Computed {
        /// `ac_to_time_limit` (2025-09) or `time_multiplier` (legacy).
        multiplier: f64,
        /// `time_resolution` in seconds (1 by default).
        resolution: f64,
    },
}

impl TimeLimit {
    pub fn fixed(&self) -> Option<Duration> {
        match self {
            TimeLimit::Given { limit, .. } => Some(*limit),
            TimeLimit::Computed { .. } => None,
        }
    }

    /// problemtools: `max(1, ceil(slowest × multiplier / resolution)) × resolution`.
    pub fn compute(multiplier: f64, resolution: f64, slowest: Duration) -> Duration {
        let exact = slowest.as_secs_f64() * multiplier;
        let steps = (exact / resolution).ceil().max(1.0);
        // The package's values are bounded; a slow submission times a large multiplier still
        // must not panic.
        Duration::try_from_secs_f64(steps * resolution).unwrap_or(Duration::MAX)
    }
}

/// How the limit a package was judged under came about, for the report.
#[derive(Debug, Clone, PartialEq)]
pub enum LimitOrigin {
    Given(&'static str),
    Computed {
        slowest: Duration,
        slowest_name: String,
        /// Whether the slowest is an accepted submission; in 2025-09 one expected to fail
        /// otherwise (`wrong_answer`, `run_time_error`), which may not time out, bounds it too.
        slowest_accepted: bool,
        multiplier: f64,
        resolution: f64,
    },
}

impl fmt::Display for LimitOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitOrigin::Given(source) => write!(f, "from {source}"),
            LimitOrigin::Computed {
                slowest,
                slowest_name,
                slowest_accepted,
                multiplier,
                resolution,
            } => write!(
                f,
                "computed as problemtools does: slowest {} {} ({slowest_name}) × {multiplier}, rounded up to {resolution}s",
                if *slowest_accepted {
                    "accepted"
                } else {
                    "not permitted to time out"
                },
                crate::units::format_duration(*slowest)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computed_as_problemtools_computes() {
        let ms = Duration::from_millis;
        // (multiplier, resolution, slowest, limit)
        for (multiplier, resolution, slowest, limit) in [
            (2.0, 1.0, ms(10), ms(1000)),
            (2.0, 1.0, ms(600), ms(2000)),
            (5.0, 1.0, ms(210), ms(2000)),
            (2.0, 0.5, ms(300), ms(1000)),
            (2.0, 0.1, ms(260), ms(600)),
            (2.0, 1.0, ms(0), ms(1000)),
        ] {
            let got = TimeLimit::compute(multiplier, resolution, slowest);
            assert!(
                got.abs_diff(limit) < ms(1),
                "{multiplier} {resolution} {slowest:?}: {got:?}"
            );
        }
        assert_eq!(
            TimeLimit::compute(1e308, 1.0, Duration::from_secs(300)),
            Duration::MAX
        );
    }

    #[test]
    fn bounds_refuse_zero_negative_non_finite_and_absurd() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e30, 3600.5] {
            assert!(Bound::SECONDS.check(bad).is_err(), "{bad}");
        }
        assert_eq!(Bound::SECONDS.check(2.5), Ok(2.5));
        assert_eq!(
            Bound::SECONDS.check(1e30).unwrap_err(),
            "1e30 is out of range: it must be more than 0 and at most 3600 s"
        );
        assert!(Bound::MIB.check(0.5).is_ok());
        assert!(Bound::MIB.check(2e6).is_err());
    }
}
