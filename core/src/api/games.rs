//! Reading and loading games: a game text parsed and checked into a `Loaded`, game files read
//! with diagnostics that say what is wrong with the file, and the library of games a product
//! names.

use std::path::{Path, PathBuf};

use super::{Budget, Failure, FileError, Loaded, Setting, MOST_GAME_FILE_BYTES};
use crate::check::{Library, Lookup, SettingValue};
use crate::diagnostics::{render, Source};

/// Parses and checks game text, whose product statement (if any) names games of `library`,
/// within the question's budget.
pub fn load_game(
    source: Source,
    default_name: &str,
    settings: &[Setting],
    library: &dyn Library,
    budget: &Budget,
) -> Result<Loaded, Failure> {
    let source = Source { text: normalised(source.text), ..source };
    match crate::load::load_with(&source.text, default_name, settings, library, &budget.limits().watch()) {
        Ok(game) => Ok(Loaded { game, source }),
        Err(e) => Err(Failure { source: Some(source), ..Failure::from(e) }),
    }
}

/// Reads, parses and checks a game file within the question's budget; a product's games are
/// found beside it, or among `session`'s games by name.
pub fn read_game(path: &Path, settings: &[Setting], session: Vec<&Loaded>, budget: &Budget) -> Result<Loaded, Failure> {
    // `games/nim` finds `games/nim.game`, as a product's names do.
    let with_extension = path.with_extension("game");
    let path = if !path.exists() && path.extension().is_none() && with_extension.is_file() {
        with_extension.as_path()
    } else {
        path
    };
    let text = read_text(path).map_err(|e| Failure::one(e, None))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "game".into());
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let library = Games { dir, session };
    load_game(Source::new(path.display().to_string(), text), &stem, settings, &library, budget)
}

