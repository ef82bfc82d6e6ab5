//! What may come next at a place in a game text, for an editor's completion: the grammar's own
//! expectations there (pest's attempts at that place), offered as words, the teachers' phrases
//! that start with them, and the names a rule may read.

use pest::Parser;

use super::words::keyword_help;
use super::{GameParser, Rule};

/// One thing an editor may offer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Completion {
    /// What the list shows.
    pub label: String,
    /// What choosing it inserts in place of the word being typed.
    pub insert: String,
    /// What it is.
    pub kind: CompletionKind,
    /// A line on what it means.
    pub detail: Option<String>,
}

/// What a completion is, as an editor marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompletionKind {
    /// A word of the language.
    Keyword,
    /// A phrase of several words: `from each of up to 2 piles`.
    Phrase,
    /// A parameter, or a name a rule reads (`n`, `t`, `last`).
    Name,
    /// A function a condition may call.
    Function,
    /// A game a product may name.
    Game,
}

/// Phrases offered where their first word may come.
const PHRASES: &[(&str, &[&str])] = &[
    (
        "move",
        &[
            "move: take ",
            "first move: take ",
            "left move: take ",
            "right move: take ",
            "game \"\"",
            "param ",
            "piles 2",
            "play misère",
            "play normal",
            "acrostic product of \"\" and \"\"",
            "tartan product of \"\" and \"\"",
        ],
    ),
    ("take", &["take 1..3", "take any", "take ≤ 2·last", "take k from one pile and l from the other where k ≤ l"]),
    ("any", &["any except ", "1..3", "1 or 3", "{1, 3, 4}", "≤ 2·last"]),
    (
        "from",
        &[
            "from one pile",
            "from both piles",
            "from 2 piles",
            "from up to 2 piles",
            "from each of up to 2 piles",
            "from each of both piles",
        ],
    ),
    ("each", &["each of up to 2 piles", "each of both piles"]),
    ("up", &["up to 2 piles"]),
    ("split", &["split unequal", "split into 3"]),
    ("misère", &["misère"]),
];

/// What may be typed at byte `offset` of `text`. `games` are the names a product statement
/// may name (the game files beside the text). Nothing is offered inside a comment.
pub fn complete(text: &str, offset: usize, games: &[String]) -> Vec<Completion> {
    let offset = text.floor_char_boundary(offset);
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let statement_start = text[line_start..offset].rfind(';').map_or(line_start, |i| line_start + i + 1);
    let typed = &text[statement_start..offset];
    let quotes = typed.matches('"').count();
    if typed.contains('#') && typed.find('#') < typed.find('"').or(Some(usize::MAX)) {
        return Vec::new();
    }
    let partial_len: usize =
        typed.chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').map(char::len_utf8).sum();
    let (head, partial) = typed.split_at(typed.len() - partial_len);
    let mut out = Vec::new();
    if quotes % 2 == 1 {
        // Inside a string: a product's games.
        if head.trim_start().starts_with("acrostic") || head.trim_start().starts_with("tartan") {
            let partial = &typed[typed.rfind('"').map_or(0, |i| i + 1)..];
            for game in games.iter().filter(|g| g.starts_with(partial)) {
                out.push(item(game, game, CompletionKind::Game, Some("a game file beside this one".into())));
            }
        }
        return out;
    }
    let (rules, tokens) = attempts(head.trim_start());
    let words: Vec<&str> = tokens
        .iter()
        .map(String::as_str)
        .filter(|t| t.chars().all(char::is_alphabetic) && !NUMBER_WORDS.contains(t))
        .collect();
    for (first, phrases) in PHRASES {
        if words.contains(first) {
            for phrase in *phrases {
                out.push(item(phrase, phrase, CompletionKind::Phrase, None));
            }
        }
    }
    for word in &words {
        out.push(item(word, word, CompletionKind::Keyword, keyword_help(word).map(str::to_string)));
    }
    if tokens.iter().any(|t| t == ",") && rules.contains(&Rule::then_split) {
        out.push(item(
            ", then split",
            ", then split",
            CompletionKind::Phrase,
            keyword_help("then").map(str::to_string),
        ));
    }
    if rules.iter().any(|r| matches!(r, Rule::name | Rule::expr | Rule::arith | Rule::amount | Rule::choice)) {
        for name in parameters(text) {
            out.push(item(&name, &name, CompletionKind::Name, Some("a parameter of this game".into())));
        }
        for name in ["n", "t", "last"] {
            out.push(item(name, name, CompletionKind::Name, keyword_help(name).map(str::to_string)));
        }
        for name in crate::rules::expr::Func::names() {
            out.push(item(name, &format!("{name}("), CompletionKind::Function, keyword_help(name).map(str::to_string)));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| c.label.starts_with(partial) && seen.insert(c.label.clone()));
    out
}

const NUMBER_WORDS: &[&str] =
    &["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

fn item(label: &str, insert: &str, kind: CompletionKind, detail: Option<String>) -> Completion {
    Completion { label: label.to_string(), insert: insert.to_string(), kind, detail }
}

/// The parameters a text declares (`param k = 3`), read line by line so that a text being
/// typed, which may not parse, still offers them.
fn parameters(text: &str) -> Vec<String> {
    text.split(['\n', ';'])
        .filter_map(|line| line.trim_start().strip_prefix("param"))
        .filter(|rest| rest.starts_with([' ', '\t']))
        .map(|rest| rest.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect())
        .filter(|name: &String| !name.is_empty())
        .collect()
}

/// The grammar's rules and literal tokens tried where `statement` (a statement's text up to
/// the cursor, without a partly typed word) stops; nothing when it goes wrong before that.
fn attempts(statement: &str) -> (Vec<Rule>, Vec<String>) {
    // A character no rule accepts makes pest stop exactly at the end of the statement.
    let probe = format!("{statement}@");
    pest::set_error_detail(true);
    let Err(e) = GameParser::parse(Rule::file, &probe) else {
        return (Vec::new(), Vec::new());
    };
    let at = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    if at != statement.len() {
        return (Vec::new(), Vec::new());
    }
    let rules = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        _ => Vec::new(),
    };
    let tokens = e.parse_attempts().map(|a| a.expected_tokens().iter().map(|t| t.to_string()).collect());
    (rules, tokens.unwrap_or_default())
}
