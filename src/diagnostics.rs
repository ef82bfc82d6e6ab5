//! Rendering diagnostics against the text they point into, with or without colour.

use std::io::IsTerminal;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, NamedSource};

/// Where a piece of text came from, for diagnostics that point into it.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Source { name: name.into(), text: text.into() }
    }
}

/// True when stderr is a terminal and the user has not asked for no colour (NO_COLOR).
pub fn stderr_wants_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

/// Renders one diagnostic, with the source it points into when it has labels.
pub fn render(diagnostic: &dyn Diagnostic, source: Option<&Source>, color: bool) -> String {
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    let with_source;
    let diagnostic: &dyn Diagnostic = match source {
        // A diagnostic that carries its own text (an error in another game's rules) keeps it.
        Some(src) if diagnostic.labels().is_some() && diagnostic.source_code().is_none() => {
            with_source = WithSource { inner: diagnostic, source: NamedSource::new(&src.name, src.text.clone()) };
            &with_source
        }
        _ => diagnostic,
    };
    if handler.render_report(&mut out, diagnostic).is_err() {
        out = format!("error: {diagnostic}\n");
    }
    out
}

/// A diagnostic seen together with its source text.
struct WithSource<'a> {
    inner: &'a dyn Diagnostic,
    source: NamedSource<String>,
}

impl std::fmt::Debug for WithSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.inner, f)
    }
}

impl std::fmt::Display for WithSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.inner, f)
    }
}

impl std::error::Error for WithSource<'_> {}

impl Diagnostic for WithSource<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.help()
    }
    fn url<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.url()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.inner.labels()
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        self.inner.related()
    }
    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.inner.diagnostic_source()
    }
}
