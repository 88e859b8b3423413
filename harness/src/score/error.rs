//! What can be wrong with a problem's scoring rules, as typed errors. Each says where in the
//! rules it is ([`Place`]), so the reader of judge.toml or of a package can point at the line
//! and column of the key.

use std::fmt;

/// A key of the rules an error is about, by position in what the reader handed in: the
/// `index`-th group of a [`GroupsSpec`](super::GroupsSpec), the `glob`-th pattern of its cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The stated total.
    Total,
    /// A group as a whole (its name).
    Group(usize),
    /// A group's `points`.
    GroupPoints(usize),
    /// One glob of a group's cases.
    GroupCases {
        /// The group.
        group: usize,
        /// The glob.
        glob: usize,
    },
    /// One name of a group's dependencies.
    GroupDependency {
        /// The group.
        group: usize,
        /// The dependency.
        dependency: usize,
    },
    /// One entry of a per-case points list ([`PointsSpec::cases`](super::PointsSpec::cases)).
    CasePoints(usize),
}

/// Scoring rules that cannot be used, and where they are wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{kind}")]
pub struct ScoringError {
    /// What is wrong.
    pub kind: ScoringErrorKind,
    /// Where, when the rules came from a spec with positions.
    pub place: Option<Place>,
}

impl ScoringError {
    /// An error at no particular place.
    pub fn new(kind: ScoringErrorKind) -> Self {
        ScoringError { kind, place: None }
    }

    /// The same error, at `place`.
    pub fn at(self, place: Place) -> Self {
        ScoringError {
            place: Some(place),
            ..self
        }
    }
}

/// Points as a format states them: a finite number, not negative.
pub(crate) fn check_points(points: f64) -> Result<(), ScoringErrorKind> {
    if points.is_finite() && points >= 0.0 {
        Ok(())
    } else {
        Err(ScoringErrorKind::BadPoints {
            points: crate::units::format_number(points),
        })
    }
}

impl From<ScoringErrorKind> for ScoringError {
    fn from(kind: ScoringErrorKind) -> Self {
        ScoringError::new(kind)
    }
}

/// A list of names in backticks: `` `a`, `b` ``.
pub(crate) struct Names<'a>(pub &'a [String]);

impl fmt::Display for Names<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        in_backticks(f, self.0, ", ")
    }
}

/// A cycle of dependencies: `` `a` → `b` → `a` ``.
pub(crate) struct Cycle<'a>(pub &'a [String]);

impl fmt::Display for Cycle<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        in_backticks(f, self.0, " → ")
    }
}

/// Each name in backticks, `between` them.
fn in_backticks(f: &mut fmt::Formatter<'_>, names: &[String], between: &str) -> fmt::Result {
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            f.write_str(between)?;
        }
        write!(f, "`{name}`")?;
    }
    Ok(())
}

/// What is wrong with scoring rules.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScoringErrorKind {
    /// The parts' points do not make the stated total.
    #[error("the points{} add up to {sum}, not the stated total {total} (hint: change the points or the total so they agree)", of_group(.within))]
    PointsDoNotAddUp {
        /// What they add up to, as printed.
        sum: String,
        /// The total stated, as printed.
        total: String,
        /// Whose points (a group's name), or `None` for the problem's.
        within: Option<String>,
    },
    /// Parts worth more than the whole.
    #[error("the points given add up to {sum}, more than the total {total}")]
    PointsExceedTotal {
        /// What they add up to, as printed.
        sum: String,
        /// The total, as printed.
        total: String,
    },
    /// Points less than 0, or not finite.
    #[error("points must be a number not below 0, not {points}")]
    BadPoints {
        /// As given.
        points: String,
    },
    /// A case claimed twice.
    #[error("case `{case}` is in both `{first}` and `{second}` (hint: make the globs exclusive)")]
    CaseInTwoGroups {
        /// The case.
        case: String,
        /// The group that claimed it first.
        first: String,
        /// The other.
        second: String,
    },
    /// A case no rule names (samples excepted: they are worth nothing by default).
    #[error(
        "case `{case}` is in no group (hint: add a glob that matches it to one of the groups)"
    )]
    CaseInNoGroup {
        /// The case.
        case: String,
    },
    /// A glob naming no case.
    #[error("`{glob}` matches no case{}", in_group(.group))]
    GlobMatchesNothing {
        /// The glob.
        glob: String,
        /// The group it belongs to, if any.
        group: Option<String>,
    },
    /// A glob that does not parse.
    #[error("`{glob}` is not a glob: {message}")]
    BadGlob {
        /// The glob.
        glob: String,
        /// globset's reason.
        message: String,
    },
    /// A maximum no number holds: points that add up past the largest float.
    #[error("{what} would be worth more than any score can be (its points add up past {}; hint: give smaller points)", crate::units::format_number(f64::MAX))]
    NotFinite {
        /// `the total`, group `g`, case `c`.
        what: String,
    },
    /// Two groups of one name.
    #[error("two groups are named `{name}`")]
    DuplicateGroup {
        /// The name.
        name: String,
    },
    /// The same case twice in the tree.
    #[error("case `{case}` appears twice in the scoring rules")]
    DuplicateCase {
        /// The case.
        case: String,
    },
    /// A dependency on a group that does not exist.
    #[error("group `{group}` depends on `{dependency}`, which is no group (the groups: {})", Names(.known))]
    UnknownDependency {
        /// The group.
        group: String,
        /// The name it gave.
        dependency: String,
        /// The groups there are.
        known: Vec<String>,
    },
    /// Groups that depend on each other in a circle.
    #[error("circular dependency: {}", Cycle(.cycle))]
    CircularDependency {
        /// The circle, its first group again at the end.
        cycle: Vec<String>,
    },
    /// A dependency on a group that holds it or that it holds.
    #[error("group `{group}` depends on `{dependency}`, which {}", if *.contains { "is inside it" } else { "holds it" })]
    DependsOnItsOwnTree {
        /// The group.
        group: String,
        /// The dependency.
        dependency: String,
        /// Whether `group` holds `dependency` (else the other way round).
        contains: bool,
    },
    /// A dependency judged after the group that needs it.
    #[error("group `{group}` depends on `{dependency}`, which is judged after it (hint: put `{dependency}` first; a group can only depend on earlier ones)")]
    DependsOnLater {
        /// The group.
        group: String,
        /// The dependency.
        dependency: String,
    },
    /// A group with no case.
    #[error("group `{group}` has no case")]
    EmptyGroup {
        /// The group.
        group: String,
    },
    /// A key with a value its format does not allow.
    #[error("`{key}: {value}`{}: {expected}", in_group(.group))]
    BadValue {
        /// The key.
        key: String,
        /// Its value.
        value: String,
        /// The group whose configuration it is in.
        group: Option<String>,
        /// What the format allows.
        expected: String,
    },
    /// A rule of the format broken by a combination of keys.
    #[error("{message}")]
    Invalid {
        /// What rule, naming the group.
        message: String,
    },
    /// Something the format has that this judge cannot compute.
    #[error("{what} is not supported{}", in_group(.group))]
    Unsupported {
        /// What.
        what: String,
        /// The group it is in.
        group: Option<String>,
    },
}

fn of_group(group: &Option<String>) -> String {
    match group {
        Some(group) => format!(" of group `{group}`"),
        None => String::new(),
    }
}

fn in_group(group: &Option<String>) -> String {
    match group {
        Some(group) if group.is_empty() => " (in the top group)".to_string(),
        Some(group) => format!(" (in group `{group}`)"),
        None => String::new(),
    }
}
