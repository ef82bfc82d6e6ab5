//! `takeaway lsp` driven as an editor drives it: the built binary over stdio, JSON-RPC messages
//! framed with Content-Length, every answer read back and checked against the engine's.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A language client over the server's stdin and stdout.
struct Client {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    /// Messages read while waiting for another.
    held: Vec<Value>,
    next_id: i64,
}

impl Client {
    /// The server, initialized with `options` (its `initializationOptions`).
    fn start(options: Value) -> Client {
        let mut client = Client::spawn();
        let init = client.initialize(options);
        assert!(init["result"]["capabilities"]["hoverProvider"].as_bool().unwrap_or(false), "{init}");
        client.notify("initialized", json!({}));
        client
    }

    /// The answer to an initialize request with `options`.
    fn initialize(&mut self, options: Value) -> Value {
        let id = self.request("initialize", json!({"capabilities": {}, "initializationOptions": options}));
        self.response(id)
    }

    /// The server, not yet initialized.
    fn spawn() -> Client {
        let mut child = crate::common::spawn(&["lsp"], Stdio::piped());
        let input = child.stdin.take().expect("stdin is piped");
        let output = child.stdout.take().expect("stdout is piped");
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if output.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("every message has a Content-Length")];
                if output.read_exact(&mut body).is_err() {
                    return;
                }
                let message: Value = serde_json::from_slice(&body).expect("every message is JSON");
                if send.send(message).is_err() {
                    return;
                }
            }
        });
        Client { child, input, messages, held: Vec::new(), next_id: 0 }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("the server reads");
        self.input.flush().expect("the server reads");
    }

    fn request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The first message (held or new) that `wanted` accepts, within 30 seconds.
    fn wait(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.held.iter().position(&wanted) {
            return self.held.remove(i);
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self.messages.recv_timeout(left).unwrap_or_else(|_| panic!("no {what} within 30 s"));
            if wanted(&message) {
                return message;
            }
            self.held.push(message);
        }
    }

    fn response(&mut self, id: i64) -> Value {
        self.wait(&format!("response {id}"), |m| m["id"] == json!(id) && m.get("method").is_none())
    }

    fn ask(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        let response = self.response(id);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The diagnostics published for `uri` at `version`.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let message = self.wait("diagnostics", |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        });
        message["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    fn open(&mut self, uri: &str, text: &str) {
        let document = json!({"uri": uri, "languageId": "takeaway", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}));
    }

    fn change(&mut self, uri: &str, version: i64, text: &str) {
        let params = json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]});
        self.notify("textDocument/didChange", params);
    }

    fn at(uri: &str, line: u32, character: u32) -> Value {
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
    }

    fn stop(mut self) {
        let id = self.request("shutdown", Value::Null);
        self.response(id);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("the server exits");
        assert!(status.success(), "{status}");
    }
}

/// A file in a scratch folder of its own, as an editor names it.
fn file(name: &str, text: &str) -> (std::path::PathBuf, String) {
    let dir = crate::common::scratch_dir().join(format!("lsp-{name}"));
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join(format!("{name}.game"));
    std::fs::write(&path, text).expect("the file is written");
    let uri = format!("file://{}", path.display());
    (path, uri)
}

fn range(d: &Value) -> (u64, u64, u64, u64) {
    let r = &d["range"];
    let n = |v: &Value| v.as_u64().expect("a number");
    (n(&r["start"]["line"]), n(&r["start"]["character"]), n(&r["end"]["line"]), n(&r["end"]["character"]))
}

fn hover_text(result: &Value) -> String {
    result["contents"]["value"].as_str().unwrap_or_default().to_string()
}

const TWO_MISTAKES: &str = "game \"Two mistakes\"\nparam k = 3\npile\nmove: take 1..kk\nmove: take q from one pile\n";

