//! Brent's search on synthetic machines whose preperiod and period are known by construction.

use super::{CycleSearch, Machine, Paused};

/// A tail of `tail` states, then a linear congruential generator modulo 2^bits with the full
/// period 2^bits (Hull and Dobell: the increment odd, the multiplier 1 modulo 4): preperiod
/// `tail`, period 2^bits. `collide` makes every fingerprint equal, so that every comparison is
/// the full one.
#[derive(Clone, Debug)]
struct Synthetic {
    tail: u64,
    x: u64,
    bits: u32,
    collide: bool,
}

impl Machine for Synthetic {
    type Stuck = ();
    fn step(&mut self) -> Result<(), ()> {
        if self.tail > 0 {
            self.tail -= 1;
        } else {
            self.x = (self.x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407))
                & ((1 << self.bits) - 1);
        }
        Ok(())
    }
    fn fingerprint(&self) -> u64 {
        if self.collide {
            7
        } else {
            self.x ^ self.tail.rotate_left(32)
        }
    }
    fn same_state(&self, other: &Self) -> bool {
        (self.tail, self.x) == (other.tail, other.x)
    }
}

fn find(start: Synthetic, every: u64, stop_each_time: bool) -> (u64, u64) {
    let mut search = CycleSearch::new(start.clone()).expect("the synthetic machine always steps");
    loop {
        let mut first = true;
        let result = search.run(
            every,
            || start.clone(),
            |_| {
                if stop_each_time && !std::mem::take(&mut first) {
                    Err("paused")
                } else {
                    Ok(())
                }
            },
        );
        match result {
            Ok(found) => return found,
            Err(Paused::Stopped(_)) => continue,
            Err(Paused::Stuck(_)) => unreachable!("the synthetic machine never sticks"),
        }
    }
}

#[test]
fn brent_finds_the_preperiod_and_period_built_in() {
    for (tail, bits) in [(0, 0), (0, 1), (1, 0), (5, 3), (100, 7), (1000, 4), (37, 10), (4096, 12), (3, 12)] {
        let start = Synthetic { tail, x: 0, bits, collide: false };
        assert_eq!(find(start, 1 << 20, false), (tail, 1 << bits), "tail {tail}, period 2^{bits}");
    }
}

#[test]
fn a_long_cycle_after_a_longer_tail() {
    // Period 2^20 after a preperiod of three million: the tortoise before the last one has a
    // stretch of 2^21 >= the period, and the preperiod is looked for from it.
    let start = Synthetic { tail: 3_000_000, x: 12345, bits: 20, collide: false };
    assert_eq!(find(start, 1 << 16, false), (3_000_000, 1 << 20));
}

#[test]
fn fingerprints_that_always_collide_change_nothing_but_the_time() {
    for (tail, bits) in [(0, 5), (77, 6), (300, 2)] {
        let start = Synthetic { tail, x: 3, bits, collide: true };
        assert_eq!(find(start, 1 << 20, false), (tail, 1 << bits));
    }
}

#[test]
fn a_search_paused_at_every_chance_finds_the_same() {
    for (tail, bits, every) in [(1000, 9, 1), (5000, 11, 7), (123, 13, 1000)] {
        let start = Synthetic { tail, x: 1, bits, collide: false };
        assert_eq!(find(start.clone(), every, true), (tail, 1 << bits));
        assert_eq!(find(start, every, true), find(Synthetic { tail, x: 1, bits, collide: false }, 1 << 30, false));
    }
}
