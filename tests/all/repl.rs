//! The REPL: its core through the library, whole scripted sessions through the binary (golden
//! files in `tests/sessions/`), and a real terminal through a pseudo-terminal.

use crate::common;

use takeaway::repl::{join_continued_lines, needs_more, Session};

// ---- the core --------------------------------------------------------------------------------

#[test]
fn a_definition_continues_until_it_has_a_board_and_a_move() {
    assert!(needs_more("game \"x\"", false));
    assert!(needs_more("game \"x\"\npile", false));
    assert!(!needs_more("game \"x\"\npile\nmove: take 1..3", false));
    assert!(needs_more("pile", false), "no game yet: this starts one");
    assert!(!needs_more("move: take 5", true), "with a current game, a move line changes it at once");
    assert!(!needs_more("game \"x\"\ntartan product of \"a\" and \"b\"", false), "a product is whole");
    assert!(needs_more("game \"x\"\ntartan product of \"a\" and", false));
}

#[test]
fn a_statement_cut_at_the_line_end_continues_but_a_wrong_one_does_not() {
    assert!(needs_more("move: take 1..", true));
    assert!(!needs_more("move: tak 1..3", true), "wrong input fails at once");
    assert!(!needs_more("solve 10", true));
    assert!(!needs_more(":games", false));
    assert!(!needs_more("pile\nmove: take 1..\nsolve 7", false), "a command ends an open definition");
    assert_eq!(join_continued_lines("move: take 1..\n3"), "move: take 1.. 3");
    assert_eq!(join_continued_lines("pile\nmove: take 1"), "pile\nmove: take 1");
}

#[test]
fn the_core_answers_like_the_command_line() {
    let mut s = Session::new(false);
    let r = s.eval("game \"Nim\"\npiles\nmove: take any");
    assert!(!r.is_error(), "{r:?}");
    let r = s.eval("solve 41 163 13");
    assert_eq!(r.output, "Nim, position 41 163 13\noutcome: N (the player to move wins)\nGrundy value: 135\nwinning move:\n  take 127 from the pile of 163, to 41 36 13\n");
    let r = s.eval("solve 41 x 13");
    assert!(r.is_error() && r.error.contains("takeaway::position::not_a_number"));
    assert!(s.eval(":quit").quit);
}

#[test]
fn redefining_a_name_replaces_the_game() {
    let mut s = Session::new(false);
    s.eval("game \"g\"\npile\nmove: take 1..3");
    s.eval("game \"other\"\npile\nmove: take 1");
    s.eval("game \"g\"\npile\nmove: take 1..4");
    assert_eq!(s.vocabulary().games, vec!["g", "other"]);
    let r = s.eval("table 5 --format json");
    assert!(r.output.contains("\"p_positions\": [\n    0,\n    5\n  ]"), "{}", r.output);
}

#[test]
fn compare_finds_a_bundled_game_by_a_name_with_spaces_and_a_table_takes_piles() {
    let mut s = Session::new(false);
    assert!(!s.eval(":load games/nim.game").is_error());
    // Dawson's Kayles is 0 at 1 (no move: the one pin cannot be knocked alone), Nim 1.
    let r = s.eval("compare \"Dawson's Kayles\" --upto 5");
    assert!(r.output.contains("first differ at n = 1"), "{}", r.output);
    assert!(r.output.contains("Dawson's Kayles has Grundy value 0 (P) at 1"), "{}", r.output);
    let r = s.eval("table 3 --piles 3");
    assert!(
        r.output.contains("P-positions: 5 of the 20 positions\n  0 0 0   0 1 1   0 2 2   0 3 3\n  1 2 3\n"),
        "{}",
        r.output
    );
}

// ---- scripted sessions through the binary ------------------------------------------------------

