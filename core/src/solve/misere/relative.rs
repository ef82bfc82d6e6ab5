//! The exact quotient of a heap game where a new heap splits what the old quotient identified:
//! relative quotients, built heap by heap, each heap's split resolved by quotients of the smaller
//! heaps (this module's own argument, from the definitions of Plambeck and Siegel).
//!
//! A *relative game* on the sums of heaps 1..m is given by a finite monoid M, the element μ(h)
//! of each heap in M, and a set G ⊆ M: a sum X is *winning-for-the-previous-player* (f(X) true)
//! exactly when μ(X) ∈ G and no option X′ has f(X′). Misère play is the case M = {empty,
//! non-empty}, G = {non-empty}. Its quotient is a monoid S with a homomorphism σ from the sums,
//! a homomorphism π: S → M with π∘σ = μ, and labels L with f(X) = L(σ(X)).
//!
//! Adding heap h to the quotient S of heaps below h: every sum is X + k·h with X below h. Let
//! f_k(X) = f(X + k·h). Then f_0 is recognised by S, and for k ≥ 1
//!     f_k(X) ⇔ μ(X)μ(h)^k ∈ G, no option X′ has f_k(X′), and no option t of h has f_{k−1}(X + t),
//! which is again a relative game on the heaps below h: its monoid is the quotient Z_{k−1} that
//! recognises f_{k−1}, its set G_k = { s : π(s)μ(h)^k ∈ G and no t has L_{k−1}(s·σ(t)) }. Its
//! quotient Z_k refines Z_{k−1}, so it recognises f_0..f_k. The pair (μ(h)^k, f_k) determines the
//! next, so once one repeats the rest repeat; the quotient with h is then the pairs (z, i) of Z_k
//! and i < k, labelled by f_i, reduced by Moore's refinement. First each heap tries the candidate
//! that splits nothing (S times the cycle of h); it is kept when the exact walk passes it.

use std::collections::HashMap;

use super::monoid::{children, dedup, Meter, Word};

/// The side monoid of a relative game: its product, each heap's element, and the set G.
pub(super) struct Side {
    pub order: usize,
    pub mul: Vec<u32>,
    /// μ of heaps 0..=m (0 for a heap without a move).
    pub mu: Vec<u32>,
    pub good: Vec<bool>,
}

impl Side {
    fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.order + b as usize]
    }
}

/// The quotient of a relative game on the sums of heaps below `heap.len()`.
#[derive(Clone, Debug)]
pub(super) struct Rel {
    pub order: usize,
    pub mul: Vec<u32>,
    /// π: each element's element of the side monoid.
    pub pi: Vec<u32>,
    pub label: Vec<bool>,
    /// σ of heaps 0..m.
    pub heap: Vec<u32>,
    /// A least word (in the multiset order) of each element.
    pub reps: Vec<Word>,
}

impl Rel {
    fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.order + b as usize]
    }

    fn product(&self, word: &[u64]) -> u32 {
        word.iter().fold(0, |acc, &h| self.mul(acc, self.heap[h as usize]))
    }
}

/// Bounds of one relative quotient's work, and the first bound it met.
pub(super) struct Budget<'m> {
    pub meter: &'m Meter,
    pub max_order: usize,
    pub max_states: usize,
    pub max_copies: usize,
    pub why: std::cell::Cell<Option<Why>>,
}

/// Which bound stopped a relative quotient (besides the meter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Why {
    /// A quotient would have more than `max_order` elements.
    Order,
    /// A walk would visit more than `max_states` pairs.
    States,
    /// The copies of a heap did not repeat within `max_copies`.
    Copies,
    /// A candidate built exactly failed its walk.
    NoCandidate,
}

impl Budget<'_> {
    fn stop(&self, why: Why) {
        if self.why.get().is_none() {
            self.why.set(Some(why));
        }
    }
}

/// Least words first: by total size, then in the multiset order (larger heaps first, then more
/// of them). Every option of a word is smaller, even a split that keeps every counter, and the
/// order is kept by adding a heap to both sides.
fn key(word: &[u64]) -> (u64, Vec<u64>) {
    let mut k = word.to_vec();
    k.sort_unstable_by(|a, b| b.cmp(a));
    (word.iter().sum(), k)
}

