//! The Kattis/ICPC default output validator, with the semantics of problemtools'
//! `default_validator` (and DOMjudge's `compare`), so a package judges here as it does there.
//!
//! - Tokens are split on C's `isspace` (space, `\t`, `\n`, `\v`, `\f`, `\r`).
//! - Tokens compare case-INsensitively (ASCII, as `strcasecmp`) unless `case_sensitive`.
//! - `space_change_sensitive`: every whitespace character of the answer must be matched by the
//!   same character in the output, the last newline included, and the output may have no
//!   other whitespace.
//! - With a float tolerance, a token that the JUDGE's answer writes as a finite number (as C's
//!   `%lf` reads it: integers, exponents and hex floats count; `inf` and `nan` do not) is a
//!   float: the output's token must then read as a finite number too, and is accepted when
//!   within the absolute OR the relative tolerance (relative to the judge's value). Other
//!   tokens compare as text.

use crate::verdict::Judgement;

/// The flags of the default validator (`validator_flags` / `output_validator_args`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Flags {
    /// `case_sensitive`: tokens compare case-sensitively.
    pub case_sensitive: bool,
    /// `space_change_sensitive`: every whitespace character must match.
    pub space_change_sensitive: bool,
    /// `float_absolute_tolerance` (also set by `float_tolerance`).
    pub float_absolute: Option<f64>,
    /// `float_relative_tolerance` (also set by `float_tolerance`).
    pub float_relative: Option<f64>,
}

impl Flags {
    /// Reads the flags as problemtools does; an unknown flag or a tolerance that is not a
    /// number is an error (a judge error there, a package error here).
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut args = args.iter().map(AsRef::as_ref);
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .and_then(parse_float)
                    .ok_or_else(|| format!("`{name}` needs a finite number after it"))
            };
            match arg {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" => {
                    flags.float_absolute = Some(value("float_absolute_tolerance")?);
                }
                "float_relative_tolerance" => {
                    flags.float_relative = Some(value("float_relative_tolerance")?);
                }
                "float_tolerance" => {
                    let tolerance = value("float_tolerance")?;
                    flags.float_absolute = Some(tolerance);
                    flags.float_relative = Some(tolerance);
                }
                other => {
                    return Err(format!(
                        "unknown default-validator flag `{other}` (known: case_sensitive, space_change_sensitive, float_absolute_tolerance X, float_relative_tolerance X, float_tolerance X)"
                    ))
                }
            }
        }
        Ok(flags)
    }

    /// The flags written back as arguments, in the order problemtools documents them.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if self.case_sensitive {
            args.push("case_sensitive".to_string());
        }
        if self.space_change_sensitive {
            args.push("space_change_sensitive".to_string());
        }
        match (self.float_absolute, self.float_relative) {
            (Some(a), Some(r)) if a == r => {
                args.extend(["float_tolerance".to_string(), format!("{a:e}")]);
            }
            (a, r) => {
                if let Some(a) = a {
                    args.extend(["float_absolute_tolerance".to_string(), format!("{a:e}")]);
                }
                if let Some(r) = r {
                    args.extend(["float_relative_tolerance".to_string(), format!("{r:e}")]);
                }
            }
        }
        args
    }

    fn uses_floats(&self) -> bool {
        self.float_absolute.is_some_and(|t| t >= 0.0)
            || self.float_relative.is_some_and(|t| t >= 0.0)
    }
}

/// C's `isspace` in the C locale.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// A token as `%lf` reads it when the whole token is the number: decimal (with optional sign,
/// point and exponent) or hexadecimal (`0x1.8p3`). `None` for anything else, and for values
/// that are infinite or NaN, as problemtools' `isfloat` rejects them.
pub fn parse_float(text: &str) -> Option<f64> {
    let value = parse_c_double(text)?;
    value.is_finite().then_some(value)
}

