//! A sweep's rows on disk, kept so that a sweep killed at any moment loses at most the games in
//! flight: each row is appended as its game finishes (one write of one whole line), a rerun
//! reads the rows there to skip those games (a line cut short by the kill is dropped), and the
//! finished file is rewritten in the family's order, atomically, so that a sweep run in pieces
//! ends with the same file as one run whole. JSON lines (`.jsonl`, `.json`) or CSV (anything else).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use miette::Diagnostic;
use thiserror::Error;

use super::SweepRow;

/// Why a sweep's rows file could not be used.
#[derive(Debug, Error, Diagnostic)]
pub enum RowsError {
    /// The file could not be read or written.
    #[error("cannot write the sweep's rows to {path}: {source}")]
    #[diagnostic(code(takeaway::sweep::write), help("give --out a file in a folder you can write to"))]
    Io {
        /// The rows file.
        path: String,
        /// What the system said.
        source: io::Error,
    },
    /// A line before the last is not a row: the file is not one a sweep wrote.
    #[error("{path} line {line} is not a sweep's row: {reason}")]
    #[diagnostic(
        code(takeaway::sweep::not_rows),
        help("a sweep goes on only from a file of rows it wrote itself; give --out a new file name")
    )]
    NotRows {
        /// The rows file.
        path: String,
        /// The line, counted from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Ctrl-C, or the program that asked, stopped the sweep; the finished rows are kept.
    #[error("the sweep was stopped with {finished} of its {total} games finished")]
    #[diagnostic(code(takeaway::sweep::stopped), help("{resume}"))]
    Stopped {
        /// The games whose rows are done, this run's and a rows file's before it.
        finished: usize,
        /// The games of the family.
        total: usize,
        /// Where the rows are, and how to go on.
        resume: String,
    },
}

impl RowsError {
    /// What kind of failure this is: a stopped sweep was cancelled, the rest are the
    /// question's (its file).
    pub fn kind(&self) -> crate::vocab::FailureKind {
        match self {
            RowsError::Stopped { .. } => crate::vocab::FailureKind::Cancelled,
            RowsError::Io { .. } | RowsError::NotRows { .. } => crate::vocab::FailureKind::Question,
        }
    }
}

/// The format of a rows file, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowsFormat {
    /// One JSON object a line.
    JsonLines,
    /// A header line, then one line a row.
    Csv,
}

impl RowsFormat {
    /// The format a file's name asks for.
    pub fn of(path: &Path) -> RowsFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some("jsonl" | "json" | "ndjson") => RowsFormat::JsonLines,
            _ => RowsFormat::Csv,
        }
    }
}

/// An open rows file: the rows found in it, and the file, appended to as rows come.
pub struct RowsFile {
    path: PathBuf,
    format: RowsFormat,
    file: File,
    /// the rows the file had when opened
    pub done: Vec<SweepRow>,
}

impl RowsFile {
    /// Opens `path`, reading the rows already there (a last line cut short is dropped, and the
    /// file rewritten without it), or starts it.
    pub fn open(path: &Path) -> Result<RowsFile, RowsError> {
        let io_error = |source| RowsError::Io { path: path.display().to_string(), source };
        let format = RowsFormat::of(path);
        let done = match std::fs::read_to_string(path) {
            Ok(text) => parse_rows(&text, format, path)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_error(e)),
        };
        // Whole again, with the header and without a torn line: the one rewrite before appending.
        crate::files::write_file(path, render(&done, format).as_bytes()).map_err(io_error)?;
        let file = OpenOptions::new().append(true).open(path).map_err(io_error)?;
        Ok(RowsFile { path: path.to_path_buf(), format, file, done })
    }

    /// Appends one row: a whole line in one write, flushed.
    pub fn append(&mut self, row: &SweepRow) -> Result<(), RowsError> {
        let line = line_of(row, self.format);
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| RowsError::Io { path: self.path.display().to_string(), source })
    }

    /// Rewrites the file with `rows` (the family's order), replacing it only when complete.
    pub fn finish(self, rows: &[SweepRow]) -> Result<(), RowsError> {
        crate::files::write_file(&self.path, render(rows, self.format).as_bytes())
            .map_err(|source| RowsError::Io { path: self.path.display().to_string(), source })
    }
}

/// The rows as the file holds them.
pub fn render(rows: &[SweepRow], format: RowsFormat) -> String {
    let mut out = String::new();
    if format == RowsFormat::Csv {
        out.push_str(&csv_header());
    }
    for row in rows {
        out.push_str(&line_of(row, format));
    }
    out
}

fn csv_header() -> String {
    let mut w = csv::WriterBuilder::new().has_headers(true).from_writer(Vec::new());
    // The header comes with the first record: a blank row's, cut off after the header.
    let _ = w.serialize(SweepRow::refused("", String::new(), String::new()));
    let bytes = w.into_inner().unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    text.lines().next().map(|h| format!("{h}\n")).unwrap_or_default()
}

fn line_of(row: &SweepRow, format: RowsFormat) -> String {
    match format {
        RowsFormat::JsonLines => {
            let mut line = serde_json::to_string(row).unwrap_or_default();
            line.push('\n');
            line
        }
        RowsFormat::Csv => {
            let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
            let _ = w.serialize(row);
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
    }
}

/// The rows of a rows file's text (a last line cut short is left out); `path` names it in errors.
pub fn parse_rows(text: &str, format: RowsFormat, path: &Path) -> Result<Vec<SweepRow>, RowsError> {
    // Only lines that end in a newline were written whole; what follows the last one is torn.
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let not_rows = |line: usize, reason: String| RowsError::NotRows { path: path.display().to_string(), line, reason };
    let mut rows = Vec::new();
    match format {
        RowsFormat::JsonLines => {
            for (i, line) in whole.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                rows.push(serde_json::from_str(line).map_err(|e| not_rows(i + 1, e.to_string()))?);
            }
        }
        RowsFormat::Csv => {
            if whole.is_empty() {
                return Ok(rows);
            }
            let expected = csv_header();
            if whole.lines().next() != expected.lines().next() {
                return Err(not_rows(1, "its header is not a sweep's columns".into()));
            }
            let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(whole.as_bytes());
            for (i, row) in reader.deserialize().enumerate() {
                rows.push(row.map_err(|e: csv::Error| not_rows(i + 2, e.to_string()))?);
            }
        }
    }
    Ok(rows)
}
