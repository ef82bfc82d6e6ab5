//! The classroom page as a teacher and a class use it, in a real browser (Debian's chromium over
//! WebDriver): a partizan game played to the end as Right with every move coloured by what it
//! means and the value history drawn; a link opened in a fresh browser giving the same page; a
//! reload keeping the game; downloads equal to the command line's bytes; a 100,000-row table
//! scrolled to its end; a long question showing its progress and cancelled; a time limit set in
//! the page; Enter, the shortcuts and the QR code of a shared server; axe-core finding no
//! serious violation; and the page at a phone's 390 px. Screenshots go to target/screenshots/.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::browser::{appears, browser, click, processes_in_group, screenshot, screenshots, text_until, type_into};
use fantoccini::{Client, Locator};
use serde_json::Value;
use takeaway_core::{load_game, Budget, NoLibrary, Source, TableArgs, TableFormat};
use takeaway_web::Config;

/// A server whose questions may run 30 s (the page's time limit goes up to it).
fn patient_server() -> std::net::SocketAddr {
    static ADDRESS: std::sync::OnceLock<std::net::SocketAddr> = std::sync::OnceLock::new();
    *ADDRESS.get_or_init(|| common::start("127.0.0.1:0", Config { timeout: 30.0, workers: 4, ..Config::default() }))
}

async fn open(client: &Client, address: std::net::SocketAddr) {
    client.goto(&format!("http://{address}/")).await.expect("the page opens");
    text_until(client, "#status", |t| t.contains("the game checks")).await;
}

async fn choose_game(client: &Client, file: &str, name: &str) {
    // The menu fills from /api/games, which may answer after the first game has checked.
    assert!(appears(client, &format!("#games option[value='{file}']")).await, "{file} is in the menu");
    let menu = client.find(Locator::Css("#games")).await.expect("the menu");
    menu.select_by_value(file).await.expect("the game is in the menu");
    text_until(client, "#status", |t| t.contains(&format!("{name}: the game checks"))).await;
}

