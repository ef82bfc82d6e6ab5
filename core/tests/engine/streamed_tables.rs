//! Tables written as their rows are made (`write_table`) against the same tables made whole
//! (`ask`, then `render`): the same bytes for every kind of game that has tables, and rows of a
//! ten-million-row table checked one by one against values computed here by the definition.

use takeaway_core::{
    load_game, render, write_table, Budget, Games, Loaded, NoLibrary, Request, Source, TableArgs, TableFormat,
};

use crate::common::{games_dir, loaded};

/// The table made whole and rendered in each format, or the failure's code.
fn whole(game: &Loaded, args: &TableArgs, budget: &Budget) -> [Result<Vec<u8>, String>; 2] {
    let request = Request::Table(args.clone());
    match takeaway_core::ask(game, &request, &NoLibrary, budget) {
        Ok(answer) => [
            render::csv(&answer).map(String::into_bytes).map_err(|e| e.to_string()),
            Ok(render::json_text(&answer).into_bytes()),
        ],
        Err(f) => [Err(f.code().unwrap_or_default()), Err(f.code().unwrap_or_default())],
    }
}

/// The table as `write_table` writes it, or the failure's code.
fn streamed(game: &Loaded, args: &TableArgs, budget: &Budget, format: TableFormat) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    match write_table(game, args, budget, format, &mut out) {
        Ok(Ok(())) => Ok(out),
        Ok(Err(e)) => Err(format!("io: {e}")),
        Err(f) => Err(f.code().unwrap_or_default()),
    }
}

fn same_bytes(name: &str, game: &Loaded, args: &TableArgs, budget: &Budget) {
    let [csv, json] = whole(game, args, budget);
    for (format, held) in [(TableFormat::Csv, csv), (TableFormat::Json, json)] {
        let made = streamed(game, args, budget, format);
        if held != made {
            let show = |r: &Result<Vec<u8>, String>| match r {
                Ok(bytes) => String::from_utf8_lossy(&bytes[..bytes.len().min(400)]).into_owned(),
                Err(code) => format!("failed: {code}"),
            };
            panic!(
                "{name}, {args:?}, {format:?}: streamed differs from whole\nwhole:\n{}\nstreamed:\n{}",
                show(&held),
                show(&made)
            );
        }
    }
}

fn table(upto: u64) -> TableArgs {
    TableArgs { upto, ..Default::default() }
}

#[test]
fn every_bundled_game_streams_the_bytes_of_its_whole_table() {
    let mut files: Vec<_> = std::fs::read_dir(games_dir())
        .expect("games/ is there")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "the bundled games are found");
    let budget = Budget::new();
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(&path).expect("a game file reads");
        let library = Games { dir: games_dir(), session: Vec::new() };
        let game = load_game(Source::new(&name, &text), "game", &[], &library, &budget)
            .unwrap_or_else(|f| panic!("{name} does not load: {f}"));
        let small = match name.as_str() {
            "chomp.game" | "three-pile-wythoff.game" => 5,
            "r-wythoff.game" => 30,
            _ => 200,
        };
        for upto in [0, 1, 12, small] {
            same_bytes(&name, &game, &table(upto), &budget);
        }
        // The other columns and shapes: made whole by both (or refused alike).
        same_bytes(&name, &game, &TableArgs { remoteness: true, ..table(10) }, &budget);
        same_bytes(&name, &game, &TableArgs { by_last: true, ..table(9) }, &budget);
        same_bytes(&name, &game, &TableArgs { piles: Some(2), ..table(9) }, &budget);
        same_bytes(&name, &game, &TableArgs { period_values: Some(100), ..table(30) }, &budget);
    }
}

#[test]
fn each_kind_of_column_streams_the_bytes_of_its_whole_table() {
    // Room for the whole tables to be held, so that both ways are made.
    let budget = Budget::new().max_states(3_000_000).timeout(Some(600.0));
    let games = [
        // a period proven early (Kayles: 12 from 71), its rows from the period
        ("kayles", "game \"Kayles\"\npiles\nmove: octal 0.77\n", 1_000_000),
        // no period: every value stored (Grundy's game)
        ("grundy", "game \"Grundy's game\"\npiles\nmove: split unequal\n", 100_000),
        // Nim's heaps: no values at all (Bouton)
        ("nim", "game \"Nim\"\npiles\nmove: take any\n", 200_000),
        // a subtraction game proven by its window theorem
        ("subtraction", "game \"S\"\npiles\nmove: take 2, 5 or 7\n", 500_000),
        // rules that read n, values listed pile by pile
        ("prime", "game \"P\"\npiles\nmove: take t where prime(t)\n", 3_000),
        // a coin-turning game (its rows are coins)
        ("ruler", &std::fs::read_to_string(games_dir().join("ruler.game")).expect("ruler.game"), 4_000),
        // a long period, proven past the table's rows (0.16: 149,459 from 105,351)
        ("0.16", "game \"0.16\"\npiles\nmove: octal 0.16\n", 300_000),
    ];
    for (name, text, upto) in games {
        let game = loaded(text);
        for upto in [upto, upto / 3 + 1] {
            same_bytes(name, &game, &table(upto), &budget);
        }
    }
}

