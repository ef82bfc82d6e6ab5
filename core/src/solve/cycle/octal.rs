//! An octal game's values as a machine of a window: once the rare values have stopped
//! appearing, the next value follows from the latest `W` values and a fixed prefix, so the
//! window is the state of a deterministic machine whose period is the values' period.
//!
//! The argument is the sparse-space method's (Gangolli and Plambeck; Flammenkamp ran 0.106
//! this way). Every pile from the prefix on has a common value, so a split of pile n into two
//! such piles reaches only values of the class common pairs XOR to, and pile n's own common
//! class is the other one. The next value is then the least value of n's common class that no
//! option with a rare part (all in the prefix, their partners in the window) nor a one-heap
//! option reaches, provided every value below it is reached: by those options, or by a witness,
//! a split whose smaller part lies in the prefix and larger in the window. A value below it
//! with no such witness could be the answer through a split the window no longer holds, and
//! the machine stops and says so: every value it gives is the game's.

use std::sync::Arc;

use super::super::rolling::{QuickRollingHash, RollingHash};
use super::Machine;

/// A value the machine handles: values and their XORs below 128 fit a 128-bit mask.
const MOST_VALUE: u32 = 127;

/// Why the machine could not give the next value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stuck {
    /// Pile `pile`: no split with its smaller part in the prefix reaches `value`, below the
    /// value the others give; the window is too short to say whether a split out of it does.
    NoWitness { pile: u64, value: u32 },
    /// Pile `pile`'s value would pass 127, more than the machine's masks hold.
    TooLarge { pile: u64 },
}

/// How the rest of a pile may split after a take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SplitKind {
    /// into any two non-empty heaps
    Any,
    /// into two unequal ones
    Unequal,
    /// into two equal ones (their values XOR to 0)
    Equal,
}

/// What every state of the machine shares: the game's moves, the prefix and its rare piles,
/// and the classes.
#[derive(Debug)]
pub(crate) struct WindowRules {
    window: usize,
    /// values of piles 0..prefix.len()
    prefix: Vec<u8>,
    /// the piles of the prefix (from 1) with a rare value, and their values
    rare: Vec<(usize, u8)>,
    /// amounts that may leave one heap
    one: Vec<usize>,
    /// amounts after which the rest may split in two, and how
    two: Vec<(usize, SplitKind)>,
    /// the options with a rare part: for each take after which the rest may split unequally and
    /// each rare pile r, where the partner's value lies among the latest values (t + r − 1, the
    /// newest at 0), and r's value
    rare_options: Vec<(usize, u8)>,
    /// for a pile of each parity, the values common for it, as a mask
    common: [u128; 2],
    /// the hash of windows of this length that names a run's start in its checkpoint
    key_hash: RollingHash,
    /// the fingerprint a state moves along with it at every step
    hash: QuickRollingHash,
}

/// Why a machine cannot start from the values given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NoStart {
    /// A pile from the prefix on has a rare value (the largest such pile).
    RareAfterPrefix(u64),
    /// The window is too short for the prefix it needs (the least window that would do).
    WindowTooShort(usize),
    /// The common class of some pile is reachable by splits into common piles: the classes do
    /// not make the values sparse.
    NotSparse,
    /// A value of the start passes 127.
    TooLarge,
}

