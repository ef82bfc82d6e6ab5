//! Bounded state spaces valued bottom-up: every position below a question numbered densely
//! (mixed radix over a tuple of piles, or a pile beside the previous move's size), each valued
//! after all of its options, from option sets compiled once: no position is built, no move
//! described, no position hashed. The whole-position search stays for what cannot be counted
//! this way (splits, additions, partizan forms, a condition that reads the pile beside `last`).

mod lines;
mod rules;

use crate::wording::{give_value, Argument};
use lines::{least_missing, Line, Seen};
use rules::{Amounts, Set, Sets, TupleRule};

use super::limits::{check_cancel, Work};
use super::{error::approximately, Limits, Outcome, SolveError, Value};
use crate::rules::expr::Var;
use crate::rules::{Board, Convention, Game, MoveError, Position, Rule};

/// Options examined by the grid for one move of the budget: a search lists a move as a position
/// built, hashed and looked up, where the grid reads one number (measured: about 60 times as
/// many options a second as the search's moves, on Wythoff and Mem).
const OPTIONS_PER_MOVE: u64 = 64;

/// An amount or a pair read through the rules' expressions while compiling costs this many
/// options of the grid.
const EVALUATION_OPTIONS: u64 = 16;

/// Cells of a grid for each position a search may remember (4 bytes each, 8 with remoteness).
const CELLS_PER_STATE: usize = 8;

/// The most piles the grid takes: past them the box of every order of the piles is far larger
/// than the sets of piles the search values.
const MOST_PLACES: usize = 8;

/// What one line costs a cell besides its words, in options.
const LINE_STEPS: u64 = 8;

/// Cells sampled to estimate the options of a grid before it is filled.
const SAMPLES: u64 = 512;

/// What a position is in the grid: a tuple of piles, or one pile with the previous move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Tuples,
    History,
}

/// The dense method of one game: its grid, grown as questions need.
pub(crate) struct Dense {
    shape: Shape,
    grid: Option<Grid>,
}

/// The rules compiled for one grid.
enum Compiled {
    Tuples {
        /// the rules whose options are listed one by one (not along a line)
        rules: Vec<TupleRule>,
        /// the places of each line a rule taking every amount moves along
        lines: Vec<Vec<usize>>,
        /// for each rule taking from several piles, the sets of places it may take from (as
        /// lists of places), of the sizes it allows
        places: Vec<Vec<Vec<usize>>>,
        sets: Sets,
    },
    History {
        /// for each column (0: before the first move; then the previous move's size plus one,
        /// or 1 for every later move where only "first or not" is read), the set of each rule
        by_column: Vec<Vec<Set>>,
        sets: Sets,
        uses_last: bool,
    },
}

/// Every position of a box, valued.
struct Grid {
    /// Tuples: the largest pile of each place, ascending. History: the last column, and the
    /// largest pile.
    dims: Vec<u64>,
    strides: Vec<usize>,
    /// Grundy values under normal play; under misère play 0 for P and 1 for N.
    values: Vec<u32>,
    remoteness: Option<Vec<u32>>,
    /// History: whether the column before the first move was valued.
    first_column: bool,
    compiled: Compiled,
    /// the lines of rules that take every amount, kept as the grid is walked
    lines: Vec<Line>,
    misere: bool,
}

impl Dense {
    /// The dense method for a game it can count: impartial takes on a fixed or any number of
    /// piles, or one pile whose rules read the previous move (and not the pile's size).
    pub(crate) fn recognise(game: &Game) -> Option<Dense> {
        if game.product.is_some() || game.is_partizan() {
            return None;
        }
        let all: Vec<&Rule> = game.first_moves.iter().chain(&game.moves).collect();
        if !all.iter().all(|r| rules::fits(r)) {
            return None;
        }
        if game.tracks_history() {
            let one_pile =
                all.iter().all(|r| matches!(&r.kind, crate::rules::RuleKind::Take { piles, .. } if piles.is_one()));
            let reads_n = all.iter().any(|r| rules::reads(r, Var::N));
            return (game.board == Board::OnePile && one_pile && !reads_n)
                .then_some(Dense { shape: Shape::History, grid: None });
        }
        matches!(game.board, Board::FixedPiles(_) | Board::AnyPiles)
            .then_some(Dense { shape: Shape::Tuples, grid: None })
    }

