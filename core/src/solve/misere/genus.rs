//! Misère Grundy values and Conway's genus of single heaps, by the recursion over positions.
//!
//! The genus of G is g^{γ₀γ₁γ₂…}: g is G's normal-play Grundy value, γ₀ = G⁻(G) its misère Grundy
//! value (mex of its options' values; 1 when it has no move) and γₖ = G⁻(G + k·∗2). The options of
//! G + k·∗2 are G′ + k·∗2, G + (k−1)·∗2 + ∗1 and G + (k−1)·∗2, and G⁻(X + ∗1) = G⁻(X) ⊕ 1 for every
//! X, so γₖ(G) = mex({γₖ(G′)} ∪ {γₖ₋₁(G), γₖ₋₁(G) ⊕ 1}): a position's genus follows from its
//! options' genera. The sequence ends alternating (Conway), and is written with its final
//! alternating pair once, as in the literature (∗0 = 0^120, ∗1 = 1^031, ∗2 = 2^20).

use std::collections::HashMap;

use super::monoid::children;
use super::quotient::Word;

/// How many terms γ₀… are computed: enough for every alternation seen in heap games.
pub(crate) const TERMS: usize = 10;

/// Genus of one position: the normal-play value and γ₀..γ_{TERMS-1}.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Genus {
    pub normal: u64,
    pub gamma: Vec<u64>,
}

impl Genus {
    /// The genus of the nim heap ∗m.
    pub(crate) fn nim(m: u64) -> Genus {
        // ∗0 and ∗1 start with m ⊕ 1; then (and for larger heaps from the start) m ⊕ 2 after
        // an odd number of ∗2s and m after an even number.
        let gamma = (0..TERMS as u64)
            .map(|k| match k {
                0 if m <= 1 => m ^ 1,
                _ if k % 2 == 1 => m ^ 2,
                _ => m,
            })
            .collect();
        Genus { normal: m, gamma }
    }

    pub(crate) fn misere_grundy(&self) -> u64 {
        self.gamma[0]
    }

    /// Whether this is the genus of a nim heap (∗g for the game's own g).
    pub(crate) fn is_nim(&self) -> bool {
        *self == Genus::nim(self.normal)
    }

    /// g^{γ₀γ₁…} up to the final alternating pair (once, or one term when it is constant).
    pub(crate) fn symbol(&self) -> String {
        let g = &self.gamma;
        let last = g.len();
        // The first j from which γ repeats with period 2.
        let mut j = last - 2;
        while j > 0 && g[j - 1] == g[j + 1] {
            j -= 1;
        }
        let end = if g[j] == g[j + 1] { j + 1 } else { j + 2 };
        let terms = &g[..end];
        let sup = if terms.iter().all(|&t| t < 10) {
            terms.iter().map(|t| t.to_string()).collect::<String>()
        } else {
            terms.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(",")
        };
        format!("{}^{}", self.normal, sup)
    }
}

fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut seen: Vec<u64> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter().enumerate().find(|&(i, &v)| i as u64 != v).map_or(seen.len() as u64, |(i, _)| i as u64)
}

/// Genera of positions (words of heaps), memoized; a budget bounds the positions visited.
pub(crate) struct Genera {
    memo: HashMap<Word, Genus>,
    budget: usize,
}

impl Genera {
    pub(crate) fn new(budget: usize) -> Genera {
        Genera { memo: HashMap::new(), budget }
    }

    /// The genus of a word whose heaps' options `options(h)` gives; `None` past the budget.
    pub(crate) fn genus(&mut self, word: &[u64], options: &dyn Fn(u64) -> Vec<Word>) -> Option<Genus> {
        let mut root: Word = word.iter().copied().filter(|&h| h > 0).collect();
        root.sort_unstable();
        if let Some(g) = self.memo.get(&root) {
            return Some(g.clone());
        }
        // Iterative depth-first walk: heaps can be large, so no recursion.
        let mut stack: Vec<(Word, Vec<Word>, usize)> = vec![(root.clone(), children(&root, options), 0)];
        while let Some((_, kids, next)) = stack.last_mut() {
            if *next < kids.len() {
                let child = kids[*next].clone();
                *next += 1;
                if !self.memo.contains_key(&child) {
                    if self.memo.len() + stack.len() >= self.budget {
                        return None;
                    }
                    let grand = children(&child, options);
                    stack.push((child, grand, 0));
                }
            } else {
                let (w, kids, _) = stack.pop().expect("the loop runs while the stack is not empty");
                let genus = combine(&kids.iter().map(|k| &self.memo[k]).collect::<Vec<_>>());
                self.memo.insert(w, genus);
            }
        }
        self.memo.get(&root).cloned()
    }
}

