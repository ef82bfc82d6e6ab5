//! The page in a real browser (Debian's chromium, driven by chromedriver over WebDriver): type a
//! game with a mistake, see the diagnostic, fix it, read the table, explain a position, and play
//! a game to the end; a screenshot is saved to target/screenshots/. `.ci/install-browser`
//! installs the browser.

mod common;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver, stopped when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("its address").port()
}

async fn browser() -> (Driver, Client) {
    assert!(
        std::path::Path::new(CHROMEDRIVER).exists() && std::path::Path::new(CHROMIUM).exists(),
        "the browser tests need Debian's chromium and chromium-driver: run .ci/install-browser"
    );
    let port = free_port();
    let driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let profile = std::env::temp_dir().join(format!("takeaway-chromium-{port}"));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            // Without the background-networking flags Chromium keeps calling outside hosts,
            // which this closed network refuses.
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--window-size=1400,1000",
                     format!("--user-data-dir={}", profile.display())],
        }),
    );
    let started = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => return (driver, client),
            Err(e) if started.elapsed() < Duration::from_secs(30) => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("no WebDriver session: {e}"),
        }
    }
}

/// Waits until the element's text satisfies `ok` (the page answers asynchronously).
async fn text_until(client: &Client, css: &str, ok: impl Fn(&str) -> bool) -> String {
    let started = Instant::now();
    loop {
        if let Ok(e) = client.find(Locator::Css(css)).await {
            let text = e.text().await.unwrap_or_default();
            if ok(&text) {
                return text;
            }
            if started.elapsed() > Duration::from_secs(20) {
                panic!("{css} never said what was expected; it says: {text}");
            }
        } else if started.elapsed() > Duration::from_secs(20) {
            panic!("no element {css}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn click(client: &Client, css: &str) {
    client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}")).click().await.expect("a click");
}

async fn type_into(client: &Client, css: &str, text: &str) -> Element {
    let field = client.find(Locator::Css(css)).await.expect("the field");
    field.clear().await.expect("cleared");
    field.send_keys(text).await.expect("typed");
    field
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_writes_a_game_reads_its_table_asks_why_and_plays_it() {
    let address = common::server();
    let (_driver, client) = browser().await;
    client.goto(&format!("http://{address}/")).await.expect("the page opens");
    text_until(&client, "#status", |t| t.contains("TAG: the game checks")).await;

    // A game with a mistake: the diagnostic appears under the text, the word marked.
    type_into(&client, "#source", "game \"Take one to three\"\npiles\nmove: tak 1..3\n").await;
    let diagnostic = text_until(&client, "#diagnostics", |t| t.contains("unexpected word `tak`")).await;
    assert!(diagnostic.contains("help: did you mean `take`?"), "{diagnostic}");
    let marked = client.find(Locator::Css("#diagnostics mark")).await.expect("the span marked");
    assert_eq!(marked.text().await.unwrap(), "tak");
    assert!(text_until(&client, "#status", |t| t.contains("problem")).await.contains("1 problem"));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).expect("target is writable");
    std::fs::write(dir.join("serve-diagnostic.png"), client.screenshot().await.expect("a screenshot"))
        .expect("the screenshot is written");

    // Fixed: the diagnostic goes.
    type_into(&client, "#source", "game \"Take one to three\"\npiles\nmove: take 1..3\n").await;
    text_until(&client, "#status", |t| t.contains("Take one to three: the game checks")).await;
    assert!(client.find(Locator::Css("#diagnostics .diagnostic")).await.is_err());

    // The table: P-positions marked, the period proven.
    type_into(&client, "#table-upto", "20").await;
    click(&client, "#table-go").await;
    let period = text_until(&client, "#table-out .period", |t| !t.is_empty()).await;
    assert!(period.contains("period 4 from n = 0") && period.contains("proven"), "{period}");
    let marked = client.find_all(Locator::Css("#table-out tr.p td:first-child")).await.expect("P rows");
    let mut ps = Vec::new();
    for cell in marked {
        ps.push(cell.text().await.unwrap());
    }
    assert_eq!(ps, ["0", "4", "8", "12", "16", "20"]);

    // Explain a position: the options' values and their mex.
    click(&client, "nav.tabs button[data-panel=explain]").await;
    type_into(&client, "#explain-position", "6").await;
    click(&client, "#explain-go").await;
    let why = text_until(&client, "#explain-out", |t| t.contains("mex")).await;
    assert!(why.contains("Take one to three, one pile of 6"), "{why}");

    // Play from 10: a first move of 1 lets the win go (9 is N), and the page says where.
    click(&client, "nav.tabs button[data-panel=play]").await;
    type_into(&client, "#play-start", "10").await;
    click(&client, "#play-you-first").await;
    text_until(&client, "#play-position", |t| t == "10").await;
    click(&client, "#play-hint").await;
    let hint = text_until(&client, "#play-hint-out", |t| !t.is_empty()).await;
    assert_eq!(hint, "Hint: take 2 from the pile of 10 (it leaves a P-position)");
    for _ in 0..20 {
        if !client.find(Locator::Css("#play-result")).await.unwrap().text().await.unwrap().is_empty() {
            break;
        }
        // Always the first move listed: take 1.
        click(&client, "#play-moves button.move").await;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let result = text_until(&client, "#play-result", |t| !t.is_empty()).await;
    assert_eq!(
        result,
        "The computer won. The win slipped at your move 1: you played take 1 from the pile of 10; \
         take 2 from the pile of 10 would have kept the win."
    );
    // Undo takes back the last move, and the game goes on.
    click(&client, "#play-undo").await;
    text_until(&client, "#play-result", |t| t.is_empty()).await;
    assert!(!client.find_all(Locator::Css("#play-moves button.move")).await.unwrap().is_empty());

    // A bundled game from the menu, and its table.
    click(&client, "nav.tabs button[data-panel=table]").await;
    let menu = client.find(Locator::Css("#games")).await.unwrap();
    menu.select_by_value("kayles.game").await.expect("Kayles in the menu");
    text_until(&client, "#status", |t| t.contains("Kayles: the game checks")).await;
    type_into(&client, "#table-upto", "30").await;
    click(&client, "#table-go").await;
    text_until(&client, "#table-out .note", |t| t.contains("Kayles")).await;

    std::fs::write(dir.join("serve.png"), client.screenshot().await.expect("a screenshot")).expect("written");
    // On a phone's width the two halves stack, and the table still reads.
    client.set_window_size(420, 900).await.expect("a narrow window");
    let width: serde_json::Value = client
        .execute("return document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1;", vec![])
        .await
        .expect("a script runs");
    assert_eq!(width, serde_json::Value::Bool(true), "nothing sticks out sideways on a phone");
    std::fs::write(dir.join("serve-phone.png"), client.screenshot().await.expect("a screenshot")).expect("written");
    client.close().await.expect("the session ends");
}

/// The thermograph panel: a partizan game from the menu, three positions overlaid, the walls
/// drawn (one polyline each) and each position's mean and temperature listed; the table gains
/// the columns of mean and temperature. A screenshot goes to target/screenshots/.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_draws_thermographs_of_a_partizan_game() {
    let address = common::server();
    let (_driver, client) = browser().await;
    client.goto(&format!("http://{address}/")).await.expect("the page opens");
    text_until(&client, "#status", |t| t.contains("the game checks")).await;
    let menu = client.find(Locator::Css("#games")).await.unwrap();
    menu.select_by_value("partizan-subtraction.game").await.expect("partizan subtraction in the menu");
    text_until(&client, "#status", |t| t.contains("Partizan subtraction L{1,3} R{2,3}: the game checks")).await;
    type_into(&client, "#table-upto", "8").await;
    click(&client, "#table-go").await;
    let table = text_until(&client, "#table-out", |t| t.contains("temperature")).await;
    assert!(table.contains("mean") && table.contains("1/2"), "{table}");
    click(&client, "nav.tabs button[data-panel=thermograph]").await;
    type_into(&client, "#thermograph-positions", "8, 4, 3").await;
    click(&client, "#thermograph-go").await;
    let heat = text_until(&client, "#thermograph-heat", |t| t.lines().count() == 3).await;
    // Pile 8: mean and temperature 1/2; 4 (1 + infinitesimals): mean 1, temperature 0; 3: 0, 0.
    assert_eq!(heat, "8: mean 1/2, temperature 1/2\n4: mean 1, temperature 0\n3: mean 0, temperature 0");
    let walls = client.find_all(Locator::Css("#thermograph-out polyline")).await.expect("the walls");
    assert_eq!(walls.len(), 6, "two walls for each of three positions");
    let corners = walls[0].attr("data-corners").await.expect("an attribute").unwrap_or_default();
    assert_eq!(corners, "-1:1 0:1 1/2:1/2", "pile 8's left wall");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).expect("target is writable");
    std::fs::write(dir.join("serve-thermograph.png"), client.screenshot().await.expect("a screenshot"))
        .expect("the screenshot is written");
    client.close().await.expect("the session ends");
}

/// The atlas: every octal code of up to four digits, searched by code and by status; a code
/// opens its table and its plot. A screenshot goes to target/screenshots/.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_searches_the_atlas_and_opens_a_code() {
    let address = common::server();
    let (_driver, client) = browser().await;
    client.goto(&format!("http://{address}/")).await.expect("the page opens");
    text_until(&client, "#status", |t| t.contains("the game checks")).await;
    click(&client, "nav.tabs button[data-panel=atlas]").await;
    let count = text_until(&client, "#atlas-count", |t| t.contains("codes")).await;
    assert!(count.contains("of 8190 codes"), "{count}");
    type_into(&client, "#atlas-search", "0.16").await;
    let found = text_until(&client, "#atlas-out", |t| t.contains("0.16")).await;
    // Gangolli and Plambeck: period 149,459 from 105,351.
    let row = found.lines().find(|l| l.starts_with("0.16 ")).unwrap_or_default().to_string();
    assert!(row.starts_with("0.16 proven 105351 149459"), "{found}");
    type_into(&client, "#atlas-search", "0.6").await;
    let open = text_until(&client, "#atlas-out", |t| t.lines().any(|l| l.starts_with("0.6 "))).await;
    let row = open.lines().find(|l| l.starts_with("0.6 ")).unwrap_or_default().to_string();
    assert!(row.starts_with("0.6 open"), "{open}");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).expect("target is writable");
    std::fs::write(dir.join("serve-atlas.png"), client.screenshot().await.expect("a screenshot")).expect("written");
    click(&client, "#atlas-out button.atlas-code").await;
    text_until(&client, "#status", |t| t.contains("0.6: the game checks")).await;
    let table = text_until(&client, "#table-out", |t| t.contains("P-positions")).await;
    assert!(table.contains("0.6"), "{table}");
    let mut drawn = false;
    for _ in 0..100 {
        if client.find(Locator::Css("#plot-out svg")).await.is_ok() {
            drawn = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(drawn, "the code's plot is drawn");
    client.close().await.expect("the session ends");
}
