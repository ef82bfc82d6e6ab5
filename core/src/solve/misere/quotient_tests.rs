//! The quotient's own tests.
use super::super::brute::{brute_with, octal_options};
use super::super::certify::{certify, Verdict};
use super::*;
use std::collections::HashMap;

fn brute(code: &[u8], pos: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    brute_with(&|n| octal_options(code, n), pos, memo)
}

fn build(code: &[u8], upto: u64) -> Quotient {
    let mut q = Quotient::new(Bounds::default());
    for n in 1..=upto {
        assert!(q.push(octal_options(code, n), &Meter::new(u64::MAX)).is_ok(), "stopped: {:?}", q.stopped());
    }
    q
}

/// Every quotient built (its checks settled by `certify`) also passes the whole walk.
#[test]
fn certified_quotients_pass_the_whole_walk() {
    for (code, upto) in [(&[0u8, 0, 7][..], 24), (&[0, 7, 7][..], 80), (&[0, 5, 6][..], 120), (&[0, 4, 4][..], 60)] {
        let q = build(code, upto);
        let mut checker = Checker::new(&q.monoid);
        for h in 1..q.phi.len() {
            if !q.options[h].is_empty() {
                let images = dedup(q.options[h].iter().map(|w| q.product(w).expect("computed")).collect());
                checker.add_type(q.phi[h], images);
            }
        }
        let walked = checker.walk(&q.monoid, 5_000_000, &Meter::new(u64::MAX));
        assert_eq!(walked, Ok(true), "{code:?} to {upto}: order {}", q.monoid.order);
        // A candidate with one element's outcome changed is never certified.
        for x in 0..q.monoid.order {
            let mut wrong = q.monoid.clone();
            wrong.p[x] = !wrong.p[x];
            let verdict = certify(&wrong, &checker.types, &Meter::new(u64::MAX));
            assert_ne!(verdict, Some(Verdict::Correct), "{code:?}: element {x} changed");
        }
    }
}

/// The quotient itself is a fixed point of a step of the recursion: same order, and every
/// heap's element has the same outcome, alone and beside every other heap.
#[test]
fn a_step_leaves_a_right_quotient_as_it_is() {
    for (code, upto) in [(&[0u8, 7, 7][..], 40), (&[0, 0, 7][..], 24), (&[0, 5, 6][..], 60)] {
        let q = build(code, upto);
        let heaps: Vec<Option<(u32, Vec<u32>)>> = (0..q.phi.len())
            .map(|h| {
                let images = dedup(q.options[h].iter().map(|w| q.product(w).expect("computed")).collect());
                (!q.options[h].is_empty()).then(|| (q.phi[h], images))
            })
            .collect();
        let stepped = step(&q.monoid, &heaps, 1_000_000, 4096, &Meter::new(u64::MAX)).expect("within bounds");
        assert_eq!(stepped.monoid.order, q.monoid.order, "{code:?}");
        for a in 0..q.phi.len() {
            for b in a..q.phi.len() {
                let old = q.monoid.mul(q.phi[a], q.phi[b]);
                let new = stepped.monoid.mul(stepped.phi[a], stepped.phi[b]);
                assert_eq!(stepped.monoid.in_p(new), q.monoid.in_p(old), "{code:?}: {a} + {b}");
            }
        }
    }
}

#[test]
fn misere_nim_and_kayles_agree_with_brute_force() {
    for (code, upto) in [(&[0u8, 3, 3, 3][..], 3), (&[0, 7, 7][..], 12), (&[0, 1, 7][..], 9)] {
        let q = build(code, upto);
        let mut memo = HashMap::new();
        for a in 0..=upto.min(7) {
            for b in a..=upto.min(7) {
                for c in b..=upto.min(7) {
                    let pos = [a, b, c];
                    let want = brute(code, &pos, &mut memo);
                    let got = q.monoid.in_p(q.product(&pos).unwrap());
                    assert_eq!(got, want, "{code:?} {pos:?}");
                }
            }
        }
        eprintln!("{code:?} to {upto}: order {}", q.monoid.order);
    }
}
