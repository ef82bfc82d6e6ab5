//! The quotient for one more heap learnt from exact outcomes, where the faster construction in
//! `quotient` finds no candidate: an observation table of access words and experiments, in the
//! manner of Angluin's L* for commutative monoids, answered by an exact misère search, with
//! counterexamples from the exact check. Only for small heaps: the search grows with them.

use std::collections::{BinaryHeap, HashMap};

use super::monoid::{Meter, Monoid, Word};

/// The most heaps one word of the search may hold in all (counters), and positions remembered.
const MOST_POSITIONS: usize = 2_000_000;
/// Rounds of closing, consistency and counterexamples before giving up.
const MOST_ROUNDS: usize = 60;
/// Parts of a counterexample kept as experiments.
const MOST_PARTS: usize = 256;

/// What the learner needs: the exact outcome of sums without the new heap, and every heap's
/// options.
pub(super) struct Learner<'a> {
    /// The new heap.
    pub heap: u64,
    /// Options of heaps 0..=heap.
    pub options: &'a [Vec<Word>],
    /// The outcome of a sum of heaps below `heap` (true: P), from the quotient so far.
    pub old_outcome: &'a dyn Fn(&[u64]) -> bool,
    pub max_order: usize,
    pub max_check: usize,
    /// The question's allowance of work; the learner gives up (`None`) when it runs out.
    pub meter: &'a Meter,
}

/// A learnt quotient: the monoid, Φ of heaps 0..=heap, and a shortest word for each element.
pub(super) struct Learnt {
    pub monoid: Monoid,
    pub phi: Vec<u32>,
    pub reps: Vec<Word>,
}

fn plus(a: &[u64], b: &[u64]) -> Word {
    let mut w: Word = a.iter().chain(b).copied().collect();
    w.sort_unstable();
    w
}

fn size(w: &[u64]) -> u64 {
    w.iter().sum()
}

