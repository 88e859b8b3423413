//! Machine-readable reports: one JSON document on stdout, with field names kept stable for
//! scripts and editors (documented in the book, docs/src/reference/reports.md).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use crate::author::stress::{Failing, Rerun};
use crate::case::partition::Partition;
use crate::event::{Command, Stressed};
use crate::judge::submission::{CompileOutcome, SubmissionReport};
use crate::judge::verify::{Skipped, Verified};
use crate::judge::{self, CaseOutcome};
use crate::report::calibrate::CalibrateJson;
use crate::report::record::{Exporter, Record, Recorded};
use crate::report::stress::StressSummary;
use crate::results::case::RAN;
use crate::results::submission::SubmissionScore;
use crate::sandbox::run::Limits;
use crate::score::GroupScore;
use crate::verdict::Verdict;

/// One group (subtask) of a scored submission.
impl Serialize for GroupScore {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = serializer.serialize_struct("GroupScore", 5)?;
        json.serialize_field("name", &self.name)?;
        // What it scored; null when it was not judged (a failed dependency, an earlier stop).
        json.serialize_field("score", &self.score.map(json_score))?;
        json.serialize_field("max_score", &self.max_score.map(json_score))?;
        // Its verdict; null when it was not judged.
        json.serialize_field("verdict", &self.verdict.map(Verdict::as_str))?;
        // The case that decided a verdict other than AC.
        json.serialize_field("first_failure", &self.first_failure)?;
        json.end()
    }
}

/// A score as printed (six decimals at most), so `70` is `70` and not `70.00000000000001`.
fn json_score(score: f64) -> f64 {
    crate::score::format_score(score).parse().unwrap_or(score)
}

/// Writes `value` as the field `key`, or leaves the field out when it is `None` (what
/// `skip_serializing_if = "Option::is_none"` does for a derived document).
fn field_if<S: SerializeStruct, T: Serialize>(
    json: &mut S,
    key: &'static str,
    value: Option<T>,
) -> Result<(), S::Error> {
    match value {
        Some(value) => json.serialize_field(key, &value),
        None => json.skip_field(key),
    }
}

/// What an interactive case said, and the interactor's own numbers.
impl Serialize for judge::Interaction {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = serializer.serialize_struct("Interaction", 5)?;
        // The dialogue in the `.interaction` form: `>` lines from the submission, `<` lines
        // to it; the first and last lines only, with a `… N lines left out` line between.
        let transcript = self.transcript.to_interaction();
        json.serialize_field("transcript", &transcript.lines().collect::<Vec<_>>())?;
        // Lines said in all, kept or not.
        json.serialize_field("lines", &self.transcript.len())?;
        // The interactor's own reason (judgemessage.txt, or testlib's stderr).
        json.serialize_field("message", &self.message)?;
        let time = self.interactor_cpu_time.as_millis() as u64;
        json.serialize_field("interactor_time_ms", &time)?;
        let memory = self.interactor_peak_memory_bytes / 1024;
        json.serialize_field("interactor_memory_kib", &memory)?;
        json.end()
    }
}

/// One judged case.
impl Serialize for CaseOutcome {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = serializer.serialize_struct("CaseOutcome", 14)?;
        json.serialize_field("name", &self.case)?;
        json.serialize_field("verdict", self.code())?;
        // CPU time (user + sys), the one the time limit applies to.
        json.serialize_field("time_ms", &(self.cpu_time.as_millis() as u64))?;
        json.serialize_field("wall_ms", &(self.wall_time.as_millis() as u64))?;
        // Peak resident memory.
        json.serialize_field("memory_kib", &(self.peak_memory_bytes / 1024))?;
        // Why the verdict, in one line; for AC, what the checker compared (`92 blocks`).
        json.serialize_field("reason", &self.reason)?;
        // CPU time within 10% of the limit, either side.
        json.serialize_field("time_sensitive", &self.time_sensitive)?;
        // A failing case's input file (absent for accepted cases); the head of its input:
        // its first lines, each cut to a readable width; and whether that is not all of it.
        let input = self.input.as_ref();
        field_if(
            &mut json,
            "input_path",
            input.map(|i| i.path.display().to_string()),
        )?;
        field_if(&mut json, "input", input.map(|i| &i.head))?;
        field_if(&mut json, "input_truncated", input.map(|i| i.truncated))?;
        // Interactive problems only: the dialogue and the interactor's side.
        field_if(&mut json, "interaction", self.interaction.as_ref())?;
        // A wrong answer that a looser checker accepts: which, and why (only then).
        let hint = self.mismatch.as_ref().and_then(|m| m.hint.as_ref());
        field_if(&mut json, "hint", hint)?;
        // Scored problems only, for a case with a score of its own: what it scored; and
        // what the case is worth at most.
        field_if(&mut json, "score", self.score.map(json_score))?;
        field_if(&mut json, "max_score", self.max_score.map(json_score))?;
        json.end()
    }
}

