//! Temperature theory of short partizan games, from the definitions (Winning Ways ch. 6;
//! Siegel, Combinatorial Game Theory II.5): a game's thermograph is built from its options'
//! walls: Left's scaffold is the highest of its Left options' right walls tilted by −t, Right's
//! the lowest of its Right options' left walls tilted by +t; the temperature is where they
//! meet, the mean is where, and above it the walls are one vertical mast. Everything is exact:
//! the walls are piecewise linear with slopes of −1, 0 or +1 and dyadic corners.
//!
//! Conventions as CGSuite's: the temperature of an integer is −1, of a number m/2ⁿ (n ≥ 1)
//! it is −1/2ⁿ; walls are drawn from t = −1.

use std::collections::HashMap;
use std::fmt;

use super::dyadic::Dyadic;
use super::forms::{FormId, Forms, TooManyForms};

/// The temperature walls start at.
const BOTTOM: Dyadic = Dyadic::MINUS_ONE;

/// One piece of a wall: from the temperature `from` on, x = `at` + `slope`·(t − `from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    from: Dyadic,
    at: Dyadic,
    slope: i64,
}

/// A continuous piecewise linear function of the temperature t ≥ −1 (x as t grows): its pieces
/// in order, the first from −1, the last going on for ever.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wall {
    pieces: Vec<Piece>,
}

impl Wall {
    /// x for every t: a mast.
    fn constant(x: Dyadic) -> Wall {
        Wall { pieces: vec![Piece { from: BOTTOM, at: x, slope: 0 }] }
    }

    /// Its corners (t, x), from t = −1 up to where the mast starts.
    pub fn corners(&self) -> Vec<(Dyadic, Dyadic)> {
        self.pieces.iter().map(|p| (p.from, p.at)).collect()
    }

    /// The value at `t` (t ≥ −1).
    pub(crate) fn at(&self, t: Dyadic) -> Dyadic {
        let piece = self.pieces.iter().rev().find(|p| p.from <= t).unwrap_or(&self.pieces[0]);
        piece.at + (t - piece.from).times(piece.slope)
    }

    /// x + s·t for every t: the wall tilted.
    fn tilted(&self, s: i64) -> Wall {
        Wall {
            pieces: self
                .pieces
                .iter()
                .map(|p| Piece { from: p.from, at: p.at + p.from.times(s), slope: p.slope + s })
                .collect(),
        }
    }

    /// The same function from `t` on (t ≥ −1), its first piece starting there.
    fn from(&self, t: Dyadic) -> Wall {
        let first = Piece { from: t, at: self.at(t), slope: self.piece_at(t).slope };
        let mut pieces = vec![first];
        pieces.extend(self.pieces.iter().copied().filter(|p| p.from > t));
        Wall { pieces }.merged()
    }

    /// The lowest temperature it is drawn from: −1, or 0 where what lies below is not known.
    pub(crate) fn starts_at(&self) -> Dyadic {
        self.pieces[0].from
    }

    /// The same function up to `t`, and the constant value there above it.
    fn mast_from(&self, t: Dyadic) -> Wall {
        let x = self.at(t);
        let mut pieces: Vec<Piece> = self.pieces.iter().copied().filter(|p| p.from < t).collect();
        pieces.push(Piece { from: t, at: x, slope: 0 });
        Wall { pieces }.merged()
    }

    /// The larger (`higher`) or smaller of two walls at every t.
    fn pointwise(&self, other: &Wall, higher: bool) -> Wall {
        let mut starts: Vec<Dyadic> = self.pieces.iter().chain(&other.pieces).map(|p| p.from).collect();
        starts.sort();
        starts.dedup();
        let mut pieces = Vec::new();
        for (i, &start) in starts.iter().enumerate() {
            let (a, b) = (self.piece_at(start), other.piece_at(start));
            let (xa, xb) = (a.at + (start - a.from).times(a.slope), b.at + (start - b.from).times(b.slope));
            let pick = |first: bool| if first { (xa, a.slope) } else { (xb, b.slope) };
            // Which is chosen at the start of this stretch (on a tie, the one that stays so).
            let a_first = if xa != xb { (xa > xb) == higher } else { (a.slope >= b.slope) == higher };
            let (x, slope) = pick(a_first);
            pieces.push(Piece { from: start, at: x, slope });
            // Where they cross inside the stretch, the other takes over.
            if a.slope != b.slope {
                let (x_other, slope_other) = pick(!a_first);
                let gap = x_other - x;
                let closing = slope - slope_other;
                if let Some(dt) = gap.divided(closing) {
                    let cross = start + dt;
                    let before_next = starts.get(i + 1).is_none_or(|&next| cross < next);
                    if dt > Dyadic::ZERO && before_next {
                        pieces.push(Piece { from: cross, at: x + dt.times(slope), slope: slope_other });
                    }
                }
            }
        }
        Wall { pieces }.merged()
    }