impl Learner<'_> {
    /// Exact misère outcome of a sum (true: P); `None` past the search's bound.
    fn outcome(&self, word: &[u64], memo: &mut HashMap<Word, bool>) -> Option<bool> {
        let w: Word = word.iter().copied().filter(|&h| !self.options[h as usize].is_empty()).collect();
        if !w.contains(&self.heap) {
            return Some((self.old_outcome)(&w));
        }
        if let Some(&p) = memo.get(&w) {
            return Some(p);
        }
        if memo.len() >= MOST_POSITIONS || !self.meter.spend(1 + w.len() as u64) {
            return None;
        }
        let mut any = false;
        for i in 0..w.len() {
            if i > 0 && w[i] == w[i - 1] {
                continue;
            }
            for o in &self.options[w[i] as usize] {
                any = true;
                let rest: Word = w[..i].iter().chain(&w[i + 1..]).copied().collect();
                if self.outcome(&plus(&rest, o), memo)? {
                    memo.insert(w, false);
                    return Some(false);
                }
            }
        }
        memo.insert(w, any);
        Some(any)
    }

    /// The row of `w` (whether `w` plus each experiment is a P-position), extended to every
    /// experiment and kept in `rows`.
    fn row(
        &self,
        w: &Word,
        memo: &mut HashMap<Word, bool>,
        rows: &mut HashMap<Word, Vec<bool>>,
        experiments: &[Word],
    ) -> Option<Vec<bool>> {
        let r = rows.entry(w.clone()).or_default();
        while r.len() < experiments.len() {
            let e = &experiments[r.len()];
            r.push(self.outcome(&plus(w, e), memo)?);
        }
        Some(r.clone())
    }

    /// An experiment that tells apart two access words of equal rows, found where a generator
    /// added to both gives different rows; none when the table is consistent (`None` past the
    /// bounds).
    fn telling_apart(
        &self,
        access: &[Word],
        gens: &[u64],
        memo: &mut HashMap<Word, bool>,
        rows: &mut HashMap<Word, Vec<bool>>,
        experiments: &[Word],
    ) -> Option<Option<Word>> {
        let mut classes: HashMap<Vec<bool>, Vec<usize>> = HashMap::new();
        for (i, w) in access.iter().enumerate() {
            classes.entry(self.row(w, memo, rows, experiments)?).or_default().push(i);
        }
        for members in classes.values() {
            for pair in members.windows(2) {
                let (a, b) = (&access[pair[0]], &access[pair[1]]);
                for &g in gens {
                    let ra = self.row(&plus(a, &[g]), memo, rows, experiments)?;
                    let rb = self.row(&plus(b, &[g]), memo, rows, experiments)?;
                    if let Some(e) = (0..ra.len()).find(|&e| ra[e] != rb[e]) {
                        let new = plus(&experiments[e], &[g]);
                        if !experiments.contains(&new) {
                            return Some(Some(new));
                        }
                    }
                }
            }
        }
        Some(None)
    }

    /// Learns the quotient of heaps 0..=heap; `None` when it does not succeed within its bounds.
    pub(super) fn learn(&self) -> Option<Learnt> {
        let gens: Vec<u64> = (1..=self.heap).filter(|&h| !self.options[h as usize].is_empty()).collect();
        let mut memo: HashMap<Word, bool> = HashMap::new();
        let mut access: Vec<Word> = vec![Vec::new()];
        let mut experiments: Vec<Word> = vec![Vec::new()];
        let mut rows: HashMap<Word, Vec<bool>> = HashMap::new();
        for _ in 0..MOST_ROUNDS {
            let row = |w: &Word,
                       memo: &mut HashMap<Word, bool>,
                       rows: &mut HashMap<Word, Vec<bool>>,
                       experiments: &[Word]| self.row(w, memo, rows, experiments);
            // Close: every access word times every generator has the row of an access word.
            let mut known: HashMap<Vec<bool>, usize> = HashMap::new();
            let mut i = 0;
            let mut changed = false;
            while i < access.len() {
                let r = row(&access[i].clone(), &mut memo, &mut rows, &experiments)?;
                known.entry(r).or_insert(i);
                i += 1;
            }
            let mut i = 0;
            while i < access.len() {
                for &g in &gens {
                    let t = plus(&access[i], &[g]);
                    let r = row(&t, &mut memo, &mut rows, &experiments)?;
                    if let std::collections::hash_map::Entry::Vacant(slot) = known.entry(r) {
                        slot.insert(access.len());
                        access.push(t);
                        if known.len() > self.max_order {
                            return None;
                        }
                    }
                }
                i += 1;
            }
            // Consistent: equal rows stay equal after each generator.
            if let Some(new) = self.telling_apart(&access, &gens, &mut memo, &mut rows, &experiments)? {
                experiments.push(new);
                changed = true;
            }
            if changed {
                continue;
            }
            // The candidate: one element per row, products through the shortest access words.
            let mut elements: Vec<(Vec<bool>, Word)> = Vec::new();
            for w in &access {
                let r = row(w, &mut memo, &mut rows, &experiments)?;
                match elements.iter_mut().find(|(er, _)| *er == r) {
                    Some((_, rep)) => {
                        if (size(w), w.len(), w) < (size(rep), rep.len(), &*rep) {
                            *rep = w.clone();
                        }
                    }
                    None => elements.push((r, w.clone())),
                }
            }
            // The identity first, the rest by their shortest words.
            elements.sort_by(|a, b| (size(&a.1), a.1.len(), &a.1).cmp(&(size(&b.1), b.1.len(), &b.1)));
            let index: HashMap<Vec<bool>, u32> =
                elements.iter().enumerate().map(|(i, (r, _))| (r.clone(), i as u32)).collect();
            let order = elements.len();
            let mut mul = vec![0u32; order * order];
            let mut missing = None;
            'table: for a in 0..order {
                for b in a..order {
                    let w = plus(&elements[a].1, &elements[b].1);
                    let r = row(&w, &mut memo, &mut rows, &experiments)?;
                    match index.get(&r) {
                        Some(&c) => {
                            mul[a * order + b] = c;
                            mul[b * order + a] = c;
                        }
                        None => {
                            missing = Some(w);
                            break 'table;
                        }
                    }
                }
            }
            if let Some(w) = missing {
                access.push(w);
                continue;
            }
            let p: Vec<bool> = elements.iter().map(|(r, _)| r[0]).collect();
            let monoid = Monoid::from_parts(order, mul, p);
            let mut phi = vec![0u32; self.heap as usize + 1];
            for h in 1..=self.heap {
                if !self.options[h as usize].is_empty() {
                    phi[h as usize] = index[&row(&vec![h], &mut memo, &mut rows, &experiments)?];
                }
            }
            // The exact check; its smallest failing sum becomes experiments.
            let kinds: Vec<(u64, u32, Vec<u32>)> = gens
                .iter()
                .map(|&h| {
                    let mut t: Vec<u32> = self.options[h as usize]
                        .iter()
                        .map(|w| w.iter().fold(0u32, |acc, &g| monoid.mul(acc, phi[g as usize])))
                        .collect();
                    t.sort_unstable();
                    t.dedup();
                    (h, phi[h as usize], t)
                })
                .collect();
            let failure = smallest_failure(&monoid, &kinds, self.max_check, self.meter)?;
            match failure {
                None => {
                    let reps = elements.into_iter().map(|(_, w)| w).collect();
                    return Some(Learnt { monoid, phi, reps });
                }
                Some(w) => {
                    let mut added = false;
                    // Every part of the failing sum (the commutative form of L*'s suffixes).
                    for e in sub_sums(&w, MOST_PARTS) {
                        if !experiments.contains(&e) {
                            experiments.push(e);
                            added = true;
                        }
                    }
                    if !added {
                        access.push(w);
                    }
                }
            }
        }
        None
    }
}

