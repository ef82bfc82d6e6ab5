//! Answers for partizan games (`left move:` / `right move:`): `solve`, `table` and `explain`
//! in terms of outcome classes L, R, N, P and canonical values.

use serde::Serialize;

use super::heat::{sum_heat, Cooled, SumHeat};
use super::partizan_values::{searched, try_values, TABLE_FORM};
use super::WinningMove;
use crate::rules::{Move, Position, Side};
use crate::solve::partizan::thermo::plain;
use crate::solve::partizan::{Dyadic, FormId, Heat, PartizanOutcome, PartizanSolver};
use crate::solve::period::subtraction_bound;
use crate::solve::SolveError;
use crate::vocab::{Convention, FailureKind};

/// Each non-empty pile's value, written out, where the position is a sum of several piles
/// (empty otherwise: one pile is its own value, and other games are valued whole).
fn pile_values(solver: &mut PartizanSolver, pos: &Position) -> Result<Vec<(u64, String)>, SolveError> {
    let nonempty: Vec<u64> = pos.piles.iter().copied().filter(|&p| p > 0).collect();
    let mut out = Vec::new();
    if solver.is_sum_of_piles() && nonempty.len() > 1 {
        for n in nonempty {
            let v = solver.pile_value(n)?;
            out.push((n, solver.show(v)));
        }
    }
    Ok(out)
}

fn listed(moves: Vec<Move>) -> Vec<WinningMove> {
    moves.into_iter().map(|m| WinningMove { description: m.kind.describe(), to: m.to.piles }).collect()
}

fn to_text(to: &[u64]) -> String {
    if to.iter().all(|&p| p == 0) {
        "nothing".into()
    } else {
        Position::shown(to, false)
    }
}

fn convention_note(misere: bool) -> &'static str {
    if misere {
        " (misère play: whoever cannot move wins)"
    } else {
        ""
    }
}

/// What `solve` says of a partizan position.
#[derive(Debug, Clone, Serialize)]
pub struct PartizanReport {
    /// The game's name.
    pub game: String,
    /// The position asked about, one number per pile.
    pub position: Vec<u64>,
    /// Whether the last player to move loses.
    pub misere: bool,
    /// Who wins.
    pub outcome: PartizanOutcome,
    /// The canonical value (normal play only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Why there is no value under normal play, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_note: Option<String>,
    /// Each pile's value, when the position is a sum of several piles.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pile_values: Vec<(u64, String)>,
    /// How hot the position is: stops, mean, temperature, thermograph (normal play, with a
    /// value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat: Option<Heat>,
    /// Left's orthodox moves: those that keep the mean at the position's temperature (with a
    /// value, not for a number).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_orthodox_moves: Vec<WinningMove>,
    /// Right's orthodox moves.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub right_orthodox_moves: Vec<WinningMove>,
    /// The atomic weight (a game: how many ↑ the position is worth), for an all-small
    /// position (every position in it has moves for both players or for neither).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub atomic_weight: Option<String>,
    /// The reduced canonical form: the simplest game infinitesimally close to the value (the
    /// value itself up to infinitesimals such as ↑ and *).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced: Option<String>,
    /// The value cooled by the temperature asked for (`cool`), when it has a value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cooled: Option<Cooled>,
    /// What temperature theory proves of a sum of piles too large to search (then `heat`
    /// and the winning moves are absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sum_heat: Option<SumHeat>,
    /// Left's winning moves.
    pub left_winning_moves: Vec<WinningMove>,
    /// Right's winning moves.
    pub right_winning_moves: Vec<WinningMove>,
}

