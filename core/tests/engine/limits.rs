//! Limits known before the work starts: hopeless questions are refused from an estimate, having
//! computed only a small part of what they need (counted in piles, never in seconds), and the
//! refusals say what would help. Speed itself is measured in the benchmark.

use crate::common;

use takeaway_core::errors::SolveError;
use takeaway_core::Position;
use takeaway_core::{Budget, Solver};

/// The refusal of a question past the limits: the piles computed before it, and its text.
fn refusal(game_text: &str, piles: &[u64]) -> (u64, u64, String) {
    let game = common::game_text(game_text);
    let mut solver = Solver::new(&game, &Budget::new());
    match solver.value(&Position::new(piles.to_vec())) {
        Err(e @ SolveError::TooMuchWork { computed, needed, .. }) => (computed, needed, format!("{e} / {}", help(&e))),
        other => panic!("{piles:?}: expected a refusal from the estimate, got {other:?}"),
    }
}

fn help(e: &SolveError) -> String {
    miette::Diagnostic::help(e).map(|h| h.to_string()).unwrap_or_default()
}

#[test]
fn take_a_prime_at_ten_to_the_fifteen_is_refused_from_the_estimate() {
    let (computed, needed, text) = refusal("piles\nmove: take t where prime(t)\n", &[1_000_000_000_000_000]);
    assert_eq!(needed, 1_000_000_000_000_000);
    // The estimate is made once a thousandth of the budget is spent: a few ten thousand piles.
    assert!(computed <= 1 << 17, "computed {computed} piles before refusing");
    assert!(text.contains("piles up to about"), "{text}");
}

#[test]
fn laskers_nim_at_ten_to_the_twelve_is_refused_from_the_estimate() {
    let game = std::fs::read_to_string(common::games_dir().join("lasker-nim.game")).unwrap();
    let (computed, _, text) = refusal(&game, &[1_000_000_000_000, 5]);
    assert!(computed <= 1 << 16, "computed {computed} piles before refusing");
    // Lasker's Nim is arithmetic-periodic (G(4k+3) = 4k+4, …), which no theorem here proves.
    assert!(text.contains("no period is proven"), "{text}");
}

#[test]
fn a_budget_of_work_that_never_binds_still_refuses_what_cannot_finish() {
    // A library caller may lift the bound on work (the benchmark does): the estimate is still
    // made within a few milliseconds' work, and a pile whose values cannot all be kept is
    // refused before the first one is computed.
    // A trillion seconds' work, counted: the bound on work never binds.
    let unbounded = || Budget::new().within(1e12);
    let prime = common::game_text("piles\nmove: take t where prime(t)\n");
    let mut solver = Solver::new(&prime, &unbounded());
    match solver.value(&Position::new(vec![1_000_000_000_000_000])) {
        Err(SolveError::TooMuchWork { computed, .. }) => assert!(computed <= 1 << 17, "computed {computed}"),
        other => panic!("expected a refusal from the estimate, got {other:?}"),
    }
    // Taking a square costs about n^1.5 to 10^12: the budget holds the work, but not 10^12
    // piles (no theorem proves a period, so none may be skipped).
    let square = common::game_text("piles\nmove: take t where square(t)\n");
    let mut solver = Solver::new(&square, &unbounded());
    match solver.value(&Position::new(vec![1_000_000_000_000])) {
        Err(e @ SolveError::TooManyValues { limit, .. }) => {
            assert_eq!(limit, takeaway_core::internals::piles_allowed(&Budget::new()) as u64);
            assert!(help(&e).contains("no theorem can prove a period"), "{}", help(&e));
        }
        other => panic!("expected a refusal from memory, got {other:?}"),
    }
    assert!(!solver.knows_piles(1 << 20), "a million piles were computed before the refusal");
    // Lasker's Nim at 10^12 keeps a window of its values, so memory allows it; the estimate
    // made after about 2^20 moves refuses it (a day's work) even with that budget.
    let game = std::fs::read_to_string(common::games_dir().join("lasker-nim.game")).unwrap();
    let lasker = common::game_text(&game);
    let mut solver = Solver::new(&lasker, &Budget::new().within(1e8));
    match solver.value(&Position::new(vec![1_000_000_000_000, 5])) {
        Err(SolveError::TooMuchWork { computed, .. }) => assert!(computed <= 1 << 16, "computed {computed}"),
        other => panic!("expected a refusal from the estimate, got {other:?}"),
    }
}

#[test]
fn coin_games_whose_moves_grow_with_the_coin_are_refused_early() {
    for file in ["ruler.game", "mock-turtles.game", "twins.game"] {
        let game = std::fs::read_to_string(common::games_dir().join(file)).unwrap();
        let (computed, _, _) = refusal(&game, &[1_000_000_000_000]);
        assert!(computed <= 1 << 12, "{file}: computed {computed} coins before refusing");
    }
}

