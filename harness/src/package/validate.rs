//! A package's input validators run on its cases, as the format runs them: `validator
//! [flags] < input`, exit 42 for a valid input; 43, or any other ending, rejects it (as
//! problemtools takes it), with the flags of the case's test group.

use std::ops::ControlFlow;

use super::build::{self, Built};
use super::{Loaded, PackageError, SourceProgram};
use crate::check::package::{RunFolder, VALIDATOR_LIMITS};
use crate::config::ValidatorProtocol;
use crate::tool::Role;

/// Said beside a rejection of an input with CRLF line ends: a Polygon package made for
/// Windows carries its tests so, and testlib's strict reading on Linux takes the `\r` as a
/// character.
const CRLF_HINT: &str = " (hint: the input ends its lines with CRLF, as a Windows package's tests do; a validator on Linux reads the `\\r` as a character: use the package made for Linux)";

/// Whether a file has a CRLF line end in its first MiB (enough to tell how it was written).
fn has_crlf(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 20).read_to_end(&mut head))
        .is_ok_and(|_| head.windows(2).any(|w| w == b"\r\n"))
}

/// What one validator said about one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    Valid,
    Invalid(String),
    /// The validator could not be run at all.
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct CaseValidity {
    pub case: String,
    pub validator: String,
    pub judgement: Judgement,
}

/// Validators that could be built, and those that could not (with why).
pub struct Validators {
    pub built: Vec<(SourceProgram, Built)>,
    pub skipped: Vec<(SourceProgram, String)>,
}

impl Validators {
    /// The names of those built, in the order they run, for messages: `a.py, b.cpp`.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.built.iter().map(|(s, _)| s.name.as_str()).collect();
        names.join(", ")
    }
}

/// Builds every input validator; one that needs a tool this machine lacks (checktestdata,
/// viva) is skipped with the reason.
pub fn build_all(loaded: &Loaded) -> Validators {
    build_sources(
        &loaded.package.input_validators,
        &loaded.config.languages,
        loaded.package.include.as_deref(),
    )
}

/// Builds these input validators with `languages` (and the package's `include/`, if any).
pub fn build_sources(
    sources: &[SourceProgram],
    languages: &[crate::compile::Language],
    include: Option<&std::path::Path>,
) -> Validators {
    let mut built = Vec::new();
    let mut skipped = Vec::new();
    for source in sources {
        let extension = source
            .path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        if matches!(extension, "ctd" | "viva") {
            skipped.push((
                source.clone(),
                format!("`.{extension}` validators need checktestdata or viva, which the harness does not run"),
            ));
            continue;
        }
        match build::build(source, languages, include) {
            Ok(program) => built.push((source.clone(), program)),
            Err(PackageError::Build { message, .. }) => skipped.push((source.clone(), message)),
            Err(other) => skipped.push((source.clone(), other.to_string())),
        }
    }
    Validators { built, skipped }
}

/// Runs each built validator on each case.
pub fn validate(loaded: &Loaded, validators: &Validators) -> Vec<CaseValidity> {
    let cases = loaded.package.cases.iter();
    (cases.flat_map(|case| {
        (validators.built.iter()).map(move |(source, built)| CaseValidity {
            case: case.name.clone(),
            validator: source.name.clone(),
            judgement: run_validator(loaded, source, built, case),
        })
    }))
    .collect()
}

/// The name a test_group.yaml's `input_validator_args` map knows a validator by: its file or
/// folder name in `input_validators/`.
pub(crate) fn validator_key(source: &SourceProgram) -> String {
    super::file_name(&source.path)
}

/// One input validator on one case's input, with its group's (or the case's) arguments for
/// that validator and then the case's `args`, as 2025-09 passes them.
fn run_validator(
    loaded: &Loaded,
    source: &SourceProgram,
    built: &Built,
    case: &crate::case::discover::Case,
) -> Judgement {
    // Polygon's are testlib's (exit 0); the Kattis format's exit 42.
    let protocol = if loaded.package.testlib_validators {
        ValidatorProtocol::Testlib
    } else {
        ValidatorProtocol::Kattis
    };
    let mut flags: Vec<String> = super::group_of(&loaded.package.groups, &case.input)
        .map(|g| g.input_args(&validator_key(source)).to_vec())
        .unwrap_or_default();
    flags.extend(case.args.iter().cloned());
    judge_input(built, &source.name, &case.input, &flags, protocol)
}

