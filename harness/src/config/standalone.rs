//! A judge without judge.toml (`harness judge a.cpp --cases test`): one problem made up from
//! the command line, the user's config and the built-in defaults.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::commands::Files;
use super::languages;
use super::names::FILE_NAME;
use super::raw::RawChecker;
use super::resolve::resolve_checker;
use super::settings::{Config, FileIo, Problem, ValidatorProtocol};
use super::user::UserConfig;
use super::LimitOverrides;
use crate::check::Checker;

/// Codeforces' usual limits: what a problem without a statement at hand most likely has.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(2);
pub const DEFAULT_MEMORY_LIMIT: u64 = 256 << 20;
const DEFAULT_OUTPUT_LIMIT: u64 = 64 << 20;

/// A configuration of one problem, named after the folder it is judged in (`1850A`), with
/// the built-in languages under the user's.
pub fn config(root: &Path, user: &UserConfig, cases: PathBuf, limits: &LimitOverrides) -> Config {
    let name = root
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.is_empty())
        .unwrap_or("problem")
        .to_string();
    let time_limit = limits
        .time_limit
        .or(user.time_limit)
        .unwrap_or(DEFAULT_TIME_LIMIT);
    let problem = Problem {
        title: name.clone(),
        label: None,
        url: None,
        // The submission on the command line is what is judged.
        solution: None,
        reference: None,
        cases,
        time_limit,
        wall_limit: crate::sandbox::run::wall_limit(time_limit),
        memory_limit: limits
            .memory_limit
            .or(user.memory_limit)
            .unwrap_or(DEFAULT_MEMORY_LIMIT),
        output_limit: DEFAULT_OUTPUT_LIMIT,
        checker: limits
            .checker
            .clone()
            .or_else(|| user.checker.clone())
            .unwrap_or_default(),
        validator: None,
        validator_protocol: ValidatorProtocol::default(),
        generators: Vec::new(),
        stress: None,
        scoring: Default::default(),
        package_scoring: None,
        expected_scores: Vec::new(),
        interactor: None,
        interactive: false,
        multi_test: false,
        output_only: false,
        graders: Default::default(),
        communication: None,
        two_steps: false,
        files: FileIo::default(),
        name,
        package: None,
    };
    Config {
        root: root.to_path_buf(),
        path: root.join(FILE_NAME),
        build: None,
        problems: vec![problem],
        languages: languages::merged(&[&user.languages]),
        own_languages: Vec::new(),
        sandbox: crate::sandbox::Mode::default(),
    }
}

/// `--checker` on the command line: a checker's name as judge.toml writes it, or else a
/// checker program (with its arguments) run as `program… INPUT OUTPUT ANSWER`.
pub fn parse_checker(text: &str) -> Result<Checker, String> {
    let named = toml::from_str::<NamedChecker>(&format!("checker = {}", toml_string(text)));
    if let Ok(named) = named {
        let files = Files {
            root: Path::new("."),
            built: false,
            sources: &[],
        };
        return resolve_checker(&named.checker, &files).map_err(|(_, message)| message);
    }
    let mut words = text.split_whitespace().map(str::to_string);
    let program = words
        .next()
        .ok_or_else(|| "the checker is empty".to_string())?;
    if !program.contains('/')
        && !Path::new(&program).exists()
        && crate::sandbox::run::find_program(Path::new(&program)).is_err()
    {
        return Err(format!(
            "unknown checker `{text}` (hint: tokens, tokens-ignore-case, lines, exact, float, unordered-blocks, or the path of a checker program)"
        ));
    }
    let program = if program.contains('/') {
        std::path::absolute(&program).unwrap_or_else(|_| PathBuf::from(&program))
    } else {
        PathBuf::from(program)
    };
    Ok(Checker::Command {
        program,
        args: words.collect(),
        shown: None,
    })
}

#[derive(serde::Deserialize)]
struct NamedChecker {
    checker: RawChecker,
}

fn toml_string(text: &str) -> String {
    let escaped: String = text
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c if c.is_control() => vec![],
            c => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkers_by_name_or_program() {
        assert_eq!(parse_checker("lines").unwrap(), Checker::Lines);
        assert_eq!(
            parse_checker("tokens-ignore-case").unwrap(),
            Checker::TokensIgnoreCase
        );
        assert!(matches!(
            parse_checker("float").unwrap(),
            Checker::Float { .. }
        ));
        match parse_checker("./chk --strict").unwrap() {
            Checker::Command { program, args, .. } => {
                assert!(program.is_absolute());
                assert_eq!(args, ["--strict"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_checker("tokenz")
            .unwrap_err()
            .contains("unknown checker"));
    }

    #[test]
    fn limits_come_from_the_command_line_then_the_user() {
        let user = UserConfig {
            time_limit: Some(Duration::from_secs(3)),
            memory_limit: Some(512 << 20),
            ..UserConfig::default()
        };
        let limits = LimitOverrides {
            memory_limit: Some(64 << 20),
            ..LimitOverrides::default()
        };
        let config = config(Path::new("/contest/1850A"), &user, "test".into(), &limits);
        let problem = &config.problems[0];
        assert_eq!(problem.name, "1850A");
        assert_eq!(problem.time_limit, Duration::from_secs(3));
        assert_eq!(problem.memory_limit, 64 << 20);
        assert_eq!(problem.checker, Checker::Tokens);
        assert!(config.languages.iter().any(|l| l.id == "java"));
    }
}
