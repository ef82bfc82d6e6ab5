//! What the kernel's two methods share: the values so far (a byte each while they fit), the
//! marks of one mex, the tables of a block scanned in parallel, and the reach of a window.

use super::slots::{Filled, Lease, Slots};

/// Grundy values of piles 0, 1, 2, …, a byte each while they fit, then two, then four: most
/// take-and-break games keep their values small, and the table is the memory a long run needs.
/// The kernel's second thread reads a `share` of its values rather than a copy.
#[derive(Debug)]
pub(crate) enum Values {
    /// Values below 256.
    Byte(Slots<u8>),
    /// Values below 65,536.
    Narrow(Slots<u16>),
    /// Larger values.
    Wide(Slots<u32>),
}

/// Runs `$body` with `$g` bound to the stored values, whatever their width: the scans are
/// generic over the slot, and this is the one place that picks it.
macro_rules! with_slots {
    ($values:expr, $g:ident => $body:expr) => {
        match $values {
            $crate::solve::heap::values::Values::Byte($g) => $body,
            $crate::solve::heap::values::Values::Narrow($g) => $body,
            $crate::solve::heap::values::Values::Wide($g) => $body,
        }
    };
}
pub(super) use with_slots;

impl Default for Values {
    fn default() -> Self {
        Values::Byte(Slots::default())
    }
}

