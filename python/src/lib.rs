//! The native half of the Python package `takeaway`: games loaded through the engine's typed
//! API, questions asked with their own budget (limits, deadline, cancel token), answers handed
//! over as the same JSON the command line prints (as Python objects) and its text, failures
//! raised as exceptions that carry the diagnostic's code, place and help. The Python half
//! (`takeaway/__init__.py`) wraps these in classes; nothing here renders but through
//! `takeaway_core::render`, so an answer reads the same in a notebook and in a terminal.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use takeaway_core::analysis::period_search::PeriodQuestion;
use takeaway_core::analysis::TableOptions;
use takeaway_core::api::{self, Answer, Failure, FailureKind, Games, Loaded, Request, Setting};
use takeaway_core::check::SettingValue;
use takeaway_core::diagnostics::Source;
use takeaway_core::render;
use takeaway_core::solve::progress::{self, Progress, Reporter, Stage};
use takeaway_core::solve::Limits;

create_exception!(
    _native,
    TakeawayError,
    PyException,
    "A question about a game failed: the base of takeaway's errors."
);
create_exception!(_native, GameError, TakeawayError, "The game text, its file or a position is wrong.");
create_exception!(_native, QuestionError, TakeawayError, "The question does not fit the game.");
create_exception!(_native, Refused, TakeawayError, "The question's estimated or counted work passed its budget.");
create_exception!(_native, Timeout, Refused, "The question's timeout passed.");
create_exception!(_native, Cancelled, TakeawayError, "The question was cancelled through its CancelToken.");

/// A loaded, checked game.
#[pyclass(frozen, module = "takeaway._native")]
struct NativeGame {
    loaded: Loaded,
}

/// A token that cancels the questions it is given to, from any thread.
#[pyclass(frozen, module = "takeaway._native")]
struct CancelToken {
    token: progress::CancelToken,
}

#[pymethods]
impl CancelToken {
    #[new]
    fn new() -> Self {
        CancelToken { token: progress::CancelToken::new() }
    }

    /// Asks every question holding this token to stop (it raises takeaway.Cancelled).
    fn cancel(&self) {
        self.token.cancel();
    }

    /// Whether `cancel` was called (and not `reset` since).
    #[getter]
    fn cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Makes the token usable again for new questions.
    fn reset(&self) {
        self.token.reset();
    }
}

/// One answer of the engine: its JSON and its text, made when asked for.
#[pyclass(frozen, module = "takeaway._native")]
struct NativeAnswer {
    answer: Answer,
}

#[pymethods]
impl NativeAnswer {
    /// The answer as the command line's `--format json` gives it, as Python objects.
    fn json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &render::json(&self.answer))
    }

    /// The answer as the command line prints it.
    fn text(&self) -> String {
        render::text(&self.answer)
    }

    /// A table as CSV (None for other answers).
    fn csv(&self) -> Option<String> {
        render::csv(&self.answer).ok()
    }
}

fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| PyException::new_err(e.to_string()))
}

/// Settings given as keyword arguments: a number, or a set of amounts (a list, tuple or set of
/// numbers).
fn settings(given: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<Setting>> {
    let mut out = Vec::new();
    let Some(given) = given else { return Ok(out) };
    for (name, value) in given.iter() {
        let name: String = name.extract()?;
        let value = if let Ok(n) = value.extract::<i64>() {
            SettingValue::Number(n)
        } else if let Ok(set) = value.extract::<Vec<i64>>() {
            SettingValue::set(set)
        } else if let Ok(set) = value.extract::<std::collections::BTreeSet<i64>>() {
            SettingValue::set(set)
        } else if value.is_instance_of::<pyo3::types::PyInt>() {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "the setting {name} = {value} is too large: settings go up to 9223372036854775807 (2^63 - 1)"
            )));
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "the setting {name} must be a whole number or a collection of whole numbers, such as {name}=[1, 2, 5]"
            )));
        };
        out.push((name, value));
    }
    Ok(out)
}

