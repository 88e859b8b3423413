//! One case of a Polygon problem whose solution runs twice (`<judging run-count="2">`), as
//! Polygon's default strategy runs it: run 1 reads the test's input; the testlib checker
//! judges its output (`checker INPUT OUTPUT ANSWER`) and what the checker writes on stdout is
//! run 2's input; run 2 reads that, and the checker judges its output against run 2's input
//! and the test's answer. Each run has the problem's limits; the reason says which run failed
//! (`run 1: …`, `run 2: …`). Source: purplesyringa/problem-xml-specs, "Defaults", run-twice.

use crate::case::discover::Case;
use crate::check::package::{testlib_first_run, PackageProgram, RunFolder};
use crate::compile::Program;
use crate::results::case::CaseOutcome;

use super::multipass::Stats;
use super::plain::JudgeSettings;

/// Judges `case` in its two runs, `checker` being the problem's testlib checker.
pub fn judge_case(
    program: &Program,
    case: &Case,
    settings: &JudgeSettings<'_>,
    checker: &PackageProgram,
) -> CaseOutcome {
    let mut worst = Stats::default();
    let mut second_input: Option<Vec<u8>> = None;
    let first = super::plain::check_run_with(
        super::plain::run_case(program, case, settings),
        case,
        settings,
        &mut |files, output, _| {
            let (judgement, stdout) = testlib_first_run(checker, files, output);
            second_input = Some(stdout);
            judgement
        },
    );
    worst.add(&first);
    if !first.verdict.is_accepted() {
        return worst.into(blamed(first, 1));
    }
    let Some(second_input) = second_input else {
        // Accepted with no checker run: the case has no answer file to check against.
        return worst.into(blamed(first, 1));
    };
    let folder = match RunFolder::new() {
        Ok(folder) => folder,
        Err(error) => {
            return super::plain::judge_error(
                case,
                format!("cannot make a folder for run 2's input: {error}"),
            )
        }
    };
    let path = folder.path().join("run-2.in");
    if let Err(error) = std::fs::write(&path, &second_input) {
        return super::plain::judge_error(case, format!("cannot keep run 2's input: {error}"));
    }
    let second_case = Case {
        input: path,
        ..case.clone()
    };
    let second = super::plain::check_run(
        super::plain::run_case(program, &second_case, settings),
        &second_case,
        settings,
    );
    worst.add(&second);
    worst.into(blamed(second, 2))
}

/// The outcome of run `run`, its reason saying so.
fn blamed(mut outcome: CaseOutcome, run: u32) -> CaseOutcome {
    outcome.reason = if outcome.reason.is_empty() {
        format!("run {run}")
    } else {
        format!("run {run}: {}", outcome.reason)
    };
    outcome
}
