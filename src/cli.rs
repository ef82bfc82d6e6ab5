//! The command line: the verbs of `verbs` on a game file, their output as text, JSON or
//! CSV, and exit codes (0 success, 1 when the game, the position or the solving fails, 2 for
//! usage errors). With no command it opens the REPL.

use std::ffi::OsString;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use miette::Diagnostic;
use thiserror::Error;

use takeaway_core::render::diagnostic as render;
use takeaway_core::CancelToken;
use takeaway_core::{ask, read_game, Budget, Failure, Games, Request};

use crate::play::PlayRequest;
use crate::progress_bar::ProgressBar;
use crate::terminal::{stderr_wants_color, Failed};
use crate::verbs::{printed, Format, GameFile, Verb};

#[derive(Parser, Debug)]
#[command(
    name = "takeaway",
    version,
    about = "A language and solver for combinatorial take-away games",
    after_help = "Examples:\n  takeaway check games/fibonacci-nim.game\n  takeaway solve games/nim.game 41 163 13\n  takeaway table games/kayles.game --upto 100\n  takeaway period games/octal-0.16.game\n  takeaway sweep --octal 2 --upto 4096\n  takeaway explain games/nim.game 25 28 10\n  takeaway table games/subtraction-set.game --set \"S={1,2,5}\""
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Deferred like `Verb`'s (`serve` builds its arguments only when asked for).
#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Command {
    #[command(flatten)]
    Verb(Verb<GameFile>),
    /// Define games and ask about them interactively (also what `takeaway` alone does)
    Repl {
        /// game files to load first; the last one becomes the current game
        files: Vec<PathBuf>,
    },
    /// Serve the classroom web page and its JSON API
    Serve(crate::serve::ServeArgs),
    /// Sweep a family of games (every octal code of up to D digits, codes, game files, a
    /// parameter's values): one row a game, on this machine's cores or a Dask cluster
    Sweep(crate::sweep::SweepCli),
    /// Lay out game files the one canonical way (comments kept); --check only says which are not
    Fmt(crate::fmt::FmtArgs),
    /// The language server an editor starts: diagnostics, hover, completion and formatting of
    /// game files over stdio (see the manual's chapter on editors)
    Lsp,
}

#[derive(Debug, Error, Diagnostic)]
enum CliError {
    #[error("the shell split `{name}={{{values}}}` into `{split}` (bash expands braces)")]
    #[diagnostic(
        code(takeaway::cli::split_set),
        help("quote the set so that the shell keeps it whole: --set \"{name}={{{values}}}\"")
    )]
    SplitSet { name: String, values: String, split: String },

    #[error("cannot write {path}: {reason}")]
    #[diagnostic(code(takeaway::cli::write), help("check that the folder exists and can be written"))]
    Write { path: String, reason: String },
}

/// Runs the command line and returns the process's exit code.
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().collect();
    // The engine's messages name the arguments to give as this medium spells them; the
    // server's answers go to the web API, which spells them as the request schema does.
    if args.get(1).is_none_or(|a| a != "serve") {
        takeaway_core::wording::set_wording(crate::verbs::command_line_wording);
    }
    if let Some(split) = split_set(&args) {
        eprint!("{}", render(&split, None, stderr_wants_color()));
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    let color = stderr_wants_color();
    let result = match cli.command {
        None => crate::repl::main(&[]).then_some(()).ok_or(Failed),
        Some(Command::Repl { files }) => crate::repl::main(&files).then_some(()).ok_or(Failed),
        Some(Command::Serve(args)) => crate::serve::main(args, color),
        Some(Command::Sweep(args)) => {
            let cancel = CancelToken::new();
            crate::interrupt::cancel_on_ctrl_c(&cancel);
            crate::sweep::main(args, cancel, color)
        }
        Some(Command::Fmt(args)) => crate::fmt::main(args, color),
        Some(Command::Lsp) => takeaway_lsp::serve_stdio().map_err(|e| {
            eprintln!("takeaway lsp: {}", takeaway_core::render::printable(&e));
            Failed
        }),
        Some(Command::Verb(verb)) => {
            // Ctrl-C ends a long computation with a diagnostic (and a table with the rows it
            // has), rather than killing the process mid-line.
            let cancel = CancelToken::new();
            crate::interrupt::cancel_on_ctrl_c(&cancel);
            // A game against the computer prints its own prompts: no bar over them.
            let bar = (!matches!(verb, Verb::Play { .. })).then(ProgressBar::new).flatten();
            let result = run(verb, color, cancel, bar.clone());
            if let Some(bar) = bar {
                bar.clear();
            }
            result
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed) => ExitCode::from(1),
    }
}

/// `--set S={1,2,5}` unquoted reaches us from bash as `--set S=1 S=2 S=5`: the same name given
/// again as loose words. Said as what happened and how to write it.
fn split_set(args: &[OsString]) -> Option<CliError> {
    let words: Vec<String> = args.iter().map(|a| a.to_string_lossy().to_string()).collect();
    let at = words.iter().position(|w| w == "--set")?;
    let (name, first) = words.get(at + 1)?.split_once('=')?;
    let rest: Vec<&str> =
        words[at + 2..].iter().map_while(|w| w.strip_prefix(name).and_then(|r| r.strip_prefix('='))).collect();
    if rest.is_empty() {
        return None;
    }
    let values: Vec<&str> = std::iter::once(first).chain(rest.iter().copied()).collect();
    let split = values.iter().map(|v| format!("{name}={v}")).collect::<Vec<_>>().join(" ");
    Some(CliError::SplitSet { name: name.to_string(), values: values.join(","), split })
}

