//! Take-and-break codes: plain octal codes and the full notation (digits past 7, `! ? =`,
//! `[…]`, `{…}`), read character by character with a diagnostic at the character that is wrong.

use super::*;

impl Checker<'_> {
    pub(super) fn octal(&mut self, code: &Spanned<String>) -> Vec<u8> {
        let text = &code.node;
        let (before, after) = match text.split_once('.') {
            Some((b, a)) => (b, a),
            None => (text.as_str(), ""),
        };
        let bad = |this: &mut Self, offset: usize, len: usize, message: String, label: &str| {
            this.errors.push(CheckError::BadOctal {
                span: Span::new(code.span.start + offset, code.span.start + offset + len),
                message,
                label: label.to_string(),
            });
        };
        if before.len() != 1 {
            bad(
                self,
                0,
                before.len(),
                format!("octal code `{text}` has {} digits before the point", before.len()),
                "expected one digit",
            );
            return Vec::new();
        }
        let mut digits = Vec::new();
        for (i, ch) in before.chars().chain(after.chars()).enumerate() {
            let offset = if i == 0 { 0 } else { i + 1 };
            match ch.to_digit(10) {
                Some(d) if d <= 7 => digits.push(d as u8),
                _ => {
                    bad(
                        self,
                        offset,
                        ch.len_utf8(),
                        format!("`{ch}` is not an octal digit"),
                        "expected a digit from 0 to 7",
                    );
                    return Vec::new();
                }
            }
        }
        if digits[0] & 3 != 0 {
            bad(
                self,
                0,
                1,
                format!("the digit before the point is {}, but taking nothing can only split a heap", digits[0]),
                "only 0 or 4 can stand here",
            );
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        digits
    }

    /// A code in the full take-and-break notation, with every problem reported at its character.
    pub(super) fn take_break_code(&mut self, code: &Spanned<String>) -> TakeBreakCode {
        let empty = TakeBreakCode { digits: Vec::new(), repeat_from: None };
        let text = code.node.as_str();
        let (before, after) = text.split_once('.').unwrap_or((text, ""));
        let at = |offset: usize, len: usize| Span::new(code.span.start + offset, code.span.start + offset + len);
        let parsed = CodeReader::new(before, 0, false)
            .units()
            .and_then(|(b, _)| CodeReader::new(after, before.len() + 1, true).units().map(|a| (b, a)));
        let (before_units, (after_units, repeat_from)) = match parsed {
            Ok(p) => p,
            Err(problem) => {
                self.errors.push(CheckError::BadOctal {
                    span: at(problem.offset, problem.len),
                    message: problem.message,
                    label: problem.label.into(),
                });
                return empty;
            }
        };
        if before_units.len() > 1 {
            let last = before_units[before_units.len() - 1].1;
            self.errors.push(CheckError::LoopyCode { span: at(0, last) });
            return empty;
        }
        let Some((d0, _, d0_len)) = before_units.into_iter().next() else {
            self.errors.push(CheckError::BadOctal {
                span: at(0, 1),
                message: format!("code `{text}` has no digit before the point"),
                label: "expected the digit for taking nothing, usually 0".into(),
            });
            return empty;
        };
        if d0.counts.iter().any(|c| c.min <= 1) {
            self.errors.push(CheckError::BadOctal {
                span: at(0, d0_len),
                message: "the digit before the point lets a move take nothing and leave one heap or none".into(),
                label: "taking nothing can only split a heap: only 0, 4, 8, … can stand here".into(),
            });
            return empty;
        }
        let mut digits = vec![d0];
        digits.extend(after_units.into_iter().map(|(d, _, _)| d));
        let mut repeat_from = repeat_from.map(|r| r + 1);
        if let Some(r) = repeat_from {
            if digits[r..].iter().all(|d| d.counts.is_empty()) {
                digits.truncate(r);
                repeat_from = None;
            }
        }
        if repeat_from.is_none() {
            while digits.len() > 1 && digits.last().is_some_and(|d| d.counts.is_empty()) {
                digits.pop();
            }
        }
        TakeBreakCode { digits, repeat_from }
    }
}

/// A code the octal kernel and Guy and Smith's theorem know: one digit 0-7, a point, digits 0-7.
pub(super) fn is_plain_octal(text: &str) -> bool {
    let (before, after) = text.split_once('.').unwrap_or((text, ""));
    let octal = |s: &str| s.chars().all(|c| ('0'..='7').contains(&c));
    before.len() == 1 && octal(before) && octal(after)
}

/// What went wrong in a code, at a character.
struct CodeProblem {
    offset: usize,
    len: usize,
    message: String,
    label: &'static str,
}

/// Reads the units of one side of a code's point: digits, `{…}` sets and `*`, each with an
/// optional `!`, `?` or `=`, and (after the point) one `[…]` repeat at the end.
struct CodeReader<'a> {
    text: &'a str,
    /// Where `text` starts in the whole code, for spans.
    base: usize,
    pos: usize,
    repeat_allowed: bool,
}

/// The most heaps a count in a set may name.
const MOST_HEAPS: u32 = 64;

