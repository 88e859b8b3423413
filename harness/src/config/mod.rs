//! judge.toml: finding it, reading it, and turning it into checked, absolute settings.
//!
//! The steps are children, each one noun, so that this file only declares and re-exports:
//! `raw` (the file as written), `values`, `names`, `error`, `languages`, `resolve` (checkers
//! and interactors), `parse` (the whole file, one step per table), `load`, and `settings`
//! (what the rest of the harness reads).

mod commands;
mod detect;
pub(crate) mod edit;
mod error;
pub mod languages;
mod limits;
mod load;
mod names;
mod parse;
mod raw;
mod resolve;
pub(crate) mod scoring;
mod settings;
pub(crate) mod standalone;
pub(crate) mod user;
mod values;

pub use detect::{detect_language, detect_submission_language};
pub use error::{ConfigError, FileError};
pub use limits::{parse_checker, LimitOverrides};
pub use load::{find, load, locate, Origin};
pub(crate) use names::check_file_name;
pub use names::{check_name, FILE_NAME};
pub use parse::{parse, root_of};
pub use settings::{
    Communication, Config, FileIo, Generator, Graders, Interactor, InteractorProgram, PackageRef,
    Problem, SeedRange, Stress, UnknownProblem, UserIo, ValidatorProtocol, MAX_PROCESSES,
};
pub use values::{parse_seed_range, MAX_SEEDS};

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    use super::*;
    use crate::check::Checker;
    use crate::compile::languages::CompileLimits;
    use crate::verdict::InteractorProtocol;

    fn parse_str(text: &str) -> Result<Config, ConfigError> {
        parse(text, Path::new("/project/judge.toml"))
    }

    /// Parses `text` as the judge.toml of a folder that holds `files` (empty ones).
    fn parse_with(text: &str, files: &[&str]) -> (tempfile::TempDir, Config) {
        let dir = tempfile::tempdir().unwrap();
        for file in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let config = parse(text, &dir.path().join(FILE_NAME)).unwrap();
        (dir, config)
    }

    const MINIMAL: &str = r#"
[defaults]
time-limit = "2s"
memory-limit = "128MiB"

