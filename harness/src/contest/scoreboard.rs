//! The scoreboard, a pure function of the contest's rules and its judged tries. ICPC
//! (pass-fail) as DOMjudge's ScoreboardService and the CLICS requirements rank: problems
//! solved, then penalty time (the minute of each first accepted try, plus `penalty_time` for
//! each rejected try before it; compile errors cost nothing, as DOMjudge's default
//! `compile_penalty: false`), then the minute of the last solve; teams equal in all three share
//! a rank. A try the judge failed on (JE: its checker or interactor broke) has no result yet,
//! as in DOMjudge, which gives such a judging back to be judged again: it is pending, costs
//! nothing, and a later solve of its problem is no first solve while it waits (it may yet be
//! right: DOMjudge's first-to-solve query counts every earlier try without a result). IOI (score): the sum over problems of the best score, or of each
//! subtask's best across tries (CMS's `max_subtask`), then the time of the last improvement
//! (CLICS's `score.time`). A freeze hides the results of the tries in its last minutes: the
//! frozen board shows them as pending.

use super::time::Millis;
use crate::verdict::Verdict;

/// `scoreboard_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `pass-fail`: ICPC.
    PassFail,
    /// `score`: IOI.
    Score,
}

impl Kind {
    /// As contest.yaml writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::PassFail => "pass-fail",
            Kind::Score => "score",
        }
    }
}

/// How a problem's score is taken from a team's tries in a score contest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ScoreBy {
    /// Each subtask's best across the tries, summed (CMS `max_subtask`, IOI since 2017).
    #[default]
    MaxSubtask,
    /// The best single try's score (DOMjudge, Kattis).
    #[value(help = "The best single try")]
    BestSubmission,
}

/// What the board needs of the contest.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub kind: Kind,
    /// Minutes each rejected try before a solve adds.
    pub penalty_minutes: i64,
    /// The contest's length.
    pub duration: Millis,
    /// The last part of the contest whose results the frozen board hides.
    pub freeze: Option<Millis>,
    pub score_by: ScoreBy,
}

impl Rules {
    /// When the freeze begins, in contest time.
    pub fn freeze_start(&self) -> Option<Millis> {
        self.freeze.map(|freeze| self.duration - freeze)
    }
}

/// One judged try.
#[derive(Debug, Clone, PartialEq)]
pub struct Try {
    /// The team's index in the contest's teams.
    pub team: usize,
    /// The problem's index in the contest's problems.
    pub problem: usize,
    /// When it was submitted, in contest time.
    pub time: Millis,
    pub verdict: Verdict,
    /// Its score in a score contest (0 when it scored nothing).
    pub score: f64,
    /// Its score per subtask, in the problem's order; empty when the problem has none.
    pub subtasks: Vec<f64>,
}

/// Whether the board shows every result or hides those of the freeze.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Every result: after the contest, the board the resolver reveals.
    Final,
    /// The results of tries submitted before the freeze; later ones pending.
    Frozen,
}

/// One team's result on one problem.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cell {
    /// Judged tries up to and including the first accepted one (CE and JE not counted).
    pub judged: usize,
    /// Tries whose result the board hides (submitted during the freeze) or does not have (the
    /// judge failed on them: JE).
    pub pending: usize,
    /// Of the pending tries, those the judge failed on, shown as such outside the freeze.
    pub failed: usize,
    /// Rejected tries before the solve (each costs `penalty_time`).
    pub rejected: usize,
    pub solved: bool,
    /// When it was solved (pass-fail) or its score last improved (score).
    pub time: Option<Millis>,
    /// The first solve of this problem in the contest (ties all marked).
    pub first: bool,
    /// In a score contest, what the problem gives the team.
    pub score: f64,
    /// The penalty minutes it adds (pass-fail, solved only).
    pub penalty: i64,
}

/// One team's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based; equal for teams tied on every criterion.
    pub rank: usize,
    /// The team's index in the contest's teams.
    pub team: usize,
    pub solved: usize,
    /// Penalty minutes in total (pass-fail).
    pub total_minutes: i64,
    /// Score in total (score).
    pub score: f64,
    /// The last solve (pass-fail) or the last improvement (score); `None` before any.
    pub last: Option<Millis>,
    /// One per problem, in the contest's order.
    pub cells: Vec<Cell>,
}