    fn piece_at(&self, t: Dyadic) -> Piece {
        *self.pieces.iter().rev().find(|p| p.from <= t).unwrap_or(&self.pieces[0])
    }

    /// Pieces that go on with the same slope joined.
    fn merged(self) -> Wall {
        let mut pieces: Vec<Piece> = Vec::with_capacity(self.pieces.len());
        for p in self.pieces {
            match pieces.last() {
                Some(last) if last.slope == p.slope => {}
                _ => pieces.push(p),
            }
        }
        Wall { pieces }
    }

    /// The first t ≥ `from` at which `self` is at most `other`, when `self` − `other` never grows
    /// (Left's scaffold against Right's); `None` if it never is.
    fn first_at_most(&self, other: &Wall, from: Dyadic) -> Option<Dyadic> {
        let mut starts: Vec<Dyadic> =
            self.pieces.iter().chain(&other.pieces).map(|p| p.from).filter(|&t| t > from).collect();
        starts.push(from);
        starts.sort();
        starts.dedup();
        for (i, &start) in starts.iter().enumerate() {
            let gap = self.at(start) - other.at(start);
            if gap <= Dyadic::ZERO {
                return Some(start);
            }
            let closing = other.piece_at(start).slope - self.piece_at(start).slope;
            if let Some(dt) = gap.divided(closing) {
                if dt > Dyadic::ZERO && starts.get(i + 1).is_none_or(|&next| start + dt <= next) {
                    return Some(start + dt);
                }
            }
        }
        None
    }

    /// The corners, top down, and the slopes between them, as CGSuite writes a wall: the slope
    /// below each corner is dx/dt read downwards (−1 where x grows as t falls).
    fn corners_and_slopes(&self) -> (Vec<Dyadic>, Vec<i64>) {
        let corners: Vec<Dyadic> = self.pieces.iter().skip(1).rev().map(|p| p.from).collect();
        let slopes: Vec<i64> = self.pieces.iter().rev().map(|p| p.slope).collect();
        (corners, slopes)
    }
}

/// A thermograph: its two walls (x as a function of the temperature t ≥ −1), the temperature
/// at which they meet and the mean, where the mast stands above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermograph {
    /// Left's wall: Left's stop of the game cooled by t.
    pub left: Wall,
    /// Right's wall: Right's stop of the game cooled by t.
    pub right: Wall,
    /// Where the walls meet (CGSuite's convention for numbers: −1 for an integer, −1/2ⁿ for
    /// m/2ⁿ).
    pub temperature: Dyadic,
    /// The mast's x: the game's mean value.
    pub mean: Dyadic,
}

impl Thermograph {
    /// A number's thermograph. An integer's walls are one mast. A number m/2ⁿ (n ≥ 1) is
    /// {m/2ⁿ − 1/2ⁿ | m/2ⁿ + 1/2ⁿ} in canonical form, and below its temperature −1/2ⁿ its walls
    /// are those options' walls tilted, as any game's are (CGSuite draws them so:
    /// {−1/2 | −1}'s Left wall turns at −1/2, where −1/2's Right wall does).
    fn of_number(x: Dyadic) -> Thermograph {
        let temperature = match x.exponent() {
            0 => BOTTOM,
            n => -Dyadic::new(1, n),
        };
        Thermograph { left: number_wall(x, true), right: number_wall(x, false), temperature, mean: x }
    }

    /// Whether both walls are known from t = −1 down to −∞, as CGSuite draws them; a search of
    /// positions knows a game that is not a number only from t = 0 up (`above_zero`).
    pub(crate) fn is_whole(&self) -> bool {
        self.left.starts_at() == BOTTOM && self.right.starts_at() == BOTTOM
    }
}

