//! `plot`: pictures for slides, as SVG. One pile: the Grundy values of 0..N as bars, the
//! P-positions marked (or, without Grundy values, the P-positions alone). Two piles or Chomp:
//! a map of the P-positions. Each has a title with the game's name and labelled axes.

use std::fmt::Write;

use crate::analysis::{Table, TableShape};
use crate::solve::Outcome;

/// The pictures' one font (the thermographs' too).
pub(super) const FONT: &str = "font-family=\"Helvetica, Arial, sans-serif\"";
const P_COLOUR: &str = "#d62728";
const BAR_COLOUR: &str = "#1f77b4";

/// Text made safe inside SVG (the thermographs' too).
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Round tick steps: 1, 2, 5, 10, 20, 50, … so that about `ticks` of them fit `range`.
fn tick_step(range: u64, ticks: u64) -> u64 {
    let rough = (range / ticks.max(1)).max(1);
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if step * m >= rough {
                return step * m;
            }
        }
        step *= 10;
    }
}

pub(super) fn svg(table: &Table) -> String {
    match table.shape {
        TableShape::OnePile => sequence(table),
        TableShape::TwoPiles | TableShape::Rectangles | TableShape::Cells => map(table),
        TableShape::ManyPiles { .. } => listing(table),
    }
}

/// Three or more piles have no picture of their own: their P-positions, written out.
fn listing(table: &Table) -> String {
    let lines: Vec<String> = table.to_text().lines().map(escape).collect();
    let height = 30 + 18 * lines.len();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"{height}\" font-family=\"monospace\" font-size=\"16\">\n"
    );
    for (i, line) in lines.iter().enumerate() {
        out.push_str(&format!("<text x=\"10\" y=\"{}\" xml:space=\"preserve\">{line}</text>\n", 24 + 18 * i));
    }
    out.push_str("</svg>\n");
    out
}

fn sequence(table: &Table) -> String {
    let (w, h) = (900.0, 440.0);
    let (left, right, top, bottom) = (60.0, 20.0, 60.0, 60.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let n = table.outcomes[0].len();
    // Under misère play the bars are G⁻, the misère Grundy value (0 exactly at P-positions too),
    // as far as the table computed it.
    let (grundy, kind, symbol): (Option<Vec<Option<u64>>>, &str, &str) = match &table.misere {
        Some(m) if m.grundy.iter().any(Option::is_some) => (Some(m.grundy.clone()), "Misère Grundy values", "G⁻"),
        _ => (
            table.grundy[0].iter().copied().collect::<Option<Vec<u64>>>().map(|g| g.into_iter().map(Some).collect()),
            "Grundy values",
            "G",
        ),
    };
    let max_value = grundy.as_ref().map(|g| g.iter().flatten().copied().max().unwrap_or(0)).unwrap_or(1).max(1);
    // More piles than the plot has pixels: one bar a run of piles, as a plotting library draws
    // what a screen can show and not every point (a plot of 100,000 piles was an 11 MB file).
    let per_bar = n.div_ceil(pw as usize).max(1);
    let bars = n.div_ceil(per_bar).max(1);
    let x = |i: f64| left + pw * (i + 0.5) / n as f64;
    let y = |v: f64| top + ph - ph * v / max_value as f64;
    let bar = (pw / n as f64 * 0.8).max(0.5);

    let mut s = String::new();
    let title = match grundy {
        Some(_) => format!("{kind} of {}, one pile of n = 0..{}", table.game, table.upto),
        None => format!("P-positions of {}, one pile of n = 0..{}", table.game, table.upto),
    };
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"28\" text-anchor=\"middle\" font-size=\"22\" {FONT}>{}</text>\n",
        w / 2.0,
        escape(&title)
    );
    // axes
    let _ = writeln!(
        s,
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{}\" stroke=\"black\"/>",
        top + ph,
        left + pw,
        top + ph,
        top + ph
    );
    let step = tick_step(n as u64, 12);
    for i in (0..n as u64).step_by(step as usize) {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" font-size=\"16\" {FONT}>{i}</text>",
            x(i as f64),
            top + ph + 18.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"18\" {FONT}>n (pile size)</text>",
        left + pw / 2.0,
        h - 18.0
    );
    match &grundy {
        Some(values) => {
            let vstep = tick_step(max_value, 8);
            let mut v = 0;
            while v <= max_value {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"16\" {FONT}>{v}</text>\n\
                     <line x1=\"{left}\" y1=\"{:.1}\" x2=\"{}\" y2=\"{:.1}\" stroke=\"#dddddd\"/>",
                    left - 6.0,
                    y(v as f64) + 4.0,
                    y(v as f64),
                    left + pw,
                    y(v as f64)
                );
                v += vstep;
            }
            let _ = writeln!(
                s,
                "<text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\" font-size=\"18\" {FONT}>{} value {symbol}(n)</text>",
                top + ph / 2.0,
                if symbol == "G" { "Grundy" } else { "misère Grundy" }
            );
            if per_bar > 1 {
                runs(&mut s, table, values, per_bar, bars, (left, top, pw, ph), symbol, &y);
            }
            for (i, g) in values.iter().enumerate().filter(|_| per_bar == 1) {
                let Some(g) = *g else {
                    if table.outcomes[0][i] == Outcome::P {
                        let _ = writeln!(
                            s,
                            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"{P_COLOUR}\"><title>n = {i}: P</title></circle>",
                            x(i as f64),
                            top + ph,
                            (bar / 2.0).clamp(1.5, 4.0)
                        );
                    }
                    continue;
                };
                if g == 0 {
                    let _ = writeln!(
                        s,
                        "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"{P_COLOUR}\"><title>n = {i}: P</title></circle>",
                        x(i as f64),
                        top + ph,
                        (bar / 2.0).clamp(1.5, 4.0)
                    );
                } else {
                    let _ = writeln!(
                        s,
                        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{:.1}\" fill=\"{BAR_COLOUR}\"><title>n = {i}: {symbol} = {g}</title></rect>",
                        x(i as f64) - bar / 2.0,
                        y(g as f64),
                        top + ph - y(g as f64)
                    );
                }
            }
        }
        None => {
            let none: Vec<Option<u64>> = vec![None; n];
            if per_bar > 1 {
                runs(&mut s, table, &none, per_bar, bars, (left, top, pw, ph), symbol, &y);
            }
            for (i, o) in table.outcomes[0].iter().enumerate().filter(|_| per_bar == 1) {
                if *o == Outcome::P {
                    let _ = writeln!(
                        s,
                        "<rect x=\"{:.1}\" y=\"{top}\" width=\"{bar:.1}\" height=\"{ph}\" fill=\"{P_COLOUR}\"><title>n = {i}: P</title></rect>",
                        x(i as f64) - bar / 2.0
                    );
                }
            }
        }
    }
    legend(
        &mut s,
        w - right - 220.0,
        46.0,
        grundy.is_some().then_some(if symbol == "G" { "Grundy value" } else { "G⁻" }),
    );
    s.push_str("</svg>\n");
    s
}

