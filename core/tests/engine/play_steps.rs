//! A step of play as every front end asks it: each listed move and each position passed marked
//! with what it means for the player, its remoteness and its value, checked against brute
//! force written here; partizan games played as Left or Right; misère play; a previous move.

use std::collections::HashMap;

use serde_json::{json, Value};
use takeaway_core::answers::{ForPlayer, PlayStep};
use takeaway_core::{ask, Answer, Budget, NoLibrary, Request};

use crate::common::loaded_file;

fn step(file: &str, args: Value) -> PlayStep {
    let loaded = loaded_file(file);
    let request = Request::parse("play", args.as_object().expect("an object").clone()).expect("a request");
    match ask(&loaded, &request, &NoLibrary, &Budget::new()) {
        Ok(Answer::Play(s)) => s,
        Ok(other) => panic!("not a step: {other:?}"),
        Err(f) => panic!("{file} {args}: {f}"),
    }
}

/// A subtraction game's outcome and remoteness by brute force: (the mover wins, moves left
/// with the winner hurrying and the loser delaying).
fn subtraction(n: usize, takes: &[usize], misere: bool) -> Vec<(bool, u64)> {
    let mut out: Vec<(bool, u64)> = Vec::with_capacity(n + 1);
    for k in 0..=n {
        let options: Vec<(bool, u64)> = takes.iter().filter(|&&t| t <= k).map(|&t| out[k - t]).collect();
        out.push(if options.is_empty() {
            (misere, 0)
        } else if let Some(r) = options.iter().filter(|o| !o.0).map(|o| o.1).min() {
            (true, r + 1)
        } else {
            (false, options.iter().map(|o| o.1).max().unwrap_or(0) + 1)
        });
    }
    out
}

#[test]
fn each_move_of_tag_says_its_result_remoteness_and_grundy_value() {
    let truth = subtraction(40, &[1, 2, 3], false);
    for n in 1..=40u64 {
        let s = step("tag.game", json!({ "position": n.to_string() }));
        assert_eq!(s.moves.len(), n.min(3) as usize);
        for m in &s.moves {
            let to = m.to[0] as usize;
            let (mover_wins, remoteness) = truth[to];
            // The one who moves there wins exactly when the player then to move loses.
            let expected = if mover_wins { ForPlayer::Lose } else { ForPlayer::Win };
            assert_eq!(m.result, expected, "{n} → {to}");
            assert_eq!(m.remoteness, Some(remoteness), "{n} → {to}");
            assert_eq!(m.value.as_deref(), Some((to % 4).to_string().as_str()), "TAG's Grundy value is n mod 4");
        }
        let start = &s.positions[0];
        assert_eq!(start.for_you, if truth[n as usize].0 { ForPlayer::Win } else { ForPlayer::Lose });
        assert_eq!(start.remoteness, Some(truth[n as usize].1));
    }
}

#[test]
fn a_step_lists_every_position_it_passed_as_the_player_saw_it() {
    // 10 → 9 lets the win go; the computer answers 9 → 8: the player then loses.
    let s = step("tag.game", json!({ "position": "10", "to": "9" }));
    let seen: Vec<(Vec<u64>, Option<&str>, ForPlayer)> =
        s.positions.iter().map(|p| (p.position.clone(), p.to_move, p.for_you)).collect();
    assert_eq!(
        seen,
        vec![
            (vec![10], Some("you"), ForPlayer::Win),
            (vec![9], Some("computer"), ForPlayer::Lose),
            (vec![8], Some("you"), ForPlayer::Lose),
        ]
    );
    // The game's end: from 3 the player takes 3 and has won.
    let end = step("tag.game", json!({ "position": "3", "to": "0" }));
    assert!(end.over);
    assert_eq!(end.winner, Some("you"));
    assert_eq!(end.positions.last().map(|p| (p.to_move, p.for_you)), Some((None, ForPlayer::Win)));
}