pub(crate) fn solve(
    solver: &mut PartizanSolver,
    pos: &Position,
    cool: Option<Dyadic>,
) -> Result<PartizanReport, SolveError> {
    let game = solver.game();
    let misere = game.convention == Convention::Misere;
    let value_note = try_values(solver, pos)?;
    let normal = !misere;
    let (outcome, sum_heat) = match solver.outcome(pos) {
        Ok(o) => (o, None),
        Err(e) if normal && solver.is_sum_of_piles() && e.kind() == FailureKind::Refused => {
            // Too large to search: temperature theory may still prove who wins.
            let (outcome, sum_heat) = sum_heat(solver, pos)?;
            match outcome {
                Some(o) => (o, Some(sum_heat)),
                None => return Err(e),
            }
        }
        Err(e) => return Err(e),
    };
    let value_note = match (value_note, &sum_heat) {
        (Some(note), Some(_)) => Some(
            note.replace(&searched(), "too large to search too, so the outcome comes from the piles' thermographs"),
        ),
        (note, _) => note,
    };
    // The walls need no canonical form: a position too large for its value still has its
    // thermograph, from a search of its positions (the search the outcome came from).
    let heat = if normal && sum_heat.is_none() { refused_as_none(solver.heat(pos))? } else { None };
    let (value, pile_values, atomic_weight, cooled, reduced) = if solver.has_values() {
        let v = solver.value(pos)?;
        let reduced = solver.reduced_form(v);
        let cooled = match cool {
            Some(t) => Some(Cooled { by: plain(t), value: solver.cooled(v, t)? }),
            None => None,
        };
        // Past the forms' limits the atomic weight is left out, as the reduced form is.
        let atomic_weight = solver.atomic_weight(v).ok().flatten();
        (Some(solver.show(v)), pile_values(solver, pos)?, atomic_weight, cooled, reduced)
    } else {
        (None, Vec::new(), None, None, None)
    };
    // The options' walls may need a search too large where the position's did not: then the
    // orthodox moves are left out.
    let (left_orthodox_moves, right_orthodox_moves) = if heat.is_some() {
        let left = refused_as_none(solver.orthodox_moves(pos, Side::Left))?.unwrap_or_default();
        let right = refused_as_none(solver.orthodox_moves(pos, Side::Right))?.unwrap_or_default();
        (listed(left), listed(right))
    } else {
        (Vec::new(), Vec::new())
    };
    let (left_winning_moves, right_winning_moves) = if sum_heat.is_some() {
        (Vec::new(), Vec::new())
    } else {
        (listed(solver.winning_moves(pos, Side::Left)?), listed(solver.winning_moves(pos, Side::Right)?))
    };
    Ok(PartizanReport {
        game: game.name.clone(),
        position: pos.piles.clone(),
        misere,
        outcome,
        value,
        value_note,
        pile_values,
        heat,
        left_orthodox_moves,
        right_orthodox_moves,
        atomic_weight,
        reduced,
        cooled,
        sum_heat,
        left_winning_moves,
        right_winning_moves,
    })
}

/// A refusal (a limit) as no answer; other failures stay failures.
fn refused_as_none<T>(r: Result<T, SolveError>) -> Result<Option<T>, SolveError> {
    match r {
        Ok(x) => Ok(Some(x)),
        Err(e) if e.kind() == FailureKind::Refused => Ok(None),
        Err(e) => Err(e),
    }
}

impl PartizanReport {
    /// The answer as a reader sees it.
    pub(crate) fn to_text(&self) -> String {
        let mut out = format!(
            "{}, position {}{}\n",
            self.game,
            Position::shown(&self.position, false),
            convention_note(self.misere)
        );
        out.push_str(&format!("outcome: {} ({})\n", self.outcome.letter(), self.outcome.meaning()));
        if let Some(v) = &self.value {
            if self.pile_values.is_empty() {
                out.push_str(&format!("value: {v}\n"));
            } else {
                let parts: Vec<String> = self.pile_values.iter().map(|(_, v)| v.clone()).collect();
                out.push_str(&format!("value: {v} (the sum of the piles' values {})\n", parts.join(" + ")));
            }
        } else if let Some(note) = &self.value_note {
            out.push_str(&format!("value: not computed: {note}\n"));
        } else {
            out.push_str("value: none under misère play (canonical values are for normal play; the outcome comes from searching the game tree)\n");
        }
        if let Some(h) = &self.heat {
            out.push_str(&format!(
                "mean: {}, temperature: {} (stops: Left {}, Right {})\n",
                h.mean, h.temperature, h.left_stop, h.right_stop
            ));
            if let Some(c) = &h.confused_with {
                out.push_str(&format!("confused with the numbers in {c}\n"));
            }
            for (side, moves) in [(Side::Left, &self.left_orthodox_moves), (Side::Right, &self.right_orthodox_moves)] {
                let moves: Vec<String> =
                    moves.iter().map(|m| format!("{}, to {}", m.description, to_text(&m.to))).collect();
                if !moves.is_empty() {
                    out.push_str(&format!(
                        "{}'s orthodox moves (keeping the mean): {}\n",
                        side.name(),
                        moves.join("; ")
                    ));
                }
            }
        }
        if let (Some(r), Some(v)) = (&self.reduced, &self.value) {
            if r != v {
                out.push_str(&format!("reduced canonical form: {r} (the value up to infinitesimals)\n"));
            }
        }
        if let Some(c) = &self.cooled {
            out.push_str(&format!("cooled by {}: {}\n", c.by, c.value));
        }
        if let Some(w) = &self.atomic_weight {
            out.push_str(&format!("atomic weight: {w} (all-small: worth about {w} × ↑)\n"));
        }
        if let Some(h) = &self.sum_heat {
            out.push_str(&format!(
                "too large to search; temperature theory proves: mean {} (the sum of the piles' means), temperature at most {} (the hottest pile, of {}), Left's stop between {} and {}, Right's between {} and {}\n",
                h.mean, h.temperature_at_most, h.hottest_pile.0, h.left_stop[0], h.left_stop[1], h.right_stop[0], h.right_stop[1]
            ));
            for (side, m) in [(Side::Left, &h.left_hot_move), (Side::Right, &h.right_hot_move)] {
                if let Some(m) = m {
                    out.push_str(&format!(
                        "{}'s move by temperature (in the hottest pile; advice, not searched): {}, to {}\n",
                        side.name(),
                        m.description,
                        to_text(&m.to)
                    ));
                }
            }
            return out;
        }
        for (side, moves) in [(Side::Left, &self.left_winning_moves), (Side::Right, &self.right_winning_moves)] {
            if moves.is_empty() {
                out.push_str(&format!("{} moving first loses: no move of {}'s wins\n", side.name(), side.name()));
            } else {
                out.push_str(&format!("{} moving first wins with:\n", side.name()));
                for m in moves {
                    out.push_str(&format!("  {}, to {}\n", m.description, to_text(&m.to)));
                }
            }
        }
        out
    }
}

