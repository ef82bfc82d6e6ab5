//! The JSON API: one handler for every question, `POST /api/{verb}` with the game's text and
//! the question's arguments; answers are the command line's `--format json` (or its text), and
//! failures the diagnostics as data with the HTTP status of their kind.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use takeaway_core::analysis::period_search::PeriodQuestion;
use takeaway_core::analysis::TableOptions;
use takeaway_core::api::{self, Answer, DiagnosticData, Failure, FailureKind, Request};
use takeaway_core::check::SettingValue;
use takeaway_core::diagnostics::Source;
use takeaway_core::render;
use takeaway_core::solve::{progress::CancelToken, Limits, DEFAULT_MAX_STATES};

use crate::error::WebError;
use crate::library::{Bundled, BUNDLED};
use crate::{App, MOST_BODY_BYTES};

/// The engine's verbs the API answers: all but `compare`, which needs two games.
fn offered() -> impl Iterator<Item = &'static str> {
    api::VERBS.iter().copied().filter(|v| *v != "compare")
}

fn known() -> String {
    offered().collect::<Vec<_>>().join(", ")
}

/// The largest answer sent to the page, in bytes: a picture or table past it would stall the
/// browser it is meant for.
const MOST_ANSWER_BYTES: usize = 16 << 20;

/// The most rows of one pile (or rows and columns of a grid) a table or plot for the page has.
const MOST_UPTO: u64 = 100_000;

/// One question: the game's text and whatever the verb reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub source: String,
    #[serde(default)]
    pub position: Option<String>,
    #[serde(default)]
    pub last: Option<u64>,
    #[serde(default)]
    pub all: bool,
    #[serde(default)]
    pub upto: Option<u64>,
    #[serde(default)]
    pub piles: Option<usize>,
    #[serde(default)]
    pub remoteness: Option<bool>,
    #[serde(default)]
    pub by_last: bool,
    /// The game's parameters, as `--set` gives them: a number or a set of numbers.
    #[serde(default)]
    pub settings: BTreeMap<String, Setting>,
    /// `"json"` (the default: the command line's JSON) or `"text"` (`{"text": …}`, as it prints).
    #[serde(default)]
    pub format: Format,
    /// Seconds, at most the server's timeout.
    #[serde(default)]
    pub timeout: Option<f64>,
    /// For `play`: the position the player's move leads to.
    #[serde(default)]
    pub to: Option<String>,
    /// For `play`: the computer moves from `position`.
    #[serde(default)]
    pub computer: bool,
    /// For `play`: a hint for the player to move from `position`.
    #[serde(default)]
    pub hint: bool,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub enum Setting {
    Number(i64),
    Set(Vec<i64>),
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Json,
    Text,
}

/// The bundled games, for the page's menu.
pub async fn games() -> Json<Value> {
    let games: Vec<Value> = BUNDLED
        .iter()
        .map(|(file, text)| {
            // The name as the checker reads it (a bundled game always loads; its file name else).
            let name = api::load(Source::new(format!("{file}.game"), *text), file, &[], &Bundled)
                .map_or_else(|_| file.to_string(), |loaded| loaded.game.name);
            json!({ "file": format!("{file}.game"), "name": name, "source": text })
        })
        .collect();
    Json(json!({ "games": games }))
}

/// Cancels a question when its request goes away (the client closed the connection, or the
/// server is shutting down), so that a question nobody waits for stops computing.
struct CancelOnDrop(CancelToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

pub async fn ask(
    State(app): State<Arc<App>>,
    Path(verb): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    if !offered().any(|v| v == verb) {
        return web_failure(StatusCode::NOT_FOUND, WebError::UnknownQuestion { verb, known: known() });
    }
    let body = match body {
        Ok(b) => b,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return web_failure(StatusCode::PAYLOAD_TOO_LARGE, WebError::TooLarge { limit: MOST_BODY_BYTES })
        }
        Err(e) => return web_failure(StatusCode::BAD_REQUEST, WebError::Malformed { reason: e.body_text() }),
    };
    let question: Question = match serde_json::from_slice(&body) {
        Ok(q) => q,
        Err(e) => return web_failure(StatusCode::BAD_REQUEST, WebError::Malformed { reason: e.to_string() }),
    };
    let timeout = question
        .timeout
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map_or(app.config.timeout, |t| t.min(app.config.timeout));
    let Ok(permit) = app.slots.clone().acquire_owned().await else {
        return web_failure(
            StatusCode::SERVICE_UNAVAILABLE,
            WebError::Internal { reason: "the server is stopping".into() },
        );
    };
    let cancel = CancelToken::new();
    let _cancel_when_dropped = CancelOnDrop(cancel.clone());
    // One thread per question at most: two slow questions must not starve each other.
    let max_states = app.config.max_states.unwrap_or(DEFAULT_MAX_STATES);
    let mut limits = Limits::states_on(max_states, 1).with_timeout(Some(timeout));
    limits.cancel = cancel;
    let answered = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        answer(&verb, &question, &limits)
    })
    .await;
    match answered {
        Ok(Ok(value)) => (StatusCode::OK, Json(value)).into_response(),
        Ok(Err(Refusal::Engine(failure))) => engine_failure(&failure),
        Ok(Err(Refusal::Web(e))) => web_failure(StatusCode::UNPROCESSABLE_ENTITY, e),
        Err(e) => web_failure(StatusCode::INTERNAL_SERVER_ERROR, WebError::Internal { reason: e.to_string() }),
    }
}

