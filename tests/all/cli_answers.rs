//! Golden tests of the command line's tables, periods, plots, quotients, comparisons and
//! explanations, through the built binary: what a user types and sees.

use crate::cli::{fails, json, ok};
use crate::common;
use common::takeaway;

#[test]
fn keep_table_changes_memory_not_answers() {
    // Past the sparse-space switch; the window itself is tested in tests/kernels.rs.
    let plain = ok(&["solve", "games/grundys-game.game", "9000"]);
    assert_eq!(ok(&["solve", "games/grundys-game.game", "9000", "--keep-table"]), plain);
    assert!(plain.contains("Grundy value: "), "{plain}");
}

#[test]
fn table_kayles_text() {
    insta::assert_snapshot!(ok(&["table", "games/kayles.game", "--upto", "20"]));
}

#[test]
fn table_kayles_json() {
    let v = json(&["table", "games/kayles.game", "--upto", "15", "--format", "json"]);
    assert_eq!(v["game"], "Kayles");
    assert_eq!(v["upto"], 15);
    assert_eq!(v["grundy"], serde_json::json!([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]));
    assert_eq!(v["p_positions"], serde_json::json!([0]));
    insta::assert_snapshot!(serde_json::to_string(&v).unwrap());
}

#[test]
fn table_upto_100_as_in_the_readme() {
    let out = ok(&["table", "games/kayles.game", "--upto", "100"]);
    assert_eq!(out.lines().filter(|l| l.trim_start().starts_with(char::is_numeric)).count(), 101);
}

#[test]
fn table_misere_json_has_null_grundy_values() {
    let v = json(&["table", "games/tag-misere.game", "--upto", "9", "--format", "json"]);
    assert_eq!(v["outcomes"], serde_json::json!(["N", "P", "N", "N", "N", "P", "N", "N", "N", "P"]));
    assert!(v["grundy"].as_array().unwrap().iter().all(|g| g.is_null()));
    assert_eq!(v["p_positions"], serde_json::json!([1, 5, 9]));
}

#[test]
fn table_wythoff_lists_p_pairs() {
    insta::assert_snapshot!(ok(&["table", "games/wythoff.game", "--upto", "13"]));
    let v = json(&["table", "games/wythoff.game", "--upto", "13", "--format", "json"]);
    assert_eq!(v["p_positions"], serde_json::json!([[0, 0], [1, 2], [3, 5], [4, 7], [6, 10], [8, 13]]));
}

#[test]
fn table_by_last_shows_a_memory_game_over_pile_and_last_move() {
    insta::assert_snapshot!(ok(&["table", "games/mem.game", "--upto", "10", "--by-last"]));
    // Fibonacci Nim after a move of k: a pile of n is lost exactly when the smallest term of
    // n's Zeckendorf representation is more than 2k (taking that term is the winning move), or
    // n = 0. Check the grid against the theorem, not a snapshot.
    let v = json(&["table", "games/fibonacci-nim.game", "--upto", "25", "--by-last", "--format", "json"]);
    let grid = &v["by_last"]["outcomes"];
    let smallest_zeckendorf_term = |mut n: usize| {
        let fib = [1, 2, 3, 5, 8, 13, 21];
        let mut smallest = n;
        while n > 0 {
            let f = *fib.iter().rev().find(|&&f| f <= n).unwrap();
            smallest = f;
            n -= f;
        }
        smallest
    };
    for n in 0..=25usize {
        for k in 1..=25usize {
            let lost = n == 0 || smallest_zeckendorf_term(n) > 2 * k;
            assert_eq!(grid[n][k - 1] == "P", lost, "pile {n} after a move of {k}");
        }
    }
    insta::assert_snapshot!(fails(1, &["table", "games/nim.game", "--by-last"]));
}

#[test]
fn table_fibonacci_nim() {
    insta::assert_snapshot!(ok(&["table", "games/fibonacci-nim.game", "--upto", "13"]));
}

