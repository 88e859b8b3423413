//! The report of `harness calibrate`, for people (a table per problem and the suggested
//! `time-limit`) and for scripts (one JSON document).

use std::io::{self, Write};
use std::time::Duration;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::style::{BOLD, DIM, GOOD, WARN};
use crate::config::edit::duration_value;
use crate::judge::calibrate::{
    suggest_limit, LimitWrite, ProblemCalibration, ProgramTiming, Role, SlowCheck,
};
use crate::judge::CaseOutcome;
use crate::units::format_duration;

#[cfg(test)]
pub fn write_human(
    out: &mut dyn Write,
    calibrations: &[ProblemCalibration],
    repeat: usize,
) -> io::Result<()> {
    for (index, calibration) in calibrations.iter().enumerate() {
        if index > 0 {
            writeln!(out)?;
        }
        write_problem(out, calibration, repeat)?;
    }
    Ok(())
}

/// One problem's table and suggestion.
pub fn write_problem(
    out: &mut dyn Write,
    calibration: &ProblemCalibration,
    repeat: usize,
) -> io::Result<()> {
    let runs = if repeat == 1 {
        "1 run".to_string()
    } else {
        format!("median of {repeat} runs")
    };
    writeln!(
        out,
        "{BOLD}{}{BOLD:#}: {} cases, slowest case per program ({runs}, CPU time)",
        calibration.problem, calibration.case_count
    )?;
    let width = calibration
        .programs
        .iter()
        .map(|p| p.label.len())
        .chain(calibration.slow_checks.iter().map(|c| c.label.len()))
        .max()
        .unwrap_or(0);
    for program in &calibration.programs {
        write_program(out, program, width)?;
    }
    for check in &calibration.slow_checks {
        write_slow_check(out, check, width)?;
    }
    for warning in calibration.warnings() {
        writeln!(out, "  {WARN}warning{WARN:#}: {warning}")?;
    }
    let current = duration_value(calibration.current_limit);
    match (calibration.suggested_limit, calibration.slowest()) {
        (Some(limit), Some(slowest)) => {
            let margin = calibration
                .margin()
                .map_or(String::new(), |m| format!("{m:.1} × "));
            let (verb, why) = if !calibration.keeps_the_limit() {
                ("suggest", format!("twice it, rounded up; judge.toml says \"{current}\""))
            } else if limit == suggest_limit(slowest.normalized()) {
                ("keep", "twice it, rounded up".to_string())
            } else {
                ("keep", "judge.toml's, within the noise".to_string())
            };
            writeln!(
                out,
                "  {verb}: {GOOD}time-limit = \"{}\"{GOOD:#}  {DIM}({margin}{} of {}: {why}){DIM:#}",
                duration_value(limit),
                format_duration(slowest.normalized()),
                slowest.label,
            )?;
            write_noise(out, slowest, calibration.within_noise)
        }
        _ => writeln!(
            out,
            "  {WARN}no suggestion{WARN:#}: no accepted program passed (judge.toml says \"{current}\")"
        ),
    }
}

/// `calibrate --write`: what became of one problem's suggestion in judge.toml (`config`, as
/// shown to the user).
pub fn write_limit_write(
    out: &mut dyn Write,
    problem: &str,
    write: LimitWrite,
    config: &str,
) -> io::Result<()> {
    match write {
        LimitWrite::Written(limit) => writeln!(
            out,
            "wrote time-limit = \"{}\" for problem `{problem}` in `{config}`",
            duration_value(limit)
        ),
        LimitWrite::Unchanged(limit) => writeln!(
            out,
            "problem `{problem}`: `{config}` says time-limit = \"{}\" already; nothing written",
            duration_value(limit)
        ),
        LimitWrite::Untrusted => writeln!(
            out,
            "problem `{problem}`: not written to `{config}`: its calibration has warnings (hint: fix what they say, then calibrate again)"
        ),
        LimitWrite::NoSuggestion => writeln!(
            out,
            "problem `{problem}`: not written to `{config}`: there is no suggestion"
        ),
    }
}

/// How much the slowest program's runs disagreed, and the limits that noise cannot tell apart.
fn write_noise(
    out: &mut dyn Write,
    slowest: &ProgramTiming,
    within_noise: Option<(Duration, Duration)>,
) -> io::Result<()> {
    let Some(spread) = slowest.spread() else {
        return writeln!(
            out,
            "  {DIM}noise: not measured with 1 run (hint: --repeat 3 or more){DIM:#}"
        );
    };
    let runs: Vec<String> = slowest
        .slowest_runs
        .iter()
        .map(|run| run.as_millis().to_string())
        .collect();
    write!(
        out,
        "  {DIM}noise: {} runs of {} on {}: {} ms (spread {:.0} %){DIM:#}",
        runs.len(),
        slowest.label,
        slowest.slowest_case,
        runs.join(", "),
        spread * 100.0
    )?;
    if let Some((low, high)) = within_noise {
        write!(
            out,
            "{DIM}; limits within it: {} to {}{DIM:#}",
            duration_value(low),
            duration_value(high)
        )?;
    }
    writeln!(out)
}

