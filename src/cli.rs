//! The command line: `check`, `solve` and `table`, their output as text or JSON, and exit codes
//! (0 success, 1 when the game, the position or the solving fails, 2 for usage errors).

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use miette::Diagnostic;
use thiserror::Error;

use crate::diagnostics::{render, stderr_wants_color, Source};
use crate::rules::{parse_position, Game};
use crate::solve::{Limits, Solver, DEFAULT_MAX_STATES};

#[derive(Parser, Debug)]
#[command(
    name = "takeaway",
    version,
    about = "A language and solver for combinatorial take-away games",
    after_help = "Examples:\n  takeaway check games/fibonacci-nim.game\n  takeaway solve games/nim.game 41 163 13\n  takeaway table games/kayles.game --upto 100"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check a game file: silent when it is right, diagnostics when it is not
    Check {
        /// the game file
        file: PathBuf,
        #[command(flatten)]
        params: ParamArgs,
    },
    /// Solve a position: outcome, Grundy value and every winning move
    Solve {
        /// the game file
        file: PathBuf,
        /// pile sizes, separated by spaces or commas (Chomp: row lengths, bottom row first)
        #[arg(required = true, num_args = 1..)]
        position: Vec<String>,
        /// the size of the previous move, for games whose rules read `last`
        #[arg(long)]
        last: Option<u64>,
        #[command(flatten)]
        params: ParamArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Outcomes and Grundy values of one pile of 0..N (two-pile games: every pair up to N)
    Table {
        /// the game file
        file: PathBuf,
        /// the largest pile size in the table
        #[arg(long, default_value_t = 30)]
        upto: u64,
        #[command(flatten)]
        params: ParamArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
}

#[derive(clap::Args, Debug)]
struct ParamArgs {
    /// give a parameter a value, as NAME=VALUE (repeatable)
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_setting)]
    set: Vec<(String, i64)>,
}

#[derive(clap::Args, Debug)]
struct OutputArgs {
    /// output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// the most positions a search may visit before it stops with an error
    #[arg(long, default_value_t = DEFAULT_MAX_STATES)]
    max_states: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

fn parse_setting(s: &str) -> Result<(String, i64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE; write it as k=5"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{name}` is not a parameter name"));
    }
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("`{}` is not a whole number (parameters are integers)", value.trim()))?;
    Ok((name.to_string(), value))
}

#[derive(Debug, Error, Diagnostic)]
enum CliError {
    #[error("cannot read {path}: {reason}")]
    #[diagnostic(code(takeaway::cli::read), help("check the file name; game files end in .game"))]
    Read { path: String, reason: String },

    #[error("{path} is not UTF-8 text")]
    #[diagnostic(code(takeaway::cli::not_utf8), help("save the game file as UTF-8 text"))]
    NotUtf8 { path: String },

    #[error("--last was given, but the rules of {game} never read `last`")]
    #[diagnostic(code(takeaway::cli::last_unused), help("leave out --last for this game"))]
    LastUnused { game: String },
}

/// Runs the command line and returns the process's exit code.
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    let mut out = Output { color: stderr_wants_color() };
    match run(cli.command, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed) => ExitCode::from(1),
    }
}

/// The failure has been reported on stderr already.
struct Failed;

struct Output {
    color: bool,
}

impl Output {
    fn error(&mut self, d: &dyn Diagnostic, source: Option<&Source>) -> Failed {
        eprint!("{}", render(d, source, self.color));
        Failed
    }

    fn print(&mut self, text: &str) {
        // A closed pipe (`takeaway table … | head`) is not an error worth reporting.
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
    }

    fn json(&mut self, value: &serde_json::Value) {
        let text = serde_json::to_string_pretty(value).expect("JSON values always serialise");
        self.print(&format!("{text}\n"));
    }
}

fn run(command: Command, out: &mut Output) -> Result<(), Failed> {
    match command {
        Command::Check { file, params } => {
            load_game(&file, &params.set, out)?;
            Ok(())
        }
        Command::Solve { file, position, last, params, output } => {
            let (game, source) = load_game(&file, &params.set, out)?;
            let text = position.join(" ");
            let pos_source = Source::new("position", text.clone());
            let mut pos = parse_position(&game, &text).map_err(|e| out.error(&e, Some(&pos_source)))?;
            if let Some(l) = last {
                if !game.uses_last {
                    return Err(out.error(&CliError::LastUnused { game: game.name.clone() }, None));
                }
                pos.last = Some(l);
            }
            let mut solver = Solver::new(&game, Limits { max_states: output.max_states });
            let report = crate::analysis::solve(&mut solver, &pos).map_err(|e| out.error(&e, Some(&source)))?;
            match output.format {
                Format::Text => out.print(&report.to_text()),
                Format::Json => out.json(&serde_json::to_value(&report).expect("reports serialise")),
            }
            Ok(())
        }
        Command::Table { file, upto, params, output } => {
            let (game, source) = load_game(&file, &params.set, out)?;
            let mut solver = Solver::new(&game, Limits { max_states: output.max_states });
            let table = crate::analysis::table(&mut solver, upto).map_err(|e| out.error(&e, Some(&source)))?;
            match output.format {
                Format::Text => out.print(&table.to_text()),
                Format::Json => out.json(&table.to_json()),
            }
            Ok(())
        }
    }
}

/// Reads, parses and checks a game file, reporting every problem.
fn load_game(path: &Path, settings: &[(String, i64)], out: &mut Output) -> Result<(Game, Source), Failed> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| out.error(&CliError::Read { path: shown.clone(), reason: e.kind().to_string() }, None))?;
    let text = String::from_utf8(bytes).map_err(|_| out.error(&CliError::NotUtf8 { path: shown.clone() }, None))?;
    let source = Source::new(shown, text);
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "game".into());
    match crate::load(&source.text, &stem, settings) {
        Ok(game) => Ok((game, source)),
        Err(err) => {
            for d in err.diagnostics() {
                out.error(d, Some(&source));
            }
            Err(Failed)
        }
    }
}
