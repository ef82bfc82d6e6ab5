//! Infinitesimals: the atomic weight of an all-small game (Winning Ways ch. 8; Siegel,
//! Combinatorial Game Theory II.7), by the atomic weight calculus from its definition: G'' =
//! {aw(G^L) − 2 | aw(G^R) + 2}, which is the atomic weight unless it is an integer and G is
//! eccentric (above or below a far star), where the integer is moved as far as the options
//! allow; and reduced canonical forms, the simplest game infinitesimally close to a given one.

use std::collections::HashMap;

use super::forms::{FormId, Forms, TooManyForms};

/// Atomic weights of the forms of one store, each computed once.
#[derive(Default)]
pub(crate) struct AtomicWeights {
    weights: HashMap<FormId, FormId>,
    all_small: HashMap<FormId, bool>,
}

impl AtomicWeights {
    /// Whether every position of `g` (itself included) has options for both players or for
    /// neither: the games atomic weights are defined for.
    pub(crate) fn is_all_small(&mut self, forms: &Forms, g: FormId) -> bool {
        if let Some(&a) = self.all_small.get(&g) {
            return a;
        }
        let (l, r) = (forms.left(g).to_vec(), forms.right(g).to_vec());
        let a = l.is_empty() == r.is_empty() && l.iter().chain(&r).all(|&o| self.is_all_small(forms, o));
        self.all_small.insert(g, a);
        a
    }

    /// The atomic weight of `g`, a game itself; `None` when `g` is not all-small.
    pub(crate) fn weight(&mut self, forms: &mut Forms, g: FormId) -> Result<Option<FormId>, TooManyForms> {
        if !self.is_all_small(forms, g) {
            return Ok(None);
        }
        self.weight_of_all_small(forms, g).map(Some)
    }

    fn weight_of_all_small(&mut self, forms: &mut Forms, g: FormId) -> Result<FormId, TooManyForms> {
        if let Some(&w) = self.weights.get(&g) {
            return Ok(w);
        }
        let two = forms.of_number(2.into())?;
        let mut left = Vec::new();
        for o in forms.left(g).to_vec() {
            let w = self.weight_of_all_small(forms, o)?;
            left.push(forms.sub(w, two)?);
        }
        let mut right = Vec::new();
        for o in forms.right(g).to_vec() {
            let w = self.weight_of_all_small(forms, o)?;
            right.push(forms.add(w, two)?);
        }
        let candidate = forms.canonical(left.clone(), right.clone())?;
        let w = match forms.number(candidate).and_then(|x| x.integer()) {
            Some(n) => {
                // A far star: a nimber larger than any in g's game tree (its birthday bounds
                // them all).
                let born = forms.birthday(g);
                let far = forms.nimber(born + 1)?;
                let above = forms.le(far, g) && !forms.le(g, far);
                let below = forms.le(g, far) && !forms.le(far, g);
                if above {
                    // The largest integer m with m ⧏ every G^R'' (no G^R'' ≤ m).
                    let mut m = n;
                    loop {
                        let next = forms.of_number((m + 1).into())?;
                        if right.iter().any(|&x| forms.le(x, next)) {
                            break;
                        }
                        m += 1;
                    }
                    forms.of_number(m.into())?
                } else if below {
                    // The least integer m with every G^L'' ⧏ m (no m ≤ G^L'').
                    let mut m = n;
                    loop {
                        let next = forms.of_number((m - 1).into())?;
                        if left.iter().any(|&x| forms.le(next, x)) {
                            break;
                        }
                        m -= 1;
                    }
                    forms.of_number(m.into())?
                } else {
                    candidate
                }
            }
            None => candidate,
        };
        self.weights.insert(g, w);
        Ok(w)
    }
}

/// Reduced canonical forms (Siegel, Combinatorial Game Theory II.6, after Calistrate and
/// Grossman–Siegel): the simplest game infinitesimally close to a given one, which keeps what
/// matters above infinitesimals (stops, thermograph above 0) and drops the rest. G ≥ H up to
/// an infinitesimal exactly when Right's stop of G − H is at least 0; options dominated or
/// reversible in that order are removed or bypassed as in a canonical form, and a game whose
/// stops are equal is that number.
#[derive(Default)]
pub(crate) struct ReducedForms {
    reduced: HashMap<FormId, FormId>,
}