    /// The value of `pos`, or `None` where the grid cannot give it (an amount failed to
    /// evaluate somewhere in the box: the search evaluates only what play reaches).
    pub(crate) fn value(&mut self, game: &Game, pos: &Position, limits: &Limits) -> Result<Option<Value>, SolveError> {
        let Some(cell) = self.cell(game, pos, limits, false)? else { return Ok(None) };
        let grid = self.grid.as_ref().expect("`cell` leaves a grid");
        let v = grid.values[cell];
        Ok(Some(if grid.misere {
            Value { outcome: if v == 0 { Outcome::P } else { Outcome::N }, grundy: None }
        } else {
            Value::from_grundy(v as u64)
        }))
    }

    /// How many moves the game lasts from `pos` under best play (`None` as for `value`).
    pub(crate) fn remoteness(
        &mut self,
        game: &Game,
        pos: &Position,
        limits: &Limits,
    ) -> Result<Option<u64>, SolveError> {
        let Some(cell) = self.cell(game, pos, limits, true)? else { return Ok(None) };
        let grid = self.grid.as_ref().expect("`cell` leaves a grid");
        Ok(grid.remoteness.as_ref().map(|r| r[cell] as u64))
    }

    /// The cell of `pos` in a grid that holds it, filled (with remoteness when asked).
    fn cell(
        &mut self,
        game: &Game,
        pos: &Position,
        limits: &Limits,
        remoteness: bool,
    ) -> Result<Option<usize>, SolveError> {
        let canonical = game.canonical(pos);
        let (want, first) = self.wanted(game, &canonical);
        // Many piles: the box counts every order of them, the search each set once.
        if self.shape == Shape::Tuples && want.len() > MOST_PLACES {
            return Ok(None);
        }
        let fits = self.grid.as_ref().is_some_and(|g| {
            g.dims.len() >= want.len()
                && want.iter().rev().zip(g.dims.iter().rev()).all(|(w, d)| w <= d)
                && (!first || g.first_column)
        });
        if !fits {
            let dims = match (&self.grid, self.shape) {
                (None, _) => want.clone(),
                (Some(old), Shape::Tuples) => grown(&old.dims, &want),
                (Some(old), Shape::History) => {
                    let largest = grown(&old.dims[1..], &want[1..])[0];
                    vec![if game.uses_last { largest + 1 } else { 1 }, largest]
                }
            };
            let first = first || self.grid.as_ref().is_some_and(|g| g.first_column);
            // Three piles or more past the grid's memory: the search values each set of piles
            // once, a sixth of the box or less, and its own bound refuses it at once where that
            // is too many still. (Past the grid's time, the search would take longer yet.)
            if self.shape == Shape::Tuples && dims.len() >= 3 && cells_of(&dims) > most_cells(limits) {
                return Ok(None);
            }
            self.grid = None;
            match Grid::build(game, self.shape, dims, first, limits)? {
                Ok(grid) => self.grid = Some(grid),
                Err(_) => return Ok(None),
            }
        }
        let grid = self.grid.as_mut().expect("a grid was built");
        if remoteness && grid.remoteness.is_none() {
            grid.fill_remoteness(limits)?;
        }
        let coords: Vec<u64> = match self.shape {
            // Zeros in front where the grid has more places than the position.
            Shape::Tuples => std::iter::repeat_n(0, grid.dims.len() - want.len()).chain(want).collect(),
            Shape::History => {
                vec![history_column(game, canonical.last), canonical.piles.first().copied().unwrap_or(0)]
            }
        };
        Ok(Some(coords.iter().zip(&grid.strides).map(|(&c, &s)| c as usize * s).sum()))
    }