impl<'a> CodeReader<'a> {
    pub(super) fn new(text: &'a str, base: usize, repeat_allowed: bool) -> Self {
        CodeReader { text, base, pos: 0, repeat_allowed }
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    pub(super) fn problem(&self, message: String, label: &'static str) -> CodeProblem {
        let len = self.peek().map(|c| c.len_utf8()).unwrap_or(0).max(1);
        CodeProblem { offset: self.base + self.pos, len, message, label }
    }

    /// Each unit with its start and end offset in the whole code; and where a repeat starts.
    #[allow(clippy::type_complexity)]
    pub(super) fn units(mut self) -> Result<(Vec<(CodeDigit, usize, usize)>, Option<usize>), CodeProblem> {
        let mut units = Vec::new();
        let mut repeat_from = None;
        let mut closed = false;
        while let Some(c) = self.peek() {
            if closed {
                return Err(self.problem(format!("`{c}` after the repeat"), "a repeat `[…]` ends the code"));
            }
            let start = self.base + self.pos;
            match c {
                '[' if self.repeat_allowed && repeat_from.is_none() => {
                    self.pos += 1;
                    repeat_from = Some(units.len());
                    continue;
                }
                ']' if repeat_from.is_some() => {
                    if repeat_from == Some(units.len()) {
                        return Err(self.problem("an empty repeat".into(), "put the repeating digits inside"));
                    }
                    self.pos += 1;
                    closed = true;
                    continue;
                }
                '{' => {
                    self.pos += 1;
                    let mut counts = Vec::new();
                    loop {
                        counts.push(self.set_item()?);
                        match self.peek() {
                            Some(',') => self.pos += 1,
                            Some('}') => {
                                self.pos += 1;
                                break;
                            }
                            _ => {
                                return Err(
                                    self.problem("the heap-count set is not closed".into(), "expected `,` or `}`")
                                )
                            }
                        }
                    }
                    let shape = self.shape();
                    for count in counts.iter_mut() {
                        count.shape = count.shape.or(shape);
                    }
                    units.push((CodeDigit { counts }, start, self.base + self.pos));
                }
                '*' => {
                    self.pos += 1;
                    let shape = self.shape();
                    units.push((
                        CodeDigit { counts: vec![HeapCount { min: 0, max: None, shape }] },
                        start,
                        self.base + self.pos,
                    ));
                }
                _ => {
                    let Some(value) = digit_value(c) else {
                        return Err(self.problem(
                            format!("`{c}` is not a digit of a code"),
                            "expected a digit 0-9 or a-v (10-31), `{`, `*` or `[`",
                        ));
                    };
                    self.pos += c.len_utf8();
                    let shape = self.shape();
                    let counts = (0..5)
                        .filter(|bit| value & (1 << bit) != 0)
                        .map(|bit| HeapCount { min: bit, max: Some(bit), shape })
                        .collect();
                    units.push((CodeDigit { counts }, start, self.base + self.pos));
                }
            }
        }
        if repeat_from.is_some() && !closed {
            return Err(CodeProblem {
                offset: self.base + self.text.len(),
                len: 1,
                message: "the repeat is not closed".into(),
                label: "expected `]`",
            });
        }
        Ok((units, repeat_from))
    }

    pub(super) fn shape(&mut self) -> Option<CodeShape> {
        let shape = match self.peek()? {
            '!' => CodeShape::Unequal,
            '?' => CodeShape::NotAllEqual,
            '=' => CodeShape::Equal,
            _ => return None,
        };
        self.pos += 1;
        Some(shape)
    }

    /// `2`, `2+`, `2!`, `2+?` or `*` inside `{…}`.
    pub(super) fn set_item(&mut self) -> Result<HeapCount, CodeProblem> {
        if self.peek() == Some('*') {
            self.pos += 1;
            return Ok(HeapCount { min: 0, max: None, shape: self.shape() });
        }
        let digits: String = self.text[self.pos..].chars().take_while(|c| c.is_ascii_digit()).collect();
        if digits.is_empty() {
            return Err(self.problem("expected a number of heaps".into(), "a number such as 2, or `*`"));
        }
        let count = digits.parse::<u32>().ok().filter(|&k| k <= MOST_HEAPS);
        let Some(count) = count else {
            return Err(CodeProblem {
                offset: self.base + self.pos,
                len: digits.len(),
                message: format!("{digits} heaps is too many"),
                label: "at most 64 heaps",
            });
        };
        self.pos += digits.len();
        let more = self.peek() == Some('+');
        if more {
            self.pos += 1;
        }
        Ok(HeapCount { min: count, max: if more { None } else { Some(count) }, shape: self.shape() })
    }
}

/// 0-9, then a-v (or A-V) for 10-31.
pub(super) fn digit_value(c: char) -> Option<u32> {
    match c {
        '0'..='9' => c.to_digit(10),
        'a'..='v' => Some(c as u32 - 'a' as u32 + 10),
        'A'..='V' => Some(c as u32 - 'A' as u32 + 10),
        _ => None,
    }
}
