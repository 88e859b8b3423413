//! judge.toml as written: the tables serde reads, before any check. Unknown keys are
//! rejected here, with their line and column.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use super::settings::{SeedRange, ValidatorProtocol};
use super::values::{DurationValue, OutputLimit, SizeValue, TimeMultiplier};
use crate::verdict::InteractorProtocol;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawFile {
    #[serde(default)]
    pub(super) defaults: RawDefaults,
    #[serde(default)]
    pub(super) problems: BTreeMap<String, RawProblem>,
    #[serde(default)]
    pub(super) languages: BTreeMap<String, RawLanguage>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawDefaults {
    pub(super) build: Option<Vec<String>>,
    pub(super) time_limit: Option<DurationValue>,
    pub(super) wall_limit: Option<DurationValue>,
    pub(super) memory_limit: Option<SizeValue>,
    pub(super) output_limit: Option<OutputLimit>,
    pub(super) checker: Option<RawChecker>,
    pub(super) sandbox: Option<crate::sandbox::Mode>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawProblem {
    pub(super) title: Option<String>,
    pub(super) label: Option<String>,
    pub(super) url: Option<String>,
    pub(super) solution: Option<String>,
    pub(super) package: Option<String>,
    pub(super) reference: Option<RawCommand>,
    pub(super) cases: Option<String>,
    pub(super) time_limit: Option<DurationValue>,
    pub(super) wall_limit: Option<DurationValue>,
    pub(super) memory_limit: Option<SizeValue>,
    pub(super) output_limit: Option<OutputLimit>,
    pub(super) checker: Option<RawChecker>,
    pub(super) validator: Option<Vec<String>>,
    pub(super) validator_protocol: Option<ValidatorProtocol>,
    #[serde(default)]
    pub(super) generators: Vec<RawGenerator>,
    pub(super) stress: Option<RawStress>,
    pub(super) interactor: Option<RawCommand>,
    pub(super) interactor_protocol: Option<InteractorProtocol>,
    #[serde(default)]
    pub(super) interactive: bool,
    #[serde(default)]
    pub(super) multi_test: bool,
    #[serde(default)]
    pub(super) output_only: bool,
    pub(super) grader: Option<BTreeMap<String, String>>,
    pub(super) grader_files: Option<Vec<String>>,
    pub(super) communication: Option<RawCommunication>,
    pub(super) input_file: Option<String>,
    pub(super) output_file: Option<String>,
    pub(super) scoring: Option<toml::Value>,
    pub(super) expected_scores: Option<toml::Value>,
}

/// `communication = { manager = "manager.cpp", processes = 2 }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawCommunication {
    pub(super) manager: RawCommand,
    pub(super) processes: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawGenerator {
    pub(super) name: String,
    pub(super) command: Vec<String>,
    pub(super) seeds: SeedRange,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawStress {
    pub(super) generator: Vec<String>,
    pub(super) shrink: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawLanguage {
    pub(super) name: Option<String>,
    pub(super) extensions: Vec<String>,
    pub(super) compile: Option<Vec<String>>,
    pub(super) run: Vec<String>,
    pub(super) time_multiplier: Option<TimeMultiplier>,
    pub(super) compile_time_limit: Option<DurationValue>,
    pub(super) compile_memory_limit: Option<SizeValue>,
    pub(super) sandbox: Option<crate::sandbox::LanguageSandbox>,
    #[serde(default)]
    pub(super) tools: Vec<String>,
}

/// `reference = "brute.py"` (a file) or `reference = ["python3", "brute.py"]` (a command);
/// `interactor` and a communication `manager` alike (`"source.cpp"` or `["command", …]`).
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawCommand {
    File(String),
    Command(Vec<String>),
}

/// `checker = "tokens"`, or a table for checkers that take options.
#[derive(Clone)]
pub(super) enum RawChecker {
    Name(CheckerName),
    Table(CheckerTable),
}

/// By hand rather than `#[serde(untagged)]`, whose only message is "data did not match any
/// variant": a misspelt name must say which names there are.
impl<'de> Deserialize<'de> for RawChecker {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = RawChecker;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a checker name (\"tokens\") or a table ({ type = \"float\", … })")
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<RawChecker, E> {
                CheckerName::deserialize(serde::de::value::StrDeserializer::<E>::new(name))
                    .map(RawChecker::Name)
                    .map_err(|_| {
                        E::custom(format!(
                            "unknown checker `{name}` (known: tokens, tokens-ignore-case, lines, exact, float, unordered-blocks; a program is `{{ type = \"command\", command = [...] }}`)"
                        ))
                    })
            }

            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                map: M,
            ) -> Result<RawChecker, M::Error> {
                CheckerTable::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(RawChecker::Table)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub(super) enum CheckerName {
    Tokens,
    TokensIgnoreCase,
    Lines,
    Exact,
    Float,
    UnorderedBlocks,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields, rename_all = "kebab-case", tag = "type")]
pub(super) enum CheckerTable {
    #[serde(rename_all = "kebab-case")]
    Tokens {
        case_sensitive: Option<bool>,
    },
    Lines {},
    Exact {},
    #[serde(rename_all = "kebab-case")]
    Float {
        absolute: Option<f64>,
        relative: Option<f64>,
    },
    UnorderedBlocks {},
    Command {
        command: Vec<String>,
    },
}
