//! Dyadic rationals m/2^k: the numbers a finite game can be.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// m / 2^k in lowest terms (m odd, or k = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    numerator: i64,
    exponent: u32,
}

impl Dyadic {
    /// 0.
    pub const ZERO: Dyadic = Dyadic { numerator: 0, exponent: 0 };
    /// −1.
    pub const MINUS_ONE: Dyadic = Dyadic { numerator: -1, exponent: 0 };

    /// numerator / 2^exponent, reduced.
    pub(crate) fn new(numerator: i64, exponent: u32) -> Dyadic {
        let (mut m, mut k) = (numerator, exponent);
        while k > 0 && m % 2 == 0 {
            m /= 2;
            k -= 1;
        }
        Dyadic { numerator: m, exponent: k }
    }

    pub(crate) fn integer(self) -> Option<i64> {
        (self.exponent == 0).then_some(self.numerator)
    }

    pub(crate) fn numerator(self) -> i64 {
        self.numerator
    }

    pub(crate) fn exponent(self) -> u32 {
        self.exponent
    }

    /// The two numbers whose canonical form {a | b} this non-integer is: (m ∓ 1)/2^k.
    pub(crate) fn neighbours(self) -> (Dyadic, Dyadic) {
        (Dyadic::new(self.numerator - 1, self.exponent), Dyadic::new(self.numerator + 1, self.exponent))
    }

    /// (a + b) / 2.
    pub(crate) fn midpoint(self, other: Dyadic) -> Dyadic {
        let s = self + other;
        Dyadic::new(s.numerator, s.exponent + 1)
    }

    /// This number times the integer `k`.
    pub(crate) fn times(self, k: i64) -> Dyadic {
        let product = (self.numerator as i128) * (k as i128);
        Dyadic::new(product.clamp(i64::MIN as i128, i64::MAX as i128) as i64, self.exponent)
    }

    /// This number divided by `k`, when the quotient is dyadic (`k` ± a power of two).
    pub(crate) fn divided(self, k: i64) -> Option<Dyadic> {
        if k == 0 || !k.unsigned_abs().is_power_of_two() {
            return None;
        }
        let shift = k.unsigned_abs().trailing_zeros();
        let numerator = if k < 0 { -self.numerator } else { self.numerator };
        Some(Dyadic::new(numerator, self.exponent + shift))
    }

    /// Both numerators over the larger denominator.
    fn aligned(self, other: Dyadic) -> (i128, i128, u32) {
        let k = self.exponent.max(other.exponent);
        let a = (self.numerator as i128) << (k - self.exponent);
        let b = (other.numerator as i128) << (k - other.exponent);
        (a, b, k)
    }

    /// The simplest number (the integer nearest 0, else the one of smallest denominator) in
    /// the interval from `low` to `high`, each end given with whether it is in (`None`: no
    /// bound on that side); `None` when the interval is empty.
    pub(crate) fn simplest_in(low: Option<(Dyadic, bool)>, high: Option<(Dyadic, bool)>) -> Option<Dyadic> {
        let inside = |x: Dyadic| {
            low.is_none_or(|(a, closed)| a < x || (closed && a == x))
                && high.is_none_or(|(b, closed)| x < b || (closed && x == b))
        };
        if let (Some((a, _)), Some((b, _))) = (low, high) {
            if a > b || (a == b && !inside(a)) {
                return None;
            }
        }
        if inside(Dyadic::ZERO) {
            return Some(Dyadic::ZERO);
        }
        // Entirely above 0 or entirely below: the integer nearest 0, if one is inside.
        let above = low.is_some_and(|(a, _)| a >= Dyadic::ZERO);
        let nearest = |x: Dyadic| if above { x.ceiling() } else { -(-x).ceiling() };
        let (end, _) = if above { low? } else { high? };
        for candidate in [nearest(end), nearest(end) + if above { 1.into() } else { (-1).into() }] {
            if inside(candidate) {
                return Some(candidate);
            }
        }
        // Inside (k, k + 1): the first denominator 2^e with a multiple inside.
        let (a, _) = low?;
        for e in 1..62 {
            let k = a.exponent.min(e);
            let times = Dyadic::new(a.numerator, a.exponent - k).times(1i64 << (e - k));
            let candidate = Dyadic::new(times.ceiling().numerator, e);
            for c in [candidate, candidate + Dyadic::new(1, e)] {
                if inside(c) {
                    return Some(c);
                }
            }
        }
        None
    }

    /// A number as a person types it: `3`, `-1/2`, `3/4`, `0.75`; `None` if it is not one or
    /// is not dyadic (`1/3`).
    pub(crate) fn parse(text: &str) -> Option<Dyadic> {
        let text = text.trim();
        if let Some((n, d)) = text.split_once('/') {
            let (n, d): (i64, u64) = (n.trim().parse().ok()?, d.trim().parse().ok()?);
            return (d.is_power_of_two() && d < (1 << 62)).then(|| Dyadic::new(n, d.trailing_zeros()));
        }
        if let Some((whole, digits)) = text.split_once('.') {
            let k = digits.len() as u32;
            if k == 0 || k > 15 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let negative = whole.starts_with('-');
            let whole: i64 = if whole.is_empty() || whole == "-" { 0 } else { whole.parse::<i64>().ok()?.abs() };
            let m = whole.checked_mul(10i64.pow(k))? + digits.parse::<i64>().ok()?;
            let five = 5i64.pow(k);
            // m / 10^k = (m / 5^k) / 2^k, dyadic exactly when 5^k divides m.
            return (m % five == 0).then(|| Dyadic::new(if negative { -m / five } else { m / five }, k));
        }
        text.parse::<i64>().ok().map(Dyadic::from)
    }