/// The bars of a plot of more piles than pixels: each the largest value of `per_bar` piles in
/// a row, with a P mark under it where the run has a P-position, and the run and its figures
/// in its title; a note under the title says how many piles a bar is.
#[allow(clippy::too_many_arguments)]
fn runs(
    s: &mut String,
    table: &Table,
    values: &[Option<u64>],
    per_bar: usize,
    bars: usize,
    (left, top, pw, ph): (f64, f64, f64, f64),
    symbol: &str,
    y: &dyn Fn(f64) -> f64,
) {
    let width = pw / bars as f64;
    let _ = writeln!(
        s,
        "<text x=\"{left}\" y=\"50\" font-size=\"16\" {FONT}>each bar: the largest of {per_bar} piles in a row</text>"
    );
    for (b, start) in (0..values.len()).step_by(per_bar).enumerate() {
        let end = (start + per_bar).min(values.len());
        let largest = values[start..end].iter().flatten().copied().max();
        let p_count = table.outcomes[0][start..end].iter().filter(|o| **o == Outcome::P).count();
        let cx = left + width * (b as f64 + 0.5);
        let last = end - 1;
        if let Some(g) = largest.filter(|g| *g > 0) {
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.2}\" height=\"{:.1}\" fill=\"{BAR_COLOUR}\"><title>n = {start}..{last}: {symbol} up to {g}</title></rect>",
                cx - width / 2.0,
                y(g as f64),
                width,
                top + ph - y(g as f64)
            );
        }
        if p_count > 0 {
            let _ = writeln!(
                s,
                "<circle cx=\"{cx:.1}\" cy=\"{:.1}\" r=\"1.5\" fill=\"{P_COLOUR}\"><title>n = {start}..{last}: {p_count} P-positions</title></circle>",
                top + ph
            );
        }
    }
}

fn legend(s: &mut String, x: f64, y: f64, bars: Option<&str>) {
    let _ = writeln!(
        s,
        "<rect x=\"{x}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{P_COLOUR}\"/><text x=\"{}\" y=\"{}\" font-size=\"16\" {FONT}>P-position</text>",
        y - 9.0,
        x + 14.0,
        y
    );
    if let Some(bars) = bars {
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{BAR_COLOUR}\"/><text x=\"{}\" y=\"{y}\" font-size=\"16\" {FONT}>{bars}</text>",
            x + 90.0,
            y - 9.0,
            x + 104.0
        );
    }
}

