//! The one request schema: what each verb takes, with its defaults written once, here. Every
//! front end (the command line, the REPL, the web API, Python) turns what its user typed into
//! a JSON object of the arguments given and calls `Request::parse`; an argument left out, or
//! given as `null`, takes the default below, so the same question gets the same answer
//! everywhere.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::RequestError;
use crate::check::SettingValue;
use crate::defaults;
use crate::solve::Budget;
use crate::vocab::Side;

/// A position as the user wrote it: `"41 163 13"`, `[41, 163, 13]` or `10`; kept as the text
/// the game's own reading takes (a pile past 64 bits stays whole, for Schwenk's games).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct PositionText(pub String);

impl<'de> Deserialize<'de> for PositionText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Text(String),
            Pile(u64),
            Piles(Vec<u64>),
        }
        let written = Written::deserialize(d).map_err(|_| {
            serde::de::Error::custom(
                "a position is text such as \"41 163 13\", a list of pile sizes such as [41, 163, 13], or one pile such as 10",
            )
        })?;
        Ok(PositionText(match written {
            Written::Text(t) => t,
            Written::Pile(n) => n.to_string(),
            Written::Piles(p) => p.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
        }))
    }
}

impl From<&str> for PositionText {
    fn from(s: &str) -> Self {
        PositionText(s.to_string())
    }
}

/// A game's parameters given from outside its text (`--set k=5`, `settings: {"k": 5}`), by
/// name: a number, or a set of amounts.
pub type Settings = BTreeMap<String, SettingValue>;

/// The game a question is about, as text: what the web page and Python send, and what a
/// product's or `compare`'s other game may be.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameText {
    /// The game file's text.
    pub source: String,
    /// The name its diagnostics show (a file name); `game` when left out.
    #[serde(default)]
    pub name: Option<String>,
    /// Values for its parameters.
    #[serde(default)]
    pub settings: Settings,
}

/// `compare`'s other game: a name the front end's library finds (a game file, a session's
/// game, a bundled game), or a game's text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OtherGame {
    /// A game file's path, or a game's name.
    Named(String),
    /// A game's text.
    Text(GameText),
}

impl Default for OtherGame {
    fn default() -> Self {
        OtherGame::Named(String::new())
    }
}

/// `solve`: outcome, value and winning moves of a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolveArgs {
    /// The position, as its piles.
    pub position: PositionText,
    /// The previous move's size, for games whose rules read `last`.
    pub last: Option<u64>,
    /// Also how long best play lasts (a search of whole positions, within a smaller budget).
    pub remoteness: bool,
    /// A partizan position: also its value cooled by this temperature (`1/2`, `1`, `0.75`).
    pub cool: Option<String>,
}

impl Default for SolveArgs {
    fn default() -> Self {
        SolveArgs { position: PositionText::default(), last: None, remoteness: defaults::REMOTENESS, cool: None }
    }
}

/// `explain`: how the answer for a position follows, in the terms of the theory.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExplainArgs {
    /// The position, as its piles.
    pub position: PositionText,
    /// The previous move's size, for games whose rules read `last`.
    pub last: Option<u64>,
    /// For one pile: also the values of every smaller pile.
    pub all: bool,
}

/// `table`: every position up to a size, with outcome and value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TableArgs {
    /// The largest pile shown.
    pub upto: u64,
    /// A column of remoteness.
    pub remoteness: bool,
    /// For memory games: a grid of one pile after a previous move of each size.
    pub by_last: bool,
    /// How many values are looked at for a period (from pile 0).
    pub period_values: Option<u64>,
    /// For games on any number of piles: positions of this many piles.
    pub piles: Option<usize>,
}

impl Default for TableArgs {
    fn default() -> Self {
        TableArgs { upto: defaults::TABLE_UPTO, remoteness: false, by_last: false, period_values: None, piles: None }
    }
}

/// `plot`: the values as an SVG picture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlotArgs {
    /// The largest pile drawn.
    pub upto: u64,
    /// Positions of a partizan game whose thermographs are drawn, overlaid, instead of the
    /// table.
    pub thermograph: Vec<PositionText>,
}

impl Default for PlotArgs {
    fn default() -> Self {
        PlotArgs { upto: defaults::PLOT_UPTO, thermograph: Vec::new() }
    }
}

/// `quotient`: the misère quotient of a heap game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QuotientArgs {
    /// Heaps 0..=upto; without it, until the quotient's period is proven.
    pub upto: Option<u64>,
}