/// Kayles by its definition: remove one or two adjacent pins, the rest in one or two rows.
fn kayles_by_definition(upto: usize) -> Vec<u64> {
    let mut g = vec![0u64; upto + 1];
    for n in 1..=upto {
        let mut seen = vec![false; 2 * n + 2];
        for take in 1..=2.min(n) {
            for left in 0..=(n - take) {
                let right = n - take - left;
                seen[(g[left] ^ g[right]) as usize] = true;
            }
        }
        g[n] = seen.iter().position(|s| !s).unwrap_or(0) as u64;
    }
    g
}

/// Checks each line of a CSV table as it is written: `n,outcome,grundy`, against the values.
struct CheckedRows<'a> {
    expected: &'a dyn Fn(u64) -> u64,
    partial: Vec<u8>,
    rows: u64,
}

impl std::io::Write for CheckedRows<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        let mut start = 0;
        while let Some(end) = self.partial[start..].iter().position(|&b| b == b'\n') {
            let line = &self.partial[start..start + end];
            start += end + 1;
            if line == b"n,outcome,grundy" {
                continue;
            }
            let text = std::str::from_utf8(line).expect("UTF-8");
            let mut cells = text.split(',');
            let n: u64 = cells.next().and_then(|c| c.parse().ok()).expect("a pile");
            let outcome = cells.next().expect("an outcome");
            let g: u64 = cells.next().and_then(|c| c.parse().ok()).expect("a value");
            assert_eq!(n, self.rows, "rows in order");
            let want = (self.expected)(n);
            assert_eq!((g, outcome), (want, if want == 0 { "P" } else { "N" }), "pile {n}");
            self.rows += 1;
        }
        self.partial.drain(..start);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn ten_million_rows_of_kayles_are_its_values() {
    // Past its 71st pile Kayles repeats with period 12 (Guy and Smith): piles beyond the
    // computed values are checked by that theorem, the first 3,000 by the definition itself.
    let known = kayles_by_definition(3_000);
    for n in 71..3_000 - 12 {
        assert_eq!(known[n], known[n + 12], "the period the theory gives, at {n}");
    }
    let expected = |n: u64| if n < 3_000 { known[n as usize] } else { known[(71 + (n - 71) % 12) as usize] };
    let game = loaded("game \"Kayles\"\npiles\nmove: octal 0.77\n");
    let upto = 10_000_000 - 1;
    let mut sink = CheckedRows { expected: &expected, partial: Vec::new(), rows: 0 };
    let written = write_table(&game, &table(upto), &Budget::new(), TableFormat::Csv, &mut sink);
    assert!(matches!(written, Ok(Ok(()))), "the table is written on the default budget");
    assert_eq!(sink.rows, upto + 1);
    assert!(sink.partial.is_empty(), "the last row ends its line");
}

#[test]
fn a_table_too_long_to_write_is_refused_at_once_and_the_text_table_for_its_rows() {
    let game = loaded("game \"Kayles\"\npiles\nmove: octal 0.77\n");
    let started = std::time::Instant::now();
    let refused = streamed(&game, &table(1_000_000_000_000), &Budget::new(), TableFormat::Csv);
    assert_eq!(refused, Err("takeaway::table::too_long_to_write".to_string()));
    assert!(started.elapsed().as_secs_f64() < 1.0, "refused from the estimate");
    // Held whole (the text a terminal reads), ten million rows are refused for their memory.
    let request = Request::Table(table(10_000_000));
    let held = takeaway_core::ask(&game, &request, &NoLibrary, &Budget::new());
    assert_eq!(held.err().and_then(|f| f.code()), Some("takeaway::table::too_many_rows".to_string()));
}

#[test]
fn a_streamed_table_stops_at_its_deadline_with_the_rows_so_far() {
    // Grundy's game to 2²⁴ needs longer than a tenth of a second: stopped, never a hang.
    let game = loaded("game \"Grundy's game\"\npiles\nmove: split unequal\n");
    let budget = Budget::new().timeout(Some(0.1));
    let result = streamed(&game, &table(1 << 24), &budget, TableFormat::Json);
    let code = result.expect_err("stopped");
    assert!(code.starts_with("takeaway::"), "{code}");
}
