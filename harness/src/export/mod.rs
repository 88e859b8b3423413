//! Writes a problem of judge.toml as an ICPC/Kattis package, in one of two dialects: the
//! 2023-07-draft format (= 2025-09) as problemtools' verifyproblem checks it (the default), or
//! the legacy format as DOMjudge 8.3 and 9.0 import it (`--for domjudge`, as BAPCtools' `bt
//! zip --legacy` writes it): problem.yaml with the limits, `.timelimit`, the cases as
//! `data/sample` and `data/secret`, the checker as default-validator flags or as an output
//! validator whose source the exporter writes, an interactive problem's Kattis-protocol
//! interactor as its output validator, the input validator's source, the statement (Markdown,
//! and HTML or text for DOMjudge), and the stored submissions by verdict folder. As a folder,
//! or as a zip with problem.yaml at its root (DOMjudge refuses a zip with a top folder), named
//! by the problem's short name by default; or a whole contest (see [`contest`]).
//!
//! Where DOMjudge 8.3.2 and 9.0.0 read what (webapp/src/Service/ImportProblemService.php at
//! those tags; line numbers are 8.3.2's, 9.0.0's where they differ):
//! - the time limit only from domjudge-problem.ini `timelimit`, else a root `.timelimit`, else
//!   10 s (lines 69-78, 111-115, 157-159): problem.yaml's `limits.time_limit` is not read;
//! - the default validator's flags only from problem.yaml `validator_flags` (280-282; 9.0.0
//!   1079-1081), which the 2023-07 format forbids (problemtools' `Metadata2023_07` has
//!   `extra='forbid'`): testdata.yaml is not read;
//! - an output validator only under `output_validators/` and only with `validation: custom`
//!   (284-290, 915); 9.0.0 also `output_validator/`, found without `validation` (912-916);
//!   every file in one folder, else "Found multiple custom output validators" (924-937);
//! - `type` split on spaces (9.0.0 1045-1053): a YAML list breaks the import;
//! - the statement only as `problem.{pdf,html,txt}` in `problem_statement/` or the root
//!   (307-322);
//! - only a `.in` with its `.ans`, under `data/sample/` and `data/secret/` (373-388);
//! - `submissions/<folder>/<file>`, the folder's verdict (705); a source's
//!   `@EXPECTED_RESULTS@:` list wins only when it leaves out the folder's verdict, else the
//!   folder's verdict alone is expected (712-745).

use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::atomic;
use crate::case::discover;
use crate::check::Checker;
use crate::config::{Config, InteractorProgram, Problem, ValidatorProtocol};
use crate::verdict::InteractorProtocol;
use crate::verdict::Verdict;

pub mod contest;
pub mod handoff;
pub mod scoring;
pub mod statement;
pub mod timing;

const MIB: u64 = 1 << 20;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("`{}` already exists (hint: remove it, or name another with --out)", .0.display())]
    Exists(PathBuf),
    #[error("problem `{problem}`: its checker is the command `{}`, whose source the export cannot know (hint: a package needs the checker's source; write it as an output validator by hand)", program.display())]
    CommandChecker { problem: String, program: PathBuf },
    #[error("problem `{problem}` is interactive, and its interactor {why}")]
    Interactor { problem: String, why: String },
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
    #[error("problem `{problem}` is output-only, which the package this writes cannot say: problemtools, which reads it, warns that `type: submit-answer` is not yet supported, and DOMjudge has no such type (hint: judge its answers with `harness judge {problem} ANSWERS`)")]
    OutputOnly { problem: String },
    #[error("problem `{problem}` is a communication task ({processes} contestant process(es) talking with a manager through FIFOs), which the package this writes cannot say: the Kattis format's interactive problems run one submission against an output validator that speaks its own protocol (exit 42/43, a feedback folder), not a CMS manager, and DOMjudge runs the same (hint: judge it with `harness judge {problem} FILE` or `harness verify {problem}`)")]
    Communication { problem: String, processes: usize },
    #[error("problem `{problem}` is a two-step task (its program, built with the grader, run twice with a FIFO between the runs, as CMS's TwoSteps), which the package this writes cannot say: a Kattis or DOMjudge problem runs its submission once a case (hint: judge it with `harness judge {problem} FILE` or `harness verify {problem}`)")]
    TwoSteps { problem: String },
    #[error("problem `{problem}` is scored, and its scoring cannot be exported: {why}")]
    Scoring { problem: String, why: String },
    #[error(transparent)]
    Contest(#[from] crate::contest::error::ContestError),
    #[error("problem `{problem}` is the Polygon package `{}`, which DOMjudge cannot import (hint: name the other problems; a Polygon package goes to DOMjudge converted to the Kattis format first)", path.display())]
    NotKattis { problem: String, path: PathBuf },
    #[error("no problem could be exported, so no contest is written ({left_out})")]
    NoProblems { left_out: String },
    #[error("the exported package of `{problem}`, judged for its time limit: {source}")]
    Timing {
        problem: String,
        source: timing::TimingError,
    },
}

/// Which tool the package is written for, where one package cannot please both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// The 2023-07-draft format, as problemtools' verifyproblem and Kattis read it, with what
    /// DOMjudge reads that the format allows (`.timelimit`, a shown statement).
    #[default]
    Kattis,
    /// The legacy format with DOMjudge 8.3's and 9.0's keys: `validator_flags` and
    /// `validation` in problem.yaml, `output_validators/`, `problem_statement/`.
    Domjudge,
}

impl Dialect {
    /// For the export's summary line.
    pub fn describe(self) -> &'static str {
        match self {
            Dialect::Kattis => "2023-07-draft, as problemtools reads it",
            Dialect::Domjudge => "legacy, as DOMjudge 8.3 and 9.0 read it",
        }
    }
}

/// How to export.
pub struct Options<'a> {
    pub dialect: Dialect,
    /// Judge the accepted submissions in the exported package to check the time limit against
    /// problemtools' rule; `None` skips it.
    pub measure: Option<Measure<'a>>,
}

/// What measuring needs: the package table of languages, cases at once, and progress.
pub struct Measure<'a> {
    pub languages: Vec<crate::compile::Language>,
    pub jobs: usize,
    /// Called with `Some(total)` before the runs (for each problem), then `None` per case.
    pub progress: &'a mut dyn FnMut(&str, Option<usize>),
}

