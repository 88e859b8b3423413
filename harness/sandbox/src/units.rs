//! Durations ("1s", "500ms") and sizes ("256MiB") as people write them in judge.toml, and as
//! the reports print them; numbers a program or a package gives (scores, points) as printed.

use std::time::Duration;

/// The shortest duration judge.toml may name: the judge measures in milliseconds, so a
/// shorter limit would read as 0 ms and fail every program.
pub const MIN_DURATION: Duration = Duration::from_millis(1);
/// The longest: a day is far beyond any contest limit, and keeps every product of a limit
/// with a language's time-multiplier (at most `MAX_TIME_MULTIPLIER`) far from overflowing.
pub const MAX_DURATION: Duration = Duration::from_secs(24 * 60 * 60);
/// The largest size judge.toml may name (1 TiB): more than any machine this runs on has.
pub const MAX_SIZE: u64 = 1 << 40;
/// The largest output limit (1 GiB): the judge keeps a program's output in memory to check it.
pub const MAX_OUTPUT_LIMIT: u64 = 1 << 30;
/// Bounds of a language's time-multiplier: interpreters are slower, not a million times so.
pub const MIN_TIME_MULTIPLIER: f64 = 0.01;
/// See `MIN_TIME_MULTIPLIER`.
pub const MAX_TIME_MULTIPLIER: f64 = 100.0;

/// Parses `"1s"`, `"1.5s"`, `"500ms"`, `"2m"`. A bare number is refused: `1` could mean
/// seconds or milliseconds, and a judge that guesses wrong gives wrong verdicts.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = split_number(text);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration (write it like \"1s\" or \"500ms\")"))?;
    let seconds = match unit.trim() {
        "ms" => value / 1000.0,
        "s" => value,
        "m" | "min" => value * 60.0,
        "" => {
            return Err(format!(
                "`{text}` has no unit (write \"{text}s\" or \"{text}ms\")"
            ))
        }
        other => {
            return Err(format!(
                "unknown time unit `{other}` in `{text}` (use ms, s or m)"
            ))
        }
    };
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!("`{text}` must be a positive duration"));
    }
    if seconds < MIN_DURATION.as_secs_f64() {
        return Err(format!(
            "`{text}` is shorter than 1ms, the judge's resolution (it would read as 0 ms)"
        ));
    }
    if seconds > MAX_DURATION.as_secs_f64() {
        return Err(format!("`{text}` is longer than the maximum, 24 hours"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Parses `"64MiB"`, `"512KiB"`, `"1GiB"`, `"1000B"`; `MB`/`KB`/`GB` are read as the binary
/// units too, since that is what every judge means by them.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (number, unit) = split_number(text);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size (write it like \"256MiB\")"))?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "" => return Err(format!("`{text}` has no unit (write \"{text}MiB\")")),
        other => {
            return Err(format!(
                "unknown size unit `{other}` in `{text}` (use B, KiB, MiB or GiB)"
            ))
        }
    };
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(format!("`{text}` must be a positive size"));
    }
    if bytes > MAX_SIZE as f64 {
        return Err(format!("`{text}` is larger than the maximum, 1024GiB"));
    }
    Ok(bytes as u64)
}

fn split_number(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    text.split_at(end)
}

/// Decimals a number is printed with by [`format_number`].
pub const DECIMALS: usize = 6;

/// From this magnitude on, [`format_number`] writes an exponent: plain digits of a number as
/// large as a checker may say (`1e308`) would fill a screen, and below it six decimals still
/// fit in 20 characters.
const PLAIN_BELOW: f64 = 1e12;

/// A number as every report prints a score or points: rounded to [`DECIMALS`] decimals,
/// trailing zeros dropped (`70`, `87.5`, `0.000123`, `33.333333`), never `-0`; from 10¹² on,
/// with an exponent and seven significant digits (`1e308`, `-1.234568e15`), so that no
/// number takes more than 20 characters. Rounding is the exact decimal value of the float
/// rounded half to even, as C's `printf("%f")` and Python's `%f` do. `inf` and `NaN` as
/// Rust writes them.
pub fn format_number(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    if value.abs() >= PLAIN_BELOW {
        let scientific = format!("{value:.DECIMALS$e}");
        return match scientific.split_once('e') {
            Some((mantissa, exponent)) => {
                let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
                format!("{mantissa}e{exponent}")
            }
            None => scientific,
        };
    }
    let fixed = format!("{value:.DECIMALS$}");
    let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
    match trimmed {
        "-0" => "0".to_string(),
        other => other.to_string(),
    }
}

/// `12 ms`, `1.25 s`: milliseconds below ten seconds read best for contest limits.
pub fn format_duration(duration: Duration) -> String {
    let ms = duration.as_secs_f64() * 1000.0;
    if ms < 10_000.0 {
        format!("{} ms", ms.round() as u64)
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

/// `640 KiB`, `2.1 MiB`, `1.0 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KIB {
        format!("{bytes} B")
    } else if b < KIB * KIB {
        format!("{:.0} KiB", b / KIB)
    } else if b < KIB * KIB * KIB {
        format!("{:.1} MiB", b / (KIB * KIB))
    } else {
        format!("{:.1} GiB", b / (KIB * KIB * KIB))
    }
}

