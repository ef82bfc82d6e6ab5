//! `explain`: how the answer for a position follows, in the terms of the theory, for a student
//! to check by hand.
//!
//! - one pile of a sum game: every option with its Grundy value, the set of values, the mex;
//! - several piles: each pile's Grundy value, the binary columns and their parities, the
//!   nim-sum, and how the winning move is found (Bouton);
//! - Moore's Nim: each pile in binary, each column's count of 1s modulo k + 1, and the winning
//!   move the theorem's proof constructs;
//! - take ≤ f(last) games: Schwenk's sequence H for this f, the pile as a sum of H's, and the
//!   winning move, taking the smallest term;
//! - anything else: every option with its outcome.
//!
//! A P-position also gets a strategy certificate: for every move, a winning reply.

use serde::Serialize;

use crate::rules::{Game, Move, Position};
use crate::solve::last_bound::LastBound;
use crate::solve::{MethodKind, Outcome, SolveError, Solver};

/// More moves than this are counted but not listed, so that an explanation stays readable.
const LISTED: usize = 60;

/// A move, in words and as the position it leaves.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    #[serde(rename = "move")]
    /// The move in words, as the rule that makes it says it.
    pub description: String,
    /// The position the move leaves.
    pub to: Vec<u64>,
    /// `to` holds cells (x, y) in pairs
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cells: bool,
}

impl Step {
    fn of(m: &Move) -> Step {
        Step { description: m.kind.describe(), to: m.to.piles.clone(), cells: m.to.cells }
    }
}

/// One cell of a product game's position and its Grundy value.
#[derive(Debug, Clone, Serialize)]
pub struct CellValue {
    /// The column.
    pub x: u64,
    /// The row.
    pub y: u64,
    /// The cell's value.
    pub grundy: u64,
    /// For a tartan product: the two games' values, whose nim-product the cell's value is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub factors: Option<(u64, u64)>,
}

/// A move of a one-cell position, the value of each cell it leaves, and their XOR.
#[derive(Debug, Clone, Serialize)]
pub struct CellOption {
    #[serde(rename = "move")]
    /// The move.
    pub step: Step,
    /// The values of the parts the move leaves.
    pub parts: Vec<CellValue>,
    /// The value of the position the move leaves.
    pub grundy: u64,
}

/// A move of a P-position and a winning answer to it.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    #[serde(rename = "move")]
    /// The move made.
    pub played: Step,
    /// The reply that wins against it.
    pub reply: Option<Step>,
}

/// A move and the value of the position it leaves.
#[derive(Debug, Clone, Serialize)]
pub struct OptionValue {
    #[serde(rename = "move")]
    /// The move.
    pub step: Step,
    /// the Grundy value of each pile the move leaves, then their XOR
    pub parts: Vec<(u64, u64)>,
    /// The value of the position the move leaves.
    pub grundy: u64,
}

/// One binary column of a nim-sum.
#[derive(Debug, Clone, Serialize)]
pub struct Column {
    /// the power of 2 this column stands for
    pub value: u64,
    /// The bit of each value in this column.
    pub bits: Vec<u8>,
    /// The column's bit of the nim-sum.
    pub sum: u64,
}

/// A winning move in a sum: which pile, and what its value must become.
#[derive(Debug, Clone, Serialize)]
pub struct NimSumMove {
    /// The highest column of the nim-sum, which the move clears.
    pub column: u64,
    /// The pile moved in.
    pub pile: u64,
    /// The pile's value now.
    pub value: u64,
    /// The value the pile must reach.
    pub target: u64,
    /// The moves that reach the target value.
    pub moves: Vec<Step>,
}

/// A move and who wins after it.
#[derive(Debug, Clone, Serialize)]
pub struct OptionOutcome {
    #[serde(rename = "move")]
    /// The move.
    pub step: Step,
    /// Other moves that reach the same position (listed with it, not dropped).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// Who wins after the move.
    pub outcome: Outcome,
    /// The value of the position the move leaves, when there is one.
    pub grundy: Option<u64>,
}

