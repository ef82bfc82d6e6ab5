//! Temperature theory against a brute force written here from the definitions, sharing no code
//! with the engine: canonical forms built by removing dominated and reversible options from the
//! game tree (Conway), numbers recognised by their canonical shape, stops by their definition,
//! and thermographs as lists of corners in exact fractions, each wall the highest (lowest) of
//! the options' walls tilted by the temperature, cut where the two scaffolds meet. Every
//! partizan subtraction game with both sets inside {1, 2, 3, 4, 5} is checked, pile by pile.

use std::collections::HashMap;

use serde_json::json;
use takeaway_core::{ask, Answer, Budget, NoLibrary, Request};

// ---- exact fractions ------------------------------------------------------------------------

/// p/q in lowest terms, q > 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Q(i128, i128);

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

impl Q {
    fn new(p: i128, q: i128) -> Q {
        let g = gcd(p, q).max(1) * q.signum();
        Q(p / g, q / g)
    }
    fn int(n: i128) -> Q {
        Q(n, 1)
    }
    fn add(self, o: Q) -> Q {
        Q::new(self.0 * o.1 + o.0 * self.1, self.1 * o.1)
    }
    fn sub(self, o: Q) -> Q {
        self.add(Q(-o.0, o.1))
    }
    fn mul(self, o: Q) -> Q {
        Q::new(self.0 * o.0, self.1 * o.1)
    }
    fn div(self, o: Q) -> Q {
        Q::new(self.0 * o.1, self.1 * o.0)
    }
    fn text(self) -> String {
        if self.1 == 1 {
            self.0.to_string()
        } else {
            format!("{}/{}", self.0, self.1)
        }
    }
}

impl PartialOrd for Q {
    fn partial_cmp(&self, o: &Q) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Q {
    fn cmp(&self, o: &Q) -> std::cmp::Ordering {
        (self.0 * o.1).cmp(&(o.0 * self.1))
    }
}

// ---- canonical forms, from Conway's definitions --------------------------------------------

/// Canonical forms, each stored once: a form is its index.
#[derive(Default)]
struct Store {
    options: Vec<(Vec<usize>, Vec<usize>)>,
    index: HashMap<(Vec<usize>, Vec<usize>), usize>,
    le_memo: HashMap<(usize, usize), bool>,
    numbers: HashMap<usize, Option<Q>>,
}

impl Store {
    fn intern(&mut self, mut left: Vec<usize>, mut right: Vec<usize>) -> usize {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        let key = (left, right);
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.options.push(key.clone());
        self.index.insert(key, self.options.len() - 1);
        self.options.len() - 1
    }

    /// G ≤ H: no Left option of G is ≥ H, and no Right option of H is ≤ G.
    fn le(&mut self, g: usize, h: usize) -> bool {
        if let Some(&b) = self.le_memo.get(&(g, h)) {
            return b;
        }
        let (gl, _) = self.options[g].clone();
        let (_, hr) = self.options[h].clone();
        let b = gl.iter().all(|&x| !self.le(h, x)) && hr.iter().all(|&y| !self.le(y, g));
        self.le_memo.insert((g, h), b);
        b
    }

    /// The canonical form of {left | right}, whose options are canonical: reversible options
    /// bypassed, then dominated ones removed, until nothing changes.
    fn canonical(&mut self, left: Vec<usize>, right: Vec<usize>) -> usize {
        let (mut left, mut right) = (left, right);
        loop {
            let g = self.intern(left.clone(), right.clone());
            let mut changed = false;
            // A Left option with a Right reply ≤ G is replaced by that reply's Left options.
            let mut new_left = Vec::new();
            for &x in &left {
                let reply = self.options[x].1.clone().into_iter().find(|&xr| self.le(xr, g));
                match reply {
                    Some(xr) => {
                        new_left.extend(self.options[xr].0.clone());
                        changed = true;
                    }
                    None => new_left.push(x),
                }
            }
            let mut new_right = Vec::new();
            for &y in &right {
                let reply = self.options[y].0.clone().into_iter().find(|&yl| self.le(g, yl));
                match reply {
                    Some(yl) => {
                        new_right.extend(self.options[yl].1.clone());
                        changed = true;
                    }
                    None => new_right.push(y),
                }
            }
            new_left.sort_unstable();
            new_left.dedup();
            new_right.sort_unstable();
            new_right.dedup();
            // Dominated: a Left option ≤ another, a Right option ≥ another.
            let mut kept_left = Vec::new();
            for &x in &new_left {
                if !new_left.iter().any(|&o| o != x && self.le(x, o) && !(self.le(o, x) && o > x)) {
                    kept_left.push(x);
                }
            }
            let mut kept_right = Vec::new();
            for &y in &new_right {
                if !new_right.iter().any(|&o| o != y && self.le(o, y) && !(self.le(y, o) && o > y)) {
                    kept_right.push(y);
                }
            }
            changed |= kept_left != left || kept_right != right;
            if !changed {
                return g;
            }
            left = kept_left;
            right = kept_right;
        }
    }

