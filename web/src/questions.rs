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
use takeaway_core::{CancelToken, Progress, Stage, TableFormat};
use tokio::sync::oneshot;

use axum::body::Bytes;

use crate::error::WebError;
use crate::lanes::{Busy, Turn};
use crate::library::{Bundled, BUNDLED};
use crate::{App, BODY_TIMEOUT, MOST_BODY_BYTES};

/// The largest answer sent to the page, in bytes: past it an answer would stall the browser it
/// is meant for (the transport's limit; the engine refuses what would take too long first).
const MOST_ANSWER_BYTES: usize = 16 << 20;

/// What the medium adds to a question: the game's text, the name its diagnostics show, its
/// settings, the answer's format (`json`, `text`, or a table's `csv`), and whether its progress
/// is streamed (`stream`: lines of JSON, the engine's progress then the answer).
const MEDIUM_KEYS: &[&str] = &["source", "name", "settings", "format", "stream"];

/// How often a streamed question looks for the engine's progress to send.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

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
    format: Format,
    stream: bool,
    request: Request,
    budget: BudgetArgs,
}

/// The answer's form.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    /// The engine's JSON.
    Json,
    /// The command line's text, in `{"text": …}`.
    Text,
    /// A table as the command line's `--format csv` writes it, as the body itself.
    Csv,
}

/// An answer ready to send.
enum Answered {
    Json(Value),
    Csv(Vec<u8>),
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
    let Ok(permit) = permit else { return Settled::busy(seconds).into_response() };
    let turn = app.lanes.turn(permit, cancel, deadline);
    let budget = budget.progress(Progress::to(turn.clone()));
    let working = turn.clone();
    let stream = question.stream && question.format != Format::Csv;
    let (told, answered) = oneshot::channel();
    tokio::task::spawn_blocking(move || {
        let answered = answer(&question, &budget);
        working.finish();
        let _ = told.send(answered);
    });
    if !stream {
        return settled(answered.await, &turn, seconds).into_response();
    }
    streamed(turn, answered, seconds, _cancel_when_dropped)
}

/// How a question ended: its status and body, and for a question that found no worker in
/// its time the seconds after which to ask again.
struct Settled {
    status: StatusCode,
    body: Answered,
    retry_after: Option<u64>,
}

impl Settled {
    fn json(status: StatusCode, value: Value) -> Self {
        Settled { status, body: Answered::Json(value), retry_after: None }
    }

    /// A failure of the medium, as the engine's failures are shaped.
    fn web(status: StatusCode, error: WebError) -> Self {
        Settled::json(status, web_failure_json(&error))
    }

    /// 503: the question could not get a worker in its time.
    fn busy(seconds: f64) -> Self {
        let retry_after = (seconds.ceil() as u64).clamp(1, 30);
        Settled {
            retry_after: Some(retry_after),
            ..Settled::web(StatusCode::SERVICE_UNAVAILABLE, WebError::Busy { retry_after })
        }
    }

    fn into_response(self) -> Response {
        let mut response = match self.body {
            Answered::Json(value) => (self.status, Json(value)).into_response(),
            Answered::Csv(bytes) => {
                (self.status, [(header::CONTENT_TYPE, "text/csv; charset=utf-8")], bytes).into_response()
            }
        };
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }

    /// The last line of a streamed answer: the status and the body the question would have had
    /// unstreamed (a table's CSV, never streamed, would be its text).
    fn into_line(self) -> Value {
        let body = match self.body {
            Answered::Json(value) => value,
            Answered::Csv(bytes) => Value::String(String::from_utf8_lossy(&bytes).into_owned()),
        };
        json!({ "status": self.status.as_u16(), "body": body })
    }
}

fn settled(
    answered: Result<Result<Answered, Refusal>, oneshot::error::RecvError>,
    turn: &Turn,
    seconds: f64,
) -> Settled {
    if turn.was_busy() {
        return Settled::busy(seconds);
    }
    match answered {
        Ok(Ok(body)) => Settled { status: StatusCode::OK, body, retry_after: None },
        Ok(Err(Refusal::Engine(failure))) => {
            let (status, value) = engine_failure_json(&failure);
            Settled::json(status, value)
        }
        Ok(Err(Refusal::Web(status, e))) => Settled::web(status, e),
        Err(e) => Settled::web(StatusCode::INTERNAL_SERVER_ERROR, WebError::Internal { reason: e.to_string() }),
    }
}

