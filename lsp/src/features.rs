//! Each answer of the server, from the engine's own functions: diagnostics as `takeaway
//! check` gives them, hover, completion, definitions and references, symbols, formatting,
//! quick fixes and semantic tokens.

use std::collections::HashMap;

use lsp_types as lsp;
use takeaway_core::text::{self, CompletionKind, SymbolKind, Token, TokenKind};
use takeaway_core::{ask, render, Budget, Failure, FailureKind, Request, TableArgs};

use crate::document::Document;

/// Piles a hover's table shows.
const HOVER_TABLE_UPTO: u64 = 12;

/// The diagnostics of a document: every error `takeaway check` reports, each at its first
/// label, its other labels as related places.
pub(crate) fn diagnostics(doc: &Document, budget: &Budget) -> Vec<lsp::Diagnostic> {
    match doc.load(budget) {
        Ok(_) => Vec::new(),
        Err(failure) => diagnostics_of(doc, &failure),
    }
}

fn diagnostics_of(doc: &Document, failure: &Failure) -> Vec<lsp::Diagnostic> {
    let shift = doc.engine_shift();
    failure
        .diagnostics()
        .map(|d| {
            let mut places: Vec<(lsp::Range, Option<String>)> = d
                .labels()
                .map(|labels| {
                    labels
                        .map(|l| {
                            (doc.range(l.offset() + shift, l.offset() + l.len() + shift), l.label().map(str::to_string))
                        })
                        .collect()
                })
                .unwrap_or_default();
            if places.is_empty() {
                places.push((lsp::Range::default(), None));
            }
            let (range, label) = places.remove(0);
            let mut message = d.to_string();
            if let Some(label) = label {
                message.push_str(&format!(" ({label})"));
            }
            // The engine's help for a timeout or a refusal names the command line's --timeout;
            // here the budget is the editor's to set.
            if matches!(failure.kind(), FailureKind::Timeout | FailureKind::Refused) {
                message.push_str(&format!("\nhelp: {}", more_time("check_seconds")));
            } else if let Some(help) = d.help() {
                message.push_str(&format!("\nhelp: {help}"));
            }
            let related = places
                .into_iter()
                .map(|(range, label)| lsp::DiagnosticRelatedInformation {
                    location: lsp::Location::new(doc.uri.clone(), range),
                    message: label.unwrap_or_else(|| d.to_string()),
                })
                .collect::<Vec<_>>();
            lsp::Diagnostic {
                range,
                severity: Some(lsp::DiagnosticSeverity::ERROR),
                code: d.code().map(|c| lsp::NumberOrString::String(c.to_string())),
                source: Some("takeaway".into()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                ..Default::default()
            }
        })
        .collect()
}

/// What the pointer rests on, when the answer needs no reading of the game; otherwise which
/// answer to run apart, so that it never blocks typing: the game's line gives its first values
/// (`values_hover`), a rule its moves (`rule_hover`).
pub(crate) enum Hover {
    Ready(Option<lsp::Hover>),
    Values,
    Rule,
}

/// The hover at `offset`: a keyword's manual line, a parameter's value and where it is set; on
/// a rule, `Hover::Rule` (its moves need the game read: `rule_hover`); on the game's first
/// statement or its name, the values (`Hover::Values`). Read from the lines it needs only (the
/// pointer's, the first statement's, the `param` lines'), since it runs on the loop that answers
/// typing and a text may be a megabyte.
pub(crate) fn hover(doc: &Document, offset: usize) -> Hover {
    let (line_start, line) = doc.line_at(offset);
    let here = line_symbols(line_start, line);
    let statement = statement_at(&here, offset);
    let first = doc.lines().map(|(start, line)| line_symbols(start, line)).find(|s| !s.is_empty());
    if statement.is_some_and(|s| s.kind == SymbolKind::Game)
        || first.and_then(|s| s.into_iter().next()).is_some_and(|s| same_line(doc, &s, offset))
    {
        return Hover::Values;
    }
    if statement.is_some_and(|s| s.kind == SymbolKind::Rule) {
        return Hover::Rule;
    }
    let mut symbols: Vec<text::Symbol> = doc
        .lines()
        .filter(|(start, line)| *start != line_start && line.contains("param"))
        .flat_map(|(start, line)| line_symbols(start, line))
        .collect();
    symbols.extend(here);
    Hover::Ready(hover_words(doc, &symbols, offset, None))
}

/// The symbols of one line, placed in the whole text: a statement never spans lines, so a line
/// read alone gives the symbols the whole text gives there.
fn line_symbols(start: usize, line: &str) -> Vec<text::Symbol> {
    text::symbols(line).into_iter().map(|s| s.shifted(start)).collect()
}

/// The hover on a rule: the word's own line, then the rule's moves, reading the game under
/// `budget` (the editor's `check_seconds`, as a check).
pub(crate) fn rule_hover(doc: &Document, offset: usize, budget: &Budget) -> Option<lsp::Hover> {
    hover_words(doc, &text::symbols(&doc.text), offset, Some(budget))
}

/// What a hover says at `offset`, with the moves of the rule there when given a budget to read
/// the game in.
fn hover_words(doc: &Document, symbols: &[text::Symbol], offset: usize, budget: Option<&Budget>) -> Option<lsp::Hover> {
    let token = token_at(doc, offset);
    let word = token.map(|t| &doc.text[t.start..t.end]);
    let mut said = Vec::new();
    match (token.map(|t| t.kind), word) {
        (Some(TokenKind::Name), Some(word)) => {
            if let Some(param) = symbols.iter().find(|s| s.kind == SymbolKind::Parameter && s.name == word) {
                let line = doc.position(param.start).line + 1;
                let statement = &doc.text[param.start..param.end];
                said.push(format!("**parameter `{word}`**: `{}`, set on line {line}", statement.trim()));
            } else if let Some(help) = text::keyword_help(word) {
                said.push(format!("`{word}`: {help}"));
            }
        }
        (Some(TokenKind::Keyword | TokenKind::Function), Some(word)) => {
            if let Some(help) = text::keyword_help(word) {
                said.push(format!("`{word}`: {help}"));
            }
        }
        _ => {}
    }
    let rule = statement_at(symbols, offset).filter(|s| s.kind == SymbolKind::Rule);
    if let (Some(rule), Some(budget)) = (rule, budget) {
        if let Some(moves) = rule_moves(doc, symbols, rule, offset, budget) {
            said.push(rule_words(&moves));
        }
    }
    (!said.is_empty()).then(|| markdown(said.join("\n\n")))
}

/// The statement the offset lies in, if any.
fn statement_at(symbols: &[text::Symbol], offset: usize) -> Option<&text::Symbol> {
    symbols.iter().find(|s| s.start <= offset && offset <= s.end)
}

/// The moves of the rule at `offset`. When another line of the text has a mistake, the rule is
/// read with the game's statements that are not rules, so that a rule that is right still
/// shows its moves while another is being mended.
fn rule_moves(
    doc: &Document,
    symbols: &[text::Symbol],
    rule: &text::Symbol,
    offset: usize,
    budget: &Budget,
) -> Option<text::RuleMoves> {
    if let Ok(loaded) = doc.load(budget) {
        return text::rule_moves(&loaded, offset.saturating_sub(doc.engine_shift()));
    }
    let mut alone = String::new();
    for s in symbols.iter().filter(|s| s.kind != SymbolKind::Rule) {
        alone.push_str(&doc.text[s.start..s.end]);
        alone.push('\n');
    }
    let at = alone.len();
    alone.push_str(&doc.text[rule.start..rule.end]);
    alone.push('\n');
    let loaded = Document::new(doc.uri.clone(), alone).load(budget).ok()?;
    text::rule_moves(&loaded, at)
}

fn same_line(doc: &Document, symbol: &text::Symbol, offset: usize) -> bool {
    doc.position(symbol.start).line == doc.position(offset).line
}

/// A rule's moves in words.
fn rule_words(rule: &text::RuleMoves) -> String {
    let who = match rule.side {
        Some(side) => format!(" ({side:?} only)"),
        None => String::new(),
    };
    let after = rule.last.map(|l| format!(" after a move of {l}")).unwrap_or_default();
    if rule.moves.is_empty() {
        return format!("**`{}`**{who}: no move from {}{after}", rule.statement, rule.position);
    }
    let more = rule.count - rule.moves.len();
    let more = if more > 0 { format!("\n- … and {more} more") } else { String::new() };
    let list: Vec<String> = rule.moves.iter().map(|m| format!("- {m}")).collect();
    format!(
        "**`{}`**{who} allows {} move{} from {}{after}:\n{}{more}",
        rule.statement,
        rule.count,
        if rule.count == 1 { "" } else { "s" },
        rule.position,
        list.join("\n")
    )
}

/// The game's first values, its period when one is proven within the budget: a table of the
/// first piles as `takeaway table` gives it.
pub(crate) fn values_hover(doc: &Document, budget: &Budget) -> Result<lsp::Hover, Failure> {
    let loaded = doc.load(budget)?;
    let library = takeaway_core::Games { dir: doc.folder(), session: Vec::new() };
    let request = Request::Table(TableArgs { upto: HOVER_TABLE_UPTO, ..TableArgs::default() });
    let answer = ask(&loaded, &request, &library, budget)?;
    Ok(markdown(format!("```text\n{}```", render::text(&answer))))
}

/// A failure in a hover's words: what stopped it, not a diagnostic (those are published).
pub(crate) fn failure_hover(failure: &Failure) -> lsp::Hover {
    let first = failure.diagnostics().next().map(|d| d.to_string()).unwrap_or_default();
    if matches!(failure.kind(), FailureKind::Timeout | FailureKind::Refused) {
        return markdown(format!("no values: {first}; {}", more_time("hover_seconds")));
    }
    markdown(format!("no values: {first}"))
}

/// How an editor gives the server's `option` (one of its `initializationOptions`) longer.
fn more_time(option: &str) -> String {
    format!("give it longer: set `{option}` (seconds) in the server's `initializationOptions`")
}

fn markdown(value: String) -> lsp::Hover {
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value }),
        range: None,
    }
}

