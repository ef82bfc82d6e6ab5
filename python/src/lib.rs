//! The native half of the Python package `takeaway`: games loaded through the engine's typed
//! API, questions asked with their own budget (limits, deadline, cancel token), answers handed
//! over as the same JSON the command line prints (as Python objects) and its text, failures
//! raised as exceptions that carry the diagnostic's code, place and help. The Python half
//! (`takeaway/__init__.py`) wraps these in classes; nothing here renders but through
//! `takeaway_core::render`, so an answer reads the same in a notebook and in a terminal.
// Outside tests, a bare `unwrap` hides which invariant it relies on: every place that cannot fail
// says why in an `expect` (or handles the failure), and clippy keeps it so.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod sweep;

use std::time::Duration;

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use takeaway_core::errors::RequestError;
use takeaway_core::render;
use takeaway_core::CancelToken as NativeToken;
use takeaway_core::SettingValue;
use takeaway_core::{
    ask as ask_engine, load_text, read_game, Answer, Budget, Error, Failure, FailureKind, GameText, Games, Loaded,
    Request, Setting, Settings, VERBS,
};

/// A loaded, checked game, with the values given to its parameters and the folder a product's
/// games are found in.
#[pyclass(frozen, module = "takeaway._native")]
struct NativeGame {
    loaded: std::sync::Arc<Loaded>,
    settings: Settings,
    directory: std::path::PathBuf,
}

/// A token that cancels the questions it is given to, from any thread.
#[pyclass(frozen, module = "takeaway._native")]
pub(crate) struct CancelToken {
    token: NativeToken,
}

#[pymethods]
impl CancelToken {
    /// A new token; `cancelled=True` makes one already cancelled (as a pickled token that was).
    #[new]
    #[pyo3(signature = (cancelled = false))]
    fn new(cancelled: bool) -> Self {
        let token = NativeToken::new();
        if cancelled {
            token.cancel();
        }
        CancelToken { token }
    }

    /// A token pickles as whether it was cancelled: in another process it is a token of its
    /// own (cancelling one does not cancel the other, as no flag is shared between processes).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (bool,))> {
        Ok((slf.get_type().into_any(), (slf.get().token.is_cancelled(),)))
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

pub(crate) fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| PyException::new_err(e.to_string()))
}

/// Settings given as keyword arguments: a number, or a set of amounts (a list, tuple or set of
/// numbers).
fn settings(given: Option<&Bound<'_, PyDict>>) -> PyResult<Settings> {
    let mut out = Settings::new();
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
        out.insert(name, value);
    }
    Ok(out)
}

/// The exception class for a failure: from its kind, in `takeaway.errors` (plain Python classes,
/// so that they pickle); a request's wrong argument is also a `TypeError`, a value out of
/// range a `ValueError`, as Python's own calls are.
fn exception_class(failure: &Failure) -> &'static str {
    match (failure.kind(), failure.errors.first()) {
        (_, Some(Error::Request(RequestError::Arguments { .. } | RequestError::UnknownVerb { .. }))) => "ArgumentError",
        (_, Some(Error::Request(RequestError::MissingPosition { .. }))) => "ArgumentError",
        (_, Some(Error::Request(RequestError::Invalid { .. }))) => "InvalidArgument",
        (FailureKind::Game, _) => "GameError",
        (FailureKind::Question, _) => "QuestionError",
        (FailureKind::Refused, _) => "Refused",
        (FailureKind::Timeout, _) => "Timeout",
        (FailureKind::Cancelled, _) => "Cancelled",
    }
}

/// The exception for a failure: its message the rendered diagnostics, with the first one's
/// code, line, column and help, and every diagnostic as data.
pub(crate) fn exception(py: Python<'_>, failure: &Failure) -> PyErr {
    match build_exception(py, failure) {
        Ok(e) => e,
        // Only when the package's own module cannot be imported: the message still says it all.
        Err(e) => e,
    }
}

