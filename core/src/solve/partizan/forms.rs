//! The short-game engine: canonical forms of finite partizan games, their sums, negatives and
//! order, written from Conway's definitions (On Numbers and Games, ch. 7–10; Siegel,
//! Combinatorial Game Theory, ch. II).
//!
//! Every form in the store is canonical (no dominated and no reversible options), and each is
//! stored once, so two games are equal exactly when their ids are. Numbers, nimbers and their
//! sums are recognised as they are made, for the notation.

use std::collections::HashMap;

use super::dyadic::Dyadic;

/// Comparisons and sums remembered, a form's worth of memory each: a remembered comparison
/// takes about a quarter of a form's bytes.
const ENTRIES_PER_FORM: usize = 4;

/// A canonical form in a `Forms` store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct FormId(u32);

impl FormId {
    pub(crate) const ZERO: FormId = FormId(0);
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Node {
    left: Vec<FormId>,
    right: Vec<FormId>,
}

/// What a form is, when it is one of the simple kinds the notation names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kind {
    /// A number plus a nimber: x + *n (a number when n = 0).
    number_nimber: Option<(Dyadic, u32)>,
}

/// The store ran past its size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooManyForms;

pub(crate) struct Forms {
    nodes: Vec<Node>,
    kinds: Vec<Kind>,
    /// Canonical nodes only; temporary nodes (a game being simplified) are not found here.
    index: HashMap<Node, FormId>,
    less_equal: HashMap<(FormId, FormId), bool>,
    sums: HashMap<(FormId, FormId), FormId>,
    negatives: HashMap<FormId, FormId>,
    numbers: HashMap<Dyadic, FormId>,
    /// Left and Right stops, and birthdays, once asked for.
    stop_memo: HashMap<(FormId, bool), Dyadic>,
    birthdays: HashMap<FormId, u32>,
    /// k·↑ + *m by form, for the notation: built once, when first asked for.
    pub(super) ups: Option<HashMap<FormId, (i32, u32)>>,
    limit: usize,
    /// The question's cancel token and deadline, read every `STOP_EVERY` comparisons and
    /// forms: one sum of large forms runs for seconds between the solver's own checks.
    stop_with: Option<crate::solve::Limits>,
    steps: u32,
    /// Set for good once the question is cancelled or past its deadline: every form made after
    /// fails (`TooManyForms`, which the solver reports as the stop), comparisons answer at once
    /// and nothing more is remembered, so that no answer is made from a cut-short comparison.
    stopped: bool,
}

/// Comparisons and forms between two reads of the clock (about a tenth of a millisecond).
const STOP_EVERY: u32 = 1 << 12;

/// The result of simplifying a game, as `explain` shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Simplification {
    /// Left options removed because another Left option is at least as good.
    pub dominated_left: Vec<FormId>,
    pub dominated_right: Vec<FormId>,
    /// (option, the reply it reverses through, what replaced it): for Left, a Left option
    /// whose Right reply is at most the whole game, replaced by that reply's Left options.
    pub reversed_left: Vec<(FormId, FormId, Vec<FormId>)>,
    pub reversed_right: Vec<(FormId, FormId, Vec<FormId>)>,
}

impl Forms {
    /// A store of at most `limit` forms (temporary ones included).
    pub(crate) fn new(limit: usize) -> Forms {
        let zero = Node { left: vec![], right: vec![] };
        let mut index = HashMap::new();
        index.insert(zero.clone(), FormId::ZERO);
        let mut numbers = HashMap::new();
        numbers.insert(Dyadic::ZERO, FormId::ZERO);
        Forms {
            nodes: vec![zero],
            kinds: vec![Kind { number_nimber: Some((Dyadic::ZERO, 0)) }],
            index,
            less_equal: HashMap::new(),
            sums: HashMap::new(),
            negatives: HashMap::new(),
            numbers,
            stop_memo: HashMap::new(),
            birthdays: HashMap::new(),
            ups: None,
            limit: limit.max(16),
            stop_with: None,
            steps: 0,
            stopped: false,
        }
    }

