//! Checkpoints of a window's cycle search: where the search stands (its phase, the windows of
//! the copies it steps and the snapshots it keeps), in a small file that names the format, the
//! version, the game's rules and the window, and ends with a checksum of everything before it. A
//! file that does not match is refused, never used.

use std::path::Path;
use std::sync::Arc;

use super::{spacing_of, CycleSearch, OctalWindow, Phase, WindowRules, MOST_SNAPSHOTS, SNAPSHOT_EVERY};
use crate::solve::checkpoint::CheckpointError;
use crate::solve::fnv::{fnv1a, FNV_START};

const MAGIC: &[u8] = b"takeaway window checkpoint\n";
/// 2 added the snapshots and where the preperiod's search is sure of its start; 3 the step from
/// which the snapshots are compared with the hare. Files of formats 1 (no snapshots, the start
/// sure) and 2 (none compared) are still read.
const FORMAT: u32 = 3;
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// A window checkpoint is a few windows: a larger file is not one.
const MOST_BYTES: u64 = 1 << 28;

/// What identifies the run a checkpoint belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RunKey {
    /// the rules' fingerprint
    pub rules: u64,
    pub window: u64,
    pub prefix: u64,
    /// the pile the machine starts at, and its state's fingerprint there
    pub start: u64,
    pub start_hash: u64,
}

fn put_u64(out: &mut Vec<u8>, x: u64) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_machine(out: &mut Vec<u8>, m: &OctalWindow) {
    put_u64(out, m.pile());
    out.extend_from_slice(&m.latest());
}

/// Writes the search's state, through a file beside `path` renamed into place.
pub(crate) fn write_search(
    path: &Path,
    game: &str,
    key: RunKey,
    search: &CycleSearch<OctalWindow>,
) -> Result<(), CheckpointError> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    for text in [VERSION, game] {
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    for x in [key.rules, key.window, key.prefix, key.start, key.start_hash, search.steps, search.figure] {
        put_u64(&mut out, x);
    }
    match &search.phase {
        Phase::Period { tortoise, tortoise_at, hare, power, lam, previous } => {
            out.push(0);
            for x in [*tortoise_at, *power, *lam] {
                put_u64(&mut out, x);
            }
            put_machine(&mut out, tortoise);
            put_machine(&mut out, hare);
            match previous {
                Some((m, at, stretch)) => {
                    out.push(1);
                    put_u64(&mut out, *at);
                    put_u64(&mut out, *stretch);
                    put_machine(&mut out, m);
                }
                None => out.push(0),
            }
        }
        Phase::Preperiod { period, behind, behind_at, ahead, ahead_at, sure_until } => {
            out.push(1);
            for x in [*period, *behind_at, *ahead_at, *sure_until] {
                put_u64(&mut out, x);
            }
            put_machine(&mut out, behind);
            put_machine(&mut out, ahead);
        }
        Phase::Found { preperiod, period } => {
            out.push(2);
            put_u64(&mut out, *preperiod);
            put_u64(&mut out, *period);
        }
    }
    put_u64(&mut out, search.snapshots.len() as u64);
    for (at, m) in &search.snapshots {
        put_u64(&mut out, *at);
        put_machine(&mut out, m);
    }
    put_u64(&mut out, search.watched_from);
    let sum = fnv1a(FNV_START, &out);
    put_u64(&mut out, sum);
    crate::files::write_file_with(path, |w| w.write_all(&out))
        .map_err(|e| CheckpointError::Write { path: path.display().to_string(), reason: e.to_string() })
}

/// Reads fields in order; `None` past the end.
struct Fields<'a> {
    bytes: &'a [u8],
}

impl Fields<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes)
    }
    fn text(&mut self) -> Option<String> {
        let len = self.u32()? as usize;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
    fn machine(&mut self, rules: &Arc<WindowRules>) -> Option<OctalWindow> {
        let pile = self.u64()?;
        let latest = self.take(rules.window())?;
        Some(OctalWindow::new(rules.clone(), pile, latest))
    }
}

