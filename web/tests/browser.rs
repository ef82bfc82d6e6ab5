//! The page in a real browser (Debian's chromium, driven by chromedriver over WebDriver): type a
//! game with a mistake, see the diagnostic, fix it, read the table, explain a position, and play
//! a game to the end; a screenshot is saved to target/screenshots/. `.ci/install-browser`
//! installs the browser.

mod common;

use std::time::Duration;

use common::browser::{appears, browser, click, text_until, type_into};
use fantoccini::Locator;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_writes_a_game_reads_its_table_asks_why_and_plays_it() {
    let address = common::server();
    let (_driver, client) = browser().await;
    client.goto(&format!("http://{address}/")).await.expect("the page opens");
    text_until(&client, "#status", |t| t.contains("TAG: the game checks")).await;

    // A game with a mistake: the diagnostic appears under the text, the word marked.
    type_into(&client, "#source", "game \"Take one to three\"\npiles\nmove: tak 1..3\n").await;
    // The engine writes code between backticks; the page shows it as code.
    let diagnostic = text_until(&client, "#diagnostics", |t| t.contains("unexpected word tak")).await;
    assert!(diagnostic.contains("help: did you mean take?"), "{diagnostic}");
    let code = client.find(Locator::Css("#diagnostics .message code")).await.expect("the word as code");
    assert_eq!(code.text().await.unwrap(), "tak");
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
    // The menu fills from /api/games, which may answer after the first game has checked.
    assert!(appears(&client, "#games option[value='partizan-subtraction.game']").await);
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
    let drawn = appears(&client, "#plot-out svg").await;
    assert!(drawn, "the code's plot is drawn");
    client.close().await.expect("the session ends");
}
