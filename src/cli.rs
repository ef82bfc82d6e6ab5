//! The command line: `check`, `solve`, `table` and `repl`, their output as text or JSON, and
//! exit codes (0 success, 1 when the game, the position or the solving fails, 2 for usage
//! errors). With no command it opens the REPL.

use std::ffi::OsString;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use miette::Diagnostic;
use thiserror::Error;

use crate::diagnostics::{render, stderr_wants_color, Source};
use crate::progress_bar::ProgressBar;
use crate::play::PlayOptions;
use crate::query::{self, parse_setting, read_game, Format, Loaded};
use crate::solve::{Limits, Table, DEFAULT_MAX_STATES};

#[derive(Parser, Debug)]
#[command(
    name = "takeaway",
    version,
    about = "A language and solver for combinatorial take-away games",
    after_help = "Examples:\n  takeaway check games/fibonacci-nim.game\n  takeaway solve games/nim.game 41 163 13\n  takeaway table games/kayles.game --upto 100\n  takeaway period games/octal-0.16.game\n  takeaway explain games/nim.game 25 28 10"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check a game file: silent when it is right (a partizan game: which lines are whose), diagnostics when it is not
    Check {
        /// the game file
        file: PathBuf,
        #[command(flatten)]
        params: ParamArgs,
    },
    /// Solve a position: outcome, Grundy value and every winning move
    Solve(PositionQuery),
    /// Show how the answer follows: mex of the options, nim-sum columns, Schwenk's sequence
    Explain {
        #[command(flatten)]
        query: PositionQuery,
        /// one pile: also list the Grundy values of every smaller pile, G(0..n-1)
        #[arg(long)]
        all: bool,
    },
    /// The first pile size where two games differ, or "identical up to N"
    Compare {
        /// the first game file
        a: PathBuf,
        /// the second game file
        b: PathBuf,
        /// compare piles of 0..N
        #[arg(long, default_value_t = 100)]
        upto: u64,
        /// read the second game at n + K
        #[arg(long, default_value_t = 0, value_name = "K")]
        shift: u64,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Play against the computer from a position
    Play {
        #[command(flatten)]
        query: PositionQuery,
        #[command(flatten)]
        options: PlayOptions,
    },
    /// Draw the Grundy values (or, for two piles, the P-positions) as an SVG picture
    Plot {
        /// the game file
        file: PathBuf,
        /// the largest pile size shown
        #[arg(long, default_value_t = 60)]
        upto: u64,
        /// the SVG file to write; without it the picture goes to standard output
        #[arg(short = 'o', long = "output", value_name = "FILE.svg")]
        output_file: Option<PathBuf>,
        #[command(flatten)]
        params: ParamArgs,
        /// the most positions a search may visit before it stops with an error
        #[arg(long, default_value_t = DEFAULT_MAX_STATES)]
        max_states: usize,
    },
    /// Define games and ask about them interactively (also what `takeaway` alone does)
    Repl {
        /// game files to load first; the last one becomes the current game
        files: Vec<PathBuf>,
    },
    /// The misère quotient of a heap game: generators, relations, P-portion and Φ(n)
    Quotient {
        /// the game file
        file: PathBuf,
        /// compute the quotient of heaps up to N
        #[arg(long, default_value_t = 300)]
        upto: u64,
        #[command(flatten)]
        params: ParamArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// One pile's values until a theorem proves their period (octal and subtraction games): runs
    /// of millions of values, stopped and resumed with --checkpoint
    Period {
        /// the game file
        file: PathBuf,
        /// compute at most the values of piles 0..N-1
        #[arg(long, default_value_t = crate::analysis::period_search::DEFAULT_UPTO, value_parser = clap::value_parser!(u64).range(1..=1u64 << 34))]
        upto: u64,
        /// keep the values in FILE, written every 4,194,304 values and when the run stops (Ctrl-C,
        /// --timeout); given a FILE that exists, the run goes on from it
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<PathBuf>,
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
        /// add a column: how many moves the game lasts with best play
        #[arg(long)]
        remoteness: bool,
        /// memory games: add a grid of one pile of n after a previous move of each size
        #[arg(long)]
        by_last: bool,
        /// how many values (piles 0..N-1) are looked at for a period, past the table if need be
        /// [default: 512, within a small share of the limits]
        #[arg(long, value_name = "N")]
        period_values: Option<u64>,
        #[command(flatten)]
        params: ParamArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
}


/// What `solve` and `explain` take: a game file and a position of it.
#[derive(clap::Args, Debug)]
struct PositionQuery {
    /// the game file
    file: PathBuf,
    /// pile sizes, separated by spaces or commas (Chomp: row lengths, bottom row first)
    #[arg(required = true, num_args = 1.., allow_negative_numbers = true)]
    position: Vec<String>,
    /// the size of the previous move, for games whose rules read `last`
    #[arg(long)]
    last: Option<u64>,
    #[command(flatten)]
    params: ParamArgs,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(clap::Args, Debug)]
struct ParamArgs {
    /// give a parameter a value, as NAME=VALUE, or a set parameter its amounts, as S={1,2,5} (repeatable)
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_setting)]
    set: Vec<(String, crate::check::SettingValue)>,
}

