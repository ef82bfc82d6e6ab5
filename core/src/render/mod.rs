//! Answers as people and programs read them: text for a terminal, JSON, CSV for a
//! spreadsheet, SVG for a picture. Every front end renders through here, so the same answer
//! reads the same in the command line, the REPL, Python and the web page.

mod explain;
mod table;
mod table_file;

pub use crate::diagnostics::printable;
pub use crate::vocab::grouped;
pub use table_file::{write_table, TableFormat};
mod plot;
mod thermograph;

use serde_json::{json, Value as Json};

use crate::api::{Answer, CheckReport, Failure, Plot, RequestError};

/// One diagnostic as a terminal shows it: its code, message, the lines of `source` it points
/// at with their labels, and its help; in colour when asked.
pub fn diagnostic(
    diagnostic: &dyn miette::Diagnostic,
    source: Option<&crate::diagnostics::Source>,
    color: bool,
) -> String {
    crate::diagnostics::render(diagnostic, source, color)
}

/// The answer as text, as the command line prints it.
pub fn text(answer: &Answer) -> String {
    match answer {
        Answer::Check(c) => check_text(c),
        Answer::Solve(r) => r.to_text(),
        Answer::BigSolve(r) => r.to_text(),
        Answer::PartizanSolve(r) => r.to_text(),
        Answer::Explain(e) => e.to_text(),
        Answer::PartizanExplain(e) => e.to_text(),
        Answer::Table(t) => t.to_text(),
        Answer::PartizanTable(t) => t.to_text(),
        Answer::Plot(p) => svg(p),
        Answer::Quotient(q) => q.to_text(),
        Answer::Period(p) => p.to_text(),
        Answer::Compare(c) => c.to_text(),
        Answer::Play(p) => p.to_text(),
    }
}

/// The answer as one JSON value.
pub fn json(answer: &Answer) -> Json {
    fn value(v: &impl serde::Serialize) -> Json {
        // Answers are plain data (strings, numbers, lists): serialising them cannot fail.
        serde_json::to_value(v).expect("answers serialise")
    }
    match answer {
        Answer::Check(c) => value(c),
        Answer::Solve(r) => value(r),
        Answer::BigSolve(r) => value(r),
        Answer::PartizanSolve(r) => value(r),
        Answer::Explain(e) => value(e),
        Answer::PartizanExplain(e) => value(e),
        Answer::Table(t) => t.to_json(),
        Answer::PartizanTable(t) => value(t),
        // A thermograph's plot carries its walls as data too, beside the picture.
        Answer::Plot(Plot::Thermographs(t)) => {
            let mut data = value(t);
            data["svg"] = json!(thermograph::svg(t));
            data
        }
        Answer::Plot(p) => json!({ "svg": svg(p) }),
        Answer::Quotient(q) => q.to_json(),
        Answer::Period(p) => p.to_json(),
        Answer::Compare(c) => value(c),
        Answer::Play(p) => value(p),
    }
}

/// The answer as pretty JSON text with a final newline, as `--format json` prints it.
pub fn json_text(answer: &Answer) -> String {
    pretty(&json(answer))
}

/// A failure as one JSON value, as every front end gives it to a program: its kind, the first
/// code, every diagnostic as data, the diagnostics rendered as a terminal shows them, and what
/// was computed before it (a table's rows up to a limit).
pub fn failure_json(failure: &Failure) -> Json {
    json!({
        "kind": failure.kind().name(),
        "code": failure.code(),
        "diagnostics": failure.data(),
        "rendered": failure.render(false),
        "partial": failure.partial.as_deref().map(json),
    })
}

/// A JSON value as pretty text with a final newline.
pub fn pretty(value: &Json) -> String {
    format!("{}\n", serde_json::to_string_pretty(value).expect("JSON values always serialise"))
}

/// The answer as CSV: tables only.
pub fn csv(answer: &Answer) -> Result<String, RequestError> {
    match answer {
        Answer::Table(t) => Ok(t.to_csv()),
        Answer::PartizanTable(t) => Ok(t.to_csv()),
        _ => Err(RequestError::CsvIsForTables),
    }
}

/// A sweep's rows read back from the text of its rows file (JSON lines or CSV).
pub fn read_sweep_rows(
    text: &str,
    format: crate::analysis::sweep::rows::RowsFormat,
) -> Result<Vec<crate::analysis::sweep::SweepRow>, crate::analysis::sweep::rows::RowsError> {
    crate::analysis::sweep::rows::parse_rows(text, format, std::path::Path::new("the rows"))
}

