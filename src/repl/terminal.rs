//! The rustyline front end over the REPL core: prompt, completion, highlighting of game text,
//! hints from history, multi-line definitions, history kept in the user's data directory, and
//! Ctrl-C that cancels a computation or clears the line.

use std::borrow::Cow;
use std::cell::RefCell;
use std::path::PathBuf;

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Editor, Helper};
use takeaway_core::{CancelToken, Progress};

use super::{keywords, verbs, Session, Vocabulary, COMMANDS};

pub use super::PROMPT;

struct ReplHelper {
    /// What completion offers, refreshed after every input.
    vocabulary: RefCell<Vocabulary>,
    hinter: HistoryHinter,
    color: bool,
}

impl Helper for ReplHelper {}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map(|i| i + 1).unwrap_or(0);
        let word = &before[start..];
        let first_word = start == 0;
        let vocabulary = self.vocabulary.borrow();
        let leading = before.split_whitespace().next().unwrap_or("");
        let options: Vec<String> = if first_word {
            verbs().into_iter().chain(COMMANDS.iter().copied()).chain(keywords()).map(str::to_string).collect()
        } else if leading == ":use" {
            vocabulary.games.clone()
        } else if leading == "set" {
            vocabulary.params.clone()
        } else {
            keywords().into_iter().map(str::to_string).chain(vocabulary.params.iter().cloned()).collect()
        };
        let mut candidates: Vec<Pair> = options
            .into_iter()
            .filter(|o| o.starts_with(word) && o != word)
            // A completed word is followed by a space, ready for the next one.
            .map(|o| Pair { replacement: format!("{o} "), display: o })
            .collect();
        candidates.dedup_by(|a, b| a.replacement == b.replacement);
        Ok((start, candidates))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        self.hinter.hint(line, pos, ctx)
    }
}

// Every line is taken as it is entered: the session keeps a definition open across lines
// (with its own prompt), so that a wrong line can be left out without losing the others.
impl Validator for ReplHelper {
    fn validate(&self, _ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(ValidationResult::Valid(None))
    }
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.color {
            return Cow::Borrowed(line);
        }
        Cow::Owned(highlight_game_text(line))
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.color
    }
}

/// Colours game text: keywords bold, numbers yellow, comments dim, commands cyan.
pub fn highlight_game_text(line: &str) -> String {
    const BOLD: &str = "\x1b[1m";
    const YELLOW: &str = "\x1b[33m";
    const DIM: &str = "\x1b[2m";
    const CYAN: &str = "\x1b[36m";
    const RESET: &str = "\x1b[0m";
    let (words, verbs) = (takeaway_core::text::keywords(), verbs());
    let mut out = String::with_capacity(line.len() * 2);
    let mut rest = line;
    while !rest.is_empty() {
        if rest.starts_with('#') {
            let end = rest.find('\n').unwrap_or(rest.len());
            out.push_str(&format!("{DIM}{}{RESET}", &rest[..end]));
            rest = &rest[end..];
            continue;
        }
        let c = rest.chars().next().expect("rest is not empty");
        let token_len = if c.is_alphanumeric() || c == '_' || c == ':' {
            rest.find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == ':' || ch == 'è')).unwrap_or(rest.len())
        } else {
            c.len_utf8()
        };
        let token = &rest[..token_len];
        let word = token.trim_end_matches(':');
        if token.starts_with(':') || verbs.contains(&token) {
            out.push_str(&format!("{CYAN}{token}{RESET}"));
        } else if words.contains(&word) {
            out.push_str(&format!("{BOLD}{token}{RESET}"));
        } else if token.chars().all(|ch| ch.is_ascii_digit()) {
            out.push_str(&format!("{YELLOW}{token}{RESET}"));
        } else {
            out.push_str(token);
        }
        rest = &rest[token_len..];
    }
    out
}

/// Where history is kept: the user's data directory, never the working directory.
fn history_path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("takeaway").join("history.txt"))
}

/// Lines written between two looks at Ctrl-C.
const LINES_PER_CHUNK: usize = 40;

/// Writes an answer a few lines at a time, so that Ctrl-C stops a long one (a Ctrl-C that
/// stopped the computation before is forgotten first).
fn print_stoppable(text: &str, cancel: &CancelToken) {
    use std::io::Write;
    cancel.reset();
    let mut stdout = std::io::stdout().lock();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for chunk in lines.chunks(LINES_PER_CHUNK) {
        if cancel.is_cancelled() {
            let _ = writeln!(stdout, "… (output stopped by Ctrl-C)");
            break;
        }
        let _ = stdout.write_all(takeaway_core::render::printable(&chunk.concat()).as_bytes());
    }
    let _ = stdout.flush();
    cancel.reset();
}

pub fn run(mut session: Session) {
    // During a computation the terminal is in normal mode and Ctrl-C is a signal: cancel the
    // computation. At the prompt rustyline reads Ctrl-C as a key and clears the line.
    crate::interrupt::cancel_on_ctrl_c(&session.cancel);
    let helper = ReplHelper {
        vocabulary: RefCell::new(session.vocabulary()),
        hinter: HistoryHinter::new(),
        color: session.color,
    };
    let mut editor: Editor<ReplHelper, DefaultHistory> = match Editor::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cannot start the line editor: {e}");
            return;
        }
    };
    editor.set_helper(Some(helper));
    let history = history_path();
    if let Some(path) = &history {
        // A missing or unreadable history is not worth stopping for.
        let _ = editor.load_history(path);
    }
    println!(
        "takeaway {}: define a game, then ask about it. :help for help, Ctrl-D to quit.",
        env!("CARGO_PKG_VERSION")
    );
    loop {
        match editor.readline(session.prompt()) {
            Ok(input) => {
                if !input.trim().is_empty() {
                    let _ = editor.add_history_entry(input.as_str());
                }
                // The same progress bar as the command line, cleared before the answer.
                let bar = crate::progress_bar::ProgressBar::new();
                session.progress = bar
                    .clone()
                    .map(|b| Progress::to(b as std::sync::Arc<dyn takeaway_core::Reporter>))
                    .unwrap_or_default();
                let mut reply = session.feed(&input);
                if let Some(bar) = bar {
                    bar.clear();
                }
                print_stoppable(&reply.output, &session.cancel);
                eprint!("{}", reply.error);
                if let Some(p) = reply.play.take() {
                    let mut next_line = || editor.readline("your move> ").ok();
                    let mut stdout = std::io::stdout();
                    if let Err(e) = crate::play::play(&p, &mut next_line, &mut stdout) {
                        eprint!("{}", takeaway_core::render::diagnostic(&e, Some(&p.loaded.source), session.color));
                    }
                }
                if let Some(h) = editor.helper_mut() {
                    *h.vocabulary.borrow_mut() = session.vocabulary();
                }
                if reply.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("cannot read input: {e}");
                break;
            }
        }
    }
    if let Some(path) = &history {
        // rustyline writes the history into a private folder of its own (random name, mode
        // 700); the text is then written as every file is (`write_file`: a failed write keeps
        // the old history, a link is written through, nothing planted is followed).
        let saved = path.parent().map(std::fs::create_dir_all).unwrap_or(Ok(())).is_ok()
            && tempfile::tempdir()
                .ok()
                .and_then(|folder| {
                    let written = folder.path().join("history.txt");
                    editor.save_history(&written).ok()?;
                    std::fs::read(&written).ok()
                })
                .is_some_and(|text| takeaway_core::write_file(path, &text).is_ok());
        if !saved {
            eprintln!("note: could not save the history to {}", path.display());
        }
    }
}
