//! A misère quotient written as the literature writes it: generators (the heaps whose element
//! is not a product of earlier ones), relations, each element as a word in the generators, the
//! P-portion, and Φ(n) for each heap.

use super::quotient::Quotient;

/// Generators, each element's shortest word, and the relations that define the product.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presentation {
    /// (name, heap, element)
    pub generators: Vec<(String, u64, u32)>,
    /// For each element, exponents of the generators in its normal form.
    pub words: Vec<Vec<u32>>,
    /// (left, right): exponent vectors with left = right.
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
}

impl Presentation {
    pub(crate) fn of(q: &Quotient) -> Presentation {
        let monoid = q.monoid();
        let order = monoid.order();
        let mut generators: Vec<(String, u64, u32)> = Vec::new();
        // Elements reached by the generators so far.
        let mut reached = vec![false; order];
        reached[0] = true;
        for h in 1..q.heaps() {
            let x = q.phi(h).expect("heaps below heaps() are computed");
            if reached[x as usize] {
                continue;
            }
            generators.push((name(generators.len()), h, x));
            // Close the reached set under the new generator.
            loop {
                let mut grew = false;
                for y in 0..order {
                    if reached[y] {
                        let z = monoid.mul(y as u32, x) as usize;
                        if !reached[z] {
                            reached[z] = true;
                            grew = true;
                        }
                    }
                }
                if !grew {
                    break;
                }
            }
        }
        let k = generators.len();
        // Normal forms: breadth first by length, generators in order, words non-decreasing.
        let mut words: Vec<Option<Vec<u32>>> = vec![None; order];
        words[0] = Some(vec![0; k]);
        let mut frontier = vec![(0u32, 0usize)];
        let mut relations = Vec::new();
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for (x, from) in frontier {
                let word = words[x as usize].clone().expect("frontier elements have words");
                for (j, (_, _, g)) in generators.iter().enumerate().skip(from) {
                    let y = monoid.mul(x, *g);
                    let mut longer = word.clone();
                    longer[j] += 1;
                    match &words[y as usize] {
                        None => {
                            words[y as usize] = Some(longer);
                            next.push((y, j));
                        }
                        Some(normal) => {
                            // A relation unless a shorter one already rewrites a part of it.
                            let minimal = (0..k).all(|i| {
                                if longer[i] == 0 {
                                    return true;
                                }
                                let mut part = longer.clone();
                                part[i] -= 1;
                                words.iter().flatten().any(|w| *w == part)
                            });
                            if minimal && *normal != longer {
                                relations.push((longer, normal.clone()));
                            }
                        }
                    }
                }
            }
            frontier = next;
        }
        let words = words.into_iter().map(|w| w.unwrap_or_default()).collect();
        Presentation { generators, words, relations }
    }

    /// An element as a word: `1`, `a`, `a²b`.
    pub(crate) fn word(&self, x: u32) -> String {
        self.exponents(&self.words[x as usize])
    }

    pub(crate) fn exponents(&self, e: &[u32]) -> String {
        let mut s = String::new();
        for (i, &n) in e.iter().enumerate() {
            if n == 0 {
                continue;
            }
            s.push_str(&self.generators[i].0);
            if n > 1 {
                s.push_str(&superscript(n));
            }
        }
        if s.is_empty() {
            "1".into()
        } else {
            s
        }
    }
}

/// a, b, …, z, then g27, g28, …
fn name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("g{}", i + 1)
    }
}

fn superscript(n: u32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string().chars().map(|c| DIGITS[c as usize - '0' as usize]).collect()
}
