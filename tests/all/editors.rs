//! Highlighting without a server: `editors/takeaway.tmLanguage.json` (and its copy in the VS Code
//! folder) has every keyword of the pest grammar and no other, and read the way a TextMate
//! editor reads it (the patterns in order, the first match at each place) it colours every
//! bundled game file: comments, names in quotes, where rules start, keywords, numbers.

use std::path::Path;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn grammar() -> Value {
    let text = std::fs::read_to_string(root().join("editors/takeaway.tmLanguage.json")).expect("the grammar");
    serde_json::from_str(&text).expect("the grammar is JSON")
}

/// The words of the pest grammar's keyword rules (`kw_take = @{ "take" ~ word_end }`).
fn pest_keywords() -> Vec<String> {
    let pest = std::fs::read_to_string(root().join("grammar/takeaway.pest")).expect("the pest grammar");
    let mut words: Vec<String> = pest
        .lines()
        .filter(|l| l.starts_with("kw_"))
        .flat_map(|l| l.split('"').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>())
        .collect();
    words.sort();
    words.dedup();
    words
}

/// The patterns in the order the grammar includes them: (scope of each group, regex).
fn patterns(g: &Value) -> Vec<(Vec<String>, regex::Regex)> {
    let mut out = Vec::new();
    for include in g["patterns"].as_array().expect("patterns") {
        let name = include["include"].as_str().expect("an include").trim_start_matches('#');
        let rule = &g["repository"][name];
        let re = regex::Regex::new(rule["match"].as_str().expect("a match")).expect("a regex Rust reads too");
        let scopes: Vec<String> = match rule.get("captures") {
            Some(c) => {
                (1..re.captures_len()).map(|i| c[i.to_string()]["name"].as_str().unwrap_or("").to_string()).collect()
            }
            None => vec![rule["name"].as_str().expect("a scope").to_string()],
        };
        out.push((scopes, re));
    }
    out
}

/// Each scoped piece of `line` as a TextMate editor finds them: at each place the first
/// pattern that matches there.
fn tokens(line: &str, patterns: &[(Vec<String>, regex::Regex)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < line.len() {
        let found = patterns.iter().find_map(|(scopes, re)| {
            re.captures_at(line, at)
                .filter(|c| c.get(0).is_some_and(|m| m.start() == at && !m.is_empty()))
                .map(|c| (scopes, c))
        });
        match found {
            Some((scopes, caps)) => {
                if caps.len() == 1 {
                    out.push((scopes[0].clone(), caps[0].to_string()));
                } else {
                    for (i, scope) in scopes.iter().enumerate() {
                        if let Some(m) = caps.get(i + 1) {
                            out.push((scope.clone(), m.as_str().to_string()));
                        }
                    }
                }
                at = caps.get(0).map_or(at + 1, |m| m.end());
            }
            None => at += line[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    out
}

#[test]
fn the_grammar_has_every_keyword_of_the_language_and_no_other() {
    let g = grammar();
    let keyword = g["repository"]["keyword"]["match"].as_str().expect("the keyword pattern");
    let listed = keyword.trim_start_matches("\\b(?:").trim_end_matches(")\\b");
    let mut words: Vec<String> = listed.split('|').map(str::to_string).collect();
    words.sort();
    assert_eq!(words, pest_keywords());
    assert_eq!(g["scopeName"], "source.takeaway");
    assert_eq!(g["fileTypes"], serde_json::json!(["game"]));
    // The VS Code folder carries the same grammar, and names the files it is for.
    let copy = std::fs::read_to_string(root().join("editors/vscode/syntaxes/takeaway.tmLanguage.json")).unwrap();
    assert_eq!(copy, std::fs::read_to_string(root().join("editors/takeaway.tmLanguage.json")).unwrap());
    let package: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("editors/vscode/package.json")).unwrap()).unwrap();
    assert_eq!(package["contributes"]["languages"][0]["extensions"], serde_json::json!([".game"]));
    let path = package["contributes"]["grammars"][0]["path"].as_str().unwrap();
    assert!(root().join("editors/vscode").join(path).is_file(), "{path}");
}

#[test]
fn every_bundled_game_file_is_coloured_as_the_language_reads_it() {
    let g = grammar();
    let patterns = patterns(&g);
    let keywords = pest_keywords();
    let mut files = 0;
    for entry in std::fs::read_dir(root().join("games")).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "game") {
            continue;
        }
        files += 1;
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let toks = tokens(line, &patterns);
            let name = path.display();
            if line.starts_with('#') {
                assert_eq!(toks, [("comment.line.number-sign.takeaway".to_string(), line.to_string())], "{name}");
                continue;
            }
            if let Some(quoted) = line.strip_prefix("game ") {
                let quoted = quoted.split(" #").next().unwrap().trim();
                assert!(toks.contains(&("string.quoted.double.takeaway".into(), quoted.into())), "{name}: {toks:?}");
            }
            if line.contains("move:") {
                assert!(toks.contains(&("keyword.control.takeaway".into(), "move".into())), "{name}: {toks:?}");
            }
            // Outside comments and names, every word of the language is a keyword, and every
            // number is a number (or part of an octal code).
            let code = line.split('#').next().unwrap();
            let code = if code.starts_with("game ") { "" } else { code };
            for word in code.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()) {
                let scoped = toks.iter().find(|(_, t)| t == word).map(|(s, _)| s.as_str());
                if keywords.iter().any(|k| k == word) && !code.contains(&format!("{word}(")) {
                    assert!(
                        matches!(scoped, Some("keyword.other.takeaway" | "keyword.control.takeaway")),
                        "{name}: `{word}` in `{line}`: {toks:?}"
                    );
                }
                if word.chars().all(|c| c.is_ascii_digit()) {
                    assert!(
                        toks.iter().any(|(s, t)| s == "constant.numeric.takeaway" && t.contains(word)),
                        "{name}: {word}"
                    );
                }
            }
        }
    }
    assert!(files >= 40, "{files} game files");
}

