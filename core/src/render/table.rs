//! How a table is shown: text for a terminal, JSON, and CSV for a spreadsheet.

use crate::wording::{give_value, Argument};
use serde_json::{json, Value as Json};
use unicode_width::UnicodeWidthStr;

use crate::analysis::periods::Periodicity;
use crate::analysis::table::csv::{csv_header, RowNumber, CSV_BLOCK};
use crate::analysis::table::stream::{OnePileJson, Rows};
use crate::analysis::{LastGrid, Table, TableShape};
use crate::solve::Outcome;

fn grundy_text(g: Option<u64>) -> String {
    g.map(|g| g.to_string()).unwrap_or_else(|| "-".into())
}

impl Table {
    /// The table as JSON.
    pub(crate) fn to_json(&self) -> Json {
        let outcomes: Vec<Vec<&str>> =
            self.outcomes.iter().map(|row| row.iter().map(|o| o.letter()).collect()).collect();
        match self.shape {
            TableShape::OnePile => {
                // The fields a streamed table writes too, in its order (`stream::OnePileJson`).
                let rows =
                    Rows { outcomes: &self.outcomes[0], grundy: &self.grundy[0], p_positions: &self.p_positions };
                let mut one = serde_json::to_value(OnePileJson { table: self, rows }).unwrap_or_else(|_| json!({}));
                if let (Some(m), Some(map)) = (&self.misere, one.as_object_mut()) {
                    map.insert("misere_grundy".into(), json!(m.grundy));
                    map.insert("genus".into(), json!(m.genus));
                    map.insert("tame".into(), json!(m.tame));
                    map.insert("phi".into(), json!(m.phi));
                    map.insert("misere_notes".into(), json!(m.notes));
                }
                if let (Some(values), Some(map)) = (&self.loopy_values, one.as_object_mut()) {
                    map.insert("generalised_grundy".into(), json!(values));
                }
                if let (Some(grid), Some(map)) = (&self.by_last, one.as_object_mut()) {
                    let outcomes: Vec<Vec<&str>> =
                        grid.outcomes.iter().map(|row| row.iter().map(|o| o.letter()).collect()).collect();
                    map.insert(
                        "by_last".into(),
                        json!({ "last_from": 1, "outcomes": outcomes, "grundy": grid.grundy }),
                    );
                }
                one
            }
            TableShape::TwoPiles => json!({
                "game": self.game,
                "upto": self.upto,
                "piles": 2,
                "outcomes": outcomes,
                "grundy": self.grundy,
                "p_positions": self.p_positions,
                "pattern": self.pattern,
            }),
            TableShape::Rectangles => json!({
                "game": self.game,
                "upto": self.upto,
                "board": "rectangles",
                "outcomes": outcomes,
                "grundy": self.grundy,
                "p_positions": self.p_positions,
            }),
            TableShape::ManyPiles { piles } => json!({
                "game": self.game,
                "upto": self.upto,
                "piles": piles,
                "positions": self.positions,
                "outcomes": outcomes[0],
                "grundy": self.grundy[0],
                "p_positions": self.p_positions,
                "pattern": self.pattern,
            }),
            TableShape::Cells => json!({
                "game": self.game,
                "upto": self.upto,
                "board": "cells",
                "from": 1,
                "outcomes": outcomes,
                "grundy": self.grundy,
                "p_positions": self.p_positions,
                "rule": self.cell_rule,
            }),
        }
    }