/// The board: rows by rank, teams of one rank by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    pub view: View,
    pub rows: Vec<Row>,
}

/// Minutes, rounded down, as DOMjudge counts them (`score_in_seconds: false`).
fn minutes(ms: Millis) -> i64 {
    ms.div_euclid(60_000)
}

/// A score compared without the float noise of a sum.
fn score_key(score: f64) -> i64 {
    (score * 1e6).round() as i64
}

/// The board of `teams` (their names, for the order within a rank) on `problems` problems.
pub fn board(rules: &Rules, teams: &[&str], problems: usize, tries: &[Try], view: View) -> Board {
    let hidden_from = match view {
        View::Final => None,
        View::Frozen => rules.freeze_start(),
    };
    let mut by_cell: Vec<Vec<&Try>> = vec![Vec::new(); teams.len() * problems];
    for t in tries {
        by_cell[t.team * problems + t.problem].push(t);
    }
    let mut rows: Vec<Row> = (0..teams.len())
        .map(|team| {
            let cells: Vec<Cell> = (0..problems)
                .map(|problem| {
                    let mut tries = by_cell[team * problems + problem].clone();
                    // Stable: tries at one time keep the order they were given in.
                    tries.sort_by_key(|t| t.time);
                    match rules.kind {
                        Kind::PassFail => pass_fail_cell(rules, &tries, hidden_from),
                        Kind::Score => score_cell(rules, &tries, hidden_from),
                    }
                })
                .collect();
            let counted = |c: &&Cell| match rules.kind {
                Kind::PassFail => c.solved,
                Kind::Score => c.score > 0.0,
            };
            Row {
                rank: 0,
                team,
                solved: cells.iter().filter(|c| c.solved).count(),
                total_minutes: cells.iter().map(|c| c.penalty).sum(),
                score: cells.iter().map(|c| c.score).sum(),
                last: cells.iter().filter(counted).filter_map(|c| c.time).max(),
                cells,
            }
        })
        .collect();
    let key = |row: &Row| rank_key(rules.kind, row);
    rows.sort_by(|a, b| {
        key(a)
            .cmp(&key(b))
            .then_with(|| {
                teams[a.team]
                    .to_lowercase()
                    .cmp(&teams[b.team].to_lowercase())
            })
            .then_with(|| teams[a.team].cmp(teams[b.team]))
    });
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    if rules.kind == Kind::PassFail {
        mark_first_solves(&mut rows, problems, tries);
    }
    Board { view, rows }
}

/// What ranks a row, smallest first: solved, penalty and last solve for pass-fail; score and
/// last scoring try for a scored contest.
fn rank_key(kind: Kind, row: &Row) -> (i64, i64, i64) {
    match kind {
        Kind::PassFail => (
            -(row.solved as i64),
            row.total_minutes,
            row.last.map_or(i64::MIN, minutes),
        ),
        Kind::Score => (-score_key(row.score), 0, row.last.unwrap_or(i64::MIN)),
    }
}

/// Marks each problem's first solve, unless a try still without a result came before it.
fn mark_first_solves(rows: &mut [Row], problems: usize, tries: &[Try]) {
    for problem in 0..problems {
        let first = rows
            .iter()
            .filter_map(|r| r.cells[problem].solved.then_some(r.cells[problem].time?))
            .min();
        // A try still without a result before the first solve may be the first solve.
        let waiting = tries
            .iter()
            .filter(|t| t.problem == problem && t.verdict == Verdict::JudgeError)
            .map(|t| t.time)
            .min();
        let first = first.filter(|&solve| waiting.is_none_or(|w| w >= solve));
        for row in rows.iter_mut() {
            let cell = &mut row.cells[problem];
            cell.first = cell.solved && first.is_some() && cell.time == first;
        }
    }
}

