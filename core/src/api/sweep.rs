//! `sweep`: one question over a family of games (every octal code of up to k digits, codes
//! named one by one, game texts, or one game with a parameter over its values), each game
//! answered on its own budget, on this machine's cores by rayon's pool; a distributed engine
//! (Dask, from the Python package) asks `sweep_game` for one game at a time instead.

use crate::wording::{give_value, Argument};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::request::{parse_args, GameText, Settings};
use super::{load_text, Budget, BudgetArgs, Failure, RequestError};
use crate::analysis::sweep::{self, SweepRow};
use crate::check::NoLibrary;
use crate::defaults;
use crate::progress::Progress;

pub use crate::analysis::sweep::rows::{RowsError, RowsFile, RowsFormat};
pub use crate::analysis::sweep::{checksum_of, mark_same_values, RowStatus};

/// `sweep`: a family of games, how far to take each, and where the rows go.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SweepArgs {
    /// Every octal code with 1 up to this many digits after the point (the last one not 0).
    pub octal: Option<u8>,
    /// With `octal`: only the codes of at least this many digits (4 with `octal` 4: the
    /// four-digit codes alone).
    pub at_least: Option<u8>,
    /// The digits before the point of the octal family: 0 and 4 (1–3 give the same games as
    /// 0, and 5–7 as 4: a move that takes nothing may only split).
    pub leading: Vec<u8>,
    /// Octal codes named one by one (`0.16`, `4.337`; `.161` is 0.161).
    pub codes: Vec<String>,
    /// Games given as text, each with its settings.
    pub games: Vec<GameText>,
    /// A game with a parameter, played once for each of `each`.
    pub game: Option<GameText>,
    /// The settings of `game`, one game each: `k=5`, `S={1,2,5}`, or a range `k=1..20`.
    pub each: Vec<String>,
    /// Values computed for each game, at most (piles 0 up to one less), unless a period is
    /// proven first.
    pub upto: u64,
    /// The rows file (`.jsonl` for JSON lines, CSV otherwise): a rerun skips its games.
    pub out: Option<PathBuf>,
    /// A folder for each game's checkpoint: a game stopped by its budget goes on from its
    /// values when the sweep is run again.
    pub checkpoints: Option<PathBuf>,
    /// Games run at once on this machine: its cores, when left out (at most four a core, and no
    /// more than the games).
    pub workers: Option<usize>,
    /// Each row carries how often each value occurs among the first 2^k values, for every
    /// power of two computed (JSON lines rows only).
    pub histograms: bool,
}

impl Default for SweepArgs {
    fn default() -> Self {
        SweepArgs {
            octal: None,
            at_least: None,
            leading: defaults::SWEEP_LEADING.to_vec(),
            codes: Vec::new(),
            games: Vec::new(),
            game: None,
            each: Vec::new(),
            upto: defaults::SWEEP_UPTO,
            out: None,
            checkpoints: None,
            workers: None,
            histograms: false,
        }
    }
}

/// The most digits an octal family may have: 2 × 8⁵ × … codes past it are more games than a
/// sweep should be asked for at once.
const MOST_OCTAL_DIGITS: u8 = 6;

/// One game of a family: its label in the rows, and its text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepGame {
    /// The game's name in the rows: its code, or the setting it was given.
    pub label: String,
    /// Its text and settings.
    pub text: GameText,
}

impl SweepArgs {
    /// The arguments from a JSON object (the same schema everywhere; defaults above).
    pub fn parse(args: serde_json::Map<String, serde_json::Value>) -> Result<SweepArgs, Failure> {
        let args: SweepArgs = parse_args("sweep", args).map_err(|e| Failure::one(e, None))?;
        args.validate().map_err(|e| Failure::one(e, None))?;
        Ok(args)
    }