/// Why a position has its outcome or value, in the form of the argument that proves it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Explanation {
    /// The value is the least value none of the options has.
    Mex {
        /// The game's name.
        game: String,
        /// "pile", or "coin" in a coin-turning game (where a heads coin at n is a heap of n)
        unit: &'static str,
        /// The pile size.
        pile: u64,
        /// The moves from here and their values, as far as listed.
        options: Vec<OptionValue>,
        /// How many options are not listed.
        more_options: usize,
        /// The values.
        values: Vec<u64>,
        /// The least value no option has.
        mex: u64,
        /// Who wins.
        outcome: Outcome,
        /// Sample replies showing why each move loses, as far as listed.
        answers: Vec<Answer>,
        /// With `--all`: the Grundy values of the smaller piles, G(0..pile−1), that the options read.
        #[serde(skip_serializing_if = "Option::is_none")]
        smaller: Option<Vec<u64>>,
    },
    /// A sum of piles: the value is the nim-sum of the piles' values.
    NimSum {
        /// The game's name.
        game: String,
        /// What a pile is counted in.
        unit: &'static str,
        /// The position asked about, one number per pile.
        position: Vec<u64>,
        /// The values.
        values: Vec<u64>,
        /// The binary columns of the nim-sum.
        columns: Vec<Column>,
        /// The nim-sum (bitwise exclusive or) of the values.
        nim_sum: u64,
        /// Who wins.
        outcome: Outcome,
        /// The winning moves.
        winning: Vec<NimSumMove>,
        /// Sample replies showing why each move loses, as far as listed.
        answers: Vec<Answer>,
        /// How many replies are not listed.
        more_answers: usize,
    },
    /// A game whose moves depend on the previous move, solved by its sequence (Schwenk's theorem).
    Schwenk {
        /// The game's name.
        game: String,
        /// The pile size.
        pile: u64,
        /// f(x) for x = 1, 2, 3, …: the most the next player may take after a take of x
        f: Vec<i64>,
        /// The values of the pile sizes in the game's sequence.
        h: Vec<u64>,
        /// The pile written as a sum of terms of the sequence.
        representation: Vec<u64>,
        /// Who wins.
        outcome: Outcome,
        /// The winning moves.
        winning: Option<Step>,
        /// Why the rule applies.
        why: String,
        /// Sample replies showing why each move loses, as far as listed.
        answers: Vec<Answer>,
        /// How many replies are not listed.
        more_answers: usize,
    },
    /// A product game: each cell's value (for one cell, the mex of its options; for a tartan
    /// product, also the nim-product of the two games' values), then the nim-sum of the cells.
    Cells {
        /// The game's name.
        game: String,
        /// "the tartan product of Twins and Twins"
        product: String,
        /// the two games' names, for the tartan theorem's factors
        games: [String; 2],
        /// The cells and their values.
        cells: Vec<CellValue>,
        /// The moves from here and their values, as far as listed.
        options: Vec<CellOption>,
        /// How many options are not listed.
        more_options: usize,
        /// for one cell: the values its options reach, and their mex
        reached: Vec<u64>,
        /// The binary columns of the nim-sum.
        columns: Vec<Column>,
        /// The nim-sum (bitwise exclusive or) of the values.
        nim_sum: u64,
        /// Who wins.
        outcome: Outcome,
        /// The winning moves.
        winning: Vec<Step>,
        /// Sample replies showing why each move loses, as far as listed.
        answers: Vec<Answer>,
        /// How many replies are not listed.
        more_answers: usize,
    },
    /// A misère heap game: each pile's element of the misère quotient, their product, and
    /// whether it lies in the P-portion; each winning move with the element it leads to.
    Quotient {
        /// The game's name.
        game: String,
        /// The position asked about, one number per pile.
        position: Vec<u64>,
        /// (pile, the element it pretends to be, as a word in the generators)
        piles: Vec<(u64, String)>,
        /// the product after each pile in turn
        products: Vec<String>,
        /// The product the game is.
        product: String,
        /// The P-portion of the quotient.
        p_portion: Vec<String>,
        /// the quotient is that of sums of heaps up to here (or of every heap, when its period is proven)
        computed: u64,
        /// Whether the reason covers the whole game rather than this position.
        whole_game: bool,
        /// The quotient's generators.
        generators: Vec<String>,
        /// The quotient's relations.
        relations: Vec<String>,
        /// Who wins.
        outcome: Outcome,
        /// winning moves and the element each leads to
        winning: Vec<(Step, String)>,
        /// Every pile is tame: their normal-play values, to which misère Nim's rule applies.
        tame_values: Option<Vec<u64>>,
        /// Whether there are more winning moves than listed.
        more_winning: bool,
        /// Sample replies showing why each move loses, as far as listed.
        answers: Vec<Answer>,
        /// How many replies are not listed.
        more_answers: usize,
    },
    /// Moore's Nim: the piles in binary, and whether every column's count of 1s is a multiple
    /// of k + 1 (Moore's theorem).
    Moore {
        /// The game's name.
        game: String,
        /// the most piles one move may take from
        k: usize,
        /// The position asked about, one number per pile.
        position: Vec<u64>,
        /// The binary columns of the nim-sum.
        columns: Vec<Column>,
        /// Who wins.
        outcome: Outcome,
        /// every winning move, or where the moves are too many to list, the one the theorem's
        /// construction finds
        winning: Vec<Step>,
        /// only the construction's move is listed: there may be others
        more_winning: bool,
        /// Sample replies showing why each move loses, as far as listed.
        answers: Vec<Answer>,
        /// How many replies are not listed.
        more_answers: usize,
    },
    /// Who wins after each move.
    Options {
        /// The game's name.
        game: String,
        /// The position asked about, one number per pile.
        position: Vec<u64>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        /// The cells and their values.
        cells: bool,
        /// Who wins.
        outcome: Outcome,
        /// The Grundy value (nim-value), when there is one.
        grundy: Option<u64>,
        /// The moves from here and their values, as far as listed.
        options: Vec<OptionOutcome>,
        /// How many options are not listed.
        more_options: usize,
        /// Sample replies showing why each move loses, as far as listed.
        answers: Vec<Answer>,
        /// How many replies are not listed.
        more_answers: usize,
        /// Whether the last player to move loses.
        misere: bool,
        /// The rules add counters: values are Smith's generalised ones, and draws exist.
        loopy: bool,
        /// The previous move's size, for games whose rules read it.
        #[serde(skip_serializing_if = "Option::is_none")]
        last: Option<u64>,
    },
}