/// The quotient of the relative game on heaps 1..options.len()-1.
pub(super) fn quotient(options: &[Vec<Word>], side: &Side, budget: &Budget) -> Option<Rel> {
    let mut rel =
        Rel { order: 1, mul: vec![0], pi: vec![0], label: vec![side.good[0]], heap: vec![0], reps: vec![Vec::new()] };
    for h in 1..options.len() {
        if options[h].is_empty() {
            // A heap without a move is the empty sum.
            if side.mu[h] != 0 {
                return None;
            }
            rel.heap.push(0);
            continue;
        }
        rel = add_heap(&rel, options, h, side, budget)?;
    }
    Some(rel)
}

/// The quotient with heap `h` added to `rel`, the quotient of the heaps below it.
pub(super) fn add_heap(rel: &Rel, options: &[Vec<Word>], h: usize, side: &Side, budget: &Budget) -> Option<Rel> {
    let t: Vec<u32> = dedup(options[h].iter().map(|w| rel.product(w)).collect());
    if let Some(found) = unsplit(rel, options, h, &t, side, budget) {
        return Some(found);
    }
    if budget.meter.exhausted() {
        return None;
    }
    split(rel, options, h, side, budget)
}

/// The candidate that splits nothing: f_k assumed recognised by `rel` for every k, checked.
fn unsplit(rel: &Rel, options: &[Vec<Word>], h: usize, t: &[u32], side: &Side, budget: &Budget) -> Option<Rel> {
    let m = rel.order;
    // Options of each element's least word, as elements.
    let heap_options = |g: u64| options[g as usize].clone();
    let option_images: Vec<Vec<u32>> = rel
        .reps
        .iter()
        .map(|word| dedup(children(word, &heap_options).iter().map(|w| rel.product(w)).collect()))
        .collect();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by_cached_key(|&x| key(&rel.reps[x]));
    let mut columns: Vec<Vec<bool>> = vec![rel.label.clone()];
    let mut powers: Vec<u32> = vec![0];
    for k in 1..=budget.max_copies {
        if !budget.meter.spend((m * (1 + t.len())) as u64) {
            return None;
        }
        let power = side.mul(powers[k - 1], side.mu[h]);
        let before = &columns[k - 1];
        let mut now = vec![false; m];
        for &x in &order {
            let in_heap = t.iter().any(|&u| before[rel.mul(x as u32, u) as usize]);
            let in_rest = option_images[x].iter().any(|&y| now[y as usize]);
            now[x] = side.good[side.mul(rel.pi[x], power) as usize] && !in_heap && !in_rest;
        }
        columns.push(now);
        powers.push(power);

        // (μ(h)^k, f_k) determines what follows: stop at the first repeat.
        if let Some(p) = (1..=k).find(|&p| powers[k - p] == powers[k] && columns[k - p] == columns[k]) {
            let cand = assemble(rel, h, &columns[..k], &powers[..k], k - p, side, budget)?;
            return walk(&cand, options, h, side, budget).then_some(cand);
        }
    }
    None
}

/// The quotient with heap `h` by the slices f_k, each a relative game on the heaps below h.
fn split(rel: &Rel, options: &[Vec<Word>], h: usize, side: &Side, budget: &Budget) -> Option<Rel> {
    let below = &options[..h];
    // Z_k, with f_i and π into `side` for each of its elements.
    let mut z = rel.clone();
    let mut columns: Vec<Vec<bool>> = vec![rel.label.clone()];
    let mut to_side: Vec<u32> = rel.pi.clone();
    let mut powers: Vec<u32> = vec![0];
    for k in 1..=budget.max_copies {
        let power = side.mul(powers[k - 1], side.mu[h]);
        let t: Vec<u32> = dedup(options[h].iter().map(|w| z.product(w)).collect());
        let last = &columns[k - 1];
        let good: Vec<bool> = (0..z.order)
            .map(|s| {
                side.good[side.mul(to_side[s], power) as usize] && !t.iter().any(|&u| last[z.mul(s as u32, u) as usize])
            })
            .collect();
        let inner = Side { order: z.order, mul: z.mul.clone(), mu: z.heap.clone(), good };
        let next = quotient(below, &inner, budget)?;
        let lift = |v: &[bool]| next.pi.iter().map(|&s| v[s as usize]).collect::<Vec<bool>>();
        let mut lifted: Vec<Vec<bool>> = columns.iter().map(|c| lift(c)).collect();
        lifted.push(next.label.clone());
        columns = lifted;
        to_side = next.pi.iter().map(|&s| to_side[s as usize]).collect();
        powers.push(power);
        z = next;

        if let Some(p) = (1..=k).find(|&p| powers[k - p] == powers[k] && columns[k - p] == columns[k]) {
            let zs = Rel { pi: to_side.clone(), ..z.clone() };
            let cand = assemble(&zs, h, &columns[..k], &powers[..k], k - p, side, budget)?;
            // Built exactly, so the walk only confirms it; a failure here would be a fault.
            if walk(&cand, options, h, side, budget) {
                return Some(cand);
            }
            budget.stop(Why::NoCandidate);
            return None;
        }
    }
    budget.stop(Why::Copies);
    None
}

