//! Hostile game files through the typed API: every verb, and a game of play, on mutated files,
//! never crash.

use crate::common::mutate::{bundled_games, mutate, Rng};

/// Every verb of the typed API, and a game of play, on a few hundred mutated game files, in
/// this process (a panic fails the test; the work bound keeps each question short). The seed
/// is fixed, so a failure is replayed by running the test again; TAKEAWAY_FUZZ_VERB_CASES and
/// TAKEAWAY_FUZZ_SEED widen or move the search.
#[test]
fn mutated_game_files_never_crash_any_verb_or_play() {
    use takeaway_core::{
        ask, load_game, position_of, Budget, CompareArgs, ExplainArgs, GameText, NoLibrary, OtherGame, PeriodArgs,
        Play, PlayArgs, Player, PlotArgs, QuotientArgs, Request, Side, SolveArgs, Source, Strength, TableArgs,
    };

    let cases: usize = std::env::var("TAKEAWAY_FUZZ_VERB_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let seed: u64 = std::env::var("TAKEAWAY_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5eed);
    let files = bundled_games();
    let texts: Vec<String> = files.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    let nim_text = texts[files.iter().position(|p| p.ends_with("nim.game")).unwrap()].clone();
    // A hundredth of a second's work, counted, and little memory: each question ends in
    // milliseconds, answered or refused.
    let budget = Budget::new().within(0.01).max_states(20_000);
    let positions = ["10", "3 4", "5 5 5", "1000000000000", "2 18446744073709551615", "0", "", "x"];
    let mut rng = Rng(seed | 1);
    let (mut loaded_count, mut answered) = (0, 0);
    for case in 0..cases {
        let from = rng.below(texts.len());
        let text = mutate(&texts[from], &mut rng);
        let Ok(game) = load_game(Source::new("case", text.clone()), "case", &[], &NoLibrary, &budget) else {
            continue;
        };
        loaded_count += 1;
        let position = positions[rng.below(positions.len())].to_string();
        let p = position.as_str();
        let other = OtherGame::Text(GameText { source: nim_text.clone(), ..Default::default() });
        let requests = [
            Request::Check,
            Request::Solve(SolveArgs { position: p.into(), ..Default::default() }),
            Request::Solve(SolveArgs { position: p.into(), last: Some(rng.below(4) as u64 + 1), ..Default::default() }),
            Request::Explain(ExplainArgs { position: p.into(), all: rng.below(2) == 0, ..Default::default() }),
            Request::Table(TableArgs { upto: [0, 12, 60][rng.below(3)], ..Default::default() }),
            Request::Plot(PlotArgs { upto: [1, 20][rng.below(2)], ..Default::default() }),
            Request::Quotient(QuotientArgs { upto: Some([5, 20][rng.below(2)]) }),
            Request::Period(PeriodArgs { upto: 1_000, checkpoint: None, window: None }),
            Request::Compare(CompareArgs { other, upto: 30, shift: [0, 1, u64::MAX][rng.below(3)] }),
            Request::Play(PlayArgs { position: p.into(), hint: rng.below(2) == 0, ..Default::default() }),
            Request::Play(PlayArgs { position: p.into(), computer: true, ..Default::default() }),
        ];
        for request in &requests {
            match ask(&game, request, &NoLibrary, &budget) {
                Ok(_) => answered += 1,
                Err(failure) => {
                    let code = failure.code();
                    assert!(
                        code.is_some_and(|c| c.starts_with("takeaway::")),
                        "case {case} (seed {seed}, from {:?}): {} failed without a code\n{}",
                        files[from].file_name().unwrap(),
                        request.verb(),
                        cut(&text)
                    );
                    // Every failure renders, with and without colour.
                    assert!(!failure.render(false).is_empty());
                }
            }
        }
        // A few moves of play from the position, when the game takes it.
        if let Ok(start) = position_of(&game, &position, None) {
            let mut play =
                Play::new(&game.game, start, Player::You, Side::Left, Strength { percent: 100, seed }, &budget);
            for _ in 0..3 {
                let Ok(moves) = play.moves() else { break };
                let Some(m) = moves.get(rng.below(moves.len().max(1))).cloned() else { break };
                if play.play(&m).is_err() || play.hint().is_err() || play.computer_move().is_err() {
                    break;
                }
            }
            play.undo();
            let _ = play.status();
        }
    }
    // The mutations leave many files loadable, and most questions on them answered.
    assert!(loaded_count > cases / 4, "only {loaded_count} of {cases} mutated files loaded");
    assert!(answered > loaded_count, "only {answered} answers for {loaded_count} files");
}

fn cut(s: &str) -> String {
    s.chars().take(2000).collect()
}
