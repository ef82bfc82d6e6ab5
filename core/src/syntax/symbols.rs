//! The outline of a game text for an editor: each statement as a symbol (the game, its
//! parameters, its board, its rules), with where it is and where its name is.

use crate::ast::{BoardDecl, Statement};
use crate::vocab::Convention;

/// What a statement is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    /// `game "…"`
    Game,
    /// `param k = 3`
    Parameter,
    /// `pile`, `piles 2`, `rows`, `coins`
    Board,
    /// a `move:` line
    Rule,
    /// `play misère`
    Play,
    /// `acrostic product of "A" and "B"`
    Product,
}

/// One statement as an editor lists it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Symbol {
    /// What it is.
    pub kind: SymbolKind,
    /// Its name: the game's, the parameter's, or the statement's words.
    pub name: String,
    /// The statement's first byte.
    pub start: usize,
    /// The byte after the statement's last.
    pub end: usize,
    /// The first byte of its name (the statement's, for a statement with none).
    pub name_start: usize,
    /// The byte after its name's last.
    pub name_end: usize,
    /// For a product: the two games it names, each with its bytes (inside the quotes).
    pub names_games: Vec<(String, usize, usize)>,
}

impl Symbol {
    /// The same symbol `by` bytes further on: one read from a line alone, placed in its text.
    pub fn shifted(self, by: usize) -> Symbol {
        Symbol {
            start: self.start + by,
            end: self.end + by,
            name_start: self.name_start + by,
            name_end: self.name_end + by,
            names_games: self.names_games.into_iter().map(|(n, a, b)| (n, a + by, b + by)).collect(),
            ..self
        }
    }
}

/// The symbols of a text, in the order of the text. A text being typed often does not parse:
/// then each line is read on its own, and the lines that do not parse give no symbol.
pub fn symbols(text: &str) -> Vec<Symbol> {
    match symbols_of_whole(text) {
        Some(symbols) => symbols,
        None => super::by_line(text, symbols_of_whole)
            .flat_map(|(at, symbols)| symbols.into_iter().map(move |s| s.shifted(at)))
            .collect(),
    }
}

fn symbols_of_whole(text: &str) -> Option<Vec<Symbol>> {
    let file = super::parse(text).ok()?;
    let mut out = Vec::new();
    for statement in &file.statements {
        let span = statement.span;
        let words = text.get(span.start..span.end).unwrap_or("").trim().to_string();
        let mut symbol = Symbol {
            kind: SymbolKind::Rule,
            name: words.clone(),
            start: span.start,
            end: span.end,
            name_start: span.start,
            name_end: span.end,
            names_games: Vec::new(),
        };
        match &statement.node {
            Statement::Game(name) => {
                symbol.kind = SymbolKind::Game;
                symbol.name = name.node.clone();
                // The string's span holds its quotes.
                (symbol.name_start, symbol.name_end) = (name.span.start + 1, name.span.end.saturating_sub(1));
            }
            Statement::Param { name, .. } => {
                symbol.kind = SymbolKind::Parameter;
                symbol.name = name.node.clone();
                (symbol.name_start, symbol.name_end) = (name.span.start, name.span.end);
            }
            Statement::Board(board) => {
                symbol.kind = SymbolKind::Board;
                symbol.name = match board {
                    BoardDecl::OnePile => "one pile".into(),
                    BoardDecl::AnyPiles => "any number of piles".into(),
                    BoardDecl::FixedPiles(k) => format!("{} piles", k.node),
                    BoardDecl::Rows => "rows".into(),
                    BoardDecl::Coins => "coins".into(),
                };
            }
            Statement::Move(_) => {}
            Statement::Play(convention) => {
                symbol.kind = SymbolKind::Play;
                symbol.name = match convention {
                    Convention::Misere => "misère play".into(),
                    Convention::Normal => "normal play".into(),
                };
            }
            Statement::Product { parts, .. } => {
                symbol.kind = SymbolKind::Product;
                symbol.names_games = parts
                    .iter()
                    .map(|p| {
                        // The string's span holds its quotes.
                        let inner = (p.span.start + 1, p.span.end.saturating_sub(1).max(p.span.start + 1));
                        (p.node.clone(), inner.0, inner.1)
                    })
                    .collect();
            }
        }
        out.push(symbol);
    }
    Some(out)
}
