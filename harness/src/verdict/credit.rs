//! Partial credit a checker hands back, read from what it writes: testlib's `quitp` points
//! (exit 7) and a Kattis output validator's `score.txt` or `score_multiplier.txt`. Pure
//! functions over bytes; what a credit is worth in its group is decided by
//! [`CaseRule::score`](crate::score::CaseRule::score).

use std::fmt;

use crate::text::show;

/// testlib's exit code for `quitp` (`_points`): the checker gives points, not a verdict.
pub const TESTLIB_POINTS_EXIT: i32 = 7;

/// Characters of a checker's text kept in an error.
const SHOWN: usize = 60;

/// Where a credit came from; it decides how the number is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreditSource {
    /// testlib's `quitp(points, …)`: absolute points, as Polygon reads them.
    Testlib,
    /// A Kattis validator's `score.txt`: an absolute score.
    ScoreTxt,
    /// A Kattis validator's `score_multiplier.txt` (2025-09): a fraction, 0 to 1, of the case's
    /// maximum.
    ScoreMultiplierTxt,
    /// A communication task's manager (CMS): its stdout's score, a fraction, 0 to 1.
    Manager,
}

impl fmt::Display for CreditSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CreditSource::Testlib => "testlib's `quitp` points",
            CreditSource::ScoreTxt => "`score.txt`",
            CreditSource::ScoreMultiplierTxt => "`score_multiplier.txt`",
            CreditSource::Manager => "the manager's score",
        })
    }
}

/// A checker's partial credit for an accepted case.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Credit {
    /// What wrote it, and so whether `value` is points or a fraction.
    pub source: CreditSource,
    /// Finite and not negative once parsed (a Kattis legacy `score.txt` may be negative).
    pub value: f64,
}

impl Credit {
    /// Absolute points (testlib, `score.txt`), not a fraction of the maximum.
    pub fn is_fraction(&self) -> bool {
        matches!(
            self.source,
            CreditSource::ScoreMultiplierTxt | CreditSource::Manager
        )
    }
}

/// A checker's credit that cannot be used: the checker (a judge's part) misbehaved, so the case
/// is a judge error, never the contestant's fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CreditError {
    /// Not a number.
    #[error("{from} is not a number: {text}")]
    Unparsable {
        /// What wrote it.
        from: CreditSource,
        /// The text, quoted and cut.
        text: String,
    },
    /// `inf` or `nan`.
    #[error("{from} is not a finite number: {value}")]
    NotFinite {
        /// What wrote it.
        from: CreditSource,
        /// As written.
        value: String,
    },
    /// Less than 0.
    #[error("{from} is negative: {value}")]
    Negative {
        /// What wrote it.
        from: CreditSource,
        /// As written.
        value: String,
    },
    /// A multiplier outside 0–1.
    #[error("`score_multiplier.txt` must be between 0 and 1, not {value}")]
    MultiplierOutOfRange {
        /// As written.
        value: String,
    },
    /// Both feedback files.
    #[error("the validator wrote both `score.txt` and `score_multiplier.txt` (it may write one)")]
    BothScoreFiles,
    /// `quitpi`: a points description, not points.
    #[error(
        "testlib's `quitpi` gives `points_info`, not points, which no judge here can score: {text}"
    )]
    PointsInfo {
        /// The message, cut.
        text: String,
    },
    /// More than the case is worth.
    #[error("{from} gives {value}, more than the case is worth ({max})")]
    OverMaximum {
        /// What wrote it.
        from: CreditSource,
        /// The points given, as printed.
        value: String,
        /// The case's maximum, as printed.
        max: String,
    },
    /// A score for a case its group scores all or nothing (or a problem scored pass-fail).
    #[error("{from} for a case in a pass-fail group, which gives no case a score of its own (hint: make the group `sum` or `min`)")]
    InPassFailGroup {
        /// What wrote it.
        from: CreditSource,
    },
    /// A score for a case the checker rejected.
    #[error("{from} for a case the checker did not accept")]
    OnRejected {
        /// What wrote it.
        from: CreditSource,
    },
    /// An accepted case in a group without a maximum, and no `score.txt`.
    #[error("the validator accepted a case of an unbounded group without writing `score.txt`, which is the case's only score")]
    MissingScore,
    /// A fraction of a maximum that does not exist.
    #[error("`score_multiplier.txt` for a case of an unbounded group, which has no maximum to multiply (hint: write `score.txt`)")]
    MultiplierUnbounded,
    /// A 2025-09 file in a legacy package.
    #[error(
        "`score_multiplier.txt` is not part of the legacy Kattis format (hint: write `score.txt`)"
    )]
    MultiplierInLegacy,
}

