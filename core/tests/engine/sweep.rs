//! Sweeps over families of games: every row against octal values by their definition, the
//! periodicity theorem re-checked from those values, rows files resumed, and one game's
//! failure a row, never the sweep's end.

use std::sync::Mutex;

use crate::common::octal::octal_by_definition;
use serde_json::json;
use takeaway_core::{checksum_of, sweep, Budget, BudgetArgs, RowStatus, SweepArgs, SweepRow};

fn args(value: serde_json::Value) -> SweepArgs {
    let serde_json::Value::Object(map) = value else { unreachable!("an object") };
    SweepArgs::parse(map).expect("a good sweep")
}

fn rows(value: serde_json::Value) -> Vec<SweepRow> {
    sweep(&args(value), &BudgetArgs::default(), &Budget::new(), &|_| {}).expect("the sweep runs").rows
}

fn digits_of(code: &str) -> [u8; 3] {
    let mut d = [0u8; 3];
    for (i, c) in code[2..].bytes().enumerate() {
        d[i] = c - b'0';
    }
    d
}

#[test]
fn every_three_digit_code_of_a_sample_agrees_with_the_definition() {
    // Every 7th code of 0.d₁d₂d₃ to 2^11: proven periods re-checked by Guy and Smith's theorem
    // from values computed by the definition, checksums and largest values equal.
    let codes: Vec<String> = takeaway_core::octal_codes(0, 3).into_iter().filter(|c| c.len() == 5).step_by(7).collect();
    let upto = 1usize << 11;
    let rows = rows(json!({ "codes": codes, "upto": upto }));
    assert_eq!(rows.len(), codes.len());
    let mut proven = 0;
    for (row, code) in rows.iter().zip(&codes) {
        assert_eq!(&row.game, code);
        let g = octal_by_definition(digits_of(code), upto);
        match row.status {
            RowStatus::Proven => {
                proven += 1;
                let (pre, p) = (row.preperiod.unwrap() as usize, row.period.unwrap() as usize);
                let t = 3;
                let need = 2 * pre + 2 * p + t;
                assert!(need + p <= g.len(), "{code}");
                assert!((pre..need).all(|n| g[n + p] == g[n]), "{code}: the theorem's range repeats");
                assert!(pre == 0 || g[pre - 1] != g[pre - 1 + p], "{code}: the smallest preperiod");
                let checksum = checksum_of(g[..pre + p].iter().map(|&v| v as u32));
                assert_eq!(row.checksum.as_deref(), Some(format!("{checksum:016x}").as_str()), "{code}");
                assert_eq!(row.saltus, Some(0));
            }
            RowStatus::Open => {
                assert_eq!(row.values_computed as usize, upto);
                let checksum = checksum_of(g[..upto].iter().map(|&v| v as u32));
                assert_eq!(row.checksum.as_deref(), Some(format!("{checksum:016x}").as_str()), "{code}");
                let largest = *g[..upto].iter().max().unwrap();
                assert_eq!(row.largest_value, Some(largest as u32));
                assert_eq!(row.largest_at, g.iter().position(|&v| v == largest).map(|i| i as u64));
            }
            other => panic!("{code}: {other:?}"),
        }
    }
    assert!(proven > 30, "{proven} proven");
}

#[test]
fn the_checksum_is_fnv_1a_over_each_values_four_bytes() {
    // FNV-1a as its definition gives it, a byte at a time, over the values as 32-bit
    // little-endian words: values of one, two, three and four bytes, and none.
    let by_definition = |values: &[u32]| {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in values.iter().flat_map(|v| v.to_le_bytes()) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        hash
    };
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut values: Vec<u32> = vec![0, 1, 255, 256, 65_535, 65_536, 1 << 24, u32::MAX];
    values.extend((0..4_000).map(|i| (next() as u32) >> (8 * (i % 4))));
    for len in [0, 1, 2, 7, 100, values.len()] {
        assert_eq!(checksum_of(values[..len].iter().copied()), by_definition(&values[..len]), "{len} values");
    }
    assert_eq!(checksum_of([]), 0xcbf2_9ce4_8422_2325);
}

