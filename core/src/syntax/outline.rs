//! The text as an editor or a REPL reads it while it is typed: its outline (name, board,
//! rules, parameters), the language's keywords from the grammar's own text, and a text that
//! does not parse read a line at a time.

use super::{parse, ParseError, Statement};

/// The grammar's own text: the words of the language are read from it, never restated.
const GRAMMAR: &str = include_str!("../../../grammar/takeaway.pest");

/// What a game text declares, for an editor or a REPL that reads it as it is typed: its name,
/// whether it has what a game needs, its parameters, and where its rules are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// The name of its `game` line.
    pub name: Option<String>,
    /// Whether the text starts with a `game` line (a new definition).
    pub starts_a_game: bool,
    /// Whether it says what the game is played on.
    pub has_board: bool,
    /// Whether it has a move (or first move) rule.
    pub has_move: bool,
    /// Whether it is a product of two games (whose board and moves come from them).
    pub is_product: bool,
    /// Whether every statement is a `move:` rule (not a first move's).
    pub only_moves: bool,
    /// The names of its parameters, in order.
    pub params: Vec<String>,
    /// The byte ranges of its rule statements (`move:`, `first move:`, `left move:`, …), in
    /// order.
    pub rules: Vec<(usize, usize)>,
}

/// The outline of a text that parses; the parse error of one that does not (its
/// `is_incomplete()` says whether more text could finish it).
pub fn outline(text: &str) -> Result<Outline, ParseError> {
    let file = parse(text)?;
    let mut out = Outline {
        starts_a_game: matches!(file.statements.first().map(|s| &s.node), Some(Statement::Game(_))),
        only_moves: !file.statements.is_empty(),
        ..Outline::default()
    };
    for statement in &file.statements {
        match &statement.node {
            Statement::Game(name) => {
                out.name.get_or_insert_with(|| name.node.clone());
            }
            Statement::Board(_) => out.has_board = true,
            Statement::Move(decl) => {
                out.has_move = true;
                out.only_moves &= !decl.first;
                out.rules.push((statement.span.start, statement.span.end));
            }
            Statement::Product { .. } => out.is_product = true,
            Statement::Param { name, .. } => out.params.push(name.node.clone()),
            Statement::Play(_) => {}
        }
        if !matches!(statement.node, Statement::Move(_)) {
            out.only_moves = false;
        }
    }
    Ok(out)
}

/// Each line of `text` that `read` makes something of, with the byte it starts at: how an
/// editor's view of a text that does not parse as a whole is still read, line by line.
pub(super) fn by_line<'t, T>(
    text: &'t str,
    read: impl Fn(&'t str) -> Option<T> + 't,
) -> impl Iterator<Item = (usize, T)> + 't {
    let mut at = 0;
    text.split_inclusive('\n').filter_map(move |line| {
        let start = at;
        at += line.len();
        read(line).map(|t| (start, t))
    })
}

/// Every keyword of the language as the grammar spells it (its `kw_*` rules, each spelling),
/// in the grammar's order: what a front end offers for completion.
pub(crate) fn keywords() -> Vec<&'static str> {
    let mut words: Vec<&'static str> = Vec::new();
    for line in GRAMMAR.lines().filter(|l| l.starts_with("kw_")) {
        let Some((_, body)) = line.split_once('=') else { continue };
        // The quoted spellings of the rule: `( "misère" | "misere" ) ~ word_end`.
        for (i, piece) in body.split('"').enumerate() {
            if i % 2 == 1 && !words.contains(&piece) {
                words.push(piece);
            }
        }
    }
    words
}
