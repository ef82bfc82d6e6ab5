//! How an explanation reads as text (rendering, fed by the explanation's data): the mex of the options, the nim-sum column by column,
//! Schwenk's representation, the quotient's words, the winning reply to every move.

use crate::analysis::explain::*;
use crate::rules::Position;
use crate::solve::Outcome;

impl Step {
    /// The position the move leaves, as text.
    fn to_text(&self) -> String {
        Position::shown(&self.to, self.cells)
    }
}
/// The Grundy values of a sum's parts in binary, a row each, with every column's sum and parity.
fn columns_text(unit: &str, labels: &[String], values: &[u64], columns: &[Column]) -> String {
    columns_counted(unit, "Grundy", labels, values, columns, 2)
}

/// The binary columns of `values`, each column's count of 1s, and the count modulo `modulus`
/// (for 2: its parity, e or o).
fn columns_counted(
    unit: &str,
    value_head: &str,
    labels: &[String],
    values: &[u64],
    columns: &[Column],
    modulus: u64,
) -> String {
    let mut out = String::new();
    let heads: Vec<String> = columns.iter().map(|c| c.value.to_string()).collect();
    let widths: Vec<usize> = heads.iter().map(|h| h.len()).collect();
    let label_w = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1).max(4);
    let val_w = values.iter().map(|v| v.to_string().len()).max().unwrap_or(1).max(value_head.len()).max(6);
    let row = |label: &str, value: &str, cells: Vec<String>| -> String {
        let cells: Vec<String> = cells.iter().zip(&widths).map(|(c, w)| format!("{c:>w$}")).collect();
        format!("  {label:>label_w$}  {value:>val_w$}   {}\n", cells.join(" "))
    };
    out.push_str(&row(unit, value_head, heads.clone()));
    for (i, (label, v)) in labels.iter().zip(values).enumerate() {
        out.push_str(&row(label, &v.to_string(), columns.iter().map(|c| c.bits[i].to_string()).collect()));
    }
    out.push_str(&row("", "sum", columns.iter().map(|c| c.sum.to_string()).collect()));
    if modulus == 2 {
        out.push_str(&row(
            "",
            "parity",
            columns.iter().map(|c| if c.sum % 2 == 0 { "e".to_string() } else { "o".to_string() }).collect(),
        ));
    } else {
        out.push_str(&row(
            "",
            &format!("mod {modulus}"),
            columns.iter().map(|c| (c.sum % modulus).to_string()).collect(),
        ));
    }
    out
}

// ---- text --------------------------------------------------------------------------------------

fn outcome_words(o: Outcome) -> String {
    format!("{} ({})", o.letter(), o.meaning())
}

fn pos_text(piles: &[u64]) -> String {
    Position::new(piles.to_vec()).piles_text()
}

fn answers_text(out: &mut String, answers: &[Answer], more: usize) {
    if answers.is_empty() {
        return;
    }
    out.push_str("\nEvery move has a winning reply (a strategy for the second player):\n");
    for a in answers {
        let reply = match &a.reply {
            Some(r) => format!("answer: {}, to {}", r.description, r.to_text()),
            None => "no answer needed: the game is over".into(),
        };
        out.push_str(&format!("  {}, to {}  →  {}\n", a.played.description, a.played.to_text(), reply));
    }
    if more > 0 {
        out.push_str(&format!("  … and {more} more moves\n"));
    }
}

/// 1, 2, 3, 5, 8, …: each term the sum of the two before it.
fn is_fibonacci(h: &[u64]) -> bool {
    h.len() >= 4 && h[0] == 1 && h[1] == 2 && h.windows(3).all(|w| w[2] == w[0] + w[1])
}

fn set_text(values: &[u64]) -> String {
    format!("{{{}}}", values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", "))
}

impl Explanation {
    /// The explanation as a student reads it.
    pub(crate) fn to_text(&self) -> String {
        match self {
            Explanation::Mex { .. } => self.mex_text(),
            Explanation::NimSum { .. } => self.nim_sum_text(),
            Explanation::Schwenk { .. } => self.schwenk_text(),
            Explanation::Quotient { .. } => self.quotient_text(),
            Explanation::Options { .. } => self.options_text(),
            Explanation::Cells { .. } => self.cells_text(),
            Explanation::Moore { .. } => self.moore_text(),
        }
    }

