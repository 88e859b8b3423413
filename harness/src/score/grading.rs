//! How a Kattis legacy group grades its items (problemtools' default grader, or the package's
//! own in `graders/`): its `grader_flags`, `on_reject` and `range`, the default grader itself
//! on a group's results, and what a custom grader is told and may answer. The scoring model
//! holds a grading as a group's rule; the Kattis reader builds it. Running a custom grader is
//! the package programs' business (`check::grader`): here it is only a [`GroupGrader`].

use super::number::quantize;
use crate::verdict::Verdict;

/// What `on_reject` says a group does after an item that is not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnReject {
    /// Grade at once: the rest of the group is not judged (the default).
    Break,
    /// Judge the rest of the group too.
    Continue,
}

/// The default grader's verdict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictMode {
    /// The worst verdict of the items, in the order JE, RTE, MLE, TLE, OLE, WA (the default;
    /// `no_errors` is the same).
    WorstError,
    /// The first verdict that is not AC.
    FirstError,
    /// Always AC.
    AlwaysAccept,
}

/// The default grader's score mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMode {
    /// The sum of the items' scores (the default).
    Sum,
    /// Their mean.
    Avg,
    /// The least.
    Min,
    /// The greatest.
    Max,
}

/// How a Kattis legacy group grades its items: its `grader_flags`, `on_reject` and `range`.
#[derive(Debug, Clone, PartialEq)]
pub struct KattisGrading {
    /// How the verdict is combined.
    pub verdict: VerdictMode,
    /// How the score is combined.
    pub score: ScoreMode,
    /// `ignore_sample`: the group's result is its last item's (at the top: `secret`'s).
    pub ignore_sample: bool,
    /// `accept_if_any_accepted`: AC when any item is.
    pub accept_if_any_accepted: bool,
    /// Whether the group stops at its first item not accepted.
    pub on_reject: OnReject,
    /// The scores the group may get; a score outside is the package's fault.
    pub range: (f64, f64),
    /// `grading: custom`: the package's grader combines the results instead, given these
    /// arguments (`grader_flags` split at whitespace, as problemtools splits them); the modes
    /// above are then unused.
    pub custom: Option<Vec<String>>,
}

impl KattisGrading {
    /// The grading of `grader_flags` (space-separated; when modes conflict the last wins, as in
    /// the default grader). An unknown flag is an error here, where the default grader would
    /// ignore it: a misspelt `min` would otherwise silently score by `sum`.
    pub fn from_flags(flags: &str, on_reject: OnReject, range: (f64, f64)) -> Result<Self, String> {
        let mut grading = KattisGrading {
            verdict: VerdictMode::WorstError,
            score: ScoreMode::Sum,
            ignore_sample: false,
            accept_if_any_accepted: false,
            on_reject,
            range,
            custom: None,
        };
        for flag in flags.split_whitespace() {
            match flag {
                "sum" => grading.score = ScoreMode::Sum,
                "avg" => grading.score = ScoreMode::Avg,
                "min" => grading.score = ScoreMode::Min,
                "max" => grading.score = ScoreMode::Max,
                "worst_error" | "no_errors" => grading.verdict = VerdictMode::WorstError,
                "first_error" => grading.verdict = VerdictMode::FirstError,
                "always_accept" => grading.verdict = VerdictMode::AlwaysAccept,
                "ignore_sample" => grading.ignore_sample = true,
                "accept_if_any_accepted" => grading.accept_if_any_accepted = true,
                other => {
                    return Err(format!(
                        "`{other}` is not a flag of the default grader (its flags: sum, avg, min, max, worst_error, first_error, always_accept, ignore_sample, accept_if_any_accepted)"
                    ))
                }
            }
        }
        Ok(grading)
    }

    /// The grading of a group whose results the package's own grader combines: its flags are
    /// the grader's arguments, whatever they are.
    pub fn custom(flags: &str, on_reject: OnReject, range: (f64, f64)) -> Self {
        KattisGrading {
            custom: Some(flags.split_whitespace().map(str::to_string).collect()),
            ..KattisGrading::from_flags("", on_reject, range).expect("no flag is a valid one")
        }
    }
}

/// A package's custom grader, ready to run: given a group's results in order and the group's
/// `grader_flags`, the group's verdict and score; `Err` with why when the grader failed (it
/// did not run, crashed, or answered something else than one `VERDICT SCORE` line), which is
/// a judge error of that group, never the submission's.
pub trait GroupGrader: Send + Sync + std::fmt::Debug {
    /// Grades one group's results.
    fn grade(&self, flags: &[String], results: &[(Verdict, f64)])
        -> Result<(Verdict, f64), String>;
}

/// The code a Kattis grader reads and writes for a verdict (`RTE` where this judge says `RE`).
/// No case is CE: one would count as the JE it is ranked with.
fn kattis_code(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::RuntimeError => "RTE",
        Verdict::CompileError => "JE",
        other => other.as_str(),
    }
}

/// What a custom grader reads on stdin: a line `VERDICT SCORE` per result, the score as
/// Python writes a float (`1.0`, `33.333333333333336`), as problemtools writes them.
pub fn grader_input(results: &[(Verdict, f64)]) -> String {
    let mut text = String::new();
    for &(verdict, score) in results {
        let number = if score.fract() == 0.0 && score.abs() < 1e16 {
            format!("{score:.1}")
        } else {
            format!("{score}")
        };
        text.push_str(&format!("{} {number}\n", kattis_code(verdict)));
    }
    text
}