fn parse_c_double(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    let lower = body.to_ascii_lowercase();
    let magnitude = if let Some(hex) = lower.strip_prefix("0x") {
        parse_hex(hex)?
    } else {
        // Rust's parser takes what strtod takes for decimals, and also `inf`/`nan` words,
        // which end up rejected as non-finite like C's.
        if body.starts_with(['+', '-']) || body.is_empty() {
            return None;
        }
        body.parse::<f64>().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `h.hhhp±d` (the part after `0x`), as C99 reads hex floats.
fn parse_hex(text: &str) -> Option<f64> {
    let (mantissa, exponent) = match text.split_once('p') {
        Some((m, e)) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (
                m,
                e.parse::<i32>().unwrap_or(if e.starts_with('-') {
                    i32::MIN
                } else {
                    i32::MAX
                }),
            )
        }
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut value = 0.0f64;
    for digit in whole.chars() {
        value = value * 16.0 + f64::from(digit.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for digit in fraction.chars() {
        value += f64::from(digit.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exponent.clamp(-2000, 2000)))
}

/// Where the comparison stands, for the reason: lines counted as problemtools counts them.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Cursor {
            bytes,
            pos: 0,
            line: 1,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        if byte == b'\n' {
            self.line += 1;
        }
        Some(byte)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.bump();
        }
    }

    fn token(&mut self) -> Option<&'a [u8]> {
        self.skip_space();
        let start = self.pos;
        while self.peek().is_some_and(|b| !is_space(b)) {
            self.pos += 1;
        }
        (self.pos > start).then(|| &self.bytes[start..self.pos])
    }
}

/// How a whitespace character is named in a reason.
fn describe_space(byte: Option<u8>) -> String {
    match byte {
        None => "the end of the output".to_string(),
        Some(b' ') => "a space".to_string(),
        Some(b'\n') => "a newline".to_string(),
        Some(b'\r') => "a carriage return (\\r)".to_string(),
        Some(b'\t') => "a tab".to_string(),
        Some(b) if is_space(b) => format!("whitespace byte {b}"),
        Some(b) => format!("`{}`", String::from_utf8_lossy(&[b])),
    }
}

