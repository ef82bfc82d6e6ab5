//! The verbs as the command line and the REPL spell them: their words and flags, turned into
//! the engine's one request schema (`Request::parse`) with only what was typed, so that every
//! default is the engine's. The command line names a game file first (`takeaway table
//! games/kayles.game 40`); the REPL asks about its current game (`table 40`). Both are
//! `Verb<G>`, with `G` the way the game is named.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{json, Map, Value};
use takeaway_core::errors::RequestError;
use takeaway_core::render;
use takeaway_core::{defaults, parse_setting, Answer, BudgetArgs, Request, Setting};

use crate::play::PlayOptions;

/// The verbs, each with its arguments; `G` names the game asked about.
///
/// A verb builds its arguments only when it is the one asked for (`defer`): building every
/// verb's took a sixth of a short run. So the argument structs below carry plain comments, not
/// doc comments: clap would make a struct's doc comment the about of each verb flattening it.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub enum Verb<G: Args> {
    /// Check a game file: silent when it is right (a partizan game: which lines are whose), diagnostics when it is not
    Check {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Solve a position: outcome, Grundy value and every winning move
    Solve {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        position: PositionArgs,
        /// a partizan position: also its value cooled by temperature T (1, 1/2, 3/4)
        #[arg(long, value_name = "T", allow_negative_numbers = true)]
        cool: Option<String>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Show how the answer follows: mex of the options, nim-sum columns, Schwenk's sequence
    Explain {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        position: PositionArgs,
        /// one pile: also list the Grundy values of every smaller pile, G(0..n-1)
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Outcomes and Grundy values of one pile of 0..N (two-pile games: every pair up to N;
    /// three or more piles: every position up to N and its P-positions)
    Table {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        upto: Upto,
        /// add a column: how many moves the game lasts with best play
        #[arg(long)]
        remoteness: bool,
        /// memory games: add a grid of one pile of n after a previous move of each size
        #[arg(long)]
        by_last: bool,
        // The help's default is the engine's (`defaults`), as every number a help text gives.
        #[arg(long, value_name = "N", value_parser = count, help = format!(
            "how many values (piles 0..N-1) are looked at for a period, past the table if need be \
             [default: {}, within a small share of the limits]",
            defaults::PERIOD_VALUES
        ))]
        period_values: Option<u64>,
        /// games on any number of piles: every position of K piles, each up to N, and its
        /// P-positions (games on exactly 3 or more piles get this table without it)
        #[arg(long, value_name = "K", value_parser = count_usize)]
        piles: Option<usize>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Draw the Grundy values (or, for two piles, the P-positions) as an SVG picture
    Plot {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        upto: Upto,
        /// the SVG file to write; without it the picture goes to standard output
        #[arg(short = 'o', long = "output", value_name = "FILE.svg")]
        output_file: Option<PathBuf>,
        /// draw the thermograph of this position of a partizan game instead (repeat it to
        /// overlay several: --thermograph 8 --thermograph "6 4")
        #[arg(long, value_name = "POSITION")]
        thermograph: Vec<String>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The misère quotient of a heap game: generators, relations, P-portion and Φ(n)
    Quotient {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        upto: Upto,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// One pile's values until a theorem proves their period (octal and subtraction games): runs
    /// of millions of values, stopped and resumed with --checkpoint
    Period {
        #[command(flatten)]
        game: G,
        /// compute at most the values of piles 0..N-1 (also --upto N)
        #[arg(value_name = "N", value_parser = count)]
        upto: Option<u64>,
        #[arg(long = "upto", value_name = "N", conflicts_with = "upto", hide = true, value_parser = count)]
        upto_flag: Option<u64>,
        /// keep the values in FILE, written every 4,194,304 values and when the run stops (Ctrl-C,
        /// --timeout); given a FILE that exists, the run goes on from it
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<PathBuf>,
        /// keep only the latest W values (and the first ones) and find the period as the
        /// window's first repeat, for runs past what memory holds; N is then the furthest pile
        #[arg(long, value_name = "W", value_parser = count)]
        window: Option<u64>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The first pile size where two games differ, or "identical up to N"
    Compare {
        #[command(flatten)]
        game: G,
        /// the other game: a game file (in the REPL also a game of the session, or a bundled game's name)
        other: String,
        #[arg(long, value_name = "N", value_parser = count,
            help = format!("compare piles of 0..N [default: {}]", defaults::COMPARE_UPTO))]
        upto: Option<u64>,
        #[arg(long, value_name = "K", value_parser = count,
            help = format!("read the second game at n + K [default: {}]", defaults::SHIFT))]
        shift: Option<u64>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Play against the computer from a position (or, with --to, --computer, --hint or
    /// --format, answer one step of a game)
    Play {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        options: PlayOptions,
        /// one step: the player's move, given as the position it leads to (3,5,2)
        #[arg(long, value_name = "POSITION", conflicts_with_all = ["computer", "hint"])]
        to: Option<String>,
        /// one step: the computer moves from the position
        #[arg(long)]
        computer: bool,
        /// one step: a hint for the player to move from the position
        #[arg(long)]
        hint: bool,
        /// answer one step in this format instead of playing a whole game
        #[arg(long, value_enum)]
        format: Option<Format>,
        #[command(flatten)]
        limits: LimitArgs,
    },
}

// A game file, and values for its parameters: how the command line names a game.
#[derive(Args, Debug)]
pub struct GameFile {
    /// the game file
    pub file: PathBuf,
    /// give a parameter a value, as NAME=VALUE, or a set parameter its amounts, as "S={1,2,5}" (quoted, so that the shell keeps the braces; repeatable)
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_setting)]
    pub set: Vec<Setting>,
}