impl Values {
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::Byte(v) => v.len(),
            Values::Narrow(v) => v.len(),
            Values::Wide(v) => v.len(),
        }
    }

    pub(crate) fn get(&self, n: usize) -> u32 {
        match self {
            Values::Byte(v) => v[n] as u32,
            Values::Narrow(v) => v[n] as u32,
            Values::Wide(v) => v[n],
        }
    }

    /// The largest of the values of piles `piles` and the first pile that has it (`None` for
    /// no piles): a sweep's row and a period run's pace both read it.
    pub(crate) fn largest_in(&self, piles: std::ops::Range<usize>) -> Option<(u32, u64)> {
        let mut best: Option<(u32, u64)> = None;
        for n in piles {
            let v = self.get(n);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, n as u64));
            }
        }
        best
    }

    pub(super) fn push(&mut self, g: u32) {
        match self {
            Values::Byte(v) if g <= u8::MAX as u32 => v.push(g as u8),
            Values::Byte(v) => {
                // As much room as the narrow values had (a run's reserved total), at twice the
                // width.
                let mut wider: Vec<u16> = Vec::with_capacity(v.capacity().max(v.len() + v.len() / 2 + 1));
                wider.extend(v.iter().map(|&x| x as u16));
                *self = Values::Narrow(wider.into());
                self.push(g);
            }
            Values::Narrow(v) if g <= u16::MAX as u32 => v.push(g as u16),
            Values::Narrow(v) => {
                let mut wider: Vec<u32> = Vec::with_capacity(v.capacity().max(v.len() + v.len() / 2 + 1));
                wider.extend(v.iter().map(|&x| x as u32));
                wider.push(g);
                *self = Values::Wide(wider.into());
            }
            Values::Wide(v) => v.push(g),
        }
    }

    /// The values as they are now, for another thread to read without a copy (see `Slots`).
    pub(super) fn share(&self) -> Values {
        match self {
            Values::Byte(v) => Values::Byte(v.share()),
            Values::Narrow(v) => Values::Narrow(v.share()),
            Values::Wide(v) => Values::Wide(v.share()),
        }
    }

    /// Room for `more` values past the last, at least doubling the room when it grows.
    pub(super) fn reserve_more(&mut self, more: usize) {
        let grown = more.max(self.len());
        match self {
            Values::Byte(v) if v.len() + more > v.capacity() => v.reserve(grown),
            Values::Narrow(v) if v.len() + more > v.capacity() => v.reserve(grown),
            Values::Wide(v) if v.len() + more > v.capacity() => v.reserve(grown),
            _ => {}
        }
    }

    /// Lends pile `at`'s place to another thread, which computes its value (see `Slots::lease`).
    pub(super) fn lease(&mut self, at: usize) -> Option<ValueLease> {
        match self {
            Values::Byte(v) => v.lease(at).map(ValueLease::Byte),
            Values::Narrow(v) => v.lease(at).map(ValueLease::Narrow),
            Values::Wide(v) => v.lease(at).map(ValueLease::Wide),
        }
    }

    /// Takes back a lease never filled.
    pub(super) fn give_back(&mut self, lease: ValueLease) {
        match (self, lease) {
            (Values::Byte(v), ValueLease::Byte(l)) => v.give_back(l),
            (Values::Narrow(v), ValueLease::Narrow(l)) => v.give_back(l),
            (Values::Wide(v), ValueLease::Wide(l)) => v.give_back(l),
            // Made before the values widened: its place is in a buffer no longer written.
            _ => {}
        }
    }

    /// Takes the value a lease filled as the next one, when it is (see `Slots::adopt`).
    pub(super) fn adopt(&mut self, filled: &FilledValue) -> bool {
        match (self, filled) {
            (Values::Byte(v), FilledValue::Byte(f)) => v.adopt(f),
            (Values::Narrow(v), FilledValue::Narrow(f)) => v.adopt(f),
            (Values::Wide(v), FilledValue::Wide(f)) => v.adopt(f),
            _ => false,
        }
    }

    /// A share of these values with the one `filled` wrote just past them, when it did so in
    /// their buffer (else the share as it was).
    pub(super) fn with_filled(self, filled: &FilledValue) -> Result<Values, Values> {
        match (self, filled) {
            (Values::Byte(v), FilledValue::Byte(f)) => v.with_filled(f).map(Values::Byte).map_err(Values::Byte),
            (Values::Narrow(v), FilledValue::Narrow(f)) => v.with_filled(f).map(Values::Narrow).map_err(Values::Narrow),
            (Values::Wide(v), FilledValue::Wide(f)) => v.with_filled(f).map(Values::Wide).map_err(Values::Wide),
            (values, _) => Err(values),
        }
    }

    /// Which buffer the values are in, and how wide: equal for two handles exactly when they
    /// read and write one buffer (see `Slots::buffer_start`).
    pub(super) fn buffer(&self) -> (usize, u8) {
        let start = match self {
            Values::Byte(v) => v.buffer_start() as usize,
            Values::Narrow(v) => v.buffer_start() as usize,
            Values::Wide(v) => v.buffer_start() as usize,
        };
        (start, self.width())
    }

    /// Asks for pile `at`'s cache line, to be written (see `Slots::prefetch_for_write`).
    #[inline]
    pub(super) fn prefetch_for_write(&self, at: usize) {
        match self {
            Values::Byte(v) => v.prefetch_for_write(at),
            Values::Narrow(v) => v.prefetch_for_write(at),
            Values::Wide(v) => v.prefetch_for_write(at),
        }
    }

    /// Makes this share read the first `len` values (see `Slots::read_up_to`).
    ///
    /// # Safety
    /// As `Slots::read_up_to`.
    pub(super) unsafe fn read_up_to(&mut self, len: usize) {
        // Safety: the caller's promise.
        unsafe {
            match self {
                Values::Byte(v) => v.read_up_to(len),
                Values::Narrow(v) => v.read_up_to(len),
                Values::Wide(v) => v.read_up_to(len),
            }
        }
    }

    /// Writes pile `at`'s value through this share (see `Slots::write_past`); false when it is
    /// too wide for the values or out of their room.
    ///
    /// # Safety
    /// As `Slots::write_past`.
    pub(super) unsafe fn write_past(&self, at: usize, value: u32) -> bool {
        // Safety: the caller's promise.
        unsafe {
            match self {
                Values::Byte(v) => u8::try_from(value).is_ok_and(|x| v.write_past(at, x)),
                Values::Narrow(v) => u16::try_from(value).is_ok_and(|x| v.write_past(at, x)),
                Values::Wide(v) => v.write_past(at, value),
            }
        }
    }

    /// Takes the next pile's value, which a share wrote, as stored (see `Slots::adopt_written`).
    ///
    /// # Safety
    /// As `Slots::adopt_written`.
    pub(super) unsafe fn adopt_written(&mut self) -> bool {
        // Safety: the caller's promise.
        unsafe {
            match self {
                Values::Byte(v) => v.adopt_written(),
                Values::Narrow(v) => v.adopt_written(),
                Values::Wide(v) => v.adopt_written(),
            }
        }
    }

    /// A copy of the first `len` values, stored as narrowly as these: a table of a million
    /// rows copies a megabyte, where eight would be fresh pages to fault in.
    pub(crate) fn prefix(&self, len: usize) -> Values {
        match self {
            Values::Byte(v) => Values::Byte(v[..len.min(v.len())].to_vec().into()),
            Values::Narrow(v) => Values::Narrow(v[..len.min(v.len())].to_vec().into()),
            Values::Wide(v) => Values::Wide(v[..len.min(v.len())].to_vec().into()),
        }
    }

    /// `period::detect` over the values where they are stored.
    pub(crate) fn detect_period(&self, arithmetic: bool) -> Option<crate::solve::period::Detected> {
        self.detect_period_from(0, arithmetic)
    }

    /// `detect_period` over the values of piles `from` on (its preperiod counted from pile 0):
    /// a look at the latest values of a run too long to look at whole.
    pub(crate) fn detect_period_from(&self, from: usize, arithmetic: bool) -> Option<crate::solve::period::Detected> {
        let from = from.min(self.len());
        let found = match self {
            Values::Byte(v) => crate::solve::period::detect(&v[from..], arithmetic),
            Values::Narrow(v) => crate::solve::period::detect(&v[from..], arithmetic),
            Values::Wide(v) => crate::solve::period::detect(&v[from..], arithmetic),
        };
        found.map(|(start, period, saltus)| (start + from, period, saltus))
    }

    /// Forgets the values stored at `range` (moving the later ones down): a window's slide.
    pub(super) fn forget(&mut self, range: std::ops::Range<usize>) {
        match self {
            Values::Byte(v) => v.forget(range),
            Values::Narrow(v) => v.forget(range),
            Values::Wide(v) => v.forget(range),
        }
    }

    /// Bytes a value: 1, 2 or 4.
    pub(crate) fn width(&self) -> u8 {
        match self {
            Values::Byte(_) => 1,
            Values::Narrow(_) => 2,
            Values::Wide(_) => 4,
        }
    }

    /// The bytes the values fill (room reserved ahead and never written costs no memory).
    pub(crate) fn stored_bytes(&self) -> u64 {
        self.len() as u64 * self.width() as u64
    }

    /// The values of piles in `piles` as little-endian bytes of `width()` each, appended to `out`.
    pub(crate) fn write_range(&self, piles: std::ops::Range<usize>, out: &mut Vec<u8>) {
        match self {
            Values::Byte(v) => out.extend_from_slice(&v[piles]),
            Values::Narrow(v) => v[piles].iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
            Values::Wide(v) => v[piles].iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        }
    }

    /// An empty table of values `width` bytes each (1, 2 or 4) with room for `bytes` of them.
    pub(crate) fn with_room(width: u8, bytes: u64) -> Option<Values> {
        let room = bytes as usize / width.max(1) as usize;
        match width {
            1 => Some(Values::Byte(Slots::with_capacity(room))),
            2 => Some(Values::Narrow(Slots::with_capacity(room))),
            4 => Some(Values::Wide(Slots::with_capacity(room))),
            _ => None,
        }
    }

    /// Appends the values of little-endian `bytes`, `width()` bytes each (`write_range`'s
    /// inverse; a partial value at the end is left out).
    pub(crate) fn push_le_bytes(&mut self, bytes: &[u8]) {
        match self {
            Values::Byte(v) => v.extend(bytes),
            Values::Narrow(v) => v.extend(bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]))),
            Values::Wide(v) => v.extend(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
        }
    }

    /// Room for `total` values in all, so that a long run's table is not doubled past its end.
    pub(crate) fn reserve_total(&mut self, total: usize) {
        let more = total.saturating_sub(self.len());
        match self {
            Values::Byte(v) => v.reserve(more),
            Values::Narrow(v) => v.reserve(more),
            Values::Wide(v) => v.reserve(more),
        }
    }
}