/// One pile's row of a partizan table.
#[derive(Debug, Clone, Serialize)]
pub struct PartizanRow {
    /// The pile size.
    pub n: u64,
    /// Who wins.
    pub outcome: PartizanOutcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The canonical form, when it was computed.
    pub value: Option<String>,
    /// The mean value (normal play).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean: Option<String>,
    /// The temperature (normal play).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<String>,
}

/// The periodic part of the outcome sequence, proven by a repeated window.
#[derive(Debug, Clone, Serialize)]
pub struct OutcomePeriod {
    /// Where the period starts.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// The largest take: the length of the window that repeats.
    pub window: u64,
    /// The outcomes of one period, from the preperiod on.
    pub outcomes: Vec<PartizanOutcome>,
    /// The behaviour the period shows, in the terms of Duchêne, Heinrich, Nowakowski and
    /// Parreau (2021).
    pub behaviour: String,
}

/// Outcomes and canonical forms of a partizan game, pile by pile.
#[derive(Debug, Clone, Serialize)]
pub struct PartizanTable {
    /// The game's name.
    pub game: String,
    /// Whether the last player to move loses.
    pub misere: bool,
    /// The board has a fixed number of piles: a row is one pile with the others empty.
    pub fixed_piles: bool,
    /// The rows.
    pub rows: Vec<PartizanRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The period of the outcomes, when one was found.
    pub period: Option<OutcomePeriod>,
    /// Where the values column stops, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values_stop: Option<String>,
    /// Why no period is given, when none is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period_note: Option<String>,
}

/// How far the outcome sequence is computed when a period is looked for past the table.
pub(crate) const PERIOD_LOOK: u64 = 4096;

/// The share of a question's work a look for a period past the table may take.
const LOOK_SHARE: u64 = 4;

/// What one pile's outcome costs of the work, searched from the piles below it (a few moves
/// of each player, and the search's own bookkeeping).
const LOOK_COST_PER_PILE: u64 = 16;