    /// Stops the store's work when `limits`' question is cancelled or past its deadline.
    pub(crate) fn stop_with(&mut self, limits: crate::solve::Limits) {
        self.stop_with = Some(limits);
    }

    /// Whether the question stopped the store's work (see `stopped`).
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// One step of work: true once the question is cancelled or past its deadline.
    fn should_stop(&mut self) -> bool {
        if !self.stopped {
            self.steps = self.steps.wrapping_add(1);
            if self.steps.is_multiple_of(STOP_EVERY) {
                if let Some(limits) = &self.stop_with {
                    self.stopped = crate::solve::check_cancel(limits).is_err();
                }
            }
        }
        self.stopped
    }

    /// The work done so far, in entries remembered: forms, comparisons and sums. It grows
    /// with the forms' size, and tables stop writing values where it passes a budget.
    pub(crate) fn work(&self) -> usize {
        self.nodes.len() + self.less_equal.len() + self.sums.len()
    }

    pub(crate) fn left(&self, g: FormId) -> &[FormId] {
        &self.nodes[g.0 as usize].left
    }

    pub(crate) fn right(&self, g: FormId) -> &[FormId] {
        &self.nodes[g.0 as usize].right
    }

    /// The number this form is, if it is one.
    pub(crate) fn number(&self, g: FormId) -> Option<Dyadic> {
        match self.kinds[g.0 as usize].number_nimber {
            Some((x, 0)) => Some(x),
            _ => None,
        }
    }

    /// (x, n) when the form is the number x plus the nimber *n.
    pub(crate) fn number_nimber(&self, g: FormId) -> Option<(Dyadic, u32)> {
        self.kinds[g.0 as usize].number_nimber
    }

    fn push(&mut self, node: Node, kind: Kind) -> Result<FormId, TooManyForms> {
        // Everything remembered counts, comparisons and sums too: they are most of the memory
        // and the time of a large sum, which would otherwise fill gigabytes before the forms
        // themselves reached the limit.
        if self.should_stop()
            || self.nodes.len() >= self.limit
            || self.work() >= self.limit.saturating_mul(ENTRIES_PER_FORM)
        {
            return Err(TooManyForms);
        }
        let id = FormId(self.nodes.len() as u32);
        self.nodes.push(node);
        self.kinds.push(kind);
        Ok(id)
    }

    /// The canonical form of a number. Integers are built upwards from the largest one known,
    /// so a large integer costs no deep recursion.
    pub(crate) fn of_number(&mut self, x: Dyadic) -> Result<FormId, TooManyForms> {
        if let Some(&id) = self.numbers.get(&x) {
            return Ok(id);
        }
        let node = if let Some(n) = x.integer() {
            let step = if n > 0 { -1 } else { 1 };
            // The nearest integer towards zero that is already known.
            let mut k = n + step;
            while !self.numbers.contains_key(&Dyadic::from(k)) {
                k += step;
            }
            let mut id = self.numbers[&Dyadic::from(k)];
            while k != n {
                k -= step;
                let node = if step < 0 {
                    Node { left: vec![id], right: vec![] }
                } else {
                    Node { left: vec![], right: vec![id] }
                };
                id = self.intern_number(node, Dyadic::from(k))?;
            }
            return Ok(id);
        } else {
            let (below, above) = x.neighbours();
            Node { left: vec![self.of_number(below)?], right: vec![self.of_number(above)?] }
        };
        self.intern_number(node, x)
    }

    fn intern_number(&mut self, node: Node, x: Dyadic) -> Result<FormId, TooManyForms> {
        if let Some(&id) = self.index.get(&node) {
            return Ok(id);
        }
        let id = self.push(node.clone(), Kind { number_nimber: Some((x, 0)) })?;
        self.index.insert(node, id);
        self.numbers.insert(x, id);
        Ok(id)
    }

