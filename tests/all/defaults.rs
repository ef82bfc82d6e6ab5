//! Every default a help text, the REPL's pages, the classroom page's fields or the manual
//! gives is the engine's (`takeaway_core::defaults`): the front ends keep none of their own.
//! Each number written beside "default" is checked against the engine's value for it.

use takeaway_core::defaults;

/// The numbers after each `marker` in `text` (`[default: 512, …]` gives 512; `1,000` is 1000).
fn numbers_after(text: &str, marker: &str) -> Vec<u64> {
    text.match_indices(marker)
        .filter_map(|(at, _)| {
            let rest = &text[at + marker.len()..];
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == ',').collect();
            let digits = digits.trim_end_matches(',').replace(',', "");
            digits.parse().ok()
        })
        .collect()
}

fn help(args: &[&str]) -> String {
    let run = crate::common::takeaway(args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn every_default_a_help_text_gives_is_the_engines() {
    // The engine's default numbers, each where a help text gives it.
    let expected: Vec<(&[&str], u64)> = vec![
        (&["table", "--help"], defaults::PERIOD_VALUES),
        (&["table", "--help"], defaults::MAX_STATES as u64),
        (&["compare", "--help"], defaults::COMPARE_UPTO),
        (&["compare", "--help"], defaults::SHIFT),
        (&["play", "--help"], defaults::STRENGTH as u64),
        (&["play", "--help"], defaults::SEED),
        (&["sweep", "--help"], defaults::SWEEP_UPTO),
    ];
    for (args, number) in &expected {
        assert!(numbers_after(&help(args), "[default: ").contains(number), "{args:?} does not say {number}");
    }
    // And no help text of a question gives a default number the engine does not have (`serve`
    // gives its own address and limits: a server's settings, not a question's).
    let known: Vec<u64> = vec![
        defaults::TABLE_UPTO,
        defaults::PLOT_UPTO,
        defaults::COMPARE_UPTO,
        defaults::PERIOD_UPTO,
        defaults::PERIOD_VALUES,
        defaults::QUOTIENT_HEAPS,
        defaults::SHIFT,
        defaults::STRENGTH as u64,
        defaults::SEED,
        defaults::SWEEP_UPTO,
        defaults::MAX_STATES as u64,
        defaults::SECONDS as u64,
        defaults::MOST_THREADS as u64,
    ];
    for verb in ["check", "solve", "explain", "table", "plot", "quotient", "period", "compare", "play", "sweep", "fmt"]
    {
        let mut text = help(&[verb, "--help"]);
        if verb == "sweep" {
            // A list of digits, not a number: checked whole.
            let leading: Vec<String> = defaults::SWEEP_LEADING.iter().map(u8::to_string).collect();
            let said = format!("[default: {}]", leading.join(","));
            assert!(text.contains(&said), "{text}");
            text = text.replace(&said, "");
        }
        for number in numbers_after(&text, "[default: ") {
            assert!(known.contains(&number), "`takeaway {verb} --help` gives a default of {number}, not the engine's");
        }
        if text.contains("--max-states <N>\n          the most positions") {
            assert!(text.contains(&format!("more than {} seconds", defaults::SECONDS)), "{verb}");
        }
        if text.contains("--threads") {
            assert!(text.contains(&format!("at most {}]", defaults::MOST_THREADS)), "{verb}");
        }
    }
    // The REPL's pages.
    let pages = crate::common::run_stdin(&["repl"], ":help table\n:help period\n:help quotient\n:help plot\n:quit\n");
    let said = numbers_after(&pages, "(default ");
    let wanted = [defaults::TABLE_UPTO, defaults::PERIOD_UPTO, defaults::QUOTIENT_HEAPS, defaults::PLOT_UPTO];
    assert_eq!(said, wanted, "{pages}");
    // The manual's chapter on the command line.
    let manual =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/command-line.md"))
            .expect("the chapter");
    for number in numbers_after(&manual, "(default ") {
        assert!(known.contains(&number), "the manual gives a default of {number}, not the engine's");
    }
    for (text, number) in [
        ("one pile of 0..N (default ", defaults::TABLE_UPTO),
        ("Grundy values of 0..N (default ", defaults::PLOT_UPTO),
        ("(default: from ", defaults::QUOTIENT_HEAPS),
        ("looked at for a period (default ", defaults::PERIOD_VALUES),
        ("remember (default ", defaults::MAX_STATES as u64),
    ] {
        assert_eq!(numbers_after(&manual, text), vec![number], "the manual's {text}…");
    }
}

/// The manual's chapter on editors gives the language server's budgets as the engine has them.
#[test]
fn the_editors_chapter_gives_the_engines_budgets() {
    let chapter = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/editors.md"))
        .expect("the chapter");
    assert_eq!(numbers_after(&chapter, "`hover_seconds` (default "), vec![defaults::EDITOR_HOVER_SECONDS as u64]);
    assert_eq!(numbers_after(&chapter, "`check_seconds` (default "), vec![defaults::EDITOR_CHECK_SECONDS as u64]);
    assert_eq!(defaults::EDITOR_HOVER_SECONDS.fract(), 0.0, "the chapter gives whole seconds");
    assert_eq!(defaults::EDITOR_CHECK_SECONDS.fract(), 0.0, "the chapter gives whole seconds");
}

/// The classroom page's fields, as the page is served before it asks the server (offline):
/// the same numbers as the engine's defaults.
#[test]
fn the_pages_fields_start_at_the_engines_defaults() {
    let page = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/assets/index.html"))
        .expect("the page");
    let value_of = |id: &str| -> u64 {
        let at = page.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no field {id}"));
        numbers_after(&page[at..], "value=\"").first().copied().unwrap_or_else(|| panic!("{id} has no value"))
    };
    assert_eq!(value_of("table-upto"), defaults::TABLE_UPTO);
    assert_eq!(value_of("plot-upto"), defaults::PLOT_UPTO);
    // The strength's first choice, which the page starts at.
    assert_eq!(value_of("play-strength"), defaults::STRENGTH as u64);
}
