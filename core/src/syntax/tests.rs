//! Parser tests: one line of game text each, and for failures the exact span blamed.

use super::*;

/// The move statement of `move: …` text, parsed.
fn parse_move(text: &str) -> MoveDecl {
    let file = parse(&format!("move: {text}")).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    match file.statements.into_iter().next().map(|s| s.node) {
        Some(Statement::Move(m)) => m,
        other => panic!("{text}: not a move: {other:?}"),
    }
}

/// The text a span covers.
fn covered(text: &str, e: &ParseError) -> String {
    let span = match e {
        ParseError::Unexpected { span, .. }
        | ParseError::Incomplete { span, .. }
        | ParseError::UnterminatedString { span }
        | ParseError::TooDeep { span, .. }
        | ParseError::TooLong { span, .. }
        | ParseError::TooManyOperators { span, .. }
        | ParseError::ControlCharacter { span, .. } => *span,
    };
    text[span.offset()..span.offset() + span.len()].to_string()
}

macro_rules! fails_at {
    ($text:expr, $blamed:expr) => {{
        let text = $text;
        let err = parse(text).expect_err(text);
        assert_eq!(covered(text, &err), $blamed, "{text}: {err:?}");
        err
    }};
}

#[test]
fn unicode_and_ascii_spellings_mean_the_same() {
    let pairs = [
        ("take ≤ 2·last", "take <= 2*last"),
        ("take ≥ 2", "take >= 2"),
        ("take t where t ≠ last", "take t where t != last"),
        ("take 1..n−1", "take 1..n-1"),
        ("take 2×3", "take 2*3"),
    ];
    for (unicode, ascii) in pairs {
        let strip = |m: MoveDecl| format!("{:?}", m).replace(|c: char| c.is_ascii_digit(), "");
        assert_eq!(strip(parse_move(unicode)), strip(parse_move(ascii)), "{unicode} vs {ascii}");
    }
}

#[test]
fn the_design_phrases_parse_as_written() {
    let m = parse_move("take ≤ 2·last");
    let Action::Take(take) = m.action.node else { panic!() };
    let AmountSpec::Bound(op, e) = take.amount.node else { panic!() };
    assert_eq!(op.node, CmpOp::Le);
    assert!(matches!(e.node, ExprKind::Binary(BinOp::Mul, _, _)));

    let m = parse_move("split unequal");
    assert_eq!(m.action.node, Action::Split(Split { parts: None, shape: Some(SplitShape::Unequal) }));
}

#[test]
fn choices_ranges_and_sets() {
    let amount = |text: &str| {
        let Action::Take(t) = parse_move(text).action.node else { panic!() };
        t.amount.node
    };
    assert!(matches!(amount("take 1 or 3"), AmountSpec::Choices(c) if c.len() == 2));
    assert!(matches!(amount("take {1, 3, 4}"), AmountSpec::Choices(c) if c.len() == 3));
    assert!(matches!(amount("take 1..k"), AmountSpec::Choices(c) if matches!(c[0], ChoiceSpec::Range(..))));
    assert!(matches!(amount("take any except 2, 3, 7"), AmountSpec::AnyExcept(c) if c.len() == 3));
    assert!(matches!(amount("take any"), AmountSpec::Any));
}

#[test]
fn which_piles() {
    let from = |text: &str| {
        let Action::Take(t) = parse_move(text).action.node else { panic!() };
        t.from.map(|f| f.node)
    };
    assert_eq!(from("take 1"), None);
    assert_eq!(from("take 1 from one pile"), Some(PileChoice::One));
    assert_eq!(
        from("take 1 from both piles"),
        Some(PileChoice::Several { count: None, up_to: false, independent: false })
    );
    assert!(matches!(
        from("take 1..3 from each of up to 2 piles"),
        Some(PileChoice::Several { count: Some(_), up_to: true, independent: true })
    ));
}

#[test]
fn where_before_then_split_joins_the_condition_after_it() {
    let m = parse_move("take t where odd(t), then split where n > 3");
    assert!(matches!(m.condition.map(|c| c.node), Some(ExprKind::Binary(BinOp::And, _, _))));
}