    fn validate(&self) -> Result<(), RequestError> {
        let invalid =
            |argument: &'static str, reason: String| RequestError::Invalid { verb: "sweep", argument, reason };
        let families = [self.octal.is_some(), !self.codes.is_empty(), !self.games.is_empty(), self.game.is_some()];
        match families.iter().filter(|f| **f).count() {
            1 => {}
            0 => {
                return Err(invalid(
                    "octal",
                    "name the family: octal digits, codes, games, or a game and its settings (each)".into(),
                ))
            }
            _ => {
                return Err(invalid("octal", "give one family: octal digits, codes, games, or a game with each".into()))
            }
        }
        if let Some(d) = self.octal.filter(|d| *d == 0 || *d > MOST_OCTAL_DIGITS) {
            return Err(invalid("octal", format!("{d} digits: give 1 to {MOST_OCTAL_DIGITS}")));
        }
        if let Some(k) = self.at_least.filter(|k| self.octal.is_none_or(|d| *k == 0 || *k > d)) {
            return Err(invalid("at_least", format!("{k}: give 1 to the octal family's digits")));
        }
        if let Some(d) = self.leading.iter().find(|d| **d > 7) {
            return Err(invalid("leading", format!("{d} is not an octal digit")));
        }
        if self.game.is_some() && self.each.is_empty() {
            return Err(invalid(
                "each",
                "a game's family needs its settings, one a game: each k=1..20, or S={1,2,5}".into(),
            ));
        }
        if self.game.is_none() && !self.each.is_empty() {
            return Err(invalid("each", "settings are for the family of one game: give the game too".into()));
        }
        if self.upto == 0 || self.upto > defaults::MOST_PERIOD_UPTO {
            return Err(invalid("upto", format!("{} is not between 1 and 2^34", self.upto)));
        }
        if self.workers == Some(0) {
            return Err(invalid("workers", "0 workers would run nothing: give at least 1".into()));
        }
        if self.histograms && self.out.as_deref().is_some_and(|p| RowsFormat::of(p) == RowsFormat::Csv) {
            return Err(invalid(
                "histograms",
                "a CSV row has no room for histograms: give a rows file ending in .jsonl".into(),
            ));
        }
        Ok(())
    }

    /// The family's games, in order.
    pub fn family(&self) -> Result<Vec<SweepGame>, Failure> {
        let invalid = |argument: &'static str, reason: String| {
            Failure::one(RequestError::Invalid { verb: "sweep", argument, reason }, None)
        };
        let mut games = Vec::new();
        // The argument each game came from, for a label given twice.
        let mut from: Vec<&'static str> = Vec::new();
        if let Some(digits) = self.octal {
            let mut leading = self.leading.clone();
            leading.dedup();
            for lead in leading {
                let shortest = self.at_least.unwrap_or(1) as usize;
                for code in octal_codes(lead, digits).into_iter().filter(|c| c.len() - 2 >= shortest) {
                    games.push(octal_game(&code));
                    from.push("octal");
                }
            }
        }
        for code in &self.codes {
            let given = code.trim();
            // `.161` is how the field's tables often write 0.161.
            let code = if given.starts_with('.') { format!("0{given}") } else { given.to_string() };
            if !is_octal_code(&code) {
                return Err(invalid("codes", format!("`{given}` is not an octal code such as 0.16 or 4.337")));
            }
            games.push(octal_game(&code));
            from.push("codes");
        }
        // A game text is labelled by its own `game "NAME"` line, else the name it was given (a
        // file's), else its place; texts of the same name are told apart by their place.
        let mut named: HashMap<String, usize> = HashMap::new();
        for (i, text) in self.games.iter().enumerate() {
            let own = crate::syntax::outline(&text.source).ok().and_then(|o| o.name);
            let label = own.or_else(|| text.name.clone()).unwrap_or_else(|| format!("game {}", i + 1));
            let count = named.entry(label.clone()).or_insert(0);
            *count += 1;
            let label = if *count == 1 { label } else { format!("{label} ({})", *count) };
            games.push(SweepGame { label, text: text.clone() });
            from.push("games");
        }
        if let Some(game) = &self.game {
            for each in &self.each {
                for settings in expand(each).map_err(|reason| invalid("each", reason))? {
                    let label = settings.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
                    let mut all = game.settings.clone();
                    all.extend(settings);
                    games.push(SweepGame { label, text: GameText { settings: all, ..game.clone() } });
                    from.push("each");
                }
            }
        }
        let mut seen = HashSet::new();
        if let Some((twice, argument)) = games.iter().zip(&from).find(|(g, _)| !seen.insert(g.label.clone())) {
            return Err(invalid(argument, format!("{} is named twice", twice.label)));
        }
        Ok(games)
    }
}