#[test]
fn misere_moves_are_judged_by_misere_outcomes() {
    // Misère subtraction {1, 2, 3}: the player who takes the last counter loses.
    let truth = subtraction(30, &[1, 2, 3], true);
    for n in 1..=30u64 {
        let s = step("misere-subtraction-1-2-3.game", json!({ "position": n.to_string() }));
        for m in &s.moves {
            let to = m.to.first().copied().unwrap_or(0) as usize;
            let expected = if truth[to].0 { ForPlayer::Lose } else { ForPlayer::Win };
            assert_eq!(m.result, expected, "misère {n} → {to}");
            assert_eq!(m.remoteness, Some(truth[to].1), "misère {n} → {to}");
        }
    }
}

/// Partizan subtraction L{1,3} R{2,3} on sums of piles, by brute force: whether the side
/// (Left when true), moving first, wins under normal play.
fn partizan_wins(piles: &[u64], left: bool, memo: &mut HashMap<(Vec<u64>, bool), bool>) -> bool {
    let mut key: Vec<u64> = piles.iter().copied().filter(|&p| p > 0).collect();
    key.sort_unstable();
    if let Some(&w) = memo.get(&(key.clone(), left)) {
        return w;
    }
    let takes: &[u64] = if left { &[1, 3] } else { &[2, 3] };
    let mut wins = false;
    for i in 0..key.len() {
        for &k in takes {
            if k <= key[i] {
                let mut after = key.clone();
                after[i] -= k;
                wins |= !partizan_wins(&after, !left, memo);
            }
        }
    }
    memo.insert((key, left), wins);
    wins
}

/// The moves left with best play in partizan subtraction (Left takes 1 or 3, Right 2 or 3),
/// `left` moving first, by brute force over every line of play: a side with no move has lost
/// (none left); a winner takes the quickest win, a loser the longest loss.
fn partizan_remoteness(piles: &[u64], left: bool) -> u64 {
    fn go(piles: &[u64], left: bool) -> (bool, u64) {
        let takes: &[u64] = if left { &[1, 3] } else { &[2, 3] };
        let mut wins: Vec<u64> = Vec::new();
        let mut losses: Vec<u64> = Vec::new();
        for i in 0..piles.len() {
            for &k in takes.iter().filter(|&&k| k <= piles[i]) {
                let mut after = piles.to_vec();
                after[i] -= k;
                let (they_win, r) = go(&after, !left);
                if they_win {
                    losses.push(r)
                } else {
                    wins.push(r)
                }
            }
        }
        match (wins.iter().min(), losses.iter().max()) {
            (Some(&r), _) => (true, r + 1),
            (None, Some(&r)) => (false, r + 1),
            (None, None) => (false, 0),
        }
    }
    go(piles, left).1
}

#[test]
fn a_partizan_game_is_played_as_either_side() {
    let mut memo = HashMap::new();
    for (position, side) in [("6", "Left"), ("6", "Right"), ("2 3", "Right"), ("5 2", "Left"), ("3", "Right")] {
        let s = step("partizan-subtraction.game", json!({ "position": position, "side": side }));
        assert_eq!(s.side, Some(side));
        let left = side == "Left";
        for m in &s.moves {
            // The mover wins exactly when the other side, moving first from there, loses.
            let wins = !partizan_wins(&m.to, !left, &mut memo);
            assert_eq!(m.result, if wins { ForPlayer::Win } else { ForPlayer::Lose }, "{side} {position} → {:?}", m.to);
            assert!(m.value.is_some(), "a canonical value for each move");
            // Its remoteness, counted by brute force: the winner hurries, the loser delays.
            assert_eq!(m.remoteness, Some(partizan_remoteness(&m.to, !left)), "{side} {position} → {:?}", m.to);
        }
        let piles: Vec<u64> = position.split(' ').map(|p| p.parse().unwrap()).collect();
        let start = &s.positions[0];
        let wins = partizan_wins(&piles, left, &mut memo);
        assert_eq!(start.for_you, if wins { ForPlayer::Win } else { ForPlayer::Lose }, "{side} at {position}");
        assert_eq!(start.remoteness, Some(partizan_remoteness(&piles, left)), "{side} at {position}");
    }
    // Values from the game file's theory: a pile of 5 is {1|1,{1|0}||0,{1|0}|0}, and moving
    // first at 8 is worth 1/2 (mean and temperature 1/2).
    let s = step("partizan-subtraction.game", json!({ "position": "6", "side": "Left" }));
    let to_five = s.moves.iter().find(|m| m.to == vec![5]).expect("take 1");
    assert_eq!(to_five.value.as_deref(), Some("{1|1,{1|0}||0,{1|0}|0}"));
    let eight = step("partizan-subtraction.game", json!({ "position": "8", "side": "Right" }));
    assert_eq!(
        (eight.positions[0].mean.as_deref(), eight.positions[0].temperature.as_deref()),
        (Some("1/2"), Some("1/2"))
    );
}