/// Reads the state of a search of the run `key`, with its machines on `rules`.
pub(crate) fn read_search(
    path: &Path,
    game: &str,
    key: RunKey,
    rules: &Arc<WindowRules>,
) -> Result<CycleSearch<OctalWindow>, CheckpointError> {
    let shown = path.display().to_string();
    let unreadable = |e: std::io::Error| CheckpointError::Unreadable { path: shown.clone(), reason: e.to_string() };
    let meta = crate::solve::checkpoint::regular_file(path)?;
    if meta.len() > MOST_BYTES {
        return Err(CheckpointError::NotACheckpoint { path: shown });
    }
    let bytes = std::fs::read(path).map_err(unreadable)?;
    if !bytes.starts_with(MAGIC) {
        return Err(CheckpointError::NotACheckpoint { path: shown });
    }
    let corrupt = |what: &str| CheckpointError::Corrupt { path: shown.clone(), what: what.to_string() };
    let Some(body_len) = bytes.len().checked_sub(8) else { return Err(corrupt("it ends before its last field")) };
    let (body, sum) = bytes.split_at(body_len);
    if sum != fnv1a(FNV_START, body).to_le_bytes() {
        return Err(corrupt("its checksum does not match its contents"));
    }
    let mut f = Fields { bytes: &body[MAGIC.len()..] };
    let short = || corrupt("it ends before its last field");
    let format = f.u32().ok_or_else(short)?;
    let version = f.text().ok_or_else(short)?;
    if !(1..=FORMAT).contains(&format) || version != VERSION {
        return Err(CheckpointError::Version { path: shown, found: version, format });
    }
    let found_game = f.text().ok_or_else(short)?;
    let mut words = [0u64; 7];
    for w in &mut words {
        *w = f.u64().ok_or_else(short)?;
    }
    let [rules_hash, window, prefix, start, start_hash, steps, deepest] = words;
    if rules_hash != key.rules {
        return Err(CheckpointError::OtherGame { path: shown, found: found_game, game: game.to_string() });
    }
    if (window, prefix, start, start_hash) != (key.window, key.prefix, key.start, key.start_hash) {
        return Err(corrupt(&format!(
            "it is a search with a window of {window} values from pile {start}, not this run's {} from pile {}",
            key.window, key.start
        )));
    }
    let phase = match f.u8().ok_or_else(short)? {
        0 => {
            let (tortoise_at, power, lam) =
                (f.u64().ok_or_else(short)?, f.u64().ok_or_else(short)?, f.u64().ok_or_else(short)?);
            let tortoise = f.machine(rules).ok_or_else(short)?;
            let hare = f.machine(rules).ok_or_else(short)?;
            let previous = match f.u8().ok_or_else(short)? {
                1 => {
                    let (at, stretch) = (f.u64().ok_or_else(short)?, f.u64().ok_or_else(short)?);
                    Some((f.machine(rules).ok_or_else(short)?, at, stretch))
                }
                _ => None,
            };
            Phase::Period { tortoise, tortoise_at, hare, power, lam, previous }
        }
        1 => {
            let (period, behind_at, ahead_at) =
                (f.u64().ok_or_else(short)?, f.u64().ok_or_else(short)?, f.u64().ok_or_else(short)?);
            // Format 1 started only from a state sure to lie before the preperiod.
            let sure_until = if format >= 2 { f.u64().ok_or_else(short)? } else { behind_at };
            let behind = f.machine(rules).ok_or_else(short)?;
            let ahead = f.machine(rules).ok_or_else(short)?;
            Phase::Preperiod { period, behind, behind_at, ahead, ahead_at, sure_until }
        }
        2 => Phase::Found { preperiod: f.u64().ok_or_else(short)?, period: f.u64().ok_or_else(short)? },
        _ => return Err(corrupt("its phase is none a search has")),
    };
    let mut snapshots = Vec::new();
    if format >= 2 {
        let count = f.u64().ok_or_else(short)?;
        // Each takes a window's bytes: a count the file cannot hold is not read.
        if count > f.bytes.len() as u64 / rules.window().max(1) as u64 {
            return Err(short());
        }
        for _ in 0..count {
            let at = f.u64().ok_or_else(short)?;
            snapshots.push((at, f.machine(rules).ok_or_else(short)?));
        }
    }
    let watched_from = if format >= 3 {
        f.u64().ok_or_else(short)?
    } else {
        // The snapshots so far were not compared with the hare: only those after its step are.
        match &phase {
            Phase::Period { tortoise_at, lam, .. } => tortoise_at.saturating_add(*lam).saturating_add(1),
            _ => u64::MAX,
        }
    };
    if !f.bytes.is_empty() {
        return Err(corrupt("it has bytes after its last field"));
    }
    // The machines' piles must be where their steps put them.
    let consistent = match &phase {
        Phase::Period { tortoise, tortoise_at, hare, lam, power, previous } => {
            tortoise.pile() == start + tortoise_at
                && hare.pile() == start + tortoise_at + lam
                && lam <= power
                && previous.as_ref().is_none_or(|(m, at, _)| m.pile() == start + at)
        }
        Phase::Preperiod { period, behind, behind_at, ahead, ahead_at, .. } => {
            behind.pile() == start + behind_at && ahead.pile() == start + ahead_at && *ahead_at <= behind_at + period
        }
        Phase::Found { .. } => true,
    } && snapshots.iter().all(|(at, m)| start.checked_add(*at) == Some(m.pile()))
        && snapshots.windows(2).all(|w| w[0].0 < w[1].0);
    if !consistent {
        return Err(corrupt("its fields do not fit together"));
    }
    Ok(CycleSearch {
        phase,
        steps,
        figure: deepest,
        snapshot_every: spacing_of(&snapshots, SNAPSHOT_EVERY),
        snapshots,
        watched_from,
        most_snapshots: MOST_SNAPSHOTS,
    })
}