/// Every code `lead.d₁…d_k` with 1 ≤ k ≤ digits, the last digit not 0, in order of length.
pub fn octal_codes(lead: u8, digits: u8) -> Vec<String> {
    let mut codes = Vec::new();
    for k in 1..=digits as u32 {
        for n in 0..8u32.pow(k) {
            if n % 8 == 0 {
                continue;
            }
            let ds: String = (0..k).rev().map(|i| char::from(b'0' + ((n >> (3 * i)) & 7) as u8)).collect();
            codes.push(format!("{lead}.{ds}"));
        }
    }
    codes
}

fn is_octal_code(code: &str) -> bool {
    match code.split_once('.') {
        Some((lead, ds)) => {
            lead.len() == 1 && !ds.is_empty() && (lead.to_string() + ds).bytes().all(|b| (b'0'..=b'7').contains(&b))
        }
        None => false,
    }
}

/// The game of an octal code, as a one-line game file would have it.
pub fn octal_game(code: &str) -> SweepGame {
    let source = format!("game \"{code}\"\npiles\nmove: octal {code}\n");
    SweepGame {
        label: code.to_string(),
        text: GameText { source, name: Some(format!("{code}.game")), settings: Settings::new() },
    }
}

/// One `each`: a setting, or a range of whole numbers `k=1..20` (one setting each).
fn expand(each: &str) -> Result<Vec<Settings>, String> {
    let (name, value) =
        each.split_once('=').ok_or_else(|| format!("`{each}` is not NAME=VALUE: write k=5, k=1..20 or S={{1,2,5}}"))?;
    if let Some((lo, hi)) = value.trim().split_once("..").filter(|_| !value.trim().starts_with('{')) {
        let number = |t: &str| t.trim().parse::<i64>().map_err(|_| format!("`{}` is not a whole number", t.trim()));
        let (lo, hi) = (number(lo)?, number(hi)?);
        // In 128 bits: the span of two far-apart 64-bit numbers overflows 64 (and once slipped
        // past this bound, asking for 10¹⁹ settings).
        if hi < lo || hi as i128 - lo as i128 >= 1 << 20 {
            return Err(format!("{lo}..{hi} is not a range of at most 2^20 numbers, the smaller first"));
        }
        return (lo..=hi).map(|v| one_setting(&format!("{name}={v}"))).collect();
    }
    one_setting(each).map(|s| vec![s])
}

fn one_setting(text: &str) -> Result<Settings, String> {
    let (name, value) = super::parse_setting(text)?;
    Ok(Settings::from([(name, value)]))
}

/// One game's row, on its own budget: the question a distributed worker asks. A game text
/// with an error is its row (refused), never the sweep's end. `Err` only when the budget was
/// cancelled: the game was in flight, and a rerun computes it again.
/// With `histograms`, the row carries the value histograms at every power of two.
pub fn sweep_game(
    game: &SweepGame,
    upto: u64,
    histograms: bool,
    checkpoints: Option<&Path>,
    budget: &Budget,
) -> Result<SweepRow, Failure> {
    let mut row = row_of_game(game, upto, histograms, checkpoints, budget)?;
    row.asked = Some(asked_of(game, upto, histograms));
    Ok(row)
}

fn row_of_game(
    game: &SweepGame,
    upto: u64,
    histograms: bool,
    checkpoints: Option<&Path>,
    budget: &Budget,
) -> Result<SweepRow, Failure> {
    let cancelled = || Failure::one(crate::solve::SolveError::Cancelled, None);
    let loaded = match load_text(&game.text, &NoLibrary, budget) {
        Ok(loaded) => loaded,
        Err(f) if f.kind() == crate::vocab::FailureKind::Cancelled => return Err(cancelled()),
        Err(f) => {
            let code = f.code().unwrap_or_else(|| "takeaway::sweep".into());
            let message = f.errors.first().map(|e| e.to_string()).unwrap_or_default();
            return Ok(SweepRow::refused(&game.label, code, message));
        }
    };
    if loaded.game.is_partizan() {
        return Ok(SweepRow::refused(
            &game.label,
            "takeaway::query::impartial_only".into(),
            format!("{} is partizan: a sweep reads Grundy values", loaded.game.name),
        ));
    }
    let checkpoint = checkpoints.map(|dir| dir.join(format!("{}.ckpt", file_stem(&game.label))));
    sweep::sweep_row(&game.label, &loaded.game, upto, histograms, checkpoint.as_deref(), budget.limits())
        .map_err(|_| cancelled())
}

