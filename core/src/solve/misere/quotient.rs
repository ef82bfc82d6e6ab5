//! The misère quotient of a heap game (Plambeck; Plambeck and Siegel): the commutative monoid
//! of its sums modulo indistinguishability, its P-portion, and Φ, the element each heap pretends
//! to be. Built heap by heap, and every step is checked exactly before it is kept.
//!
//! Written from the published definitions:
//! - positions G, H of a closed set A are *indistinguishable* when o⁻(G + X) = o⁻(H + X) for
//!   every X in A; the classes form a commutative monoid Q, and P ⊆ Q holds the classes of
//!   P-positions (a *bipartite monoid*);
//! - a candidate (Q, P, Φ) is *correct* when every position G of A is a P-position exactly when
//!   Φ(G) ∈ P; a correct candidate whose elements are pairwise distinguishable (x ≠ y ⇒ some z
//!   with xz ∈ P, yz ∉ P) and all reached by Φ is the quotient itself.
//!
//! How a candidate is checked. Most candidates are settled by `certify`, whose cost grows with
//! the order and the heaps, not with the sums; when it is inconclusive, the walk below decides
//! (this module's own argument). The images of the options of a sum
//! G are ⋃ over its heaps h of Φ(G − h)·T(h), where T(h) holds the images of h's options. So the
//! pair (Φ(G), W(G)), with W(G) = { z : some option image u has uz ∈ P }, is determined by the
//! pair of G and the heap added: (x, W) + h = (xΦ(h), { z : Φ(h)z ∈ W } ∪ ⋃_{t ∈ T(h)} D(xt)),
//! where D(u) = { z : uz ∈ P }. G is a P-position exactly when it has a move and 1 ∉ W(G). Every
//! position's pair is reached from the empty sum's by adding heaps, so a breadth-first walk over
//! the finitely many pairs checks the candidate against the misère recursion for every position
//! of A at once: no position can be missed, however many heaps it has.
//!
//! How a candidate is found for heap n, given the quotient of heaps below n: assume the new heap
//! splits no old element, compute the outcome of (old element's representative + k copies of n)
//! for k = 0, 1, 2, … by the misère recursion until the outcomes repeat, multiply the old
//! quotient by the cyclic part so found, and merge indistinguishable elements (Moore's
//! refinement over the generators). A candidate that fails is stepped once by the recursion
//! (`step`): the stepped candidate is kept if it passes, and otherwise its sums of old heaps,
//! which tell apart what the new heap separates, are the base of the next candidate. The
//! assumptions only guide the search: the check decides, and a candidate that fails it is never
//! kept. Where none of these candidates passes (a new heap splits elements in a way stepping does
//! not find, as Dawson's Kayles' heap 25 does), the quotient is built exactly by relative
//! quotients (`relative`), from the first heap, and every later heap is added that way.

use std::collections::HashMap;

use super::relative::{self, Rel};
use super::step::step;
use super::walk::Checker;

pub(crate) use super::monoid::Word;
use super::monoid::{children, dedup};
pub(crate) use super::monoid::{Meter, Monoid};

/// Why the quotient stopped growing at a heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The quotient would have more than this many elements.
    Order { heap: u64, limit: usize },
    /// Checking a candidate would visit more than this many pairs.
    Check { heap: u64, limit: usize },
    /// No candidate of the kind this method builds passed the check at this heap.
    NoCandidate { heap: u64 },
    /// Telling apart the positions the new heap separates needed more than this many elements.
    Refinement { heap: u64, limit: usize },
    /// The outcomes of this many copies of the new heap beside the old sums did not repeat.
    Copies { heap: u64, most: usize },
}

impl Stop {
    pub(crate) fn describe(&self) -> String {
        match self {
            // The candidate is an upper bound on the quotient: the true order may be far less.
            Stop::Order { heap, limit } => format!(
                "at heap {heap} the candidate this method builds, the quotient so far times the new heap's cycle, \
                 had more than {limit} distinguishable elements, its bound; the quotient itself may be smaller"
            ),
            Stop::Check { heap, limit } => {
                format!(
                    "at heap {heap} checking the candidate would visit more than {limit} states, the bound on a check"
                )
            }
            Stop::NoCandidate { heap } => format!(
                "at heap {heap} no candidate that extends the quotient passed the check (this method finds the next \
                 base two ways, stepping a failed candidate and refining by options, up to {} bases each); the \
                 quotient itself may still be finite",
                MOST_REFINEMENTS + 1
            ),
            Stop::Refinement { heap, limit } => format!(
                "at heap {heap} telling apart the positions the new heap separates needed more than {limit} elements, \
                 this method's bound"
            ),
            Stop::Copies { heap, most } => format!(
                "at heap {heap} the outcomes of up to {most} copies of the new heap beside the smaller heaps did not \
                 repeat, this method's bound"
            ),
        }
    }
}

