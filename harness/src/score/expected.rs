//! Expected scores of stored submissions: DOMjudge's `@EXPECTED_SCORE@: 40` comment, 2025-09
//! submissions.yaml's `score` (a number or `[lo, hi]`), and the check of a score got against
//! them, with the rule for `partially_accepted` submissions.

use std::fmt;

use serde_norway::Value;

use super::number::{at_most, format_score, same_score};

/// A score a stored submission must get.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ExpectedScore {
    /// This score, as printed.
    Exactly(f64),
    /// A score in this inclusive range.
    Between(f64, f64),
}

impl fmt::Display for ExpectedScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExpectedScore::Exactly(score) => f.write_str(&format_score(score)),
            ExpectedScore::Between(lo, hi) => {
                write!(f, "{} to {}", format_score(lo), format_score(hi))
            }
        }
    }
}

impl ExpectedScore {
    /// Whether `score` is it, compared as printed.
    pub fn admits(&self, score: f64) -> bool {
        match *self {
            ExpectedScore::Exactly(expected) => same_score(score, expected),
            ExpectedScore::Between(lo, hi) => at_most(lo, score) && at_most(score, hi),
        }
    }

    /// The scores both admit, if any: `[30, 60]` and `40` make `40`, `[30, 60]` and `[50, 80]`
    /// make `[50, 60]`.
    pub fn and(self, other: ExpectedScore) -> Option<ExpectedScore> {
        let bounds = |e: ExpectedScore| match e {
            ExpectedScore::Exactly(score) => (score, score),
            ExpectedScore::Between(lo, hi) => (lo, hi),
        };
        match (self, other) {
            (ExpectedScore::Exactly(score), other) | (other, ExpectedScore::Exactly(score)) => {
                other.admits(score).then_some(ExpectedScore::Exactly(score))
            }
            _ => {
                let ((a, b), (c, d)) = (bounds(self), bounds(other));
                let (lo, hi) = (a.max(c), b.min(d));
                if same_score(lo, hi) {
                    Some(ExpectedScore::Exactly(lo))
                } else {
                    (lo < hi).then_some(ExpectedScore::Between(lo, hi))
                }
            }
        }
    }

    /// submissions.yaml's `score`: a number, or a list of two, the first not above the second.
    pub fn from_yaml(value: &Value) -> Result<ExpectedScore, ExpectedError> {
        let number = |v: &Value| v.as_f64().filter(|n| n.is_finite());
        let bad = || ExpectedError::BadScore { value: show(value) };
        match value {
            Value::Sequence(items) => match items.as_slice() {
                [lo, hi] => match (number(lo), number(hi)) {
                    (Some(lo), Some(hi)) if lo <= hi => Ok(ExpectedScore::Between(lo, hi)),
                    _ => Err(bad()),
                },
                _ => Err(bad()),
            },
            other => number(other).map(ExpectedScore::Exactly).ok_or_else(bad),
        }
    }
}

/// A YAML value on one line, as it would be written in flow style (`[50, 30]`).
fn show(value: &Value) -> String {
    match value {
        Value::Sequence(items) => {
            let items: Vec<String> = items.iter().map(show).collect();
            format!("[{}]", items.join(", "))
        }
        Value::String(text) => text.clone(),
        other => serde_norway::to_string(other)
            .map(|t| t.trim().replace('\n', " "))
            .unwrap_or_default(),
    }
}

/// An expected score that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpectedError {
    /// DOMjudge refuses a source with two of them.
    #[error("`@EXPECTED_SCORE@: ` appears twice (DOMjudge refuses such a submission: keep one)")]
    TwoAnnotations,
    /// Not a number or a range.
    #[error("`score: {value}` is not a score: a number, or a list of two (`[30, 50]`)")]
    BadScore {
        /// As written.
        value: String,
    },
}

/// What DOMjudge makes of an `@EXPECTED_SCORE@: ` line.
#[derive(Debug, Clone, PartialEq)]
pub enum Annotation {
    /// A number: the expected score.
    Score(f64),
    /// Anything else: DOMjudge reads it as expected results (`@EXPECTED_SCORE@: CORRECT`), as
    /// `@EXPECTED_RESULTS@` — the text, for that reader.
    Results(String),
}

/// DOMjudge's tag (SubmissionService::parseExpectedAnnotation): found anywhere in the source,
/// in any case, with the colon and one space; its value is the rest of that line, trimmed.
const TAG: &str = "@expected_score@: ";