/// A pile's place in the values lent to another thread (see `Values::lease`).
pub(super) enum ValueLease {
    Byte(Lease<u8>),
    Narrow(Lease<u16>),
    Wide(Lease<u32>),
}

/// A pile's place a lease filled.
#[derive(Clone)]
pub(super) enum FilledValue {
    Byte(Filled<u8>),
    Narrow(Filled<u16>),
    Wide(Filled<u32>),
}

impl ValueLease {
    /// Writes `value` in its place; the lease back unfilled when the value is wider than the
    /// table's.
    pub(super) fn fill(self, value: u32) -> Result<FilledValue, ValueLease> {
        match self {
            ValueLease::Byte(l) => match u8::try_from(value) {
                Ok(v) => Ok(FilledValue::Byte(l.fill(v))),
                Err(_) => Err(ValueLease::Byte(l)),
            },
            ValueLease::Narrow(l) => match u16::try_from(value) {
                Ok(v) => Ok(FilledValue::Narrow(l.fill(v))),
                Err(_) => Err(ValueLease::Narrow(l)),
            },
            ValueLease::Wide(l) => Ok(FilledValue::Wide(l.fill(value))),
        }
    }
}

/// The marks of one mex: a bitset that grows with the values.
#[derive(Default)]
pub(super) struct Marks {
    pub(super) words: Vec<u64>,
    /// scratch for the plain scan: a byte a value
    pub(super) bytes: Vec<u8>,
}