    /// The canonical form of g + h, from the definition: {gᴸ + h, g + hᴸ | gᴿ + h, g + hᴿ}.
    fn add(&mut self, g: usize, h: usize, memo: &mut HashMap<(usize, usize), usize>) -> usize {
        if let Some(&s) = memo.get(&(g, h)) {
            return s;
        }
        let ((gl, gr), (hl, hr)) = (self.options[g].clone(), self.options[h].clone());
        let mut side = |ga: &[usize], ha: &[usize], store: &mut Store| -> Vec<usize> {
            let mut out: Vec<usize> = ga.iter().map(|&x| store.add(x, h, memo)).collect();
            out.extend(ha.iter().map(|&y| store.add(g, y, memo)));
            out
        };
        let left = side(&gl, &hl, self);
        let right = side(&gr, &hr, self);
        let s = self.canonical(left, right);
        memo.insert((g, h), s);
        s
    }

    /// The number a canonical form is: {} = 0, {n | } = n + 1, { | −n} = −n − 1, and
    /// {a | b} with a < b numbers is the simplest number between them.
    fn number(&mut self, g: usize) -> Option<Q> {
        if let Some(&n) = self.numbers.get(&g) {
            return n;
        }
        let (l, r) = self.options[g].clone();
        let ls: Option<Vec<Q>> = l.iter().map(|&x| self.number(x)).collect();
        let rs: Option<Vec<Q>> = r.iter().map(|&y| self.number(y)).collect();
        let n = match (ls, rs) {
            (Some(ls), Some(rs)) => {
                let a = ls.iter().max().copied();
                let b = rs.iter().min().copied();
                match (a, b) {
                    (None, None) => Some(Q::int(0)),
                    (Some(a), None) => Some(Q::int(a.0.div_euclid(a.1) + 1)),
                    (None, Some(b)) => Some(Q::int(-(-b.0).div_euclid(b.1) - 1)),
                    (Some(a), Some(b)) if a < b => Some(simplest_between(a, b)),
                    _ => None,
                }
            }
            _ => None,
        };
        self.numbers.insert(g, n);
        n
    }

    /// Left's stop (`left`) or Right's: the number itself, else the best of the options'
    /// other stops.
    fn stop(&mut self, g: usize, left: bool) -> Q {
        if let Some(x) = self.number(g) {
            return x;
        }
        let (l, r) = self.options[g].clone();
        if left {
            l.iter().map(|&x| self.stop(x, false)).max().expect("a hot game has Left options")
        } else {
            r.iter().map(|&y| self.stop(y, true)).min().expect("a hot game has Right options")
        }
    }