/// What was written, and what was left out with why.
#[derive(Debug, Clone, Default)]
pub struct Exported {
    pub dialect: Dialect,
    pub files: Vec<String>,
    pub notes: Vec<String>,
    /// What makes a tool judge the package otherwise than judge.toml does.
    pub warnings: Vec<String>,
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

/// The package as it is gathered: its files, and what the export says of it.
struct Package {
    files: Files,
    notes: Vec<String>,
    warnings: Vec<String>,
}

/// The checkers with no default-validator flags, as Kattis output validators in Python 3.
const LINES_VALIDATOR: &str = include_str!("lines_validator.py");
const UNORDERED_BLOCKS_VALIDATOR: &str = include_str!("unordered_blocks_validator.py");

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
        // Kattis' default itself: tokens, case and spacing ignored.
        Checker::TokensIgnoreCase => Flags::default(),
        // Every other checker is a program of its own: no flags say it. Named one by one so
        // that a new checker kind is decided here, not exported as the default validator.
        Checker::Lines
        | Checker::UnorderedBlocks
        | Checker::Command { .. }
        | Checker::Package(_) => return None,
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

/// Where a stored submission goes: the folder, for verdicts the format has one for, and the
/// DOMjudge `@EXPECTED_RESULTS@:` list written into its source when the folder alone would
/// make the tools disagree.
fn kattis_folder(verdict: Verdict) -> Option<(&'static str, Option<&'static str>)> {
    match verdict {
        Verdict::Accepted => Some(("accepted", None)),
        Verdict::WrongAnswer => Some(("wrong_answer", None)),
        Verdict::TimeLimitExceeded => Some(("time_limit_exceeded", None)),
        // The format has no MLE: problemtools' address-space limit makes the allocation fail
        // (a crash) and DOMjudge reports it as a run-time error (its `memory-limit` result is
        // "not in use internally": etc/judgehost-static.php.in line 33 at 8.3.2, 32 at
        // 9.0.0), as the harness reading the package back takes it.
        Verdict::RuntimeError | Verdict::MemoryLimitExceeded => Some(("run_time_error", None)),
        // Nor OLE. A judge stops a program at the output limit: problemtools through the
        // host's file-size limit (`ulimit -f`; SIGXFSZ kills the program, a run-time error),
        // the harness and DOMjudge with a verdict of their own (OLE, OUTPUT-LIMIT). The folder
        // says the first. DOMjudge 8.3/9.0 take a source's `@EXPECTED_RESULTS@` list only
        // when it leaves out the folder's verdict (ImportProblemService.php 8.3.2 lines
        // 730-745: a list with RUN-ERROR in it is cut to RUN-ERROR), so the list names
        // OUTPUT-LIMIT alone; DOMjudge says at import that it differs from the folder.
        Verdict::OutputLimitExceeded => Some(("run_time_error", Some("OUTPUT-LIMIT"))),
        Verdict::CompileError | Verdict::JudgeError => None,
    }
}

/// `source` with a `@EXPECTED_RESULTS@: LIST` comment as its first line (after a `#!` line),
/// in the comment syntax of its language; `None` for a language whose comments it does not
/// know.
fn with_expected_results(name: &str, source: &[u8], list: &str) -> Option<Vec<u8>> {
    with_comment(name, source, &format!("@EXPECTED_RESULTS@: {list}"))
}

/// `source` with the one-line comment `text` first (after a `#!` line); `None` for a
/// language whose comments it does not know.
fn with_comment(name: &str, source: &[u8], text: &str) -> Option<Vec<u8>> {
    let extension = Path::new(name).extension()?.to_str()?;
    let comment = match extension {
        "c" | "cc" | "cpp" | "cxx" | "c++" | "C" | "h" | "hpp" | "rs" | "java" | "kt" | "go"
        | "js" | "cs" | "scala" | "swift" => format!("// {text}\n"),
        "py" | "py2" | "py3" | "rb" | "pl" | "sh" => format!("# {text}\n"),
        _ => return None,
    };
    let at = if source.starts_with(b"#!") {
        source
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |i| i + 1)
    } else {
        0
    };
    let mut out = source[..at].to_vec();
    if at == source.len() && !source.is_empty() && !source.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.extend_from_slice(comment.as_bytes());
    out.extend_from_slice(&source[at..]);
    Some(out)
}