#[test]
fn spans_are_byte_offsets_into_the_text() {
    let text = "game \"Kayles\"\npiles\nmove: take 1..2, then split\n";
    let file = parse(text).unwrap();
    let Statement::Game(name) = &file.statements[0].node else { panic!() };
    assert_eq!(&text[name.span.start..name.span.end], "\"Kayles\"");
    let Statement::Move(m) = &file.statements[2].node else { panic!() };
    assert_eq!(&text[m.action.span.start..m.action.span.end], "take 1..2, then split");
}

#[test]
fn precedence_follows_arithmetic() {
    let m = parse_move("take t where t + 1 * 2 = 3 and not t > 4 or even(t)");
    let Some(c) = m.condition else { panic!() };
    // or binds loosest: (… and not …) or even(t)
    assert!(matches!(c.node, ExprKind::Binary(BinOp::Or, _, _)));
}

#[test]
fn comments_and_semicolons() {
    let file = parse("# a comment\ngame \"x\"; pile # trailing\n\nmove: take 1\n").unwrap();
    assert_eq!(file.statements.len(), 3);
}

#[test]
fn failures_blame_the_right_text() {
    fails_at!("pile\nmove: tak 1..3\n", "tak");
    fails_at!("pile\nplay misery\n", "misery");
    fails_at!("pile\nmove: take 1..3 please\n", "please");
    fails_at!("game \"open\npile\n", "\"");
    fails_at!("piles\nmove: take 1..3 from piles\n", "piles");
}

#[test]
fn input_that_stops_early_is_incomplete_not_wrong() {
    for text in ["pile\nmove: take", "pile\nmove: take 1..", "pile\nmove:", "pile\nmove: take t where", "game"] {
        let err = parse(text).expect_err(text);
        assert!(err.is_incomplete(), "{text}: {err:?}");
    }
    for text in ["pile\nmove: take x y", "pile\nmove: tak", "pile\nplay misery"] {
        let err = parse(text).expect_err(text);
        assert!(!err.is_incomplete(), "{text}: {err:?}");
    }
}