    /// The box a position needs (its largest pile of each place, ascending; or its column and
    /// its pile, the pile the slower place so that every option is valued first) and whether it
    /// needs the column before the first move.
    fn wanted(&self, game: &Game, canonical: &Position) -> (Vec<u64>, bool) {
        match self.shape {
            Shape::Tuples => (canonical.piles.clone(), false),
            Shape::History => {
                let n = canonical.piles.first().copied().unwrap_or(0);
                let column = history_column(game, canonical.last);
                // The grid's columns reach the largest take, which is the largest pile.
                let largest = n.max(column.saturating_sub(1));
                (vec![column.max(if game.uses_last { largest + 1 } else { 1 }), largest], canonical.last.is_none())
            }
        }
    }
}

/// The column of a previous move: 0 before the first, then its size plus one, or 1 where the
/// rules read only whether a move was the first.
fn history_column(game: &Game, last: Option<u64>) -> u64 {
    match last {
        None => 0,
        Some(l) if game.uses_last => l.saturating_add(1),
        Some(_) => 1,
    }
}

/// The box that holds both `old` and `want`: a place that grows grows by half at least, so
/// that questions asked one after another (a table's rows) rebuild a few times, not each time.
fn grown(old: &[u64], want: &[u64]) -> Vec<u64> {
    let len = old.len().max(want.len());
    let pad = |v: &[u64]| -> Vec<u64> { std::iter::repeat_n(0, len - v.len()).chain(v.iter().copied()).collect() };
    let (old, want) = (pad(old), pad(want));
    let mut dims: Vec<u64> =
        old.iter().zip(&want).map(|(&o, &w)| if w <= o { o } else { w.max(o.saturating_add(o / 2)) }).collect();
    for i in 1..dims.len() {
        dims[i] = dims[i].max(dims[i - 1]);
    }
    dims
}

impl Grid {
    /// Compiles the rules for the box `dims`, estimates its options, refuses it past the
    /// question's budget, and values every cell. `Ok(Err(_))`: an amount failed to evaluate.
    fn build(
        game: &Game,
        shape: Shape,
        dims: Vec<u64>,
        first_column: bool,
        limits: &Limits,
    ) -> Result<Result<Grid, MoveError>, SolveError> {
        let cells = cells_of(&dims);
        if cells > most_cells(limits) {
            return Err(too_large(cells, None, limits));
        }
        // Compiling reads the rules' expressions for every size (and pair): counted first.
        let compiling = compile_cost(game, shape, &dims);
        refuse_past_budget(cells, compiling, limits)?;
        let at = Position::new(dims.clone());
        let compiled = match Compiled::new(game, shape, &dims, first_column, &at) {
            Ok(c) => c,
            Err(e) => return Ok(Err(e)),
        };
        let cells = cells as usize;
        let mut strides = Vec::with_capacity(dims.len());
        let mut stride = 1usize;
        for &d in &dims {
            strides.push(stride);
            stride *= d as usize + 1;
        }
        let misere = game.convention == Convention::Misere;
        let lines = match &compiled {
            Compiled::Tuples { lines, .. } => {
                lines.iter().map(|places| Line::new(places.clone(), &strides, &dims)).collect()
            }
            Compiled::History { .. } => Vec::new(),
        };
        let mut grid =
            Grid { dims, strides, values: Vec::new(), remoteness: None, first_column, compiled, lines, misere };
        let options = grid.estimate_options(cells);
        refuse_past_budget(cells as u128, compiling + options, limits)?;
        grid.values = vec![0; cells];
        grid.fill_values(limits)?;
        Ok(Ok(grid))
    }

    /// The cells in the order they are valued (every option before its position), and their
    /// coordinates: for tuples every cell, place 0 fastest; for a pile with its previous move,
    /// pile by pile, skipping the column before the first move unless it is wanted.
    fn walk(&self, mut visit: impl FnMut(usize, &[u32]) -> Result<(), SolveError>) -> Result<(), SolveError> {
        let cells = self.strides.last().map_or(1, |s| s * (*self.dims.last().unwrap_or(&0) as usize + 1));
        let mut x = vec![0u32; self.dims.len()];
        for idx in 0..cells {
            let skip = matches!(self.compiled, Compiled::History { .. }) && x[0] == 0 && !self.first_column;
            if !skip {
                visit(idx, &x)?;
            }
            for (place, c) in x.iter_mut().enumerate() {
                if (*c as u64) < self.dims[place] {
                    *c += 1;
                    break;
                }
                *c = 0;
            }
        }
        Ok(())
    }

