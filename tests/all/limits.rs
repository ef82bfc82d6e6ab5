//! The questions that once hung or aborted, on the command line with its defaults: each ends with
//! an answer or a refusal from an estimate that names the limit.

use crate::common;

/// The commands that hung or aborted before every question had one bound on work (the engine
/// issue's list), each with what it gives now on the defaults: an answer, or a refusal with the
/// diagnostic that names the limit. Never a signal, never a run past the budget. (Some of the
/// list now answer within the budget of half a minute: `solve games/mem.game 834` and `solve
/// games/wythoff.game 300 400` in a fraction of a second (the grid), a plot of Lasker's Nim to 100,000;
/// larger ones stand here for them. Their time is a measurement, not a test.)
#[test]
fn the_questions_that_once_hung_answer_or_are_refused_on_the_defaults() {
    let sevens = ["7"; 20].join(" ");
    let cases: Vec<(String, Option<&str>)> = vec![
        ("explain games/mem.game 472154".into(), Some("takeaway::solve::too_many_positions")),
        ("table games/subtraction-with-put-backs.game --upto 10000".into(), None),
        ("table games/take-or-put-back.game --upto 1000000".into(), Some("takeaway::solve::loopy_too_large")),
        (
            "solve games/partizan-subtraction.game 135136 733124256 563986 548".into(),
            Some("takeaway::solve::too_many_positions"),
        ),
        ("table games/misere-kayles.game --upto 1000000".into(), None),
        // The grid keeps Wythoff's rows, columns and diagonals: 9·10⁶ pairs in about a second.
        ("table games/wythoff.game --upto 3000".into(), None),
        ("solve games/wythoff.game 10000 10000".into(), Some("takeaway::solve::too_many_positions")),
        // The grid values r-Wythoff's million pairs in seconds.
        ("table games/r-wythoff.game --upto 1000".into(), None),
        ("solve games/lasker-nim.game 893033".into(), Some("takeaway::solve::too_much_work")),
        ("table games/lasker-nim.game --upto 1000000".into(), Some("takeaway::table::incomplete")),
        // Moore's theorem answers every pile at once now; Grundy values where the budget allows.
        ("plot games/moore-nim.game --upto 1000".into(), None),
        ("solve games/moore-nim.game 1000 999 1000".into(), None),
        (
            "plot games/partizan-kayles.game --upto 1000000000000000000".into(),
            Some("takeaway::table::picture_too_large"),
        ),
        ("plot games/chomp.game --upto 100000000000000".into(), Some("takeaway::table::picture_too_large")),
        (format!("solve games/partizan-misere.game {sevens}"), Some("takeaway::solve::too_many_positions")),
        ("explain games/grunt.game 4 7 17 18143".into(), Some("takeaway::solve::too_much_work")),
        ("compare games/octal-0.56.game games/lasker-nim.game --upto 10000000".into(), None),
        ("compare games/misere-subtraction-1-2-3.game games/mem.game --upto 1000".into(), None),
        // Splittles' values keep growing, and each pile's work with them: the pace of the first
        // 2¹⁷ values says the default end is out of reach (it once worked 33 s to no answer).
        ("period games/splittles.game".into(), Some("takeaway::solve::period_out_of_reach")),
        ("table games/kayles.game --upto 20 --period-values 1000000000".into(), None),
        // A sum of large partizan piles: the comparisons and sums the canonical forms keep count
        // against the limit, so the value is given up and the outcome searched (it once ran for
        // minutes and 5 GB); five piles are too many to search, and answered from the piles'
        // thermographs; in a fair game whose stops are 0 the theory cannot tell, and they are
        // refused.
        ("solve games/partizan-subtraction.game 30 29 28 27".into(), None),
        ("solve games/partizan-subtraction.game 30 29 28 27 26".into(), None),
    ];
    for (command, refused) in cases {
        let args: Vec<&str> = command.split(' ').collect();
        let run = common::takeaway(&args);
        match refused {
            None => assert_eq!(run.code, 0, "{command}: {}", run.stderr),
            Some(code) => {
                assert_eq!(run.code, 1, "{command}: {}", run.stderr);
                assert!(run.stderr.contains(code), "{command}: expected {code}, got {}", run.stderr);
            }
        }
    }
}
