//! Thermographs as an SVG picture, drawn as the literature draws them: the temperature t up the
//! page from −1, the value x across with Left's side (larger x) on the left, each position's
//! two walls up to where they meet and the mast above, several positions overlaid in colours,
//! the mean and the temperature of each labelled on the axes.

use std::fmt::Write;

use super::plot::{escape, FONT};
use crate::analysis::heat::ThermographPlot;

const COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

/// The picture: one thermograph a position, overlaid.
pub(super) fn svg(plot: &ThermographPlot) -> String {
    let drawn: Vec<_> = plot.thermographs.iter().map(|t| &t.drawn).collect();
    // The ranges: t from −1 to a little above the hottest mast's foot; x around every corner.
    let t_top = drawn.iter().map(|d| d.temperature).fold(0.0f64, f64::max) + 1.0;
    let xs = drawn.iter().flat_map(|d| d.left.iter().chain(&d.right).map(|p| p.1).chain([d.mean]));
    let (x_min, x_max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let (x_min, x_max) = (x_min.floor() - 1.0, x_max.ceil() + 1.0);
    let (left, top, width, height) = (80.0, 70.0, 560.0, 380.0);
    let legend_lines = plot.thermographs.len() as f64;
    let (w, h) = (left + width + 40.0, top + height + 70.0 + 22.0 * legend_lines);
    // Left (larger x) on the left of the page.
    let px = |x: f64| left + (x_max - x) / (x_max - x_min) * width;
    let py = |t: f64| top + (t_top - t) / (t_top + 1.0) * height;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
    );
    let title = format!("Thermographs of {}", plot.game);
    let _ = writeln!(s, "<text x=\"{left}\" y=\"32\" {FONT} font-size=\"22\">{}</text>", escape(&title));
    // The axes: t = 0 across (dashed), and a tick for every integer x and every whole t.
    let _ = writeln!(
        s,
        "<line x1=\"{left}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>",
        y = py(0.0),
        x2 = left + width
    );
    let _ = writeln!(
        s,
        "<line x1=\"{left}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"black\"/>",
        y = py(-1.0),
        x2 = left + width
    );
    let mut x = x_min;
    while x <= x_max {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"17\" text-anchor=\"middle\">{x}</text>",
            px(x),
            py(-1.0) + 20.0
        );
        x += 1.0;
    }
    let mut t = -1.0;
    while t <= t_top {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"17\" text-anchor=\"end\">{t}</text>",
            left - 8.0,
            py(t) + 5.0
        );
        t += 1.0;
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" {FONT} font-size=\"17\" text-anchor=\"middle\">x (Left's side ←, → Right's side)</text>",
        left + width / 2.0,
        py(-1.0) + 42.0
    );
    let _ = writeln!(
        s,
        "<text x=\"20\" y=\"{}\" {FONT} font-size=\"17\" transform=\"rotate(-90 20 {})\" text-anchor=\"middle\">temperature t</text>",
        top + height / 2.0,
        top + height / 2.0
    );
    for (i, th) in plot.thermographs.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let d = &th.drawn;
        for (side, corners, exact) in [("left", &d.left, &th.left_wall), ("right", &d.right, &th.right_wall)] {
            let points: Vec<String> = corners.iter().map(|&(t, x)| format!("{:.2},{:.2}", px(x), py(t))).collect();
            let exact: Vec<String> = exact.iter().map(|(t, x)| format!("{t}:{x}")).collect();
            let _ = writeln!(
                s,
                "<polyline data-wall=\"{side}\" data-position=\"{}\" data-corners=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\"/>",
                position(&th.position),
                exact.join(" "),
                points.join(" ")
            );
        }
        // The mast, from where the walls meet to the top.
        let _ = writeln!(
            s,
            "<line data-mast=\"{}\" x1=\"{x:.2}\" y1=\"{y1:.2}\" x2=\"{x:.2}\" y2=\"{y2:.2}\" stroke=\"{colour}\" stroke-width=\"2.5\"/>",
            th.mean,
            x = px(d.mean),
            y1 = py(d.temperature.max(-1.0)),
            y2 = top
        );
        // The temperature and the mean marked on the axes.
        let _ = writeln!(
            s,
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"4\" fill=\"{colour}\"/>",
            px(d.mean),
            py(d.temperature.max(-1.0))
        );
        let label =
            format!("{}: value {}, mean {}, temperature {}", position(&th.position), th.value, th.mean, th.temperature);
        let _ = writeln!(
            s,
            "<text x=\"{left}\" y=\"{}\" {FONT} font-size=\"17\" fill=\"{colour}\">{}</text>",
            py(-1.0) + 70.0 + 22.0 * i as f64,
            escape(&label)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn position(piles: &[u64]) -> String {
    piles.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}