async fn run(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Misère partizan subtraction L{1,2} R{2,3} by brute force, independent of the engine: whether
/// `side` (Left when true), moving first from the piles, wins when whoever cannot move wins.
fn misere_wins(piles: &[u64], left: bool, memo: &mut HashMap<(Vec<u64>, bool), bool>) -> bool {
    let mut key: Vec<u64> = piles.iter().copied().filter(|&p| p > 0).collect();
    key.sort_unstable();
    if let Some(&w) = memo.get(&(key.clone(), left)) {
        return w;
    }
    let takes: &[u64] = if left { &[1, 2] } else { &[2, 3] };
    let mut moved = false;
    let mut wins = false;
    for i in 0..key.len() {
        for &k in takes {
            if k <= key[i] {
                moved = true;
                let mut after = key.clone();
                after[i] -= k;
                if !misere_wins(&after, !left, memo) {
                    wins = true;
                }
            }
        }
    }
    let wins = wins || !moved;
    memo.insert((key, left), wins);
    wins
}

/// The piles a move's button leads to: `take 2 from the pile of 9 → 7 5`, then its figures.
fn piles_after(label: &str) -> Vec<u64> {
    let after = label.split("→ ").nth(1).unwrap_or_default();
    after.lines().next().unwrap_or_default().split_whitespace().filter_map(|t| t.parse().ok()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partizan_game_is_played_to_the_end_as_right_with_coloured_moves_and_its_value_history() {
    let address = patient_server();
    let (_driver, client) = browser().await;
    open(&client, address).await;
    run(&client, "localStorage.removeItem('takeaway.score'); return 0;").await;
    client.refresh().await.expect("reloaded");
    // Partizan subtraction L{1,3} R{2,3}: each move shows the canonical value it leads to (the
    // game file's theory: a pile of 5 is {1|1,{1|0}||0,{1|0}|0}).
    choose_game(&client, "partizan-subtraction.game", "Partizan subtraction L{1,3} R{2,3}").await;
    click(&client, "nav.tabs button[data-panel=play]").await;
    text_until(&client, "#scorecard", |t| t.contains("you 0, computer 0")).await;
    let side = client.find(Locator::Css("#play-side")).await.expect("the side is asked for a partizan game");
    assert!(side.is_displayed().await.unwrap(), "the side's menu shows for a partizan game");
    type_into(&client, "#play-start", "6").await;
    click(&client, "#play-you-first").await;
    let first = text_until(&client, "#play-moves button.move", |t| !t.is_empty()).await;
    assert!(first.starts_with("take 1 from the pile of 6 → 5"), "{first}");
    // Its remoteness too: from 5, Right moving, two moves are left with best play (Right takes
    // 2 or 3, Left answers and Right has no move), as `partizan_remoteness` in the engine's
    // tests counts by brute force.
    assert!(first.contains("you win · remoteness 2 · value {1|1,{1|0}||0,{1|0}|0}"), "{first}");

    // Misère partizan subtraction L{1,2} R{2,3}, as Right, from 9 5: Right moving first wins
    // (brute force), and plays each move the page colours as a win, to the end.
    choose_game(&client, "partizan-misere.game", "Misère partizan subtraction L{1,2} R{2,3}").await;
    client.find(Locator::Css("#play-side")).await.unwrap().select_by_value("Right").await.expect("Right");
    type_into(&client, "#play-start", "9 5").await;
    click(&client, "#play-you-first").await;
    text_until(&client, "#play-turn", |t| t.contains("you are Right")).await;
    let mut memo = HashMap::new();
    assert!(misere_wins(&[9, 5], false, &mut memo), "Right moving first wins from 9 5");
    let mut moves_made = 0;
    for _ in 0..12 {
        if !client.find(Locator::Css("#play-result")).await.unwrap().text().await.unwrap().is_empty() {
            break;
        }
        let position = text_until(&client, "#play-position", |t| !t.is_empty()).await;
        let buttons = client.find_all(Locator::Css("#play-moves button.move")).await.expect("the moves");
        let mut winning = None;
        for b in &buttons {
            let label = b.text().await.unwrap();
            let class = b.attr("class").await.unwrap().unwrap_or_default();
            // Right moving there wins exactly when Left, moving first from there, loses.
            let right_wins = !misere_wins(&piles_after(&label), true, &mut memo);
            let expected = if right_wins { "win" } else { "lose" };
            assert!(class.split(' ').any(|c| c == expected), "from {position}, {label}: {expected} (class {class})");
            assert!(label.contains(if right_wins { "you win" } else { "you lose" }), "{label}");
            if right_wins && winning.is_none() {
                winning = Some(b.clone());
            }
        }
        winning.expect("a winning move each turn, as the start is a win for Right").click().await.expect("a click");
        moves_made += 1;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(text_until(&client, "#play-result", |t| !t.is_empty()).await, "You won!");
    assert!(moves_made >= 2, "a game of several moves");
    text_until(&client, "#scorecard", |t| t.contains("you 1, computer 0")).await;
    // The value history: a point for every position played, each a win for the player.
    let points = client.find_all(Locator::Css("#play-history circle[data-for-you]")).await.unwrap();
    let log = client.find_all(Locator::Css("#play-log li")).await.unwrap();
    assert_eq!(points.len(), log.len() + 1, "the start and the position after each move");
    for p in &points {
        assert_eq!(p.attr("data-for-you").await.unwrap().as_deref(), Some("win"), "the win never slipped");
    }
    let panel = client.find(Locator::Css("#panel-play")).await.unwrap();
    std::fs::write(screenshots().join("play-partizan.png"), panel.screenshot().await.unwrap()).unwrap();

    // Swap sides: now Left, from the same start.
    click(&client, "#play-swap").await;
    text_until(&client, "#play-turn", |t| t.contains("you are Left")).await;
    client.close().await.expect("the session ends");
}

/// An impartial game where the win slips: the move list coloured with remoteness and Grundy
/// values, and the value history ringing the slip. This is the README's picture.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_value_history_marks_where_the_win_slipped() {
    let address = patient_server();
    let (_driver, client) = browser().await;
    client.set_window_size(1200, 1300).await.expect("a window");
    open(&client, address).await;
    choose_game(&client, "tag.game", "TAG").await;
    click(&client, "nav.tabs button[data-panel=play]").await;
    type_into(&client, "#play-start", "10").await;
    click(&client, "#play-you-first").await;
    text_until(&client, "#play-position", |t| t == "10").await;
    // TAG (take 1, 2 or 3): n mod 4 is the Grundy value, and 0 mod 4 the P-positions; remoteness
    // of a P-position n is n/2 moves (each pair of moves takes 4), of an N-position one more.
    let labels = {
        let mut v = Vec::new();
        for b in client.find_all(Locator::Css("#play-moves button.move")).await.unwrap() {
            v.push((b.text().await.unwrap(), b.attr("class").await.unwrap().unwrap_or_default()));
        }
        v
    };
    assert_eq!(labels.len(), 3);
    for (label, class) in &labels {
        let to = piles_after(label)[0];
        let g = to % 4;
        let remoteness = if g == 0 { to / 2 } else { 2 * (to / 4) + 1 };
        let result = if g == 0 { "you win" } else { "you lose" };
        assert!(label.contains(&format!("{result} · remoteness {remoteness} · G = {g}")), "{label}");
        assert!(class.contains(if g == 0 { "win" } else { "lose" }), "{label}: {class}");
    }
    let panel = client.find(Locator::Css("#panel-play")).await.unwrap();
    std::fs::write(screenshots().join("coloured-moves.png"), panel.screenshot().await.unwrap()).unwrap();
    // Take 1 (to 9) lets the win go; then play on to the end.
    click(&client, "#play-moves button.move").await;
    for _ in 0..10 {
        if !client.find(Locator::Css("#play-result")).await.unwrap().text().await.unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        if let Ok(b) = client.find(Locator::Css("#play-moves button.move")).await {
            let _ = b.click().await;
        }
    }
    let result = text_until(&client, "#play-result", |t| !t.is_empty()).await;
    assert!(result.starts_with("The computer won. The win slipped at your move 1"), "{result}");
    let slip_line = text_until(&client, "#play-log li.slip", |t| !t.is_empty()).await;
    assert!(
        slip_line.starts_with("Your move 1: take 1 from the pile of 10"),
        "the log numbers moves as the message does: {slip_line}"
    );
    let ring = client.find(Locator::Css("#play-history circle.slip")).await;
    assert!(ring.is_ok(), "the slip is ringed in the value history");
    let colours: Vec<String> = {
        let mut v = Vec::new();
        for p in client.find_all(Locator::Css("#play-history circle[data-for-you]")).await.unwrap() {
            v.push(p.attr("data-for-you").await.unwrap().unwrap_or_default());
        }
        v
    };
    assert_eq!(colours[0], "win", "10 is a win for the player to move");
    assert_eq!(colours[1], "lose", "after the slip, 9 is lost for the player");
    assert_eq!(colours.last().map(String::as_str), Some("lose"));
    // The README's pictures: the panel with its history, then a fresh game's coloured moves.
    std::fs::write(screenshots().join("value-history.png"), panel.screenshot().await.unwrap()).unwrap();
    client.close().await.expect("the session ends");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_opens_the_same_page_in_a_fresh_browser_and_a_reload_keeps_the_game() {
    let address = patient_server();
    let game = "game \"Take two to five\"\npiles\nmove: take 2..5\n";
    let link = {
        let (_driver, client) = browser().await;
        open(&client, address).await;
        type_into(&client, "#source", game).await;
        text_until(&client, "#status", |t| t.contains("Take two to five: the game checks")).await;
        click(&client, "nav.tabs button[data-panel=plot]").await;
        type_into(&client, "#plot-upto", "40").await;
        client.find(Locator::Css("#plot-upto")).await.unwrap().send_keys("\u{E004}").await.unwrap(); // Tab: change
                                                                                                     // A reload keeps the game, the tab and the settings.
        tokio::time::sleep(Duration::from_millis(400)).await;
        client.refresh().await.expect("reloaded");
        text_until(&client, "#status", |t| t.contains("Take two to five: the game checks")).await;
        let tab = client.find(Locator::Css("nav.tabs button[aria-selected=true]")).await.unwrap();
        assert_eq!(tab.attr("data-panel").await.unwrap().as_deref(), Some("plot"));
        click(&client, "#share").await;
        let link = client.find(Locator::Css("#share-link")).await.unwrap().prop("value").await.unwrap().unwrap();
        // Served on this machine only, the panel says how to share it on a network.
        let network = text_until(&client, "#share-network", |t| !t.is_empty()).await;
        assert!(network.contains("--host 0.0.0.0"), "{network}");
        // Opened bare, this browser still has the game it was typing.
        client.goto(&format!("http://{address}/")).await.unwrap();
        text_until(&client, "#status", |t| t.contains("Take two to five: the game checks")).await;
        client.close().await.expect("the session ends");
        link
    };
    assert!(link.contains("#game="), "{link}");
    // A fresh browser (a new profile: nothing kept) opening the link gets the same page.
    let (_driver, client) = browser().await;
    client.goto(&link).await.expect("the link opens");
    text_until(&client, "#status", |t| t.contains("Take two to five: the game checks")).await;
    let text = client.find(Locator::Css("#source")).await.unwrap().prop("value").await.unwrap().unwrap();
    assert_eq!(text, game);
    let tab = client.find(Locator::Css("nav.tabs button[aria-selected=true]")).await.unwrap();
    assert_eq!(tab.attr("data-panel").await.unwrap().as_deref(), Some("plot"));
    let upto = client.find(Locator::Css("#plot-upto")).await.unwrap().prop("value").await.unwrap().unwrap();
    assert_eq!(upto, "40");
    // The link draws its panel by itself: the plot of 0..40, with nothing pressed.
    assert!(appears(&client, "#plot-out svg").await, "a shared link draws its plot");
    text_until(&client, "#plot-out", |t| t.contains("Grundy values")).await;
    // Enter in the field draws the plot.
    client.find(Locator::Css("#plot-upto")).await.unwrap().send_keys("\u{E007}").await.unwrap();
    let drawn = appears(&client, "#plot-out svg").await;
    assert!(drawn, "Enter asks the question");
    client.close().await.expect("the session ends");
}

/// The bytes the page downloads: the blob it hands the browser, caught on its way.
async fn caught_download(client: &Client, button: &str) -> String {
    run(
        client,
        "window.__caught = null; URL.createObjectURL = (b) => { window.__caught = b; return 'about:blank'; }; \
         HTMLAnchorElement.prototype.click = function () {}; return 0;",
    )
    .await;
    click(client, button).await;
    for _ in 0..100 {
        let got = client
            .execute_async(
                "const done = arguments[0]; if (!window.__caught) done(null); else window.__caught.text().then(done);",
                vec![],
            )
            .await
            .expect("a script runs");
        if let Value::String(s) = got {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{button} downloaded nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn downloads_are_the_command_lines_bytes() {
    let address = patient_server();
    let (_driver, client) = browser().await;
    open(&client, address).await;
    choose_game(&client, "kayles.game", "Kayles").await;
    type_into(&client, "#table-upto", "300").await;
    let csv = caught_download(&client, "#table-csv").await;
    // What `takeaway table games/kayles.game --upto 300 --format csv` writes (the command line
    // calls `write_table`).
    let text = common::game("kayles.game");
    let loaded = load_game(Source::new("kayles.game", &text), "kayles", &[], &NoLibrary, &Budget::new()).unwrap();
    let mut expected = Vec::new();
    let args = TableArgs { upto: 300, ..TableArgs::default() };
    takeaway_core::write_table(&loaded, &args, &Budget::new(), TableFormat::Csv, &mut expected).unwrap().unwrap();
    assert_eq!(csv.as_bytes(), expected.as_slice());
    // Kayles' Grundy values from n = 72 on repeat with period 12 (Guy and Smith): row 300 = row 84.
    let row = |n: usize| csv.lines().nth(n + 1).unwrap().split(',').nth(2).unwrap().to_string();
    assert_eq!(row(300), row(84));

    click(&client, "nav.tabs button[data-panel=plot]").await;
    type_into(&client, "#plot-upto", "50").await;
    click(&client, "#plot-go").await;
    let ready = appears(&client, "#plot-svg:not([disabled])").await;
    assert!(ready, "the SVG's button is enabled once drawn");
    let svg = caught_download(&client, "#plot-svg").await;
    // What `takeaway plot games/kayles.game --upto 50` writes.
    let plot =
        takeaway_core::Request::parse("plot", serde_json::json!({ "upto": 50 }).as_object().unwrap().clone()).unwrap();
    let answer = takeaway_core::ask(&loaded, &plot, &NoLibrary, &Budget::new()).unwrap();
    assert_eq!(svg, takeaway_core::render::text(&answer));
    assert!(svg.contains("font-size=\"16\""), "tick labels readable from the back of the room");

    let game_file = caught_download(&client, "#download-game").await;
    assert_eq!(game_file, text);
    client.close().await.expect("the session ends");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_100000_rows_scrolls_to_its_end() {
    let address = patient_server();
    let (_driver, client) = browser().await;
    open(&client, address).await;
    choose_game(&client, "kayles.game", "Kayles").await;
    type_into(&client, "#table-upto", "100000").await;
    click(&client, "#table-go").await;
    text_until(&client, "#table-out .period", |t| t.contains("period 12")).await;
    let drawn = client.find_all(Locator::Css("#table-out tr")).await.unwrap().len();
    assert!(drawn < 300, "only the rows in view are made: {drawn}");
    run(&client, "const s = document.querySelector('#table-out .vscroll'); s.scrollTop = s.scrollHeight; return 0;")
        .await;
    let last = text_until(&client, "#table-out tr:nth-last-child(2) td:first-child", |t| t == "100000").await;
    assert_eq!(last, "100000");
    // Kayles: 100000 = 72 + 12·8327 + 4, so its value is that of 76, which is 1 (Guy–Smith).
    let g = client
        .find(Locator::Css("#table-out tr:nth-last-child(2) td:nth-child(3)"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(g, "1");
    // The page still answers at once: the tab did not freeze.
    let t0 = std::time::Instant::now();
    run(&client, "return document.querySelectorAll('tr').length;").await;
    assert!(t0.elapsed() < Duration::from_secs(5));
    screenshot(&client, "table-100000").await;
    client.close().await.expect("the session ends");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_question_shows_its_progress_and_is_cancelled_and_a_short_time_limit_says_what_to_do() {
    let address = patient_server();
    let (_driver, client) = browser().await;
    open(&client, address).await;
    choose_game(&client, "misere-dawsons-kayles.game", "Dawson's Kayles, misère").await;
    click(&client, "nav.tabs button[data-panel=quotient]").await;
    type_into(&client, "#time-limit", "30").await;
    type_into(&client, "#quotient-upto", "33").await;
    click(&client, "#quotient-go").await;
    // The engine's own count of heaps, streamed while it computes.
    let progress = text_until(&client, "#progress-text", |t| t.contains("pile values") && t.contains(" of 34")).await;
    assert!(progress.contains("pile values"), "{progress}");
    screenshot(&client, "progress").await;
    click(&client, "#cancel").await;
    let out = text_until(&client, "#quotient-out", |t| t.contains("Cancelled")).await;
    assert!(out.contains("stopped before it finished"), "{out}");
    assert!(!client.find(Locator::Css("#progress")).await.unwrap().is_displayed().await.unwrap());

    // A time limit too short: the page says what a student can do (no command-line option).
    type_into(&client, "#time-limit", "1").await;
    click(&client, "#quotient-go").await;
    let said = text_until(&client, "#quotient-out", |t| t.contains("time limit")).await;
    assert!(said.contains("raise the time limit at the top (this server allows up to 30 s)"), "{said}");
    assert!(!said.contains("--timeout"), "the page speaks of its own time limit, not the command line's: {said}");

    // Still answering: a quick question at once.
    type_into(&client, "#time-limit", "10").await;
    type_into(&client, "#quotient-upto", "12").await;
    client.find(Locator::Css("#quotient-upto")).await.unwrap().send_keys("\u{E007}").await.unwrap();
    text_until(&client, "#quotient-out", |t| t.contains("Φ(n)")).await;
    client.close().await.expect("the session ends");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_header_follows_the_text_and_the_shortcuts_are_listed() {
    let address = patient_server();
    let (_driver, client) = browser().await;
    open(&client, address).await;
    choose_game(&client, "kayles.game", "Kayles").await;
    // A mistake: the header names no game, the menu no bundled game, the help's code as code.
    type_into(&client, "#source", "game \"K\"\npiles\nmove: tak 1\n").await;
    text_until(&client, "#status", |t| t.contains("problem")).await;
    assert_eq!(client.find(Locator::Css("#game-name")).await.unwrap().text().await.unwrap(), "");
    let menu = client.find(Locator::Css("#games")).await.unwrap().prop("value").await.unwrap().unwrap();
    assert_eq!(menu, "");
    let code = client.find(Locator::Css("#diagnostics .help code")).await.unwrap().text().await.unwrap();
    assert_eq!(code, "take", "`take` in the help is shown as code, not with backticks");
    // `?` (outside a field) lists the shortcuts; Escape closes it; `2` opens the second tab.
    client.find(Locator::Css("body")).await.unwrap().click().await.unwrap();
    run(&client, "document.activeElement.blur(); return 0;").await;
    client.active_element().await.unwrap().send_keys("?").await.unwrap();
    let help = text_until(&client, "#help", |t| t.contains("Keyboard shortcuts")).await;
    assert!(help.contains("Enter") && help.contains("hint"), "{help}");
    client.active_element().await.unwrap().send_keys("\u{E00C}").await.unwrap();
    run(&client, "document.activeElement.blur(); return 0;").await;
    client.active_element().await.unwrap().send_keys("2").await.unwrap();
    let tab = client.find(Locator::Css("nav.tabs button[aria-selected=true]")).await.unwrap();
    assert_eq!(tab.attr("data-panel").await.unwrap().as_deref(), Some("plot"));

    // A parameter set in the page, as `--set k=5`: TAG taking 1 to 5 has period 6.
    choose_game(&client, "tag.game", "TAG").await;
    click(&client, "nav.tabs button[data-panel=table]").await;
    type_into(&client, "#settings", "k=5").await;
    type_into(&client, "#table-upto", "12").await;
    client.find(Locator::Css("#table-upto")).await.unwrap().send_keys("\u{E007}").await.unwrap();
    let ps = text_until(&client, "#table-out", |t| t.contains("P-positions: 0, 6, 12")).await;
    assert!(ps.contains("P-positions: 0, 6, 12"), "{ps}");
    client.close().await.expect("the session ends");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_shared_on_the_network_shows_its_address_and_a_qr_code() {
    let address = common::start("0.0.0.0:0", Config { timeout: 5.0, ..Config::default() });
    let port = address.port();
    let urls = takeaway_web::urls(address);
    let (_driver, client) = browser().await;
    client.goto(&format!("http://127.0.0.1:{port}/")).await.expect("the page opens");
    text_until(&client, "#status", |t| t.contains("the game checks")).await;
    click(&client, "#share").await;
    let network = text_until(&client, "#share-network", |t| !t.is_empty()).await;
    if urls.is_empty() {
        // A machine with no network address: the page says how to share it.
        assert!(network.contains("--host 0.0.0.0"), "{network}");
    } else {
        assert!(network.contains(&urls[0]), "{network} names {}", urls[0]);
        let qr = client.find(Locator::Css("#share-qr svg")).await.expect("the QR code");
        assert_eq!(qr.attr("aria-label").await.unwrap(), Some(format!("QR code of {}", urls[0])));
        // The code's modules: a QR code of version ≥ 1 has at least 21 × 21, drawn as paths.
        let drawn = client.find_all(Locator::Css("#share-qr svg path, #share-qr svg rect")).await.unwrap();
        assert!(!drawn.is_empty());
        screenshot(&client, "share").await;
    }
    client.close().await.expect("the session ends");
}

/// axe-core, run in the page: the violations of `impact` serious or critical.
async fn serious_violations(client: &Client) -> Vec<String> {
    let axe = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/npm/node_modules/axe-core/axe.min.js");
    let script = std::fs::read_to_string(&axe).expect("axe-core: run .ci/install-browser");
    client.execute(&format!("{script}; return 0;"), vec![]).await.expect("axe loads");
    let result = client
        .execute_async(
            "const done = arguments[0]; axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.help + ' (' + v.nodes.map((n) => n.target.join(' ')).join(', ') + ')'))).catch((e) => done(['axe failed: ' + e]));",
            vec![],
        )
        .await
        .expect("axe runs");
    result.as_array().unwrap().iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axe_core_finds_no_serious_violation_and_the_page_fits_a_phone() {
    let address = patient_server();
    let (_driver, client) = browser().await;
    open(&client, address).await;
    let mut found = serious_violations(&client).await;
    // The play panel with its coloured moves and value history, and a table.
    click(&client, "nav.tabs button[data-panel=play]").await;
    click(&client, "#play-you-first").await;
    text_until(&client, "#play-position", |t| !t.is_empty()).await;
    found.extend(serious_violations(&client).await);
    click(&client, "nav.tabs button[data-panel=table]").await;
    click(&client, "#table-go").await;
    text_until(&client, "#table-out .note", |t| t.contains("TAG")).await;
    found.extend(serious_violations(&client).await);
    // In the dark.
    client.issue_cmd(DarkMode).await.expect("the page is shown dark");
    let dark = run(&client, "return matchMedia('(prefers-color-scheme: dark)').matches;").await;
    assert_eq!(dark, Value::Bool(true));
    found.extend(serious_violations(&client).await);
    click(&client, "nav.tabs button[data-panel=play]").await;
    found.extend(serious_violations(&client).await);
    assert!(found.is_empty(), "axe-core: {found:#?}");

    // A phone: 390 px wide, nothing sticks out sideways, the plot's text still 14 px or more.
    client.set_window_size(390, 844).await.expect("a phone's window");
    click(&client, "nav.tabs button[data-panel=plot]").await;
    click(&client, "#plot-go").await;
    text_until(&client, "#plot-out", |t| t.contains("Grundy values")).await;
    let fits =
        run(&client, "return document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1;").await;
    assert_eq!(fits, Value::Bool(true), "nothing sticks out sideways on a phone");
    // A text's size on the screen: its font size in the picture's units, times the picture's scale.
    let smallest = run(
        &client,
        "const svg = document.querySelector('#plot-out svg'); const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; \
         return Math.min(...[...svg.querySelectorAll('text')].map((t) => parseFloat(t.getAttribute('font-size')) * scale));",
    )
    .await;
    assert!(smallest.as_f64().unwrap() >= 14.0, "the plot's smallest text is {smallest} px");
    // Kept at that size, the picture scrolls sideways, and the page says so.
    let hint = run(&client, "return getComputedStyle(document.querySelector('#plot-out .scroll-hint')).display;").await;
    assert_eq!(hint, Value::String("block".into()), "a phone is told the plot scrolls sideways");
    screenshot(&client, "phone-plot").await;
    // No tab makes the page wider than the phone: the atlas's wide table scrolls in its box.
    let tabs = ["table", "plot", "explain", "solve", "play", "quotient", "thermograph", "atlas"];
    for tab in tabs {
        click(&client, &format!("nav.tabs button[data-panel={tab}]")).await;
        if tab == "atlas" {
            assert!(appears(&client, "#atlas-out table").await, "the atlas draws its table");
        }
        let fits =
            run(&client, "return document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1;")
                .await;
        assert_eq!(fits, Value::Bool(true), "the {tab} tab makes the page wider than a phone");
    }
    screenshot(&client, "phone-atlas").await;
    // The value history's text, on the phone's screen: 12 px or more. A game started on a
    // phone brings its moves into view.
    click(&client, "nav.tabs button[data-panel=play]").await;
    click(&client, "#play-you-first").await;
    text_until(&client, "#play-position", |t| !t.is_empty()).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let in_view = run(
        &client,
        "const b = document.querySelector('#play-moves button').getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight;",
    )
    .await;
    assert_eq!(in_view, Value::Bool(true), "a phone sees its moves when the game starts");
    assert!(appears(&client, "#play-history svg").await, "the value history is drawn");
    let smallest = run(
        &client,
        "const svg = document.querySelector('#play-history svg'); const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; \
         const size = parseFloat(svg.getAttribute('font-size')); \
         return Math.min(...[...svg.querySelectorAll('text')].map((t) => (parseFloat(t.getAttribute('font-size')) || size) * scale));",
    )
    .await;
    assert!(smallest.as_f64().unwrap() >= 12.0, "the value history's smallest text is {smallest} px");
    let caption = text_until(&client, "#play-history svg", |t| t.contains("above a dot")).await;
    assert!(caption.contains("Grundy value"), "the chart says what its labels are: {caption}");
    screenshot(&client, "phone-play").await;
    // On a desktop the atlas's last column is on the page or a scroll away in its box, never cut.
    client.set_window_size(1280, 900).await.expect("a desktop's window");
    click(&client, "nav.tabs button[data-panel=atlas]").await;
    let reachable = run(
        &client,
        "const box = document.querySelector('#atlas-out'); const style = getComputedStyle(box); \
         return box.scrollWidth <= box.clientWidth + 1 || style.overflowX === 'auto' || style.overflowX === 'scroll';",
    )
    .await;
    assert_eq!(reachable, Value::Bool(true), "the atlas's last column can be reached");
    client.close().await.expect("the session ends");
}

/// Chromium's DevTools command that makes the page see `prefers-color-scheme: dark`.
#[derive(Debug)]
struct DarkMode;

impl fantoccini::wd::WebDriverCompatibleCommand for DarkMode {
    fn endpoint(&self, base: &url::Url, session_id: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session_id.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({
            "cmd": "Emulation.setEmulatedMedia",
            "params": { "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }
        });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// A test that panics with its browser open leaves none running: the driver, dropped by the
/// panic, stops its process group, and the browser it started is in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_test_that_panics_leaves_no_browser_running() {
    let (tell, told) = std::sync::mpsc::channel();
    let failed = tokio::spawn(async move {
        let (driver, client) = browser().await;
        client.goto("about:blank").await.expect("a page opens");
        tell.send((driver.group(), processes_in_group(driver.group()))).expect("the test hears");
        panic!("a test fails with its browser open");
    })
    .await;
    assert!(failed.is_err_and(|e| e.is_panic()));
    let (group, running) = told.recv().expect("the group was sent");
    assert!(running.iter().any(|name| name.contains("chrom") && name != "chromedriver"), "{running:?}");
    let started = std::time::Instant::now();
    while !processes_in_group(group).is_empty() && started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(processes_in_group(group), Vec::<String>::new());
}
