//! takeaway-lsp: the language server `takeaway lsp` runs over stdio, so that game files get in
//! any editor what the REPL and the classroom page give: diagnostics as you type, hover,
//! completion, definitions, symbols, formatting, quick fixes and semantic tokens. Every answer
//! comes from the engine's own functions; this crate only speaks the protocol.
//!
//! The message loop is synchronous and answers from the text alone at once. What may take
//! longer runs on a thread of its own under a small budget, cancelled when its document
//! changes: a text's check (a megabyte of rules takes half a second), and the answers that
//! read the game too (a rule's moves, the quick fixes) or solve it (the game's first values),
//! which the editor may also cancel.
#![warn(missing_docs)]
// Outside tests, a bare `unwrap` hides which invariant it relies on: every place that cannot fail
// says why in an `expect` (or handles the failure), and clippy keeps it so.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod document;
mod features;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response, ResponseError};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use takeaway_core::{defaults, Budget, CancelToken};

use document::Document;
use features::Hover;

/// What the editor may set when it starts the server (`initializationOptions`).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Options {
    /// Seconds a hover's values may take (`defaults::EDITOR_HOVER_SECONDS` when not given).
    hover_seconds: Option<f64>,
    /// Seconds a text's check for diagnostics may take (`defaults::EDITOR_CHECK_SECONDS` when
    /// not given).
    check_seconds: Option<f64>,
}

impl Options {
    /// The options of an initialize request's parameters (none given: every default), or what
    /// is wrong with them.
    fn of(init: &serde_json::Value) -> Result<Options, String> {
        let Some(given) = init.get("initializationOptions").filter(|o| !o.is_null()) else {
            return Ok(Options::default());
        };
        let options: Options =
            serde_json::from_value(given.clone()).map_err(|e| format!("initializationOptions: {e}"))?;
        for (name, seconds) in [("hover_seconds", options.hover_seconds), ("check_seconds", options.check_seconds)] {
            if let Some(s) = seconds.filter(|s| !(s.is_finite() && *s > 0.0)) {
                return Err(format!("initializationOptions: `{name}` is a number of seconds above 0, not {s}"));
            }
        }
        Ok(options)
    }
}

/// Serves one editor over standard input and output until it asks the server to exit.
pub fn serve_stdio() -> Result<(), String> {
    let (connection, threads) = Connection::stdio();
    serve(connection)?;
    threads.join().map_err(|e| e.to_string())
}

/// Serves one editor over `connection` until it asks the server to exit.
pub fn serve(connection: Connection) -> Result<(), String> {
    let capabilities = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    // Options the server cannot use fail the initialize request with a message the editor
    // shows; the editor may then send another (the protocol's retry), and the server waits for it.
    let options = loop {
        let (id, init) = connection.initialize_start().map_err(|e| e.to_string())?;
        match Options::of(&init) {
            Ok(options) => {
                let result = serde_json::json!({ "capabilities": capabilities });
                connection.initialize_finish(id, result).map_err(|e| e.to_string())?;
                break options;
            }
            Err(message) => {
                let code = ErrorCode::InvalidParams as i32;
                let error = ResponseError { code, message, data: Some(serde_json::json!({ "retry": false })) };
                let failed = Response { id, response_result: Err(error) };
                connection.sender.send(failed.into()).map_err(|e| e.to_string())?;
            }
        }
    };
    let mut server = Server {
        connection: &connection,
        documents: HashMap::new(),
        running: Arc::new(Mutex::new(HashMap::new())),
        checking: HashMap::new(),
        hover_seconds: options.hover_seconds.unwrap_or(defaults::EDITOR_HOVER_SECONDS),
        check_seconds: options.check_seconds.unwrap_or(defaults::EDITOR_CHECK_SECONDS),
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).map_err(|e| e.to_string())? {
                    return Ok(());
                }
                server.request(request);
            }
            Message::Notification(notification) => server.notification(notification),
            Message::Response(_) => {}
        }
    }
    Ok(())
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(lsp::TextDocumentSyncKind::FULL)),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![" ".into(), "\"".into()]),
            ..Default::default()
        }),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
            lsp::SemanticTokensOptions {
                legend: lsp::SemanticTokensLegend {
                    token_types: features::TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..Default::default()
            },
        )),
        ..Default::default()
    }
}

/// A question running on a thread: its document, its method and the token that cancels it.
type Running = Arc<Mutex<HashMap<RequestId, Question>>>;

/// What a question running on a thread is about.
struct Question {
    uri: lsp::Url,
    method: &'static str,
    token: CancelToken,
}