#[test]
fn the_octal_family_is_every_code_once() {
    let codes = takeaway_core::octal_codes(4, 3);
    assert_eq!(codes.len(), 7 + 56 + 448);
    assert_eq!(codes.first().map(String::as_str), Some("4.1"));
    assert_eq!(codes.last().map(String::as_str), Some("4.777"));
    let family = args(json!({ "octal": 4 })).family().expect("a family");
    assert_eq!(family.len(), 8190);
    let leading = args(json!({ "octal": 2, "leading": [0] })).family().expect("a family");
    assert_eq!(leading.len(), 63);
}

#[test]
fn wrong_requests_are_refused_with_the_argument_named() {
    for (request, argument) in [
        (json!({}), "octal"),
        (json!({ "octal": 2, "codes": ["0.16"] }), "octal"),
        (json!({ "octal": 7 }), "octal"),
        (json!({ "octal": 2, "leading": [8] }), "leading"),
        (json!({ "octal": 2, "upto": 0 }), "upto"),
        (json!({ "octal": 2, "workers": 0 }), "workers"),
        (json!({ "each": ["k=1..3"], "octal": 1 }), "each"),
    ] {
        let serde_json::Value::Object(map) = request.clone() else { unreachable!() };
        let failure = SweepArgs::parse(map).expect_err("refused");
        assert_eq!(failure.code().as_deref(), Some("takeaway::query::invalid"), "{request}");
        assert!(failure.render(false).contains(argument), "{request}: {}", failure.render(false));
    }
    let serde_json::Value::Object(map) = json!({ "codes": ["0.9"] }) else { unreachable!() };
    let failure = SweepArgs::parse(map).and_then(|a| a.family()).expect_err("not a code");
    assert!(failure.render(false).contains("is not an octal code"));
    // `.161` is 0.161, as the field's tables write it.
    let serde_json::Value::Object(map) = json!({ "codes": [".161", "4.3"] }) else { unreachable!() };
    let family = SweepArgs::parse(map).and_then(|a| a.family()).expect("codes");
    assert_eq!(family.iter().map(|g| g.label.as_str()).collect::<Vec<_>>(), ["0.161", "4.3"]);
    let serde_json::Value::Object(map) = json!({ "codes": [".9"] }) else { unreachable!() };
    let failure = SweepArgs::parse(map).and_then(|a| a.family()).expect_err("not a code");
    assert!(failure.render(false).contains("`.9` is not an octal code"));
    let serde_json::Value::Object(map) = json!({ "octal": 2, "colour": 1 }) else { unreachable!() };
    assert_eq!(SweepArgs::parse(map).expect_err("unknown").code().as_deref(), Some("takeaway::query::arguments"));
    // A slip is answered with the argument meant and every argument a sweep takes (it was once
    // told that `sweep` takes no arguments).
    let serde_json::Value::Object(map) = json!({ "octal": 2, "uptoo": 5 }) else { unreachable!() };
    let said = SweepArgs::parse(map).expect_err("unknown").data().remove(0).help.unwrap_or_default();
    assert_eq!(
        said,
        "did you mean `upto`? `sweep` takes octal, at_least, leading, codes, games, game, each, upto, out, checkpoints, workers, histograms"
    );
}

#[test]
fn a_failing_game_is_its_row() {
    let rows = rows(json!({
        "games": [
            { "source": "game \"bad\"\npile\nmove: take 1..\n", "name": "bad.game" },
            { "source": "game \"misere\"\npiles\nmove: octal 0.77\nplay misère\n", "name": "misere.game" },
            { "source": "game \"kayles\"\npiles\nmove: octal 0.77\n", "name": "kayles.game" }
        ],
        "upto": 1000
    }));
    assert_eq!(
        rows.iter().map(|r| r.status).collect::<Vec<_>>(),
        [RowStatus::Refused, RowStatus::Refused, RowStatus::Proven]
    );
    assert!(rows[0].error_code.as_deref().is_some_and(|c| c.starts_with("takeaway::parse")));
    assert_eq!(rows[1].error_code.as_deref(), Some("takeaway::period::misere"));
    assert_eq!((rows[2].preperiod, rows[2].period), (Some(71), Some(12)));
}

