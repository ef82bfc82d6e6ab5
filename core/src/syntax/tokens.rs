//! The tokens of a text that parses, each with its kind and place: what the formatter lays out
//! and what an editor colours. Read from pest's tree, so that a token is what the grammar
//! reads, never a guess of a separate lexer.

use pest::Parser;

use super::{prescan, GameParser, ParseError, Rule};

/// What a token is, as an editor colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    /// A word of the language: `game`, `take`, `from`, `misère`.
    Keyword,
    /// A name: a parameter, `n`, `t`, `last`, a pair's amount.
    Name,
    /// A function's name in a call: `square(t)`.
    Function,
    /// A number, in digits or as a word (`two`).
    Number,
    /// A string: a game's name.
    String,
    /// A take-and-break code: `0.77`, `4!.0`.
    Code,
    /// An operator: `+`, `≤`, `·`, the unary `-`.
    Operator,
    /// Punctuation: `:`, `,`, `..`, brackets, `=` of a parameter.
    Punctuation,
    /// A comment, from `#` to the end of its line.
    Comment,
    /// The end of a statement: a newline or `;`.
    End,
}

/// One token: its kind and its bytes in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Its first byte in the text.
    pub start: usize,
    /// The byte after its last.
    pub end: usize,
}

/// A token with the grammar's rule it came from, for the formatter.
#[derive(Clone, Copy, Debug)]
pub(super) struct Leaf {
    pub(super) token: Token,
    /// The rule of a token from the tree; `None` for punctuation and comments between them.
    pub(super) rule: Option<Rule>,
}

/// Every token of `text`, comments included, in order. A text being typed often does not
/// parse: then each line is read on its own (a statement never spans lines), and the lines that
/// do not parse give no tokens.
pub fn tokens(text: &str) -> Vec<Token> {
    match leaves(text) {
        Ok(leaves) => leaves.into_iter().map(|l| l.token).collect(),
        Err(_) => super::by_line(text, |line| leaves(line).ok())
            .flat_map(|(at, leaves)| {
                leaves.into_iter().map(move |l| Token { start: l.token.start + at, end: l.token.end + at, ..l.token })
            })
            .collect(),
    }
}

/// The tokens of `text` with their rules.
pub(super) fn leaves(text: &str) -> Result<Vec<Leaf>, ParseError> {
    // A text is formatted or coloured only within the parser's own limits: its size, nesting
    // and operators.
    prescan(text)?;
    pest::set_error_detail(true);
    let mut pairs = GameParser::parse(Rule::file, text).map_err(|e| super::error_from_pest(text, e, 0))?;
    let file = pairs.next().expect("the file rule always yields one pair");
    super::expressions_within_limit(&file)?;
    let mut out = Vec::new();
    let mut at = 0;
    for pair in file.into_inner().flatten() {
        if pair.clone().into_inner().next().is_some() || pair.as_rule() == Rule::EOI {
            continue;
        }
        let span = pair.as_span();
        gap(text, at, span.start(), &mut out);
        let kind = kind_of(pair.as_rule(), text, span.end());
        out.push(Leaf { token: Token { kind, start: span.start(), end: span.end() }, rule: Some(pair.as_rule()) });
        at = span.end();
    }
    gap(text, at, text.len(), &mut out);
    Ok(out)
}

/// The kind of a token the tree gives.
fn kind_of(rule: Rule, text: &str, end: usize) -> TokenKind {
    use Rule::*;
    match rule {
        integer | number_word => TokenKind::Number,
        string => TokenKind::String,
        octal_code => TokenKind::Code,
        name if text[end..].trim_start_matches([' ', '\t']).starts_with('(') => TokenKind::Function,
        name => TokenKind::Name,
        neg | add | sub | mul | div | rem | pow | le | ge | ne | eq | lt | gt => TokenKind::Operator,
        colon => TokenKind::Punctuation,
        eol => TokenKind::End,
        _ => TokenKind::Keyword,
    }
}

/// The punctuation and comments between two tokens of the tree (whitespace is dropped).
fn gap(text: &str, from: usize, to: usize, out: &mut Vec<Leaf>) {
    let piece = &text[from..to];
    let mut chars = piece.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let start = from + i;
        let (kind, len) = match c {
            ' ' | '\t' => continue,
            '#' => (TokenKind::Comment, piece[i..].find(['\n', '\r']).unwrap_or(piece.len() - i)),
            '.' if piece[i..].starts_with("..") => (TokenKind::Punctuation, 2),
            _ => (TokenKind::Punctuation, c.len_utf8()),
        };
        out.push(Leaf { token: Token { kind, start, end: start + len }, rule: None });
        while chars.peek().is_some_and(|&(j, _)| j < i + len) {
            chars.next();
        }
    }
}
