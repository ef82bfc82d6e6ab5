//! Amounts and expressions: names resolved, types checked, constants folded, and amounts that
//! can never be taken reported (naming the `--set` that made them so).

use super::*;
use crate::wording::{give_value, Argument};

impl Checker<'_> {
    pub(super) fn amount(&mut self, amount: &Spanned<ast::AmountSpec>, scope: Scope) -> Amount {
        match &amount.node {
            ast::AmountSpec::Any => Amount::Any,
            ast::AmountSpec::AnyExcept(list) => Amount::AnyExcept(self.choices(list, scope, false)),
            ast::AmountSpec::Bound(op, e) => {
                let bound = self.expr(e, scope, Ty::Int);
                match bound {
                    Some(b) => Amount::Bound(op.node, b),
                    None => Amount::Any,
                }
            }
            ast::AmountSpec::Choices(list) => {
                // `take t where …` names the amount instead of bounding it.
                if let [ast::ChoiceSpec::Value(e)] = list.as_slice() {
                    if matches!(&e.node, ast::ExprKind::Name(n) if n == "t") {
                        return Amount::Any;
                    }
                }
                Amount::Choices(self.choices(list, scope, true))
            }
        }
    }

    pub(super) fn choices(&mut self, list: &[ast::ChoiceSpec], scope: Scope, taken: bool) -> Vec<Choice> {
        let mut out = Vec::new();
        for c in list {
            match c {
                ast::ChoiceSpec::Value(e) => {
                    // A set parameter stands for its members, each an amount of its own.
                    if let ast::ExprKind::Name(name) = &e.node {
                        if let Some(members) = self.set_param(name) {
                            for m in members.unwrap_or_default() {
                                if taken && m <= 0 {
                                    let before = self.errors.len();
                                    self.errors.push(CheckError::ImpossibleAmount {
                                        span: e.span,
                                        what: format!("the amount {m} in {name}"),
                                        help: "the members of a set of amounts are positive numbers of counters".into(),
                                    });
                                    self.blame_settings(before, &[e]);
                                    continue;
                                }
                                out.push(Choice::Value(Expr::new(ExprKind::Int(m), e.span)));
                            }
                            continue;
                        }
                    }
                    if let Some(v) = self.expr(e, scope, Ty::Int) {
                        if taken {
                            let before = self.errors.len();
                            self.check_taken_constant(&v, &v, e.span);
                            self.blame_settings(before, &[e]);
                            if self.errors.len() > before {
                                if let ast::ExprKind::Binary(ast::BinOp::Sub, x, y) = &e.node {
                                    if let (ast::ExprKind::Int(x), ast::ExprKind::Int(y)) = (&x.node, &y.node) {
                                        if let Some(CheckError::ImpossibleAmount { help, .. }) = self.errors.last_mut()
                                        {
                                            *help = format!("a range is written with two dots: `{x}..{y}` (`{x}-{y}` is a subtraction)");
                                        }
                                    }
                                }
                            }
                        }
                        out.push(Choice::Value(v));
                    }
                }
                ast::ChoiceSpec::Range(a, b) => {
                    let (lo, hi) = (self.expr(a, scope, Ty::Int), self.expr(b, scope, Ty::Int));
                    if let (Some(lo), Some(hi)) = (lo, hi) {
                        if taken {
                            let before = self.errors.len();
                            self.check_taken_constant(&lo, &hi, a.span.to(b.span));
                            self.blame_settings(before, &[a, b]);
                        }
                        out.push(Choice::Range(lo, hi));
                    }
                }
            }
        }
        out
    }

    /// Where the amounts just reported impossible read a parameter given by `--set`, the
    /// diagnostic names the setting, since the game's text alone is not wrong.
    pub(super) fn blame_settings(&mut self, before: usize, exprs: &[&ast::Expr]) {
        let mut names = Vec::new();
        let mut stack: Vec<&ast::Expr> = exprs.to_vec();
        while let Some(e) = stack.pop() {
            match &e.node {
                ast::ExprKind::Name(n) => names.push(n.clone()),
                ast::ExprKind::Unary(_, x) => stack.push(x),
                ast::ExprKind::Binary(_, x, y) => stack.extend([&**x, &**y]),
                ast::ExprKind::Call(_, args) => stack.extend(args.iter()),
                ast::ExprKind::Int(_) => {}
            }
        }
        let Some((name, value, own)) = self.set_params.iter().find(|(n, _, _)| names.contains(n)).cloned() else {
            return;
        };
        for error in &mut self.errors[before..] {
            if let CheckError::ImpossibleAmount { what, help, .. } = error {
                *what = format!(
                    "with {name} = {value} (given by {}), {what}",
                    give_value(Argument::Set, format!("{name}={value}"))
                );
                *help = match &own {
                    Some(own) => format!(
                        "this value of {name} leaves the rule nothing to take; the game's own value is {name} = {own}"
                    ),
                    None => format!("this value of {name} leaves the rule nothing to take: give {name} another value"),
                };
            }
        }
    }

    /// Amounts known before play: an empty range, a negative amount or 0 is a mistake.
    pub(super) fn check_taken_constant(&mut self, lo: &Expr, hi: &Expr, span: Span) {
        let (Some(a), Some(b)) = (self.fold(lo), self.fold(hi)) else {
            if let Some(a) = lo.constant() {
                if a == 0 {
                    self.errors.push(CheckError::TakesNothing { span: lo.span });
                }
            }
            return;
        };
        if a > b {
            self.errors.push(CheckError::ImpossibleAmount {
                span,
                what: format!("the range {a}..{b}"),
                help: format!("a range goes from the smaller number to the larger: {b}..{a}"),
            });
        } else if b < 0 {
            self.errors.push(CheckError::ImpossibleAmount {
                span,
                what: if a == b { format!("the amount {a}") } else { format!("the range {a}..{b}") },
                help: "amounts are positive numbers of counters".into(),
            });
        } else if a <= 0 {
            self.errors.push(CheckError::TakesNothing { span });
        }
    }

    /// The value of an expression that reads no variable, reporting overflow or division by
    /// zero now rather than during play. `None` when it depends on play or fails.
    pub(super) fn fold(&mut self, e: &Expr) -> Option<i64> {
        if !e.is_fixed() {
            return None;
        }
        match e.int(&Default::default()) {
            Ok(v) => Some(v),
            Err(err) => {
                self.errors.push(err.into());
                None
            }
        }
    }

    /// `3/2` between fixed numbers is 1 in whole numbers: someone who writes it means 1.5, so
    /// say so rather than play a different game. A division that reads n, t or last rounds
    /// down on purpose (`take ≤ n/2`).
    pub(super) fn check_fraction(&mut self, a: &Expr, b: &Expr, span: Span) {
        let (Some(x), Some(y)) = (a.constant(), b.constant()) else { return };
        if y != 0 && x.checked_rem_euclid(y).is_some_and(|r| r != 0) {
            let whole = x.div_euclid(y);
            self.errors.push(CheckError::InexactFraction { span, a: x, b: y, whole });
        }
    }

    pub(super) fn constant(&mut self, e: &ast::Expr, what: &'static str) -> Option<i64> {
        let before = self.errors.len();
        let checked = self.expr(e, Scope::CONSTANT, Ty::Int)?;
        if self.errors.len() > before {
            return None;
        }
        match checked.int(&Default::default()) {
            Ok(v) => Some(v),
            Err(rules::expr::EvalError::Unbound { .. }) => {
                self.errors.push(CheckError::NotConstant { span: e.span, what });
                None
            }
            Err(err) => {
                self.errors.push(err.into());
                None
            }
        }
    }

    pub(super) fn expr(&mut self, e: &ast::Expr, scope: Scope, want: Ty) -> Option<Expr> {
        let (checked, ty) = self.infer(e, scope)?;
        if ty != want {
            self.errors.push(match want {
                Ty::Bool => CheckError::ExpectedCondition { span: e.span },
                Ty::Int => CheckError::ExpectedNumber { span: e.span },
            });
            return None;
        }
        Some(checked)
    }

    pub(super) fn infer(&mut self, e: &ast::Expr, scope: Scope) -> Option<(Expr, Ty)> {
        let span = e.span;
        match &e.node {
            ast::ExprKind::Int(text) => match text.parse::<i64>() {
                Ok(v) => Some((Expr::new(ExprKind::Int(v), span), Ty::Int)),
                Err(_) => {
                    self.errors.push(CheckError::NumberTooLarge { span, text: text.clone() });
                    None
                }
            },
            ast::ExprKind::Name(name) => self.name(name, span, scope),
            ast::ExprKind::Unary(op, a) => {
                let want = if *op == UnOp::Neg { Ty::Int } else { Ty::Bool };
                let a = self.expr(a, scope, want)?;
                Some((Expr::new(ExprKind::Unary(*op, Box::new(a)), span), want))
            }
            ast::ExprKind::Binary(op, a, b) => {
                let (operand, result) = match op {
                    BinOp::And | BinOp::Or => (Ty::Bool, Ty::Bool),
                    BinOp::Cmp(_) => (Ty::Int, Ty::Bool),
                    _ => (Ty::Int, Ty::Int),
                };
                let a = self.expr(a, scope, operand);
                let b = self.expr(b, scope, operand);
                let (a, b) = (a?, b?);
                if *op == BinOp::Div {
                    self.check_fraction(&a, &b, span);
                }
                Some((Expr::new(ExprKind::Binary(*op, Box::new(a), Box::new(b)), span), result))
            }
            ast::ExprKind::Call(name, args) => {
                let Some(func) = Func::lookup(&name.node) else {
                    let names: Vec<&str> = Func::ALL.iter().map(|(n, _)| *n).collect();
                    self.errors.push(CheckError::UnknownFunction {
                        span: name.span,
                        name: name.node.clone(),
                        help: suggest(&name.node, &names, "the functions are"),
                    });
                    return None;
                };
                let (ok, expected, example) = match func {
                    Func::Min | Func::Max => (!args.is_empty(), "one or more numbers", "min(3, n)"),
                    _ if func.is_predicate() => (args.len() == 1, "one number", "prime(t)"),
                    _ => (args.len() == 1, "one number", "abs(n - last)"),
                };
                if !ok {
                    self.errors.push(CheckError::WrongArity {
                        span,
                        name: name.node.clone(),
                        expected,
                        found: match args.len() {
                            0 => "nothing".into(),
                            1 => "one argument".into(),
                            k => format!("{k} arguments"),
                        },
                        example,
                    });
                    return None;
                }
                let checked: Vec<Option<Expr>> = args.iter().map(|a| self.expr(a, scope, Ty::Int)).collect();
                let checked: Option<Vec<Expr>> = checked.into_iter().collect();
                let ty = if func.is_predicate() { Ty::Bool } else { Ty::Int };
                Some((Expr::new(ExprKind::Call(func, checked?), span), ty))
            }
        }
    }

    pub(super) fn name(&mut self, name: &str, span: Span, scope: Scope) -> Option<(Expr, Ty)> {
        if let Some(names) = &self.pair_names {
            if let Some(i) = names.iter().position(|n| n == name) {
                let var = if i == 0 { Var::First } else { Var::Second };
                return Some((Expr::new(ExprKind::Var(var), span), Ty::Int));
            }
        }
        let var = match name {
            "n" => Some((Var::N, scope.n)),
            "t" => Some((Var::T, scope.t)),
            "last" => Some((Var::Last, scope.last)),
            _ => None,
        };
        if let Some((var, access)) = var {
            return match access {
                Access::Yes => Some((Expr::new(ExprKind::Var(var), span), Ty::Int)),
                Access::No(reason, help) => {
                    self.errors.push(CheckError::WordNotHere {
                        span,
                        word: var.word(),
                        reason: reason.into(),
                        help: help.into(),
                    });
                    None
                }
                Access::LastUndefined => {
                    self.errors.push(CheckError::LastWithoutFirstMove { span });
                    None
                }
            };
        }
        if let Some((_, v)) = self.params.iter().find(|(n, _)| n == name) {
            return v.map(|v| (Expr::new(ExprKind::Int(v), span), Ty::Int));
        }
        if self.set_param(name).is_some() {
            self.errors.push(CheckError::SetAsNumber { span, name: name.to_string() });
            return None;
        }
        let mut known: Vec<&str> = vec!["n", "t", "last"];
        known.extend(self.params.iter().map(|(n, _)| n.as_str()));
        known.extend(self.pair_names.iter().flatten().map(|n| n.as_str()));
        let mut listed = std::collections::HashSet::new();
        known.retain(|n| listed.insert(*n));
        let help = suggest(name, &known, "the names here are");
        let fix = super::close_word(name, &known).map(str::to_string);
        self.errors.push(CheckError::UnknownName { span, name: name.to_string(), help, fix });
        None
    }
}
