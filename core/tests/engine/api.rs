//! The typed API as a library user meets it: answers are data, failures are diagnostics with
//! codes and places, and each question's budget (cancel token, progress) is its own.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use takeaway_core::{
    load_game, read_game, Answer, Budget, CancelToken, Failure, Loaded, NoLibrary, Position, Progress, Reporter,
    Request, SolveArgs, Source, Stage, TableArgs,
};

fn game(text: &str) -> Loaded {
    load_game(Source::new("test.game", text), "test", &[], &NoLibrary, &Budget::new()).unwrap_or_else(|f| panic!("{f}"))
}

fn ask(game: &Loaded, request: &Request, budget: &Budget) -> Result<Answer, Failure> {
    takeaway_core::ask(game, request, &NoLibrary, budget)
}

fn solve(position: &str) -> Request {
    Request::Solve(SolveArgs { position: position.into(), ..Default::default() })
}

const GRUNDYS_GAME: &str = "game \"Grundy's game\"\npiles\nmove: split unequal\n";

#[test]
fn answers_are_data_bouton_and_a_subtraction_period() {
    let nim = game("game \"Nim\"\npiles\nmove: take any\n");
    let limits = Budget::new();
    // Bouton: 41 ⊕ 163 ⊕ 13 = 135, so the position is N, and 25 ⊕ 28 ⊕ 5 = 0 is P.
    match ask(&nim, &solve("41 163 13"), &limits) {
        Ok(Answer::Solve(r)) => {
            assert_eq!((r.outcome.letter(), r.grundy), ("N", Some(41 ^ 163 ^ 13)));
            for m in &r.winning_moves {
                assert_eq!(m.to.iter().fold(0, |a, b| a ^ b), 0, "{}", m.description);
            }
        }
        other => panic!("{other:?}"),
    }
    match ask(&nim, &solve("25 28 5"), &limits) {
        Ok(Answer::Solve(r)) => assert_eq!((r.outcome.letter(), r.grundy, r.winning_moves.len()), ("P", Some(0), 0)),
        other => panic!("{other:?}"),
    }
    let tag = game("piles\nmove: take 1..3\n");
    match ask(&tag, &Request::Table(TableArgs { upto: 20, ..Default::default() }), &limits) {
        Ok(Answer::Table(t)) => {
            let p: Vec<u64> = t.p_positions.iter().map(|pos| pos[0]).collect();
            assert_eq!(p, vec![0, 4, 8, 12, 16, 20]);
            let period = t.period.expect("a period");
            assert_eq!((period.preperiod, period.period, period.proven), (0, 4, true));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_failure_has_its_code_its_place_and_its_rendering() {
    let failure =
        load_game(Source::new("bad.game", "piles\nmove: tkae 1..3\n"), "bad", &[], &NoLibrary, &Budget::new())
            .unwrap_err();
    assert_eq!(failure.code().as_deref(), Some("takeaway::parse::unexpected"));
    assert_eq!(failure.line_column(), Some((2, 7)));
    assert!(failure.render(false).contains("bad.game:2:7"), "{}", failure.render(false));
    let nim = game("piles\nmove: take any\n");
    let f = ask(&nim, &solve("3 x"), &Budget::new()).unwrap_err();
    assert!(f.code().unwrap().starts_with("takeaway::position::"), "{:?}", f.code());
}

/// Counts what a question reports.
struct Count(AtomicU64);

impl Reporter for Count {
    fn report(&self, _: Stage, _: u64, _: u64) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn two_questions_in_two_threads_are_cancelled_and_reported_independently() {
    let grundy = game(GRUNDYS_GAME);
    // Far past what finishes in the test's time: only a cancel ends it.
    let long = solve("1000000000");
    let (first, second) = (CancelToken::new(), CancelToken::new());
    let (heard_first, heard_second) = (Arc::new(Count(AtomicU64::new(0))), Arc::new(Count(AtomicU64::new(0))));
    let ask = |token: &CancelToken, heard: &Arc<Count>| {
        // A million seconds' work, counted: nothing but the cancel stops it in a test's time.
        let budget = Budget::new().within(1e6).max_states(usize::MAX / 64);
        let budget = budget.cancel(token.clone()).progress(Progress::to(heard.clone()));
        let (game, request) = (grundy.clone(), long.clone());
        std::thread::spawn(move || ask(&game, &request, &budget).map(|_| ()).map_err(|f| f.code()))
    };
    let a = ask(&first, &heard_first);
    let b = ask(&second, &heard_second);
    std::thread::sleep(Duration::from_millis(300));
    first.cancel();
    let a = a.join().expect("the first question's thread");
    assert_eq!(a, Err(Some("takeaway::solve::cancelled".into())));
    // The second question goes on: it is still running after the first has stopped.
    std::thread::sleep(Duration::from_millis(300));
    assert!(!b.is_finished(), "cancelling one question stopped the other");
    assert!(!second.is_cancelled());
    second.cancel();
    assert_eq!(b.join().expect("the second question's thread"), Err(Some("takeaway::solve::cancelled".into())));
    // Each question's progress went to its own sink.
    assert!(heard_first.0.load(Ordering::Relaxed) > 0 && heard_second.0.load(Ordering::Relaxed) > 0);
}

#[test]
fn the_example_program_runs_on_the_typed_api() {
    // `cargo test` builds the examples beside the test binaries' folder.
    let deps = std::env::current_exe().expect("the test binary").parent().expect("its folder").to_path_buf();
    let example = deps.parent().expect("the profile's folder").join("examples").join("library");
    let out = std::process::Command::new(&example).output().unwrap_or_else(|e| panic!("{}: {e}", example.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("P-positions up to 12: [0, 4, 8, 12]"), "{stdout}");
    assert!(stdout.contains("period 4 from n = 0 (proven: true)"), "{stdout}");
    // 7 ⊕ 9 ⊕ 3 of the values 3, 1, 3 of a take-1..3 game: 1, an N-position.
    assert!(stdout.contains("7 9 3: outcome N, Grundy value Some(1)"), "{stdout}");
    assert!(stdout.contains("G(7) = mex{0, 1, 2} = 3"), "{stdout}");
    assert!(stdout.contains("a bad game: Some(\"takeaway::parse::unexpected\") at Some((2, 7))"), "{stdout}");
}

#[test]
fn a_game_against_the_computer_is_a_state_machine() {
    use takeaway_core::{Advice, Kept, Play, Player, Side, Status, Strength};
    // Subtraction {1, 2, 3}: the P-positions are the multiples of 4.
    let tag = game("game \"TAG\"\npile\nmove: take 1..3\n");
    let perfect = Strength { percent: 100, seed: 1 };
    let mut play = Play::new(&tag.game, Position::new(vec![10]), Player::You, Side::Left, perfect, &Budget::new());
    assert_eq!(play.status().unwrap(), Status::ToMove(Player::You));
    match play.hint().unwrap().advice {
        Advice::Win(m) => assert_eq!(m.to.piles, vec![8]),
        other => panic!("{other:?}"),
    }
    // The player slips: 10 → 9 leaves the computer a win, which it takes to 8.
    let moves = play.moves().unwrap();
    let to_nine = moves.iter().find(|m| m.to.piles == vec![9]).unwrap().clone();
    play.play(&to_nine).unwrap();
    assert_eq!(play.status().unwrap(), Status::ToMove(Player::Computer));
    assert_eq!(play.computer_move().unwrap().expect("the computer has a move").to.piles, vec![8]);
    let slip = play.slip().expect("the slip is noted");
    assert_eq!((slip.number, slip.from.piles.clone(), slip.kept), (1, vec![10], Kept::Win));
    // At the P-position 8 every move loses; the hint names one that delays longest: by a brute
    // force of TAG(3)'s remoteness (a win as fast, a loss as slow as it can be), 7, 6 and 5 all
    // take 3 more moves, and the hint is the first listed of them.
    let mut remoteness = [0u64; 9];
    for n in 1..=8usize {
        let options: Vec<u64> = (1..=3.min(n)).map(|t| remoteness[n - t]).collect();
        let to_p: Vec<u64> = (1..=3.min(n)).filter(|t| (n - t) % 4 == 0).map(|t| remoteness[n - t]).collect();
        remoteness[n] = 1 + if n % 4 == 0 { *options.iter().max().unwrap() } else { *to_p.iter().min().unwrap() };
    }
    let longest = (5..=7).map(|n| remoteness[n]).max().unwrap();
    match play.hint().unwrap().advice {
        Advice::Lost { play: Some(m), .. } => {
            assert_eq!(remoteness[m.to.piles[0] as usize], longest);
            assert_eq!(m.to.piles, vec![7]);
        }
        other => panic!("{other:?}"),
    }
    // Undo takes back the computer's move and the player's: back to 10, and the slip is gone.
    assert!(play.undo());
    assert_eq!((play.position().piles.clone(), play.to_move()), (vec![10], Player::You));
    assert!(play.slip().is_none());
    // Played well, the player wins: each turn to a multiple of 4.
    loop {
        match play.status().unwrap() {
            Status::ToMove(Player::You) => {
                let m = match play.hint().unwrap().advice {
                    Advice::Win(m) => m,
                    other => panic!("a win from {:?}: {other:?}", play.position()),
                };
                play.play(&m).unwrap();
            }
            Status::ToMove(Player::Computer) => {
                play.computer_move().unwrap().expect("the computer is to move, so it has a move");
            }
            Status::Over { winner } => {
                assert_eq!(winner, Player::You);
                break;
            }
        }
    }
    assert!(play.slip().is_none());
}

/// The lines of the manual's "Using takeaway as a library", as written there.
#[test]
fn the_manual_library_example_says_what_it_prints() -> Result<(), Failure> {
    let budget = Budget::new();
    let tag = crate::common::games_dir().join("tag.game");
    let game = read_game(&tag, &[], Vec::new(), &budget)?;
    let request = Request::Solve(SolveArgs { position: "10".into(), ..Default::default() });
    if let Answer::Solve(s) = takeaway_core::ask(&game, &request, &NoLibrary, &budget)? {
        assert_eq!((s.outcome.letter(), s.grundy, s.winning_moves[0].to.clone()), ("N", Some(2), vec![8]));
    } else {
        panic!("a solve answers with Answer::Solve");
    }
    let request = Request::Table(TableArgs { upto: 12, ..Default::default() });
    let table = takeaway_core::ask(&game, &request, &NoLibrary, &budget)?;
    assert!(takeaway_core::render::text(&table).contains("P-positions: 0, 4, 8, 12"));
    let chapter = std::fs::read_to_string(crate::common::repository_file("docs/src/library.md")).expect("the chapter");
    for line in [
        "let game = read_game(\"games/tag.game\".as_ref(), &[], Vec::new(), &budget)?;",
        "let request = Request::Solve(SolveArgs { position: \"10\".into(), ..Default::default() });",
        "// N Some(2) [8]",
        "// P-positions: 0, 4, 8, 12",
    ] {
        assert!(chapter.contains(line), "the chapter shows {line}");
    }
    Ok(())
}