/// A source's `@EXPECTED_SCORE@: ` annotation, read as DOMjudge reads it: the value is the
/// rest of the line, trimmed, and is a score only if PHP's `is_numeric` accepts it (so
/// `/* @EXPECTED_SCORE@: 60 */` on one line is not a score: its value is `60 */`).
pub fn expected_score_annotation(source: &str) -> Result<Option<Annotation>, ExpectedError> {
    // ASCII lowercasing keeps every byte where it is.
    let lower = source.to_ascii_lowercase();
    let Some(at) = lower.find(TAG) else {
        return Ok(None);
    };
    let start = at + TAG.len();
    if lower[start..].contains(TAG) {
        return Err(ExpectedError::TwoAnnotations);
    }
    let rest = &source[start..];
    let line = rest.split('\n').next().unwrap_or("");
    let value = line.trim_matches([' ', '\t', '\n', '\r', '\0', '\x0B']);
    Ok(Some(if is_numeric(value) {
        match value.parse::<f64>() {
            Ok(score) if score.is_finite() => Annotation::Score(score),
            _ => Annotation::Results(value.to_string()),
        }
    } else {
        Annotation::Results(value.to_string())
    }))
}

/// PHP 8's `is_numeric` on a trimmed string: an optional sign, digits with an optional
/// fraction (or a fraction alone), an optional exponent. No hex, no `inf`, no `nan`.
fn is_numeric(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
        i += 1;
    }
    let whole = digits(&mut i);
    let mut fraction = 0;
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        fraction = digits(&mut i);
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == bytes.len()
}

/// Whether a stored submission's score is what was expected of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoreCheck {
    /// As expected (or nothing was).
    Ok,
    /// Not as expected, and why, with both numbers.
    Mismatch(String),
}