/// The output validator the package carries, before it has a place.
enum Validator {
    /// A Python validator, `validate.py`: one of the exporter's own, or a testlib-protocol
    /// Python checker inside the wrapper that answers Kattis' way.
    Python(std::borrow::Cow<'static, str>),
    /// The interactor's source, with its file name.
    Interactor(PathBuf),
}

/// What problem.yaml says beside the problem's own limits.
#[derive(Debug, Clone, Default)]
struct Shape {
    interactive: bool,
    /// A scoring problem (`type: scoring`).
    scoring: bool,
    /// An output validator (or interactor) is carried.
    custom: bool,
    flags: Vec<String>,
    /// `ac_to_time_limit` (legacy `time_multiplier`) when it is not the format's 2.
    ac_to_time_limit: Option<f64>,
}

/// problem.yaml for `dialect`.
fn problem_yaml(problem: &Problem, dialect: Dialect, shape: &Shape) -> String {
    let Shape {
        interactive,
        scoring,
        custom,
        ref flags,
        ac_to_time_limit,
    } = *shape;
    // Writing to a String cannot fail.
    let mut yaml = String::new();
    match dialect {
        Dialect::Kattis => {
            yaml.push_str(
                "# Exported by harness (`harness export`) from judge.toml, for problemtools.\n",
            );
            yaml.push_str("problem_format_version: 2023-07-draft\n");
            let _ = writeln!(yaml, "name:\n  en: {}", yaml_string(&problem.title));
        }
        Dialect::Domjudge => {
            yaml.push_str("# Exported by harness (`harness export --for domjudge`) from judge.toml: the legacy\n# format, with the keys DOMjudge 8.3 and 9.0 read (the time limit is in .timelimit).\n");
            let _ = writeln!(yaml, "name: {}", yaml_string(&problem.title));
        }
    }
    let _ = writeln!(yaml, "uuid: {}", uuid(&problem.name));
    match dialect {
        // One string, not a list: DOMjudge 9.0 splits `type` on spaces (a list breaks its
        // import), and problemtools takes either.
        Dialect::Kattis => {
            let kind = match (interactive, scoring) {
                (true, true) => "interactive scoring",
                (true, false) => "interactive",
                (false, true) => "scoring",
                (false, false) => "pass-fail",
            };
            let _ = writeln!(yaml, "type: {kind}");
        }
        Dialect::Domjudge => {
            // Legacy's own key, as problemtools and DOMjudge 10 read it.
            if scoring {
                yaml.push_str("type: scoring\n");
            }
            if custom {
                let validation = if interactive {
                    "custom interactive"
                } else {
                    "custom"
                };
                let _ = writeln!(yaml, "validation: {validation}");
            }
            if !flags.is_empty() {
                let _ = writeln!(yaml, "validator_flags: {}", yaml_string(&flags.join(" ")));
            }
        }
    }
    let source = format!("{} (harness)", problem.name);
    let _ = writeln!(yaml, "source: {}", yaml_string(&source));
    yaml.push_str("license: unknown\n");
    let owner = yaml_string("the authors of this problem set");
    let _ = writeln!(yaml, "rights_owner: {owner}");
    write_limits(&mut yaml, problem, dialect, ac_to_time_limit);
    yaml
}

/// problem.yaml's `limits`.
fn write_limits(
    yaml: &mut String,
    problem: &Problem,
    dialect: Dialect,
    ac_to_time_limit: Option<f64>,
) {
    yaml.push_str("limits:\n");
    match dialect {
        Dialect::Kattis => {
            let _ = writeln!(yaml, "  time_limit: {}", seconds(problem.time_limit));
            if let Some(multiplier) = ac_to_time_limit {
                let _ = writeln!(
                    yaml,
                    "  time_multipliers:\n    ac_to_time_limit: {multiplier:?}"
                );
            }
        }
        // Legacy has no fixed limit (DOMjudge reads .timelimit); its multipliers are the
        // 2023-07 defaults, as `bt zip --legacy` writes them, so that problemtools computes
        // its limit by the same rule the default dialect is checked against.
        Dialect::Domjudge => {
            let multiplier = ac_to_time_limit.unwrap_or(timing::AC_TO_TIME_LIMIT);
            let _ = writeln!(yaml, "  time_multiplier: {multiplier:?}");
            let _ = writeln!(
                yaml,
                "  time_safety_margin: {:?}",
                timing::TIME_LIMIT_TO_TLE
            );
        }
    }
    let _ = writeln!(yaml, "  memory: {}", problem.memory_limit.div_ceil(MIB));
    let _ = writeln!(
        yaml,
        "  output: {}",
        problem.output_limit.div_ceil(MIB).max(1)
    );
}

/// Builds the package's files for `problem`.
fn package_files(
    config: &Config,
    problem: &Problem,
    submissions: &Path,
    dialect: Dialect,
) -> Result<(Files, Shape, Vec<String>, Vec<String>), ExportError> {
    refuse_task_type(problem)?;
    let mut package = Package {
        files: Files {
            entries: Vec::new(),
        },
        notes: Vec::new(),
        warnings: Vec::new(),
    };

    let (validator, flags) = output_validator_of(config, problem)?;

    // A scored problem's cases go into the folders of its groups.
    let cases = discover::discover(&problem.cases)?;
    let layout = scoring::layout(problem, &cases).map_err(|why| ExportError::Scoring {
        problem: problem.name.clone(),
        why,
    })?;
    if layout.is_some() && dialect == Dialect::Domjudge {
        package.warnings.push(
            "DOMjudge 8.3 and 9.0 judge a scoring problem pass-fail (DOMjudge 10 reads the scoring keys of testdata.yaml and `@EXPECTED_SCORE@`)"
                .to_string(),
        );
    }

    let shape = Shape {
        interactive: matches!(validator, Some(Validator::Interactor(_))),
        scoring: layout.is_some(),
        custom: validator.is_some(),
        flags: flags.clone(),
        ac_to_time_limit: None,
    };
    package
        .files
        .add("problem.yaml", problem_yaml(problem, dialect, &shape));
    // DOMjudge 8.3 and 9.0 take the limit from here; problemtools allows the file at the
    // root (problemtools/checks/problem_package.py) and reads problem.yaml's.
    package
        .files
        .add(".timelimit", format!("{}\n", seconds(problem.time_limit)));

    let mut testdata = default_validator_testdata(&flags, dialect, &mut package.warnings);
    add_output_validator(&mut package, validator.as_ref(), dialect)?;
    add_graders(&mut package, problem, dialect)?;
    add_cases(&mut package, &cases, layout.as_ref())?;
    add_statement(&mut package, config, problem, dialect)?;
    add_input_validator(&mut package, &mut testdata, config, problem)?;
    add_testdata(&mut package, testdata, layout.as_ref());
    add_submissions(
        &mut package,
        problem,
        &submissions.join(&problem.name),
        layout.is_some().then_some(dialect),
    )?;
    Ok((package.files, shape, package.notes, package.warnings))
}

/// A task type the package format cannot hold is refused, not exported as a batch problem:
/// an output-only problem's answers would be read as programs, a communication task's empty
/// answers would fail every submission.
fn refuse_task_type(problem: &Problem) -> Result<(), ExportError> {
    if problem.output_only {
        return Err(ExportError::OutputOnly {
            problem: problem.name.clone(),
        });
    }
    if let Some(communication) = &problem.communication {
        return Err(ExportError::Communication {
            problem: problem.name.clone(),
            processes: communication.processes,
        });
    }
    if problem.two_steps {
        return Err(ExportError::TwoSteps {
            problem: problem.name.clone(),
        });
    }
    Ok(())
}

/// `data/testdata.yaml` (the root's keys, with a scored problem's top group's) and each
/// group folder's own.
fn add_testdata(
    package: &mut Package,
    mut testdata: Vec<String>,
    layout: Option<&scoring::Layout>,
) {
    for (folder, keys) in layout.iter().flat_map(|layout| &layout.testdata) {
        if folder.is_empty() {
            testdata.push(keys.clone());
        } else {
            package
                .files
                .add(format!("data/{folder}/testdata.yaml"), keys.clone());
        }
    }
    if !testdata.is_empty() {
        package.files.add("data/testdata.yaml", testdata.concat());
    }
}

/// The bytes of a file the package carries.
fn read(path: &Path) -> Result<Vec<u8>, ExportError> {
    std::fs::read(path).map_err(|source| ExportError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The problem's output validator the package carries, if any, and the default validator's
/// flags otherwise (empty for its plain token comparison).
fn output_validator_of(
    config: &Config,
    problem: &Problem,
) -> Result<(Option<Validator>, Vec<String>), ExportError> {
    // An interactive problem's output validator is its interactor, carried as source.
    let interactor =
        match &problem.interactor {
            Some(interactor) => Some(carried_interactor(config, interactor).map_err(|why| {
                ExportError::Interactor {
                    problem: problem.name.clone(),
                    why,
                }
            })?),
            None => None,
        };
    // The checker (an interactive problem has none: the interactor judges).
    let flags = if interactor.is_some() {
        None
    } else {
        default_validator_flags(&problem.checker)
    };
    let validator = match (&problem.checker, &flags) {
        _ if interactor.is_some() => interactor.map(Validator::Interactor),
        (Checker::Lines, None) => Some(Validator::Python(LINES_VALIDATOR.into())),
        (Checker::UnorderedBlocks, None) => {
            Some(Validator::Python(UNORDERED_BLOCKS_VALIDATOR.into()))
        }
        (Checker::Command { program, args, .. }, None) => match script_of(program, args) {
            // The checker's own arguments go before the three files.
            (source, args) if carried_checker(source) => Some(Validator::Python(
                checker_wrapper(
                    &crate::package::file_name(source),
                    &String::from_utf8_lossy(&read(source)?),
                    args,
                )
                .into(),
            )),
            _ => {
                return Err(ExportError::CommandChecker {
                    problem: problem.name.clone(),
                    program: program.clone(),
                })
            }
        },
        (Checker::Package(_), None) => {
            return Err(ExportError::CommandChecker {
                problem: problem.name.clone(),
                program: PathBuf::from("(a package's own validator)"),
            })
        }
        // Flags say it: the default validator. Named one by one so that a new checker kind
        // is decided here, not exported silently as the default validator.
        (
            Checker::Tokens
            | Checker::TokensIgnoreCase
            | Checker::Exact
            | Checker::Float { .. }
            | Checker::Lines
            | Checker::UnorderedBlocks
            | Checker::Command { .. }
            | Checker::Package(_),
            Some(_),
        )
        | (
            Checker::Tokens | Checker::TokensIgnoreCase | Checker::Exact | Checker::Float { .. },
            None,
        ) => None,
    };
    Ok((validator, flags.unwrap_or_default()))
}

/// The lines of data/testdata.yaml that carry the default validator's flags.
fn default_validator_testdata(
    flags: &[String],
    dialect: Dialect,
    warnings: &mut Vec<String>,
) -> Vec<String> {
    // Flags go in data/testdata.yaml as space-separated strings: the keys problemtools
    // reads (it does not read 2025-09's test_group.yaml and its lists yet). DOMjudge reads
    // the output validator's only from problem.yaml's `validator_flags`.
    let mut testdata = Vec::new();
    if !flags.is_empty() {
        match dialect {
            Dialect::Kattis => {
                testdata.push(format!(
                    "output_validator_flags: {}\n",
                    yaml_string(&flags.join(" "))
                ));
                warnings.push(format!(
                    "DOMjudge 8.3 and 9.0 read the default validator's flags only from problem.yaml's `validator_flags`, which this format forbids: they would compare without `{}` (hint: `--for domjudge` writes DOMjudge's dialect)",
                    flags.join(" ")
                ));
            }
            // problem.yaml says it, for DOMjudge and legacy problemtools alike.
            Dialect::Domjudge => {}
        }
    }
    testdata
}

/// The output validator's (or interactor's) source, in the folder `dialect` reads it from.
fn add_output_validator(
    package: &mut Package,
    validator: Option<&Validator>,
    dialect: Dialect,
) -> Result<(), ExportError> {
    let Package {
        files, warnings, ..
    } = package;
    let validator_folder = match (dialect, validator) {
        (Dialect::Kattis, _) => "output_validator".to_string(),
        (Dialect::Domjudge, Some(Validator::Interactor(_))) => {
            "output_validators/interactor".to_string()
        }
        (Dialect::Domjudge, _) => "output_validators/validate".to_string(),
    };
    match validator {
        Some(Validator::Python(text)) => files.entries.push((
            format!("{validator_folder}/validate.py"),
            text.as_bytes().to_vec(),
            true,
        )),
        Some(Validator::Interactor(source)) => files.entries.push((
            format!("{validator_folder}/{}", crate::package::file_name(source)),
            read(source)?,
            false,
        )),
        None => {}
    }
    if validator.is_some() && dialect == Dialect::Kattis {
        warnings.push(
            "DOMjudge 8.3 finds an output validator only in `output_validators/` with `validation: custom` in problem.yaml, which this format forbids (9.0 reads `output_validator/`; hint: `--for domjudge` writes both DOMjudge's way)"
                .to_string(),
        );
    }
    Ok(())
}

/// judge.toml's graders: the package's `include/`, which problemtools copies onto each
/// submission and compiles with it (`{files}`).
fn add_graders(
    package: &mut Package,
    problem: &Problem,
    dialect: Dialect,
) -> Result<(), ExportError> {
    let Package {
        files, warnings, ..
    } = package;
    if problem.graders.is_empty() {
        return Ok(());
    }
    if dialect == Dialect::Domjudge {
        warnings.push(
            "DOMjudge compiles a submission's own files only: it has no `include/`, so a submission that is a function has no `main` there".to_string(),
        );
    }
    for path in &problem.graders.files {
        files.add(
            format!("include/default/{}", crate::package::file_name(path)),
            read(path)?,
        );
    }
    for (code, path) in &problem.graders.sources {
        files.add(
            format!("include/{code}/{}", grader_name(code, path)),
            read(path)?,
        );
    }
    Ok(())
}

/// The cases: samples are the cases named `sample…`; a scored problem's in its groups.
fn add_cases(
    package: &mut Package,
    cases: &[discover::Case],
    layout: Option<&scoring::Layout>,
) -> Result<(), ExportError> {
    let Package { files, notes, .. } = package;
    for case in cases {
        let flat = case.name.replace('/', "-");
        let group = if flat.starts_with("sample") {
            "sample"
        } else {
            "secret"
        };
        let own = [format!("{group}/{flat}")];
        let places = match layout {
            Some(layout) => layout
                .places
                .iter()
                .find(|(name, _)| *name == case.name)
                .map_or(&own[..], |(_, places)| &places[..]),
            None => &own[..],
        };
        let (input, answer) = (read(&case.input)?, read(&case.answer)?);
        for place in places {
            files.add(format!("data/{place}.in"), input.clone());
            files.add(format!("data/{place}.ans"), answer.clone());
        }
    }
    if !cases.iter().any(|c| c.name.starts_with("sample")) {
        notes.push("no case is named `sample…`: every case went to data/secret".to_string());
    }
    Ok(())
}

/// The statement, where the project keeps it: the format's Markdown, and a form DOMjudge
/// shows.
fn add_statement(
    package: &mut Package,
    config: &Config,
    problem: &Problem,
    dialect: Dialect,
) -> Result<(), ExportError> {
    let Package { files, notes, .. } = package;
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
    let Some(path) = statement else {
        notes.push(format!(
            "no statement: none at `docs/problems/{}.md`",
            problem.name
        ));
        return Ok(());
    };
    let markdown = read(&path)?;
    let shown = statement::shown(&markdown, &problem.title);
    let folder = match dialect {
        Dialect::Kattis => {
            files.add("statement/problem.en.md", markdown.clone());
            ""
        }
        Dialect::Domjudge => {
            files.add(
                "problem_statement/problem.en.tex",
                statement::latex(&markdown, &problem.title),
            );
            "problem_statement/"
        }
    };
    files.add(format!("{folder}problem.{}", shown.extension), shown.bytes);
    if let Some(why) = shown.fallback {
        notes.push(format!(
            "the statement DOMjudge shows is the Markdown as text ({folder}problem.txt): {why}"
        ));
    }
    Ok(())
}

/// The input validator, when the package can carry its source; its flags go to `testdata`.
fn add_input_validator(
    package: &mut Package,
    testdata: &mut Vec<String>,
    config: &Config,
    problem: &Problem,
) -> Result<(), ExportError> {
    let Package { files, notes, .. } = package;
    let Some(command) = &problem.validator else {
        notes.push("no input validator in judge.toml".to_string());
        return Ok(());
    };
    match carried_validator(config, problem, command) {
        Ok(Carried::Kattis { source, args }) => {
            let name = crate::package::file_name(&source);
            let stem = source
                .file_stem()
                .map_or_else(|| "validate".into(), |s| s.to_string_lossy().into_owned());
            files.entries.push((
                format!("input_validators/{stem}/{name}"),
                read(&source)?,
                false,
            ));
            if !args.is_empty() {
                testdata.push(format!(
                    "input_validator_flags: {}\n",
                    yaml_string(&args.join(" "))
                ));
            }
        }
        Ok(Carried::Wrapped { source, args }) => {
            // One file, the project's validator inside its wrapper: problemtools builds
            // a folder of several Python files less reliably than one.
            let text = String::from_utf8_lossy(&read(&source)?).into_owned();
            let name = crate::package::file_name(&source);
            files.entries.push((
                "input_validators/validate/validate.py".to_string(),
                validator_wrapper(&name, &text, &args).into_bytes(),
                true,
            ));
        }
        Err(why) => notes.push(format!(
            "input validator not exported: `{}` {why} (DOMjudge does not need one; problemtools' verifyproblem will ask for it)",
            command.join(" ")
        )),
    }
    Ok(())
}

/// A sorted listing of `folder`, as an export error.
fn entries_of(folder: &Path) -> Result<Vec<PathBuf>, ExportError> {
    crate::package::sorted_entries(folder).map_err(|e| ExportError::Read {
        path: folder.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    })
}

/// The folders whose verdict a scored package's grader cannot say: the package's
/// `secret/` is `accept_if_any_accepted` (problemtools wants a submission that scores
/// partially to be AC), so a `wrong_answer/` submission right on some cases is graded AC.
/// judge.toml's verdict is its first failure, which the 2025-09 rules of these folders say
/// over the cases (permitted AC or the folder's verdict, required the folder's verdict).
const CASE_RULE_FOLDERS: [(&str, &str); 3] = [
    ("wrong_answer", "WA"),
    ("time_limit_exceeded", "TLE"),
    ("run_time_error", "RTE"),
];

/// `submissions/submissions.yaml` of a scored package: the case rules of the failing folders
/// that hold submissions (`used`), so that a reader checks the cases, not the graded
/// verdict. `None` when no such folder is used.
fn case_rules_yaml(used: &[&str]) -> Option<String> {
    let mut yaml = String::new();
    for (folder, code) in CASE_RULE_FOLDERS {
        if used.contains(&folder) {
            yaml.push_str(&format!(
                "{folder}:\n  permitted: [AC, {code}]\n  required: [{code}]\n"
            ));
        }
    }
    (!yaml.is_empty()).then(|| {
        format!(
            "# Exported by harness: each folder's verdict is a case's, whatever the score.\n{yaml}"
        )
    })
}

/// The stored submissions in `folder`, one folder per verdict, under the package's folders.
/// `scored`: the problem is scored, and the dialect it is written in.
fn add_submissions(
    package: &mut Package,
    problem: &Problem,
    folder: &Path,
    scored: Option<Dialect>,
) -> Result<(), ExportError> {
    if !folder.is_dir() {
        return Ok(());
    }
    let mut used: Vec<&str> = Vec::new();
    for verdict_dir in entries_of(folder)? {
        let verdict_name = crate::package::file_name(&verdict_dir);
        let Some((target, expected)) = target_folder(&mut package.notes, &verdict_name, scored)
        else {
            continue;
        };
        let folder = Stored {
            dir: &verdict_dir,
            verdict_name: &verdict_name,
            target,
            expected,
        };
        if add_folder(package, problem, &folder, scored.is_some())? && !used.contains(&target) {
            used.push(target);
        }
    }
    close_submissions(package, &used, scored);
    Ok(())
}

/// A folder of stored submissions on its way into the package: where it goes, and the
/// `@EXPECTED_RESULTS@` its sources carry there, if any.
struct Stored<'a> {
    dir: &'a Path,
    verdict_name: &'a str,
    target: &'static str,
    expected: Option<&'static str>,
}

/// The package's folder for judge.toml's `verdict_name/` (and the expected results its
/// sources must say), or none, with a note saying why.
fn target_folder(
    notes: &mut Vec<String>,
    verdict_name: &str,
    scored: Option<Dialect>,
) -> Option<(&'static str, Option<&'static str>)> {
    let folder = if verdict_name == "partially_accepted" {
        if scored.is_none() {
            notes.push(format!(
                "`{verdict_name}` submissions not exported: the problem is pass-fail"
            ));
            return None;
        }
        Some(("partially_accepted", None))
    } else {
        kattis_folder(Verdict::from_dir_name(verdict_name)?)
    };
    let Some((target, expected)) = folder else {
        notes.push(format!(
            "`{verdict_name}` submissions not exported: the format has no folder for them"
        ));
        return None;
    };
    if let Some(list) = expected {
        notes.push(format!(
            "`{verdict_name}` submissions went to `{target}` with `@EXPECTED_RESULTS@: {list}` in their source: problemtools has no OLE (the host's file-size limit kills the program), DOMjudge says OUTPUT-LIMIT, and at import it says the comment differs from the folder"
        ));
    }
    Some((target, expected))
}

/// Each source of one folder of stored submissions, with its expected score (a scored
/// problem) or results (a folder the format names by them); whether it held any.
fn add_folder(
    package: &mut Package,
    problem: &Problem,
    folder: &Stored<'_>,
    scored: bool,
) -> Result<bool, ExportError> {
    let Package { files, notes, .. } = package;
    let (verdict_name, target) = (folder.verdict_name, folder.target);
    let sources: Vec<PathBuf> = entries_of(folder.dir)?
        .into_iter()
        .filter(|p| p.is_file())
        .collect();
    for source in &sources {
        let name = crate::package::file_name(source);
        let mut path = format!("submissions/{target}/{name}");
        if files.entries.iter().any(|(p, _, _)| *p == path) {
            path = format!("submissions/{target}/{verdict_name}-{name}");
        }
        let mut bytes = read(source)?;
        if scored {
            bytes = with_expected_score(notes, problem, verdict_name, &name, bytes);
        }
        match folder.expected {
            None => files.add(path, bytes),
            Some(list) => match with_expected_results(&name, &bytes, list) {
                Some(annotated) => files.add(path, annotated),
                None => notes.push(format!(
                    "`{verdict_name}/{name}` not exported: the harness does not know how to write a `@EXPECTED_RESULTS@` comment in its language"
                )),
            },
        }
    }
    Ok(!sources.is_empty())
}

/// After the folders: a scored 2023-07-draft package's submissions.yaml with the case rules of
/// the failing folders used; in legacy, which has none, a note on how they read back.
fn close_submissions(package: &mut Package, used: &[&str], scored: Option<Dialect>) {
    match scored {
        // 2023-07-draft is 2025-09, whose submissions.yaml problemtools does not read (it
        // judges the folders alone) and the harness does.
        Some(Dialect::Kattis) => {
            if let Some(yaml) = case_rules_yaml(used) {
                package.files.add("submissions/submissions.yaml", yaml);
            }
        }
        // Legacy has no submissions.yaml: the graded verdict is the folder's.
        Some(Dialect::Domjudge)
            if used
                .iter()
                .any(|u| CASE_RULE_FOLDERS.iter().any(|(f, _)| f == u)) =>
        {
            package.notes.push(
                "the `wrong_answer`, `time_limit_exceeded` and `run_time_error` submissions are checked by their graded verdict in legacy, which is AC for one that scores on some group (problemtools wants a partial score to be AC): one that does belongs in `partially_accepted/`".to_string(),
            );
        }
        Some(Dialect::Domjudge) | None => {}
    }
}

/// A submission's source with the expected score judge.toml states, written where DOMjudge
/// and the harness read one in a package: the source's `@EXPECTED_SCORE@`.
fn with_expected_score(
    notes: &mut Vec<String>,
    problem: &Problem,
    verdict_name: &str,
    name: &str,
    bytes: Vec<u8>,
) -> Vec<u8> {
    let key = format!("{verdict_name}/{name}");
    let stated = problem.expected_scores.iter().find(|(p, _)| *p == key);
    let annotated = crate::score::expected_score_annotation(&String::from_utf8_lossy(&bytes))
        .is_ok_and(|a| a.is_some());
    match stated {
        Some((_, crate::score::ExpectedScore::Exactly(score))) if !annotated => {
            let text = format!("@EXPECTED_SCORE@: {}", crate::score::format_score(*score));
            match with_comment(name, &bytes, &text) {
                Some(with) => return with,
                None => notes.push(format!(
                    "`{key}`: its expected score {} not written into it: the harness does not know how to write a comment in its language",
                    crate::score::format_score(*score)
                )),
            }
        }
        Some((_, range @ crate::score::ExpectedScore::Between(..))) => notes.push(format!(
            "`{key}`: its expected score {range} not written into it: `@EXPECTED_SCORE@` says one score, not a range"
        )),
        // Said in the source already, or not stated: nothing to write.
        Some((_, crate::score::ExpectedScore::Exactly(_))) | None => {}
    }
    bytes
}

/// An input validator as the package carries it.
enum Carried {
    /// A source that answers with Kattis' exit codes (`validator-protocol = "kattis"`),
    /// copied as it is; its arguments become `input_validator_flags`.
    Kattis { source: PathBuf, args: Vec<String> },
    /// A Python source that answers 0 for valid, carried inside a wrapper that answers 42.
    Wrapped { source: PathBuf, args: Vec<String> },
}

/// Extensions of the languages problemtools and DOMjudge build validators in, with no build
/// script: the file alone is a program there.
const CARRIED_EXTENSIONS: &[&str] = &[
    "c", "cc", "cpp", "cxx", "c++", "C", "rs", "py", "java", "kt", "go", "js",
];

/// How judge.toml's validator `command` goes into the package, or why it cannot.
fn carried_validator(
    config: &Config,
    problem: &Problem,
    command: &[String],
) -> Result<Carried, String> {
    let (program, args) = command.split_first().ok_or("is empty")?;
    let (source, args) = script_of(Path::new(program), args);
    let path = config.root.join(source);
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    if !path.is_file() || !CARRIED_EXTENSIONS.contains(&extension) {
        return Err("is a program, not a source file the package could carry".to_string());
    }
    let args = args.to_vec();
    match (problem.validator_protocol, extension) {
        (ValidatorProtocol::Kattis, _) => {
            if let Some(arg) = args
                .iter()
                .find(|a| a.is_empty() || a.contains(char::is_whitespace))
            {
                return Err(format!(
                    "has the argument `{arg}`, which `input_validator_flags` (split at spaces) cannot carry"
                ));
            }
            Ok(Carried::Kattis { source: path, args })
        }
        (ValidatorProtocol::Testlib, "py") => Ok(Carried::Wrapped { source: path, args }),
        (ValidatorProtocol::Testlib, _) => Err(
            "answers 0 for a valid input, and only a Python one can be wrapped to answer Kattis' 42 (hint: make it exit 42 and 43, and set validator-protocol = \"kattis\")".to_string(),
        ),
    }
}

/// Whether `program` is `python3` running a script.
fn is_python(program: &Path) -> bool {
    program
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("python3"))
}

/// The source a command runs and its own arguments: `["python3", "x.py", args…]` runs the
/// script `x.py` with `args`, any other command its program.
fn script_of<'a>(program: &'a Path, args: &'a [String]) -> (&'a Path, &'a [String]) {
    match args.split_first() {
        Some((script, rest)) if is_python(program) && script.ends_with(".py") => {
            (Path::new(script), rest)
        }
        _ => (program, args),
    }
}