/// The Left (`left`) or Right wall of the number `x`: a chain through one option a level, since
/// a Left wall reads only its Left option's Right wall and a Right wall its Right option's Left.
fn number_wall(x: Dyadic, left: bool) -> Wall {
    match x.exponent() {
        0 => Wall::constant(x),
        n => {
            let step = Dyadic::new(1, n);
            let below =
                if left { number_wall(x - step, false).tilted(-1) } else { number_wall(x + step, true).tilted(1) };
            below.mast_from(-step)
        }
    }
}

/// CGSuite's text form: `Thermograph(mast,[corners],[slopes],mast,[corners],[slopes])`, the
/// left wall then the right: each wall's mast value, its corners (temperatures) top down, and
/// one slope more than corners, dx/dt of each stretch top down, the mast's 0 first (−1 where a
/// Left wall leans out as t falls, +1 for a Right wall). The last stretch goes on below.
/// Walls known only from t = 0 up (a search of positions) say so after the text, which is then
/// not CGSuite's.
impl fmt::Display for Thermograph {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let wall = |w: &Wall| {
            let (corners, slopes) = w.corners_and_slopes();
            let corners: Vec<String> = corners.iter().map(|c| plain(*c)).collect();
            let slopes: Vec<String> = slopes.iter().map(i64::to_string).collect();
            format!("{},[{}],[{}]", plain(self.mean), corners.join(","), slopes.join(","))
        };
        write!(f, "Thermograph({},{})", wall(&self.left), wall(&self.right))?;
        if !self.is_whole() {
            write!(f, " from t = 0 up")?;
        }
        Ok(())
    }
}

/// What temperature theory needs of a game to build the thermographs of the games that move
/// to it: its thermograph, the number it equals (if it is one), and on which side of its stops
/// it lies. It is computed from any form of the game, canonical or not (a raw game tree of
/// positions): the number test is the simplicity theorem, which holds for every form, and a
/// game that is not a number has the walls its options' walls give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThermalValue {
    /// The thermograph.
    pub thermograph: Thermograph,
    /// The number the game equals, if it is one.
    pub number: Option<Dyadic>,
    /// Whether the game is at least its Right stop (true of numbers; of ↑, not of *).
    pub at_least_right_stop: bool,
    /// Whether the game is at most its Left stop.
    pub at_most_left_stop: bool,
}

impl ThermalValue {
    /// The number `x`.
    pub(crate) fn of_number(x: Dyadic) -> ThermalValue {
        ThermalValue {
            thermograph: Thermograph::of_number(x),
            number: Some(x),
            at_least_right_stop: true,
            at_most_left_stop: true,
        }
    }

    /// The same value with its walls kept from t = 0 up only (a game that is not a number).
    /// Below 0 a thermograph depends on the canonical form's options, which a search of raw
    /// positions does not have; from 0 up it depends on the value alone.
    pub(crate) fn above_zero(mut self) -> ThermalValue {
        if self.number.is_none() {
            let th = &mut self.thermograph;
            th.left = th.left.from(Dyadic::ZERO);
            th.right = th.right.from(Dyadic::ZERO);
        }
        self
    }

    /// Left's stop: where play ends when Left starts and both stop at a number.
    pub(crate) fn left_stop(&self) -> Dyadic {
        self.number.unwrap_or_else(|| self.thermograph.left.at(Dyadic::ZERO))
    }

    /// Right's stop.
    pub(crate) fn right_stop(&self) -> Dyadic {
        self.number.unwrap_or_else(|| self.thermograph.right.at(Dyadic::ZERO))
    }