/// The manual's keyword table and the server's hover say the same of every word of the
/// grammar.
#[test]
fn the_manuals_keyword_table_is_the_servers_hover_for_every_word() {
    let manual = std::fs::read_to_string(root().join("docs/src/language.md")).expect("the language chapter");
    let section = manual.split("## Keywords").nth(1).expect("a keyword section").split("\n## ").next().unwrap_or("");
    let rows: Vec<(String, String)> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` | "))
        .map(|(word, rest)| (word.to_string(), rest.trim_end_matches(" |").to_string()))
        .collect();
    for word in pest_keywords() {
        let row = rows.iter().find(|(w, _)| *w == word).unwrap_or_else(|| panic!("`{word}` has no row in the manual"));
        assert_eq!(takeaway_core::text::keyword_help(&word), Some(row.1.as_str()), "`{word}`");
    }
    assert_eq!(rows.len(), pest_keywords().len(), "a row for a word the grammar does not have: {rows:?}");
}

/// `takeaway fmt`: every bundled game is formatted; a messy file is named by `--check` and left
/// as it is, then rewritten; a file that does not parse gets its diagnostic and is left alone;
/// `-` formats standard input.
#[test]
fn takeaway_fmt_checks_rewrites_and_leaves_a_broken_file_alone() {
    let mut games: Vec<String> = std::fs::read_dir(root().join("games"))
        .expect("games/")
        .filter_map(|e| e.ok())
        .map(|e| format!("games/{}", e.file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".game"))
        .collect();
    games.sort();
    let mut args = vec!["fmt", "--check"];
    args.extend(games.iter().map(String::as_str));
    let run = crate::common::takeaway(&args);
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", ""));

    let dir = crate::common::scratch_dir().join("fmt");
    std::fs::create_dir_all(&dir).expect("a folder");
    let messy = dir.join("messy.game");
    let text = "game  \"M\";pile\nmove :take 1 ,2 or 3   # at most three\n";
    std::fs::write(&messy, text).expect("written");
    let shown = messy.display().to_string();
    let run = crate::common::takeaway(&["fmt", "--check", &shown]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, format!("{shown} is not formatted\n"));
    assert_eq!(std::fs::read_to_string(&messy).expect("the file"), text, "--check changes nothing");
    let run = crate::common::takeaway(&["fmt", &shown]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    let formatted = "game \"M\"\npile\nmove: take 1, 2 or 3  # at most three\n";
    assert_eq!(std::fs::read_to_string(&messy).expect("the file"), formatted);
    // The formatted game is the same game: the same table.
    std::fs::write(dir.join("original.game"), text).expect("written");
    let before = crate::common::takeaway(&["table", &dir.join("original.game").display().to_string(), "20"]);
    let after = crate::common::takeaway(&["table", &shown, "20"]);
    assert_eq!(before.stdout, after.stdout);
    assert!(after.stdout.contains("P-positions: 0, 4, 8, 12, 16, 20"), "{}", after.stdout);

    let broken = dir.join("broken.game");
    std::fs::write(&broken, "pile\nmove: tkae 1\n").expect("written");
    let run = crate::common::takeaway(&["fmt", &broken.display().to_string()]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("takeaway::parse::unexpected") && run.stderr.contains("did you mean `take`?"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&broken).expect("the file"), "pile\nmove: tkae 1\n");

    let output = crate::common::run_stdin(&["fmt", "-"], text);
    assert_eq!(output, formatted);
}

/// The VS Code folder starts the server as `takeaway lsp` from the file its manifest names.
#[test]
fn the_vscode_extension_starts_takeaway_lsp() {
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("editors/vscode/package.json")).expect("package.json"),
    )
    .expect("JSON");
    let main = manifest["main"].as_str().expect("a main file");
    let client = std::fs::read_to_string(root().join("editors/vscode").join(main)).expect("the client");
    assert!(client.contains("args: [\"lsp\"]"), "{client}");
    assert_eq!(manifest["activationEvents"][0], "onLanguage:takeaway");
    assert!(manifest["dependencies"]["vscode-languageclient"].is_string());
}