/// Pairs of parts a pile's plain scan must examine before piles are scanned ahead in blocks by
/// every thread: below it, a block's hand-over costs more than it saves.
pub(super) const PARALLEL_PAIRS: usize = 1 << 15;

/// How one pile's work may be shared: with how many threads, from how many options on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Parallel {
    pub(super) threads: usize,
    pub(super) from: usize,
}

impl Parallel {
    pub(super) fn share(self, options: usize) -> bool {
        self.threads > 1 && options >= self.from
    }
}

impl Marks {
    pub(super) fn reset(&mut self, largest: u32) {
        let words = largest as usize / 64 + 2;
        self.words.clear();
        self.words.resize(words, 0);
    }

    #[inline]
    pub(super) fn mark(&mut self, v: u32) {
        // Values can exceed the largest seen by XOR: grow rather than lose a mark.
        set_bit(&mut self.words, v);
    }

    /// Calls `f` with each marked value, increasing.
    pub(super) fn each_marked(&self, f: impl FnMut(u32)) {
        each_marked(&self.words, f);
    }
}

/// Sets bit `v` of a bitset that grows as needed.
#[inline]
pub(super) fn set_bit(bits: &mut Vec<u64>, v: u32) {
    let w = v as usize / 64;
    if w >= bits.len() {
        bits.resize(w + 1, 0);
    }
    bits[w] |= 1 << (v % 64);
}