#[derive(clap::Args, Debug)]
struct OutputArgs {
    /// output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// the most positions a search may visit before it stops with an error (the default keeps
    /// about 670 MB in a search over whole positions)
    #[arg(long, default_value_t = DEFAULT_MAX_STATES)]
    max_states: usize,
    /// the memory a search over whole positions may keep, in MB: sets --max-states to about
    /// 7,500 positions a MB
    #[arg(long, value_name = "MB", conflicts_with = "max_states")]
    memory: Option<u64>,
    /// stop with an error after this many seconds
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// keep every pile's Grundy value in memory; without it, solving a pile of 2^21 or more in a
    /// splitting game keeps only the first 2^18 piles' values and the latest 2^18 to 2^19 (all
    /// the sparse-space method reads)
    #[arg(long)]
    keep_table: bool,
    /// threads the take-and-break kernel shares a pile's work with (the answers never depend on
    /// it) [default: the machine's cores, at most 2]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: Option<u16>,
}

impl OutputArgs {
    fn limits(&self) -> Limits {
        let table = if self.keep_table { Table::Whole } else { Table::DEFAULT };
        let max_states = self.memory.map(crate::solve::reach::positions_in_memory).unwrap_or(self.max_states);
        let base = Limits::states(max_states).with_timeout(self.timeout);
        Limits { table, threads: self.threads.map_or(base.threads, usize::from), ..base }
    }
}


#[derive(Debug, Error, Diagnostic)]
enum CliError {
    #[error("cannot write {path}: {reason}")]
    #[diagnostic(code(takeaway::cli::write), help("check that the folder exists and can be written"))]
    Write { path: String, reason: String },
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
    let color = stderr_wants_color();
    let result = match cli.command {
        None => crate::repl::main(&[]).then_some(()).ok_or(Failed),
        Some(Command::Repl { files }) => crate::repl::main(&files).then_some(()).ok_or(Failed),
        Some(command) => {
            // Ctrl-C ends a long computation with a diagnostic (and a table with the rows it
            // has), rather than killing the process mid-line.
            let _ = ctrlc::set_handler(crate::solve::request_cancel);
            // A game against the computer prints its own prompts: no bar over them.
            if !matches!(command, Command::Play { .. }) {
                ProgressBar::install();
            }
            let result = run(command, color);
            ProgressBar::clear();
            result
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed) => ExitCode::from(1),
    }
}

/// The failure has been reported on stderr already.
pub(crate) struct Failed;

fn print(text: &str) {
    ProgressBar::clear();
    // A closed pipe (`takeaway table … | head`) is not an error worth reporting.
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush());
}

fn fail(rendered: String) -> Failed {
    ProgressBar::clear();
    eprint!("{rendered}");
    Failed
}