#[test]
fn diagnostics_come_as_you_type_every_error_at_once_with_its_range() {
    let (_, uri) = file("two-mistakes", TWO_MISTAKES);
    let mut client = Client::start(Value::Null);
    client.open(&uri, TWO_MISTAKES);
    let found = client.diagnostics(&uri, 1);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0]["code"], "takeaway::check::unknown_name");
    assert_eq!(range(&found[0]), (3, 14, 3, 16), "`kk` on line 4");
    assert!(found[0]["message"].as_str().unwrap_or_default().contains("did you mean `k`?"), "{}", found[0]);
    assert_eq!(range(&found[1]), (4, 11, 4, 12), "`q` on line 5");
    // The same as `takeaway check` says of the file.
    let check = crate::common::takeaway(&["check", &uri["file://".len()..]]);
    assert_eq!(check.code, 1);
    assert!(
        check.stderr.contains("unknown name `kk`") && check.stderr.contains("unknown name `q`"),
        "{}",
        check.stderr
    );

    // The first mistake mended: one diagnostic is left.
    client.change(&uri, 2, &TWO_MISTAKES.replace("1..kk", "1..k"));
    let left = client.diagnostics(&uri, 2);
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(range(&left[0]), (4, 11, 4, 12));
    // Both mended: none.
    client.change(&uri, 3, &TWO_MISTAKES.replace("1..kk", "1..k").replace("take q", "take k"));
    assert!(client.diagnostics(&uri, 3).is_empty());
    // A parse error points where the text goes wrong, and its sure fix is offered.
    client.change(&uri, 4, "pile\nmove: tkae 1..3\n");
    let parse = client.diagnostics(&uri, 4);
    assert_eq!(parse.len(), 1);
    assert_eq!(parse[0]["code"], "takeaway::parse::unexpected");
    assert_eq!(range(&parse[0]), (1, 6, 1, 10));
    let range_of_line = json!({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 16}});
    let params = json!({"textDocument": {"uri": uri}, "range": range_of_line, "context": {"diagnostics": []}});
    let actions = client.ask("textDocument/codeAction", params);
    assert_eq!(actions[0]["title"], "Replace `tkae` with `take`", "{actions}");
    let edit = &actions[0]["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "take");
    assert_eq!(range(edit), (1, 6, 1, 10));
    client.stop();
}

const WYTHOFF_R: &str = "# r-Wythoff\ngame \"r-Wythoff\"\nparam r = 2\npiles 2\nmove: take any from one pile\nmove: take k from one pile and l from the other where k ≤ l < k + r\n";

#[test]
fn hover_tells_a_rules_moves_a_parameters_value_a_keywords_meaning_and_the_games_values() {
    let (_, uri) = file("hover", WYTHOFF_R);
    let mut client = Client::start(Value::Null);
    client.open(&uri, WYTHOFF_R);
    assert!(client.diagnostics(&uri, 1).is_empty());

    // A rule: the moves it allows, in explain's words, from two piles of 5 and 7.
    let rule = hover_text(&client.ask("textDocument/hover", Client::at(&uri, 4, 20)));
    assert!(rule.contains("allows 12 moves from 5 7"), "{rule}");
    assert!(rule.contains("take 1 from the pile of 5") && rule.contains("take 7 from the pile of 7"), "{rule}");
    // The pair rule with r = 2: k ≤ l < k + 2 from (5, 7): (1,1) (1,2) (2,2) (2,3) … (5,5) (5,6),
    // each way round where the piles allow it.
    let pair = hover_text(&client.ask("textDocument/hover", Client::at(&uri, 5, 6)));
    let expected = brute_force_pairs(5, 7, 2);
    assert!(pair.contains(&format!("allows {expected} moves from 5 7")), "{pair}\nexpected {expected}");

    // A parameter where it is read: its value and its line.
    let param = hover_text(&client.ask("textDocument/hover", Client::at(&uri, 5, 66)));
    assert!(param.contains("param r = 2") && param.contains("line 3"), "{param}");
    // A keyword: the manual's line.
    let keyword = hover_text(&client.ask("textDocument/hover", Client::at(&uri, 3, 1)));
    assert!(keyword.contains("any number of piles (`piles`), exactly N (`piles 2`)"), "{keyword}");

    // A mistake on another line: the rule still shows its moves.
    client.change(&uri, 2, &WYTHOFF_R.replace("piles 2\n", "piles 2\nmove: take 1..qq\n"));
    assert_eq!(client.diagnostics(&uri, 2).len(), 1);
    let rule = hover_text(&client.ask("textDocument/hover", Client::at(&uri, 5, 20)));
    assert!(rule.contains("`move: take any from one pile`** allows 12 moves from 5 7"), "{rule}");
    client.change(&uri, 3, WYTHOFF_R);
    assert!(client.diagnostics(&uri, 3).is_empty());

    // The game's line: its first P-positions, as `takeaway table` gives them.
    let values = hover_text(&client.ask("textDocument/hover", Client::at(&uri, 1, 3)));
    let table = crate::common::takeaway(&["table", "games/r-wythoff.game", "12"]);
    assert!(values.contains("P-positions"), "{values}");
    let p_line = table.stdout.lines().find(|l| l.starts_with("P-positions")).expect("a line of P-positions");
    assert!(values.contains(p_line), "{values}\n---\n{}", table.stdout);
    client.stop();
}