pub(crate) fn table(solver: &mut PartizanSolver, upto: u64) -> Result<PartizanTable, super::TableError> {
    super::TableError::refuse_rows(upto, solver.limits().max_states, |k| k as u128 + 1)?;
    let game = solver.game();
    let misere = game.convention == Convention::Misere;
    let mut rows = Vec::new();
    let mut values_stop = None;
    for n in 0..=upto {
        let pos = solver.one_pile(n);
        if values_stop.is_none() && solver.has_values() {
            if let Some(note) = try_values(solver, &pos)? {
                values_stop = Some(format!("values stop at n = {n}: {note}"));
            }
        }
        let outcome = solver.outcome(&pos)?;
        let value = if solver.has_values() {
            let v = solver.value(&pos)?;
            Some(solver.show_short(v, TABLE_FORM))
        } else {
            None
        };
        // Past the values, the walls still come from the piles below (normal play).
        let (mean, temperature) = if misere {
            (None, None)
        } else {
            let heat = solver.heat(&pos)?;
            (Some(heat.mean), Some(heat.temperature))
        };
        rows.push(PartizanRow { n, outcome, value, mean, temperature });
    }
    let (period, period_note) = match subtraction_bound(game) {
        Some(window) if window > 0 => {
            // Outcomes alone (cheap) past the table, to find the repeat.
            let look = upto.max(PERIOD_LOOK.max(window * 64));
            let mut outcomes: Vec<PartizanOutcome> = rows.iter().map(|r| r.outcome).collect();
            outcomes.extend(subtraction_outcomes(solver, upto + 1, look)?);
            match find_period(&outcomes, window as usize) {
                Some((pre, p)) => {
                    let one = outcomes[pre..pre + p].to_vec();
                    let behaviour = behaviour(&one);
                    (
                        Some(OutcomePeriod {
                            preperiod: pre as u64,
                            period: p as u64,
                            window,
                            outcomes: one,
                            behaviour,
                        }),
                        None,
                    )
                }
                None => {
                    let looked = outcomes.len() as u64 - 1;
                    (None, Some(format!("no period found in the outcomes of piles 0..{looked}")))
                }
            }
        }
        _ => (None, Some("periods are looked for in subtraction games (takes of fixed amounts from one pile)".into())),
    };
    let fixed_piles = matches!(game.board, crate::rules::Board::FixedPiles(k) if k > 1);
    Ok(PartizanTable { game: game.name.clone(), misere, fixed_piles, rows, period, period_note, values_stop })
}

/// Outcomes of single piles from..=to, by the outcomes alone (a subtraction game's outcome
/// depends only on the outcomes of the piles it moves to).
fn subtraction_outcomes(solver: &mut PartizanSolver, from: u64, to: u64) -> Result<Vec<PartizanOutcome>, SolveError> {
    let mut out = Vec::new();
    // Looking past the table is a bonus: it stops at a share of the question's work (a take
    // of 65535 would otherwise look through four million piles).
    let budget = solver.limits().max_work / LOOK_SHARE;
    let mut work = 0u64;
    for n in from..=to {
        work += LOOK_COST_PER_PILE;
        if work > budget {
            break;
        }
        let pos = solver.one_pile(n);
        let (l, r) = solver.searched_wins(&pos)?;
        out.push(PartizanOutcome::from_wins(l, r));
    }
    Ok(out)
}

/// The first (preperiod, period) such that a window of `window` outcomes repeats `period`
/// later: from there on, each outcome depends only on the window before it, so all repeats.
pub(crate) fn find_period(outcomes: &[PartizanOutcome], window: usize) -> Option<(usize, usize)> {
    let n = outcomes.len();
    for p in 1..n {
        for start in 0..n {
            if start + p + window > n {
                break;
            }
            // Start at the window's length or later: below it, some takes are not yet allowed.
            if start < window {
                continue;
            }
            if outcomes[start..start + window] == outcomes[start + p..start + p + window] {
                // The smallest preperiod: go back while the sequence still repeats.
                let mut pre = start;
                while pre > 0 && outcomes[pre - 1] == outcomes[pre - 1 + p] {
                    pre -= 1;
                }
                return Some((pre, p));
            }
        }
    }
    None
}

/// Which of the four behaviours one period shows.
fn behaviour(period: &[PartizanOutcome]) -> String {
    use PartizanOutcome::*;
    let has = |o| period.contains(&o);
    match (has(L), has(R)) {
        (true, true) => "fair: both L and R recur".into(),
        (true, false) if period.iter().all(|&o| o == L) => "Left dominates: every large pile is an L-position".into(),
        (false, true) if period.iter().all(|&o| o == R) => "Right dominates: every large pile is an R-position".into(),
        (true, false) => "Left weakly dominates: L recurs, R never does".into(),
        (false, true) => "Right weakly dominates: R recurs, L never does".into(),
        (false, false) => "ultimately impartial: only N and P recur, as in an impartial game".into(),
    }
}