fn print(text: &str, bar: &Option<Arc<ProgressBar>>) {
    if let Some(bar) = bar {
        bar.clear();
    }
    // A closed pipe (`takeaway table … | head`) is not an error worth reporting.
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(takeaway_core::render::printable(text).as_bytes()).and_then(|_| stdout.flush());
}

fn fail(rendered: String, bar: &Option<Arc<ProgressBar>>) -> Failed {
    if let Some(bar) = bar {
        bar.clear();
    }
    eprint!("{rendered}");
    Failed
}

fn run(verb: Verb<GameFile>, color: bool, cancel: CancelToken, bar: Option<Arc<ProgressBar>>) -> Result<(), Failed> {
    // The question is read, and its budget set, before the game: reading and checking the game
    // is part of the question, under its deadline and its Ctrl-C.
    let format = verb.format();
    let asked = verb.question().map_err(|e| Failure::one(e, None));
    let failed = |f: Failure| {
        if let Some(bar) = &bar {
            bar.clear();
        }
        report_failure(&f, format, color);
        Failed
    };
    let question = asked.map_err(failed)?;
    let mut budget = Budget::from_args(&question.budget).map_err(|e| failed(Failure::one(e, None)))?.cancel(cancel);
    if let Some(bar) = &bar {
        budget = budget.progress(takeaway_core::Progress::to(bar.clone()));
    }
    let GameFile { file, set } = verb.game();
    let loaded = read_game(file, set, Vec::new(), &budget).map_err(failed)?;
    if question.conversation {
        let Request::Play(args) = &question.request else { return Ok(()) };
        let request = PlayRequest::new(loaded, args, &budget).map_err(failed)?;
        return play(request, color);
    }
    // `compare`'s other game is a file, by its path from here.
    let library = Games { dir: PathBuf::new(), session: Vec::new() };
    // A table in CSV or JSON is written as its rows are made (in memory that does not grow
    // with them, where the engine allows): the same bytes as the table made whole.
    let streamed = match question.format {
        Format::Csv => Some(takeaway_core::TableFormat::Csv),
        Format::Json => Some(takeaway_core::TableFormat::Json),
        Format::Text => None,
    };
    if let (Request::Table(args), Some(format), None) = (&question.request, streamed, &question.output_file) {
        let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        if let Some(bar) = &bar {
            bar.clear();
        }
        let written = takeaway_core::write_table(&loaded, args, &budget, format, &mut stdout);
        return match written {
            // A closed pipe (`takeaway table … | head`) is not an error worth reporting.
            Ok(written) => {
                let _ = written.and_then(|()| stdout.flush());
                Ok(())
            }
            Err(failure) => {
                let _ = stdout.flush();
                drop(stdout);
                Err(failed(failure))
            }
        };
    }
    let answer = ask(&loaded, &question.request, &library, &budget).map_err(failed)?;
    if question.format == Format::Csv && question.output_file.is_none() {
        // Streamed: a table of a million rows is written as its rows are made.
        if let Some(bar) = &bar {
            bar.clear();
        }
        let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let written =
            takeaway_core::render::write_csv(&answer, &mut stdout).map_err(|e| failed(Failure::one(e, None)))?;
        // A closed pipe (`takeaway table … | head`) is not an error worth reporting.
        let _ = written.and_then(|()| stdout.flush());
        return Ok(());
    }
    let text = printed(&answer, question.format).map_err(|e| failed(Failure::one(e, None)))?;
    match &question.output_file {
        None => print(&text, &bar),
        Some(path) => {
            takeaway_core::write_file(path, text.as_bytes()).map_err(|e| {
                let reason = if e.kind() == std::io::ErrorKind::IsADirectory {
                    "it is a folder".to_string()
                } else {
                    e.to_string()
                };
                fail(render(&CliError::Write { path: path.display().to_string(), reason }, None, color), &bar)
            })?;
            // Say what was written, as the REPL does: a silent success looks like nothing.
            print(&format!("wrote {} ({} bytes of SVG)\n", path.display(), text.len()), &bar);
        }
    }
    Ok(())
}

/// A failure as the format asked for says it: the diagnostics on stderr, and what was
/// computed before it on stdout; under `--format json`, the failure as JSON on stdout too, as
/// every front end gives it to a program.
fn report_failure(failure: &Failure, format: Format, color: bool) {
    let mut stdout = std::io::stdout().lock();
    let shown = match (format, failure.partial.as_deref()) {
        (Format::Json, _) => Some(takeaway_core::render::pretty(&takeaway_core::render::failure_json(failure))),
        (format, Some(partial)) => printed(partial, format).ok(),
        _ => None,
    };
    if let Some(text) = shown {
        let _ = stdout.write_all(takeaway_core::render::printable(&text).as_bytes()).and_then(|_| stdout.flush());
    }
    eprint!("{}", failure.render(color));
}

/// A game against the computer, in this terminal.
fn play(request: PlayRequest, color: bool) -> Result<(), Failed> {
    // On a terminal the moves are read with line editing and history, as in the REPL.
    let editor = std::io::stdin().is_terminal().then(rustyline::DefaultEditor::new).and_then(Result::ok);
    let mut next_line: Box<dyn FnMut() -> Option<String>> = match editor {
        Some(mut editor) => Box::new(move || {
            let line = editor.readline("your move> ").ok()?;
            let _ = editor.add_history_entry(line.as_str());
            Some(line)
        }),
        None => {
            let mut lines = std::io::stdin().lock().lines();
            Box::new(move || lines.next().and_then(|l| l.ok()))
        }
    };
    crate::play::play(&request, &mut *next_line, &mut std::io::stdout())
        .map_err(|e| fail(render(&e, Some(&request.loaded.source), color), &None))
}