/// Why a position has its outcome or value; with `all` the Grundy values of every smaller pile that a one-pile
/// explanation reads (G(0..n−1)), for a student to check the mex against.
pub(crate) fn explain_with(solver: &mut Solver, pos: &Position, all: bool) -> Result<Explanation, SolveError> {
    let mut e = explain_plain(solver, pos)?;
    if let Explanation::Mex { pile, smaller, .. } = &mut e {
        if all && *pile <= MOST_SMALLER_LISTED {
            let mut values = Vec::new();
            for p in 0..*pile {
                values.push(solver.value(&Position::new(vec![p]))?.grundy.unwrap_or(0));
            }
            *smaller = Some(values);
        }
    }
    Ok(e)
}

/// The most smaller piles `--all` lists.
const MOST_SMALLER_LISTED: u64 = 10_000;

fn explain_plain(solver: &mut Solver, pos: &Position) -> Result<Explanation, SolveError> {
    let game = solver.game().clone();
    let nonempty = pos.piles.iter().filter(|&&p| p > 0).count();
    match solver.method() {
        MethodKind::PileSum if nonempty <= 1 && pos.piles.len() == 1 => mex(solver, &game, pos),
        MethodKind::PileSum => nim_sum(solver, &game, pos),
        MethodKind::LastBound if pos.last.is_none() => match schwenk(solver, &game, pos)? {
            Some(e) => Ok(e),
            None => options(solver, &game, pos),
        },
        MethodKind::Cells => cells(solver, &game, pos),
        MethodKind::Moore => moore(solver, &game, pos),
        MethodKind::MisereQuotient => match quotient(solver, &game, pos) {
            Err(SolveError::Misere(_)) => options(solver, &game, pos),
            other => other,
        },
        _ => options(solver, &game, pos),
    }
}