#[test]
fn a_partizan_game_solves_tables_and_explains() {
    insta::assert_snapshot!(ok(&["solve", "games/partizan-subtraction.game", "6"]));
    insta::assert_snapshot!(ok(&["table", "games/partizan-subtraction.game", "--upto", "8"]));
    insta::assert_snapshot!(ok(&["explain", "games/partizan-one-or-two.game", "2", "2"]));
    insta::assert_snapshot!(ok(&["explain", "games/partizan-one-or-two.game", "5"]));
    insta::assert_snapshot!(ok(&["solve", "games/partizan-misere.game", "4", "5"]));
    insta::assert_snapshot!(ok(&["table", "games/partizan-kayles.game", "--upto", "6", "--format", "csv"]));
    let v = json(&["solve", "games/partizan-kayles.game", "4", "5", "--format", "json"]);
    assert_eq!(v["outcome"], "L");
    assert_eq!(v["value"], "3");
}

#[test]
fn a_partizan_game_plots_its_outcome_classes() {
    let dir = std::env::temp_dir().join(format!("takeaway-partizan-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("outcomes.svg");
    ok(&["plot", "games/partizan-misere.game", "--upto", "20", "-o", file.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&file).unwrap();
    // Misère L{1,2} R{2,3}: piles 1, 5, 9, 13, 17 are R, drawn in Right's colour.
    assert!(svg.contains("<title>n = 5: R</title>") && svg.contains("<title>n = 2: P</title>"), "{svg}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tables_of_many_piles_choose_their_piles_and_refuse_what_does_not_fit() {
    let out = ok(&["table", "games/nim.game", "--piles", "3", "--upto", "3"]);
    assert!(out.starts_with("Nim: 3 piles, each of 0..3;"), "{out}");
    assert!(out.contains("P-positions: 5 of the 20 positions\n  0 0 0   0 1 1   0 2 2   0 3 3\n  1 2 3\n"), "{out}");
    let csv = ok(&["table", "games/moore-nim.game", "--piles", "3", "--upto", "2", "--format", "csv"]);
    assert!(csv.starts_with("pile1,pile2,pile3,outcome,grundy\n0,0,0,P,0\n0,0,1,N,1\n"), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 10);
    let json = json(&["table", "games/three-pile-wythoff.game", "--upto", "2", "--format", "json"]);
    assert_eq!(json["piles"], 3);
    assert_eq!(json["p_positions"], serde_json::json!([[0, 0, 0], [0, 1, 2], [1, 1, 1], [2, 2, 2]]));
    let err = fails(1, &["table", "games/wythoff.game", "--piles", "3"]);
    assert!(err.contains("takeaway::table::piles_fixed") && err.contains("exactly 2 piles"), "{err}");
    let err = fails(1, &["table", "games/nim.game", "--piles", "0"]);
    assert!(err.contains("takeaway::table::no_piles"), "{err}");
    let err = fails(1, &["plot", "games/three-pile-wythoff.game"]);
    assert!(err.contains("takeaway::table::too_many_piles"), "{err}");
    let err = fails(1, &["table", "games/nim.game", "--piles", "3", "--upto", "1000"]);
    assert!(err.contains("takeaway::table::too_many_rows") && err.contains("--upto 121"), "{err}");
    let err = fails(1, &["table", "games/partizan-subtraction.game", "--piles", "3"]);
    assert!(err.contains("takeaway::table::piles_fixed"), "{err}");
}

#[test]
fn readme_table_examples_give_what_they_say() {
    let v = json(&["table", "games/tag.game", "--upto", "12", "--format", "json"]);
    assert_eq!(v["p_positions"], serde_json::json!([0, 4, 8, 12]));
}

#[test]
fn a_table_larger_than_the_limit_is_refused_at_once() {
    let stderr = fails(1, &["table", "games/tag-misere.game", "--upto", "100000000000"]);
    assert!(stderr.contains("takeaway::table::too_many_rows"), "{stderr}");
    assert!(stderr.contains("--upto 4999999 or less"), "{stderr}");
    // A two-pile table holds (n + 1)(n + 2)/2 positions: 5151 to 100, and 1035 to 44.
    let stderr = fails(1, &["table", "games/wythoff.game", "--upto", "100", "--max-states", "1000"]);
    assert!(stderr.contains("holds 5151 positions, past the limit of 1000"), "{stderr}");
    assert!(stderr.contains("--upto 43 or less"), "{stderr}");
    // A plot is refused from the size of its picture first: a bar a pile, about 110 bytes each.
    let stderr = fails(1, &["plot", "games/partizan-kayles.game", "--upto", "1000000000000000000"]);
    assert!(stderr.contains("takeaway::table::picture_too_large"), "{stderr}");
    assert!(stderr.contains("plot up to 152519 at most"), "{stderr}");
}

// ---- explain -----------------------------------------------------------------------------------

#[test]
fn explain_nim_from_the_theory() {
    // The notes' example: (25, 28, 10), highest odd column 8, and (25, 28, 5) among the answers.
    let out = ok(&["explain", "games/nim.game", "25", "28", "10"]);
    assert!(
        out.contains("the pile of 10: value 10 becomes 10 ⊕ 15 = 5: take 5 from the pile of 10, to 25 28 5"),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn explain_a_grundys_game_position() {
    let out = ok(&["explain", "games/grundys-game.game", "8"]);
    assert!(out.contains("G(8) = mex{0, 1, 3} = 2"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn explain_fibonacci_nim_100() {
    let out = ok(&["explain", "games/fibonacci-nim.game", "100"]);
    assert!(out.contains("100 = 89 + 8 + 3"), "{out}");
    assert!(out.contains("winning move: take 3 from the pile of 100, to 97"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn explain_a_p_position_gives_a_reply_to_every_move() {
    insta::assert_snapshot!(ok(&["explain", "games/nim.game", "1", "2", "3"]));
    insta::assert_snapshot!(ok(&["explain", "games/chomp.game", "3", "2"]));
}

#[test]
fn explain_json() {
    let v = json(&["explain", "games/nim.game", "25", "28", "10", "--format", "json"]);
    assert_eq!(v["kind"], "nim_sum");
    assert_eq!(v["nim_sum"], 15);
    assert_eq!(v["values"], serde_json::json!([25, 28, 10]));
    assert_eq!(v["winning"][2]["moves"][0]["to"], serde_json::json!([25, 28, 5]));
    let v = json(&["explain", "games/fibonacci-nim.game", "100", "--format", "json"]);
    assert_eq!(v["kind"], "schwenk");
    assert_eq!(v["h"], serde_json::json!([1, 2, 3, 5, 8, 13, 21, 34, 55, 89]));
    assert_eq!(v["representation"], serde_json::json!([3, 8, 89]));
}

#[test]
fn table_with_remoteness() {
    let v = json(&["table", "games/tag.game", "--upto", "9", "--remoteness", "--format", "json"]);
    // TAG(3): 2 moves a round, one more where the first player must open with the right take
    assert_eq!(v["remoteness"], serde_json::json!([0, 1, 1, 1, 2, 3, 3, 3, 4, 5]));
    insta::assert_snapshot!(ok(&["table", "games/tag-misere.game", "--upto", "8", "--remoteness"]));
}

// ---- compare -----------------------------------------------------------------------------------

#[test]
fn compare_finds_the_shift_between_0_137_and_0_07() {
    let out =
        ok(&["compare", "games/dawsons-chess.game", "games/dawsons-kayles.game", "--upto", "300", "--shift", "1"]);
    assert_eq!(out, "Dawson's chess at n and Dawson's Kayles at n + 1: identical Grundy values for n = 0..300\n");
    insta::assert_snapshot!(ok(&["compare", "games/dawsons-chess.game", "games/dawsons-kayles.game"]));
    let v = json(&["compare", "games/kayles.game", "games/tag.game", "--upto", "20", "--format", "json"]);
    assert_eq!(v["identical"], false);
    assert_eq!(v["first_difference"][0]["n"], 4);
    // misère against normal play: compared by outcome
    let v = json(&["compare", "games/tag.game", "games/tag-misere.game", "--format", "json"]);
    assert_eq!(v["compared"], "outcome");
    assert_eq!(v["first_difference"][0]["n"], 0);
    let stderr = fails(1, &["compare", "games/wythoff.game", "games/nim.game"]);
    assert!(stderr.contains("takeaway::compare::not_one_pile"), "{stderr}");
}

// ---- plot --------------------------------------------------------------------------------------

#[test]
fn plot_draws_the_grundy_values_and_marks_p_positions() {
    let svg = ok(&["plot", "games/subtraction-1-3.game", "--upto", "9"]);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("Grundy values of Subtraction {1, 3}, one pile of n = 0..9"));
    assert_eq!(svg.matches("fill=\"#d62728\"><title>").count(), 5, "P at 0, 2, 4, 6, 8");
    assert_eq!(svg.matches("<title>n = ").count(), 10, "one mark per pile size");
    assert!(svg.trim_end().ends_with("</svg>"));
    insta::assert_snapshot!(svg);
}

#[test]
fn plot_maps_two_pile_p_positions_and_writes_a_file() {
    let dir = std::env::temp_dir().join(format!("takeaway-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wythoff.svg");
    let said = ok(&["plot", "games/wythoff.game", "--upto", "13", "-o", file.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(said, format!("wrote {} ({} bytes of SVG)\n", file.display(), svg.len()));
    assert!(svg.contains("Grundy values of Wythoff: two piles up to 13"), "a heat map of the values");
    assert!(svg.contains(">P (0)</text>"), "with a legend");
    // Wythoff's values G(1, b) for b = 0..6 are 1 2 0 4 5 3 7 (0 shown as P).
    for (b, g) in [1, 2, 0, 4, 5, 3, 7].iter().enumerate() {
        let want =
            if *g == 0 { format!("<title>(1, {b}): P</title>") } else { format!("<title>(1, {b}): {g}</title>") };
        assert!(svg.contains(&want), "{want}");
    }
    // (0,0), then (1,2), (3,5), (4,7), (6,10), (8,13) and their mirror images
    assert_eq!(svg.matches("): P</title>").count(), 11);
    let stderr = fails(1, &["plot", "games/nim.game", "-o", "/no/such/folder/x.svg"]);
    assert!(stderr.contains("takeaway::cli::write"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_chomp_plot_shows_two_row_boards_where_the_p_positions_make_a_line() {
    let svg = ok(&["plot", "games/chomp.game", "--upto", "12"]);
    assert!(svg.contains("Grundy values of Chomp: boards of two rows"), "{svg}");
    // Two-row Chomp: a board is P exactly when its top row is one square shorter (the first
    // player answers every bite by restoring that shape); one row of a is worth a − 1.
    for a in 1..=12u64 {
        for b in 0..=a {
            let p = format!("<title>({a}, {b}): P</title>");
            assert_eq!(svg.contains(&p), b + 1 == a, "({a}, {b})");
        }
        if a > 1 {
            assert!(svg.contains(&format!("<title>({a}, 0): {}</title>", a - 1)), "one row of {a}");
        }
    }
    assert!(!svg.contains("<title>(3, 5)"), "a top row longer than the bottom is not a board");
}

#[test]
fn plot_of_a_misere_heap_game_draws_its_misere_grundy_values() {
    let tag = ok(&["plot", "games/tag-misere.game", "--upto", "12"]);
    assert!(tag.contains("Misère Grundy values of TAG, misère, one pile of n = 0..12"), "{tag}");
    assert_eq!(tag.matches(": P</title>").count(), 3, "P at 1, 5 and 9 under misère play: {tag}");
    // Misère Kayles: the published G⁻ of heaps 0..12 (Conway), P exactly where G⁻ is 0.
    let kayles = ok(&["plot", "games/misere-kayles.game", "--upto", "12"]);
    let bars: Vec<String> = kayles
        .match_indices("<title>n = ")
        .map(|(at, _)| kayles[at + 7..].split('<').next().unwrap().to_string())
        .collect();
    let published = [1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0];
    let want: Vec<String> = published
        .iter()
        .enumerate()
        .map(|(n, &g)| if g == 0 { format!("n = {n}: P") } else { format!("n = {n}: G⁻ = {g}") })
        .collect();
    assert_eq!(bars, want);
    assert!(kayles.contains("misère Grundy value G⁻(n)"));
}

// ---- limits ------------------------------------------------------------------------------------

#[test]
fn a_table_as_csv_has_one_row_per_position_and_other_answers_refuse_csv() {
    let csv = ok(&["table", "games/tag.game", "--upto", "8", "--format", "csv"]);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "n,outcome,grundy");
    assert_eq!(rows.len(), 10);
    // TAG(3): G(n) = n mod 4, P at the multiples of 4.
    for (n, row) in rows[1..].iter().enumerate() {
        let outcome = if n % 4 == 0 { "P" } else { "N" };
        assert_eq!(*row, format!("{n},{outcome},{}", n % 4));
    }
    // A long table is written a block of rows at a time: every row still comes, once, in order.
    let long = ok(&["table", "games/tag.game", "--upto", "60000", "--format", "csv"]);
    assert!(long.len() > 4 * 65_536, "several blocks: {} bytes", long.len());
    let rows: Vec<&str> = long.lines().collect();
    assert_eq!(rows.len(), 60_002);
    for (n, row) in rows[1..].iter().enumerate() {
        let outcome = if n % 4 == 0 { "P" } else { "N" };
        assert_eq!(*row, format!("{n},{outcome},{}", n % 4));
    }
    let two = ok(&["table", "games/wythoff.game", "--upto", "5", "--format", "csv"]);
    assert!(two.starts_with("a,b,outcome,grundy\n0,0,P,0\n"), "{two}");
    assert!(two.contains("\n3,5,P,0\n") && two.contains("\n5,3,P,0\n"), "{two}");
    let misere = ok(&["table", "games/misere-kayles.game", "--upto", "5", "--format", "csv"]);
    assert!(misere.starts_with("n,outcome,misere_grundy,genus,tame,phi\n0,N,1,0^120,tame,1\n"), "{misere}");
    let refused = fails(1, &["solve", "games/nim.game", "3", "4", "--format", "csv"]);
    assert!(refused.contains("takeaway::query::csv_is_for_tables"), "{refused}");
}

#[test]
fn a_two_pile_table_shows_the_grid_of_grundy_values() {
    // Wythoff's game by brute force: take any number from one pile, or the same from both.
    let n = 8usize;
    let mut g = vec![vec![0u64; n + 1]; n + 1];
    for a in 0..=n {
        for b in 0..=n {
            let mut seen = Vec::new();
            seen.extend((0..a).map(|x| g[x][b]));
            seen.extend((0..b).map(|y| g[a][y]));
            seen.extend((1..=a.min(b)).map(|k| g[a - k][b - k]));
            g[a][b] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
    }
    let text = ok(&["table", "games/wythoff.game", "--upto", "8"]);
    let rows: Vec<&str> = text.lines().skip_while(|l| !l.starts_with(" a\\b")).skip(1).take(n + 1).collect();
    for (a, row) in rows.iter().enumerate() {
        let cells: Vec<u64> = row.split_whitespace().skip(1).map(|c| c.parse().unwrap()).collect();
        assert_eq!(cells, g[a], "row {a}:\n{text}");
    }
}

#[test]
fn explain_all_lists_the_smaller_piles_values_and_the_winning_moves() {
    // Kayles: G(0..6) = 0 1 2 3 1 4 3 (Guy and Smith), G(7) = 2; 3 3 and 1 4 are the P options.
    let text = ok(&["explain", "games/kayles.game", "7", "--all"]);
    assert!(text.contains("G(7) = mex{0, 1, 3, 4, 5} = 2"), "{text}");
    assert!(text.contains("The winning moves: to a Grundy value of 0, a P-position:\n  take 1 from the pile of 7, leaving 3 and 3, to 3 3\n  take 2 from the pile of 7, leaving 1 and 4, to 1 4\n"), "{text}");
    assert!(text.ends_with("The Grundy values the options read, G(0..6):\n  G(0..6): 0 1 2 3 1 4 3\n"), "{text}");
    let json = json(&["explain", "games/kayles.game", "7", "--all", "--format", "json"]);
    assert_eq!(json["smaller"], serde_json::json!([0, 1, 2, 3, 1, 4, 3]));
    assert!(!ok(&["explain", "games/kayles.game", "7"]).contains("options read"), "only with --all");
}

#[test]
fn how_far_a_table_looks_for_a_period_is_a_number_of_values_the_user_sets() {
    // Kayles repeats with period 12 from 71: 512 values (the default) find and prove it, 100 do not.
    let default = ok(&["table", "games/kayles.game", "--upto", "10"]);
    assert!(default.contains("period 12 from n = 71 (preperiod 71); proven"), "{default}");
    assert!(default.contains("(checked to 511)"), "{default}");
    let short = ok(&["table", "games/kayles.game", "--upto", "10", "--period-values", "100"]);
    assert!(short.ends_with("period: none found in the values of 0..99\n"), "{short}");
}

#[test]
fn a_negative_pile_and_a_setting_that_empties_a_rule_are_explained() {
    insta::assert_snapshot!(fails(1, &["solve", "games/nim.game", "3", "-5"]));
    insta::assert_snapshot!(fails(1, &["solve", "games/tag.game", "5", "--set", "k=0"]));
}

#[test]
fn a_table_stopped_by_a_limit_shows_what_it_computed() {
    // The defaults allow half a minute: 3·10⁸ moves examined for single piles, a listed move
    // counting two. Twins lists the n − 1 moves of coin n, so coins up to about 17,300 fit them
    // (n² in all), and a table to 100,000 does not (about 17 minutes). The table asks for its
    // last row first, so the estimate refuses it early (at the doubling to 1024), and the rows
    // computed by then are shown.
    let run = takeaway(&["table", "games/twins.game", "--upto", "100000"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.starts_with("Twins: one coin showing heads"), "{}", run.stdout);
    // Coin n is worth n − 1 (a move turns it and one coin to its left): P only at 0 and 1.
    assert!(run.stdout.contains(" 256        N     255\n"), "{}", run.stdout);
    assert!(run.stderr.contains("piles up to about 17242"), "{}", run.stderr);
    assert!(run.stderr.contains("(about 17 minutes), past the budget of about 30 s"), "{}", run.stderr);
    assert!(run.stdout.contains("P-positions: 0, 1\n"), "{}", run.stdout);
    insta::assert_snapshot!(run.stderr);
    // As JSON, the failure comes whole, with the rows computed as its `partial` table.
    let run = takeaway(&["table", "games/twins.game", "--upto", "100000", "--format", "json"]);
    let failure: serde_json::Value = serde_json::from_str(&run.stdout).expect("the failure is JSON");
    assert_eq!(
        (failure["kind"].as_str(), failure["code"].as_str()),
        (Some("refused"), Some("takeaway::table::incomplete"))
    );
    let v = &failure["partial"];
    assert_eq!(v["upto"], 1024);
    assert_eq!(v["grundy"].as_array().unwrap().len() as u64, v["upto"].as_u64().unwrap() + 1);
}

#[test]
fn table_of_a_loopy_game_shows_draws_and_generalised_values() {
    insta::assert_snapshot!(ok(&["table", "games/take-or-put-back.game", "--upto", "6"]));
}

#[test]
fn a_tartan_product_solves_table_and_explains_cells() {
    insta::assert_snapshot!(ok(&["solve", "games/turning-corners.game", "(3, 5)", "(4, 4)"]));
    insta::assert_snapshot!(ok(&["table", "games/turning-corners.game", "--upto", "6"]));
    insta::assert_snapshot!(ok(&["explain", "games/turning-corners.game", "3,5", "4,4", "5,5"]));
}

#[test]
fn quotient_prints_the_presentation_and_the_proven_period() {
    insta::assert_snapshot!(ok(&["quotient", "games/misere-kayles.game", "--upto", "180"]));
    let v = json(&["quotient", "games/misere-subtraction-1-2-3.game", "--upto", "20", "--format", "json"]);
    assert_eq!(v["order"], 6);
    assert_eq!(v["p_portion"].as_array().unwrap().len(), 2);
    assert_eq!(v["period"]["period"], 4);
}

#[test]
fn quotient_of_a_normal_play_game_is_a_diagnostic() {
    insta::assert_snapshot!(fails(1, &["quotient", "games/nim.game"]));
}

#[test]
fn a_quotient_that_stops_says_where_and_a_position_past_it_is_refused() {
    // Dawson's Kayles' quotient reaches order 638 at heap 33 in a few seconds; past it, growing
    // it takes longer than a position's share of the budget (a tenth), so a position that needs
    // heap 42 is refused there, saying how far the quotient got.
    let text = ok(&["quotient", "games/misere-dawsons-kayles.game", "--upto", "33"]);
    assert!(text.contains("order 638"), "{text}");
    insta::assert_snapshot!(fails(1, &["solve", "games/misere-dawsons-kayles.game", "40", "41", "42"]));
}

#[test]
fn explain_a_misere_position_through_the_quotient() {
    insta::assert_snapshot!(ok(&["explain", "games/misere-kayles.game", "5", "6"]));
    insta::assert_snapshot!(ok(&["solve", "games/misere-kayles.game", "1000000000000000000", "7"]));
}

#[test]
fn the_same_table_prints_the_same_bytes_on_a_busy_machine() {
    // How far a period is looked for past the rows is a count of positions, never a time: a
    // second thread spinning must not change a byte (it used to decide the `period:` line).
    let dir = std::env::temp_dir().join(format!("takeaway-busy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("three.game");
    std::fs::write(&file, "game \"three\"\npiles\nmove: split into 3 unequal\n").unwrap();
    let args = ["table", file.to_str().unwrap(), "--upto", "3"];
    let quiet = takeaway(&args);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spinner = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut x = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            x
        })
    };
    let busy = takeaway(&args);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    spinner.join().unwrap();
    assert_eq!(quiet.code, 0);
    assert_eq!(quiet.stdout, busy.stdout);
    let misere = ["table", "games/misere-kayles.game", "--upto", "30"];
    assert_eq!(takeaway(&misere).stdout, takeaway(&misere).stdout);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn explain_with_last_says_the_previous_move_in_its_header() {
    let out = ok(&["explain", "games/fibonacci-nim.game", "10", "--last", "3"]);
    assert!(out.starts_with("Fibonacci Nim, position 10 (the previous move took 3)\n"), "{out}");
}

#[test]
fn table_accepts_its_bound_as_a_word_as_the_repl_does() {
    assert_eq!(ok(&["table", "games/kayles.game", "12"]), ok(&["table", "games/kayles.game", "--upto", "12"]));
}

#[test]
fn a_table_by_last_as_csv_has_a_row_for_every_pile_after_every_move() {
    let csv = ok(&["table", "games/fibonacci-nim.game", "--upto", "6", "--by-last", "--format", "csv"]);
    let json = ok(&["table", "games/fibonacci-nim.game", "--upto", "6", "--by-last", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("n,last,outcome,grundy"));
    // The game's start (no previous move): one row a pile, the last column empty.
    for n in 0..=6 {
        let g = &v["grundy"][n];
        assert_eq!(lines.next(), Some(format!("{n},,{},{g}", v["outcomes"][n].as_str().unwrap()).as_str()));
    }
    // Then every (n, last) of the grid: Fibonacci Nim's pile of 3 after a take of 1 is P (takes
    // of 1 or 2 leave N-positions), after a take of 2 it is N (take all 3).
    let grid: Vec<&str> = lines.collect();
    assert_eq!(grid.len(), 7 * 6);
    assert!(grid.contains(&"3,1,P,0") && grid.contains(&"3,2,N,3"), "{grid:?}");
    for (n, row) in v["by_last"]["grundy"].as_array().unwrap().iter().enumerate() {
        for (i, g) in row.as_array().unwrap().iter().enumerate() {
            let o = v["by_last"]["outcomes"][n][i].as_str().unwrap();
            assert!(grid.contains(&format!("{n},{},{o},{g}", i + 1).as_str()), "{n} after {}", i + 1);
        }
    }
}

/// A table whose period was not looked for does not end with a line saying so.
#[test]
fn a_table_says_nothing_of_a_period_it_did_not_look_for() {
    for game in ["games/misere-kayles.game", "games/mem.game", "games/ruler.game"] {
        let out = ok(&["table", game]);
        assert!(!out.contains("period: not looked for"), "{game}: {out}");
        assert!(out.contains("P-positions"), "{game}: {out}");
    }
}

/// A plot of more piles than pixels draws a bar a run of piles, each the largest value of its
/// run: Lasker's Nim to 100,000 (once an 11 MB file), checked against its theorem (G(4k+1) =
/// 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3).
#[test]
fn a_plot_of_more_piles_than_pixels_draws_the_largest_of_each_run() {
    let dir = tempfile::tempdir().expect("a folder");
    let out = dir.path().join("lasker.svg");
    let run = takeaway(&["plot", "games/lasker-nim.game", "--upto", "100000", "-o", out.to_str().expect("a path")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&out).expect("the picture");
    assert!(svg.len() < 300_000, "{} bytes", svg.len());
    assert!(svg.contains("each bar: the largest of "), "the picture says what a bar is");
    let lasker = |n: u64| match n % 4 {
        0 if n > 0 => n - 1,
        3 => n + 1,
        _ => n,
    };
    let mut bars = 0;
    let mut covered = 0;
    for title in svg.split("<title>n = ").skip(1) {
        let title = title.split("</title>").next().expect("a title");
        let Some((run, largest)) = title.split_once(": G up to ") else { continue };
        let (a, b) = run.split_once("..").expect("a run of piles");
        let (a, b): (u64, u64) = (a.parse().expect("a pile"), b.parse().expect("a pile"));
        assert_eq!(largest.parse::<u64>().expect("a value"), (a..=b).map(lasker).max().expect("piles"), "{title}");
        assert_eq!(a, covered, "the runs follow one another");
        covered = b + 1;
        bars += 1;
    }
    assert_eq!(covered, 100_001);
    assert!(bars <= 900, "{bars} bars");
}
