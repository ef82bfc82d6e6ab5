//! The formatter (`takeaway fmt`, an editor's "format document") on random game texts spaced,
//! commented and joined every way the language allows: the formatted text says the same game
//! (the same values), formatting it again changes nothing, and every shipped game file is
//! already formatted.

use proptest::prelude::*;
use takeaway_core::text::format;
use takeaway_core::{Budget, Position, Solver};

use crate::common;
use crate::dense::{history_game, tuple_game};

/// `text` spaced and laid out the ways a writer might: runs of spaces and tabs, no space after
/// a comma, spaces around `..` and before `:`, comments after lines and on their own, blank
/// lines, two statements joined by `;`. `choices` decides each.
fn messed(text: &str, choices: &[u8]) -> String {
    let mut pick = choices.iter().copied().cycle();
    let mut out = String::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let mut line = line.to_string();
        line = match pick.next().unwrap_or(0) % 4 {
            0 => line.replace(", ", ","),
            1 => line.replace("..", " .. ").replace(':', " :"),
            2 => line.replace(' ', "  \t "),
            _ => line,
        };
        out.push_str(&line);
        match pick.next().unwrap_or(0) % 5 {
            0 => out.push_str("   # why this rule\n"),
            1 => out.push_str("\n\n\n# a note on its own\n"),
            2 if i + 1 < lines.len() => out.push_str(" ; "),
            _ => out.push('\n'),
        }
    }
    out
}

/// The values of the game of `text` at `positions`, or why it did not load.
fn values(text: &str, positions: &[Position]) -> Result<Vec<String>, String> {
    let game = takeaway_core::load(text, "random", &[]).map_err(|e| format!("{e:?}"))?;
    let mut solver = Solver::new(&game, &Budget::new().max_states(200_000));
    Ok(positions.iter().map(|p| format!("{:?}", solver.value(p))).collect())
}

fn same_game(text: &str, positions: &[Position], choices: &[u8]) -> Result<(), TestCaseError> {
    let messy = messed(text, choices);
    let formatted = format(&messy).map_err(|e| TestCaseError::fail(format!("{e:?}\n{messy}")))?;
    let again = format(&formatted).ok();
    prop_assert_eq!(again.as_ref(), Some(&formatted), "formatting twice changes it:\n{}", messy);
    let (before, after) = (values(&messy, positions), values(&formatted, positions));
    match (&before, &after) {
        (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "values differ\n{}\n---\n{}", messy, formatted),
        // A combination the checker refuses is refused alike.
        (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "one loads, one does not: {:?} / {:?}\n{}\n---\n{}", before, after, messy, formatted),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn a_formatted_game_on_piles_has_the_same_values((text, piles) in tuple_game(), choices in proptest::collection::vec(any::<u8>(), 8)) {
        let positions = vec![Position::new(piles.clone()), Position::new(piles.iter().map(|p| p / 2).collect())];
        same_game(&text, &positions, &choices)?;
    }

    #[test]
    fn a_formatted_game_that_reads_the_last_move_has_the_same_values((text, n, last) in history_game(), choices in proptest::collection::vec(any::<u8>(), 8)) {
        let positions = vec![Position { piles: vec![n], last, cells: false }, Position::new(vec![n])];
        same_game(&text, &positions, &choices)?;
    }
}

#[test]
fn every_shipped_game_is_formatted_and_formatting_it_again_changes_nothing() {
    let mut files: Vec<_> = std::fs::read_dir(common::games_dir())
        .expect("games/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a game file");
        let formatted = format(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert_eq!(formatted, text, "{} is not formatted (run `takeaway fmt`)", path.display());
    }
}

#[test]
fn formatting_keeps_comments_and_spaces_arithmetic_as_written() {
    let text = "  # head\n\n\ngame \"x\";param k=3 # k\npiles\nmove : take{1 ,k}   from each of up to 2 piles where t>=1\nmove: take 1..n-1 ; move: take k + 1\nfirst move: take ≤ 2·last\n\n";
    assert_eq!(
        format(text).expect("it parses"),
        "# head\n\ngame \"x\"\nparam k = 3  # k\npiles\nmove: take {1, k} from each of up to 2 piles where t >= 1\nmove: take 1..n-1\nmove: take k + 1\nfirst move: take ≤ 2·last\n"
    );
    // A text that does not parse is not formatted: its parse error says why.
    let error = format("pile\nmove: tkae 1\n").expect_err("it does not parse");
    assert!(format!("{error}").contains("unexpected"), "{error}");
}
