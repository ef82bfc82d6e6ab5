//! Parameters: `param k = 3` and `param S = {1, 3, 4}`, and the `--set` values that override
//! them. A set parameter stands where amounts are listed (`take S`, `take any except S`).

use super::*;
use crate::wording::{give_value, Argument};

/// The most members a set parameter may have once its ranges are written out.
pub(crate) const MAX_SET_MEMBERS: usize = 10_000;

pub use crate::vocab::SettingValue;

impl Checker<'_> {
    /// A `param` statement, with the `--set` value that overrides it, if any.
    pub(super) fn param(
        &mut self,
        pname: &Spanned<String>,
        default: Option<&ast::ParamDefault>,
        settings: &[(String, SettingValue)],
    ) {
        let name = pname.node.clone();
        let setting = settings.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone());
        let mismatch = |given: &SettingValue, wanted: String| CheckError::SettingKind {
            span: pname.span,
            name: name.clone(),
            given: given.to_string(),
            wanted,
        };
        match (default, setting) {
            (Some(ast::ParamDefault::Set(_)), Some(given @ SettingValue::Number(_))) => {
                self.errors.push(mismatch(
                    &given,
                    format!("a set of amounts, such as {}", give_value(Argument::Set, "S={1,2,5}")),
                ));
                self.sets.push((name, None));
            }
            (Some(ast::ParamDefault::Number(_)), Some(given @ SettingValue::Set(_))) => {
                self.errors.push(mismatch(&given, format!("a number, such as {}", give_value(Argument::Set, "k=5"))));
                self.params.push((name, None));
            }
            (_, Some(SettingValue::Set(members))) => {
                let shown = SettingValue::Set(members.clone()).to_string();
                self.set_params.push((name.clone(), shown, None));
                self.sets.push((name, Some(members)));
            }
            (Some(ast::ParamDefault::Set(choices)), None) => {
                let members = self.set_members(&choices.node, choices.span);
                self.sets.push((name, members));
            }
            (default, Some(SettingValue::Number(v))) => {
                let own = match default {
                    Some(ast::ParamDefault::Number(e)) => match &e.node {
                        ast::ExprKind::Int(text) => Some(text.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                self.set_params.push((name.clone(), v.to_string(), own));
                self.params.push((name, Some(v)));
            }
            (Some(ast::ParamDefault::Number(e)), None) => {
                let value = self.constant(e, "a parameter's value");
                self.params.push((name, value));
            }
            (None, None) => {
                self.errors.push(CheckError::ParamWithoutValue { span: pname.span, name: name.clone() });
                self.params.push((name, None));
            }
        }
    }

    /// The members of a set written in a `param` line, ranges written out.
    fn set_members(&mut self, choices: &[ast::ChoiceSpec], span: Span) -> Option<Vec<i64>> {
        let mut members = Vec::new();
        for c in choices {
            match c {
                ast::ChoiceSpec::Value(e) => members.push(self.constant(e, "a member of a set")?),
                ast::ChoiceSpec::Range(a, b) => {
                    let (lo, hi) = (self.constant(a, "a member of a set")?, self.constant(b, "a member of a set")?);
                    if hi.saturating_sub(lo) >= MAX_SET_MEMBERS as i64 {
                        self.errors.push(CheckError::SetTooLarge { span, most: MAX_SET_MEMBERS });
                        return None;
                    }
                    members.extend(lo..=hi);
                }
            }
            if members.len() > MAX_SET_MEMBERS {
                self.errors.push(CheckError::SetTooLarge { span, most: MAX_SET_MEMBERS });
                return None;
            }
        }
        members.sort_unstable();
        members.dedup();
        Some(members)
    }

    /// The members of the set parameter `name`, if it is one (`Some(None)` when its value
    /// failed and was reported).
    pub(super) fn set_param(&self, name: &str) -> Option<Option<Vec<i64>>> {
        self.sets.iter().find(|(n, _)| n == name).map(|(_, m)| m.clone())
    }
}
