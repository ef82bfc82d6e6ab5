//! The bundled games, compiled into the server: the page's menu, and the games a product
//! statement names (looked for here only, never on the disk a request could name).

use takeaway_core::Source;
use takeaway_core::{load_game, Budget, Library, Loaded, Lookup, NoLibrary};

include!(concat!(env!("OUT_DIR"), "/games.rs"));

/// (file stem, text) of every bundled game.
pub fn bundled() -> &'static [(&'static str, &'static str)] {
    BUNDLED
}

/// The bundled games, as a library for product statements.
pub struct Bundled;

impl Library for Bundled {
    fn find(&self, name: &str) -> Lookup {
        let stem = name.strip_suffix(".game").unwrap_or(name);
        let Some((stem, text)) = BUNDLED.iter().find(|(s, _)| *s == stem) else {
            let names: Vec<&str> = BUNDLED.iter().map(|(s, _)| *s).collect();
            return Lookup::Missing { help: format!("the page knows the bundled games: {}", names.join(", ")) };
        };
        let shown = format!("{stem}.game");
        match load_game(Source::new(shown.clone(), *text), stem, &[], &NoLibrary, &Budget::new()) {
            Ok(Loaded { game, .. }) => Lookup::Found { game, source_name: shown, text: text.to_string() },
            Err(failure) => Lookup::Failed { rendered: failure.render(false) },
        }
    }
}