    /// The game {`left` | `right`} from its options' values.
    pub(crate) fn from_options(left: &[&ThermalValue], right: &[&ThermalValue]) -> ThermalValue {
        // The simplicity theorem: G is a number exactly when some number x has every G^L ⧏ x
        // and x ⧏ every G^R, and then it is the simplest such x. G^L ⧏ x holds for x above
        // G^L's Right stop, and at the stop itself when G^L is not at least it.
        let low = left.iter().map(|o| (o.right_stop(), !o.at_least_right_stop)).reduce(|a, b| {
            if a.0 == b.0 {
                (a.0, a.1 && b.1)
            } else {
                a.max(b)
            }
        });
        let high = right.iter().map(|o| (o.left_stop(), !o.at_most_left_stop)).reduce(|a, b| {
            if a.0 == b.0 {
                (a.0, a.1 && b.1)
            } else {
                a.min(b)
            }
        });
        if let Some(x) = Dyadic::simplest_in(low, high) {
            return ThermalValue::of_number(x);
        }
        let (Some((left_stop, _)), Some((right_stop, _))) = (low, high) else {
            unreachable!("a game with no option on one side is a number")
        };
        let scaffold = |options: &[&ThermalValue], left: bool| -> Wall {
            options
                .iter()
                .map(|o| if left { o.thermograph.right.tilted(-1) } else { o.thermograph.left.tilted(1) })
                .reduce(|a, b| a.pointwise(&b, left))
                .unwrap_or_else(|| Wall::constant(Dyadic::ZERO))
        };
        let (left_wall, right_wall) = (scaffold(left, true), scaffold(right, false));
        // A game that is not a number has its Left stop at least its Right one, so the
        // scaffolds meet at t ≥ 0; its temperature is never below 0.
        let temperature = left_wall.first_at_most(&right_wall, Dyadic::ZERO).unwrap_or(Dyadic::ZERO);
        let mean = left_wall.at(temperature);
        let thermograph = Thermograph {
            left: left_wall.mast_from(temperature),
            right: right_wall.mast_from(temperature),
            temperature,
            mean,
        };
        // By number avoidance, Right beats G − R(G) moving first only with a move in G: to a
        // G^R at most R(G), which is one whose Left stop is R(G) and that lies at most at it.
        let at_least_right_stop = !right.iter().any(|o| o.left_stop() == right_stop && o.at_most_left_stop);
        let at_most_left_stop = !left.iter().any(|o| o.right_stop() == left_stop && o.at_least_right_stop);
        ThermalValue { thermograph, number: None, at_least_right_stop, at_most_left_stop }
    }

    /// The numbers the game is confused with (G − x fuzzy); `None` when there is none (a
    /// number, or a game infinitesimally close to one and on one side of it, such as ↑).
    pub(crate) fn confusion(&self) -> Option<Confusion> {
        let (high, low) = (self.left_stop(), self.right_stop());
        // G ≤ R(G) needs L(G) ≤ R(G), so only a game whose stops are equal can be; likewise
        // G ≥ L(G).
        let (at_most_low, at_least_high) =
            (high == low && self.at_most_left_stop, high == low && self.at_least_right_stop);
        let low_in = !(self.at_least_right_stop || at_most_low);
        let high_in = !(self.at_most_left_stop || at_least_high);
        if low == high && !low_in {
            return None;
        }
        Some(Confusion { low, low_in, high, high_in })
    }

    /// Whether a move of `left`'s (or Right's) from this game to `option` is orthodox: at
    /// this game's temperature the option's wall, tilted by the temperature, stands at the
    /// mean, so the move keeps the mean. A number has no orthodox move.
    pub(crate) fn is_orthodox(&self, option: &ThermalValue, left: bool) -> bool {
        if self.number.is_some() {
            return false;
        }
        let t = self.thermograph.temperature;
        let th = &option.thermograph;
        let x = if left { th.right.at(t) - t } else { th.left.at(t) + t };
        x == self.thermograph.mean
    }
}

/// What the theory proves of a sum of games from their thermographs alone (Winning Ways ch. 6;
/// Siegel II.5): the mean of a sum is the sum of the means; its temperature is at most the
/// largest of its parts'; and its stops lie within bounds from the parts' walls, because
/// cooling by t is additive and the stops of a sum keep L(G + H) ≤ L(G) + L(H),
/// L(G + H) ≥ L(G) + R(H) (and the mirror inequalities), while a wall moves by at most t.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SumBounds {
    /// The mean, exactly.
    pub mean: Dyadic,
    /// The temperature is at most this.
    pub temperature_at_most: Dyadic,
    /// Left's stop lies between these (both included).
    pub left_stop: (Dyadic, Dyadic),
    /// Right's stop lies between these.
    pub right_stop: (Dyadic, Dyadic),
}

