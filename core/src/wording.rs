//! The arguments a message tells its reader to give or raise, as data: the engine names them
//! (`Argument::MaxStates`, and the value to give), and the front end that asked words them in
//! its own medium: `--max-states 10000` on the command line, `max_states=10000` in Python,
//! `"max_states": 10000` in a request to the web API.
//!
//! The wording is one per process, installed by the front end as it starts: a process serves
//! one medium (the command line and the REPL, the server, the Python module), and the engine's
//! failures are displayed far from where the question came in (a diagnostic's help text is
//! written by `miette` through `Display`).

use std::fmt;
use std::sync::OnceLock;

/// An argument of the request schema that a message may tell its reader to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Argument {
    /// The most positions a question may keep.
    MaxStates,
    /// The most moves a question may examine.
    MaxMoves,
    /// The seconds a question may take.
    Timeout,
    /// How far a table, period or quotient goes.
    Upto,
    /// A value for one of the game's parameters (`k=3`).
    Set,
    /// The size of the previous move, for games that read it.
    Last,
    /// The form of an answer: text, JSON or CSV.
    Format,
    /// The file a record run keeps its values in, to go on from.
    Checkpoint,
    /// The rows file of a sweep.
    Out,
    /// How many piles a table lists.
    Piles,
    /// A one-pile table by the previous move.
    ByLast,
    /// How far `compare` shifts the second game.
    Shift,
    /// The temperature to cool a partizan value by.
    Cool,
    /// How many values a period search reads.
    PeriodValues,
    /// The window of values a period search keeps, for runs longer than memory holds.
    Window,
}

impl Argument {
    /// The request schema's name for it (`max_states`), which is also the web API's field and
    /// Python's keyword.
    pub fn name(self) -> &'static str {
        match self {
            Argument::MaxStates => "max_states",
            Argument::MaxMoves => "max_moves",
            Argument::Timeout => "timeout",
            Argument::Upto => "upto",
            Argument::Set => "settings",
            Argument::Last => "last",
            Argument::Format => "format",
            Argument::Checkpoint => "checkpoint",
            Argument::Out => "out",
            Argument::Piles => "piles",
            Argument::ByLast => "by_last",
            Argument::Shift => "shift",
            Argument::Cool => "cool",
            Argument::PeriodValues => "period_values",
            Argument::Window => "window",
        }
    }
}

/// An argument, and the value to give it where the message knows one, as a message shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Give {
    /// The argument.
    pub argument: Argument,
    /// The value, where the message names one (`10000`, `k=3`).
    pub value: Option<String>,
}

/// The argument `argument`, with no value named.
pub(crate) fn give(argument: Argument) -> Give {
    Give { argument, value: None }
}

/// The argument `argument` with `value`.
pub(crate) fn give_value(argument: Argument, value: impl fmt::Display) -> Give {
    Give { argument, value: Some(value.to_string()) }
}

/// How a front end words an argument, and its value where there is one.
pub type Wording = fn(Argument, Option<&str>) -> String;

static WORDING: OnceLock<Wording> = OnceLock::new();

/// Installs the front end's wording for every message of this process; the first wording
/// installed stays (false when one was already). Before any, messages use the request
/// schema's names: `` `max_states` `` and `` `"max_states": 10000` ``.
pub fn set_wording(wording: Wording) -> bool {
    WORDING.set(wording).is_ok()
}

/// The request schema's own wording, which the web API uses.
pub fn schema_wording(argument: Argument, value: Option<&str>) -> String {
    match value {
        Some(v) if argument == Argument::Set => format!("`\"settings\": {{{}}}`", setting_as_json(v)),
        Some(v) => format!("`\"{}\": {v}`", argument.name()),
        None => format!("`{}`", argument.name()),
    }
}

/// `k=3` as a JSON member, `"k": 3`, for the schema's wording of a setting.
fn setting_as_json(setting: &str) -> String {
    match setting.split_once('=') {
        Some((name, value)) => format!("\"{}\": {}", name.trim(), value.trim()),
        None => setting.to_string(),
    }
}

impl fmt::Display for Give {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wording = WORDING.get().copied().unwrap_or(schema_wording);
        f.write_str(&wording(self.argument, self.value.as_deref()))
    }
}

impl fmt::Display for Argument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        give(*self).fmt(f)
    }
}