#[test]
fn a_game_past_its_budget_is_a_stopped_row_that_a_checkpoint_resumes() {
    let dir = tempfile::tempdir().expect("a folder");
    let request = json!({ "codes": ["0.6", "0.77"], "upto": 1 << 20, "checkpoints": dir.path() });
    // 0.6 to 2^20 takes seconds, past a budget of 0.05 s a game; Kayles does not.
    let small = BudgetArgs { timeout: Some(0.05), ..BudgetArgs::default() };
    let first = sweep(&args(request.clone()), &small, &Budget::new(), &|_| {}).expect("the sweep runs").rows;
    assert_eq!(first[0].status, RowStatus::Stopped);
    assert_eq!(first[0].error_code.as_deref(), Some("takeaway::period::stopped"));
    assert!(first[0].values_computed > 0 && first[0].values_computed < 1 << 20);
    assert_eq!(first[1].status, RowStatus::Proven);
    let again = sweep(&args(request), &BudgetArgs::default(), &Budget::new(), &|_| {}).expect("the sweep runs").rows;
    assert_eq!(again[0].status, RowStatus::Open);
    assert_eq!(again[0].resumed_at, Some(first[0].values_computed));
    let whole = rows(json!({ "codes": ["0.6"], "upto": 1 << 20 }));
    assert_eq!(again[0].comparable(), whole[0].comparable());
    // Czajka's figures for 0.6 (to 2^21: largest 319, 1,584 rare, the last at 20,627): the
    // first 2^20 values hold the same last rare value.
    assert_eq!(whole[0].last_rare, Some(20_627));
}

#[test]
fn a_rows_file_is_resumed_and_ends_as_a_whole_run() {
    let dir = tempfile::tempdir().expect("a folder");
    for name in ["rows.jsonl", "rows.csv"] {
        let out = dir.path().join(name);
        let whole = rows(json!({ "octal": 2, "upto": 512 }));
        let seen = Mutex::new(Vec::new());
        let first = sweep(
            &args(json!({ "octal": 2, "upto": 512, "out": out })),
            &BudgetArgs::default(),
            &Budget::new(),
            &|r| seen.lock().unwrap().push(r.game.clone()),
        )
        .expect("the sweep runs");
        assert_eq!(first.resumed, 0);
        assert_eq!(seen.lock().unwrap().len(), 126);
        let text = std::fs::read_to_string(&out).expect("the rows");
        // A kill mid-write: the last 30 rows gone and a line cut short.
        let lines: Vec<&str> = text.lines().collect();
        let kept = lines[..lines.len() - 30].join("\n") + "\n" + &lines[lines.len() - 30][..10];
        std::fs::write(&out, kept).expect("written");
        let again = sweep(
            &args(json!({ "octal": 2, "upto": 512, "out": out })),
            &BudgetArgs::default(),
            &Budget::new(),
            &|_| {},
        )
        .expect("the sweep runs");
        assert_eq!(again.resumed, 96, "{name}");
        let strip = |rows: &[SweepRow]| rows.iter().map(SweepRow::comparable).collect::<Vec<_>>();
        assert_eq!(strip(&again.rows), strip(&whole));
        // The file ends as a whole run's: the same lines in the same order, but for the time.
        let written = std::fs::read_to_string(&out).expect("the rows");
        let first_column =
            |t: &str| t.lines().map(|l| l.split(',').next().unwrap_or("").to_string()).collect::<Vec<_>>();
        assert_eq!(first_column(&written), first_column(&text), "{name}");
        assert_eq!(written.lines().count(), 126 + usize::from(name.ends_with(".csv")));
    }
    // A file that is not a sweep's rows is refused, and left as it was.
    let other = dir.path().join("notes.csv");
    std::fs::write(&other, "my notes\nkeep them\n").expect("written");
    let failure = sweep(&args(json!({ "octal": 1, "out": other })), &BudgetArgs::default(), &Budget::new(), &|_| {})
        .expect_err("refused");
    assert_eq!(failure.code().as_deref(), Some("takeaway::sweep::not_rows"));
    assert_eq!(std::fs::read_to_string(&other).expect("kept"), "my notes\nkeep them\n");
}

#[test]
fn a_range_of_settings_too_wide_for_64_bits_is_refused_not_built() {
    // -5·10¹⁸..5·10¹⁸: the span overflows an i64, and once wrapped to a small number.
    let game = json!({ "source": "game \"S\"\nparam k = 2\npile\nmove: take 1..k\n" });
    for range in ["k=-5000000000000000000..5000000000000000000", "k=-9223372036854775808..9223372036854775807"] {
        let serde_json::Value::Object(map) = json!({ "game": game, "each": [range] }) else { unreachable!() };
        let failure = SweepArgs::parse(map).and_then(|a| a.family()).expect_err("refused");
        assert!(failure.render(false).contains("is not a range of at most 2^20"), "{range}: {}", failure.render(false));
    }
}

