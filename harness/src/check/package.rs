//! The output check of a problem package: the default validator with the flags of the case's
//! test group, the package's own output validator spoken to as Kattis does
//! (`validator INPUT ANSWER FEEDBACK_DIR/ [flags] < output`; 42 AC, 43 WA, else judge error),
//! or its testlib checker. A package's programs come from outside the project: each runs in
//! the sandbox like a submission, in a folder of its own ([`RunFolder`]) that holds what it
//! needs (its feedback folder, its own built files); its input and answer are given as
//! private copies, and what it writes there is read back without following links.

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use super::case_files::CaseFiles;
use super::default_validator::{self, Flags};
use crate::sandbox::run::{self, Isolation, Limits, RunRequest, Scope, Stdin, Termination};
use crate::text::one_line;
use crate::tool::{self, Role};
use crate::verdict::Judgement;

/// Kattis' exit code for an accepted output.
pub const EXIT_ACCEPTED: i32 = 42;
/// Kattis' exit code for a wrong answer.
pub const EXIT_WRONG_ANSWER: i32 = 43;

/// Characters of `judgemessage.txt` kept in a reason.
const MESSAGE_CHARS: usize = 300;
/// Bytes of a file a package program wrote that are read back.
pub const MESSAGE_BYTES: usize = 64 * 1024;

/// What a package's validator or checker may use: far more than any submission, since a slow
/// validator is the package's fault, not the contestant's; a hung one is still stopped. Those
/// of judge.toml's validators, with a small output: a validator's is only its reason.
pub const VALIDATOR_LIMITS: Limits = Limits {
    output_bytes: 1 << 20,
    ..tool::LIMITS
};

/// A program of a package, built from its sources (see `package::build`).
#[derive(Debug, Clone, PartialEq)]
pub struct PackageProgram {
    /// What is started: the built binary, an interpreter, or the package's `run` script.
    pub program: PathBuf,
    /// Its arguments before the protocol's (an interpreter's script).
    pub args: Vec<OsString>,
    /// The build folder: its files are given to the program when its command names them.
    pub folder: PathBuf,
    /// Shown in reasons: `output_validators/checker`.
    pub name: String,
    /// How what it leaves in its feedback folder (`score.txt`) is read: by its package's
    /// format.
    pub feedback: crate::score::FeedbackRules,
}

impl PackageProgram {
    /// The program and arguments to start in `run_folder`. A command that names files of the
    /// build folder (a script, a jar, a `run` script beside what `build` made) gets a copy of
    /// the folder there, and names the copy: the sandbox shows nothing else of the machine's
    /// folders. A built binary alone is started as it is.
    pub fn laid_out(&self, run_folder: &Path) -> io::Result<(PathBuf, Vec<OsString>)> {
        let own = |path: &Path| path.starts_with(&self.folder);
        let script = own(&self.program) && !is_binary(&self.program);
        if !script && !self.args.iter().any(|a| own(Path::new(a))) {
            return Ok((self.program.clone(), self.args.clone()));
        }
        // Named as the program is (`generators/f` → `f`): a program may read its own folder's
        // name, as BAPCtools builds each in a folder of that name.
        let folder_name = Path::new(&self.name)
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| {
                !n.is_empty() && !n.starts_with('.') && !matches!(*n, "feedback" | "output")
            })
            .unwrap_or("program");
        let copy = run_folder.join(folder_name);
        copy_tree(&self.folder, &copy, 0)?;
        let moved = |path: &Path| match path.strip_prefix(&self.folder) {
            Ok(rest) => copy.join(rest),
            Err(_) => path.to_path_buf(),
        };
        let program = if script {
            moved(&self.program)
        } else {
            self.program.clone()
        };
        let args = self
            .args
            .iter()
            .map(|a| moved(Path::new(a)).into_os_string())
            .collect();
        Ok((program, args))
    }

    /// A fresh run folder and the program laid out in it as the `role`'s command, `extra`
    /// after its own arguments, under `limits`: how a package's input validators, generators
    /// and solutions run. `Err` says which step failed.
    pub fn in_run_folder(
        &self,
        role: Role,
        extra: &[String],
        limits: Limits,
    ) -> Result<(RunFolder, tool::Command), String> {
        let folder = RunFolder::new().map_err(|e| format!("cannot make a run folder: {e}"))?;
        let (program, mut args) = self
            .laid_out(folder.path())
            .map_err(|e| format!("cannot lay out the {role}: {e}"))?;
        args.extend(extra.iter().map(OsString::from));
        let command = tool::Command::sandboxed(role, &self.name, (program, args), limits);
        Ok((folder, command))
    }
}