/// Why a question has no answer.
pub enum Refusal {
    Engine(Failure),
    Web(WebError),
}

impl From<Failure> for Refusal {
    fn from(f: Failure) -> Self {
        Refusal::Engine(f)
    }
}

impl From<WebError> for Refusal {
    fn from(e: WebError) -> Self {
        Refusal::Web(e)
    }
}

/// Loads the game and answers the question, on a blocking thread.
fn answer(verb: &str, q: &Question, limits: &Limits) -> Result<Value, Refusal> {
    let settings: Vec<api::Setting> = q
        .settings
        .iter()
        .map(|(name, value)| {
            let value = match value {
                Setting::Number(n) => SettingValue::Number(*n),
                Setting::Set(set) => SettingValue::set(set.iter().copied()),
            };
            (name.clone(), value)
        })
        .collect();
    let loaded = api::load(Source::new("game", q.source.as_str()), "game", &settings, &Bundled)?;
    let position = || q.position.clone().unwrap_or_default();
    // The bound given, where the page can show that many rows.
    let upto = || match q.upto {
        Some(n) if n > MOST_UPTO => Err(WebError::TooManyRows { field: "upto", given: n, most: MOST_UPTO }),
        given => Ok(given),
    };
    let request = match verb {
        "check" => Request::Check,
        "solve" => Request::Solve { position: position(), last: q.last, remoteness: q.remoteness.unwrap_or(true) },
        "explain" => Request::Explain { position: position(), last: q.last, all: q.all },
        "table" => Request::Table {
            upto: upto()?.unwrap_or(30),
            options: TableOptions {
                remoteness: q.remoteness.unwrap_or(false),
                by_last: q.by_last,
                period_values: None,
                piles: q.piles,
            },
        },
        "plot" => Request::Plot { upto: upto()?.unwrap_or(60) },
        "quotient" => Request::Quotient { upto: upto()? },
        "period" => Request::Period(PeriodQuestion { upto: upto()?.unwrap_or(1 << 16), checkpoint: None }),
        "play" => return crate::play::step(&loaded, q, limits),
        other => return Err(WebError::UnknownQuestion { verb: other.to_string(), known: known() }.into()),
    };
    if let Request::Plot { upto } = request {
        refuse_a_plot_too_large(&loaded.game, upto)?;
    }
    let answer = api::ask(&loaded, &request, limits)?;
    let value = rendered(&answer, q.format);
    let bytes = serde_json::to_vec(&value).map_or(0, |v| v.len());
    if bytes > MOST_ANSWER_BYTES {
        let megabytes = (bytes as u64).div_ceil(1 << 20);
        return Err(WebError::AnswerTooLarge { megabytes, most: (MOST_ANSWER_BYTES >> 20) as u64 }.into());
    }
    Ok(value)
}

/// The fewest bytes one square of a two-dimensional picture takes (an SVG rectangle with its
/// title is some 90; Chomp draws half of the grid).
const PLOT_BYTES_PER_SQUARE: u64 = 40;

/// A picture of every position of two piles or rows up to `upto` grows with the square of
/// `upto`: refused from that count before anything is computed, so that the refusal never
/// depends on how fast the machine is.
fn refuse_a_plot_too_large(game: &takeaway_core::rules::Game, upto: u64) -> Result<(), WebError> {
    use takeaway_core::rules::Board;
    if !matches!(game.board, Board::Rows | Board::FixedPiles(2)) {
        return Ok(());
    }
    let bytes = (upto as u128 + 1).pow(2) * PLOT_BYTES_PER_SQUARE as u128;
    if bytes > MOST_ANSWER_BYTES as u128 {
        let megabytes = u64::try_from(bytes.div_ceil(1 << 20)).unwrap_or(u64::MAX);
        return Err(WebError::AnswerTooLarge { megabytes, most: (MOST_ANSWER_BYTES >> 20) as u64 });
    }
    Ok(())
}

fn rendered(answer: &Answer, format: Format) -> Value {
    match format {
        Format::Json => render::json(answer),
        Format::Text => json!({ "text": render::text(answer) }),
    }
}

/// An engine's failure: 422 with its diagnostics as data, and its kind.
pub fn engine_failure(failure: &Failure) -> Response {
    let kind = match failure.kind() {
        FailureKind::Game => "game",
        FailureKind::Question => "question",
        FailureKind::Refused => "refused",
        FailureKind::Timeout => "timeout",
        FailureKind::Cancelled => "cancelled",
    };
    let body = json!({
        "kind": kind,
        "code": failure.code(),
        "diagnostics": failure.data(),
        "rendered": failure.render(false),
        "partial": failure.partial.as_deref().map(render::json),
    });
    (StatusCode::UNPROCESSABLE_ENTITY, Json(body)).into_response()
}

fn web_failure(status: StatusCode, error: WebError) -> Response {
    use miette::Diagnostic;
    let data = DiagnosticData {
        code: error.code().map(|c| c.to_string()),
        message: error.to_string(),
        help: error.help().map(|h| h.to_string()),
        source: None,
        labels: Vec::new(),
    };
    let body = json!({
        "kind": "request",
        "code": data.code,
        "diagnostics": [data],
        "rendered": format!("{}\n", error),
    });
    (status, Json(body)).into_response()
}