/// What is asked of one game of a sweep, as the rows file keeps it (`SweepRow::asked`):
/// FNV-1a of its text, name and settings and the values asked for. The budget is left out:
/// a proven or open row is the same whatever the budget, and a stopped one is always run again.
pub(super) fn asked_of(game: &SweepGame, upto: u64, histograms: bool) -> String {
    // Histograms are named only when asked for, so that the rows of every earlier sweep still
    // answer a sweep without them.
    let asked = match histograms {
        true => serde_json::json!({ "text": game.text, "upto": upto, "histograms": true }),
        false => serde_json::json!({ "text": game.text, "upto": upto }),
    };
    format!("{:016x}", crate::solve::fnv::fnv1a(crate::solve::fnv::FNV_START, asked.to_string().as_bytes()))
}

/// What is asked of each game of a family, by label.
pub fn asked_of_family(games: &[SweepGame], upto: u64, histograms: bool) -> HashMap<String, String> {
    games.iter().map(|g| (g.label.clone(), asked_of(g, upto, histograms))).collect()
}

/// A label as a file name: letters, digits, `.`, `-` and `_` kept, anything else `_`.
fn file_stem(label: &str) -> String {
    label.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' }).collect()
}

/// The rows of a sweep in progress: those told in order, those waiting for an earlier game,
/// the file they go to, and the first failure to write it.
struct Finished {
    rows: Vec<SweepRow>,
    waiting: BTreeMap<usize, SweepRow>,
    file: Option<RowsFile>,
    failed: Option<Failure>,
}

/// What a sweep did: its rows in the family's order, and how many were read from the file.
#[derive(Clone, Debug)]
pub struct SweepReport {
    /// One row a game, in the family's order, the same values marked.
    pub rows: Vec<SweepRow>,
    /// Rows found in the rows file, whose games were not run again.
    pub resumed: usize,
}

/// Games a sweep runs at once for each of the machine's cores, at most.
const MOST_WORKERS_PER_CORE: usize = 4;