/// A game file's text: refused before reading when it is not a regular file (a device, a
/// FIFO, a folder) or is larger than a game file can need.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let shown = path.display().to_string();
    let read_error = |e: std::io::Error| {
        let (reason, help) = match e.kind() {
            std::io::ErrorKind::NotFound => ("no such file".to_string(), nearest_file(path)),
            std::io::ErrorKind::PermissionDenied => {
                ("permission denied".to_string(), "check the file's permissions".into())
            }
            std::io::ErrorKind::IsADirectory => {
                ("it is a folder".to_string(), "name a game file in it, such as games/nim.game".into())
            }
            _ => (e.to_string(), "check the file name; game files end in .game".into()),
        };
        FileError::Read { path: shown.clone(), reason, help }
    };
    let meta = std::fs::metadata(path).map_err(read_error)?;
    if meta.is_dir() {
        return Err(FileError::Read {
            path: shown,
            reason: "it is a folder".into(),
            help: "name a game file in it, such as games/nim.game".into(),
        });
    }
    if !meta.is_file() {
        return Err(FileError::NotAFile { path: shown, what: crate::files::kind_of(&meta).into() });
    }
    if meta.len() > MOST_GAME_FILE_BYTES {
        return Err(FileError::TooLarge { path: shown, bytes: meta.len(), most: MOST_GAME_FILE_BYTES });
    }
    use std::io::Read;
    let mut bytes = Vec::new();
    // The length may change between the look and the read: never read more than the most.
    std::fs::File::open(path)
        .and_then(|f| f.take(MOST_GAME_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(read_error)?;
    if bytes.len() as u64 > MOST_GAME_FILE_BYTES {
        return Err(FileError::TooLarge { path: shown, bytes: bytes.len() as u64, most: MOST_GAME_FILE_BYTES });
    }
    String::from_utf8(bytes).map_err(|_| FileError::NotUtf8 { path: shown })
}

/// Game text as the parser and the diagnostics read it: without the byte-order mark editors on
/// Windows write first, and with a lone CR (old Mac line ends) made a line end the diagnostics
/// count too (CR → LF keeps every byte where it was, so spans stay true).
/// A game's text with its `move:` lines blanked (every character but line ends a space): what
/// `extend` checks new moves against, at the same byte offsets as in the whole text, so that
/// their spans and line numbers are those of the whole text. `None` when the text does not
/// parse.
pub fn without_moves(text: &str) -> Option<String> {
    let file = crate::syntax::parse(text).ok()?;
    let mut out = text.as_bytes().to_vec();
    for statement in &file.statements {
        if let crate::ast::Statement::Move(decl) = &statement.node {
            if !decl.first {
                let span = statement.span;
                for b in out.get_mut(span.start..span.end)? {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
        }
    }
    // Only ASCII spaces replace bytes, and whole statements: every character blanked is gone
    // whole, so the bytes are still UTF-8.
    String::from_utf8(out).ok()
}

/// The game `loaded` with `addition` (only `move:` lines) written after its text: the new
/// rules are checked against the game's other statements (`header`, from `without_moves`),
/// not against every rule again, so a definition typed line by line costs time linear in its
/// lines. `None` when the fast way does not apply (the addition is more than moves, the game
/// is a product) or finds a fault: then the whole text is loaded again, and any diagnostic
/// comes from that.
pub fn extend(
    loaded: &Loaded,
    header: &str,
    addition: &str,
    default_name: &str,
    settings: &[Setting],
    library: &dyn Library,
) -> Option<(Loaded, String)> {
    if loaded.game.product.is_some() || addition.contains(['\r', '\u{feff}']) {
        return None;
    }
    let added = crate::syntax::parse(addition).ok()?;
    let only_moves = !added.statements.is_empty()
        && added.statements.iter().all(|s| matches!(&s.node, crate::ast::Statement::Move(d) if !d.first));
    if !only_moves {
        return None;
    }
    let whole = format!("{}\n{}", loaded.source.text.trim_end(), addition.trim());
    let blank_header = format!("{}\n", header.get(..loaded.source.text.trim_end().len())?);
    let text = format!("{blank_header}{}", addition.trim());
    let new =
        crate::load::load_with(&text, default_name, settings, library, &crate::progress::Watch::default()).ok()?;
    let mut game = loaded.game.clone();
    game.moves.extend(new.moves);
    game.uses_last |= new.uses_last;
    // The one check across rules: a partizan game may not add counters (PartizanGrows). Where
    // the old rules and the new ones could meet in it, the whole text is checked instead.
    if game.is_partizan() && game.can_grow() {
        return None;
    }
    let blanked: String = addition.trim().bytes().map(|b| if b == b'\n' { '\n' } else { ' ' }).collect();
    let header = format!("{blank_header}{blanked}");
    Some((Loaded { game, source: Source { text: whole, ..loaded.source.clone() } }, header))
}

fn normalised(text: String) -> String {
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    if !text.contains('\r') {
        return text;
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        out.push(if c == '\r' && bytes.get(i + 1) != Some(&b'\n') { '\n' } else { c });
    }
    out
}

/// The help for a file that is not there: the nearest game file in its folder, if one is close.
fn nearest_file(path: &Path) -> String {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let wanted = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().to_string()).collect())
        .unwrap_or_default();
    // A name with a control character is never suggested: the help is printed to terminals.
    let names: Vec<String> = names.into_iter().filter(|n| !n.chars().any(char::is_control)).collect();
    let close = names
        .iter()
        .filter(|n| n.ends_with(".game"))
        .map(|n| (strsim::damerau_levenshtein(&wanted, n), n))
        .filter(|(d, n)| *d <= 3 && *d * 2 < n.len())
        .min();
    match close {
        Some((_, name)) => format!("did you mean {}?", dir.join(name).display()),
        None => "check the file name; game files end in .game".into(),
    }
}

/// Where a product's games are found: a session's games by name, then game files, by path
/// from `dir` (`.game` may be left off).
pub struct Games<'a> {
    /// The directory that game files are looked up in.
    pub dir: PathBuf,
    /// Games defined in the session, looked up first.
    pub session: Vec<&'a Loaded>,
}

