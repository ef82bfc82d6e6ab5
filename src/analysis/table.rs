//! `table`: outcomes and Grundy values of every small position, and the P-positions among them.

use comfy_table::{presets, CellAlignment, ColumnConstraint, Table as TextTable, Width};
use miette::Diagnostic;
use serde_json::{json, Value as Json};
use thiserror::Error;

use crate::rules::{Board, Game, Position};
use crate::solve::{Outcome, SolveError, Solver};

/// Which positions a table covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableShape {
    /// one pile of n, for n = 0..=upto
    OnePile,
    /// two piles (a, b), both at most upto
    TwoPiles,
    /// Chomp rectangles of r rows and c columns, 1 ≤ r, c ≤ upto
    Rectangles,
}

#[derive(Debug, Clone)]
pub struct Table {
    pub game: String,
    pub upto: u64,
    pub shape: TableShape,
    /// One row for one-pile tables; a grid otherwise (indexed [a][b], or [r-1][c-1]).
    pub outcomes: Vec<Vec<Outcome>>,
    pub grundy: Vec<Vec<Option<u64>>>,
    pub p_positions: Vec<Vec<u64>>,
    pub grundy_note: Option<&'static str>,
}

#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum TableError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Solve(#[from] SolveError),

    #[error("`table` shows one-pile positions or games on two piles, and {game} is played on {piles} piles")]
    #[diagnostic(
        code(takeaway::table::too_many_piles),
        help("ask about single positions instead: takeaway solve FILE 1 2 3")
    )]
    TooManyPiles { game: String, piles: usize },
}

pub fn table(solver: &mut Solver, upto: u64) -> Result<Table, TableError> {
    let game: &Game = solver.game();
    let name = game.name.clone();
    let shape = match game.board {
        Board::OnePile | Board::AnyPiles => TableShape::OnePile,
        Board::FixedPiles(2) => TableShape::TwoPiles,
        Board::FixedPiles(k) => return Err(TableError::TooManyPiles { game: name, piles: k }),
        Board::Rows => TableShape::Rectangles,
    };
    // A table holds every position it shows: refuse at once one larger than the limit allows.
    let n = upto as u128 + 1;
    let positions = match shape {
        TableShape::OnePile => n,
        TableShape::TwoPiles => n * (n + 1) / 2,
        TableShape::Rectangles => (n - 1) * (n - 1),
    };
    if positions > solver.limits().max_states as u128 {
        return Err(SolveError::state_limit(solver.limits()).into());
    }
    let misere = game.convention == crate::ast::Convention::Misere;
    let mut outcomes = Vec::new();
    let mut grundy = Vec::new();
    let mut p_positions = Vec::new();
    match shape {
        TableShape::OnePile => {
            let (mut o, mut g) = (Vec::new(), Vec::new());
            for n in 0..=upto {
                let v = solver.value(&Position::new(vec![n]))?;
                if v.outcome == Outcome::P {
                    p_positions.push(vec![n]);
                }
                o.push(v.outcome);
                g.push(v.grundy);
            }
            outcomes.push(o);
            grundy.push(g);
        }
        TableShape::TwoPiles => {
            let size = upto as usize + 1;
            outcomes = vec![vec![Outcome::N; size]; size];
            grundy = vec![vec![None; size]; size];
            for a in 0..=upto {
                for b in a..=upto {
                    let v = solver.value(&Position::new(vec![a, b]))?;
                    let (i, j) = (a as usize, b as usize);
                    outcomes[i][j] = v.outcome;
                    outcomes[j][i] = v.outcome;
                    grundy[i][j] = v.grundy;
                    grundy[j][i] = v.grundy;
                    if v.outcome == Outcome::P {
                        p_positions.push(vec![a, b]);
                    }
                }
            }
        }
        TableShape::Rectangles => {
            for r in 1..=upto {
                let (mut o, mut g) = (Vec::new(), Vec::new());
                for c in 1..=upto {
                    let v = solver.value(&Position::new(vec![c; r as usize]))?;
                    if v.outcome == Outcome::P {
                        p_positions.push(vec![r, c]);
                    }
                    o.push(v.outcome);
                    g.push(v.grundy);
                }
                outcomes.push(o);
                grundy.push(g);
            }
        }
    }
    let missing = grundy.iter().flatten().any(|g| g.is_none());
    let grundy_note = match (missing, misere) {
        (false, _) => None,
        (true, true) => Some("Grundy values are not defined under misère play"),
        (true, false) => Some("Grundy values marked - were not computed: those positions are too large to search"),
    };
    Ok(Table { game: name, upto, shape, outcomes, grundy, p_positions, grundy_note })
}

