//! 2025-09's `submissions/submissions.yaml` as the spec and BAPCtools (`expectations.py`) read
//! it: each key a glob of submissions (a folder covers what is in it), each with `permitted`
//! and `required` verdict sets, `message`, `score` and `use_for_time_limit`, for all cases or,
//! under a test-case glob key (`secret/group1`), for those cases only. The default folders'
//! rules come first (`wrong_answer`: permitted AC/WA, required WA, …); a key naming a default
//! folder overrides the keys it writes. A submission meets its rules when every case judged
//! has a permitted verdict, some case of each rule has a required one, and the rule's
//! `message` is in some case's judge message. Judging stops at the first failing case, as
//! BAPCtools does by default: a rule over cases that were not run is taken as met. A `score`
//! is the submission's expected score (for all cases) or a test data group's (under a group's
//! key); BAPCtools reads it but does not check it ("Scoring is not implemented").

use std::path::Path;

use globset::GlobBuilder;
use serde_norway::Value;

use super::PackageError;
use crate::score::{ExpectedScore, GroupScore};
use crate::verdict::Verdict;

/// The verdicts a stored submission may be expected to get (a judge error never is): the
/// verdicts `submissions.yaml`'s rules and a folder's name are read into.
/// (`Verdict::ALL` but its last, JE.)
pub const EXPECTED: &[Verdict] = Verdict::ALL.split_at(Verdict::ALL.len() - 1).0;

/// The four verdicts of the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Code {
    Ac,
    Wa,
    Tle,
    Rte,
}

const ALL: [Code; 4] = [Code::Ac, Code::Wa, Code::Tle, Code::Rte];

impl Code {
    pub fn as_str(self) -> &'static str {
        ["AC", "WA", "TLE", "RTE"][self as usize]
    }

    fn parse(text: &str) -> Option<Code> {
        ALL.into_iter().find(|c| c.as_str() == text.trim())
    }

    /// A verdict as the format names it: MLE and OLE are run-time errors; a compile or judge
    /// error is none of the four (never permitted).
    pub fn of(verdict: Verdict) -> Option<Code> {
        match verdict {
            Verdict::Accepted => Some(Code::Ac),
            Verdict::WrongAnswer => Some(Code::Wa),
            Verdict::TimeLimitExceeded => Some(Code::Tle),
            Verdict::RuntimeError | Verdict::MemoryLimitExceeded | Verdict::OutputLimitExceeded => {
                Some(Code::Rte)
            }
            _ => None,
        }
    }
}

/// Whether a rule bounds the time limit (the spec's "Timelimit inference").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeLimitUse {
    /// Must not time out: its slowest case times `ac_to_time_limit` is at most the limit.
    Lower,
    /// Must time out: the limit times `time_limit_to_tle` is at most its slowest case.
    Upper,
    Neither,
}

/// A glob of the format: `*` within one name, `{a,b}` either, matching a path or any folder
/// above it.
#[derive(Debug, Clone)]
pub struct Glob {
    pub text: String,
    /// One matcher per expansion of its braces (`{,0}{2,4}` is four globs), shared by the
    /// rules of every submission the glob's entry names.
    matchers: std::sync::Arc<[globset::GlobMatcher]>,
}

impl PartialEq for Glob {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Glob {}

/// Patterns a glob, and all the globs of one submissions.yaml together, may stand for (each
/// brace expansion is one, each key at least one): far more than any submissions.yaml
/// writes, and few enough that their matchers take megabytes, not gigabytes.
pub const MAX_EXPANSIONS: usize = 4096;

impl Glob {
    /// A glob alone, with the whole bound to itself.
    #[cfg(test)]
    pub fn new(text: &str) -> Result<Glob, String> {
        Glob::within(text, &mut MAX_EXPANSIONS.clone()).map_err(|error| match error {
            GlobError::Bad(message) => message,
            GlobError::TooMany => {
                format!("`{text}` stands for more than {MAX_EXPANSIONS} patterns")
            }
        })
    }