fn build_exception(py: Python<'_>, failure: &Failure) -> PyResult<PyErr> {
    let rendered = failure.render(false);
    let class = py.import("takeaway.errors")?.getattr(exception_class(failure))?;
    let (line, column) = failure.line_column().map_or((None, None), |(l, c)| (Some(l), Some(c)));
    let data = failure.data();
    let fields = PyDict::new(py);
    fields.set_item("kind", failure.kind().name())?;
    fields.set_item("code", failure.code())?;
    fields.set_item("line", line)?;
    fields.set_item("column", column)?;
    fields.set_item("help", data.first().and_then(|d| d.help.clone()))?;
    fields.set_item("message", data.first().map(|d| d.message.clone()).unwrap_or_default())?;
    fields.set_item("diagnostics", to_python(py, &serde_json::to_value(&data).unwrap_or_default())?)?;
    let partial = match failure.partial.as_deref().map(render::json) {
        Some(p) => Some(to_python(py, &p)?),
        None => None,
    };
    fields.set_item("partial", partial)?;
    let value = class.call((rendered,), Some(&fields))?;
    Ok(PyErr::from_value(value))
}

/// How often the asking thread looks for a signal Python is waiting to handle.
const SIGNAL_LOOK: Duration = Duration::from_millis(50);

/// How long a thread spins for a question's end, or a worker for its next question, before it
/// sleeps: longer than a small question and the Python between two of them.
const SPIN: Duration = Duration::from_micros(200);

/// The stack a question's worker runs on: as deep as a main thread's, which the engine's
/// recursive searches were measured on.
const WORKER_STACK: usize = 64 << 20;

/// Runs `work` on a worker thread with the GIL released (other Python threads run meanwhile),
/// while the asking thread looks every 50 ms for a signal Python is waiting to handle (Ctrl-C,
/// a notebook's interrupt): then it cancels the question and raises the signal's exception.
/// Python runs signal handlers only on its main thread, so the look must happen here, on the
/// thread that asked, not in the engine's loops, which may poll from threads of their own.
pub(crate) fn detached<T: Send + 'static>(
    py: Python<'_>,
    budget: Budget,
    work: impl FnOnce(&Budget) -> Result<T, Failure> + Send + 'static,
) -> PyResult<T> {
    let token = budget.cancel_token().clone();
    let mut caught: Option<PyErr> = None;
    let result = py.detach(|| {
        let (done, finished) = std::sync::mpsc::channel();
        let job: Job = Box::new(move || {
            // A panic is the asking thread's to raise; the worker goes on to the next question.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&budget)));
            let _ = done.send(result);
        });
        on_a_worker(job).map_err(Spawn)?;
        // A small question ends within microseconds: waited for by spinning, since putting this
        // thread to sleep and waking it costs more than the question (two context switches).
        if let Some(result) = spun_for(&finished) {
            return Ok(result);
        }
        loop {
            match finished.recv_timeout(SIGNAL_LOOK) {
                Ok(result) => return Ok(result),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if caught.is_none() {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            token.cancel();
                            caught = Some(e);
                        }
                    }
                }
                // The job is dropped unrun only if its worker died, which catch_unwind prevents.
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Spawn(std::io::Error::other("the question's worker stopped")))
                }
            }
        }
    });
    if let Some(interrupt) = caught {
        return Err(interrupt);
    }
    match result {
        Ok(Ok(result)) => result.map_err(|f| exception(py, &f)),
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(Spawn(e)) => {
            Err(pyo3::exceptions::PyRuntimeError::new_err(format!("could not start a thread for the question: {e}")))
        }
    }
}

/// What comes on `channel` within `SPIN`, waited for by spinning; `None` if nothing does (or
/// its sender is gone: the caller's own receive says so).
fn spun_for<T>(channel: &std::sync::mpsc::Receiver<T>) -> Option<T> {
    let spinning = std::time::Instant::now();
    while spinning.elapsed() < SPIN {
        match channel.try_recv() {
            Ok(message) => return Some(message),
            Err(std::sync::mpsc::TryRecvError::Empty) => std::hint::spin_loop(),
            Err(std::sync::mpsc::TryRecvError::Disconnected) => return None,
        }
    }
    None
}

/// A question for a worker thread.
type Job = Box<dyn FnOnce() + Send>;