    /// One row per position, with the text table's columns, for a spreadsheet.
    pub(crate) fn to_csv(&self) -> String {
        let mut bytes = Vec::new();
        // Writing to memory does not fail.
        let _ = self.write_csv(&mut bytes);
        // Only whole texts went in, so the bytes are UTF-8.
        String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// `to_csv`'s text, written to `out` a block of rows at a time: a table of a million rows
    /// is never held whole (its text would be fresh memory, a page fault every 4 KiB).
    pub(crate) fn write_csv(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let cell = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        match self.shape {
            TableShape::OnePile => {
                let mut bytes = csv_header(self);
                let last_column: &[u8] = if self.by_last.is_some() { b"," } else { b"" };
                // Written in place, row by row, as bytes: a table of a million rows is mostly
                // this loop, and a `char` pushed is encoded first. (itoa: the formatting
                // machinery costs more than the rest of a row.)
                let mut digits = itoa::Buffer::new();
                let mut write_cell = |bytes: &mut Vec<u8>, v: Option<u64>| {
                    bytes.push(b',');
                    if let Some(v) = v {
                        bytes.extend_from_slice(digits.format(v).as_bytes());
                    }
                };
                let mut row = RowNumber::default();
                bytes.reserve(CSV_BLOCK + 256);
                let plain = self.misere.is_none() && self.loopy_values.is_none() && self.remoteness.is_none();
                if plain {
                    // The common table, of outcomes and Grundy values only: each row is put
                    // together on the stack and copied once (a copy of a few bytes costs a
                    // call, most of a row's cost when each cell is copied apart).
                    let mut line = [0u8; 64];
                    let mut value_digits = itoa::Buffer::new();
                    for (o, g) in self.outcomes[0].iter().zip(&self.grundy[0]) {
                        let mut len = 0;
                        let mut put = |text: &[u8]| {
                            for &b in text {
                                line[len] = b;
                                len += 1;
                            }
                        };
                        put(row.text());
                        row.advance();
                        put(last_column);
                        put(b",");
                        put(o.letter().as_bytes());
                        put(b",");
                        if let Some(g) = *g {
                            put(value_digits.format(g).as_bytes());
                        }
                        put(b"\n");
                        bytes.extend_from_slice(&line[..len]);
                        if bytes.len() >= CSV_BLOCK {
                            out.write_all(&bytes)?;
                            bytes.clear();
                        }
                    }
                } else {
                    for (i, o) in self.outcomes[0].iter().enumerate() {
                        bytes.extend_from_slice(row.text());
                        row.advance();
                        bytes.extend_from_slice(last_column);
                        bytes.push(b',');
                        bytes.extend_from_slice(o.letter().as_bytes());
                        match &self.misere {
                            Some(m) => {
                                let tame = match m.tame[i] {
                                    Some(true) => "tame",
                                    Some(false) => "wild",
                                    None => "",
                                };
                                write_cell(&mut bytes, m.grundy[i]);
                                let (genus, phi) =
                                    (m.genus[i].as_deref().unwrap_or(""), m.phi[i].as_deref().unwrap_or(""));
                                bytes.extend_from_slice(format!(",{genus},{tame},{phi}").as_bytes());
                            }
                            None => match &self.loopy_values {
                                Some(values) => bytes.extend_from_slice(format!(",{}", values[i]).as_bytes()),
                                None => write_cell(&mut bytes, self.grundy[0][i]),
                            },
                        }
                        if let Some(r) = &self.remoteness {
                            write_cell(&mut bytes, r[i]);
                        }
                        bytes.push(b'\n');
                        if bytes.len() >= CSV_BLOCK {
                            out.write_all(&bytes)?;
                            bytes.clear();
                        }
                    }
                }
                out.write_all(&bytes)?;
                if let Some(grid) = &self.by_last {
                    let remoteness = if self.remoteness.is_some() { "," } else { "" };
                    for (i, row) in grid.outcomes.iter().enumerate() {
                        for (j, o) in row.iter().enumerate() {
                            let g = cell(grid.grundy[i][j]);
                            writeln!(out, "{i},{},{},{g}{remoteness}", j + 1, o.letter())?;
                        }
                    }
                }
            }
            TableShape::ManyPiles { piles } => {
                let names: Vec<String> = (1..=piles).map(|i| format!("pile{i}")).collect();
                writeln!(out, "{},outcome,grundy", names.join(","))?;
                for ((position, o), g) in self.positions.iter().zip(&self.outcomes[0]).zip(&self.grundy[0]) {
                    let piles: Vec<String> = position.iter().map(|p| p.to_string()).collect();
                    writeln!(out, "{},{},{}", piles.join(","), o.letter(), cell(*g))?;
                }
            }
            TableShape::TwoPiles | TableShape::Rectangles | TableShape::Cells => {
                let (a, b, first) = match self.shape {
                    TableShape::TwoPiles => ("a", "b", 0),
                    TableShape::Rectangles => ("rows", "columns", 1),
                    _ => ("x", "y", 1),
                };
                writeln!(out, "{a},{b},outcome,grundy")?;
                for (i, row) in self.outcomes.iter().enumerate() {
                    for (j, o) in row.iter().enumerate() {
                        let g = self.grundy.get(i).and_then(|r| r.get(j)).copied().flatten();
                        writeln!(out, "{},{},{},{}", i + first, j + first, o.letter(), cell(g))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The table as a reader sees it.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        match self.shape {
            TableShape::OnePile => {
                out.push_str(&match self.coins {
                    true => format!("{}: one coin showing heads, at n = 1..{} (0: none)\n", self.game, self.upto),
                    false => format!("{}: one pile of n = 0..{}\n", self.game, self.upto),
                });
                let mut header = match self.misere {
                    Some(_) => vec!["n", "outcome", "G⁻", "genus", "tame", "Φ"],
                    None => vec!["n", "outcome", "Grundy"],
                };
                if self.remoteness.is_some() {
                    header.push("remoteness");
                }
                let row = |n: usize| {
                    let mut row = vec![n.to_string(), self.outcomes[0][n].letter().to_string()];
                    if let Some(m) = &self.misere {
                        let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
                        row.push(grundy_text(m.grundy[n]));
                        row.push(shown(&m.genus[n]));
                        row.push(match m.tame[n] {
                            Some(true) => "tame".into(),
                            Some(false) => "wild".into(),
                            None => "-".into(),
                        });
                        row.push(shown(&m.phi[n]));
                    } else {
                        row.push(match &self.loopy_values {
                            Some(values) => values[n].clone(),
                            None => grundy_text(self.grundy[0][n]),
                        });
                    }
                    if let Some(r) = &self.remoteness {
                        row.push(grundy_text(r[n]));
                    }
                    row
                };
                right_aligned(&header, self.outcomes[0].len(), row, &mut out);
                let ps: Vec<String> = self.p_positions.iter().map(|p| p[0].to_string()).collect();
                out.push_str(&format!("P-positions: {}\n", ps.join(", ")));
                let draws: Vec<String> = (0..self.outcomes[0].len())
                    .filter(|&n| self.outcomes[0][n] == Outcome::D)
                    .map(|n| n.to_string())
                    .collect();
                if !draws.is_empty() {
                    out.push_str(&format!("draws: {}\n", draws.join(", ")));
                }
                for note in self.misere.iter().flat_map(|m| &m.notes) {
                    out.push_str(&format!("{note}\n"));
                }
                if let Some(grid) = &self.by_last {
                    out.push_str(&grid.to_text());
                }
            }
            TableShape::TwoPiles => {
                out.push_str(&format!("{}: two piles, each of 0..{}\n", self.game, self.upto));
                let all_values = self.grundy.iter().flatten().all(Option::is_some);
                if self.upto <= 30 && all_values {
                    // The Grundy values themselves, as a teacher draws them: 0 at the P-positions.
                    out.push_str("Grundy values (0 marks a P-position):\n");
                    out.push_str(&value_grid("a\\b", &self.outcomes, &self.grundy, (0, 0), 30));
                } else if self.upto <= 30 {
                    out.push_str(&self.grid("a\\b", 0));
                }
                let ps: Vec<String> = self.p_positions.iter().map(|p| format!("({}, {})", p[0], p[1])).collect();
                out.push_str(&format!("P-positions (a ≤ b): {}\n", ps.join(", ")));
            }
            TableShape::Rectangles => {
                out.push_str(&format!(
                    "{}: rectangles of 1..{} rows (down) by 1..{} columns (across)\n",
                    self.game, self.upto, self.upto
                ));
                if self.upto <= 30 {
                    out.push_str(&self.grid("r\\c", 1));
                }
                let ps: Vec<String> = self.p_positions.iter().map(|p| format!("{}×{}", p[0], p[1])).collect();
                out.push_str(&format!("P-positions: {}\n", ps.join(", ")));
            }
            TableShape::ManyPiles { piles } => out.push_str(&self.many_piles_text(piles)),
            TableShape::Cells => {
                let what = if self.grundy_note.is_some() { "outcomes" } else { "Grundy values" };
                out.push_str(&format!(
                    "{}: one cell (x, y), x = 1..{} (down), y = 1..{} (across): {what}\n",
                    self.game, self.upto, self.upto
                ));
                if self.upto > 30 {
                    out.push_str(&format!(
                        "(the grid is shown up to 30; {} gives all of it)\n",
                        give_value(Argument::Format, "json")
                    ));
                }
                out.push_str(&value_grid("x\\y", &self.outcomes, &self.grundy, (1, 1), 30));
                out.push_str("(0 or P marks a P-position: the player to move loses)\n");
                if let Some(rule) = &self.cell_rule {
                    out.push_str(&format!("rule: {rule}\n"));
                }
            }
        }
        if let Some(pattern) = &self.pattern {
            out.push_str(&format!("pattern: the P-positions are {pattern} (as far as the table goes)\n"));
        }
        if let Some(p) = &self.period {
            out.push_str(&format!("period: {}\n", period_text(p)));
        } else if let Some(to) = self.no_period_to {
            out.push_str(&format!("period: none found in the values of 0..{to}\n"));
        }
        // A period that was not looked for (the values to look through passed the limits, or
        // the game has none to look for, as in misère play) is not worth a line of text; the
        // JSON says so (`period_not_looked`), and `takeaway period` looks as far as asked.
        if let Some(note) = self.grundy_note {
            out.push_str(note);
            out.push('\n');
        }
        out
    }

    /// The P-positions of a table of three or more piles, a line for each smallest pile.
    fn many_piles_text(&self, piles: usize) -> String {
        let letters: Vec<char> = ('a'..='z').take(piles.min(26)).collect();
        let order = match piles {
            2..=26 => letters.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ≤ "),
            _ => "ascending".to_string(),
        };
        let mut out = format!(
            "{}: {piles} piles, each of 0..{}; each position once, its piles in ascending order ({order})\n",
            self.game, self.upto
        );
        let count = self.positions.len();
        out.push_str(&format!("P-positions: {} of the {count} positions\n", self.p_positions.len()));
        // A line for each smallest pile, wrapped: a teacher reads them down the page.
        const WIDTH: usize = 92;
        let mut line = String::new();
        let mut smallest = None;
        for p in &self.p_positions {
            let text: Vec<String> = p.iter().map(|x| x.to_string()).collect();
            let text = text.join(" ");
            let new_group = smallest != p.first().copied();
            if !line.is_empty() && (new_group || line.len() + 3 + text.len() > WIDTH) {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            smallest = p.first().copied();
            line.push_str(if line.is_empty() { "  " } else { "   " });
            line.push_str(&text);
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        let draws = self.outcomes[0].iter().filter(|o| **o == Outcome::D).count();
        if draws > 0 {
            out.push_str(&format!(
                "draws: {draws} positions ({} lists every position)\n",
                give_value(Argument::Format, "csv")
            ));
        }
        out
    }

    /// A grid of outcomes, P (and D) marked and N shown as a dot so that the pattern stands out.
    fn grid(&self, corner: &str, first: u64) -> String {
        let mut header = vec![corner.to_string()];
        header.extend((0..self.outcomes.len() as u64).map(|i| (i + first).to_string()));
        let header: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
        let row = |i: usize| {
            let mut cells = vec![(i as u64 + first).to_string()];
            cells.extend(self.outcomes[i].iter().map(|o| match o {
                Outcome::N => "·".to_string(),
                other => other.letter().to_string(),
            }));
            cells
        };
        let mut out = String::new();
        right_aligned(&header, self.outcomes.len(), row, &mut out);
        let draws = self.outcomes.iter().flatten().any(|o| *o == Outcome::D);
        out.push_str(if draws {
            "(P: the player to move loses; ·: an N-position, the player to move wins; D: a draw)\n"
        } else {
            "(P: the player to move loses; ·: an N-position, the player to move wins)\n"
        });
        out
    }
}

impl LastGrid {
    /// Grundy values, or outcome letters where a game has none (misère play).
    fn to_text(&self) -> String {
        let upto = self.outcomes.len().saturating_sub(1);
        let mut out = format!("\nafter a move of last = 1..{upto} (across), one pile of n (down): Grundy values\n");
        if upto > 30 {
            out.push_str(&format!(
                "(the grid is shown up to 30; {} gives all of it)\n",
                give_value(Argument::Format, "json")
            ));
        }
        out.push_str(&value_grid("n\\last", &self.outcomes, &self.grundy, (0, 1), 30));
        out.push_str("(0 marks a P-position: the player to move loses)\n");
        out
    }
}

/// A grid of Grundy values (outcome letters where there are none), rows numbered from
/// `first_row` and columns from 1, at most `shown` columns and rows past the first.
fn value_grid(
    corner: &str,
    outcomes: &[Vec<Outcome>],
    grundy: &[Vec<Option<u64>>],
    (first_row, first_column): (usize, usize),
    shown: usize,
) -> String {
    let columns = outcomes.first().map_or(0, |r| r.len()).min(shown);
    let mut header = vec![corner.to_string()];
    header.extend((first_column..first_column + columns).map(|l| l.to_string()));
    let header: Vec<&str> = header.iter().map(|s| s.as_str()).collect();
    let rows = outcomes.len().min(shown + 1 - first_row);
    let row = |i: usize| {
        let mut cells = vec![(i + first_row).to_string()];
        cells.extend(outcomes[i].iter().zip(&grundy[i]).take(columns).map(|(o, g)| match g {
            Some(g) => g.to_string(),
            None => o.letter().to_string(),
        }));
        cells
    };
    let mut out = String::new();
    right_aligned(&header, rows, row, &mut out);
    out
}

fn period_text(p: &Periodicity) -> String {
    let what = if p.of == "grundy" { "Grundy values" } else { "outcomes" };
    let shape = if p.saltus == 0 {
        format!("{what} repeat with period {} from n = {} (preperiod {})", p.period, p.preperiod, p.preperiod)
    } else {
        format!(
            "{what} grow by {} every {} from n = {}: G(n + {}) = G(n) + {}",
            p.saltus, p.period, p.preperiod, p.period, p.saltus
        )
    };
    match p.theorem {
        Some(theorem) => format!("{shape}; proven by {theorem} (checked to {})", p.checked_to),
        None => format!("{shape}; apparent, checked to {}", p.checked_to),
    }
}

/// Columns aligned right under their headers, a space of padding each side of a cell, each
/// line's trailing spaces trimmed. Written out row by row rather than through a table crate,
/// which holds every cell of a million-row table as an object (a gigabyte) before printing.
fn right_aligned(header: &[&str], rows: usize, row: impl Fn(usize) -> Vec<String>, out: &mut String) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for n in 0..rows {
        for (w, cell) in widths.iter_mut().zip(row(n)) {
            *w = (*w).max(cell.width());
        }
    }
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let start = out.len();
        for (cell, w) in cells.zip(&widths) {
            out.push(' ');
            out.extend(std::iter::repeat_n(' ', w.saturating_sub(cell.width())));
            out.push_str(cell);
            out.push(' ');
        }
        let kept = out[start..].trim_end().len();
        out.truncate(start + kept);
        out.push('\n');
    };
    line(&mut header.iter().copied());
    for n in 0..rows {
        let cells = row(n);
        line(&mut cells.iter().map(String::as_str));
    }
}
