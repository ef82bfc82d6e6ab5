//! One pile's values as a table reads them: where they are stored, and past a proven period
//! from the period, so that a table of 10⁸ rows needs no value held per row.

use super::heap::Values;

/// Values stored one after another, as narrowly as they are kept.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ValueSlice<'a> {
    /// a byte each
    Byte(&'a [u8]),
    /// two bytes each
    Narrow(&'a [u16]),
    /// four bytes each
    Wide(&'a [u32]),
}

impl<'a> ValueSlice<'a> {
    /// The values of piles 0..len of `values`.
    pub(crate) fn of(values: &'a Values, len: usize) -> ValueSlice<'a> {
        match values {
            Values::Byte(v) => ValueSlice::Byte(&v[..len.min(v.len())]),
            Values::Narrow(v) => ValueSlice::Narrow(&v[..len.min(v.len())]),
            Values::Wide(v) => ValueSlice::Wide(&v[..len.min(v.len())]),
        }
    }

    /// How many values.
    pub(crate) fn len(&self) -> usize {
        match self {
            ValueSlice::Byte(v) => v.len(),
            ValueSlice::Narrow(v) => v.len(),
            ValueSlice::Wide(v) => v.len(),
        }
    }

    /// The value of pile `n`.
    pub(crate) fn get(&self, n: usize) -> u32 {
        match self {
            ValueSlice::Byte(v) => v[n] as u32,
            ValueSlice::Narrow(v) => v[n] as u32,
            ValueSlice::Wide(v) => v[n],
        }
    }
}

/// The Grundy values of one pile of 0..=last, as the solver knows them.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PileColumn<'a> {
    /// Nim's heaps: the value of n is n.
    Nim {
        /// the last pile
        last: u64,
    },
    /// Every value, stored.
    Stored(ValueSlice<'a>),
    /// The values of piles 0..preperiod + period, then the period repeating (proven).
    Periodic {
        /// piles 0..preperiod + period
        head: ValueSlice<'a>,
        /// where the period starts
        preperiod: u64,
        /// its length
        period: u64,
        /// the last pile
        last: u64,
    },
}

impl PileColumn<'_> {
    /// The last pile: the column has `last + 1` values.
    pub(crate) fn last(&self) -> u64 {
        match self {
            PileColumn::Nim { last } | PileColumn::Periodic { last, .. } => *last,
            PileColumn::Stored(v) => v.len() as u64 - 1,
        }
    }

    /// The value of pile `n` (at most `last()`).
    pub(crate) fn get(&self, n: u64) -> u64 {
        match self {
            PileColumn::Nim { .. } => n,
            PileColumn::Stored(v) => v.get(n as usize) as u64,
            PileColumn::Periodic { head, preperiod, period, .. } => {
                let at = if n < preperiod + period { n } else { preperiod + (n - preperiod) % period };
                head.get(at as usize) as u64
            }
        }
    }

    /// Calls `f` with the value of every pile `from..=last()` in turn: the period is followed by
    /// a phase that steps, not a division per pile.
    pub(crate) fn for_each_from(&self, from: u64, mut f: impl FnMut(u64, u64)) {
        let last = self.last();
        match *self {
            PileColumn::Nim { .. } => (from..=last).for_each(|n| f(n, n)),
            PileColumn::Stored(v) => (from..=last).for_each(|n| f(n, v.get(n as usize) as u64)),
            PileColumn::Periodic { head, preperiod, period, .. } => {
                let end = preperiod + period;
                let mut n = from;
                while n <= last && n < end {
                    f(n, head.get(n as usize) as u64);
                    n += 1;
                }
                if n > last {
                    return;
                }
                let mut phase = preperiod + (n - preperiod) % period;
                while n <= last {
                    f(n, head.get(phase as usize) as u64);
                    n += 1;
                    phase += 1;
                    if phase == end {
                        phase = preperiod;
                    }
                }
            }
        }
    }
}