/// What a map draws: a square grid of outcomes (and values), its title and axes.
struct Grid<'t> {
    title: String,
    xlabel: &'static str,
    ylabel: &'static str,
    outcomes: &'t [Vec<Outcome>],
    grundy: &'t [Vec<Option<u64>>],
    /// the number of the first row and column
    first: usize,
    /// shade the cells by Grundy value (a heat map), not only the P-positions
    heat: bool,
}

fn map(table: &Table) -> String {
    let rect = table.shape == TableShape::Rectangles;
    let product = table.shape == TableShape::Cells;
    // Products, and two-pile games whose values are known, are shaded by Grundy value (a heat
    // map, darker for larger), the P-positions in red.
    let heat = product || (table.shape == TableShape::TwoPiles && table.grundy.iter().flatten().all(Option::is_some));
    let (title, xlabel, ylabel) = if product {
        (format!("Grundy values of {}: cells (x, y) up to ({}, {})", table.game, table.upto, table.upto), "y", "x")
    } else if rect {
        (format!("P-positions of {}: rectangles up to {}×{}", table.game, table.upto, table.upto), "columns", "rows")
    } else if heat {
        (
            format!("Grundy values of {}: two piles up to {}", table.game, table.upto),
            "b (second pile)",
            "a (first pile)",
        )
    } else {
        (format!("P-positions of {}: two piles up to {}", table.game, table.upto), "b (second pile)", "a (first pile)")
    };
    let first = if rect || product { 1 } else { 0 };
    draw_grid(&Grid { title, xlabel, ylabel, outcomes: &table.outcomes, grundy: &table.grundy, first, heat })
}

/// Chomp's boards of two rows, a heat map of their Grundy values: bottom row a (up), top row
/// b ≤ a (across). The P-positions lie on the line b = a − 1 (the top row one shorter), which a
/// class can see, where the rectangles alone show only the poisoned square.
pub(super) fn two_row_chomp(game: &str, upto: u64, grundy: &[Vec<Option<u64>>], outcomes: &[Vec<Outcome>]) -> String {
    draw_grid(&Grid {
        title: format!("Grundy values of {game}: boards of two rows, up to {upto} squares each"),
        xlabel: "b (top row)",
        ylabel: "a (bottom row)",
        outcomes,
        grundy,
        first: 0,
        heat: true,
    })
}

fn draw_grid(grid: &Grid) -> String {
    let Grid { title, xlabel, ylabel, outcomes, grundy, first, heat } = grid;
    let (xlabel, ylabel, first, heat) = (*xlabel, *ylabel, *first, *heat);
    let cells = outcomes.len();
    let largest = grundy.iter().flatten().flatten().copied().max().unwrap_or(0).max(1);
    let (left, top, right, bottom) = (70.0, 60.0, 30.0, 60.0);
    let size = 600.0f64;
    let cell = size / cells as f64;
    let (w, h) = (left + size + right, top + size + bottom);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"30\" text-anchor=\"middle\" font-size=\"22\" {FONT}>{}</text>\n\
         <rect x=\"{left}\" y=\"{top}\" width=\"{size}\" height=\"{size}\" fill=\"none\" stroke=\"black\"/>\n",
        w / 2.0,
        escape(title)
    );
    // a grows upward from the bottom left, like a chart
    for (a, row) in outcomes.iter().enumerate() {
        for (b, o) in row.iter().enumerate() {
            let (fill, what) = match (*o, grundy[a][b]) {
                // A cell with no value and no P is not a position (a Chomp top row longer
                // than the bottom one): left blank.
                (_, None) if heat => continue,
                (Outcome::P, _) => (P_COLOUR.to_string(), "P".to_string()),
                (_, Some(g)) if heat => {
                    let shade = 235 - (g.min(largest) * 180 / largest) as u32;
                    (format!("rgb({shade},{shade},{shade})"), g.to_string())
                }
                _ => continue,
            };
            let _ = writeln!(
                s,
                "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"{fill}\"><title>({}, {}): {what}</title></rect>",
                left + b as f64 * cell,
                top + size - (a + 1) as f64 * cell,
                cell,
                cell,
                a + first,
                b + first
            );
        }
    }
    let step = tick_step(cells as u64, 10) as usize;
    for i in (0..cells).step_by(step) {
        let c = (i as f64 + 0.5) * cell;
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" font-size=\"16\" {FONT}>{}</text>\n\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"16\" {FONT}>{}</text>",
            left + c,
            top + size + 18.0,
            i + first,
            left - 6.0,
            top + size - c + 4.0,
            i + first
        );
    }
    if heat {
        // The legend: red for P, then the shades of 1, half the largest value, and the largest.
        let mut x = left + size - 300.0;
        let mut swatch = |fill: String, label: String, s: &mut String| {
            let _ = writeln!(
                s,
                "<rect x=\"{x:.1}\" y=\"40\" width=\"10\" height=\"10\" fill=\"{fill}\" stroke=\"#999999\"/><text x=\"{:.1}\" y=\"49\" font-size=\"16\" {FONT}>{label}</text>",
                x + 14.0
            );
            x += 75.0;
        };
        swatch(P_COLOUR.to_string(), "P (0)".into(), &mut s);
        for g in [1, largest.div_ceil(2), largest] {
            let shade = 235 - (g.min(largest) * 180 / largest) as u32;
            swatch(format!("rgb({shade},{shade},{shade})"), format!("G = {g}"), &mut s);
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"18\" {FONT}>{xlabel}</text>\n\
         <text transform=\"translate(20 {}) rotate(-90)\" text-anchor=\"middle\" font-size=\"18\" {FONT}>{ylabel}</text>",
        left + size / 2.0,
        h - 16.0,
        top + size / 2.0
    );
    s.push_str("</svg>\n");
    s
}