#[derive(Debug, Serialize)]
pub struct LimitsJson {
    pub time_ms: u64,
    pub wall_ms: u64,
    pub memory_kib: u64,
    pub output_kib: u64,
}

impl From<&Limits> for LimitsJson {
    fn from(limits: &Limits) -> Self {
        LimitsJson {
            time_ms: limits.cpu_time.as_millis() as u64,
            wall_ms: limits.wall_time.as_millis() as u64,
            memory_kib: limits.memory_bytes / 1024,
            output_kib: limits.output_bytes / 1024,
        }
    }
}

/// How many cases got each verdict, keyed by code (`"AC": 12`, `"ran": 1` for those nothing
/// checked); verdicts with no case are left out.
pub fn verdict_counts<'a>(
    outcomes: impl IntoIterator<Item = &'a CaseOutcome>,
) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for outcome in outcomes {
        *counts.entry(outcome.code()).or_insert(0) += 1;
    }
    counts
}

/// One problem of `harness run`.
#[derive(Debug, Serialize)]
pub struct ProblemJson<'a> {
    pub problem: String,
    pub title: String,
    pub program: String,
    /// AC when every case is AC, else the first failing case's verdict; `ran` when no case
    /// had an answer to compare with.
    pub verdict: &'static str,
    pub limits: LimitsJson,
    pub counts: BTreeMap<&'static str, usize>,
    /// Cases whose CPU time is within 10% of the limit, either side.
    pub time_sensitive_count: usize,
    pub cases: &'a [CaseOutcome],
}

pub fn time_sensitive_count(outcomes: &[CaseOutcome]) -> usize {
    outcomes.iter().filter(|o| o.time_sensitive).count()
}

impl<'a> From<&'a SubmissionReport> for ProblemJson<'a> {
    fn from(problem: &'a SubmissionReport) -> Self {
        ProblemJson {
            problem: problem.problem.clone(),
            title: problem.title.clone(),
            program: problem.source.display().to_string(),
            verdict: crate::results::case::verdict_code(
                judge::overall_verdict(&problem.outcomes),
                &problem.outcomes,
            ),
            limits: LimitsJson::from(&problem.limits),
            counts: verdict_counts(&problem.outcomes),
            time_sensitive_count: time_sensitive_count(&problem.outcomes),
            cases: &problem.outcomes,
        }
    }
}

/// How a run went about it, in every document of a judging command.
#[derive(Debug, Serialize)]
pub struct RunJson {
    /// Cases (or stored submissions) run at once; above 1, wall times are inflated (CPU
    /// times, which the verdicts use, barely are).
    pub jobs: usize,
    /// `jobs > 1`, for readers that only want to know.
    pub parallel: bool,
    /// `"K/N"` when only that slice of the cases (or stored submissions) was judged
    /// (`--partition`), else null.
    pub partition: Option<String>,
    pub elapsed_ms: u64,
}

impl RunJson {
    pub fn new(jobs: usize, partition: Option<Partition>, elapsed: Duration) -> Self {
        RunJson {
            jobs,
            parallel: jobs > 1,
            partition: partition.map(|p| p.to_string()),
            elapsed_ms: elapsed.as_millis() as u64,
        }
    }
}

/// The whole of `harness run`.
#[derive(Debug, Serialize)]
pub struct SuiteJson<'a> {
    pub verdict: &'static str,
    #[serde(flatten)]
    pub run: RunJson,
    /// Cases judged, over every problem.
    pub case_count: usize,
    pub counts: BTreeMap<&'static str, usize>,
    pub time_sensitive_count: usize,
    pub problems: Vec<ProblemJson<'a>>,
}

