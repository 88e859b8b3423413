//! The values of judge.toml that are written as text or checked as they are read: durations
//! ("1s"), sizes ("256MiB"), the output limit, a language's time multiplier, seed ranges.

use std::time::Duration;

use serde::Deserialize;

use super::settings::SeedRange;
use crate::units;

#[derive(Clone, Copy)]
pub(crate) struct DurationValue(pub(super) Duration);

/// A value judge.toml writes as text, read by `parse` ("1s", "256MiB").
fn from_text<'de, D: serde::Deserializer<'de>, T>(
    deserializer: D,
    parse: fn(&str) -> Result<T, String>,
) -> Result<T, D::Error> {
    parse(&String::deserialize(deserializer)?).map_err(serde::de::Error::custom)
}

impl<'de> Deserialize<'de> for DurationValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        from_text(deserializer, units::parse_duration).map(DurationValue)
    }
}

#[derive(Clone, Copy)]
pub(crate) struct SizeValue(pub(super) u64);

impl<'de> Deserialize<'de> for SizeValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        from_text(deserializer, units::parse_size).map(SizeValue)
    }
}

/// `output-limit`: a size, at most `units::MAX_OUTPUT_LIMIT` (the output is kept in memory).
#[derive(Clone, Copy)]
pub(super) struct OutputLimit(pub(super) u64);

impl<'de> Deserialize<'de> for OutputLimit {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let SizeValue(bytes) = SizeValue::deserialize(deserializer)?;
        if bytes > units::MAX_OUTPUT_LIMIT {
            return Err(serde::de::Error::custom(format!(
                "{} is above the maximum output limit, 1GiB (the judge keeps the output in memory)",
                units::format_bytes(bytes)
            )));
        }
        Ok(OutputLimit(bytes))
    }
}

/// A language's `time-multiplier`, within the bounds in `units`.
#[derive(Clone, Copy)]
pub(super) struct TimeMultiplier(pub(super) f64);

impl<'de> Deserialize<'de> for TimeMultiplier {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = f64::deserialize(deserializer)?;
        if !(units::MIN_TIME_MULTIPLIER..=units::MAX_TIME_MULTIPLIER).contains(&value) {
            return Err(serde::de::Error::custom(format!(
                "{value} is not a time-multiplier between {} and {}",
                units::MIN_TIME_MULTIPLIER,
                units::MAX_TIME_MULTIPLIER
            )));
        }
        Ok(TimeMultiplier(value))
    }
}

/// The most seeds one generator may have: each is a case file written to the case folder.
pub const MAX_SEEDS: u64 = 100_000;

impl<'de> Deserialize<'de> for SeedRange {
    /// `seeds = 7` or `seeds = "1..=300"`.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(u64),
            Range(String),
        }
        match Raw::deserialize(deserializer)? {
            Raw::One(seed) => Ok(SeedRange {
                first: seed,
                last: seed,
            }),
            Raw::Range(text) => parse_seed_range(&text).map_err(serde::de::Error::custom),
        }
    }
}

/// `"1..=300"` or `"7"` as a seed range.
pub fn parse_seed_range(text: &str) -> Result<SeedRange, String> {
    let bad = || format!("`{text}` is not a seed range (write it like \"1..=300\" or a number)");
    let (first, last) = text.split_once("..=").ok_or_else(bad)?;
    let first: u64 = first.trim().parse().map_err(|_| bad())?;
    let last: u64 = last.trim().parse().map_err(|_| bad())?;
    if first > last {
        return Err(format!("seed range `{text}` is empty"));
    }
    let count = u128::from(last - first) + 1;
    if count > u128::from(MAX_SEEDS) {
        return Err(format!(
            "seed range `{text}` has {count} seeds, above the maximum of {MAX_SEEDS} \
             (each seed is a case file)"
        ));
    }
    Ok(SeedRange { first, last })
}