    /// Estimated options of every cell, from a sample spread over the grid.
    fn estimate_options(&self, cells: usize) -> u128 {
        let samples = (SAMPLES as usize).min(cells);
        let mut counted = 0u128;
        let mut x = vec![0u32; self.dims.len()];
        for k in 0..samples {
            // Spread evenly, the last cell (the question's own, the largest) among them.
            let idx = if samples <= 1 { cells - 1 } else { k * (cells - 1) / (samples - 1) };
            let mut rest = idx;
            for place in (0..self.dims.len()).rev() {
                x[place] = (rest / self.strides[place]) as u32;
                rest %= self.strides[place];
            }
            let mut n = 0u64;
            self.options(idx, &x, &mut |_| n += 1);
            // A line costs a few steps and a word for every 64 values its cells may have.
            let along: u64 = self.lines.iter().map(|l| l.before(&x) as u64).sum();
            n += self.lines.len() as u64 * (LINE_STEPS + along / 64);
            counted += n as u128;
        }
        counted * cells as u128 / samples.max(1) as u128
    }

    /// Calls `f` with the cell of every option of the cell `idx` at `x`.
    #[inline(always)]
    fn options(&self, idx: usize, x: &[u32], f: &mut impl FnMut(usize)) {
        match &self.compiled {
            Compiled::Tuples { rules, places, sets, .. } => {
                tuple_options(rules, places, sets, &self.strides, idx, x, f)
            }
            Compiled::History { by_column, sets, uses_last } => {
                let (column, n) = (x[0] as usize, x[1]);
                let cols = self.strides[1];
                for &set in &by_column[column] {
                    sets.each(set, n, |t| {
                        let to = if *uses_last { t as usize + 1 } else { 1 };
                        f((n - t) as usize * cols + to)
                    });
                }
            }
        }
    }

    /// Values every cell: the mex of its options' Grundy values, or under misère play P
    /// exactly when it has options and none of them is P.
    fn fill_values(&mut self, limits: &Limits) -> Result<(), SolveError> {
        let mut values = std::mem::take(&mut self.values);
        let mut lines = std::mem::take(&mut self.lines);
        let mut on_line: Vec<Vec<Seen>> = vec![Vec::new(); lines.len()];
        let mut at = vec![0usize; lines.len()];
        // Without lines a value seen is stamped with its cell's number, so nothing is cleared;
        // with them the options and the lines meet in one bitset, cleared for each cell.
        let mut seen: Vec<u32> = vec![0; 2];
        let mut bits: Vec<u64> = Vec::new();
        let mut largest = 0u32;
        let mut work = Work::default();
        let mut examined = 0u64;
        let misere = self.misere;
        self.walk(|idx, x| {
            let mut count = 0u64;
            let mut words = 0u64;
            for (l, line) in lines.iter_mut().enumerate() {
                at[l] = line.number(idx, x, &mut on_line[l]);
            }
            let value = if misere {
                let mut to_p = false;
                self.options(idx, x, &mut |child| {
                    count += 1;
                    to_p |= values[child] == 0;
                });
                for (l, line) in lines.iter().enumerate() {
                    if line.before(x) > 0 {
                        count += 1;
                        to_p |= on_line[l][at[l]].values.first().is_some_and(|w| w & 1 == 1);
                    }
                }
                u32::from(count == 0 || to_p)
            } else if lines.is_empty() {
                let stamp = idx as u32 + 1;
                self.options(idx, x, &mut |child| {
                    count += 1;
                    seen[values[child] as usize] = stamp;
                });
                let mut mex = 0;
                while seen[mex] == stamp {
                    mex += 1;
                }
                mex as u32
            } else {
                bits.clear();
                bits.resize(largest as usize / 64 + 1, 0);
                self.options(idx, x, &mut |child| {
                    count += 1;
                    let v = values[child] as usize;
                    bits[v / 64] |= 1 << (v % 64);
                });
                for (l, on) in on_line.iter().enumerate() {
                    let line_bits = &on[at[l]].values;
                    words += line_bits.len() as u64;
                    for (w, b) in bits.iter_mut().zip(line_bits) {
                        *w |= b;
                    }
                }
                least_missing(&bits)
            };
            values[idx] = value;
            for (l, on) in on_line.iter_mut().enumerate() {
                on[at[l]].add(value);
            }
            if value > largest {
                largest = value;
                seen.resize(largest as usize + 2, 0);
            }
            examined += count + 1 + words + lines.len() as u64 * LINE_STEPS;
            if idx & 1023 == 0 {
                work.add((examined / OPTIONS_PER_MOVE) as usize, limits)?;
                examined %= OPTIONS_PER_MOVE;
            }
            Ok(())
        })?;
        self.values = values;
        self.lines = lines;
        Ok(())
    }