#[test]
fn a_period_proven_early_answers_any_pile_whatever_the_estimate() {
    // Subtraction and octal games prove their period long before any estimate is made.
    let game = common::game_text("piles\nmove: take 1..3\n");
    let mut solver = Solver::new(&game, &Budget::new());
    assert_eq!(solver.value(&Position::new(vec![1_000_000_000_000_000_001])).unwrap().grundy, Some(1));
    let game = common::game("kayles.game");
    let mut solver = Solver::new(&game, &Budget::new());
    // Kayles' values have period 12 from n = 71; 10¹⁸ ≡ 4 (mod 12), and G(76) = 1.
    assert_eq!(solver.value(&Position::new(vec![1_000_000_000_000_000_000])).unwrap().grundy, Some(1));
}

#[test]
fn the_estimate_lets_grundys_game_run_where_its_cost_falls_to_linear() {
    // Grundy's game costs about n² per pile early and about n later (its rare values found): the
    // estimate made early must not refuse a run the budget holds. With a budget a hundredth of
    // the default's, the pile that fits is about a hundredth too: 20,000 runs to the end.
    let game = common::game("grundys-game.game");
    let mut solver = Solver::new(&game, &Budget::new().max_states(50_000));
    assert!(solver.value(&Position::new(vec![20_000])).is_ok());
    // … and a pile a hundred times past what fits is refused from the estimate.
    let mut solver = Solver::new(&game, &Budget::new().max_states(50_000));
    assert!(matches!(solver.value(&Position::new(vec![200_000_000])), Err(SolveError::TooMuchWork { .. })));
}

/// A whole-position search refused from its lower bound: no position searched, and the text.
fn search_refusal(game: &takeaway_core::Game, piles: &[u64]) -> String {
    let mut solver = takeaway_core::internals::generic_solver(game, &Budget::new());
    match solver.value(&Position::new(piles.to_vec())) {
        Err(e @ SolveError::TooManyPositions { .. }) => {
            assert_eq!(solver.positions_searched(), 0, "{piles:?}: the search started before the refusal");
            format!("{e} / {}", help(&e))
        }
        other => panic!("{piles:?}: expected a refusal before the search, got {other:?}"),
    }
}

#[test]
fn searches_that_cannot_finish_are_refused_before_they_start() {
    // Wythoff at 10⁶ 10⁶: every position below it is reachable (take any from one pile).
    let wythoff = common::game("wythoff.game");
    let text = search_refusal(&wythoff, &[1_000_000, 1_000_000]);
    assert!(text.contains("at least 5.0·10¹¹ positions"), "{text}");
    // The engine that runs for it values the box of every pair below it, and refuses it from
    // its count of cells before it holds any of them.
    let mut solver = Solver::new(&wythoff, &Budget::new());
    assert_eq!(solver.method(), takeaway_core::MethodKind::Dense);
    match solver.value(&Position::new(vec![1_000_000, 1_000_000])) {
        Err(e @ SolveError::TooManyPositions { .. }) => assert!(e.to_string().contains("1.0·10¹² positions"), "{e}"),
        other => panic!("expected a refusal of the grid, got {other:?}"),
    }
    // At 2.4·10⁶ the root alone has 7.2 million moves: the estimate comes before they are
    // listed (listing them first held a gigabyte and ended in a different refusal).
    let text = search_refusal(&wythoff, &[2_400_000, 2_400_000]);
    assert!(text.contains("positions"), "{text}");
    // The estimate lists only the first moves of each size it reaches: some_moves stops at
    // its limit where moves refuses.
    let pile = Position::new(vec![2_400_000]);
    assert!(wythoff.moves(&pile, 1 << 15).is_err());
    let first = wythoff.some_moves(&pile, 1 << 15).expect("stops at the limit");
    assert!((1 << 15) - 1 <= first.len() && first.len() <= 1 << 15, "{}", first.len());
    assert!(first.iter().all(|m| m.to.piles.len() == 1 && m.to.piles[0] < 2_400_000));
    // At 800 900 the positions fit, but their moves do not: about 1,700 moves each, past what
    // half a minute examines. The positions counted are the sorted pairs a ≤ b with a ≤ 800
    // and b ≤ 900: 801·901 − 800·801/2 = 401,301.
    let text = search_refusal(&wythoff, &[800, 900]);
    assert!(text.contains("moves examined (about 68 s), past the budget of about 30 s"), "{text}");
    assert!(text.contains("give it longer with `\"timeout\": 86`"), "{text}");
    // A search the bound allows still answers: Wythoff's P-positions (⌊kφ⌋, ⌊kφ²⌋).
    let mut solver = Solver::new(&wythoff, &Budget::new());
    assert_eq!(solver.value(&Position::new(vec![21, 34])).unwrap().outcome, takeaway_core::Outcome::P);
    let r_wythoff = common::game("r-wythoff.game");
    search_refusal(&r_wythoff, &[3000, 3000]);
}