/// Whether `path` is an ELF executable (started from its descriptor where it is), not a script.
fn is_binary(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| magic == *b"\x7fELF")
}

/// Folders a build folder may nest, and files it may hold, when it is copied.
const COPY_DEPTH: usize = 16;
const COPY_FILES: usize = 10_000;

/// Copies the regular files and folders of `from` into `to` (made if missing), never following a link: a
/// build script may leave one behind (`secret -> /etc/shadow`), and the copy must not carry
/// what it points at to the program.
pub fn copy_tree(from: &Path, to: &Path, depth: usize) -> io::Result<()> {
    if depth > COPY_DEPTH {
        return Err(io::Error::other(format!(
            "`{}` nests more than {COPY_DEPTH} folders",
            from.display()
        )));
    }
    if !to.is_dir() {
        std::fs::create_dir(to)?;
    }
    for (count, entry) in std::fs::read_dir(from)?.enumerate() {
        if count >= COPY_FILES {
            return Err(io::Error::other(format!(
                "`{}` holds more than {COPY_FILES} files",
                from.display()
            )));
        }
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target, depth + 1)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// A package program's run folder: under the sandbox's scratch root, so the sandbox can make
/// it the program's `/tmp`; removed when dropped.
pub struct RunFolder {
    dir: tempfile::TempDir,
}

impl RunFolder {
    /// A fresh, empty folder.
    pub fn new() -> io::Result<RunFolder> {
        let dir = run::scratch_dir().map_err(|error| io::Error::other(error.to_string()))?;
        Ok(RunFolder { dir })
    }

    /// Where it is, on the judge's side.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A folder in it the program may write (Kattis' feedback folder, `FEEDBACK_DIR`): open
    /// to the id the sandbox runs programs as, inside a run folder only that id can enter.
    pub fn writable(&self, name: &str) -> io::Result<PathBuf> {
        use std::os::unix::fs::PermissionsExt;
        let folder = self.path().join(name);
        std::fs::create_dir(&folder)?;
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o777))?;
        Ok(folder)
    }
}

/// The start of `name` in `folder`, as a package program left it: only a regular file is
/// read, opened without following a link (a validator's `judgemessage.txt ->
/// /proc/self/environ` would put the judge's secrets into the report) and without waiting on
/// a FIFO. `None` when there is no such file.
pub fn read_left(folder: &Path, name: &str, limit: usize) -> Option<Vec<u8>> {
    use crate::sandbox::beneath;
    let dir = beneath::open_folder(folder).ok()?;
    let file = beneath::open_regular(dir.as_fd(), name).ok()?;
    let mut bytes = Vec::new();
    file.take(limit as u64).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// How a package's outputs are checked.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageChecker {
    /// The default validator, or the package's own.
    pub validator: OutputValidator,
    /// The flags of each test-data folder (`data/secret/group1`), inherited already; the case's
    /// deepest folder that has an entry gives its flags.
    pub groups: Vec<(PathBuf, Vec<String>)>,
    /// A multi-pass problem: the most passes a case may run (`limits.validation_passes`).
    pub passes: Option<u32>,
}

/// Which output validator a package uses.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputValidator {
    /// problemtools' default validator, taking the group's flags.
    Default,
    /// The package's own Kattis output validator, built.
    Custom(PackageProgram),
    /// A Polygon package's testlib checker, built: `checker INPUT OUTPUT ANSWER`, testlib's
    /// exit codes.
    Testlib(PackageProgram),
    /// A CMS task's checker, built: `checker INPUT ANSWER OUTPUT`, a score from 0 to 1 on
    /// stdout and its message on stderr.
    Cms(PackageProgram),
}

impl PackageChecker {
    /// For a multi-pass problem: the most passes, and the output validator that runs each.
    pub fn multi_pass(&self) -> Option<(u32, &PackageProgram)> {
        match (&self.validator, self.passes) {
            (OutputValidator::Custom(program), Some(passes)) => Some((passes, program)),
            _ => None,
        }
    }

    /// For a Polygon problem whose solution runs twice (`run-count="2"`): its testlib
    /// checker, which judges each run and writes run 2's input.
    pub fn run_twice(&self) -> Option<&PackageProgram> {
        match (&self.validator, self.passes) {
            (OutputValidator::Testlib(program), Some(2)) => Some(program),
            _ => None,
        }
    }

    /// The flags for the case whose input is `input`.
    pub fn flags_for(&self, input: &Path) -> &[String] {
        self.groups
            .iter()
            .filter(|(folder, _)| input.starts_with(folder))
            .max_by_key(|(folder, _)| folder.components().count())
            .map_or(&[], |(_, flags)| flags.as_slice())
    }