impl Library for Games<'_> {
    fn find(&self, name: &str) -> Lookup {
        if let Some(found) = self.session.iter().find(|l| l.game.name == name) {
            return Lookup::Found {
                game: found.game.clone(),
                source_name: found.source.name.clone(),
                text: found.source.text.clone(),
            };
        }
        let mut paths = vec![self.dir.join(name)];
        if Path::new(name).extension().is_none() {
            paths.push(self.dir.join(format!("{name}.game")));
        }
        let Some(path) = paths.into_iter().find(|p| p.is_file()) else {
            return Lookup::Missing { help: self.missing_help(name) };
        };
        let shown = path.display().to_string();
        let text = match read_text(&path) {
            Ok(t) => t,
            Err(e) => return Lookup::Failed { rendered: render(&e, None, false) },
        };
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| name.to_string());
        // A product's games are loaded on their own: a product of products is refused.
        match load_game(Source::new(shown.clone(), text.clone()), &stem, &[], &crate::check::NoLibrary, &Budget::new())
        {
            Ok(loaded) => Lookup::Found { game: loaded.game, source_name: shown, text },
            Err(failure) => Lookup::Failed { rendered: failure.render(false) },
        }
    }
}

impl Games<'_> {
    /// A close name, or where games are looked for with the names there are.
    fn missing_help(&self, name: &str) -> String {
        let mut files: Vec<String> = std::fs::read_dir(&self.dir)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().to_string())
                    .filter(|n| n.ends_with(".game") && !n.chars().any(char::is_control))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        let wanted = name.trim_end_matches(".game");
        let close = files
            .iter()
            .map(|f| f.trim_end_matches(".game").to_string())
            .chain(self.session.iter().map(|l| l.game.name.clone()))
            .map(|known| (strsim::damerau_levenshtein(wanted, &known), known))
            .filter(|(d, known)| *d <= 2 && *d < known.len().max(wanted.len()))
            .min();
        if let Some((_, known)) = close {
            return format!("did you mean \"{known}\"?");
        }
        let dir = if self.dir.as_os_str().is_empty() { ".".to_string() } else { self.dir.display().to_string() };
        let mut help = String::new();
        if !self.session.is_empty() {
            let names: Vec<String> = self.session.iter().map(|l| format!("\"{}\"", l.game.name)).collect();
            help.push_str(&format!("the session's games are {}; ", names.join(", ")));
        }
        help.push_str(&format!("game files are looked for in {dir}"));
        if !files.is_empty() {
            const SHOWN: usize = 8;
            let more = if files.len() > SHOWN { ", …" } else { "" };
            files.truncate(SHOWN);
            help.push_str(&format!(", which has {}{more}", files.join(", ")));
        }
        help
    }
}

/// `NAME=VALUE`, as `--set` and the REPL's `set` take it.
pub fn parse_setting(s: &str) -> Result<Setting, String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("`{s}` is not NAME=VALUE; write it as k=5"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{name}` is not a parameter name"));
    }
    let value = value.trim();
    // A set parameter's value: `S={1,2,5}` (ranges written `1..3` are allowed inside).
    if let Some(inside) = value.strip_prefix('{') {
        let inside = inside
            .strip_suffix('}')
            .ok_or_else(|| format!("`{value}` has no closing `}}`: write a set as \"S={{1,2,5}}\" (quoted, so that the shell keeps the braces)"))?;
        let mut members = Vec::new();
        for item in inside.split(',').map(str::trim) {
            let number = |t: &str| {
                t.trim().parse::<i64>().map_err(|_| {
                    format!("`{}` is not a whole number (a set holds amounts such as {{1,2,5}})", t.trim())
                })
            };
            match item.split_once("..") {
                Some((lo, hi)) => {
                    let (lo, hi) = (number(lo)?, number(hi)?);
                    if hi.saturating_sub(lo) >= crate::check::MAX_SET_MEMBERS as i64 {
                        return Err(format!(
                            "`{item}` is too long a range for a set (at most {} members)",
                            crate::check::MAX_SET_MEMBERS
                        ));
                    }
                    members.extend(lo..=hi);
                }
                None => members.push(number(item)?),
            }
        }
        if members.is_empty() {
            return Err("an empty set leaves the rule nothing to take: give at least one amount, as in {1,2,5}".into());
        }
        return Ok((name.to_string(), SettingValue::set(members)));
    }
    let value = value.parse::<i64>().map_err(|_| {
        format!("`{value}` is not a whole number (parameters are integers; a set is written \"S={{1,2,5}}\")")
    })?;
    Ok((name.to_string(), SettingValue::Number(value)))
}
