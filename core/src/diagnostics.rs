//! Rendering diagnostics against the text they point into, with or without colour.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};

/// Where a piece of text came from, for diagnostics that point into it.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name to show for the text, such as a file name.
    pub name: String,
    /// The text.
    pub text: String,
}

impl Source {
    /// A text and the name to show for it.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Source { name: name.into(), text: text.into() }
    }
}

/// Line and column (both from 1, the column in characters) of byte `offset` in `text`. A lone
/// CR ends a line as CRLF and LF do, so that line numbers agree with the snippet shown.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char(text, offset.min(text.len()));
    let before = &text[..offset];
    let mut line = 1;
    let mut start = 0;
    let bytes = before.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            line += 1;
            start = i + 1;
        }
    }
    (line, before[start..].trim_start_matches('\u{feff}').chars().count() + 1)
}

/// Where the lines of a text start, for the line and column of many offsets in one text
/// without reading it again for each (a failure with thousands of diagnostics in a long text).
pub(crate) struct LineIndex<'t> {
    text: &'t str,
    /// Byte offsets where lines 2, 3, … start.
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    /// The line starts of `text`, read once.
    pub(crate) fn new(text: &'t str) -> Self {
        let bytes = text.as_bytes();
        let starts = bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
            .map(|(i, _)| i + 1)
            .collect();
        LineIndex { text, starts }
    }

    /// As `line_column`.
    pub(crate) fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char(self.text, offset.min(self.text.len()));
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = if line == 0 { 0 } else { self.starts[line - 1] };
        (line + 1, self.text[start..offset].trim_start_matches('\u{feff}').chars().count() + 1)
    }
}

/// Lines longer than this (in bytes) are shown cut down to a window around what is labelled:
/// the renderer cannot draw arbitrarily wide lines, and nobody reads them.
const WIDEST_LINE: usize = 160;
/// How much of a long line is shown before the first label in it.
const SHOWN_BEFORE: usize = 60;

/// Renders one diagnostic, with the source it points into when it has labels.
pub(crate) fn render(diagnostic: &dyn Diagnostic, source: Option<&Source>, color: bool) -> String {
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    let labels: Vec<LabeledSpan> = diagnostic.labels().map(|l| l.collect()).unwrap_or_default();
    // The text the labels point into: the diagnostic's own (an error in another game's rules),
    // or the one it was read from.
    let text: Option<(String, String)> = match diagnostic.source_code() {
        Some(own) if !labels.is_empty() => own
            .read_span(&SourceSpan::from((0, 0)), 0, usize::MAX)
            .ok()
            .map(|c| (c.name().unwrap_or("input").to_string(), String::from_utf8_lossy(c.data()).into_owned())),
        _ => source.filter(|_| !labels.is_empty()).map(|s| (s.name.clone(), s.text.clone())),
    };
    let (source, labels) = match text {
        Some((name, text)) => {
            let (window, labels) = windowed(&masked_controls(&text), &labels);
            (Some(window.named(printable(&name).into_owned())), labels)
        }
        None => (None, labels),
    };
    let shown = Shown { inner: diagnostic, source, labels };
    if handler.render_report(&mut out, &shown).is_err() {
        out = format!("error: {shown}\n");
    }
    out
}

/// The text with each control character but tab, CR and LF shown as `?` (`??` for the two-byte
/// ones), the same number of bytes, so that the labels' offsets still hold: a text quoted to a
/// terminal must not carry an escape sequence into it.
fn masked_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| if unsafe_char(c) { "?".repeat(c.len_utf8()) } else { c.to_string() })
        .collect::<String>()
        .into()
}

/// `text` with every control character but newline and tab written as an escape (`\u{1b}`):
/// a message, an answer or a file name can quote a file's or a request's text, and an escape
/// sequence in it must not reach the terminal (to set its title, clear it or write the
/// clipboard). Every front end in a terminal prints through it.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !matches!(c, '\n' | '\t');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars().map(|c| if unsafe_char(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect()
}

/// Quoted user text (between backticks) longer than this many characters is shown cut short.
const LONGEST_QUOTE: usize = 100;