    /// Checks one output against its answer.
    pub fn check(&self, case: &CaseFiles<'_>, output: &[u8], answer: &[u8]) -> Judgement {
        let flags = self.flags_for(case.input);
        match &self.validator {
            OutputValidator::Default => match Flags::parse(flags) {
                Ok(parsed) => default_validator::check(&parsed, output, answer),
                Err(message) => Judgement::judge_error(format!(
                    "the package's validator flags are wrong: {message}"
                )),
            },
            OutputValidator::Custom(program) => custom(program, flags, case, output),
            // `checker INPUT OUTPUT ANSWER`, what it writes on stdout unused.
            OutputValidator::Testlib(program) => testlib_first_run(program, case, output).0,
            OutputValidator::Cms(program) => cms(program, case, output),
        }
    }
}

/// The sandboxed run of a package program in `folder`, its stdin `stdin`.
fn run_in(
    program: &Path,
    args: &[OsString],
    stdin: Stdin<'_>,
    folder: &Path,
) -> Result<run::RunResult, run::RunError> {
    let request = RunRequest::new(program, VALIDATOR_LIMITS)
        .args(args)
        .stdin(stdin)
        .scope(Scope::Group)
        .workdir(Some(folder))
        .isolation(Isolation::Sandbox);
    run::run(&request)
}

/// Absolute: the program runs in a folder of its own.
fn absolute(path: &Path) -> OsString {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .into_os_string()
}

/// The partial credit a Kattis validator left in its feedback folder for an accepted case:
/// `score.txt` (not negative in 2025-09; any number, as problemtools reads a legacy one, whose
/// group's `range` bounds it) or 2025-09's `score_multiplier.txt` (a fraction of the case's
/// maximum); both is an error.
pub(crate) fn feedback_credit(
    feedback: &Path,
    rules: crate::score::FeedbackRules,
) -> Result<Option<crate::score::Credit>, crate::score::CreditError> {
    let score = read_left(feedback, "score.txt", MESSAGE_BYTES);
    let multiplier = read_left(feedback, "score_multiplier.txt", MESSAGE_BYTES);
    crate::score::kattis_feedback(rules, score.as_deref(), multiplier.as_deref())
}

/// Runs a Kattis output validator on one output.
fn custom(
    validator: &PackageProgram,
    flags: &[String],
    case: &CaseFiles<'_>,
    output: &[u8],
) -> Judgement {
    let prepared = RunFolder::new().and_then(|folder| {
        let feedback = folder.writable("feedback")?;
        Ok((folder, feedback))
    });
    match prepared {
        Ok((folder, feedback)) => custom_in(validator, flags, case, output, &folder, &feedback),
        Err(error) => Judgement::judge_error(format!(
            "cannot make a run folder for `{}`: {error}",
            validator.name
        )),
    }
}

/// [`custom`] in a run folder and with a feedback folder the caller keeps: a multi-pass
/// problem's validator finds what it left there in earlier passes.
pub fn custom_in(
    validator: &PackageProgram,
    flags: &[String],
    case: &CaseFiles<'_>,
    output: &[u8],
    folder: &RunFolder,
    feedback: &Path,
) -> Judgement {
    let name = &validator.name;
    let (program, args) = match validator.laid_out(folder.path()) {
        Ok(laid_out) => laid_out,
        Err(error) => {
            return Judgement::judge_error(format!(
                "cannot make a run folder for `{name}`: {error}"
            ))
        }
    };
    let all_args = validator_args(args, case, feedback, flags);
    let result = match run_in(&program, &all_args, Stdin::Bytes(output), folder.path()) {
        Ok(result) => result,
        Err(error) => {
            return Judgement::judge_error(format!(
                "output validator `{name}` could not run: {error}"
            ))
        }
    };
    let read = |file: &str| {
        read_left(feedback, file, MESSAGE_BYTES)
            .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
            .filter(|text| !text.is_empty())
    };
    let message = read("judgemessage.txt")
        .or_else(|| read("teammessage.txt"))
        .map(|m| one_line(&m, MESSAGE_CHARS));
    let stderr = String::from_utf8_lossy(&result.stderr_tail);
    let last_stderr_line = || {
        stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| one_line(l.trim(), MESSAGE_CHARS))
    };
    match (result.limit_hit, result.termination) {
        (None, Termination::Exited(EXIT_ACCEPTED)) => {
            let accepted =
                Judgement::accepted(message.unwrap_or_else(|| format!("`{name}` accepted")));
            match feedback_credit(feedback, validator.feedback) {
                Ok(credit) => Judgement { credit, ..accepted },
                Err(error) => Judgement::judge_error(format!(
                    "output validator `{name}` accepted, but its score cannot be used: {error}"
                )),
            }
        }
        // BAPCtools' validation.h, and many validators, say why on stderr instead.
        (None, Termination::Exited(EXIT_WRONG_ANSWER)) => Judgement::wrong_answer(
            message
                .or_else(last_stderr_line)
                .unwrap_or_else(|| format!("`{name}` says wrong answer (no judgemessage.txt)")),
        ),
        (hit, ending) => {
            let how = match (hit, ending) {
                (Some(hit), _) => format!("was stopped: {}", limit_hit(hit)),
                (None, Termination::Exited(code)) => format!("exited with {code}, not 42 or 43"),
                (None, Termination::Signaled(signal)) => {
                    format!("was killed by {}", run::signal_name(signal))
                }
            };
            let detail = message
                .or_else(last_stderr_line)
                .map(|m| format!(": {m}"))
                .unwrap_or_default();
            Judgement::judge_error(format!("output validator `{name}` {how}{detail}"))
        }
    }
}