    /// The nimber *n.
    pub(crate) fn nimber(&mut self, n: u32) -> Result<FormId, TooManyForms> {
        // *k = {*0, …, *(k−1) | *0, …, *(k−1)} is canonical as it stands (nimbers are pairwise
        // confused, and none reverses), so each is interned directly, in turn: simplifying
        // would compare every pair of options again, and a recursion would build *k 2^(n−k)
        // times.
        let mut smaller: Vec<FormId> = Vec::with_capacity(n as usize);
        for k in 0..=n {
            let mut options = smaller.clone();
            options.sort_unstable();
            let node = Node { left: options.clone(), right: options };
            let id = match self.index.get(&node) {
                Some(&id) => id,
                None => {
                    let id = self.push(node.clone(), Kind { number_nimber: Some((Dyadic::ZERO, k)) })?;
                    self.index.insert(node, id);
                    id
                }
            };
            if k == n {
                return Ok(id);
            }
            smaller.push(id);
        }
        unreachable!("the loop returns at k = n")
    }

    /// ↑ = {0 | *}.
    pub(crate) fn up(&mut self) -> Result<FormId, TooManyForms> {
        let star = self.nimber(1)?;
        self.canonical(vec![FormId::ZERO], vec![star])
    }

    /// G ≤ H: there is no Left option of G at least H, and no Right option of H at most G.
    pub(crate) fn le(&mut self, g: FormId, h: FormId) -> bool {
        if g == h {
            return true;
        }
        if let (Some(x), Some(y)) = (self.number(g), self.number(h)) {
            return x <= y;
        }
        if let Some(&known) = self.less_equal.get(&(g, h)) {
            return known;
        }
        if self.should_stop() {
            // Any answer: the form being made fails, and this one is not remembered.
            return true;
        }
        let mut result = true;
        for i in 0..self.nodes[g.0 as usize].left.len() {
            let gl = self.nodes[g.0 as usize].left[i];
            if self.le(h, gl) {
                result = false;
                break;
            }
        }
        if result {
            for i in 0..self.nodes[h.0 as usize].right.len() {
                let hr = self.nodes[h.0 as usize].right[i];
                if self.le(hr, g) {
                    result = false;
                    break;
                }
            }
        }
        if !self.stopped {
            self.less_equal.insert((g, h), result);
        }
        result
    }

    pub(crate) fn ge(&mut self, g: FormId, h: FormId) -> bool {
        self.le(h, g)
    }

    /// G < H.
    #[cfg(test)]
    pub(crate) fn lt(&mut self, g: FormId, h: FormId) -> bool {
        g != h && self.le(g, h)
    }

    /// The canonical form of {left | right}, whose options are canonical.
    pub(crate) fn canonical(&mut self, left: Vec<FormId>, right: Vec<FormId>) -> Result<FormId, TooManyForms> {
        self.simplify(left, right, None)
    }

    /// As `canonical`, recording what was removed on the way, for `explain`.
    pub(crate) fn canonical_explained(
        &mut self,
        left: Vec<FormId>,
        right: Vec<FormId>,
    ) -> Result<(FormId, Simplification), TooManyForms> {
        let mut notes = Simplification::default();
        let id = self.simplify(left, right, Some(&mut notes))?;
        Ok((id, notes))
    }

