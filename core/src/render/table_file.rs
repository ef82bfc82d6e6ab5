//! `write_table`: a table question answered straight into a writer, its rows written as they
//! are made where the engine allows. It lives with the rendering (which it feeds) so that the
//! answers (`api`) never import their rendering.

use crate::api::{table, table_failure, table_options, Answer, Budget, Failure, Loaded, TableArgs};
use crate::solve::Solver;

/// The formats a table is written in by `write_table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// One row per position, as `render::write_csv` writes a table.
    Csv,
    /// As `render::json_text` writes a table.
    Json,
}

/// Answers a `table` request by writing it to `out`: a one-pile table of outcomes and Grundy
/// values is written as its rows are made, from the solver's values (stored, or a proven period
/// repeating), in memory that does not grow with its rows, and is refused only for the time its
/// rows would take to write; any other table is made whole and rendered. The bytes are those of
/// `ask` and `render` either way. The outer error is the question's; the inner one is `out`'s (a
/// closed pipe), after what was written.
pub fn write_table(
    loaded: &Loaded,
    args: &TableArgs,
    budget: &Budget,
    format: TableFormat,
    out: &mut dyn std::io::Write,
) -> Result<std::io::Result<()>, Failure> {
    let limits = budget.limits();
    budget.check().map_err(|e| Failure::one(e, None))?;
    let whole = |answer: Answer, out: &mut dyn std::io::Write| match format {
        TableFormat::Csv => super::write_csv(&answer, out).map_err(|e| Failure::one(e, None)),
        TableFormat::Json => Ok(out.write_all(super::json_text(&answer).as_bytes())),
    };
    if loaded.game.is_partizan() {
        return whole(table(loaded, args.upto, table_options(args), limits)?, out);
    }
    let mut solver = Solver::within(&loaded.game, limits.clone());
    let made = crate::analysis::stream_table(&mut solver, args.upto, table_options(args));
    match made.map_err(|e| table_failure(loaded, e))? {
        crate::analysis::TableStream::Whole(t) => whole(Answer::Table(t), out),
        crate::analysis::TableStream::Rows(rows) => {
            let written = match format {
                TableFormat::Csv => rows.write_csv(out),
                TableFormat::Json => rows.write_json(out),
            };
            match written {
                Ok(()) => Ok(Ok(())),
                Err(crate::analysis::StreamError::Io(e)) => Ok(Err(e)),
                Err(crate::analysis::StreamError::Stopped(e)) => {
                    Err(table_failure(loaded, crate::analysis::TableError::Solve(e)))
                }
            }
        }
    }
}
