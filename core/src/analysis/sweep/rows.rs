//! A sweep's rows on disk, kept so that a sweep killed at any moment loses at most the games in
//! flight: each row is appended as its game finishes (one write of one whole line), a rerun
//! reads the rows there to skip those games (a line cut short by the kill is dropped), and the
//! finished file is rewritten in the family's order, atomically, so that a sweep run in pieces
//! ends with the same file as one run whole. JSON lines (`.jsonl`, `.json`) or CSV (anything else).

use crate::wording::{give, Argument};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use miette::Diagnostic;
use thiserror::Error;

use super::{RowStatus, SweepRow};

/// Why a sweep's rows file could not be used.
#[derive(Debug, Error, Diagnostic)]
pub enum RowsError {
    /// The file could not be read or written.
    #[error("cannot write the sweep's rows to {path}: {source}")]
    #[diagnostic(code(takeaway::sweep::write), help("give {out} a file in a folder you can write to", out = give(Argument::Out)))]
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
        help("a sweep goes on only from a file of rows it wrote itself; give {give_1} a new file name", give_1 = give(Argument::Out))
    )]
    NotRows {
        /// The rows file.
        path: String,
        /// The line, counted from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The file holds rows of games that are not this sweep's: it belongs to another family.
    #[error("{path} holds the rows of another family: `{game}` is not one of this sweep's games")]
    #[diagnostic(
        code(takeaway::sweep::other_family),
        help("a rows file keeps one family's rows, and the file was left as it is: give {give_1} a new file name", give_1 = give(Argument::Out))
    )]
    OtherFamily {
        /// The rows file.
        path: String,
        /// A game of the file that this family has not.
        game: String,
    },
    /// Another sweep has the file open: two sweeps on one file would run every game twice and
    /// lose each other's rows.
    #[error("another sweep is writing {path}")]
    #[diagnostic(
        code(takeaway::sweep::busy),
        help("wait for that sweep to finish (its rows are then there for this one), or give {give_1} another file", give_1 = give(Argument::Out))
    )]
    Busy {
        /// The rows file.
        path: String,
    },
    /// The name is not a regular file (a FIFO, a device, a folder): rows are never written into
    /// what cannot be read back, and a FIFO nobody reads would wait for ever.
    #[error("{path} is not a regular file: {what}")]
    #[diagnostic(code(takeaway::sweep::not_a_file), help("give {give_1} the name of a regular file, new or a sweep's", give_1 = give(Argument::Out)))]
    NotAFile {
        /// The rows file.
        path: String,
        /// What it is.
        what: String,
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
    pub(crate) fn kind(&self) -> crate::vocab::FailureKind {
        match self {
            RowsError::Stopped { .. } => crate::vocab::FailureKind::Cancelled,
            RowsError::Io { .. }
            | RowsError::NotRows { .. }
            | RowsError::OtherFamily { .. }
            | RowsError::Busy { .. }
            | RowsError::NotAFile { .. } => crate::vocab::FailureKind::Question,
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
    pub(crate) fn of(path: &Path) -> RowsFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some("jsonl" | "json" | "ndjson") => RowsFormat::JsonLines,
            _ => RowsFormat::Csv,
        }
    }
}

/// An open rows file: the rows kept from it, and the file, appended to as rows come. It is
/// locked while open, so that a second sweep on it is refused rather than run beside this one.
pub struct RowsFile {
    path: PathBuf,
    format: RowsFormat,
    file: File,
    /// the rows the file had when opened that still answer what is asked (see `open`)
    pub done: Vec<SweepRow>,
}