    fn moore_text(&self) -> String {
        let Explanation::Moore { game, k, position, columns, outcome, winning, more_winning, answers, more_answers } =
            self
        else {
            return String::new();
        };
        let m = *k as u64 + 1;
        let mut out = format!(
            "{game}, position {}
",
            pos_text(position)
        );
        out.push_str(&format!(
            "A move takes from up to {k} piles. Moore's theorem: a position is P exactly when, in every\n\
             binary column, the count of 1s is a multiple of k + 1 = {m}.\n"
        ));
        out.push_str("Each pile in binary:\n");
        let labels: Vec<String> = position.iter().map(|p| p.to_string()).collect();
        out.push_str(&columns_counted("pile", "value", &labels, position, columns, m));
        let off: Vec<String> = columns.iter().filter(|c| c.sum % m != 0).map(|c| c.value.to_string()).collect();
        if off.is_empty() {
            out.push_str(&format!("Every column's count is a multiple of {m}.\n"));
        } else {
            out.push_str(&format!("The columns whose count is not a multiple of {m}: {}.\n", off.join(", ")));
        }
        out.push_str(&format!("outcome: {}\n", outcome_words(*outcome)));
        if *outcome == Outcome::P {
            out.push_str(&format!(
                "A move lowers 1 to {k} piles. In the highest column where a lowered pile changes, each\n\
                 of them turns a 1 into a 0 and no pile gains a 1 there, so that count falls by 1 to {k}:\n\
                 no longer a multiple of {m}. Every move leads to an N-position.\n"
            ));
            answers_text(&mut out, answers, *more_answers);
        } else if !winning.is_empty() {
            out.push_str(&format!(
                "From the highest such column down, make each count a multiple of {m}: a pile lowered in a\n\
                 higher column may take any bits below it, and where those cannot make up the count, as\n\
                 many more piles as the remainder turn their 1 there into a 0 (never more than {k} in all).\n"
            ));
            let heading = if winning.len() == 1 { "The winning move" } else { "The winning moves" };
            out.push_str(&format!("{heading}:\n"));
            for w in winning {
                out.push_str(&format!("  {}, to {}\n", w.description, w.to_text()));
            }
            if *more_winning {
                out.push_str("(there may be other winning moves: this is the one the construction finds)\n");
            }
        }
        out
    }

    fn mex_text(&self) -> String {
        let Explanation::Mex { game, unit, pile, options, more_options, values, mex, outcome, answers, smaller } = self
        else {
            return String::new();
        };
        let mut out = String::new();
        out.push_str(&match *unit {
            "coin" => format!("{game}, one coin showing heads, at {pile}\n"),
            _ => format!("{game}, one pile of {pile}\n"),
        });
        if options.is_empty() {
            out.push_str("No move is possible, so the Grundy value is mex{} = 0.\n");
        } else {
            out.push_str("Each move, and the Grundy value of what it leaves:\n");
            for o in options {
                let parts = match o.parts.as_slice() {
                    [] => "nothing left: 0".to_string(),
                    [(p, v)] => format!("G({p}) = {v}"),
                    many => {
                        let names: Vec<String> = many.iter().map(|(p, _)| format!("G({p})")).collect();
                        let vals: Vec<String> = many.iter().map(|(_, v)| v.to_string()).collect();
                        format!("{} = {} = {}", names.join(" ⊕ "), vals.join(" ⊕ "), o.grundy)
                    }
                };
                out.push_str(&format!("  {}, to {}: {}\n", o.step.description, o.step.to_text(), parts));
            }
            if *more_options > 0 {
                out.push_str(&format!("  … and {more_options} more moves\n"));
            }
            out.push_str(&format!("The values reached: {}\n", set_text(values)));
            out.push_str(&format!(
                "The Grundy value is the least number not among them: G({pile}) = mex{} = {mex}\n",
                set_text(values)
            ));
        }
        out.push_str(&format!("outcome: {}\n", outcome_words(*outcome)));
        // An N-position: the winning moves are those to a value of 0.
        let winning: Vec<&OptionValue> = options.iter().filter(|o| o.grundy == 0).collect();
        if *outcome == Outcome::N && !winning.is_empty() {
            let s = if winning.len() == 1 { "" } else { "s" };
            out.push_str(&format!("The winning move{s}: to a Grundy value of 0, a P-position:\n"));
            for o in winning {
                out.push_str(&format!("  {}, to {}\n", o.step.description, o.step.to_text()));
            }
        }
        answers_text(&mut out, answers, 0);
        if let Some(values) = smaller {
            out.push_str(&format!("The Grundy values the options read, G(0..{}):\n", pile.saturating_sub(1)));
            for (row, chunk) in values.chunks(20).enumerate() {
                let from = row * 20;
                let cells: Vec<String> = chunk.iter().map(|v| v.to_string()).collect();
                out.push_str(&format!("  G({from}..{}): {}\n", from + chunk.len() - 1, cells.join(" ")));
            }
        }
        out
    }

