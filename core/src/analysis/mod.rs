//! Answers to a user's questions, as data that renders to text or JSON: `solve` (one position),
//! `table` (every small position) and `explain` (how an answer follows).

pub(crate) mod compare;
pub(crate) mod explain;
pub(crate) mod heat;
pub(crate) mod partizan;
mod partizan_values;
pub(crate) mod period_search;
pub(crate) mod periods;
pub(crate) mod quotient;
pub(crate) mod sweep;
pub(crate) mod table;
pub(crate) mod window_search;

#[cfg(test)]
mod misere_tests;

pub(crate) use compare::compare;
pub use compare::{CompareError, Comparison};
pub(crate) use explain::explain_with;
pub use explain::Explanation;
pub(crate) use quotient::quotient;
pub use quotient::{QuotientError, QuotientReport};
pub(crate) use table::{stream_table, table, StreamError, TableOptions, TableStream};
pub use table::{LastGrid, MisereColumns, Table, TableError, TableShape};

use serde::Serialize;

use crate::rules::{Game, Position};
use crate::solve::loopy::LoopyValue;
use crate::solve::{Outcome, SolveError, Solver};

/// Everything `solve` says about one position.
#[derive(Debug, Clone, Serialize)]
pub struct SolveReport {
    /// The game's name.
    pub game: String,
    /// The position asked about, one number per pile.
    pub position: Vec<u64>,
    /// A product game's position: the numbers of `position` and of each move's `to` are the
    /// cells' coordinates in pairs, x₁, y₁, x₂, y₂, …
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cells: bool,
    /// The previous move's size, for games whose rules read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<u64>,
    /// Who wins.
    pub outcome: Outcome,
    /// The Grundy value (nim-value), when there is one.
    pub grundy: Option<u64>,
    /// Moves the game lasts under best play (the winner hurries, the loser delays); null when
    /// the position is too large to search for it, or it was not asked for.
    pub remoteness: Option<u64>,
    /// The winning moves, as far as they are listed.
    pub winning_moves: Vec<WinningMove>,
    /// True when there are more winning moves than the list shows.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub more_winning_moves: bool,
    /// Smith's generalised Grundy value, for loopy games under normal play: a number or ∞{…}.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loopy_value: Option<String>,
    /// For a draw: the moves that keep it (none of them loses, none wins).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drawing_moves: Vec<WinningMove>,
    /// For a draw: one line of play that keeps the draw until a position comes back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_line: Option<DrawLineReport>,
    /// Why the Grundy value is missing, when it is.
    #[serde(skip)]
    pub grundy_note: Option<String>,
    #[serde(skip)]
    /// The method that solved it.
    pub method: &'static str,
}

/// The moves that keep a loopy game drawn.
#[derive(Debug, Clone, Serialize)]
pub struct DrawLineReport {
    /// The moves that keep the game drawn.
    pub moves: Vec<WinningMove>,
    /// The move (counted from 0) after which play is back in the position it left: the circle
    /// is the moves from there on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub circle_from: Option<usize>,
}

/// A winning move and the position it leaves.
#[derive(Debug, Clone, Serialize)]
pub struct WinningMove {
    #[serde(rename = "move")]
    /// The move in words, as the rule that makes it says it.
    pub description: String,
    /// The position the move leaves.
    pub to: Vec<u64>,
}

