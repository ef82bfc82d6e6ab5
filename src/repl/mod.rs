//! The REPL core: the session's games, its commands, and the evaluation of what a user types.
//! No terminal here: `terminal` is the rustyline front end, and `run_script` runs a session
//! from any reader, so whole sessions can be scripted and tested.
//!
//! What a line can be:
//! - game text: `game "Name"` starts a definition, which goes on over several lines until it
//!   has a board and a move; other statements (`move: …`, `param …`) change the current game;
//! - a query verb, with the command line's words: `solve 10`, `table 40`, `check`;
//! - `set k = 5`, changing a parameter of the current game;
//! - a session command: `:load FILE`, `:games`, `:use NAME`, `:show`, `:rules`, `:replace N RULE`,
//!   `:drop N`, `:save FILE`, `:help`, `:quit`.

mod edit;
mod help;
mod script;
pub mod terminal;

pub use help::help;
pub use script::run_script;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::Parser;
use miette::Diagnostic;
use thiserror::Error;

use takeaway_core::render;
use takeaway_core::text::{outline, Outline};
use takeaway_core::Board;
use takeaway_core::{
    ask, load_game, parse_setting, read_game, Answer, Budget, Failure, Games, Library, Loaded, Lookup, Request,
};
use takeaway_core::{render::diagnostic as render, Source};
use takeaway_core::{CancelToken, Progress};

use crate::play::PlayRequest;
use crate::verbs::{printed, CurrentGame, Format, Verb};

/// What evaluating one input gave: text for stdout, a rendered diagnostic for stderr.
#[derive(Debug, Default, Clone)]
pub struct Reply {
    pub output: String,
    pub error: String,
    pub quit: bool,
    /// A game against the computer for the front end to run with its own input.
    pub play: Option<PlayRequest>,
}

impl Reply {
    fn ok(output: impl Into<String>) -> Self {
        Reply { output: output.into(), ..Default::default() }
    }

    fn err(error: impl Into<String>) -> Self {
        Reply { error: error.into(), ..Default::default() }
    }

    pub fn is_error(&self) -> bool {
        !self.error.is_empty()
    }
}

#[derive(Debug, Error, Diagnostic)]
enum ReplError {
    #[error("unknown command `:{name}`")]
    #[diagnostic(code(takeaway::repl::unknown_command), help("{help}"))]
    UnknownCommand {
        #[label("not a session command")]
        span: (usize, usize),
        name: String,
        help: String,
    },

    #[error("no game is defined yet")]
    #[diagnostic(
        code(takeaway::repl::no_game),
        help("define one (game \"TAG\", then pile, then move: take 1..3) or load one: :load games/nim.game")
    )]
    NoGame,

    #[error("no game named `{name}`")]
    #[diagnostic(code(takeaway::repl::unknown_game), help("{help}"))]
    UnknownGame {
        #[label("not defined in this session")]
        span: (usize, usize),
        name: String,
        help: String,
    },

    #[error("{message}")]
    #[diagnostic(code(takeaway::repl::bad_set), help("write it as: set k = 5"))]
    BadSet {
        #[label("here")]
        span: (usize, usize),
        message: String,
    },

    #[error("{message}")]
    #[diagnostic(code(takeaway::repl::usage), help("{help}"))]
    Usage {
        #[label("in this command")]
        span: (usize, usize),
        message: String,
        help: String,
    },

    #[error("`{command}` needs {what}")]
    #[diagnostic(code(takeaway::repl::missing_argument), help("for example: {example}"))]
    MissingArgument { command: &'static str, what: &'static str, example: &'static str },
}

/// One game of the session: its text as typed, its `set` values, and the checked game.
struct Entry {
    text: String,
    /// The text with its `move:` lines blanked, for adding moves without checking every rule
    /// again (`text::extend`); `None` where it does not apply.
    header: Option<String>,
    settings: Vec<(String, takeaway_core::SettingValue)>,
    loaded: Loaded,
    /// where it came from: "defined here" or a file name
    origin: String,
}

impl Entry {
    fn name(&self) -> &str {
        &self.loaded.game.name
    }
}

/// Words the front end offers for completion.
#[derive(Debug, Default, Clone)]
pub struct Vocabulary {
    pub games: Vec<String>,
    pub params: Vec<String>,
}

/// The words that start a query: the verbs shared with the command line, and `set`.
pub fn verbs() -> Vec<&'static str> {
    takeaway_core::VERBS.iter().copied().chain(["set"]).collect()
}

