//! A browser for the page's tests: Debian's chromium driven by chromedriver over WebDriver, and
//! the steps a test takes in it (type, click, wait for an answer). `.ci/install-browser`
//! installs the browser and axe-core.

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver, started in a process group of its own with the browsers it starts: dropped
/// (a test passed, or panicked before it closed its session) it stops the whole group, so that
/// no Chromium outlives its test.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        // The group's id is chromedriver's pid (`process_group(0)`); a negative pid signals
        // every process in the group.
        if let Ok(group) = libc::pid_t::try_from(self.0.id()) {
            // SAFETY: kill(2) with a group id and a signal number reads no memory.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Driver {
    /// The process group of chromedriver and the browsers it started.
    pub fn group(&self) -> u32 {
        self.0.id()
    }
}

/// The names of the live processes (zombies left out) in a process group, from `/proc`.
pub fn processes_in_group(group: u32) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| std::fs::read_to_string(entry.path().join("stat")).ok())
        .filter_map(|stat| {
            // pid (comm) state ppid pgrp …: the name may hold spaces, so split after its ')'.
            let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let (state, pgrp) = (*fields.first()?, fields.get(2)?.parse::<u32>().ok()?);
            (pgrp == group && state != "Z").then(|| name.to_string())
        })
        .collect()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("its address").port()
}

pub async fn browser() -> (Driver, Client) {
    assert!(
        std::path::Path::new(CHROMEDRIVER).exists() && std::path::Path::new(CHROMIUM).exists(),
        "the browser tests need Debian's chromium and chromium-driver: run .ci/install-browser"
    );
    let port = free_port();
    let driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .process_group(0)
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
            // A loaded machine (two browsers starting at once on two cores) may take a while.
            Err(e) if started.elapsed() < Duration::from_secs(90) => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("no WebDriver session: {e}"),
        }
    }
}

/// Waits until the element's text satisfies `ok` (the page answers asynchronously).
pub async fn text_until(client: &Client, css: &str, ok: impl Fn(&str) -> bool) -> String {
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

pub async fn click(client: &Client, css: &str) {
    client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}")).click().await.expect("a click");
}

pub async fn type_into(client: &Client, css: &str, text: &str) -> Element {
    let field = client.find(Locator::Css(css)).await.expect("the field");
    field.clear().await.expect("cleared");
    field.send_keys(text).await.expect("typed");
    field
}

/// Waits up to 10 s for an element matching `css` to appear: whether it did.
pub async fn appears(client: &Client, css: &str) -> bool {
    for _ in 0..100 {
        if client.find(Locator::Css(css)).await.is_ok() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// Where screenshots go: target/screenshots/.
pub fn screenshots() -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).expect("target is writable");
    dir
}

/// Saves a screenshot of the whole window as target/screenshots/NAME.png.
pub async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(screenshots().join(format!("{name}.png")), png).expect("the screenshot is written");
}