/// The token that holds byte `offset` (or ends at it), read from its line alone (a statement
/// never spans lines).
fn token_at(doc: &Document, offset: usize) -> Option<Token> {
    let (start, line) = doc.line_at(offset);
    let tokens = text::tokens(line);
    let offset = offset - start;
    tokens
        .iter()
        .find(|t| t.start <= offset && offset < t.end)
        .or_else(|| tokens.iter().find(|t| t.end == offset && t.kind != TokenKind::End))
        .map(|t| Token { start: t.start + start, end: t.end + start, ..*t })
}

/// What may be typed at `offset`.
pub(crate) fn completion(doc: &Document, offset: usize) -> Vec<lsp::CompletionItem> {
    text::complete(&doc.text, offset, &doc.neighbours())
        .into_iter()
        .map(|c| lsp::CompletionItem {
            label: c.label,
            kind: Some(match c.kind {
                CompletionKind::Keyword => lsp::CompletionItemKind::KEYWORD,
                CompletionKind::Phrase => lsp::CompletionItemKind::SNIPPET,
                CompletionKind::Name => lsp::CompletionItemKind::VARIABLE,
                CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
                CompletionKind::Game => lsp::CompletionItemKind::FILE,
            }),
            detail: c.detail,
            insert_text: Some(c.insert),
            ..Default::default()
        })
        .collect()
}