pub const COMMANDS: &[&str] =
    &[":load", ":save", ":games", ":use", ":show", ":rules", ":drop", ":replace", ":cancel", ":help", ":quit"];

/// The words of game text, from the grammar itself, with the names a rule may read or call.
pub fn keywords() -> Vec<&'static str> {
    takeaway_core::text::words()
}

pub struct Session {
    games: Vec<Entry>,
    current: Option<usize>,
    color: bool,
    /// Cancels the question under way: the front end keeps a clone (for Ctrl-C).
    pub cancel: CancelToken,
    /// Where the progress of the session's questions goes.
    pub progress: Progress,
    /// The lines of a definition still open (no board or no move yet), fed one at a time.
    pending: String,
}

/// The prompt at the start of an input, and on the lines of a definition still open.
pub const PROMPT: &str = "takeaway> ";
pub const CONTINUATION_PROMPT: &str = "     ...> ";

/// The query verbs, parsed with the command line's words (`--format json`, `--last 4`, …).
#[derive(Parser, Debug)]
#[command(no_binary_name = true, disable_help_flag = true, disable_version_flag = true)]
struct QueryLine {
    #[command(subcommand)]
    verb: Verb<CurrentGame>,
}

enum Input<'a> {
    Empty,
    Command(&'a str),
    Query,
    Set(&'a str),
    GameText,
}

fn classify(input: &str) -> Input<'_> {
    let trimmed = input.trim();
    let first = trimmed.split_whitespace().next().unwrap_or("");
    if trimmed.is_empty() || trimmed.starts_with('#') && !trimmed.contains('\n') {
        Input::Empty
    } else if let Some(rest) = trimmed.strip_prefix(':') {
        Input::Command(rest)
    } else if first == "set" {
        Input::Set(trimmed["set".len()..].trim())
    } else if matches!(
        first,
        "solve" | "table" | "check" | "explain" | "quotient" | "period" | "compare" | "play" | "plot"
    ) {
        Input::Query
    } else if matches!(first, "help" | "quit" | "exit") {
        Input::Command(first)
    } else {
        Input::GameText
    }
}

/// Where a command (`solve …`, `:games`, …) starts inside game text: a command always ends an
/// open definition, so that a definition left unfinished cannot swallow what follows it.
fn command_line_at(buffer: &str) -> Option<usize> {
    let mut offset = 0;
    for (i, line) in buffer.split('\n').enumerate() {
        if i > 0 && !matches!(classify(line), Input::GameText | Input::Empty) {
            return Some(offset);
        }
        offset += line.len() + 1;
    }
    None
}

/// Joins a line that stops in the middle of a statement to the next one: statements are one
/// line each, so in the REPL pressing Enter there means "the statement goes on".
pub fn join_continued_lines(buffer: &str) -> String {
    let mut joined = String::new();
    // Where the statement being read starts: only it can be cut short (the ones before it
    // ended at a line end), so only it is parsed again, and a definition of many lines costs
    // time linear in them.
    let mut statement = 0;
    for (i, line) in buffer.split('\n').enumerate() {
        if i > 0 {
            let continues = matches!(outline(&joined[statement..]), Err(e) if e.is_incomplete());
            if continues {
                joined.push(' ');
            } else {
                joined.push('\n');
                statement = joined.len();
            }
        }
        joined.push_str(line);
    }
    joined
}

/// True when `buffer` is game text that more lines could complete: the parser says it stops
/// early, or it starts a definition (with `game`, or with no game yet) that has no board or
/// no move yet. Wrong text is complete: it fails at once.
pub fn needs_more(buffer: &str, has_current_game: bool) -> bool {
    if !matches!(classify(buffer), Input::GameText) || command_line_at(buffer).is_some() {
        return false;
    }
    match outline(&join_continued_lines(buffer)) {
        Err(e) => e.is_incomplete(),
        Ok(o) => {
            if !o.starts_a_game && has_current_game {
                return false;
            }
            // A product takes its board and moves from the games it names.
            !(o.has_board && o.has_move || o.is_product)
        }
    }
}

impl Session {
    pub fn new(color: bool) -> Self {
        Session {
            games: Vec::new(),
            current: None,
            color,
            cancel: CancelToken::new(),
            progress: Progress::default(),
            pending: String::new(),
        }
    }