/// One built input validator `name` on the input at `input`, with `flags`: valid when it
/// exits as `protocol` says a valid input does (judge.toml's validators read the same
/// meaning). The one place a package's input validator runs, for its cases and for the inputs
/// its generators make.
pub fn judge_input(
    built: &Built,
    name: &str,
    input: &std::path::Path,
    flags: &[String],
    protocol: ValidatorProtocol,
) -> Judgement {
    // The package's own code: in the sandbox, in a folder of its own.
    let program = built.package_program(name);
    let ran = program
        .in_run_folder(Role::Validator, flags, VALIDATOR_LIMITS)
        .and_then(|(folder, command)| {
            let valid_exit = protocol.valid_exit();
            let ran = command.validate(input, Some(folder.path()), valid_exit);
            ran.map_err(|e| e.to_string())
        });
    let result = match ran {
        Err(error) => return Judgement::Failed(error),
        Ok(None) => return Judgement::Valid,
        Ok(Some(result)) => result,
    };
    // problemtools takes anything but 42 as a rejection: validators written with `assert`
    // exit 1. The reason is on stderr, or else on stdout.
    let said = [&result.stderr_tail, &result.stdout]
        .into_iter()
        .map(|bytes| String::from_utf8_lossy(bytes).trim().to_string())
        .find(|said| !said.is_empty());
    let mut why = result.termination.describe();
    if let Some(last) = said.as_deref().and_then(crate::text::last_line) {
        why = format!("{why}: {last}");
    }
    if has_crlf(input) {
        why.push_str(CRLF_HINT);
    }
    Judgement::Invalid(why)
}

/// The first of `validators` that does not accept an input, as `judge` runs each, and what it
/// said; `None` when every one accepts it.
pub fn first_rejection(
    validators: &Validators,
    judge: impl Fn(&SourceProgram, &Built) -> Judgement,
) -> Option<(&SourceProgram, Judgement)> {
    (validators.built.iter()).find_map(|(source, built)| match judge(source, built) {
        Judgement::Valid => None,
        other => Some((source, other)),
    })
}

/// What a check of the validation data found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckOutcome {
    /// The validators did what the data asks.
    Passed,
    /// They did not: why (the input every validator accepted, the output the output validator
    /// accepted or rejected against the folder's meaning).
    Failed(String),
    /// A validator could not run, or the output validator gave a judge error.
    Broken(String),
    /// Not checked here, and why (an interactive problem's outputs).
    Skipped(String),
}

#[derive(Debug, Clone)]
pub struct CheckResult {
    /// `invalid_input/too-big`, the case's name below `data/`.
    pub case: String,
    pub kind: super::DataCheckKind,
    pub outcome: CheckOutcome,
}

/// Checks the validators against 2025-09's validation data: each `invalid_input` must be
/// rejected by some input validator; each `invalid_output` `.out` rejected and each
/// `valid_output` (and sample) `.out` accepted by the output validator, with the `.in` and
/// `.ans` beside it.
pub fn check_data(loaded: &Loaded, validators: &Validators) -> Vec<CheckResult> {
    use super::DataCheckKind;
    let checks = loaded.package.checks.iter();
    (checks.map(|check| {
        let outcome = match check.kind {
            DataCheckKind::InvalidInput if validators.built.is_empty() => {
                CheckOutcome::Skipped("no input validator could be built to reject it".to_string())
            }
            DataCheckKind::InvalidInput => {
                let judge = |source: &SourceProgram, built: &Built| {
                    run_validator(loaded, source, built, &check.case)
                };
                match first_rejection(validators, judge) {
                    Some((_, Judgement::Invalid(_))) => CheckOutcome::Passed,
                    Some((source, Judgement::Failed(why))) => {
                        CheckOutcome::Broken(format!("{}: {why}", source.name))
                    }
                    _ => CheckOutcome::Failed(format!(
                        "every input validator accepted it ({})",
                        validators.names()
                    )),
                }
            }
            DataCheckKind::Interaction => check_interaction(loaded, check),
            kind => check_output(loaded, check, kind),
        };
        CheckResult {
            case: check.case.name.clone(),
            kind: check.kind,
            outcome,
        }
    }))
    .collect()
}

