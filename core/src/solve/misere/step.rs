//! One step of the misère recursion applied to a candidate quotient that failed its check: the
//! next candidate, right wherever the failed one was right about every option.
//!
//! The argument (this module's own). Given a candidate (Q, P, Φ), map each sum G to
//! τ(G) = (Φ(G), W(G), G has a move), W(G) = { z : some option G′ has Φ(G′)z ∈ P }. τ is a
//! homomorphism into the pairs with (x, W)·(y, V) = (xy, y⁻¹W ∪ x⁻¹V) (an option of G + H is an
//! option of G plus H, or G plus an option of H), and the pairs reached from the empty sum by
//! adding heaps are finitely many. Call τ(G) a P-pair when G has a move and 1 ∉ W(G): that is
//! G's outcome by the misère recursion whenever the candidate has all of G's options right. The
//! coarsest congruence on the reached pairs that keeps P-pairs apart from the rest (Moore's
//! refinement over the heaps) is the next candidate. Every sum the old candidate had right,
//! and every sum whose options it had right, the new one has right: so the smallest sum it gets
//! wrong (sums ordered by counters, then as words) lies strictly beyond the old one's. The check
//! decides, as for every candidate.

use std::collections::HashMap;

use super::monoid::{Meter, Monoid, Word};

/// The most entries (4 bytes each) of the table of transitions a step keeps.
const MOST_TRANSITIONS: usize = 16 << 20;

/// The next candidate: its monoid, Φ of every heap, and a word of least size for each element.
pub(super) struct Stepped {
    pub monoid: Monoid,
    pub phi: Vec<u32>,
    pub reps: Vec<Word>,
}

/// Steps `monoid` once. `heaps[h]` is Φ(h) and the elements of h's options, `None` for a heap
/// without a move. `None` past `most_pairs` pairs or `most_order` elements, or when the meter
/// runs out.
pub(super) fn step(
    monoid: &Monoid,
    heaps: &[Option<(u32, Vec<u32>)>],
    most_pairs: usize,
    most_order: usize,
    meter: &Meter,
) -> Option<Stepped> {
    let m = monoid.order();
    let words = m.div_ceil(64);
    let d = monoid.d_sets();
    // Heaps that act alike are one kind; each kind keeps its smallest heap for the words.
    let mut kinds: Vec<(u32, Vec<u32>, u64)> = Vec::new();
    let mut kind_of: Vec<Option<usize>> = vec![None; heaps.len()];
    for (h, heap) in heaps.iter().enumerate() {
        let Some((phi, images)) = heap else { continue };
        let k = match kinds.iter().position(|(p, t, _)| p == phi && t == images) {
            Some(k) => k,
            None => {
                kinds.push((*phi, images.clone(), h as u64));
                kinds.len() - 1
            }
        };
        kind_of[h] = Some(k);
    }
    let kn = kinds.len();
    // The table of where each kind takes each pair is kept whole: at most 64 MB of it.
    let most_pairs = most_pairs.min(MOST_TRANSITIONS / kn.max(1));
    // The pairs reached from the empty sum, and where each kind of heap takes each.
    type Pair = (u32, Vec<u64>, bool);
    let mut pairs: Vec<Pair> = vec![(0, vec![0; words], false)];
    let mut ids: HashMap<Pair, u32> = HashMap::new();
    ids.insert(pairs[0].clone(), 0);
    let mut next_of: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < pairs.len() {
        for (phi, images, _) in &kinds {
            if !meter.spend(1 + m as u64 / 8 + (images.len() * words) as u64) {
                return None;
            }
            let (x, w, _) = &pairs[i];
            let next = monoid.contexts_after(&d, *x, w, *phi, images);
            let key = (monoid.mul(*x, *phi), next, true);
            let j = match ids.get(&key) {
                Some(&j) => j,
                None => {
                    if pairs.len() >= most_pairs {
                        return None;
                    }
                    let j = pairs.len() as u32;
                    ids.insert(key.clone(), j);
                    pairs.push(key);
                    j
                }
            };
            next_of.push(j);
        }
        i += 1;
    }
    drop(ids);
    let n = pairs.len();
    let is_p = |s: usize| pairs[s].2 && pairs[s].1[0] & 1 == 0;
    let (class, count) = refine(&next_of, kn, (0..n).map(is_p).collect(), meter, most_order)?;
    let heap_of_kind: Vec<u64> = kinds.iter().map(|(_, _, h)| *h).collect();
    let best = least_words(&next_of, &heap_of_kind, n);
    let mut member: Vec<Option<usize>> = vec![None; count];
    for s in 0..n {
        let c = class[s] as usize;
        let better = match member[c] {
            None => true,
            Some(o) => {
                let (a, b) = (best[s].as_ref()?, best[o].as_ref()?);
                (a.0, a.1.len(), &a.1) < (b.0, b.1.len(), &b.1)
            }
        };
        if better {
            member[c] = Some(s);
        }
    }
    let member: Vec<usize> = member.into_iter().collect::<Option<Vec<usize>>>()?;
    // Numbered by their words, the empty sum's class (the identity) first.
    let mut by_word: Vec<usize> = (0..count).collect();
    let word_of = |c: usize| best[member[c]].as_ref().map(|(s, w)| (*s, w.len(), w.clone()));
    by_word.sort_by_key(|&c| word_of(c));
    let mut number = vec![0u32; count];
    for (new, &c) in by_word.iter().enumerate() {
        number[c] = new as u32;
    }
    let reps: Vec<Word> =
        by_word.iter().map(|&c| best[member[c]].as_ref().map(|(_, w)| w.clone())).collect::<Option<_>>()?;
    // Products: from one class's pair, add the heaps of the other's word.
    let mut mul = vec![0u32; count * count];
    for a in 0..count {
        if !meter.spend(count as u64 * 4) {
            return None;
        }
        let start = member[by_word[a]];
        for b in 0..count {
            let mut s = start;
            for &h in &reps[b] {
                s = next_of[s * kn + kind_of[h as usize]?] as usize;
            }
            mul[a * count + b] = number[class[s] as usize];
        }
    }
    let p = by_word.iter().map(|&c| is_p(member[c])).collect();
    let phi = (0..heaps.len())
        .map(|h| match kind_of[h] {
            Some(k) => number[class[next_of[k] as usize] as usize],
            None => 0,
        })
        .collect();
    Some(Stepped { monoid: Monoid::from_parts(count, mul, p), phi, reps })
}