/// The text with each long `quoted` part cut to its first characters and `…`: a message that
/// repeats a word or number of the input must not repeat a megabyte of it. Control characters
/// quoted from the input are written as escapes (`\u{1b}`), never sent to the terminal.
fn shorten_quotes(text: &str) -> String {
    let text = &printable(text);
    let mut out = String::with_capacity(text.len().min(4096));
    let mut parts = text.split('`');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for (i, part) in parts.enumerate() {
        out.push('`');
        if i % 2 == 0 && part.chars().count() > LONGEST_QUOTE {
            out.extend(part.chars().take(LONGEST_QUOTE - 20));
            out.push('…');
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The text with every line longer than `WIDEST_LINE` cut to a window (around the first label
/// that starts in it), marked with `…` where something was left out, and the labels moved to
/// match.
fn windowed(text: &str, labels: &[LabeledSpan]) -> (Window, Vec<LabeledSpan>) {
    if text.lines().all(|l| l.len() <= WIDEST_LINE) {
        return (Window { text: text.to_string(), cut_lines: Vec::new() }, labels.to_vec());
    }
    let mut cut_lines = Vec::new();
    // (start of the shown part in the old text, its end, where it starts in the new text)
    let mut pieces: Vec<(usize, usize, usize)> = Vec::new();
    let mut out = String::with_capacity(text.len().min(1 << 20));
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let line_end = line_start + body.len();
        if body.len() <= WIDEST_LINE {
            pieces.push((line_start, line_start + line.len(), out.len()));
            out.push_str(line);
        } else {
            let anchor = labels
                .iter()
                .map(|l| l.offset())
                .filter(|&o| o >= line_start && o <= line_end)
                .min()
                .unwrap_or(line_start);
            let from = floor_char(text, anchor.saturating_sub(SHOWN_BEFORE).max(line_start));
            let to = floor_char(text, (from + WIDEST_LINE).min(line_end));
            let new_line_start = out.len();
            if from > line_start {
                out.push('…');
            }
            cut_lines.push(CutLine {
                new_line_start,
                new_shown: out.len(),
                old_from: from,
                old_line_start: line_start,
            });
            pieces.push((from, to, out.len()));
            out.push_str(&text[from..to]);
            if to < line_end {
                out.push('…');
            }
            out.push_str(&line[body.len()..]);
        }
        line_start += line.len();
    }
    let moved = |offset: usize| -> usize {
        // The last piece starting at or before the offset; offsets in a cut part go to its edge.
        let i = pieces.partition_point(|p| p.0 <= offset).saturating_sub(1);
        match pieces.get(i) {
            Some(&(from, to, new)) => new + offset.clamp(from, to) - from,
            None => 0,
        }
    };
    let labels = labels
        .iter()
        .map(|l| {
            let start = moved(l.offset());
            let end = moved(l.offset() + l.len()).max(start);
            let span = SourceSpan::from((start, end - start));
            match l.primary() {
                true => LabeledSpan::new_primary_with_span(l.label().map(str::to_string), span),
                false => LabeledSpan::new_with_span(l.label().map(str::to_string), span),
            }
        })
        .collect();
    (Window { text: out, cut_lines }, labels)
}

/// A long line as shown: where it starts and where its shown part starts in the shown text,
/// and where that part and the line start in the original.
#[derive(Clone, Copy, Debug)]
struct CutLine {
    new_line_start: usize,
    new_shown: usize,
    old_from: usize,
    old_line_start: usize,
}

/// The shown text, and how to find a shown offset's column in the original.
#[derive(Debug)]
struct Window {
    text: String,
    cut_lines: Vec<CutLine>,
}

impl Window {
    fn named(self, name: String) -> WindowSource {
        WindowSource { source: NamedSource::new(name, self.text), cut_lines: self.cut_lines }
    }
}

/// The shown text as miette reads it. The header's `line:column` is read with no context
/// lines; there the column is the original one, not the one in the cut line.
#[derive(Debug)]
struct WindowSource {
    source: NamedSource<String>,
    cut_lines: Vec<CutLine>,
}

impl miette::SourceCode for WindowSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let contents = self.source.read_span(span, before, after)?;
        let at = span.offset();
        let cut = self.cut_lines.iter().rev().find(|c| c.new_line_start <= at);
        match cut {
            Some(c) if before == 0 && after == 0 && at - c.new_line_start == contents.column() => {
                let old = c.old_from + at.saturating_sub(c.new_shown);
                Ok(Box::new(miette::MietteSpanContents::new_named(
                    contents.name().unwrap_or_default().to_string(),
                    contents.data(),
                    *contents.span(),
                    contents.line(),
                    old - c.old_line_start,
                    contents.line_count(),
                )))
            }
            _ => Ok(contents),
        }
    }
}

/// The largest char boundary at or before `at`.
fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A diagnostic as it is shown: with the source text it points into (long lines cut to a
/// window), and long quotations of the input cut short.
struct Shown<'a> {
    inner: &'a dyn Diagnostic,
    source: Option<WindowSource>,
    labels: Vec<LabeledSpan>,
}

impl std::fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.inner, f)
    }
}

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&shorten_quotes(&self.inner.to_string()))
    }
}

impl std::error::Error for Shown<'_> {}

impl Diagnostic for Shown<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.help().map(|h| Box::new(shorten_quotes(&h.to_string())) as Box<dyn std::fmt::Display>)
    }
    fn url<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        match &self.source {
            Some(source) => Some(source),
            None => self.inner.source_code(),
        }
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().map(|l| {
            let label = l.label().map(shorten_quotes);
            match l.primary() {
                true => LabeledSpan::new_primary_with_span(label, *l.inner()),
                false => LabeledSpan::new_with_span(label, *l.inner()),
            }
        })))
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        self.inner.related()
    }
    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.inner.diagnostic_source()
    }
}
