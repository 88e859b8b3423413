//! Scores: the scoring model (a tree of groups over the cases, each with its rule), the pure
//! aggregation of case outcomes into group and submission scores, checkers' partial credit,
//! and expected scores of stored submissions. One builder per format turns its rules into the
//! model: judge.toml points and subtasks (`spec`), Kattis legacy (`kattis`), Kattis 2025-09
//! (`test_group`), Polygon (`polygon`). No I/O: the readers hand in what they parsed.

mod aggregate;
mod error;
mod expected;
mod grading;
mod kattis;
mod model;
mod number;
#[cfg(test)]
mod oddecho_tests;
mod polygon;
mod spec;
mod test_group;

pub use crate::verdict::credit::{
    kattis_feedback, testlib_points, Credit, CreditError, CreditSource, FeedbackRules,
    TESTLIB_POINTS_EXIT,
};
pub use aggregate::{CaseScore, GroupScore, GroupState, MissingOutcome, ScoreSheet};
pub(crate) use error::Names;
pub use error::{Place, ScoringError, ScoringErrorKind};
pub use expected::{
    check_score, expected_score_annotation, Annotation, ExpectedError, ExpectedScore, ScoreCheck,
};
pub use grading::{
    grader_input, read_grader_answer, GroupGrader, KattisGrading, OnReject, ScoreMode, VerdictMode,
};
pub use kattis::{kattis_legacy, KattisFolder, KattisItem, TestdataYaml};
pub use model::{CaseOutcome, CaseRule, CaseValue, Group, Item, Outcomes, Rule, Scoring};
pub use number::{format_score, same_score, DECIMALS};
pub use polygon::{polygon, PointsPolicy, PolygonGroup, PolygonTest};
pub use spec::{
    groups, points, Aggregation, CasePoints, CaseRef, GroupSpec, GroupsSpec, PointsSpec,
};
pub use test_group::{kattis_2025, TestData, TestGroup, TestGroupYaml, STATIC_VALIDATION_CASE};