/// The exception for a failure: its class from the failure's kind, its message the rendered
/// diagnostics, with the first one's code, line, column and help, and every diagnostic as data.
fn exception(py: Python<'_>, failure: &Failure) -> PyErr {
    let rendered = failure.render(false);
    let err = match failure.kind() {
        FailureKind::Game => GameError::new_err(rendered.clone()),
        FailureKind::Question => QuestionError::new_err(rendered.clone()),
        FailureKind::Refused => Refused::new_err(rendered.clone()),
        FailureKind::Timeout => Timeout::new_err(rendered.clone()),
        FailureKind::Cancelled => Cancelled::new_err(rendered.clone()),
    };
    let value = err.value(py);
    let (line, column) = failure.line_column().map_or((None, None), |(l, c)| (Some(l), Some(c)));
    let data = failure.data();
    let help = data.first().and_then(|d| d.help.clone());
    let message = data.first().map(|d| d.message.clone()).unwrap_or_default();
    let diagnostics = serde_json::to_value(&data).unwrap_or_default();
    let partial = failure.partial.as_deref().map(render::json);
    // Setting attributes on a fresh exception object cannot fail but for memory; the message
    // alone still says everything then.
    let _ = value.setattr("code", failure.code());
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("help", help);
    let _ = value.setattr("message", message);
    let _ = value.setattr("rendered", rendered);
    if let Ok(list) = to_python(py, &diagnostics) {
        let _ = value.setattr("diagnostics", list);
    }
    let partial = match partial {
        Some(p) => to_python(py, &p).ok().map(Bound::unbind),
        None => None,
    };
    let _ = value.setattr("partial", partial);
    err
}

/// Hears the engine's progress reports on the thread that asked, and at most every 50 ms looks
/// for a signal Python is waiting to handle (Ctrl-C, a notebook's interrupt): it cancels the
/// question and keeps the exception to raise.
struct SignalWatch {
    token: progress::CancelToken,
    last: Mutex<Instant>,
    caught: Mutex<Option<PyErr>>,
}

impl Reporter for SignalWatch {
    fn report(&self, _stage: Stage, _done: u64, _total: u64) {
        let Ok(mut last) = self.last.lock() else { return };
        if last.elapsed() < Duration::from_millis(50) {
            return;
        }
        *last = Instant::now();
        drop(last);
        if let Err(e) = Python::attach(|py| py.check_signals()) {
            self.token.cancel();
            if let Ok(mut caught) = self.caught.lock() {
                caught.get_or_insert(e);
            }
        }
    }
}

/// The budget of one question from its keyword arguments.
fn limits(max_states: Option<usize>, timeout: Option<f64>, cancel: Option<&CancelToken>) -> PyResult<Limits> {
    if let Some(t) = timeout {
        if !t.is_finite() || t < 0.0 {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "timeout must be a number of seconds, 0 or more, not {t}"
            )));
        }
    }
    let limits = match max_states {
        Some(0) => return Err(pyo3::exceptions::PyValueError::new_err("max_states must be at least 1")),
        Some(n) => Limits::states(n),
        None => Limits::default(),
    };
    let mut limits = limits.with_timeout(timeout);
    if let Some(c) = cancel {
        limits.cancel = c.token.clone();
    }
    Ok(limits)
}

/// Asks the engine with the GIL released, so that other Python threads run meanwhile.
fn run(py: Python<'_>, loaded: &Loaded, request: &Request, mut limits: Limits) -> PyResult<NativeAnswer> {
    let watch = Arc::new(SignalWatch {
        token: limits.cancel.clone(),
        last: Mutex::new(Instant::now()),
        caught: Mutex::new(None),
    });
    limits.progress = Progress::to(watch.clone());
    let result = py.detach(|| api::ask(loaded, request, &limits));
    if let Some(interrupt) = watch.caught.lock().ok().and_then(|mut c| c.take()) {
        return Err(interrupt);
    }
    result.map(|answer| NativeAnswer { answer }).map_err(|f| exception(py, &f))
}

fn optional<'py, T>(args: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<T>>
where
    T: for<'a> FromPyObject<'a, 'py>,
    for<'a> <T as FromPyObject<'a, 'py>>::Error: Into<PyErr>,
{
    match args.get_item(key)? {
        Some(v) if !v.is_none() => Ok(Some(v.extract().map_err(Into::into)?)),
        _ => Ok(None),
    }
}

#[pymethods]
impl NativeGame {
    /// Parses and checks game text; a product's games are looked for in `directory`.
    #[staticmethod]
    #[pyo3(signature = (text, name = "game", settings = None, directory = "."))]
    fn from_source(
        py: Python<'_>,
        text: &str,
        name: &str,
        settings: Option<&Bound<'_, PyDict>>,
        directory: &str,
    ) -> PyResult<NativeGame> {
        let settings = self::settings(settings)?;
        let library = Games { dir: directory.into(), session: Vec::new() };
        let source = Source::new(name, text);
        let loaded = py.detach(|| api::load(source, name, &settings, &library));
        loaded.map(|loaded| NativeGame { loaded }).map_err(|f| exception(py, &f))
    }

