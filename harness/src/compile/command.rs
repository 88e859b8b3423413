//! A submission given as a command line instead of a source (`harness judge --cmd "java
//! Main"`, `--cmd "python3 sol.py"`): the program as the user runs it in their folder, judged
//! under the same limits, sandbox and checkers. The folder's top-level files are its build,
//! as a multi-file source's are: copied once into the build cache, a word that names one of
//! them pointed at its copy, and the others put in every run's folder (the program's `/tmp`,
//! where the command runs: `java Main` finds `Main.class` there). The sandbox shows it nothing
//! else of the folder.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::languages::{CompileLimits, Language};
use super::program::{self, Outcome, Recipe, Source};
use super::submit::SubmitError;

/// Files put in each run's folder, by name and the path of their copy.
pub(super) type Beside = Vec<(String, PathBuf)>;

/// The id of the language a command is judged as: made for each `--cmd`, never in a table.
pub const COMMAND: &str = "command";
/// Files of the folder a command is given at most: far above a program's own (a Java
/// program's classes, a script and its modules), and a bound on what every run copies.
const MAX_FILES: usize = 256;
/// Their bytes together at most.
const MAX_BYTES: u64 = 64 << 20;
/// Files of the folder a command is never given: the cases' inputs and answers.
const CASE_EXTENSIONS: [&str; 3] = ["in", "ans", "out"];

/// The language `--cmd TEXT` is judged as: its `run` is the command's words (split as a shell
/// splits them, quotes kept together), no compile, no time multiplier. A JVM (`java …`) gets
/// the options the built-in Java runs with first (its heap capped at the memory limit: a JVM
/// sized from the machine dies under the address-space cap before `main`); the user's own
/// come after them, and a JVM takes the last of each.
pub fn language(text: &str) -> Result<Language, SubmitError> {
    let mut words =
        shlex::split(text).ok_or_else(|| SubmitError::CommandSyntax(text.to_string()))?;
    if words.is_empty() {
        return Err(SubmitError::EmptyCommand);
    }
    if Path::new(&words[0]).file_name() == Some("java".as_ref()) {
        let options = super::languages::JVM_OPTIONS.map(String::from);
        words.splice(1..1, options);
    }
    Ok(Language {
        id: COMMAND.to_string(),
        name: "command".to_string(),
        extensions: Vec::new(),
        compile: None,
        run: words,
        time_multiplier: 1.0,
        compile_limits: CompileLimits::default(),
        sandbox: Default::default(),
        tools: Vec::new(),
    })
}

/// Whether `language` is a command's (`--cmd`), whose source is a folder.
pub fn is_command(language: &Language) -> bool {
    language.id == COMMAND
}

/// Checks, before anything is judged, that the command's program is there: a file of
/// `folder` (`./a.out`), a path, or a name on PATH.
pub fn check(language: &Language, folder: &Path) -> Result<(), SubmitError> {
    let Some(first) = language.run.first() else {
        return Err(SubmitError::EmptyCommand);
    };
    let found = if let Some(name) = folder_name(first) {
        folder.join(name).is_file()
    } else if first.contains('/') {
        Path::new(first).is_file()
    } else {
        crate::sandbox::run::find_program(Path::new(first)).is_ok()
    };
    if found {
        return Ok(());
    }
    Err(SubmitError::CommandNotFound {
        program: first.clone(),
        folder: folder.to_path_buf(),
        on_path: !first.contains('/'),
    })
}

/// Builds the command's folder (see the module's header), or takes the build from the cache;
/// with the files every run gets beside the program. A word naming one of the folder's files
/// is that file's copy; the first word is that copy made executable (as `harness judge
/// ./a.out` is), else the program on PATH or at the path.
pub(super) fn build(
    language: &Language,
    folder: &Path,
    memory_bytes: u64,
) -> Result<(Outcome, Beside), SubmitError> {
    check(language, folder)?;
    // The program itself is given even when its name looks like a case's (`./a.out`).
    let files = folder_files(folder, folder_name(&language.run[0]))?;
    let words = &language.run;
    let named = |word: &str| {
        folder_name(word)
            .or_else(|| (!word.contains('/')).then_some(word))
            .and_then(|name| {
                files
                    .iter()
                    .find(|file| file.file_name() == Some(name.as_ref()))
            })
    };
    let main = folder_name(&words[0]).and_then(|_| named(&words[0]));
    let mut recipe = language.clone();
    if main.is_some() {
        recipe.compile = Some(
            ["install", "-m", "755", "{source}", "{exe}"]
                .map(String::from)
                .to_vec(),
        );
        recipe.run[0] = "{exe}".to_string();
    }
    let outcome = program::build(
        Source {
            path: folder,
            files: &files,
            main: main.map(PathBuf::as_path),
            headers: &[],
            beside: &[],
            constants: &[],
            entry: None,
        },
        Recipe::Language(&recipe),
        recipe.compile_limits,
        memory_bytes,
    )?;
    let mut built = match outcome {
        Outcome::Ready(built) => built,
        refused @ Outcome::CompileError(_) => return Ok((refused, Vec::new())),
    };
    let program = &mut built.program;
    // A relative path runs from the folder the user named it in, not from the run's.
    if program.executable.is_relative() {
        program.executable = folder.join(&program.executable);
    }
    let mut given = Vec::new();
    for (arg, word) in program.args.iter_mut().zip(&words[1..]) {
        if let Some(file) = named(word) {
            let name = file.file_name().unwrap_or_default();
            *arg = OsString::from(built.folder.join(name));
            given.push(file);
        }
    }
    // The rest go into every run's folder; those the words name are brought by the words.
    let beside = files
        .iter()
        .filter(|file| Some(*file) != main && !given.contains(file))
        .filter_map(|file| {
            let name = file.file_name()?.to_str()?.to_string();
            let copy = built.folder.join(&name);
            Some((name, copy))
        })
        .collect();
    Ok((Outcome::Ready(built), beside))
}