/// How `extend` finds the next base when a candidate fails.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strategy {
    /// Step the failed candidate by the recursion (`step`) and take its old sums.
    Step,
    /// Refine the base by the options, as the failed candidate sees them.
    Refine,
}

/// Why a heap was not added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotAdded {
    /// The quotient stops here for good (see `stopped`).
    Stopped,
    /// This question's allowance of work ran out; a later question may add the heap.
    OutOfWork,
}

/// Bounds on the work one quotient may take.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub max_order: usize,
    pub max_check_states: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds { max_order: 1024, max_check_states: 400_000 }
    }
}

/// How many times the base is refined (one step deeper into the options each time) before a
/// heap is given up.
const MOST_REFINEMENTS: usize = 8;

/// The most elements a refinement of the base may have (its product table is kept whole).
const MOST_REFINED: usize = 1024;

/// Up to this heap, a heap the construction cannot add is learnt from exact outcomes instead.
const LEARNT_HEAPS: u64 = 12;

/// The relative quotient keeps the empty sum apart and its slices refine one another: it may
/// have this many times the elements the quotient itself is allowed.
const RELATIVE_ORDER_FACTOR: usize = 4;

/// How many copies of a new heap are tried before the outcomes must repeat.
const MOST_COPIES: usize = 12;

/// The quotient of heaps 0..=`heaps()`-1, with Φ of each and a shortest word for each element.
pub(crate) struct Quotient {
    monoid: Monoid,
    phi: Vec<u32>,
    /// For each element, a word of least total size that it is the class of.
    reps: Vec<Word>,
    /// For each heap, its options as words.
    options: Vec<Vec<Word>>,
    check: Checker,
    bounds: Bounds,
    stopped: Option<Stop>,
    /// The order of the quotient after each heap, to tell when it last grew.
    order_after: Vec<usize>,
    /// The options of the heap being added.
    pending: Vec<Word>,
    /// The relative quotient (unreduced: it keeps the empty sum apart) once a heap needed it;
    /// every later heap is added to it.
    relative: Option<Rel>,
}

impl Quotient {
    pub(crate) fn new(bounds: Bounds) -> Quotient {
        let monoid = Monoid::trivial();
        let check = Checker::new(&monoid);
        Quotient {
            monoid,
            phi: vec![0],
            reps: vec![Vec::new()],
            options: vec![Vec::new()],
            check,
            bounds,
            stopped: None,
            order_after: vec![1],
            pending: Vec::new(),
            relative: None,
        }
    }

    pub(crate) fn monoid(&self) -> &Monoid {
        &self.monoid
    }

    /// Heaps 0..heaps() have their Φ.
    pub(crate) fn heaps(&self) -> u64 {
        self.phi.len() as u64
    }

    pub(crate) fn phi(&self, heap: u64) -> Option<u32> {
        self.phi.get(heap as usize).copied()
    }

    pub(crate) fn phis(&self) -> &[u32] {
        &self.phi
    }

    pub(crate) fn stopped(&self) -> Option<&Stop> {
        self.stopped.as_ref()
    }

    #[cfg(test)]
    pub(crate) fn rep(&self, x: u32) -> &Word {
        &self.reps[x as usize]
    }

    pub(crate) fn order_after(&self, heap: u64) -> usize {
        self.order_after[heap as usize]
    }

    /// The element of a sum of heaps already added.
    pub(crate) fn product(&self, heaps: &[u64]) -> Option<u32> {
        heaps.iter().try_fold(0u32, |acc, &h| Some(self.monoid.mul(acc, self.phi(h)?)))
    }

