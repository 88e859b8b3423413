//! Writes a problem of judge.toml as an ICPC/Kattis package (2023-07-draft, which problemtools
//! and DOMjudge read): problem.yaml with the limits, the cases as `data/sample` and
//! `data/secret`, the checker as default-validator flags or as an output validator whose source
//! the exporter writes, the statement, and the stored submissions by verdict folder. As a
//! folder, or as a zip with problem.yaml at its root (DOMjudge refuses a zip with a top folder).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::case::discover;
use crate::check::Checker;
use crate::config::{Config, Problem};
use crate::verdict::Verdict;

const MIB: u64 = 1 << 20;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("`{}` already exists (hint: remove it, or name another with --out)", .0.display())]
    Exists(PathBuf),
    #[error("problem `{problem}`: its checker is the command `{}`, whose source the export cannot know (hint: a package needs the checker's source; write it as an output validator by hand)", program.display())]
    CommandChecker { problem: String, program: PathBuf },
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Discover(#[from] discover::DiscoverError),
    #[error("cannot write the zip `{}`: {message}", path.display())]
    Zip { path: PathBuf, message: String },
}

/// What was written, and what was left out with why.
#[derive(Debug, Clone, Default)]
pub struct Exported {
    pub files: Vec<String>,
    pub notes: Vec<String>,
}

/// The files of the package, in memory: (path inside the package, bytes, executable).
struct Files {
    entries: Vec<(String, Vec<u8>, bool)>,
}

impl Files {
    fn add(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.entries.push((path.into(), bytes.into(), false));
    }
}

/// The checkers with no default-validator flags, as Kattis output validators in Python 3.
const LINES_VALIDATOR: &str = include_str!("export/lines_validator.py");
const UNORDERED_BLOCKS_VALIDATOR: &str = include_str!("export/unordered_blocks_validator.py");

/// A checker as default-validator flags, when the default validator can say it.
pub fn default_validator_flags(checker: &Checker) -> Option<Vec<String>> {
    use crate::check::default_validator::Flags;
    let flags = match checker {
        // The judge's tokens are case-sensitive; Kattis' default is not.
        Checker::Tokens => Flags {
            case_sensitive: true,
            ..Flags::default()
        },
        Checker::Exact => Flags {
            case_sensitive: true,
            space_change_sensitive: true,
            ..Flags::default()
        },
        Checker::Float { absolute, relative } => Flags {
            case_sensitive: true,
            float_absolute: Some(*absolute),
            float_relative: Some(*relative),
            ..Flags::default()
        },
        _ => return None,
    };
    Some(flags.to_args())
}