impl SumBounds {
    /// The bounds of the sum of `parts`.
    pub(crate) fn of(parts: &[&ThermalValue]) -> SumBounds {
        let mean = parts.iter().fold(Dyadic::ZERO, |s, p| s + p.thermograph.mean);
        let temperature_at_most = parts.iter().map(|p| p.thermograph.temperature).max().unwrap_or(BOTTOM);
        let total = |f: &dyn Fn(&ThermalValue) -> Dyadic| parts.iter().fold(Dyadic::ZERO, |s, p| s + f(p));
        let (lefts, rights) = (total(&|p| p.left_stop()), total(&|p| p.right_stop()));
        // L(Σ) ≤ L_t(Σ) + t ≤ Σ L_t(Gᵢ) + t for every t ≥ 0: lowest at t = 0, at a corner of a
        // wall, or where the last part's mast begins.
        let mut ts: Vec<Dyadic> = vec![Dyadic::ZERO, temperature_at_most.max(Dyadic::ZERO)];
        for p in parts {
            for w in [&p.thermograph.left, &p.thermograph.right] {
                ts.extend(w.corners().into_iter().map(|(t, _)| t).filter(|&t| t > Dyadic::ZERO));
            }
        }
        ts.sort();
        ts.dedup();
        let left_high = ts.iter().map(|&t| total(&|p| p.thermograph.left.at(t)) + t).min().unwrap_or(lefts);
        let right_low = ts.iter().map(|&t| total(&|p| p.thermograph.right.at(t)) - t).max().unwrap_or(rights);
        // L(Σ) ≥ L(Gᵢ) + Σ R(the others), and the mean lies between the stops.
        let left_low =
            parts.iter().map(|p| p.left_stop() + (rights - p.right_stop())).max().unwrap_or(Dyadic::ZERO).max(mean);
        let right_high =
            parts.iter().map(|p| p.right_stop() + (lefts - p.left_stop())).min().unwrap_or(Dyadic::ZERO).min(mean);
        SumBounds {
            mean,
            temperature_at_most,
            left_stop: (left_low, left_high.min(lefts)),
            right_stop: (right_low.max(rights), right_high),
        }
    }

    /// Whether Left, moving first, wins, where the bounds decide it: a Left stop above 0
    /// wins, one below 0 loses.
    pub(crate) fn left_first_wins(&self) -> Option<bool> {
        if self.left_stop.0 > Dyadic::ZERO {
            Some(true)
        } else if self.left_stop.1 < Dyadic::ZERO {
            Some(false)
        } else {
            None
        }
    }

    /// Whether Right, moving first, wins, where the bounds decide it.
    pub(crate) fn right_first_wins(&self) -> Option<bool> {
        if self.right_stop.1 < Dyadic::ZERO {
            Some(true)
        } else if self.right_stop.0 > Dyadic::ZERO {
            Some(false)
        } else {
            None
        }
    }
}

/// A dyadic as CGSuite writes it: `3`, `-1/2`, `9/4`.
pub(crate) fn plain(x: Dyadic) -> String {
    match x.exponent() {
        0 => x.numerator().to_string(),
        k => format!("{}/{}", x.numerator(), 1u64 << k.min(63)),
    }
}

/// The numbers x for which G − x is fuzzy: between Right's stop and Left's, each end in when
/// G is confused with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Confusion {
    /// The lower end.
    pub low: Dyadic,
    /// Whether G is confused with the lower end itself.
    pub low_in: bool,
    /// The upper end.
    pub high: Dyadic,
    /// Whether G is confused with the upper end itself.
    pub high_in: bool,
}

impl fmt::Display for Confusion {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let open = if self.low_in { "[" } else { "(" };
        let close = if self.high_in { "]" } else { ")" };
        write!(f, "{open}{}, {}{close}", self.low, self.high)
    }
}

/// The thermal values of the forms of one store, each computed once.
#[derive(Default)]
pub(crate) struct Thermal {
    values: HashMap<FormId, ThermalValue>,
    cooled: HashMap<(FormId, Dyadic), FormId>,
}

impl Thermal {
    /// The thermograph of `g`, from its options' (each computed once).
    pub(crate) fn thermograph(&mut self, forms: &Forms, g: FormId) -> Thermograph {
        self.value(forms, g).thermograph.clone()
    }

    /// The thermal value of `g`, from its options' (each computed once).
    pub(crate) fn value(&mut self, forms: &Forms, g: FormId) -> &ThermalValue {
        // Options first, without recursion: a long chain of forms must not exhaust the stack.
        let mut pending = vec![g];
        while let Some(&h) = pending.last() {
            if self.values.contains_key(&h) {
                pending.pop();
                continue;
            }
            if let Some(x) = forms.number(h) {
                pending.pop();
                self.values.insert(h, ThermalValue::of_number(x));
                continue;
            }
            let missing: Vec<FormId> =
                forms.left(h).iter().chain(forms.right(h)).copied().filter(|o| !self.values.contains_key(o)).collect();
            if missing.is_empty() {
                pending.pop();
                let left: Vec<&ThermalValue> = forms.left(h).iter().map(|o| &self.values[o]).collect();
                let right: Vec<&ThermalValue> = forms.right(h).iter().map(|o| &self.values[o]).collect();
                let v = ThermalValue::from_options(&left, &right);
                self.values.insert(h, v);
            } else {
                pending.extend(missing);
            }
        }
        &self.values[&g]
    }