    /// Adds the next heap, whose options are `options` (words of smaller heaps), spending work
    /// from `meter`. When the heap cannot be added the quotient stays as it was.
    pub(crate) fn push(&mut self, options: Vec<Word>, meter: &Meter) -> Result<(), NotAdded> {
        if self.stopped.is_some() {
            return Err(NotAdded::Stopped);
        }
        let heap = self.heaps();
        if options.is_empty() {
            // A heap with no move is the empty game.
            if let Some(rel) = &mut self.relative {
                rel.heap.push(0);
            }
            self.phi.push(0);
            self.options.push(options);
            self.order_after.push(self.monoid.order);
            return Ok(());
        }
        self.pending = options;
        if self.relative.is_some() {
            let result = self.extend_relative(meter);
            let options = std::mem::take(&mut self.pending);
            return self.settle(heap, options, result, meter);
        }
        // Stepping first (it finds what refining cannot, as in Grundy's game from heap 20), then
        // refining, whose answer (and reason to stop) stands when neither passes.
        let mut result = match self.extend(heap, meter, Strategy::Step) {
            Ok(Some(found)) => Ok(Some(found)),
            _ if meter.exhausted() => Ok(None),
            _ => self.extend(heap, meter, Strategy::Refine),
        };
        if matches!(result, Ok(None) | Err(Stop::Refinement { .. })) && heap <= LEARNT_HEAPS && !meter.exhausted() {
            result = self.learn(heap, meter);
        }
        if matches!(result, Ok(None) | Err(_)) && !meter.exhausted() {
            // The new heap splits what the quotient identified: the relative quotients resolve it.
            result = match self.extend_relative(meter) {
                Ok(None) => result,
                other => other,
            };
        }
        let options = std::mem::take(&mut self.pending);
        self.settle(heap, options, result, meter)
    }

    /// Keeps the extension found for `heap`, or records why there is none.
    fn settle(
        &mut self,
        heap: u64,
        options: Vec<Word>,
        result: Result<Option<Extension>, Stop>,
        meter: &Meter,
    ) -> Result<(), NotAdded> {
        if meter.exhausted() {
            return Err(NotAdded::OutOfWork);
        }
        match result {
            Ok(Some(extension)) => {
                self.adopt(extension, options);
                Ok(())
            }
            Ok(None) => {
                self.stopped = Some(Stop::NoCandidate { heap });
                Err(NotAdded::Stopped)
            }
            Err(stop) => {
                self.stopped = Some(stop);
                Err(NotAdded::Stopped)
            }
        }
    }

    /// The candidate for the quotient with the new heap, checked; `None` when no candidate passed.
    /// The first base is the old quotient; when the new heap tells apart positions the old
    /// quotient identified, the second base refines each element by its options (the pairs
    /// the check walked), and the candidate is built on that.
    fn extend(&self, heap: u64, meter: &Meter, strategy: Strategy) -> Result<Option<Extension>, Stop> {
        let mut base = Base::plain(self);
        for attempt in 0..=MOST_REFINEMENTS {
            let h_images = base.images_of(&self.pending);
            let outcomes = base.copies_outcomes(&h_images);
            let Some((start, period)) = repeat_of(&outcomes) else {
                return Ok(None);
            };
            let extension = match base.candidate(self, heap, start, period, &outcomes, self.bounds) {
                Ok(extension) => extension,
                Err(_) if strategy == Strategy::Step => return Ok(None),
                Err(stop) => return Err(stop),
            };
            let mut checker = if extension.absorbed { self.check.clone() } else { Checker::new(&extension.monoid) };
            if !extension.absorbed {
                for h in 1..self.phi.len() {
                    if !self.options[h].is_empty() {
                        let t = extension.images_of(&self.options[h]);
                        checker.add_type(extension.heap_phi[h], t);
                    }
                }
            }
            checker.add_type(extension.phi_new, extension.images_of(&self.pending));
            match checker.run(&extension.monoid, self.bounds.max_check_states, meter) {
                Err(()) if meter.exhausted() => return Ok(None),
                Err(()) => return Err(Stop::Check { heap, limit: self.bounds.max_check_states }),
                Ok(true) => return Ok(Some(Extension { checker: Some(checker), ..extension })),
                Ok(false) if attempt == MOST_REFINEMENTS => return Ok(None),
                Ok(false) if strategy == Strategy::Step => {
                    // One step of the recursion: the stepped candidate itself, or its old sums as
                    // the next base.
                    match self.step_once(&extension, meter) {
                        Some(Ok(passed)) => return Ok(Some(passed)),
                        Some(Err(stepped)) => {
                            let mut phi = stepped.heap_phi.clone();
                            phi.push(stepped.phi_new);
                            let finer = Base::within(self, &stepped.monoid, &phi);
                            if finer.order <= base.order {
                                return Ok(None);
                            }
                            base = finer;
                        }
                        None => return Ok(None),
                    }
                }
                Ok(false) => {
                    // Tell positions apart by their options, as the failed candidate sees them.
                    match base.refine_by(&extension, MOST_REFINED, meter) {
                        Some(finer) if finer.order > base.order => base = finer,
                        Some(_) => return Ok(None),
                        None if meter.exhausted() => return Ok(None),
                        None => return Err(Stop::Refinement { heap, limit: MOST_REFINED }),
                    }
                }
            }
        }
        Ok(None)
    }

