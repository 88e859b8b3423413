//! Medians and the N-versus-1 arithmetic shared by every table.

use std::time::Duration;

/// The median of some samples (the mean of the middle two for an even count).
pub fn median(samples: &[f64]) -> f64 {
    assert!(!samples.is_empty(), "a median of nothing");
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[middle]
    } else {
        (sorted[middle - 1] + sorted[middle]) / 2.0
    }
}

/// The smallest and largest sample, for a "min–max" column.
pub fn range(samples: &[f64]) -> (f64, f64) {
    let low = samples.iter().copied().fold(f64::INFINITY, f64::min);
    let high = samples.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (low, high)
}

/// Cost of one more case: the fixed costs (start-up, discovery of one case, reports) cancel
/// between a run of `cases` cases and a run of one.
pub fn per_case(all: Duration, one: Duration, cases: usize) -> f64 {
    assert!(cases > 1, "the N-versus-1 method needs N > 1");
    (all.as_secs_f64() - one.as_secs_f64()) / (cases - 1) as f64
}

/// Milliseconds with three significant figures or so.
pub fn ms(seconds: f64) -> String {
    let ms = seconds * 1e3;
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else if ms >= 10.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.2}")
    }
}

/// A ratio such as `1.12×`.
pub fn ratio(value: f64) -> String {
    if value >= 10.0 {
        format!("{value:.0}×")
    } else {
        format!("{value:.2}×")
    }
}