/// The sub-multisets of a word, at most `most` of them, smallest first.
fn sub_sums(w: &[u64], most: usize) -> Vec<Word> {
    let mut out: Vec<Word> = vec![Vec::new()];
    let mut i = 0;
    while i < w.len() {
        let h = w[i];
        let count = w[i..].iter().take_while(|&&x| x == h).count();
        let mut next = Vec::new();
        for part in &out {
            for c in 0..=count {
                let mut v = part.clone();
                v.extend(std::iter::repeat_n(h, c));
                next.push(v);
            }
        }
        out = next;
        if out.len() > most {
            out.truncate(most);
        }
        i += count;
    }
    out.sort_by_key(|v| (size(v), v.len()));
    out
}

/// The smallest sum (by counters) at which a candidate breaks the misère recursion, found by
/// walking the pairs (Φ(G), W(G)) in order of the smallest sum reaching each; `None` when it
/// holds everywhere; the outer `None` when there are more than `limit` pairs.
pub(super) fn smallest_failure(
    monoid: &Monoid,
    kinds: &[(u64, u32, Vec<u32>)],
    limit: usize,
    meter: &Meter,
) -> Option<Option<Word>> {
    let m = monoid.order();
    let words = m.div_ceil(64);
    let d = monoid.d_sets();
    let mut best: HashMap<(u32, Vec<u64>, bool), Word> = HashMap::new();
    let mut queue = BinaryHeap::new();
    let start = (0u32, vec![0u64; words], false);
    best.insert(start.clone(), Vec::new());
    queue.push(std::cmp::Reverse((0u64, Vec::<u64>::new(), start)));
    while let Some(std::cmp::Reverse((s, word, state))) = queue.pop() {
        if best.get(&state).is_some_and(|w| *w != word) {
            continue;
        }
        let (x, w, moves) = &state;
        let p = *moves && w[0] & 1 == 0;
        if monoid.in_p(*x) != p {
            return Some(Some(word));
        }
        for (h, phi, images) in kinds {
            if !meter.spend(1 + m as u64 / 8 + (images.len() * words) as u64) {
                return None;
            }
            let y = monoid.mul(*x, *phi);
            let next = monoid.contexts_after(&d, *x, w, *phi, images);
            let key = (y, next, true);
            let longer = plus(&word, &[*h]);
            let better = best.get(&key).is_none_or(|old| (size(&longer), &longer) < (size(old), old));
            if better {
                if best.len() >= limit {
                    return None;
                }
                best.insert(key.clone(), longer.clone());
                queue.push(std::cmp::Reverse((s + h, longer, key)));
            }
        }
    }
    Some(None)
}