    /// One step of the misère recursion from a failed candidate (see `step`), checked: `Ok` when
    /// it passes, `Err` with the stepped candidate when it fails; `None` past the bounds.
    fn step_once(&self, failed: &Extension, meter: &Meter) -> Option<Result<Extension, Extension>> {
        let heap = failed.heap_phi.len();
        let options_of = |h: usize| self.options.get(h).unwrap_or(&self.pending);
        let heaps: Vec<Option<(u32, Vec<u32>)>> = (0..=heap)
            .map(|h| {
                let phi = if h < heap { failed.heap_phi[h] } else { failed.phi_new };
                (!options_of(h).is_empty()).then(|| (phi, failed.images_of(options_of(h))))
            })
            .collect();
        let stepped = step(&failed.monoid, &heaps, self.bounds.max_check_states, self.bounds.max_order, meter)?;
        let extension = Extension {
            monoid: stepped.monoid,
            reps: stepped.reps,
            heap_phi: stepped.phi[..heap].to_vec(),
            base_to_new: Vec::new(),
            phi_new: stepped.phi[heap],
            absorbed: false,
            checker: None,
        };
        let mut checker = Checker::new(&extension.monoid);
        for h in 1..=heap {
            if !options_of(h).is_empty() {
                checker.add_type(stepped.phi[h], extension.images_of(options_of(h)));
            }
        }
        match checker.run(&extension.monoid, self.bounds.max_check_states, meter) {
            Ok(true) => Some(Ok(Extension { checker: Some(checker), ..extension })),
            Ok(false) => Some(Err(extension)),
            Err(()) => None,
        }
    }

    /// The quotient with the new heap from the relative quotients (see `relative`): built from
    /// the first heap the first time, then one heap at a time. Their own walk checks every
    /// candidate exactly, so the reduced quotient needs no second check.
    fn extend_relative(&mut self, meter: &Meter) -> Result<Option<Extension>, Stop> {
        let heap = self.heaps() as usize;
        let mut options = self.options.clone();
        options.push(self.pending.clone());
        let budget = relative::Budget {
            meter,
            max_order: self.bounds.max_order * RELATIVE_ORDER_FACTOR,
            max_states: self.bounds.max_check_states,
            max_copies: MOST_COPIES,
            why: Default::default(),
        };
        let side = relative::misere_side(&options);
        let rel = match &self.relative {
            Some(rel) => relative::add_heap(rel, &options, heap, &side, &budget),
            None => relative::quotient(&options, &side, &budget),
        };
        let Some(rel) = rel else {
            let heap = heap as u64;
            return match budget.why.get() {
                _ if meter.exhausted() => Ok(None),
                Some(relative::Why::Order) => Err(Stop::Order { heap, limit: budget.max_order }),
                Some(relative::Why::States) => Err(Stop::Check { heap, limit: budget.max_states }),
                Some(relative::Why::Copies) => Err(Stop::Copies { heap, most: MOST_COPIES }),
                Some(relative::Why::NoCandidate) | None => Err(Stop::NoCandidate { heap }),
            };
        };
        let (monoid, phi, reps) = relative::reduce(&rel);
        if monoid.order > self.bounds.max_order {
            return Err(Stop::Order { heap: heap as u64, limit: self.bounds.max_order });
        }
        let mut checker = Checker::new(&monoid);
        for (h, o) in options.iter().enumerate().skip(1) {
            if !o.is_empty() {
                let images =
                    dedup(o.iter().map(|w| w.iter().fold(0, |acc, &g| monoid.mul(acc, phi[g as usize]))).collect());
                checker.add_type(phi[h], images);
            }
        }
        self.relative = Some(rel);
        Ok(Some(Extension {
            monoid,
            reps,
            heap_phi: phi[..heap].to_vec(),
            base_to_new: Vec::new(),
            phi_new: phi[heap],
            absorbed: false,
            checker: Some(checker),
        }))
    }

