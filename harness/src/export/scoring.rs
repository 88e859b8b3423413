//! A scored problem of judge.toml as a Kattis scoring package: where each case goes under
//! `data/` and the `testdata.yaml` of each folder, in the legacy keys that problemtools'
//! default grader reads in both dialects (`accept_score`, `range`, `on_reject`,
//! `grader_flags`; verifyproblem reads no 2025-09 `test_group.yaml`), so that verifyproblem
//! scores the stored submissions as `harness verify` does.
//!
//! The shape, after problemtools' own example oddecho:
//! - `data/testdata.yaml`: `grader_flags: ignore_sample` (samples are worth nothing), the
//!   problem's total as `range`;
//! - `data/sample/`: `accept_score: 0`;
//! - `data/secret/`: the sum of its groups, and `accept_if_any_accepted`, so that a
//!   submission that scores is AC (with its score) as problemtools wants of
//!   `partially_accepted/`;
//! - one folder per subtask, `data/secret/<name>/`: `min` (all its cases must pass, the
//!   judge stopping at the first failure) with the group's points as `accept_score`; or
//!   `avg` of its cases each scored the group's points, which is each case its equal share
//!   and, unlike a sum of shares, adds up to the points exactly;
//! - a dependency (`depends-on`) as the format's groups that include others (Kodsport's way):
//!   a `min` group holds copies of the cases of the groups it depends on; a `sum` group holds
//!   two folders, `0-requires/` (those copies, all or nothing) and `1-cases/` (its own), and
//!   scores the lesser;
//! - Luogu points (`scoring = "points"`): every case in `data/secret/` scored by `avg` when
//!   all are worth the same, else a folder per value (`points-10/`).

use std::collections::BTreeMap;

use crate::case::discover::Case;
use crate::config::scoring::ScoringRules;
use crate::config::Problem;
use crate::score::{format_score, CaseValue, Item, Rule, Scoring};

/// Where the cases go and what each folder says.
#[derive(Debug, Default)]
pub struct Layout {
    /// Each case of the problem (by name) and the paths below `data/` (without `.in`) that
    /// hold it: its own place first, then its copies in groups that depend on its group.
    pub places: Vec<(String, Vec<String>)>,
    /// `testdata.yaml` contents by folder below `data/` (`""` is `data/` itself), the
    /// scoring keys only.
    pub testdata: BTreeMap<String, String>,
}

/// The package's layout for a scored problem; `Ok(None)` for a pass-fail one.
pub fn layout(problem: &Problem, cases: &[Case]) -> Result<Option<Layout>, String> {
    let names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
    let Some(scoring) = problem.scoring.build(&names).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let total = scoring
        .max_score()
        .ok_or("its total is unbounded, which a legacy package cannot say")?;
    let mut layout = Layout::default();
    layout.testdata.insert(
        String::new(),
        folder_yaml("continue", total, None, &["ignore_sample"]),
    );
    layout.testdata.insert(
        "sample".into(),
        folder_yaml("continue", 0.0, Some(0.0), &["first_error"]),
    );
    layout.testdata.insert(
        "secret".into(),
        folder_yaml(
            "continue",
            total,
            None,
            &["first_error", "accept_if_any_accepted"],
        ),
    );
    match &problem.scoring.rules {
        ScoringRules::PassFail => return Ok(None),
        ScoringRules::Points(_) => points(&scoring, &mut layout),
        ScoringRules::Groups(_) => groups(&scoring, &mut layout)?,
    }
    Ok(Some(layout))
}

/// A case's file name in the package: its name, flat.
fn flat(name: &str) -> String {
    name.replace('/', "-")
}

/// One folder's scoring keys. `accept` is each case's score (`None`: the inherited one, for
/// folders that hold groups only); the aggregation flags last.
fn folder_yaml(on_reject: &str, max: f64, accept: Option<f64>, flags: &[&str]) -> String {
    let mut yaml = format!("on_reject: {on_reject}\nrange: 0 {max}\n");
    if let Some(accept) = accept {
        yaml.push_str(&format!("accept_score: {accept}\n"));
    }
    if !flags.is_empty() {
        yaml.push_str(&format!("grader_flags: {}\n", flags.join(" ")));
    }
    yaml
}

