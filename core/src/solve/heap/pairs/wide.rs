//! The scans over pairs of parts 32 pairs at a time with AVX-512, where the machine has it: the
//! 32 XORs in one register, and whether each is needed looked up in the table of values needed
//! held as 1,024 bits in two others. A chunk no pair of which reaches a needed value (most of them,
//! once the common values are crossed off) costs a few instructions; one that does is crossed
//! off pair by pair in the scalar scan's order, so that where the scan stops, what it crosses off
//! and the work it counts are the scalar scan's own.

use super::Direction;
use std::arch::x86_64::{
    __m512i, _mm256_loadu_si256, _mm512_and_si512, _mm512_andnot_si512, _mm512_cvtepu8_epi16, _mm512_loadu_si512,
    _mm512_maskz_set1_epi16, _mm512_permutex2var_epi16, _mm512_permutexvar_epi16, _mm512_set1_epi16, _mm512_set_epi16,
    _mm512_srli_epi16, _mm512_srlv_epi16, _mm512_storeu_si512, _mm512_test_epi16_mask, _mm512_test_epi8_mask,
    _mm512_xor_si512,
};

/// Pairs a chunk holds: 32 values of 16 bits fill a 512-bit register.
const CHUNK: usize = 32;
/// The most bytes the table of values needed may have: every XOR the scan indexes it with is
/// then below 1,024, which indexes the bits directly.
const TABLE_BITS: usize = 1024;
/// The table's bits in words of 16.
const WORDS: usize = TABLE_BITS / 16;

/// Whether the scans may go 32 pairs at a time here: the machine has AVX-512 (its byte and word
/// instructions) and the table of values needed has at most 1,024 bytes.
pub(super) fn usable(need: &[u8]) -> bool {
    need.len() <= TABLE_BITS && std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
}

/// Slots loaded 32 at a time as 16-bit lanes.
pub(super) trait Lanes: Copy + Into<u32> {
    /// # Safety
    /// The machine has AVX-512F and AVX-512BW.
    unsafe fn lanes(chunk: &[Self; CHUNK]) -> __m512i;
}

impl Lanes for u8 {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn lanes(chunk: &[u8; CHUNK]) -> __m512i {
        // SAFETY: the array holds the 32 bytes read.
        _mm512_cvtepu8_epi16(unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) })
    }
}

impl Lanes for u16 {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn lanes(chunk: &[u16; CHUNK]) -> __m512i {
        // SAFETY: the array holds the 64 bytes read.
        unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
    }
}

/// The table of values needed as 1,024 bits, in two registers of 32 words of 16 (values 0 to
/// 511, and 512 to 1,023), kept in step as values are crossed off without a round trip through
/// memory.
struct NeedBits {
    low: __m512i,
    high: __m512i,
}

impl NeedBits {
    /// The bits of `need` (at most 1,024 bytes), 64 bytes to a vector test where they fill one.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn of(need: &[u8]) -> NeedBits {
        let mut words = [0u16; WORDS];
        let (sixty_fours, rest) = need.as_chunks::<64>();
        for (four, bytes) in words.chunks_exact_mut(4).zip(sixty_fours) {
            // SAFETY: the array holds the 64 bytes read.
            let bytes = unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) };
            let set = _mm512_test_epi8_mask(bytes, bytes);
            for (i, word) in four.iter_mut().enumerate() {
                *word = (set >> (16 * i)) as u16;
            }
        }
        let done = 4 * sixty_fours.len();
        for (word, bytes) in words[done..].iter_mut().zip(rest.chunks(16)) {
            *word = bytes.iter().enumerate().fold(0, |w, (i, &b)| w | (u16::from(b != 0) << i));
        }
        let (low, high) = words.split_at(CHUNK);
        // SAFETY: each half holds the 64 bytes read.
        unsafe {
            NeedBits { low: _mm512_loadu_si512(low.as_ptr().cast()), high: _mm512_loadu_si512(high.as_ptr().cast()) }
        }
    }

    /// Clears value v's bit (v below 1,024), with no branch: the lane of its word is picked in
    /// both registers, in one of them none.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn clear(&mut self, v: usize) {
        let (word, bit) = (v / 16, v % 16);
        let lanes = 1u64 << (word % (2 * CHUNK));
        let one = (1u16 << bit) as i16;
        self.low = _mm512_andnot_si512(_mm512_maskz_set1_epi16(lanes as u32, one), self.low);
        self.high = _mm512_andnot_si512(_mm512_maskz_set1_epi16((lanes >> CHUNK) as u32, one), self.high);
    }
}

/// The XORs of `low` with `high` reversed (lane k: low[k] ^ high[31 − k]), and a mask of those
/// whose bit in `need` is set.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn needed(low: __m512i, high: __m512i, need: &NeedBits) -> (__m512i, u32) {
    let reverse = _mm512_set_epi16(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31,
    );
    let xors = _mm512_xor_si512(low, _mm512_permutexvar_epi16(reverse, high));
    // The word holding each XOR's bit (its top six bits of ten pick one of 64), then the bit.
    let words = _mm512_permutex2var_epi16(need.low, _mm512_srli_epi16::<4>(xors), need.high);
    let bits = _mm512_srlv_epi16(words, _mm512_and_si512(xors, _mm512_set1_epi16(15)));
    (xors, _mm512_test_epi16_mask(bits, _mm512_set1_epi16(1)))
}