    /// The quotient with the new heap learnt from exact outcomes (small heaps only), checked.
    fn learn(&self, heap: u64, meter: &Meter) -> Result<Option<Extension>, Stop> {
        let mut options = self.options.clone();
        options.push(self.pending.clone());
        let old = |w: &[u64]| self.monoid.in_p(self.product(w).expect("old heaps are computed"));
        let learner = super::learn::Learner {
            heap,
            options: &options,
            old_outcome: &old,
            max_order: self.bounds.max_order,
            max_check: self.bounds.max_check_states,
            meter,
        };
        let Some(learnt) = learner.learn() else {
            return Ok(None);
        };
        let mut checker = Checker::new(&learnt.monoid);
        let phi = learnt.phi;
        let extension = Extension {
            monoid: learnt.monoid,
            reps: learnt.reps,
            heap_phi: phi[..heap as usize].to_vec(),
            base_to_new: Vec::new(),
            phi_new: phi[heap as usize],
            absorbed: false,
            checker: None,
        };
        for h in 1..=heap as usize {
            if !options[h].is_empty() {
                checker.add_type(phi[h], extension.images_of(&options[h]));
            }
        }
        match checker.run(&extension.monoid, self.bounds.max_check_states, meter) {
            Err(()) if meter.exhausted() => Ok(None),
            Err(()) => Err(Stop::Check { heap, limit: self.bounds.max_check_states }),
            Ok(false) => Ok(None),
            Ok(true) => Ok(Some(Extension { checker: Some(checker), ..extension })),
        }
    }

    fn adopt(&mut self, extension: Extension, options: Vec<Word>) {
        let Extension { monoid, reps, heap_phi, phi_new, checker, .. } = extension;
        self.phi = heap_phi;
        self.phi.push(phi_new);
        self.monoid = monoid;
        self.options.push(options);
        self.reps = reps;
        self.check = checker.expect("an adopted extension was checked");
        self.order_after.push(self.monoid.order);
    }
}

/// What a candidate is built on: the old quotient, or a refinement of it — an explicit finite
/// monoid that the sums of the old heaps map onto, with their outcomes and a shortest word for
/// each element.
///
/// Refinement j keeps, for a sum G, its element at refinement j − 1 and the set of its options'
/// elements there: τⱼ(G) = (τⱼ₋₁(G), {τⱼ₋₁(G′)}). It is a congruence (the options of G + H are
/// G′ + H and G + H′), so each level is a monoid, found by adding heaps to the empty sum; each
/// level tells apart positions whose option trees differ one step deeper.
struct Base<'q> {
    q: &'q Quotient,
    order: usize,
    /// `mul[a * order + b]`
    mul: Vec<u32>,
    p: Vec<bool>,
    /// The element of each old heap.
    heap: Vec<u32>,
    reps: Vec<Word>,
}

