//! takeaway-core: the engine of takeaway, a small language for combinatorial take-away games
//! and a solver for them, with no terminal in it.
//!
//! The stages, each owning its data and its errors:
//! `syntax` (text → `ast`) → `check` (meaning → `rules::Game`) → `solve` (outcomes and Grundy
//! values) → `analysis` (reports) → `api` (typed requests and answers, under a `Budget`) →
//! `render` (answers as text, JSON, CSV and SVG). The front ends (the `takeaway` command,
//! its REPL, Python, the web page) sit on `api`.

pub mod analysis;
pub mod api;
pub mod ast;
pub mod check;
pub mod diagnostics;
pub mod play;
pub mod render;
pub mod rules;
pub mod solve;
pub mod syntax;
pub mod vocab;

use miette::Diagnostic;
use thiserror::Error;

pub use rules::Game;

/// Why game text could not be loaded: one parse error, or every semantic error found.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum LoadError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Parse(#[from] syntax::ParseError),
    #[error("{} errors in the game", .0.len())]
    Check(Vec<check::CheckError>),
}

impl LoadError {
    /// Each diagnostic on its own, in the order of the text.
    pub fn diagnostics(&self) -> Vec<&dyn Diagnostic> {
        match self {
            LoadError::Parse(e) => vec![e as &dyn Diagnostic],
            LoadError::Check(errors) => errors.iter().map(|e| e as &dyn Diagnostic).collect(),
        }
    }
}

/// Parses and checks game text. `default_name` names a game that has no `game` line.
pub fn load(
    text: &str,
    default_name: &str,
    settings: &[(String, crate::check::SettingValue)],
) -> Result<Game, LoadError> {
    load_with(text, default_name, settings, &check::NoLibrary)
}

/// Parses and checks game text whose product statement (if any) names games in `library`.
pub fn load_with(
    text: &str,
    default_name: &str,
    settings: &[(String, crate::check::SettingValue)],
    library: &dyn check::Library,
) -> Result<Game, LoadError> {
    let file = syntax::parse(text)?;
    check::check(&file, default_name, settings, library).map_err(LoadError::Check)
}
