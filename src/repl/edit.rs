//! Changing the current game's rules one at a time: `:rules` numbers them, `:drop N` removes
//! one, `:replace N RULE` puts another in its place. The text is changed and checked whole, so
//! a change that breaks the game is refused with its diagnostic and the game stays as it was.

use takeaway_core::{load_game, Budget, Source};

use super::{Entry, ReplError, Reply, Session};

/// The byte ranges of the rule lines of a game's text (`move:`, `first move:`, `left move:`,
/// `right move:`), in order: rule N of `:rules` is the N-th.
fn rule_spans(text: &str) -> Vec<(usize, usize)> {
    takeaway_core::text::outline(text).map(|o| o.rules).unwrap_or_default()
}

/// Whether `text` is one rule line and nothing else. A text that does not parse is let through:
/// checked in its place in the game, its diagnostic says what is wrong with it.
fn is_one_rule(text: &str) -> bool {
    match takeaway_core::text::outline(text) {
        Ok(outline) => {
            !text.contains('\n') && outline.rules.len() == 1 && outline.rules[0].0 == 0 && {
                let (_, end) = outline.rules[0];
                text[end..].trim().is_empty() || text[end..].trim_start().starts_with('#')
            }
        }
        Err(_) => !text.contains('\n'),
    }
}

impl Session {
    /// `:rules`: the current game's rules, numbered.
    pub(super) fn list_rules(&self) -> Reply {
        let entry = match self.current() {
            Ok(e) => e,
            Err(e) => return Reply::err(e),
        };
        let spans = rule_spans(&entry.text);
        if spans.is_empty() {
            return Reply::ok(format!("{} takes its moves from the games it is made of\n", entry.name()));
        }
        let width = spans.len().to_string().len();
        let mut out = String::new();
        for (i, (start, end)) in spans.iter().enumerate() {
            out.push_str(&format!("{:>width$}  {}\n", i + 1, entry.text[*start..*end].trim()));
        }
        out.push_str("(:drop N removes rule N; :replace N move: … puts another in its place)\n");
        Reply::ok(out)
    }

    /// `:drop N` (no `replacement`) or `:replace N RULE`.
    pub(super) fn edit_rule(&mut self, command: &'static str, arg: &str, input: &str) -> Reply {
        let example = if command == ":drop" { ":drop 2" } else { ":replace 2 move: take 1..4" };
        let (number, replacement) = match arg.split_once(char::is_whitespace) {
            Some((n, rest)) => (n, rest.trim()),
            None => (arg, ""),
        };
        if number.is_empty() || (command == ":replace" && replacement.is_empty()) {
            let what =
                if command == ":drop" { "the number of a rule" } else { "a rule's number and the rule to put there" };
            return Reply::err(self.render(&ReplError::MissingArgument { command, what, example }, input));
        }
        if command == ":drop" && !replacement.is_empty() {
            // `:drop 1 2` would silently keep rule 2: say so instead.
            let at = input.rfind(replacement).unwrap_or(0);
            let e = ReplError::Usage {
                span: (at, replacement.len()),
                message: format!("`:drop` removes one rule; `{replacement}` is left over"),
                help: "drop one rule at a time (the rules are numbered anew after each: `:rules` lists them)".into(),
            };
            return Reply::err(self.render(&e, input));
        }
        if command == ":replace" && !is_one_rule(replacement) {
            let at = input.rfind(replacement).unwrap_or(0);
            let e = ReplError::Usage {
                span: (at, replacement.len()),
                message: format!("`{replacement}` is not a rule: `:replace` puts one rule in the place of another"),
                help: "a rule is a line such as `move: take 1..4` or `left move: take 1`; the game's other lines \
                       (`play misère`, `pile`, `param`) change by defining the game again (`:show` gives its text)"
                    .into(),
            };
            return Reply::err(self.render(&e, input));
        }
        let Some(i) = self.current else {
            return Reply::err(self.current().err().unwrap_or_default());
        };
        let text = self.games[i].text.clone();
        let spans = rule_spans(&text);
        let Some(&(start, end)) =
            number.parse::<usize>().ok().and_then(|n| n.checked_sub(1)).and_then(|n| spans.get(n))
        else {
            let at = input.find(number).unwrap_or(0);
            let e = ReplError::Usage {
                span: (at, number.len()),
                message: format!(
                    "`{number}` is not the number of a rule: {} has {}",
                    self.games[i].name(),
                    spans.len()
                ),
                help: "`:rules` lists them, numbered".into(),
            };
            return Reply::err(self.render(&e, input));
        };
        let changed = if command == ":drop" {
            // The whole line goes, with its line end.
            let end = text[end..].find('\n').map_or(text.len(), |k| end + k + 1);
            format!("{}{}", &text[..start], &text[end..])
        } else {
            format!("{}{}{}", &text[..start], replacement, &text[end..])
        };
        self.redefine(i, changed)
    }

    /// The current game made again from `text`, or a diagnostic and the game unchanged.
    fn redefine(&mut self, i: usize, text: String) -> Reply {
        let entry = &self.games[i];
        let name = entry.name().to_string();
        let settings = entry.settings.clone();
        let library = self.library(Some(i));
        let loaded =
            load_game(Source::new(format!("<{name}>"), text.clone()), &name, &settings, &library, &Budget::new());
        match loaded {
            Ok(loaded) => {
                let header = takeaway_core::text::without_moves(&text);
                let origin = self.games[i].origin.clone();
                self.games[i] = Entry { text, header, settings, loaded, origin };
                Reply::ok(format!("changed {}\n", self.games[i].describe()))
            }
            Err(failure) => {
                let mut reply = Reply::err(failure.render(self.color));
                reply.error.push_str("(the game is unchanged)\n");
                reply
            }
        }
    }
}