/// Compares `output` with `answer` under `flags`, as the default validator does.
pub fn check(flags: &Flags, output: &[u8], answer: &[u8]) -> Judgement {
    let mut judge = Cursor::new(answer);
    let mut team = Cursor::new(output);
    let floats = flags.uses_floats();
    let where_ = |team: &Cursor<'_>, judge: &Cursor<'_>| {
        format!("line {} (answer line {})", team.line, judge.line)
    };
    let mut count = 0usize;
    let mut largest_difference: Option<f64> = None;
    loop {
        if flags.space_change_sensitive {
            while let Some(c) = judge.peek().filter(|&b| is_space(b)) {
                let d = team.peek();
                if d != Some(c) {
                    return Judgement::wrong_answer(format!(
                        "{}: expected {}, found {} (space_change_sensitive)",
                        where_(&team, &judge),
                        describe_space(Some(c)),
                        describe_space(d)
                    ));
                }
                judge.bump();
                team.bump();
            }
            if let Some(d) = team.peek().filter(|&b| is_space(b)) {
                return Judgement::wrong_answer(format!(
                    "{}: extra whitespace, {} (space_change_sensitive)",
                    where_(&team, &judge),
                    describe_space(Some(d))
                ));
            }
        } else {
            judge.skip_space();
            team.skip_space();
        }
        let Some(expected) = judge.token() else {
            break;
        };
        let Some(found) = team.token() else {
            let what = if count > 0 {
                "output ends early"
            } else if output.is_empty() {
                "output is empty"
            } else {
                "output has only whitespace"
            };
            return Judgement::wrong_answer(format!(
                "{what}: expected {} at answer line {}",
                shown(expected),
                judge.line
            ));
        };
        count += 1;
        let as_float = floats
            .then(|| std::str::from_utf8(expected).ok().and_then(parse_float))
            .flatten();
        if let Some(j) = as_float {
            let Some(t) = std::str::from_utf8(found).ok().and_then(parse_float) else {
                return Judgement::wrong_answer(format!(
                    "{}: expected a number like {}, found {}",
                    where_(&team, &judge),
                    shown(expected),
                    shown(found)
                ));
            };
            let difference = (j - t).abs();
            let absolute = flags.float_absolute.unwrap_or(-1.0);
            let relative = flags.float_relative.unwrap_or(-1.0);
            // Both values are finite, so the difference is never NaN.
            let within = difference <= absolute || difference <= relative * j.abs();
            if !within {
                let relative_error = if j == 0.0 {
                    "undefined (the answer is 0)".to_string()
                } else {
                    format!("{:e}", difference / j.abs())
                };
                return Judgement::wrong_answer(format!(
                    "{}: expected {}, found {}: absolute error {:e} (tolerance {}), relative error {relative_error} (tolerance {})",
                    where_(&team, &judge),
                    shown(expected),
                    shown(found),
                    difference,
                    tolerance(flags.float_absolute),
                    tolerance(flags.float_relative),
                ));
            }
            if found != expected {
                largest_difference =
                    Some(largest_difference.map_or(difference, |m| m.max(difference)));
            }
        } else {
            let same = if flags.case_sensitive {
                found == expected
            } else {
                found.eq_ignore_ascii_case(expected)
            };
            if !same {
                let case = if !flags.case_sensitive || !found.eq_ignore_ascii_case(expected) {
                    ""
                } else {
                    " (only case differs; case_sensitive is set)"
                };
                return Judgement::wrong_answer(format!(
                    "{}: expected {}, found {}{case}",
                    where_(&team, &judge),
                    shown(expected),
                    shown(found)
                ));
            }
        }
    }
    if let Some(extra) = team.token() {
        return Judgement::wrong_answer(format!(
            "extra output at line {}: {}",
            team.line,
            shown(extra)
        ));
    }
    let mut reason = if count == 1 {
        "1 token".to_string()
    } else {
        format!("{count} tokens")
    };
    if let Some(difference) = largest_difference {
        reason.push_str(&format!(", largest difference {difference:e}"));
    }
    Judgement::accepted(reason)
}

fn tolerance(value: Option<f64>) -> String {
    value.map_or_else(|| "none".to_string(), |v| format!("{v:e}"))
}