#[test]
fn workers_past_the_machine_are_capped_and_give_the_same_rows() {
    // 10⁵ workers once started 10⁵ threads (most of a minute) for one game; now as many as the
    // cores allow, and the rows are those of one worker.
    let many = rows(json!({ "codes": ["0.16", "0.56"], "workers": 100000, "upto": 2000 }));
    let one = rows(json!({ "codes": ["0.16", "0.56"], "workers": 1, "upto": 2000 }));
    let key = |r: &SweepRow| (r.game.clone(), r.values_computed, r.largest_value, r.preperiod, r.period);
    assert_eq!(many.iter().map(key).collect::<Vec<_>>(), one.iter().map(key).collect::<Vec<_>>());
}

#[test]
fn a_parameter_family_is_one_game_a_value() {
    let rows = rows(json!({
        "game": { "source": "game \"S\"\nparam a = 2\nparam b = 3\npile\nmove: take {1, a, b}\n" },
        "each": ["b=4..6"],
        "upto": 500
    }));
    assert_eq!(rows.iter().map(|r| r.game.as_str()).collect::<Vec<_>>(), ["b=4", "b=5", "b=6"]);
    for row in &rows {
        let b: usize = row.game[2..].parse().unwrap();
        let mut g = vec![0u32; 200];
        for n in 1..200 {
            g[n] = crate::common::mex([1, 2, b].iter().filter(|&&t| t <= n).map(|&t| g[n - t]));
        }
        let (pre, p) = (row.preperiod.unwrap() as usize, row.period.unwrap() as usize);
        assert!((pre..150).all(|n| g[n + p] == g[n]), "{}", row.game);
    }
}

/// Values of any octal code by its definition (digit d_k: bit 1 takes k leaving nothing, bit 2
/// leaving one heap, bit 4 leaving two non-empty heaps; a leading 4 splits without taking).
fn by_definition(code: &str, upto: usize) -> Vec<u32> {
    let (lead, rest) = code.split_once('.').expect("a code");
    let digits: Vec<u8> = std::iter::once(lead).chain(rest.split("")).filter_map(|d| d.parse().ok()).collect();
    let mut g: Vec<u32> = Vec::with_capacity(upto);
    for n in 0..upto {
        let mut seen = vec![false; 2 * n + 2];
        for (k, &d) in digits.iter().enumerate().take(n + 1) {
            let left = n - k;
            if d & 1 != 0 && left == 0 && k > 0 {
                seen[0] = true;
            }
            if d & 2 != 0 && left > 0 && k > 0 {
                seen[g[left] as usize] = true;
            }
            if d & 4 != 0 && left >= 2 {
                for a in 1..=left / 2 {
                    let v = (g[a] ^ g[left - a]) as usize;
                    if v < seen.len() {
                        seen[v] = true;
                    }
                }
            }
        }
        g.push(seen.iter().position(|s| !s).unwrap_or(seen.len()) as u32);
    }
    g
}