/// A misère heap position through the quotient.
fn quotient(solver: &mut Solver, game: &Game, pos: &Position) -> Result<Explanation, SolveError> {
    use crate::solve::misere::presentation::Presentation;
    let limits = &solver.limits().clone();
    let heaps = solver.misere().expect("the misère quotient method has a quotient");
    let total = heaps.element(game, pos, limits)?;
    let mut elements = Vec::new();
    for &p in &pos.piles {
        elements.push(heaps.phi(game, p, limits)?);
    }
    let q = heaps.quotient();
    let m = q.monoid();
    let presentation = Presentation::of(q);
    let word = |x: u32| presentation.word(x);
    let mut running = 0;
    let mut products = Vec::new();
    for &x in &elements {
        running = m.mul(running, x);
        products.push(word(running));
    }
    let outcome = if m.in_p(total) { Outcome::P } else { Outcome::N };
    let p_portion = (0..m.order() as u32).filter(|&x| m.in_p(x)).map(word).collect();
    let generators = presentation.generators.iter().map(|(n, h, _)| format!("{n} = Φ({h})")).collect();
    let relations = presentation
        .relations
        .iter()
        .map(|(l, r)| format!("{} = {}", presentation.exponents(l), presentation.exponents(r)))
        .collect();
    let piles = pos.piles.iter().zip(&elements).map(|(&p, &x)| (p, word(x))).collect();
    let (moves, more_winning) = solver.winning_moves_listed(pos)?;
    let mut winning = Vec::new();
    for mv in moves.iter().take(LISTED) {
        let heaps = solver.misere().expect("the misère quotient method has a quotient");
        let x = heaps.element(game, &mv.to, limits)?;
        winning.push((Step::of(mv), x));
    }
    let heaps = solver.misere().expect("the misère quotient method has a quotient");
    let presentation = Presentation::of(heaps.quotient());
    let computed = heaps.quotient().heaps() - 1;
    let whole_game = heaps.period().is_some();
    let winning = winning.into_iter().map(|(s, x)| (s, presentation.word(x))).collect();
    let big = pos.piles.iter().any(|&p| p > crate::solve::misere::LISTED_PILE);
    let tame_values = tame_values(solver, game, pos, outcome)?;
    let (answers, more_answers) = if outcome == Outcome::P && !big && pos.piles.iter().any(|&p| p > 0) {
        answers(solver, game, pos)?
    } else {
        (Vec::new(), 0)
    };
    Ok(Explanation::Quotient {
        game: game.name.clone(),
        position: pos.piles.clone(),
        piles,
        products,
        product: presentation.word(total),
        p_portion,
        computed,
        whole_game,
        generators,
        relations,
        outcome,
        winning,
        tame_values,
        more_winning,
        answers,
        more_answers,
    })
}

/// Where every pile of the position is tame (and small enough to know it), their normal-play
/// values, which misère Nim's rule decides at once; shown only where it agrees with the quotient.
fn tame_values(
    solver: &mut Solver,
    game: &Game,
    pos: &Position,
    outcome: Outcome,
) -> Result<Option<Vec<u64>>, SolveError> {
    use crate::solve::misere::genus::{misere_nim_rule, pile_genera};
    const TAME_CHECKED: u64 = 200;
    let largest = pos.piles.iter().copied().max().unwrap_or(0);
    if largest > TAME_CHECKED {
        return Ok(None);
    }
    let limits = solver.limits().clone();
    let heaps = solver.misere().expect("the misère quotient method has a quotient");
    let phi: Vec<Option<u32>> = (0..=largest).map(|n| heaps.reduce(n).and_then(|h| heaps.quotient().phi(h))).collect();
    let options_of = |n| crate::solve::misere::heap_options(game, n, &limits);
    let genera = pile_genera(largest as usize + 1, options_of, &phi, 100_000)?;
    let mut values = Vec::new();
    for &p in pos.piles.iter().filter(|&&p| p > 0) {
        match (&genera.genus[p as usize], genera.tame[p as usize]) {
            (Some(g), Some(true)) => values.push(g.normal),
            _ => return Ok(None),
        }
    }
    let agrees = misere_nim_rule(&values) == (outcome == Outcome::P);
    Ok(agrees.then_some(values))
}

