//! A one-pile table written as its rows are made: the rows come from the solver's column of
//! values (stored, or a proven period repeating), never a list of rows, so a table of 10⁸ rows
//! takes the memory of its values' period. The bytes are those of the same table held whole.

use std::io::{self, Write};

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::csv::{csv_header, RowNumber, CSV_BLOCK};
use super::Table;
use crate::solve::{check_cancel, Limits, Outcome, PileColumn, SolveError};

/// Blocks of `CSV_BLOCK` bytes written between looks at the question's deadline and cancel
/// token (each block is a few thousand rows).
const BLOCKS_BETWEEN_CHECKS: u64 = 64;

/// A one-pile table of outcomes and Grundy values whose rows are the solver's values.
pub(crate) struct StreamedRows<'s> {
    /// The table with its rows left out: its name, period, pattern.
    table: Table,
    column: PileColumn<'s>,
    limits: &'s Limits,
}

/// Why a streamed table stopped: its output failed, or its budget ran out while writing.
#[derive(Debug)]
pub(crate) enum StreamError {
    /// Writing failed (a closed pipe, a full disk).
    Io(io::Error),
    /// The question was cancelled or passed its deadline.
    Stopped(SolveError),
}

impl From<io::Error> for StreamError {
    fn from(e: io::Error) -> Self {
        // A stop inside serde's writing comes back as an io error carrying it.
        match e.get_ref().and_then(|inner| inner.downcast_ref::<Stop>()) {
            Some(Stop(cause)) => StreamError::Stopped(cause.clone()),
            None => StreamError::Io(e),
        }
    }
}

/// A stop carried through `io::Error` out of serde's writer.
#[derive(Debug)]
struct Stop(SolveError);

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Stop {}

fn checked(limits: &Limits) -> io::Result<()> {
    check_cancel(limits).map_err(|e| io::Error::other(Stop(e)))
}

impl<'s> StreamedRows<'s> {
    pub(crate) fn new(table: Table, column: PileColumn<'s>, limits: &'s Limits) -> Self {
        StreamedRows { table, column, limits }
    }

    /// The rows as CSV, as `Table::write_csv` writes them.
    pub(crate) fn write_csv(&self, out: &mut dyn Write) -> Result<(), StreamError> {
        let mut bytes = csv_header(&self.table);
        bytes.reserve(CSV_BLOCK + 64);
        let mut row = RowNumber::default();
        let mut digits = itoa::Buffer::new();
        let mut written = 0u64;
        let mut flush = |bytes: &mut Vec<u8>| -> io::Result<()> {
            out.write_all(bytes)?;
            bytes.clear();
            written += 1;
            if written.is_multiple_of(BLOCKS_BETWEEN_CHECKS) {
                checked(self.limits)?;
            }
            Ok(())
        };
        // The rows past a proven period's first repeat differ from those a period before only in
        // their number: each phase's cells are made once, and a row is its number and them.
        let (direct_to, cycle) = match self.column {
            PileColumn::Periodic { preperiod, period, .. } => {
                let cells: Vec<Vec<u8>> = (preperiod..preperiod + period)
                    .map(|n| {
                        let mut cells = Vec::with_capacity(24);
                        push_cells(&mut cells, self.column.get(n), &mut digits);
                        cells
                    })
                    .collect();
                (preperiod + period, Some((preperiod, cells)))
            }
            _ => (self.column.last() + 1, None),
        };
        let last = self.column.last();
        let mut n = 0;
        while n <= last && n < direct_to {
            bytes.extend_from_slice(row.text());
            row.advance();
            push_cells(&mut bytes, self.column.get(n), &mut digits);
            if bytes.len() >= CSV_BLOCK {
                flush(&mut bytes)?;
            }
            n += 1;
        }
        if let (Some((preperiod, cells)), true) = (cycle, n <= last) {
            let period = cells.len() as u64;
            let mut phase = ((n - preperiod) % period) as usize;
            while n <= last {
                bytes.extend_from_slice(row.text());
                row.advance();
                bytes.extend_from_slice(&cells[phase]);
                phase += 1;
                if phase == cells.len() {
                    phase = 0;
                }
                if bytes.len() >= CSV_BLOCK {
                    flush(&mut bytes)?;
                }
                n += 1;
            }
        }
        out.write_all(&bytes)?;
        Ok(())
    }

