//! A package's input validators run on its cases, as the format runs them: `validator
//! [flags] < input`, exit 42 for a valid input; 43, or any other ending, rejects it (as
//! problemtools takes it), with the flags of the case's test group.

use std::ffi::OsString;
use std::time::Duration;

use super::build::{self, Built};
use super::{Loaded, PackageError, SourceProgram};
use crate::check::package::RunFolder;
use crate::sandbox::run::{self, Isolation, Limits, RunRequest, Scope, Stdin, Termination};

const EXIT_VALID: i32 = 42;
/// testlib validators exit 0 for a valid input.
const EXIT_TESTLIB_VALID: i32 = 0;

const VALIDATOR_LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(60),
    wall_time: Duration::from_secs(120),
    memory_bytes: 4 << 30,
    output_bytes: 1 << 20,
};

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

/// Builds every input validator; one that needs a tool this machine lacks (checktestdata,
/// viva) is skipped with the reason.
pub fn build_all(loaded: &Loaded) -> Validators {
    let mut built = Vec::new();
    let mut skipped = Vec::new();
    for source in &loaded.package.input_validators {
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
        match build::build(
            source,
            &loaded.config.languages,
            loaded.package.include.as_deref(),
        ) {
            Ok(program) => built.push((source.clone(), program)),
            Err(PackageError::Build { message, .. }) => skipped.push((source.clone(), message)),
            Err(other) => skipped.push((source.clone(), other.to_string())),
        }
    }
    Validators { built, skipped }
}

/// Runs each built validator on each case.
pub fn validate(
    loaded: &Loaded,
    validators: &Validators,
    on_case: &mut dyn FnMut(&CaseValidity),
) -> Vec<CaseValidity> {
    let mut results = Vec::new();
    for case in &loaded.package.cases {
        for (source, built) in &validators.built {
            let validity = CaseValidity {
                case: case.name.clone(),
                validator: source.name.clone(),
                judgement: run_validator(loaded, source, built, case),
            };
            on_case(&validity);
            results.push(validity);
        }
    }
    results
}

/// The name a test_group.yaml's `input_validator_args` map knows a validator by: its file or
/// folder name in `input_validators/`.
fn validator_key(source: &SourceProgram) -> String {
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
    let valid_exit = if loaded.package.testlib_validators {
        EXIT_TESTLIB_VALID
    } else {
        EXIT_VALID
    };
    let flags: Vec<String> = super::group_of(&loaded.package.groups, &case.input)
        .map(|g| g.input_args(&validator_key(source)).to_vec())
        .unwrap_or_default();
    // The package's own code: in the sandbox, in a folder of its own.
    let prepared = RunFolder::new().and_then(|folder| {
        let laid_out = built
            .package_program(&source.name)
            .laid_out(folder.path())?;
        Ok((folder, laid_out))
    });
    let ran = prepared
        .map_err(|error| format!("cannot make a run folder: {error}"))
        .and_then(|(folder, (program, mut args))| {
            args.extend(flags.iter().map(OsString::from));
            args.extend(case.args.iter().map(OsString::from));
            let request = RunRequest::new(&program, VALIDATOR_LIMITS)
                .args(&args)
                .stdin(Stdin::File(&case.input))
                .scope(Scope::Group)
                .workdir(Some(folder.path()))
                .isolation(Isolation::Sandbox);
            run::run(&request).map_err(|error| error.to_string())
        });
    match ran {
        Err(error) => Judgement::Failed(error),
        Ok(result) => {
            let said = String::from_utf8_lossy(&result.stderr_tail)
                .trim()
                .to_string();
            let said = if said.is_empty() {
                String::from_utf8_lossy(&result.stdout).trim().to_string()
            } else {
                said
            };
            let last = said
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim()
                .to_string();
            match result.termination {
                Termination::Exited(code) if code == valid_exit => Judgement::Valid,
                // problemtools takes anything but 42 as a rejection: validators written with
                // `assert` exit 1.
                ending => {
                    let how = match ending {
                        Termination::Exited(code) => format!("exit {code}"),
                        Termination::Signaled(signal) => run::signal_name(signal),
                    };
                    let mut why = if last.is_empty() {
                        how
                    } else {
                        format!("{how}: {last}")
                    };
                    if has_crlf(&case.input) {
                        why.push_str(CRLF_HINT);
                    }
                    Judgement::Invalid(why)
                }
            }
        }
    }
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
pub fn check_data(
    loaded: &Loaded,
    validators: &Validators,
    on_check: &mut dyn FnMut(&CheckResult),
) -> Vec<CheckResult> {
    use super::DataCheckKind;
    let mut results = Vec::new();
    for check in &loaded.package.checks {
        let outcome = match check.kind {
            DataCheckKind::InvalidInput if validators.built.is_empty() => {
                CheckOutcome::Skipped("no input validator could be built to reject it".to_string())
            }
            DataCheckKind::InvalidInput => {
                let mut outcome = CheckOutcome::Failed(format!(
                    "every input validator accepted it ({})",
                    validators
                        .built
                        .iter()
                        .map(|(s, _)| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                for (source, built) in &validators.built {
                    match run_validator(loaded, source, built, &check.case) {
                        Judgement::Invalid(_) => {
                            outcome = CheckOutcome::Passed;
                            break;
                        }
                        Judgement::Failed(why) => {
                            outcome = CheckOutcome::Broken(format!("{}: {why}", source.name));
                            break;
                        }
                        Judgement::Valid => {}
                    }
                }
                outcome
            }
            kind => check_output(loaded, check, kind),
        };
        let result = CheckResult {
            case: check.case.name.clone(),
            kind: check.kind,
            outcome,
        };
        on_check(&result);
        results.push(result);
    }
    results
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
    let want_accepted = kind == super::DataCheckKind::ValidOutput;
    match judgement.verdict {
        Verdict::JudgeError => CheckOutcome::Broken(judgement.reason),
        Verdict::Accepted if want_accepted => CheckOutcome::Passed,
        Verdict::Accepted => CheckOutcome::Failed(format!(
            "the output validator accepted the `.out`: {}",
            judgement.reason
        )),
        _ if want_accepted => CheckOutcome::Failed(format!(
            "the output validator rejected the `.out`: {}",
            judgement.reason
        )),
        _ => CheckOutcome::Passed,
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