/// For every move of a P-position, a winning reply (at most `LISTED` of them).
/// Moore's Nim through the theorem: the binary columns of the piles themselves.
fn moore(solver: &mut Solver, game: &Game, pos: &Position) -> Result<Explanation, SolveError> {
    let moore = solver.moore().expect("Moore's method knows its k");
    let outcome = solver.outcome(pos)?;
    let (moves, more_winning) = solver.winning_moves_listed(pos)?;
    // A P-position's every move gets a reply where the moves are few enough to list.
    let few = moore.move_count(&pos.piles) <= MOORE_ANSWERED_MOVES;
    let (answers, more_answers) =
        if outcome == Outcome::P && few { answers(solver, game, pos)? } else { (Vec::new(), 0) };
    Ok(Explanation::Moore {
        game: game.name.clone(),
        k: moore.k,
        position: pos.piles.clone(),
        columns: columns(&pos.piles),
        outcome,
        winning: moves.iter().map(Step::of).collect(),
        more_winning,
        answers,
        more_answers,
    })
}

/// Moore's Nim P-positions with more moves than this are explained without a reply to each.
const MOORE_ANSWERED_MOVES: u128 = 100_000;

fn answers(solver: &mut Solver, game: &Game, pos: &Position) -> Result<(Vec<Answer>, usize), SolveError> {
    let moves = game.moves(pos, solver.limits().max_states)?;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut more = 0;
    for m in moves {
        if !seen.insert(game.canonical(&m.to)) {
            continue;
        }
        if out.len() >= LISTED {
            more += 1;
            continue;
        }
        let reply = solver.winning_moves(&m.to)?.first().map(Step::of);
        out.push(Answer { played: Step::of(&m), reply });
    }
    Ok((out, more))
}

fn mex(solver: &mut Solver, game: &Game, pos: &Position) -> Result<Explanation, SolveError> {
    let n = pos.piles[0];
    let moves = game.moves(pos, solver.limits().max_states)?;
    let mut options = Vec::new();
    let mut values = Vec::new();
    for m in &moves {
        let mut parts = Vec::new();
        let mut g = 0;
        for &p in m.to.piles.iter().filter(|&&p| p > 0) {
            let v = solver.value(&Position::new(vec![p]))?.grundy.unwrap_or(0);
            parts.push((p, v));
            g ^= v;
        }
        values.push(g);
        options.push(OptionValue { step: Step::of(m), parts, grundy: g });
    }
    values.sort_unstable();
    values.dedup();
    let mex =
        values.iter().enumerate().find(|(i, v)| **v != *i as u64).map(|(i, _)| i as u64).unwrap_or(values.len() as u64);
    let outcome = if mex == 0 { Outcome::P } else { Outcome::N };
    let more_options = options.len().saturating_sub(LISTED);
    options.truncate(LISTED);
    let answers = if outcome == Outcome::P && n > 0 { answers(solver, game, pos)?.0 } else { Vec::new() };
    let unit = unit(game);
    Ok(Explanation::Mex {
        game: game.name.clone(),
        unit,
        pile: n,
        options,
        more_options,
        values,
        mex,
        outcome,
        answers,
        smaller: None,
    })
}

fn nim_sum(solver: &mut Solver, game: &Game, pos: &Position) -> Result<Explanation, SolveError> {
    let mut values = Vec::new();
    for &p in &pos.piles {
        values.push(solver.value(&Position::new(vec![p]))?.grundy.unwrap_or(0));
    }
    let nim_sum = values.iter().fold(0, |a, v| a ^ v);
    let columns = columns(&values);
    let outcome = if nim_sum == 0 { Outcome::P } else { Outcome::N };
    let mut winning = Vec::new();
    let (mut answers_list, mut more_answers) = (Vec::new(), 0);
    if nim_sum != 0 {
        let column = 1u64 << (63 - nim_sum.leading_zeros());
        let all = solver.winning_moves(pos)?;
        let mut seen = std::collections::HashSet::new();
        for (i, (&p, &v)) in pos.piles.iter().zip(&values).enumerate() {
            if v & column == 0 || !seen.insert(p) {
                continue;
            }
            let moves: Vec<Step> = all.iter().filter(|m| moved_pile(m, pos) == Some(i)).map(Step::of).collect();
            winning.push(NimSumMove { column, pile: p, value: v, target: v ^ nim_sum, moves });
        }
    } else {
        (answers_list, more_answers) = answers(solver, game, pos)?;
    }
    Ok(Explanation::NimSum {
        game: game.name.clone(),
        unit: unit(game),
        position: pos.piles.clone(),
        values,
        columns,
        nim_sum,
        outcome,
        winning,
        answers: answers_list,
        more_answers,
    })
}