impl PartizanTable {
    /// The table as a reader sees it.
    pub(crate) fn to_text(&self) -> String {
        let mut out = format!(
            "{}: one pile of n = 0..{}{}{}\n",
            self.game,
            self.rows.len().saturating_sub(1),
            if self.fixed_piles { " (the other piles empty)" } else { "" },
            convention_note(self.misere)
        );
        let width = self.rows.last().map(|r| r.n.to_string().len()).unwrap_or(1).max(1);
        let with_values = self.rows.iter().any(|r| r.value.is_some());
        // Mean and temperature in columns of their own width, before the value (which may be long).
        let column = |f: fn(&PartizanRow) -> Option<&String>, title: &str| {
            self.rows.iter().filter_map(f).map(|s| s.chars().count()).max().unwrap_or(0).max(title.len())
        };
        let mean_width = column(|r| r.mean.as_ref(), "mean");
        let temperature_width = column(|r| r.temperature.as_ref(), "temperature");
        if with_values {
            out.push_str(&format!(
                "{:>width$}  outcome  {:>mean_width$}  {:>temperature_width$}  value\n",
                "n", "mean", "temperature"
            ));
        } else {
            out.push_str(&format!("{:>width$}  outcome\n", "n"));
        }
        for r in &self.rows {
            out.push_str(&format!("{:>width$}  {:>7}", r.n, r.outcome.letter()));
            if let Some(v) = &r.value {
                let (m, t) = (r.mean.as_deref().unwrap_or(""), r.temperature.as_deref().unwrap_or(""));
                out.push_str(&format!("  {m:>mean_width$}  {t:>temperature_width$}  {v}"));
            }
            out.push('\n');
        }
        for o in [PartizanOutcome::L, PartizanOutcome::R, PartizanOutcome::N, PartizanOutcome::P] {
            let ns: Vec<String> = self.rows.iter().filter(|r| r.outcome == o).map(|r| r.n.to_string()).collect();
            if !ns.is_empty() {
                out.push_str(&format!("{}-positions: {}\n", o.letter(), ns.join(", ")));
            }
        }
        if let Some(stop) = &self.values_stop {
            out.push_str(&format!("{stop}\n"));
        }
        if self.rows.iter().any(|r| r.value.as_deref().is_some_and(|v| v.starts_with("{…}"))) {
            out.push_str(&format!(
                "values longer than {TABLE_FORM} characters are shown as {{…}}; `solve` writes them out\n"
            ));
        }
        match (&self.period, &self.period_note) {
            (Some(p), _) => {
                let letters: String = p.outcomes.iter().map(|o| o.letter()).collect();
                out.push_str(&format!(
                    "period: outcomes repeat with period {} from n = {} ({letters} …); proven: each outcome depends only on the {} before it (the largest take), and a window of {} repeats\n",
                    p.period, p.preperiod, p.window, p.window
                ));
                out.push_str(&format!("behaviour: {}\n", p.behaviour));
            }
            (None, Some(note)) => out.push_str(&format!("period: not given: {note}\n")),
            _ => {}
        }
        out
    }

    /// The table as comma-separated values.
    pub(crate) fn to_csv(&self) -> String {
        let mut out = String::from("n,outcome,value,mean,temperature\n");
        for r in &self.rows {
            let v = r.value.clone().unwrap_or_default();
            let quoted = if v.contains(',') || v.contains('"') { format!("\"{}\"", v.replace('"', "\"\"")) } else { v };
            let (m, t) = (r.mean.as_deref().unwrap_or(""), r.temperature.as_deref().unwrap_or(""));
            out.push_str(&format!("{},{},{},{m},{t}\n", r.n, r.outcome.letter(), quoted));
        }
        out
    }
}

/// One option in an explanation: the move, the value it leaves, and what happened to it.
#[derive(Debug, Clone, Serialize)]
pub struct ExplainedOption {
    #[serde(rename = "move")]
    /// The move in words, as the rule that makes it says it.
    pub description: String,
    /// The position the move leaves.
    pub to: Vec<u64>,
    /// The canonical form of the position the move leaves.
    pub value: String,
    /// Why it is struck out of the canonical form, if it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub struck: Option<String>,
}