    fn nim_sum_text(&self) -> String {
        let Explanation::NimSum {
            game,
            unit,
            position,
            values,
            columns,
            nim_sum,
            outcome,
            winning,
            answers,
            more_answers,
        } = self
        else {
            return String::new();
        };
        let mut out = String::new();
        out.push_str(&format!("{game}, position {}\n", pos_text(position)));
        out.push_str(&format!("Each {unit}'s Grundy value, in binary:\n"));
        let labels: Vec<String> = position.iter().map(|p| p.to_string()).collect();
        out.push_str(&columns_text(unit, &labels, values, columns));
        let odd: Vec<String> = columns.iter().filter(|c| c.sum % 2 == 1).map(|c| c.value.to_string()).collect();
        if odd.is_empty() {
            out.push_str("The nim-sum (XOR) is 0: no column is odd.\n");
        } else {
            out.push_str(&format!("The nim-sum (XOR) is {nim_sum}: the odd columns are {}.\n", odd.join(", ")));
        }
        out.push_str(&format!("outcome: {}\n", outcome_words(*outcome)));
        if *nim_sum == 0 {
            out.push_str(&format!(
                "Every column is even. Any move changes one {unit}'s value, so some column becomes odd: \
                 every move leads to an N-position.\n"
            ));
            answers_text(&mut out, answers, *more_answers);
        } else if let Some(first) = winning.first() {
            out.push_str(&format!(
                "The highest odd column is {}. A {unit} whose value has a 1 there can be changed to make \
                 every column even: its value v must become v ⊕ {nim_sum}.\n",
                first.column
            ));
            for w in winning {
                let which = match *unit {
                    "coin" => format!("coin {}", w.pile),
                    _ => format!("the pile of {}", w.pile),
                };
                out.push_str(&format!("  {which}: value {} becomes {} ⊕ {nim_sum} = {}", w.value, w.value, w.target));
                if w.moves.is_empty() {
                    out.push_str(" (no single move reaches it)\n");
                } else {
                    let ms: Vec<String> =
                        w.moves.iter().map(|m| format!("{}, to {}", m.description, m.to_text())).collect();
                    out.push_str(&format!(": {}\n", ms.join("; or ")));
                }
            }
        }
        out
    }

    fn schwenk_text(&self) -> String {
        let Explanation::Schwenk { game, pile, f, h, representation, outcome, winning, why, answers, more_answers } =
            self
        else {
            return String::new();
        };
        let mut out = String::new();
        out.push_str(&format!("{game}, one pile of {pile}\n"));
        let fs: Vec<String> = f.iter().enumerate().map(|(i, v)| format!("f({}) = {v}", i + 1)).collect();
        out.push_str(&format!("After a take of x, the next move may take up to f(x): {}, …\n", fs.join(", ")));
        let hs: Vec<String> = h.iter().map(|v| v.to_string()).collect();
        out.push_str(&format!(
            "Schwenk's sequence: H(1) = 1, and H(k+1) = H(k) + H(m) with m the least j such that f(H(j)) ≥ H(k):\n  {}\n",
            hs.join(", ")
        ));
        if is_fibonacci(h) {
            out.push_str("These are the Fibonacci numbers, and the sum below is the Zeckendorf representation.\n");
        }
        if representation.len() == 1 {
            out.push_str(&format!("{pile} is itself a term of H.\n"));
        } else {
            let terms: Vec<String> = representation.iter().rev().map(|v| v.to_string()).collect();
            out.push_str(&format!(
                "{pile} = {}: a sum of terms of H, each larger than f of the next smaller one\n",
                terms.join(" + ")
            ));
        }
        out.push_str(&format!("outcome: {}\n", outcome_words(*outcome)));
        if let Some(w) = winning {
            out.push_str(&format!("winning move: {}, to {}\n", w.description, w.to_text()));
        }
        out.push_str(&format!("Why: {why}\n"));
        answers_text(&mut out, answers, *more_answers);
        out
    }

