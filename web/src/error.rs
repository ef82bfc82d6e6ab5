//! What can go wrong with a request before the engine sees it, as diagnostics with stable codes;
//! the engine's own failures keep theirs (`takeaway_core::Failure`).

use miette::Diagnostic;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
pub enum WebError {
    #[error("the request is not the JSON expected: {reason}")]
    #[diagnostic(
        code(takeaway::web::malformed),
        help("send a JSON object such as {{\"source\": \"<game file text>\", \"position\": \"41 163 13\"}}")
    )]
    Malformed { reason: String },

    #[error("the request's body is larger than {limit} bytes")]
    #[diagnostic(
        code(takeaway::web::too_large),
        help("a game file is a few lines: send its text, not a file of data")
    )]
    TooLarge { limit: usize },

    #[error("no question called `{verb}`")]
    #[diagnostic(code(takeaway::web::unknown_question), help("the questions are {known}"))]
    UnknownQuestion { verb: String, known: String },

    #[error("`{argument}` names a file, and the server never reads or writes a file a request names")]
    #[diagnostic(
        code(takeaway::web::not_on_the_server),
        help("leave it out here; the command line (`takeaway period FILE --checkpoint PATH`) keeps checkpoints")
    )]
    NotOnTheServer { argument: &'static str },

    #[error("the answer would be at least {megabytes} MB, more than a page should load ({most} MB at most)")]
    #[diagnostic(
        code(takeaway::web::answer_too_large),
        help("ask for a smaller `upto`; the command line (`takeaway table`, `takeaway plot -o FILE`) writes larger answers")
    )]
    AnswerTooLarge { megabytes: u64, most: u64 },

    #[error("the request names the host `{host}`, not this server")]
    #[diagnostic(
        code(takeaway::web::foreign_host),
        help("open the page by the address `takeaway serve` printed; a name the server does not know is refused, so that another site cannot reach it through a name it controls (`--allow-host NAME` adds one)")
    )]
    ForeignHost { host: String },

    #[error("the request comes from the page of another site, `{origin}`")]
    #[diagnostic(
        code(takeaway::web::foreign_origin),
        help("only the server's own page may ask it questions from a browser")
    )]
    ForeignOrigin { origin: String },

    #[error("a question must be sent as `application/json`, not `{given}`")]
    #[diagnostic(
        code(takeaway::web::not_json),
        help("send the header `Content-Type: application/json` with the JSON object")
    )]
    NotJson { given: String },

    #[error("the request's body did not arrive within {seconds} s")]
    #[diagnostic(code(takeaway::web::slow_body), help("send the whole request at once; it is a few lines of JSON"))]
    SlowBody { seconds: u64 },

    #[error("the server is busy with as many slow questions as it can take")]
    #[diagnostic(
        code(takeaway::web::busy),
        help("ask again in {retry_after} s, or ask a smaller question (a smaller position, `upto` or `timeout`)")
    )]
    Busy { retry_after: u64 },

    #[error("the engine stopped unexpectedly: {reason}")]
    #[diagnostic(
        code(takeaway::web::internal),
        help("this is a bug in takeaway; the server goes on answering other questions")
    )]
    Internal { reason: String },
}