/// `period`: one pile's values until a theorem proves their period.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PeriodArgs {
    /// Compute at most the values of piles 0..upto.
    pub upto: u64,
    /// A file that keeps the values, to stop and resume a long run.
    pub checkpoint: Option<PathBuf>,
    /// Keep only a window of this many latest values (and a prefix), and find the period as
    /// the window's first repeat (Brent's cycle detection): for runs past what memory holds.
    /// `upto` is then the furthest pile this run goes to.
    pub window: Option<u64>,
}

impl Default for PeriodArgs {
    fn default() -> Self {
        PeriodArgs { upto: defaults::PERIOD_UPTO, checkpoint: None, window: None }
    }
}

/// `compare`: where two games' values first differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompareArgs {
    /// The other game.
    pub other: OtherGame,
    /// Piles 0..=upto.
    pub upto: u64,
    /// The other game is read at n + shift.
    pub shift: u64,
}

impl Default for CompareArgs {
    fn default() -> Self {
        CompareArgs { other: OtherGame::default(), upto: defaults::COMPARE_UPTO, shift: defaults::SHIFT }
    }
}

/// `play`, one step: from `position`, the player's move to `to`, or the computer's move
/// (`computer`), or a hint (`hint`); with none of them, where the game stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayArgs {
    /// The position before the step.
    pub position: PositionText,
    /// The previous move's size, for games whose rules read `last`.
    pub last: Option<u64>,
    /// The player's move: the position it leads to.
    pub to: Option<PositionText>,
    /// The computer moves from `position` (after the player's move, it answers it anyway).
    pub computer: bool,
    /// A hint for the player to move from `position`.
    pub hint: bool,
    /// In a partizan game, the side the player is.
    pub side: Side,
    /// The percentage of the computer's moves that are perfect (the rest are random).
    pub strength: u8,
    /// The seed of the computer's random moves.
    pub seed: u64,
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            position: PositionText::default(),
            last: None,
            to: None,
            computer: false,
            hint: false,
            side: Side::Left,
            strength: defaults::STRENGTH,
            seed: defaults::SEED,
        }
    }
}

/// One question about a loaded game: a verb and its arguments.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "verb", rename_all = "snake_case")]
pub enum Request {
    /// Is the game right? (Its errors come as a `Failure` from loading.)
    Check,
    /// Outcome, value and winning moves of a position.
    Solve(SolveArgs),
    /// How the answer for a position follows.
    Explain(ExplainArgs),
    /// Every position up to a size.
    Table(TableArgs),
    /// The values to draw.
    Plot(PlotArgs),
    /// The misère quotient.
    Quotient(QuotientArgs),
    /// One pile's values until a theorem proves their period.
    Period(PeriodArgs),
    /// Where this game and another first differ.
    Compare(CompareArgs),
    /// One step of a game against the computer.
    Play(PlayArgs),
}

/// Every verb, as the command line, the REPL, the web API and Python spell it.
pub const VERBS: &[&str] = &["check", "solve", "explain", "table", "plot", "quotient", "period", "compare", "play"];

/// The budget's arguments, beside a verb's in the same object: what a question may spend.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BudgetArgs {
    /// Seconds the question may take: past it, it stops; an estimate past it is refused at
    /// once. Without it, the engine's default (`Budget::DEFAULT_SECONDS`) bounds the
    /// estimate, and the work is counted instead of timed.
    pub timeout: Option<f64>,
    /// The most positions a search may keep.
    pub max_states: Option<usize>,
    /// The memory a search may keep, in MB (instead of `max_states`).
    pub memory: Option<u64>,
    /// Threads the take-and-break kernel shares a pile's work with.
    pub threads: Option<u16>,
    /// Keep every pile's value in memory (a long run keeps a window otherwise).
    pub keep_table: bool,
    /// The most moves the question may examine: its work, counted, not timed (the same
    /// question stops at the same place on every machine). Without it, as many as its time
    /// allows.
    pub max_moves: Option<u64>,
}

/// The names of the budget's arguments.
pub const BUDGET_ARGUMENTS: &[&str] = &["timeout", "max_states", "memory", "threads", "keep_table", "max_moves"];

