//! Scores as numbers people read: printed to six decimals without float noise (`70`,
//! `33.333333`), huge ones short (`1e308`), and compared as printed.

/// Decimals a score is printed with. Six, as problemtools' default grader prints a group's
/// score (`%f`), so a score shown here is the one verifyproblem computes with.
pub const DECIMALS: usize = crate::units::DECIMALS;

/// A score as shown: rounded to [`DECIMALS`] decimals, trailing zeros dropped (`70`, `0.5`,
/// `33.333333`), never `-0`; from 10¹² on with an exponent (`1e308`): the one way every
/// number of the judge's is printed, [`crate::units::format_number`].
pub fn format_score(score: f64) -> String {
    crate::units::format_number(score)
}

/// Whether two scores print the same: how an expected score is compared with the one got, so
/// that a mismatch can always be seen in the two numbers shown.
pub fn same_score(a: f64, b: f64) -> bool {
    format_score(a) == format_score(b)
}

/// `a ≤ b` as printed: `a` is not more than `b` by an amount a printed score can show (an
/// excess that does not show is float noise: `3 × 33.333333333 = 100.000000001`).
pub(crate) fn at_most(a: f64, b: f64) -> bool {
    a <= b || same_score(a, b)
}

/// The score as printed and read back: what a Kattis grader's `%f` output hands to the next
/// group up, so nested groups round exactly as problemtools' do.
pub(crate) fn quantize(score: f64) -> f64 {
    if !score.is_finite() {
        return score;
    }
    format!("{score:.DECIMALS$}").parse().unwrap_or(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_without_float_noise() {
        let table: &[(f64, &str)] = &[
            (70.0, "70"),
            (100.0, "100"),
            (0.0, "0"),
            (-0.0, "0"),
            (-1e-9, "0"),
            (0.5, "0.5"),
            (100.0 / 3.0, "33.333333"),
            (200.0 / 3.0, "66.666667"),
            (0.1 + 0.2, "0.3"),
            (7.0 * 0.1 * 100.0, "70"),
            (12.25, "12.25"),
            (1e-7, "0"),
            (4.9999999, "5"),
            (-2.5, "-2.5"),
            (1234567.0, "1234567"),
            // A tie at the sixth decimal rounds half to even, as `%f` does: 1/128.
            (0.0078125, "0.007812"),
            (0.0234375, "0.023438"),
            (f64::INFINITY, "inf"),
            // A checker's `quitp(1e308)`: short, not 309 digits.
            (1e308, "1e308"),
        ];
        for &(score, shown) in table {
            assert_eq!(format_score(score), shown, "{score:?}");
        }
    }

    #[test]
    fn scores_compare_as_printed() {
        assert!(same_score(100.0, 3.0 * (100.0 / 3.0)));
        assert!(same_score(33.333333, 100.0 / 3.0));
        assert!(!same_score(33.33333, 100.0 / 3.0));
        assert!(same_score(0.0, -0.0));
        assert!(!same_score(70.0, 70.000001));
        assert!(at_most(100.0000000001, 100.0));
        assert!(!at_most(100.000001, 100.0));
        assert!(at_most(3.0, 4.0));
    }

    #[test]
    fn quantizing_is_printing_and_reading_back() {
        assert_eq!(quantize(100.0 / 3.0), 33.333333);
        assert_eq!(quantize(50.0), 50.0);
        assert_eq!(quantize(0.0078125), 0.007812);
        assert_eq!(quantize(f64::NEG_INFINITY), f64::NEG_INFINITY);
    }
}