/// testlib's points from what a `quitp` checker wrote: its stderr (`points 0.5 a message`, as
/// testlib writes it when no result file is given) or its result file (`0.5 a message`). As
/// Polygon reads it, the points are the first token of the message. The checker's own lines
/// before testlib's (debug output on stderr) are skipped.
pub fn testlib_points(message: &[u8]) -> Result<Credit, CreditError> {
    let source = CreditSource::Testlib;
    let text = String::from_utf8_lossy(message);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    // testlib writes its line last, prefixed `points `; a result file holds only the message.
    let line = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("points "))
        .or_else(|| lines.first().copied())
        .unwrap_or("");
    let token = line.split_whitespace().next().unwrap_or("");
    if token.starts_with("points_info=") {
        return Err(CreditError::PointsInfo {
            text: show(line.as_bytes(), SHOWN),
        });
    }
    number(source, token).map(|value| Credit { source, value })
}

/// Which format's rules read what a Kattis validator left in its feedback folder: a
/// package's own version decides, as the score it gives is one of that format's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FeedbackRules {
    /// The legacy format: `score.txt` is any finite number, as problemtools reads it (a
    /// group's `range` bounds it); `score_multiplier.txt` is not part of it.
    Legacy,
    /// 2025-09 (and 2023-07-draft), and judge.toml's Kattis interactors: `score.txt` and
    /// `score_multiplier.txt` hold "a single non-negative floating-point number"; anything
    /// else is "invalid contents", a judge error.
    #[default]
    Kattis2025,
}

/// The credit a Kattis output validator left in its feedback folder, from the contents of
/// `score.txt` and `score_multiplier.txt` (`None` for a file that is not there), read by the
/// rules of the validator's format.
pub fn kattis_feedback(
    rules: FeedbackRules,
    score_txt: Option<&[u8]>,
    score_multiplier_txt: Option<&[u8]>,
) -> Result<Option<Credit>, CreditError> {
    let read = |source, bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        let mut tokens = text.split_whitespace();
        match (tokens.next(), tokens.next()) {
            (Some(token), None) => match (rules, source) {
                (FeedbackRules::Legacy, CreditSource::ScoreTxt) => any_number(source, token),
                _ => number(source, token),
            },
            _ => Err(CreditError::Unparsable {
                from: source,
                text: quoted(bytes),
            }),
        }
    };
    match (score_txt, score_multiplier_txt) {
        (Some(_), Some(_)) => Err(CreditError::BothScoreFiles),
        (Some(bytes), None) => Ok(Some(Credit {
            source: CreditSource::ScoreTxt,
            value: read(CreditSource::ScoreTxt, bytes)?,
        })),
        (None, Some(bytes)) => {
            let value = read(CreditSource::ScoreMultiplierTxt, bytes)?;
            if value > 1.0 {
                // As written: printed, 1.0000001 would read as 1.
                return Err(CreditError::MultiplierOutOfRange {
                    value: as_written(String::from_utf8_lossy(bytes).trim()),
                });
            }
            Ok(Some(Credit {
                source: CreditSource::ScoreMultiplierTxt,
                value,
            }))
        }
        (None, None) => Ok(None),
    }
}

/// A finite number, not negative, written as a decimal or with an exponent (a legacy
/// `score.txt` may be negative: [`any_number`]).
fn number(source: CreditSource, token: &str) -> Result<f64, CreditError> {
    let value = any_number(source, token)?;
    if value < 0.0 {
        return Err(CreditError::Negative {
            from: source,
            value: as_written(token),
        });
    }
    // `-0` is zero.
    Ok(value.max(0.0))
}