    /// `g` cooled by `t` (t ≥ 0): each option cooled and moved t towards its player's
    /// disadvantage, until the game is infinitesimally close to a number, where it is that
    /// number from then on.
    pub(crate) fn cooled(&mut self, forms: &mut Forms, g: FormId, t: Dyadic) -> Result<FormId, TooManyForms> {
        if forms.number(g).is_some() || t == Dyadic::ZERO {
            return Ok(g);
        }
        if let Some(&c) = self.cooled.get(&(g, t)) {
            return Ok(c);
        }
        let thermograph = self.thermograph(forms, g);
        let c = if t > thermograph.temperature {
            forms.of_number(thermograph.mean)?
        } else {
            let by = forms.of_number(t)?;
            let mut left = Vec::new();
            for o in forms.left(g).to_vec() {
                let c = self.cooled(forms, o, t)?;
                left.push(forms.sub(c, by)?);
            }
            let mut right = Vec::new();
            for o in forms.right(g).to_vec() {
                let c = self.cooled(forms, o, t)?;
                right.push(forms.add(c, by)?);
            }
            forms.canonical(left, right)?
        };
        self.cooled.insert((g, t), c);
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, k: u32) -> Dyadic {
        Dyadic::new(n, k)
    }

    /// {3 || 2 | 1}, ↑, *, {1 | 0}, {2 | −1}, 25/16 and 3: the values of Winning Ways and of
    /// CGSuite's documentation.
    #[test]
    fn temperatures_and_means_of_the_textbook_games() {
        let mut f = Forms::new(100_000);
        let mut thermal = Thermal::default();
        let n = |f: &mut Forms, x: Dyadic| f.of_number(x).unwrap();
        let (one, two, three) = (n(&mut f, 1.into()), n(&mut f, 2.into()), n(&mut f, 3.into()));
        let two_one = f.canonical(vec![two], vec![one]).unwrap();
        let g = f.canonical(vec![three], vec![two_one]).unwrap();
        let th = thermal.thermograph(&f, g);
        assert_eq!((th.temperature, th.mean), (d(3, 2), d(9, 2)));
        assert_eq!(f.stops(g), (3.into(), 2.into()));
        // The walls: Left's is 3 − t up to 3/4; Right's is 2 up to ½, then 3/2 + t up to 3/4.
        assert_eq!(th.left.at(Dyadic::ZERO), 3.into());
        assert_eq!(th.left.at(d(1, 1)), d(5, 1));
        assert_eq!(th.right.at(Dyadic::ZERO), 2.into());
        assert_eq!(th.right.at(d(1, 1)), 2.into());
        assert_eq!(th.right.at(d(5, 3)), d(17, 3));
        assert_eq!(th.left.at(5.into()), d(9, 2));
        // Left's move to 3 and Right's to {2 | 1} are orthodox; Right's to 2 instead of {2|1}
        // (not an option of g, but a move to it would lose a quarter) is not.
        assert!({
            let o = thermal.value(&f, three).clone();
            thermal.value(&f, g).is_orthodox(&o, true)
        });
        assert!({
            let o = thermal.value(&f, two_one).clone();
            thermal.value(&f, g).is_orthodox(&o, false)
        });
        assert!(!{
            let o = thermal.value(&f, two).clone();
            thermal.value(&f, g).is_orthodox(&o, false)
        });

        let up = f.up().unwrap();
        let star = f.nimber(1).unwrap();
        for (form, temperature, mean) in [(up, Dyadic::ZERO, Dyadic::ZERO), (star, Dyadic::ZERO, Dyadic::ZERO)] {
            let th = thermal.thermograph(&f, form);
            assert_eq!((th.temperature, th.mean), (temperature, mean));
        }
        let switch = f.canonical(vec![one], vec![FormId::ZERO]).unwrap();
        let th = thermal.thermograph(&f, switch);
        assert_eq!((th.temperature, th.mean), (d(1, 1), d(1, 1)));
        let minus_one = f.neg(one).unwrap();
        let wide = f.canonical(vec![two], vec![minus_one]).unwrap();
        let th = thermal.thermograph(&f, wide);
        assert_eq!((th.temperature, th.mean), (d(3, 1), d(1, 1)));
        let x = n(&mut f, d(25, 4));
        assert_eq!(thermal.thermograph(&f, x).temperature, d(-1, 4));
        assert_eq!(thermal.thermograph(&f, three).temperature, Dyadic::MINUS_ONE);
    }