impl WindowRules {
    /// Rules for a window of `window` values, a prefix of `prefix` of them, the game's takes
    /// (at most `most_taken`) and the classes (`mask`, the parity of a common value for even
    /// and odd piles), given the values `value(n)` of piles 0 up to `computed`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        window: usize,
        prefix: usize,
        one: Vec<usize>,
        two: Vec<(usize, SplitKind)>,
        mask: u32,
        parity: [u32; 2],
        computed: u64,
        value: impl Fn(u64) -> u32,
    ) -> Result<WindowRules, NoStart> {
        let most_taken = one.iter().chain(two.iter().map(|(t, _)| t)).copied().max().unwrap_or(0);
        if prefix + most_taken > window || prefix < 2 {
            return Err(NoStart::WindowTooShort(prefix.max(2) + most_taken));
        }
        let class = |v: u32| (v & mask).count_ones() & 1;
        let mut common = [0u128; 2];
        for v in 0..=MOST_VALUE {
            for (parity_of_pile, set) in common.iter_mut().enumerate() {
                if class(v) == parity[parity_of_pile] {
                    *set |= 1 << v;
                }
            }
        }
        // A split of pile n after take t into common piles a + b = n − t XORs to class
        // parity[a] ^ parity[b]: 0 when n − t is even, parity[0] ^ parity[1] when odd. n's own
        // common class must differ from every such class, for piles of both parities.
        for n_parity in 0..2usize {
            for &(t, kind) in &two {
                if kind == SplitKind::Equal {
                    continue;
                }
                let rest_odd = (n_parity + t) % 2 == 1;
                let pair_class = if rest_odd { parity[0] ^ parity[1] } else { 0 };
                if pair_class == parity[n_parity] {
                    return Err(NoStart::NotSparse);
                }
            }
        }
        let mut rare = Vec::new();
        let mut last_rare = None;
        for n in 0..computed {
            let v = value(n);
            if v > MOST_VALUE {
                return Err(NoStart::TooLarge);
            }
            if class(v) != parity[(n & 1) as usize] {
                last_rare = Some(n);
                if (n as usize) < prefix && n > 0 {
                    rare.push((n as usize, v as u8));
                }
            }
        }
        if let Some(last) = last_rare.filter(|&l| l as usize >= prefix) {
            return Err(NoStart::RareAfterPrefix(last));
        }
        let rare_options = two
            .iter()
            .filter(|(_, kind)| *kind != SplitKind::Equal)
            .flat_map(|&(t, _)| rare.iter().map(move |&(r, v)| (t + r - 1, v)))
            .collect();
        Ok(WindowRules {
            window,
            rare_options,
            prefix: (0..prefix as u64).map(|n| value(n) as u8).collect(),
            rare,
            one,
            two,
            common,
            key_hash: RollingHash::new(window),
            hash: QuickRollingHash::new(window),
        })
    }

    /// The pile a machine of `window` values and a prefix of `prefix` starts at, for moves that
    /// take at most `most_taken`: its window lies past twice the prefix and the largest take, so
    /// that no split has both parts in the prefix.
    pub(crate) fn first_pile(window: usize, prefix: usize, most_taken: usize) -> u64 {
        (2 * prefix + most_taken + window) as u64
    }

    pub(crate) fn window(&self) -> usize {
        self.window
    }

    pub(crate) fn prefix_len(&self) -> usize {
        self.prefix.len()
    }

    pub(crate) fn rare_count(&self) -> usize {
        self.rare.len()
    }
}

/// The machine's state: the latest `window` values, the newest first.
#[derive(Clone, Debug)]
pub(crate) struct OctalWindow {
    rules: Arc<WindowRules>,
    /// twice the window: `ring[head..head + window]` holds the values of piles pile − 1,
    /// pile − 2, …, pile − window (each written at i and i + window)
    ring: Vec<u8>,
    head: usize,
    /// the next pile
    pile: u64,
    /// the window's quick fingerprint (see `WindowRules::hash`)
    hash: u64,
    /// the furthest into the prefix a witness was looked for, over this copy's steps
    pub(crate) deepest: usize,
    /// whether some value of the prefix or the window is 32 or more (see `next_value_in`)
    wide: bool,
}

/// Splits a search for witnesses compares at a time.
const WITNESS_CHUNK: usize = 64;