/// An output validator's arguments: its own, then the input, the answer, the feedback
/// folder and the flags.
fn validator_args(
    mut args: Vec<OsString>,
    case: &CaseFiles<'_>,
    feedback: &Path,
    flags: &[String],
) -> Vec<OsString> {
    args.push(absolute(case.input));
    args.push(absolute(case.answer));
    // The trailing slash is part of the protocol: validators concatenate file names to it.
    let mut feedback_arg = feedback.as_os_str().to_owned();
    feedback_arg.push("/");
    args.push(feedback_arg);
    args.extend(flags.iter().map(OsString::from));
    args
}

/// Which of [`VALIDATOR_LIMITS`] a package program ran into.
pub(crate) fn limit_hit(hit: run::LimitHit) -> String {
    let limits = VALIDATOR_LIMITS;
    match hit {
        run::LimitHit::WallTime => format!("it ran longer than {}s", limits.wall_time.as_secs()),
        run::LimitHit::CpuTime => {
            format!("it used more than {}s of CPU", limits.cpu_time.as_secs())
        }
        run::LimitHit::Memory => format!("it used more than {} MiB", limits.memory_bytes >> 20),
        run::LimitHit::Output => format!("it wrote more than {} KiB", limits.output_bytes >> 10),
    }
}

/// Runs a checker on one output written to a file of its run folder, its arguments the
/// input, the output and the answer in the order its protocol wants them; a checker that
/// cannot run or is stopped is the judge's error, returned as the judgement.
fn run_checker(
    checker: &PackageProgram,
    case: &CaseFiles<'_>,
    output: &[u8],
    answer_before_output: bool,
) -> Result<run::RunResult, Judgement> {
    let name = &checker.name;
    let prepared = RunFolder::new().and_then(|folder| {
        let output_file = folder.path().join("output");
        std::fs::write(&output_file, output)?;
        let laid_out = checker.laid_out(folder.path())?;
        Ok((folder, output_file, laid_out))
    });
    let (folder, output_file, (program, mut args)) = prepared.map_err(|error| {
        Judgement::judge_error(format!(
            "cannot make a run folder for checker `{name}`: {error}"
        ))
    })?;
    let (second, third) = if answer_before_output {
        (absolute(case.answer), output_file.into_os_string())
    } else {
        (output_file.into_os_string(), absolute(case.answer))
    };
    args.extend([absolute(case.input), second, third]);
    let result = run_in(&program, &args, Stdin::Null, folder.path()).map_err(|error| {
        Judgement::judge_error(format!("checker `{name}` could not run: {error}"))
    })?;
    if let Some(hit) = result.limit_hit {
        return Err(Judgement::judge_error(format!(
            "checker `{name}` was stopped: {}",
            limit_hit(hit)
        )));
    }
    Ok(result)
}

/// Runs a Polygon run-twice problem's testlib checker on run 1's output, as Polygon's
/// default strategy for `run-count="2"` does: `checker INPUT OUTPUT ANSWER` judges it, and
/// what it writes on stdout (up to the 1 MiB a package program may write) is run 2's input.
pub fn testlib_first_run(
    checker: &PackageProgram,
    case: &CaseFiles<'_>,
    output: &[u8],
) -> (Judgement, Vec<u8>) {
    match run_checker(checker, case, output, false) {
        Ok(result) => (
            super::command::classify_command(
                Path::new(&checker.name),
                result.termination,
                &result.stdout,
                &result.stderr_tail,
            ),
            result.stdout,
        ),
        Err(judgement) => (judgement, Vec::new()),
    }
}