/// A stable UUID for the problem (the format wants one; DOMjudge and Kattis key on it), so
/// exporting twice gives the same package.
fn uuid(name: &str) -> String {
    let mut parts = [0u64; 2];
    for (i, part) in parts.iter_mut().enumerate() {
        let mut hasher = DefaultHasher::new();
        (i, "harness-export", name).hash(&mut hasher);
        *part = hasher.finish();
    }
    let hex = format!("{:016x}{:016x}", parts[0], parts[1]);
    // Version 4 and variant bits, so tools that check the form accept it.
    format!(
        "{}-{}-4{}-a{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

fn seconds(duration: std::time::Duration) -> String {
    let value = duration.as_secs_f64();
    if value.fract() == 0.0 {
        format!("{value:.1}")
    } else {
        format!("{value}")
    }
}

/// The folder a stored submission goes to, for verdicts the format has a folder for.
fn kattis_folder(verdict: Verdict) -> Option<&'static str> {
    match verdict {
        Verdict::Accepted => Some("accepted"),
        Verdict::WrongAnswer => Some("wrong_answer"),
        Verdict::TimeLimitExceeded => Some("time_limit_exceeded"),
        // The format has no MLE or OLE: problemtools and DOMjudge report them as run-time
        // errors, and the harness reading the package back takes them there.
        Verdict::RuntimeError | Verdict::MemoryLimitExceeded | Verdict::OutputLimitExceeded => {
            Some("run_time_error")
        }
        Verdict::CompileError | Verdict::JudgeError => None,
    }
}

/// Builds the package's files for `problem`.
fn package_files(
    config: &Config,
    problem: &Problem,
    submissions: &Path,
) -> Result<(Files, Vec<String>), ExportError> {
    let mut files = Files {
        entries: Vec::new(),
    };
    let mut notes = Vec::new();
    let read = |path: &Path| {
        std::fs::read(path).map_err(|source| ExportError::Read {
            path: path.to_path_buf(),
            source,
        })
    };

    // The checker.
    let flags = default_validator_flags(&problem.checker);
    let validator = match (&problem.checker, &flags) {
        (Checker::Lines, None) => Some(LINES_VALIDATOR),
        (Checker::UnorderedBlocks, None) => Some(UNORDERED_BLOCKS_VALIDATOR),
        (Checker::Command { program, .. }, None) => {
            return Err(ExportError::CommandChecker {
                problem: problem.name.clone(),
                program: program.clone(),
            })
        }
        (Checker::Package(_), None) => {
            return Err(ExportError::CommandChecker {
                problem: problem.name.clone(),
                program: PathBuf::from("(a package's own validator)"),
            })
        }
        // Flags say it (or nothing needs saying).
        _ => None,
    };

    let mut yaml = String::new();
    yaml.push_str("# Exported by harness (`harness export`) from judge.toml.\n");
    yaml.push_str("problem_format_version: 2023-07-draft\n");
    yaml.push_str(&format!("name:\n  en: {}\n", yaml_string(&problem.title)));
    yaml.push_str(&format!("uuid: {}\n", uuid(&problem.name)));
    yaml.push_str("type: pass-fail\n");
    yaml.push_str(&format!(
        "source: {}\n",
        yaml_string(&format!("{} (harness)", problem.name))
    ));
    yaml.push_str("license: unknown\n");
    yaml.push_str(&format!(
        "rights_owner: {}\n",
        yaml_string("the authors of this problem set")
    ));
    yaml.push_str("limits:\n");
    yaml.push_str(&format!("  time_limit: {}\n", seconds(problem.time_limit)));
    yaml.push_str(&format!(
        "  memory: {}\n",
        problem.memory_limit.div_ceil(MIB)
    ));
    yaml.push_str(&format!(
        "  output: {}\n",
        problem.output_limit.div_ceil(MIB).max(1)
    ));
    files.add("problem.yaml", yaml);

    if let Some(flags) = &flags {
        if !flags.is_empty() {
            let args: Vec<String> = flags.iter().map(|f| yaml_string(f)).collect();
            files.add(
                "data/test_group.yaml",
                format!("output_validator_args: [{}]\n", args.join(", ")),
            );
        }
    }
    if let Some(source) = validator {
        files.entries.push((
            "output_validator/validate.py".to_string(),
            source.as_bytes().to_vec(),
            true,
        ));
    }

    // Cases: samples are the cases named `sample…`.
    let cases = discover::discover(&problem.cases)?;
    for case in &cases {
        let flat = case.name.replace('/', "-");
        let group = if flat.starts_with("sample") {
            "sample"
        } else {
            "secret"
        };
        files.add(format!("data/{group}/{flat}.in"), read(&case.input)?);
        files.add(format!("data/{group}/{flat}.ans"), read(&case.answer)?);
    }
    if !cases.iter().any(|c| c.name.starts_with("sample")) {
        notes.push("no case is named `sample…`: every case went to data/secret".to_string());
    }

    // The statement, where the project keeps it.
    let statement = [
        config
            .root
            .join("docs/problems")
            .join(format!("{}.md", problem.name)),
        config
            .root
            .join("../shared/problems")
            .join(format!("{}.md", problem.name)),
    ]
    .into_iter()
    .find(|p| p.is_file());
    match statement {
        Some(path) => files.add("statement/problem.en.md", read(&path)?),
        None => notes.push(format!(
            "no statement: none at `docs/problems/{}.md`",
            problem.name
        )),
    }

    // The input validator, when judge.toml runs it from a Python source the package can
    // carry; its exit 0 becomes Kattis' 42 through a small wrapper.
    match &problem.validator {
        Some(command) => match python_validator(config, command) {
            Some((source, args)) => {
                // One file, the project's validator inside its wrapper: problemtools builds
                // a folder of several Python files less reliably than one.
                let text = String::from_utf8_lossy(&read(&source)?).into_owned();
                let name = super::file_name(&source);
                files.entries.push((
                    "input_validators/validate/validate.py".to_string(),
                    validator_wrapper(&name, &text, &args).into_bytes(),
                    true,
                ));
            }
            None => notes.push(format!(
                "input validator not exported: `{}` is a program, not a Python source the package could carry (DOMjudge does not need one; problemtools' verifyproblem will ask for it)",
                command.join(" ")
            )),
        },
        None => notes.push("no input validator in judge.toml".to_string()),
    }

    // Stored submissions.
    let folder = submissions.join(&problem.name);
    if folder.is_dir() {
        for verdict_dir in super::sorted_entries(&folder).map_err(|e| ExportError::Read {
            path: folder.clone(),
            source: std::io::Error::other(e.to_string()),
        })? {
            let verdict_name = super::file_name(&verdict_dir);
            let Some(verdict) = Verdict::from_dir_name(&verdict_name) else {
                continue;
            };
            let Some(target) = kattis_folder(verdict) else {
                notes.push(format!(
                    "`{verdict_name}` submissions not exported: the format has no folder for them"
                ));
                continue;
            };
            let entries = super::sorted_entries(&verdict_dir).map_err(|e| ExportError::Read {
                path: verdict_dir.clone(),
                source: std::io::Error::other(e.to_string()),
            })?;
            for source in entries.into_iter().filter(|p| p.is_file()) {
                let name = super::file_name(&source);
                let mut path = format!("submissions/{target}/{name}");
                if files.entries.iter().any(|(p, _, _)| *p == path) {
                    path = format!("submissions/{target}/{verdict_name}-{name}");
                }
                files.add(path, read(&source)?);
            }
        }
    }
    Ok((files, notes))
}

/// `["python3", "validators/x.py", args…]`: the source and its arguments.
fn python_validator(config: &Config, command: &[String]) -> Option<(PathBuf, Vec<String>)> {
    let (interpreter, rest) = command.split_first()?;
    let (script, args) = rest.split_first()?;
    let program = Path::new(interpreter).file_name()?.to_str()?;
    if !program.starts_with("python3") || !script.ends_with(".py") {
        return None;
    }
    let path = config.root.join(script);
    path.is_file().then(|| (path, args.to_vec()))
}

/// A Kattis input validator that runs the project's validator (exit 0 valid, anything else
/// invalid with its reason on stderr), carried inside as text, and answers as the format
/// wants (42 valid, 43 not).
fn validator_wrapper(name: &str, source: &str, args: &[String]) -> String {
    let args: Vec<String> = args.iter().map(|a| yaml_string(a)).collect();
    // A JSON string is a valid Python string literal.
    format!(
        r#"#!/usr/bin/env python3
# Written by `harness export`: runs the project's validator {name} (exit 0 for a valid
# input), carried below as text, as a Kattis input validator (exit 42 valid, 43 invalid).
import os
import sys

SOURCE = {source}

sys.argv = [{name_literal}] + [{args}] + sys.argv[1:]
try:
    exec(compile(SOURCE, {name_literal}, "exec"), {{"__name__": "__main__"}})
    code = 0
except SystemExit as stop:
    if isinstance(stop.code, str):
        print(stop.code, file=sys.stderr)
    code = 0 if stop.code in (None, 0) else 1
sys.stdout.flush()
sys.stderr.flush()
os._exit(42 if code == 0 else 43)
"#,
        source = yaml_string(source),
        name_literal = yaml_string(name),
        args = args.join(", ")
    )
}

/// Exports `problem` to `out`: a folder, or a zip when `out` ends in `.zip`. Never overwrites.
pub fn export(
    config: &Config,
    problem: &Problem,
    submissions: &Path,
    out: &Path,
) -> Result<Exported, ExportError> {
    if out.exists() {
        return Err(ExportError::Exists(out.to_path_buf()));
    }
    let (files, notes) = package_files(config, problem, submissions)?;
    let written = files.entries.iter().map(|(p, _, _)| p.clone()).collect();
    let zip = out.extension().is_some_and(|e| e == "zip");
    if zip {
        write_zip(out, &files)?;
    } else {
        for (relative, bytes, executable) in &files.entries {
            let path = out.join(relative);
            let write_error = |source| ExportError::Write {
                path: path.clone(),
                source,
            };
            std::fs::create_dir_all(path.parent().expect("a file in the package"))
                .map_err(write_error)?;
            std::fs::write(&path, bytes).map_err(write_error)?;
            if *executable {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                    .map_err(write_error)?;
            }
        }
    }
    Ok(Exported {
        files: written,
        notes,
    })
}

fn write_zip(out: &Path, files: &Files) -> Result<(), ExportError> {
    let zip_error = |message: String| ExportError::Zip {
        path: out.to_path_buf(),
        message,
    };
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| ExportError::Write {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    let file = std::fs::File::create_new(out).map_err(|source| ExportError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let mut zip = zip::ZipWriter::new(file);
    for (relative, bytes, executable) in &files.entries {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(if *executable { 0o755 } else { 0o644 });
        zip.start_file(relative.as_str(), options)
            .map_err(|e| zip_error(e.to_string()))?;
        zip.write_all(bytes).map_err(|e| zip_error(e.to_string()))?;
    }
    zip.finish().map_err(|e| zip_error(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkers_become_flags_when_the_default_validator_can_say_them() {
        assert_eq!(
            default_validator_flags(&Checker::Tokens),
            Some(vec!["case_sensitive".to_string()])
        );
        assert_eq!(
            default_validator_flags(&Checker::Exact),
            Some(vec![
                "case_sensitive".to_string(),
                "space_change_sensitive".to_string()
            ])
        );
        let float = default_validator_flags(&Checker::Float {
            absolute: 1e-6,
            relative: 1e-9,
        })
        .unwrap();
        assert_eq!(float[0], "case_sensitive");
        assert!(float.contains(&"float_absolute_tolerance".to_string()));
        assert_eq!(default_validator_flags(&Checker::UnorderedBlocks), None);
        assert_eq!(default_validator_flags(&Checker::Lines), None);
    }

    #[test]
    fn the_uuid_is_stable_and_well_formed() {
        let id = uuid("king-queens");
        assert_eq!(id, uuid("king-queens"));
        assert_ne!(id, uuid("queens-boards"));
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
    }
}