    /// The canonical form of the number x.
    fn of_number(&mut self, x: Q) -> usize {
        if x.1 == 1 {
            let mut g = self.intern(vec![], vec![]);
            for _ in 0..x.0.abs() {
                g = if x.0 > 0 { self.intern(vec![g], vec![]) } else { self.intern(vec![], vec![g]) };
            }
            return g;
        }
        // m/2^k: {(m − 1)/2^k | (m + 1)/2^k}.
        let (a, b) = (Q::new(x.0 - 1, x.1), Q::new(x.0 + 1, x.1));
        let (ga, gb) = (self.of_number(a), self.of_number(b));
        self.intern(vec![ga], vec![gb])
    }
}

/// The simplest number strictly between a and b (a < b): the integer nearest 0 if there is
/// one, else the dyadic of the smallest denominator.
fn simplest_between(a: Q, b: Q) -> Q {
    let low = a.0.div_euclid(a.1) + 1;
    let high = -(-b.0).div_euclid(b.1) - 1;
    if low <= high {
        return Q::int(if low > 0 {
            low
        } else if high < 0 {
            high
        } else {
            0
        });
    }
    let mut denominator = 2;
    loop {
        let low = (a.0 * denominator).div_euclid(a.1) + 1;
        if Q::new(low, denominator) < b {
            return Q::new(low, denominator);
        }
        denominator *= 2;
    }
}

// ---- thermographs as corners --------------------------------------------------------------

/// A wall: corners (t, x) with t rising from −1, straight between them, and on from the last
/// with the slope `tail`.
#[derive(Clone, Debug)]
struct Corners {
    points: Vec<(Q, Q)>,
    tail: Q,
}

impl Corners {
    fn mast(x: Q) -> Corners {
        Corners { points: vec![(Q::int(-1), x)], tail: Q::int(0) }
    }

    fn at(&self, t: Q) -> Q {
        let i = self.points.iter().rposition(|&(s, _)| s <= t).unwrap_or(0);
        let (s, x) = self.points[i];
        let slope = match self.points.get(i + 1) {
            Some(&(s2, x2)) => x2.sub(x).div(s2.sub(s)),
            None => self.tail,
        };
        x.add(slope.mul(t.sub(s)))
    }

    fn tilt(&self, k: i128) -> Corners {
        Corners {
            points: self.points.iter().map(|&(t, x)| (t, x.add(Q::int(k).mul(t)))).collect(),
            tail: self.tail.add(Q::int(k)),
        }
    }