/// Luogu points: the root's cases, each worth its own points.
fn points(scoring: &Scoring, layout: &mut Layout) {
    // Cases by what they are worth (bit patterns: the values are finite), in judge order.
    let mut by_value: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for case in scoring.cases() {
        match case.value {
            CaseValue::Bounded(value) => by_value
                .entry(value.to_bits())
                .or_default()
                .push(case.name.clone()),
            // A sample no glob names. Named one by one so that a new kind of case value is
            // decided here, not exported as a sample.
            CaseValue::Nothing
            | CaseValue::VerdictOnly
            | CaseValue::Unbounded
            | CaseValue::Kattis { .. } => layout.places.push((
                case.name.clone(),
                vec![format!("sample/{}", flat(&case.name))],
            )),
        }
    }
    let single = by_value.len() == 1;
    for (bits, names) in by_value {
        let value = f64::from_bits(bits);
        let worth = value * names.len() as f64;
        let folder = if single {
            "secret".to_string()
        } else {
            format!("secret/points-{}", format_score(value))
        };
        let flags: &[&str] = if single {
            &["avg", "accept_if_any_accepted"]
        } else {
            &["avg"]
        };
        layout.testdata.insert(
            folder.clone(),
            folder_yaml("continue", worth, Some(worth), flags),
        );
        for name in names {
            let place = format!("{folder}/{}", flat(&name));
            layout.places.push((name, vec![place]));
        }
    }
}

/// Subtasks: a folder per group below `secret/`.
fn groups(scoring: &Scoring, layout: &mut Layout) -> Result<(), String> {
    let root = scoring.root();
    // Each group's folder and its own cases, in declaration order.
    let mut folders: Vec<(String, String)> = Vec::new();
    for item in &root.items {
        match item {
            Item::Case(case) => layout.places.push((
                case.name.clone(),
                vec![format!("sample/{}", flat(&case.name))],
            )),
            Item::Group(group) => {
                let name = &group.name;
                let usable = !name.is_empty()
                    && !name.starts_with('.')
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
                if !usable || name == "sample" {
                    return Err(format!(
                        "its group `{name}` cannot name a folder of the package (hint: letters, digits, `-`, `_` and `.`)"
                    ));
                }
                folders.push((name.clone(), format!("secret/{name}")));
            }
        }
    }
    for item in &root.items {
        let Item::Group(group) = item else { continue };
        let points = group.max_score.unwrap_or(0.0);
        let folder = format!("secret/{}", group.name);
        let required = required_groups(scoring, &group.name);
        let sum = group.rule == Rule::Sum;
        let (own, copies) = group_folders(layout, &folder, points, sum, required.is_empty());
        for case in group.cases() {
            let place = format!("{own}/{}", flat(&case.name));
            match layout.places.iter_mut().find(|(n, _)| *n == case.name) {
                Some((_, places)) => places.insert(0, place),
                None => layout.places.push((case.name.clone(), vec![place])),
            }
        }
        for dependency in required {
            let Some(required) = scoring.group(&dependency) else {
                continue;
            };
            for case in required.cases() {
                let place = format!("{copies}/{dependency}-{}", flat(&case.name));
                match layout.places.iter_mut().find(|(n, _)| *n == case.name) {
                    Some((_, places)) => places.push(place),
                    None => layout.places.push((case.name.clone(), vec![place])),
                }
            }
        }
    }
    Ok(())
}

/// The testdata.yaml of a group's folders: where its own cases go, and where the copies of
/// the cases it requires. A summed group that requires others gets two folders below its
/// own: one for those copies, one for its own cases.
fn group_folders(
    layout: &mut Layout,
    folder: &str,
    points: f64,
    sum: bool,
    requires_none: bool,
) -> (String, String) {
    match (sum, requires_none) {
        (false, _) => {
            layout.testdata.insert(
                folder.to_string(),
                folder_yaml("break", points, Some(points), &["min"]),
            );
            (folder.to_string(), folder.to_string())
        }
        (true, true) => {
            layout.testdata.insert(
                folder.to_string(),
                folder_yaml("continue", points, Some(points), &["avg"]),
            );
            (folder.to_string(), folder.to_string())
        }
        (true, false) => {
            layout.testdata.insert(
                folder.to_string(),
                folder_yaml("break", points, Some(points), &["min"]),
            );
            let requires = format!("{folder}/0-requires");
            let cases = format!("{folder}/1-cases");
            layout.testdata.insert(
                requires.clone(),
                folder_yaml("break", points, Some(points), &["min"]),
            );
            layout.testdata.insert(
                cases.clone(),
                folder_yaml("continue", points, Some(points), &["avg"]),
            );
            (cases, requires)
        }
    }
}