/// A sample's `.interaction`, split into its passes (`---` lines between them): each pass the
/// lines to the submission (`<`) and from it (`>`), newline-ended.
pub fn interaction_passes(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut passes = vec![(String::new(), String::new())];
    for (number, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("---") {
            if !rest.trim().is_empty() {
                return Err(format!(
                    "line {}: a pass separator is `---` alone",
                    number + 1
                ));
            }
            passes.push((String::new(), String::new()));
            continue;
        }
        let (to, from) = passes.last_mut().expect("one pass at least");
        let (side, rest) = match line.split_at_checked(1) {
            Some(("<", rest)) => (to, rest),
            Some((">", rest)) => (from, rest),
            _ => {
                return Err(format!(
                    "line {}: starts with neither `<`, `>` nor `---`",
                    number + 1
                ))
            }
        };
        side.push_str(rest);
        side.push('\n');
    }
    Ok(passes)
}

/// A sample's `.interaction`: well formed; for an interactive problem replayed against its
/// interactor, for a multi-pass one pass by pass against its output validator (each pass's
/// output accepted, and its `nextpass.in` the next pass's input).
fn check_interaction(loaded: &Loaded, check: &super::DataCheck) -> CheckOutcome {
    let Some(path) = &check.output else {
        return CheckOutcome::Broken("no `.interaction` file".to_string());
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            return CheckOutcome::Broken(format!("cannot read `{}`: {error}", path.display()))
        }
    };
    let passes = match interaction_passes(&text) {
        Ok(passes) => passes,
        Err(why) => return CheckOutcome::Failed(format!("`.interaction` {why}")),
    };
    let multi_pass = loaded.package.passes.is_some();
    if passes.len() > 1 && !multi_pass {
        return CheckOutcome::Failed(format!(
            "the `.interaction` has {} passes (`---`), but the problem is not multi-pass",
            passes.len()
        ));
    }
    if let Some(limit) = loaded.package.passes {
        if passes.len() > limit as usize {
            return CheckOutcome::Failed(format!(
                "the `.interaction` has {} passes, more than `limits.validation_passes` ({limit})",
                passes.len()
            ));
        }
    }
    match (&loaded.package.interaction, multi_pass) {
        (super::Interaction::None, true) => replay_passes(loaded, check, &passes),
        (super::Interaction::None, false) => CheckOutcome::Skipped(
            "an `.interaction` of a problem that is neither interactive nor multi-pass is only shown, not checked".to_string(),
        ),
        (_, _) => match &loaded.interactor {
            Some(interactor) => match crate::check::interactor::replay_sample(
                interactor,
                &crate::check::CaseFiles {
                    input: &check.case.input,
                    answer: &check.case.answer,
                },
                path,
                loaded.problem().wall_limit,
            ) {
                Ok(None) => CheckOutcome::Passed,
                Ok(Some(mismatch)) => CheckOutcome::Failed(mismatch.reason),
                Err(why) => CheckOutcome::Broken(why),
            },
            None => CheckOutcome::Skipped("no interactor to replay it against".to_string()),
        },
    }
}

/// A multi-pass sample, pass by pass: the output validator, keeping its feedback folder, must
/// accept each pass's `>` lines and write the next pass's `<` lines as `nextpass.in` (and none
/// after the last).
fn replay_passes(
    loaded: &Loaded,
    check: &super::DataCheck,
    passes: &[(String, String)],
) -> CheckOutcome {
    use crate::check::package::{custom_in, read_left, OutputValidator};
    let crate::check::Checker::Package(checker) = &loaded.problem().checker else {
        return CheckOutcome::Skipped("not a package's validator".to_string());
    };
    let OutputValidator::Custom(validator) = &checker.validator else {
        return CheckOutcome::Skipped(
            "a multi-pass problem needs its own output validator".to_string(),
        );
    };
    let input = std::fs::read(&check.case.input).unwrap_or_default();
    if passes[0].0.as_bytes() != input.as_slice() {
        return CheckOutcome::Failed(format!(
            "pass 1's `<` lines are not the sample's `{}`",
            super::file_name(&check.case.input)
        ));
    }
    let prepared = RunFolder::new().and_then(|folder| {
        let feedback = folder.writable("feedback")?;
        Ok((folder, feedback))
    });
    let (folder, feedback) = match prepared {
        Ok(prepared) => prepared,
        Err(error) => return CheckOutcome::Broken(format!("cannot make a run folder: {error}")),
    };
    let flags = checker.flags_for(&check.case.input).to_vec();
    let mut input_path = check.case.input.clone();
    for (index, (_, output)) in passes.iter().enumerate() {
        let pass = index + 1;
        let files = crate::check::CaseFiles {
            input: &input_path,
            answer: &check.case.answer,
        };
        let judgement = custom_in(
            validator,
            &flags,
            &files,
            output.as_bytes(),
            &folder,
            &feedback,
        );
        let next = read_left(&feedback, "nextpass.in", 1 << 30);
        let _ = std::fs::remove_file(feedback.join("nextpass.in"));
        match judgement.verdict {
            crate::verdict::Verdict::Accepted => {}
            crate::verdict::Verdict::JudgeError => return CheckOutcome::Broken(judgement.reason),
            _ => {
                return CheckOutcome::Failed(format!(
                    "pass {pass}: the output validator rejects the sample's output: {}",
                    judgement.reason
                ))
            }
        }
        let next = match next_pass(pass, next, passes) {
            ControlFlow::Break(outcome) => return outcome,
            ControlFlow::Continue(next) => next,
        };
        input_path = folder.path().join(format!("pass-{}.in", pass + 1));
        if let Err(error) = std::fs::write(&input_path, next) {
            return CheckOutcome::Broken(format!("cannot keep nextpass.in: {error}"));
        }
    }
    CheckOutcome::Passed
}