/// Cancels its question a moment after the misère quotient starts on a heap (from another
/// thread, as a closed connection does): the heavy heaps of misère Dawson's Kayles take seconds
/// each, and the question must stop within one.
struct CancelAtHeap {
    heap: u64,
    token: takeaway_core::CancelToken,
    at: std::sync::Arc<std::sync::Mutex<Option<std::time::Instant>>>,
}

impl takeaway_core::Reporter for CancelAtHeap {
    fn report(&self, _stage: takeaway_core::Stage, done: u64, _total: u64) {
        if done == self.heap {
            let (token, at) = (self.token.clone(), self.at.clone());
            std::thread::spawn(move || {
                // Past the heap's options, into the quotient's own work on it.
                std::thread::sleep(std::time::Duration::from_millis(300));
                *at.lock().unwrap() = Some(std::time::Instant::now());
                token.cancel();
            });
        }
    }
}

#[test]
fn a_misere_quotient_stops_within_a_heap_when_its_question_is_cancelled() {
    // Heap 33 of misère Dawson's Kayles alone takes seconds (its quotient has order 638).
    let loaded = crate::common::loaded_file("misere-dawsons-kayles.game");
    let token = takeaway_core::CancelToken::new();
    let reporter = std::sync::Arc::new(CancelAtHeap { heap: 33, token: token.clone(), at: Default::default() });
    let budget = takeaway_core::Budget::new()
        .timeout(Some(600.0))
        .cancel(token)
        .progress(takeaway_core::Progress::to(reporter.clone()));
    let request =
        takeaway_core::Request::parse("quotient", serde_json::json!({ "upto": 33 }).as_object().unwrap().clone())
            .expect("a request");
    let answered = takeaway_core::ask(&loaded, &request, &takeaway_core::NoLibrary, &budget);
    let stopped = std::time::Instant::now();
    let Err(failure) = answered else { panic!("the quotient finished although its question was cancelled") };
    assert_eq!(failure.code().as_deref(), Some("takeaway::solve::cancelled"));
    let cancelled_at = reporter.at.lock().unwrap().expect("heap 33 was reached");
    // The work between two looks at the token is well under a millisecond; the heap, seconds.
    let late = stopped - cancelled_at;
    assert!(late < std::time::Duration::from_secs(1), "stopped {late:?} after the cancel");
}

#[test]
fn a_partizan_sum_stops_within_its_forms_when_its_question_is_cancelled() {
    // Thirty piles of 97 of partizan subtraction: adding the piles' forms runs for seconds
    // between the solver's own looks at its token, and the store of forms must look too.
    let loaded = crate::common::loaded_file("partizan-subtraction.game");
    let token = takeaway_core::CancelToken::new();
    let budget = takeaway_core::Budget::new().timeout(Some(600.0)).cancel(token.clone());
    let position = vec!["97"; 30].join(" ");
    let request = takeaway_core::Request::parse(
        "solve",
        serde_json::json!({ "position": position, "remoteness": false }).as_object().unwrap().clone(),
    )
    .expect("a request");
    let cancelled_at = std::sync::Arc::new(std::sync::Mutex::new(None));
    let at = cancelled_at.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(500));
        *at.lock().unwrap() = Some(std::time::Instant::now());
        token.cancel();
    });
    let answered = takeaway_core::ask(&loaded, &request, &takeaway_core::NoLibrary, &budget);
    let stopped = std::time::Instant::now();
    let Err(failure) = answered else { panic!("the sum finished although its question was cancelled") };
    assert_eq!(failure.code().as_deref(), Some("takeaway::solve::cancelled"), "{}", failure.render(false));
    let cancelled_at = cancelled_at.lock().unwrap().expect("cancelled");
    let late = stopped - cancelled_at;
    assert!(late < std::time::Duration::from_secs(1), "stopped {late:?} after the cancel");
}