/// Where the name at `offset` is defined: a parameter's `param` line, a product's game file.
pub(crate) fn definition(doc: &Document, offset: usize) -> Option<lsp::Location> {
    let symbols = text::symbols(&doc.text);
    for symbol in symbols.iter().filter(|s| s.kind == SymbolKind::Product) {
        for (name, start, end) in &symbol.names_games {
            if *start <= offset && offset <= *end {
                let folder = doc.folder();
                let path =
                    [folder.join(name), folder.join(format!("{name}.game"))].into_iter().find(|p| p.is_file())?;
                let uri = lsp::Url::from_file_path(std::fs::canonicalize(&path).unwrap_or(path)).ok()?;
                return Some(lsp::Location::new(uri, lsp::Range::default()));
            }
        }
    }
    let token = token_at(doc, offset).filter(|t| t.kind == TokenKind::Name)?;
    let word = &doc.text[token.start..token.end];
    let param = symbols.iter().find(|s| s.kind == SymbolKind::Parameter && s.name == word)?;
    Some(lsp::Location::new(doc.uri.clone(), doc.range(param.name_start, param.name_end)))
}

/// Every place the parameter at `offset` is named (its definition too, when asked), or every
/// place a product names the game named at `offset`.
pub(crate) fn references(doc: &Document, offset: usize, with_definition: bool) -> Vec<lsp::Location> {
    let (symbols, tokens) = (text::symbols(&doc.text), text::tokens(&doc.text));
    let named: Vec<&(String, usize, usize)> = symbols.iter().flat_map(|s| &s.names_games).collect();
    if let Some((game, _, _)) = named.iter().find(|(_, start, end)| *start <= offset && offset <= *end) {
        return named
            .iter()
            .filter(|(name, _, _)| name == game)
            .map(|(_, start, end)| lsp::Location::new(doc.uri.clone(), doc.range(*start, *end)))
            .collect();
    }
    let Some(token) = token_at(doc, offset).filter(|t| t.kind == TokenKind::Name) else {
        return Vec::new();
    };
    let word = &doc.text[token.start..token.end];
    let Some(param) = symbols.iter().find(|s| s.kind == SymbolKind::Parameter && s.name == word) else {
        return Vec::new();
    };
    tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Name && &doc.text[t.start..t.end] == word)
        .filter(|t| with_definition || t.start != param.name_start)
        .map(|t| lsp::Location::new(doc.uri.clone(), doc.range(t.start, t.end)))
        .collect()
}