/// Worker threads waiting for a question. A thread with a deep stack was started for every
/// question, and that start cost a small question more than the question itself; a thread is
/// now kept when its question ends, and started only when none waits (so there are as many as
/// questions were ever asked at once).
/// They are the process's that started them: a child forked from it (multiprocessing, a Dask
/// worker) has the list but none of the threads, and starts its own.
static WAITING_WORKERS: std::sync::Mutex<(u32, Vec<std::sync::mpsc::Sender<Job>>)> =
    std::sync::Mutex::new((0, Vec::new()));

/// The workers waiting in this process (a list inherited through a fork is forgotten first).
fn with_waiting<T>(f: impl FnOnce(&mut Vec<std::sync::mpsc::Sender<Job>>) -> T) -> T {
    let mut waiting = WAITING_WORKERS.lock().unwrap_or_else(|p| p.into_inner());
    let (owner, workers) = &mut *waiting;
    if *owner != std::process::id() {
        // Those threads are the parent's. Forgotten, not dropped: dropping would touch
        // channels that no thread of this process serves.
        std::mem::forget(std::mem::take(workers));
        *owner = std::process::id();
    }
    f(workers)
}

/// A worker that waits for a question of this process.
fn waiting_worker() -> Option<std::sync::mpsc::Sender<Job>> {
    with_waiting(Vec::pop)
}

/// Runs `job` on a waiting worker, or on a new one.
fn on_a_worker(mut job: Job) -> std::io::Result<()> {
    loop {
        let Some(worker) = waiting_worker() else { break };
        match worker.send(job) {
            Ok(()) => return Ok(()),
            Err(std::sync::mpsc::SendError(back)) => job = back,
        }
    }
    let (sender, jobs) = std::sync::mpsc::channel::<Job>();
    std::thread::Builder::new().name("takeaway-question".into()).stack_size(WORKER_STACK).spawn(move || {
        job();
        loop {
            // A worker runs only in the process that started it, so this list is its own.
            with_waiting(|workers| workers.push(sender.clone()));
            // The next question of a loop of small ones comes within microseconds: spin for it
            // a moment before sleeping, for the reason the asking thread spins.
            match spun_for(&jobs).map_or_else(|| jobs.recv(), Ok) {
                Ok(next) => next(),
                Err(_) => return,
            }
        }
    })?;
    Ok(())
}

/// A question's worker thread could not be started (the system is out of threads or memory).
struct Spawn(std::io::Error);