/// A sweep's rows as JSON lines or CSV (the columns of the rows file).
pub fn sweep_rows(
    rows: &[crate::analysis::sweep::SweepRow],
    format: crate::analysis::sweep::rows::RowsFormat,
) -> String {
    crate::analysis::sweep::rows::render(rows, format)
}

/// One game's line as it finishes.
pub fn sweep_row_line(row: &crate::analysis::sweep::SweepRow) -> String {
    let mut line = format!("{:<10} ", row.game);
    match row.status {
        crate::analysis::sweep::RowStatus::Proven => line.push_str(&format!(
            "period {} from {} (proven from {} values)",
            row.period.unwrap_or(0),
            row.preperiod.unwrap_or(0),
            row.values_needed.unwrap_or(row.values_computed)
        )),
        crate::analysis::sweep::RowStatus::Open => {
            line.push_str(&format!("open to {} values", row.values_computed));
            if let (Some(p), Some(s)) = (row.apparent_period, row.apparent_saltus) {
                let pre = row.apparent_preperiod.unwrap_or(0);
                if s == 0 {
                    line.push_str(&format!(", apparent period {p} from {pre}"));
                } else {
                    line.push_str(&format!(", apparent arithmetic period {p} (saltus {s}) from {pre}"));
                }
            }
        }
        crate::analysis::sweep::RowStatus::Stopped => {
            line.push_str(&format!("stopped at {} values: {}", row.values_computed, row.error.as_deref().unwrap_or("")))
        }
        crate::analysis::sweep::RowStatus::Refused => {
            line.push_str(&format!("refused: {}", row.error.as_deref().unwrap_or("")))
        }
    }
    if let Some(v) = row.largest_value {
        line.push_str(&format!("; largest {v}"));
    }
    if let Some(r) = row.rare_values {
        line.push_str(&format!("; {r} rare"));
        if let Some(last) = row.last_rare {
            line.push_str(&format!(", the last at {last}"));
        }
    }
    line
}

/// What a sweep did, in a line or two: its rows by status, and its file.
pub fn sweep_summary(
    rows: &[crate::analysis::sweep::SweepRow],
    resumed: usize,
    out: Option<&std::path::Path>,
) -> String {
    let count = |s: crate::analysis::sweep::RowStatus| rows.iter().filter(|r| r.status == s).count();
    let same = rows.iter().filter(|r| r.same_values_as.is_some()).count();
    let mut text = format!(
        "{} games: {} proven, {} open, {} stopped, {} refused; {} with the same values as an earlier one\n",
        rows.len(),
        count(crate::analysis::sweep::RowStatus::Proven),
        count(crate::analysis::sweep::RowStatus::Open),
        count(crate::analysis::sweep::RowStatus::Stopped),
        count(crate::analysis::sweep::RowStatus::Refused),
        same
    );
    if let Some(path) = out {
        text.push_str(&format!("rows in {}", path.display()));
        if resumed > 0 {
            text.push_str(&format!(" ({resumed} read from it, not run again)"));
        }
        text.push('\n');
    }
    text
}

/// `csv`'s text, written to `out` as it is made: a large table is never held whole.
pub fn write_csv(answer: &Answer, out: &mut dyn std::io::Write) -> Result<std::io::Result<()>, RequestError> {
    match answer {
        Answer::Table(t) => Ok(t.write_csv(out)),
        Answer::PartizanTable(t) => Ok(out.write_all(t.to_csv().as_bytes())),
        _ => Err(RequestError::CsvIsForTables),
    }
}

/// The picture of a plot's values.
pub fn svg(plot: &Plot) -> String {
    match plot {
        Plot::Table(t) => plot::svg(t),
        Plot::Partizan(t) => plot::partizan_outcomes(t),
        Plot::TwoRows(b) => plot::two_row_chomp(&b.game, b.upto, &b.grundy, &b.outcomes),
        Plot::Thermographs(t) => thermograph::svg(t),
    }
}

/// What `check` prints: nothing for a right impartial game (silence is success); for a
/// partizan game, which lines are whose.
fn check_text(c: &CheckReport) -> String {
    if !c.partizan {
        return String::new();
    }
    let values = if c.misere {
        "positions have outcomes L, R, N and P (misère play has no canonical values)"
    } else {
        "positions have outcomes L, R, N, P and canonical values"
    };
    let mut out = format!("{} is partizan: Left and Right move differently, so {values}.\n", c.game);
    for rule in &c.rules {
        let whose = match rule.side {
            Some(side) => format!("{}'s only", side.name()),
            None => "both players'".into(),
        };
        out.push_str(&format!("  line {}: {} ({whose})\n", rule.line, rule.statement));
    }
    out
}