#[test]
fn deep_nesting_is_refused_before_the_parser_sees_it() {
    let deep = format!("piles\nmove: take {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    assert!(matches!(parse(&deep), Err(ParseError::TooDeep { .. })));
    let fine = format!("piles\nmove: take {}1{}\n", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    assert!(parse(&fine).is_ok());
}

#[test]
fn a_comparison_chain_reads_as_and() {
    let chain = parse_move("take t where 1 ≤ t < 5").condition.unwrap();
    let ExprKind::Binary(BinOp::And, low, high) = &chain.node else { panic!("{chain:?}") };
    assert!(matches!(&low.node, ExprKind::Binary(BinOp::Cmp(CmpOp::Le), ..)), "{low:?}");
    let ExprKind::Binary(BinOp::Cmp(CmpOp::Lt), middle, _) = &high.node else { panic!("{high:?}") };
    assert_eq!(middle.node, ExprKind::Name("t".into()));
    let three = parse_move("take t where 1 < t < 5 < 9").condition.unwrap();
    let rendered = format!("{three:?}");
    assert_eq!(rendered.matches("And").count(), 2, "{rendered}");
    // With brackets, a comparison of a comparison stays what it says (and `check` refuses it).
    let bracketed = parse_move("take t where (1 < t) < 5").condition.unwrap();
    assert!(matches!(bracketed.node, ExprKind::Binary(BinOp::Cmp(_), ..)), "{bracketed:?}");
}

#[test]
fn two_named_amounts_from_two_piles() {
    let m = parse_move("take k from one pile and l from the other where k ≤ l < k + 2");
    match m.action.node {
        Action::TakePair { first, second } => assert_eq!((first.node.as_str(), second.node.as_str()), ("k", "l")),
        other => panic!("{other:?}"),
    }
    assert!(m.condition.is_some());
}

#[test]
fn a_chain_of_operators_past_the_limit_is_refused_at_the_first_operator_too_many() {
    let at_limit = format!("piles\nmove: take {}1\n", "-".repeat(MAX_OPERATORS));
    assert!(parse(&at_limit).is_ok());
    let err = fails_at!(&format!("piles\nmove: take {}1\n", "-".repeat(MAX_OPERATORS + 1)), "-");
    let ParseError::TooManyOperators { span, limit } = err else { panic!("{err:?}") };
    assert_eq!((span.offset(), limit), ("piles\nmove: take ".len() + MAX_OPERATORS, MAX_OPERATORS));
    // Operators inside brackets count with those outside them.
    let half = MAX_OPERATORS / 2;
    let nested = format!("piles\nmove: take {}({}1)\n", "-".repeat(half), "-".repeat(half + 1));
    assert!(matches!(parse(&nested), Err(ParseError::TooManyOperators { .. })));
    let sum = format!("piles\nmove: take 1..3 where t < {}\n", vec!["1"; MAX_OPERATORS + 2].join(" + "));
    assert!(matches!(parse(&sum), Err(ParseError::TooManyOperators { .. })));
}

#[test]
fn a_text_past_the_longest_is_refused_where_it_passes_it() {
    let text = format!("piles\n{}", "move: take 1..3\n".repeat(MAX_TEXT / 16 + 1));
    let err = parse(&text).expect_err("too long");
    let ParseError::TooLong { span, bytes, .. } = err else { panic!("{err:?}") };
    assert_eq!((span.offset(), bytes), (MAX_TEXT, text.len()));
}

#[test]
fn a_set_parameter_and_the_sides_of_a_partizan_move_parse() {
    let file = parse("param S = {1, 3..4}").unwrap();
    match &file.statements[0].node {
        Statement::Param { name, default: Some(ParamDefault::Set(set)) } => {
            assert_eq!(name.node, "S");
            assert!(matches!(set.node.as_slice(), [ChoiceSpec::Value(_), ChoiceSpec::Range(_, _)]), "{set:?}");
        }
        other => panic!("not a set parameter: {other:?}"),
    }
    let file = parse("left move: take 1\nright move: take 2").unwrap();
    let sides: Vec<Option<Side>> = file
        .statements
        .iter()
        .map(|s| match &s.node {
            Statement::Move(m) => m.side.as_ref().map(|s| s.node),
            _ => None,
        })
        .collect();
    assert_eq!(sides, [Some(Side::Left), Some(Side::Right)]);
    assert!(parse_move("take 1").side.is_none());
    // `left` alone is not a statement: the error points at what follows it.
    fails_at!("left take 1", "take");
    fails_at!("param S = {1, 3", "3");
}

#[test]
fn a_long_text_parsed_in_pieces_gives_the_statements_spans_and_errors_of_one_parse() {
    // Past `PIECE` bytes the text is parsed a piece of whole lines at a time.
    let line = "move: take 1..3 where t < 1 + 2 * 3   # a comment\n";
    let lines = 3 * super::PIECE / line.len();
    let good = format!("game \"long\"\npile\n{}", line.repeat(lines));
    let file = parse(&good).expect("parses");
    assert_eq!(file.statements.len(), lines + 2);
    for (i, st) in file.statements.iter().skip(2).enumerate() {
        let start = "game \"long\"\npile\n".len() + i * line.len();
        assert_eq!(st.span.start, start, "statement {i}");
        assert!(good[st.span.start..st.span.end].starts_with("move: take 1..3 where t < 1 + 2 * 3"), "statement {i}");
    }
    // A line cut short at the end of a piece is wrong where it stands (the end of its line),
    // not a text that more input could finish; and an error in a later piece points into it.
    for bad_at in [super::PIECE / line.len() - 2, super::PIECE / line.len() - 1, super::PIECE / line.len(), lines - 10]
    {
        let mut text = good.clone();
        let start = "game \"long\"\npile\n".len() + bad_at * line.len();
        text.replace_range(
            start..start + line.len(),
            &format!("{:<width$}\n", "move: take 1..", width = line.len() - 1),
        );
        let err = parse(&text).expect_err("refused");
        let ParseError::Unexpected { span, .. } = &err else { panic!("{bad_at}: {err:?}") };
        let at = span.offset();
        assert!(at >= start + "move: take 1..".len() && at < start + line.len(), "{bad_at}: {at} not in line {start}");
    }
    // The same text whole: an unfinished last line more input could finish.
    let open = format!("{good}move: take 1..");
    assert!(parse(&open).expect_err("refused").is_incomplete());
    // Between pieces the caller may stop the parse.
    let mut asked = 0;
    let stopped = super::parse_within(&good, || {
        asked += 1;
        if asked == 2 {
            Err("stop")
        } else {
            Ok(())
        }
    });
    assert!(matches!(stopped, Err(super::Interrupted::Stopped("stop"))));
}
