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
    pub const ZERO: Dyadic = Dyadic { numerator: 0, exponent: 0 };
    pub const MINUS_ONE: Dyadic = Dyadic { numerator: -1, exponent: 0 };

    /// numerator / 2^exponent, reduced.
    pub fn new(numerator: i64, exponent: u32) -> Dyadic {
        let (mut m, mut k) = (numerator, exponent);
        while k > 0 && m % 2 == 0 {
            m /= 2;
            k -= 1;
        }
        Dyadic { numerator: m, exponent: k }
    }

    pub fn integer(self) -> Option<i64> {
        (self.exponent == 0).then_some(self.numerator)
    }

    pub fn numerator(self) -> i64 {
        self.numerator
    }

    pub fn exponent(self) -> u32 {
        self.exponent
    }

    /// The two numbers whose canonical form {a | b} this non-integer is: (m ∓ 1)/2^k.
    pub fn neighbours(self) -> (Dyadic, Dyadic) {
        (Dyadic::new(self.numerator - 1, self.exponent), Dyadic::new(self.numerator + 1, self.exponent))
    }

    /// (a + b) / 2.
    pub fn midpoint(self, other: Dyadic) -> Dyadic {
        let s = self + other;
        Dyadic::new(s.numerator, s.exponent + 1)
    }

    /// This number times the integer `k`.
    pub fn times(self, k: i64) -> Dyadic {
        let product = (self.numerator as i128) * (k as i128);
        Dyadic::new(product.clamp(i64::MIN as i128, i64::MAX as i128) as i64, self.exponent)
    }

    /// This number divided by `k`, when the quotient is dyadic (`k` ± a power of two).
    pub fn divided(self, k: i64) -> Option<Dyadic> {
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
    }
}