struct Server<'c> {
    connection: &'c Connection,
    documents: HashMap<lsp::Url, Document>,
    running: Running,
    /// The check of each document's latest text, running or done.
    checking: HashMap<lsp::Url, CancelToken>,
    hover_seconds: f64,
    check_seconds: f64,
}

impl Server<'_> {
    fn send(&self, message: impl Into<Message>) {
        // The editor has gone when this fails; the loop ends when its input does.
        let _ = self.connection.sender.send(message.into());
    }

    fn notification(&mut self, notification: Notification) {
        match notification.method.as_str() {
            lsp::notification::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(notification.params) {
                    self.changed(p.text_document.uri, p.text_document.text, Some(p.text_document.version));
                }
            }
            lsp::notification::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(notification.params) {
                    // Full sync: the last change holds the whole text.
                    if let Some(change) = p.content_changes.into_iter().last() {
                        self.changed(p.text_document.uri, change.text, Some(p.text_document.version));
                    }
                }
            }
            lsp::notification::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(notification.params) {
                    self.cancel_for(&p.text_document.uri);
                    self.documents.remove(&p.text_document.uri);
                    self.publish(p.text_document.uri, Vec::new(), None);
                }
            }
            lsp::notification::Cancel::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::CancelParams>(notification.params) {
                    let id: RequestId = match p.id {
                        lsp::NumberOrString::Number(n) => n.into(),
                        lsp::NumberOrString::String(s) => s.into(),
                    };
                    if let Some(question) = self.running.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
                        question.token.cancel();
                    }
                }
            }
            _ => {}
        }
    }

    /// A document opened or changed: what ran on its old text is cancelled, and its new text
    /// is checked on a thread, whose diagnostics are published unless the text changes first.
    fn changed(&mut self, uri: lsp::Url, text: String, version: Option<i32>) {
        self.cancel_for(&uri);
        let doc = Document::new(uri.clone(), text.clone());
        self.documents.insert(uri.clone(), doc);
        let token = CancelToken::new();
        self.checking.insert(uri.clone(), token.clone());
        let budget = Budget::new().timeout(Some(self.check_seconds)).cancel(token.clone());
        let sender = self.connection.sender.clone();
        std::thread::spawn(move || {
            let doc = Document::new(uri.clone(), text);
            let diagnostics = features::diagnostics(&doc, &budget);
            if !token.is_cancelled() {
                let params = lsp::PublishDiagnosticsParams { uri, diagnostics, version };
                let notification = Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), params);
                let _ = sender.send(notification.into());
            }
        });
    }

    fn cancel_for(&mut self, uri: &lsp::Url) {
        if let Some(check) = self.checking.remove(uri) {
            check.cancel();
        }
        for question in self.running.lock().unwrap_or_else(|e| e.into_inner()).values() {
            if &question.uri == uri {
                question.token.cancel();
            }
        }
    }

    fn publish(&self, uri: lsp::Url, diagnostics: Vec<lsp::Diagnostic>, version: Option<i32>) {
        let params = lsp::PublishDiagnosticsParams { uri, diagnostics, version };
        self.send(Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), params));
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        match self.answer(request) {
            Ok(Some(result)) => self.send(Response::new_ok(id, result)),
            Ok(None) => {}
            Err((code, message)) => self.send(Response::new_err(id, code as i32, message)),
        }
    }

    /// The answer to a request; `Ok(None)` when a thread will give it.
    fn answer(&mut self, request: Request) -> Result<Option<serde_json::Value>, (ErrorCode, String)> {
        use lsp::request::*;
        let json = |v: serde_json::Value| Ok(Some(v));
        let method = request.method.clone();
        match method.as_str() {
            HoverRequest::METHOD => {
                let p: lsp::HoverParams = params(request.params)?;
                let doc = self.document(&p.text_document_position_params.text_document.uri)?;
                let offset = doc.offset(p.text_document_position_params.position);
                match features::hover(doc, offset) {
                    Hover::Ready(hover) => json(serde_json::to_value(hover).unwrap_or_default()),
                    Hover::Values => {
                        self.on_thread((request.id, HoverRequest::METHOD), doc, self.hover_seconds, |doc, budget| {
                            let hover = features::values_hover(doc, budget);
                            let hover = hover.unwrap_or_else(|failure| features::failure_hover(&failure));
                            serde_json::to_value(hover).unwrap_or_default()
                        });
                        Ok(None)
                    }
                    Hover::Rule => {
                        self.on_thread(
                            (request.id, HoverRequest::METHOD),
                            doc,
                            self.check_seconds,
                            move |doc, budget| {
                                serde_json::to_value(features::rule_hover(doc, offset, budget)).unwrap_or_default()
                            },
                        );
                        Ok(None)
                    }
                }
            }
            Completion::METHOD => {
                let p: lsp::CompletionParams = params(request.params)?;
                let doc = self.document(&p.text_document_position.text_document.uri)?;
                let items = features::completion(doc, doc.offset(p.text_document_position.position));
                json(serde_json::to_value(lsp::CompletionResponse::Array(items)).unwrap_or_default())
            }
            GotoDefinition::METHOD => {
                let p: lsp::GotoDefinitionParams = params(request.params)?;
                let doc = self.document(&p.text_document_position_params.text_document.uri)?;
                let at = features::definition(doc, doc.offset(p.text_document_position_params.position));
                json(serde_json::to_value(at).unwrap_or_default())
            }
            References::METHOD => {
                let p: lsp::ReferenceParams = params(request.params)?;
                let doc = self.document(&p.text_document_position.text_document.uri)?;
                let offset = doc.offset(p.text_document_position.position);
                let places = features::references(doc, offset, p.context.include_declaration);
                json(serde_json::to_value(places).unwrap_or_default())
            }
            DocumentSymbolRequest::METHOD => {
                let p: lsp::DocumentSymbolParams = params(request.params)?;
                let doc = self.document(&p.text_document.uri)?;
                let symbols = lsp::DocumentSymbolResponse::Nested(features::symbols(doc));
                json(serde_json::to_value(symbols).unwrap_or_default())
            }
            Formatting::METHOD => {
                let p: lsp::DocumentFormattingParams = params(request.params)?;
                let doc = self.document(&p.text_document.uri)?;
                json(serde_json::to_value(features::formatting(doc)).unwrap_or_default())
            }
            CodeActionRequest::METHOD => {
                let p: lsp::CodeActionParams = params(request.params)?;
                let doc = self.document(&p.text_document.uri)?;
                let id = (request.id, CodeActionRequest::METHOD);
                self.on_thread(id, doc, self.check_seconds, move |doc, budget| {
                    serde_json::to_value(features::code_actions(doc, p.range, budget)).unwrap_or_default()
                });
                Ok(None)
            }
            SemanticTokensFullRequest::METHOD => {
                let p: lsp::SemanticTokensParams = params(request.params)?;
                let doc = self.document(&p.text_document.uri)?;
                let tokens = lsp::SemanticTokens { result_id: None, data: features::semantic_tokens(doc) };
                json(serde_json::to_value(tokens).unwrap_or_default())
            }
            _ => Err((ErrorCode::MethodNotFound, format!("takeaway lsp does not answer {method}"))),
        }
    }

    fn document(&self, uri: &lsp::Url) -> Result<&Document, (ErrorCode, String)> {
        self.documents.get(uri).ok_or_else(|| (ErrorCode::InvalidParams, format!("{uri} is not open")))
    }

    /// An answer that reads or solves the game, made on a thread under a budget of `seconds`
    /// (the values under `hover_seconds`; a rule's moves and the quick fixes, which read the
    /// game as a check does, under `check_seconds`), so that the loop goes on answering;
    /// cancelled when the text changes, when the editor cancels the request, or when another
    /// request of the same method comes (an editor shows one hover and one list of fixes at a
    /// time, so at most one of each runs however fast they come).
    fn on_thread(
        &self,
        (id, method): (RequestId, &'static str),
        doc: &Document,
        seconds: f64,
        answer: impl FnOnce(&Document, &Budget) -> serde_json::Value + Send + 'static,
    ) {
        // The text as it is now: a change while the answer is made cancels it.
        let (uri, doc) = (doc.uri.clone(), Document::new(doc.uri.clone(), doc.text.clone()));
        let token = CancelToken::new();
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        for earlier in running.values().filter(|q| q.method == method) {
            earlier.token.cancel();
        }
        running.insert(id.clone(), Question { uri, method, token: token.clone() });
        drop(running);
        let budget = Budget::new().timeout(Some(seconds)).cancel(token.clone());
        let sender = self.connection.sender.clone();
        let running = Arc::clone(&self.running);
        std::thread::spawn(move || {
            let answer = answer(&doc, &budget);
            running.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
            let response = if token.is_cancelled() {
                Response::new_err(
                    id,
                    ErrorCode::RequestCanceled as i32,
                    "cancelled: the text changed, or the editor cancelled it".into(),
                )
            } else {
                Response::new_ok(id, answer)
            };
            let _ = sender.send(response.into());
        });
    }
}

fn params<P: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(value).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}
