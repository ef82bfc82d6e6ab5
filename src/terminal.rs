//! What every front end in a terminal shares: whether stderr wants colour, and the mark of a
//! failure already reported there.

use std::io::IsTerminal;

/// True when stderr is a terminal and the user has not asked for no colour (NO_COLOR).
pub fn stderr_wants_color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

/// The failure has been reported on stderr already.
pub(crate) struct Failed;