    /// The least integer at least this number.
    pub(crate) fn ceiling(self) -> Dyadic {
        if self.exponent == 0 {
            return self;
        }
        let d = 1i64 << self.exponent.min(62);
        Dyadic::from(self.numerator.div_euclid(d) + 1)
    }

    /// The nearest float, for drawing.
    pub fn to_f64(self) -> f64 {
        self.numerator as f64 / 2f64.powi(self.exponent as i32)
    }
}

impl From<i64> for Dyadic {
    fn from(n: i64) -> Dyadic {
        Dyadic { numerator: n, exponent: 0 }
    }
}

impl Add for Dyadic {
    type Output = Dyadic;
    fn add(self, other: Dyadic) -> Dyadic {
        let (a, b, k) = self.aligned(other);
        let mut s = a + b;
        let mut k = k;
        while k > 0 && s % 2 == 0 {
            s /= 2;
            k -= 1;
        }
        // Values of take-away games stay far inside 64 bits; saturate rather than wrap.
        Dyadic::new(s.clamp(i64::MIN as i128, i64::MAX as i128) as i64, k)
    }
}

impl Sub for Dyadic {
    type Output = Dyadic;
    fn sub(self, other: Dyadic) -> Dyadic {
        self + -other
    }
}

impl Neg for Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic { numerator: -self.numerator, exponent: self.exponent }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Dyadic) -> Ordering {
        let (a, b, _) = self.aligned(*other);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// As the literature writes numbers: `3`, `-2`, `½`, `-1½`, `3/4`, `-5/8`.
impl fmt::Display for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.exponent {
            0 => write!(f, "{}", self.numerator),
            1 => {
                let whole = self.numerator.abs() / 2;
                let sign = if self.numerator < 0 { "-" } else { "" };
                if whole == 0 {
                    write!(f, "{sign}½")
                } else {
                    write!(f, "{sign}{whole}½")
                }
            }
            k => write!(f, "{}/{}", self.numerator, 1u64 << k.min(63)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_notation() {
        let half = Dyadic::new(1, 1);
        assert_eq!(half + half, Dyadic::from(1));
        assert_eq!(Dyadic::new(4, 3), half);
        assert_eq!(Dyadic::new(3, 2).to_string(), "3/4");
        assert_eq!(Dyadic::new(-3, 1).to_string(), "-1½");
        assert_eq!((-half).to_string(), "-½");
        assert!(Dyadic::new(3, 2) < Dyadic::from(1));
        assert_eq!(Dyadic::new(3, 2).neighbours(), (half, Dyadic::from(1)));
        assert_eq!(Dyadic::from(0).midpoint(half), Dyadic::new(1, 2));
        let (one, two, three) = (Dyadic::from(1), Dyadic::from(2), Dyadic::from(3));
        assert_eq!(Dyadic::simplest_in(Some((one, false)), Some((three, false))), Some(two));
        assert_eq!(Dyadic::simplest_in(Some((one, true)), Some((three, false))), Some(one));
        assert_eq!(Dyadic::simplest_in(Some((-three, false)), None), Some(Dyadic::ZERO));
        assert_eq!(Dyadic::simplest_in(None, Some((-three, false))), Some(Dyadic::from(-4)));
        assert_eq!(Dyadic::simplest_in(None, Some((-three, true))), Some(-three));
        assert_eq!(Dyadic::simplest_in(Some((Dyadic::new(1, 2), false)), Some((Dyadic::new(3, 2), true))), Some(half));
        assert_eq!(Dyadic::simplest_in(Some((Dyadic::new(1, 2), false)), Some((half, false))), Some(Dyadic::new(3, 3)));
        assert_eq!(Dyadic::simplest_in(Some((one, false)), Some((one, true))), None);
        assert_eq!(Dyadic::simplest_in(Some((one, true)), Some((one, true))), Some(one));
        assert_eq!(Dyadic::new(-3, 1).ceiling(), Dyadic::from(-1));
        assert_eq!(Dyadic::parse("3/4"), Some(Dyadic::new(3, 2)));
        assert_eq!(Dyadic::parse("-1/2"), Some(-half));
        assert_eq!(Dyadic::parse("0.75"), Some(Dyadic::new(3, 2)));
        assert_eq!(Dyadic::parse("-1.5"), Some(Dyadic::new(-3, 1)));
        assert_eq!(Dyadic::parse("2"), Some(two));
        assert_eq!(Dyadic::parse("1/3"), None);
        assert_eq!(Dyadic::parse("0.1"), None);
        assert_eq!(Dyadic::parse("x"), None);
        assert_eq!(Dyadic::new(3, 1).ceiling(), two);
    }
}