[problems.sum]
solution = "target/release/sum"
"#;

    #[test]
    fn defaults_fill_in_and_paths_are_absolute() {
        let config = parse_str(MINIMAL).unwrap();
        let sum = config.problem("sum").unwrap();
        assert_eq!(
            sum.solution.as_deref(),
            Some(Path::new("/project/target/release/sum"))
        );
        assert_eq!(sum.cases, Path::new("/project/cases/sum"));
        assert_eq!(sum.time_limit, Duration::from_secs(2));
        assert_eq!(sum.wall_limit, Duration::from_secs(5));
        assert_eq!(sum.memory_limit, 128 << 20);
        assert_eq!(sum.output_limit, 64 << 20);
        assert_eq!(sum.checker, Checker::Tokens);
        assert_eq!(sum.title, "sum");
    }

    #[test]
    fn checkers_by_name_and_table() {
        let (dir, config) = parse_with(
            r#"
[problems.a]
solution = "a"
checker = "unordered-blocks"
[problems.b]
solution = "b"
checker = { type = "float", absolute = 1e-9 }
[problems.c]
solution = "c"
checker = { type = "command", command = ["checkers/c", "--strict"] }
"#,
            &["checkers/c"],
        );
        assert_eq!(
            config.problem("a").unwrap().checker,
            Checker::UnorderedBlocks
        );
        assert_eq!(
            config.problem("b").unwrap().checker,
            Checker::Float {
                absolute: 1e-9,
                relative: 1e-6
            }
        );
        assert_eq!(
            config.problem("c").unwrap().checker,
            Checker::Command {
                program: dir.path().join("checkers/c"),
                args: vec!["--strict".to_string()],
                shown: None,
            }
        );
    }

    #[test]
    fn a_problem_read_from_a_package_needs_no_solution() {
        let config = parse_str(
            "[problems.p]\npackage = \"pkgs/p\"\ntime-limit = \"3s\"\n[problems.q]\npackage = \"pkgs/q\"\n",
        )
        .unwrap();
        assert_eq!(
            config.problem("p").unwrap().package,
            Some(PackageRef {
                path: PathBuf::from("/project/pkgs/p"),
                time_limit: Some(Duration::from_secs(3)),
            })
        );
        assert_eq!(
            config
                .problem("q")
                .unwrap()
                .package
                .as_ref()
                .unwrap()
                .time_limit,
            None
        );
    }

    fn syntax(text: &str) -> (usize, usize, String) {
        match parse_str(text) {
            Err(ConfigError::File(FileError::Syntax {
                line,
                column,
                message,
                ..
            })) => (line, column, message),
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn interactors_as_source_or_command_with_their_protocol() {
        let (_dir, config) = parse_with(
            r#"
[problems.a]
solution = "a"
interactor = "checkers/interactor.cpp"
[problems.b]
solution = "b"
interactor = ["bin/interact", "--strict"]
interactor-protocol = "kattis"
[problems.c]
solution = "c"
interactor = ["interact"]
checker = "lines"
"#,
            &["checkers/interactor.cpp", "bin/interact"],
        );
        let a = config.problem("a").unwrap().interactor.as_ref().unwrap();
        assert!(
            matches!(&a.program, InteractorProgram::Source(p) if p.ends_with("checkers/interactor.cpp"))
        );
        assert_eq!(a.protocol, InteractorProtocol::Testlib);
        assert!(a.checker.is_none());
        let b = config.problem("b").unwrap().interactor.as_ref().unwrap();
        assert!(
            matches!(&b.program, InteractorProgram::Command { args, .. } if args == &["--strict"])
        );
        assert_eq!(b.protocol, InteractorProtocol::Kattis);
        let c = config.problem("c").unwrap().interactor.as_ref().unwrap();
        assert_eq!(c.checker, Some(Checker::Lines));
        assert!(config.problem("c").is_some_and(|p| p.interactor.is_some()));
    }

    #[test]
    fn validator_protocol_is_read_and_needs_a_validator() {
        let (_dir, config) = parse_with(
            r#"
[problems.a]
validator = ["val.rs", "a"]
validator-protocol = "kattis"
[problems.b]
validator = ["val"]
"#,
            &["val.rs"],
        );
        let protocol = |id: &str| config.problem(id).unwrap().validator_protocol;
        assert_eq!(protocol("a"), ValidatorProtocol::Kattis);
        assert_eq!(protocol("b"), ValidatorProtocol::Testlib);
        let invalid = |text: &str| parse_str(text).unwrap_err().to_string();
        let error = invalid("[problems.a]\nvalidator-protocol = \"kattis\"\n");
        assert!(
            error.contains("problem `a`: `validator-protocol` is set but `validator` is not"),
            "{error}"
        );
        let error =
            invalid("[problems.a]\nvalidator = [\"v\"]\nvalidator-protocol = \"polygon\"\n");
        assert!(error.contains("polygon"), "{error}");
    }

    #[test]
    fn interactor_mistakes_are_named() {
        let invalid = |text: &str| parse_str(text).unwrap_err().to_string();
        let error = invalid("[problems.a]\nsolution = \"a\"\ninteractor-protocol = \"kattis\"\n");
        assert!(
            error.contains("`interactor-protocol` is set but `interactor` is not"),
            "{error}"
        );
        let error = invalid(
            "[problems.a]\nsolution = \"a\"\ninteractor = [\"i\"]\ninteractor-protocol = \"kattis\"\nchecker = \"lines\"\n",
        );
        assert!(
            error.contains("problem `a`: a Kattis interactor judges the dialogue itself"),
            "{error}"
        );
        let error = invalid("[problems.a]\nsolution = \"a\"\ninteractor = []\n");
        assert!(
            error.contains("interactor: the command is empty"),
            "{error}"
        );
        let (line, _, message) = syntax(
            "[problems.a]\nsolution = \"a\"\ninteractor = \"i\"\ninteractor-protocol = \"polygon\"\n",
        );
        assert_eq!(line, 4);
        assert!(message.contains("polygon"), "{message}");
    }

    #[test]
    fn a_file_a_command_names_is_found_from_judge_toml_or_named_where_it_is_missing() {
        let text = r#"
[problems.a]
interactor = ["python3", "inter.py", "--strict"]
checker = { type = "command", command = ["python3", "check.py"] }
reference = ["python3", "brute.py"]
"#;
        let (dir, config) = parse_with(text, &["inter.py", "check.py", "brute.py"]);
        let problem = config.problem("a").unwrap();
        let at = |file: &str| dir.path().join(file).display().to_string();
        let Some(InteractorProgram::Command { program, args }) =
            problem.interactor.as_ref().map(|i| &i.program)
        else {
            panic!("a command interactor")
        };
        assert_eq!(program, Path::new("python3"));
        assert_eq!(args, &[at("inter.py"), "--strict".to_string()]);
        assert_eq!(
            problem.checker,
            Checker::Command {
                program: PathBuf::from("python3"),
                args: vec![at("check.py")],
                shown: None,
            }
        );
        assert_eq!(
            problem.reference.as_deref(),
            Some(&["python3".to_string(), at("brute.py")][..])
        );

        // Each missing file is an error at its own word.
        let rows = [
            (
                &["check.py", "brute.py"][..],
                (3, 26),
                "interactor: no file `inter.py`",
            ),
            (
                &["inter.py", "brute.py"],
                (4, 53),
                "checker: no file `check.py`",
            ),
            (
                &["inter.py", "check.py"],
                (5, 25),
                "reference: no file `brute.py`",
            ),
        ];
        for (files, place, expected) in rows {
            let dir = tempfile::tempdir().unwrap();
            for file in files {
                std::fs::write(dir.path().join(file), "").unwrap();
            }
            match parse(text, &dir.path().join(FILE_NAME)) {
                Err(ConfigError::File(FileError::Syntax {
                    line,
                    column,
                    message,
                    ..
                })) => {
                    assert_eq!((line, column), place, "{message}");
                    assert!(message.contains(expected), "{message}");
                    assert!(message.starts_with("problem `a`"), "{message}");
                }
                other => panic!("{expected}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_syntax_error_names_its_line_and_column() {
        // The text, the line and column (0: any column) of the error, and what it says.
        let rows = [
            // A name that would be an option on every command line.
            (
                "[problems.ok]\n[problems.-help]\nsolution = \"a\"\n",
                (2, 0),
                "starts with `-`",
            ),
            (
                "[problems.sum]\nsolution = \"x\"\ntime-limt = \"1s\"\n",
                (3, 1),
                "time-limt",
            ),
            (
                "[problems.sum]\nsolution = \"x\"\ntime-limit = \"1\"\n",
                (3, 14),
                "no unit",
            ),
            (
                "[defaults]\nmemory-limit = \"lots\"\n",
                (2, 0),
                "not a size",
            ),
            ("[problems.sum\nsolution = 1\n", (1, 0), ""),
        ];
        for (text, (line, column), says) in rows {
            let (at_line, at_column, message) = syntax(text);
            let at_column = if column == 0 { 0 } else { at_column };
            assert_eq!((at_line, at_column), (line, column), "{text:?}: {message}");
            assert!(message.contains(says), "{text:?}: {message}");
        }
        assert!(check_name("a-b").is_ok() && check_name("-a").is_err());
    }

    #[test]
    fn error_display_is_path_line_column() {
        let error = parse_str("[problems.sum]\nsolution = 3\n").unwrap_err();
        let shown = error.to_string();
        assert!(shown.starts_with("/project/judge.toml:2:12: "), "{shown}");
    }

    #[test]
    fn a_misspelt_checker_lists_the_known_ones() {
        let error = parse_str("[problems.sum]\nsolution = \"s\"\nchecker = \"tokenz\"\n")
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("/project/judge.toml:3:11: "), "{error}");
        assert!(error.contains("unknown checker `tokenz`"), "{error}");
        assert!(error.contains("tokens-ignore-case"), "{error}");
        let error = parse_str("[problems.sum]\nsolution = \"s\"\nchecker = { type = \"flot\" }\n")
            .unwrap_err()
            .to_string();
        assert!(error.contains("unknown variant `flot`"), "{error}");
        let config = parse_str(
            "[problems.sum]\nsolution = \"s\"\nchecker = { type = \"float\", absolute = 1e-3 }\n",
        )
        .unwrap();
        assert!(matches!(
            config.problem("sum").unwrap().checker,
            Checker::Float { .. }
        ));
    }

    #[test]
    fn seeds_and_generators() {
        // The build makes the generator: it need not be there before.
        let config = parse_str(
            r#"
[defaults]
build = ["make"]
[problems.sum]
solution = "s"
[[problems.sum.generators]]
name = "random-{seed:03}"
command = ["target/release/gen", "{seed}"]
seeds = "1..=300"
[[problems.sum.generators]]
name = "big"
command = ["target/release/gen", "big"]
seeds = 7
"#,
        )
        .unwrap();
        let generators = &config.problem("sum").unwrap().generators;
        assert_eq!(
            generators[0].seeds,
            SeedRange {
                first: 1,
                last: 300
            }
        );
        assert_eq!(generators[1].seeds, SeedRange { first: 7, last: 7 });
        assert!(parse_seed_range("5..=1").is_err());
        assert!(parse_seed_range("1..5").is_err());
    }

    #[test]
    fn generator_names_must_tell_seeds_apart() {
        let error = parse_str(
            "[problems.sum]\nsolution = \"s\"\n[[problems.sum.generators]]\nname = \"r\"\ncommand = [\"g\"]\nseeds = \"1..=3\"\n",
        )
        .unwrap_err();
        assert!(error.to_string().contains("needs `{seed}`"), "{error}");
    }

    #[test]
    fn unknown_problem_lists_known_ones() {
        let config = parse_str(MINIMAL).unwrap();
        let error = config.require_problem("summ").unwrap_err().to_string();
        assert!(error.contains("unknown problem `summ`"), "{error}");
        assert!(error.contains("`sum`"), "{error}");
    }

    #[test]
    fn an_extension_belongs_to_one_language() {
        let error = parse_str(
            "[languages.python]\nextensions = [\"py\"]\nrun = [\"python3\", \"{source}\"]\n[languages.pypy]\nextensions = [\".py\"]\nrun = [\"pypy3\", \"{source}\"]\n",
        )
        .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("languages `pypy` and `python` both claim the extension `.py`"),
            "{error}"
        );
        let config = parse_str(
            "[languages.python]\nextensions = [\"py\"]\nrun = [\"python3\", \"{source}\"]\n[languages.pypy]\nextensions = []\nrun = [\"pypy3\", \"{source}\"]\n",
        )
        .unwrap();
        assert_eq!(config.languages.len(), 2);
    }

    #[test]
    fn compile_limits_default_and_can_be_set_per_language() {
        let config = parse_str(
            "[languages.c]\nextensions = [\"c\"]\ncompile = [\"cc\", \"{source}\"]\nrun = [\"{exe}\"]\n\
             [languages.big]\nextensions = [\"big\"]\nrun = [\"{exe}\"]\n\
             compile-time-limit = \"5m\"\ncompile-memory-limit = \"8GiB\"\n",
        )
        .unwrap();
        let limits = |id: &str| {
            let language = config.languages.iter().find(|l| l.id == id).unwrap();
            language.compile_limits
        };
        assert_eq!(limits("c"), CompileLimits::default());
        assert_eq!(limits("c").time, Duration::from_secs(120));
        assert_eq!(limits("c").memory_bytes, 2 << 30);
        assert_eq!(limits("big").time, Duration::from_secs(300));
        assert_eq!(limits("big").memory_bytes, 8 << 30);

        let error = parse_str(
            "[languages.c]\nextensions = [\"c\"]\nrun = [\"{exe}\"]\ncompile-memory-limit = \"0MiB\"\n",
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("must be a positive size"),
            "{error}"
        );
    }

    #[test]
    fn wall_limit_below_time_limit_is_refused() {
        let error = parse_str(
            "[problems.sum]\nsolution = \"s\"\ntime-limit = \"2s\"\nwall-limit = \"1s\"\n",
        )
        .unwrap_err();
        assert!(error.to_string().contains("below time-limit"), "{error}");
    }

    /// Every step of reading a problem table (and `[defaults]`) keeps its message and its
    /// line and column: one bad judge.toml per step, the error exactly as it was before
    /// parse was split into steps.
    const STEP_ERRORS: &[(&str, &str)] = &[
        (
            "[problems.\"-x\"]\n",
            "/project/judge.toml:1:1: `-x` is not a valid name: it starts with `-`, so every command would take it for an option (hint: start it with a letter or digit)",
        ),
        (
            "[problems.a]\ntime-limit = \"2s\"\nwall-limit = \"1s\"\n",
            "`/project/judge.toml`: problem `a`: wall-limit (1000 ms) is below time-limit (2000 ms)",
        ),
        (
            "[defaults]\nchecker = { type = \"float\", absolute = -1.0 }\n",
            "/project/judge.toml:2:11: [defaults] checker: float tolerance -1 must be a non-negative number",
        ),
        (
            "[problems.a]\nchecker = { type = \"float\", relative = -1.0 }\n",
            "/project/judge.toml:2:11: problem `a`, checker: float tolerance -1 must be a non-negative number",
        ),
        (
            "[problems.a]\nchecker = { type = \"command\", command = [\"python3\", \"check.py\"] }\n",
            "/project/judge.toml:2:53: problem `a`, checker: no file `check.py` in `/project` (a command's files are named from judge.toml's folder)",
        ),
        (
            "[problems.a]\ninteractor-protocol = \"kattis\"\n",
            "/project/judge.toml:2:23: problem `a`: `interactor-protocol` is set but `interactor` is not",
        ),
        (
            "[problems.a]\ninteractor = [\"python3\", \"inter.py\"]\n",
            "/project/judge.toml:2:26: problem `a`: interactor: no file `inter.py` in `/project` (a command's files are named from judge.toml's folder)",
        ),
        (
            "[problems.a]\ngenerators = [{ name = \"g\", command = [], seeds = 1 }]\n",
            "`/project/judge.toml`: problem `a`, generator `g`: the command is empty",
        ),
        (
            "[problems.a]\ngenerators = [{ name = \"g\", command = [\"python3\", \"gen.py\"], seeds = 1 }]\n",
            "/project/judge.toml:2:51: problem `a`, generator `g`: no file `gen.py` in `/project` (a command's files are named from judge.toml's folder)",
        ),
        (
            "[problems.a]\ngenerators = [{ name = \"g\", command = [\"echo\"], seeds = \"1..=3\" }]\n",
            "`/project/judge.toml`: problem `a`: generator name `g` needs `{seed}` to tell its 3 cases apart",
        ),
        (
            "[problems.a]\nreference = \"brute.py\"\n",
            "/project/judge.toml:2:13: problem `a`, reference: no file `brute.py` in `/project` (a command's files are named from judge.toml's folder)",
        ),
        (
            "[problems.a]\nreference = []\n",
            "`/project/judge.toml`: problem `a`, reference: the command is empty",
        ),
        (
            "[problems.a]\nreference = [\"python3\", \"brute.py\"]\n",
            "/project/judge.toml:2:25: problem `a`, reference: no file `brute.py` in `/project` (a command's files are named from judge.toml's folder)",
        ),
        (
            "[problems.a]\nvalidator = []\n",
            "`/project/judge.toml`: problem `a`, validator: the command is empty",
        ),
        (
            "[problems.a]\nvalidator = [\"python3\", \"val.py\"]\n",
            "/project/judge.toml:2:25: problem `a`, validator: no file `val.py` in `/project` (a command's files are named from judge.toml's folder)",
        ),
        (
            "[problems.a]\nvalidator-protocol = \"kattis\"\n",
            "`/project/judge.toml`: problem `a`: `validator-protocol` is set but `validator` is not",
        ),
        (
            "[problems.a]\ninput-file = \"in/put.txt\"\n",
            "`/project/judge.toml`: problem `a`, input-file: `in/put.txt` is not a plain file name (hint: write it as the statement does, like `input.txt`)",
        ),
        (
            "[problems.a]\noutput-file = \"..\"\n",
            "`/project/judge.toml`: problem `a`, output-file: `..` is not a plain file name (hint: write it as the statement does, like `input.txt`)",
        ),
        (
            "[problems.a.stress]\ngenerator = [\"python3\", \"g.py\"]\n",
            "/project/judge.toml:2:25: problem `a`, stress generator: no file `g.py` in `/project` (a command's files are named from judge.toml's folder)",
        ),
        (
            "[problems.a.stress]\ngenerator = [\"echo\"]\nshrink = [\"python3\", \"s.py\"]\n",
            "/project/judge.toml:3:22: problem `a`, stress shrink: no file `s.py` in `/project` (a command's files are named from judge.toml's folder)",
        ),
    ];

    #[test]
    fn each_step_of_a_problem_table_keeps_its_message_and_place() {
        for (text, expected) in STEP_ERRORS {
            let error = parse_str(text).expect_err(text).to_string();
            assert_eq!(&error, expected, "judge.toml:\n{text}");
        }
    }
}