/// A position's genus from its options' genera.
fn combine(options: &[&Genus]) -> Genus {
    let normal = mex(options.iter().map(|g| g.normal));
    let mut gamma = Vec::with_capacity(TERMS);
    gamma.push(if options.is_empty() { 1 } else { mex(options.iter().map(|g| g.gamma[0])) });
    for k in 1..TERMS {
        let before = gamma[k - 1];
        gamma.push(mex(options.iter().map(|g| g.gamma[k]).chain([before, before ^ 1])));
    }
    Genus { normal, gamma }
}

/// Genera and tameness of piles 0..=N.
pub(crate) struct PileGenera {
    pub genus: Vec<Option<Genus>>,
    pub tame: Vec<Option<bool>>,
}

/// The genus of every pile up to `options.len() - 1` (until the budget of positions runs out),
/// and whether each is tame: it has a nim heap's genus and is the same element of the quotient
/// (`phi`) as an earlier tame pile of that genus, or is the first of its genus and every option
/// is a sum of tame piles (Conway: tame options and a tame genus make a tame game).
pub(crate) fn pile_genera<E>(
    piles: usize,
    mut options_of: impl FnMut(u64) -> Result<Vec<Word>, E>,
    phi: &[Option<u32>],
    budget: usize,
) -> Result<PileGenera, E> {
    let mut genera = Genera::new(budget);
    // Options are listed only as far as the genus goes: past its budget none are read, and a
    // large heap's options (a word for each way to split it) would cost more than the rest.
    let mut options: Vec<Vec<Word>> = Vec::new();
    let mut genus: Vec<Option<Genus>> = Vec::with_capacity(piles);
    for n in 0..piles {
        let g = if genus.last().is_some_and(|g| g.is_none()) {
            None
        } else {
            options.push(options_of(n as u64)?);
            genera.genus(&[n as u64], &|h| options[h as usize].clone())
        };
        genus.push(g);
    }
    let mut tame: Vec<Option<bool>> = Vec::with_capacity(piles);
    for n in 0..piles {
        let verdict = (|| {
            let g = genus[n].as_ref()?;
            let x = phi.get(n).copied().flatten()?;
            if !g.is_nim() {
                return Some(false);
            }
            match (0..n).find(|&m| genus[m].as_ref() == Some(g)) {
                Some(first) => Some(tame[first]? && phi[first]? == x),
                None => options[n].iter().flatten().try_fold(true, |all, &h| Some(all && tame[h as usize]?)),
            }
        })();
        tame.push(verdict);
    }
    Ok(PileGenera { genus, tame })
}

/// Misère Nim's rule on the normal-play values of tame piles: P exactly when every value is at
/// most 1 and their XOR is 1, or some value is larger and their XOR is 0.
pub(crate) fn misere_nim_rule(values: &[u64]) -> bool {
    let xor = values.iter().fold(0, |a, v| a ^ v);
    if values.iter().all(|&v| v <= 1) {
        xor == 1
    } else {
        xor == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_heaps_have_the_genera_of_the_literature() {
        assert_eq!(Genus::nim(0).symbol(), "0^120");
        assert_eq!(Genus::nim(1).symbol(), "1^031");
        assert_eq!(Genus::nim(2).symbol(), "2^20");
        assert_eq!(Genus::nim(5).symbol(), "5^57");
        // computed from the definition: a nim heap's options are the smaller heaps
        let mut g = Genera::new(1000);
        let nim = |n: u64| -> Vec<Word> { (0..n).map(|m| if m == 0 { vec![] } else { vec![m] }).collect() };
        for m in 0..6 {
            assert_eq!(g.genus(&[m], &nim).unwrap(), Genus::nim(m), "*{m}");
        }
    }
}