fn run(command: Command, color: bool) -> Result<(), Failed> {
    match command {
        Command::Check { file, params } => {
            let loaded = read_game(&file, &params.set, color).map_err(fail)?;
            print(&query::partizan_note(&loaded));
        }
        Command::Solve(q) => print(&position_query(q, color, query::solve)?),
        Command::Explain { query: q, all } => {
            let loaded = read_game(&q.file, &q.params.set, color).map_err(fail)?;
            let limits = q.output.limits();
            let text = &q.position.join(" ");
            print(&query::explain(&loaded, text, q.last, q.output.format, limits, color, all).map_err(fail)?)
        }
        Command::Play { query: q, options } => {
            let loaded = read_game(&q.file, &q.params.set, color).map_err(fail)?;
            let text = q.position.join(" ");
            let mut start = crate::rules::parse_position(&loaded.game, &text)
                .map_err(|e| fail(render(&e, Some(&Source::new("position", text.clone())), color)))?;
            start.last = q.last;
            let (first, strength) = (options.first(), options.strength());
            let limits = q.output.limits();
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
            let request = crate::play::PlayRequest { loaded, start, first, side: options.side(), strength, limits };
            crate::play::play(&request, &mut *next_line, &mut std::io::stdout())
                .map_err(|e| fail(render(&e, Some(&request.loaded.source), color)))?;
        }
        Command::Plot { file, upto, output_file, params, max_states } => {
            let loaded = read_game(&file, &params.set, color).map_err(fail)?;
            let svg = query::plot(&loaded, upto, Limits::states(max_states), color).map_err(fail)?;
            match output_file {
                None => print(&svg),
                Some(path) => {
                    std::fs::write(&path, &svg).map_err(|e| {
                        fail(render(
                            &CliError::Write { path: path.display().to_string(), reason: e.kind().to_string() },
                            None,
                            color,
                        ))
                    })?;
                    // Say what was written, as the REPL does: a silent success looks like nothing.
                    print(&format!("wrote {} ({} bytes of SVG)\n", path.display(), svg.len()));
                }
            }
        }
        Command::Compare { a, b, upto, shift, output } => {
            let a = read_game(&a, &[], color).map_err(fail)?;
            let b = read_game(&b, &[], color).map_err(fail)?;
            let limits = output.limits();
            print(&query::compare(&a, &b, upto, shift, output.format, limits, color).map_err(fail)?);
        }
        Command::Table { file, upto, remoteness, by_last, period_values, params, output } => {
            let loaded = read_game(&file, &params.set, color).map_err(fail)?;
            let options = crate::analysis::TableOptions { remoteness, by_last, period_values };
            match query::table(&loaded, upto, options, output.format, output.limits(), color) {
                Ok(text) => print(&text),
                Err(f) => {
                    print(&f.partial);
                    return Err(fail(f.rendered));
                }
            }
        }
        Command::Period { file, upto, checkpoint, params, output } => {
            let loaded = read_game(&file, &params.set, color).map_err(fail)?;
            let question = crate::analysis::period_search::PeriodQuestion { upto, checkpoint };
            print(&query::period(&loaded, &question, output.format, output.limits(), color).map_err(fail)?);
        }
        Command::Quotient { file, upto, params, output } => {
            let loaded = read_game(&file, &params.set, color).map_err(fail)?;
            print(&query::quotient(&loaded, upto, output.format, output.limits(), color).map_err(fail)?);
        }
        Command::Repl { .. } => unreachable!("handled by main"),
    }
    Ok(())
}

type PositionVerb = fn(&Loaded, &str, Option<u64>, Format, Limits, bool) -> Result<String, String>;

/// Runs `solve` or `explain` on the position of a game file.
fn position_query(q: PositionQuery, color: bool, verb: PositionVerb) -> Result<String, Failed> {
    let loaded = read_game(&q.file, &q.params.set, color).map_err(fail)?;
    let limits = q.output.limits();
    verb(&loaded, &q.position.join(" "), q.last, q.output.format, limits, color).map_err(fail)
}