impl<'a> SuiteJson<'a> {
    /// The run of these problems, in this order.
    pub fn new(problems: Vec<ProblemJson<'a>>, run: RunJson) -> Self {
        // The first failure; else AC, unless no problem had a case checked.
        let accepted = Verdict::Accepted.as_str();
        let verdict = problems
            .iter()
            .map(|p| p.verdict)
            .find(|v| *v != accepted && *v != RAN)
            .unwrap_or(
                if !problems.is_empty() && problems.iter().all(|p| p.verdict == RAN) {
                    RAN
                } else {
                    accepted
                },
            );
        SuiteJson {
            verdict,
            run,
            case_count: problems.iter().map(|p| p.cases.len()).sum(),
            counts: verdict_counts(problems.iter().flat_map(|p| p.cases)),
            time_sensitive_count: problems.iter().map(|p| p.time_sensitive_count).sum(),
            problems,
        }
    }
}

/// One submission of `harness judge`.
#[derive(Debug, Serialize)]
pub struct SubmissionJson<'a> {
    pub problem: String,
    /// The source file, as given.
    pub submission: String,
    /// The language's id in judge.toml (`cpp`, `python`).
    pub language: String,
    /// Its human name (`C++17`).
    pub language_name: String,
    /// AC, WA, TLE, MLE, RE, OLE or CE (JE if the judge itself failed); `ran` when every
    /// case ran within its limits but none had an answer to compare with.
    pub verdict: &'static str,
    /// The case that decided a verdict other than AC; null for AC and CE.
    pub first_failure: Option<String>,
    pub compile: &'a CompileOutcome,
    /// With the language's time multiplier applied.
    pub limits: LimitsJson,
    pub counts: BTreeMap<&'static str, usize>,
    /// Cases there were to judge; more than `cases` holds when judging stopped at the first
    /// failure, and none are run after a compile error.
    pub cases_planned: usize,
    /// Cases whose CPU time is within 10% of the limit, either side.
    pub time_sensitive_count: usize,
    #[serde(flatten)]
    pub run: RunJson,
    /// Scored problems only: the submission's score, null when not every case it needs was
    /// judged (`--case`, `--fail-fast`, a slice of `--partition`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Option<f64>>,
    /// Scored problems only: the most it can score (null when unbounded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_score: Option<Option<f64>>,
    /// Scored problems only: each group, parents before their children.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<&'a [GroupScore]>,
    pub cases: &'a [CaseOutcome],
}

impl<'a> From<&'a SubmissionReport> for SubmissionJson<'a> {
    fn from(report: &'a SubmissionReport) -> Self {
        let language = report.language.as_ref();
        SubmissionJson {
            problem: report.problem.clone(),
            submission: report.source.display().to_string(),
            language: language.map(|l| l.id.clone()).unwrap_or_default(),
            language_name: language.map(|l| l.name.clone()).unwrap_or_default(),
            verdict: report.verdict_code(),
            first_failure: report.first_failure().map(|o| o.case.clone()),
            compile: &report.compile,
            limits: LimitsJson::from(&report.limits),
            counts: verdict_counts(&report.outcomes),
            cases_planned: report.planned_cases,
            time_sensitive_count: time_sensitive_count(&report.outcomes),
            // Only `harness judge --partition` slices one submission's cases; it says so.
            run: RunJson::new(report.jobs, None, report.elapsed),
            score: report.score.as_ref().map(|s| s.score().map(json_score)),
            max_score: report.score.as_ref().map(|s| s.max_score().map(json_score)),
            groups: report.score.as_ref().map(SubmissionScore::groups),
            cases: &report.outcomes,
        }
    }
}

/// One stored submission of `harness verify`: the judge's fields plus what was expected.
#[derive(Debug, Serialize)]
pub struct VerifiedJson<'a> {
    /// `<problem>/<expected>/FILE`, below the submissions folder.
    pub name: String,
    /// The verdict expected (`AC`, `RE`), a label for a set (`not AC`), or `unchecked`.
    pub expected: String,
    /// It got the expected verdict (and, in a scored problem, the expected score).
    pub ok: bool,
    /// Scored problems only: the score it must get (`40`, `30 to 50`), when one is stated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_score: Option<String>,
    /// Why its score is not the one expected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_mismatch: Option<String>,
    /// The largest CPU time of any judged case.
    pub time_ms: u64,
    #[serde(flatten)]
    pub result: SubmissionJson<'a>,
}

