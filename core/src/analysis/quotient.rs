//! `quotient`: a misère heap game's quotient as the literature prints it — generators,
//! relations, the P-portion, Φ(n) for each heap — and how far it was computed and proven.

use crate::wording::{give, Argument};
use miette::Diagnostic;
use serde_json::{json, Value as Json};
use thiserror::Error;

use crate::rules::{Board, Convention, Game};
use crate::solve::misere::presentation::Presentation;
use crate::solve::misere::Proven;
use crate::solve::{SolveError, Solver};

/// Why a misère quotient could not be computed.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum QuotientError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    /// Solving failed; the inner error says why.
    Solve(#[from] SolveError),

    #[error("{game} is played under normal play; a misère quotient describes misère play")]
    #[diagnostic(
        code(takeaway::quotient::normal_play),
        help("add `play misère` to the game; under normal play the Grundy values (`table`) are the whole story")
    )]
    /// Reported as “{game} is played under normal play; a misère quotient describes misère play”.
    NormalPlay {
        /// The game's name.
        game: String,
    },

    #[error("{game} is not a sum of independent heaps, so it has no misère quotient of heaps")]
    #[diagnostic(
        code(takeaway::quotient::not_heaps),
        help("the quotient is for games on `piles` whose every move acts on one pile, with no `last` and no first-move rule")
    )]
    /// Reported as “{game} is not a sum of independent heaps, so it has no misère quotient of heaps”.
    NotHeaps {
        /// The game's name.
        game: String,
    },
}

impl QuotientError {
    /// What kind of failure this is.
    pub(crate) fn kind(&self) -> crate::vocab::FailureKind {
        match self {
            QuotientError::Solve(e) => e.kind(),
            QuotientError::NormalPlay { .. } | QuotientError::NotHeaps { .. } => crate::vocab::FailureKind::Question,
        }
    }
}

/// The quotient of heaps 0..=computed.
#[derive(Debug, Clone, PartialEq)]
pub struct QuotientReport {
    /// The game's name.
    pub game: String,
    /// The largest heap computed.
    pub computed: u64,
    /// The bound asked for (`None`: until a period is proven).
    pub asked: Option<u64>,
    /// The quotient's generators and relations.
    pub presentation: Presentation,
    /// The number of elements of the quotient.
    pub order: usize,
    /// The elements that are P-positions.
    pub p_portion: Vec<u32>,
    /// The quotient element of each heap size.
    pub phi: Vec<u32>,
    /// The quotient's multiplication table.
    pub table: Vec<Vec<u32>>,
    /// How the quotient was proven complete, if it was.
    pub proven: Option<Proven>,
    /// Why the computation stopped, if it stopped early.
    pub stopped: Option<String>,
}

/// The heaps a quotient asked for without a bound covers first; it goes on, doubling, while no
/// period is proven, up to `MOST_QUOTIENT_HEAPS`.
pub(crate) const QUOTIENT_HEAPS: u64 = crate::defaults::QUOTIENT_HEAPS;

/// The most heaps a quotient asked for without a bound goes to in search of its period.
pub(crate) const MOST_QUOTIENT_HEAPS: u64 = crate::defaults::MOST_QUOTIENT_HEAPS;

/// The quotient of heaps 0..=upto, or with no bound, until its period is proven (within the
/// question's budget). Where the budget of work runs out after some heaps, the quotient of the
/// heaps computed is the answer, with the heap and the budget that stopped it.
pub(crate) fn quotient(solver: &mut Solver, upto: Option<u64>) -> Result<QuotientReport, QuotientError> {
    let game: &Game = solver.game();
    let name = game.name.clone();
    if game.convention != Convention::Misere {
        return Err(QuotientError::NormalPlay { game: name });
    }
    if !game.is_heap_sum() || !matches!(game.board, Board::AnyPiles | Board::OnePile) || game.can_grow() {
        return Err(QuotientError::NotHeaps { game: name });
    }
    let limits = &solver.limits().clone();
    // A solver built for another method (a whole-position search) has no quotient to report.
    let Some(misere) = solver.misere() else { return Err(QuotientError::NotHeaps { game: name }) };
    let (mut target, most) = match upto {
        Some(n) => (n, n),
        None => (QUOTIENT_HEAPS, MOST_QUOTIENT_HEAPS),
    };
    let mut out_of_work = None;
    loop {
        match misere.extend(game, target, limits) {
            Ok(()) => {}
            // Out of work after some heaps: the quotient of those is an answer, said as such.
            Err(SolveError::StateLimit { .. }) if misere.quotient().heaps() > 1 => {
                out_of_work = Some(misere.work_stop(limits));
                misere.finish_period(game);
                break;
            }
            Err(e) => return Err(e.into()),
        }
        misere.finish_period(game);
        let q = misere.quotient();
        if misere.period().is_some() || q.stopped().is_some() || target >= most || q.heaps() <= target {
            break;
        }
        target = target.saturating_mul(2).min(most);
    }
    let q = misere.quotient();
    let presentation = Presentation::of(q);
    let order = q.monoid().order();
    let table = (0..order as u32).map(|x| (0..order as u32).map(|y| q.monoid().mul(x, y)).collect()).collect();
    Ok(QuotientReport {
        game: name,
        computed: q.heaps() - 1,
        asked: upto,
        order,
        p_portion: (0..order as u32).filter(|&x| q.monoid().in_p(x)).collect(),
        phi: q.phis().to_vec(),
        table,
        presentation,
        proven: misere.period(),
        stopped: q.stopped().map(|s| s.describe()).or(out_of_work),
    })
}