    /// How many moves the game lasts from every cell (Steinhaus): the winner hurries to a
    /// P-option, the loser delays.
    fn fill_remoteness(&mut self, limits: &Limits) -> Result<(), SolveError> {
        let mut remoteness = vec![0u32; self.values.len()];
        let mut lines = std::mem::take(&mut self.lines);
        let mut on_line: Vec<Vec<Seen>> = vec![Vec::new(); lines.len()];
        let mut at = vec![0usize; lines.len()];
        let mut work = Work::default();
        let values = &self.values;
        self.walk(|idx, x| {
            for (l, line) in lines.iter_mut().enumerate() {
                at[l] = line.number(idx, x, &mut on_line[l]);
            }
            let p = values[idx] == 0;
            let (mut most, mut least, mut any) = (0u32, u32::MAX, false);
            self.options(idx, x, &mut |child| {
                any = true;
                let r = remoteness[child];
                if p {
                    most = most.max(r);
                } else if values[child] == 0 {
                    least = least.min(r);
                }
            });
            for (l, line) in lines.iter().enumerate() {
                if line.before(x) > 0 {
                    any = true;
                    let on = &on_line[l][at[l]];
                    most = most.max(on.most);
                    least = least.min(on.least_p);
                }
            }
            let r = match (any, p) {
                (false, _) => 0,
                (true, true) => most + 1,
                (true, false) => least.saturating_add(1),
            };
            remoteness[idx] = r;
            for (l, on) in on_line.iter_mut().enumerate() {
                let on = &mut on[at[l]];
                on.most = on.most.max(r);
                if p {
                    on.least_p = on.least_p.min(r);
                }
            }
            if idx & 1023 == 0 {
                work.add(0, limits)?;
                check_cancel(limits)?;
            }
            Ok(())
        })?;
        self.lines = lines;
        self.remoteness = Some(remoteness);
        Ok(())
    }
}