    fn quotient_text(&self) -> String {
        let Explanation::Quotient {
            game,
            position,
            piles,
            products,
            product,
            p_portion,
            computed,
            whole_game,
            generators,
            relations,
            outcome,
            winning,
            tame_values,
            more_winning,
            answers,
            more_answers,
        } = self
        else {
            return String::new();
        };
        let mut out = String::new();
        out.push_str(&format!("{game}, position {}\n", Position::shown(position, false)));
        if let Some(values) = tame_values {
            let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let xor = values.iter().fold(0, |a, v| a ^ v);
            let small = values.iter().all(|&v| v <= 1);
            out.push_str(&format!(
                "Every pile is tame: it acts as the nim heap of its normal-play value ({}). Misère Nim's rule: {}, and the XOR is {xor}, so {}.\n",
                shown.join(", "),
                if small { "every value is at most 1, so the position is P exactly when the XOR is 1" } else { "some value is 2 or more, so the position is P exactly when the XOR is 0" },
                if *outcome == Outcome::P { "it is P" } else { "it is N" }
            ));
            out.push_str("The quotient below says the same:\n");
        }
        let of = if *whole_game {
            "of the whole game (Φ's period is proven)".to_string()
        } else {
            format!("of sums of heaps up to {computed}")
        };
        out.push_str(&format!("Under misère play each pile pretends to be an element of the misère quotient {of}\n"));
        out.push_str(&format!("(generators {}; relations {}).\n", generators.join(", "), relations.join(", ")));
        out.push_str("Each pile's element, and the product so far:\n");
        for ((pile, x), running) in piles.iter().zip(products) {
            out.push_str(&format!("  Φ({pile}) = {x:<8} product {running}\n"));
        }
        out.push_str(&format!(
            "The position is the product {product}. The P-portion is {{{}}}.\n",
            p_portion.join(", ")
        ));
        let verdict = if *outcome == Outcome::P { "is in" } else { "is not in" };
        out.push_str(&format!("{product} {verdict} the P-portion, so the outcome is {}\n", outcome_words(*outcome)));
        if !winning.is_empty() {
            out.push_str("Winning moves: each leaves a position whose product is in the P-portion:\n");
            for (step, x) in winning {
                out.push_str(&format!("  {}, to {}: product {x}\n", step.description, step.to_text()));
            }
            if *more_winning {
                out.push_str("  … and more of the same kinds\n");
            }
        }
        answers_text(&mut out, answers, *more_answers);
        out
    }

    fn options_text(&self) -> String {
        let Explanation::Options {
            game,
            position,
            cells,
            outcome,
            grundy,
            options,
            more_options,
            answers,
            more_answers,
            misere,
            loopy,
            last,
        } = self
        else {
            return String::new();
        };
        let mut out = String::new();
        let previous = last.map(|l| format!(" (the previous move took {l})")).unwrap_or_default();
        out.push_str(&format!("{game}, position {}{previous}\n", Position::shown(position, *cells)));
        if options.is_empty() && *misere {
            out.push_str("No move is possible: under misère play the player to move has won.\n");
        } else if options.is_empty() {
            out.push_str("No move is possible: the player to move has lost.\n");
        } else {
            out.push_str("Each move, and what it leaves:\n");
            for o in options {
                let g = o.grundy.map(|g| format!(", Grundy value {g}")).unwrap_or_default();
                let o_text = o.outcome.letter();
                let mut described = o.step.description.clone();
                for other in &o.also {
                    described.push_str(&format!(", or {other}"));
                }
                let to = match o.also.len() {
                    0 => ", to",
                    1 => ": both to",
                    _ => ": all to",
                };
                out.push_str(&format!("  {described}{to} {}: {o_text}{g}\n", o.step.to_text()));
            }
            if *more_options > 0 {
                out.push_str(&format!("  … and {more_options} more moves\n"));
            }
        }
        out.push_str(&format!("outcome: {}\n", outcome_words(*outcome)));
        match grundy {
            Some(g) if *loopy => out.push_str(&format!(
                "Grundy value: {g} (Smith's generalised value: no option has {g}, every smaller value is an option's, and from every option of a larger or ∞ value there is a move back to {g})\n"
            )),
            Some(g) => out.push_str(&format!("Grundy value: {g} (the mex of the values above)\n")),
            None => {}
        }
        if !options.is_empty() {
            out.push_str(match outcome {
                Outcome::N => "A position is N when some move leads to a P-position: those moves win.\n",
                Outcome::P => "A position is P when every move leads to an N-position.\n",
                Outcome::D => "A position is a draw when no move leads to a P-position but some move leads to a draw: the player to move can keep the game going, and so can the opponent after that, for ever.\n",
            });
        }
        answers_text(&mut out, answers, *more_answers);
        out
    }

