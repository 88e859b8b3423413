//! The command line's limits (`--time-limit`, `--memory-limit`, `--checker`), laid over a
//! problem's own, or over the user's defaults for a problem made up with no judge.toml
//! (`standalone`): one place for every command that takes them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::commands::Files;
use super::raw::RawChecker;
use super::resolve::resolve_checker;
use super::settings::Problem;
use crate::check::Checker;

/// What the command line says about a problem's limits; `None` keeps the problem's. It is the
/// command line's option group itself (`judge`, `stress`), each field's help its `--help`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LimitOverrides {
    /// The CPU time limit (default: the problem's; without judge.toml, 2s).
    #[arg(long, value_name = "DURATION", value_parser = crate::units::parse_duration)]
    pub time_limit: Option<Duration>,
    /// The memory limit (default: the problem's; without judge.toml, 256MiB).
    #[arg(long, value_name = "SIZE", value_parser = crate::units::parse_size)]
    pub memory_limit: Option<u64>,
    /// How outputs are compared: tokens, tokens-ignore-case, lines, exact, float,
    /// unordered-blocks, or a checker program (`./checker`, run as `checker IN OUT ANS`).
    #[arg(long, value_name = "CHECKER", value_parser = parse_checker)]
    pub checker: Option<Checker>,
}

impl LimitOverrides {
    /// `problem` with these laid over it; a new time limit brings its wall-clock limit along.
    pub fn apply(&self, problem: &mut Problem) {
        if let Some(time_limit) = self.time_limit {
            problem.time_limit = time_limit;
            problem.wall_limit = crate::sandbox::run::wall_limit(time_limit);
        }
        if let Some(memory_limit) = self.memory_limit {
            problem.memory_limit = memory_limit;
        }
        if let Some(checker) = &self.checker {
            problem.checker = checker.clone();
        }
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
}