/// The lanes of a register as 32 words.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn words(v: __m512i) -> [u16; CHUNK] {
    let mut out = [0u16; CHUNK];
    // SAFETY: the array holds the 64 bytes written.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
    out
}

/// Crosses off the values of the pairs in `hits` still needed, in the scalar scan's order (pair
/// k is lane k going up, lane 31 − k going down): the pair that crossed off the last value
/// missing, if one did.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn cross_off_hits(
    xors: __m512i,
    hits: u32,
    direction: Direction,
    need: &mut [u8],
    bits: &mut NeedBits,
    missing: &mut usize,
) -> Option<usize> {
    let xors = words(xors);
    // Pair k is lane k going up, lane 31 − k (k XOR 31) going down.
    let (mut left, flip) = match direction {
        Direction::Up => (hits, 0),
        Direction::Down => (hits.reverse_bits(), CHUNK - 1),
    };
    while left != 0 {
        let k = left.trailing_zeros() as usize;
        left &= left - 1;
        // With no branch on whether the value is still needed: a lane hits only a needed value,
        // unless an earlier lane of the chunk crossed the same value off, and then its bit and
        // its byte are clear already.
        let v = usize::from(xors[(k ^ flip) % CHUNK]);
        *missing -= usize::from(need[v] != 0);
        need[v] = 0;
        bits.clear(v);
        if *missing == 0 {
            return Some(k);
        }
    }
    None
}

/// As `scan_pairs_up` (pairs (a + k, right − a − k), up, over whole chunks while
/// `*a + 32 ≤ stop`) or `scan_pairs` (pairs (a − k, right − a + k), down, while
/// `*a ≥ stop + 32`): true once none is missing, with `*a` past the block of eight pairs that
/// found the last (as the scalar scan leaves it); false with `*a` where the scalar scan goes on.
///
/// # Safety
/// `usable(need)`.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn scan<T: Lanes>(
    g: &[T],
    right: usize,
    a: &mut usize,
    stop: usize,
    need: &mut [u8],
    missing: &mut usize,
    direction: Direction,
) -> bool {
    // The whole chunks within reach, found before the loop so that a chunk costs no bounds
    // check. Lane k of a chunk holds its k-th part in the order they are stored and their
    // partners reversed: going up pair k is lane k, going down lane 31 − k. Each bound falls as
    // the chunks go on or holds for every one of them, so the count is where the scalar loop's
    // first failed test would be.
    let (len, start) = (g.len(), *a);
    let found = match direction {
        Direction::Up => {
            // Chunk i: parts from a + 32i, partners from right + 1 − a − 32(i + 1).
            let chunks = if right + 1 >= start && right + 1 - start <= len {
                stop.saturating_sub(start).min(len.saturating_sub(start)).min(right + 1 - start) / CHUNK
            } else {
                0
            };
            let (lows, _) = g[start..start + chunks * CHUNK].as_chunks::<CHUNK>();
            let (highs, _) = g[right + 1 - start - chunks * CHUNK..right + 1 - start].as_chunks::<CHUNK>();
            // SAFETY: the caller checked the machine.
            let found = unsafe { scan_chunks(lows.iter().zip(highs.iter().rev()), direction, need, missing) };
            *a = start + found.map_or(chunks * CHUNK, |(i, step)| i * CHUNK + step);
            found
        }
        Direction::Down => {
            // Chunk i: parts from a + 1 − 32(i + 1), partners from right − a + 32i.
            let chunks = if start < len && right >= start && right - start <= len {
                start.saturating_sub(stop).min(len - (right - start)) / CHUNK
            } else {
                0
            };
            let (lows, _) = g[start + 1 - chunks * CHUNK..start + 1].as_chunks::<CHUNK>();
            let (highs, _) = g[right - start..right - start + chunks * CHUNK].as_chunks::<CHUNK>();
            // SAFETY: the caller checked the machine.
            let found = unsafe { scan_chunks(lows.iter().rev().zip(highs), direction, need, missing) };
            *a = start - found.map_or(chunks * CHUNK, |(i, step)| i * CHUNK + step);
            found
        }
    };
    found.is_some()
}

/// The chunks' pairs crossed off in order, until none is missing: then the chunk's number and
/// how far into it the scan goes (past the block of eight pairs that found the last).
///
/// # Safety
/// `usable(need)`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn scan_chunks<'g, T: Lanes + 'g>(
    chunks: impl Iterator<Item = (&'g [T; CHUNK], &'g [T; CHUNK])>,
    direction: Direction,
    need: &mut [u8],
    missing: &mut usize,
) -> Option<(usize, usize)> {
    let mut bits = NeedBits::of(need);
    for (i, (low, high)) in chunks.enumerate() {
        // SAFETY: the caller checked the machine.
        let (xors, hits) = unsafe { needed(T::lanes(low), T::lanes(high), &bits) };
        // Most chunks reach no value needed: they cost no more than this test.
        if hits != 0 {
            if let Some(k) = cross_off_hits(xors, hits, direction, need, &mut bits, missing) {
                return Some((i, (k / 8 + 1) * 8));
            }
        }
    }
    None
}