/// Colours of the four outcome classes of a partizan game.
const OUTCOME_COLOURS: [(&str, &str, &str); 4] = [
    ("L", "#1f77b4", "L: Left wins"),
    ("R", "#d62728", "R: Right wins"),
    ("N", "#f2b134", "N: the player to move wins"),
    ("P", "#7f7f7f", "P: the player to move loses"),
];

/// A partizan game's outcome classes of one pile of 0..N: a strip of squares, one per pile,
/// coloured by class, in rows of 50, with a legend.
pub(super) fn partizan_outcomes(table: &crate::analysis::partizan::PartizanTable) -> String {
    let per_row = 50usize;
    let n = table.rows.len();
    let rows = n.div_ceil(per_row).max(1);
    let cell = 16.0;
    let (left, top) = (60.0, 70.0);
    let w = left + per_row as f64 * cell + 40.0;
    let h = top + rows as f64 * cell + 90.0;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let title = format!("Outcome classes of {}, one pile of n = 0..{}", table.game, n.saturating_sub(1));
    let _ = writeln!(s, "<text x=\"{left}\" y=\"30\" {FONT} font-size=\"18\">{}</text>", escape(&title));
    for r in &table.rows {
        let i = r.n as usize;
        let (x, y) = (left + (i % per_row) as f64 * cell, top + (i / per_row) as f64 * cell);
        let colour = OUTCOME_COLOURS.iter().find(|c| c.0 == r.outcome.letter()).map(|c| c.1).unwrap_or("black");
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"><title>n = {}: {}</title></rect>",
            cell - 1.0,
            cell - 1.0,
            r.n,
            r.outcome.letter()
        );
        // The letter too, so that the classes read without the colours (a projector, a
        // printout in grey).
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"10\" fill=\"white\" text-anchor=\"middle\">{}</text>",
            x + (cell - 1.0) / 2.0,
            y + cell * 0.7,
            r.outcome.letter()
        );
    }
    // Column labels: n within a row is the row's label plus the column's.
    let columns = per_row.min(n);
    for column in (0..columns).step_by(5) {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"11\" text-anchor=\"middle\">+{column}</text>",
            left + column as f64 * cell + (cell - 1.0) / 2.0,
            top - 6.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"11\" text-anchor=\"end\">n</text>",
        left - 6.0,
        top - 6.0
    );
    for row in 0..rows {
        let y = top + row as f64 * cell + cell * 0.75;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{y}\" {FONT} font-size=\"11\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            row * per_row
        );
    }
    let ly = top + rows as f64 * cell + 30.0;
    for (k, (_, colour, label)) in OUTCOME_COLOURS.iter().enumerate() {
        let x = left + k as f64 * 200.0;
        let _ = writeln!(s, "<rect x=\"{x}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{colour}\"/>", ly - 10.0);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{ly}\" {FONT} font-size=\"16\">{}</text>", x + 18.0, escape(label));
    }
    if let Some(p) = &table.period {
        let _ = writeln!(
            s,
            "<text x=\"{left}\" y=\"{}\" {FONT} font-size=\"16\">period {} from n = {}: {}</text>",
            ly + 24.0,
            p.period,
            p.preperiod,
            escape(&p.behaviour)
        );
    }
    s.push_str("</svg>\n");
    s
}
