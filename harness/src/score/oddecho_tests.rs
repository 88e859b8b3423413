//! The Kattis legacy aggregation checked against problemtools itself, on its own scoring
//! example `examples/oddecho` (problemtools 1.20260907, from its sdist:
//! `pip download --no-deps --no-binary :all: problemtools`), and on a variant of it.
//!
//! The facts below were recorded once by hand:
//! - each submission's verdict per case, by running it on every `.in` and comparing its output
//!   with the `.ans` token by token (only the cases not AC are listed);
//! - the scores verifyproblem gave, from `verifyproblem oddecho -p submissions -l debug`: its
//!   "Submission results" table and the `Grader result: AC (50.000000)` line of every group.
//!
//! oddecho's `subtask2` holds copies of `subtask1`'s three cases (`1`, `2`, `3`: in the git
//! repository they are symlinks), so a submission fails those in both groups alike.

use super::kattis::{kattis_legacy, KattisFolder, KattisItem, TestdataYaml};
use super::model::{CaseOutcome, Outcomes, Scoring};
use super::number::format_score;
use crate::verdict::Verdict;

/// The `data/` tree of oddecho, in problemtools' order (sorted names: `09` < `1` < `10`), with
/// the given `testdata.yaml` of `data`, `sample`, `secret`, `subtask1`, `subtask2`.
fn oddecho(configs: [&str; 5]) -> Scoring {
    let yaml = |text: &str| -> TestdataYaml { serde_norway::from_str(text).unwrap() };
    let cases = |folder: &str, names: &[&str]| -> Vec<KattisItem> {
        names
            .iter()
            .map(|n| KattisItem::Case(format!("{folder}/{n}")))
            .collect()
    };
    let folder = |name: &str, config: &str, items| {
        KattisItem::Folder(KattisFolder {
            name: name.into(),
            config: yaml(config),
            items,
        })
    };
    let [data, sample, secret, subtask1, subtask2] = configs;
    let subtask2_cases = [
        "01", "02", "03", "04", "05", "06", "07", "08", "09", "1", "10", "2", "3",
    ];
    let root = KattisFolder {
        name: String::new(),
        config: yaml(data),
        items: vec![
            folder("sample", sample, cases("sample", &["1", "2"])),
            folder(
                "secret",
                secret,
                vec![
                    folder(
                        "secret/subtask1",
                        subtask1,
                        cases("secret/subtask1", &["1", "2", "3"]),
                    ),
                    folder(
                        "secret/subtask2",
                        subtask2,
                        cases("secret/subtask2", &subtask2_cases),
                    ),
                ],
            ),
        ],
    };
    kattis_legacy(&root).unwrap()
}

/// oddecho's own `testdata.yaml` files (their `input_validator_flags` left out).
const ODDECHO: [&str; 5] = [
    "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample",
    "on_reject: continue\nrange: 0 0\naccept_score: 0\ngrader_flags: first_error",
    "on_reject: continue\nrange: 0 100\ngrader_flags: first_error accept_if_any_accepted",
    "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min",
    "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min",
];

/// The variant: the secret sums and accepts if any group is accepted, subtask1 averages
/// (accept 10, so one case of three gives 3.333333), subtask2 is worth 90.
const VARIANT: [&str; 5] = [
    "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample",
    "on_reject: continue\nrange: 0 0\naccept_score: 0\ngrader_flags: first_error",
    "on_reject: continue\nrange: 0 100\ngrader_flags: sum accept_if_any_accepted",
    "on_reject: continue\naccept_score: 10\nrange: 0 10\ngrader_flags: avg",
    "on_reject: break\naccept_score: 90\nrange: 0 90\ngrader_flags: min",
];

/// The cases `partially_accepted/sol.py` does not pass, the same in oddecho and the variant.
const SOL_PY: &str = "sample/2:WA secret/subtask2/01:RTE secret/subtask2/02:RTE \
    secret/subtask2/03:RTE secret/subtask2/04:RTE secret/subtask2/07:WA secret/subtask2/08:WA \
    secret/subtask2/09:WA secret/subtask2/10:WA";

/// problemtools' codes: RTE for RE.
fn code(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::RuntimeError => "RTE",
        other => other.as_str(),
    }
}

fn verdict(code: &str) -> Verdict {
    match code {
        "RTE" => Verdict::RuntimeError,
        code => Verdict::from_code(code).unwrap(),
    }
}

/// Every case AC but those given as `case:VERDICT`.
fn outcomes(scoring: &Scoring, failing: &str) -> Outcomes {
    let failing: Vec<(&str, CaseOutcome)> = failing
        .split_whitespace()
        .map(|f| f.split_once(':').unwrap())
        .map(|(name, code)| (name, CaseOutcome::new(verdict(code))))
        .collect();
    scoring.accepted_but(&failing)
}

