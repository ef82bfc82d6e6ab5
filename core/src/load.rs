//! Reading a game: its text parsed and checked, within the question's deadline, into the rules
//! the engines play, with every mistake found at once. Below the engines: a question stops
//! here as it stops everywhere (`progress::Watch`), without reaching up to `solve`.

use miette::Diagnostic;
use thiserror::Error;

use crate::progress::{Stopped, Watch};
use crate::rules::{self, Game};
use crate::{check, syntax};

/// Why game text could not be loaded: one parse error, every semantic error found, or the
/// question's budget stopped the reading.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum LoadError {
    /// The text does not parse: the first place it goes wrong.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Parse(#[from] syntax::ParseError),
    /// The text parses, but these statements make no sense together.
    #[error("{} errors in the game", .0.len())]
    Check(Vec<check::CheckError>),
    /// The question's deadline passed, or it was cancelled, while the game was read.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Stopped(Stopped),
}

impl LoadError {
    /// Each diagnostic on its own, in the order of the text.
    pub fn diagnostics(&self) -> Vec<&dyn Diagnostic> {
        match self {
            LoadError::Parse(e) => vec![e as &dyn Diagnostic],
            LoadError::Check(errors) => errors.iter().map(|e| e as &dyn Diagnostic).collect(),
            LoadError::Stopped(e) => vec![e as &dyn Diagnostic],
        }
    }
}

/// Parses and checks game text: the game, or every diagnostic. `default_name` names a game that
/// has no `game` line; `settings` give its parameters values. (A front end loads with
/// [`load_game`](crate::load_game), which keeps the text for diagnostics and reads a question's budget.)
pub fn load(
    text: &str,
    default_name: &str,
    settings: &[(String, crate::check::SettingValue)],
) -> Result<Game, LoadError> {
    load_with(text, default_name, settings, &check::NoLibrary, &Watch::default())
}

/// Parses and checks game text whose product statement (if any) names games in `library`,
/// within `watch` (the question's deadline and cancel token).
pub(crate) fn load_with(
    text: &str,
    default_name: &str,
    settings: &[(String, crate::check::SettingValue)],
    library: &dyn check::Library,
    watch: &Watch,
) -> Result<Game, LoadError> {
    watch.check().map_err(LoadError::Stopped)?;
    // A long text is parsed a piece at a time, the deadline read between pieces.
    let file = syntax::parse_within(text, || watch.check()).map_err(|e| match e {
        syntax::Interrupted::Parse(e) => LoadError::from(e),
        syntax::Interrupted::Stopped(stop) => LoadError::Stopped(stop),
    })?;
    watch.check().map_err(LoadError::Stopped)?;
    let checked = check::check(&file, default_name, settings, library, watch).map_err(|e| match e {
        check::CheckFailure::Errors(errors) => LoadError::Check(errors),
        check::CheckFailure::Stopped(stop) => LoadError::Stopped(stop),
    });
    let mut game = checked.map_err(|e| phrased(e, text))?;
    without_repeated_rules(&mut game.first_moves, text);
    without_repeated_rules(&mut game.moves, text);
    Ok(game)
}

/// An unknown name on a line written in a phrasing the language says another way (`take k
/// from both piles`, `take squares`): its help shows the language's way.
fn phrased(error: LoadError, text: &str) -> LoadError {
    match error {
        LoadError::Check(mut errors) => {
            for e in &mut errors {
                if let check::CheckError::UnknownName { span, help, fix, .. } = e {
                    if let Some(way) = syntax::phrasing_help(syntax::line_at(text, span.start)) {
                        *help = way;
                        *fix = None;
                    }
                }
            }
            LoadError::Check(errors)
        }
        other => other,
    }
}

/// A rule written again word for word allows the same moves as the first: it is kept once, so
/// that a file of thousands of copies of one rule costs what one rule does.
fn without_repeated_rules(rules: &mut Vec<rules::Rule>, text: &str) {
    let mut seen = std::collections::HashSet::new();
    rules.retain(|r| {
        let words: String =
            text.get(r.span.start..r.span.end).unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
        seen.insert(words)
    });
}