/// Moves of `take k from one pile and l from the other where k ≤ l < k + r` from (a, b),
/// counted by brute force: each (k, l) with k from one pile and l from the other.
fn brute_force_pairs(a: u64, b: u64, r: u64) -> usize {
    let mut moves = std::collections::HashSet::new();
    for (x, y) in [(a, b), (b, a)] {
        for k in 1..=x {
            for l in 1..=y {
                if k <= l && l < k + r {
                    let to = if x == a { (a - k, b - l) } else { (a - l, b - k) };
                    moves.insert(to);
                }
            }
        }
    }
    moves.len()
}

#[test]
fn completion_definitions_references_symbols_and_tokens_follow_the_grammar() {
    let text = "game \"S\"\nparam S = {1, 3, 4}\nparam k = 2\npiles\nmove: take S where t ≥ k\nmove: take \n";
    let (_, uri) = file("complete", text);
    let mut client = Client::start(Value::Null);
    client.open(&uri, text);
    client.diagnostics(&uri, 1);

    // After `take `: the amounts the grammar allows there, the phrases, and the parameters.
    let items = client.ask("textDocument/completion", Client::at(&uri, 5, 11));
    let labels: Vec<&str> = items.as_array().expect("a list").iter().filter_map(|i| i["label"].as_str()).collect();
    for wanted in ["any", "any except ", "1..3", "≤ 2·last", "S", "k", "last"] {
        assert!(labels.contains(&wanted), "{wanted} missing from {labels:?}");
    }
    assert!(!labels.contains(&"game") && !labels.contains(&"from"), "{labels:?}");
    // After an amount: which piles, and the teachers' phrases.
    client.change(&uri, 2, &text.replace("move: take \n", "move: take 1..3 \n"));
    client.diagnostics(&uri, 2);
    let items = client.ask("textDocument/completion", Client::at(&uri, 5, 16));
    let labels: Vec<&str> = items.as_array().expect("a list").iter().filter_map(|i| i["label"].as_str()).collect();
    for wanted in ["from each of up to 2 piles", "from one pile", "where", ", then split", "or"] {
        assert!(labels.contains(&wanted), "{wanted} missing from {labels:?}");
    }
    // A partly typed word: only what it starts.
    client.change(&uri, 3, &text.replace("move: take \n", "move: take 1..3 fr\n"));
    client.diagnostics(&uri, 3);
    let items = client.ask("textDocument/completion", Client::at(&uri, 5, 18));
    let labels: Vec<&str> = items.as_array().expect("a list").iter().filter_map(|i| i["label"].as_str()).collect();
    assert!(!labels.is_empty() && labels.iter().all(|l| l.starts_with("fr")), "{labels:?}");

    // Go to definition: `k` in the rule is the parameter on line 3.
    client.change(&uri, 4, text);
    client.diagnostics(&uri, 4);
    let definition = client.ask("textDocument/definition", Client::at(&uri, 4, 23));
    assert_eq!(definition["uri"], uri.as_str());
    assert_eq!(range(&definition), (2, 6, 2, 7));
    // References: its declaration and its use.
    let params = json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 6}, "context": {"includeDeclaration": true}});
    let places = client.ask("textDocument/references", params);
    let places: Vec<(u64, u64, u64, u64)> = places.as_array().expect("a list").iter().map(range).collect();
    assert_eq!(places, vec![(2, 6, 2, 7), (4, 23, 4, 24)]);

    // Symbols: the game, its parameters, its board, its rules.
    let symbols = client.ask("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let names: Vec<&str> = symbols.as_array().expect("a list").iter().filter_map(|s| s["name"].as_str()).collect();
    // The last line, still being typed, does not parse and gives none.
    assert_eq!(names, vec!["S", "S", "k", "any number of piles", "move: take S where t ≥ k"]);

    // Semantic tokens of line 5: move : take S where t ≥ k, as keyword, parameter, variable, operator.
    let tokens = client.ask("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}));
    let data: Vec<u64> = tokens["data"].as_array().expect("data").iter().filter_map(Value::as_u64).collect();
    let decoded = decode(&data);
    let line4: Vec<(u64, u64, u64)> = decoded.iter().filter(|t| t.0 == 4).map(|t| (t.1, t.2, t.3)).collect();
    // (column, length, type): keyword 0, parameter 1, variable 2, operator 6.
    assert_eq!(line4, vec![(0, 4, 0), (6, 4, 0), (11, 1, 1), (13, 5, 0), (19, 1, 2), (21, 1, 6), (23, 1, 1)]);
    client.stop();
}

/// Semantic tokens as (line, column, length, type).
fn decode(data: &[u64]) -> Vec<(u64, u64, u64, u64)> {
    let (mut line, mut column) = (0, 0);
    data.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                column = 0;
            }
            line += t[0];
            column += t[1];
            (line, column, t[2], t[3])
        })
        .collect()
}

