//! The one layout of a game text (`takeaway fmt`, an editor's "format document"): a statement
//! per line, one space between words, none inside brackets or before `,` and `:`, comments
//! kept, trailing comments of neighbouring lines lined up. The tokens are the parser's, so
//! formatting never changes what a text says, and formatting twice gives the same text.

use super::tokens::{leaves, Leaf, TokenKind};
use super::{ParseError, Rule};

/// A line of the formatted text.
enum Line {
    Blank,
    /// A comment on a line of its own.
    Comment(String),
    /// A statement, and the comment after it on its line.
    Code {
        code: String,
        comment: Option<String>,
    },
}

/// `text` in the canonical layout; the parse error of a text that does not parse (which is
/// left as it is).
pub fn format(text: &str) -> Result<String, ParseError> {
    let leaves = leaves(text)?;
    let mut lines: Vec<Line> = Vec::new();
    let mut code = String::new();
    let mut previous: Option<Leaf> = None;
    // Whether anything stood on the source line so far: a line with nothing is a blank one.
    let mut line_used = false;
    for leaf in leaves {
        let words = &text[leaf.token.start..leaf.token.end];
        match leaf.token.kind {
            TokenKind::End => {
                if !code.is_empty() {
                    lines.push(Line::Code { code: std::mem::take(&mut code), comment: None });
                    previous = None;
                }
                if words != ";" {
                    if !line_used {
                        lines.push(Line::Blank);
                    }
                    line_used = false;
                }
            }
            TokenKind::Comment => {
                let comment = words.trim_end().to_string();
                if !code.is_empty() {
                    lines.push(Line::Code { code: std::mem::take(&mut code), comment: Some(comment) });
                    previous = None;
                } else if let (true, Some(Line::Code { comment: slot @ None, .. })) = (line_used, lines.last_mut()) {
                    // `a; # why`: the comment stays with the statement before it.
                    *slot = Some(comment);
                } else {
                    lines.push(Line::Comment(comment));
                }
                line_used = true;
            }
            _ => {
                if let Some(before) = &previous {
                    if spaced(text, before, &leaf) {
                        code.push(' ');
                    }
                }
                code.push_str(words);
                previous = Some(leaf);
                line_used = true;
            }
        }
    }
    if !code.is_empty() {
        lines.push(Line::Code { code, comment: None });
    }
    Ok(render(lines))
}

/// The lines as text: no blank line first or last, never two in a row, and the trailing
/// comments of a run of neighbouring lines starting in one column.
fn render(lines: Vec<Line>) -> String {
    let mut kept: Vec<Line> = Vec::with_capacity(lines.len());
    for line in lines {
        let blank = matches!(line, Line::Blank);
        if blank && matches!(kept.last(), None | Some(Line::Blank)) {
            continue;
        }
        kept.push(line);
    }
    while matches!(kept.last(), Some(Line::Blank)) {
        kept.pop();
    }
    let mut out = String::new();
    let mut i = 0;
    while i < kept.len() {
        // A run of statements each with a comment after it.
        let run_end =
            (i..kept.len()).find(|&j| !matches!(kept[j], Line::Code { comment: Some(_), .. })).unwrap_or(kept.len());
        let width = kept[i..run_end]
            .iter()
            .map(|l| match l {
                Line::Code { code, .. } => code.chars().count(),
                _ => 0,
            })
            .max()
            .unwrap_or(0);
        for line in &kept[i..run_end.max(i + 1)] {
            match line {
                Line::Blank => {}
                Line::Comment(c) => out.push_str(c),
                Line::Code { code, comment: None } => out.push_str(code),
                Line::Code { code, comment: Some(c) } => {
                    out.push_str(code);
                    out.push_str(&" ".repeat(width - code.chars().count() + 2));
                    out.push_str(c);
                }
            }
            out.push('\n');
        }
        i = run_end.max(i + 1);
    }
    out
}

/// Whether a space stands between two neighbouring tokens of a statement.
fn spaced(text: &str, before: &Leaf, after: &Leaf) -> bool {
    let (b, a) = (&text[before.token.start..before.token.end], &text[after.token.start..after.token.end]);
    if matches!(a, "," | ")" | "}" | ":" | "..") {
        return false;
    }
    if matches!(b, "(" | "{" | "..") || before.rule == Some(Rule::neg) {
        return false;
    }
    if a == "(" {
        // A call's bracket follows its name; any other opens after a space.
        return before.token.kind != TokenKind::Function;
    }
    // Arithmetic is spaced as its writer spaced it (`2·last`, `k + r`); comparisons always are.
    if is_arithmetic(before.rule) {
        return spaced_in_source(text, before);
    }
    if is_arithmetic(after.rule) {
        return spaced_in_source(text, after);
    }
    true
}

fn is_arithmetic(rule: Option<Rule>) -> bool {
    matches!(rule, Some(Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::rem | Rule::pow))
}

/// Whether the writer put a space on either side of an operator.
fn spaced_in_source(text: &str, op: &Leaf) -> bool {
    text[..op.token.start].ends_with([' ', '\t']) || text[op.token.end..].starts_with([' ', '\t'])
}