/// The file name `./NAME` names in the folder, when the word is one.
fn folder_name(word: &str) -> Option<&str> {
    word.strip_prefix("./")
        .filter(|name| !name.is_empty() && !name.contains('/'))
}

/// The folder's top-level regular files a command is given, by name: not the hidden ones,
/// nor the cases' inputs and answers, but always `program` (the file the command runs);
/// bounded in number and bytes.
fn folder_files(folder: &Path, program: Option<&str>) -> Result<Vec<PathBuf>, SubmitError> {
    let too_big = |why: String| SubmitError::CommandFolder {
        folder: folder.to_path_buf(),
        why,
    };
    let entries = std::fs::read_dir(folder).map_err(|source| SubmitError::Unreadable {
        path: folder.to_path_buf(),
        source,
    })?;
    let mut files = Vec::new();
    let mut bytes = 0u64;
    for entry in entries {
        let entry = entry.map_err(|source| SubmitError::Unreadable {
            path: folder.to_path_buf(),
            source,
        })?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let case_file = Path::new(&name)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| CASE_EXTENSIONS.contains(&e));
        if (name.starts_with('.') || case_file) && Some(name.as_str()) != program {
            continue;
        }
        // Through a link, as the program would read it; never a FIFO or a device.
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        bytes = bytes.saturating_add(meta.len());
        files.push(path);
        if files.len() > MAX_FILES {
            return Err(too_big(format!("more than {MAX_FILES} files")));
        }
        if bytes > MAX_BYTES {
            return Err(too_big(format!(
                "more than {} in its files",
                crate::units::format_size_limit(MAX_BYTES)
            )));
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_as_a_shell_splits_them() {
        let made = language("python3 -X 'dev mode' sol.py").unwrap();
        assert_eq!(made.run, ["python3", "-X", "dev mode", "sol.py"]);
        assert!(is_command(&made));
        assert!(matches!(language(""), Err(SubmitError::EmptyCommand)));
        assert!(matches!(language("  "), Err(SubmitError::EmptyCommand)));
        assert!(matches!(
            language("python3 'sol.py"),
            Err(SubmitError::CommandSyntax(_))
        ));
        let jvm = language("java -Xmx1g Main").unwrap();
        assert_eq!(jvm.run[1], "-Xmx{memory-mib}m");
        assert_eq!(jvm.run[jvm.run.len() - 2..], ["-Xmx1g", "Main"]);
    }

    #[test]
    fn a_folder_file_is_named_by_dot_slash_only() {
        assert_eq!(folder_name("./a.out"), Some("a.out"));
        assert_eq!(folder_name("a.out"), None);
        assert_eq!(folder_name("./bin/a.out"), None);
        assert_eq!(folder_name("./"), None);
        assert_eq!(folder_name("/usr/bin/java"), None);
    }

    #[test]
    fn the_folder_keeps_its_cases_and_hidden_files() {
        let folder = tempfile::tempdir().unwrap();
        for name in [
            "Main.class",
            "Main$1.class",
            "sol.py",
            "1.in",
            "1.ans",
            "1.out",
            ".git",
        ] {
            std::fs::write(folder.path().join(name), "x").unwrap();
        }
        std::fs::create_dir(folder.path().join("test")).unwrap();
        let names = |program| -> Vec<String> {
            folder_files(folder.path(), program)
                .unwrap()
                .iter()
                .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(names(None), ["Main$1.class", "Main.class", "sol.py"]);
        // `--cmd ./1.out`: the program is given, whatever its extension.
        assert_eq!(
            names(Some("1.out")),
            ["1.out", "Main$1.class", "Main.class", "sol.py"]
        );
        for n in 0..=MAX_FILES {
            std::fs::write(folder.path().join(format!("f{n}")), "").unwrap();
        }
        assert!(matches!(
            folder_files(folder.path(), None),
            Err(SubmitError::CommandFolder { .. })
        ));
    }
}