// The REPL's current game: nothing to write.
#[derive(Args, Debug)]
pub struct CurrentGame {}

// A position and the previous move's size.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// pile sizes, separated by spaces or commas (Chomp: row lengths, bottom row first)
    #[arg(required = true, num_args = 1.., allow_negative_numbers = true)]
    pub position: Vec<String>,
    /// the size of the previous move, for games whose rules read `last`
    #[arg(long, value_parser = count)]
    pub last: Option<u64>,
}

impl PositionArgs {
    pub fn text(&self) -> String {
        self.position.join(" ")
    }
}

// The largest pile size, written `40` or `--upto 40`; the engine's default for the verb when
// neither is given.
#[derive(Args, Debug)]
pub struct Upto {
    /// the largest pile size (also --upto N)
    #[arg(value_name = "N", value_parser = count)]
    upto: Option<u64>,
    #[arg(long = "upto", value_name = "N", conflicts_with = "upto", hide = true, value_parser = count)]
    upto_flag: Option<u64>,
}

impl Upto {
    /// The bound written, if one was.
    pub fn given(&self) -> Option<u64> {
        self.upto_flag.or(self.upto)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// Comma-separated values, one row per position: `table` only.
    Csv,
}

// How an answer is printed, and the limits it is computed within.
#[derive(Args, Debug)]
pub struct OutputArgs {
    /// output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub limits: LimitArgs,
}

// The budget of one question.
#[derive(Args, Debug)]
pub struct LimitArgs {
    #[arg(long, value_name = "N", value_parser = count_usize, help = format!(
        "the most positions a search may visit before it stops with an error [default: {}, about \
         {} MB in a search over whole positions]",
        defaults::MAX_STATES,
        (defaults::MAX_STATES / 7_500).next_multiple_of(10)
    ))]
    pub max_states: Option<usize>,
    /// the memory a search over whole positions may keep, in MB: sets --max-states to about
    /// 7,500 positions a MB
    #[arg(long, value_name = "MB", conflicts_with = "max_states", value_parser = count)]
    pub memory: Option<u64>,
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, help = format!(
        "stop with an error after this many seconds (without it, a question estimated to take \
         more than {} seconds is refused at once, saying how long it would take)",
        defaults::SECONDS
    ))]
    pub timeout: Option<f64>,
    /// keep every pile's Grundy value in memory; without it, solving a pile of 2^21 or more in a
    /// splitting game keeps only the first 2^18 piles' values and the latest 2^18 to 2^19 (all
    /// the sparse-space method reads)
    #[arg(long)]
    pub keep_table: bool,
    #[arg(long, value_name = "N", value_parser = count, help = format!(
        "the most moves the question may examine, counted rather than timed, so that it stops at \
         the same place on every machine [default: as many as {} seconds allow]",
        defaults::SECONDS
    ))]
    pub max_moves: Option<u64>,
    #[arg(long, value_name = "N", value_parser = count_u16, help = format!(
        "threads the take-and-break kernel shares a pile's work with (the answers never depend \
         on it) [default: the machine's cores, at most {}]",
        defaults::MOST_THREADS
    ))]
    pub threads: Option<u16>,
}