impl Request {
    /// The verb that asks this.
    pub fn verb(&self) -> &'static str {
        match self {
            Request::Check => "check",
            Request::Solve(_) => "solve",
            Request::Explain(_) => "explain",
            Request::Table(_) => "table",
            Request::Plot(_) => "plot",
            Request::Quotient(_) => "quotient",
            Request::Period(_) => "period",
            Request::Compare(_) => "compare",
            Request::Play(_) => "play",
        }
    }

    /// The request `verb` makes with `args`, the arguments given (a JSON object; `null` is the
    /// same as left out, and what is left out takes its default).
    pub fn parse(verb: &str, args: Map<String, Value>) -> Result<Request, RequestError> {
        // A position may be wrong (the game's reading says how), but it must be given.
        let positioned = matches!(verb, "solve" | "explain" | "play");
        let position_given = args.get("position").is_some_and(|v| !v.is_null());
        let request = match verb {
            "check" => {
                parse_args::<Empty>(verb, args)?;
                Request::Check
            }
            "solve" => Request::Solve(parse_args(verb, args)?),
            "explain" => Request::Explain(parse_args(verb, args)?),
            "table" => Request::Table(parse_args(verb, args)?),
            "plot" => Request::Plot(parse_args(verb, args)?),
            "quotient" => Request::Quotient(parse_args(verb, args)?),
            "period" => Request::Period(parse_args(verb, args)?),
            "compare" => Request::Compare(parse_args(verb, args)?),
            "play" => Request::Play(parse_args(verb, args)?),
            _ => {
                return Err(RequestError::UnknownVerb {
                    verb: verb.to_string(),
                    help: nearest(verb, VERBS)
                        .map(|v| format!("did you mean `{v}`? The questions are {}", VERBS.join(", ")))
                        .unwrap_or_else(|| format!("the questions are {}", VERBS.join(", "))),
                })
            }
        };
        if positioned && !position_given {
            return Err(RequestError::MissingPosition { verb: request.verb() });
        }
        request.validate()?;
        Ok(request)
    }

    /// A verb's arguments and the budget's, given side by side in one object (as the web API
    /// and Python take them): split, and each parsed.
    pub fn parse_with_budget(verb: &str, mut args: Map<String, Value>) -> Result<(Request, BudgetArgs), RequestError> {
        let mut budget = Map::new();
        for name in BUDGET_ARGUMENTS {
            if let Some(v) = args.remove(*name) {
                budget.insert(name.to_string(), v);
            }
        }
        let request = Request::parse(verb, args)?;
        let budget = parse_args::<BudgetArgs>("the budget", budget)?;
        Ok((request, budget))
    }

    /// The names of the arguments `verb` takes (its own, not the budget's).
    pub fn arguments(verb: &str) -> Vec<String> {
        match verb {
            "solve" => names::<SolveArgs>(),
            "explain" => names::<ExplainArgs>(),
            "table" => names::<TableArgs>(),
            "plot" => names::<PlotArgs>(),
            "quotient" => names::<QuotientArgs>(),
            "period" => names::<PeriodArgs>(),
            "compare" => names::<CompareArgs>(),
            "play" => names::<PlayArgs>(),
            _ => Vec::new(),
        }
    }

    /// What no type says: a position is given, and numbers are within their ranges.
    fn validate(&self) -> Result<(), RequestError> {
        let invalid =
            |argument: &'static str, reason: String| RequestError::Invalid { verb: self.verb(), argument, reason };
        match self {
            Request::Period(PeriodArgs { window: Some(w), .. })
                if !(defaults::LEAST_WINDOW..=defaults::MOST_WINDOW).contains(w) =>
            {
                Err(invalid(
                    "window",
                    format!("{w} is not between {} and 2^20 = {}", defaults::LEAST_WINDOW, defaults::MOST_WINDOW),
                ))
            }
            Request::Period(PeriodArgs { upto, window: Some(_), .. })
                if *upto == 0 || *upto > defaults::MOST_WINDOW_UPTO =>
            {
                Err(invalid("upto", format!("{upto} is not between 1 and 2^60 = {}", defaults::MOST_WINDOW_UPTO)))
            }
            Request::Period(PeriodArgs { upto, window: None, .. })
                if *upto == 0 || *upto > defaults::MOST_PERIOD_UPTO =>
            {
                Err(invalid("upto", format!("{upto} is not between 1 and 2^34 = {}", defaults::MOST_PERIOD_UPTO)))
            }
            Request::Solve(SolveArgs { cool: Some(t), .. })
                if crate::solve::partizan::Dyadic::parse(t).is_none_or(|t| t < crate::solve::partizan::Dyadic::ZERO) =>
            {
                Err(invalid(
                    "cool",
                    format!("`{t}` is not a temperature to cool by: give a number ≥ 0 whose denominator is a power of two (1, 1/2, 3/4, 0.25)"),
                ))
            }
            Request::Play(PlayArgs { strength, .. }) if *strength > 100 => {
                Err(invalid("strength", format!("{strength} is not a percentage: give 0 to 100")))
            }
            Request::Compare(CompareArgs { other: OtherGame::Named(name), .. }) if name.trim().is_empty() => {
                Err(invalid("other", "compare needs the other game: a game file, a game's name, or its text".into()))
            }
            _ => Ok(()),
        }
    }
}