/// The pairs (x, i), x of `base` and i < columns.len() (i = len wraps to `start`), labelled by
/// columns[i][x], reduced by Moore's refinement over the heaps; π(x, i) = π(x)·μ(h)^i.
fn assemble(
    base: &Rel,
    h: usize,
    columns: &[Vec<bool>],
    powers: &[u32],
    start: usize,
    side: &Side,
    budget: &Budget,
) -> Option<Rel> {
    let m = base.order;
    let len = columns.len();
    let size = m * len;
    let norm = |i: usize| if i < len { i } else { start + (i - start) % (len - start) };
    let at = |x: usize, i: usize| i * m + x;
    let side_of = |a: usize| side.mul(base.pi[a % m], powers[a / m]);
    let mut gens: Vec<(u32, usize)> = base.heap.iter().map(|&x| (x, 0)).filter(|&(x, _)| x != 0).collect();
    gens.push((0, 1));
    gens.sort_unstable();
    gens.dedup();
    let by_gen: Vec<Vec<u32>> = gens
        .iter()
        .map(|&(g, gi)| {
            let mut row = vec![0u32; size];
            for x in 0..m {
                let y = base.mul(x as u32, g) as usize;
                for i in 0..len {
                    row[at(x, i)] = at(y, norm(i + gi)) as u32;
                }
            }
            row
        })
        .collect();
    if !budget.meter.spend((size * (gens.len() + 1)) as u64) {
        return None;
    }
    let mut first: HashMap<(bool, u32), u32> = HashMap::new();
    let class: Vec<u32> = (0..size)
        .map(|a| {
            let fresh = first.len() as u32;
            *first.entry((columns[a / m][a % m], side_of(a))).or_insert(fresh)
        })
        .collect();
    let (class, count) = refine(class, first.len(), &by_gen, Some(budget))?;
    // Number the classes by least words (Dijkstra over the heaps from the empty sum).
    let heaps: Vec<(u64, usize)> = (1..=h)
        .filter(|&g| g == h || base.heap[g] != 0)
        .map(|g| {
            let gen = if g == h { (0, 1) } else { (base.heap[g], 0) };
            (g as u64, gens.iter().position(|&x| x == gen).expect("every heap is a generator"))
        })
        .collect();
    let mut best: Vec<Option<(u64, Vec<u64>)>> = vec![None; count];
    let mut words: Vec<Word> = vec![Vec::new(); count];
    let mut member = vec![usize::MAX; count];
    let mut queue = std::collections::BinaryHeap::new();
    best[class[0] as usize] = Some((0, Vec::new()));
    member[class[0] as usize] = 0;
    queue.push(std::cmp::Reverse(((0u64, Vec::<u64>::new()), 0usize)));
    while let Some(std::cmp::Reverse((k, a))) = queue.pop() {
        let c = class[a] as usize;
        if best[c].as_ref() != Some(&k) || member[c] != a {
            continue;
        }
        for &(g, gi) in &heaps {
            let b = by_gen[gi][a] as usize;
            let d = class[b] as usize;
            let mut w = words[c].clone();
            w.push(g);
            w.sort_unstable();
            let wk = key(&w);
            if best[d].as_ref().is_none_or(|old| wk < *old) {
                best[d] = Some(wk.clone());
                words[d] = w;
                member[d] = b;
                queue.push(std::cmp::Reverse((wk, b)));
            }
        }
    }
    if member.contains(&usize::MAX) {
        budget.stop(Why::NoCandidate);
        return None;
    }
    let mut by_word: Vec<usize> = (0..count).collect();
    by_word.sort_by(|&a, &b| best[a].cmp(&best[b]));
    let mut number = vec![0u32; count];
    for (n, &c) in by_word.iter().enumerate() {
        number[c] = n as u32;
    }
    let num = |a: usize| number[class[a] as usize];
    let mut mul = vec![0u32; count * count];
    for (i, &c) in by_word.iter().enumerate() {
        let a = member[c];
        let (xa, ia) = (a % m, a / m);
        for (j, &d) in by_word.iter().enumerate() {
            let b = member[d];
            let (xb, ib) = (b % m, b / m);
            mul[i * count + j] = num(at(base.mul(xa as u32, xb as u32) as usize, norm(ia + ib)));
        }
    }
    let mut heap: Vec<u32> = base.heap.iter().map(|&x| num(at(x as usize, 0))).collect();
    heap.push(num(at(0, norm(1))));
    Some(Rel {
        order: count,
        mul,
        pi: by_word.iter().map(|&c| side_of(member[c])).collect(),
        label: by_word.iter().map(|&c| columns[member[c] / m][member[c] % m]).collect(),
        heap,
        reps: by_word.iter().map(|&c| words[c].clone()).collect(),
    })
}