/// Sweeps the family on this machine: `workers` games at once (each on one thread), the rows
/// appended to `out` as they finish, `on_row` told of each in the family's order. `budget` is
/// each game's own, from the moment the game starts (a timeout of an hour is an hour a game).
/// `question` is the sweep's: its cancel token (Ctrl-C) stops the sweep, keeping every row
/// finished, and a rerun goes on from there; a sweep of one game (a record run) reports that
/// game's progress to it (the rows of a family are its progress).
pub fn sweep(
    args: &SweepArgs,
    budget: &BudgetArgs,
    question: &Budget,
    on_row: &(dyn Fn(&SweepRow) + Sync),
) -> Result<SweepReport, Failure> {
    let games = args.family()?;
    let cancel = question.cancel_token();
    // Checked once here; each game's budget is made when the game starts.
    Budget::from_args(budget).map_err(|e| Failure::one(e, None))?;
    let asked = asked_of_family(&games, args.upto, args.histograms);
    let mut file = match &args.out {
        Some(path) => {
            Some(RowsFile::open(path, &|label| asked.get(label).cloned()).map_err(|e| Failure::one(e, None))?)
        }
        None => None,
    };
    let done: Vec<SweepRow> = file.as_mut().map(|f| std::mem::take(&mut f.done)).unwrap_or_default();
    let resumed = done.len();
    let done_labels: HashSet<&str> = done.iter().map(|r| r.game.as_str()).collect();
    let todo: Vec<&SweepGame> = games.iter().filter(|g| !done_labels.contains(g.label.as_str())).collect();
    if let Some(dir) = &args.checkpoints {
        std::fs::create_dir_all(dir)
            .map_err(|source| Failure::one(RowsError::Io { path: dir.display().to_string(), source }, None))?;
    }
    // The games are work for the cores: more at once than a few a core only wait (and 10⁵
    // threads took most of a minute to start), and more than the games left run nothing.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = args.workers.unwrap_or(cores).min(cores.saturating_mul(MOST_WORKERS_PER_CORE));
    let pool_size = workers.min(todo.len()).max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(pool_size).build().map_err(|e| {
        Failure::one(RequestError::Invalid { verb: "sweep", argument: "workers", reason: e.to_string() }, None)
    })?;
    // Each game on one thread while the games are the parallel work; with fewer games than
    // workers each takes a share of the cores (a record run of one game takes them all), unless
    // --threads says otherwise. The values never depend on the threads.
    let threads = budget.threads.map_or_else(|| (workers / todo.len().max(1)).clamp(1, cores), usize::from);
    let progress = if todo.len() == 1 { question.limits().progress.clone() } else { Progress::default() };
    let game_budget = |threads: usize| {
        Budget::from_args(budget).map(|b| b.cancel(cancel.clone()).threads(threads).progress(progress.clone()))
    };
    // Rows are appended to the file as they finish, and told to `on_row` in the family's order
    // (each as soon as every game before it is done), so that what is shown never depends on
    // which core finished first.
    let finished = Mutex::new(Finished { rows: Vec::new(), waiting: BTreeMap::new(), file, failed: None });
    pool.install(|| {
        todo.par_iter().enumerate().with_max_len(1).for_each(|(at, game)| {
            let Ok(one_game) = game_budget(threads) else { return };
            if cancel.is_cancelled() {
                return;
            }
            // Cancelled: the game was in flight, and a rerun computes it again.
            let Ok(row) = sweep_game(game, args.upto, args.histograms, args.checkpoints.as_deref(), &one_game) else {
                return;
            };
            let mut guard = finished.lock().unwrap_or_else(|p| p.into_inner());
            let done = &mut *guard;
            if let Some(f) = done.file.as_mut() {
                if let Err(e) = f.append(&row) {
                    done.failed.get_or_insert(Failure::one(e, None));
                    cancel.cancel();
                }
            }
            done.waiting.insert(at, row);
            while let Some(row) = done.waiting.remove(&done.rows.len()) {
                on_row(&row);
                done.rows.push(row);
            }
        })
    });
    let Finished { rows: mut new_rows, waiting, file, failed } =
        finished.into_inner().unwrap_or_else(|p| p.into_inner());
    // After a cancel, rows past a game that never finished: kept (they are in the file too).
    new_rows.extend(waiting.into_values());
    if let Some(f) = failed {
        return Err(f);
    }
    if cancel.is_cancelled() {
        // A rerun with the same rows file goes on from the rows finished; without one there is
        // nothing to go on from.
        let resume = match &args.out {
            Some(path) => format!(
                "the finished rows are in {}: run the same sweep again to go on from them (the games that were \
                 running start again)",
                path.display()
            ),
            None => format!(
                "no rows file was given, so nothing is kept: give one ({}) and a sweep stopped again goes on from its \
                 rows",
                give_value(Argument::Out, "FILE")
            ),
        };
        let finished = resumed + new_rows.len();
        return Err(Failure::one(RowsError::Stopped { finished, total: games.len(), resume }, None));
    }
    let rows = in_family_order(&games, done.into_iter().chain(new_rows).collect());
    if let Some(file) = file {
        file.finish(&rows).map_err(|e| Failure::one(e, None))?;
    }
    Ok(SweepReport { rows, resumed })
}

/// Rows put in the family's order (rows of games not in the family dropped) and the same
/// values marked.
pub fn in_family_order(games: &[SweepGame], rows: Vec<SweepRow>) -> Vec<SweepRow> {
    let mut by_label: std::collections::HashMap<String, SweepRow> =
        rows.into_iter().map(|r| (r.game.clone(), r)).collect();
    let mut ordered: Vec<SweepRow> = games.iter().filter_map(|g| by_label.remove(&g.label)).collect();
    mark_same_values(&mut ordered);
    ordered
}
