//! Loopy games (rules that add counters) against an independent brute force.
//!
//! The brute force here knows nothing of takeaway's engine: it lists moves of a small model of
//! the game itself, finds outcomes by sweeping "P if every option is N, N if some option is P"
//! until nothing changes (what is left is a draw), and finds Smith's generalised Grundy values
//! by sweeping Fraenkel and Yesha's labelling stage by stage. Checked against it:
//! - outcomes P, N and D under normal and misère play, and the laws linking a position's
//!   outcome to its options', for pile games and for a two-pile game
//!   whose move takes from both piles;
//! - the generalised value γ of whole positions;
//! - Smith's theorem that γ adds over sums (numbers by XOR, ∞(K) shifted by a number, two ∞
//!   a draw), from single-pile values of the brute force alone;
//! - on a game whose add rule never applies, the loopy engine agrees with the ordinary search
//!   in outcome, Grundy value and remoteness.

use crate::common;

use std::collections::{HashMap, HashSet, VecDeque};

use proptest::prelude::*;
use takeaway_core::internals::generic_solver as generic;
use takeaway_core::Position;
use takeaway_core::{Budget, Outcome, Solver};

fn limits() -> Budget {
    Budget::new().max_states(2_000_000)
}

/// A small loopy game: take an amount from `take`, or add one from `add` while the pile stays
/// at most `cap`; optionally (on exactly two piles) take the same amount from both.
#[derive(Clone, Debug)]
struct Model {
    take: Vec<u64>,
    add: Vec<u64>,
    cap: u64,
    both: bool,
    misere: bool,
}

