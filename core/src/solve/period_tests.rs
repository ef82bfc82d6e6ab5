//! The look for a period against its definition, shift by shift.

use proptest::prelude::*;

/// What `detect` promises, checked shift by shift: the smallest p ≤ len/2 whose tail (the
/// longest stretch at the end where G(j + p) = G(j) + s, s = 0 unless arithmetic, and then
/// s ≠ 0) is at least three periods and half the sequence; the preperiod is where that tail
/// starts.
fn detect_by_definition(values: &[i64], arithmetic: bool) -> Option<(usize, usize, i64)> {
    let len = values.len();
    if len < 2 {
        return None;
    }
    (1..=len / 2).find_map(|p| {
        let saltus = if arithmetic { values[len - 1] - values[len - 1 - p] } else { 0 };
        if arithmetic && saltus == 0 {
            return None;
        }
        let mut start = len - p;
        while start > 0 && values[start - 1 + p] - values[start - 1] == saltus {
            start -= 1;
        }
        let tail = len - start;
        (tail >= 3 * p && tail >= len / 2).then_some((start, p, saltus))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn a_period_is_detected_as_defined(
        seed in proptest::collection::vec(0i64..3, 1..9),
        prefix in proptest::collection::vec(0i64..4, 0..12),
        len in 2usize..80,
        saltus in 0i64..3,
        noise in proptest::collection::vec((0usize..80, 0i64..3), 0..2),
    ) {
        // A sequence that repeats `seed` (adding `saltus` each time round) after `prefix`,
        // with a value or two changed: periods, near-periods and none at all.
        let p = seed.len();
        let mut values: Vec<i64> = (0..len)
            .map(|i| if i < prefix.len() { prefix[i] } else { let k = i - prefix.len(); seed[k % p] + saltus * (k / p) as i64 })
            .collect();
        for (at, v) in noise {
            if at < len {
                values[at] = v;
            }
        }
        for arithmetic in [false, true] {
            prop_assert_eq!(
                super::detect(&values, arithmetic),
                detect_by_definition(&values, arithmetic),
                "{:?}, arithmetic: {}", values, arithmetic
            );
        }
        // Stored narrower, as the kernel stores them, the values give the same answer.
        if values.iter().all(|&v| (0..=255).contains(&v)) {
            let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
            prop_assert_eq!(super::detect(&bytes, false), detect_by_definition(&values, false));
        }
    }
}