/// A custom grader's answer read as problemtools reads it: one verdict (`AC`, `WA`, `TLE`,
/// `RTE`, `MLE`, `OLE`, `JE`), whitespace, a number of digits and dots with an optional minus,
/// then only whitespace. Anything else is why not.
pub fn read_grader_answer(output: &[u8]) -> Result<(Verdict, f64), String> {
    let shown = || crate::text::one_line(String::from_utf8_lossy(output).trim(), 80);
    let bad = || {
        format!(
            "the grader answered `{}`, not one line `VERDICT SCORE` (AC, WA, TLE, RTE, MLE, OLE or JE, then a number)",
            shown()
        )
    };
    let text = std::str::from_utf8(output).map_err(|_| bad())?;
    let mut words = text.split_ascii_whitespace();
    let (Some(code), Some(number), None) = (words.next(), words.next(), words.next()) else {
        return Err(bad());
    };
    // The verdict starts the output (whitespace parts it from the score, a newline too).
    if text.starts_with(|c: char| c.is_ascii_whitespace()) {
        return Err(bad());
    }
    let verdict = match code {
        "RTE" => Verdict::RuntimeError,
        "AC" | "WA" | "TLE" | "MLE" | "OLE" | "JE" => Verdict::from_code(code)
            .filter(|v| v.as_str() == code)
            .ok_or_else(bad)?,
        _ => return Err(bad()),
    };
    let digits = number.strip_prefix('-').unwrap_or(number);
    let score = (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        .then(|| number.parse::<f64>().ok())
        .flatten()
        .ok_or_else(bad)?;
    Ok((verdict, score))
}

/// The rank of a verdict in `worst_error`: lower is worse (problemtools' order JE, IF, RTE,
/// MLE, TLE, OLE, WA, PE, AC; a compile error, which no case gets, as bad as JE).
fn badness(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::JudgeError | Verdict::CompileError => 0,
        Verdict::RuntimeError => 2,
        Verdict::MemoryLimitExceeded => 3,
        Verdict::TimeLimitExceeded => 4,
        Verdict::OutputLimitExceeded => 5,
        Verdict::WrongAnswer => 6,
        Verdict::Accepted => 8,
    }
}

/// The default grader on a group's results (verdict and score of each item judged, in
/// order); none of them JE, which the caller passes up unchanged as problemtools does. The
/// score is rounded as the grader prints it (`%f`).
pub(crate) fn grade(grading: &KattisGrading, results: &[(Verdict, f64)]) -> (Verdict, f64) {
    let mut results = results;
    if grading.ignore_sample {
        // The grader asserts one or two results (sample, secret) and prints `JE 0` otherwise.
        if results.is_empty() || results.len() > 2 {
            return (Verdict::JudgeError, 0.0);
        }
        results = &results[results.len() - 1..];
    }
    let Some(&(first, _)) = results.first() else {
        return (Verdict::Accepted, 0.0);
    };
    let any_accepted = results.iter().any(|(v, _)| v.is_accepted());
    let verdict = if grading.accept_if_any_accepted && any_accepted {
        Verdict::Accepted
    } else {
        match grading.verdict {
            VerdictMode::AlwaysAccept => Verdict::Accepted,
            VerdictMode::FirstError => results
                .iter()
                .map(|&(v, _)| v)
                .find(|v| !v.is_accepted())
                .unwrap_or(Verdict::Accepted),
            VerdictMode::WorstError => results
                .iter()
                .map(|&(v, _)| v)
                .min_by_key(|&v| badness(v))
                .unwrap_or(first),
        }
    };
    let scores = results.iter().map(|&(_, s)| s);
    let score = match grading.score {
        ScoreMode::Sum => scores.sum(),
        ScoreMode::Avg => scores.sum::<f64>() / results.len() as f64,
        ScoreMode::Min => scores.fold(f64::INFINITY, f64::min),
        ScoreMode::Max => scores.fold(f64::NEG_INFINITY, f64::max),
    };
    (verdict, quantize(score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Accepted as AC, RuntimeError as RTE, WrongAnswer as WA};

    #[test]
    fn a_custom_grader_reads_results_as_problemtools_writes_them() {
        assert_eq!(
            grader_input(&[(AC, 1.0), (RTE, 0.0), (WA, 100.0 / 3.0), (AC, -2.5)]),
            "AC 1.0\nRTE 0.0\nWA 33.333333333333336\nAC -2.5\n"
        );
        assert_eq!(grader_input(&[]), "");
    }

    #[test]
    fn a_custom_graders_answer_is_read_as_problemtools_reads_it() {
        let good: &[(&str, (Verdict, f64))] = &[
            ("AC 100\n", (AC, 100.0)),
            ("WA 0.5", (WA, 0.5)),
            ("RTE -3\n\n", (RTE, -3.0)),
            ("TLE\t7.", (Verdict::TimeLimitExceeded, 7.0)),
            ("JE\n0\n", (Verdict::JudgeError, 0.0)),
            ("OLE .25  ", (Verdict::OutputLimitExceeded, 0.25)),
        ];
        for (text, expected) in good {
            assert_eq!(
                read_grader_answer(text.as_bytes()),
                Ok(*expected),
                "{text:?}"
            );
        }
        for bad in [
            "", "AC", "AC 1 2", " AC 1", "RE 1", "ac 1", "CE 0", "AC 1e3", "AC +1", "AC 1.2.3",
            "AC nan", "AC50", "AC -",
        ] {
            let error = read_grader_answer(bad.as_bytes()).unwrap_err();
            assert!(
                error.contains("not one line `VERDICT SCORE`"),
                "{bad:?}: {error}"
            );
        }
        assert!(read_grader_answer(b"AC \xff").is_err());
    }
}