/// A token in double quotes, cut and escaped for a one-line reason.
fn shown(token: &[u8]) -> String {
    crate::text::quote(token, 40)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict::{self, Accepted as AC, WrongAnswer as WA};

    fn flags(args: &[&str]) -> Flags {
        Flags::parse(args).unwrap()
    }

    #[test]
    fn verdict_table() {
        // (flags, output, answer, verdict, what)
        let rows: &[(&[&str], &str, &str, Verdict, &str)] = &[
            (&[], "1 2\n", "1 2\n", AC, "same"),
            (&[], "1   2", "1\n2\n", AC, "spacing ignored"),
            (&[], "1\r\n2\r\n", "1\n2\n", AC, "CRLF ignored"),
            (&[], "YES", "yes", AC, "case-insensitive by default"),
            (&["case_sensitive"], "YES", "yes", WA, "case_sensitive"),
            (&["case_sensitive"], "yes", "yes", AC, "case_sensitive same"),
            (&[], "", "1\n", WA, "empty output"),
            (&[], "  \n", "1\n", WA, "whitespace-only output"),
            (&[], "", "", AC, "empty answer, empty output"),
            (&[], "\n", "", AC, "empty answer, a newline"),
            (&[], "1", "1 2", WA, "ends early"),
            (&[], "1 2 3", "1 2", WA, "trailing output"),
            (&[], "1.0", "1", WA, "no tolerance: 1.0 is not 1"),
            (
                &["space_change_sensitive"],
                "1 2\n",
                "1 2\n",
                AC,
                "space sensitive same",
            ),
            (
                &["space_change_sensitive"],
                "1  2\n",
                "1 2\n",
                WA,
                "double space",
            ),
            (
                &["space_change_sensitive"],
                "1 2",
                "1 2\n",
                WA,
                "missing final newline",
            ),
            (
                &["space_change_sensitive"],
                "1 2\n\n",
                "1 2\n",
                WA,
                "extra final newline",
            ),
            (&["space_change_sensitive"], "1 2\r\n", "1 2\n", WA, "CRLF"),
            (
                &["space_change_sensitive"],
                "1\t2\n",
                "1 2\n",
                WA,
                "tab for space",
            ),
            (
                &["space_change_sensitive"],
                " 1 2\n",
                "1 2\n",
                WA,
                "leading space",
            ),
            (
                &["space_change_sensitive"],
                "A b\n",
                "a B\n",
                AC,
                "space sensitive, still case-insensitive",
            ),
            (
                &["float_tolerance", "1e-6"],
                "0.3333333",
                "0.333333333",
                AC,
                "within both",
            ),
            (
                &["float_tolerance", "1e-6"],
                "0.334",
                "0.333333333",
                WA,
                "outside both",
            ),
            (
                &["float_absolute_tolerance", "0.1"],
                "100.05",
                "100",
                AC,
                "absolute only",
            ),
            (
                &["float_absolute_tolerance", "0.1"],
                "100.5",
                "100",
                WA,
                "absolute only, outside",
            ),
            (
                &["float_relative_tolerance", "0.01"],
                "100.5",
                "100",
                AC,
                "relative to the judge",
            ),
            (
                &["float_relative_tolerance", "0.01"],
                "0.000001",
                "0",
                WA,
                "relative to a zero judge",
            ),
            (
                &[
                    "float_absolute_tolerance",
                    "1e-3",
                    "float_relative_tolerance",
                    "1e-9",
                ],
                "1000000.0005",
                "1000000",
                AC,
                "either tolerance",
            ),
            (
                &["float_tolerance", "1e-6"],
                "1e2",
                "100",
                AC,
                "exponent form",
            ),
            (
                &["float_tolerance", "1e-6"],
                "1E+2",
                "100.0",
                AC,
                "upper-case exponent",
            ),
            (
                &["float_tolerance", "1e-6"],
                "16",
                "0x10",
                AC,
                "hex judge token is a float",
            ),
            (
                &["float_tolerance", "1e-6"],
                "0x1p4",
                "16",
                AC,
                "hex team token",
            ),
            (&["float_tolerance", "1e-6"], "+5", "5", AC, "explicit plus"),
            (
                &["float_tolerance", "1e-6"],
                ".5",
                "0.5",
                AC,
                "no leading zero",
            ),
            (
                &["float_tolerance", "1e-6"],
                "5.",
                "5",
                AC,
                "trailing point",
            ),
            (
                &["float_tolerance", "1e-6"],
                "abc",
                "5",
                WA,
                "team token must parse",
            ),
            (
                &["float_tolerance", "1e-6"],
                "5abc",
                "5",
                WA,
                "trailing garbage is not a float",
            ),
            (
                &["float_tolerance", "1e-6"],
                "1e",
                "1",
                WA,
                "dangling exponent",
            ),
            (
                &["float_tolerance", "1e-6"],
                "inf",
                "5",
                WA,
                "inf is not a float for the team",
            ),
            (
                &["float_tolerance", "1e-6"],
                "nan",
                "5",
                WA,
                "nan is not a float for the team",
            ),
            (
                &["float_tolerance", "1e-6"],
                "INF",
                "inf",
                AC,
                "judge inf is a string, compared case-insensitively",
            ),
            (
                &["float_tolerance", "1e-6"],
                "1e9999",
                "inf",
                WA,
                "judge inf as string: 1e9999 is not the text inf",
            ),
            (
                &["float_tolerance", "1e-6"],
                "NaN",
                "nan",
                AC,
                "judge nan as string",
            ),
            (
                &["float_tolerance", "1e-6"],
                "Yes",
                "yes",
                AC,
                "non-float judge tokens are strings",
            ),
            (
                &["float_tolerance", "1e-6", "case_sensitive"],
                "Yes",
                "yes",
                WA,
                "and case_sensitive applies to them",
            ),
            (
                &["float_tolerance", "1e-6"],
                "1e400",
                "1e400",
                AC,
                "overflowing judge token is a string: same text",
            ),
            (&["float_tolerance", "1e-6"], "-0", "0", AC, "negative zero"),
        ];
        for (args, output, answer, expected, what) in rows {
            let got = check(&flags(args), output.as_bytes(), answer.as_bytes());
            assert_eq!(
                got.verdict, *expected,
                "{what}: flags {args:?}, output {output:?}, answer {answer:?}: {}",
                got.reason
            );
        }
    }

    #[test]
    fn reasons_say_where_and_what() {
        let wa = |args: &[&str], output: &str, answer: &str| {
            check(&flags(args), output.as_bytes(), answer.as_bytes()).reason
        };
        assert_eq!(
            wa(&[], "", "7\n"),
            "output is empty: expected \"7\" at answer line 1"
        );
        assert_eq!(
            wa(&[], "1\n3\n", "1\n2\n"),
            "line 2 (answer line 2): expected \"2\", found \"3\""
        );
        assert_eq!(wa(&[], "1 2", "1"), "extra output at line 1: \"2\"");
        assert_eq!(
            wa(&["case_sensitive"], "YES", "yes"),
            "line 1 (answer line 1): expected \"yes\", found \"YES\" (only case differs; case_sensitive is set)"
        );
        assert_eq!(
            wa(&["space_change_sensitive"], "1 2", "1 2\n"),
            "line 1 (answer line 1): expected a newline, found the end of the output (space_change_sensitive)"
        );
        let reason = wa(&["float_relative_tolerance", "1e-3"], "1", "0");
        assert!(
            reason.contains("relative error undefined (the answer is 0)"),
            "{reason}"
        );
        assert!(reason.contains("tolerance none"), "{reason}");
        let reason = wa(&["float_tolerance", "1e-6"], "x", "1.5");
        assert_eq!(
            reason,
            "line 1 (answer line 1): expected a number like \"1.5\", found \"x\""
        );
    }

    #[test]
    fn flags_parse_as_problemtools_reads_them() {
        assert_eq!(
            flags(&["float_tolerance", "1e-4"]),
            Flags {
                float_absolute: Some(1e-4),
                float_relative: Some(1e-4),
                ..Flags::default()
            }
        );
        assert!(flags(&["case_sensitive", "space_change_sensitive"]).space_change_sensitive);
        for bad in [
            &["float_tolerance"][..],
            &["float_tolerance", "x"],
            &["float_tolerance", "inf"],
            &["ignore_case"],
        ] {
            assert!(Flags::parse(bad).is_err(), "{bad:?}");
        }
        for args in [
            &["case_sensitive", "float_tolerance", "1e-6"][..],
            &["space_change_sensitive", "float_absolute_tolerance", "0.5"],
            &[
                "float_absolute_tolerance",
                "1e-9",
                "float_relative_tolerance",
                "1e-6",
            ],
        ] {
            let parsed = flags(args);
            assert_eq!(Flags::parse(&parsed.to_args()).unwrap(), parsed, "{args:?}");
        }
    }

    #[test]
    fn c_doubles() {
        for (text, value) in [
            ("1", Some(1.0)),
            ("-2.5e-3", Some(-2.5e-3)),
            ("0x1.8p1", Some(3.0)),
            ("0X10", Some(16.0)),
            ("1e400", None),
            ("inf", None),
            ("-infinity", None),
            ("nan", None),
            ("", None),
            ("-", None),
            ("--1", None),
            ("+-1", None),
            ("1,5", None),
            ("0x", None),
            ("0x1p", None),
        ] {
            assert_eq!(parse_float(text), value, "{text:?}");
        }
    }
}
