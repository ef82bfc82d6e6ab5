//! Brent's search on synthetic machines whose preperiod and period are known by construction.

use super::{spacing_of, CycleSearch, Machine, Paused, Phase};

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
    let (mu, lam, _) = find_keeping(start, every, stop_each_time, 0);
    (mu, lam)
}

/// `find` keeping the hare's state every `snapshot_every` steps (0: never), with the steps taken.
fn find_keeping(start: Synthetic, every: u64, stop_each_time: bool, snapshot_every: u64) -> (u64, u64, u64) {
    let mut search = CycleSearch::new(start.clone()).expect("the synthetic machine always steps");
    search.snapshot_every = snapshot_every;
    // Every snapshot kept (thinning has a test of its own).
    search.most_snapshots = usize::MAX;
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
            Ok((mu, lam)) => {
                assert!(search.snapshots.is_empty(), "a search done keeps no snapshot");
                return (mu, lam, search.steps);
            }
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

#[test]
fn snapshots_find_the_same_preperiod_from_nearer() {
    // Preperiods below, at, just past and far past a snapshot, and 0; periods shorter and longer
    // than the snapshots' spacing; stopped at every chance too.
    for (tail, bits, snapshot_every) in [
        (3_000_000, 20, 1 << 16),
        (3_000_000, 12, 1 << 16),
        (65_536, 10, 1 << 16),
        (65_537, 10, 1 << 16),
        (65_535, 18, 1 << 16),
        (0, 14, 1 << 8),
        (1, 14, 1 << 8),
        (256, 3, 1 << 8),
        (12_345, 15, 1 << 10),
        (5, 0, 1 << 2),
    ] {
        let start = Synthetic { tail, x: 9 & ((1 << bits) - 1), bits, collide: false };
        let plain = find_keeping(start.clone(), 1 << 20, false, 0);
        assert_eq!((plain.0, plain.1), (tail, 1 << bits));
        // Paused at every step too (where the search is short): the copies then reach the
        // preperiod one step at a time, and find it there rather than take it for a snapshot.
        let paused = if tail < 100_000 {
            [(1 << 20, false), (4097, true), (1, true)]
        } else {
            [(1 << 20, false), (4097, true), (4097, true)]
        };
        for (every, stop_each_time) in paused {
            let kept = find_keeping(start.clone(), every, stop_each_time, snapshot_every);
            assert_eq!((kept.0, kept.1), (tail, 1 << bits), "tail {tail}, period 2^{bits}, snapshots {snapshot_every}");
        }
    }
    // Where the tortoise before is far below: Brent's tortoise finds the period 2^20 at step
    // 2^22 − 1 + 2^20, and from the tortoise at 2^21 − 1 (its stretch long enough) the
    // preperiod 3,000,000 takes 2^20 steps of one copy and 902,849 of both. With snapshots every
    // 2^16 the hare comes back to the first past the preperiod (46 · 2^16 = 3,014,656) 2^20
    // steps later; the copy a period ahead of the one below (at 2,949,120) starts from the
    // snapshot at 2,949,120 + 2^20 with no step, and the copies take 50,880 steps each.
    let start = Synthetic { tail: 3_000_000, x: 12345, bits: 20, collide: false };
    let (_, _, plain) = find_keeping(start.clone(), 1 << 16, false, 0);
    let (_, _, kept) = find_keeping(start, 1 << 16, false, 1 << 16);
    assert!(plain >= (1 << 22) - 1 + 2 * (1 << 20) + 2 * 902_849, "{plain}");
    // The last stretch of the copies stepping together is at most 2^15 each.
    assert!(kept <= 3_014_656 + (1 << 20) + 2 * 50_880 + 2 * (1 << 15), "{kept}");
    // Fingerprints that always collide: every comparison in full, the same answers.
    let start = Synthetic { tail: 700, x: 3, bits: 7, collide: true };
    assert_eq!(find_keeping(start, 1 << 20, false, 1 << 6).0, 700);
}

#[test]
fn snapshots_past_their_most_are_thinned_and_find_the_same() {
    // At most four kept, from every 2^6 steps: every other one goes and the spacing doubles,
    // as often as it takes; the answers stay the definition's.
    for (tail, bits) in [(100_000, 12), (3_000, 14), (0, 9), (65_536, 3)] {
        let start = Synthetic { tail, x: 5 & ((1 << bits) - 1), bits, collide: false };
        let mut search = CycleSearch::new(start.clone()).expect("the synthetic machine always steps");
        search.snapshot_every = 1 << 6;
        search.most_snapshots = 4;
        let mut most_kept = 0;
        let found = search.run(
            1000,
            || start.clone(),
            |s| {
                most_kept = most_kept.max(s.snapshots.len());
                assert!(s.snapshots.windows(2).all(|w| w[0].0 < w[1].0), "in order");
                // What a checkpoint read back would take the spacing to be.
                if matches!(s.phase, Phase::Period { .. }) {
                    assert_eq!(
                        spacing_of(&s.snapshots, 1 << 6),
                        s.snapshot_every,
                        "{:?}",
                        s.snapshots.iter().map(|x| x.0).collect::<Vec<_>>()
                    );
                }
                Ok::<(), ()>(())
            },
        );
        assert!(matches!(found, Ok(f) if f == (tail, 1 << bits)), "tail {tail}, period 2^{bits}: {found:?}");
        // Four, and the previous tortoise put among them when the period is found.
        assert!(most_kept <= 5, "{most_kept}");
        assert!(search.snapshot_every > 1 << 6 || tail + (2 << bits) < 1 << 8);
    }
}

/// The steps the search takes until it knows the period (the hare's), to within `every`.
fn steps_to_the_period(start: Synthetic, snapshot_every: u64, every: u64) -> u64 {
    let mut search = CycleSearch::new(start.clone()).expect("the synthetic machine always steps");
    search.snapshot_every = snapshot_every;
    search.most_snapshots = usize::MAX;
    // The search pauses as soon as it knows the period (or ends, when the preperiod needs no step).
    let result =
        search.run(every, || start.clone(), |s| if matches!(s.phase, Phase::Period { .. }) { Ok(()) } else { Err(()) });
    match result {
        Err(Paused::Stopped(())) | Ok(_) => search.steps,
        Err(Paused::Stuck(())) => unreachable!("the synthetic machine never sticks"),
    }
}

#[test]
fn the_first_snapshot_past_the_preperiod_gives_the_period_when_it_comes_back() {
    // The hare comes back to the first snapshot at or past the preperiod a period after it,
    // before Brent's tortoise (at the first 2^k − 1 past the preperiod and the period) would
    // see it: the same answers, the period known sooner; paused at every chance, and with
    // every fingerprint alike.
    for (tail, bits, snapshot_every, collide) in [
        (100_000, 12, 1 << 6, false),
        (3_000, 14, 1 << 6, false),
        (0, 9, 1 << 6, false),
        (64, 5, 1 << 6, false),
        (65_536, 3, 1 << 6, false),
        (5_000, 10, 1 << 12, true),
    ] {
        let start = Synthetic { tail, x: 77 & ((1 << bits) - 1), bits, collide };
        let period = 1u64 << bits;
        for (every, stop_each_time) in [(1 << 20, false), (997, true)] {
            let (mu, lam, _) = find_keeping(start.clone(), every, stop_each_time, snapshot_every);
            assert_eq!((mu, lam), (tail, period), "tail {tail}, period 2^{bits}");
        }
        let first_past = tail.div_ceil(snapshot_every).max(1) * snapshot_every;
        let watched = steps_to_the_period(start.clone(), snapshot_every, 64);
        assert!(watched <= first_past + period + 64 + 1, "tail {tail}, period 2^{bits}: {watched}");
        let brent = steps_to_the_period(start, 0, 64);
        let tortoise = (1..64).map(|k| (1u64 << k) - 1).find(|&t| t >= tail && t + 1 >= period).unwrap_or(0);
        assert!(brent >= tortoise + period, "tail {tail}, period 2^{bits}: {brent}");
    }
}
