//! A test of a candidate quotient that does not walk sums: it refutes a candidate that lets a
//! P-position move to a P-position, and certifies one whose every N-element provably has a move
//! to P, from a bound on each element's winning contexts. Inconclusive otherwise (the exact walk
//! in `quotient` decides then).
//!
//! The argument (this module's own). A candidate (Q, P, Φ) is correct when every sum G has
//! Φ(G) ∈ P exactly when G is a misère P-position. By induction on G it is enough that
//! (a) whenever Φ(H)Φ(h) ∈ P for a sum H and a heap h, no option t of h has Φ(H)·Φ(t) ∈ P
//!     (and 1 ∉ P: the sums without a move are Φ = 1); and
//! (b) every non-empty G with Φ(G) ∉ P has an option G′ with Φ(G′) ∈ P.
//! (a) involves one element and one heap, so it is tested exactly, and a failure proves the
//! candidate wrong (a P-position would have a P-option). For (b), let W(G) = { z : some option
//! G′ of G has Φ(G′)z ∈ P }; (b) asks 1 ∈ W(G). For G = H + h,
//!     W(G) ⊇ { z : Φ(h)z ∈ W(H) } ∪ ⋃_{t ∈ T(h)} D(Φ(H)t),   D(u) = { z : uz ∈ P },
//! with equality for a single heap (H empty, W(H) = ∅). So any family L(x), over the elements
//! x that non-empty sums reach, with L(x) contained in each bound above for every way
//! x = y·Φ(h) (y reached by a non-empty sum) and in D(T(h)) for every heap with Φ(h) = x,
//! satisfies L(Φ(G)) ⊆ W(G) for every non-empty G (induction on the number of heaps: G's last
//! heap is one such way). The greatest such family is found by shrinking from "everything"
//! until nothing changes; if it holds 1 for every non-empty N-element, (b) holds.

use super::monoid::{Meter, Monoid};

/// What the test found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The candidate is the quotient's correct description of every sum.
    Correct,
    /// Some P-position would have a P-option: the candidate is wrong.
    Wrong,
    /// Neither shown; the exact walk decides.
    Unknown,
}

/// Tests a candidate whose heaps act as `kinds`: (Φ(h), the elements of h's options). `None`
/// when the meter runs out.
pub(super) fn certify(monoid: &Monoid, kinds: &[(u32, Vec<u32>)], meter: &Meter) -> Option<Verdict> {
    let m = monoid.order;
    if monoid.in_p(0) {
        return Some(Verdict::Wrong);
    }
    let words = m.div_ceil(64);
    // Elements reached by sums (0, the empty sum, included) and by non-empty sums.
    let mut reached = vec![false; m];
    reached[0] = true;
    let mut stack = vec![0u32];
    let mut non_empty = vec![false; m];
    let mut ne_stack: Vec<u32> = Vec::new();
    for (phi, _) in kinds {
        if !std::mem::replace(&mut non_empty[*phi as usize], true) {
            ne_stack.push(*phi);
        }
    }
    for (flags, stack) in [(&mut reached, &mut stack), (&mut non_empty, &mut ne_stack)] {
        while let Some(x) = stack.pop() {
            if !meter.spend(kinds.len() as u64) {
                return None;
            }
            for (phi, _) in kinds {
                let y = monoid.mul(x, *phi);
                if !std::mem::replace(&mut flags[y as usize], true) {
                    stack.push(y);
                }
            }
        }
    }
    // (a), exactly.
    for y in (0..m as u32).filter(|&y| reached[y as usize]) {
        if !meter.spend((kinds.len() * 2) as u64) {
            return None;
        }
        for (phi, options) in kinds {
            if monoid.in_p(monoid.mul(y, *phi)) && options.iter().any(|&t| monoid.in_p(monoid.mul(y, t))) {
                return Some(Verdict::Wrong);
            }
        }
    }
    // (b): the greatest family of bounds.
    if !meter.spend((m * m) as u64) {
        return None;
    }
    let d = monoid.d_sets();
    // For each element, the ways it is reached: (y, kind), y = None for a single heap.
    let mut ways: Vec<Vec<(Option<u32>, usize)>> = vec![Vec::new(); m];
    for (k, (phi, _)) in kinds.iter().enumerate() {
        ways[*phi as usize].push((None, k));
    }
    for y in (0..m as u32).filter(|&y| non_empty[y as usize]) {
        for (k, (phi, _)) in kinds.iter().enumerate() {
            ways[monoid.mul(y, *phi) as usize].push((Some(y), k));
        }
    }
    // The part of each bound that does not depend on L, computed once per way.
    let mut fixed: Vec<Vec<Vec<u64>>> = Vec::with_capacity(m);
    for ways_x in &ways {
        let images: usize = ways_x.iter().map(|&(_, k)| kinds[k].1.len()).sum();
        if !meter.spend((ways_x.len() + images * words) as u64 + 1) {
            return None;
        }
        fixed.push(ways_x.iter().map(|&(y, k)| monoid.moves_in(&d, y.unwrap_or(0), &kinds[k].1)).collect());
    }
    let mut bound: Vec<Vec<u64>> = vec![vec![u64::MAX; words]; m];
    let mut queued = non_empty.clone();
    let mut queue: std::collections::VecDeque<u32> = (0..m as u32).filter(|&x| non_empty[x as usize]).collect();
    while let Some(x) = queue.pop_front() {
        queued[x as usize] = false;
        if !meter.spend((ways[x as usize].len() * (m + words)) as u64 + 1) {
            return None;
        }
        let mut next = vec![u64::MAX; words];
        for (&(y, k), fixed) in ways[x as usize].iter().zip(&fixed[x as usize]) {
            let mut term = fixed.clone();
            if let Some(y) = y {
                monoid.add_shifted(&mut term, &bound[y as usize], kinds[k].0);
            }
            for (a, b) in next.iter_mut().zip(&term) {
                *a &= b;
            }
        }
        if next != bound[x as usize] {
            bound[x as usize] = next;
            for (phi, _) in kinds {
                let after = monoid.mul(x, *phi);
                if !std::mem::replace(&mut queued[after as usize], true) {
                    queue.push_back(after);
                }
            }
        }
    }
    let proven = (0..m).all(|x| !non_empty[x] || monoid.in_p(x as u32) || bound[x][0] & 1 != 0);
    Some(if proven { Verdict::Correct } else { Verdict::Unknown })
}