    /// The prompt for the next line: a definition still open has its own.
    pub fn prompt(&self) -> &'static str {
        if self.pending.is_empty() {
            PROMPT
        } else {
            CONTINUATION_PROMPT
        }
    }

    /// The definition still open, if any.
    pub fn pending(&self) -> &str {
        &self.pending
    }

    /// Takes one line as typed. A line of game text that leaves a definition unfinished keeps
    /// it open; a wrong line is reported and left out, and the definition so far stays open,
    /// so that nothing typed before it is lost. An empty line ends an open definition (saying
    /// what it lacks), `:cancel` drops it, and a command ends it before running.
    pub fn feed(&mut self, input: &str) -> Reply {
        // Pasted text arrives as several lines at once: each is taken in turn (in a loop, so
        // that a paste of any length cannot exhaust the stack), until one quits or starts a game.
        let mut reply = Reply::default();
        for line in input.split('\n') {
            let one = self.feed_line(line.trim_end_matches('\r'));
            reply.output.push_str(&one.output);
            reply.error.push_str(&one.error);
            if one.quit || one.play.is_some() {
                return Reply { quit: one.quit, play: one.play, ..reply };
            }
        }
        reply
    }

    /// One line of `feed`.
    fn feed_line(&mut self, line: &str) -> Reply {
        if self.pending.is_empty() {
            if self.needs_more(line) {
                self.pending = line.to_string();
                return Reply::default();
            }
            return self.eval(line);
        }
        let trimmed = line.trim();
        if trimmed == ":cancel" {
            let lines = std::mem::take(&mut self.pending).lines().count();
            let s = if lines == 1 { "" } else { "s" };
            return Reply::ok(format!("dropped the open definition ({lines} line{s})\n"));
        }
        if trimmed == ":show" {
            return Reply::ok(format!(
                "{}\n# (a definition still open: go on, end it with an empty line, or drop it with :cancel)\n",
                self.pending.trim_end()
            ));
        }
        if trimmed.is_empty() {
            // Ended by the user: evaluating it defines it or says what it lacks.
            let text = std::mem::take(&mut self.pending);
            return self.eval(&text);
        }
        let starts_another = trimmed.starts_with("game ") || trimmed == "game";
        if starts_another || !matches!(classify(line), Input::GameText | Input::Empty) {
            // Another definition or a command: the open one, unfinished, is dropped, and said so.
            let text = std::mem::take(&mut self.pending);
            let first = Reply::err(format!("note: {}; it was dropped\n", unfinished(&text)));
            let rest = self.feed_line(line);
            return Reply {
                output: first.output + &rest.output,
                error: first.error + &rest.error,
                quit: rest.quit,
                play: rest.play,
            };
        }
        let candidate = format!("{}\n{line}", self.pending);
        if let Some(said) = self.said_already(line) {
            // Left out at once, and blamed: kept, it would be blamed on every later line.
            return Reply::err(format!(
                "{said}(that line was left out; the definition so far is kept: go on, :show it, end it with an empty line, or :cancel)\n"
            ));
        }
        if self.needs_more(&candidate) {
            self.pending = candidate;
            return Reply::default();
        }
        let reply = self.eval(&candidate);
        if reply.is_error() {
            // The line is left out; what was typed before it stays.
            let mut reply = reply;
            reply.error.push_str(
                "(that line was left out; the definition so far is kept: go on, :show it, end it with an empty line, or :cancel)\n",
            );
            return reply;
        }
        self.pending.clear();
        reply
    }

    /// A line of an open definition that says again what the definition has said: what the
    /// game is played on, or a parameter of the same name. The diagnostic points at the line.
    fn said_already(&self, line: &str) -> Option<String> {
        let new = outline(line).ok()?;
        let open = outline(&join_continued_lines(&self.pending)).ok()?;
        let message = if new.has_board && open.has_board {
            "what the game is played on is given already in this definition".to_string()
        } else if let Some(name) = new.params.iter().find(|n| open.params.contains(n)) {
            format!("the parameter `{name}` is given already in this definition")
        } else {
            return None;
        };
        let start = line.len() - line.trim_start().len();
        let e = ReplError::Usage {
            span: (start, line.trim().len()),
            message,
            help: "the first one stays; to give another, :cancel the definition and type it again".into(),
        };
        Some(self.render(&e, line))
    }

    pub fn needs_more(&self, buffer: &str) -> bool {
        needs_more(buffer, self.current.is_some())
    }

    pub fn vocabulary(&self) -> Vocabulary {
        Vocabulary {
            games: self.games.iter().map(|e| e.name().to_string()).collect(),
            params: self
                .current
                .map(|i| self.games[i].loaded.game.parameters().into_iter().map(|(name, _)| name).collect())
                .unwrap_or_default(),
        }
    }

    fn render(&self, d: &dyn Diagnostic, typed: &str) -> String {
        render(d, Some(&Source::new("input", typed)), self.color)
    }

    /// Evaluates one complete input (one command, or a whole game definition).
    pub fn eval(&mut self, input: &str) -> Reply {
        self.cancel.reset();
        // A `#` comment may end a command line as it may end a line of game text.
        if !matches!(classify(input), Input::GameText | Input::Empty) {
            let line = input.split('#').next().unwrap_or("");
            if line.len() < input.len() {
                return self.eval(line);
            }
        }
        if let (Input::GameText, Some(at)) = (classify(input), command_line_at(input)) {
            let first = self.eval(&input[..at]);
            let rest = self.eval(&input[at..]);
            return Reply {
                output: first.output + &rest.output,
                error: first.error + &rest.error,
                quit: first.quit || rest.quit,
                play: rest.play,
            };
        }
        match classify(input) {
            Input::Empty => Reply::default(),
            Input::Command(cmd) => self.command(cmd.trim(), input),
            Input::Query => self.query(input),
            Input::Set(rest) => self.set(rest, input),
            Input::GameText => self.game_text(input),
        }
    }

    fn current(&self) -> Result<&Entry, String> {
        match self.current {
            Some(i) => Ok(&self.games[i]),
            None => Err(render(&ReplError::NoGame, None, self.color)),
        }
    }

    fn query(&mut self, input: &str) -> Reply {
        let words = quoted_words(input);
        let line = match QueryLine::try_parse_from(&words) {
            Ok(l) => l,
            Err(e) => {
                // clap says what is wrong over a few lines, then the usage: all of it is shown,
                // the usage as the help.
                let rendered = e.render().to_string();
                let (mut what, mut usage, mut tips) = (Vec::new(), None, Vec::new());
                for l in rendered.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    if let Some(u) = l.strip_prefix("Usage:") {
                        usage = Some(u.trim().to_string());
                    } else if l.starts_with("For more information") {
                        continue;
                    } else if let Some(t) = l.strip_prefix("tip:") {
                        tips.push(t.trim().to_string());
                    } else if usage.is_none() {
                        what.push(l.trim_start_matches("error: ").to_string());
                    }
                }
                let message = what.join(" ");
                let verb = words.first().map(String::as_str).unwrap_or("");
                let mut help = match usage {
                    Some(u) => format!("usage: {u} (:help {verb} says more)"),
                    None => format!("see :help {verb}"),
                };
                for t in tips {
                    help.push_str(&format!("; {t}"));
                }
                let start = input.len() - input.trim_start().len();
                let e = ReplError::Usage { span: (start, input.trim().len()), message, help };
                return Reply::err(self.render(&e, input));
            }
        };
        let question = match line.verb.question() {
            Ok(q) => q,
            Err(e) => return self.failed(&Failure::one(e, None), line.verb.format(), false),
        };
        let entry = match self.current() {
            Ok(e) => e,
            Err(e) => return Reply::err(e),
        };
        let budget = match Budget::from_args(&question.budget) {
            Ok(b) => b.cancel(self.cancel.clone()).progress(self.progress.clone()),
            Err(e) => return self.failed(&Failure::one(e, None), question.format, false),
        };
        if question.conversation {
            let Request::Play(args) = &question.request else { return Reply::default() };
            return match PlayRequest::new(entry.loaded.clone(), args, &budget) {
                Ok(request) => Reply { play: Some(request), ..Default::default() },
                Err(f) => Reply::err(f.render(self.color)),
            };
        }
        let library = SessionLibrary { session: self };
        match ask(&entry.loaded, &question.request, &library, &budget) {
            Ok(answer) => match printed(&answer, question.format) {
                Ok(text) => match &question.output_file {
                    None => Reply::ok(text),
                    Some(path) => match takeaway_core::write_file(path, text.as_bytes()) {
                        Ok(()) => Reply::ok(format!("wrote {} ({} bytes of SVG)\n", path.display(), text.len())),
                        Err(e) => Reply::err(format!("cannot write {}: {e}\n", path.display())),
                    },
                },
                Err(e) => Reply::err(render(&e, None, self.color)),
            },
            Err(f) => self.failed(&f, question.format, self.cancel.is_cancelled()),
        }
    }

    /// A failed question: the diagnostics on stderr, and on stdout what was computed before it
    /// (after Ctrl-C, a short summary of a table's rows), or under `--format json` the failure
    /// as JSON, as every front end gives it to a program.
    fn failed(&self, f: &Failure, format: Format, cancelled: bool) -> Reply {
        let error = f.render(self.color);
        let output = match (format, f.partial.as_deref()) {
            (Format::Json, _) => render::pretty(&render::failure_json(f)),
            (_, Some(Answer::Table(partial))) if cancelled => cancelled_summary(partial),
            (format, Some(partial)) => printed(partial, format).unwrap_or_default(),
            (_, None) => String::new(),
        };
        Reply { output, error, ..Default::default() }
    }

    fn set(&mut self, rest: &str, input: &str) -> Reply {
        let at = input.find(rest).unwrap_or(0);
        let spec: String = rest.split_whitespace().collect::<Vec<_>>().join("");
        if spec.is_empty() {
            let e =
                ReplError::MissingArgument { command: "set", what: "a parameter and a value", example: "set k = 5" };
            return Reply::err(render(&e, None, self.color));
        }
        let (name, value) = match parse_setting(&spec) {
            Ok(s) => s,
            Err(message) => {
                let e = ReplError::BadSet { span: (at, rest.len()), message };
                return Reply::err(self.render(&e, input));
            }
        };
        let Some(i) = self.current else { return Reply::err(render(&ReplError::NoGame, None, self.color)) };
        let entry = &self.games[i];
        let mut settings = entry.settings.clone();
        settings.retain(|(n, _)| *n != name);
        settings.push((name.clone(), value.clone()));
        let name_of_game = entry.name().to_string();
        match load_game(
            Source::new(entry.loaded.source.name.clone(), entry.text.clone()),
            &name_of_game,
            &settings,
            &self.library(Some(i)),
            &Budget::new(),
        )
        .map_err(|f| f.render(self.color))
        {
            Ok(loaded) => {
                let entry = &mut self.games[i];
                entry.loaded = loaded;
                entry.settings = settings;
                Reply::ok(format!("{name} = {value} in {name_of_game}\n"))
            }
            Err(e) => Reply::err(e),
        }
    }

    fn game_text(&mut self, input: &str) -> Reply {
        let joined = join_continued_lines(input);
        let input = joined.as_str();
        let file = match outline(input) {
            Ok(f) => f,
            Err(e) => return Reply::err(self.render(&e, input)),
        };
        let starts = file.starts_a_game;
        if let (Some(i), false) = (self.current, starts) {
            if let Some(reply) = self.add_moves(i, input) {
                return reply;
            }
        }
        let (text, settings, replacing) = match self.current {
            Some(i) if !starts => {
                let entry = &self.games[i];
                (format!("{}\n{}", entry.text.trim_end(), input.trim()), entry.settings.clone(), Some(i))
            }
            _ => (input.trim().to_string(), Vec::new(), None),
        };
        let default_name = replacing.map(|i| self.games[i].name().to_string()).unwrap_or_else(|| "game".into());
        let source_name = format!("<{}>", file.name.as_deref().unwrap_or(&default_name));
        let library = self.library(replacing);
        let loaded =
            match load_game(Source::new(source_name, text.clone()), &default_name, &settings, &library, &Budget::new())
                .map_err(|f| f.render(self.color))
            {
                Ok(l) => l,
                Err(e) => return Reply::err(e),
            };
        let header = takeaway_core::text::without_moves(&text);
        let entry = Entry { text, header, settings, loaded, origin: "defined here".into() };
        let (index, replaced) = self.insert(entry, replacing);
        let verb = match (replacing.is_some(), replaced) {
            (true, _) => "changed",
            (false, true) => "replaced",
            (false, false) => "defined",
        };
        Reply::ok(format!("{verb} {}\n", self.games[index].describe()))
    }

    /// Moves added to the current game, checked on their own (linear in what is typed): `None`
    /// when that does not apply, and the whole text is loaded again.
    fn add_moves(&mut self, i: usize, input: &str) -> Option<Reply> {
        let entry = &self.games[i];
        let header = entry.header.as_deref()?;
        let library = self.library(Some(i));
        let (mut loaded, header) =
            takeaway_core::text::extend(&entry.loaded, header, input, entry.name(), &entry.settings, &library)?;
        // Named as a definition typed here, as loading the whole text again would name it.
        loaded.source.name = format!("<{}>", entry.name());
        let entry = &mut self.games[i];
        entry.text = loaded.source.text.clone();
        entry.loaded = loaded;
        entry.header = Some(header);
        Some(Reply::ok(format!("changed {}\n", self.games[i].describe())))
    }

    /// Where a product finds its games: the session's (but the one being redefined), then game
    /// files from the current directory.
    fn library(&self, except: Option<usize>) -> Games<'_> {
        let session =
            self.games.iter().enumerate().filter(|(i, _)| Some(*i) != except).map(|(_, e)| &e.loaded).collect();
        Games { dir: std::path::PathBuf::new(), session }
    }

    /// The index of the session's game called `name` (quotes allowed), or the diagnostic.
    fn find_game(&self, name: &str, input: &str) -> Result<usize, String> {
        let wanted = name.trim_matches('"');
        self.games.iter().position(|e| e.name() == wanted).ok_or_else(|| {
            let names: Vec<&str> = self.games.iter().map(|e| e.name()).collect();
            let at = input.find(name).unwrap_or(0);
            let e = ReplError::UnknownGame {
                span: (at, name.len()),
                name: wanted.to_string(),
                help: suggest(wanted, &names),
            };
            self.render(&e, input)
        })
    }

    /// Adds a game, replacing `replacing` or a game of the same name; it becomes current.
    /// Returns its index and whether it replaced another game of its name.
    fn insert(&mut self, entry: Entry, replacing: Option<usize>) -> (usize, bool) {
        let same_name = self.games.iter().position(|e| e.name() == entry.name());
        let index = replacing.or(same_name);
        let replaced = same_name.is_some() && replacing.is_none();
        let index = match index {
            Some(i) => {
                self.games[i] = entry;
                i
            }
            None => {
                self.games.push(entry);
                self.games.len() - 1
            }
        };
        self.current = Some(index);
        (index, replaced)
    }

    /// Loads a game file; it becomes the current game.
    pub fn load_file(&mut self, path: &Path) -> Reply {
        match read_game(path, &[], self.library(None).session, &Budget::new())
            .map_err(|f: Failure| f.render(self.color))
        {
            Ok(loaded) => {
                let entry = Entry {
                    text: loaded.source.text.clone(),
                    header: takeaway_core::text::without_moves(&loaded.source.text),
                    settings: Vec::new(),
                    origin: path.display().to_string(),
                    loaded,
                };
                let (index, replaced) = self.insert(entry, None);
                let note = if replaced { ", replacing the session's game of that name" } else { "" };
                Reply::ok(format!("loaded {}{note}\n", self.games[index].describe()))
            }
            Err(e) => Reply::err(e),
        }
    }

    /// `:save FILE [--force]`: the current game's text (with its `set` values written in) as a
    /// game file, so that an experiment becomes a file; an existing file only with --force.
    fn save(&self, arg: &str, input: &str) -> Reply {
        let mut words: Vec<&str> = arg.split_whitespace().collect();
        let force = words.contains(&"--force");
        words.retain(|w| *w != "--force");
        let [file] = words.as_slice() else {
            let e = ReplError::MissingArgument {
                command: ":save",
                what: "one file name",
                example: ":save games/my-variant.game",
            };
            return Reply::err(render(&e, None, self.color));
        };
        let entry = match self.current() {
            Ok(e) => e,
            Err(e) => return Reply::err(e),
        };
        let unquoted = file.trim_matches(|c| c == '"' || c == '\'');
        if unquoted.is_empty() || path_is_folder(unquoted) {
            let at = input.find(file).unwrap_or(0);
            let what = if unquoted.is_empty() { "an empty file name" } else { "a folder" };
            let e = ReplError::Usage {
                span: (at, file.len()),
                message: format!("`{file}` is {what}, not a file to save to"),
                help: "name a game file, as in :save games/my-variant.game".into(),
            };
            return Reply::err(self.render(&e, input));
        }
        let path = PathBuf::from(unquoted);
        if path.exists() && !force {
            let at = input.find(file).unwrap_or(0);
            let e = ReplError::Usage {
                span: (at, file.len()),
                message: format!("{file} exists already"),
                help: format!("choose another name, or overwrite it with :save {file} --force"),
            };
            return Reply::err(self.render(&e, input));
        }
        // Values given with `set` are written into their `param` lines.
        let mut text = String::new();
        for line in entry.text.trim_end().lines() {
            let name = line.trim_start().strip_prefix("param").and_then(|r| r.split('=').next()).map(str::trim);
            match entry.settings.iter().find(|(n, _)| Some(n.as_str()) == name) {
                Some((n, v)) => text.push_str(&format!("param {n} = {v}\n")),
                None => text.push_str(&format!("{line}\n")),
            }
        }
        // Through a temporary file renamed over the old one: a failed write keeps the old file.
        match takeaway_core::write_file(&path, text.as_bytes()) {
            Ok(()) => Reply::ok(format!("saved {} to {unquoted}\n", entry.describe())),
            Err(err) => {
                let at = input.find(file).unwrap_or(0);
                let e = ReplError::Usage {
                    span: (at, file.len()),
                    message: format!("cannot write {file}: {err}"),
                    help: "check that the folder exists and can be written to".into(),
                };
                Reply::err(self.render(&e, input))
            }
        }
    }

    fn command(&mut self, cmd: &str, input: &str) -> Reply {
        let (name, arg) = match cmd.split_once(char::is_whitespace) {
            Some((n, a)) => (n, a.trim()),
            None => (cmd, ""),
        };
        match name {
            "quit" | "q" | "exit" => Reply { quit: true, ..Default::default() },
            "help" | "h" => Reply::ok(help(arg)),
            "games" => {
                if self.games.is_empty() {
                    return Reply::ok("no games yet: define one, or :load a file\n");
                }
                let mut out = String::new();
                for (i, e) in self.games.iter().enumerate() {
                    let mark = if Some(i) == self.current { "*" } else { " " };
                    out.push_str(&format!("{mark} {} ({})\n", e.describe(), e.origin));
                }
                Reply::ok(out)
            }
            "use" => {
                if arg.is_empty() {
                    let e =
                        ReplError::MissingArgument { command: ":use", what: "a game's name", example: ":use Kayles" };
                    return Reply::err(render(&e, None, self.color));
                }
                match self.find_game(arg, input) {
                    Ok(i) => {
                        self.current = Some(i);
                        Reply::ok(format!("using {}\n", self.games[i].describe()))
                    }
                    Err(e) => Reply::err(e),
                }
            }
            "load" => {
                if arg.is_empty() {
                    let e = ReplError::MissingArgument {
                        command: ":load",
                        what: "a file",
                        example: ":load games/kayles.game",
                    };
                    return Reply::err(render(&e, None, self.color));
                }
                self.load_file(&PathBuf::from(arg))
            }
            "save" => self.save(arg, input),
            "rules" => self.list_rules(),
            "drop" => self.edit_rule(":drop", arg, input),
            "replace" => self.edit_rule(":replace", arg, input),
            "cancel" => Reply::ok("no definition is open\n"),
            "show" => match self.current() {
                Ok(e) => {
                    let mut out = format!("{}\n", e.text.trim_end());
                    for (n, v) in &e.settings {
                        out.push_str(&format!("# set {n} = {v}\n"));
                    }
                    Reply::ok(out)
                }
                Err(e) => Reply::err(e),
            },
            _ => {
                let at = input.find(name).unwrap_or(0);
                let e = ReplError::UnknownCommand {
                    span: (at.saturating_sub(1), name.len() + 1),
                    name: name.to_string(),
                    help: format!("the commands are {}", COMMANDS.join(" ")),
                };
                Reply::err(self.render(&e, input))
            }
        }
    }
}

