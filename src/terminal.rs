//! What every front end in a terminal shares: whether stderr wants colour, and the mark of a
//! failure already reported there.

use std::io::IsTerminal;

/// True when stderr is a terminal and the user has not asked for no colour (NO_COLOR).
pub fn stderr_wants_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

/// The failure has been reported on stderr already.
pub(crate) struct Failed;

/// `text` with every control character but newline and tab written as an escape (`\u{1b}`):
/// an answer can quote a file's or a request's text, and an escape sequence in it must not
/// reach the terminal (to set its title, clear it or write the clipboard).
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !matches!(c, '\n' | '\t');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars().map(|c| if unsafe_char(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect()
}
