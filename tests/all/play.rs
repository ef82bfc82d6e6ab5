//! `takeaway play`, scripted: whole games against the computer as golden files.

use crate::common;

fn play(args: &[&str], script: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let out = common::run_with_script(&all, &format!("plays/{script}"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_slip_an_undo_and_a_win_in_tag() {
    // From 9 (N) taking 2 leaves 7 (N): the win slips; undo and take 1 instead, to 8 (P).
    let out = play(&["games/tag.game", "9"], "tag-slip-then-undo.txt");
    assert!(out.contains("the computer plays take 3 from the pile of 7, to 4"), "the computer hurries:\n{out}");
    assert!(out.ends_with("You win!\n"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn the_computer_starts_and_wins_and_names_the_slip() {
    let out = play(&["games/nim.game", "3", "3", "--first", "computer"], "nim-computer-first.txt");
    assert!(out.contains("The computer wins."), "{out}");
    assert!(out.contains("The win slipped at your move 1"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn a_won_game_of_chomp() {
    // 4×4: the square (2, 2) leaves an L with equal arms; then mirror the computer.
    let out = play(&["games/chomp.game", "4", "4", "4", "4"], "chomp-win.txt");
    assert!(out.ends_with("You win!\n"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn a_drawn_game_goes_round_until_the_draw_slips() {
    // From 4 (a draw) take 1 to 3; the computer keeps the draw by putting one back, and the
    // circle is pointed out. Taking 2 from 4 leaves 2, from which the computer wins.
    let out = play(&["games/take-or-put-back.game", "4"], "put-back-draw-then-slip.txt");
    assert!(out.contains("the computer plays add 1 to the pile of 3, to 4"), "the computer keeps the draw:\n{out}");
    assert!(out.contains("position 4 has come back"), "{out}");
    assert!(out.contains("The draw slipped at your move 3"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn the_computer_wins_misere_kayles_from_piles_too_big_to_search_by_the_quotient() {
    // 20 25 31 is an N-position of misère Kayles; a whole-position search of it does not finish,
    // so every computer move comes from the quotient (a product landing in its P-portion).
    let out = play(
        &["games/misere-kayles.game", "20", "25", "31", "--first", "computer"],
        "misere-kayles-computer-first.txt",
    );
    assert!(out.contains("position 20 25 31: the computer plays take 2 from the pile of 20, to 18 25 31"), "{out}");
    assert!(out.contains("you play take 1 from the pile of 1, to 0"), "you take the last counter, and lose:\n{out}");
    assert!(out.ends_with("The computer wins.\n"), "{out}");
}

#[test]
fn a_move_is_accepted_as_the_list_words_it() {
    let out = play(&["games/nim.game", "5", "7"], "nim-moves-by-words.txt");
    // Words that fit two moves name both; the whole words pick one; case and a full stop do not matter.
    assert!(out.contains("`take 1` fits 2 moves (take 1 from the pile of 5; take 1 from the pile of 7)"), "{out}");
    assert!(out.contains("you play take 3 from the pile of 7, to 5 4\n"), "{out}");
    assert!(out.contains("you play take 1 from the pile of 4"), "{out}");
}

#[test]
fn a_partizan_game_won_as_left_with_hints() {
    let out = play(&["games/partizan-subtraction.game", "9"], "partizan-left-wins.txt");
    assert!(out.ends_with("You (Left) win!\n"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn a_partizan_win_that_slips_is_named() {
    // 6 is an L-position; taking 3 leaves 3, an N-position: Right, moving first, wins.
    let out = play(&["games/partizan-subtraction.game", "6"], "partizan-left-slips.txt");
    assert!(out.contains("The win slipped at your move 1"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn a_partizan_game_played_as_right_against_left_first() {
    let out = play(
        &["games/partizan-one-or-two.game", "4", "--side", "right", "--first", "computer"],
        "partizan-right-loses.txt",
    );
    assert!(out.contains("you are Right") && out.ends_with("The computer (Left) wins.\n"), "{out}");
    insta::assert_snapshot!(out);
}

/// Lost as Right at 6 (Left dominates from 4 on), the hint still names a move: take 3, to 3,
/// where whoever moves first wins, over take 2, to 4, which Left wins either way.
#[test]
fn a_lost_partizan_hint_names_the_move_that_makes_it_hard() {
    let out = play(&["games/partizan-subtraction.game", "6", "--side", "right"], "partizan-hottest-hint.txt");
    assert!(out.contains("Make it hard: take 3 from the pile of 6, to 3, leaves Left a winning move to find"), "{out}");
}

/// In a sum of piles the hint names the hottest pile, where moving first is worth the most:
/// of 8, 4 and 3 in partizan subtraction, 8 (temperature 1/2; 4 and 3 have temperature 0).
#[test]
fn a_partizan_hint_names_the_hottest_pile() {
    let out = play(&["games/partizan-subtraction.game", "8", "4", "3"], "partizan-hottest-hint.txt");
    assert!(out.contains("the hottest pile is the pile of 8: temperature 1/2"), "{out}");
    let temperatures =
        common::takeaway(&["table", "games/partizan-subtraction.game", "--upto", "8", "--format", "json"]);
    let table: serde_json::Value = serde_json::from_str(&temperatures.stdout).expect("JSON");
    let t = |n: usize| table["rows"][n]["temperature"].as_str().map(str::to_string);
    assert_eq!((t(8), t(4), t(3)), (Some("1/2".into()), Some("0".into()), Some("0".into())));
}