impl ReducedForms {
    /// The reduced canonical form of `g`.
    pub(crate) fn reduced(&mut self, forms: &mut Forms, g: FormId) -> Result<FormId, TooManyForms> {
        if let Some(&r) = self.reduced.get(&g) {
            return Ok(r);
        }
        let (left_stop, right_stop) = forms.stops(g);
        let r = if left_stop == right_stop {
            forms.of_number(left_stop)?
        } else {
            let mut left = Vec::new();
            for o in forms.left(g).to_vec() {
                left.push(self.reduced(forms, o)?);
            }
            let mut right = Vec::new();
            for o in forms.right(g).to_vec() {
                right.push(self.reduced(forms, o)?);
            }
            loop {
                let whole = forms.canonical(left, right)?;
                let left_now = inf_undominated(forms, forms.left(whole).to_vec(), true)?;
                let right_now = inf_undominated(forms, forms.right(whole).to_vec(), false)?;
                let (new_left, left_changed) = bypass_inf_reversible(forms, whole, &left_now, true)?;
                let (new_right, right_changed) = bypass_inf_reversible(forms, whole, &right_now, false)?;
                // Options dominated up to an infinitesimal were dropped, or reversible ones bypassed.
                let dropped = new_left.len() != forms.left(whole).len() || new_right.len() != forms.right(whole).len();
                if !(left_changed || right_changed || dropped) {
                    break whole;
                }
                (left, right) = (new_left, new_right);
            }
        };
        self.reduced.insert(g, r);
        Ok(r)
    }
}

/// `options` of one side of `whole` with each reversible one up to an infinitesimal bypassed:
/// a Left option G^L with a reply G^LR ≤ G (up to an infinitesimal) is replaced by G^LR's Left
/// options (and the mirror for Right); and whether any was.
fn bypass_inf_reversible(
    forms: &mut Forms,
    whole: FormId,
    options: &[FormId],
    for_left: bool,
) -> Result<(Vec<FormId>, bool), TooManyForms> {
    let (mut out, mut changed) = (Vec::new(), false);
    for &option in options {
        let replies = if for_left { forms.right(option) } else { forms.left(option) }.to_vec();
        let mut through = None;
        for reply in replies {
            let reverses = if for_left { inf_le(forms, reply, whole)? } else { inf_le(forms, whole, reply)? };
            if reverses {
                through = Some(reply);
                break;
            }
        }
        match through {
            Some(reply) => {
                out.extend(if for_left { forms.left(reply) } else { forms.right(reply) }.to_vec());
                changed = true;
            }
            None => out.push(option),
        }
    }
    Ok((out, changed))
}

/// G ≤ H up to an infinitesimal: Right's stop of H − G is at least 0.
fn inf_le(forms: &mut Forms, g: FormId, h: FormId) -> Result<bool, TooManyForms> {
    let d = forms.sub(h, g)?;
    Ok(forms.stops(d).1 >= super::Dyadic::ZERO)
}

/// The options no other beats up to an infinitesimal (of options equal up to one, the first).
fn inf_undominated(forms: &mut Forms, options: Vec<FormId>, for_left: bool) -> Result<Vec<FormId>, TooManyForms> {
    let mut kept: Vec<FormId> = Vec::new();
    for (i, &a) in options.iter().enumerate() {
        let mut beaten = false;
        for (j, &b) in options.iter().enumerate() {
            if i == j {
                continue;
            }
            let (worse, better) = if for_left { (a, b) } else { (b, a) };
            // a is beaten by b when worse ≤ better; when they are also equal (both ways), the
            // later one goes.
            if inf_le(forms, worse, better)? && (!inf_le(forms, better, worse)? || j < i) {
                beaten = true;
                break;
            }
        }
        if !beaten {
            kept.push(a);
        }
    }
    Ok(kept)
}