#[test]
fn formatting_gives_the_text_takeaway_fmt_writes() {
    let messy = "\n\n# Subtraction\ngame   \"S\" ;param k=3\npiles\nmove :take {1,3 ,k}   # the set\n\n\n\nmove: take  1..n-1 where(t>=1)and  square( t )\n";
    let (path, uri) = file("messy", messy);
    let mut client = Client::start(Value::Null);
    client.open(&uri, messy);
    assert!(client.diagnostics(&uri, 1).is_empty());
    let edits = client.ask(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let formatted = edits[0]["newText"].as_str().expect("one edit of the whole text");
    assert_eq!(
        formatted,
        "# Subtraction\ngame \"S\"\nparam k = 3\npiles\nmove: take {1, 3, k}  # the set\n\nmove: take 1..n-1 where (t >= 1) and square(t)\n"
    );
    assert_eq!(range(&edits[0]), (0, 0, 10, 0));
    // `takeaway fmt` writes the same.
    let run = crate::common::takeaway(&["fmt", &path.display().to_string()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&path).expect("the file"), formatted);
    client.stop();
}

/// A game whose values of five piles up to 12 take some fifteen seconds.
const SLOW: &str = "game \"Slow\"\npiles 5\nmove: take any from each of up to 5 piles where t != 2\n";

#[test]
fn a_slow_hover_is_cancelled_by_the_editor_and_by_a_change_and_typing_goes_on() {
    let slow = SLOW;
    let (_, uri) = file("slow", slow);
    let mut client = Client::start(json!({"hover_seconds": 600}));
    client.open(&uri, slow);
    assert!(client.diagnostics(&uri, 1).is_empty());

    let started = Instant::now();
    let id = client.request("textDocument/hover", Client::at(&uri, 0, 2));
    // While it runs, the server answers what needs no solving.
    let keyword = hover_text(&client.ask("textDocument/hover", Client::at(&uri, 1, 1)));
    assert!(keyword.contains("exactly N"), "{keyword}");
    // The values are still being found a second later.
    std::thread::sleep(Duration::from_secs(1));
    while let Ok(message) = client.messages.try_recv() {
        client.held.push(message);
    }
    assert!(!client.held.iter().any(|m| m["id"] == json!(id)), "the hover was not slow: {:?}", client.held);
    client.notify("$/cancelRequest", json!({"id": id}));
    let cancelled = client.response(id);
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    assert!(started.elapsed() < Duration::from_secs(10), "cancelled after {:?}", started.elapsed());

    // A change cancels the hover on the old text.
    let started = Instant::now();
    let id = client.request("textDocument/hover", Client::at(&uri, 0, 2));
    client.change(&uri, 2, &format!("{slow}# a comment\n"));
    assert!(client.diagnostics(&uri, 2).is_empty());
    let cancelled = client.response(id);
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    assert!(started.elapsed() < Duration::from_secs(10), "cancelled after {:?}", started.elapsed());
    client.stop();
}

#[test]
fn a_product_names_its_games_and_goes_to_their_files() {
    let (dir_file, _) = file("twins-product", "");
    let dir = dir_file.parent().expect("a folder").to_path_buf();
    std::fs::copy(crate::common::games_dir().join("twins.game"), dir.join("twins.game")).expect("copied");
    let text = "acrostic product of \"twins\" and \"tw\"\n";
    std::fs::write(&dir_file, text).expect("written");
    let uri = format!("file://{}", dir_file.display());
    let mut client = Client::start(Value::Null);
    client.open(&uri, text);
    let found = client.diagnostics(&uri, 1);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0]["message"].as_str().unwrap_or_default().contains("`tw`"), "{}", found[0]);
    // Completing inside the second string: the game files beside it.
    let items = client.ask("textDocument/completion", Client::at(&uri, 0, 35));
    let labels: Vec<&str> = items.as_array().expect("a list").iter().filter_map(|i| i["label"].as_str()).collect();
    assert!(labels.contains(&"twins") && labels.iter().all(|l| l.starts_with("tw")), "{labels:?}");
    // Its first game's file.
    let at = client.ask("textDocument/definition", Client::at(&uri, 0, 23));
    assert!(at["uri"].as_str().unwrap_or_default().ends_with("/twins.game"), "{at}");
    // The places it names a game.
    client.change(&uri, 2, "tartan product of \"twins\" and \"twins\"\n");
    assert!(client.diagnostics(&uri, 2).is_empty());
    let params = json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 20}, "context": {"includeDeclaration": true}});
    let places = client.ask("textDocument/references", params);
    let places: Vec<(u64, u64, u64, u64)> = places.as_array().expect("a list").iter().map(range).collect();
    assert_eq!(places, vec![(0, 19, 0, 24), (0, 31, 0, 36)]);
    client.stop();
}