/// Runs a CMS checker on one output: `checker INPUT ANSWER OUTPUT`, read as CMS reads it
/// (`extract_outcome_and_text`, as for a manager). A checker that fails is the judge's error.
fn cms(checker: &PackageProgram, case: &CaseFiles<'_>, output: &[u8]) -> Judgement {
    use crate::verdict::communication::{manager_said, scored_by, ManagerSaid};
    let result = match run_checker(checker, case, output, true) {
        Ok(result) => result,
        Err(judgement) => return judgement,
    };
    let said = match manager_said(&result, &result.stdout, &result.stderr_tail) {
        ManagerSaid::Failed(why) => ManagerSaid::Failed(why.replacen(
            "the manager",
            &format!("checker `{}`", checker.name),
            1,
        )),
        score => score,
    };
    scored_by(&said, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    fn script(dir: &Path, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("validator.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn run_custom(body: &str, output: &str, flags: &[&str]) -> Judgement {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("1.in");
        let answer = dir.path().join("1.ans");
        std::fs::write(&input, "in\n").unwrap();
        std::fs::write(&answer, "42\n").unwrap();
        let checker = PackageChecker {
            passes: None,
            validator: OutputValidator::Custom(PackageProgram {
                program: script(dir.path(), body),
                args: Vec::new(),
                folder: dir.path().to_path_buf(),
                name: "output_validators/v".to_string(),
                feedback: crate::score::FeedbackRules::default(),
            }),
            groups: vec![(
                dir.path().to_path_buf(),
                flags.iter().map(ToString::to_string).collect(),
            )],
        };
        let case = CaseFiles {
            input: &input,
            answer: &answer,
        };
        checker.check(&case, output.as_bytes(), b"42\n")
    }

    #[test]
    fn kattis_exit_codes_and_judgemessage() {
        // Reads the team output on stdin and the answer from $2, writes its reason into $3.
        let body = r#"read team; read judge < "$2"; if [ "$team" = "$judge" ]; then exit 42; fi
echo "got $team, wanted $judge" > "$3/judgemessage.txt"; exit 43"#;
        let ok = run_custom(body, "42\n", &[]);
        assert_eq!(ok.verdict, Verdict::Accepted, "{}", ok.reason);
        let wrong = run_custom(body, "7\n", &[]);
        assert_eq!(wrong.verdict, Verdict::WrongAnswer);
        assert_eq!(wrong.reason, "got 7, wanted 42");
        // Without judgemessage.txt, the last line on stderr is the reason.
        let on_stderr = run_custom("echo '1:3: expected 42, got 7' >&2; exit 43", "7\n", &[]);
        assert_eq!(on_stderr.verdict, Verdict::WrongAnswer);
        assert_eq!(on_stderr.reason, "1:3: expected 42, got 7");
        let silent = run_custom("exit 43", "7\n", &[]);
        assert!(
            silent.reason.ends_with("(no judgemessage.txt)"),
            "{}",
            silent.reason
        );
    }

    #[test]
    fn flags_follow_the_feedback_folder_and_other_codes_are_judge_errors() {
        let echo_args = r#"case "$3" in */) ;; *) exit 1;; esac; echo "$4 $5" > "$3/judgemessage.txt"; exit 43"#;
        let result = run_custom(echo_args, "", &["case_sensitive", "x"]);
        assert_eq!(result.verdict, Verdict::WrongAnswer, "{}", result.reason);
        assert_eq!(result.reason, "case_sensitive x");

        let result = run_custom("echo broken >&2; exit 0", "", &[]);
        result.assert_is(Verdict::JudgeError, "exited with 0, not 42 or 43: broken");
        let result = run_custom("kill -SEGV $$", "", &[]);
        result.assert_is(Verdict::JudgeError, "SIGSEGV");
    }

    #[test]
    fn the_deepest_group_gives_the_flags() {
        let checker = PackageChecker {
            passes: None,
            validator: OutputValidator::Default,
            groups: vec![
                (PathBuf::from("/p/data"), vec!["a".into()]),
                (PathBuf::from("/p/data/secret/g1"), vec!["b".into()]),
            ],
        };
        assert_eq!(
            checker.flags_for(Path::new("/p/data/secret/g1/1.in")),
            ["b"]
        );
        assert_eq!(
            checker.flags_for(Path::new("/p/data/secret/g10/1.in")),
            ["a"]
        );
        assert!(checker.flags_for(Path::new("/q/1.in")).is_empty());
    }
}