/// A finite number: `inf`, `nan` and one too large for a float (`1e400`) are not.
fn any_number(source: CreditSource, token: &str) -> Result<f64, CreditError> {
    let value: f64 = token.parse().map_err(|_| CreditError::Unparsable {
        from: source,
        text: quoted(token.as_bytes()),
    })?;
    if !value.is_finite() {
        return Err(CreditError::NotFinite {
            from: source,
            value: as_written(token),
        });
    }
    Ok(value)
}

/// A number's token as the checker wrote it, cut: a `score.txt` may hold 64 KiB of digits.
fn as_written(token: &str) -> String {
    crate::text::show(token.as_bytes(), SHOWN)
}

fn quoted(bytes: &[u8]) -> String {
    crate::text::quote(bytes, SHOWN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(value: f64) -> Credit {
        Credit {
            source: CreditSource::Testlib,
            value,
        }
    }

    /// What testlib.h writes, read from `__testlib_quitp` and `InStream::quit`: `%.10f` with
    /// the trailing zeros dropped (`0.5`, `10.0`) or `%d` for integer points, then the message.
    #[test]
    fn testlib_points_are_the_first_token_of_the_message() {
        let table: &[(&str, Result<Credit, CreditError>)] = &[
            ("points 0.5 half of the pairs\n", Ok(points(0.5))),
            ("points 10.0\n", Ok(points(10.0))),
            ("points 7 seven of ten", Ok(points(7.0))),
            // The result file (`checker in out ans result`): the message alone.
            ("0.25 a quarter", Ok(points(0.25))),
            (
                "  points   3.0000000001 spaced  \r\n",
                Ok(points(3.0000000001)),
            ),
            // The checker's own debug lines come first; testlib's line is the last.
            (
                "reading 5 numbers\nsum ok\npoints 2.0 ok\n",
                Ok(points(2.0)),
            ),
            ("points 0.0 nothing right\n", Ok(points(0.0))),
            ("points 1e2 exponent", Ok(points(100.0))),
            (
                "points abc\n",
                Err(CreditError::Unparsable {
                    from: CreditSource::Testlib,
                    text: "\"abc\"".into(),
                }),
            ),
            (
                "",
                Err(CreditError::Unparsable {
                    from: CreditSource::Testlib,
                    text: "\"\"".into(),
                }),
            ),
            (
                "points -1.0 negative",
                Err(CreditError::Negative {
                    from: CreditSource::Testlib,
                    value: "-1.0".into(),
                }),
            ),
            (
                "points nan",
                Err(CreditError::NotFinite {
                    from: CreditSource::Testlib,
                    value: "nan".into(),
                }),
            ),
            (
                "points inf",
                Err(CreditError::NotFinite {
                    from: CreditSource::Testlib,
                    value: "inf".into(),
                }),
            ),
            (
                "points points_info=3/5 partial",
                Err(CreditError::PointsInfo {
                    text: "points_info=3/5 partial".into(),
                }),
            ),
        ];
        for (message, expected) in table {
            assert_eq!(&testlib_points(message.as_bytes()), expected, "{message:?}");
        }
    }

    #[test]
    fn kattis_feedback_files() {
        let score = |value| {
            Ok(Some(Credit {
                source: CreditSource::ScoreTxt,
                value,
            }))
        };
        let multiplier = |value| {
            Ok(Some(Credit {
                source: CreditSource::ScoreMultiplierTxt,
                value,
            }))
        };
        type Row<'a> = (
            Option<&'a str>,
            Option<&'a str>,
            Result<Option<Credit>, CreditError>,
        );
        let table: Vec<Row> = vec![
            (None, None, Ok(None)),
            (Some("40\n"), None, score(40.0)),
            (Some("  12.5  "), None, score(12.5)),
            (Some("0"), None, score(0.0)),
            (Some("-0"), None, score(0.0)),
            (Some("3e1\r\n"), None, score(30.0)),
            (None, Some("0.25\n"), multiplier(0.25)),
            (None, Some("1"), multiplier(1.0)),
            (None, Some("0"), multiplier(0.0)),
            (Some("1"), Some("1"), Err(CreditError::BothScoreFiles)),
            (
                Some(""),
                None,
                Err(CreditError::Unparsable {
                    from: CreditSource::ScoreTxt,
                    text: "\"\"".into(),
                }),
            ),
            (
                Some("40 50"),
                None,
                Err(CreditError::Unparsable {
                    from: CreditSource::ScoreTxt,
                    text: "\"40 50\"".into(),
                }),
            ),
            (
                Some("forty"),
                None,
                Err(CreditError::Unparsable {
                    from: CreditSource::ScoreTxt,
                    text: "\"forty\"".into(),
                }),
            ),
            (
                Some("-3"),
                None,
                Err(CreditError::Negative {
                    from: CreditSource::ScoreTxt,
                    value: "-3".into(),
                }),
            ),
            (
                Some("NaN"),
                None,
                Err(CreditError::NotFinite {
                    from: CreditSource::ScoreTxt,
                    value: "NaN".into(),
                }),
            ),
            (
                None,
                Some("1.5"),
                Err(CreditError::MultiplierOutOfRange {
                    value: "1.5".into(),
                }),
            ),
            (
                None,
                Some("-0.5"),
                Err(CreditError::Negative {
                    from: CreditSource::ScoreMultiplierTxt,
                    value: "-0.5".into(),
                }),
            ),
            (
                Some("-15\n"),
                None,
                Err(CreditError::Negative {
                    from: CreditSource::ScoreTxt,
                    value: "-15".into(),
                }),
            ),
            // Too large for a float: not a finite score.
            (
                Some("1e400"),
                None,
                Err(CreditError::NotFinite {
                    from: CreditSource::ScoreTxt,
                    value: "1e400".into(),
                }),
            ),
            (
                Some("inf"),
                None,
                Err(CreditError::NotFinite {
                    from: CreditSource::ScoreTxt,
                    value: "inf".into(),
                }),
            ),
            (
                None,
                Some("1.0000001\n"),
                Err(CreditError::MultiplierOutOfRange {
                    value: "1.0000001".into(),
                }),
            ),
        ];
        for (score_txt, multiplier_txt, expected) in table {
            let got = kattis_feedback(
                FeedbackRules::Kattis2025,
                score_txt.map(str::as_bytes),
                multiplier_txt.map(str::as_bytes),
            );
            assert_eq!(got, expected, "{score_txt:?} {multiplier_txt:?}");
        }
    }

    #[test]
    fn legacy_scores_may_be_negative() {
        let legacy = |score: &str| {
            kattis_feedback(FeedbackRules::Legacy, Some(score.as_bytes()), None)
                .map(|c| c.map(|c| c.value))
        };
        assert_eq!(legacy("-2.5\n"), Ok(Some(-2.5)));
        assert!(matches!(legacy("inf"), Err(CreditError::NotFinite { .. })));
        assert!(matches!(
            legacy("-1e400"),
            Err(CreditError::NotFinite { .. })
        ));
        assert!(matches!(legacy("1 2"), Err(CreditError::Unparsable { .. })));
        // The multiplier is read as 2025-09 reads it; the legacy scoring then refuses it.
        assert_eq!(
            kattis_feedback(FeedbackRules::Legacy, None, Some(b"0.5")).map(|c| c.map(|c| c.value)),
            Ok(Some(0.5))
        );
    }

    #[test]
    fn a_long_number_is_cut_in_the_error() {
        let digits = "9".repeat(60_000);
        let error = kattis_feedback(FeedbackRules::Kattis2025, Some(digits.as_bytes()), None)
            .unwrap_err()
            .to_string();
        assert!(error.len() < 200, "{} characters", error.len());
        let error = testlib_points(format!("points -{digits}").as_bytes())
            .unwrap_err()
            .to_string();
        assert!(error.len() < 200, "{} characters", error.len());
    }

    #[test]
    fn errors_say_what_wrote_the_credit() {
        let error = testlib_points(b"points x").unwrap_err();
        assert_eq!(
            error.to_string(),
            "testlib's `quitp` points is not a number: \"x\""
        );
        assert_eq!(
            CreditError::OverMaximum {
                from: CreditSource::ScoreTxt,
                value: "12".into(),
                max: "10".into()
            }
            .to_string(),
            "`score.txt` gives 12, more than the case is worth (10)"
        );
    }
}