/// A count as the core reads one typed: `1000000`, `1e6`, `10^6`, `1,000,000`.
pub(crate) fn count(s: &str) -> Result<u64, String> {
    takeaway_core::parse_count(s)
}

/// A count that must fit the machine's word (positions, piles, workers).
pub(crate) fn count_usize(s: &str) -> Result<usize, String> {
    usize::try_from(count(s)?)
        .map_err(|_| format!("`{s}` is past the largest count this machine holds, {}", usize::MAX))
}

/// A small count (threads).
pub(crate) fn count_u16(s: &str) -> Result<u16, String> {
    u16::try_from(count(s)?).map_err(|_| format!("`{s}` is past the largest count here, {}", u16::MAX))
}

/// A timeout: a finite number of seconds, 0 or more (0 stops at the first look at the clock).
fn parse_seconds(s: &str) -> Result<f64, String> {
    let seconds: f64 = s.trim().parse().map_err(|_| format!("`{s}` is not a number of seconds (write it as 2.5)"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("`{s}` is not a time: give a number of seconds, 0 or more, such as 2.5"));
    }
    Ok(seconds)
}

impl LimitArgs {
    /// The budget's arguments as typed.
    pub fn budget(&self) -> BudgetArgs {
        BudgetArgs {
            timeout: self.timeout,
            max_states: self.max_states,
            memory: self.memory,
            threads: self.threads,
            keep_table: self.keep_table,
            max_moves: self.max_moves,
        }
    }
}

/// What a verb asks, ready for `api::ask`: the request, its budget, and how its answer is
/// printed.
pub struct Question {
    pub request: Request,
    pub budget: BudgetArgs,
    pub format: Format,
    /// `plot -o FILE`: where the picture goes.
    pub output_file: Option<PathBuf>,
    /// `play` with no step asked for: a whole game in the terminal.
    pub conversation: bool,
}

/// The arguments given, as the request schema takes them: what was not typed is left out, so
/// that it takes the engine's default.
fn given(pairs: Vec<(&str, Option<Value>)>) -> Map<String, Value> {
    pairs.into_iter().filter_map(|(k, v)| v.map(|v| (k.to_string(), v))).collect()
}

/// A flag given: `true`, or left out.
fn flag(on: bool) -> Option<Value> {
    on.then_some(Value::Bool(true))
}

impl<G: Args> Verb<G> {
    /// The way the game is named.
    pub fn game(&self) -> &G {
        match self {
            Verb::Check { game, .. }
            | Verb::Solve { game, .. }
            | Verb::Explain { game, .. }
            | Verb::Table { game, .. }
            | Verb::Plot { game, .. }
            | Verb::Quotient { game, .. }
            | Verb::Period { game, .. }
            | Verb::Compare { game, .. }
            | Verb::Play { game, .. } => game,
        }
    }

    /// The format its answer (or its failure) is printed in.
    pub fn format(&self) -> Format {
        match self {
            Verb::Check { output, .. }
            | Verb::Solve { output, .. }
            | Verb::Explain { output, .. }
            | Verb::Table { output, .. }
            | Verb::Plot { output, .. }
            | Verb::Quotient { output, .. }
            | Verb::Period { output, .. }
            | Verb::Compare { output, .. } => output.format,
            Verb::Play { format, .. } => format.unwrap_or(Format::Text),
        }
    }