    /// A glob whose patterns come out of `budget`, what is left of a bound that several
    /// globs share; none is made when they would not fit.
    fn within(text: &str, budget: &mut usize) -> Result<Glob, GlobError> {
        let build = |pattern: &str| GlobBuilder::new(pattern).literal_separator(true).build();
        let patterns =
            expand_braces(text.trim_end_matches('/'), *budget).ok_or(GlobError::TooMany)?;
        *budget -= patterns.len();
        let mut matchers = Vec::with_capacity(patterns.len());
        for pattern in patterns {
            let glob = build(&pattern)
                .or_else(|_| build(&globset::escape(&pattern)))
                .map_err(|e| GlobError::Bad(format!("`{text}` is not a glob: {e}")))?;
            matchers.push(glob.compile_matcher());
        }
        Ok(Glob {
            text: text.to_string(),
            matchers: matchers.into(),
        })
    }

    /// Whether `name` itself (a test data group's, `secret/group1`) matches, not a folder
    /// above it.
    pub fn names(&self, name: &str) -> bool {
        self.matchers.iter().any(|m| m.is_match(name))
    }

    /// Whether `name` (`accepted/a.py`, `secret/group1/01`) or a folder above it matches.
    pub fn matches(&self, name: &str) -> bool {
        Path::new(name)
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| self.matchers.iter().any(|m| m.is_match(a)))
    }
}

/// Why a glob was not made.
enum GlobError {
    /// Not a glob.
    Bad(String),
    /// More patterns than are left of the bound.
    TooMany,
}

/// Every pattern a glob's `{a,b}` groups stand for (their cartesian product), each
/// alternative with its spaces taken out and an empty one allowed, as BAPCtools reads them
/// (`secret/*{ 4 }{ 2 }` is `secret/*42`); `None` when they are more than `limit`.
fn expand_braces(text: &str, limit: usize) -> Option<Vec<String>> {
    let mut patterns = vec![String::new()];
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| c + open) else {
            break;
        };
        let before = &rest[..open];
        let alternatives: Vec<&str> = rest[open + 1..close].split(',').map(str::trim).collect();
        if patterns.len().saturating_mul(alternatives.len()) > limit {
            return None;
        }
        patterns = patterns
            .iter()
            .flat_map(|p| alternatives.iter().map(move |a| format!("{p}{before}{a}")))
            .collect();
        rest = &rest[close + 1..];
    }
    (patterns.len() <= limit).then(|| patterns.into_iter().map(|p| p + rest).collect())
}

/// One rule: what a submission's verdicts on some cases must be.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// Where it comes from, for the report: `default wrong_answer`, `submissions.yaml mixed`.
    pub origin: String,
    /// The cases it is about (`None`: all).
    pub cases: Option<Glob>,
    pub permitted: Vec<Code>,
    pub required: Vec<Code>,
    pub message: Option<String>,
    /// `score`: without `cases`, the submission's score; with them, the score of each test
    /// data group the glob names (the spec: "a constraint on the aggregated score of a given
    /// test data group, not on the set of test cases the group contains").
    pub score: Option<ExpectedScore>,
    pub time_limit: TimeLimitUse,
}

impl Rule {
    fn new(origin: &str, permitted: &[Code], required: &[Code]) -> Rule {
        Rule {
            origin: origin.to_string(),
            cases: None,
            permitted: permitted.to_vec(),
            required: required.to_vec(),
            message: None,
            score: None,
            time_limit: default_time_limit_use(permitted, required),
        }
    }

    fn applies(&self, case: &str) -> bool {
        self.cases.as_ref().is_none_or(|g| g.matches(case))
    }
}

fn default_time_limit_use(permitted: &[Code], required: &[Code]) -> TimeLimitUse {
    if !permitted.contains(&Code::Tle) {
        TimeLimitUse::Lower
    } else if required == [Code::Tle] {
        TimeLimitUse::Upper
    } else {
        TimeLimitUse::Neither
    }
}