/// `sample secret subtask1 subtask2 total` as `VERDICT(score)`, as verifyproblem's grader lines
/// give them.
fn results(scoring: &Scoring, outcomes: &Outcomes) -> String {
    let sheet = scoring.aggregate(outcomes).unwrap();
    let mut shown = Vec::new();
    for name in ["sample", "secret", "secret/subtask1", "secret/subtask2"] {
        let group = sheet.groups.iter().find(|g| g.name == name).unwrap();
        shown.push(match (group.verdict, group.score) {
            (Some(v), Some(s)) => format!("{}({})", code(v), format_score(s)),
            _ => "-".to_string(),
        });
    }
    shown.push(format!(
        "{}({})",
        code(sheet.verdict),
        format_score(sheet.score.unwrap())
    ));
    shown.join(" ")
}

/// Submission, its cases not AC, what verifyproblem gave (sample, secret, subtask1,
/// subtask2, total), and how many cases a judge that skips what is not needed runs.
type Row = (&'static str, &'static str, &'static str, usize);

fn check(scoring: &Scoring, rows: &[Row]) {
    for &(submission, failing, expected, runs) in rows {
        let all = outcomes(scoring, failing);
        assert_eq!(results(scoring, &all), expected, "{submission}");
        let (needed, run) = scoring.judged_as_needed(&all);
        assert_eq!(
            scoring.aggregate(&needed).unwrap(),
            scoring.aggregate(&all).unwrap(),
            "{submission}: skipping what is not needed changes nothing"
        );
        assert_eq!(run, runs, "{submission}: cases run");
    }
}

/// verifyproblem on oddecho:
/// ```text
/// Submission  sample       subtask1      subtask2      Pts  Time
/// echo.cpp    AC(0):0.00s  AC(50):0.00s  AC(50):0.00s  100  0.00s
/// js.py       AC(0):0.03s  AC(50):0.03s  AC(50):0.05s  100  0.05s
/// sol.py      WA           AC(50):0.04s  RTE           50   0.07s
/// ```
/// and its grader lines for sol.py: sample `WA (0.000000)`, subtask1 `AC (50.000000)`,
/// subtask2 `RTE (0.000000)` after one result, secret `AC (50.000000)`, data `AC (50.000000)`.
#[test]
fn oddecho_scores_match_verifyproblem() {
    let scoring = oddecho(ODDECHO);
    assert_eq!(scoring.max_score(), Some(100.0));
    check(
        &scoring,
        &[
            (
                "accepted/echo.cpp",
                "",
                "AC(0) AC(100) AC(50) AC(50) AC(100)",
                18,
            ),
            (
                "accepted/js.py",
                "",
                "AC(0) AC(100) AC(50) AC(50) AC(100)",
                18,
            ),
            (
                "partially_accepted/sol.py",
                SOL_PY,
                "WA(0) AC(50) AC(50) RTE(0) AC(50)",
                // subtask2 breaks at its first case.
                6,
            ),
        ],
    );
}

/// verifyproblem on the variant (its submissions fail the cases listed, by the md5 of the
/// input, and echo correctly otherwise):
/// ```text
/// Submission  sample       subtask1      subtask2      Pts  Time
/// js.py       AC(0):0.03s  AC(10):0.03s  AC(90):0.04s  100  0.04s
/// partial.py  AC(0):0.09s  AC(10):0.09s  WA            10   0.09s
/// sol.py      WA           AC(10):0.03s  RTE           10   0.05s
/// mixed.py    AC(0):0.09s  RTE           WA            3    0.10s
/// third.py    AC(0):0.11s  WA            WA            7    0.27s
/// ```
/// with the grader lines: mixed.py subtask1 `RTE (3.333333)`, subtask2 `WA (0.000000)`,
/// secret and data `RTE (3.333333)`; third.py subtask1 `WA (6.666667)`, subtask2
/// `WA (0.000000)`, secret and data `WA (6.666667)`; partial.py subtask2 `WA (0.000000)`
/// after 11 results, secret and data `AC (10.000000)`.
#[test]
fn oddecho_variant_scores_match_verifyproblem() {
    let scoring = oddecho(VARIANT);
    check(
        &scoring,
        &[
            (
                "accepted/js.py",
                "",
                "AC(0) AC(100) AC(10) AC(90) AC(100)",
                18,
            ),
            (
                "partially_accepted/partial.py",
                "secret/subtask2/10:WA",
                "AC(0) AC(10) AC(10) WA(0) AC(10)",
                16,
            ),
            (
                "partially_accepted/sol.py",
                SOL_PY,
                "WA(0) AC(10) AC(10) RTE(0) AC(10)",
                6,
            ),
            (
                "run_time_error/mixed.py",
                "secret/subtask1/1:WA secret/subtask1/2:RTE secret/subtask2/05:WA \
                 secret/subtask2/1:WA secret/subtask2/2:RTE",
                // worst_error: RTE before WA, whatever their order.
                "AC(0) RTE(3.333333) RTE(3.333333) WA(0) RTE(3.333333)",
                10,
            ),
            (
                "wrong_answer/third.py",
                "secret/subtask1/3:WA secret/subtask2/3:WA",
                "AC(0) WA(6.666667) WA(6.666667) WA(0) WA(6.666667)",
                18,
            ),
        ],
    );
}
