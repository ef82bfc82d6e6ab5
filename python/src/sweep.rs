//! The sweep for Python: the family's games, one game's row (what a Dask worker runs), the
//! whole sweep on this machine's cores, and the rows file, all through the engine's `sweep`
//! API; `takeaway/sweep.py` puts them on a Dask cluster when given a client.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use takeaway_core::render;
use takeaway_core::{Budget, BudgetArgs, Failure, RowsFile, RowsFormat, SweepArgs, SweepGame, SweepRow};

use crate::{arguments, detached, exception, to_python, CancelToken};

fn depythonize<T: serde::de::DeserializeOwned>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    pythonize::depythonize(value)
        .map_err(|e| pyo3::exceptions::PyTypeError::new_err(format!("{what} is not what a sweep takes: {e}")))
}

fn rows_to_python<'py>(py: Python<'py>, rows: &[SweepRow]) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &serde_json::to_value(rows).unwrap_or_default())
}

fn budget_args(budget: Option<&Bound<'_, PyDict>>) -> PyResult<BudgetArgs> {
    match budget {
        Some(b) => serde_json::from_value(serde_json::Value::Object(arguments(b)?))
            .map_err(|e| pyo3::exceptions::PyTypeError::new_err(format!("the budget: {e}"))),
        None => Ok(BudgetArgs::default()),
    }
}

fn budget_of(
    py: Python<'_>,
    budget: Option<&Bound<'_, PyDict>>,
    cancel: Option<PyRef<'_, CancelToken>>,
) -> PyResult<Budget> {
    let mut budget = Budget::from_args(&budget_args(budget)?).map_err(|e| exception(py, &Failure::one(e, None)))?;
    if let Some(c) = cancel {
        budget = budget.cancel(c.token.clone());
    }
    Ok(budget)
}

/// The request with every default filled in (checked as the command line checks it), and its
/// family's games: `{"args": {…}, "games": [{"label": …, "text": {"source": …, "name": …,
/// "settings": {…}}}]}`.
#[pyfunction]
pub fn sweep_family<'py>(py: Python<'py>, args: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
    let args = SweepArgs::parse(arguments(args)?).map_err(|f| exception(py, &f))?;
    let games = args.family().map_err(|f| exception(py, &f))?;
    let both = serde_json::json!({"args": args, "games": games});
    to_python(py, &both)
}

/// One game's row (a dict), on its own budget: what a Dask worker runs for each game.
#[pyfunction]
#[pyo3(signature = (game, upto, checkpoints = None, budget = None, cancel = None, histograms = false))]
pub fn sweep_game<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    upto: u64,
    checkpoints: Option<PathBuf>,
    budget: Option<&Bound<'py, PyDict>>,
    cancel: Option<PyRef<'py, CancelToken>>,
    histograms: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let game: SweepGame = depythonize(game, "the game")?;
    let budget = budget_of(py, budget, cancel)?.threads(1);
    let row = detached(py, budget, move |budget| {
        takeaway_core::sweep_game(&game, upto, histograms, checkpoints.as_deref(), budget)
    })?;
    to_python(py, &serde_json::to_value(row).unwrap_or_default())
}

/// The whole sweep on this machine's cores: `(rows, resumed)`, `on_row(row)` called as each
/// game finishes (from the sweep's threads, holding the GIL while it runs).
#[pyfunction]
#[pyo3(signature = (args, budget = None, cancel = None, on_row = None))]
pub fn sweep<'py>(
    py: Python<'py>,
    args: &Bound<'py, PyDict>,
    budget: Option<&Bound<'py, PyDict>>,
    cancel: Option<PyRef<'py, CancelToken>>,
    on_row: Option<Py<PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, usize)> {
    let args = SweepArgs::parse(arguments(args)?).map_err(|f| exception(py, &f))?;
    let each_game = budget_args(budget)?;
    // The sweep's own budget only carries the cancel token (Ctrl-C, `cancel`): each game gets
    // `each_game`, from the moment it starts.
    let sweep_budget = budget_of(py, None, cancel)?;
    let callback_error: Arc<Mutex<Option<PyErr>>> = Arc::default();
    let caught = Arc::clone(&callback_error);
    let report = detached(py, sweep_budget, move |budget| {
        takeaway_core::sweep(&args, &each_game, budget, &|row| {
            if let Some(f) = &on_row {
                Python::attach(|py| {
                    let called = to_python(py, &serde_json::to_value(row).unwrap_or_default())
                        .and_then(|r| f.call1(py, (r,)).map(|_| ()));
                    if let Err(e) = called {
                        caught.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                        budget.cancel_token().cancel();
                    }
                });
            }
        })
    });
    if let Some(e) = callback_error.lock().unwrap_or_else(|p| p.into_inner()).take() {
        return Err(e);
    }
    let report = report?;
    Ok((rows_to_python(py, &report.rows)?, report.resumed))
}