    #[test]
    fn cooling_confusion_and_the_text_form() {
        let mut f = Forms::new(100_000);
        let mut thermal = Thermal::default();
        let one = f.of_number(1.into()).unwrap();
        let switch = f.canonical(vec![one], vec![FormId::ZERO]).unwrap();
        // {1 | 0} cooled by ½ is ½*; by more, ½; by ¼, the switch {3/4 | 1/4}.
        let half = f.of_number(d(1, 1)).unwrap();
        let star = f.nimber(1).unwrap();
        let half_star = f.add(half, star).unwrap();
        assert_eq!(thermal.cooled(&mut f, switch, d(1, 1)).unwrap(), half_star);
        assert_eq!(thermal.cooled(&mut f, switch, 1.into()).unwrap(), half);
        let (a, b) = (f.of_number(d(3, 2)).unwrap(), f.of_number(d(1, 2)).unwrap());
        let quarter_switch = f.canonical(vec![a], vec![b]).unwrap();
        assert_eq!(thermal.cooled(&mut f, switch, d(1, 2)).unwrap(), quarter_switch);
        // Confused with every number from 0 to 1, both ends in; * only with 0; ↑ with none.
        let c = thermal.value(&f, switch).confusion().unwrap();
        assert_eq!(c.to_string(), "[0, 1]");
        assert_eq!(thermal.value(&f, star).confusion().unwrap().to_string(), "[0, 0]");
        let up = f.up().unwrap();
        assert_eq!(thermal.value(&f, up).confusion(), None);
        assert_eq!(thermal.value(&f, one).confusion(), None);
        // The text form: the mast, then each wall's corners top down and the slopes between.
        let th = thermal.thermograph(&f, switch);
        assert_eq!(th.to_string(), "Thermograph(1/2,[1/2],[0,-1],1/2,[1/2],[0,1])");
    }

    /// CGSuite's text for the games of the theory, each wall worked out by hand from the
    /// definition (Siegel II.5): Left's wall is the highest of its Left options' Right walls
    /// tilted by −t, Right's the lowest of its Right options' Left walls tilted by +t, below
    /// where they meet; a mast above.
    #[test]
    fn the_text_is_cgsuites() {
        let mut f = Forms::new(100_000);
        let mut thermal = Thermal::default();
        let mut text = |f: &mut Forms, g: FormId| thermal.thermograph(f, g).to_string();
        let number = |f: &mut Forms, x: Dyadic| f.of_number(x).unwrap();
        // An integer: a mast for every t.
        assert_eq!(text(&mut f, FormId::ZERO), "Thermograph(0,[],[0],0,[],[0])");
        let two = number(&mut f, 2.into());
        assert_eq!(text(&mut f, two), "Thermograph(2,[],[0],2,[],[0])");
        // 1/2 = {0 | 1}: below −1/2 its walls are 0 − t and 1 + t.
        let half = number(&mut f, d(1, 1));
        assert_eq!(text(&mut f, half), "Thermograph(1/2,[-1/2],[0,-1],1/2,[-1/2],[0,1])");
        // 3/4 = {1/2 | 1}: Left's wall is 1/2's Right wall tilted, 1/2 − t down to −1/2 and
        // 1 + t − t = 1 below; Right's is 1 + t.
        let three_quarters = number(&mut f, d(3, 2));
        assert_eq!(text(&mut f, three_quarters), "Thermograph(3/4,[-1/4,-1/2],[0,-1,0],3/4,[-1/4],[0,1])");
        // * = {0 | 0}: temperature 0, walls −t and t below.
        let star = f.nimber(1).unwrap();
        assert_eq!(text(&mut f, star), "Thermograph(0,[0],[0,-1],0,[0],[0,1])");
        // ±1 = {1 | −1}: 1 − t and −1 + t meet at t = 1.
        let one = number(&mut f, 1.into());
        let minus_one = f.neg(one).unwrap();
        let pm = f.canonical(vec![one], vec![minus_one]).unwrap();
        assert_eq!(text(&mut f, pm), "Thermograph(0,[1],[0,-1],0,[1],[0,1])");
        // {1 | 0}: the switch of the example, mean and temperature 1/2.
        let switch = f.canonical(vec![one], vec![FormId::ZERO]).unwrap();
        assert_eq!(text(&mut f, switch), "Thermograph(1/2,[1/2],[0,-1],1/2,[1/2],[0,1])");
        // {−1/2 | −1}: −1/2 − t and −1 + t meet at 1/4, at −3/4; below −1/2 Left's wall is
        // −1/2's Right wall (t) tilted by −t: 0.
        let minus_half = number(&mut f, d(-1, 1));
        let g = f.canonical(vec![minus_half], vec![minus_one]).unwrap();
        assert_eq!(text(&mut f, g), "Thermograph(-3/4,[1/4,-1/2],[0,-1,0],-3/4,[1/4],[0,1])");
        // A hot sum, {2 | 0} + {1 | 0}: mean 1 + 1/2 and the hotter part's temperature (the
        // text of sums is checked against a brute force in the engine's tests).
        let big = f.canonical(vec![two], vec![FormId::ZERO]).unwrap();
        let sum = f.add(big, switch).unwrap();
        let th = thermal.thermograph(&f, sum);
        assert_eq!((th.mean, th.temperature), (d(3, 1), 1.into()), "mean 3/2, temperature 1 of {}", th);
    }