impl<'a> From<&'a Verified> for VerifiedJson<'a> {
    fn from(verified: &'a Verified) -> Self {
        VerifiedJson {
            name: verified.name.clone(),
            expected: verified.expected.as_str().to_string(),
            ok: verified.ok(),
            expected_score: verified.expected_score.map(|e| e.to_string()),
            score_mismatch: match &verified.score_check {
                crate::score::ScoreCheck::Ok => None,
                crate::score::ScoreCheck::Mismatch(why) => Some(why.clone()),
            },
            time_ms: verified.report.max_cpu_time().as_millis() as u64,
            result: SubmissionJson::from(&verified.report),
        }
    }
}

/// The whole of `harness verify`.
#[derive(Debug, Serialize)]
pub struct VerifyJson<'a> {
    /// Every stored submission got its expected verdict.
    pub ok: bool,
    pub mismatches: usize,
    #[serde(flatten)]
    pub run: RunJson,
    pub submissions: Vec<VerifiedJson<'a>>,
    /// Stored submissions not judged here (a language this machine lacks), with why.
    pub skipped: &'a [Skipped],
}

/// A stored submission not judged here, with why.
impl Serialize for Skipped {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut json = serializer.serialize_struct("Skipped", 2)?;
        json.serialize_field("name", &self.name)?;
        json.serialize_field("reason", &self.reason)?;
        json.end()
    }
}

impl<'a> VerifyJson<'a> {
    /// The verify of these stored submissions, in this order.
    pub fn new(submissions: Vec<VerifiedJson<'a>>, skipped: &'a [Skipped], run: RunJson) -> Self {
        let mismatches = submissions.iter().filter(|s| !s.ok).count();
        VerifyJson {
            ok: mismatches == 0,
            mismatches,
            run,
            submissions,
            skipped,
        }
    }
}

/// Writes any report as pretty JSON followed by a newline.
pub fn write<T: Serialize>(out: &mut dyn Write, document: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, document).map_err(io::Error::other)?;
    writeln!(out)
}

/// `--format json`: the command's one document, a function of the finished run (`gen` has
/// none).
pub struct Json;

impl Exporter for Json {
    fn export(&self, record: &Record) -> Option<Vec<u8>> {
        let (plan, summary) = (&record.plan, &record.summary);
        let jobs = plan.jobs;
        let run = || RunJson::new(jobs, plan.partition, summary.elapsed);
        let mut out = Vec::new();
        let written = match &plan.command {
            Command::Run => {
                let problems = record.judged().map(ProblemJson::from).collect();
                write(&mut out, &SuiteJson::new(problems, run()))
            }
            Command::Judge => {
                let mut document = SubmissionJson::from(record.judged().last()?);
                document.run.partition = run().partition;
                write(&mut out, &document)
            }
            Command::Verify => {
                let submissions = record.verified().map(VerifiedJson::from).collect();
                write(
                    &mut out,
                    &VerifyJson::new(submissions, &summary.skipped, run()),
                )
            }
            Command::Calibrate { repeat } => {
                let problems = record.results().filter_map(|r| match r {
                    Recorded::Calibrated { calibration, .. } => Some(calibration),
                    Recorded::Judged(_) | Recorded::Verified(_) | Recorded::Stressed(_) => None,
                });
                let document = CalibrateJson {
                    repeat: *repeat,
                    jobs,
                    problems: problems.collect(),
                };
                write(&mut out, &document)
            }
            Command::Stress { reproduce } => {
                let stressed = record.results().find_map(|r| match r {
                    Recorded::Stressed(stressed) => Some(stressed),
                    Recorded::Judged(_) | Recorded::Verified(_) | Recorded::Calibrated { .. } => {
                        None
                    }
                })?;
                stress_document(&mut out, stressed, reproduce)
            }
            Command::Gen { .. } => return None,
        };
        written.ok().map(|()| out)
    }
}

/// What `stress --format json` writes: the compile error, or the inputs tried.
fn stress_document(out: &mut dyn Write, stressed: &Stressed, reproduce: &str) -> io::Result<()> {
    match StressSummary::of(stressed, reproduce) {
        Err(message) => write(out, &super::stress::compile_error_json(stressed, message)),
        Ok(summary) => write(out, &summary),
    }
}