/// A partizan hint names a winning move where brute force finds one (the other side, moving
/// first from where it leads, loses), says `lost` where it finds none, and names the hottest
/// pile of a sum: of 8 and 1, the 8 at temperature 1/2 (the game file's theory), the 1 being a
/// number; a single pile has none to name.
#[test]
fn a_partizan_hint_wins_where_brute_force_can_and_names_the_hottest_pile() {
    let mut memo = HashMap::new();
    for (position, side) in
        [("6", "Left"), ("6", "Right"), ("2 3", "Right"), ("5 2", "Left"), ("2 2", "Left"), ("1 2", "Right")]
    {
        let s = step("partizan-subtraction.game", json!({ "position": position, "side": side, "hint": true }));
        let hint = s.hint.expect("a hint");
        let left = side == "Left";
        let piles: Vec<u64> = position.split(' ').map(|p| p.parse().unwrap()).collect();
        if partizan_wins(&piles, left, &mut memo) {
            assert_eq!(hint.kind, "win", "{side} at {position}");
            let to = hint.to.expect("the winning move's position");
            assert!(!partizan_wins(&to, !left, &mut memo), "{side} at {position}: {to:?} is no win");
        } else {
            assert_eq!(hint.kind, "lost", "{side} at {position}");
        }
        match (piles.len(), hint.hottest) {
            (1, None) => {}
            (2, Some(hottest)) => assert!(piles.contains(&hottest.pile), "{side} at {position}: {hottest:?}"),
            (_, other) => panic!("{side} at {position}: {other:?}"),
        }
    }
    // A hundred piles are too large to search: the hint is the hottest pile's best move, in a
    // pile n ≡ 2 mod 3 (temperature 1/2 there), by one of Left's takes.
    let piles: Vec<String> = (9901..=10000).map(|n: u32| n.to_string()).collect();
    let s = step("partizan-subtraction.game", json!({ "position": piles.join(" "), "side": "Left", "hint": true }));
    let hint = s.hint.expect("a hint");
    let words = hint.words.expect("a move");
    assert_eq!(hint.kind, "temperature");
    assert_eq!(words.rsplit(' ').next().and_then(|p| p.parse::<u32>().ok()).map(|p| p % 3), Some(2), "{words}");
    assert!(words.starts_with("take 1 ") || words.starts_with("take 3 "), "{words}");
    // The computer, as Right, moves there too.
    let s = step("partizan-subtraction.game", json!({ "position": piles.join(" "), "side": "Left", "computer": true }));
    let words = s.computer.expect("the computer moves").words;
    assert_eq!(words.rsplit(' ').next().and_then(|p| p.parse::<u32>().ok()).map(|p| p % 3), Some(2), "{words}");
    assert!(words.starts_with("take 2 ") || words.starts_with("take 3 "), "{words}");
    let eight = step("partizan-subtraction.game", json!({ "position": "1 8", "side": "Left", "hint": true }));
    let hottest = eight.hint.and_then(|h| h.hottest).expect("the hottest pile");
    assert_eq!((hottest.pile, hottest.temperature.as_str()), (8, "1/2"));
}

