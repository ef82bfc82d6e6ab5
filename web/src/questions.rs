//! The JSON API: one handler for every question, `POST /api/{verb}` with the game's text and
//! the question's arguments in one JSON object. The arguments and the budget are the engine's
//! request schema (`Request::parse_with_budget`); this module only takes out what belongs to
//! the medium (the game's text, its name and settings, the answer's format), holds every
//! question to the server's own limits, and answers with the engine's JSON, or its failure
//! with the HTTP status of its kind.

use std::sync::Arc;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Map, Value};
use takeaway_core::render;
use takeaway_core::Source;
use takeaway_core::{
    load_game, load_text, Answer, Budget, BudgetArgs, DiagnosticData, Failure, GameText, Request, VERBS,
};
use takeaway_core::{CancelToken, Progress};

use crate::error::WebError;
use crate::lanes::Busy;
use crate::library::{Bundled, BUNDLED};
use crate::{App, BODY_TIMEOUT, MOST_BODY_BYTES};

/// The largest answer sent to the page, in bytes: past it an answer would stall the browser it
/// is meant for (the transport's limit; the engine refuses what would take too long first).
const MOST_ANSWER_BYTES: usize = 16 << 20;

/// What the medium adds to a question: the game's text, the name its diagnostics show, its
/// settings, and the answer's format.
const MEDIUM_KEYS: &[&str] = &["source", "name", "settings", "format"];

/// The bundled games, for the page's menu.
pub async fn games() -> Json<Value> {
    let games: Vec<Value> = BUNDLED
        .iter()
        .map(|(file, text)| {
            // The name as the checker reads it (a bundled game always loads; its file name else).
            let name = load_game(Source::new(format!("{file}.game"), *text), file, &[], &Bundled, &Budget::new())
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

/// A question as the page sends it: the medium's part, and the engine's request with its
/// budget.
struct Question {
    game: GameText,
    text_format: bool,
    request: Request,
    budget: BudgetArgs,
}

pub async fn ask(State(app): State<Arc<App>>, Path(verb): Path<String>, body: Body) -> Response {
    // The question's deadline starts when it arrives: reading it and waiting for a worker
    // count against it.
    let arrived = Instant::now();
    let body = match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MOST_BODY_BYTES)).await {
        Ok(Ok(b)) => b,
        Ok(Err(e)) if is_too_large(&e) => {
            return web_failure(StatusCode::PAYLOAD_TOO_LARGE, WebError::TooLarge { limit: MOST_BODY_BYTES })
        }
        Ok(Err(e)) => return web_failure(StatusCode::BAD_REQUEST, WebError::Malformed { reason: e.to_string() }),
        Err(_) => {
            return web_failure(StatusCode::REQUEST_TIMEOUT, WebError::SlowBody { seconds: BODY_TIMEOUT.as_secs() })
        }
    };
    let question = match read(&verb, &body) {
        Ok(q) => q,
        Err(Refusal::Web(status, e)) => return web_failure(status, e),
        Err(Refusal::Engine(f)) => return engine_failure(&f),
    };
    let cancel = CancelToken::new();
    let _cancel_when_dropped = CancelOnDrop(cancel.clone());
    let budget = match Budget::from_args(&question.budget) {
        Ok(b) => b,
        Err(e) => return engine_failure(&Failure::one(e, None)),
    };
    // The server's own limits hold whatever a request asks: its time, its memory, and one
    // thread per question, so that two slow questions do not starve each other.
    let positions = budget.positions().min(app.config.max_states.unwrap_or(Budget::DEFAULT_MAX_STATES));
    let seconds = budget.seconds().min(app.config.timeout);
    let deadline = arrived + Duration::from_secs_f64(seconds);
    let budget = budget.at_most(app.config.timeout).threads(1).max_states(positions).cancel(cancel.clone());
    let permit = tokio::select! {
        permit = app.lanes.quick_turn() => permit,
        () = tokio::time::sleep_until(deadline.into()) => Err(Busy),
    };
    let Ok(permit) = permit else { return busy(seconds) };
    let turn = app.lanes.turn(permit, cancel, deadline);
    let budget = budget.progress(Progress::to(turn.clone()));
    let working = turn.clone();
    let answered = tokio::task::spawn_blocking(move || {
        let answered = answer(&question, &budget);
        working.finish();
        answered
    })
    .await;
    if turn.was_busy() {
        return busy(seconds);
    }
    match answered {
        Ok(Ok(value)) => (StatusCode::OK, Json(value)).into_response(),
        Ok(Err(Refusal::Engine(failure))) => engine_failure(&failure),
        Ok(Err(Refusal::Web(status, e))) => web_failure(status, e),
        Err(e) => web_failure(StatusCode::INTERNAL_SERVER_ERROR, WebError::Internal { reason: e.to_string() }),
    }
}

/// 503 with `Retry-After`: the question could not get a worker in its time.
fn busy(seconds: f64) -> Response {
    let retry_after = (seconds.ceil() as u64).clamp(1, 30);
    let mut response = web_failure(StatusCode::SERVICE_UNAVAILABLE, WebError::Busy { retry_after });
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
    response
}

/// The body was cut off at `MOST_BODY_BYTES`.
fn is_too_large(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = s.source();
    }
    false
}

