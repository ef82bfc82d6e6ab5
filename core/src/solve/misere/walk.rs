//! The exact check of a candidate quotient: `certify` first, and where it is inconclusive the
//! walk over every pair (Φ(G), W(G)) reachable from the empty sum (the argument is in
//! `quotient`'s module comment).

use std::collections::HashMap;

use super::certify::{certify, Verdict};
use super::monoid::{Meter, Monoid};

/// The exact check of a candidate: every pair (Φ(G), W(G)) reachable from the empty sum.
#[derive(Clone)]
pub(super) struct Checker {
    /// Heap kinds: (Φ, images of options); heaps of one kind act alike.
    pub(super) types: Vec<(u32, Vec<u32>)>,
    /// Reached pairs, and for each the kinds already applied to it.
    seen: HashMap<(u32, Vec<u64>), usize>,
    states: Vec<(u32, Vec<u64>)>,
    done_types: Vec<usize>,
    d: Vec<Vec<u64>>,
}

impl Checker {
    pub(super) fn new(monoid: &Monoid) -> Checker {
        Checker {
            types: Vec::new(),
            seen: HashMap::new(),
            states: Vec::new(),
            done_types: Vec::new(),
            d: monoid.d_sets(),
        }
    }

    pub(super) fn add_type(&mut self, phi: u32, images: Vec<u32>) {
        if !self.types.iter().any(|(p, t)| *p == phi && *t == images) {
            self.types.push((phi, images));
        }
    }

    /// Checks the candidate: `certify` settles most without walking the pairs; `Err` when the
    /// walk would visit more than `limit` pairs, or the meter runs out.
    pub(super) fn run(&mut self, monoid: &Monoid, limit: usize, meter: &Meter) -> Result<bool, ()> {
        match certify(monoid, &self.types, meter) {
            None => Err(()),
            Some(Verdict::Correct) => Ok(true),
            Some(Verdict::Wrong) => Ok(false),
            Some(Verdict::Unknown) => self.walk(monoid, limit, meter),
        }
    }

    /// Walks every reachable pair and checks it against the misère recursion.
    pub(super) fn walk(&mut self, monoid: &Monoid, limit: usize, meter: &Meter) -> Result<bool, ()> {
        let m = monoid.order;
        let words = m.div_ceil(64);
        // The empty sum: no move, so an N-position under misère play.
        if self.states.is_empty() {
            if monoid.in_p(0) {
                return Ok(false);
            }
            self.states.push((0, vec![0; words]));
            self.done_types.push(0);
        }
        let mut i = 0;
        while i < self.states.len() {
            while self.done_types[i] < self.types.len() {
                let (phi, images) = &self.types[self.done_types[i]];
                self.done_types[i] += 1;
                if !meter.spend(1 + m as u64 / 8 + (images.len() * words) as u64) {
                    return Err(());
                }
                let (x, w) = &self.states[i];
                let y = monoid.mul(*x, *phi);
                let next = monoid.contexts_after(&self.d, *x, w, *phi, images);
                // It has a move (the heap's); it is P exactly when no option is.
                let p = next[0] & 1 == 0;
                if monoid.in_p(y) != p {
                    return Ok(false);
                }
                let key = (y, next);
                if !self.seen.contains_key(&key) {
                    if self.states.len() >= limit {
                        return Err(());
                    }
                    self.seen.insert(key.clone(), self.states.len());
                    self.states.push(key);
                    self.done_types.push(0);
                }
            }
            i += 1;
        }
        Ok(true)
    }
}