impl<'q> Base<'q> {
    fn plain(q: &'q Quotient) -> Base<'q> {
        Base {
            q,
            order: q.monoid.order,
            mul: q.monoid.mul.clone(),
            p: q.monoid.p.clone(),
            heap: q.phi.clone(),
            reps: q.reps.clone(),
        }
    }

    /// The sums of the old heaps inside a candidate that came from a step: a base that tells
    /// apart what the new heap separates. A step keeps every old sum's outcome (its options are
    /// old sums, which the candidate it stepped had right), so this base is right on old sums.
    fn within(q: &'q Quotient, monoid: &Monoid, phi: &[u32]) -> Base<'q> {
        let old = q.phi.len();
        let mut gens: Vec<(u32, u64)> = Vec::new();
        for (h, &x) in phi.iter().enumerate().take(old).skip(1) {
            if !q.options[h].is_empty() && !gens.iter().any(|&(g, _)| g == x) {
                gens.push((x, h as u64));
            }
        }
        // A word of least size for each element the old heaps reach (Dijkstra from the identity).
        let mut best: HashMap<u32, Word> = HashMap::from([(0, Vec::new())]);
        let mut queue = std::collections::BinaryHeap::from([std::cmp::Reverse((0u64, Vec::<u64>::new(), 0u32))]);
        while let Some(std::cmp::Reverse((size, word, x))) = queue.pop() {
            if best.get(&x).is_some_and(|w| *w != word) {
                continue;
            }
            for &(g, h) in &gens {
                let y = monoid.mul(x, g);
                let mut longer = word.clone();
                longer.push(h);
                longer.sort_unstable();
                if best.get(&y).is_none_or(|w| word_key(&longer) < word_key(w)) {
                    best.insert(y, longer.clone());
                    queue.push(std::cmp::Reverse((size + h, longer, y)));
                }
            }
        }
        let mut elements: Vec<(u32, Word)> = best.into_iter().collect();
        elements.sort_by(|a, b| word_key(&a.1).cmp(&word_key(&b.1)));
        let index: HashMap<u32, u32> = elements.iter().enumerate().map(|(i, (x, _))| (*x, i as u32)).collect();
        let order = elements.len();
        let mut mul = vec![0u32; order * order];
        for (a, (x, _)) in elements.iter().enumerate() {
            for (b, (y, _)) in elements.iter().enumerate() {
                mul[a * order + b] = index[&monoid.mul(*x, *y)];
            }
        }
        Base {
            q,
            order,
            mul,
            p: elements.iter().map(|(x, _)| monoid.in_p(*x)).collect(),
            heap: (0..old).map(|h| index[&phi[h]]).collect(),
            reps: elements.into_iter().map(|(_, w)| w).collect(),
        }
    }

    /// The next refinement: each sum keeps its element here and the contexts z of the failed
    /// candidate `seen` in which one of its options is a P-position. `None` past `most` elements.
    fn refine_by(&self, seen: &Extension, most: usize, meter: &Meter) -> Option<Base<'q>> {
        let q = self.q;
        let cand = &seen.monoid;
        let iota = &seen.base_to_new;
        let words = cand.order.div_ceil(64);
        let d = cand.d_sets();
        // W of a set of base elements: the union of their D-sets in the candidate.
        let w_of = |elems: &mut dyn Iterator<Item = u32>| {
            let mut w = vec![0u64; words];
            for u in elems {
                for (a, b) in w.iter_mut().zip(&d[iota[u as usize] as usize]) {
                    *a |= b;
                }
            }
            w
        };
        // { z : ι(e)·z ∈ W }
        let shift = |w: &[u64], e: u32| {
            let mut out = vec![0u64; words];
            cand.add_shifted(&mut out, w, iota[e as usize]);
            out
        };
        let or = |mut a: Vec<u64>, b: &[u64]| {
            for (x, y) in a.iter_mut().zip(b) {
                *x |= y;
            }
            a
        };
        let mut kinds: Vec<(u64, u32, Vec<u32>)> = Vec::new();
        for h in 1..q.phi.len() as u64 {
            if q.options[h as usize].is_empty() {
                continue;
            }
            let images = self.images_of(&q.options[h as usize]);
            let e = self.heap[h as usize];
            if !kinds.iter().any(|(_, k, t)| *k == e && *t == images) {
                kinds.push((h, e, images));
            }
        }
        type Key = (u32, Vec<u64>, bool);
        let mut ids: HashMap<Key, u32> = HashMap::new();
        let mut elements: Vec<Key> = vec![(0, vec![0; words], false)];
        ids.insert(elements[0].clone(), 0);
        let mut by_kind: Vec<Vec<u32>> = vec![Vec::new(); kinds.len()];
        let mut i = 0;
        while i < elements.len() {
            for (k, (_, e, t)) in kinds.iter().enumerate() {
                if !meter.spend(1 + cand.order as u64 / 8 + (t.len() * words) as u64) {
                    return None;
                }
                let (x, w, _) = elements[i].clone();
                let next = or(shift(&w, *e), &w_of(&mut t.iter().map(|&b| self.mul(x, b))));
                let key = (self.mul(x, *e), next, true);
                let j = match ids.get(&key) {
                    Some(&j) => j,
                    None => {
                        let j = elements.len() as u32;
                        ids.insert(key.clone(), j);
                        elements.push(key);
                        if elements.len() > most {
                            return None;
                        }
                        j
                    }
                };
                by_kind[k].push(j);
            }
            i += 1;
        }
        let order = elements.len();
        let mut mul = vec![0u32; order * order];
        for a in 0..order {
            mul[a] = a as u32;
            mul[a * order] = a as u32;
        }
        for a in 1..order {
            if !meter.spend(((order - a) * (1 + cand.order / 4)) as u64) {
                return None;
            }
            for b in a..order {
                let (x, w, _) = &elements[a];
                let (y, v, _) = &elements[b];
                let key = (self.mul(*x, *y), or(shift(w, *y), &shift(v, *x)), true);
                let c = *ids.get(&key)?;
                mul[a * order + b] = c;
                mul[b * order + a] = c;
            }
        }
        let p = elements.iter().map(|(x, _, _)| self.p[*x as usize]).collect();
        let mut heap = vec![0u32; q.phi.len()];
        for (h, slot) in heap.iter_mut().enumerate().skip(1) {
            if q.options[h].is_empty() {
                continue;
            }
            let images = self.images_of(&q.options[h]);
            let k = kinds.iter().position(|(_, e, t)| *e == self.heap[h] && *t == images)?;
            *slot = by_kind[k][0];
        }
        // Shortest representatives: Dijkstra from the empty sum, one heap at a time.
        let mut best: Vec<Option<Word>> = vec![None; order];
        best[0] = Some(Vec::new());
        let mut queue = std::collections::BinaryHeap::new();
        queue.push(std::cmp::Reverse((0u64, 0usize)));
        while let Some(std::cmp::Reverse((size, a))) = queue.pop() {
            let word = best[a].clone().expect("queued elements have a word");
            if word.iter().sum::<u64>() != size {
                continue;
            }
            for (k, (h, _, _)) in kinds.iter().enumerate() {
                let b = by_kind[k][a] as usize;
                let mut w = word.clone();
                w.push(*h);
                w.sort_unstable();
                if best[b].as_ref().is_none_or(|old| word_key(&w) < word_key(old)) {
                    queue.push(std::cmp::Reverse((size + h, b)));
                    best[b] = Some(w);
                }
            }
        }
        let reps = best.into_iter().collect::<Option<Vec<Word>>>()?;
        Some(Base { q, order, mul, p, heap, reps })
    }

    fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.order + b as usize]
    }

    fn product(&self, word: &[u64]) -> u32 {
        word.iter().fold(0u32, |acc, &h| self.mul(acc, self.heap[h as usize]))
    }

    fn images_of(&self, words: &[Word]) -> Vec<u32> {
        dedup(words.iter().map(|w| self.product(w)).collect())
    }

    /// Outcomes of (representative of x) + k copies of the new heap, for every element x and
    /// k = 0..=MOST_COPIES, by the misère recursion.
    fn copies_outcomes(&self, images: &[u32]) -> Vec<Vec<bool>> {
        let m = self.order;
        let heap_options = |g: u64| self.q.options[g as usize].clone();
        let option_images: Vec<Vec<u32>> = self
            .reps
            .iter()
            .map(|word| dedup(children(word, &heap_options).iter().map(|w| self.product(w)).collect()))
            .collect();
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by_key(|&x| (self.reps[x].iter().sum::<u64>(), x));
        let mut outcomes = vec![self.p.clone()];
        for k in 1..=MOST_COPIES {
            let mut now = vec![false; m];
            let before = &outcomes[k - 1];
            for &x in &order {
                // A move in one copy of the new heap, or in the rest.
                let in_heap = images.iter().any(|&t| before[self.mul(x as u32, t) as usize]);
                let in_rest = option_images[x].iter().any(|&y| now[y as usize]);
                now[x] = !in_heap && !in_rest;
            }
            outcomes.push(now);
        }
        outcomes
    }

    /// The base times the cyclic part {1, h, …, h^(start+period-1)}, with
    /// h^(start+period) = h^start, reduced to its indistinguishability classes.
    fn candidate(
        &self,
        q: &Quotient,
        heap: u64,
        start: usize,
        period: usize,
        outcomes: &[Vec<bool>],
        bounds: Bounds,
    ) -> Result<Extension, Stop> {
        let m = self.order;
        let len = start + period;
        let size = m * len;
        let norm = |k: usize| if k < len { k } else { start + (k - start) % period };
        let index = |x: usize, k: usize| k * m + x;
        let in_p = |a: usize| outcomes[a / m][a % m];
        // Generators: the old heaps' elements and the new heap; products with them, once.
        let mut gens: Vec<(u32, usize)> = self.heap.iter().map(|&x| (x, 0)).collect();
        gens.push((0, 1));
        gens.sort_unstable();
        gens.dedup();
        let mut by_gen: Vec<Vec<u32>> = Vec::with_capacity(gens.len());
        for &(g, gk) in &gens {
            let mut row = vec![0u32; size];
            for x in 0..m {
                let y = self.mul(x as u32, g) as usize;
                for k in 0..len {
                    row[index(x, k)] = index(y, norm(k + gk)) as u32;
                }
            }
            by_gen.push(row);
        }
        // Moore's refinement: start from P / not P, split by where each generator leads.
        let mut class: Vec<u32> = (0..size).map(|a| in_p(a) as u32).collect();
        let mut count = 0;
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let mut next = vec![0u32; size];
            for a in 0..size {
                let mut key = Vec::with_capacity(gens.len() + 1);
                key.push(class[a]);
                key.extend(by_gen.iter().map(|row| class[row[a] as usize]));
                let fresh = ids.len() as u32;
                next[a] = *ids.entry(key).or_insert(fresh);
            }
            let now = ids.len();
            class = next;
            if now == count {
                break;
            }
            count = now;
            if count > bounds.max_order {
                return Err(Stop::Order { heap, limit: bounds.max_order });
            }
        }
        // Representatives of least total size.
        let mut reps: Vec<Option<Word>> = vec![None; count];
        for (a, &c) in class.iter().enumerate() {
            let (x, k) = (a % m, a / m);
            let mut word = self.reps[x].clone();
            word.extend(std::iter::repeat_n(heap, k));
            word.sort_unstable();
            let c = c as usize;
            if reps[c].as_ref().is_none_or(|r| word_key(&word) < word_key(r)) {
                reps[c] = Some(word);
            }
        }
        let reps: Vec<Word> = reps.into_iter().map(|r| r.expect("every class has a member")).collect();
        // The old numbering where nothing old changed; otherwise by representative.
        let absorbed = self.order == q.monoid.order && count == m && {
            let mut seen = vec![false; m];
            (0..m).all(|x| !std::mem::replace(&mut seen[class[index(x, 0)] as usize], true))
        };
        let mut numbering = vec![0u32; count];
        if absorbed {
            for x in 0..m {
                numbering[class[index(x, 0)] as usize] = x as u32;
            }
        } else {
            let mut by_rep: Vec<usize> = (0..count).collect();
            by_rep.sort_by(|&a, &b| word_key(&reps[a]).cmp(&word_key(&reps[b])));
            for (new, &c) in by_rep.iter().enumerate() {
                numbering[c] = new as u32;
            }
        }
        let mut member = vec![0usize; count];
        for a in (0..size).rev() {
            member[class[a] as usize] = a;
        }
        let mut table = vec![0u32; count * count];
        let mut p = vec![false; count];
        let mut new_reps = vec![Vec::new(); count];
        for c in 0..count {
            let nc = numbering[c] as usize;
            p[nc] = in_p(member[c]);
            new_reps[nc] = reps[c].clone();
            let (xc, kc) = (member[c] % m, member[c] / m);
            for d in 0..count {
                let (xd, kd) = (member[d] % m, member[d] / m);
                let x = self.mul(xc as u32, xd as u32) as usize;
                table[nc * count + numbering[d] as usize] = numbering[class[index(x, norm(kc + kd))] as usize];
            }
        }
        let monoid = Monoid { order: count, mul: table, p };
        let heap_phi: Vec<u32> =
            (0..q.phi.len()).map(|h| numbering[class[index(self.heap[h] as usize, 0)] as usize]).collect();
        let phi_new = numbering[class[index(0, norm(1))] as usize];
        let base_to_new = (0..m).map(|x| numbering[class[index(x, 0)] as usize]).collect();
        Ok(Extension { monoid, reps: new_reps, heap_phi, base_to_new, phi_new, absorbed, checker: None })
    }
}