/// Where `compare` finds its other game: one of the session's by name, else a game file, else
/// a bundled game by its name (`Kayles` finds games/kayles.game).
struct SessionLibrary<'s> {
    session: &'s Session,
}

impl Library for SessionLibrary<'_> {
    fn find(&self, name: &str) -> Lookup {
        let session = self.session;
        let wanted = name.trim_matches('"');
        if let Some(e) = session.games.iter().find(|e| e.name() == wanted) {
            let loaded = &e.loaded;
            return Lookup::Found {
                game: loaded.game.clone(),
                source_name: loaded.source.name.clone(),
                text: loaded.source.text.clone(),
            };
        }
        // "Dawson's Kayles" is games/dawsons-kayles.game.
        let file_name = wanted.to_lowercase().replace(['\'', '’'], "").replace([' ', '_'], "-");
        let bundled = |dir: &Path| dir.join(format!("{file_name}.game"));
        let candidates = [
            PathBuf::from(wanted),
            bundled(Path::new("games")),
            bundled(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games")),
        ];
        let Some(path) = candidates.iter().find(|p| p.is_file() || p.with_extension("game").is_file()) else {
            let names: Vec<&str> = session.games.iter().map(|e| e.name()).collect();
            return Lookup::Missing { help: suggest(wanted, &names) };
        };
        match read_game(path, &[], session.library(None).session, &Budget::new()) {
            Ok(loaded) => {
                Lookup::Found { game: loaded.game, source_name: loaded.source.name.clone(), text: loaded.source.text }
            }
            Err(f) => Lookup::Failed { rendered: f.render(false) },
        }
    }
}

