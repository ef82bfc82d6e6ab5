//! Canonical forms written as the literature writes them: numbers (`3`, `½`, `-3/4`),
//! nimbers (`*`, `*2`), ups (`↑`, `⇑*`, `3·↑`), their sums with a number (`1*`, `½↑`), and
//! everything else as `{L | R}` with Conway's bars: an option that is alone on its side is
//! written without braces, and the bars that separate its sides are outnumbered by the bars
//! around it (`{1|1,{1|0}||0}`).

use std::collections::HashMap;

use super::dyadic::Dyadic;
use super::forms::{FormId, Forms};

/// Multiples of ↑ recognised by name, each way.
const MOST_UPS: i32 = 8;
/// Nimbers added to them.
const MOST_STARS: u32 = 4;

/// The longest form `show` writes out in full.
pub(crate) const LONGEST_FORM: usize = 4000;

/// The game written out, or, past `LONGEST_FORM` characters, what can be said of it briefly.
pub(crate) fn show(forms: &mut Forms, g: FormId) -> String {
    show_within(forms, g, LONGEST_FORM).unwrap_or_else(|| summary(forms, g, LONGEST_FORM))
}

/// How a form too long to write out is described instead.
pub(crate) fn summary(forms: &mut Forms, g: FormId, budget: usize) -> String {
    let (l, r) = forms.stops(g);
    format!("{{…}} (born on day {}, stops {l} and {r}; more than {budget} characters written out)", forms.birthday(g))
}

/// The game written out, if that takes at most `budget` characters. Canonical forms can
/// double in length with each pile, so the writing stops as soon as it is too long.
pub(crate) fn show_within(forms: &mut Forms, g: FormId, budget: usize) -> Option<String> {
    match simple(forms, g) {
        Some(s) => Some(s),
        None => {
            let mut left = budget;
            compound(forms, g, &mut left).map(|(s, _)| format!("{{{s}}}"))
        }
    }
}

/// (k, m) when g is k·↑ + *m; the table of them is built once per store.
fn ups_of(forms: &mut Forms, g: FormId) -> Option<(i32, u32)> {
    if forms.ups.is_none() {
        forms.ups = Some(build_ups(forms).unwrap_or_default());
    }
    forms.ups.as_ref().and_then(|k| k.get(&g).copied())
}

fn build_ups(forms: &mut Forms) -> Result<HashMap<FormId, (i32, u32)>, super::forms::TooManyForms> {
    let mut known = HashMap::new();
    let up = forms.up()?;
    let mut multiple = FormId::ZERO;
    for k in 1..=MOST_UPS {
        multiple = forms.add(multiple, up)?;
        for m in 0..MOST_STARS {
            let star = forms.nimber(m)?;
            let g = forms.add(multiple, star)?;
            known.entry(g).or_insert((k, m));
            let minus = forms.neg(g)?;
            known.entry(minus).or_insert((-k, m));
        }
    }
    Ok(known)
}

fn star_text(m: u32) -> String {
    match m {
        0 => String::new(),
        1 => "*".into(),
        m => format!("*{m}"),
    }
}

fn up_text(k: i32) -> String {
    match k {
        1 => "↑".into(),
        2 => "⇑".into(),
        -1 => "↓".into(),
        -2 => "⇓".into(),
        k if k > 0 => format!("{k}·↑"),
        k => format!("{}·↓", -k),
    }
}

/// Numbers, nimbers, ups and their sums; `None` for anything else.
fn simple(forms: &mut Forms, g: FormId) -> Option<String> {
    if let Some((x, m)) = forms.number_nimber(g) {
        return Some(match (x == Dyadic::ZERO, m) {
            (true, 0) => "0".into(),
            (true, m) => star_text(m),
            (false, m) => format!("{x}{}", star_text(m)),
        });
    }
    let (left_stop, right_stop) = forms.stops(g);
    if left_stop != right_stop {
        return None;
    }
    // x plus an infinitesimal: is the infinitesimal a multiple of ↑ with a nimber?
    let x = forms.of_number(left_stop).ok()?;
    let rest = forms.sub(g, x).ok()?;
    let (k, m) = ups_of(forms, rest)?;
    let ups = up_text(k);
    let number = match left_stop == Dyadic::ZERO {
        true => String::new(),
        // A number before a counted multiple of ↑ would run into its count (-1 and 3·↓ read
        // as -13·↓): a plus sign keeps them apart.
        false if ups.starts_with(|c: char| c.is_ascii_digit()) => format!("{left_stop}+"),
        false => left_stop.to_string(),
    };
    Some(format!("{number}{ups}{}", star_text(m)))
}