    /// The canonical values of piles 0..=n of the partizan subtraction game L | R.
    fn subtraction_values(f: &mut Forms, left: &[u64], right: &[u64], n: u64) -> Vec<FormId> {
        let mut values: Vec<FormId> = Vec::new();
        for pile in 0..=n {
            let options = |set: &[u64]| -> Vec<FormId> {
                set.iter().filter(|&&s| s <= pile).map(|&s| values[(pile - s) as usize]).collect()
            };
            let (l, r) = (options(left), options(right));
            values.push(f.canonical(l, r).unwrap());
        }
        values
    }

    /// What the theory proves of every thermograph, on the values of partizan subtraction
    /// games: the stops are where the walls stand at t = 0 (for a game that is not a number),
    /// the mean lies between them, a sum's mean is the sum of the means and its temperature is
    /// at most the larger, and cooling past the temperature leaves the mean.
    #[test]
    fn thermographs_keep_the_theorems_on_subtraction_games() {
        let mut f = Forms::new(2_000_000);
        let mut thermal = Thermal::default();
        // Every game whose Left and Right sets lie in {1, 2, 3, 4}.
        let set = |mask: u32| -> Vec<u64> { (1..=4).filter(|s| mask & (1 << (s - 1)) != 0).collect() };
        let games: Vec<(Vec<u64>, Vec<u64>)> =
            (1..16).flat_map(|l| (1..16).map(move |r| (l, r))).map(|(l, r)| (set(l), set(r))).collect();
        for (left, right) in &games {
            let values = subtraction_values(&mut f, left, right, 12);
            for (i, &g) in values.iter().enumerate() {
                let th = thermal.thermograph(&f, g);
                let (ls, rs) = f.stops(g);
                assert!(rs <= th.mean && th.mean <= ls, "{left:?}|{right:?} pile {i}");
                if f.number(g).is_none() {
                    assert!(th.temperature >= Dyadic::ZERO, "{left:?}|{right:?} pile {i}");
                    assert_eq!((th.left.at(Dyadic::ZERO), th.right.at(Dyadic::ZERO)), (ls, rs), "pile {i}");
                    // Cooled past its temperature, the game is its mean.
                    let past = th.temperature + Dyadic::new(1, 3);
                    let cooled = thermal.cooled(&mut f, g, past).unwrap();
                    assert_eq!(f.number(cooled), Some(th.mean), "pile {i}");
                }
                for &h in &values[..=i] {
                    let sum = f.add(g, h).unwrap();
                    let (tg, th2, ts) =
                        (thermal.thermograph(&f, g), thermal.thermograph(&f, h), thermal.thermograph(&f, sum));
                    assert_eq!(ts.mean, tg.mean + th2.mean, "{left:?}|{right:?}");
                    assert!(ts.temperature <= tg.temperature.max(th2.temperature), "{left:?}|{right:?}");
                }
            }
        }
    }
}