/// A streamed question: one line of JSON each time the engine reports progress
/// (`{"progress": {"stage", "done", "total", "seconds"}}`), then the answer's line
/// (`{"status": 200, "body": …}`: the status and body the question would have had unstreamed). Closing the connection
/// cancels the question (the guard goes with the stream).
fn streamed(
    turn: Arc<Turn>,
    answered: oneshot::Receiver<Result<Answered, Refusal>>,
    seconds: f64,
    guard: CancelOnDrop,
) -> Response {
    struct Streaming {
        turn: Arc<Turn>,
        answered: Option<oneshot::Receiver<Result<Answered, Refusal>>>,
        sent: Option<(Stage, u64, u64)>,
        started: Instant,
        _guard: CancelOnDrop,
    }
    let state = Streaming { turn, answered: Some(answered), sent: None, started: Instant::now(), _guard: guard };
    let lines = futures_util::stream::unfold(state, move |mut st| async move {
        loop {
            let waiting = st.answered.as_mut()?;
            match tokio::time::timeout(PROGRESS_EVERY, waiting).await {
                Ok(answered) => {
                    st.answered = None;
                    let line = settled(answered, &st.turn, seconds).into_line();
                    return Some((Ok::<_, std::convert::Infallible>(Bytes::from(format!("{line}\n"))), st));
                }
                Err(_) => {
                    let now = st.turn.latest();
                    if now.is_some() && now != st.sent {
                        st.sent = now;
                        let (stage, done, total) = now.unwrap_or((Stage::Search, 0, 0));
                        let line = json!({ "progress": {
                            "stage": stage_name(stage),
                            "done": done,
                            "total": total,
                            "seconds": (st.started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
                        }});
                        return Some((Ok(Bytes::from(format!("{line}\n"))), st));
                    }
                }
            }
        }
    });
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/x-ndjson")),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        Body::from_stream(lines),
    )
        .into_response()
}

/// A stage as the page names it.
fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::PileValues => "pile values",
        Stage::TableRows => "table rows",
        Stage::Search => "positions searched",
    }
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
    let format = match medium.remove("format") {
        None | Some(Value::Null) => Format::Json,
        Some(Value::String(f)) if f == "json" => Format::Json,
        Some(Value::String(f)) if f == "text" => Format::Text,
        Some(Value::String(f)) if f == "csv" && verb == "table" => Format::Csv,
        Some(other) => {
            return Err(malformed(format!("`format` is \"json\", \"text\" or (for a table) \"csv\", not {other}")))
        }
    };
    let stream = match medium.remove("stream") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => b,
        Some(other) => return Err(malformed(format!("`stream` is true or false, not {other}"))),
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
    Ok(Question { game, format, stream, request, budget })
}

/// Loads the game and answers the question, on a blocking thread, within its budget.
fn answer(q: &Question, budget: &Budget) -> Result<Answered, Refusal> {
    let loaded = load_text(&q.game, &Bundled, budget)?;
    if let (Format::Csv, Request::Table(args)) = (q.format, &q.request) {
        let mut out = Capped(Vec::new());
        return match takeaway_core::write_table(&loaded, args, budget, TableFormat::Csv, &mut out)? {
            Ok(()) => Ok(Answered::Csv(out.0)),
            Err(_) => Err(too_large(out.0.len())),
        };
    }
    let answer = takeaway_core::ask(&loaded, &q.request, &Bundled, budget)?;
    let value = rendered(&answer, q.format == Format::Text);
    let bytes = serde_json::to_vec(&value).map_or(0, |v| v.len());
    if bytes > MOST_ANSWER_BYTES {
        return Err(too_large(bytes));
    }
    Ok(Answered::Json(value))
}

fn too_large(bytes: usize) -> Refusal {
    let megabytes = (bytes as u64).div_ceil(1 << 20);
    let e = WebError::AnswerTooLarge { megabytes, most: (MOST_ANSWER_BYTES >> 20) as u64 };
    Refusal::Web(StatusCode::UNPROCESSABLE_ENTITY, e)
}

/// A table's CSV, held for the page up to `MOST_ANSWER_BYTES`: past it, the write fails.
struct Capped(Vec<u8>);

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len() + buf.len() > MOST_ANSWER_BYTES {
            self.0.extend_from_slice(buf);
            return Err(std::io::Error::other("the answer is too large for the page"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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
    let (status, value) = engine_failure_json(failure);
    (status, Json(value)).into_response()
}

fn engine_failure_json(failure: &Failure) -> (StatusCode, Value) {
    let malformed = matches!(failure.errors.first(), Some(takeaway_core::Error::Request(e)) if e.is_malformed());
    let status = if malformed { StatusCode::BAD_REQUEST } else { StatusCode::UNPROCESSABLE_ENTITY };
    (status, render::failure_json(failure))
}

pub fn web_failure(status: StatusCode, error: WebError) -> Response {
    (status, Json(web_failure_json(&error))).into_response()
}

/// A failure of the medium as JSON, shaped as the engine's failures are.
fn web_failure_json(error: &WebError) -> Value {
    use miette::Diagnostic;
    let data = DiagnosticData {
        code: error.code().map(|c| c.to_string()),
        message: error.to_string(),
        help: error.help().map(|h| h.to_string()),
        source: None,
        labels: Vec::new(),
    };
    json!({
        "kind": "request",
        "code": data.code,
        "diagnostics": [data],
        "rendered": format!("{}\n", error),
    })
}