#[test]
fn a_wrong_request_gets_an_error_and_the_server_goes_on() {
    let (_, uri) = file("hostile", "pile\nmove: take 1..3\n");
    let mut client = Client::start(Value::Null);
    // A request about a text that is not open, a method the server does not answer, and
    // parameters of the wrong shape: each an error, none the end of the server.
    let id = client.request("textDocument/hover", Client::at("file:///nowhere.game", 0, 0));
    assert_eq!(client.response(id)["error"]["code"], -32602);
    let id = client.request("textDocument/rename", json!({}));
    assert_eq!(client.response(id)["error"]["code"], -32601);
    let id = client.request("textDocument/completion", json!({"textDocument": 7}));
    assert_eq!(client.response(id)["error"]["code"], -32602);
    // Positions past the end of a line and of the text are read as the end.
    client.open(&uri, "pile\nmove: take 1..3\n");
    assert!(client.diagnostics(&uri, 1).is_empty());
    for (line, character) in [(1, 500), (90, 3), (u32::MAX, u32::MAX)] {
        let id = client.request("textDocument/hover", Client::at(&uri, line, character));
        assert!(client.response(id).get("error").is_none());
        let id = client.request("textDocument/completion", Client::at(&uri, line, character));
        assert!(client.response(id).get("error").is_none());
    }
    // A text past the largest game, one with an escape character, one of wide characters.
    client.change(&uri, 2, &"# long\n".repeat(200_000));
    let found = client.diagnostics(&uri, 2);
    assert_eq!(found[0]["code"], "takeaway::parse::too_long", "{found:?}");
    client.change(&uri, 3, "pile\nmove: take 1 # \u{1b}[31m\n");
    let found = client.diagnostics(&uri, 3);
    assert_eq!(found[0]["code"], "takeaway::parse::control_character", "{found:?}");
    assert_eq!(range(&found[0]), (1, 15, 1, 16));
    client.change(&uri, 4, "game \"𝔑𝔦𝔪 ✓\"\npile\nmove: take 1..kk\n");
    let found = client.diagnostics(&uri, 4);
    // Columns count UTF-16 units, as the protocol does.
    assert_eq!(range(&found[0]), (2, 14, 2, 16));
    let tokens = client.ask("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}));
    assert!(tokens["data"].as_array().is_some_and(|d| !d.is_empty()));
    client.stop();
}

#[test]
fn a_check_past_its_budget_says_so() {
    // A megabyte of rules cannot be checked in a microsecond: one diagnostic says the check ran
    // out of the seconds the editor gave it.
    let mut text = String::from("game \"Long\"\npiles\n");
    while text.len() < 990_000 {
        text.push_str("move: take 1..3\n");
    }
    let (_, uri) = file("budget", "pile\nmove: take 1\n");
    let mut client = Client::start(json!({"check_seconds": 0.000001}));
    client.open(&uri, &text);
    let found = client.diagnostics(&uri, 1);
    assert_eq!(found.len(), 1, "{found:?}");
    let message = found[0]["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("the computation ran out of time after 0.000001 s\n"), "{message}");
    // The help names the editor's setting, not the command line's --timeout.
    assert!(
        message
            .ends_with("help: give it longer: set `check_seconds` (seconds) in the server's `initializationOptions`"),
        "{message}"
    );
    client.stop();
}

#[test]
fn options_the_server_cannot_use_fail_the_initialize_request_and_another_may_follow() {
    // A budget of no time, a negative one and a misspelt option: each initialize request
    // fails with what is wrong, and the server waits for another, which succeeds.
    let mut client = Client::spawn();
    for (options, said) in [
        (json!({"hover_seconds": 0}), "`hover_seconds` is a number of seconds above 0, not 0"),
        (json!({"check_seconds": -1}), "`check_seconds` is a number of seconds above 0, not -1"),
        (json!({"hover_second": 5}), "unknown field `hover_second`"),
    ] {
        let failed = client.initialize(options);
        assert_eq!(failed["error"]["code"], -32602, "{failed}");
        let message = failed["error"]["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("initializationOptions: ") && message.contains(said), "{message}");
        assert_eq!(failed["error"]["data"], json!({"retry": false}), "{failed}");
    }
    let init = client.initialize(json!({"hover_seconds": 5}));
    assert!(init["result"]["capabilities"]["hoverProvider"].as_bool().unwrap_or(false), "{init}");
    client.notify("initialized", json!({}));
    let (_, uri) = file("retried", "pile\nmove: take 1..3\n");
    client.open(&uri, "pile\nmove: take 1..3\n");
    assert!(client.diagnostics(&uri, 1).is_empty());
    client.stop();
}

#[test]
fn a_hover_past_its_budget_says_which_setting_gives_it_longer() {
    // Far past half a second, whether the estimate refuses the values or the deadline stops them.
    let slow = SLOW;
    let (_, uri) = file("slow-budget", slow);
    let mut client = Client::start(json!({"hover_seconds": 0.5}));
    client.open(&uri, slow);
    assert!(client.diagnostics(&uri, 1).is_empty());
    let said = hover_text(&client.ask("textDocument/hover", Client::at(&uri, 0, 2)));
    assert!(said.starts_with("no values: "), "{said}");
    assert!(
        said.ends_with("give it longer: set `hover_seconds` (seconds) in the server's `initializationOptions`"),
        "{said}"
    );
    assert!(!said.contains("--timeout"), "{said}");
    client.stop();
}

/// A game of a megabyte of rules, which takes a good part of a second to read; its first rule,
/// on line 2, is `move: take 2..4`.
fn megabyte_of_rules() -> String {
    let mut text = String::from("game \"Long\"\npiles\n");
    let mut i = 0;
    while text.len() < 990_000 {
        i += 1;
        text.push_str(&format!("move: take {}..{}  # rule {i}\n", 1 + i % 50, 2 + i % 50 + i % 7));
    }
    text
}

#[test]
fn a_long_texts_check_runs_beside_typing_and_a_change_cancels_it() {
    // A megabyte of rules: its check takes a good part of a second.
    let mut text = megabyte_of_rules();
    let lines = text.lines().count() as u64;
    text.push_str("move: take 1..kk\n");
    let (_, uri) = file("long", "pile\nmove: take 1\n");
    // Budget enough for the check on a loaded machine (two test threads and builds on two
    // cores took it past the 2 s of the defaults): what is tested is the order, not the time.
    let mut client = Client::start(json!({"check_seconds": 60}));
    client.open(&uri, "pile\nmove: take 1\n");
    assert!(client.diagnostics(&uri, 1).is_empty());
    client.change(&uri, 2, &text);
    // Typing goes on while the text is checked: a completion is answered first.
    let id = client.request("textDocument/completion", Client::at(&uri, lines as u32, 11));
    let first = client.wait("an answer", |m| {
        m["id"] == json!(id) || (m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 2)
    });
    assert_eq!(first["id"], json!(id), "the check answered before the completion: {first}");
    let found = client.diagnostics(&uri, 2);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(range(&found[0]), (lines, 14, lines, 16));
    // A change while a check runs: only the latest text's diagnostics are published.
    client.change(&uri, 3, &text);
    client.change(&uri, 4, "pile\nmove: take 1..3\n");
    assert!(client.diagnostics(&uri, 4).is_empty());
    std::thread::sleep(Duration::from_millis(1500));
    while let Ok(message) = client.messages.try_recv() {
        client.held.push(message);
    }
    for message in &client.held {
        assert!(message["params"]["version"] != 3, "the cancelled check published: {message}");
    }
    client.stop();
}

#[test]
fn a_rules_hover_and_the_quick_fixes_read_the_game_beside_typing() {
    // A megabyte of rules: reading the game takes a good part of a second.
    let text = megabyte_of_rules();
    let (_, uri) = file("long-hover", &text);
    // Budget enough on a loaded machine: what is tested is the order, not the time.
    let mut client = Client::start(json!({"check_seconds": 60}));
    client.open(&uri, &text);
    assert!(client.diagnostics(&uri, 1).is_empty());
    // A rule's moves need the game read: a keyword's hover asked after it is answered first.
    let rule = client.request("textDocument/hover", Client::at(&uri, 2, 2));
    let keyword = client.request("textDocument/hover", Client::at(&uri, 1, 1));
    let first = client.wait("an answer", |m| m["id"] == json!(rule) || m["id"] == json!(keyword));
    assert_eq!(first["id"], json!(keyword), "the rule's hover held the loop: {first}");
    let said = hover_text(&client.response(rule)["result"]);
    assert!(said.contains("take 2..4") && said.contains("allows"), "{said}");
    // So do the quick fixes of a misspelt word at the end.
    let lines = text.lines().count() as u32;
    let misspelt = format!("{text}move: tkae 1\n");
    client.change(&uri, 2, &misspelt);
    let range = json!({"start": {"line": lines, "character": 6}, "end": {"line": lines, "character": 10}});
    let fixes = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range, "context": {"diagnostics": []}}),
    );
    let completion = client.request("textDocument/completion", Client::at(&uri, lines, 6));
    let first = client.wait("an answer", |m| m["id"] == json!(fixes) || m["id"] == json!(completion));
    assert_eq!(first["id"], json!(completion), "the quick fixes held the loop: {first}");
    let fixes = client.response(fixes)["result"].clone();
    assert!(fixes.to_string().contains("Replace `tkae` with `take`"), "{fixes}");
    // A change cancels a rule's hover on the old text.
    let rule = client.request("textDocument/hover", Client::at(&uri, 2, 2));
    client.change(&uri, 3, &text);
    let cancelled = client.response(rule);
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    // So does the next hover: however fast they come, one runs at a time.
    let hovers: Vec<i64> = (0..20).map(|_| client.request("textDocument/hover", Client::at(&uri, 2, 2))).collect();
    for &earlier in &hovers[..19] {
        let cancelled = client.response(earlier);
        assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    }
    let said = hover_text(&client.response(hovers[19])["result"]);
    assert!(said.contains("take 2..4") && said.contains("allows"), "{said}");
    client.stop();
}