/// The atlas shipped in docs/atlas/: every code of up to four digits once, each proven or taken
/// as far as the atlas promises, the published periods found again, and every proven period
/// short enough re-checked by the theorem from values computed here by the definition.
#[test]
fn the_shipped_atlas_agrees_with_the_published_tables_and_the_theorem() {
    let path = crate::common::repository_file("docs/atlas/atlas.csv");
    let text = std::fs::read_to_string(path).expect("the atlas");
    let rows = takeaway_core::render::read_sweep_rows(&text, takeaway_core::RowsFormat::Csv).expect("rows");
    let family = args(json!({ "octal": 4 })).family().expect("a family");
    assert_eq!(
        rows.iter().map(|r| r.game.as_str()).collect::<Vec<_>>(),
        family.iter().map(|g| g.label.as_str()).collect::<Vec<_>>()
    );
    let by_code: std::collections::HashMap<&str, &SweepRow> = rows.iter().map(|r| (r.game.as_str(), r)).collect();
    for row in &rows {
        let digits = row.game.len() - 2;
        let promised = if digits <= 3 { 1 << 20 } else { 1 << 17 };
        assert!(
            row.status == RowStatus::Proven || row.values_computed >= promised,
            "{}: {:?} at {}",
            row.game,
            row.status,
            row.values_computed
        );
    }
    // Winning Ways; Gangolli and Plambeck; Austin; Flammenkamp.
    for (code, preperiod, period) in [
        ("0.07", 53, 34),
        ("0.77", 71, 12),
        ("0.137", 52, 34),
        ("0.16", 105_351, 149_459),
        ("0.56", 326_640, 144),
        ("0.127", 46_578, 4),
        ("0.165", 5_181, 1_550),
        ("0.376", 2_268_248, 4),
        ("0.354", 10_061_916, 1_180),
    ] {
        let row = by_code[code];
        assert_eq!(
            (row.status, row.preperiod, row.period),
            (RowStatus::Proven, Some(preperiod), Some(period)),
            "{code}"
        );
    }
    // Open in the published tables, and open here: 0.6 (Czajka, to 2^21: 1,584 rare values, the
    // last at 20,627), 0.04 and 0.06.
    for code in ["0.6", "0.04", "0.06", "0.004", "0.007"] {
        assert_eq!(by_code[code].status, RowStatus::Open, "{code}");
    }
    assert_eq!((by_code["0.6"].rare_values, by_code["0.6"].last_rare), (Some(1_584), Some(20_627)));
    // Every proven period whose proof needs at most 400 values, re-checked from the definition.
    let mut checked = 0;
    for row in rows.iter().filter(|r| r.status == RowStatus::Proven) {
        let (pre, p) = (row.preperiod.unwrap() as usize, row.period.unwrap() as usize);
        let t = row.game.len() - 2;
        let need = 2 * pre + p + t;
        if need + p > 400 {
            continue;
        }
        let g = by_definition(&row.game, need + p);
        assert!((pre..need).all(|n| g[n + p] == g[n]), "{}: the theorem's range repeats", row.game);
        assert!(pre == 0 || g[pre - 1] != g[pre - 1 + p], "{}: the smallest preperiod", row.game);
        let checksum = format!("{:016x}", checksum_of(g[..pre + p].iter().copied()));
        assert_eq!(row.checksum.as_deref(), Some(checksum.as_str()), "{}", row.game);
        checked += 1;
    }
    assert!(checked > 4_000, "{checked} re-checked");
}

/// Counts the progress reported to it, stage by stage.
#[derive(Default)]
struct Heard(Mutex<Vec<(takeaway_core::Stage, u64, u64)>>);

impl takeaway_core::Reporter for Heard {
    fn report(&self, stage: takeaway_core::Stage, done: u64, total: u64) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).push((stage, done, total));
    }
}

/// A sweep of one game (a record run) reports that game's values as they are computed, toward
/// `upto`, to the sweep's own budget (the command line's progress bar); a sweep of a family
/// reports nothing but its rows.
#[test]
fn a_sweep_of_one_game_reports_its_progress_and_a_family_its_rows() {
    let upto = 1u64 << 15;
    let heard = |codes: &[&str]| {
        let sink = std::sync::Arc::new(Heard::default());
        let question = Budget::new().progress(takeaway_core::Progress::to(sink.clone()));
        let rows = sweep(&args(json!({ "codes": codes, "upto": upto })), &BudgetArgs::default(), &question, &|_| {})
            .expect("the sweep runs")
            .rows;
        let heard = sink.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
        (rows, heard)
    };
    // 0.06 has no period to prove: every value up to `upto` is computed.
    let (rows, one) = heard(&["0.06"]);
    assert_eq!(rows[0].values_computed, upto);
    assert!(!one.is_empty(), "one game's progress was heard");
    assert!(
        one.iter()
            .all(|&(stage, done, total)| stage == takeaway_core::Stage::PileValues && done <= total && total == upto),
        "{one:?}"
    );
    assert!(one.windows(2).all(|w| w[0].1 <= w[1].1), "the values counted only go up: {one:?}");
    let (rows, family) = heard(&["0.06", "0.07"]);
    assert_eq!(rows.len(), 2);
    assert!(family.is_empty(), "{family:?}");
}

