//! A judge without judge.toml (`harness judge a.cpp --cases test`): one problem made up from
//! the command line, the user's config and the built-in defaults.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::languages;
use super::names::FILE_NAME;
use super::settings::{Config, FileIo, Problem, ValidatorProtocol};
use super::user::UserConfig;
use super::LimitOverrides;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Checker;

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