/// Whether a `command` checker's source (`checkers/x.py`, or `python3 checkers/x.py`) is the
/// one kind the package can carry, a Python file: wrapped, it answers Kattis' way. Any other
/// (a built program, a C++ source) has exit codes no wrapper can take over.
fn carried_checker(source: &Path) -> bool {
    source.extension().is_some_and(|e| e == "py") && source.is_file()
}

/// A Kattis output validator (`validate INPUT ANSWER FEEDBACK_DIR < OUTPUT`: 42 accepted, 43
/// wrong, anything else a judge error) that runs the project's testlib-protocol checker
/// (`checker INPUT OUTPUT ANSWER`: 0, 1 or 2, and 3 for its own failure), carried inside as
/// text. A checker that fails, or crashes, stays a judge error where the package is judged:
/// the day's board reads the same there.
fn checker_wrapper(name: &str, source: &str, args: &[String]) -> String {
    let args: Vec<String> = args.iter().map(|a| yaml_string(a)).collect();
    // A JSON string is a valid Python string literal.
    format!(
        r#"#!/usr/bin/env python3
# Written by `harness export`: runs the project's checker {name} (testlib's exit codes: 0
# accepted, 1 wrong, 2 presentation error, 3 the checker failed), carried below as text, as
# a Kattis output validator: exit 42 accepted, 43 wrong, and a failed or crashed checker
# anything else, which the judge reads as its own error, never the team's.
import io
import os
import sys
import tempfile
import traceback

SOURCE = {source}

input_file, answer_file, feedback_dir = sys.argv[1:4]
with tempfile.NamedTemporaryFile(prefix="output-", delete=False) as output:
    output.write(sys.stdin.buffer.read())
sys.argv = [{name_literal}] + [{args}] + [input_file, output.name, answer_file]
said, stderr = io.StringIO(), sys.stderr
sys.stderr = said
try:
    exec(compile(SOURCE, {name_literal}, "exec"), {{"__name__": "__main__"}})
    code = 0
except SystemExit as stop:
    if isinstance(stop.code, str):
        print(stop.code, file=said)
        code = 1
    else:
        code = stop.code or 0
except Exception:
    traceback.print_exc(file=said)
    code = "crashed"
sys.stderr = stderr
os.unlink(output.name)
with open(os.path.join(feedback_dir, "judgemessage.txt"), "a") as message:
    message.write(said.getvalue())
stderr.write(said.getvalue())
sys.stdout.flush()
stderr.flush()
os._exit({{0: 42, 1: 43, 2: 43}}.get(code, 1))
"#,
        source = yaml_string(source),
        name_literal = yaml_string(name),
        args = args.join(", ")
    )
}