impl Model {
    fn text(&self) -> String {
        let list = |v: &[u64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
        let mut t = String::from("game \"random loopy\"\n");
        t.push_str(if self.both { "piles 2\n" } else { "piles\n" });
        t.push_str(&format!("move: take {{{}}}\n", list(&self.take)));
        t.push_str(&format!("move: add {{{}}} where n + t <= {}\n", list(&self.add), self.cap));
        if self.both {
            t.push_str("move: take any from both piles\n");
        }
        if self.misere {
            t.push_str("play misère\n");
        }
        t
    }

    fn normal(&self, mut piles: Vec<u64>) -> Vec<u64> {
        if !self.both {
            piles.retain(|&p| p > 0);
        }
        piles.sort_unstable();
        piles
    }

    fn options(&self, pos: &[u64]) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for i in 0..pos.len() {
            let n = pos[i];
            if n == 0 {
                continue;
            }
            for &s in &self.take {
                if s <= n {
                    let mut next = pos.to_vec();
                    next[i] = n - s;
                    out.push(self.normal(next));
                }
            }
            for &a in &self.add {
                if n + a <= self.cap {
                    let mut next = pos.to_vec();
                    next[i] = n + a;
                    out.push(self.normal(next));
                }
            }
        }
        if self.both && pos.len() == 2 {
            for t in 1..=pos[0].min(pos[1]) {
                out.push(self.normal(vec![pos[0] - t, pos[1] - t]));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Every position reachable from `start`, with its options.
    fn graph(&self, start: &[u64]) -> HashMap<Vec<u64>, Vec<Vec<u64>>> {
        let mut graph = HashMap::new();
        let mut queue = VecDeque::from([self.normal(start.to_vec())]);
        while let Some(p) = queue.pop_front() {
            if graph.contains_key(&p) {
                continue;
            }
            let opts = self.options(&p);
            queue.extend(opts.iter().cloned());
            graph.insert(p, opts);
        }
        graph
    }

    fn outcomes(&self, graph: &HashMap<Vec<u64>, Vec<Vec<u64>>>) -> HashMap<Vec<u64>, Outcome> {
        let mut known: HashMap<Vec<u64>, Outcome> = HashMap::new();
        loop {
            let mut changed = false;
            for (p, opts) in graph {
                if known.contains_key(p) {
                    continue;
                }
                let decided = if opts.is_empty() {
                    Some(if self.misere { Outcome::N } else { Outcome::P })
                } else if opts.iter().any(|o| known.get(o) == Some(&Outcome::P)) {
                    Some(Outcome::N)
                } else if opts.iter().all(|o| known.get(o) == Some(&Outcome::N)) {
                    Some(Outcome::P)
                } else {
                    None
                };
                if let Some(o) = decided {
                    known.insert(p.clone(), o);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        graph.keys().map(|p| (p.clone(), known.get(p).copied().unwrap_or(Outcome::D))).collect()
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Label {
    Finite(u64),
    Infinite,
}

/// Fraenkel and Yesha's labelling, by plain sweeps.
fn generalised(graph: &HashMap<Vec<u64>, Vec<Vec<u64>>>) -> HashMap<Vec<u64>, String> {
    let mut label: HashMap<Vec<u64>, Label> = HashMap::new();
    let mut i = 0;
    while label.len() < graph.len() {
        let has_i = |label: &HashMap<Vec<u64>, Label>, v: &Vec<u64>| {
            graph[v].iter().any(|w| label.get(w) == Some(&Label::Finite(i)))
        };
        loop {
            let mut changed = false;
            for (u, opts) in graph {
                if label.contains_key(u) || has_i(&label, u) {
                    continue;
                }
                let ok =
                    opts.iter().filter(|v| !matches!(label.get(*v), Some(Label::Finite(_)))).all(|v| has_i(&label, v));
                if ok {
                    label.insert(u.clone(), Label::Finite(i));
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let infinite: Vec<Vec<u64>> =
            graph.keys().filter(|u| !label.contains_key(*u) && !has_i(&label, u)).cloned().collect();
        for u in infinite {
            label.insert(u, Label::Infinite);
        }
        i += 1;
    }
    graph
        .iter()
        .map(|(u, opts)| {
            let text = match label[u] {
                Label::Finite(g) => g.to_string(),
                Label::Infinite => {
                    let mut k: Vec<u64> = opts
                        .iter()
                        .filter_map(|v| match label[v] {
                            Label::Finite(g) => Some(g),
                            Label::Infinite => None,
                        })
                        .collect();
                    k.sort_unstable();
                    k.dedup();
                    infinite_text(&k)
                }
            };
            (u.clone(), text)
        })
        .collect()
}

fn infinite_text(k: &[u64]) -> String {
    if k.is_empty() {
        "∞".to_string()
    } else {
        format!("∞({})", k.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(","))
    }
}

/// Smith's sum of generalised values written as text: numbers XOR, one ∞ shifted, two ∞ is ∞.
fn smith_sum(parts: &[String]) -> String {
    let mut nim = 0;
    let mut infinite: Vec<Vec<u64>> = Vec::new();
    for p in parts {
        match p.parse::<u64>() {
            Ok(g) => nim ^= g,
            Err(_) => {
                let inner = p.trim_start_matches('∞').trim_start_matches('(').trim_end_matches(')');
                infinite.push(inner.split(',').filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect());
            }
        }
    }
    match infinite.as_slice() {
        [] => nim.to_string(),
        [k] => {
            let mut shifted: Vec<u64> = k.iter().map(|g| g ^ nim).collect();
            shifted.sort_unstable();
            infinite_text(&shifted)
        }
        _ => "∞".to_string(),
    }
}

fn model() -> impl Strategy<Value = Model> {
    (
        proptest::collection::btree_set(1u64..4, 1..3),
        proptest::collection::btree_set(1u64..3, 1..3),
        3u64..7,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(take, add, cap, both, misere)| Model {
            take: take.into_iter().collect(),
            add: add.into_iter().collect(),
            cap,
            both,
            misere,
        })
}

fn position(m: &Model, piles: &[u64]) -> Vec<u64> {
    let piles: Vec<u64> = piles.iter().map(|p| p % (m.cap + 1)).collect();
    if m.both {
        vec![piles[0], piles.get(1).copied().unwrap_or(0)]
    } else {
        piles
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn outcomes_match_a_brute_force(m in model(), piles in proptest::collection::vec(0u64..7, 1..4)) {
        let game = common::game_text(&m.text());
        prop_assert!(game.can_grow());
        let start = position(&m, &piles);
        let graph = m.graph(&start);
        let brute = m.outcomes(&graph);
        let mut solver = Solver::new(&game, &limits());
        let pos = Position::new(start.clone());
        let got = solver.value(&pos).unwrap().outcome;
        prop_assert_eq!(got, brute[&m.normal(start.clone())], "outcome of {:?} in\n{}", start, m.text());
        // Every option of the position too: the engine reuses what it explored.
        let mut options = Vec::new();
        for o in m.options(&m.normal(start.clone())) {
            let outcome = solver.value(&Position::new(o.clone())).unwrap().outcome;
            prop_assert_eq!(outcome, brute[&o], "option {:?}", o);
            options.push(outcome);
        }
        // The laws: P has only N options; N has a P option (or, under misère play, no move at
        // all); D has no P option but a D option.
        match got {
            Outcome::P => prop_assert!(options.iter().all(|o| *o == Outcome::N)),
            Outcome::N => prop_assert!(options.contains(&Outcome::P) || (m.misere && options.is_empty())),
            Outcome::D => prop_assert!(!options.contains(&Outcome::P) && options.contains(&Outcome::D)),
        }
    }

    #[test]
    fn generalised_values_match_a_brute_force_and_add_over_piles(
        m in model().prop_filter("normal play", |m| !m.misere),
        piles in proptest::collection::vec(0u64..7, 1..4),
    ) {
        let game = common::game_text(&m.text());
        let start = m.normal(position(&m, &piles));
        let graph = m.graph(&start);
        let brute = generalised(&graph);
        let mut solver = Solver::new(&game, &limits());
        let got = solver.loopy_value(&Position::new(start.clone())).unwrap().expect("normal play has values");
        prop_assert_eq!(got.to_string(), brute[&start].clone(), "γ of {:?} in\n{}", start, m.text());
        // The outcome is read from γ: 0 is P, a number is N, ∞(K) is N exactly when 0 is in K.
        let outcome = m.outcomes(&graph)[&start];
        prop_assert_eq!(got.outcome(), outcome);
        if !m.both {
            // Smith's theorem, from the brute force's single piles alone.
            let parts: Vec<String> = start
                .iter()
                .map(|&p| generalised(&m.graph(&[p]))[&vec![p]].clone())
                .collect();
            prop_assert_eq!(smith_sum(&parts), brute[&start].clone(), "sum of {:?}", parts);
        }
    }

    #[test]
    fn without_loops_the_loopy_engine_agrees_with_the_search(
        set in proptest::collection::btree_set(1u64..5, 1..4),
        misere in any::<bool>(),
        piles in proptest::collection::vec(0u64..9, 1..4),
    ) {
        let list = set.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
        let play = if misere { "play misère\n" } else { "" };
        let plain = format!("game \"g\"\npiles\nmove: take {{{list}}}\n{play}");
        // The add rule is there, so the loopy engine runs, but it never applies.
        let loopy = format!("{plain}move: add 1 where n + t < 0\n");
        let (plain, loopy) = (common::game_text(&plain), common::game_text(&loopy));
        let mut a = generic(&plain, &limits());
        let mut b = Solver::new(&loopy, &limits());
        prop_assert_eq!(b.method(), takeaway_core::MethodKind::Loopy);
        let pos = Position::new(piles);
        prop_assert_eq!(a.value(&pos).unwrap(), b.value(&pos).unwrap());
        prop_assert_eq!(a.remoteness(&pos).unwrap(), b.remoteness(&pos).unwrap());
    }
}

/// Take 1 or 2, or add 1 while the pile stays at most 4: worked by hand. From 3 and 4 the
/// only moves that do not hand the opponent a win go between 3 and 4, so both are draws; so is
/// every larger pile, whose moves lead down into them.
#[test]
fn take_or_put_back_by_hand() {
    let game = common::game_text("game \"g\"\npile\nmove: take 1..2\nmove: add 1 where n + t <= 4\n");
    let mut solver = Solver::new(&game, &limits());
    let outcomes: Vec<Outcome> = (0..8).map(|n| solver.value(&Position::new(vec![n])).unwrap().outcome).collect();
    use Outcome::*;
    assert_eq!(outcomes, vec![P, N, N, D, D, D, D, D]);
    // 1 → 2 → 1 is a circle through which neither value can be a number: both are ∞(0).
    let values: Vec<String> =
        (0..5).map(|n| solver.loopy_value(&Position::new(vec![n])).unwrap().unwrap().to_string()).collect();
    assert_eq!(values, vec!["0", "∞(0)", "∞(0)", "∞", "∞"]);
    assert_eq!(solver.remoteness(&Position::new(vec![3])).unwrap(), None, "a draw never ends");
    assert_eq!(solver.remoteness(&Position::new(vec![2])).unwrap(), Some(1));
    let line = solver.draw_line(&Position::new(vec![5])).unwrap().expect("5 is a draw");
    let circle = line.circle_from.expect("the line comes round");
    let seen: HashSet<Vec<u64>> = line.moves.iter().map(|m| m.to.piles.clone()).collect();
    assert!(seen.contains(&vec![3]) && seen.contains(&vec![4]), "{:?}", line.moves);
    assert!(circle < line.moves.len());
}

/// The loopy games shipped in `games/`, against the brute force's model of the same rules,
/// on every position of up to two piles within the games' bounds.
#[test]
fn shipped_loopy_games_match_the_brute_force() {
    let cases = [
        ("take-or-put-back.game", Model { take: vec![1, 2], add: vec![1], cap: 4, both: false, misere: false }),
        (
            "subtraction-with-put-backs.game",
            Model { take: vec![1, 3], add: vec![1], cap: 6, both: false, misere: false },
        ),
    ];
    for (file, m) in cases {
        let game = common::game(file);
        let mut solver = Solver::new(&game, &limits());
        for a in 0..=m.cap {
            for b in 0..=a {
                let start = m.normal(vec![a, b]);
                let graph = m.graph(&start);
                let pos = Position::new(vec![a, b]);
                assert_eq!(solver.value(&pos).unwrap().outcome, m.outcomes(&graph)[&start], "{file}: {a} {b}");
                let value = solver.loopy_value(&pos).unwrap().unwrap().to_string();
                assert_eq!(value, generalised(&graph)[&start], "{file}: {a} {b}");
            }
        }
    }
}