/// The XORs of a chunk of splits' two values, past its end a byte no value equals (every value
/// is at most `MOST_VALUE`).
fn chunk_xors(small: &[u8], large: &[u8]) -> [u8; WITNESS_CHUNK] {
    let mut xors = [u8::MAX; WITNESS_CHUNK];
    if let (Ok(small), Ok(large)) = (<&[u8; WITNESS_CHUNK]>::try_from(small), <&[u8; WITNESS_CHUNK]>::try_from(large)) {
        // a whole chunk, of a length the compiler knows
        for ((xor, &s), &l) in xors.iter_mut().zip(small).zip(large) {
            *xor = s ^ l;
        }
    } else {
        for ((xor, &s), &l) in xors.iter_mut().zip(small).zip(large) {
            *xor = s ^ l;
        }
    }
    xors
}

/// Whether some byte of `bytes` equals `value` (a comparison of whole vectors where the target
/// has them).
fn any_equal(bytes: &[u8; WITNESS_CHUNK], value: u8) -> bool {
    bytes.iter().fold(false, |any, &b| any | (b == value))
}

/// Values below this keep the sets of values in 64 bits.
const NARROW_LIMIT: u8 = 32;

/// The value of the next pile with the sets of values as bits of `$mask` (`None` when every
/// value the mask holds is reached): a 64-bit one while every value is below 32 (their XORs are
/// below 32, and the answer below 64), a 128-bit one past that.
macro_rules! next_value_in {
    ($name:ident, $mask:ty) => {
        fn $name(&mut self) -> Result<Option<u8>, Stuck> {
            let rules = &*self.rules;
            let n = self.pile;
            let recent = &self.ring[self.head..self.head + rules.window];
            // recent[j] is the value of pile n − 1 − j: a take of t leaves pile n − t = recent[t − 1],
            // and a split of n − t into a and n − t − a has its larger part at recent[t + a − 1].
            let mut reached: $mask = 0;
            for &t in &rules.one {
                reached |= 1 << recent[t - 1];
            }
            for &(t, kind) in &rules.two {
                if kind != SplitKind::Unequal && (n - t as u64).is_multiple_of(2) {
                    reached |= 1;
                }
            }
            // Two sets, so that the marks wait on two chains of one instruction each, not one.
            let mut also: $mask = 0;
            let mut pairs = rules.rare_options.chunks_exact(2);
            for pair in &mut pairs {
                reached |= 1 << (pair[0].1 ^ recent[pair[0].0]);
                also |= 1 << (pair[1].1 ^ recent[pair[1].0]);
            }
            for &(at, v) in pairs.remainder() {
                reached |= 1 << (v ^ recent[at]);
            }
            reached |= also;
            let free = !reached & rules.common[(n & 1) as usize] as $mask;
            if free == 0 {
                return Ok(None);
            }
            let answer = free.trailing_zeros();
            let below = ((1 as $mask) << answer) - 1;
            let mut missing = !reached & below;
            if missing != 0 {
                // Witnesses for the values below the answer that are still missing: splits whose
                // smaller part a lies in the prefix, a chunk of them at a time, each chunk's XORs
                // compared with each value missing (a few, and their witnesses are mostly among
                // the first few dozen splits).
                let prefix = &rules.prefix;
                'takes: for &(t, kind) in &rules.two {
                    if kind == SplitKind::Equal {
                        continue;
                    }
                    // smaller[i] is pile a = i + 1, larger[i] its partner's value
                    let smaller = &prefix[1..];
                    let larger = &recent[t..t + smaller.len()];
                    for (chunk, (small, large)) in
                        smaller.chunks(WITNESS_CHUNK).zip(larger.chunks(WITNESS_CHUNK)).enumerate()
                    {
                        let xors = chunk_xors(small, large);
                        let looked_for = missing;
                        let mut left = missing;
                        while left != 0 {
                            let value = left.trailing_zeros();
                            left &= left - 1;
                            if any_equal(&xors, value as u8) {
                                missing &= !((1 as $mask) << value);
                            }
                        }
                        if missing == 0 {
                            // How deep the witnesses lay is counted as when the splits were
                            // looked at eight at a time from a = 1: the end of the eight that
                            // holds the last value's first witness. Only a new deepest needs it.
                            let first = chunk * WITNESS_CHUNK;
                            if (1 + first + WITNESS_CHUNK).min(prefix.len()) > self.deepest {
                                let mut furthest = 0;
                                let mut left = looked_for;
                                while left != 0 {
                                    let value = left.trailing_zeros() as u8;
                                    left &= left - 1;
                                    let at = xors.iter().position(|&x| x == value).unwrap_or(0);
                                    furthest = furthest.max(first + at);
                                }
                                let end = (1 + 8 * (furthest / 8 + 1)).min(prefix.len());
                                self.deepest = self.deepest.max(end);
                            }
                            break 'takes;
                        }
                    }
                }
                if missing != 0 {
                    return Err(Stuck::NoWitness { pile: n, value: missing.trailing_zeros() });
                }
            }
            Ok(Some(answer as u8))
        }
    };
}

