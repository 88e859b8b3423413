//! The programs a problem table names, made into settings: its checker (a built-in name or a
//! command whose files are made absolute) and its interactor with its protocol.

use std::path::PathBuf;

use super::commands::Files;
use super::error::Key;
use super::raw::{CheckerName, CheckerTable, RawChecker, RawCommand, RawProblem};
use super::settings::{Interactor, InteractorProgram};
use crate::check::Checker;
use crate::verdict::InteractorProtocol;

/// Tolerance of the float checker when judge.toml names it without one.
const DEFAULT_FLOAT_TOLERANCE: f64 = 1e-6;

/// Where a checker's error is: its key under `table`, or the word of its command.
pub(super) fn checker_keys<'a>(table: &[Key<'a>], word: Option<usize>) -> Vec<Key<'a>> {
    let mut keys = table.to_vec();
    keys.push(Key::Name("checker"));
    if let Some(word) = word {
        keys.extend([Key::Name("command"), Key::Index(word)]);
    }
    keys
}

/// The checker `raw` names; an error says which word of its command it is about, if one.
pub(super) fn resolve_checker(
    raw: &RawChecker,
    files: &Files<'_>,
) -> Result<Checker, (Option<usize>, String)> {
    let float = |absolute: Option<f64>, relative: Option<f64>| Checker::Float {
        absolute: absolute.unwrap_or(DEFAULT_FLOAT_TOLERANCE),
        relative: relative.unwrap_or(DEFAULT_FLOAT_TOLERANCE),
    };
    Ok(match raw {
        RawChecker::Name(CheckerName::Tokens)
        | RawChecker::Table(CheckerTable::Tokens {
            case_sensitive: None | Some(true),
        }) => Checker::Tokens,
        RawChecker::Name(CheckerName::TokensIgnoreCase)
        | RawChecker::Table(CheckerTable::Tokens {
            case_sensitive: Some(false),
        }) => Checker::TokensIgnoreCase,
        RawChecker::Name(CheckerName::Lines) | RawChecker::Table(CheckerTable::Lines {}) => {
            Checker::Lines
        }
        RawChecker::Name(CheckerName::Exact) | RawChecker::Table(CheckerTable::Exact {}) => {
            Checker::Exact
        }
        RawChecker::Name(CheckerName::UnorderedBlocks)
        | RawChecker::Table(CheckerTable::UnorderedBlocks {}) => Checker::UnorderedBlocks,
        RawChecker::Name(CheckerName::Float) => float(None, None),
        RawChecker::Table(CheckerTable::Float { absolute, relative }) => {
            for tolerance in [absolute, relative].into_iter().flatten() {
                if !(tolerance.is_finite() && *tolerance >= 0.0) {
                    return Err((
                        None,
                        format!("float tolerance {tolerance} must be a non-negative number"),
                    ));
                }
            }
            float(*absolute, *relative)
        }
        RawChecker::Table(CheckerTable::Command { command }) => {
            check_command(command).map_err(|message| (None, message))?;
            // The checker does not run in judge.toml's folder: its files are made absolute.
            let mut command = files
                .resolve(command)
                .map_err(|missing| (Some(missing.index), missing.message))?;
            let program = PathBuf::from(command.remove(0));
            Checker::Command {
                program,
                args: command,
                shown: None,
            }
        }
    })
}

/// The interactor of a problem table, with its protocol (testlib unless it says otherwise)
/// and, for testlib, the problem's own checker for the interactor's OUTPUT file. An error
/// says under which keys of the table it is.
pub(super) fn resolve_interactor(
    problem: &RawProblem,
    files: &Files<'_>,
) -> Result<Option<Interactor>, (Vec<Key<'static>>, String)> {
    let interactor = || vec![Key::Name("interactor")];
    let Some(raw) = &problem.interactor else {
        if problem.interactor_protocol.is_some() {
            return Err((
                vec![Key::Name("interactor-protocol")],
                "`interactor-protocol` is set but `interactor` is not".to_string(),
            ));
        }
        return Ok(None);
    };
    let program = match raw {
        RawCommand::File(source) if source.trim().is_empty() => {
            return Err((interactor(), "`interactor` is empty".to_string()))
        }
        RawCommand::File(source) => InteractorProgram::Source(
            files
                .file_only(source)
                .map_err(|missing| (interactor(), format!("interactor: {}", missing.message)))?
                .into(),
        ),
        RawCommand::Command(command) => {
            check_command(command).map_err(|m| (interactor(), format!("interactor: {m}")))?;
            // It runs in a scratch folder: its files are made absolute.
            let mut command = files.resolve(command).map_err(|missing| {
                (
                    vec![Key::Name("interactor"), Key::Index(missing.index)],
                    format!("interactor: {}", missing.message),
                )
            })?;
            InteractorProgram::Command {
                program: PathBuf::from(command.remove(0)),
                args: command,
            }
        }
    };
    let protocol = problem
        .interactor_protocol
        .unwrap_or(InteractorProtocol::Testlib);
    let checker = match (&problem.checker, protocol) {
        (None, _) => None,
        (Some(_), InteractorProtocol::Kattis) => {
            return Err((vec![Key::Name("checker")], "a Kattis interactor judges the dialogue itself, so `checker` has nothing to check (hint: remove `checker`, or use interactor-protocol = \"testlib\", whose OUTPUT file goes to the checker)".to_string()))
        }
        (Some(checker), InteractorProtocol::Testlib) => {
            Some(resolve_checker(checker, files).map_err(|(word, message)| {
                (checker_keys(&[], word), format!("checker: {message}"))
            })?)
        }
    };
    Ok(Some(Interactor {
        program,
        protocol,
        checker,
    }))
}

pub(super) fn check_command(command: &[String]) -> Result<(), String> {
    match command.first() {
        Some(program) if !program.trim().is_empty() => Ok(()),
        _ => Err("the command is empty".to_string()),
    }
}
