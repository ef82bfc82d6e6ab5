//! The classes of the sparse-space method: which values are common and which rare for a pile
//! of each parity.

use super::values::Values;

/// The sparse-space classes: a value v is common for a pile of size n when the parity of the
/// bits it shares with `mask` is `parity[n & 1]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Classes {
    pub(super) mask: u32,
    pub(super) parity: [u32; 2],
}

impl Classes {
    /// Whether v is a common value for a pile of size n.
    #[inline]
    pub(super) fn common(self, v: u32, n: u64) -> bool {
        (v & self.mask).count_ones() & 1 == self.parity[(n & 1) as usize]
    }

    /// How many of the piles in `piles` have a rare value.
    pub(super) fn rare_among(self, values: &Values, piles: std::ops::Range<usize>) -> usize {
        piles.filter(|&n| (values.get(n) & self.mask).count_ones() & 1 != self.parity[n & 1]).count()
    }
}