/// Calls `f` with each value a bitset's words mark, increasing: `Marks::each_marked` for a caller
/// that holds the words apart from the rest of the marks. A loop rather than an iterator: a
/// take-any game marks every smaller pile's value (Lasker's Nim to 8191, callgrind: 2.00 billion
/// instructions through an iterator, 1.44 through this).
pub(super) fn each_marked(words: &[u64], mut f: impl FnMut(u32)) {
    for (i, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(i as u32 * 64 + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// Which pile sizes the table still holds. The whole table while nothing is dropped; in a
/// window, the piles below `prefix` and those from `base` on, stored right after the prefix.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reach {
    pub(super) prefix: usize,
    pub(super) base: usize,
}

impl Reach {
    pub(super) const WHOLE: Reach = Reach { prefix: 0, base: 0 };

    /// How many pile sizes are dropped between the prefix and the recent piles.
    pub(super) fn dropped(self) -> usize {
        self.base - self.prefix
    }

    /// Where pile `q`'s value is stored, if it is.
    pub(super) fn index(self, q: usize) -> Option<usize> {
        if q >= self.base {
            Some(q - self.dropped())
        } else if q < self.prefix {
            Some(q)
        } else {
            None
        }
    }
}

/// Marks x ^ y for each x of `low` and its mirror partner in `high`, sixteen pairs at a time:
/// their XORs in vector registers (the partners reversed by shuffles), then one store each. The
/// table spans every value of the slot, so no store needs a bounds check.
#[inline]
fn mark_xors_by_sixteen<T, const N: usize>(low: &[T], high: &[T], table: &mut [u8; N])
where
    T: Copy + Default + std::ops::BitXor<Output = T> + Into<usize>,
{
    let (blocks, low_rest) = low.as_chunks::<16>();
    let (high_rest, mirrors) = high.as_rchunks::<16>();
    for (x, y) in blocks.iter().zip(mirrors.iter().rev()) {
        let mut v = [T::default(); 16];
        for j in 0..16 {
            v[j] = x[j] ^ y[15 - j];
        }
        for w in v {
            table[w.into()] = 1;
        }
    }
    for (&x, &y) in low_rest.iter().zip(high_rest.iter().rev()) {
        table[(x ^ y).into()] = 1;
    }
}

/// Values as slots of their own width (for code written for one width: the scans' vector
/// path, which has none for the widest).
pub(crate) enum SlotsOf<'a> {
    Byte(&'a [u8]),
    Narrow(&'a [u16]),
    Wide,
}

pub(crate) trait Slot: Copy + Send + Sync + Into<u32> + Eq {
    /// Bytes of the scan's table that every XOR of two slots indexes (0: none worth keeping).
    const TABLE: usize;
    fn value(self) -> u32;
    /// These slots as the slice of their width.
    fn slots_of(g: &[Self]) -> SlotsOf<'_>;
    /// Marks x ^ y in `reached` for each x of `low` and the y of `high` at the mirror place
    /// (the parts of one pile's splits), `reached` holding at least `TABLE` bytes.
    fn mark_xors(low: &[Self], high: &[Self], reached: &mut [u8]);
}
impl Slot for u8 {
    const TABLE: usize = 256;
    #[inline]
    fn value(self) -> u32 {
        self as u32
    }
    #[inline]
    fn slots_of(g: &[u8]) -> SlotsOf<'_> {
        SlotsOf::Byte(g)
    }
    #[inline]
    fn mark_xors(low: &[u8], high: &[u8], reached: &mut [u8]) {
        let Some(table) = reached.first_chunk_mut::<256>() else {
            unreachable!("the scan's table holds at least 256 bytes");
        };
        mark_xors_by_sixteen(low, high, table);
    }
}
impl Slot for u16 {
    const TABLE: usize = 65536;
    #[inline]
    fn value(self) -> u32 {
        self as u32
    }
    #[inline]
    fn slots_of(g: &[u16]) -> SlotsOf<'_> {
        SlotsOf::Narrow(g)
    }
    #[inline]
    fn mark_xors(low: &[u16], high: &[u16], reached: &mut [u8]) {
        let Some(table) = reached.first_chunk_mut::<65536>() else {
            unreachable!("the scan's table holds at least 65536 bytes");
        };
        mark_xors_by_sixteen(low, high, table);
    }
}
impl Slot for u32 {
    const TABLE: usize = 0;
    #[inline]
    fn value(self) -> u32 {
        self
    }
    #[inline]
    fn slots_of(_: &[u32]) -> SlotsOf<'_> {
        SlotsOf::Wide
    }
    #[inline]
    fn mark_xors(low: &[u32], high: &[u32], reached: &mut [u8]) {
        for (x, y) in low.iter().zip(high.iter().rev()) {
            reached[(x ^ y) as usize] = 1;
        }
    }
}
