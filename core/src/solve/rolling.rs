//! A rolling hash of a window of values: a polynomial modulo the Mersenne prime 2⁶¹ − 1, moved
//! one value along in two multiplies. Equal windows hash alike, and a match of hashes is then
//! checked value by value, so a collision costs time, never truth.

/// The modulus, 2⁶¹ − 1.
const PRIME: u64 = (1 << 61) - 1;
/// The polynomial's variable.
const BASE: u64 = 0x05bd_1e99_5123_4567;

/// x modulo 2⁶¹ − 1, for x below twice that.
fn reduce(x: u64) -> u64 {
    if x >= PRIME {
        x - PRIME
    } else {
        x
    }
}

/// a·b modulo 2⁶¹ − 1, for a, b below it: the product's high bits fold onto its low ones
/// (2⁶¹ ≡ 1), with no division.
fn mul_mod(a: u64, b: u64) -> u64 {
    let product = a as u128 * b as u128;
    reduce((product as u64 & PRIME) + (product >> 61) as u64)
}

/// The hash of windows of one length: Σ value(k)·BASE^(window − 1 − k) over the window's values
/// oldest first, each value below 2⁶¹ − 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RollingHash {
    /// BASE^window: the weight the value leaving the window would have had after a move
    leaving_weight: u64,
}

impl RollingHash {
    /// The hash of windows of `window` values.
    pub(crate) fn new(window: usize) -> RollingHash {
        RollingHash { leaving_weight: (0..window).fold(1, |p, _| mul_mod(p, BASE)) }
    }

    /// The hash of a window's values, oldest first.
    pub(crate) fn of(&self, oldest_first: impl IntoIterator<Item = u64>) -> u64 {
        oldest_first.into_iter().fold(0, |h, v| reduce(mul_mod(h, BASE) + v))
    }

    /// The hash once `leaving` (the oldest value) has left the window of hash `hash` and
    /// `entering` has come in as the newest. The two products are independent, so that a run of
    /// moves waits on one multiply each, not two.
    pub(crate) fn moved(&self, hash: u64, leaving: u64, entering: u64) -> u64 {
        let shifted = mul_mod(hash, BASE);
        let dropped = mul_mod(leaving, self.leaving_weight);
        reduce(reduce(shifted + PRIME - dropped) + entering)
    }
}

/// A quicker fingerprint of the same windows, for a machine that moves its window at every
/// step: the polynomial modulo 2⁶⁴, whose multiplies are one instruction each with no folding.
/// It is weaker than the prime's (windows built like Thue and Morse's sequence can collide),
/// which costs a full comparison, never truth; nothing keeps it in a file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuickRollingHash {
    /// QUICK_BASE^window, as `RollingHash::leaving_weight`
    leaving_weight: u64,
}

/// The quick polynomial's variable: odd, so that its powers never vanish modulo 2⁶⁴.
const QUICK_BASE: u64 = 0x9e37_79b9_7f4a_7c15;

impl QuickRollingHash {
    /// The hash of windows of `window` values.
    pub(crate) fn new(window: usize) -> QuickRollingHash {
        QuickRollingHash { leaving_weight: (0..window).fold(1u64, |p, _| p.wrapping_mul(QUICK_BASE)) }
    }

    /// The hash of a window's values, oldest first.
    pub(crate) fn of(&self, oldest_first: impl IntoIterator<Item = u64>) -> u64 {
        oldest_first.into_iter().fold(0u64, |h, v| h.wrapping_mul(QUICK_BASE).wrapping_add(v))
    }

    /// The hash once `leaving` has left the window of hash `hash` and `entering` has come in.
    pub(crate) fn moved(&self, hash: u64, leaving: u64, entering: u64) -> u64 {
        hash.wrapping_mul(QUICK_BASE).wrapping_sub(leaving.wrapping_mul(self.leaving_weight)).wrapping_add(entering)
    }
}

#[cfg(test)]
mod tests {
    use super::{QuickRollingHash, RollingHash};

    /// Moving a hash along values gives the hash of each window, computed afresh; and windows
    /// that differ in their first or last value hash apart.
    fn rolls_as_computed_afresh(of: impl Fn(&[u64]) -> u64, moved: impl Fn(u64, u64, u64) -> u64, window: usize) {
        let values: Vec<u64> = (0..300u64).map(|i| (i * i * 7 + 3 * i) % 127).collect();
        let mut rolled = of(&values[..window]);
        for start in 1..values.len() - window {
            rolled = moved(rolled, values[start - 1], values[start + window - 1]);
            assert_eq!(rolled, of(&values[start..start + window]), "window {window}, from {start}");
        }
        let mut last = values[..window].to_vec();
        last[window - 1] += 1;
        let mut first = values[..window].to_vec();
        first[0] += 1;
        let (a, b, c) = (of(&values[..window]), of(&last), of(&first));
        assert!(a != b && a != c && (window == 1 || b != c), "window {window}");
    }

    #[test]
    fn a_moved_hash_is_the_hash_of_the_moved_window() {
        for window in [1, 2, 5, 64, 200] {
            let hash = RollingHash::new(window);
            rolls_as_computed_afresh(|w| hash.of(w.iter().copied()), |h, l, e| hash.moved(h, l, e), window);
            let quick = QuickRollingHash::new(window);
            rolls_as_computed_afresh(|w| quick.of(w.iter().copied()), |h, l, e| quick.moved(h, l, e), window);
        }
    }
}