fn pass_fail_cell(rules: &Rules, tries: &[&Try], hidden_from: Option<Millis>) -> Cell {
    let mut cell = Cell::default();
    for t in tries {
        if hidden_from.is_some_and(|from| t.time >= from) {
            cell.pending += 1;
            continue;
        }
        match t.verdict {
            Verdict::Accepted => {
                cell.judged += 1;
                cell.solved = true;
                cell.time = Some(t.time);
                cell.penalty = minutes(t.time)
                    + rules.penalty_minutes * i64::try_from(cell.rejected).unwrap_or(0);
                // What a team sends after its solve changes nothing.
                break;
            }
            Verdict::CompileError => {}
            Verdict::JudgeError => {
                cell.pending += 1;
                cell.failed += 1;
            }
            _ => {
                cell.judged += 1;
                cell.rejected += 1;
            }
        }
    }
    cell
}

fn score_cell(rules: &Rules, tries: &[&Try], hidden_from: Option<Millis>) -> Cell {
    let mut cell = Cell::default();
    let mut best: Vec<f64> = Vec::new();
    for t in tries {
        if hidden_from.is_some_and(|from| t.time >= from) {
            cell.pending += 1;
            continue;
        }
        match t.verdict {
            Verdict::CompileError => continue,
            Verdict::JudgeError => {
                cell.pending += 1;
                cell.failed += 1;
                continue;
            }
            _ => {}
        }
        cell.judged += 1;
        let before = cell.score;
        match rules.score_by {
            ScoreBy::BestSubmission => cell.score = cell.score.max(t.score),
            ScoreBy::MaxSubtask => {
                let parts: &[f64] = if t.subtasks.is_empty() {
                    std::slice::from_ref(&t.score)
                } else {
                    &t.subtasks
                };
                if best.len() < parts.len() {
                    best.resize(parts.len(), 0.0);
                }
                for (kept, part) in best.iter_mut().zip(parts) {
                    *kept = kept.max(*part);
                }
                cell.score = best.iter().sum();
            }
        }
        if score_key(cell.score) > score_key(before) {
            cell.time = Some(t.time);
        }
        if t.verdict == Verdict::Accepted {
            cell.solved = true;
        }
    }
    cell
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Accepted as AC, CompileError as CE, JudgeError as JE, WrongAnswer as WA};

    const MIN: Millis = 60_000;

    fn icpc() -> Rules {
        Rules {
            kind: Kind::PassFail,
            penalty_minutes: 20,
            duration: 300 * MIN,
            freeze: Some(60 * MIN),
            score_by: ScoreBy::MaxSubtask,
        }
    }

    fn t(team: usize, problem: usize, minute: i64, verdict: Verdict) -> Try {
        Try {
            team,
            problem,
            time: minute * MIN,
            verdict,
            score: 0.0,
            subtasks: Vec::new(),
        }
    }

    /// (team name, rank, solved, penalty) in board order.
    fn summary(board: &Board, teams: &[&str]) -> Vec<(String, usize, usize, i64)> {
        board
            .rows
            .iter()
            .map(|r| (teams[r.team].to_string(), r.rank, r.solved, r.total_minutes))
            .collect()
    }

    #[test]
    fn icpc_ranks_by_solved_then_penalty_then_last_solve() {
        let teams = ["carol", "alice", "bob", "dave", "erin"];
        let tries = [
            // alice: A at 10 after a WA (10 + 20 = 30), B at 50: 2 solved, 80.
            t(1, 0, 5, WA),
            t(1, 0, 10, AC),
            t(1, 1, 50, AC),
            // bob: A at 30 and B at 50: 2 solved, 80; last solve 50 like alice: a tie.
            t(2, 0, 30, AC),
            t(2, 1, 50, AC),
            // carol: A at 20, B at 60: 2 solved, 80, but the last solve is later.
            t(0, 0, 20, AC),
            t(0, 1, 60, AC),
            // dave: CE and JE cost nothing; one solve at 100. (The JE comes after alice's
            // first solve, so it does not hold that back.)
            t(3, 0, 1, CE),
            t(3, 0, 12, JE),
            t(3, 0, 100, AC),
            // erin: nothing at all.
        ];
        let board = board(&icpc(), &teams, 2, &tries, View::Final);
        assert_eq!(
            summary(&board, &teams),
            [
                ("alice".into(), 1, 2, 80),
                ("bob".into(), 1, 2, 80),
                ("carol".into(), 3, 2, 80),
                ("dave".into(), 4, 1, 100),
                ("erin".into(), 5, 0, 0),
            ]
        );
        let alice = &board.rows[0];
        assert_eq!((alice.cells[0].judged, alice.cells[0].rejected), (2, 1));
        assert!(alice.cells[0].first, "alice solved A first (minute 10)");
        assert!(!board.rows[1].cells[0].first);
        // B: alice and bob at minute 50 both first.
        assert!(board.rows[0].cells[1].first && board.rows[1].cells[1].first);
        let dave = &board.rows[3];
        assert_eq!(
            (dave.cells[0].judged, dave.cells[0].rejected),
            (1, 0),
            "neither the CE nor the JE is judged"
        );
        assert_eq!((dave.cells[0].pending, dave.cells[0].failed), (1, 1));
        assert_eq!(board.rows[4].cells, vec![Cell::default(); 2]);
    }

    #[test]
    fn a_judge_error_waits_costs_nothing_and_holds_back_the_first_solve() {
        let teams = ["a", "b", "c"];
        let tries = [
            // a: A solved at 10, the earliest solve; but b's try at 5 has no result.
            t(0, 0, 10, AC),
            // b: a JE at 5 (pending, no penalty), then a WA and a solve at 30: 30 + 20.
            t(1, 0, 5, JE),
            t(1, 0, 20, WA),
            t(1, 0, 30, AC),
            // c: a JE after a's and b's solves holds back nothing; and one on B, unsolved.
            t(2, 0, 40, JE),
            t(2, 1, 50, JE),
            // A JE after a team's own solve is no pending try of it (nothing more counts).
            t(0, 0, 60, JE),
        ];
        let final_board = board(&icpc(), &teams, 2, &tries, View::Final);
        assert_eq!(
            summary(&final_board, &teams),
            [
                ("a".into(), 1, 1, 10),
                ("b".into(), 2, 1, 50),
                ("c".into(), 3, 0, 0),
            ]
        );
        let cell = |row: usize, problem: usize| &final_board.rows[row].cells[problem];
        assert!(
            !cell(0, 0).first && !cell(1, 0).first,
            "b's try at 5 may have been right"
        );
        assert_eq!((cell(0, 0).pending, cell(0, 0).failed), (0, 0));
        let b = cell(1, 0);
        assert_eq!((b.judged, b.rejected, b.pending, b.failed), (2, 1, 1, 1));
        let c = cell(2, 0);
        assert_eq!((c.judged, c.pending, c.failed, c.solved), (0, 1, 1, false));
        assert_eq!((cell(2, 1).pending, cell(2, 1).failed), (1, 1));
        // Without b's JE, a's solve is the first.
        let judged: Vec<Try> = tries
            .iter()
            .filter(|t| (t.team, t.time) != (1, 5 * MIN))
            .cloned()
            .collect();
        let without = board(&icpc(), &teams, 2, &judged, View::Final);
        assert!(without.rows[0].cells[0].first);
        // In a score contest too: pending, scoring nothing, judged never.
        let rules = Rules {
            kind: Kind::Score,
            ..icpc()
        };
        let scored = board(&rules, &teams, 2, &tries, View::Final);
        let c = &scored.rows[2].cells[1];
        assert_eq!((c.judged, c.pending, c.failed, c.score), (0, 1, 1, 0.0));
    }

    #[test]
    fn minutes_round_down_and_tries_after_a_solve_do_not_count() {
        let teams = ["a", "b"];
        let mut late = t(0, 0, 0, AC);
        late.time = 59_999;
        let tries = [late, t(0, 0, 3, WA), t(1, 0, 1, WA), t(1, 0, 1, AC)];
        let board = board(&icpc(), &teams, 1, &tries, View::Final);
        // a: minute 0, 0 penalty; b: minute 1 + 20.
        assert_eq!(summary(&board, &teams)[0], ("a".into(), 1, 1, 0));
        assert_eq!(summary(&board, &teams)[1], ("b".into(), 2, 1, 21));
        assert_eq!(board.rows[0].cells[0].judged, 1);
    }

    #[test]
    fn the_frozen_board_hides_the_last_hour() {
        let teams = ["a", "b"];
        let tries = [
            t(0, 0, 100, AC),
            // b solves A in the freeze, after a WA before it.
            t(1, 0, 200, WA),
            t(1, 0, 250, AC),
            t(1, 0, 260, WA),
            // a's try after its own solve is no pending one.
            t(0, 0, 270, WA),
            // exactly at the freeze: hidden.
            t(0, 1, 240, AC),
        ];
        let frozen = board(&icpc(), &teams, 2, &tries, View::Frozen);
        assert_eq!(
            summary(&frozen, &teams),
            [("a".into(), 1, 1, 100), ("b".into(), 2, 0, 0)]
        );
        let b = &frozen.rows[1].cells[0];
        assert_eq!((b.judged, b.pending, b.solved), (1, 2, false));
        assert_eq!(frozen.rows[0].cells[1].pending, 1);
        let final_board = board(&icpc(), &teams, 2, &tries, View::Final);
        assert_eq!(
            summary(&final_board, &teams),
            [("a".into(), 1, 2, 340), ("b".into(), 2, 1, 270)]
        );
    }

    /// (team, score, rank) in board order.
    fn team_score_rank(board: &Board) -> Vec<(usize, f64, usize)> {
        board
            .rows
            .iter()
            .map(|r| (r.team, r.score, r.rank))
            .collect()
    }

    fn scored(team: usize, minute: i64, score: f64, subtasks: &[f64]) -> Try {
        Try {
            score,
            subtasks: subtasks.to_vec(),
            verdict: if score >= 100.0 { AC } else { WA },
            ..t(team, 0, minute, WA)
        }
    }

    #[test]
    fn ioi_takes_each_subtasks_best_or_the_best_try() {
        let teams = ["a", "b", "c"];
        let tries = [
            // a: 30+0 then 0+70: max_subtask 100, best try 70.
            scored(0, 10, 30.0, &[30.0, 0.0]),
            scored(0, 20, 70.0, &[0.0, 70.0]),
            // b: 70 once, at 5: ahead of a on time when they tie (best try).
            scored(1, 5, 70.0, &[0.0, 70.0]),
            // a again: less than its best, in every subtask too.
            scored(0, 30, 20.0, &[20.0, 0.0]),
            // c: a compile error scores nothing and is not judged.
            Try {
                verdict: CE,
                ..scored(2, 1, 0.0, &[])
            },
        ];
        let mut rules = Rules {
            kind: Kind::Score,
            freeze: None,
            ..icpc()
        };
        let by_subtask = board(&rules, &teams, 1, &tries, View::Final);
        let scores = team_score_rank(&by_subtask);
        assert_eq!(scores, [(0, 100.0, 1), (1, 70.0, 2), (2, 0.0, 3)]);
        assert_eq!(by_subtask.rows[0].last, Some(20 * MIN));
        assert_eq!(by_subtask.rows[0].cells[0].judged, 3);
        assert_eq!(by_subtask.rows[2].cells[0].judged, 0);
        rules.score_by = ScoreBy::BestSubmission;
        let by_try = board(&rules, &teams, 1, &tries, View::Final);
        let scores = team_score_rank(&by_try);
        // Equal scores: the earlier last improvement first (b at 5, a at 20).
        assert_eq!(scores, [(1, 70.0, 1), (0, 70.0, 2), (2, 0.0, 3)]);
        // A try that scores less than the best does not move its time.
        assert_eq!(by_try.rows[1].cells[0].time, Some(20 * MIN));
    }

    #[test]
    fn ioi_ties_without_any_score_share_the_rank() {
        let teams = ["x", "y"];
        let rules = Rules {
            kind: Kind::Score,
            ..icpc()
        };
        let board = board(&rules, &teams, 3, &[], View::Frozen);
        assert_eq!(
            board.rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
            [1, 1]
        );
    }
}