/// Checks a submission's score (`got`, of at most `max`) against its expected score, and, for
/// a `partially_accepted` one, that it scored strictly between 0 and the maximum (a
/// `partially_accepted` submission that states no score must still score partially; one that
/// does must do both). Scores are compared as printed.
pub fn check_score(
    expected: Option<&ExpectedScore>,
    partially_accepted: bool,
    got: Option<f64>,
    max: Option<f64>,
) -> ScoreCheck {
    let Some(got) = got else {
        return match expected {
            Some(expected) => ScoreCheck::Mismatch(format!(
                "expected score {expected}, but the problem is not scored (hint: give it points or groups)"
            )),
            None if partially_accepted => ScoreCheck::Mismatch(
                "a partially accepted submission needs a scored problem (hint: give it points or groups)"
                    .to_string(),
            ),
            None => ScoreCheck::Ok,
        };
    };
    let shown = format_score(got);
    if let Some(expected) = expected {
        if !expected.admits(got) {
            return ScoreCheck::Mismatch(format!("expected score {expected}, got {shown}"));
        }
    }
    if partially_accepted {
        let above_zero = got > 0.0 && !same_score(got, 0.0);
        let below_max = max.is_none_or(|max| !at_most(max, got));
        if !(above_zero && below_max) {
            let range = match max {
                Some(max) => format!("more than 0 and less than {}", format_score(max)),
                None => "more than 0".to_string(),
            };
            return ScoreCheck::Mismatch(format!(
                "a partially accepted submission must score {range}, got {shown}"
            ));
        }
    }
    ScoreCheck::Ok
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What DOMjudge's parseExpectedAnnotation makes of each source (its example problems
    /// write `# @EXPECTED_SCORE@: 60`, `// …`, and ` * …` inside a block comment).
    #[test]
    fn domjudge_annotations() {
        let score = |s| Ok(Some(Annotation::Score(s)));
        let results = |r: &str| Ok(Some(Annotation::Results(r.to_string())));
        let table: &[(&str, Result<Option<Annotation>, ExpectedError>)] = &[
            ("# @EXPECTED_SCORE@: 60\nprint(1)\n", score(60.0)),
            ("// @EXPECTED_SCORE@: 74.42\n", score(74.42)),
            ("/*\n * @EXPECTED_SCORE@: 30\n */\n", score(30.0)),
            ("# @expected_score@: 5\r\n", score(5.0)),
            ("# @EXPECTED_SCORE@:   0  \n", score(0.0)),
            ("x = 1 # @EXPECTED_SCORE@: 1e2", score(100.0)),
            ("# @EXPECTED_SCORE@: .5\n", score(0.5)),
            ("# @EXPECTED_SCORE@: -3\n", score(-3.0)),
            // Not a number: DOMjudge reads it as expected results.
            ("# @EXPECTED_SCORE@: CORRECT\n", results("CORRECT")),
            ("/* @EXPECTED_SCORE@: 60 */\n", results("60 */")),
            ("# @EXPECTED_SCORE@: 0x1A\n", results("0x1A")),
            ("# @EXPECTED_SCORE@: inf\n", results("inf")),
            ("# @EXPECTED_SCORE@: \n", results("")),
            // The colon and one space are part of the tag.
            ("# @EXPECTED_SCORE@:60\n", Ok(None)),
            ("# @EXPECTED_SCORE: 60\n", Ok(None)),
            ("print(2)\n", Ok(None)),
            (
                "# @EXPECTED_SCORE@: 60\n# @Expected_Score@: 70\n",
                Err(ExpectedError::TwoAnnotations),
            ),
        ];
        for (source, expected) in table {
            assert_eq!(&expected_score_annotation(source), expected, "{source:?}");
        }
    }

    #[test]
    fn expected_scores_that_must_both_hold() {
        use ExpectedScore::{Between, Exactly};
        let table = [
            (Between(30.0, 60.0), Exactly(40.0), Some(Exactly(40.0))),
            (Exactly(40.0), Between(30.0, 60.0), Some(Exactly(40.0))),
            (Exactly(40.0), Exactly(40.0), Some(Exactly(40.0))),
            (Exactly(40.0), Exactly(41.0), None),
            (Between(30.0, 60.0), Exactly(70.0), None),
            (
                Between(30.0, 60.0),
                Between(50.0, 80.0),
                Some(Between(50.0, 60.0)),
            ),
            (
                Between(30.0, 50.0),
                Between(50.0, 80.0),
                Some(Exactly(50.0)),
            ),
            (Between(30.0, 40.0), Between(50.0, 80.0), None),
        ];
        for (a, b, both) in table {
            assert_eq!(a.and(b), both, "{a} and {b}");
        }
    }

    #[test]
    fn php_is_numeric() {
        for yes in [
            "1", "-1", "+1", "1.5", "1.", ".5", "1e3", "1E-3", "007", "-.5e+2",
        ] {
            assert!(is_numeric(yes), "{yes}");
        }
        for no in [
            "", ".", "-", "e3", "1e", "1e+", "1 2", "0x1A", "inf", "NaN", "1,5", "1..2",
        ] {
            assert!(!is_numeric(no), "{no}");
        }
    }

    fn yaml(text: &str) -> Value {
        serde_norway::from_str(text).unwrap()
    }

    #[test]
    fn submissions_yaml_scores() {
        assert_eq!(
            ExpectedScore::from_yaml(&yaml("40")),
            Ok(ExpectedScore::Exactly(40.0))
        );
        assert_eq!(
            ExpectedScore::from_yaml(&yaml("12.5")),
            Ok(ExpectedScore::Exactly(12.5))
        );
        assert_eq!(
            ExpectedScore::from_yaml(&yaml("[30, 50.5]")),
            Ok(ExpectedScore::Between(30.0, 50.5))
        );
        for bad in [
            "[50, 30]",
            "[1]",
            "[1, 2, 3]",
            "forty",
            "[a, 2]",
            "{lo: 1}",
            ".nan",
        ] {
            assert!(
                matches!(
                    ExpectedScore::from_yaml(&yaml(bad)),
                    Err(ExpectedError::BadScore { .. })
                ),
                "{bad}"
            );
        }
        assert_eq!(
            ExpectedScore::from_yaml(&yaml("[50, 30]"))
                .unwrap_err()
                .to_string(),
            "`score: [50, 30]` is not a score: a number, or a list of two (`[30, 50]`)"
        );
    }

    #[test]
    fn checks() {
        use ScoreCheck::{Mismatch, Ok};
        let exactly = ExpectedScore::Exactly(40.0);
        let between = ExpectedScore::Between(30.0, 50.0);
        let third = ExpectedScore::Exactly(33.333333);
        // Expected, partially accepted, got, maximum, the check.
        type Row<'a> = (
            Option<&'a ExpectedScore>,
            bool,
            Option<f64>,
            Option<f64>,
            ScoreCheck,
        );
        let rows: Vec<Row> = vec![
            (Some(&exactly), false, Some(40.0), Some(100.0), Ok),
            (Some(&exactly), false, Some(30.0), Some(100.0), Mismatch("expected score 40, got 30".into())),
            (Some(&third), false, Some(100.0 / 3.0), Some(100.0), Ok),
            (Some(&between), false, Some(30.0), Some(100.0), Ok),
            (Some(&between), false, Some(50.0000000001), Some(100.0), Ok),
            (Some(&between), false, Some(50.5), Some(100.0), Mismatch("expected score 30 to 50, got 50.5".into())),
            (None, false, Some(0.0), Some(100.0), Ok),
            (None, true, Some(50.0), Some(100.0), Ok),
            (None, true, Some(100.0), Some(100.0), Mismatch("a partially accepted submission must score more than 0 and less than 100, got 100".into())),
            (None, true, Some(0.0), Some(100.0), Mismatch("a partially accepted submission must score more than 0 and less than 100, got 0".into())),
            (None, true, Some(1e-9), Some(100.0), Mismatch("a partially accepted submission must score more than 0 and less than 100, got 0".into())),
            (None, true, Some(5.0), None, Ok),
            (Some(&exactly), true, Some(40.0), Some(40.0), Mismatch("a partially accepted submission must score more than 0 and less than 40, got 40".into())),
            (Some(&exactly), false, None, None, Mismatch("expected score 40, but the problem is not scored (hint: give it points or groups)".into())),
            (None, true, None, None, Mismatch("a partially accepted submission needs a scored problem (hint: give it points or groups)".into())),
            (None, false, None, None, Ok),
        ];
        for (expected, partial, got, max, check) in rows {
            assert_eq!(
                check_score(expected, partial, got, max),
                check,
                "{expected:?} {partial} {got:?} {max:?}"
            );
        }
    }
}