/// Why a question has no answer.
enum Refusal {
    Engine(Failure),
    Web(StatusCode, WebError),
}

impl From<Failure> for Refusal {
    fn from(f: Failure) -> Self {
        Refusal::Engine(f)
    }
}

/// The body as a question: a JSON object, its medium's keys taken out, the rest the engine's.
fn read(verb: &str, body: &[u8]) -> Result<Question, Refusal> {
    let malformed = |reason: String| Refusal::Web(StatusCode::BAD_REQUEST, WebError::Malformed { reason });
    let mut object: Map<String, Value> = match serde_json::from_slice(body) {
        Ok(Value::Object(o)) => o,
        Ok(_) => return Err(malformed("the body is not a JSON object".into())),
        Err(e) => return Err(malformed(e.to_string())),
    };
    let mut medium = Map::new();
    for key in MEDIUM_KEYS {
        if let Some(v) = object.remove(*key) {
            medium.insert(key.to_string(), v);
        }
    }
    let text_format = match medium.remove("format") {
        None | Some(Value::Null) => false,
        Some(Value::String(f)) if f == "json" => false,
        Some(Value::String(f)) if f == "text" => true,
        Some(other) => return Err(malformed(format!("`format` is \"json\" or \"text\", not {other}"))),
    };
    if !medium.contains_key("source") {
        return Err(malformed("missing field `source`: the game's text".into()));
    }
    let game: GameText = serde_json::from_value(Value::Object(medium)).map_err(|e| malformed(e.to_string()))?;
    if object.get("checkpoint").is_some_and(|v| !v.is_null()) {
        return Err(Refusal::Web(
            StatusCode::UNPROCESSABLE_ENTITY,
            WebError::NotOnTheServer { argument: "checkpoint" },
        ));
    }
    if !VERBS.contains(&verb) {
        let known = VERBS.join(", ");
        return Err(Refusal::Web(StatusCode::NOT_FOUND, WebError::UnknownQuestion { verb: verb.to_string(), known }));
    }
    let (request, budget) =
        Request::parse_with_budget(verb, object).map_err(|e| Refusal::Engine(Failure::one(e, None)))?;
    Ok(Question { game, text_format, request, budget })
}

/// Loads the game and answers the question, on a blocking thread, within its budget.
fn answer(q: &Question, budget: &Budget) -> Result<Value, Refusal> {
    let loaded = load_text(&q.game, &Bundled, budget)?;
    let answer = takeaway_core::ask(&loaded, &q.request, &Bundled, budget)?;
    let value = rendered(&answer, q.text_format);
    let bytes = serde_json::to_vec(&value).map_or(0, |v| v.len());
    if bytes > MOST_ANSWER_BYTES {
        let megabytes = (bytes as u64).div_ceil(1 << 20);
        let e = WebError::AnswerTooLarge { megabytes, most: (MOST_ANSWER_BYTES >> 20) as u64 };
        return Err(Refusal::Web(StatusCode::UNPROCESSABLE_ENTITY, e));
    }
    Ok(value)
}

fn rendered(answer: &Answer, text: bool) -> Value {
    if text {
        json!({ "text": render::text(answer) })
    } else {
        render::json(answer)
    }
}

/// An engine's failure, with the engine's JSON of it (its kind, code and diagnostics): 400 for a
/// malformed request (an argument unknown, of the wrong type or out of range), 422 otherwise.
pub fn engine_failure(failure: &Failure) -> Response {
    let malformed = matches!(failure.errors.first(), Some(takeaway_core::Error::Request(e)) if e.is_malformed());
    let status = if malformed { StatusCode::BAD_REQUEST } else { StatusCode::UNPROCESSABLE_ENTITY };
    (status, Json(render::failure_json(failure))).into_response()
}

pub fn web_failure(status: StatusCode, error: WebError) -> Response {
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