/// Why a partizan position has its outcome: each side's options and their values.
#[derive(Debug, Clone, Serialize)]
pub struct PartizanExplanation {
    /// The game's name.
    pub game: String,
    /// The position asked about, one number per pile.
    pub position: Vec<u64>,
    /// Whether the last player to move loses.
    pub misere: bool,
    /// Outcomes from a search of the game tree rather than values.
    pub searched: bool,
    /// Left's options.
    pub left: Vec<ExplainedOption>,
    /// Right's options.
    pub right: Vec<ExplainedOption>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The canonical form, when it was computed.
    pub value: Option<String>,
    /// How the value follows, sentence by sentence.
    pub reasoning: Vec<String>,
    /// Who wins.
    pub outcome: PartizanOutcome,
    /// Left's winning moves.
    pub left_winning_moves: Vec<WinningMove>,
    /// Right's winning moves.
    pub right_winning_moves: Vec<WinningMove>,
}

/// The explanation where there are no values (misère play, or values past the limits): each
/// option's outcome from the search, and the rule that decides who wins moving first.
fn searched_explanation(
    solver: &mut PartizanSolver,
    pos: &Position,
    value_note: Option<String>,
    outcome: PartizanOutcome,
    (left_winning_moves, right_winning_moves): (Vec<WinningMove>, Vec<WinningMove>),
    mut reasoning: Vec<String>,
) -> Result<PartizanExplanation, SolveError> {
    let game = solver.game();
    let misere = game.convention == Convention::Misere;
    let mut sides = Vec::new();
    for side in [Side::Left, Side::Right] {
        let mut options = Vec::new();
        for mv in solver.moves(pos, side)? {
            let (l, r) = solver.searched_wins(&mv.to)?;
            let o = PartizanOutcome::from_wins(l, r);
            options.push(ExplainedOption {
                description: mv.kind.describe(),
                to: mv.to.piles.clone(),
                value: format!("outcome {}", o.letter()),
                struck: None,
            });
        }
        sides.push(options);
    }
    let right = sides.pop().unwrap_or_default();
    let left = sides.pop().unwrap_or_default();
    if let Some(note) = value_note {
        reasoning.push(format!("No value: {note}."));
    }
    if misere {
        reasoning
            .push("Under misère play a player who cannot move wins, so a side with no moves wins moving first.".into());
    } else {
        reasoning.push("A player who cannot move loses.".into());
    }
    reasoning.push("A player moving first wins when some move leads to a position the other player, moving first from there, loses.".into());
    Ok(PartizanExplanation {
        game: game.name.clone(),
        position: pos.piles.clone(),
        misere,
        searched: true,
        left,
        right,
        value: None,
        reasoning,
        outcome,
        left_winning_moves,
        right_winning_moves,
    })
}

