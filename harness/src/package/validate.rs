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
    let valid_exit = if loaded.package.testlib_validators {
        EXIT_TESTLIB_VALID
    } else {
        EXIT_VALID
    };
    for case in &loaded.package.cases {
        let flags = loaded
            .package
            .groups
            .iter()
            .filter(|g| case.input.starts_with(&g.folder))
            .max_by_key(|g| g.folder.components().count())
            .map(|g| g.input_flags.clone())
            .unwrap_or_default();
        for (source, built) in &validators.built {
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
                    let request = RunRequest::new(&program, VALIDATOR_LIMITS)
                        .args(&args)
                        .stdin(Stdin::File(&case.input))
                        .scope(Scope::Group)
                        .workdir(Some(folder.path()))
                        .isolation(Isolation::Sandbox);
                    run::run(&request).map_err(|error| error.to_string())
                });
            let judgement = match ran {
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
                        // problemtools takes anything but 42 as a rejection: validators
                        // written with `assert` exit 1.
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
            };
            let validity = CaseValidity {
                case: case.name.clone(),
                validator: source.name.clone(),
                judgement,
            };
            on_case(&validity);
            results.push(validity);
        }
    }
    results
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