/// A Python dict of arguments as the request schema's JSON object.
pub(crate) fn arguments(args: &Bound<'_, PyDict>) -> PyResult<serde_json::Map<String, serde_json::Value>> {
    let value: serde_json::Value = pythonize::depythonize(args.as_any()).map_err(|e| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "the arguments must be numbers, text, booleans or lists of them: {e}"
        ))
    })?;
    match value {
        serde_json::Value::Object(map) => Ok(map),
        _ => Err(pyo3::exceptions::PyTypeError::new_err("the arguments must be a dict")),
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
        let game = GameText { source: text.to_string(), name: Some(name.to_string()), settings: settings.clone() };
        let directory = std::path::PathBuf::from(directory);
        let library = Games { dir: directory.clone(), session: Vec::new() };
        let loaded = detached(py, Budget::new(), move |budget| load_text(&game, &library, budget))?;
        Ok(NativeGame { loaded: std::sync::Arc::new(loaded), settings, directory })
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
        let listed: Vec<Setting> = settings.iter().map(|(n, v)| (n.clone(), v.clone())).collect();
        let directory = path.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
        let loaded = detached(py, Budget::new(), move |budget| read_game(&path, &listed, Vec::new(), budget))?;
        Ok(NativeGame { loaded: std::sync::Arc::new(loaded), settings, directory })
    }

    #[getter]
    fn name(&self) -> String {
        self.loaded.game.name.clone()
    }

    #[getter]
    fn source(&self) -> String {
        self.loaded.source.text.clone()
    }

    /// The name its diagnostics show (the file it came from).
    #[getter]
    fn source_name(&self) -> String {
        self.loaded.source.name.clone()
    }

    /// The folder a product's games are found in.
    #[getter]
    fn directory(&self) -> std::path::PathBuf {
        self.directory.clone()
    }

    /// The values given to its parameters.
    #[getter]
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = serde_json::to_value(&self.settings).unwrap_or_default();
        to_python(py, &value)
    }

    #[getter]
    fn partizan(&self) -> bool {
        self.loaded.game.is_partizan()
    }

    #[getter]
    fn misere(&self) -> bool {
        self.loaded.game.convention == takeaway_core::Convention::Misere
    }

    /// One question: `verb` is one of `verbs()`; `args` holds its arguments and its budget's
    /// (`timeout`, `max_states`, …), as the request schema names them; `None` is left out.
    /// `other` is the game compared with; `cancel` a token that stops the question.
    #[pyo3(signature = (verb, args, cancel = None, other = None))]
    fn ask(
        &self,
        py: Python<'_>,
        verb: &str,
        args: &Bound<'_, PyDict>,
        cancel: Option<PyRef<'_, CancelToken>>,
        other: Option<PyRef<'_, NativeGame>>,
    ) -> PyResult<NativeAnswer> {
        let mut args = arguments(args)?;
        if let Some(other) = other {
            let text = GameText {
                source: other.loaded.source.text.clone(),
                name: Some(other.loaded.source.name.clone()),
                settings: other.settings.clone(),
            };
            args.insert("other".into(), serde_json::to_value(text).unwrap_or_default());
        }
        let asked = Request::parse_with_budget(verb, args)
            .and_then(|(request, budget)| Budget::from_args(&budget).map(|b| (request, b)));
        let (request, mut budget) = asked.map_err(|e| exception(py, &Failure::one(e, None)))?;
        if let Some(c) = cancel {
            budget = budget.cancel(c.token.clone());
        }
        let library = Games { dir: self.directory.clone(), session: Vec::new() };
        let loaded = std::sync::Arc::clone(&self.loaded);
        let answer = detached(py, budget, move |budget| ask_engine(&loaded, &request, &library, budget))?;
        Ok(NativeAnswer { answer })
    }
}

/// The verbs the engine answers, as the command line spells them.
#[pyfunction]
fn verbs(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    PyList::new(py, VERBS)
}

/// Writes `contents` to the file `path` names as the command line writes its files: a link is
/// written through, a device or a pipe written into, a regular file replaced only whole, with
/// its mode (`takeaway_core::write_file`). Raises OSError.
#[pyfunction]
fn write_file(py: Python<'_>, path: std::path::PathBuf, contents: &[u8]) -> PyResult<()> {
    let contents = contents.to_vec();
    py.detach(|| takeaway_core::write_file(&path, &contents)).map_err(PyErr::from)
}

/// The module `takeaway._native` (public for a program that embeds Python and registers it).
#[pymodule]
pub fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    takeaway_core::wording::set_wording(python_wording);
    m.add_class::<NativeGame>()?;
    m.add_class::<NativeAnswer>()?;
    m.add_class::<CancelToken>()?;
    m.add_function(wrap_pyfunction!(verbs, m)?)?;
    m.add_function(wrap_pyfunction!(write_file, m)?)?;
    m.add_class::<sweep::SweepRows>()?;
    m.add_function(wrap_pyfunction!(sweep::sweep_family, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_game, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_order, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_render, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::octal_codes, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_refused_row, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// How Python spells an argument the engine's messages name: a keyword argument of the
/// question's method (`max_states=10000`), and a parameter's value as a keyword of
/// `Game.from_file`.
fn python_wording(argument: takeaway_core::wording::Argument, value: Option<&str>) -> String {
    use takeaway_core::wording::Argument;
    match (argument, value) {
        (Argument::Set, Some(v)) => format!("`Game.from_file(path, {v})`"),
        (Argument::Set, None) => "a keyword of `Game.from_file`".to_string(),
        (_, Some(v)) => format!("`{}={v}`", argument.name()),
        (_, None) => format!("`{}=`", argument.name()),
    }
}
