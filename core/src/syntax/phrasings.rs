//! The phrasings teachers write that the language says another way: `take a square number`,
//! `take up to 2*last`, `Left: take 1 or 2`. A diagnostic on such a line gets help that shows
//! the language's way, with the teacher's own numbers where there are some.

/// The help for a statement written in a phrasing the language says another way, or `None`.
/// `line` is the whole line the diagnostic falls on (comments included: they are cut here).
pub(crate) fn phrasing_help(line: &str) -> Option<String> {
    let line = line.split('#').next().unwrap_or("").trim();
    // The help quotes the line back: a control character in it is the mistake to name (the
    // parser does), and would reach a terminal as it is.
    if line.chars().any(char::is_control) {
        return None;
    }
    let lower = line.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    let has = |w: &str| words.contains(&w);
    // `Left: take 1 or 2`: a player's rule is a `left move:` or a `right move:`.
    for (side, name) in [("left", "Left"), ("right", "Right")] {
        if let Some(rest) = lower.strip_prefix(side) {
            let rest = rest.trim_start();
            if let Some(rule) = rest.strip_prefix(':').or_else(|| rest.strip_prefix("moves:")) {
                let rule = line[line.len() - rule.len()..].trim();
                return Some(format!(
                    "a rule for one player starts `{side} move:`: write `{side} move: {rule}` ({name} only; `move:` is a rule for both)"
                ));
            }
        }
    }
    // `param S = 1, 3, 4`: a set of amounts is written in braces.
    if lower.starts_with("param") {
        if let Some((name, value)) = line["param".len()..].split_once('=') {
            let value = value.trim();
            if value.contains(',') && !value.starts_with('{') {
                return Some(format!("a set of amounts is written in braces: `param {} = {{{value}}}`", name.trim()));
            }
        }
        return None;
    }
    let rule = lower.split_once(':').map_or(lower.as_str(), |(_, r)| r).trim();
    let rule_text = line.split_once(':').map_or(line, |(_, r)| r).trim();
    if !rule.starts_with("take") {
        return None;
    }
    // `take 1, 4, 9, 16, ...`: a list is every amount, or a condition on t says which.
    if rule.contains("...") || rule.contains('…') {
        let listed: Vec<&str> = rule_text
            .trim_start_matches("take")
            .split([',', '.', '…'])
            .map(str::trim)
            .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
            .collect();
        let squares = listed.len() >= 2
            && listed.iter().all(|w| w.parse::<u64>().is_ok_and(|v| (v as f64).sqrt().round().powi(2) as u64 == v));
        let way = if squares {
            "the squares are `take any where square(t)`".to_string()
        } else {
            "say which amounts with a condition on t, such as `take any where square(t)` or `take any where t % 2 == 1`"
                .to_string()
        };
        return Some(format!(
            "a list of amounts has no `...`: {way}; or list them all, as in `take {}`",
            list_or(&listed)
        ));
    }
    // `take a square number`, `take squares`, `take k^2`.
    let power_of_a_name = rule_text.split_whitespace().any(|w| {
        w.len() >= 3 && w.chars().next().is_some_and(char::is_alphabetic) && (w.ends_with("^2") || w.ends_with('²'))
    });
    if !has("where") && (has("square") || has("squares") || has("squared") || power_of_a_name) {
        return Some(
            "a square number is said with a condition on the amount t: `take any where square(t)` (1, 4, 9, 16, …)"
                .into(),
        );
    }
    // `take up to 2*last`: at most is `≤`.
    if let Some(bound) = rule.strip_prefix("take").map(str::trim_start).and_then(|r| r.strip_prefix("up to")) {
        let bound = rule_text.get(rule_text.len() - bound.len()..).unwrap_or(bound).trim();
        let bound = if bound.is_empty() { "2·last" } else { bound };
        return Some(format!("at most is written `≤` (or `<=`): `take ≤ {bound}`"));
    }
    // `take 1..2last`: a product needs its sign.
    if let Some((number, name)) = implicit_product(rule_text) {
        return Some(format!(
            "a product needs its sign: `{number}*{name}` (or `{number}·{name}`), as in `take 1..{number}*{name}`"
        ));
    }
    // `take the same from both piles`, `take k from both piles`.
    if (has("same") || has("both") || has("equal")) && !has("any") && (has("both") || has("piles")) {
        return Some(
            "the same amount from both piles is `take any from both piles` (Wythoff's game adds `take any from one pile`, on `piles 2`)"
                .into(),
        );
    }
    // `take 1 or 2 adjacent`: counters next to each other in a row, the rest left as two rows.
    if has("adjacent") || has("consecutive") || has("neighbouring") || has("neighboring") {
        let amount = rule_text
            .trim_start_matches("take")
            .split_whitespace()
            .filter(|w| !is_adjacency(w))
            .collect::<Vec<_>>()
            .join(" ");
        return Some(format!(
            "taking counters next to each other from a row, which may leave two rows, is a split: `take {amount}, then split` (Kayles is `take 1 or 2, then split`)"
        ));
    }
    // `take 1..2 then split`: a comma before `then`.
    if let Some(at) = rule.find(" then split") {
        if !rule[..at].trim_end().ends_with(',') {
            let before = rule_text.get(..at).unwrap_or(rule_text).trim_end();
            return Some(format!("add a comma before `then split`: `{before}, then split`"));
        }
    }
    None
}