impl RowsFile {
    /// Opens `path` for a family, or starts it. `asked(label)` says what is asked now of the
    /// game labelled `label` (`SweepRow::asked`), `None` when no game of the family has it. Refused, leaving the file as it is: a name that
    /// is not a regular file (a FIFO, a device); a file another sweep has open; text that is
    /// not a sweep's rows (a note, a settings file); rows of games not in the family.
    ///
    /// Kept as `done`: the rows of games whose text and `upto` are as asked now, proven or
    /// open. The others (stopped, refused, or asked differently) are run again; a stopped one
    /// goes on from its checkpoint. A game's latest row counts (a rerun appends rows after the
    /// old ones until the file is rewritten at the end). A last line cut short by a kill is cut
    /// off the file.
    pub fn open(path: &Path, asked: &dyn Fn(&str) -> Option<String>) -> Result<RowsFile, RowsError> {
        let shown = path.display().to_string();
        let io_error = |source| RowsError::Io { path: shown.clone(), source };
        let format = RowsFormat::of(path);
        if let Ok(meta) = std::fs::metadata(path) {
            if !meta.is_file() {
                return Err(RowsError::NotAFile { path: shown.clone(), what: crate::files::kind_of(&meta).into() });
            }
        }
        let file = open_locked(path).map_err(|e| match e {
            Opened::Io(source) => io_error(source),
            Opened::Busy => RowsError::Busy { path: shown.clone() },
            Opened::NotAFile(what) => RowsError::NotAFile { path: shown.clone(), what: what.into() },
        })?;
        let mut text = String::new();
        (&file).read_to_string(&mut text).map_err(io_error)?;
        let (whole, torn) = split_torn(&text);
        if torn > 0 && !tail_is_a_row(&text[..whole], &text[whole..], format) {
            return Err(RowsError::NotRows {
                path: shown.clone(),
                line: text[..whole].lines().count() + 1,
                reason: "it is not a row a sweep wrote (and the file is left as it is)".into(),
            });
        }
        let rows = parse_rows(&text[..whole], format, path)?;
        if format == RowsFormat::Csv && whole > 0 && text.lines().next() != csv_header().lines().next() {
            return Err(RowsError::NotRows {
                path: shown,
                line: 1,
                reason: "an earlier takeaway wrote it, without the `asked` column (the file is left as it is)".into(),
            });
        }
        if let Some(stranger) = rows.iter().find(|r| asked(&r.game).is_none()) {
            return Err(RowsError::OtherFamily { path: shown, game: stranger.game.clone() });
        }
        // Only now is the file changed: the torn line cut off, a new CSV file given its header.
        if torn > 0 {
            file.set_len(whole as u64).map_err(io_error)?;
        }
        let mut file = file;
        file.seek(SeekFrom::End(0)).map_err(io_error)?;
        if whole == 0 && format == RowsFormat::Csv {
            file.write_all(csv_header().as_bytes()).and_then(|()| file.flush()).map_err(io_error)?;
        }
        // A game's latest row, in the order the games first came (a family of 8,190 octal codes
        // is looked up by label, not searched row by row).
        let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut latest: Vec<SweepRow> = Vec::new();
        for row in rows {
            match at.get(&row.game) {
                Some(&i) => latest[i] = row,
                None => {
                    at.insert(row.game.clone(), latest.len());
                    latest.push(row);
                }
            }
        }
        let done = latest
            .into_iter()
            .filter(|r| matches!(r.status, RowStatus::Proven | RowStatus::Open))
            .filter(|r| r.asked.is_some() && r.asked == asked(&r.game))
            .collect();
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

/// Why a rows file could not be opened and locked.
enum Opened {
    Io(io::Error),
    Busy,
    NotAFile(&'static str),
}

/// The file `path` names, opened to read and append (created if new), locked against other
/// sweeps. Opened without waiting (a FIFO that appeared since it was looked at is not waited
/// on), and the lock is taken on the file the name still names: a sweep that finished in
/// between has put a new file there, which is locked instead.
fn open_locked(path: &Path) -> Result<File, Opened> {
    for _ in 0..8 {
        let mut options = OpenOptions::new();
        options.read(true).append(true).create(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK);
        }
        let file = options.open(path).map_err(Opened::Io)?;
        let meta = file.metadata().map_err(Opened::Io)?;
        if !meta.is_file() {
            return Err(Opened::NotAFile(crate::files::kind_of(&meta)));
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(Opened::Busy),
            Err(std::fs::TryLockError::Error(e)) => return Err(Opened::Io(e)),
        }
        if same_file(&meta, path) {
            return Ok(file);
        }
    }
    Err(Opened::Busy)
}

#[cfg(unix)]
fn same_file(meta: &std::fs::Metadata, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).is_ok_and(|now| now.dev() == meta.dev() && now.ino() == meta.ino())
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &Path) -> bool {
    true
}

/// Where the whole lines of a rows file's text end, and how many bytes follow them (a line a
/// kill cut short).
fn split_torn(text: &str) -> (usize, usize) {
    let whole = text.rfind('\n').map_or(0, |end| end + 1);
    (whole, text.len() - whole)
}

/// Whether what follows the last newline can be the start of a row a sweep was writing: a
/// JSON row starts `{"game":`; a CSV row follows a header (which `parse_rows` checks is a
/// sweep's). Anything else (a one-line note, a settings file) is not the sweep's to cut.
fn tail_is_a_row(whole: &str, tail: &str, format: RowsFormat) -> bool {
    match format {
        RowsFormat::JsonLines => {
            let start = r#"{"game":"#;
            start.starts_with(tail) || tail.starts_with(start)
        }
        RowsFormat::Csv => !whole.is_empty(),
    }
}

/// The rows as the file holds them.
pub(crate) fn render(rows: &[SweepRow], format: RowsFormat) -> String {
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
pub(crate) fn parse_rows(text: &str, format: RowsFormat, path: &Path) -> Result<Vec<SweepRow>, RowsError> {
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
            let header = whole.lines().next();
            // Rows written before the `asked` column are read too (the atlas's), without it.
            let before_asked = expected.lines().next().and_then(|h| h.strip_suffix(",asked"));
            if header != expected.lines().next() && header != before_asked {
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