    fn simplify(
        &mut self,
        mut left: Vec<FormId>,
        mut right: Vec<FormId>,
        mut notes: Option<&mut Simplification>,
    ) -> Result<FormId, TooManyForms> {
        loop {
            left.sort_unstable();
            left.dedup();
            right.sort_unstable();
            right.dedup();
            let (kept, gone) = self.undominated(&left, true);
            left = kept;
            if let Some(n) = notes.as_deref_mut() {
                n.dominated_left.extend(gone);
            }
            let (kept, gone) = self.undominated(&right, false);
            right = kept;
            if let Some(n) = notes.as_deref_mut() {
                n.dominated_right.extend(gone);
            }
            if self.stopped {
                // The options were kept or dropped by comparisons cut short.
                return Err(TooManyForms);
            }
            let node = Node { left: left.clone(), right: right.clone() };
            if let Some(&id) = self.index.get(&node) {
                return Ok(id);
            }
            // A temporary node stands for the game itself while its options are tested for
            // reversibility; replacing reversible options does not change its value, so one
            // node serves for every option of this round.
            let whole = self.push(node.clone(), Kind { number_nimber: None })?;
            let mut changed = false;
            let mut new_left = Vec::new();
            for &gl in &left {
                let through = self.nodes[gl.0 as usize].right.clone().into_iter().find(|&glr| self.le(glr, whole));
                match through {
                    Some(glr) => {
                        let replacement = self.nodes[glr.0 as usize].left.clone();
                        if let Some(n) = notes.as_deref_mut() {
                            n.reversed_left.push((gl, glr, replacement.clone()));
                        }
                        new_left.extend(replacement);
                        changed = true;
                    }
                    None => new_left.push(gl),
                }
            }
            let mut new_right = Vec::new();
            for &gr in &right {
                let through = self.nodes[gr.0 as usize].left.clone().into_iter().find(|&grl| self.le(whole, grl));
                match through {
                    Some(grl) => {
                        let replacement = self.nodes[grl.0 as usize].right.clone();
                        if let Some(n) = notes.as_deref_mut() {
                            n.reversed_right.push((gr, grl, replacement.clone()));
                        }
                        new_right.extend(replacement);
                        changed = true;
                    }
                    None => new_right.push(gr),
                }
            }
            if self.stopped {
                return Err(TooManyForms);
            }
            if !changed {
                // The temporary node is canonical: it becomes the form itself.
                let kind = self.kind_of(&node);
                self.kinds[whole.0 as usize] = kind;
                self.index.insert(node, whole);
                if let Some((x, 0)) = kind.number_nimber {
                    self.numbers.entry(x).or_insert(whole);
                }
                return Ok(whole);
            }
            left = new_left;
            right = new_right;
        }
    }

    /// The options no other option beats (for Left, the largest; for Right, the smallest), and
    /// the ones removed.
    fn undominated(&mut self, options: &[FormId], for_left: bool) -> (Vec<FormId>, Vec<FormId>) {
        let mut kept = Vec::new();
        let mut gone = Vec::new();
        for &a in options {
            let beaten = options.iter().any(|&b| b != a && if for_left { self.le(a, b) } else { self.le(b, a) });
            if beaten {
                gone.push(a);
            } else {
                kept.push(a);
            }
        }
        (kept, gone)
    }

    /// Recognises numbers and number-plus-nimber forms among canonical nodes.
    fn kind_of(&self, node: &Node) -> Kind {
        let nn = |id: FormId| self.kinds[id.0 as usize].number_nimber;
        let num = |id: FormId| match nn(id) {
            Some((x, 0)) => Some(x),
            _ => None,
        };
        let number_nimber = match (node.left.as_slice(), node.right.as_slice()) {
            ([], []) => Some((Dyadic::ZERO, 0)),
            ([a], []) => num(*a).and_then(|x| x.integer()).filter(|&n| n >= 0).map(|n| (Dyadic::from(n + 1), 0)),
            ([], [b]) => num(*b).and_then(|x| x.integer()).filter(|&n| n <= 0).map(|n| (Dyadic::from(n - 1), 0)),
            _ if node.left == node.right => {
                // x + *n = {x, x + *1, …, x + *(n−1) | the same}.
                let parts: Option<Vec<(Dyadic, u32)>> = node.left.iter().map(|&id| nn(id)).collect();
                parts.and_then(|parts| {
                    let x = parts[0].0;
                    let mut stars: Vec<u32> = parts.iter().filter(|p| p.0 == x).map(|p| p.1).collect();
                    stars.sort_unstable();
                    let complete = stars.len() == parts.len() && stars.iter().enumerate().all(|(i, &s)| s == i as u32);
                    complete.then_some((x, parts.len() as u32))
                })
            }
            ([a], [b]) => match (num(*a), num(*b)) {
                // Canonical: the only number strictly between its two options of this shape.
                (Some(x), Some(y)) if x < y => Some((x.midpoint(y), 0)),
                _ => None,
            },
            _ => None,
        };
        Kind { number_nimber }
    }