    /// The typed question this verb asks, through the engine's request schema.
    pub fn question(&self) -> Result<Question, RequestError> {
        let (verb, args, output, format, output_file, conversation) = match self {
            Verb::Check { output, .. } => ("check", Map::new(), output.limits.budget(), output.format, None, false),
            Verb::Solve { position, cool, output, .. } => {
                let args = given(vec![
                    ("position", Some(json!(position.text()))),
                    ("last", position.last.map(Into::into)),
                    ("cool", cool.as_ref().map(|t| json!(t))),
                ]);
                ("solve", args, output.limits.budget(), output.format, None, false)
            }
            Verb::Explain { position, all, output, .. } => {
                let args = given(vec![
                    ("position", Some(json!(position.text()))),
                    ("last", position.last.map(Into::into)),
                    ("all", flag(*all)),
                ]);
                ("explain", args, output.limits.budget(), output.format, None, false)
            }
            Verb::Table { upto, remoteness, by_last, period_values, piles, output, .. } => {
                let args = given(vec![
                    ("upto", upto.given().map(Into::into)),
                    ("remoteness", flag(*remoteness)),
                    ("by_last", flag(*by_last)),
                    ("period_values", period_values.map(Into::into)),
                    ("piles", piles.map(Into::into)),
                ]);
                ("table", args, output.limits.budget(), output.format, None, false)
            }
            Verb::Plot { upto, output_file, thermograph, output, .. } => {
                let positions = (!thermograph.is_empty()).then(|| json!(thermograph));
                let args = given(vec![("upto", upto.given().map(Into::into)), ("thermograph", positions)]);
                ("plot", args, output.limits.budget(), output.format, output_file.clone(), false)
            }
            Verb::Quotient { upto, output, .. } => {
                let args = given(vec![("upto", upto.given().map(Into::into))]);
                ("quotient", args, output.limits.budget(), output.format, None, false)
            }
            Verb::Period { upto, upto_flag, checkpoint, window, output, .. } => {
                let args = given(vec![
                    ("upto", upto_flag.or(*upto).map(Into::into)),
                    ("checkpoint", checkpoint.as_ref().map(|p| json!(p))),
                    ("window", window.map(Into::into)),
                ]);
                ("period", args, output.limits.budget(), output.format, None, false)
            }
            Verb::Compare { other, upto, shift, output, .. } => {
                let args = given(vec![
                    ("other", Some(json!(other))),
                    ("upto", upto.map(Into::into)),
                    ("shift", shift.map(Into::into)),
                ]);
                ("compare", args, output.limits.budget(), output.format, None, false)
            }
            Verb::Play { position, options, to, computer, hint, format, limits, .. } => {
                let conversation = to.is_none() && !computer && !hint && format.is_none();
                let mut args = given(vec![
                    ("position", Some(json!(position.text()))),
                    ("last", position.last.map(Into::into)),
                    ("to", to.as_ref().map(|t| json!(t))),
                    ("computer", flag(*computer)),
                    ("hint", flag(*hint)),
                ]);
                args.extend(options.arguments());
                ("play", args, limits.budget(), format.unwrap_or(Format::Text), None, conversation)
            }
        };
        Ok(Question { request: Request::parse(verb, args)?, budget: output, format, output_file, conversation })
    }
}

/// An answer printed in the format asked for.
pub fn printed(answer: &Answer, format: Format) -> Result<String, RequestError> {
    match format {
        Format::Text => Ok(render::text(answer)),
        Format::Json => Ok(render::json_text(answer)),
        Format::Csv => render::csv(answer),
    }
}

/// How the command line spells an argument the engine's messages name: `--max-states 10000`,
/// `--set k=5`, and a value the shell would split or expand in quotes (`--set "S={1,2,5}"`).
pub fn command_line_wording(argument: takeaway_core::wording::Argument, value: Option<&str>) -> String {
    use takeaway_core::wording::Argument;
    let flag = match argument {
        Argument::Set => "--set".to_string(),
        other => format!("--{}", other.name().replace('_', "-")),
    };
    match value {
        Some(v) if v.chars().any(|c| " {}()[]*?;|&<>$'\"".contains(c)) => format!("{flag} \"{v}\""),
        Some(v) => format!("{flag} {v}"),
        None => flag,
    }
}