/// What one part of a sum is called: a pile, or in a coin-turning game a heads coin.
fn unit(game: &Game) -> &'static str {
    if game.board == crate::rules::Board::Coins {
        "coin"
    } else {
        "pile"
    }
}

/// Which pile of `pos` a move changes (for a coin game, which heads coin it turns to tails).
fn moved_pile(m: &Move, pos: &Position) -> Option<usize> {
    use crate::rules::MoveKind;
    match &m.kind {
        MoveKind::Take { pile, .. } | MoveKind::Split { pile, .. } | MoveKind::Add { pile, .. } => Some(*pile),
        MoveKind::Turn { coin, .. } => pos.piles.iter().position(|c| c == coin),
        MoveKind::Cell { cell, .. } => pos.cell_pairs().position(|c| c == *cell),
        MoveKind::TakeSeveral { .. } | MoveKind::Bite { .. } => None,
    }
}

/// Schwenk's explanation, when the game is one of his: the first move may take anything but the
/// whole pile, and the sequence H agrees with the solver. `None` otherwise.
fn schwenk(solver: &mut Solver, game: &Game, pos: &Position) -> Result<Option<Explanation>, SolveError> {
    let Some(mut rule) = LastBound::recognise(game) else {
        return Ok(None);
    };
    let n = pos.piles[0];
    if n == 0 {
        return Ok(None);
    }
    let moves = game.moves(pos, solver.limits().max_states)?;
    let takes: Vec<u64> = moves.iter().map(|m| n - m.to.piles[0]).collect();
    // Compared in place: a pile of 10¹² must not build the list 1..n to compare with.
    if takes.len() as u64 != n - 1 || !takes.iter().zip(1..).all(|(&t, i)| t == i) {
        return Ok(None);
    }
    // H₁ = 1, H_{k+1} = H_k + H_m with m the least j such that f(H_j) ≥ H_k.
    let mut h = vec![1u64];
    while *h.last().expect("h starts with 1") <= n {
        let hk = *h.last().expect("h is not empty");
        let mut m = None;
        for (j, &hj) in h.iter().enumerate() {
            if rule.bound_after(hj)? >= hk as i64 {
                m = Some(j);
                break;
            }
        }
        let Some(m) = m else { return Ok(None) };
        h.push(hk + h[m]);
    }
    h.pop();
    // The greedy representation, smallest term first.
    let mut rest = n;
    let mut representation = Vec::new();
    for &hj in h.iter().rev() {
        if hj <= rest {
            representation.push(hj);
            rest -= hj;
        }
    }
    representation.reverse();
    for w in representation.windows(2) {
        if rule.bound_after(w[0])? >= w[1] as i64 {
            return Ok(None);
        }
    }
    let outcome = solver.outcome(pos)?;
    let is_term = representation.len() == 1;
    if (outcome == Outcome::P) != is_term {
        return Ok(None);
    }
    let f: Vec<i64> = (1..=8u64.min(n)).map(|x| rule.bound_after(x)).collect::<Result<_, _>>()?;
    let (winning, why) = if is_term {
        (
            None,
            format!(
                "{n} is a term of H. The first move may not take the whole pile, and whatever it takes, \
                 the second player can take the smallest term of what is left and keep doing so (Schwenk): \
                 the first player loses."
            ),
        )
    } else {
        let take = representation[0];
        let next = representation[1];
        let after = rule.bound_after(take)?;
        let step = moves.iter().find(|m| n - m.to.piles[0] == take).map(Step::of);
        (
            step,
            format!(
                "Take the smallest term, {take}. The opponent may then take at most f({take}) = {after}, \
                 less than {next}, the smallest term left, so they cannot clear a whole term; whatever \
                 they take, you again take the smallest term of what is left, and you take the last counter."
            ),
        )
    };
    let (answers, more_answers) = if is_term { answers(solver, game, pos)? } else { (Vec::new(), 0) };
    Ok(Some(Explanation::Schwenk {
        game: game.name.clone(),
        pile: n,
        f,
        h,
        representation,
        outcome,
        winning,
        why,
        answers,
        more_answers,
    }))
}