    /// −G = {−Gᴿ | −Gᴸ}; the negative of a canonical form is canonical.
    pub(crate) fn neg(&mut self, g: FormId) -> Result<FormId, TooManyForms> {
        if g == FormId::ZERO {
            return Ok(g);
        }
        if let Some(&n) = self.negatives.get(&g) {
            return Ok(n);
        }
        if let Some(x) = self.number(g) {
            let n = self.of_number(-x)?;
            self.negatives.insert(g, n);
            return Ok(n);
        }
        let node = self.nodes[g.0 as usize].clone();
        let mut left = Vec::new();
        for r in node.right {
            left.push(self.neg(r)?);
        }
        let mut right = Vec::new();
        for l in node.left {
            right.push(self.neg(l)?);
        }
        let n = self.canonical(left, right)?;
        self.negatives.insert(g, n);
        self.negatives.insert(n, g);
        Ok(n)
    }

    /// G + H = {Gᴸ + H, G + Hᴸ | Gᴿ + H, G + Hᴿ}. A number is added through the translation
    /// principle (x + G = {x + Gᴸ | x + Gᴿ} when G is not a number), so a large integer costs
    /// no long recursion.
    pub(crate) fn add(&mut self, g: FormId, h: FormId) -> Result<FormId, TooManyForms> {
        if g == FormId::ZERO {
            return Ok(h);
        }
        if h == FormId::ZERO {
            return Ok(g);
        }
        let key = if g <= h { (g, h) } else { (h, g) };
        if let Some(&s) = self.sums.get(&key) {
            return Ok(s);
        }
        let (gx, hx) = (self.number(g), self.number(h));
        let sum = match (gx, hx) {
            (Some(x), Some(y)) => self.of_number(x + y)?,
            (Some(_), None) => self.translate(h, g)?,
            (None, Some(_)) => self.translate(g, h)?,
            (None, None) => {
                let (gn, hn) = (self.nodes[g.0 as usize].clone(), self.nodes[h.0 as usize].clone());
                let mut left = Vec::new();
                for &gl in &gn.left {
                    left.push(self.add(gl, h)?);
                }
                for &hl in &hn.left {
                    left.push(self.add(g, hl)?);
                }
                let mut right = Vec::new();
                for &gr in &gn.right {
                    right.push(self.add(gr, h)?);
                }
                for &hr in &hn.right {
                    right.push(self.add(g, hr)?);
                }
                self.canonical(left, right)?
            }
        };
        self.sums.insert(key, sum);
        Ok(sum)
    }

    /// `game` (not a number) plus the number `number`.
    fn translate(&mut self, game: FormId, number: FormId) -> Result<FormId, TooManyForms> {
        let node = self.nodes[game.0 as usize].clone();
        let mut left = Vec::new();
        for &gl in &node.left {
            left.push(self.add(gl, number)?);
        }
        let mut right = Vec::new();
        for &gr in &node.right {
            right.push(self.add(gr, number)?);
        }
        self.canonical(left, right)
    }

    pub(crate) fn sub(&mut self, g: FormId, h: FormId) -> Result<FormId, TooManyForms> {
        let minus_h = self.neg(h)?;
        self.add(g, minus_h)
    }

    /// Left's stop (moving first) and Right's stop: the numbers play reaches when both
    /// players stop as soon as the game is a number.
    pub(crate) fn stops(&mut self, g: FormId) -> (Dyadic, Dyadic) {
        let mut memo = std::mem::take(&mut self.stop_memo);
        let stops = (self.stop(g, true, &mut memo), self.stop(g, false, &mut memo));
        self.stop_memo = memo;
        stops
    }