/// The rules of the spec's default folders.
pub fn default_rule(folder: &str) -> Option<Rule> {
    use Code::*;
    let origin = format!("default {folder}");
    Some(match folder {
        "accepted" => Rule::new(&origin, &[Ac], &[Ac]),
        "rejected" => Rule::new(&origin, &ALL, &[Rte, Tle, Wa]),
        "wrong_answer" => Rule::new(&origin, &[Ac, Wa], &[Wa]),
        "time_limit_exceeded" => Rule::new(&origin, &[Ac, Tle], &[Tle]),
        "run_time_error" => Rule::new(&origin, &[Ac, Rte], &[Rte]),
        "brute_force" => {
            let mut rule = Rule::new(&origin, &[Ac, Rte, Tle], &[Rte, Tle]);
            // "by default these are not used for determining the time limit"
            rule.time_limit = TimeLimitUse::Neither;
            rule
        }
        _ => return None,
    })
}

/// All the rules a submission must meet, with the package's case names (judged or not).
#[derive(Debug, Clone, PartialEq)]
pub struct Expectations {
    pub rules: Vec<Rule>,
    /// Shared by every submission's expectations: one list however many submissions.
    pub cases: std::sync::Arc<[String]>,
}

// Scores are compared as written; no NaN comes from a YAML number.
impl Eq for Expectations {}

/// One judged case, as the check needs it.
pub struct JudgedCase<'a> {
    pub name: &'a str,
    pub verdict: Verdict,
    /// The judge's message for it (judgemessage.txt, as the reason shows it).
    pub message: &'a str,
}