/// The options of a tuple of piles.
#[inline(always)]
fn tuple_options(
    rules: &[TupleRule],
    places: &[Vec<Vec<usize>>],
    sets: &Sets,
    strides: &[usize],
    idx: usize,
    x: &[u32],
    f: &mut impl FnMut(usize),
) {
    for (rule, places) in rules.iter().zip(places) {
        match rule {
            TupleRule::One(amounts) => {
                for (place, &n) in x.iter().enumerate() {
                    if n == 0 {
                        continue;
                    }
                    let stride = strides[place];
                    sets.each(amounts.set(n), n, |t| f(idx - t as usize * stride));
                }
            }
            TupleRule::Same { amounts, .. } => {
                for chosen in places {
                    let cap = chosen.iter().map(|&p| x[p]).min().unwrap_or(0);
                    if cap == 0 {
                        continue;
                    }
                    let step: usize = chosen.iter().map(|&p| strides[p]).sum();
                    sets.each(amounts.set(cap), cap, |t| f(idx - t as usize * step));
                }
            }
            TupleRule::Each { amounts, .. } => {
                for chosen in places {
                    if chosen.iter().any(|&p| x[p] == 0) {
                        continue;
                    }
                    each_combination(sets, amounts, chosen, x, strides, idx, f);
                }
            }
            TupleRule::Pair { by_first } => {
                for i in 0..x.len() {
                    for j in i + 1..x.len() {
                        if x[i] == 0 || x[j] == 0 {
                            continue;
                        }
                        for a in 1..=x[i] {
                            let base = idx - a as usize * strides[i];
                            for &b in &by_first[a as usize] {
                                if b > x[j] {
                                    break;
                                }
                                f(base - b as usize * strides[j]);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Every choice of one amount from each pile of `chosen`, as the cell it leaves.
fn each_combination(
    sets: &Sets,
    amounts: &Amounts,
    chosen: &[usize],
    x: &[u32],
    strides: &[usize],
    base: usize,
    f: &mut impl FnMut(usize),
) {
    match chosen.split_first() {
        None => f(base),
        Some((&place, rest)) => {
            let n = x[place];
            sets.each(amounts.set(n), n, |t| {
                each_combination(sets, amounts, rest, x, strides, base - t as usize * strides[place], f)
            });
        }
    }
}

impl Compiled {
    fn new(game: &Game, shape: Shape, dims: &[u64], first_column: bool, at: &Position) -> Result<Compiled, MoveError> {
        let mut sets = Sets::default();
        match shape {
            Shape::Tuples => {
                let largest = dims.iter().copied().max().unwrap_or(0);
                let mut rules = Vec::new();
                let mut places = Vec::new();
                let mut lines: Vec<Vec<usize>> = Vec::new();
                for rule in &game.moves {
                    let compiled = TupleRule::compile(rule, largest, &mut sets, at)?;
                    let chosen = match &compiled {
                        TupleRule::Same { piles, .. } | TupleRule::Each { piles, .. } => {
                            choices_of_places(dims.len(), piles.min, piles.max)
                        }
                        TupleRule::One(_) => (0..dims.len()).map(|p| vec![p]).collect(),
                        TupleRule::Pair { .. } => Vec::new(),
                    };
                    // Every amount, from one pile or the same from several: along lines.
                    let every = |a: &Amounts| matches!(a, Amounts::Fixed(Set::Range(1, hi)) if *hi as u64 >= largest);
                    let add_line = |line: Vec<usize>| {
                        if !lines.contains(&line) {
                            lines.push(line);
                        }
                    };
                    match &compiled {
                        TupleRule::One(a) | TupleRule::Same { amounts: a, .. } if every(a) => {
                            chosen.into_iter().for_each(add_line);
                        }
                        // Its own amount from each pile: from one pile alone a line, from
                        // several every combination (a box, listed).
                        TupleRule::Each { amounts: a, .. } if every(a) => {
                            let (single, several): (Vec<_>, Vec<_>) = chosen.into_iter().partition(|c| c.len() == 1);
                            single.into_iter().for_each(add_line);
                            if !several.is_empty() {
                                places.push(several);
                                rules.push(compiled);
                            }
                        }
                        _ => {
                            places.push(chosen);
                            rules.push(compiled);
                        }
                    }
                }
                Ok(Compiled::Tuples { rules, lines, places, sets })
            }
            Shape::History => {
                let (columns, largest) = (dims[0] as usize + 1, dims[1]);
                let mut by_column = Vec::with_capacity(columns);
                for column in 0..columns {
                    let (rules, last) = match column {
                        0 if !game.first_moves.is_empty() => (&game.first_moves, None),
                        0 => (&game.moves, None),
                        c if game.uses_last => (&game.moves, Some(c as i64 - 1)),
                        _ => (&game.moves, Some(0)),
                    };
                    let mut column_sets = Vec::with_capacity(rules.len());
                    for rule in rules {
                        match Amounts::compile(rule, largest, true, last, &mut sets, at) {
                            Ok(Amounts::Fixed(set)) => column_sets.push(set),
                            // `recognise` admits no rule that reads the pile's size.
                            Ok(Amounts::BySize(_)) => unreachable!("history rules read no n"),
                            // Before the first move a rule reading `last` may not evaluate:
                            // only a question asked there values that column.
                            Err(_) if column == 0 && !first_column => column_sets.clear(),
                            Err(e) => return Err(e),
                        }
                    }
                    by_column.push(column_sets);
                }
                Ok(Compiled::History { by_column, sets, uses_last: game.uses_last })
            }
        }
    }
}

/// The cells of a box.
fn cells_of(dims: &[u64]) -> u128 {
    dims.iter().try_fold(1u128, |acc, &d| acc.checked_mul(d as u128 + 1)).unwrap_or(u128::MAX)
}

/// The most cells a grid may have: `CELLS_PER_STATE` for each position a search may keep, and
/// numbered in 32 bits.
fn most_cells(limits: &Limits) -> u128 {
    (limits.max_states.saturating_mul(CELLS_PER_STATE) as u128).min(u32::MAX as u128 - 2)
}

/// Every set of `min..=max` of the places `0..k`, each ascending.
fn choices_of_places(k: usize, min: usize, max: usize) -> Vec<Vec<usize>> {
    (1u64..1 << k.min(20))
        .filter(|m| (min..=max).contains(&(m.count_ones() as usize)))
        .map(|m| (0..k).filter(|p| m >> p & 1 == 1).collect())
        .collect()
}

/// What compiling the rules for a box costs, in options of the grid.
fn compile_cost(game: &Game, shape: Shape, dims: &[u64]) -> u128 {
    let largest = dims.iter().copied().max().unwrap_or(0) as u128;
    let rules = game.first_moves.iter().chain(&game.moves);
    let per_rule: u128 = rules
        .map(|r| match &r.kind {
            crate::rules::RuleKind::TakePair => rules::pair_cost(largest as u64),
            _ if shape == Shape::History => (dims[0] as u128 + 1) * (largest + 1),
            _ if rules::reads(r, Var::N) => largest * (largest + 1) / 2 + largest,
            _ => largest + 1,
        })
        .sum();
    per_rule * EVALUATION_OPTIONS as u128
}

/// Refuses a grid whose options, as estimated, pass what the question's time allows.
fn refuse_past_budget(cells: u128, options: u128, limits: &Limits) -> Result<(), SolveError> {
    let moves = options / OPTIONS_PER_MOVE as u128;
    if moves > limits.estimate_moves() as u128 {
        return Err(too_large(cells, Some(options), limits));
    }
    Ok(())
}

fn too_large(cells: u128, options: Option<u128>, limits: &Limits) -> SolveError {
    match options {
        Some(o) => SolveError::TooManyPositions {
            at_least: format!(
                "{} positions, about {} options in all ({}), past the budget of {}",
                approximately(cells as f64),
                approximately(o as f64),
                limits.time_of_moves(o as f64 / OPTIONS_PER_MOVE as f64),
                super::duration_in_words(limits.seconds())
            ),
            advice: format!(
                "ask about a smaller position, or give it longer with {} (a question may examine more with more time)",
                give_value(Argument::Timeout, limits.seconds_for_work(4.0))
            ),
        },
        None => {
            let most = limits.max_states.saturating_mul(CELLS_PER_STATE);
            let states = cells.div_ceil(CELLS_PER_STATE as u128);
            SolveError::TooManyPositions {
                at_least: format!(
                    "{} positions, past the limit of {most} for a grid of every position below it \
                     ({CELLS_PER_STATE} for each of the {} positions a search may keep)",
                    approximately(cells as f64),
                    limits.max_states
                ),
                advice: format!(
                    "ask about a smaller position, or raise the limit with {} (the grid keeps 8 bytes a position: {} MB)",
                    give_value(Argument::MaxStates, states),
                    (cells * 8).div_ceil(1 << 20)
                ),
            }
        }
    }
}