/// Ctrl-C (a cancelled question) stops a sweep with the rows finished kept in its rows file; the
/// diagnostic says how many, and that the same sweep again goes on from them, which it does, to
/// the rows of a whole run.
#[test]
fn a_stopped_sweep_says_a_rerun_goes_on_and_one_does() {
    let dir = tempfile::tempdir().expect("a folder");
    let out = dir.path().join("rows.jsonl");
    let request = json!({ "octal": 2, "upto": 512, "out": out, "workers": 1 });
    let token = takeaway_core::CancelToken::new();
    let question = Budget::new().cancel(token.clone());
    let seen = Mutex::new(0usize);
    let failure = sweep(&args(request.clone()), &BudgetArgs::default(), &question, &|_| {
        let mut seen = seen.lock().unwrap();
        *seen += 1;
        if *seen == 10 {
            token.cancel();
        }
    })
    .expect_err("stopped");
    assert_eq!(failure.code().as_deref(), Some("takeaway::sweep::stopped"));
    assert_eq!(failure.kind(), takeaway_core::FailureKind::Cancelled);
    let kept = std::fs::read_to_string(&out).expect("the rows").lines().count();
    let said = failure.to_string();
    assert!(said.contains(&format!("with {kept} of its 126 games finished")), "{said}: {kept} rows kept");
    let help = format!("{:?}", failure.errors.first().and_then(|e| miette::Diagnostic::help(e).map(|h| h.to_string())));
    assert!(help.contains("go on from them"), "{help}");
    let again = sweep(&args(request), &BudgetArgs::default(), &Budget::new(), &|_| {}).expect("the sweep runs");
    assert_eq!(again.resumed, kept);
    let strip = |rows: &[SweepRow]| rows.iter().map(SweepRow::comparable).collect::<Vec<_>>();
    assert_eq!(strip(&again.rows), strip(&rows(json!({ "octal": 2, "upto": 512 }))));
}

fn sweep_to(
    request: serde_json::Value,
    budget: &BudgetArgs,
) -> Result<takeaway_core::SweepReport, takeaway_core::Failure> {
    sweep(&args(request), budget, &Budget::new(), &|_| {})
}

#[test]
fn a_rows_file_that_is_not_this_familys_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().expect("a folder");
    for name in ["rows.jsonl", "rows.csv"] {
        let out = dir.path().join(name);
        sweep_to(json!({ "codes": ["0.77", "0.137", "0.6"], "upto": 256, "out": out }), &BudgetArgs::default())
            .expect("the sweep runs");
        let before = std::fs::read(&out).expect("the rows");
        let failure = sweep_to(json!({ "codes": ["0.77"], "upto": 256, "out": out }), &BudgetArgs::default())
            .expect_err("another family");
        assert_eq!(failure.code().as_deref(), Some("takeaway::sweep::other_family"), "{name}");
        assert_eq!(std::fs::read(&out).expect("kept"), before, "{name}: the rows are all there");
        // A larger family that holds these games goes on from them.
        let more = sweep_to(
            json!({ "codes": ["0.77", "0.137", "0.6", "0.07"], "upto": 256, "out": out }),
            &BudgetArgs::default(),
        )
        .expect("the sweep runs");
        assert_eq!(more.resumed, 3, "{name}");
    }
    // Text files with no newline (a settings file, a one-line note): refused, unchanged.
    for (name, text) in [("settings.json", "{\"theme\": \"dark\"}"), ("note.csv", "buy milk"), ("x.jsonl", "[1, 2]")] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("written");
        let failure = sweep_to(json!({ "codes": ["0.77"], "upto": 64, "out": path }), &BudgetArgs::default())
            .expect_err("not rows");
        assert_eq!(failure.code().as_deref(), Some("takeaway::sweep::not_rows"), "{name}");
        assert_eq!(std::fs::read_to_string(&path).expect("kept"), text, "{name}");
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_a_link_to_one_and_a_rows_file_in_use_are_refused_at_once() {
    let dir = tempfile::tempdir().expect("a folder");
    let fifo = dir.path().join("pipe.jsonl");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&fifo, &link).expect("a link");
    for path in [&fifo, &link] {
        let failure = sweep_to(json!({ "codes": ["0.77"], "upto": 64, "out": path }), &BudgetArgs::default())
            .expect_err("refused");
        assert_eq!(failure.code().as_deref(), Some("takeaway::sweep::not_a_file"), "{}", path.display());
    }
    // A second sweep on a file another has open: refused, never run beside it.
    let out = dir.path().join("rows.jsonl");
    let asked =
        takeaway_core::asked_of_family(&args(json!({ "codes": ["0.77"], "upto": 64 })).family().unwrap(), 64, false);
    let held = takeaway_core::RowsFile::open(&out, &|label| asked.get(label).cloned()).expect("opens");
    let failure =
        sweep_to(json!({ "codes": ["0.77"], "upto": 64, "out": out }), &BudgetArgs::default()).expect_err("busy");
    assert_eq!(failure.code().as_deref(), Some("takeaway::sweep::busy"));
    drop(held);
    sweep_to(json!({ "codes": ["0.77"], "upto": 64, "out": out }), &BudgetArgs::default()).expect("free again");
}