fn path_is_folder(name: &str) -> bool {
    Path::new(name).is_dir()
}

/// What an open definition lacks, in words: `the definition of "X" has no move yet`.
fn unfinished(text: &str) -> String {
    let Ok(file) = outline(&join_continued_lines(text)) else {
        return "the open definition was unfinished".into();
    };
    let Outline { name, has_board, has_move, .. } = file;
    let name = name.map(|n| format!("the definition of \"{n}\"")).unwrap_or("the open definition".into());
    let lacks = match (has_board, has_move) {
        (false, false) => "no board and no move",
        (false, true) => "no board",
        _ => "no move",
    };
    format!("{name} had {lacks} yet")
}

impl Entry {
    /// `Kayles (any number of piles; k = 3; misère play)`
    fn describe(&self) -> String {
        let g = &self.loaded.game;
        let mut parts = vec![match g.board {
            Board::OnePile => "one pile".to_string(),
            Board::AnyPiles => "any number of piles".to_string(),
            Board::FixedPiles(k) => format!("{k} piles"),
            Board::Rows => "rows".to_string(),
            Board::Coins => "a row of coins".to_string(),
            Board::Cells { .. } => match g.product_of() {
                Some((kind, first, second)) => format!("the {kind} product of {first} and {second}"),
                None => "cells".to_string(),
            },
        }];
        for (name, value) in g.parameters() {
            parts.push(format!("{name} = {value}"));
        }
        if g.convention == takeaway_core::Convention::Misere {
            parts.push("misère play".into());
        }
        format!("{} ({})", g.name, parts.join("; "))
    }
}