    /// The highest (`high`) or lowest of walls, sampled at every corner and every crossing.
    fn extreme(walls: &[Corners], high: bool) -> Corners {
        let mut ts: Vec<Q> = walls.iter().flat_map(|w| w.points.iter().map(|p| p.0)).collect();
        ts.sort();
        ts.dedup();
        let last = *ts.last().expect("a corner");
        // Crossings of any two walls between consecutive corners, and past the last one.
        let mut extra = Vec::new();
        let mut ends: Vec<Q> = ts.clone();
        ends.push(last.add(Q::int(1000)));
        for w in ends.windows(2) {
            let (s, e) = (w[0], w[1]);
            for a in walls {
                for b in walls {
                    let (da, db) = (a.at(s).sub(b.at(s)), a.at(e).sub(b.at(e)));
                    if da.0.signum() * db.0.signum() < 0 {
                        // Straight on [s, e]: the zero of a − b.
                        extra.push(s.add(e.sub(s).mul(da.div(da.sub(db)))));
                    }
                }
            }
        }
        ts.extend(extra);
        ts.sort();
        ts.dedup();
        let value = |t: Q| {
            let xs = walls.iter().map(|w| w.at(t));
            if high {
                xs.max().expect("a wall")
            } else {
                xs.min().expect("a wall")
            }
        };
        let points: Vec<(Q, Q)> = ts.iter().map(|&t| (t, value(t))).collect();
        let far = points.last().expect("a corner").0.add(Q::int(1));
        let tail = value(far).sub(points.last().expect("a corner").1);
        simplified(Corners { points, tail })
    }
}

/// Corners on a straight line removed.
fn simplified(w: Corners) -> Corners {
    let mut points: Vec<(Q, Q)> = Vec::new();
    for p in w.points {
        if points.len() >= 2 {
            let (a, b) = (points[points.len() - 2], points[points.len() - 1]);
            if b.1.sub(a.1).mul(p.0.sub(b.0)) == p.1.sub(b.1).mul(b.0.sub(a.0)) {
                points.pop();
            }
        }
        points.push(p);
    }
    if points.len() >= 2 {
        let (a, b) = (points[points.len() - 2], points[points.len() - 1]);
        if b.1.sub(a.1).div(b.0.sub(a.0)) == w.tail {
            points.pop();
        }
    }
    Corners { points, tail: w.tail }
}

struct Brute {
    left: Corners,
    right: Corners,
    temperature: Q,
    mean: Q,
}

fn thermograph(store: &mut Store, g: usize, memo: &mut HashMap<usize, std::rc::Rc<Brute>>) -> std::rc::Rc<Brute> {
    if let Some(b) = memo.get(&g) {
        return b.clone();
    }
    // An integer's walls are a mast; any other number's are built from its canonical options
    // as a game's are (below its temperature −1/2ⁿ they lean, as CGSuite draws them).
    let b = if let Some(x) = store.number(g).filter(|x| x.1 == 1) {
        Brute { left: Corners::mast(x), right: Corners::mast(x), temperature: Q::int(-1), mean: x }
    } else {
        let (l, r) = store.options[g].clone();
        let lw: Vec<Corners> = l.iter().map(|&x| thermograph(store, x, memo).right.tilt(-1)).collect();
        let rw: Vec<Corners> = r.iter().map(|&y| thermograph(store, y, memo).left.tilt(1)).collect();
        let (ls, rs) = (Corners::extreme(&lw, true), Corners::extreme(&rw, false));
        // The first t ≥ −1 with ls(t) ≤ rs(t): at a corner of either, or inside a straight
        // stretch between two.
        let mut ts: Vec<Q> = ls.points.iter().chain(&rs.points).map(|p| p.0).collect();
        ts.sort();
        ts.dedup();
        ts.push(ts.last().expect("a corner").add(Q::int(1000)));
        let gap = |t: Q| ls.at(t).sub(rs.at(t));
        let mut temperature = None;
        for w in ts.windows(2) {
            let (s, e) = (w[0], w[1]);
            if gap(s) <= Q::int(0) {
                temperature = Some(s);
                break;
            }
            if gap(e) <= Q::int(0) {
                temperature = Some(s.add(e.sub(s).mul(gap(s).div(gap(s).sub(gap(e))))));
                break;
            }
        }
        let temperature = temperature.expect("the scaffolds meet");
        let mean = ls.at(temperature);
        let cut = |w: &Corners| {
            let mut points: Vec<(Q, Q)> = w.points.iter().copied().filter(|p| p.0 < temperature).collect();
            points.push((temperature, mean));
            simplified(Corners { points, tail: Q::int(0) })
        };
        Brute { left: cut(&ls), right: cut(&rs), temperature, mean }
    };
    let b = std::rc::Rc::new(b);
    memo.insert(g, b.clone());
    b
}

/// A wall as CGSuite writes it: the corners top down, then the slope dx/dt of each stretch top
/// down, the mast's 0 first and the last going on below the lowest corner.
fn wall_text(mean: Q, w: &Corners) -> String {
    let corners: Vec<Q> = w.points.iter().skip(1).rev().map(|p| p.0).collect();
    let mut slopes = vec![Q::int(0).text()];
    for i in (0..w.points.len().saturating_sub(1)).rev() {
        let (a, b) = (w.points[i], w.points[i + 1]);
        slopes.push(b.1.sub(a.1).div(b.0.sub(a.0)).text());
    }
    let corners: Vec<String> = corners.iter().map(|c| c.text()).collect();
    format!("{},[{}],[{}]", mean.text(), corners.join(","), slopes.join(","))
}

// ---- the check ----------------------------------------------------------------------------

#[test]
fn every_partizan_subtraction_game_in_one_to_five_keeps_its_thermographs() {
    let most: u64 = std::env::var("TAKEAWAY_THERMO_PILES").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let set = |mask: u32| -> Vec<u64> { (1..=5).filter(|s| mask & (1 << (s - 1)) != 0).collect() };
    let words = |s: &[u64]| s.iter().map(u64::to_string).collect::<Vec<_>>().join(" or ");
    let mut checked = 0;
    for l in 1..32u32 {
        for r in 1..32u32 {
            let (left, right) = (set(l), set(r));
            let source = format!("piles\nleft move: take {}\nright move: take {}\n", words(&left), words(&right));
            let game = crate::common::loaded(&source);
            let mut store = Store::default();
            let mut memo = HashMap::new();
            let mut values: Vec<usize> = Vec::new();
            for n in 0..=most {
                let options = |set: &[u64]| -> Vec<usize> {
                    set.iter().filter(|&&s| s <= n).map(|&s| values[(n - s) as usize]).collect()
                };
                let (lo, ro) = (options(&left), options(&right));
                let g = store.canonical(lo, ro);
                values.push(g);
                let brute = thermograph(&mut store, g, &mut memo);
                let heat = engine_heat(&game, &n.to_string());
                let what = format!("L{left:?} R{right:?} pile {n}");
                assert_eq!(heat.mean, brute.mean.text(), "{what}: mean");
                assert_eq!(heat.temperature, brute.temperature.text(), "{what}: temperature");
                let (ls, rs) = (store.stop(g, true), store.stop(g, false));
                assert_eq!((heat.left_stop, heat.right_stop), (ls.text(), rs.text()), "{what}: stops");
                let thermograph = format!(
                    "Thermograph({},{})",
                    wall_text(brute.mean, &brute.left),
                    wall_text(brute.mean, &brute.right)
                );
                assert_eq!(heat.thermograph, thermograph, "{what}: thermograph");
                // Confused with x when G − x is fuzzy: neither G ≤ x nor x ≤ G.
                let mut confused = |x: Q| {
                    let gx = store.of_number(x);
                    !store.le(g, gx) && !store.le(gx, g)
                };
                let (low_in, high_in) = (confused(rs), confused(ls));
                let expected = if rs == ls && !low_in {
                    None
                } else {
                    let (open, close) = (if low_in { "[" } else { "(" }, if high_in { "]" } else { ")" });
                    Some(format!("{open}{}, {}{close}", shown(rs), shown(ls)))
                };
                assert_eq!(heat.confused_with, expected, "{what}: confusion interval");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 31 * 31 * (most as usize + 1));
}

/// What the engine's `solve` says of a position's heat.
fn engine_heat(game: &takeaway_core::Loaded, position: &str) -> takeaway_core::answers::Heat {
    let arguments = json!({ "position": position }).as_object().cloned().unwrap_or_default();
    let request = Request::parse("solve", arguments).expect("a request");
    let Answer::PartizanSolve(report) = ask(game, &request, &NoLibrary, &Budget::new()).expect("the engine answers")
    else {
        panic!("a partizan game answers with its report");
    };
    report.heat.expect("a normal-play partizan position has its heat")
}

/// A number as the confusion interval writes it: `½`, `-1½`, `3/4`.
fn shown(x: Q) -> String {
    match x.1 {
        1 => x.0.to_string(),
        2 => {
            let whole = x.0.abs() / 2;
            let sign = if x.0 < 0 { "-" } else { "" };
            if whole == 0 {
                format!("{sign}½")
            } else {
                format!("{sign}{whole}½")
            }
        }
        _ => x.text(),
    }
}

/// Hot sums: two piles of partizan subtraction games, whose value the engine adds as canonical
/// forms, have the thermograph of the brute force's sum, text for text (CGSuite's form).
#[test]
fn sums_of_two_piles_have_the_thermographs_of_their_canonical_sums() {
    let words = |s: &[u64]| s.iter().map(u64::to_string).collect::<Vec<_>>().join(" or ");
    let mut checked = 0;
    for (left, right) in
        [(vec![1u64, 3], vec![2u64, 3]), (vec![1], vec![2]), (vec![1, 4], vec![2]), (vec![2, 3], vec![1])]
    {
        let source = format!("piles\nleft move: take {}\nright move: take {}\n", words(&left), words(&right));
        let game = crate::common::loaded(&source);
        let mut store = Store::default();
        let (mut memo, mut sums) = (HashMap::new(), HashMap::new());
        let mut values: Vec<usize> = Vec::new();
        for n in 0..=9u64 {
            let options = |set: &[u64]| -> Vec<usize> {
                set.iter().filter(|&&s| s <= n).map(|&s| values[(n - s) as usize]).collect()
            };
            let (lo, ro) = (options(&left), options(&right));
            let g = store.canonical(lo, ro);
            values.push(g);
        }
        for a in 1..=9u64 {
            for b in a..=9u64 {
                let sum = store.add(values[a as usize], values[b as usize], &mut sums);
                let brute = thermograph(&mut store, sum, &mut memo);
                let heat = engine_heat(&game, &format!("{a} {b}"));
                let expected = format!(
                    "Thermograph({},{})",
                    wall_text(brute.mean, &brute.left),
                    wall_text(brute.mean, &brute.right)
                );
                assert_eq!(heat.thermograph, expected, "L{left:?} R{right:?}: {a} + {b}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 45);
}
