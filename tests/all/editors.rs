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