/// Rows (dicts) put in the family's order, the games with the same values marked.
#[pyfunction]
pub fn sweep_order<'py>(
    py: Python<'py>,
    games: &Bound<'py, PyAny>,
    rows: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let games: Vec<SweepGame> = depythonize(games, "the games")?;
    let rows: Vec<SweepRow> = depythonize(rows, "the rows")?;
    rows_to_python(py, &takeaway_core::in_family_order(&games, rows))
}

/// Rows as the command line prints them: `text` (a line each), `json` (JSON lines) or `csv`.
#[pyfunction]
#[pyo3(signature = (rows, format, resumed = 0, out = None))]
pub fn sweep_render(rows: &Bound<'_, PyAny>, format: &str, resumed: usize, out: Option<PathBuf>) -> PyResult<String> {
    let rows: Vec<SweepRow> = depythonize(rows, "the rows")?;
    Ok(match format {
        "json" => render::sweep_rows(&rows, RowsFormat::JsonLines),
        "csv" => render::sweep_rows(&rows, RowsFormat::Csv),
        _ => {
            let mut text: String = rows.iter().map(|r| render::sweep_row_line(r) + "\n").collect();
            text.push_str(&render::sweep_summary(&rows, resumed, out.as_deref()));
            text
        }
    })
}

/// A sweep's rows file: the rows already in it (`done`), rows appended as games finish, and
/// the file rewritten whole in the family's order at the end (`takeaway_core::RowsFile`).
#[pyclass(module = "takeaway._native")]
pub struct SweepRows {
    file: Option<RowsFile>,
    done: Vec<SweepRow>,
}

#[pymethods]
impl SweepRows {
    /// Opens (or starts) the rows file at `path` for the family's `games` (as `sweep_family`
    /// gives them) and `upto`: the rows kept are those that answer what is asked now.
    #[new]
    #[pyo3(signature = (path, games, upto, histograms = false))]
    fn new(py: Python<'_>, path: PathBuf, games: &Bound<'_, PyAny>, upto: u64, histograms: bool) -> PyResult<Self> {
        let games: Vec<SweepGame> = depythonize(games, "the games")?;
        let asked = takeaway_core::asked_of_family(&games, upto, histograms);
        let mut file = RowsFile::open(&path, &|label| asked.get(label).cloned())
            .map_err(|e| exception(py, &Failure::one(e, None)))?;
        let done = std::mem::take(&mut file.done);
        Ok(SweepRows { file: Some(file), done })
    }

    /// The rows the file had when opened.
    #[getter]
    fn done<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        rows_to_python(py, &self.done)
    }

    /// Appends one row (a whole line, flushed).
    fn append(&mut self, py: Python<'_>, row: &Bound<'_, PyAny>) -> PyResult<()> {
        let row: SweepRow = depythonize(row, "the row")?;
        match self.file.as_mut() {
            Some(f) => f.append(&row).map_err(|e| exception(py, &Failure::one(e, None))),
            None => Err(pyo3::exceptions::PyValueError::new_err("the rows file is finished")),
        }
    }

    /// Rewrites the file with `rows`, atomically; nothing can be appended after.
    fn finish(&mut self, py: Python<'_>, rows: &Bound<'_, PyAny>) -> PyResult<()> {
        let rows: Vec<SweepRow> = depythonize(rows, "the rows")?;
        match self.file.take() {
            Some(f) => f.finish(&rows).map_err(|e| exception(py, &Failure::one(e, None))),
            None => Err(pyo3::exceptions::PyValueError::new_err("the rows file is finished")),
        }
    }
}

/// Every octal code `lead.d₁…d_k` with k up to `digits` (the last digit not 0).
#[pyfunction]
#[pyo3(signature = (digits, leading = None))]
pub fn octal_codes<'py>(py: Python<'py>, digits: u8, leading: Option<Vec<u8>>) -> PyResult<Bound<'py, PyList>> {
    let leading = leading.unwrap_or_else(|| takeaway_core::defaults::SWEEP_LEADING.to_vec());
    let codes: Vec<String> = leading.iter().flat_map(|l| takeaway_core::octal_codes(*l, digits)).collect();
    PyList::new(py, codes)
}

/// A row saying a game could not be run, and why (the columns of every other row).
#[pyfunction]
pub fn sweep_refused_row<'py>(
    py: Python<'py>,
    label: &str,
    code: String,
    message: String,
) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &serde_json::to_value(SweepRow::refused(label, code, message)).unwrap_or_default())
}