fn suggest(word: &str, known: &[&str]) -> String {
    let close = known.iter().map(|k| (strsim::damerau_levenshtein(word, k), *k)).filter(|(d, _)| *d <= 3).min();
    match (close, known.is_empty()) {
        (Some((_, k)), _) => format!("did you mean `{k}`?"),
        (None, true) => "no games are defined yet".into(),
        (None, false) => format!("the games are {}", known.join(", ")),
    }
}

/// The rows a table stopped by Ctrl-C shows in the REPL: how many there are, the last few, and
/// how to get them all.
const SUMMARY_ROWS: usize = 5;

fn cancelled_summary(partial: &takeaway_core::answers::Table) -> String {
    let text = partial.to_text();
    let lines: Vec<&str> = text.lines().collect();
    let rows = (partial.upto + 1) as usize;
    let mut out = format!("stopped by Ctrl-C: {rows} rows computed, n = 0..{}", partial.upto);
    if partial.shape == takeaway_core::answers::TableShape::OnePile && lines.len() >= rows + 2 {
        out.push_str("; the last of them:\n");
        out.push_str(lines[1]);
        out.push('\n');
        for line in &lines[2 + rows.saturating_sub(SUMMARY_ROWS)..2 + rows] {
            out.push_str(line);
            out.push('\n');
        }
    } else {
        out.push('\n');
    }
    out.push_str(&format!(
        "every row: `table {}` (it takes as long again), or `table {} --format csv` for a spreadsheet\n",
        partial.upto, partial.upto
    ));
    out
}

/// The words of a command line; a word that starts with `"` runs to the word that ends with one,
/// so that a game's name may hold spaces (`compare "Dawson's Kayles"`). The quotes stay: the
/// name lookups take them off.
fn quoted_words(input: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut open = false;
    for word in input.split_whitespace() {
        match words.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
        let last = words.last().map(String::as_str).unwrap_or_default();
        open = last.starts_with('"') && !(last.len() > 1 && last.ends_with('"'));
    }
    words
}

/// `takeaway repl [FILE…]`: interactive on a terminal, a script otherwise. False when a file
/// or a scripted command failed (reported on stderr already).
pub fn main(files: &[PathBuf]) -> bool {
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let color = interactive && crate::terminal::stderr_wants_color();
    let mut session = Session::new(color);
    let mut all_ok = true;
    for f in files {
        let reply = session.load_file(f);
        all_ok &= !reply.is_error();
        print!("{}", reply.output);
        eprint!("{}", reply.error);
    }
    if interactive {
        terminal::run(session);
        return true;
    }
    let stdin = std::io::stdin();
    let ok = run_script(&mut session, stdin.lock(), &mut std::io::stdout(), &mut std::io::stderr());
    ok && all_ok
}
