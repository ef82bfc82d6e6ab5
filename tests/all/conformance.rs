//! One question, one answer, on every front end: each question of `tests/conformance/
//! questions.json` (every verb, every kind of game, errors and refusals among them) is asked
//! through the command line, the REPL, the web API (a `takeaway serve` on this machine) and the
//! Python package (its own code, over an interpreter embedded in this test), each left to its
//! defaults, and the four JSON answers (or failures) must be identical.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::common::post;

/// One question: a game file of the repository, the verb, its arguments as the request schema
/// names them, and values for the game's parameters.
#[derive(Deserialize, Clone, Debug)]
struct Question {
    game: String,
    verb: String,
    #[serde(default)]
    args: Map<String, Value>,
    #[serde(default)]
    settings: BTreeMap<String, Value>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn questions() -> Vec<Question> {
    let text = std::fs::read_to_string(root().join("tests/conformance/questions.json")).expect("the questions");
    serde_json::from_str(&text).expect("the questions are JSON")
}

/// A value as a command-line word: `[1, 2, 5]` as `1,2,5`.
fn word(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(word).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

/// The question's words after the verb (and the game file): positionals first, then flags, as
/// the command line and the REPL spell them.
fn words(q: &Question) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["position", "other"] {
        if let Some(v) = q.args.get(key) {
            out.extend(word(v).split_whitespace().map(str::to_string));
        }
    }
    for (key, value) in &q.args {
        if key == "position" || key == "other" {
            continue;
        }
        let flag = format!("--{}", key.replace('_', "-"));
        match value {
            Value::Bool(true) => out.push(flag),
            Value::Bool(false) | Value::Null => {}
            v => {
                out.push(flag);
                out.push(word(v));
            }
        }
    }
    out.push("--format".into());
    out.push("json".into());
    out
}

/// A setting as `--set` and the REPL's `set` take it: `k=5`, `S={1,2,5}`.
fn setting(name: &str, value: &Value) -> String {
    match value {
        Value::Array(_) => format!("{name}={{{}}}", word(value)),
        v => format!("{name}={v}"),
    }
}

/// An answer with every argument a message names said the same way, whichever front end's
/// medium spelled it (`--max-states 389`, `` `max_states=389` ``, `` `"max_states": 389` ``
/// all become `<max_states 389>`), and a rendered diagnostic's wrapping undone, since words
/// of other lengths wrap elsewhere.
fn neutral(value: &Value) -> Value {
    use regex::Regex;
    static PATTERNS: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    static WRAPS: OnceLock<(Regex, Regex)> = OnceLock::new();
    // A wrapped line's break and margin, and a neutral name's hyphens.
    let (wrap, named) = WRAPS.get_or_init(|| {
        (Regex::new(r"\s*\n[\s│]*").expect("a pattern"), Regex::new(r"<([a-z-]+)").expect("a pattern"))
    });
    let names =
        "max_states|max_moves|timeout|upto|settings|last|format|checkpoint|out|piles|by_last|shift|cool|period_values|window";
    let flags =
        "max-states|max-moves|timeout|upto|last|format|checkpoint|out|piles|by-last|shift|cool|period-values|window";
    let value_word = r#"(?:\d[\d.,·⁰¹²³⁴⁵⁶⁷⁸⁹]*|[A-Z]+|csv|json|text)"#;
    let patterns = PATTERNS.get_or_init(|| {
        let re = |p: String| Regex::new(&p).expect("a pattern");
        vec![
            (re(r#"`Game\.from_file\(path, ([^`]*)\)`"#.into()), "<settings $1>"),
            (re(r#"`"settings": \{"([^"]*)": ([^`]*)\}`"#.into()), "<settings $1=$2>"),
            (re(r#"--set "([^"]*)""#.into()), "<settings $1>"),
            (re(r#"--set ([^\s,;)]+)"#.into()), "<settings $1>"),
            (re(r#"a keyword of `Game\.from_file`"#.into()), "<settings>"),
            (re(format!(r#"`({names})=([^`]+)`"#)), "<$1 $2>"),
            (re(format!(r#"`({names})=`"#)), "<$1>"),
            (re(format!(r#"`"({names})": ([^`]+)`"#)), "<$1 $2>"),
            (re(format!(r#"`({names})`"#)), "<$1>"),
            (re(format!(r#"--({flags}) ({value_word})"#)), "<$1 $2>"),
            (re(format!(r#"--({flags})\b"#)), "<$1>"),
        ]
    });
    match value {
        Value::String(s) => {
            let unwrapped = wrap.replace_all(s, " ");
            let mut out = unwrapped.into_owned();
            for (pattern, with) in patterns {
                out = pattern.replace_all(&out, *with).into_owned();
            }
            // A flag's name as the schema's: `<max-states 389>` is `<max_states 389>`.
            Value::String(
                named.replace_all(&out, |c: &regex::Captures| format!("<{}", c[1].replace('-', "_"))).into_owned(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(neutral).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), neutral(v))).collect()),
        other => other.clone(),
    }
}

/// The first JSON value in `text` that starts a line (what the REPL printed after its notes).
fn first_json(text: &str, what: &str) -> Value {
    let start = if text.starts_with('{') { 0 } else { text.find("\n{").map(|i| i + 1).unwrap_or(text.len()) };
    let mut values = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
    match values.next() {
        Some(Ok(v)) => v,
        other => panic!("{what}: no JSON in {text:?} ({other:?})"),
    }
}

fn command_line(q: &Question) -> Value {
    let mut args = vec![q.verb.clone(), q.game.clone()];
    for (name, value) in &q.settings {
        args.push("--set".into());
        args.push(setting(name, value));
    }
    args.extend(words(q));
    let out = Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .args(&args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    first_json(&stdout, &format!("the command line, {args:?}"))
}

fn repl(q: &Question) -> Value {
    let mut script = format!(":load {}\n", q.game);
    for (name, value) in &q.settings {
        script.push_str(&format!("set {}\n", setting(name, value).replacen('=', " = ", 1)));
    }
    script.push_str(&format!("{} {}\n:quit\n", q.verb, words(q).join(" ")));
    let mut child = Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .arg("repl")
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("the script is written");
    let out = child.wait_with_output().expect("the REPL ends");
    first_json(&String::from_utf8_lossy(&out.stdout), &format!("the REPL, {script:?}"))
}

fn web(q: &Question) -> Value {
    let text = std::fs::read_to_string(root().join(&q.game)).expect("the game file");
    let mut body = q.args.clone();
    body.insert("source".into(), json!(text));
    body.insert("name".into(), json!(q.game));
    if !q.settings.is_empty() {
        body.insert("settings".into(), json!(q.settings));
    }
    // `compare`'s other game goes as its text: the server reads no file a request names.
    if let Some(Value::String(other)) = q.args.get("other") {
        let text = std::fs::read_to_string(root().join(other)).expect("the other game file");
        body.insert("other".into(), json!({ "source": text, "name": other }));
    }
    let (status, answer) = post(&q.verb, &Value::Object(body));
    let failed = answer.get("kind").is_some() && answer.get("diagnostics").is_some();
    assert_eq!(status == 200, !failed, "{q:?}: status {status} for {answer}");
    answer
}

/// Asks every question through the Python package in this process: `takeaway` imported from
/// `python/` over the native module, each question a call of its `Game`'s method.
fn python(all: &[Question]) -> Vec<Value> {
    use pyo3::prelude::*;
    use pyo3::types::PyDict;
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        use _native::_native;
        pyo3::append_to_inittab!(_native);
        pyo3::Python::initialize();
    });
    const ASK: &str = r#"
import json, os, sys
sys.path.insert(0, os.path.join(ROOT, "python"))
import _native
sys.modules["takeaway._native"] = _native
import takeaway

os.chdir(ROOT)

def ask(q):
    game = takeaway.Game.from_file(q["game"], **q.get("settings", {}))
    args = dict(q.get("args", {}))
    positional = []
    if "position" in args:
        positional.append(args.pop("position"))
    if "other" in args:
        positional.append(takeaway.Game.from_file(args.pop("other")))
    try:
        answer = getattr(game, q["verb"])(*positional, **args)
        return answer if isinstance(answer, dict) else answer.json
    except takeaway.TakeawayError as e:
        return {"kind": e.kind, "code": e.code, "diagnostics": e.diagnostics, "rendered": e.rendered,
                "partial": e.partial}

ANSWERS = json.dumps([ask(q) for q in QUESTIONS])
"#;
    Python::attach(|py| {
        let globals = PyDict::new(py);
        let raw: Vec<Value> = all
            .iter()
            .map(|q| json!({ "game": q.game, "verb": q.verb, "args": q.args, "settings": q.settings }))
            .collect();
        let json = py.import("json").expect("json");
        let questions = json.call_method1("loads", (Value::Array(raw).to_string(),)).expect("the questions");
        globals.set_item("QUESTIONS", questions).expect("a global");
        globals.set_item("ROOT", root().display().to_string()).expect("a global");
        let code = std::ffi::CString::new(ASK).expect("no NUL");
        py.run(&code, Some(&globals), None).unwrap_or_else(|e| panic!("Python: {e}"));
        let answers: String = globals.get_item("ANSWERS").expect("answers").expect("answers").extract().expect("text");
        serde_json::from_str(&answers).expect("JSON")
    })
}

#[test]
fn every_question_gets_the_same_answer_on_every_front_end() {
    let all = questions();
    assert!(all.len() >= 100, "{} questions", all.len());
    let verbs: std::collections::HashSet<&str> = all.iter().map(|q| q.verb.as_str()).collect();
    assert_eq!(verbs.len(), takeaway_core::VERBS.len(), "every verb is asked");
    let from_python = python(&all);
    let (mut answered, mut failed, mut worded) = (0, 0, 0);
    for (q, py) in all.iter().zip(&from_python) {
        let cli = command_line(q);
        // Each front end names the arguments to raise in its own medium; said neutrally, the
        // answers are the same.
        let (web, said) = (web(q), cli.to_string());
        if said.contains("--max-states") {
            assert!(web.to_string().contains(r#"`\"max_states\": "#), "the web API's words: {web}");
            assert!(py.to_string().contains("`max_states="), "Python's words: {py}");
            worded += 1;
        }
        let cli = neutral(&cli);
        assert_eq!(neutral(&repl(q)), cli, "the REPL and the command line differ on {q:?}");
        assert_eq!(neutral(&web), cli, "the web API and the command line differ on {q:?}");
        assert_eq!(neutral(py), cli, "Python and the command line differ on {q:?}");
        if cli.get("diagnostics").is_some() && cli.get("kind").is_some() {
            failed += 1;
        } else {
            answered += 1;
        }
    }
    // Answers and failures alike, and a few answers the theory gives.
    assert!(answered >= 100 && failed >= 20, "{answered} answered, {failed} failed");
    assert!(worded >= 1, "no refusal told the command line to raise --max-states");
    let first = |verb: &str, game: &str| {
        let i = all.iter().position(|q| q.verb == verb && q.game == game).expect("asked");
        from_python[i].clone()
    };
    assert_eq!(first("solve", "games/nim.game")["grundy"], 41 ^ 163 ^ 13);
    assert_eq!(first("table", "games/tag.game")["p_positions"], json!([0, 4, 8, 12]));
    // Kayles (0.77) and Dawson's Kayles (0.07) part at once: G(1) is 1 and 0.
    assert_eq!(first("compare", "games/kayles.game")["first_difference"][0]["n"], 1);
}