    fn cells_text(&self) -> String {
        let Explanation::Cells {
            game,
            product,
            games,
            cells,
            options,
            more_options,
            reached,
            columns,
            nim_sum,
            outcome,
            winning,
            answers,
            more_answers,
        } = self
        else {
            return String::new();
        };
        let mut out = String::new();
        let position: Vec<u64> = cells.iter().flat_map(|c| [c.x, c.y]).collect();
        out.push_str(&format!("{game} ({product}), position {}\n", Position::shown(&position, true)));
        out.push_str("Each cell is a game of its own, and its Grundy value is:\n");
        for c in cells {
            out.push_str(&format!("  G({}, {}) = {}", c.x, c.y, c.grundy));
            if let Some((a, b)) = c.factors {
                out.push_str(&format!(
                    " = {a} ⊗ {b}, the nim-product of G({}) = {a} in {} and G({}) = {b} in {} (the tartan theorem)",
                    c.x, games[0], c.y, games[1]
                ));
            }
            out.push('\n');
        }
        if let [c] = cells.as_slice() {
            if options.is_empty() {
                out.push_str("No move is possible, so the Grundy value is mex{} = 0.\n");
            } else {
                out.push_str("Each move of the cell, and the Grundy value of what it leaves:\n");
                for o in options {
                    let names: Vec<String> = o.parts.iter().map(|p| format!("G({}, {})", p.x, p.y)).collect();
                    let values: Vec<String> = o.parts.iter().map(|p| p.grundy.to_string()).collect();
                    let value = match names.len() {
                        0 => "nothing left: 0".to_string(),
                        1 => format!("{} = {}", names[0], values[0]),
                        _ => format!("{} = {} = {}", names.join(" ⊕ "), values.join(" ⊕ "), o.grundy),
                    };
                    out.push_str(&format!("  {}: {value}\n", o.step.description));
                }
                if *more_options > 0 {
                    out.push_str(&format!("  … and {more_options} more moves\n"));
                }
                out.push_str(&format!(
                    "G({}, {}) = mex{} = {}, the least number not among them\n",
                    c.x,
                    c.y,
                    set_text(reached),
                    c.grundy
                ));
            }
        } else if !cells.is_empty() {
            let labels: Vec<String> = cells.iter().map(|c| format!("({}, {})", c.x, c.y)).collect();
            let values: Vec<u64> = cells.iter().map(|c| c.grundy).collect();
            out.push_str("The cells' values in binary, and their nim-sum:\n");
            out.push_str(&columns_text("cell", &labels, &values, columns));
            out.push_str(&format!("The nim-sum (XOR) is {nim_sum}.\n"));
        }
        out.push_str(&format!("outcome: {}\n", outcome_words(*outcome)));
        if !winning.is_empty() {
            out.push_str(&format!(
                "A winning move changes one cell's value v to v ⊕ {nim_sum}, making the nim-sum 0:\n"
            ));
            for w in winning {
                out.push_str(&format!("  {}, to {}\n", w.description, w.to_text()));
            }
        }
        answers_text(&mut out, answers, *more_answers);
        out
    }
}