#[test]
fn a_rerun_redoes_the_rows_whose_question_changed_and_goes_on_from_stopped_ones() {
    let dir = tempfile::tempdir().expect("a folder");
    let out = dir.path().join("rows.jsonl");
    let game = |takes: &str| json!({ "source": format!("game \"s\"\npile\nmove: take {takes}\n") });
    let family = |takes: &str, upto: u64| json!({ "games": [game(takes)], "codes": [], "upto": upto, "out": out });
    let first = sweep_to(family("1..2", 100), &BudgetArgs::default()).expect("runs").rows;
    assert_eq!(first[0].period, Some(3));
    // The same question: kept.
    assert_eq!(sweep_to(family("1..2", 100), &BudgetArgs::default()).expect("runs").resumed, 1);
    // The game edited: its period is now 5, not the old row's 3.
    let edited = sweep_to(family("1..4", 100), &BudgetArgs::default()).expect("runs");
    assert_eq!((edited.resumed, edited.rows[0].period), (0, Some(5)));
    // A larger --upto for an open row: computed again, to the new bound.
    let open = json!({ "codes": ["0.6"], "upto": 100, "out": out.with_file_name("open.jsonl") });
    let small = sweep_to(open.clone(), &BudgetArgs::default()).expect("runs").rows;
    assert_eq!((small[0].status, small[0].values_computed), (RowStatus::Open, 100));
    let mut larger = open.clone();
    larger["upto"] = json!(400);
    let larger = sweep_to(larger, &BudgetArgs::default()).expect("runs");
    assert_eq!((larger.resumed, larger.rows[0].values_computed), (0, 400));
    // A stopped row goes on from its checkpoint on a rerun with the same rows file.
    let stopped = json!({ "codes": ["0.6"], "upto": 1 << 20, "out": out.with_file_name("stopped.csv"), "checkpoints": dir.path().join("ck") });
    let small = BudgetArgs { timeout: Some(0.05), ..BudgetArgs::default() };
    let first = sweep_to(stopped.clone(), &small).expect("runs").rows;
    assert_eq!(first[0].status, RowStatus::Stopped);
    let again = sweep_to(stopped, &BudgetArgs::default()).expect("runs");
    assert_eq!(again.resumed, 0);
    assert_eq!(again.rows[0].status, RowStatus::Open);
    assert_eq!(again.rows[0].resumed_at, Some(first[0].values_computed));
}

#[test]
fn histograms_at_every_power_of_two_agree_with_counts_made_apart() {
    // Officers (0.6) and 0.106 to 2^20, open and far from periodic there: the row's histograms
    // at 2^17 and 2^20 against the values of the test's own sparse-space scan, counted here;
    // the same values' checksum too.
    let upto = 1usize << 20;
    for code in ["0.6", "0.106"] {
        let mut digits = [0u8; 3];
        for (i, c) in code[2..].bytes().enumerate() {
            digits[i] = c - b'0';
        }
        let values = octal_by_rare_parts(digits, upto);
        let row = &rows(json!({ "codes": [code], "upto": upto, "histograms": true }))[0];
        assert_eq!(row.checksum, Some(format!("{:016x}", checksum_of(values.iter().map(|&v| v as u32)))), "{code}");
        let histograms = row.histograms.as_ref().expect("asked for");
        let powers: Vec<u64> = histograms.iter().map(|h| h.values).collect();
        assert_eq!(powers, (0..=20).map(|k| 1u64 << k).collect::<Vec<_>>(), "{code}");
        for k in [17, 20] {
            let len = 1usize << k;
            let mut counts = vec![0u64; *values[..len].iter().max().expect("values") as usize + 1];
            for &v in &values[..len] {
                counts[v as usize] += 1;
            }
            assert_eq!(histograms[k].counts, counts, "{code} at 2^{k}");
            assert_eq!(histograms[k].counts.iter().sum::<u64>(), len as u64);
        }
    }
    // Rows without them say nothing of them; a CSV rows file has no room for them.
    assert!(rows(json!({ "codes": ["0.6"], "upto": 4096 }))[0].histograms.is_none());
    let serde_json::Value::Object(map) = json!({ "codes": ["0.6"], "histograms": true, "out": "rows.csv" }) else {
        unreachable!()
    };
    assert!(SweepArgs::parse(map).is_err());
}