pub(crate) fn explain(solver: &mut PartizanSolver, pos: &Position) -> Result<PartizanExplanation, SolveError> {
    let game = solver.game();
    let misere = game.convention == Convention::Misere;
    let value_note = try_values(solver, pos)?;
    let outcome = solver.outcome(pos)?;
    let left_winning_moves = listed(solver.winning_moves(pos, Side::Left)?);
    let right_winning_moves = listed(solver.winning_moves(pos, Side::Right)?);
    let mut reasoning = Vec::new();
    if !solver.has_values() {
        return searched_explanation(
            solver,
            pos,
            value_note,
            outcome,
            (left_winning_moves, right_winning_moves),
            reasoning,
        );
    }
    let left_options = solver.options_values(pos, Side::Left)?;
    let right_options = solver.options_values(pos, Side::Right)?;
    let lefts: Vec<FormId> = left_options.iter().map(|o| o.1).collect();
    let rights: Vec<FormId> = right_options.iter().map(|o| o.1).collect();
    let limits = solver.limits().clone();
    let (value, notes) = solver
        .forms
        .canonical_explained(lefts.clone(), rights.clone())
        .map_err(|_| SolveError::state_limit(&limits))?;
    let explained = |solver: &mut PartizanSolver, options: &[(Move, FormId)], side: Side| -> Vec<ExplainedOption> {
        let mut out = Vec::new();
        let values: Vec<FormId> = options.iter().map(|o| o.1).collect();
        for (mv, v) in options {
            let text = solver.show(*v);
            let dominated = match side {
                Side::Left => notes.dominated_left.contains(v),
                Side::Right => notes.dominated_right.contains(v),
            };
            let reversed = match side {
                Side::Left => notes.reversed_left.iter().find(|r| r.0 == *v).cloned(),
                Side::Right => notes.reversed_right.iter().find(|r| r.0 == *v).cloned(),
            };
            let struck = if dominated {
                let better = values.iter().copied().find(|&b| {
                    b != *v
                        && match side {
                            Side::Left => solver.forms.le(*v, b),
                            Side::Right => solver.forms.le(b, *v),
                        }
                });
                better.map(|b| {
                    let shown = solver.show(b);
                    match side {
                        Side::Left => format!("dominated: Left has {shown}, at least as good ({text} ≤ {shown})"),
                        Side::Right => format!("dominated: Right has {shown}, at least as good ({shown} ≤ {text})"),
                    }
                })
            } else if let Some((_, via, replacement)) = reversed {
                let shown: Vec<String> = replacement.iter().map(|&r| solver.show(r)).collect();
                let reply = solver.show(via);
                let through = match side {
                    Side::Left => {
                        format!("Right's reply to it, {reply}, is no better for Left than the whole game ({reply} ≤ G)")
                    }
                    Side::Right => {
                        format!("Left's reply to it, {reply}, is no better for Right than the whole game ({reply} ≥ G)")
                    }
                };
                Some(format!(
                    "reversible: {through}, so it is replaced by the options that reply leaves the same player: {}",
                    if shown.is_empty() { "none".to_string() } else { shown.join(", ") }
                ))
            } else {
                None
            };
            out.push(ExplainedOption { description: mv.kind.describe(), to: mv.to.piles.clone(), value: text, struck });
        }
        out
    };
    let left = explained(solver, &left_options, Side::Left);
    let right = explained(solver, &right_options, Side::Right);
    let shown = solver.show(value);
    let piles = pile_values(solver, pos)?;
    if !piles.is_empty() {
        let parts: Vec<String> = piles.iter().map(|(n, v)| format!("{v} (pile of {n})")).collect();
        reasoning.push(format!(
            "The piles are played side by side, so the value is the sum of theirs: {} = {shown}.",
            parts.join(" + ")
        ));
    }
    let left_numbers: Option<Vec<Dyadic>> = lefts.iter().map(|&v| solver.forms.number(v)).collect();
    let right_numbers: Option<Vec<Dyadic>> = rights.iter().map(|&v| solver.forms.number(v)).collect();
    if let Some(x) = solver.forms.number(value) {
        match (left_numbers, right_numbers) {
            (Some(l), Some(r)) => {
                let best_left = l.iter().max().map(|d| d.to_string());
                let best_right = r.iter().min().map(|d| d.to_string());
                let between = match (best_left, best_right) {
                    (Some(a), Some(b)) => format!("greater than {a} and less than {b}"),
                    (Some(a), None) => format!("greater than {a}"),
                    (None, Some(b)) => format!("less than {b}"),
                    (None, None) => "with no options on either side".into(),
                };
                reasoning.push(format!(
                    "Every option is a number and Left's are all below Right's, so the value is the simplest number {between}: {x}."
                ));
            }
            _ => reasoning.push(format!("Once the struck-out options are gone, the value is the number {x}.")),
        }
    } else {
        reasoning.push(format!("Canonical form, with dominated and reversible options removed: {shown}."));
        let (ls, rs) = solver.forms.stops(value);
        reasoning
            .push(format!("Left moving first can reach {ls} when play settles on a number; Right moving first, {rs}."));
        reasoning.extend(thermograph_walk(solver, value, &left_options, &right_options));
    }
    reasoning.push(match outcome {
        PartizanOutcome::L => "It is greater than 0: Left wins whoever starts.".into(),
        PartizanOutcome::R => "It is less than 0: Right wins whoever starts.".into(),
        PartizanOutcome::P => "It is 0: whoever moves first loses.".into(),
        PartizanOutcome::N => "It is confused with 0 (neither ≥ 0 nor ≤ 0): whoever moves first wins.".into(),
    });
    Ok(PartizanExplanation {
        game: game.name.clone(),
        position: pos.piles.clone(),
        misere,
        searched: false,
        left,
        right,
        value: Some(shown),
        reasoning,
        outcome,
        left_winning_moves,
        right_winning_moves,
    })
}