/// Where no move wins, the partizan hint still names a move, and one that leaves the opponent a
/// winning move to find (to where whoever moves first wins, by brute force) wherever there is
/// one: every pair of piles up to 7, as Left and as Right.
#[test]
fn a_lost_partizan_hint_leaves_the_opponent_a_win_to_find() {
    let mut memo = HashMap::new();
    let (mut lost, mut resisting) = (0, 0);
    for (a, b) in (0..=7u64).flat_map(|a| (a..=7).map(move |b| (a, b))) {
        for (side, left) in [("Left", true), ("Right", false)] {
            let piles = [a, b];
            let takes: &[u64] = if left { &[1, 3] } else { &[2, 3] };
            // Positions as the step writes them: the piles left, empty ones dropped, in order.
            let written = |mut to: Vec<u64>| {
                to.retain(|&p| p > 0);
                to.sort_unstable();
                to
            };
            let options: Vec<Vec<u64>> = (0..2)
                .flat_map(|i| takes.iter().filter(move |&&k| k <= piles[i]).map(move |&k| (i, k)))
                .map(|(i, k)| {
                    let mut to = piles.to_vec();
                    to[i] -= k;
                    written(to)
                })
                .collect();
            if options.is_empty() || partizan_wins(&piles, left, &mut memo) {
                continue;
            }
            lost += 1;
            let position = format!("{a} {b}");
            let s = step("partizan-subtraction.game", json!({ "position": position, "side": side, "hint": true }));
            let hint = s.hint.expect("a hint");
            assert_eq!(hint.kind, "lost", "{side} at {position}");
            let to = written(hint.to.expect("a move to play anyway"));
            assert!(options.contains(&to), "{side} at {position}: {to:?} is not a move");
            // Whoever moves first from there wins: the opponent does (the position is lost),
            // and so would the side that moved, had it the move.
            let first_wins = |to: &Vec<u64>, memo: &mut HashMap<_, _>| partizan_wins(to, left, memo);
            let some_resist = options.iter().any(|o| first_wins(o, &mut memo));
            assert_eq!(first_wins(&to, &mut memo), some_resist, "{side} at {position}: {to:?}");
            resisting += usize::from(some_resist);
            // And of those moves (resisting, or all where none resists) the one that lasts
            // longest, by brute-force remoteness with the opponent moving next.
            let longest = options
                .iter()
                .filter(|o| !some_resist || first_wins(o, &mut memo))
                .map(|o| partizan_remoteness(o, !left))
                .max();
            assert_eq!(Some(partizan_remoteness(&to, !left)), longest, "{side} at {position}: {to:?}");
        }
    }
    // The check has both kinds of lost positions to look at.
    assert!(lost > resisting && resisting > 0, "{lost} lost, {resisting} with a resisting move");
}

#[test]
fn the_computer_plays_the_other_side_and_a_partizan_game_ends() {
    let mut memo = HashMap::new();
    // As Right from 2 3 (Right moving first loses: Left dominates), every move the player makes
    // is answered by Left's, until Right has no move.
    let mut position = "2 3".to_string();
    for _ in 0..10 {
        let s = step("partizan-subtraction.game", json!({ "position": position, "side": "Right" }));
        if s.over {
            assert_eq!(s.winner, Some("computer"));
            return;
        }
        let m = &s.moves[0];
        let after = step(
            "partizan-subtraction.game",
            json!({ "position": position, "side": "Right", "to": m.to.iter().map(u64::to_string).collect::<Vec<_>>().join(" ") }),
        );
        if let Some(c) = &after.computer {
            // The computer, playing perfectly as Left, moves to where Right moving first loses
            // whenever it can.
            let could = after.positions[1].for_you == ForPlayer::Lose;
            if could {
                assert!(!partizan_wins(&c.to, false, &mut memo), "Left's reply {:?} keeps its win", c.to);
            }
        }
        if after.over {
            assert_eq!(after.winner, Some("computer"), "Left wins from 2 3 whoever starts");
            return;
        }
        position = after.position.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    }
    panic!("the game did not end");
}

#[test]
fn a_game_that_reads_the_previous_move_carries_it() {
    // Take fewer than twice the previous move: 10 with a previous move of 1 allows only 1.
    let s = step("take-less-than-twice.game", json!({ "position": "10", "last": 1 }));
    assert_eq!(s.moves.len(), 1);
    assert_eq!(s.moves[0].last, Some(1));
    let after = step("take-less-than-twice.game", json!({ "position": "10", "last": 3, "to": "7" }));
    let c = after.computer.as_ref().expect("the computer answers");
    assert_eq!(after.last, c.last, "the step's previous move is the computer's");
    assert!(c.last.unwrap() < 2 * 3, "the computer takes fewer than twice 3");
}