/// Values of the octal code 0.d₁d₂d₃ to `upto` (piles 0 up to one less) by the test's own
/// sparse-space scan, exact whatever the classes: a pile's options with a rare part are all
/// marked, and the values its common pairs can reach are looked for among every split until
/// each one below the answer is found (or shown missing). The classes are those leaving the
/// fewest rare values among the first 2^17 values by the definition: they only make it fast.
fn octal_by_rare_parts(digits: [u8; 3], upto: usize) -> Vec<u16> {
    let head = octal_by_definition(digits, (1 << 17).min(upto));
    let class = |v: u16, mask: u16| (v & mask).count_ones() as usize & 1;
    // Only classes that make a pile's common values unreachable by splits into two common
    // piles: a split of n − t XORs to class 0 when n − t is even, parity[0] ^ parity[1] when odd.
    let splits: Vec<usize> = (0..3).filter(|&i| digits[i] & 4 != 0).map(|i| i + 1).collect();
    let sparse = |parity: [usize; 2]| {
        (0..2).all(|p| splits.iter().all(|&t| (if (p + t) % 2 == 0 { 0 } else { parity[0] ^ parity[1] }) != parity[p]))
    };
    let mut best = (usize::MAX, 1u16, [0usize, 1]);
    for mask in 1..512u16 {
        for parity in [[0, 0], [0, 1], [1, 0], [1, 1]].into_iter().filter(|&p| sparse(p)) {
            let rare = head.iter().enumerate().filter(|&(n, &v)| class(v, mask) != parity[n & 1]).count();
            if rare < best.0 {
                best = (rare, mask, parity);
            }
        }
    }
    let (_, mask, parity) = best;
    let mut g = vec![0u16; upto];
    let mut rare: Vec<usize> = Vec::new();
    let mut seen = vec![0usize; 1 << 16];
    for n in 1..upto {
        let stamp = n;
        // The classes a split into two common piles reaches, by the parity of what is split.
        let mut common_pairs = [false; 2];
        for (i, &d) in digits.iter().enumerate() {
            let t = i + 1;
            if t > n {
                break;
            }
            let rest = n - t;
            if d & 1 != 0 && rest == 0 {
                seen[0] = stamp;
            }
            if d & 2 != 0 && rest > 0 {
                seen[g[rest] as usize] = stamp;
            }
            if d & 4 != 0 && rest >= 2 {
                common_pairs[if rest % 2 == 0 { 0 } else { parity[0] ^ parity[1] }] = true;
                for &r in rare.iter().take_while(|&&r| r < rest) {
                    seen[(g[r] ^ g[rest - r]) as usize] = stamp;
                }
            }
        }
        // The least value no option with a rare part reaches, in a class no common pair reaches.
        let answer = (0..).find(|&v: &usize| seen[v] != stamp && !common_pairs[class(v as u16, mask)]).unwrap_or(0);
        let mut missing: Vec<usize> = (0..answer).filter(|&v| seen[v] != stamp).collect();
        if !missing.is_empty() {
            'scan: for (i, &d) in digits.iter().enumerate() {
                let t = i + 1;
                if d & 4 == 0 || n < t + 2 {
                    continue;
                }
                let rest = n - t;
                for a in 1..=rest / 2 {
                    seen[(g[a] ^ g[rest - a]) as usize] = stamp;
                    if a % 16 == 0 {
                        missing.retain(|&v| seen[v] != stamp);
                        if missing.is_empty() {
                            break 'scan;
                        }
                    }
                }
            }
            missing.retain(|&v| seen[v] != stamp);
        }
        g[n] = missing.first().copied().unwrap_or(answer) as u16;
        if class(g[n], mask) != parity[n & 1] {
            rare.push(n);
        }
    }
    g
}