/// `--format json`: one document, field names stable for scripts.
impl Serialize for StressSummary<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.report;
        let found = report.found.as_ref();
        let minimal: Option<&Failing> = found.map(|f| &f.minimal);
        let mut json = serializer.serialize_struct("StressSummary", 26)?;
        json.serialize_field("problem", &report.problem)?;
        json.serialize_field("submission", &self.submission.display().to_string())?;
        json.serialize_field("language", self.language)?;
        json.serialize_field("found", &found.is_some())?;
        json.serialize_field("iterations", &report.iterations)?;
        // Inputs seen before in the run, given the reference's earlier answer (the
        // submission ran on them all the same).
        json.serialize_field("answers_reused", &report.answers_reused)?;
        // Workers that judged inputs at once (`-j`).
        json.serialize_field("jobs", &report.jobs)?;
        json.serialize_field("first_seed", &report.first_seed)?;
        // The failing input's seed, or the first seed when nothing failed.
        json.serialize_field("seed", &found.map_or(report.first_seed, |f| f.seed))?;
        let outcome = minimal.map(|m| &m.outcome);
        json.serialize_field("verdict", &outcome.map(|o| o.verdict.as_str()))?;
        json.serialize_field("reason", &outcome.map(|o| &o.reason))?;
        json.serialize_field("input", &minimal.map(|m| text(&m.input)))?;
        json.serialize_field("expected", &minimal.map(|m| text(&m.expected)))?;
        // What the submission printed (kept for wrong answers only).
        json.serialize_field("output", &minimal.and_then(|m| m.output().map(text)))?;
        json.serialize_field("stderr", &outcome.map(|o| &o.stderr_tail))?;
        let original = found.map(|f| &f.original);
        json.serialize_field("original_input", &original.map(|o| text(&o.input)))?;
        let original_verdict = original.map(|o| o.outcome.verdict.as_str());
        json.serialize_field("original_verdict", &original_verdict)?;
        json.serialize_field("shrink", &found.map(|f| f.shrink.as_str()))?;
        // `built-in` (the token shrinker) or `command` (the problem's shrink command).
        let shrinker = found.map(|f| {
            if f.builtin_shrinker {
                "built-in"
            } else {
                "command"
            }
        });
        json.serialize_field("shrinker", &shrinker)?;
        let steps = found.map_or(&[][..], |f| &f.steps).iter().map(|step| {
            serde_json::json!({"input": text(&step.input), "verdict": step.outcome.verdict.as_str()})
        });
        json.serialize_field("shrink_steps", &steps.collect::<Vec<_>>())?;
        json.serialize_field("candidates_tried", &found.map_or(0, |f| f.tried))?;
        // Shrink candidates met again (the same bytes), answered from memory rather than run.
        json.serialize_field("candidates_remembered", &found.map_or(0, |f| f.remembered))?;
        json.serialize_field("elapsed_ms", &(report.elapsed.as_millis() as u64))?;
        json.serialize_field("saved", &self.saved.map(|a| &a.name))?;
        // Where the first and the smallest failing inputs were written: only when shrinking
        // was cut short (`shrink` is `gave-up`, `time-budget`, `candidate-budget` or
        // `interrupted`).
        let kept = found.and_then(|f| f.kept.as_ref()).map(|kept| {
            let (first, smallest) = (kept.first.display(), kept.smallest.display());
            serde_json::json!({"first": first.to_string(), "smallest": smallest.to_string()})
        });
        field_if(&mut json, "kept", kept)?;
        // The failing input run again sanitized (`--sanitize` only).
        let sanitized = found.and_then(|f| f.sanitized.as_ref());
        field_if(&mut json, "sanitized", sanitized.map(SanitizedJson::from))?;
        json.end()
    }
}

/// What the sanitized build did on the failing input.
#[derive(Debug, Serialize)]
struct SanitizedJson {
    /// Its verdict; `AC` when it passed, `CE` when it did not compile.
    verdict: &'static str,
    reason: String,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl From<&Rerun> for SanitizedJson {
    fn from(rerun: &Rerun) -> Self {
        let (verdict, reason) = match rerun {
            Rerun::Failed(outcome) => (outcome.verdict, outcome.reason.clone()),
            Rerun::Passed => (
                Verdict::Accepted,
                "the sanitizers saw nothing wrong on this input".to_string(),
            ),
            Rerun::NotBuilt(message) => (Verdict::CompileError, message.clone()),
        };
        SanitizedJson {
            verdict: verdict.as_str(),
            reason,
        }
    }
}