/// The game, its parameters, its board and its rules.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
pub(crate) fn symbols(doc: &Document) -> Vec<lsp::DocumentSymbol> {
    text::symbols(&doc.text)
        .into_iter()
        .map(|s| lsp::DocumentSymbol {
            name: s.name.clone(),
            detail: Some(doc.text[s.start..s.end].trim().to_string()),
            kind: match s.kind {
                SymbolKind::Game => lsp::SymbolKind::MODULE,
                SymbolKind::Parameter => lsp::SymbolKind::CONSTANT,
                SymbolKind::Board => lsp::SymbolKind::STRUCT,
                SymbolKind::Rule => lsp::SymbolKind::FUNCTION,
                SymbolKind::Play => lsp::SymbolKind::PROPERTY,
                SymbolKind::Product => lsp::SymbolKind::MODULE,
            },
            tags: None,
            deprecated: None,
            range: doc.range(s.start, s.end),
            selection_range: doc.range(s.name_start, s.name_end),
            children: None,
        })
        .collect()
}

/// The whole text in the one layout, as `takeaway fmt` writes it; nothing for a text that
/// does not parse (its diagnostics say why).
pub(crate) fn formatting(doc: &Document) -> Option<Vec<lsp::TextEdit>> {
    let formatted = text::format(&doc.text).ok()?;
    if formatted == doc.text {
        return Some(Vec::new());
    }
    Some(vec![lsp::TextEdit::new(doc.range(0, doc.text.len()), formatted)])
}

/// The sure fixes of the diagnostics in `range`: a misspelt word replaced by the close one.
/// The game is read under `budget` (the editor's `check_seconds`, as a check).
pub(crate) fn code_actions(doc: &Document, range: lsp::Range, budget: &Budget) -> Vec<lsp::CodeActionOrCommand> {
    let Err(failure) = doc.load(budget) else {
        return Vec::new();
    };
    let shift = doc.engine_shift();
    let diagnostics = diagnostics_of(doc, &failure);
    failure
        .fixes()
        .into_iter()
        .zip(diagnostics)
        .filter_map(|(fix, diagnostic)| {
            let fix = fix?;
            let at = doc.range(fix.start + shift, fix.end + shift);
            if at.end < range.start || range.end < at.start {
                return None;
            }
            let old = &doc.text[fix.start + shift..fix.end + shift];
            let edit = lsp::WorkspaceEdit {
                changes: Some(HashMap::from([(
                    doc.uri.clone(),
                    vec![lsp::TextEdit::new(at, fix.replacement.clone())],
                )])),
                ..Default::default()
            };
            Some(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: format!("Replace `{old}` with `{}`", fix.replacement),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic]),
                edit: Some(edit),
                is_preferred: Some(true),
                ..Default::default()
            }))
        })
        .collect()
}

/// The token types the server colours with, in the legend's order.
pub(crate) const TOKEN_TYPES: [lsp::SemanticTokenType; 8] = [
    lsp::SemanticTokenType::KEYWORD,
    lsp::SemanticTokenType::PARAMETER,
    lsp::SemanticTokenType::VARIABLE,
    lsp::SemanticTokenType::FUNCTION,
    lsp::SemanticTokenType::NUMBER,
    lsp::SemanticTokenType::STRING,
    lsp::SemanticTokenType::OPERATOR,
    lsp::SemanticTokenType::COMMENT,
];

/// Every token of a text that parses, coloured as the grammar reads it: a parameter apart from
/// the names a rule reads.
pub(crate) fn semantic_tokens(doc: &Document) -> Vec<lsp::SemanticToken> {
    let (tokens, symbols) = (text::tokens(&doc.text), text::symbols(&doc.text));
    let params: Vec<&str> =
        symbols.iter().filter(|s| s.kind == SymbolKind::Parameter).map(|s| s.name.as_str()).collect();
    let mut out = Vec::new();
    let mut last = lsp::Position::new(0, 0);
    for token in tokens {
        let kind = match token.kind {
            TokenKind::Keyword => 0,
            TokenKind::Name if params.contains(&&doc.text[token.start..token.end]) => 1,
            TokenKind::Name => 2,
            TokenKind::Function => 3,
            TokenKind::Number | TokenKind::Code => 4,
            TokenKind::String => 5,
            TokenKind::Operator => 6,
            TokenKind::Comment => 7,
            TokenKind::Punctuation | TokenKind::End => continue,
        };
        let start = doc.position(token.start);
        let end = doc.position(token.end);
        let delta_line = start.line - last.line;
        let delta_start = if delta_line == 0 { start.character - last.character } else { start.character };
        out.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: end.character.saturating_sub(start.character),
            token_type: kind,
            token_modifiers_bitset: 0,
        });
        last = start;
    }
    out
}