fn write_program(out: &mut dyn Write, program: &ProgramTiming, width: usize) -> io::Result<()> {
    if program.compile_error.is_some() {
        return writeln!(out, "  {:<width$}  {WARN}CE{WARN:#}", program.label);
    }
    write!(
        out,
        "  {:<width$}  {:>8}  {}",
        program.label,
        format_duration(program.slowest),
        program.slowest_case
    )?;
    if program.time_multiplier != 1.0 {
        write!(
            out,
            "  {DIM}(÷ {} for the language: {}){DIM:#}",
            program.time_multiplier,
            format_duration(program.normalized())
        )?;
    }
    if program.role == Role::Reference {
        write!(out, "  {DIM}(brute force: not counted){DIM:#}")?;
    }
    if !program.failures.is_empty() {
        write!(
            out,
            "  {WARN}{} cases not AC{WARN:#}",
            program.failures.len()
        )?;
    }
    writeln!(out)
}

fn write_slow_check(out: &mut dyn Write, check: &SlowCheck, width: usize) -> io::Result<()> {
    if check.compile_error.is_some() {
        return writeln!(out, "  {:<width$}  {WARN}CE{WARN:#}", check.label);
    }
    if check.passes() {
        writeln!(
            out,
            "  {:<width$}  {WARN}passes{WARN:#} within the suggestion",
            check.label
        )
    } else {
        writeln!(
            out,
            "  {:<width$}  {GOOD}{}{GOOD:#} on {} under the suggestion",
            check.label,
            check.verdict,
            check.case.as_deref().unwrap_or("?")
        )
    }
}

/// `harness calibrate --format json`.
#[derive(Debug, Serialize)]
pub struct CalibrateJson<'a> {
    pub repeat: usize,
    pub jobs: usize,
    pub problems: Vec<&'a ProblemCalibration>,
}

/// Milliseconds, as every time in the documents is written.
fn ms(duration: Duration) -> u64 {
    duration.as_millis() as u64
}

/// One problem of `harness calibrate --format json`.
impl Serialize for ProblemCalibration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = serializer.serialize_struct("ProblemCalibration", 12)?;
        json.serialize_field("problem", &self.problem)?;
        json.serialize_field("case_count", &self.case_count)?;
        // judge.toml's time limit now.
        json.serialize_field("time_limit_ms", &ms(self.current_limit))?;
        // null when no accepted program passed.
        json.serialize_field("suggested_time_limit_ms", &self.suggested_limit.map(ms))?;
        // The suggestion is judge.toml's own limit (within the noise of the measurement).
        json.serialize_field("keeps_time_limit", &self.keeps_the_limit())?;
        // The suggestion over the slowest program's time.
        let margin = self.margin().map(|m| (m * 100.0).round() / 100.0);
        json.serialize_field("margin", &margin)?;
        // The limits the runs' spread cannot tell from the suggestion, [lowest, highest].
        let within_noise = self.within_noise.map(|(low, high)| [ms(low), ms(high)]);
        json.serialize_field("within_noise_ms", &within_noise)?;
        // The program the suggestion comes from.
        json.serialize_field("slowest_program", &self.slowest().map(|p| &p.label))?;
        json.serialize_field("programs", &self.programs)?;
        json.serialize_field("time_limit_exceeded", &self.slow_checks)?;
        json.serialize_field("warnings", &self.warnings())?;
        json.end()
    }
}

/// One program of a problem's `programs`.
impl Serialize for ProgramTiming {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = serializer.serialize_struct("ProgramTiming", 12)?;
        // `solution`, `reference`, or `accepted/<file>`.
        json.serialize_field("program", &self.label)?;
        // `solution`, `reference` or `accepted`.
        json.serialize_field("role", self.role.as_str())?;
        json.serialize_field("path", &self.path.display().to_string())?;
        // Whether its time sets the suggestion (the reference's does not).
        json.serialize_field("counts_for_limit", &self.role.sets_the_limit())?;
        json.serialize_field("time_multiplier", &self.time_multiplier)?;
        // Max over cases of the median CPU time over repeats.
        json.serialize_field("slowest_ms", &ms(self.slowest))?;
        // The same divided by the language's time multiplier.
        json.serialize_field("normalized_ms", &ms(self.normalized()))?;
        json.serialize_field("slowest_case", &self.slowest_case)?;
        // The slowest case's CPU times over the repeats, quickest first.
        let runs: Vec<u64> = self.slowest_runs.iter().copied().map(ms).collect();
        json.serialize_field("slowest_case_runs_ms", &runs)?;
        // (max − min) / median of those runs; null with one run.
        let spread = self.spread().map(|s| (s * 1000.0).round() / 1000.0);
        json.serialize_field("spread", &spread)?;
        let failures: Vec<FailureJson> = self.failures.iter().map(FailureJson::from).collect();
        json.serialize_field("failures", &failures)?;
        json.serialize_field("compile_error", &self.compile_error)?;
        json.end()
    }
}