/// Moore's refinement: the coarsest partition finer than `class` (of `count` classes) that each
/// row of `by_gen` (where a generator takes each element) respects. With a budget, `None` when
/// its meter runs out or the classes pass its order.
fn refine(
    mut class: Vec<u32>,
    mut count: usize,
    by_gen: &[Vec<u32>],
    budget: Option<&Budget>,
) -> Option<(Vec<u32>, usize)> {
    loop {
        if let Some(budget) = budget {
            if !budget.meter.spend((class.len() * (by_gen.len() + 1)) as u64) {
                return None;
            }
        }
        let mut keys: HashMap<Vec<u32>, u32> = HashMap::new();
        let next: Vec<u32> = (0..class.len())
            .map(|a| {
                let mut k = Vec::with_capacity(by_gen.len() + 1);
                k.push(class[a]);
                k.extend(by_gen.iter().map(|row| class[row[a] as usize]));
                let fresh = keys.len() as u32;
                *keys.entry(k).or_insert(fresh)
            })
            .collect();
        class = next;
        if keys.len() == count {
            return Some((class, count));
        }
        count = keys.len();
        if let Some(budget) = budget.filter(|b| count > b.max_order) {
            budget.stop(Why::Order);
            return None;
        }
    }
}

/// The exact check of a candidate for the heaps up to `h`: every pair (σ(X), W(X)) reachable
/// from the empty sum, W(X) = { z : some option X′ has L(σ(X′)z) }, against the recursion.
fn walk(cand: &Rel, options: &[Vec<Word>], h: usize, side: &Side, budget: &Budget) -> bool {
    let m = cand.order;
    let words = m.div_ceil(64);
    let d: Vec<Vec<u64>> = (0..m)
        .map(|u| {
            let mut set = vec![0u64; words];
            for z in 0..m {
                if cand.label[cand.mul(u as u32, z as u32) as usize] {
                    set[z / 64] |= 1 << (z % 64);
                }
            }
            set
        })
        .collect();
    let ok = |y: u32, w: &[u64]| cand.label[y as usize] == (side.good[cand.pi[y as usize] as usize] && w[0] & 1 == 0);
    if cand.label[0] != side.good[cand.pi[0] as usize] {
        return false;
    }
    let mut kinds: Vec<(u32, Vec<u32>)> = Vec::new();
    for (g, heap_options) in options.iter().enumerate().take(h + 1).skip(1) {
        if heap_options.is_empty() {
            continue;
        }
        let kind = (cand.heap[g], dedup(heap_options.iter().map(|w| cand.product(w)).collect()));
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let mut seen: std::collections::HashSet<(u32, Vec<u64>)> = std::collections::HashSet::new();
    let mut states: Vec<(u32, Vec<u64>)> = vec![(0, vec![0; words])];
    seen.insert(states[0].clone());
    let mut i = 0;
    while i < states.len() {
        for (phi, images) in &kinds {
            if !budget.meter.spend(1 + m as u64 + (images.len() * words) as u64) {
                return false;
            }
            let (x, w) = &states[i];
            let mut next = vec![0u64; words];
            for &t in images {
                for (a, b) in next.iter_mut().zip(&d[cand.mul(*x, t) as usize]) {
                    *a |= b;
                }
            }
            for z in 0..m {
                let u = cand.mul(*phi, z as u32) as usize;
                if w[u / 64] >> (u % 64) & 1 != 0 {
                    next[z / 64] |= 1 << (z % 64);
                }
            }
            let y = cand.mul(*x, *phi);
            if !ok(y, &next) {
                return false;
            }
            let k = (y, next);
            if !seen.contains(&k) {
                if states.len() >= budget.max_states {
                    budget.stop(Why::States);
                    return false;
                }
                seen.insert(k.clone());
                states.push(k);
            }
        }
        i += 1;
    }
    true
}

#[cfg(test)]
/// The misère quotient of heaps 1..options.len()-1 by relative quotients: its monoid (reduced to
/// the classes of P-positions' indistinguishability), P-portion, Φ of each heap and least words.
pub(super) fn misere(options: &[Vec<Word>], budget: &Budget) -> Option<(super::monoid::Monoid, Vec<u32>, Vec<Word>)> {
    let rel = quotient(options, &misere_side(options), budget)?;
    Some(reduce(&rel))
}

/// Misère play as a relative game: a sum is a P-position when it has a move and no option is.
pub(super) fn misere_side(options: &[Vec<Word>]) -> Side {
    Side {
        order: 2,
        mul: vec![0, 1, 1, 1],
        mu: options.iter().map(|o| u32::from(!o.is_empty())).collect(),
        good: vec![false, true],
    }
}

/// `rel` reduced by its labels alone (Moore's refinement over its heaps).
pub(super) fn reduce(rel: &Rel) -> (super::monoid::Monoid, Vec<u32>, Vec<Word>) {
    let mut gens: Vec<u32> = rel.heap.iter().copied().filter(|&g| g != 0).collect();
    gens.sort_unstable();
    gens.dedup();
    let by_gen: Vec<Vec<u32>> = gens.iter().map(|&g| (0..rel.order as u32).map(|a| rel.mul(a, g)).collect()).collect();
    let labels: Vec<u32> = rel.label.iter().map(|&l| l as u32).collect();
    let kinds = if labels.contains(&0) && labels.contains(&1) { 2 } else { 1 };
    let (class, count) = refine(labels, kinds, &by_gen, None).expect("refining without a budget always ends");
    // Elements are numbered by least words, so each class's first member has its least word.
    let mut number = vec![u32::MAX; count];
    let mut first = Vec::new();
    for (a, &c) in class.iter().enumerate() {
        let c = c as usize;
        if number[c] == u32::MAX {
            number[c] = first.len() as u32;
            first.push(a);
        }
    }
    let of = |a: usize| number[class[a] as usize];
    let mut mul = vec![0u32; count * count];
    for (i, &a) in first.iter().enumerate() {
        for (j, &b) in first.iter().enumerate() {
            mul[i * count + j] = of(rel.mul(a as u32, b as u32) as usize);
        }
    }
    let monoid = super::monoid::Monoid::from_parts(count, mul, first.iter().map(|&a| rel.label[a]).collect());
    let phi = rel.heap.iter().map(|&x| of(x as usize)).collect();
    let reps = first.iter().map(|&a| rel.reps[a].clone()).collect();
    (monoid, phi, reps)
}

#[cfg(test)]
mod tests {
    use super::super::brute::{brute_with, octal_options};
    use super::*;

    fn run(options: &[Vec<Word>]) -> Option<(super::super::monoid::Monoid, Vec<u32>, Vec<Word>)> {
        let meter = Meter::new(u64::MAX);
        let budget = Budget {
            meter: &meter,
            max_order: 100_000,
            max_states: 10_000_000,
            max_copies: 16,
            why: Default::default(),
        };
        misere(options, &budget)
    }

    /// Dawson's Kayles past its blow-up at heap 25, Kayles, 0.56 and Grundy's game: every sum of
    /// three heaps (one up to the top, two small) against the search over whole positions.
    #[test]
    fn relative_quotients_agree_with_brute_force() {
        let grundy = |n: u64| (1..n.div_ceil(2)).map(|a| vec![a, n - a]).collect::<Vec<Word>>();
        let octal = |code: &'static [u8]| move |n: u64| octal_options(code, n);
        type Options = Box<dyn Fn(u64) -> Vec<Word>>;
        let games: Vec<(&str, Options, u64, usize)> = vec![
            ("0.07", Box::new(octal(&[0, 0, 7])), 27, 176),
            ("0.77", Box::new(octal(&[0, 7, 7])), 20, 24),
            ("0.56", Box::new(octal(&[0, 5, 6])), 20, 18),
            ("Grundy's game", Box::new(grundy), 24, 48),
        ];
        for (name, options, top, order) in games {
            let all: Vec<Vec<Word>> = (0..=top).map(&options).collect();
            let (monoid, phi, _) = run(&all).expect("computed");
            assert_eq!(monoid.order(), order, "{name}");
            let mut memo = HashMap::new();
            let small = top.min(14);
            for a in 0..=top {
                for b in 0..=a.min(small) {
                    for c in 0..=b.min(9) {
                        let pos = [a, b, c];
                        let want = brute_with(&*options, &pos, &mut memo);
                        let x = pos.iter().fold(0, |acc, &h| monoid.mul(acc, phi[h as usize]));
                        assert_eq!(monoid.in_p(x), want, "{name} {pos:?}");
                    }
                }
            }
        }
    }
}
