//! The pieces the quotient and the learner share: words (sums of heaps), the finite monoid with
//! its P-portion, and the meter of one question's work. Both build on these; neither on the
//! other's.

/// A word: a sum of heaps, as its heap sizes in increasing order (no zeros).
pub(crate) type Word = Vec<u64>;

/// The options of a word (a sum of heaps), as words, each sorted, without repeats.
pub(super) fn children(word: &[u64], options: &dyn Fn(u64) -> Vec<Word>) -> Vec<Word> {
    let mut out = Vec::new();
    for i in 0..word.len() {
        if i > 0 && word[i] == word[i - 1] {
            continue;
        }
        for o in options(word[i]) {
            let mut w: Word = word[..i].iter().chain(&word[i + 1..]).copied().collect();
            w.extend(o.iter().copied().filter(|&h| h > 0));
            w.sort_unstable();
            out.push(w);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// `v` sorted, without repeats.
pub(super) fn dedup(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v.dedup();
    v
}

/// Work spent on one question, in elementary steps of the check and the learner, against a
/// limit derived from the question's `Limits`: running out leaves the quotient as it was (the
/// next question, with its own allowance, goes on from there), unlike a `Stop`.
#[derive(Debug)]
pub(crate) struct Meter {
    pub(super) used: std::cell::Cell<u64>,
    pub(super) limit: u64,
    /// The question's limits, whose cancel token and deadline are looked at every
    /// `LOOK_EVERY` steps: one heap of a large quotient may take many seconds.
    limits: Option<crate::solve::Limits>,
    next_look: std::cell::Cell<u64>,
    /// Why the question stopped (cancelled, or out of time), once it has.
    stopped: std::cell::RefCell<Option<crate::solve::SolveError>>,
}

/// Steps between two looks at a question's cancel token and deadline (well under a
/// millisecond of work).
const LOOK_EVERY: u64 = 1 << 14;

impl Meter {
    pub(crate) fn new(limit: u64) -> Meter {
        Meter {
            used: std::cell::Cell::new(0),
            limit,
            limits: None,
            next_look: std::cell::Cell::new(LOOK_EVERY),
            stopped: std::cell::RefCell::new(None),
        }
    }

    /// A meter of `limit` steps that also ends when the question of `limits` is cancelled or
    /// out of time (`stop` then says which).
    pub(crate) fn within(limit: u64, limits: &crate::solve::Limits) -> Meter {
        Meter { limits: Some(limits.clone()), ..Meter::new(limit) }
    }

    /// Spends `steps`; false once the limit is passed or the question stopped.
    pub(crate) fn spend(&self, steps: u64) -> bool {
        self.used.set(self.used.get().saturating_add(steps));
        if self.used.get() >= self.next_look.get() {
            self.next_look.set(self.used.get().saturating_add(LOOK_EVERY));
            if let Some(limits) = &self.limits {
                if let Err(e) = crate::solve::check_cancel(limits) {
                    *self.stopped.borrow_mut() = Some(e);
                }
            }
        }
        !self.exhausted()
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.used.get() > self.limit || self.stopped.borrow().is_some()
    }

    /// Why the question stopped, if it was cancelled or ran out of time.
    pub(crate) fn stop(&self) -> Option<crate::solve::SolveError> {
        self.stopped.borrow_mut().take()
    }

    pub(crate) fn used(&self) -> u64 {
        self.used.get()
    }
}

/// A finite commutative monoid with a P-portion: element 0 is the identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Monoid {
    pub(super) order: usize,
    /// `mul[x * order + y]`
    pub(super) mul: Vec<u32>,
    pub(super) p: Vec<bool>,
}

impl Monoid {
    pub(super) fn from_parts(order: usize, mul: Vec<u32>, p: Vec<bool>) -> Monoid {
        Monoid { order, mul, p }
    }

    pub(super) fn trivial() -> Monoid {
        Monoid { order: 1, mul: vec![0], p: vec![false] }
    }

    pub(crate) fn order(&self) -> usize {
        self.order
    }

    pub(crate) fn mul(&self, x: u32, y: u32) -> u32 {
        self.mul[x as usize * self.order + y as usize]
    }

    pub(crate) fn in_p(&self, x: u32) -> bool {
        self.p[x as usize]
    }

    /// The contexts in which G + h has an option in P, from G's element `x` and its own such
    /// contexts `w`, and the heap's element `phi` and its options' elements: { z : Φ(h)z ∈ W }
    /// (a move in G) ∪ ⋃ D(x·t) (a move in h). `d` is `d_sets()`.
    pub(super) fn contexts_after(&self, d: &[Vec<u64>], x: u32, w: &[u64], phi: u32, images: &[u32]) -> Vec<u64> {
        let mut next = self.moves_in(d, x, images);
        self.add_shifted(&mut next, w, phi);
        next
    }

    /// ⋃ D(x·t) over the options' elements t: the contexts in which a move in the heap reaches P.
    pub(super) fn moves_in(&self, d: &[Vec<u64>], x: u32, images: &[u32]) -> Vec<u64> {
        let mut set = vec![0u64; self.order.div_ceil(64)];
        for &t in images {
            for (a, b) in set.iter_mut().zip(&d[self.mul(x, t) as usize]) {
                *a |= b;
            }
        }
        set
    }

    /// Adds { z : φz ∈ W } to `out`: the contexts of G in which G + h, with h of element φ, has
    /// a move in G to P.
    pub(super) fn add_shifted(&self, out: &mut [u64], w: &[u64], phi: u32) {
        for z in 0..self.order {
            let u = self.mul(phi, z as u32) as usize;
            if w[u / 64] >> (u % 64) & 1 != 0 {
                out[z / 64] |= 1 << (z % 64);
            }
        }
    }

    /// D(u) = { z : uz ∈ P } as a bit set.
    pub(super) fn d_sets(&self) -> Vec<Vec<u64>> {
        let words = self.order.div_ceil(64);
        (0..self.order)
            .map(|u| {
                let mut set = vec![0u64; words];
                for z in 0..self.order {
                    if self.p[self.mul[u * self.order + z] as usize] {
                        set[z / 64] |= 1 << (z % 64);
                    }
                }
                set
            })
            .collect()
    }
}
