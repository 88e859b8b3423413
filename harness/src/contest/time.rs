//! CLICS times: RELTIME (`1:05:00.250`, a time into the contest) and TIME (ISO 8601 with a
//! zone, `2026-12-03T13:00:00.000Z`), read and written without a date library: the formats
//! are fixed, and the harness needs only UTC milliseconds.

/// Milliseconds; contest times may be negative (before the start), so signed.
pub type Millis = i64;

/// `h:mm:ss.uuu`, CLICS's RELTIME (`-` in front when negative).
pub fn format_reltime(ms: Millis) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    let (h, rest) = (ms / 3_600_000, ms % 3_600_000);
    let (m, rest) = (rest / 60_000, rest % 60_000);
    let (s, milli) = (rest / 1000, rest % 1000);
    format!("{sign}{h}:{m:02}:{s:02}.{milli:03}")
}

/// Reads a RELTIME (`1:05:00`, `0:20:00.500`, `-0:01:00`); `Err` says what is wrong.
pub fn parse_reltime(text: &str) -> Result<Millis, String> {
    let bad = || format!("`{text}` is not a time like `1:05:00` (hours:minutes:seconds)");
    let (negative, body) = match text.trim().strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.trim()),
    };
    let parts: Vec<&str> = body.split(':').collect();
    let [h, m, s] = parts[..] else {
        return Err(bad());
    };
    let (s, frac) = s.split_once('.').unwrap_or((s, ""));
    let number = |part: &str| -> Result<u64, String> {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        part.parse::<u64>().map_err(|_| bad())
    };
    let (h, m, s) = (number(h)?, number(m)?, number(s)?);
    if m > 59 || s > 59 || frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let milli = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<3}").parse::<u64>().map_err(|_| bad())?
    };
    let total = h
        .checked_mul(3_600_000)
        .and_then(|t| t.checked_add(m * 60_000 + s * 1000 + milli))
        .and_then(|t| i64::try_from(t).ok())
        .ok_or_else(bad)?;
    Ok(if negative { -total } else { total })
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day since 1970-01-01 (`civil_from_days`).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// `2026-12-03T13:00:00.000Z`: a TIME, in UTC.
pub fn format_abstime(ms: Millis) -> String {
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let (h, rest) = (rest / 3_600_000, rest % 3_600_000);
    let (min, rest) = (rest / 60_000, rest % 60_000);
    let (s, milli) = (rest / 1000, rest % 1000);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
}

/// Reads a TIME (`2026-12-03T13:00:00+01:00`, `…:00.250Z`, a space for the `T`); a time with
/// no zone is UTC. Milliseconds since 1970 UTC.
pub fn parse_abstime(text: &str) -> Result<Millis, String> {
    let bad =
        || format!("`{text}` is not a date and time like `2026-12-03T13:00:00+01:00` (ISO 8601)");
    let text = text.trim();
    if text.len() < 19 || !text.is_char_boundary(10) || !text.is_char_boundary(19) {
        return Err(bad());
    }
    let (date, rest) = text.split_at(10);
    let separator = rest.as_bytes()[0];
    if separator != b'T' && separator != b' ' && separator != b't' {
        return Err(bad());
    }
    let (clock, zone) = rest[1..].split_at(8);
    let field = |part: &str| -> Result<i64, String> {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        part.parse::<i64>().map_err(|_| bad())
    };
    let date: Vec<&str> = date.split('-').collect();
    let clock: Vec<&str> = clock.split(':').collect();
    let ([y, mo, d], [h, mi, s]) = (&date[..], &clock[..]) else {
        return Err(bad());
    };
    let (y, mo, d, h, mi, s) = (
        field(y)?,
        field(mo)?,
        field(d)?,
        field(h)?,
        field(mi)?,
        field(s)?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return Err(bad());
    }
    let (milli, zone) = match zone.strip_prefix('.') {
        Some(rest) => {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let (frac, zone) = rest.split_at(digits);
            if frac.is_empty() {
                return Err(bad());
            }
            let frac: String = frac.chars().chain("000".chars()).take(3).collect();
            (field(&frac)?, zone)
        }
        None => (0, zone),
    };
    let offset_minutes = match zone {
        "" | "Z" | "z" => 0,
        _ => {
            let (sign, body) = match zone.as_bytes()[0] {
                b'+' => (1, &zone[1..]),
                b'-' => (-1, &zone[1..]),
                _ => return Err(bad()),
            };
            let (oh, om) = match body.split_once(':') {
                Some((oh, om)) => (field(oh)?, field(om)?),
                None if body.len() == 4 => (field(&body[..2])?, field(&body[2..])?),
                None => (field(body)?, 0),
            };
            if oh > 23 || om > 59 {
                return Err(bad());
            }
            sign * (oh * 60 + om)
        }
    };
    let days = days_from_civil(y, mo, d);
    Ok(((days * 24 + h) * 60 + mi - offset_minutes) * 60_000 + s * 1000 + milli)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reltimes_read_and_write() {
        let table: [(&str, Option<Millis>); 9] = [
            ("0:00:00", Some(0)),
            ("1:05:00", Some(3_900_000)),
            ("0:20:00.5", Some(1_200_500)),
            ("-0:01:00", Some(-60_000)),
            ("12:00:00.250", Some(43_200_250)),
            ("1:60:00", None),
            ("1:05", None),
            ("a:00:00", None),
            ("", None),
        ];
        for (text, expected) in table {
            assert_eq!(parse_reltime(text).ok(), expected, "{text}");
        }
        assert_eq!(format_reltime(3_900_250), "1:05:00.250");
        assert_eq!(format_reltime(-60_000), "-0:01:00.000");
        assert_eq!(parse_reltime(&format_reltime(123_456_789)), Ok(123_456_789));
    }

    #[test]
    fn abstimes_read_any_zone_and_write_utc() {
        let noon = parse_abstime("2026-12-03T12:00:00Z").unwrap();
        let table = [
            ("2026-12-03T13:00:00+01:00", noon),
            ("2026-12-03T13:00:00+01", noon),
            ("2026-12-03T07:00:00-0500", noon),
            ("2026-12-03 12:00:00", noon),
            ("2026-12-03T12:00:00.250Z", noon + 250),
        ];
        for (text, expected) in table {
            assert_eq!(parse_abstime(text), Ok(expected), "{text}");
        }
        assert_eq!(format_abstime(noon + 250), "2026-12-03T12:00:00.250Z");
        assert_eq!(format_abstime(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(parse_abstime("2000-02-29T00:00:00Z"), Ok(951_782_400_000));
        for bad in [
            "2026-13-03T12:00:00Z",
            "2026-12-03",
            "yesterday",
            "2026-12-03T12:00:00+x",
        ] {
            assert!(parse_abstime(bad).is_err(), "{bad}");
        }
    }
}