/// Shortest words first, then the lexicographically least.
fn word_key(word: &[u64]) -> (u64, usize, &[u64]) {
    (word.iter().sum(), word.len(), word)
}

/// The first (start, period) with outcomes[start + period] = outcomes[start], for which the
/// rest of the computed outcomes repeat too.
fn repeat_of(outcomes: &[Vec<bool>]) -> Option<(usize, usize)> {
    let n = outcomes.len();
    for len in 1..n {
        for start in 0..len {
            let period = len - start;
            if (start..n - period).all(|k| outcomes[k + period] == outcomes[k]) && n - start > 2 * period {
                return Some((start, period));
            }
        }
    }
    None
}

struct Extension {
    monoid: Monoid,
    reps: Vec<Word>,
    /// Φ of every old heap in the new numbering.
    heap_phi: Vec<u32>,
    /// Each element of the base the candidate was built on, in the new numbering.
    base_to_new: Vec<u32>,
    phi_new: u32,
    absorbed: bool,
    checker: Option<Checker>,
}

impl Extension {
    fn images_of(&self, words: &[Word]) -> Vec<u32> {
        let phi = |h: u64| if (h as usize) < self.heap_phi.len() { self.heap_phi[h as usize] } else { self.phi_new };
        dedup(words.iter().map(|w| w.iter().fold(0u32, |acc, &h| self.monoid.mul(acc, phi(h)))).collect())
    }
}

#[cfg(test)]
#[path = "quotient_tests.rs"]
pub(super) mod tests;