    /// Reads, parses and checks a game file.
    #[staticmethod]
    #[pyo3(signature = (path, settings = None))]
    fn from_file(
        py: Python<'_>,
        path: std::path::PathBuf,
        settings: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<NativeGame> {
        let settings = self::settings(settings)?;
        let loaded = py.detach(|| api::read_game(&path, &settings, Vec::new()));
        loaded.map(|loaded| NativeGame { loaded }).map_err(|f| exception(py, &f))
    }

    #[getter]
    fn name(&self) -> String {
        self.loaded.game.name.clone()
    }

    #[getter]
    fn source(&self) -> String {
        self.loaded.source.text.clone()
    }

    #[getter]
    fn partizan(&self) -> bool {
        self.loaded.game.is_partizan()
    }

    #[getter]
    fn misere(&self) -> bool {
        self.loaded.game.convention == takeaway_core::vocab::Convention::Misere
    }

    /// One question: `verb` is one of check, solve, explain, table, plot, quotient, period,
    /// compare; `args` holds its arguments (position, last, all, upto, piles, remoteness,
    /// shift); `other` is the game compared with.
    #[pyo3(signature = (verb, args, max_states = None, timeout = None, cancel = None, other = None))]
    // The keyword arguments of one Python call: a struct would only restate them.
    #[allow(clippy::too_many_arguments)]
    fn ask(
        &self,
        py: Python<'_>,
        verb: &str,
        args: &Bound<'_, PyDict>,
        max_states: Option<usize>,
        timeout: Option<f64>,
        cancel: Option<PyRef<'_, CancelToken>>,
        other: Option<PyRef<'_, NativeGame>>,
    ) -> PyResult<NativeAnswer> {
        let limits = limits(max_states, timeout, cancel.as_deref())?;
        let position = || -> PyResult<String> { Ok(optional::<String>(args, "position")?.unwrap_or_default()) };
        let request = match verb {
            "check" => Request::Check,
            "solve" => Request::Solve {
                position: position()?,
                last: optional(args, "last")?,
                remoteness: optional(args, "remoteness")?.unwrap_or(false),
            },
            "explain" => Request::Explain {
                position: position()?,
                last: optional(args, "last")?,
                all: optional(args, "all")?.unwrap_or(false),
            },
            "table" => Request::Table {
                upto: optional(args, "upto")?.unwrap_or(30),
                options: TableOptions {
                    remoteness: optional(args, "remoteness")?.unwrap_or(false),
                    by_last: optional(args, "by_last")?.unwrap_or(false),
                    period_values: optional(args, "period_values")?,
                    piles: optional(args, "piles")?,
                },
            },
            "plot" => Request::Plot { upto: optional(args, "upto")?.unwrap_or(60) },
            "quotient" => Request::Quotient { upto: optional(args, "upto")? },
            "period" => {
                Request::Period(PeriodQuestion { upto: optional(args, "upto")?.unwrap_or(1 << 24), checkpoint: None })
            }
            "compare" => {
                let Some(other) = other else {
                    return Err(pyo3::exceptions::PyTypeError::new_err("compare needs the other game"));
                };
                Request::Compare {
                    other: Box::new(other.loaded.clone()),
                    upto: optional(args, "upto")?.unwrap_or(100),
                    shift: optional(args, "shift")?.unwrap_or(0),
                }
            }
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "no question called {other}: ask one of {}",
                    api::VERBS.join(", ")
                )))
            }
        };
        run(py, &self.loaded, &request, limits)
    }
}

/// The verbs the engine answers, as the command line spells them.
#[pyfunction]
fn verbs(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    PyList::new(py, api::VERBS)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<NativeGame>()?;
    m.add_class::<NativeAnswer>()?;
    m.add_class::<CancelToken>()?;
    m.add_function(wrap_pyfunction!(verbs, m)?)?;
    m.add("TakeawayError", py.get_type::<TakeawayError>())?;
    m.add("GameError", py.get_type::<GameError>())?;
    m.add("QuestionError", py.get_type::<QuestionError>())?;
    m.add("Refused", py.get_type::<Refused>())?;
    m.add("Timeout", py.get_type::<Timeout>())?;
    m.add("Cancelled", py.get_type::<Cancelled>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