/// A limit as a person would write it: `2 GiB`, `64 MiB`, whole units without decimals; other
/// sizes as [`format_bytes`] shows them.
pub fn format_size_limit(bytes: u64) -> String {
    let units = [(1u64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    match units
        .iter()
        .find(|(size, _)| bytes >= *size && bytes.is_multiple_of(*size))
    {
        Some((size, unit)) => format!("{} {unit}", bytes / size),
        None => format_bytes(bytes),
    }
}

/// A time limit as a person would write it: `120 s`, `2 s`; other durations as
/// [`format_duration`] shows them.
pub fn format_time_limit(duration: Duration) -> String {
    if duration.subsec_nanos() == 0 && duration.as_secs() > 0 {
        format!("{} s", duration.as_secs())
    } else {
        format_duration(duration)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_as_written() {
        let sizes = [
            (2 << 30, "2 GiB"),
            (64 << 20, "64 MiB"),
            (1536 << 20, "1536 MiB"),
            (4 << 10, "4 KiB"),
            (1000, "1000 B"),
            ((1 << 20) + 1, "1.0 MiB"),
        ];
        for (bytes, shown) in sizes {
            assert_eq!(format_size_limit(bytes), shown, "{bytes}");
        }
        assert_eq!(format_time_limit(Duration::from_secs(120)), "120 s");
        assert_eq!(format_time_limit(Duration::from_secs(2)), "2 s");
        assert_eq!(format_time_limit(Duration::from_millis(1500)), "1500 ms");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("1").unwrap_err().contains("no unit"));
        assert!(parse_duration("1h")
            .unwrap_err()
            .contains("unknown time unit"));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("0s").is_err());
    }

    #[test]
    fn durations_and_sizes_are_bounded() {
        let refused = [
            ("99999999999999999999s", "longer than the maximum"),
            ("25h", "unknown time unit"),
            ("1441m", "longer than the maximum"),
            ("0.0000001ms", "shorter than 1ms"),
            ("0.5ms", "shorter than 1ms"),
        ];
        for (text, why) in refused {
            let error = parse_duration(text).unwrap_err();
            assert!(error.contains(why), "{text}: {error}");
        }
        assert_eq!(parse_duration("1ms"), Ok(MIN_DURATION));
        assert_eq!(parse_duration("1440m"), Ok(MAX_DURATION));
        assert!(parse_size("2048GiB")
            .unwrap_err()
            .contains("larger than the maximum"));
        assert!(parse_size("99999999999999999999999GiB")
            .unwrap_err()
            .contains("larger than the maximum"));
        assert_eq!(parse_size("1024GiB"), Ok(MAX_SIZE));
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("512KiB"), Ok(512 << 10));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("256MB"), Ok(256 << 20));
        assert_eq!(parse_size("100B"), Ok(100));
        assert!(parse_size("64").unwrap_err().contains("no unit"));
        assert!(parse_size("64XB").is_err());
    }

    #[test]
    fn numbers_are_short_and_ordinary_ones_as_before() {
        let table: &[(f64, &str)] = &[
            (70.0, "70"),
            (100.0, "100"),
            (87.5, "87.5"),
            (0.000123, "0.000123"),
            (0.0, "0"),
            (-0.0, "0"),
            (-1e-9, "0"),
            (1e-7, "0"),
            (1e-300, "0"),
            (100.0 / 3.0, "33.333333"),
            (0.1 + 0.2, "0.3"),
            (-2.5, "-2.5"),
            (1234567.0, "1234567"),
            (0.0078125, "0.007812"),
            (999_999_999_999.0, "999999999999"),
            // The longest plain form: 20 characters.
            (-999_999_999_999.999_9, "-999999999999.999878"),
            (1e12, "1e12"),
            (1e308, "1e308"),
            (-1e308, "-1e308"),
            (f64::MAX, "1.797693e308"),
            (1.5e20, "1.5e20"),
            (123_456_789_012_345.0, "1.234568e14"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "NaN"),
        ];
        for &(value, shown) in table {
            assert_eq!(format_number(value), shown, "{value:?}");
        }
        for value in [f64::MAX, -f64::MAX, 1e15 + 0.3, -123.456789e200, 5e-324] {
            let shown = format_number(value);
            assert!(shown.len() <= 20, "{value:?}: {shown}");
            let back: f64 = shown.parse().unwrap();
            // Within the printed precision: six decimals, or seven significant digits.
            assert!(
                (back - value).abs() <= value.abs() * 1e-6 + 1e-6,
                "{value:?}: {shown}"
            );
        }
    }

    #[test]
    fn formatting() {
        assert_eq!(format_duration(Duration::from_micros(2600)), "3 ms");
        assert_eq!(format_duration(Duration::from_secs(12)), "12.0 s");
        assert_eq!(format_bytes(2_202_009), "2.1 MiB");
        assert_eq!(format_bytes(640 * 1024), "640 KiB");
        assert_eq!(format_bytes(12), "12 B");
    }
}
