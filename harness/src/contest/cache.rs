//! What each submission got, kept between runs of `harness contest` in the user's cache
//! folder (never in the coach's folders), keyed by a hash of everything that decides it: the
//! source's bytes, its language's commands, the problem's cases and limits, and its checker's
//! and interactor's bytes. A
//! second run judges only what is new or changed; `--rejudge` judges everything again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::compile::Language;
use crate::config::Problem;

/// The cache file's layout; a file of another is read as empty.
const LAYOUT: &str = "harness-contest-1";

/// One case's result, as the event feed's `runs` give it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub case: String,
    /// `AC`, `WA`, … (the judge's codes).
    pub verdict: String,
    pub cpu_ms: u64,
}

/// What judging one submission gave: all the scoreboard, the feed and the debrief need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// `AC`, `WA`, `CE`, `JE`, … (the judge's codes).
    pub verdict: String,
    /// Its score, in a scored problem.
    pub score: Option<f64>,
    /// Its score per subtask (the top groups), in order.
    pub subtasks: Vec<f64>,
    /// The case that decided a verdict other than AC, and why.
    pub failing: Option<(String, String)>,
    pub runs: Vec<Run>,
}

impl Judgement {
    pub fn verdict(&self) -> crate::verdict::Verdict {
        crate::verdict::Verdict::from_code(&self.verdict)
            .unwrap_or(crate::verdict::Verdict::JudgeError)
    }

    pub fn max_cpu_ms(&self) -> u64 {
        self.runs.iter().map(|r| r.cpu_ms).max().unwrap_or(0)
    }
}

/// A problem's part of every key: its cases' bytes, limits, checker and scoring.
pub fn problem_key(
    problem: &Problem,
    cases: &[crate::case::discover::Case],
    scoring: Option<&crate::score::Scoring>,
) -> std::io::Result<String> {
    let mut hash = Sha256::new();
    hash.update(LAYOUT);
    // The rules' tree only: their lookup tables are hash maps, whose order (and so whose
    // `Debug`) changes from run to run, and a key that changes judges everything again.
    hash.update(format!(
        "{:?}|{}|{}|{:?}|{:?}",
        problem.time_limit,
        problem.memory_limit,
        problem.output_limit,
        problem.checker,
        scoring.map(crate::score::Scoring::root)
    ));
    // The bytes of the judge's own programs, whose paths alone say nothing of an edit: an
    // interactor's source is compiled when it runs, and a script runs as it is on disk.
    if let Some(interactor) = &problem.interactor {
        hash.update(format!("{:?}", interactor.protocol));
        let words: Vec<PathBuf> = match &interactor.program {
            crate::config::InteractorProgram::Source(path) => vec![path.clone()],
            crate::config::InteractorProgram::Command { program, args } => {
                std::iter::once(program.clone())
                    .chain(args.iter().map(PathBuf::from))
                    .collect()
            }
            crate::config::InteractorProgram::Package(program) => program_words(program),
        };
        hash_files(&mut hash, &words)?;
        if let Some(checker) = &interactor.checker {
            hash.update(format!("{checker:?}"));
            hash_files(&mut hash, &checker_words(checker))?;
        }
    }
    hash_files(&mut hash, &checker_words(&problem.checker))?;
    for case in cases {
        hash.update(case.name.as_bytes());
        hash.update([0]);
        for file in [&case.input, &case.answer] {
            if file.as_os_str().is_empty() {
                continue;
            }
            hash.update(std::fs::read(file)?);
            hash.update([0]);
        }
        hash.update(case.args.join("\0"));
    }
    Ok(format!("{:x}", hash.finalize()))
}

/// The words of a checker's command that may be files.
fn checker_words(checker: &crate::check::Checker) -> Vec<PathBuf> {
    match checker {
        crate::check::Checker::Command { program, args, .. } => std::iter::once(program.clone())
            .chain(args.iter().map(PathBuf::from))
            .collect(),
        crate::check::Checker::Package(checker) => match &checker.validator {
            crate::check::package::OutputValidator::Custom(program)
            | crate::check::package::OutputValidator::Testlib(program)
            | crate::check::package::OutputValidator::Cms(program) => program_words(program),
            crate::check::package::OutputValidator::Default => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn program_words(program: &crate::check::package::PackageProgram) -> Vec<PathBuf> {
    std::iter::once(program.program.clone())
        .chain(program.args.iter().map(PathBuf::from))
        .collect()
}

/// Each of `words` that names a file, its path and bytes.
fn hash_files(hash: &mut Sha256, words: &[PathBuf]) -> std::io::Result<()> {
    for word in words.iter().filter(|w| w.is_file()) {
        hash.update(word.as_os_str().as_encoded_bytes());
        hash.update([0]);
        hash.update(std::fs::read(word)?);
        hash.update([0]);
    }
    Ok(())
}

/// One submission's key.
pub fn submission_key(problem_key: &str, language: &Language, source: &[u8]) -> String {
    let mut hash = Sha256::new();
    hash.update(problem_key);
    hash.update(format!(
        "{:?}|{:?}|{}",
        language.compile, language.run, language.time_multiplier
    ));
    hash.update(source);
    format!("{:x}", hash.finalize())
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    layout: String,
    judgements: HashMap<String, Judgement>,
}

/// The judgements of one contest day (its contest folder and its submissions folder).
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    known: HashMap<String, Judgement>,
}

impl Store {
    /// The store of `contest` judged with `submissions`, read from `cache_root`; empty when
    /// there is none, or it cannot be read (it is only a cache).
    pub fn open(cache_root: &Path, contest: &Path, submissions: &Path) -> Store {
        let mut hash = Sha256::new();
        for path in [contest, submissions] {
            let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            hash.update(path.as_os_str().as_encoded_bytes());
            hash.update([0]);
        }
        let name = format!("{:x}", hash.finalize());
        let path = cache_root
            .join("contest")
            .join(format!("{}.json", &name[..24]));
        let known = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<File>(&bytes).ok())
            .filter(|file| file.layout == LAYOUT)
            .map(|file| file.judgements)
            .unwrap_or_default();
        Store { path, known }
    }

    pub fn get(&self, key: &str) -> Option<&Judgement> {
        self.known.get(key)
    }

    /// Keeps `judgements` (by key) as the whole store: what this day no longer has is dropped.
    pub fn save(
        &self,
        judgements: HashMap<String, Judgement>,
    ) -> Result<(), crate::atomic::WriteError> {
        let file = File {
            layout: LAYOUT.to_string(),
            judgements,
        };
        if let Some(folder) = self.path.parent() {
            std::fs::create_dir_all(folder).map_err(|source| crate::atomic::WriteError {
                path: folder.to_path_buf(),
                source,
            })?;
        }
        let bytes = serde_json::to_vec(&file).expect("judgements serialise");
        crate::atomic::write(&self.path, &bytes)
    }
}