/// The groups `name` depends on, directly or through others, in declaration order.
fn required_groups(scoring: &Scoring, name: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut pending = vec![name.to_string()];
    while let Some(next) = pending.pop() {
        let Some(group) = scoring.group(&next) else {
            continue;
        };
        for dependency in &group.depends_on {
            if !found.contains(dependency) {
                found.push(dependency.clone());
                pending.push(dependency.clone());
            }
        }
    }
    let order: Vec<String> = scoring
        .root()
        .groups()
        .iter()
        .map(|g| g.name.clone())
        .collect();
    found.sort_by_key(|g| order.iter().position(|o| o == g));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{groups as build_groups, Aggregation, CaseRef, GroupSpec, GroupsSpec};

    fn spec(depends: &[(&str, &[&str])]) -> GroupsSpec {
        let group = |name: &str, points: f64, aggregation, depends_on: &[&str]| GroupSpec {
            name: name.into(),
            cases: vec![format!("{name}-*")],
            points,
            aggregation,
            depends_on: depends_on.iter().map(ToString::to_string).collect(),
        };
        let deps = |name: &str| {
            depends
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(&[][..], |(_, d)| *d)
        };
        GroupsSpec {
            total: Some(100.0),
            groups: vec![
                group("a", 30.0, Aggregation::Min, deps("a")),
                group("b", 30.0, Aggregation::Sum, deps("b")),
                group("c", 40.0, Aggregation::Min, deps("c")),
            ],
        }
    }

    fn scoring(spec: &GroupsSpec) -> Scoring {
        let cases: Vec<CaseRef> = ["sample-1", "a-1", "a-2", "b-1", "b-2", "c-1"]
            .iter()
            .map(|n| CaseRef::new(*n, n.starts_with("sample")))
            .collect();
        build_groups(&cases, spec).unwrap()
    }

    fn laid_out(spec: &GroupsSpec) -> Layout {
        let scoring = scoring(spec);
        let mut layout = Layout::default();
        groups(&scoring, &mut layout).unwrap();
        layout
    }

    fn places<'a>(layout: &'a Layout, case: &str) -> Vec<&'a str> {
        layout
            .places
            .iter()
            .find(|(n, _)| n == case)
            .map(|(_, p)| p.iter().map(String::as_str).collect())
            .unwrap_or_default()
    }

    #[test]
    fn each_group_is_a_folder_scored_by_min_or_avg() {
        let layout = laid_out(&spec(&[]));
        assert_eq!(places(&layout, "sample-1"), ["sample/sample-1"]);
        assert_eq!(places(&layout, "a-2"), ["secret/a/a-2"]);
        assert_eq!(
            layout.testdata["secret/a"],
            "on_reject: break\nrange: 0 30\naccept_score: 30\ngrader_flags: min\n"
        );
        assert_eq!(
            layout.testdata["secret/b"],
            "on_reject: continue\nrange: 0 30\naccept_score: 30\ngrader_flags: avg\n"
        );
    }

    #[test]
    fn a_dependency_is_a_copy_of_the_groups_cases_it_requires() {
        // c requires b, which requires a: c holds copies of both.
        let layout = laid_out(&spec(&[("b", &["a"]), ("c", &["b"])]));
        assert_eq!(places(&layout, "c-1"), ["secret/c/c-1"]);
        assert_eq!(
            places(&layout, "a-1"),
            [
                "secret/a/a-1",
                "secret/b/0-requires/a-a-1",
                "secret/c/a-a-1"
            ]
        );
        assert_eq!(
            places(&layout, "b-2"),
            ["secret/b/1-cases/b-2", "secret/c/b-b-2"]
        );
        assert_eq!(
            layout.testdata["secret/b"],
            "on_reject: break\nrange: 0 30\naccept_score: 30\ngrader_flags: min\n"
        );
        assert_eq!(
            layout.testdata["secret/b/1-cases"],
            "on_reject: continue\nrange: 0 30\naccept_score: 30\ngrader_flags: avg\n"
        );
    }
}