/// The thermograph of `value`, walked through from its options' walls (Winning Ways ch. 6):
/// what each option's wall gives at the temperature, where the two scaffolds meet, and why that
/// is the temperature and the mean.
fn thermograph_walk(
    solver: &mut PartizanSolver,
    value: FormId,
    left_options: &[(Move, FormId)],
    right_options: &[(Move, FormId)],
) -> Vec<String> {
    let th = solver.thermograph(value);
    let (t, mean) = (plain(th.temperature), plain(th.mean));
    let mut out = vec![
        "Thermograph: cool the game by t (each move costs its mover t). Left's wall is the best for Left of her options' right walls, each moved t towards Right (x − t); Right's wall is the best for Right of his options' left walls, each moved t towards Left (x + t).".to_string(),
    ];
    for (side, options) in [(Side::Left, left_options), (Side::Right, right_options)] {
        let mut said = Vec::new();
        for (mv, v) in options {
            let o = solver.thermograph(*v);
            let at = if side == Side::Left {
                o.right.at(th.temperature) - th.temperature
            } else {
                o.left.at(th.temperature) + th.temperature
            };
            let orthodox = if at == th.mean { " (orthodox: it keeps the mean)" } else { "" };
            said.push(format!("{} gives x = {} at t = {t}{orthodox}", mv.kind.describe(), plain(at)));
        }
        if !said.is_empty() {
            out.push(format!("{}'s options: {}.", side.name(), said.join("; ")));
        }
    }
    out.push(format!(
        "The walls meet at t = {t}, x = {mean}: the temperature is {t} (how much moving first is worth) and the mean {mean} (above the temperature the game is worth {mean} to both: the mast)."
    ));
    out
}

impl PartizanExplanation {
    /// The explanation as a student reads it.
    pub(crate) fn to_text(&self) -> String {
        let mut out = format!(
            "{}, position {}{}\n",
            self.game,
            Position::shown(&self.position, false),
            convention_note(self.misere)
        );
        for (side, options) in [(Side::Left, &self.left), (Side::Right, &self.right)] {
            if options.is_empty() {
                out.push_str(&format!("{} has no move.\n", side.name()));
                continue;
            }
            let what = if self.searched { "the outcome it leaves" } else { "the value it leaves" };
            out.push_str(&format!("{}'s moves, and {what}:\n", side.name()));
            for o in options {
                out.push_str(&format!("  {}, to {}: {}\n", o.description, to_text(&o.to), o.value));
                if let Some(why) = &o.struck {
                    out.push_str(&format!("      ✗ struck out, {why}\n"));
                }
            }
        }
        if !self.searched {
            let values = |options: &[ExplainedOption]| {
                let mut v: Vec<&str> = options.iter().map(|o| o.value.as_str()).collect();
                v.dedup();
                v.join(", ")
            };
            out.push_str(&format!("So the position is {{ {} | {} }}.\n", values(&self.left), values(&self.right)));
        }
        for line in &self.reasoning {
            out.push_str(line);
            out.push('\n');
        }
        if let Some(v) = &self.value {
            out.push_str(&format!("value: {v}\n"));
        }
        out.push_str(&format!("outcome: {} ({})\n", self.outcome.letter(), self.outcome.meaning()));
        for (side, moves) in [(Side::Left, &self.left_winning_moves), (Side::Right, &self.right_winning_moves)] {
            if moves.is_empty() {
                out.push_str(&format!("{} moving first has no winning move.\n", side.name()));
            } else {
                let targets: Vec<String> =
                    moves.iter().map(|m| format!("{}, to {}", m.description, to_text(&m.to))).collect();
                let why = match (self.searched, side) {
                    (true, _) => "after it the other player, moving first, loses",
                    (false, Side::Left) => "it leaves a value ≥ 0",
                    (false, Side::Right) => "it leaves a value ≤ 0",
                };
                out.push_str(&format!("{} moving first wins with {} ({why}).\n", side.name(), targets.join("; ")));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Limits;

    #[test]
    fn a_game_too_large_for_values_is_answered_by_search() {
        // The forms of this game grow with the pile; with a small limit the value is refused and
        // the outcome still comes (from the search), matching a search that knows no values.
        let text = "game \"g\"\npiles\nleft move: take 1 or 3\nright move: take 2 or 3\n";
        let game = crate::solve::test_support::game_text(text);
        let mut s = PartizanSolver::within(&game, Limits::states(20_000));
        let report = solve(&mut s, &Position::new(vec![200]), None).unwrap();
        assert!(report.value.is_none());
        assert!(report.value_note.as_deref().unwrap().contains("grow past the limit"), "{report:?}");
        let mut search = PartizanSolver::within(&game, Limits::default());
        search.give_up_values();
        let (left, right) = search.searched_wins(&Position::new(vec![200])).expect("search");
        assert_eq!(report.outcome, PartizanOutcome::from_wins(left, right));
    }
}