/// Moore's refinement of the pairs: P-pairs apart from the rest, then by where each kind of
/// heap leads (`next_of[s * kinds + k]`), until no class splits. The class of each pair and the
/// count of classes; `None` past `most_order` classes or when the meter runs out.
fn refine(
    next_of: &[u32],
    kinds: usize,
    is_p: Vec<bool>,
    meter: &Meter,
    most_order: usize,
) -> Option<(Vec<u32>, usize)> {
    let n = is_p.len();
    let mut class: Vec<u32> = is_p.iter().map(|&p| p as u32).collect();
    let mut count = 0;
    loop {
        if !meter.spend((n * (kinds + 1)) as u64) {
            return None;
        }
        let mut keys: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut next = vec![0u32; n];
        for s in 0..n {
            let mut key = Vec::with_capacity(kinds + 1);
            key.push(class[s]);
            key.extend(next_of[s * kinds..(s + 1) * kinds].iter().map(|&t| class[t as usize]));
            let fresh = keys.len() as u32;
            next[s] = *keys.entry(key).or_insert(fresh);
        }
        let now = keys.len();
        class = next;
        if now == count {
            return Some((class, count));
        }
        count = now;
        if count > most_order {
            return None;
        }
    }
}

/// A word of least size for every one of `pairs` pairs (Dijkstra from the empty sum, pair 0):
/// its size and its heaps, sorted; `heaps[k]` is the heap that stands for kind k.
fn least_words(next_of: &[u32], heaps: &[u64], pairs: usize) -> Vec<Option<(u64, Word)>> {
    let kinds = heaps.len();
    let mut best: Vec<Option<(u64, Word)>> = vec![None; pairs];
    best[0] = Some((0, Vec::new()));
    let mut queue = std::collections::BinaryHeap::new();
    queue.push(std::cmp::Reverse((0u64, Vec::<u64>::new(), 0usize)));
    while let Some(std::cmp::Reverse((size, word, s))) = queue.pop() {
        if best[s].as_ref().is_some_and(|(_, w)| *w != word) {
            continue;
        }
        for (k, h) in heaps.iter().enumerate() {
            let t = next_of[s * kinds + k] as usize;
            let mut longer = word.clone();
            longer.push(*h);
            longer.sort_unstable();
            let key = (size + h, longer);
            if best[t].as_ref().is_none_or(|(bs, bw)| (key.0, key.1.len(), &key.1) < (*bs, bw.len(), bw)) {
                best[t] = Some(key.clone());
                queue.push(std::cmp::Reverse((key.0, key.1, t)));
            }
        }
    }
    best
}