fn options(solver: &mut Solver, game: &Game, pos: &Position) -> Result<Explanation, SolveError> {
    let value = solver.value(pos)?;
    let moves = game.moves(pos, solver.limits().max_states)?;
    // Moves that reach the same position are listed together, so that none is dropped.
    let mut seen: std::collections::HashMap<_, usize> = std::collections::HashMap::new();
    let mut options: Vec<OptionOutcome> = Vec::new();
    let mut more_options = 0;
    for m in &moves {
        let key = game.canonical(&m.to);
        if let Some(&i) = seen.get(&key) {
            if i < options.len() {
                options[i].also.push(m.kind.describe());
            }
            continue;
        }
        seen.insert(key, options.len() + more_options);
        if options.len() >= LISTED {
            more_options += 1;
            continue;
        }
        let v = solver.value(&m.to)?;
        options.push(OptionOutcome { step: Step::of(m), also: Vec::new(), outcome: v.outcome, grundy: v.grundy });
    }
    let (answers, more_answers) =
        if value.outcome == Outcome::P && !moves.is_empty() { answers(solver, game, pos)? } else { (Vec::new(), 0) };
    Ok(Explanation::Options {
        game: game.name.clone(),
        position: pos.piles.clone(),
        outcome: value.outcome,
        grundy: value.grundy,
        options,
        more_options,
        answers,
        more_answers,
        misere: game.convention == crate::vocab::Convention::Misere,
        loopy: game.can_grow(),
        cells: pos.cells,
        last: if game.uses_last { pos.last } else { None },
    })
}

/// A product game's position, cell by cell.
fn cells(solver: &mut Solver, game: &Game, pos: &Position) -> Result<Explanation, SolveError> {
    let product = game.product.as_deref().expect("a game solved cell by cell is a product");
    let [first, second] = &product.parts;
    let cell_value = |solver: &mut Solver, x: u64, y: u64| -> Result<CellValue, SolveError> {
        let grundy = solver.value(&Position::of_cells(vec![x, y]))?.grundy.unwrap_or(0);
        Ok(CellValue { x, y, grundy, factors: solver.cell_factors(x, y)? })
    };
    let canonical = game.canonical(pos);
    let mut cells = Vec::new();
    for (x, y) in canonical.cell_pairs() {
        cells.push(cell_value(solver, x, y)?);
    }
    let (mut options, mut reached, mut more_options) = (Vec::new(), Vec::new(), 0);
    if cells.len() == 1 {
        for m in game.moves(&canonical, solver.limits().max_states)? {
            let mut parts = Vec::new();
            for (x, y) in m.to.cell_pairs() {
                parts.push(cell_value(solver, x, y)?);
            }
            let grundy = parts.iter().fold(0, |acc, p| acc ^ p.grundy);
            reached.push(grundy);
            if options.len() < LISTED {
                options.push(CellOption { step: Step::of(&m), parts, grundy });
            } else {
                more_options += 1;
            }
        }
        reached.sort_unstable();
        reached.dedup();
    }
    let values: Vec<u64> = cells.iter().map(|c| c.grundy).collect();
    let nim_sum = values.iter().fold(0, |a, v| a ^ v);
    let outcome = if nim_sum == 0 { Outcome::P } else { Outcome::N };
    let winning = if nim_sum != 0 { solver.winning_moves(pos)?.iter().map(Step::of).collect() } else { Vec::new() };
    let (answers, more_answers) =
        if nim_sum == 0 && !cells.is_empty() { answers(solver, game, pos)? } else { (Vec::new(), 0) };
    Ok(Explanation::Cells {
        game: game.name.clone(),
        product: format!("the {} product of {} and {}", product.kind.word(), first.game.name, second.game.name),
        games: [first.game.name.clone(), second.game.name.clone()],
        cells,
        options,
        more_options,
        reached,
        columns: columns(&values),
        nim_sum,
        outcome,
        winning,
        answers,
        more_answers,
    })
}

/// The binary columns of some Grundy values, highest first, each with how many 1s it has.
fn columns(values: &[u64]) -> Vec<Column> {
    let top = values.iter().copied().max().unwrap_or(0);
    let width = 64 - top.leading_zeros() as usize;
    (0..width.max(1))
        .rev()
        .map(|bit| {
            let bits: Vec<u8> = values.iter().map(|v| ((v >> bit) & 1) as u8).collect();
            let sum = bits.iter().map(|b| *b as u64).sum();
            Column { value: 1 << bit, bits, sum }
        })
        .collect()
}
