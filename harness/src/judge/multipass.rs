//! One case of a multi-pass problem (2025-09 `type: multi-pass`): the submission runs, the
//! output validator judges its output and may write `nextpass.in` into its feedback folder,
//! and while it accepts and does, the submission runs again on that input. The feedback
//! folder is kept between passes (the validator finds what it left there), `nextpass.in` is
//! taken out of it before the next pass; each pass has the problem's limits. A validator that
//! asks for more passes than `limits.validation_passes`, or writes `nextpass.in` and does not
//! accept, is a judge error (the spec; BAPCtools `run.py`). The validator is given each
//! pass's own input, as BAPCtools gives it.

use std::time::Duration;

use crate::case::discover::Case;
use crate::check::package::{custom_in, read_left, PackageProgram, RunFolder};
use crate::check::{CaseFiles, Judgement};
use crate::verdict::Verdict;

use crate::compile::Program;
use crate::results::case::CaseOutcome;

use super::plain::JudgeSettings;

/// The most bytes of a `nextpass.in` read: as much as a case's input may be.
const NEXTPASS_BYTES: usize = 1 << 30;

/// Judges `case` in up to `passes` passes.
pub fn judge_case(
    program: &Program,
    case: &Case,
    settings: &JudgeSettings<'_>,
    passes: u32,
    validator: &PackageProgram,
    flags: &[String],
) -> CaseOutcome {
    let prepared = RunFolder::new().and_then(|folder| {
        let feedback = folder.writable("feedback")?;
        Ok((folder, feedback))
    });
    let (folder, feedback) = match prepared {
        Ok(prepared) => prepared,
        Err(error) => {
            return super::plain::judge_error(
                case,
                format!("cannot make the feedback folder for the passes: {error}"),
            )
        }
    };
    let mut pass_case = case.clone();
    let mut worst = Stats::default();
    for pass in 1..=passes {
        let run = super::plain::run_case(program, &pass_case, settings);
        let mut next: Option<Vec<u8>> = None;
        let mut outcome = super::plain::check_run_with(
            run,
            &pass_case,
            settings,
            &mut |files, output, _| {
                let files = CaseFiles {
                    input: files.input,
                    answer: &case.answer,
                };
                let judgement = custom_in(validator, flags, &files, output, &folder, &feedback);
                next = read_left(&feedback, "nextpass.in", NEXTPASS_BYTES);
                let _ = std::fs::remove_file(feedback.join("nextpass.in"));
                if next.is_some() && judgement.verdict == Verdict::WrongAnswer {
                    return Judgement::judge_error(format!(
                    "output validator `{}` wrote nextpass.in but did not accept (exit 43): a judge error, as the format says ({})",
                    validator.name, judgement.reason
                ));
                }
                judgement
            },
        );
        worst.add(&outcome);
        outcome.case = case.name.clone();
        if passes > 1 {
            outcome.reason = if outcome.reason.is_empty() {
                format!("pass {pass}")
            } else {
                format!("pass {pass}: {}", outcome.reason)
            };
        }
        let accepted = outcome.verdict.is_accepted();
        let Some(next_input) = next.filter(|_| accepted) else {
            return worst.into(outcome);
        };
        if pass == passes {
            let mut failed = super::plain::judge_error(
                case,
                format!(
                    "pass {pass}: output validator `{}` asked for another pass (nextpass.in), more than `limits.validation_passes` ({passes}) allows",
                    validator.name
                ),
            );
            failed.stderr_tail = outcome.stderr_tail;
            return worst.into(failed);
        }
        // The next pass's input, in the run folder (the validator is given its path too).
        let path = folder.path().join(format!("pass-{}.in", pass + 1));
        if let Err(error) = std::fs::write(&path, &next_input) {
            return super::plain::judge_error(case, format!("cannot keep nextpass.in: {error}"));
        }
        pass_case.input = path;
    }
    unreachable!("the loop returns by its last pass")
}

/// A case's measurements over several runs: here the largest over the passes (each pass has
/// the limits, and the case shows its worst); two steps' merge theirs otherwise.
#[derive(Default)]
pub(super) struct Stats {
    pub(super) cpu: Duration,
    pub(super) wall: Duration,
    pub(super) memory: u64,
    pub(super) sensitive: bool,
}

impl Stats {
    pub(super) fn add(&mut self, outcome: &CaseOutcome) {
        self.cpu = self.cpu.max(outcome.cpu_time);
        self.wall = self.wall.max(outcome.wall_time);
        self.memory = self.memory.max(outcome.peak_memory_bytes);
        self.sensitive |= outcome.time_sensitive;
    }

    pub(super) fn into(self, mut outcome: CaseOutcome) -> CaseOutcome {
        outcome.cpu_time = self.cpu;
        outcome.wall_time = self.wall;
        outcome.peak_memory_bytes = self.memory;
        outcome.time_sensitive = self.sensitive;
        outcome
    }
}