/// Who wins a position, its value and winning moves, searching for the remoteness only when `remoteness` is set: that search visits
/// whole positions, which costs far more than a pile-sum game's value (a loop of many small
/// questions from a library leaves it out).
pub(crate) fn solve_with(solver: &mut Solver, pos: &Position, remoteness: bool) -> Result<SolveReport, SolveError> {
    let game: &Game = solver.game();
    let name = game.name.clone();
    let convention = game.convention;
    let value = solver.value(pos)?;
    let (winning_moves, more_winning_moves) = if value.outcome == Outcome::N {
        let (moves, more) = solver.winning_moves_listed(pos)?;
        (moves.into_iter().map(|m| WinningMove { description: m.kind.describe(), to: m.to.piles }).collect(), more)
    } else {
        (Vec::new(), false)
    };
    let loopy_value = solver.loopy_value(pos)?;
    let grundy_note = match (value.grundy, convention) {
        (Some(_), _) => None,
        (None, _) if loopy_value.is_some() => loopy_value.as_ref().map(|v| match v {
            LoopyValue::Infinite(k) if k.is_empty() => {
                format!(
                    "{v} (Smith's generalised value: play from here need not end, and no option has a finite value)"
                )
            }
            LoopyValue::Infinite(k) => format!(
                "{v} (Smith's generalised value: play from here need not end; its options that are not ∞ have {} {})",
                if k.len() == 1 { "value" } else { "values" },
                k.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(", ")
            ),
            LoopyValue::Finite(g) => g.to_string(),
        }),
        (None, crate::vocab::Convention::Misere) => {
            Some("not defined under misère play (only outcomes are)".to_string())
        }
        (None, _) if solver.method() == crate::solve::MethodKind::Moore => Some(
            "not computed: Moore's theorem gives outcomes, not Grundy values, and this position is too large to search for its value"
                .to_string(),
        ),
        (None, _) => Some("not computed: this position is too large to search for it".to_string()),
    };
    let remoteness = if remoteness { solver.remoteness(pos)? } else { None };
    let drawing_moves = if value.outcome == Outcome::D {
        let moves = solver.drawing_moves(pos)?;
        moves.into_iter().map(|m| WinningMove { description: m.kind.describe(), to: m.to.piles }).collect()
    } else {
        Vec::new()
    };
    let draw_line = solver.draw_line(pos)?.map(|line| DrawLineReport {
        moves: line.moves.into_iter().map(|m| WinningMove { description: m.kind.describe(), to: m.to.piles }).collect(),
        circle_from: line.circle_from,
    });
    Ok(SolveReport {
        game: name,
        position: pos.piles.clone(),
        cells: pos.cells,
        last: pos.last,
        outcome: value.outcome,
        grundy: value.grundy,
        remoteness,
        winning_moves,
        more_winning_moves,
        loopy_value: loopy_value.map(|v| v.to_string()),
        drawing_moves,
        draw_line,
        grundy_note,
        method: solver.method().describe(),
    })
}

impl SolveReport {
    /// The answer as a reader sees it.
    pub(crate) fn to_text(&self) -> String {
        let pos = Position { piles: self.position.clone(), last: self.last, cells: self.cells };
        let mut out = report_head(&self.game, &pos.piles_text(), self.last, self.outcome);
        match (self.grundy, &self.grundy_note) {
            (Some(g), _) => out.push_str(&format!("Grundy value: {g}\n")),
            (None, Some(note)) => out.push_str(&format!("Grundy value: {note}\n")),
            (None, None) => {}
        }
        match (self.remoteness, self.outcome) {
            (Some(0), _) => out.push_str("remoteness: 0 (the game is over)\n"),
            (Some(1), Outcome::N) => out.push_str("remoteness: 1 (the player to move wins in 1 move with best play)\n"),
            (Some(r), Outcome::N) => {
                out.push_str(&format!("remoteness: {r} (the player to move wins in {r} moves with best play)\n"))
            }
            (Some(r), Outcome::P) => out.push_str(&format!(
                "remoteness: {r} (the player to move loses, but can make the game last {r} moves)\n"
            )),
            (None, Outcome::D) => out.push_str("remoteness: none (with best play the game never ends)\n"),
            (_, _) => {}
        }
        if self.outcome == Outcome::P {
            out.push_str("winning moves: none; every move leads to an N-position\n");
        } else if self.outcome == Outcome::D {
            out.push_str("winning moves: none; no move leads to a P-position\n");
            let heading =
                if self.drawing_moves.len() == 1 { "move that keeps the draw" } else { "moves that keep the draw" };
            out.push_str(&format!("{heading}:\n"));
            for m in &self.drawing_moves {
                out.push_str(&format!("  {}, to {}\n", m.description, Position::shown(&m.to, pos.cells)));
            }
            if let Some(line) = &self.draw_line {
                out.push_str(&line.to_text(&pos));
            }
        } else {
            let heading = if self.winning_moves.len() == 1 { "winning move" } else { "winning moves" };
            out.push_str(&format!("{heading}:\n"));
            for m in &self.winning_moves {
                let to = Position::shown(&m.to, pos.cells);
                out.push_str(&format!(
                    "  {}, to {}\n",
                    m.description,
                    if m.to.is_empty() { "nothing".into() } else { to }
                ));
            }
            if self.more_winning_moves {
                out.push_str(&more_moves_line(self.winning_moves.len()));
            }
        }
        out
    }
}

/// What `solve` says of a pile too large for 64 bits in one of Schwenk's games: the numbers
/// are decimal text, in JSON too, since they do not fit a JSON number.
#[derive(Debug, Clone, Serialize)]
pub struct BigSolveReport {
    /// The game's name.
    pub game: String,
    /// The position asked about, one decimal number per pile.
    pub position: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The size of the previous move, for games whose moves depend on it.
    pub last: Option<u64>,
    /// Who wins.
    pub outcome: Outcome,
    /// The Grundy value (nim-value), when there is one.
    pub grundy: Option<u64>,
    /// The pile written greedily as a sum of terms of Schwenk's sequence H, largest first.
    pub terms: Vec<String>,
    /// The winning moves, as far as they are listed.
    pub winning_moves: Vec<BigWinningMove>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    /// Whether there are more winning moves than listed.
    pub more_winning_moves: bool,
}