fn is_adjacency(word: &str) -> bool {
    matches!(word.to_lowercase().as_str(), "adjacent" | "consecutive" | "neighbouring" | "neighboring" | "counters")
}

/// `2last` in a rule: a number written against a name, as `(2, "last")`.
fn implicit_product(rule: &str) -> Option<(&str, &str)> {
    let bytes = rule.as_bytes();
    for i in 1..bytes.len() {
        let starts_number = i == 1 || !(bytes[i - 2].is_ascii_alphanumeric() || bytes[i - 2] == b'_');
        if bytes[i - 1].is_ascii_digit() && bytes[i].is_ascii_alphabetic() {
            // Past the last character that is not a digit, however many bytes it takes.
            let start =
                rule[..i].char_indices().rev().find(|(_, c)| !c.is_ascii_digit()).map_or(0, |(s, c)| s + c.len_utf8());
            let end = rule[i..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(rule.len(), |e| i + e);
            let before_start = rule[..start].chars().next_back();
            if starts_number || before_start.is_none_or(|c| !c.is_alphanumeric()) {
                return Some((&rule[start..i], &rule[i..end]));
            }
        }
    }
    None
}

/// `1, 4, 9 or 16`, or the first squares when nothing was listed.
fn list_or(listed: &[&str]) -> String {
    match listed {
        [] | [_] => "1, 4, 9 or 16".into(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::{implicit_product, phrasing_help};

    /// A number written against a name after a character of more than one byte (found by the
    /// mutated game files' property test, which it crashed).
    #[test]
    fn a_number_against_a_name_after_a_wide_character_is_read_whole() {
        assert_eq!(implicit_product("take a·9move"), Some(("9", "move")));
        assert_eq!(implicit_product("take ≤ 2last"), Some(("2", "last")));
        assert_eq!(implicit_product("take é12last"), None);
        assert!(phrasing_help("take a·9move: split").is_none_or(|help| !help.is_empty()));
    }

    /// Each phrasing of the teacher's trial, and the language's way its help shows.
    #[test]
    fn each_phrasing_is_shown_the_languages_way() {
        for (line, way) in [
            ("move: take a square number", "`take any where square(t)`"),
            ("move: take squares", "`take any where square(t)`"),
            ("move: take k^2", "`take any where square(t)`"),
            ("move: take 1, 4, 9, 16, ...", "the squares are `take any where square(t)`"),
            ("move: take 1, 3, 5, ...", "list them all, as in `take 1, 3 or 5`"),
            ("move: take up to 2*last", "`take ≤ 2*last`"),
            ("move: take 1..2last", "`2*last`"),
            ("move: take 1 or 2 adjacent", "`take 1 or 2, then split`"),
            ("move: take the same from both piles", "`take any from both piles`"),
            ("move: take k from both piles", "`take any from both piles`"),
            ("param S = 1, 3, 4", "`param S = {1, 3, 4}`"),
            ("Left: take 1 or 2", "`left move: take 1 or 2`"),
            ("right: take 2", "`right move: take 2`"),
            ("move: take 1..2 then split", "`take 1..2, then split`"),
        ] {
            let help = phrasing_help(line).unwrap_or_else(|| panic!("{line}: no help"));
            assert!(help.contains(way), "{line}: {help}");
        }
    }

    #[test]
    fn a_line_with_a_control_character_is_not_quoted_back() {
        assert_eq!(phrasing_help("move: take up to 2*last\u{1b}[2J"), None);
        assert_eq!(phrasing_help("Left:\u{7} take 1 or 2"), None);
    }

    #[test]
    fn what_the_language_says_is_left_alone() {
        for line in [
            "move: take any where square(t)",
            "move: take any from both piles",
            "move: take 1..3, then split",
            "left move: take 1 or 2",
            "param S = {1, 3, 4}",
            "move: take ≤ 2·last",
            "move: take any from up to 2 piles",
        ] {
            assert_eq!(phrasing_help(line), None, "{line}");
        }
    }
}