/// The source of a Kattis-protocol interactor the package can carry (the format's interactor
/// is its output validator: `interactor INPUT ANSWER FEEDBACK_DIR/`, 42 or 43), or why not.
fn carried_interactor(
    config: &Config,
    interactor: &crate::config::Interactor,
) -> Result<PathBuf, String> {
    if interactor.protocol != InteractorProtocol::Kattis {
        return Err(
            "speaks testlib's protocol, which the package format's tools do not (hint: a Kattis-protocol interactor — exit 42 or 43, the reason in FEEDBACK_DIR/judgemessage.txt — with interactor-protocol = \"kattis\" can be exported)"
                .to_string(),
        );
    }
    let source = match &interactor.program {
        InteractorProgram::Source(path) => config.root.join(path),
        InteractorProgram::Command { program, args } => match args.as_slice() {
            [script] if is_python(program) && script.ends_with(".py") => config.root.join(script),
            [] => config.root.join(program),
            _ => {
                return Err(format!(
                    "is the command `{} {}`, whose arguments a package cannot carry",
                    program.display(),
                    args.join(" ")
                ))
            }
        },
        InteractorProgram::Package(program) => {
            return Err(format!(
                "is `{}` of a package, built: export the package itself",
                program.name
            ))
        }
    };
    let extension = source
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    if matches!(interactor.program, InteractorProgram::Source(_)) && !source.exists() {
        return Err(format!("`{}` does not exist", source.display()));
    }
    if !source.is_file() || !CARRIED_EXTENSIONS.contains(&extension) {
        return Err(format!(
            "`{}` is a program, not a source file the package could carry (hint: name its source in judge.toml: `interactor = \"interactor.py\"`)",
            source.display()
        ));
    }
    Ok(source)
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

/// The name a grader has in `include/<code>/`: its own for C and C++, whose every file is
/// compiled together, and `main.<ext>` elsewhere, which problemtools runs instead of the
/// submission's own file (its `{mainfile}`).
fn grader_name(code: &str, path: &Path) -> String {
    match (code, path.extension().and_then(|e| e.to_str())) {
        ("c" | "cpp", _) | (_, None) => crate::package::file_name(path),
        (_, Some(extension)) => format!("main.{extension}"),
    }
}

/// The package's short name for a problem id: its lowercase letters and digits, as
/// problemtools wants the folder named (`^[a-z0-9]+$`) and DOMjudge takes the zip's name.
/// `queens-boards` becomes `queensboards`.
pub fn short_name(id: &str) -> String {
    let short: String = id
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if short.is_empty() {
        "problem".to_string()
    } else {
        short
    }
}

/// Whether `out`'s name (a folder's, or a zip's without `.zip`) is a valid short name.
fn named_as_short_name(out: &Path, zip: bool) -> Option<String> {
    let name = if zip {
        out.file_stem()
    } else {
        out.file_name()
    }?
    .to_str()?;
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    (!valid).then(|| name.to_string())
}

/// Exports `problem` to `out`: a folder, or a zip when `out` ends in `.zip`. Never overwrites;
/// nothing is written when it fails.
pub fn export(
    config: &Config,
    problem: &Problem,
    submissions: &Path,
    out: &Path,
    options: &mut Options<'_>,
) -> Result<Exported, ExportError> {
    // Nothing at all may be there, not even a link: an export never writes over or through.
    if !atomic::is_free(out) {
        return Err(ExportError::Exists(out.to_path_buf()));
    }
    let zip = out.extension().is_some_and(|e| e == "zip");
    let (files, mut exported) = prepare(config, problem, submissions, options)?;
    if let Some(name) = named_as_short_name(out, zip) {
        exported.notes.push(format!(
            "`{name}` is not a short name of lowercase letters and digits, which problemtools wants as the package's folder name and DOMjudge takes from the zip's (hint: name it `{}`)",
            short_name(&problem.name)
        ));
    }
    if zip {
        write_zip(out, &files)?;
    } else {
        write_new_folder(out, &files)?;
    }
    Ok(exported)
}

/// The package's files, checked (its time limit measured when `options` ask), not written.
fn prepare(
    config: &Config,
    problem: &Problem,
    submissions: &Path,
    options: &mut Options<'_>,
) -> Result<(Files, Exported), ExportError> {
    let (mut files, mut shape, mut notes, mut warnings) =
        package_files(config, problem, submissions, options.dialect)?;
    let written = files.entries.iter().map(|(p, _, _)| p.clone()).collect();
    if let Some(measure) = options.measure.as_mut() {
        if let Some(check) = measure_time(problem, &files, measure)? {
            judge_time(&check, &mut notes, &mut warnings);
            // The margin judge.toml's limit leaves, written down where the format's default
            // margin does not fit: verifyproblem checks the limit against it.
            if let Some(multiplier) = check.fitting_multiplier() {
                shape.ac_to_time_limit = Some(multiplier);
                let yaml = problem_yaml(problem, options.dialect, &shape);
                if let Some(entry) = files.entries.iter_mut().find(|e| e.0 == "problem.yaml") {
                    entry.1 = yaml.into_bytes();
                }
                warnings.push(format!(
                    "so problem.yaml says `ac_to_time_limit: {multiplier:?}`, the margin judge.toml's limit leaves (with 25% for the noise between one measure and another), which verifyproblem checks the limit against instead; for the format's margin of {:?}, raise `time-limit` to {}",
                    timing::AC_TO_TIME_LIMIT,
                    crate::units::format_duration(check.rule_limit().unwrap_or(check.limit)),
                ));
            }
        }
    }
    Ok((
        files,
        Exported {
            dialect: options.dialect,
            files: written,
            notes,
            warnings,
        },
    ))
}

/// The package written to a folder of its own and its accepted submissions judged there.
fn measure_time(
    problem: &Problem,
    files: &Files,
    measure: &mut Measure<'_>,
) -> Result<Option<timing::TimeCheck>, ExportError> {
    let staging = tempfile::Builder::new()
        .prefix("harness-export-")
        .tempdir()
        .map_err(write_error(&std::env::temp_dir()))?;
    // The folder's name is the package's.
    let dir = staging.path().join(short_name(&problem.name));
    write_folder(&dir, files)?;
    let timing = |source| ExportError::Timing {
        problem: problem.name.clone(),
        source,
    };
    let total = timing::planned_runs(&dir, &measure.languages);
    (measure.progress)(&problem.name, Some(total));
    let progress = &mut *measure.progress;
    timing::check(&dir, measure.languages.clone(), measure.jobs, &mut || {
        progress("", None);
    })
    .map_err(timing)
}

/// What the measured times say, as notes (all is well) and warnings (a tool would judge
/// otherwise).
fn judge_time(check: &timing::TimeCheck, notes: &mut Vec<String>, warnings: &mut Vec<String>) {
    for (name, why) in &check.failed {
        warnings.push(format!(
            "{name} is not accepted in the exported package ({why}): problemtools will say so"
        ));
    }
    for (name, why) in &check.skipped {
        notes.push(format!("{name} was not judged for the time limit: {why}"));
    }
    match check.describe() {
        Some(line) if check.holds_with_room() => notes.push(line),
        Some(line) => warnings.push(line),
        None if check.failed.is_empty() => notes.push(
            "no accepted submission to check the time limit with: problemtools wants one"
                .to_string(),
        ),
        None => {}
    }
}

/// A failure to write `path`.
pub(crate) fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError {
    let path = path.to_path_buf();
    move |source| ExportError::Write { path, source }
}

/// judge.toml's folder's name, as the contest's id and name start from.
pub(crate) fn folder_name(config: &Config) -> Option<String> {
    let root = config.root.canonicalize().ok()?;
    root.file_name().map(|n| n.to_string_lossy().into_owned())
}

/// A folder made beside `out` (named `prefix…`), to be renamed to `out` once written.
pub(crate) fn staging_beside(out: &Path, prefix: &str) -> Result<tempfile::TempDir, ExportError> {
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(write_error(parent))?;
    let staging = tempfile::Builder::new().prefix(prefix).tempdir_in(parent);
    staging.map_err(write_error(parent))
}

fn write_folder(out: &Path, files: &Files) -> Result<(), ExportError> {
    for (relative, bytes, executable) in &files.entries {
        let path = out.join(relative);
        std::fs::create_dir_all(path.parent().expect("a file in the package"))
            .map_err(write_error(&path))?;
        std::fs::write(&path, bytes).map_err(write_error(&path))?;
        if *executable {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .map_err(write_error(&path))?;
        }
    }
    Ok(())
}

/// The package as the folder `out`, which must not exist: written into a folder beside it and
/// renamed into place, so that a failure leaves nothing and a folder made there meanwhile is
/// not written into.
fn write_new_folder(out: &Path, files: &Files) -> Result<(), ExportError> {
    let staging = staging_beside(out, ".harness-export-")?;
    write_folder(staging.path(), files)?;
    place_folder(staging, out)
}

/// Renames the folder `staging` made to `out`, which must not exist.
pub(crate) fn place_folder(staging: tempfile::TempDir, out: &Path) -> Result<(), ExportError> {
    match atomic::rename_folder_new(staging.path(), out) {
        Ok(()) => {
            // Renamed away: there is nothing left for it to remove.
            let _ = staging.keep();
            Ok(())
        }
        Err(error) if error.source.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(ExportError::Exists(out.to_path_buf()))
        }
        Err(error) => Err(ExportError::Write {
            path: error.path,
            source: error.source,
        }),
    }
}