/// A winning move in a position too large for 64-bit piles.
#[derive(Debug, Clone, Serialize)]
pub struct BigWinningMove {
    #[serde(rename = "move")]
    /// The move in words, as the rule that makes it says it.
    pub description: String,
    /// The position the move leaves, one decimal number per pile.
    pub to: Vec<String>,
}

/// The first lines of a `solve` report: the game, the position, and its outcome.
fn report_head(game: &str, position: &str, last: Option<u64>, outcome: Outcome) -> String {
    let mut out = format!("{game}, position {position}");
    if let Some(l) = last {
        out.push_str(&format!(" (the previous move took {l})"));
    }
    out.push('\n');
    out.push_str(&format!("outcome: {} ({})\n", outcome.letter(), outcome.meaning()));
    out
}

/// The line under a list of winning moves that may not be all of them.
fn more_moves_line(listed: usize) -> String {
    match listed {
        1 => "  … and there may be more: only this one is listed\n".to_string(),
        n => format!("  … and there may be more: only these {n} are listed\n"),
    }
}

/// The most terms of a pile's representation written out in text.
const TERMS_SHOWN: usize = 12;

impl BigSolveReport {
    /// The answer for a position given in decimal numbers of any size.
    pub(crate) fn new(
        game: &Game,
        pile: &num_bigint::BigUint,
        last: Option<u64>,
        answer: crate::solve::big::BigAnswer,
    ) -> Self {
        let pile_text = pile.to_string();
        BigSolveReport {
            game: game.name.clone(),
            position: vec![pile_text.clone()],
            last,
            outcome: answer.outcome,
            grundy: None,
            terms: answer.terms.iter().map(|t| t.to_string()).collect(),
            winning_moves: answer
                .winning
                .iter()
                .map(|(take, left)| BigWinningMove {
                    description: format!("take {take} from the pile of {pile_text}"),
                    to: vec![left.to_string()],
                })
                .collect(),
            more_winning_moves: answer.more,
        }
    }

    /// The answer as a reader sees it.
    pub(crate) fn to_text(&self) -> String {
        let mut out = report_head(&self.game, &self.position.join(" "), self.last, self.outcome);
        out.push_str("Grundy value: not computed: this position is too large to search for it\n");
        let shown: Vec<&str> = self.terms.iter().take(TERMS_SHOWN).map(|t| t.as_str()).collect();
        let rest = match self.terms.len().saturating_sub(TERMS_SHOWN) {
            0 => String::new(),
            n => format!(" + … ({n} more terms)"),
        };
        out.push_str(&format!("as a sum of Schwenk's sequence: {}{rest}\n", shown.join(" + ")));
        if let Some(smallest) = self.terms.last() {
            out.push_str(&format!(
                "the smallest term, {smallest}, is the smallest take that wins: it is {} the reach of this move\n",
                if self.outcome == Outcome::N { "within" } else { "beyond" }
            ));
        }
        if self.outcome == Outcome::P {
            out.push_str("winning moves: none; every move leads to an N-position\n");
            return out;
        }
        let heading = if self.winning_moves.len() == 1 { "winning move" } else { "winning moves" };
        out.push_str(&format!("{heading}:\n"));
        for m in &self.winning_moves {
            let to = if m.to[0] == "0" { "nothing".to_string() } else { m.to.join(" ") };
            out.push_str(&format!("  {}, to {to}\n", m.description));
        }
        if self.more_winning_moves {
            out.push_str(&more_moves_line(self.winning_moves.len()));
        }
        out
    }
}

impl DrawLineReport {
    fn to_text(&self, start: &Position) -> String {
        let mut out = String::from("one way play goes on for ever, each player keeping the draw:\n");
        let mut before = start.piles_text();
        let mut circle_start = None;
        for (i, m) in self.moves.iter().enumerate() {
            if Some(i) == self.circle_from {
                circle_start = Some(before.clone());
            }
            let to = Position::shown(&m.to, start.cells);
            out.push_str(&format!("  {}. {before} → {to}: {}\n", i + 1, m.description));
            before = to;
        }
        if let Some(p) = circle_start {
            out.push_str(&format!("  and round again: position {p} has come back\n"));
        }
        out
    }
}