/// The inside of {…} and the number of bars between its sides; `None` once more than
/// `budget` characters would be written.
fn compound(forms: &mut Forms, g: FormId, budget: &mut usize) -> Option<(String, usize)> {
    let (left, left_bars) = side(forms, forms.left(g).to_vec(), budget)?;
    let (right, right_bars) = side(forms, forms.right(g).to_vec(), budget)?;
    let bars = left_bars.max(right_bars) + 1;
    *budget = budget.checked_sub(bars + 2)?;
    Some((format!("{left}{}{right}", "|".repeat(bars)), bars))
}

/// One side's options, numbers first: a lone compound option goes without braces.
fn side(forms: &mut Forms, options: Vec<FormId>, budget: &mut usize) -> Option<(String, usize)> {
    let mut written: Vec<(u8, Option<Dyadic>, FormId, String, usize)> = Vec::new();
    let alone = options.len() == 1;
    for o in options {
        let number = forms.number(o);
        match simple(forms, o) {
            Some(s) => {
                *budget = budget.checked_sub(s.chars().count() + 1)?;
                written.push((if number.is_some() { 0 } else { 1 }, number, o, s, 0))
            }
            None => {
                let (inside, bars) = compound(forms, o, budget)?;
                if alone {
                    written.push((2, None, o, inside, bars));
                } else {
                    written.push((2, None, o, format!("{{{inside}}}"), 0));
                }
            }
        }
    }
    written.sort_by_key(|w| (w.0, w.1, w.2));
    let bars = written.iter().map(|w| w.4).max().unwrap_or(0);
    Some((written.into_iter().map(|w| w.3).collect::<Vec<_>>().join(","), bars))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_literatures_notation() {
        let mut f = Forms::new(100_000);
        let one = f.of_number(Dyadic::from(1)).unwrap();
        let half = f.of_number(Dyadic::new(1, 1)).unwrap();
        let star = f.nimber(1).unwrap();
        let up = f.up().unwrap();
        let switch = f.canonical(vec![one], vec![FormId::ZERO]).unwrap();
        assert_eq!(show(&mut f, half), "½");
        assert_eq!(show(&mut f, star), "*");
        assert_eq!(show(&mut f, up), "↑");
        let up_star = f.add(up, star).unwrap();
        assert_eq!(show(&mut f, up_star), "↑*");
        let down = f.neg(up).unwrap();
        assert_eq!(show(&mut f, down), "↓");
        let one_up = f.add(one, up).unwrap();
        assert_eq!(show(&mut f, one_up), "1↑");
        // -1 + 3·↓: the number and the count of ↓ kept apart.
        let minus_one = f.of_number(Dyadic::from(-1)).unwrap();
        let three_downs = f.add(down, down).and_then(|d| f.add(d, down)).unwrap();
        let g = f.add(minus_one, three_downs).unwrap();
        assert_eq!(show(&mut f, g), "-1+3·↓");
        let g = f.add(g, star).unwrap();
        assert_eq!(show(&mut f, g), "-1+3·↓*");
        assert_eq!(show(&mut f, switch), "{1|0}");
        let three_quarters = f.of_number(Dyadic::new(3, 2)).unwrap();
        assert_eq!(show(&mut f, three_quarters), "3/4");
        // {1 | 1, {1|0}} keeps the braces of an option that is not alone on its side.
        let g = f.canonical(vec![one], vec![one, switch]).unwrap();
        let h = f.canonical(vec![g], vec![FormId::ZERO]).unwrap();
        assert_eq!(show(&mut f, h), "{1|1,{1|0}||0}");
    }
}