/// The package as the zip `out`, which must not exist: made in memory (its files are there
/// already) and written in one step that replaces nothing.
fn write_zip(out: &Path, files: &Files) -> Result<(), ExportError> {
    let zip_error = |message: String| ExportError::Zip {
        path: out.to_path_buf(),
        message,
    };
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(write_error(parent))?;
    }
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (relative, bytes, executable) in &files.entries {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(if *executable { 0o755 } else { 0o644 });
        zip.start_file(relative.as_str(), options)
            .map_err(|e| zip_error(e.to_string()))?;
        zip.write_all(bytes).map_err(|e| zip_error(e.to_string()))?;
    }
    let bytes = zip
        .finish()
        .map_err(|e| zip_error(e.to_string()))?
        .into_inner();
    match atomic::write_new(out, &bytes) {
        Ok(true) => Ok(()),
        Ok(false) => Err(ExportError::Exists(out.to_path_buf())),
        Err(error) => Err(ExportError::Write {
            path: error.path,
            source: error.source,
        }),
    }
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
        assert_eq!(
            default_validator_flags(&Checker::TokensIgnoreCase),
            Some(Vec::new()),
            "Kattis' default validator is case-insensitive as it is"
        );
        assert_eq!(default_validator_flags(&Checker::UnorderedBlocks), None);
        assert_eq!(default_validator_flags(&Checker::Lines), None);
    }

    #[test]
    fn the_expected_results_comment_goes_first_or_after_the_shebang() {
        let list = "RUN-ERROR, OUTPUT-LIMIT";
        let table: [(&str, &str, Option<&str>); 5] = [
            ("a.cpp", "int main(){}\n", Some("// @EXPECTED_RESULTS@: RUN-ERROR, OUTPUT-LIMIT\nint main(){}\n")),
            ("a.py", "print(1)\n", Some("# @EXPECTED_RESULTS@: RUN-ERROR, OUTPUT-LIMIT\nprint(1)\n")),
            (
                "a.py",
                "#!/usr/bin/env python3\nprint(1)\n",
                Some("#!/usr/bin/env python3\n# @EXPECTED_RESULTS@: RUN-ERROR, OUTPUT-LIMIT\nprint(1)\n"),
            ),
            ("a.py", "#!/usr/bin/python3", Some("#!/usr/bin/python3\n# @EXPECTED_RESULTS@: RUN-ERROR, OUTPUT-LIMIT\n")),
            ("a.bf", "+[.]", None),
        ];
        for (name, source, want) in table {
            let got = with_expected_results(name, source.as_bytes(), list)
                .map(|b| String::from_utf8(b).unwrap());
            assert_eq!(got.as_deref(), want, "{name} {source:?}");
        }
    }

    #[test]
    fn short_names_are_lowercase_letters_and_digits() {
        for (id, short) in [
            ("queens-boards", "queensboards"),
            ("two-n-queens", "twonqueens"),
            ("A_1", "a1"),
            ("---", "problem"),
        ] {
            assert_eq!(short_name(id), short, "{id}");
        }
        let named = |out: &str, zip| named_as_short_name(Path::new(out), zip);
        assert_eq!(named("out/queensboards", false), None);
        assert_eq!(named("queensboards.zip", true), None);
        assert_eq!(
            named("queens-boards.zip", true),
            Some("queens-boards".into())
        );
        assert_eq!(named("out/Queens", false), Some("Queens".into()));
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