    /// The table as pretty JSON with a final newline, as `render::pretty` writes `Table::to_json`
    /// (`OnePileJson`'s fields in its order): the lists are written by hand, a plain loop each,
    /// and the other fields by serde_json, indented as its pretty printer nests them.
    pub(crate) fn write_json(&self, out: &mut dyn Write) -> Result<(), StreamError> {
        let t = &self.table;
        let field = |value: &dyn erased::Json| -> Vec<u8> { value.pretty().replace('\n', "\n  ").into_bytes() };
        let mut bytes = Vec::with_capacity(CSV_BLOCK + 64);
        bytes.extend_from_slice(b"{\n  \"game\": ");
        bytes.extend_from_slice(&field(&t.game));
        bytes.extend_from_slice(b",\n  \"upto\": ");
        bytes.extend_from_slice(&field(&t.upto));
        for (name, list) in [("outcomes", List::Outcomes), ("grundy", List::Grundy), ("p_positions", List::PPositions)]
        {
            bytes.extend_from_slice(format!(",\n  \"{name}\": ").as_bytes());
            self.write_list(list, &mut bytes, out)?;
        }
        bytes.extend_from_slice(b",\n  \"period\": ");
        bytes.extend_from_slice(&field(&t.period));
        bytes.extend_from_slice(b",\n  \"pattern\": ");
        bytes.extend_from_slice(&field(&t.pattern));
        bytes.extend_from_slice(b",\n  \"remoteness\": ");
        bytes.extend_from_slice(&field(&t.remoteness));
        bytes.extend_from_slice(b"\n}\n");
        out.write_all(&bytes)?;
        Ok(())
    }

    /// One list of the JSON, as serde_json's pretty printer writes it at depth 1: `[]` when
    /// empty, else each item on a line of its own indented by four spaces.
    fn write_list(&self, list: List, bytes: &mut Vec<u8>, out: &mut dyn Write) -> io::Result<()> {
        let mut digits = itoa::Buffer::new();
        let mut first = true;
        let mut failed = None;
        let mut blocks = 0u64;
        self.column.for_each_from(0, |n, g| {
            let item: &[u8] = match list {
                List::Outcomes if g == 0 => b"\"P\"",
                List::Outcomes => b"\"N\"",
                List::Grundy => digits.format(g).as_bytes(),
                List::PPositions if g == 0 => digits.format(n).as_bytes(),
                List::PPositions => return,
            };
            bytes.extend_from_slice(if first { b"[\n    " } else { b",\n    " });
            first = false;
            bytes.extend_from_slice(item);
            if bytes.len() >= CSV_BLOCK && failed.is_none() {
                blocks += 1;
                let written = out.write_all(bytes).and_then(|()| {
                    if blocks.is_multiple_of(BLOCKS_BETWEEN_CHECKS) {
                        checked(self.limits)
                    } else {
                        Ok(())
                    }
                });
                bytes.clear();
                if let Err(e) = written {
                    failed = Some(e);
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        bytes.extend_from_slice(if first { b"[]" } else { b"\n  ]" });
        Ok(())
    }
}

/// Values serde_json prints pretty: the table's other fields.
mod erased {
    pub(crate) trait Json {
        fn pretty(&self) -> String;
    }

    impl<T: serde::Serialize> Json for T {
        fn pretty(&self) -> String {
            // Plain data (strings, numbers, a period): serialising it cannot fail.
            serde_json::to_string_pretty(self).unwrap_or_default()
        }
    }
}

/// `,{outcome},{grundy}\n`: a row's cells after its number.
fn push_cells(bytes: &mut Vec<u8>, grundy: u64, digits: &mut itoa::Buffer) {
    bytes.push(b',');
    bytes.extend_from_slice(if grundy == 0 { b"P" } else { b"N" });
    bytes.push(b',');
    bytes.extend_from_slice(digits.format(grundy).as_bytes());
    bytes.push(b'\n');
}

/// A one-pile table's rows, held.
#[derive(Clone, Copy)]
pub(crate) struct Rows<'a> {
    pub(crate) outcomes: &'a [Outcome],
    pub(crate) grundy: &'a [Option<u64>],
    pub(crate) p_positions: &'a [Vec<u64>],
}

/// The JSON of a one-pile table held whole, field by field in the order
/// `StreamedRows::write_json` writes them.
pub(crate) struct OnePileJson<'a> {
    pub(crate) table: &'a Table,
    pub(crate) rows: Rows<'a>,
}

/// One of a one-pile table's three lists.
#[derive(Clone, Copy)]
enum List {
    Outcomes,
    Grundy,
    PPositions,
}

struct ListOf<'a> {
    rows: Rows<'a>,
    list: List,
}

impl Serialize for ListOf<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Rows { outcomes, grundy, p_positions } = self.rows;
        let mut seq = serializer.serialize_seq(None)?;
        match self.list {
            List::Outcomes => outcomes.iter().try_for_each(|o| seq.serialize_element(o.letter()))?,
            List::Grundy => grundy.iter().try_for_each(|g| seq.serialize_element(g))?,
            List::PPositions => p_positions.iter().try_for_each(|p| seq.serialize_element(&p[0]))?,
        }
        seq.end()
    }
}

impl Serialize for OnePileJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let t = self.table;
        let list = |list| ListOf { rows: self.rows, list };
        let mut s = serializer.serialize_struct("Table", 8)?;
        s.serialize_field("game", &t.game)?;
        s.serialize_field("upto", &t.upto)?;
        s.serialize_field("outcomes", &list(List::Outcomes))?;
        s.serialize_field("grundy", &list(List::Grundy))?;
        s.serialize_field("p_positions", &list(List::PPositions))?;
        s.serialize_field("period", &t.period)?;
        s.serialize_field("pattern", &t.pattern)?;
        s.serialize_field("remoteness", &t.remoteness)?;
        s.end()
    }
}