impl OctalWindow {
    /// The machine at pile `pile`, its window the values of piles pile − window up to one less
    /// (`latest`, oldest first).
    pub(crate) fn new(rules: Arc<WindowRules>, pile: u64, latest: &[u8]) -> OctalWindow {
        let window = rules.window;
        debug_assert_eq!(latest.len(), window);
        let mut ring = vec![0u8; 2 * window];
        for (j, &v) in latest.iter().rev().enumerate() {
            ring[j] = v;
            ring[j + window] = v;
        }
        let hash = rules.hash.of(latest.iter().map(|&v| u64::from(v)));
        let wide = latest.iter().chain(&rules.prefix).any(|&v| v >= NARROW_LIMIT);
        OctalWindow { rules, ring, head: 0, pile, hash, deepest: 0, wide }
    }

    /// The latest values, the newest first.
    fn newest_first(&self) -> &[u8] {
        &self.ring[self.head..self.head + self.rules.window]
    }

    /// The window's values, oldest first (for a checkpoint).
    pub(crate) fn latest(&self) -> Vec<u8> {
        self.newest_first().iter().rev().copied().collect()
    }

    /// The hash that names this state in a checkpoint's key (the start's): the prime
    /// modulus's, computed from the window, so that it stays what the files hold.
    pub(crate) fn key_hash(&self) -> u64 {
        self.rules.key_hash.of(self.newest_first().iter().rev().map(|&v| u64::from(v)))
    }

    /// The value of the latest pile.
    pub(crate) fn newest(&self) -> u8 {
        self.ring[self.head]
    }

    /// The next pile.
    pub(crate) fn pile(&self) -> u64 {
        self.pile
    }

    /// The value of the next pile.
    fn next_value(&mut self) -> Result<u8, Stuck> {
        if !self.wide {
            if let Some(value) = self.next_value_narrow()? {
                self.wide = value >= NARROW_LIMIT;
                return Ok(value);
            }
            self.wide = true;
        }
        self.next_value_wide()?.ok_or(Stuck::TooLarge { pile: self.pile })
    }

    next_value_in!(next_value_narrow, u64);
    next_value_in!(next_value_wide, u128);
}

impl Machine for OctalWindow {
    type Stuck = Stuck;

    fn step(&mut self) -> Result<(), Stuck> {
        let value = self.next_value()?;
        let window = self.rules.window;
        let leaving = self.ring[self.head + window - 1];
        self.head = if self.head == 0 { window - 1 } else { self.head - 1 };
        self.ring[self.head] = value;
        self.ring[self.head + window] = value;
        self.hash = self.rules.hash.moved(self.hash, u64::from(leaving), u64::from(value));
        self.pile += 1;
        Ok(())
    }

    fn fingerprint(&self) -> u64 {
        self.hash
    }

    fn same_state(&self, other: &Self) -> bool {
        self.newest_first() == other.newest_first()
    }

    fn figure(&self) -> u64 {
        self.deepest as u64
    }
}
