//! The layers the code has, kept true: within each crate, no module imports (through its own
//! code or its children's, tests included) a sibling that imports it. A sibling is a module of
//! the same parent; `crate::a::b::c` and `super::…` paths are resolved to the deepest module
//! file they name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every module file of a crate's `src/`, by its module path (`["api", "sweep"]`).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut pending = vec![src.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).expect("inside src").with_extension("");
                let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    parts.pop();
                }
                out.insert(parts, path);
            }
        }
    }
    out
}

/// The modules a module's file names: each `crate::` or `super::` path, resolved to the
/// deepest module of the crate it starts with.
fn imports(module: &[String], file: &Path, all: &BTreeMap<Vec<String>, PathBuf>) -> BTreeSet<Vec<String>> {
    let text = std::fs::read_to_string(file).expect("a source file");
    let is_mod_file = matches!(file.file_stem().and_then(|s| s.to_str()), Some("mod" | "lib" | "main"));
    let mut out = BTreeSet::new();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    for (at, _) in text.match_indices("crate::").chain(text.match_indices("super::")) {
        if text[..at].chars().next_back().is_some_and(word) {
            continue;
        }
        let rest = &text[at..];
        // The path's words, and for `super::{a, b}` each name in the braces.
        let head: String = rest.chars().take_while(|&c| word(c) || c == ':').collect();
        let mut words: Vec<&str> = head.split("::").filter(|w| !w.is_empty()).collect();
        let mut base: Vec<String> = Vec::new();
        if words.first() == Some(&"crate") {
            words.remove(0);
        } else {
            // `super` from a file `a/b.rs` is `a`; from `a/mod.rs` it is the parent of `a`.
            base = module.to_vec();
            if is_mod_file || !base.is_empty() {
                base.pop();
            }
            words.remove(0);
            while words.first() == Some(&"super") {
                base.pop();
                words.remove(0);
            }
        }
        let mut names: Vec<Vec<&str>> = vec![words.clone()];
        if let Some(braces) = rest[head.len()..].strip_prefix('{') {
            let inside = &braces[..braces.find('}').unwrap_or(0)];
            names = inside.split(',').map(|n| n.trim().split("::").collect()).collect();
            names.iter_mut().for_each(|n| {
                n.splice(0..0, words.iter().copied());
            });
        }
        for name in names {
            let mut path = base.clone();
            let mut deepest = path.clone();
            for w in name {
                path.push(w.to_string());
                if all.contains_key(&path) {
                    deepest = path.clone();
                }
            }
            if deepest != module {
                out.insert(deepest);
            }
        }
    }
    out
}

/// The circles among siblings: pairs (parent, a, b) where a's subtree imports b's and b's a.
fn circles(src: &Path) -> Vec<String> {
    let all = modules(src);
    let mut edges: BTreeSet<(Vec<String>, String, String)> = BTreeSet::new();
    for (module, file) in &all {
        for target in imports(module, file, &all) {
            let common = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common < module.len() && common < target.len() {
                edges.insert((module[..common].to_vec(), module[common].clone(), target[common].clone()));
            }
        }
    }
    // A circle of any length among the siblings of one parent: b reachable from a and a from b.
    let mut found = Vec::new();
    let parents: BTreeSet<&Vec<String>> = edges.iter().map(|e| &e.0).collect();
    for parent in parents {
        let next = |from: &str| -> Vec<&str> {
            edges.iter().filter(|e| &e.0 == parent && e.1 == from).map(|e| e.2.as_str()).collect()
        };
        let reaches = |from: &str, to: &str| {
            let mut seen = BTreeSet::new();
            let mut stack = next(from);
            while let Some(m) = stack.pop() {
                if m == to {
                    return true;
                }
                if seen.insert(m) {
                    stack.extend(next(m));
                }
            }
            false
        };
        for (_, a, b) in edges.iter().filter(|e| &e.0 == parent) {
            if a < b && reaches(b, a) {
                found
                    .push(format!("{}: {a} ⇄ {b}", if parent.is_empty() { "crate".into() } else { parent.join("::") }));
            }
        }
    }
    found
}