impl QuotientReport {
    /// The quotient as a reader sees it.
    pub(crate) fn to_text(&self) -> String {
        let p = &self.presentation;
        let mut out = format!("{}: misère quotient of heaps 0..{}\n", self.game, self.computed);
        out.push_str(&format!("order {}, P-portion of {} elements\n", self.order, self.p_portion.len()));
        let gens: Vec<String> = p.generators.iter().map(|(name, heap, _)| format!("{name} = Φ({heap})")).collect();
        out.push_str(&format!("generators: {}\n", if gens.is_empty() { "none".into() } else { gens.join(", ") }));
        let rels: Vec<String> =
            p.relations.iter().map(|(l, r)| format!("{} = {}", p.exponents(l), p.exponents(r))).collect();
        out.push_str(&format!("relations: {}\n", if rels.is_empty() { "none".into() } else { rels.join(", ") }));
        let ps: Vec<String> = self.p_portion.iter().map(|&x| p.word(x)).collect();
        out.push_str(&format!("P-portion: {}\n", ps.join(", ")));
        out.push_str("Φ(n), the element a heap of n pretends to be:\n");
        for (row, chunk) in self.phi.chunks(10).enumerate() {
            let words: Vec<String> = chunk.iter().map(|&x| p.word(x)).collect();
            let from = row * 10;
            out.push_str(&format!("  {:>4}–{:<4} {}\n", from, from + chunk.len() - 1, words.join("  ")));
        }
        match (&self.proven, &self.stopped) {
            (Some(pr), _) => out.push_str(&format!(
                "period: Φ(n + {}) = Φ(n) for every n ≥ {}, proven: the periodicity theorem needs Φ up to 2·{} + 2·{} + t = {} (t the most a move takes), computed to {}; every larger heap adds nothing new, so this is the quotient of the whole game\n",
                pr.period, pr.preperiod, pr.preperiod, pr.period, pr.needed, pr.computed
            )),
            (None, Some(reason)) => out.push_str(&format!(
                "stopped: {reason}; the quotient above holds for sums of heaps up to {}\n",
                self.computed
            )),
            (None, None) => out.push_str(&format!(
                "no period proven up to heap {}: this is the quotient of sums of heaps up to {} (ask for more with {})\n",
                self.computed,
                self.computed,
                give(Argument::Upto)
            )),
        }
        out
    }

    /// The quotient as JSON.
    pub(crate) fn to_json(&self) -> Json {
        let p = &self.presentation;
        json!({
            "game": self.game,
            "computed_to": self.computed,
            "order": self.order,
            "elements": (0..self.order as u32).map(|x| p.word(x)).collect::<Vec<_>>(),
            "generators": p.generators.iter().map(|(name, heap, x)| json!({"name": name, "heap": heap, "element": x})).collect::<Vec<_>>(),
            "relations": p.relations.iter().map(|(l, r)| format!("{} = {}", p.exponents(l), p.exponents(r))).collect::<Vec<_>>(),
            "multiplication": self.table,
            "p_portion": self.p_portion,
            "phi": self.phi,
            "period": self.proven.map(|pr| json!({
                "preperiod": pr.preperiod, "period": pr.period, "needed": pr.needed, "proven": true
            })),
            "stopped": self.stopped,
        })
    }
}