/// A case a program failed: no more of it than what tells which and why.
#[derive(Serialize)]
struct FailureJson<'a> {
    case: &'a str,
    verdict: &'static str,
    reason: &'a str,
}

impl<'a> From<&'a CaseOutcome> for FailureJson<'a> {
    fn from(outcome: &'a CaseOutcome) -> Self {
        let (case, reason) = (&outcome.case, &outcome.reason);
        let verdict = outcome.verdict.as_str();
        FailureJson {
            case,
            verdict,
            reason,
        }
    }
}

/// One stored `time_limit_exceeded` submission, under the suggested limit.
impl Serialize for SlowCheck {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = serializer.serialize_struct("SlowCheck", 6)?;
        json.serialize_field("program", &self.label)?;
        json.serialize_field("path", &self.path.display().to_string())?;
        // Under the suggested limit, stopping at the first failing case.
        json.serialize_field("verdict", self.verdict.as_str())?;
        json.serialize_field("case", &self.case)?;
        // True is bad news: a submission meant to be too slow passes.
        json.serialize_field("passes", &self.passes())?;
        json.serialize_field("compile_error", &self.compile_error)?;
        json.end()
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::verdict::Verdict;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn timing(label: &str, role: Role, slowest: u64) -> ProgramTiming {
        ProgramTiming {
            label: label.to_string(),
            role,
            path: PathBuf::from(label),
            time_multiplier: 1.0,
            slowest: ms(slowest),
            slowest_case: "big".to_string(),
            slowest_runs: vec![ms(slowest - 5), ms(slowest), ms(slowest + 10)],
            failures: Vec::new(),
            compile_error: None,
        }
    }

    #[test]
    fn toml_durations() {
        for (ms_, text) in [
            (100, "100ms"),
            (1000, "1s"),
            (2500, "2.5s"),
            (1250, "1250ms"),
        ] {
            assert_eq!(duration_value(ms(ms_)), text);
        }
    }

    #[test]
    fn a_problem_with_a_slow_submission_that_passes() {
        let calibration = ProblemCalibration {
            problem: "sum".to_string(),
            current_limit: ms(1000),
            case_count: 3,
            programs: vec![
                timing("solution", Role::Solution, 40),
                timing("reference", Role::Reference, 700),
                timing("accepted/a.c", Role::Accepted, 120),
            ],
            suggested_limit: Some(ms(300)),
            within_noise: Some((ms(230), ms(300))),
            slow_checks: vec![
                SlowCheck {
                    label: "time_limit_exceeded/spin.c".to_string(),
                    path: PathBuf::from("spin.c"),
                    verdict: Verdict::TimeLimitExceeded,
                    case: Some("big".to_string()),
                    slowest: ms(301),
                    compile_error: None,
                },
                SlowCheck {
                    label: "time_limit_exceeded/meh.c".to_string(),
                    path: PathBuf::from("meh.c"),
                    verdict: Verdict::Accepted,
                    case: None,
                    slowest: ms(250),
                    compile_error: None,
                },
            ],
        };
        let mut out = Vec::new();
        write_human(&mut out, std::slice::from_ref(&calibration), 3).unwrap();
        let text = String::from_utf8(out).unwrap();
        insta::assert_snapshot!(anstream::adapter::strip_str(&text).to_string());

        let json = serde_json::to_value(CalibrateJson {
            repeat: 3,
            jobs: 1,
            problems: vec![&calibration],
        })
        .unwrap();
        let problem = &json["problems"][0];
        assert_eq!(problem["suggested_time_limit_ms"], 300);
        assert_eq!(problem["keeps_time_limit"], false);
        assert_eq!(problem["margin"], 2.5);
        assert_eq!(problem["within_noise_ms"], serde_json::json!([230, 300]));
        assert_eq!(
            problem["programs"][2]["slowest_case_runs_ms"],
            serde_json::json!([115, 120, 130])
        );
        assert_eq!(problem["programs"][2]["spread"], 0.125);
        assert_eq!(problem["slowest_program"], "accepted/a.c");
        assert_eq!(problem["time_limit_exceeded"][1]["passes"], true);
        assert_eq!(problem["warnings"].as_array().unwrap().len(), 1);
    }
}