fn outcome_text(o: Outcome) -> &'static str {
    match o {
        Outcome::P => "P",
        Outcome::N => "N",
    }
}

fn grundy_text(g: Option<u64>) -> String {
    g.map(|g| g.to_string()).unwrap_or_else(|| "-".into())
}

impl Table {
    pub fn to_json(&self) -> Json {
        let outcomes: Vec<Vec<&str>> =
            self.outcomes.iter().map(|row| row.iter().map(|o| outcome_text(*o)).collect()).collect();
        match self.shape {
            TableShape::OnePile => json!({
                "game": self.game,
                "upto": self.upto,
                "outcomes": outcomes[0],
                "grundy": self.grundy[0],
                "p_positions": self.p_positions.iter().map(|p| p[0]).collect::<Vec<_>>(),
            }),
            TableShape::TwoPiles => json!({
                "game": self.game,
                "upto": self.upto,
                "piles": 2,
                "outcomes": outcomes,
                "grundy": self.grundy,
                "p_positions": self.p_positions,
            }),
            TableShape::Rectangles => json!({
                "game": self.game,
                "upto": self.upto,
                "board": "rectangles",
                "outcomes": outcomes,
                "grundy": self.grundy,
                "p_positions": self.p_positions,
            }),
        }
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        match self.shape {
            TableShape::OnePile => {
                out.push_str(&format!("{}: one pile of n = 0..{}\n", self.game, self.upto));
                let mut t = text_table(&["n", "outcome", "Grundy"]);
                for (n, (o, g)) in self.outcomes[0].iter().zip(&self.grundy[0]).enumerate() {
                    t.add_row(vec![n.to_string(), outcome_text(*o).to_string(), grundy_text(*g)]);
                }
                out.push_str(&trimmed(&t));
                let ps: Vec<String> = self.p_positions.iter().map(|p| p[0].to_string()).collect();
                out.push_str(&format!("P-positions: {}\n", ps.join(", ")));
            }
            TableShape::TwoPiles => {
                out.push_str(&format!("{}: two piles, each of 0..{}\n", self.game, self.upto));
                if self.upto <= 30 {
                    out.push_str(&self.grid("a\\b", 0));
                }
                let ps: Vec<String> = self.p_positions.iter().map(|p| format!("({}, {})", p[0], p[1])).collect();
                out.push_str(&format!("P-positions (a ≤ b): {}\n", ps.join(", ")));
            }
            TableShape::Rectangles => {
                out.push_str(&format!(
                    "{}: rectangles of 1..{} rows (down) by 1..{} columns (across)\n",
                    self.game, self.upto, self.upto
                ));
                if self.upto <= 30 {
                    out.push_str(&self.grid("r\\c", 1));
                }
                let ps: Vec<String> = self.p_positions.iter().map(|p| format!("{}×{}", p[0], p[1])).collect();
                out.push_str(&format!("P-positions: {}\n", ps.join(", ")));
            }
        }
        if let Some(note) = self.grundy_note {
            out.push_str(note);
            out.push('\n');
        }
        out
    }

    /// A grid of outcomes, P marked and N shown as a dot so that the pattern stands out.
    fn grid(&self, corner: &str, first: u64) -> String {
        let mut header = vec![corner.to_string()];
        header.extend((0..self.outcomes.len() as u64).map(|i| (i + first).to_string()));
        let header: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
        let mut t = text_table(&header);
        for (i, row) in self.outcomes.iter().enumerate() {
            let mut cells = vec![(i as u64 + first).to_string()];
            cells.extend(row.iter().map(|o| if *o == Outcome::P { "P".to_string() } else { "·".to_string() }));
            t.add_row(cells);
        }
        trimmed(&t)
    }
}

/// The table's lines without the padding comfy-table leaves at their ends.
fn trimmed(t: &TextTable) -> String {
    t.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

fn text_table(header: &[&str]) -> TextTable {
    let mut t = TextTable::new();
    t.load_style(presets::NOTHING);
    t.set_header(header.to_vec());
    for i in 0..header.len() {
        if let Some(col) = t.column_mut(i) {
            col.set_cell_alignment(CellAlignment::Right);
            col.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(1)));
        }
    }
    t
}