/// `check` takes no arguments.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

/// The names of the arguments of `T`, from its fields as serde writes them.
fn names<T: Default + Serialize>() -> Vec<String> {
    match serde_json::to_value(T::default()) {
        Ok(Value::Object(map)) => map.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// One verb's arguments from a JSON object: `null` is left out, and serde's message becomes a
/// diagnostic that lists what the verb takes (the fields of `T`, whatever the verb: a sweep's
/// too, though a sweep is asked of a family, not of a game).
pub(crate) fn parse_args<T: DeserializeOwned + Default + Serialize>(
    verb: &str,
    args: Map<String, Value>,
) -> Result<T, RequestError> {
    let given: Map<String, Value> = args.into_iter().filter(|(_, v)| !v.is_null()).collect();
    serde_json::from_value(Value::Object(given.clone())).map_err(|e| {
        let known = names::<T>();
        let unknown = given.keys().find(|k| !known.contains(k) && !BUDGET_ARGUMENTS.contains(&k.as_str()));
        let help = match (unknown, known.is_empty()) {
            (Some(k), false) => match nearest(k, &known.iter().map(String::as_str).collect::<Vec<_>>()) {
                Some(close) => format!("did you mean `{close}`? `{verb}` takes {}", known.join(", ")),
                None => format!("`{verb}` takes {}", known.join(", ")),
            },
            (_, true) => format!("`{verb}` takes no arguments"),
            (None, false) => format!("`{verb}` takes {}", known.join(", ")),
        };
        RequestError::Arguments { verb: verb.to_string(), reason: e.to_string(), help }
    })
}

/// The closest of `known` to `word`, when one is close enough to be a slip.
fn nearest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(word, k), *k))
        .filter(|(d, k)| *d <= 2 && *d < k.len())
        .min()
        .map(|(_, k)| k)
}

impl<'de> Deserialize<'de> for SettingValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Number(i64),
            Set(Vec<i64>),
        }
        match Written::deserialize(d) {
            Ok(Written::Number(n)) => Ok(SettingValue::Number(n)),
            Ok(Written::Set(members)) => Ok(SettingValue::set(members)),
            Err(_) => Err(serde::de::Error::custom(
                "a parameter's value is a whole number (such as 5) or a list of whole numbers (such as [1, 2, 5])",
            )),
        }
    }
}

impl Serialize for SettingValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SettingValue::Number(n) => n.serialize(s),
            SettingValue::Set(members) => members.serialize(s),
        }
    }
}

impl Budget {
    /// The budget a request's arguments ask for, checked: a timeout is a number of seconds,
    /// 0 or more; at least one position and one thread.
    pub fn from_args(args: &BudgetArgs) -> Result<Budget, RequestError> {
        let invalid =
            |argument: &'static str, reason: String| RequestError::Invalid { verb: "the budget", argument, reason };
        let mut budget = Budget::new();
        if let Some(t) = args.timeout {
            if !t.is_finite() || t < 0.0 {
                return Err(invalid("timeout", format!("{t} is not a number of seconds: give 0 or more, such as 2.5")));
            }
        }
        if args.max_states.is_some() && args.memory.is_some() {
            return Err(invalid(
                "memory",
                "give either max_states (positions) or memory (MB), not both: each sets the other".into(),
            ));
        }
        match (args.max_states, args.memory) {
            (Some(0), _) => return Err(invalid("max_states", "a search needs room for at least 1 position".into())),
            (_, Some(0)) => return Err(invalid("memory", "a search needs at least 1 MB".into())),
            (Some(n), _) => budget = budget.max_states(n),
            (_, Some(mb)) => budget = budget.memory(mb),
            _ => {}
        }
        match args.threads {
            Some(0) => return Err(invalid("threads", "at least 1 thread computes anything".into())),
            Some(n) if n > 64 => return Err(invalid("threads", format!("{n} threads is more than 64"))),
            Some(n) => budget = budget.threads(usize::from(n)),
            None => {}
        }
        let budget = budget.keep_table(args.keep_table).timeout(args.timeout);
        match args.max_moves {
            Some(0) => Err(invalid("max_moves", "a question examines at least 1 move".into())),
            Some(moves) => Ok(budget.max_moves(moves)),
            None => Ok(budget),
        }
    }
}