#[test]
fn a_cancelled_question_stops_in_the_parse_of_a_long_text() {
    // A megabyte of rules takes most of a second to parse; it is parsed a piece at a time and
    // the question's token is read between pieces. Its last line is wrong: parsed whole, the
    // parse error would come first; cancelled at the first look between pieces, the question
    // stops there, before the parse reaches that line.
    let line = "move: take 1..3 where t < 1 + 2 * 3   # a rule\n";
    let source = format!("game \"long\"\npile\n{}move: tkae 1\n", line.repeat((1 << 20) / line.len() - 1));
    let text = takeaway_core::GameText { source, ..Default::default() };
    let whole = takeaway_core::load_text(&text, &takeaway_core::NoLibrary, &takeaway_core::Budget::new());
    assert_eq!(whole.err().and_then(|f| f.code()).as_deref(), Some("takeaway::parse::unexpected"));
    let token = takeaway_core::CancelToken::new();
    let budget = takeaway_core::Budget::new().cancel(token.clone());
    // Cancelled after the first look (before the parse), so that only the pieces see it.
    let looks = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    struct CancelOnSecondLook(std::sync::Arc<std::sync::atomic::AtomicUsize>, takeaway_core::CancelToken);
    impl takeaway_core::Reporter for CancelOnSecondLook {
        fn report(&self, _: takeaway_core::Stage, _: u64, _: u64) {}
        fn poll(&self) {
            if self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 1 {
                self.1.cancel();
            }
        }
    }
    let budget =
        budget.progress(takeaway_core::Progress::to(std::sync::Arc::new(CancelOnSecondLook(looks.clone(), token))));
    let Err(failure) = takeaway_core::load_text(&text, &takeaway_core::NoLibrary, &budget) else {
        panic!("the load finished although its question was cancelled")
    };
    assert_eq!(failure.code().as_deref(), Some("takeaway::solve::cancelled"));
    assert_eq!(
        looks.load(std::sync::atomic::Ordering::SeqCst),
        2,
        "the look before the parse, then one between pieces"
    );
}

#[test]
fn a_table_the_sparse_space_method_makes_linear_is_answered_not_refused() {
    // 0.014 to 2^20: the plain scan's cost grows like n² until the kernel tries the
    // sparse-space method again, past which the rest is nearly linear (the whole table takes
    // about 1.5 s). The estimate from the plain scan alone said 106 s and refused it at 32,768.
    let loaded = crate::common::loaded("game \"0.014\"\npiles\nmove: octal 0.014\n");
    let table = crate::common::table(&loaded, serde_json::json!({ "upto": 1 << 20 }));
    assert_eq!(table.grundy[0].len(), (1 << 20) + 1);
    let defined = crate::common::octal::octal_by_definition([0, 1, 4], 3000);
    for (n, &g) in defined.iter().enumerate() {
        assert_eq!(table.grundy[0][n], Some(g as u64), "pile {n}");
    }
    // A game the method never pays for is still refused from its estimate.
    let loaded = crate::common::loaded("game \"0.564\"\npiles\nmove: octal 0.564\n");
    let request =
        takeaway_core::Request::parse("table", serde_json::json!({ "upto": 1 << 22 }).as_object().unwrap().clone())
            .expect("a request");
    let failure = crate::common::ask(&loaded, &request).expect_err("refused");
    assert!(failure.render(false).contains("takeaway::solve::too_much_work"), "{}", failure.render(false));
}

/// `max_moves` is the limit a long run stops at, named as what it counts: a run of officers
/// (0.6, whose period is unknown) stops at the same pile every time on the same count, goes
/// further on four times the count, and says so.
#[test]
fn a_period_run_stops_where_its_moves_run_out_and_more_moves_take_it_further() {
    use takeaway_core::errors::PeriodError;
    use takeaway_core::{ask, BudgetArgs, Error, NoLibrary, PeriodArgs, Request};
    let game = common::loaded("game \"Officers\"\npiles\nmove: octal 0.6\n");
    let request = Request::Period(PeriodArgs { upto: 1 << 22, checkpoint: None, window: None });
    // Where the run stops, and what it says to go further: it either ran out of moves, or saw
    // from its pace that the values asked for are out of the moves' reach.
    let stopped_at = |moves: u64| -> (u64, String) {
        let budget =
            Budget::from_args(&BudgetArgs { max_moves: Some(moves), ..BudgetArgs::default() }).expect("a budget");
        let failure = ask(&game, &request, &NoLibrary, &budget).expect_err("stopped");
        match &failure.errors[0] {
            Error::Period(PeriodError::Stopped { at, cause: SolveError::PileWorkLimit { .. }, resume }) => {
                (*at, resume.clone())
            }
            Error::Period(PeriodError::Solve(SolveError::PeriodOutOfReach { computed, advice, .. })) => {
                (*computed, advice.clone())
            }
            other => panic!("{other:?}"),
        }
    };
    let (first, advice) = stopped_at(5_000_000);
    assert_eq!(stopped_at(5_000_000), (first, advice.clone()), "the same count stops at the same pile");
    assert!(advice.contains("`\"max_moves\": 20000000`"), "{advice}");
    let (further, _) = stopped_at(20_000_000);
    assert!(further > first, "{further} ≤ {first}");
    // Zero moves is refused as an argument.
    assert!(Budget::from_args(&BudgetArgs { max_moves: Some(0), ..BudgetArgs::default() }).is_err());
}