    fn stop(&self, g: FormId, left: bool, memo: &mut HashMap<(FormId, bool), Dyadic>) -> Dyadic {
        if let Some(x) = self.number(g) {
            return x;
        }
        if let Some(&s) = memo.get(&(g, left)) {
            return s;
        }
        let node = &self.nodes[g.0 as usize];
        // A canonical form that is not a number has options on both sides.
        let s = if left {
            node.left.iter().map(|&o| self.stop(o, false, memo)).max()
        } else {
            node.right.iter().map(|&o| self.stop(o, true, memo)).min()
        }
        .unwrap_or(Dyadic::ZERO);
        memo.insert((g, left), s);
        s
    }

    /// How many distinct forms `g` is made of (itself and every option of an option …), up to
    /// `most`: a sum's cost grows with the product of its parts' sizes.
    pub(crate) fn size(&self, g: FormId, most: usize) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut pending = vec![g];
        while let Some(h) = pending.pop() {
            if seen.len() >= most {
                break;
            }
            if seen.insert(h) {
                let node = &self.nodes[h.0 as usize];
                pending.extend(node.left.iter().chain(&node.right).copied());
            }
        }
        seen.len()
    }

    /// The birthday: the day the form is born on (0 for 0, 1 for 1, −1 and *).
    pub(crate) fn birthday(&mut self, g: FormId) -> u32 {
        let mut memo = std::mem::take(&mut self.birthdays);
        let b = self.birthday_memo(g, &mut memo);
        self.birthdays = memo;
        b
    }

    fn birthday_memo(&self, g: FormId, memo: &mut HashMap<FormId, u32>) -> u32 {
        if let Some(&b) = memo.get(&g) {
            return b;
        }
        let node = &self.nodes[g.0 as usize];
        let b = node.left.iter().chain(&node.right).map(|&o| self.birthday_memo(o, memo) + 1).max().unwrap_or(0);
        memo.insert(g, b);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_forms_and_their_order() {
        let mut f = Forms::new(10_000);
        let one = f.of_number(Dyadic::from(1)).unwrap();
        let half = f.of_number(Dyadic::new(1, 1)).unwrap();
        let star = f.nimber(1).unwrap();
        let up = f.up().unwrap();
        // ½ + ½ = 1; * + * = 0; ↑ > 0 but ↑ is confused with *.
        assert_eq!(f.add(half, half).unwrap(), one);
        assert_eq!(f.add(star, star).unwrap(), FormId::ZERO);
        assert!(f.lt(FormId::ZERO, up));
        assert!(!f.le(up, star) && !f.le(star, up));
        // {0 | 0} is *; {1 | 0} stays a switch; {0 | 1} is ½; {−1 | 1} is 0.
        assert_eq!(f.canonical(vec![FormId::ZERO], vec![FormId::ZERO]).unwrap(), star);
        assert_eq!(f.canonical(vec![FormId::ZERO], vec![one]).unwrap(), half);
        let minus_one = f.neg(one).unwrap();
        assert_eq!(f.canonical(vec![minus_one], vec![one]).unwrap(), FormId::ZERO);
        let switch = f.canonical(vec![one], vec![FormId::ZERO]).unwrap();
        assert_eq!(f.number(switch), None);
        // ↑ + ↑ + * = {0 | ↑}: ⇑* by its canonical form.
        let up_up = f.add(up, up).unwrap();
        let up_up_star = f.add(up_up, star).unwrap();
        assert_eq!(f.canonical(vec![FormId::ZERO], vec![up]).unwrap(), up_up_star);
        // *2 + *3 = *1.
        let (s2, s3) = (f.nimber(2).unwrap(), f.nimber(3).unwrap());
        assert_eq!(f.add(s2, s3).unwrap(), star);
        let one_star2 = f.add(one, s2).unwrap();
        assert_eq!(f.number_nimber(one_star2), Some((Dyadic::from(1), 2)));
    }
}
