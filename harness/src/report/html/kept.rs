//! What the HTML reporter keeps of each unit's result until the run finishes and the page is
//! written: shared by the reporter that gathers it (mod.rs) and the page that renders it.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::judge::calibrate::ProblemCalibration;
use crate::judge::submission::SubmissionReport;
use crate::judge::verify::Verified;

/// What a unit gave, kept until the page is written.
#[derive(Debug, Clone)]
pub(super) enum Kept {
    Judged(SubmissionReport),
    Verified(Verified),
    Calibrated {
        calibration: ProblemCalibration,
        /// Per program (by its label), per case, the CPU time of each repeat.
        times: BTreeMap<String, BTreeMap<String, Vec<Duration>>>,
    },
}