#[test]
fn no_module_imports_a_sibling_that_imports_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for src in ["core/src", "src", "web/src", "lsp/src", "python/src"] {
        assert_eq!(circles(&root.join(src)), Vec::<String>::new(), "{src}");
    }
}

#[test]
fn the_check_finds_a_circle_where_there_is_one() {
    let dir = tempfile::tempdir().expect("a folder");
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").unwrap();
    std::fs::write(src.join("a/mod.rs"), "mod inner;\n").unwrap();
    std::fs::write(src.join("a/inner.rs"), "use crate::b::thing;\n").unwrap();
    std::fs::write(src.join("b.rs"), "#[cfg(test)]\nmod tests { use super::super::c::Other; }\n").unwrap();
    std::fs::write(src.join("c.rs"), "use crate::a::{inner::X, Y};\n").unwrap();
    // a → b (a's child), b → c (b's tests), c → a: one circle of three, told by its edges.
    assert_eq!(circles(src), ["crate: a ⇄ b", "crate: b ⇄ c"]);
    std::fs::write(src.join("b.rs"), "pub fn thing() {}\n").unwrap();
    assert_eq!(circles(src), Vec::<String>::new());
}

/// The string literals of a Rust source, comments left out (raw strings included).
fn string_literals(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            // A character literal such as '"' is not a string's start.
            '\'' if chars.get(i + 2) == Some(&'\'')
                || (chars.get(i + 1) == Some(&'\\') && chars.get(i + 3) == Some(&'\'')) =>
            {
                i += if chars[i + 1] == '\\' { 4 } else { 3 };
            }
            'r' if chars.get(i + 1) == Some(&'#') || chars.get(i + 1) == Some(&'"') => {
                let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
                if chars.get(i + 1 + hashes) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let start = i + 2 + hashes;
                let rest: String = chars[start..].iter().collect();
                let end = rest.find(&close).unwrap_or(rest.len());
                out.push(rest[..end].to_string());
                i = start + rest[..end].chars().count() + close.chars().count();
            }
            '"' => {
                let mut s = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    if let Some(&c) = chars.get(i) {
                        s.push(c);
                    }
                    i += 1;
                }
                out.push(s);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The engine's messages name what to give as data (`wording::Argument`), and each front end
/// words it in its own medium: no string of the core spells a command-line flag.
#[test]
fn no_string_in_the_core_names_a_command_line_flag() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let flag = regex::Regex::new(r"(^|[^-\w])--[a-z][a-z-]+").expect("a pattern");
    let (mut found, mut scanned) = (Vec::new(), 0);
    for (_, file) in modules(&root.join("core/src")) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for literal in string_literals(&text) {
            scanned += 1;
            if flag.is_match(&literal) {
                found.push(format!("{}: {literal:?}", file.strip_prefix(root).unwrap_or(&file).display()));
            }
        }
    }
    assert_eq!(found, Vec::<String>::new());
    assert!(scanned > 2000, "only {scanned} strings read");
    // The check sees a flag where there is one.
    let sample = "// --not-this\nlet a = \"raise --max-states\"; let b = r#\"--timeout\"#; let c = '\"';";
    let seen: Vec<bool> = string_literals(sample).iter().map(|l| flag.is_match(l)).collect();
    assert_eq!(seen, [true, true]);
}

/// Rendering sits above the answers it renders: `analysis` and `api` build answers as data and
/// never import `render`.
#[test]
fn the_engines_answers_never_import_their_rendering() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("core/src");
    let all = modules(&root);
    for (module, file) in &all {
        if matches!(module.first().map(String::as_str), Some("analysis" | "api")) {
            let imported = imports(module, file, &all);
            assert!(
                !imported.iter().any(|m| m.first().map(String::as_str) == Some("render")),
                "{} imports render",
                module.join("::")
            );
        }
    }
}