/// What follows pass `pass` (counted from 1) of a multi-pass sample, given the validator's
/// `nextpass.in`: the end, the next pass's input, or why the two disagree.
fn next_pass(
    pass: usize,
    next: Option<Vec<u8>>,
    passes: &[(String, String)],
) -> ControlFlow<CheckOutcome, Vec<u8>> {
    match (next, passes.get(pass)) {
        (None, None) => ControlFlow::Break(CheckOutcome::Passed),
        (next @ Some(_), None) | (next @ None, Some(_)) => {
            let says = match next {
                Some(_) => "asks for another pass (nextpass.in)",
                None => "writes no nextpass.in",
            };
            ControlFlow::Break(CheckOutcome::Failed(format!(
                "pass {pass}: the validator {says}, the sample has {} passes",
                passes.len()
            )))
        }
        (Some(next), Some((want, _))) if next != want.as_bytes() => {
            ControlFlow::Break(CheckOutcome::Failed(format!(
                "pass {}: the validator's nextpass.in is `{}`, the sample's `<` lines `{}`",
                pass + 1,
                crate::text::one_line(&String::from_utf8_lossy(&next), 60),
                crate::text::one_line(want, 60)
            )))
        }
        (Some(next), Some(_)) => ControlFlow::Continue(next),
    }
}

/// The output validator on an `invalid_output`/`valid_output` case's `.out`.
fn check_output(
    loaded: &Loaded,
    check: &super::DataCheck,
    kind: super::DataCheckKind,
) -> CheckOutcome {
    use crate::verdict::Verdict;
    if loaded.package.interaction != super::Interaction::None || loaded.package.passes.is_some() {
        return CheckOutcome::Skipped(
            "an interactive or multi-pass problem's outputs are not checked against a file (the format asks this of the others only)".to_string(),
        );
    }
    let Some(output_path) = &check.output else {
        return CheckOutcome::Broken("no `.out` file".to_string());
    };
    let read = |path: &std::path::Path| {
        std::fs::read(path)
            .map_err(|e| CheckOutcome::Broken(format!("cannot read `{}`: {e}", path.display())))
    };
    let (output, answer) = match (read(output_path), read(&check.case.answer)) {
        (Ok(output), Ok(answer)) => (output, answer),
        (Err(outcome), _) | (_, Err(outcome)) => return outcome,
    };
    let files = crate::check::CaseFiles {
        input: &check.case.input,
        answer: &check.case.answer,
    };
    let judgement = crate::check::check(&loaded.problem().checker, &files, &output, &answer);
    let accepted = judgement.verdict == Verdict::Accepted;
    match judgement.verdict {
        Verdict::JudgeError => CheckOutcome::Broken(judgement.reason),
        _ if accepted == (kind == super::DataCheckKind::ValidOutput) => CheckOutcome::Passed,
        _ => CheckOutcome::Failed(format!(
            "the output validator {} the `.out`: {}",
            if accepted { "accepted" } else { "rejected" },
            judgement.reason
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_is_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        for (text, crlf) in [("6\r\n1 2\r\n", true), ("6\n1 2\n", false), ("", false)] {
            let file = dir.path().join("case");
            std::fs::write(&file, text).unwrap();
            assert_eq!(has_crlf(&file), crlf, "{text:?}");
        }
    }
}