impl Expectations {
    /// `Ok` when the judged cases meet every rule, else why not (the first rule broken).
    /// `compiled`: a submission that did not compile meets none.
    pub fn check(&self, compiled: bool, judged: &[JudgedCase<'_>]) -> Result<(), String> {
        if !compiled {
            return Err("it did not compile".to_string());
        }
        let judged_names: std::collections::HashSet<&str> = judged.iter().map(|c| c.name).collect();
        for rule in &self.rules {
            let applying: Vec<&JudgedCase<'_>> =
                judged.iter().filter(|c| rule.applies(c.name)).collect();
            for case in &applying {
                let permitted = Code::of(case.verdict).is_some_and(|c| rule.permitted.contains(&c));
                if !permitted {
                    return Err(format!(
                        "{} on {}, not permitted by {} ({})",
                        case.verdict.as_str(),
                        case.name,
                        rule.origin,
                        codes(&rule.permitted)
                    ));
                }
            }
            // A case of the rule that was not run might have given what it requires.
            let unjudged = self
                .cases
                .iter()
                .any(|name| !judged_names.contains(name.as_str()) && rule.applies(name));
            let required = unjudged
                || applying
                    .iter()
                    .any(|c| Code::of(c.verdict).is_some_and(|code| rule.required.contains(&code)));
            if !required {
                return Err(format!(
                    "no case got {} as {} requires",
                    codes(&rule.required),
                    rule.origin,
                ));
            }
            if let Some(message) = &rule.message {
                let found = unjudged
                    || applying
                        .iter()
                        .any(|c| c.message.contains(message.as_str()));
                if !found {
                    return Err(format!(
                        "no judge message holds `{message}` ({})",
                        rule.origin
                    ));
                }
            }
        }
        Ok(())
    }

    /// What the report shows as expected: the permitted verdicts of the rules for all cases,
    /// what some case must get where that says more, and how many rules are over some cases
    /// only (`AC/WA, some WA +2`).
    pub fn label(&self) -> String {
        let mut permitted: Vec<Code> = ALL.to_vec();
        let mut required: Vec<Code> = Vec::new();
        let mut partial = 0;
        for rule in &self.rules {
            if rule.cases.is_some() {
                partial += 1;
                continue;
            }
            permitted.retain(|c| rule.permitted.contains(c));
            if rule.required != rule.permitted && rule.required.len() < ALL.len() {
                required = rule.required.clone();
            }
        }
        let mut label = if permitted.len() == ALL.len() && required.is_empty() {
            "any".to_string()
        } else {
            codes(&permitted)
        };
        if !required.is_empty() && required != permitted {
            label = if permitted.len() == ALL.len() {
                format!("some {}", codes(&required))
            } else {
                format!("{label}, some {}", codes(&required))
            };
        }
        if partial > 0 {
            label.push_str(&format!(" +{partial}"));
        }
        label
    }

    /// The score the rules for all cases state for the submission, all of them met at once
    /// (`score: [30, 60]` and `score: 40` make 40); `Err` when no score meets them all.
    pub fn stated_score(&self) -> Result<Option<ExpectedScore>, String> {
        let mut stated: Option<(ExpectedScore, &str)> = None;
        for rule in self.rules.iter().filter(|r| r.cases.is_none()) {
            let Some(score) = rule.score else { continue };
            stated = Some(match stated {
                None => (score, &rule.origin),
                Some((before, origin)) => match before.and(score) {
                    Some(both) => (both, origin),
                    None => {
                        return Err(format!(
                            "{origin} wants score {before}, {} wants {score}: no score is both",
                            rule.origin
                        ))
                    }
                },
            });
        }
        Ok(stated.map(|(score, _)| score))
    }

    /// Whether the groups' scores (`None`: the problem is not scored, or not every case was
    /// judged, and why) meet the rules' `score` for test data groups; why not, the first
    /// broken.
    pub fn check_group_scores(&self, groups: Result<&[GroupScore], &str>) -> Result<(), String> {
        for rule in &self.rules {
            let (Some(cases), Some(expected)) = (&rule.cases, rule.score) else {
                continue;
            };
            let groups = groups.map_err(|why| {
                format!(
                    "expected score {expected} on `{}` ({}), but there is no score: {why}",
                    cases.text, rule.origin
                )
            })?;
            let named: Vec<&GroupScore> = groups.iter().filter(|g| cases.names(&g.name)).collect();
            if named.is_empty() {
                let known: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
                return Err(format!(
                    "{}: `score` is for a test data group, and `{}` names none (the groups: {})",
                    rule.origin,
                    cases.text,
                    known.join(", ")
                ));
            }
            for group in named {
                match group.score {
                    Some(got) if expected.admits(got) => {}
                    Some(got) => {
                        return Err(format!(
                            "expected score {expected} on `{}` ({}), got {}",
                            group.name,
                            rule.origin,
                            crate::score::format_score(got)
                        ))
                    }
                    None => {
                        return Err(format!(
                            "expected score {expected} on `{}` ({}), but it has no score",
                            group.name, rule.origin
                        ))
                    }
                }
            }
        }
        Ok(())
    }

    /// How the submission bounds the time limit: lower when any rule says so.
    pub fn time_limit_use(&self) -> TimeLimitUse {
        [TimeLimitUse::Lower, TimeLimitUse::Upper]
            .into_iter()
            .find(|bound| self.rules.iter().any(|r| r.time_limit == *bound))
            .unwrap_or(TimeLimitUse::Neither)
    }

    /// The cases whose times bound the time limit from below, by the rules that do (`None`
    /// in the list: every case); empty when none does.
    pub fn lower_bound_cases(&self) -> Vec<Option<Glob>> {
        self.rules
            .iter()
            .filter(|r| r.time_limit == TimeLimitUse::Lower)
            .map(|r| r.cases.clone())
            .collect()
    }

    /// The verdicts the whole submission may end with (its first failing case's, or AC).
    pub fn may_end_with(&self) -> Vec<Verdict> {
        EXPECTED
            .iter()
            .copied()
            .filter(|v| {
                Code::of(*v).is_some_and(|code| {
                    self.rules
                        .iter()
                        .filter(|r| r.cases.is_none())
                        .all(|r| r.permitted.contains(&code))
                })
            })
            .collect()
    }
}

fn codes(list: &[Code]) -> String {
    let mut sorted = list.to_vec();
    sorted.sort();
    sorted.dedup();
    sorted
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join("/")
}

/// One key of submissions.yaml, read: the submissions it names and its rules.
#[derive(Debug, Clone)]
pub struct Entry {
    pub glob: Glob,
    /// Its own keys (`permitted`, … as written), for a default folder's override.
    pub rules: Vec<RuleKeys>,
}

/// A rule's keys as written (each one `None` when absent), before defaults fill them in.
#[derive(Debug, Clone, Default)]
pub struct RuleKeys {
    pub cases: Option<Glob>,
    pub permitted: Option<Vec<Code>>,
    pub required: Option<Vec<Code>>,
    pub message: Option<String>,
    pub score: Option<ExpectedScore>,
    pub time_limit: Option<Value>,
}

impl RuleKeys {
    /// The rule these keys make over `base` (a default folder's, or the spec's defaults).
    fn over(&self, base: Option<&Rule>, origin: &str) -> Rule {
        // Each list: its own key's, else the base's, else every code.
        let codes = |own: &Option<Vec<Code>>, of_base: fn(&Rule) -> &Vec<Code>| {
            own.clone()
                .or_else(|| base.map(|b| of_base(b).clone()))
                .unwrap_or_else(|| ALL.to_vec())
        };
        let permitted = codes(&self.permitted, |b| &b.permitted);
        let required = codes(&self.required, |b| &b.required);
        let computed = match base {
            Some(base) if self.permitted.is_none() && self.required.is_none() => base.time_limit,
            _ => default_time_limit_use(&permitted, &required),
        };
        let time_limit = match &self.time_limit {
            Some(Value::Bool(false)) => TimeLimitUse::Neither,
            Some(Value::String(s)) if s == "lower" => TimeLimitUse::Lower,
            Some(Value::String(s)) if s == "upper" => TimeLimitUse::Upper,
            _ => computed,
        };
        Rule {
            origin: origin.to_string(),
            cases: self.cases.clone(),
            permitted,
            required,
            message: self
                .message
                .clone()
                .or_else(|| base.and_then(|b| b.message.clone())),
            score: self.score.or_else(|| base.and_then(|b| b.score)),
            time_limit,
        }
    }
}

/// Keys of an entry that are not test-case globs.
const ENTRY_KEYS: [&str; 9] = [
    "language",
    "entrypoint",
    "authors",
    "model_solution",
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];

/// Reads the `submissions.yaml` of `folder` (none: no entries), a folder of submissions below
/// `root`: the package's `submissions/`, or the one `verify --submissions` names.
pub fn read_in(root: &Path, folder: &Path) -> Result<Vec<Entry>, PackageError> {
    let path = folder.join("submissions.yaml");
    super::check_inside(root, &path)?;
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let yaml = super::yaml::read(&path)?;
    let invalid = |message: String| super::invalid(&path, message);
    let Some(map) = yaml.as_mapping() else {
        return Err(invalid("must be a map of submission globs".to_string()));
    };
    // One bound for the whole file: each key's glob and each of its case globs takes its
    // patterns out of it, so 3,000 keys cannot each stand for thousands.
    let mut budget = MAX_EXPANSIONS;
    let mut glob = |text: &str| {
        Glob::within(text, &mut budget).map_err(|error| match error {
            GlobError::Bad(message) => invalid(message),
            GlobError::TooMany => invalid(format!(
                "its globs stand for more than {MAX_EXPANSIONS} patterns in all (each key one, each `{{a,b}}` one per choice), reached at `{}`: not read (hint: one glob with `*` names many submissions)",
                crate::text::cut(text, 80)
            )),
        })
    };
    let mut entries = Vec::new();
    for (key, value) in map {
        let Some(pattern) = key.as_str() else {
            return Err(invalid(
                "its keys are submission globs (strings)".to_string(),
            ));
        };
        let glob_of_key = glob(pattern)?;
        let Some(body) = value.as_mapping() else {
            return Err(invalid(format!(
                "`{pattern}` must map to its keys (`permitted`, …)"
            )));
        };
        let mut rules = vec![rule_keys(value, None, pattern).map_err(&invalid)?];
        for (case_key, case_value) in body {
            let Some(case_pattern) = case_key.as_str() else {
                continue;
            };
            if ENTRY_KEYS.contains(&case_pattern) {
                continue;
            }
            let cases = glob(case_pattern)?;
            rules.push(
                rule_keys(
                    case_value,
                    Some(cases),
                    &format!("{pattern}: {case_pattern}"),
                )
                .map_err(&invalid)?,
            );
        }
        entries.push(Entry {
            glob: glob_of_key,
            rules,
        });
    }
    Ok(entries)
}

fn rule_keys(value: &Value, cases: Option<Glob>, at: &str) -> Result<RuleKeys, String> {
    let list = |name: &str| -> Result<Option<Vec<Code>>, String> {
        let items: Vec<String> = match value.get(name) {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::String(one)) => vec![one.clone()],
            Some(Value::Sequence(items)) => items
                .iter()
                .map(|i| {
                    i.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("`{at}`: `{name}` lists verdicts"))
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(format!("`{at}`: `{name}` is a list of AC, WA, TLE, RTE")),
        };
        items
            .iter()
            .map(|i| {
                Code::parse(i).ok_or_else(|| {
                    format!("`{at}`: `{i}` in `{name}` is not one of AC, WA, TLE, RTE")
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    };
    let score = match value.get("score") {
        None | Some(Value::Null) => None,
        Some(v) => Some(ExpectedScore::from_yaml(v).map_err(|e| format!("`{at}`: {e}"))?),
    };
    let message = match value.get("message") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => return Err(format!("`{at}`: `message` is a string")),
    };
    let time_limit = match value.get("use_for_time_limit") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Bool(_)) => Some(v.clone()),
        Some(Value::String(s)) if s == "lower" || s == "upper" => Some(Value::String(s.clone())),
        Some(_) => {
            return Err(format!(
                "`{at}`: `use_for_time_limit` is true, false, `lower` or `upper`"
            ))
        }
    };
    Ok(RuleKeys {
        cases,
        permitted: list("permitted")?,
        required: list("required")?,
        message,
        score,
        time_limit,
    })
}

/// The rules of the submission `name` (`wrong_answer/slow.py`) in the folder `folder`, or
/// `None` when submissions.yaml says nothing of it (its folder alone decides).
pub fn for_submission(
    entries: &[Entry],
    folder: &str,
    name: &str,
    cases: &std::sync::Arc<[String]>,
) -> Option<Expectations> {
    let matching: Vec<&Entry> = entries.iter().filter(|e| e.glob.matches(name)).collect();
    if matching.is_empty() {
        return None;
    }
    let default = default_rule(folder);
    let mut rules = Vec::new();
    // An entry that names the default folder itself overrides its rule; any other adds to it.
    let overriding = matching
        .iter()
        .find(|e| e.glob.text.trim_end_matches('/') == folder);
    match (overriding, &default) {
        (Some(entry), Some(base)) => rules.push(entry.rules[0].over(
            Some(base),
            &format!("submissions.yaml `{}`", entry.glob.text),
        )),
        (_, Some(base)) => rules.push(base.clone()),
        _ => {}
    }
    for entry in &matching {
        for (index, keys) in entry.rules.iter().enumerate() {
            let is_override = index == 0
                && overriding.is_some_and(|o| std::ptr::eq(*o, *entry))
                && default.is_some();
            if is_override {
                continue;
            }
            // An entry with no verdict keys of its own (only `language`, say) adds nothing.
            if index == 0
                && keys.permitted.is_none()
                && keys.required.is_none()
                && keys.message.is_none()
                && keys.score.is_none()
                && keys.time_limit.is_none()
            {
                continue;
            }
            let origin = match &keys.cases {
                Some(cases) => format!(
                    "submissions.yaml `{}` for `{}`",
                    entry.glob.text, cases.text
                ),
                None => format!("submissions.yaml `{}`", entry.glob.text),
            };
            rules.push(keys.over(None, &origin));
        }
    }
    Some(Expectations {
        rules,
        cases: cases.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(list: &[(&'static str, Verdict, &'static str)]) -> Vec<JudgedCase<'static>> {
        list.iter()
            .map(|(name, verdict, message)| JudgedCase {
                name,
                verdict: *verdict,
                message,
            })
            .collect()
    }

    /// The four cases `sample/1`, `secret/easy/1`, `secret/hard/1` and `secret/hard/2`, judged.
    fn four(verdicts: [Verdict; 4], messages: [&'static str; 4]) -> Vec<JudgedCase<'static>> {
        let names = [
            "sample/1",
            "secret/easy/1",
            "secret/hard/1",
            "secret/hard/2",
        ];
        (0..4)
            .map(|i| JudgedCase {
                name: names[i],
                verdict: verdicts[i],
                message: messages[i],
            })
            .collect()
    }

    fn expectations(rules: Vec<Rule>) -> Expectations {
        Expectations {
            rules,
            cases: [
                "sample/1",
                "secret/easy/1",
                "secret/hard/1",
                "secret/hard/2",
            ]
            .map(String::from)
            .to_vec()
            .into(),
        }
    }

    #[test]
    fn permitted_on_every_judged_case_required_on_one() {
        use Verdict::*;
        let wa = expectations(vec![default_rule("wrong_answer").unwrap()]);
        let all_ac = four([Accepted, Accepted, Accepted, Accepted], ["", "", "", ""]);
        assert!(wa
            .check(true, &all_ac)
            .unwrap_err()
            .contains("no case got WA"));
        // Stopped at its first failure: the cases after it were not run.
        let stopped = judged(&[
            ("sample/1", Accepted, ""),
            ("secret/easy/1", WrongAnswer, ""),
        ]);
        assert_eq!(wa.check(true, &stopped), Ok(()));
        let tle = judged(&[("sample/1", TimeLimitExceeded, "")]);
        assert!(wa
            .check(true, &tle)
            .unwrap_err()
            .contains("TLE on sample/1, not permitted"));
        assert!(wa.check(false, &[]).is_err());
        let je = judged(&[("sample/1", JudgeError, "")]);
        assert!(wa.check(true, &je).is_err());
        // MLE counts as RTE.
        let rte = expectations(vec![default_rule("run_time_error").unwrap()]);
        assert_eq!(
            rte.check(true, &judged(&[("sample/1", MemoryLimitExceeded, "")])),
            Ok(())
        );
    }

    #[test]
    fn case_globs_and_messages() {
        use Verdict::*;
        let mut hard = Rule::new("hard", &[Code::Ac, Code::Tle], &[Code::Tle]);
        hard.cases = Some(Glob::new("secret/hard").unwrap());
        let mut easy = Rule::new("easy", &[Code::Ac], &[Code::Ac]);
        easy.cases = Some(Glob::new("secret/*-easy").unwrap());
        let mut said = Rule::new("said", &ALL, &ALL);
        said.message = Some("too slow".to_string());
        let rules = expectations(vec![hard, said]);
        let run = four(
            [Accepted, Accepted, Accepted, TimeLimitExceeded],
            ["", "", "ok", "too slow here"],
        );
        assert_eq!(rules.check(true, &run), Ok(()));
        // Without the message `said` requires; without the TLE `hard` requires.
        for (last, message, says) in [
            (TimeLimitExceeded, "", "`too slow`"),
            (Accepted, "too slow", "no case got TLE as hard requires"),
        ] {
            let run = four([Accepted, Accepted, Accepted, last], ["", "", "", message]);
            let error = rules.check(true, &run).unwrap_err();
            assert!(error.contains(says), "{error}");
        }
        assert!(Glob::new("secret/*{ 4 }{ 2 }")
            .unwrap()
            .matches("secret/42"));
        assert!(Glob::new("secret/*{,0,1}{0, 2}")
            .unwrap()
            .matches("secret/12"));
        assert!(Glob::new("secret/*{,0,1}{0, 2}")
            .unwrap()
            .matches("secret/2"));
        assert!(!easy.applies("secret/easy/1"));
    }

    #[test]
    fn labels_and_time_limit_use() {
        let wa = expectations(vec![default_rule("wrong_answer").unwrap()]);
        assert_eq!(wa.label(), "AC/WA, some WA");
        assert_eq!(wa.time_limit_use(), TimeLimitUse::Lower);
        let rejected = expectations(vec![default_rule("rejected").unwrap()]);
        assert_eq!(rejected.label(), "some WA/TLE/RTE");
        let tle = expectations(vec![default_rule("time_limit_exceeded").unwrap()]);
        assert_eq!(tle.time_limit_use(), TimeLimitUse::Upper);
        let brute = expectations(vec![default_rule("brute_force").unwrap()]);
        assert_eq!(brute.time_limit_use(), TimeLimitUse::Neither);
        assert_eq!(wa.may_end_with(), [Verdict::Accepted, Verdict::WrongAnswer]);
    }

    #[test]
    fn braces_expand_within_a_bound() {
        assert_eq!(
            expand_braces("a{1,2}{x,y}", 4),
            Some(
                vec!["a1x", "a1y", "a2x", "a2y"]
                    .into_iter()
                    .map(String::from)
                    .collect()
            )
        );
        assert_eq!(expand_braces("a{1,2}{x,y}", 3), None);
        // Without braces a glob is one pattern, and still counts.
        assert_eq!(
            expand_braces("accepted/*", 1),
            Some(vec!["accepted/*".to_string()])
        );
        assert_eq!(expand_braces("accepted/*", 0), None);
        // Ten groups of ten: refused before the product is made.
        assert_eq!(
            expand_braces(&"{0,1,2,3,4,5,6,7,8,9}".repeat(10), 4096),
            None
        );
        assert!(Glob::new(&"{a,b}".repeat(13))
            .unwrap_err()
            .contains("stands for more than 4096 patterns"));
    }

    /// The bound is the file's: keys that each stand for a few hundred patterns are refused
    /// together, and case globs count too.
    #[test]
    fn one_bound_for_all_of_submissions_yaml() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("submissions")).unwrap();
        let read = |root: &Path| read_in(root, &root.join("submissions"));
        let write =
            |text: &str| std::fs::write(root.join("submissions/submissions.yaml"), text).unwrap();
        let key = |i: usize| {
            format!(
                "\"k{i}/{{{}}}\":\n  permitted: [AC]\n",
                vec!["x"; 100].join(",")
            )
        };
        write(&(0..40).map(key).collect::<String>());
        assert_eq!(read(root).unwrap().len(), 40);
        write(&(0..41).map(key).collect::<String>());
        let error = read(root).unwrap_err().to_string();
        assert!(
            error.contains("submissions.yaml")
                && error.contains("more than 4096 patterns in all")
                && error.contains("`k40/{"),
            "{error}"
        );
        let cases = format!(
            "  \"secret/{{{}}}\":\n    permitted: [AC]\n",
            vec!["x"; 100].join(",")
        );
        let with_cases: String = (0..41)
            .map(|i| format!("\"k{i}\":\n  permitted: [AC]\n{cases}"))
            .collect();
        write(&with_cases);
        assert!(read(root).unwrap_err().to_string().contains("in all"));
    }
}