fn run_session(file: &str) -> String {
    let out = common::run_with_script(&["repl"], &format!("sessions/{file}"));
    let text = format!(
        "exit code: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The same bytes on every machine: the scratch folder by the name the script gives it.
    text.replace(&common::scratch_dir().display().to_string(), "$SCRATCH")
}

#[test]
fn session_define_and_query() {
    let out = run_session("define-and-query.txt");
    assert!(out.starts_with("exit code: 0"), "{out}");
    assert!(!out.contains("takeaway> "), "no prompts without a terminal");
    insta::assert_snapshot!(out);
}

#[test]
fn session_mistakes_and_recovery() {
    let out = run_session("mistakes.txt");
    assert!(out.starts_with("exit code: 1"), "a script with errors exits 1");
    insta::assert_snapshot!(out);
}

#[test]
fn session_open_definitions_keep_what_was_typed() {
    let out = run_session("open-definitions.txt");
    // The session: the typo's line is dropped, the definition goes on, and `solve 5`
    // answers about X instead of being swallowed.
    assert!(out.contains("defined X (one pile)\nX, position 5\n"), "{out}");
    assert!(out.contains("* X (one pile) (defined here)"), "{out}");
    assert!(out.contains("dropped the open definition (2 lines)"), "{out}");
    assert!(out.contains("usage: solve <POSITION>..."), "{out}");
    assert!(out.contains("replaced X (one pile)"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn the_prompt_shows_a_definition_is_open_and_save_writes_a_game_file() {
    let mut s = Session::new(false);
    assert_eq!(s.prompt(), takeaway::repl::PROMPT);
    assert!(!s.feed("game \"T\"").is_error());
    assert_eq!(s.prompt(), takeaway::repl::CONTINUATION_PROMPT);
    assert!(s.feed("param k = 3").output.is_empty());
    assert!(s.feed("pile").output.is_empty());
    assert!(s.feed("move: take 1..k").output.starts_with("defined T"));
    assert_eq!(s.prompt(), takeaway::repl::PROMPT);
    assert!(!s.feed("set k = 5").is_error());
    let dir = std::env::temp_dir().join(format!("takeaway-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.game");
    let r = s.feed(&format!(":save {}", file.display()));
    assert!(!r.is_error(), "{r:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "game \"T\"\nparam k = 5\npile\nmove: take 1..k\n");
    let again = s.feed(&format!(":save {}", file.display()));
    assert!(again.error.contains("exists already"), "{again:?}");
    assert!(!s.feed(&format!(":save {} --force", file.display())).is_error());
    // The saved file loads as it was: k = 5, so 6 is a P-position of take 1..5.
    let r = s.feed(&format!(":load {}", file.display()));
    assert!(r.output.contains("replacing the session's game of that name"), "{r:?}");
    assert!(s.feed("solve 6").output.contains("outcome: P"));
    std::fs::remove_dir_all(&dir).ok();
    // Pasted text is taken line by line: the wrong line is left out, the rest defines the game.
    let r = s.feed("game \"P\"\npile\nmove: tkae 1\nmove: take 1..2");
    assert!(r.error.contains("unexpected word `tkae`"), "{r:?}");
    assert!(r.output.contains("defined P (one pile)"), "{r:?}");
    // A paste of any length is taken line by line, without exhausting the stack.
    let r = s.feed(&"# a comment\n".repeat(300_000));
    assert!(!r.is_error(), "{r:?}");
}

#[test]
fn session_files() {
    let out = run_session("files.txt");
    insta::assert_snapshot!(out);
}

#[test]
fn game_text_is_highlighted_on_a_colour_terminal() {
    let h = takeaway::repl::terminal::highlight_game_text("move: take 1..3 # three");
    assert!(h.contains("\x1b[1mmove:\x1b[0m"), "{h:?}");
    assert!(h.contains("\x1b[1mtake\x1b[0m"), "{h:?}");
    assert!(h.contains("\x1b[33m3\x1b[0m"), "{h:?}");
    assert!(h.contains("\x1b[2m# three\x1b[0m"), "{h:?}");
}

#[test]
fn a_mistyped_query_is_a_diagnostic() {
    let mut s = Session::new(false);
    s.eval("game \"g\"\npile\nmove: take 1");
    let r = s.eval("table --upto");
    assert!(r.error.contains("takeaway::repl::usage"), "{}", r.error);
    assert!(r.error.contains("see :help table"), "{}", r.error);
}

#[test]
fn compare_in_the_repl_names_another_game_of_the_session() {
    let mut s = Session::new(false);
    s.eval("game \"k\"\npiles\nmove: take 1..2, then split");
    s.eval("game \"octal\"\npiles\nmove: octal 0.77");
    let r = s.eval("compare k --upto 150");
    assert_eq!(r.output, "octal at n and k at n: identical Grundy values for n = 0..150\n", "{r:?}");
    let r = s.eval("compare kk");
    assert!(r.error.contains("did you mean `k`?"), "{}", r.error);
}

#[test]
fn session_teaching_verbs() {
    let out = run_session("teaching.txt");
    assert!(out.starts_with("exit code: 0"), "{out}");
    let svg = std::fs::read_to_string(common::scratch_dir().join("repl-session-plot.svg")).unwrap();
    assert!(svg.contains("Grundy values of Kayles"));
    insta::assert_snapshot!(out);
}

#[test]
fn session_products_of_the_sessions_games() {
    let out = run_session("products.txt");
    assert!(out.starts_with("exit code: 1"), "the script's two mistakes make it exit 1: {out}");
    assert!(out.contains("did you mean \"twins\"?"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn session_a_partizan_variant() {
    let out = run_session("partizan.txt");
    // `quotient` refuses a partizan game: the one mistake makes the session exit 1.
    assert!(out.starts_with("exit code: 1"), "{out}");
    assert!(out.contains("behaviour: Left weakly dominates"), "{out}");
    assert!(out.contains("you are Right, the computer is Left"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn period_in_the_repl_proves_an_octal_games_period() {
    let mut s = Session::new(false);
    s.eval("game \"0.165\"\npiles\nmove: octal 0.165");
    let r = s.eval("period");
    assert!(r.output.starts_with("0.165: the Grundy values have period 1,550 from n = 5,181"), "{r:?}");
    let r = s.eval("game \"Grundy\"\npiles\nmove: split unequal");
    assert!(!r.is_error(), "{r:?}");
    let r = s.eval("period");
    assert!(r.error.contains("takeaway::period::no_theorem"), "{r:?}");
}

#[test]
fn completion_words_come_from_the_grammar_and_the_functions() {
    let words = takeaway::repl::keywords();
    // Words the earlier hand-written list had lost.
    for w in ["power_of_two", "abs", "coins", "coin", "tartan", "acrostic", "misère", "symmetric", "within"] {
        assert!(words.contains(&w), "{w} is offered");
    }
    // Every keyword rule of the grammar is there, each spelling of it.
    let grammar = std::fs::read_to_string("grammar/takeaway.pest").expect("the grammar");
    for line in grammar.lines().filter(|l| l.starts_with("kw_")) {
        for (i, piece) in line.split('"').enumerate() {
            if i % 2 == 1 {
                assert!(words.contains(&piece), "{piece} from `{line}`");
            }
        }
    }
    let verbs = takeaway::repl::verbs();
    for v in ["check", "solve", "explain", "table", "plot", "quotient", "period", "compare", "play", "set"] {
        assert!(verbs.contains(&v), "{v}");
    }
}

#[test]
fn compare_finds_a_bundled_game_by_its_name_and_help_knows_misere_and_partizan() {
    let mut s = Session::new(false);
    s.feed("game \"T\"\npile\nmove: take 1..3\n");
    // Kayles' values 0 1 2 3 1 …: TAG's 0 1 2 3 0 first differ at 4.
    let r = s.feed("compare Kayles --upto 50");
    assert!(!r.is_error(), "{}", r.error);
    assert!(r.output.contains("first differ at n = 4"), "{}", r.output);
    for topic in ["misère", "misere", "partizan"] {
        let r = s.feed(&format!(":help {topic}"));
        assert!(!r.output.starts_with("no help"), "{topic}: {}", r.output);
    }
}

#[test]
fn a_second_board_line_in_an_open_definition_is_blamed_and_left_out_at_once() {
    let mut s = Session::new(false);
    let mut errors = String::new();
    for line in ["game \"X\"", "pile", "pile", "move: take 1..3", "move: take 1..4", ""] {
        errors.push_str(&s.feed(line).error);
    }
    // One diagnostic, for the second `pile`; the good move lines are kept.
    assert_eq!(errors.matches("takeaway::").count(), 1, "{errors}");
    assert!(errors.contains("what the game is played on is given already"), "{errors}");
    let shown = s.feed(":show").output;
    assert_eq!(shown, "game \"X\"\npile\nmove: take 1..3\nmove: take 1..4\n", "{shown}");
    // A parameter given twice is blamed the same way.
    s.feed("game \"Y\"");
    s.feed("param k = 3");
    let r = s.feed("param k = 4");
    assert!(r.error.contains("the parameter `k` is given already"), "{}", r.error);
}

#[test]
fn moves_typed_one_by_one_make_the_game_a_file_of_them_makes() {
    // Each line adds its rule, checked on its own (the definition costs time linear in its
    // lines, where loading the whole text again for each was quadratic: 1,000 lines took 13 s).
    let mut s = Session::new(false);
    let mut file = String::from("game \"Many\"\nparam k = 2\npiles\nmove: take 1..k\n");
    s.eval(file.trim_end());
    for amount in 3..=1000 {
        let line = format!("move: take {amount} where t > k");
        let r = s.eval(&line);
        assert!(!r.is_error() && r.output.starts_with("changed Many"), "{line}: {r:?}");
        file.push_str(&line);
        file.push('\n');
    }
    let mut whole = Session::new(false);
    whole.eval(file.trim_end());
    for question in ["solve 5 6 7", "table 12 --format json", "explain 30"] {
        let (a, b) = (s.eval(question), whole.eval(question));
        assert_eq!((a.output, a.error), (b.output, b.error), "{question}");
    }
    // A line with a fault is checked with the whole text, and blamed where it stands.
    let r = s.eval("move: take t where t = last");
    assert!(r.error.contains("takeaway::check::last_without_first_move"), "{}", r.error);
    assert!(r.error.contains("<Many>:1003:24]"), "{}", r.error);
    // The text the session shows is the whole definition.
    let shown = s.eval(":show").output;
    assert!(
        shown.contains("move: take 1000 where t > k\n") || shown.ends_with("move: take 1000 where t > k"),
        "{shown}"
    );
}

#[test]
fn a_rule_is_replaced_or_dropped_by_its_number() {
    let mut s = Session::new(false);
    s.eval("game \"T\"\nparam k = 3\npiles\nmove: take 1..k\nmove: take 5");
    assert_eq!(
        s.eval(":rules").output,
        "1  move: take 1..k\n2  move: take 5\n(:drop N removes rule N; :replace N move: … puts another in its place)\n"
    );
    // Subtraction {1, 2, 3, 6}: Grundy values by the definition, g(n) = mex of g(n − s).
    let r = s.eval(":replace 2 move: take 6");
    assert!(r.output.starts_with("changed T"), "{r:?}");
    let table = s.eval("table 12 --format json").output;
    let v: serde_json::Value = serde_json::from_str(&table).unwrap();
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=12u64 {
        let options: Vec<u64> = [1, 2, 3, 6].iter().filter(|&&t| t <= n).map(|&t| g[(n - t) as usize]).collect();
        g.push((0..).find(|x| !options.contains(x)).unwrap());
    }
    assert_eq!(v["grundy"], serde_json::json!(g));
    // Dropping rule 1 leaves take 6 alone; dropping the last rule is refused, the game kept.
    assert!(s.eval(":drop 1").output.starts_with("changed T"));
    assert_eq!(s.eval(":show").output, "game \"T\"\nparam k = 3\npiles\nmove: take 6\n");
    let r = s.eval(":drop 1");
    assert!(r.error.contains("takeaway::check::no_moves") && r.error.contains("(the game is unchanged)"), "{r:?}");
    assert_eq!(s.eval(":show").output, "game \"T\"\nparam k = 3\npiles\nmove: take 6\n");
    let r = s.eval(":drop 9");
    assert!(r.error.contains("`9` is not the number of a rule: T has 1"), "{r:?}");
}

/// `:replace` takes a rule and nothing else (`play misère` in the place of a rule would have
/// dropped the rule and turned the game misère), and `:drop` one number: the game is unchanged.
#[test]
fn replace_refuses_what_is_not_a_rule_and_drop_refuses_extra_numbers() {
    let mut s = Session::new(false);
    s.eval("game \"T\"\npiles\nmove: take 1..3\nmove: take 5");
    let before = s.eval(":show").output;
    for (command, words) in [
        (":replace 1 play misère", "`play misère` is not a rule"),
        (":replace 1 pile", "`pile` is not a rule"),
        (":replace 1 move: take 1..2\nplay misère", "is not a rule"),
        (":drop 1 2", "`:drop` removes one rule; `2` is left over"),
    ] {
        let r = s.eval(command);
        assert!(r.is_error() && r.error.contains(words), "{command}: {r:?}");
        assert_eq!(s.eval(":show").output, before, "{command} changed the game");
    }
    // The span points at the words refused.
    let r = s.eval(":drop 1 2");
    assert!(r.error.contains("takeaway::repl::usage"), "{r:?}");
    // Normal play: 4 is a P-position of take {1, 2, 3, 5}? g(4) = mex{g3, g2, g1} = mex{3, 2, 1} = 0.
    assert!(s.eval("solve 4").output.contains("outcome: P"));
    // A rule with a comment is one rule.
    assert!(s.eval(":replace 2 move: take 4 # four").output.starts_with("changed T"));
}
